//! The book's files: the chapters of `book/src/` embedded at build time, listed in
//! `SUMMARY.md`'s order.
//!
//! The same files build the mdBook, so the app and the web book never disagree. They sit
//! in the content layer, beside the lab files, so that every layer above can reach a
//! chapter without going through the terminal app (today the book screen and the lesson
//! panel read them); rendering them is `tui::markdown`'s job.

// Every file of `book/src/` the summary may name, listed by build.rs from the folder.
include!(concat!(env!("OUT_DIR"), "/book_files.rs"));
const FILES: &[(&str, &str)] = BOOK_FILES;

const SUMMARY: &str = include_str!("../../book/src/SUMMARY.md");

/// One chapter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Chapter {
    /// The title the summary gives it.
    pub title: &'static str,
    /// Its file name, as lab files name it in `chapter`.
    pub file: &'static str,
    pub markdown: &'static str,
}

/// The chapters in the summary's order (`[Title](file.md)` lines); a file the summary
/// names but the build did not embed is left out (tests/it/book/summary.rs keeps the two in step;
/// build.rs embeds every file of the folder).
pub fn chapters() -> Vec<Chapter> {
    SUMMARY
        .lines()
        .filter_map(|line| {
            let (_, rest) = line.split_once('[')?;
            let (title, rest) = rest.split_once("](")?;
            let (file, _) = rest.split_once(')')?;
            let (file, markdown) = FILES.iter().find(|(name, _)| *name == file)?;
            Some(Chapter { title, file, markdown })
        })
        .collect()
}

/// The chapter stored as `file`, e.g. `lab2-retry.md`.
pub fn chapter(file: &str) -> Option<Chapter> {
    chapters().into_iter().find(|chapter| chapter.file == file)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chapters_follow_the_summary() {
        let titles: Vec<&str> = chapters().iter().map(|c| c.file).collect();
        assert_eq!(
            titles,
            [
                "introduction.md",
                "lab1-health.md",
                "lab2-retry.md",
                "lab3-breaker.md",
                "lab4-overload.md",
                "lab5-budget.md",
                "operating.md",
                "oncall.md",
                "self-check.md",
                "facilitator-guide.md",
                "room.md",
                "interview-sheet.md",
                "glossary.md",
                "reference/app.md",
                "reference/command-line.md",
                "reference/lab-files.md",
                "reference/accuracy.md",
                "reference/performance.md",
                "reference/layout.md"
            ]
        );
        assert_eq!(chapters()[2].title, "Lab 2: Retry amplification");
    }
}
