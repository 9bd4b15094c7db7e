//! The book hangs together: every SUMMARY link, every lab's chapter and every question's lab exist.

use std::fs;
use std::path::Path;

use resilience_lab::content::{Content, LAB_IDS, LabId};

fn book_src() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("book/src")
}

/// The targets of `[text](target.md)` links in a Markdown file.
fn links(markdown: &str) -> Vec<String> {
    markdown
        .split("](")
        .skip(1)
        .filter_map(|rest| rest.split(')').next())
        .map(|target| target.split('#').next().unwrap_or(target).to_string())
        .filter(|target| target.ends_with(".md"))
        .collect()
}

#[test]
fn every_summary_link_exists() {
    let summary = fs::read_to_string(book_src().join("SUMMARY.md")).expect("book/src/SUMMARY.md");
    let targets = links(&summary);
    assert!(
        targets.len() >= 10,
        "introduction, four labs, operating, self-check, guide, sheet, glossary: {targets:?}"
    );
    for target in targets {
        assert!(
            book_src().join(&target).is_file(),
            "SUMMARY.md links to missing {target}"
        );
    }
}

#[test]
fn every_lab_chapter_exists_and_is_in_the_summary() {
    let content = Content::load(None).expect("shipped content loads");
    let summary = fs::read_to_string(book_src().join("SUMMARY.md")).expect("SUMMARY.md");
    for id in LabId::ALL {
        let chapter = &content.lab(id).chapter;
        assert!(
            book_src().join(chapter).is_file(),
            "lab {id} names missing chapter {chapter}"
        );
        assert!(
            summary.contains(&format!("({chapter})")),
            "lab {id}'s chapter {chapter} is not in SUMMARY.md"
        );
    }
}

#[test]
fn every_question_names_a_real_lab_and_the_bank_is_large_enough() {
    let content = Content::load(None).expect("shipped content loads");
    let questions = content.all_questions();
    assert!(
        content.bank.len() >= 60,
        "the bank has {} questions",
        content.bank.len()
    );
    for question in &questions {
        if let Some(lab) = &question.lab {
            assert!(LAB_IDS.contains(&lab.as_str()), "{} names lab {lab}", question.id);
        }
    }
    for id in LAB_IDS {
        assert!(
            questions.iter().any(|q| q.lab.as_deref() == Some(id)),
            "no question for lab {id}"
        );
    }
}

#[test]
fn every_chapter_link_inside_the_book_resolves() {
    for entry in fs::read_dir(book_src()).expect("book/src") {
        let path = entry.expect("entry").path();
        if path.extension().is_some_and(|ext| ext == "md") {
            let text = fs::read_to_string(&path).expect("chapter");
            for target in links(&text) {
                if !target.contains("://") {
                    assert!(
                        book_src().join(&target).is_file(),
                        "{} links to missing {target}",
                        path.display()
                    );
                }
            }
        }
    }
}

/// The README is a newcomer's page: what the project is, the two set-up commands, one screen
/// of use and links; every flag, schema and measurement lives in the book's reference part,
/// which it links, and each of its links resolves.
#[test]
fn the_readme_is_short_and_links_to_the_reference() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = fs::read_to_string(root.join("README.md")).expect("README.md");
    let lines = readme.lines().count();
    assert!(
        lines <= 160,
        "README.md has {lines} lines: move detail into book/src/reference/"
    );
    for command in ["cargo run --release", "cargo test"] {
        assert!(
            readme.contains(command),
            "README.md lost the set-up command `{command}`"
        );
    }
    let targets = links(&readme);
    for chapter in ["app", "command-line", "lab-files", "accuracy", "performance", "layout"] {
        let target = format!("book/src/reference/{chapter}.md");
        assert!(targets.contains(&target), "README.md does not link {target}");
    }
    for target in targets {
        assert!(root.join(&target).is_file(), "README.md links to missing {target}");
    }
    let summary = fs::read_to_string(book_src().join("SUMMARY.md")).expect("book/src/SUMMARY.md");
    assert!(
        summary.contains("(reference/command-line.md)"),
        "the reference is in the book's summary"
    );
}

/// The app's book has every chapter the summary names: the build embeds the whole folder, so
/// a chapter added to the summary cannot be missing from the app (Lab 5's and the on-call
/// drill's were, while the app kept its own list).
#[test]
fn the_apps_book_has_every_chapter_of_the_summary() {
    let summary = fs::read_to_string(book_src().join("SUMMARY.md")).expect("book/src/SUMMARY.md");
    let files: Vec<&str> = resilience_lab::content::book::chapters()
        .iter()
        .map(|chapter| chapter.file)
        .collect();
    for target in links(&summary) {
        assert!(files.contains(&target.as_str()), "the app's book lacks {target}");
    }
    assert!(
        files.contains(&"lab5-budget.md") && files.contains(&"oncall.md"),
        "{files:?}"
    );
}
