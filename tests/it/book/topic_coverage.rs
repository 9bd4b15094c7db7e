//! Every question's topic is taught by some chapter: `book/topics.toml` names the chapters
//! that teach each topic and terms they must contain, and this test holds the book to it.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use resilience_lab::content::Content;
use serde::Deserialize;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Coverage {
    topic: BTreeMap<String, Topic>,
    /// Question id -> a term a chapter of its topic must contain.
    #[serde(default)]
    question: BTreeMap<String, String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Topic {
    chapters: Vec<String>,
    terms: Vec<String>,
    /// A chapter still to be written that will teach this topic; once it exists it must be listed.
    #[serde(default)]
    waits_for: Option<String>,
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).to_path_buf()
}

fn coverage() -> Coverage {
    let text = fs::read_to_string(root().join("book/topics.toml")).expect("book/topics.toml");
    toml::from_str(&text).expect("book/topics.toml parses")
}

/// The lower-cased text of a topic's chapters, or a message naming the missing one.
fn chapters_text(topic_name: &str, topic: &Topic) -> Result<String, String> {
    let mut text = String::new();
    for chapter in &topic.chapters {
        let path = root().join("book/src").join(chapter);
        let chapter_text =
            fs::read_to_string(&path).map_err(|_| format!("topic {topic_name}: chapter {chapter} does not exist"))?;
        // Terms may wrap across lines: compare with whitespace collapsed.
        text.push_str(
            &chapter_text
                .to_lowercase()
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" "),
        );
        text.push(' ');
    }
    Ok(text)
}

#[test]
fn every_question_topic_is_taught_by_a_chapter() {
    let coverage = coverage();
    let content = Content::load(None).expect("shipped content loads");
    let mut problems = Vec::new();
    for question in content.all_questions() {
        if !coverage.topic.contains_key(&question.topic) {
            problems.push(format!(
                "question {} has topic {}, which book/topics.toml does not list",
                question.id, question.topic
            ));
        }
    }
    for (name, topic) in &coverage.topic {
        if topic.chapters.is_empty() || topic.terms.is_empty() {
            problems.push(format!("topic {name}: needs at least one chapter and one term"));
        }
        if let Some(pending) = &topic.waits_for
            && root().join("book/src").join(pending).is_file()
            && !topic.chapters.contains(pending)
        {
            problems.push(format!(
                "topic {name}: {pending} now exists; add it to the topic's chapters"
            ));
        }
        match chapters_text(name, topic) {
            Err(problem) => problems.push(problem),
            Ok(text) => {
                for term in &topic.terms {
                    if !text.contains(&term.to_lowercase()) {
                        problems.push(format!(
                            "topic {name}: no chapter of {:?} mentions {term:?}",
                            topic.chapters
                        ));
                    }
                }
            }
        }
    }
    let questions = content.all_questions();
    for (id, term) in &coverage.question {
        let Some(question) = questions.iter().find(|q| &q.id == id) else {
            problems.push(format!(
                "book/topics.toml names question {id}, which the bank does not have"
            ));
            continue;
        };
        let Some(topic) = coverage.topic.get(&question.topic) else {
            continue; // reported above
        };
        if let Ok(text) = chapters_text(&question.topic, topic)
            && !text.contains(&term.to_lowercase())
        {
            problems.push(format!(
                "question {id} ({}): no chapter of {:?} mentions {term:?}",
                question.topic, topic.chapters
            ));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn the_check_fails_for_a_topic_no_chapter_teaches() {
    let topic = Topic {
        chapters: vec!["lab1-health.md".into()],
        terms: vec!["a term no chapter has, e.g. xyzzy".into()],
        waits_for: None,
    };
    let text = chapters_text("made-up", &topic).expect("the chapter exists");
    assert!(!text.contains(&topic.terms[0].to_lowercase()));
    let missing = Topic {
        chapters: vec!["no-such-chapter.md".into()],
        ..topic
    };
    assert!(chapters_text("made-up", &missing).is_err());
}
