//! The quiz: answers read as typed, a bank that length cannot beat, and the plain-terminal quiz
//! with its progress file.

mod answers;
mod bank_fairness;
mod cli;
mod letters;
