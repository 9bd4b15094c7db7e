//! The screens other than a lab's (`tui::frame` is the lab screen): each owns its state and takes messages in `update`, returning what the
//! app must do (the quiz's `QuizOutcome` is the model).
//!
//! - [`home`]: the list of labs, the quiz and the book.
//! - [`quiz`]: the quiz's state machine (pick, answer, feedback, review).
//! - [`oncall`]: the on-call drill (its clock, the lever picker, the decision log's form, the reveal).
//! - [`facilitator`]: a facilitator's screen (`oncall --gm`): the drill watched, what may be sent.
//! - [`room`]: a workshop room on the projector (the board it draws, the host's controls).
//! - [`book`]: the book screen's state (the chosen and the open chapter, its scroll, its
//!   focused link); the chapters are `content::book`'s, their rendering `tui::markdown`'s.

pub mod book;
pub mod facilitator;
pub mod home;
pub mod oncall;
pub mod quiz;
pub mod room;
