//! The on-call drill: every shipped incident's runbook recovers it, a wrong lever does
//! not, the seed fixes the incident's dependency and moment, incident files are checked
//! with file:line errors, `run oncall`'s flags refuse bad input in one line, and a saved
//! debrief replays to its score; a facilitator (`oncall --gm`) steers it from a second
//! terminal.

mod cli;
mod debrief;
mod drill;
mod facilitator;
mod facilitator_screen;
mod hiding;
mod screen;
