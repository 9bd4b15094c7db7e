//! resilience-lab: a terminal lab that teaches how a service survives its dependencies.
//!
//! # Layout
//!
//! The layers, from the bottom up (the engine uses nothing of the others; `live` neither
//! the app nor the command line; the app not the subcommands):
//!
//! - [`engine`]: the policies (breaker, retry budget, Full Jitter, health model) and the
//!   deterministic simulations; pure, no clock, no I/O.
//! - [`content`]: the lab files (`labs/*.toml`), embedded and overridable, their validation,
//!   [`content::LabId`] (a lab as a type, never a string), [`content::page`] (a lab's pages:
//!   which sliders and guided steps each has, as its file says), [`content::params`], the
//!   one map from a slider's or flag's name to the engine's parameters, and [`content::book`]
//!   (the book's chapters, embedded at build time, in `SUMMARY.md`'s order).
//! - [`live`]: the live labs on 127.0.0.1 (tokio + hyper), calling the engine's policies;
//!   one folder per lab, each with a `runner.rs` whose `spawn` returns the one handle shape
//!   [`live::run::LiveRun`] and sends its samples into the app's event queue.
//! - [`tui`]: the terminal app (ratatui): `App` routes to one screen; the lab screen's frame
//!   (`tui/frame/`, its drawing in `tui/frame/view/`) names no lab: a lab is its
//!   pages, which the app builds from the lab's row of the registry [`tui::labs::LABS`] (its
//!   pages and live keys) and hands the frame; the frame holds one slider state per page of
//!   the lab file and moves the showing page's with one handler
//!   (`tui/frame/page_sliders.rs`), and runs the steps, prompts and verdicts; a page is
//!   one folder behind one trait (`tui/labs/page.rs`), which computes at its sliders, takes
//!   its keys (its mode, its live part), reports its numbers and draws its regions inside the
//!   frame's title, parameter panel and footer (or a whole screen of its own: Lab 1's live
//!   server, Lab 1's fleet); a lab's first page is one `LabSim` impl on the shared shape
//!   `tui/labs/sim_page.rs` (Lab 1's `tui/labs/health/`, Lab 2's `tui/labs/retry/`, Lab 3's
//!   `tui/labs/breaker/`, Lab 4's `tui/labs/overload/`, Lab 5's `tui/labs/budget/`), and Lab
//!   1's second page is `tui/labs/fleet/`; views draw from the screens; `keys.rs` is the one key
//!   table; `tui/markdown/` renders the book's chapters (for the book screen, whose state is
//!   `tui/screens/book.rs`, and the lesson panel).
//! - [`cli`]: the command line (clap), with [`cli_values`] (negative numbers and allowed choices,
//!   in one line); [`commands`]: what each subcommand does, one file each;
//!   [`report`]: the headless text and JSON reports; [`signals`]: the signals that end a
//!   headless live run, and the exit code after one.
//! - [`learning`]: what the app and the command line share about a learner, above the
//!   content: the progress file, the quiz, review and drills, the one map of a run's named
//!   numbers (scoring and the screen), and the hiding rule ([`learning::reveal`]: which of
//!   those numbers a screen must not show yet, and the one placeholder standing in for them).
//! - Beside them: [`error`] (the usage error, exit code 2), [`output`] (stdout and stderr
//!   whose reader may be gone: `| head -1`), [`user_file`] (the one rule for reading a file the user names:
//!   a regular file of sane size), [`room`] (a workshop's room: its state, rules, page and
//!   session file; its server is `live::room_server`), [`wrap`] (word wrap of styled lines with
//!   a hanging indent, which the app and the plain-text command line both use), [`words`]
//!   (counts in prose: "five labs").
//!
//! A new lab is new files, each declared by a `mod` line in its folder's module, plus three
//! edits: its [`content::LabId`] variant, its row in [`tui::labs::LABS`] (with the `pub mod`
//! of its page folders beside it) and its chapter in the book's `SUMMARY.md`. The files: an
//! engine module, its lab file (with its `[[page]]`s), `content/params/<lab>.rs` (its one
//! resolve, and its parameter limits, a row it adds to `content::lab::PARAMETER_LIMITS`),
//! `learning/metrics/<lab>.rs` (its named numbers, a row of `learning::metrics::LAB_METRICS`),
//! a `live/<lab>/` folder, a `tui/labs/<page>/` folder for each page (the first one a
//! `LabSim` impl), `report/<lab>.rs`, and `commands/<lab>.rs` (its `run` subcommand, a row of
//! [`cli::RUN_SUBCOMMANDS`]). The rows are distributed slices (`linkme`): a lab's file adds
//! its own, each registry's test holds every `LabId` to one, and `tests/it/architecture.rs`
//! fails on a `match` on `LabId` (or a comparison with one) outside `content/lab_id.rs`. A
//! live part whose events go through the app's queue adds its event type to
//! [`live::run::LabBody`] (Labs 1 to 4 do; Lab 5's live screen keeps its own channel). The
//! architecture test also keeps the layers apart and finds any two modules that import each
//! other in a loop.

pub mod cli;
pub mod cli_values;
pub mod commands;
pub mod content;
pub mod engine;
pub mod error;
pub mod learning;
pub mod live;
pub mod output;
pub mod report;
pub mod room;
pub mod signals;
pub mod tui;
pub mod user_file;
pub mod words;
pub mod wrap;
