//! The messages: what the learner asked for, whatever the device.
//!
//! Keys become [`Msg`]s in `keys.rs`; mouse events and resizes become [`Msg`]s in `app.rs`.
//! The screens take them in their `update`.

/// What the learner asked for, whatever the device.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Msg {
    Quit,
    Back,
    /// Host a workshop room and show its projector view (`C` on home).
    OpenRoom,
    /// The room: open the next check.
    RoomNext,
    /// The room: reveal the open check.
    RoomReveal,
    Open,
    Up,
    Down,
    NextSlider,
    PrevSlider,
    /// Move the focused slider this many steps (negative: left).
    Step(i32),
    SliderMin,
    SliderMax,
    SliderReset,
    ToggleLesson,
    ToggleHelp,
    ScrollUp,
    ScrollDown,
    /// A left click at a cell.
    Click(u16, u16),
    /// The mouse moved with the left button held.
    Drag(u16, u16),
    /// The left button went up: a drag ends.
    Release,
    /// The wheel turned over a cell: `true` is down.
    Wheel(u16, u16, bool),
    Resize(u16, u16),
    /// A character of a typed number (digits, `.`, `,`, `-`).
    Type(char),
    /// Backspace in a typed number.
    Erase,
    /// A quiz choice by its shown position (a = 0).
    Answer(u8),
    /// Open the prediction prompt for the lab's current step.
    Predict,
    /// Show the run the current step's check asks about without predicting it (that step only).
    Reveal,
    PrevStep,
    NextStep,
    /// Select the next or previous item of a list (the book's chapters).
    NextItem,
    PrevItem,
    /// Focus the next or previous link of the open book chapter.
    NextLink,
    PrevLink,
    /// Lab 1 live: send one `/work` request.
    LiveWork,
    /// Lab 1 live: send SIGTERM to the server.
    LiveSigterm,
    /// Lab 1 live: mark the server's pretend database down, or up again.
    LiveDatabase,
    /// Lab 1 live: `--liveness-checks-db` on the next start.
    LiveLivenessDb,
    /// Lab 1 live: `--readiness-checks-db` on the next start.
    LiveReadinessDb,
    /// Switch the lab screen between the simulated clock and the live lab.
    ToggleMode,
    /// Live mode: start a run (Lab 1: the server), or stop the one running.
    StartStop,
    /// A key only the live screens use.
    Live(LiveMsg),
    /// The lab's next page, the first after its last (Lab 1: the fleet view, or back to the
    /// single server).
    NextPage,
    /// The book's text across the whole width, or the chapter list back.
    ToggleWide,
    /// A key of Lab 1's fleet view.
    Fleet(FleetMsg),
    /// Open the on-call drill (`o` on home): the simulated one, or the drill already running.
    OpenOncall,
    /// Open the on-call drill live on 127.0.0.1 (`O` on home), or the drill already running.
    OpenOncallLive,
    /// A key of the on-call drill.
    Oncall(OncallMsg),
    /// A key of a facilitator's screen (`oncall --gm`).
    Facilitator(FacilitatorMsg),
}

/// A facilitator's own keys (lists, Tab and Esc use the generic messages).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FacilitatorMsg {
    /// Open the second-fault picker.
    AddFault,
    /// Open the owners' hints.
    CallOwner,
    /// Ask to end the drill (confirmed with Enter).
    End,
}

/// The on-call drill's own keys (lists, typing and Esc use the generic messages).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OncallMsg {
    /// Stop the drill clock, or start it again.
    Pause,
    /// One speed faster or slower.
    Faster,
    Slower,
    /// Open the lever picker.
    Levers,
    /// End the drill now: the reveal, the score, the debrief.
    End,
}

/// The keys of Lab 1's fleet view: each sets one of its `fleet_*` sliders.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FleetMsg {
    /// The database's window: down, slow (past the probe timeout) or up after all.
    DbDown,
    DbSlow,
    DbUp,
    /// Whether `/livez` checks the database.
    Liveness,
    /// Whether `/readyz` checks the database.
    Readiness,
    /// A rolling restart at 30 s, or none.
    Roll,
    /// The next named scenario: every fleet slider to its values.
    Scenario,
}

/// The keys only the live screens use (the generic ones are [`Msg::ToggleMode`] and
/// [`Msg::StartStop`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LiveMsg {
    /// Lab 3: brown the dependency out now, or heal it.
    BrownOut,
    /// Lab 3: the next fault kind.
    CycleFault,
    /// Lab 2: counting run or metastable view.
    ToggleView,
    /// Lab 2 metastable: fail the database for 10 s.
    Trigger,
    /// Lab 2: the next policy (A layered, B single, C budget).
    CyclePolicy,
    /// Lab 2 metastable: load to 0.
    CutLoad,
    /// Lab 2 metastable: the load this many steps up (negative: down).
    Load(i32),
}
