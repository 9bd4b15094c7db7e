//! The book: its summary and chapters hang together, every quiz topic is taught, and its links
//! can be followed in the app.

mod links;
mod list;
mod summary;
mod topic_coverage;
mod wide;
