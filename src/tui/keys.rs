//! The one key table: which key sends which [`Msg`] on which screen, with its help text.
//!
//! The help overlay and the footer are generated from this table, so a key cannot work
//! without being documented, nor be documented without working.

use crossterm::event::{KeyCode, KeyEvent, KeyEventKind, KeyModifiers};

use crate::tui::msg::FacilitatorMsg;
use crate::tui::msg::FleetMsg;
use crate::tui::msg::LiveMsg;
use crate::tui::msg::Msg;
use crate::tui::msg::OncallMsg;

/// Where a key applies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Context {
    Home,
    Lab,
    /// The help overlay, over any screen.
    Help,
    /// The quiz's picker: which lab or topic, how many questions.
    QuizSetup,
    /// A quiz question answered by a letter.
    QuizChoice,
    /// A quiz question answered by a typed number.
    QuizNumber,
    /// Right or wrong, the explanation and the source, before the next question.
    QuizFeedback,
    /// The score and what was missed.
    QuizReview,
    Book,
    /// A lab's prediction prompt, over the lab screen.
    Predict,
    /// A prediction beside what the run measured.
    Observed,
    /// The note that a view's guided steps are done and go on in the other view (Lab 1's
    /// "Step 3 done ... press F"): Enter closes it, F goes there.
    Note,
    /// Lab 1's live screen; its keys come before the lab screen's.
    LiveHealth,
    /// A lab's live screen inside the lab screen's frame (Labs 2 to 5); its keys come before
    /// the lab screen's, and its footer lists them instead of the sliders'.
    Live,
    /// Lab 1's fleet view; its keys come before the lab screen's.
    Fleet,
    /// The projector's view of a room this app hosts (`C` on home).
    Room,
    /// The on-call drill: its clock running or paused.
    OncallDrill,
    /// The on-call drill live on 127.0.0.1 (`oncall --live`): its clock is the twin's.
    OncallLiveDrill,
    /// The on-call drill's lever picker.
    OncallPicker,
    /// The decision log's short form before a lever is applied: every character is typed.
    OncallForm,
    /// The on-call drill's end: the incident revealed, the score, the debrief.
    OncallReveal,
    /// A facilitator's screen (`oncall --gm`): the drill watched, its hidden incident shown.
    Facilitator,
    /// The facilitator's pickers: a second fault, an owner's hint.
    FacilitatorPicker,
    /// The facilitator's "end the drill?".
    FacilitatorConfirm,
}

impl Context {
    /// The help overlay's title for this context.
    pub fn title(self) -> &'static str {
        match self {
            Context::Home | Context::Help => " Keys: home screen ",
            Context::Lab => " Keys: lab screen ",
            Context::Predict | Context::Observed => " Keys: prediction ",
            Context::Note => " Keys: note ",
            Context::QuizSetup => " Keys: quiz setup ",
            Context::QuizChoice | Context::QuizNumber => " Keys: quiz question ",
            Context::QuizFeedback => " Keys: quiz answer ",
            Context::QuizReview => " Keys: quiz review ",
            Context::Book => " Keys: book ",
            Context::LiveHealth => " Keys: Lab 1 live ",
            Context::Live => " Keys: live ",
            Context::Fleet => " Keys: Lab 1 fleet ",
            Context::Room => " Keys: workshop room ",
            Context::OncallDrill => " Keys: on-call drill ",
            Context::OncallLiveDrill => " Keys: on-call drill, live ",
            Context::OncallPicker => " Keys: levers ",
            Context::OncallForm => " Keys: decision log entry ",
            Context::OncallReveal => " Keys: on-call debrief ",
            Context::Facilitator => " Keys: facilitator ",
            Context::FacilitatorPicker => " Keys: facilitator's choice ",
            Context::FacilitatorConfirm => " Keys: end the drill? ",
        }
    }
}

/// One row of the key table.
#[derive(Clone, Copy, Debug)]
pub struct Binding {
    pub code: KeyCode,
    /// Modifiers that must be held (Shift is ignored for characters: `?` is Shift+/ on most layouts).
    pub modifiers: KeyModifiers,
    pub contexts: &'static [Context],
    pub msg: Msg,
    /// How the help overlay names the key, e.g. `Shift+←/→`; empty for a key documented by
    /// the row above it (`j` beside `↓`).
    pub label: &'static str,
    pub help: &'static str,
    /// What the footer shows for it, e.g. `L lesson`; empty for keys the footer leaves out.
    pub footer: &'static str,
}

const HOME: &[Context] = &[Context::Home];
const LAB: &[Context] = &[Context::Lab];
const HELP: &[Context] = &[Context::Help];
const LIVE_HEALTH: &[Context] = &[Context::LiveHealth];
const LIVE: &[Context] = &[Context::Live];
const FLEET: &[Context] = &[Context::Fleet];
const ROOM: &[Context] = &[Context::Room];
const SCREENS: &[Context] = &[
    Context::Home,
    Context::Lab,
    Context::QuizSetup,
    Context::QuizChoice,
    Context::QuizNumber,
    Context::QuizFeedback,
    Context::QuizReview,
    Context::Book,
    Context::Predict,
    Context::Observed,
    Context::Note,
    Context::Room,
    Context::OncallDrill,
    Context::OncallLiveDrill,
    Context::OncallPicker,
    Context::OncallReveal,
];
const EVERYWHERE: &[Context] = &[
    Context::Home,
    Context::Lab,
    Context::Help,
    Context::QuizSetup,
    Context::QuizChoice,
    Context::QuizNumber,
    Context::QuizFeedback,
    Context::QuizReview,
    Context::Book,
    Context::Predict,
    Context::Observed,
    Context::Note,
    Context::Room,
    Context::OncallDrill,
    Context::OncallLiveDrill,
    Context::OncallPicker,
    Context::OncallForm,
    Context::OncallReveal,
    Context::Facilitator,
    Context::FacilitatorPicker,
    Context::FacilitatorConfirm,
];
const SETUP: &[Context] = &[Context::QuizSetup];
const CHOICE: &[Context] = &[Context::QuizChoice];
const FEEDBACK: &[Context] = &[Context::QuizFeedback];
const REVIEW: &[Context] = &[Context::QuizReview];
const BOOK: &[Context] = &[Context::Book];
const PREDICT: &[Context] = &[Context::Predict];
const OBSERVED: &[Context] = &[Context::Observed];
const NOTE: &[Context] = &[Context::Note];
const ONCALL: &[Context] = &[Context::OncallDrill];
const ONCALL_LIVE: &[Context] = &[Context::OncallLiveDrill];
/// Keys the drill has on either clock.
const ONCALL_ANY: &[Context] = &[Context::OncallDrill, Context::OncallLiveDrill];
const PICKER: &[Context] = &[Context::OncallPicker];
const FORM: &[Context] = &[Context::OncallForm];
const DEBRIEF: &[Context] = &[Context::OncallReveal];
const FACILITATOR: &[Context] = &[Context::Facilitator];
const FACILITATOR_PICKER: &[Context] = &[Context::FacilitatorPicker];
const FACILITATOR_CONFIRM: &[Context] = &[Context::FacilitatorConfirm];
/// Where a number is typed.
const INPUT: &[Context] = &[Context::QuizNumber, Context::Predict];
/// The quiz while a quiz is under way: Esc or q ends it and shows the review.
const QUIZ_RUNNING: &[Context] = &[Context::QuizChoice, Context::QuizNumber, Context::QuizFeedback];

const fn bind(
    code: KeyCode,
    modifiers: KeyModifiers,
    contexts: &'static [Context],
    msg: Msg,
    label: &'static str,
    help: &'static str,
    footer: &'static str,
) -> Binding {
    Binding {
        code,
        modifiers,
        contexts,
        msg,
        label,
        help,
        footer,
    }
}

const NONE: KeyModifiers = KeyModifiers::NONE;
const SHIFT: KeyModifiers = KeyModifiers::SHIFT;
const CTRL: KeyModifiers = KeyModifiers::CONTROL;

/// Every key of the app. The first binding that matches wins. Columns: key, modifiers,
/// contexts, message, help label, help text, footer entry.
#[rustfmt::skip]
pub const BINDINGS: &[Binding] = &[
    bind(KeyCode::Up,        NONE,  HOME,         Msg::Up,                                     "↑/k",           "select the entry above",                                       "↑↓ move"),
    bind(KeyCode::Char('k'), NONE,  HOME,         Msg::Up,                                     "",              "",                                                             ""),
    bind(KeyCode::Down,      NONE,  HOME,         Msg::Down,                                   "↓/j",           "select the entry below",                                       ""),
    bind(KeyCode::Char('j'), NONE,  HOME,         Msg::Down,                                   "",              "",                                                             ""),
    bind(KeyCode::Enter,     NONE,  HOME,         Msg::Open,                                   "Enter",         "open the selected entry",                                      "Enter open"),
    bind(KeyCode::Char('q'), NONE,  HOME,         Msg::Quit,                                   "q",             "quit",                                                         "q quit"),
    bind(KeyCode::Esc,       NONE,  HOME,         Msg::Back,                                   "",              "",                                                             ""),
    // The drill and the room, each a screen of its own, reached from home.
    bind(KeyCode::Char('o'), NONE,  HOME,         Msg::OpenOncall,                             "o",             "the on-call drill: checkout-api, a hidden incident, the levers", "o on-call"),
    bind(KeyCode::Char('O'), NONE,  HOME,         Msg::OpenOncallLive,                         "O",             "the on-call drill live: its servers on 127.0.0.1, 1 s = 400 ms", ""),
    bind(KeyCode::Char('C'), NONE,  HOME,         Msg::OpenRoom,                               "C",             "host a workshop room on 127.0.0.1 and show it for a projector", "C room"),
    // The projector's room.
    bind(KeyCode::Char('n'), NONE,  ROOM,         Msg::RoomNext,                               "n",             "open the next check for the room to answer",                   "n next check"),
    bind(KeyCode::Char('r'), NONE,  ROOM,         Msg::RoomReveal,                             "r",             "reveal: run the check and draw its value over the answers",    "r reveal"),
    bind(KeyCode::Esc,       NONE,  ROOM,         Msg::Back,                                   "Esc/q",         "back to the home screen (the room stays open)",                "Esc back"),
    bind(KeyCode::Char('q'), NONE,  ROOM,         Msg::Back,                                   "",              "",                                                             ""),
    bind(KeyCode::Tab,       NONE,  LAB,          Msg::NextSlider,                             "Tab/↓/j",       "focus the next slider",                                        "Tab focus"),
    bind(KeyCode::Down,      NONE,  LAB,          Msg::NextSlider,                             "",              "",                                                             ""),
    bind(KeyCode::Char('j'), NONE,  LAB,          Msg::NextSlider,                             "",              "",                                                             ""),
    bind(KeyCode::BackTab,   NONE,  LAB,          Msg::PrevSlider,                             "Shift+Tab/↑/k", "focus the previous slider",                                    ""),
    bind(KeyCode::Up,        NONE,  LAB,          Msg::PrevSlider,                             "",              "",                                                             ""),
    bind(KeyCode::Char('k'), NONE,  LAB,          Msg::PrevSlider,                             "",              "",                                                             ""),
    bind(KeyCode::Left,      NONE,  LAB,          Msg::Step(-1),                               "←/→",           "move the slider one step",                                     "←→ adjust"),
    bind(KeyCode::Right,     NONE,  LAB,          Msg::Step(1),                                "",              "",                                                             ""),
    bind(KeyCode::Left,      SHIFT, LAB,          Msg::Step(-10),                              "Shift+←/→",     "move the slider ten steps",                                    ""),
    bind(KeyCode::Right,     SHIFT, LAB,          Msg::Step(10),                               "",              "",                                                             ""),
    bind(KeyCode::Home,      NONE,  LAB,          Msg::SliderMin,                              "Home",          "slider to its minimum; the lesson's top if open",              ""),
    bind(KeyCode::End,       NONE,  LAB,          Msg::SliderMax,                              "End",           "slider to its maximum; the lesson's end if open",              ""),
    // Left out of the footer to make room for `p predict` (the help lists it).
    bind(KeyCode::Char('0'), NONE,  LAB,          Msg::SliderReset,                            "0",             "slider back to its default",                                   ""),
    bind(KeyCode::Char('l'), NONE,  LAB,          Msg::ToggleLesson,                           "L",             "show or hide the lesson",                                      "L lesson"),
    bind(KeyCode::Char('L'), NONE,  LAB,          Msg::ToggleLesson,                           "",              "",                                                             ""),
    bind(KeyCode::Char('s'), NONE,  LIVE_HEALTH,  Msg::StartStop,                              "s",             "start the server, or stop it (SIGTERM, kill after the grace)", "s start/stop"),
    bind(KeyCode::Char('w'), NONE,  LIVE_HEALTH,  Msg::LiveWork,                               "w",             "send one /work request",                                       "w work"),
    bind(KeyCode::Char('t'), NONE,  LIVE_HEALTH,  Msg::LiveSigterm,                            "t",             "send SIGTERM to the server",                                   "t SIGTERM"),
    bind(KeyCode::Char('d'), NONE,  LIVE_HEALTH,  Msg::LiveDatabase,                           "d",             "mark the database down or up (POST /admin/database/...)",      "d db"),
    bind(KeyCode::Char('1'), NONE,  LIVE_HEALTH,  Msg::LiveLivenessDb,                         "1",             "next start: /livez checks the database, or not",               ""),
    bind(KeyCode::Char('2'), NONE,  LIVE_HEALTH,  Msg::LiveReadinessDb,                        "2",             "next start: /readyz checks the database, or not",              ""),
    bind(KeyCode::Char('m'), NONE,  LIVE_HEALTH,  Msg::ToggleMode,                             "",              "",                                                             "m sim"),
    bind(KeyCode::Char('s'), NONE,  LIVE,         Msg::StartStop,                              "s",             "start a run, or stop it",                                      "s start/stop"),
    bind(KeyCode::Char('m'), NONE,  LIVE,         Msg::ToggleMode,                             "m",             "back to the simulation",                                       "m sim"),
    bind(KeyCode::PageUp,    NONE,  LAB,          Msg::ScrollUp,                               "PgUp/PgDn",     "scroll the lesson, log or timeline",                           ""),
    bind(KeyCode::PageDown,  NONE,  LAB,          Msg::ScrollDown,                             "",              "",                                                             ""),
    // Lab: predict-then-observe. `m` and `s` are kept free for Sim/Live and start/stop.
    bind(KeyCode::Char('p'), NONE,  LAB,          Msg::Predict,                                "p",             "predict the current step's check, then run",                   "p predict"),
    // Listed (footer and help) only while it would change the screen (LabScreen::reveal_offered); `v` is Lab 4's view key.
    bind(KeyCode::Char('x'), NONE,  LAB,          Msg::Reveal,                                 "x",             "show the run without predicting (this step only)",              "x reveal"),
    // The footer has room for six; the lesson panel's border names `[ ]`.
    bind(KeyCode::Char('['), NONE,  LAB,          Msg::PrevStep,                               "[/]",           "previous or next guided step",                                 ""),
    bind(KeyCode::Char(']'), NONE,  LAB,          Msg::NextStep,                               "",              "",                                                             ""),
    bind(KeyCode::Esc,       NONE,  LAB,          Msg::Back,                                   "Esc/q",         "close the lesson, else back to the home screen",               "Esc back"),
    bind(KeyCode::Char('q'), NONE,  LAB,          Msg::Back,                                   "",              "",                                                             ""),
    // Quiz setup.
    bind(KeyCode::Up,        NONE,  SETUP,        Msg::Up,                                     "↑↓/jk",         "choose the lab or topic",                                      "↑↓ choose"),
    bind(KeyCode::Char('k'), NONE,  SETUP,        Msg::Up,                                     "",              "",                                                             ""),
    bind(KeyCode::Down,      NONE,  SETUP,        Msg::Down,                                   "",              "",                                                             ""),
    bind(KeyCode::Char('j'), NONE,  SETUP,        Msg::Down,                                   "",              "",                                                             ""),
    bind(KeyCode::Left,      NONE,  SETUP,        Msg::Step(-1),                               "←/→",           "fewer or more questions",                                      "←→ count"),
    bind(KeyCode::Right,     NONE,  SETUP,        Msg::Step(1),                                "",              "",                                                             ""),
    bind(KeyCode::Enter,     NONE,  SETUP,        Msg::Open,                                   "Enter",         "start the quiz",                                               "Enter start"),
    bind(KeyCode::Esc,       NONE,  SETUP,        Msg::Back,                                   "Esc/q",         "back to the home screen",                                      "Esc back"),
    bind(KeyCode::Char('q'), NONE,  SETUP,        Msg::Back,                                   "",              "",                                                             ""),
    // A choice question.
    bind(KeyCode::Char('a'), NONE,  CHOICE,       Msg::Answer(0),                              "a–e",           "answer with that choice",                                      "a–e answer"),
    bind(KeyCode::Char('b'), NONE,  CHOICE,       Msg::Answer(1),                              "",              "",                                                             ""),
    bind(KeyCode::Char('c'), NONE,  CHOICE,       Msg::Answer(2),                              "",              "",                                                             ""),
    bind(KeyCode::Char('d'), NONE,  CHOICE,       Msg::Answer(3),                              "",              "",                                                             ""),
    bind(KeyCode::Char('e'), NONE,  CHOICE,       Msg::Answer(4),                              "",              "",                                                             ""),
    // The same letters in capitals, as the plain `quiz` takes them (Caps Lock on must not go dead).
    bind(KeyCode::Char('A'), NONE,  CHOICE,       Msg::Answer(0),                              "",              "",                                                             ""),
    bind(KeyCode::Char('B'), NONE,  CHOICE,       Msg::Answer(1),                              "",              "",                                                             ""),
    bind(KeyCode::Char('C'), NONE,  CHOICE,       Msg::Answer(2),                              "",              "",                                                             ""),
    bind(KeyCode::Char('D'), NONE,  CHOICE,       Msg::Answer(3),                              "",              "",                                                             ""),
    bind(KeyCode::Char('E'), NONE,  CHOICE,       Msg::Answer(4),                              "",              "",                                                             ""),
    bind(KeyCode::Up,        NONE,  CHOICE,       Msg::Up,                                     "↑↓ Enter",      "move to a choice, answer with it",                             ""),
    bind(KeyCode::Down,      NONE,  CHOICE,       Msg::Down,                                   "",              "",                                                             ""),
    bind(KeyCode::Enter,     NONE,  CHOICE,       Msg::Open,                                   "",              "",                                                             ""),
    // A typed number, in the quiz or a lab's prediction.
    bind(KeyCode::Char('0'), NONE,  INPUT,        Msg::Type('0'),                              "0–9 . , -",     "type the number (decimals with .; 20% or 0.2 for a share)",    "0–9 . type"),
    bind(KeyCode::Char('1'), NONE,  INPUT,        Msg::Type('1'),                              "",              "",                                                             ""),
    bind(KeyCode::Char('2'), NONE,  INPUT,        Msg::Type('2'),                              "",              "",                                                             ""),
    bind(KeyCode::Char('3'), NONE,  INPUT,        Msg::Type('3'),                              "",              "",                                                             ""),
    bind(KeyCode::Char('4'), NONE,  INPUT,        Msg::Type('4'),                              "",              "",                                                             ""),
    bind(KeyCode::Char('5'), NONE,  INPUT,        Msg::Type('5'),                              "",              "",                                                             ""),
    bind(KeyCode::Char('6'), NONE,  INPUT,        Msg::Type('6'),                              "",              "",                                                             ""),
    bind(KeyCode::Char('7'), NONE,  INPUT,        Msg::Type('7'),                              "",              "",                                                             ""),
    bind(KeyCode::Char('8'), NONE,  INPUT,        Msg::Type('8'),                              "",              "",                                                             ""),
    bind(KeyCode::Char('9'), NONE,  INPUT,        Msg::Type('9'),                              "",              "",                                                             ""),
    bind(KeyCode::Char('.'), NONE,  INPUT,        Msg::Type('.'),                              "",              "",                                                             ""),
    bind(KeyCode::Char(','), NONE,  INPUT,        Msg::Type(','),                              "",              "",                                                             ""),
    bind(KeyCode::Char('-'), NONE,  INPUT,        Msg::Type('-'),                              "",              "",                                                             ""),
    bind(KeyCode::Backspace, NONE,  INPUT,        Msg::Erase,                                  "Backspace",     "erase the last character",                                     ""),
    bind(KeyCode::Enter,     NONE,  INPUT,        Msg::Open,                                   "Enter",         "answer with the number",                                       "Enter answer"),
    // Right or wrong: on to the next.
    bind(KeyCode::Enter,     NONE,  FEEDBACK,     Msg::Open,                                   "Enter/→",       "next question",                                                "Enter next"),
    bind(KeyCode::Right,     NONE,  FEEDBACK,     Msg::Open,                                   "",              "",                                                             ""),
    bind(KeyCode::Esc,       NONE,  QUIZ_RUNNING, Msg::Back,                                   "Esc/q",         "stop: score and review",                                       "Esc stop"),
    bind(KeyCode::Char('q'), NONE,  QUIZ_RUNNING, Msg::Back,                                   "",              "",                                                             ""),
    // The review.
    bind(KeyCode::Up,        NONE,  REVIEW,       Msg::Up,                                     "↑↓/jk",         "scroll a line",                                                "↑↓ scroll"),
    bind(KeyCode::Char('k'), NONE,  REVIEW,       Msg::Up,                                     "",              "",                                                             ""),
    bind(KeyCode::Down,      NONE,  REVIEW,       Msg::Down,                                   "",              "",                                                             ""),
    bind(KeyCode::Char('j'), NONE,  REVIEW,       Msg::Down,                                   "",              "",                                                             ""),
    bind(KeyCode::PageUp,    NONE,  REVIEW,       Msg::ScrollUp,                               "PgUp/PgDn",     "scroll a page",                                                ""),
    bind(KeyCode::PageDown,  NONE,  REVIEW,       Msg::ScrollDown,                             "",              "",                                                             ""),
    bind(KeyCode::Enter,     NONE,  REVIEW,       Msg::Open,                                   "Enter",         "another quiz",                                                 "Enter again"),
    bind(KeyCode::Esc,       NONE,  REVIEW,       Msg::Back,                                   "Esc/q",         "back to the home screen",                                      "Esc home"),
    bind(KeyCode::Char('q'), NONE,  REVIEW,       Msg::Back,                                   "",              "",                                                             ""),
    // The book.
    // As on the home screen: ↑↓ choose, Enter opens; the text scrolls by page, or a line with Shift.
    bind(KeyCode::Up,        NONE,  BOOK,         Msg::PrevItem,                               "↑↓/jk",         "choose a chapter",                                             "↑↓ choose"),
    bind(KeyCode::Char('k'), NONE,  BOOK,         Msg::PrevItem,                               "",              "",                                                             ""),
    bind(KeyCode::Down,      NONE,  BOOK,         Msg::NextItem,                               "",              "",                                                             ""),
    bind(KeyCode::Char('j'), NONE,  BOOK,         Msg::NextItem,                               "",              "",                                                             ""),
    bind(KeyCode::Tab,       NONE,  BOOK,         Msg::NextLink,                               "Tab/Shift+Tab", "focus the next or previous link in the chapter",               "Tab link"),
    bind(KeyCode::BackTab,   NONE,  BOOK,         Msg::PrevLink,                               "",              "",                                                             ""),
    bind(KeyCode::Enter,     NONE,  BOOK,         Msg::Open,                                   "Enter",         "open the chosen chapter, or follow the focused link",          "Enter open"),
    bind(KeyCode::Up,        SHIFT, BOOK,         Msg::Up,                                     "Shift+↑↓",      "scroll the text a line",                                       ""),
    bind(KeyCode::Down,      SHIFT, BOOK,         Msg::Down,                                   "",              "",                                                             ""),
    bind(KeyCode::Char(' '), NONE,  BOOK,         Msg::ScrollDown,                             "Space",         "scroll the text a page down",                                  ""),
    bind(KeyCode::PageUp,    NONE,  BOOK,         Msg::ScrollUp,                               "PgUp/PgDn",     "scroll the text a page",                                       "PgUp/PgDn scroll"),
    bind(KeyCode::PageDown,  NONE,  BOOK,         Msg::ScrollDown,                             "",              "",                                                             ""),
    bind(KeyCode::Char('w'), NONE,  BOOK,         Msg::ToggleWide,                             "w",             "the text across the whole width, or the chapter list back",    ""),
    bind(KeyCode::Esc,       NONE,  BOOK,         Msg::Back,                                   "Esc/q",         "back to the home screen",                                      "Esc back"),
    bind(KeyCode::Char('q'), NONE,  BOOK,         Msg::Back,                                   "",              "",                                                             ""),
    // A lab's prediction prompt, then its outcome.
    bind(KeyCode::Esc,       NONE,  PREDICT,      Msg::Back,                                   "Esc",           "cancel the prediction",                                        "Esc cancel"),
    bind(KeyCode::Enter,     NONE,  OBSERVED,     Msg::Open,                                   "Enter/]",       "on to the next step",                                          "Enter next step"),
    bind(KeyCode::Char(']'), NONE,  OBSERVED,     Msg::Open,                                   "",              "",                                                             ""),
    bind(KeyCode::Esc,       NONE,  OBSERVED,     Msg::Back,                                   "Esc",           "close, stay on this step",                                     "Esc close"),
    bind(KeyCode::PageDown,  NONE,  OBSERVED,     Msg::ScrollDown,                             "PgDn/PgUp",     "a verdict longer than its card: its end, or its start",        ""),
    bind(KeyCode::PageUp,    NONE,  OBSERVED,     Msg::ScrollUp,                               "",              "",                                                             ""),
    bind(KeyCode::Char('F'), NONE,  OBSERVED,     Msg::NextPage,                               "F",             "close this and switch to the lab's next page",                 ""),
    // The note that the steps go on in the other view: nothing follows here, so Enter closes it.
    bind(KeyCode::Enter,     NONE,  NOTE,         Msg::Open,                                   "Enter/]/Esc",   "close the note, stay on this step",                            "Enter close"),
    bind(KeyCode::Char(']'), NONE,  NOTE,         Msg::Open,                                   "",              "",                                                             ""),
    bind(KeyCode::Esc,       NONE,  NOTE,         Msg::Back,                                   "",              "",                                                             ""),
    bind(KeyCode::Char('F'), NONE,  NOTE,         Msg::NextPage,                               "F",             "close the note and switch to the view it names",               "F go there"),
    bind(KeyCode::Char('m'), NONE,  LAB,          Msg::ToggleMode,                             "m/s",           "sim or live; live: s starts or stops a run",                   ""),
    bind(KeyCode::Char('s'), NONE,  LAB,          Msg::StartStop,                              "",              "",                                                             ""),
    bind(KeyCode::Char('b'), NONE,  LAB,          Msg::Live(LiveMsg::BrownOut),                "b/f",           "Lab 3 live: b browns out now or heals; f next fault",          ""),
    bind(KeyCode::Char('f'), NONE,  LAB,          Msg::Live(LiveMsg::CycleFault),              "",              "",                                                             ""),
    bind(KeyCode::Char('v'), NONE,  LAB,          Msg::Live(LiveMsg::ToggleView),              "v",             "the page's next view (its other charts, or live modes)",       ""),
    bind(KeyCode::Char('o'), NONE,  LAB,          Msg::Live(LiveMsg::CyclePolicy),             "o/g",           "Lab 2 live: o policy A/B/C, g fail the database for 10 s",     ""),
    bind(KeyCode::Char('g'), NONE,  LAB,          Msg::Live(LiveMsg::Trigger),                 "",              "",                                                             ""),
    bind(KeyCode::Char('+'), NONE,  LAB,          Msg::Live(LiveMsg::Load(1)),                 "+/-/c",         "Lab 2 metastable: load ±40 actions/s; c cuts it to 0",         ""),
    bind(KeyCode::Char('='), NONE,  LAB,          Msg::Live(LiveMsg::Load(1)),                 "",              "",                                                             ""),
    bind(KeyCode::Char('-'), NONE,  LAB,          Msg::Live(LiveMsg::Load(-1)),                "",              "",                                                             ""),
    bind(KeyCode::Char('c'), NONE,  LAB,          Msg::Live(LiveMsg::CutLoad),                 "",              "",                                                             ""),
    bind(KeyCode::Char('F'), NONE,  FLEET,        Msg::NextPage,                               "F",             "switch to the lab's next page",                                "F one server"),
    bind(KeyCode::Char('d'), NONE,  FLEET,        Msg::Fleet(FleetMsg::DbDown),                "d/w/u",         "the database's window: down, slow (2 s a query) or up",       "d/w/u db"),
    bind(KeyCode::Char('w'), NONE,  FLEET,        Msg::Fleet(FleetMsg::DbSlow),                "",              "",                                                             ""),
    bind(KeyCode::Char('u'), NONE,  FLEET,        Msg::Fleet(FleetMsg::DbUp),                  "",              "",                                                             ""),
    bind(KeyCode::Char('l'), NONE,  FLEET,        Msg::Fleet(FleetMsg::Liveness),              "l/r",           "/livez or /readyz checks the database, or not",                "l/r probes"),
    bind(KeyCode::Char('r'), NONE,  FLEET,        Msg::Fleet(FleetMsg::Readiness),             "",              "",                                                             ""),
    bind(KeyCode::Char('o'), NONE,  FLEET,        Msg::Fleet(FleetMsg::Roll),                  "o",             "roll the fleet at 30 s (replace one at a time), or not",      "o roll"),
    bind(KeyCode::Char('c'), NONE,  FLEET,        Msg::Fleet(FleetMsg::Scenario),              "c",             "the next scenario: every fleet slider to its values",          "c scenario"),
    bind(KeyCode::Char('m'), NONE,  FLEET,        Msg::ToggleMode,                             "m",             "simulated or live (real replicas, database, Service at 10x)",  "m live"),
    bind(KeyCode::Char('s'), NONE,  FLEET,        Msg::StartStop,                              "s",             "live: start a run (it ends by itself), or stop it",            "s start/stop"),
    bind(KeyCode::Char('F'), NONE,  LAB,          Msg::NextPage,                               "F",             "switch to the lab's next page",                                ""),
    // The on-call drill. Esc pauses the clock before it goes home, so nothing runs unseen.
    bind(KeyCode::Char(' '), NONE,  ONCALL,       Msg::Oncall(OncallMsg::Pause),               "Space",         "pause the drill clock, or run it again",                       "Space pause"),
    bind(KeyCode::Char('+'), NONE,  ONCALL,       Msg::Oncall(OncallMsg::Faster),              "+/-",           "drill clock faster or slower (1000 to 60 ms a drill second)",  "+/- speed"),
    bind(KeyCode::Char('='), NONE,  ONCALL,       Msg::Oncall(OncallMsg::Faster),              "",              "",                                                             ""),
    bind(KeyCode::Char('-'), NONE,  ONCALL,       Msg::Oncall(OncallMsg::Slower),              "",              "",                                                             ""),
    bind(KeyCode::Char('l'), NONE,  ONCALL,       Msg::Oncall(OncallMsg::Levers),              "l/Enter",       "pick a lever to pull or restore (the clock stops meanwhile)",  "l levers"),
    bind(KeyCode::Enter,     NONE,  ONCALL,       Msg::Oncall(OncallMsg::Levers),              "",              "",                                                             ""),
    bind(KeyCode::Char(' '), NONE,  ONCALL_LIVE,  Msg::Oncall(OncallMsg::Pause),               "Space",         "live: real servers run on; no pause, and no speed keys",       "Space live: cannot pause"),
    bind(KeyCode::Char('l'), NONE,  ONCALL_LIVE,  Msg::Oncall(OncallMsg::Levers),              "l/Enter",       "pick a lever to pull or restore (live: the clock runs on)",     "l levers"),
    bind(KeyCode::Enter,     NONE,  ONCALL_LIVE,  Msg::Oncall(OncallMsg::Levers),              "",              "",                                                             ""),
    bind(KeyCode::Char('E'), NONE,  ONCALL_ANY,   Msg::Oncall(OncallMsg::End),                 "E",             "twice: end the drill, reveal the incident, save the debrief",  "E end"),
    bind(KeyCode::Esc,       NONE,  ONCALL,       Msg::Back,                                   "Esc/q",         "pause and go back to the home screen (o resumes)",             "Esc home"),
    bind(KeyCode::Char('q'), NONE,  ONCALL,       Msg::Back,                                   "",              "",                                                             ""),
    bind(KeyCode::Esc,       NONE,  ONCALL_LIVE,  Msg::Back,                                   "Esc/q",         "go back to the home screen; live, the drill runs on (o returns)", "Esc home"),
    bind(KeyCode::Char('q'), NONE,  ONCALL_LIVE,  Msg::Back,                                   "",              "",                                                             ""),
    bind(KeyCode::Up,        NONE,  PICKER,       Msg::Up,                                     "↑↓/jk",         "choose a lever",                                               "↑↓ choose"),
    bind(KeyCode::Char('k'), NONE,  PICKER,       Msg::Up,                                     "",              "",                                                             ""),
    bind(KeyCode::Down,      NONE,  PICKER,       Msg::Down,                                   "",              "",                                                             ""),
    bind(KeyCode::Char('j'), NONE,  PICKER,       Msg::Down,                                   "",              "",                                                             ""),
    bind(KeyCode::Enter,     NONE,  PICKER,       Msg::Open,                                   "Enter",         "write the decision log entry for this lever",                  "Enter choose"),
    bind(KeyCode::Esc,       NONE,  PICKER,       Msg::Back,                                   "Esc/q",         "no lever: back to the drill",                                  "Esc cancel"),
    bind(KeyCode::Char('q'), NONE,  PICKER,       Msg::Back,                                   "",              "",                                                             ""),
    bind(KeyCode::Tab,       NONE,  FORM,         Msg::NextItem,                               "Tab",           "the other field (why, expected effect)",                       "Tab field"),
    bind(KeyCode::BackTab,   NONE,  FORM,         Msg::NextItem,                               "",              "",                                                             ""),
    bind(KeyCode::Backspace, NONE,  FORM,         Msg::Erase,                                  "Backspace",     "erase the last character",                                     ""),
    bind(KeyCode::Enter,     NONE,  FORM,         Msg::Open,                                   "Enter",         "next field; on the last, pull the lever and log it",           "Enter next/pull"),
    bind(KeyCode::Esc,       NONE,  FORM,         Msg::Back,                                   "Esc",           "no lever: back to the drill",                                  "Esc cancel"),
    bind(KeyCode::Up,        NONE,  DEBRIEF,      Msg::Up,                                     "↑↓/jk",         "scroll a line",                                                "↑↓ scroll"),
    bind(KeyCode::Char('k'), NONE,  DEBRIEF,      Msg::Up,                                     "",              "",                                                             ""),
    bind(KeyCode::Down,      NONE,  DEBRIEF,      Msg::Down,                                   "",              "",                                                             ""),
    bind(KeyCode::Char('j'), NONE,  DEBRIEF,      Msg::Down,                                   "",              "",                                                             ""),
    bind(KeyCode::PageUp,    NONE,  DEBRIEF,      Msg::ScrollUp,                               "PgUp/PgDn",     "scroll a page",                                                ""),
    bind(KeyCode::PageDown,  NONE,  DEBRIEF,      Msg::ScrollDown,                             "",              "",                                                             ""),
    bind(KeyCode::Esc,       NONE,  DEBRIEF,      Msg::Back,                                   "Esc/q",         "back to the home screen (o starts the next drill)",            "Esc home"),
    bind(KeyCode::Char('q'), NONE,  DEBRIEF,      Msg::Back,                                   "",              "",                                                             ""),
    // A facilitator's screen (`oncall --gm`), in a second terminal.
    bind(KeyCode::Char('f'), NONE,  FACILITATOR,  Msg::Facilitator(FacilitatorMsg::AddFault),  "f",             "add a second fault: another incident's, on a dependency",      "f second fault"),
    bind(KeyCode::Char('h'), NONE,  FACILITATOR,  Msg::Facilitator(FacilitatorMsg::CallOwner), "h",             "call the owner: their hint goes into on-call's log",           "h call owner"),
    bind(KeyCode::Char('E'), NONE,  FACILITATOR,  Msg::Facilitator(FacilitatorMsg::End),       "E",             "end the drill: on-call's screen reveals, the debrief says so", "E end"),
    bind(KeyCode::Esc,       NONE,  FACILITATOR,  Msg::Quit,                                   "Esc/q",         "leave (the drill runs on without a facilitator)",              "q quit"),
    bind(KeyCode::Char('q'), NONE,  FACILITATOR,  Msg::Quit,                                   "",              "",                                                             ""),
    bind(KeyCode::Up,        NONE,  FACILITATOR_PICKER, Msg::Up,                               "↑↓/jk",         "choose",                                                       "↑↓ choose"),
    bind(KeyCode::Char('k'), NONE,  FACILITATOR_PICKER, Msg::Up,                               "",              "",                                                             ""),
    bind(KeyCode::Down,      NONE,  FACILITATOR_PICKER, Msg::Down,                             "",              "",                                                             ""),
    bind(KeyCode::Char('j'), NONE,  FACILITATOR_PICKER, Msg::Down,                             "",              "",                                                             ""),
    bind(KeyCode::Tab,       NONE,  FACILITATOR_PICKER, Msg::NextItem,                         "Tab",           "a second fault's dependency: the file's, or each in turn",     "Tab dependency"),
    bind(KeyCode::Enter,     NONE,  FACILITATOR_PICKER, Msg::Open,                             "Enter",         "send it to the drill",                                         "Enter send"),
    bind(KeyCode::Esc,       NONE,  FACILITATOR_PICKER, Msg::Back,                             "Esc/q",         "send nothing: back to watching",                               "Esc cancel"),
    bind(KeyCode::Char('q'), NONE,  FACILITATOR_PICKER, Msg::Back,                             "",              "",                                                             ""),
    bind(KeyCode::Enter,     NONE,  FACILITATOR_CONFIRM, Msg::Open,                            "Enter",         "end it: on-call's screen reveals",                             "Enter end it"),
    bind(KeyCode::Esc,       NONE,  FACILITATOR_CONFIRM, Msg::Back,                            "Esc/q",         "let it run",                                                   "Esc let it run"),
    bind(KeyCode::Char('q'), NONE,  FACILITATOR_CONFIRM, Msg::Back,                            "",              "",                                                             ""),
    bind(KeyCode::Char('?'), NONE,  SCREENS,      Msg::ToggleHelp,                             "?",             "show this help",                                               "? help"),
    bind(KeyCode::Char('?'), NONE,  HELP,         Msg::ToggleHelp,                             "?/Esc/q",       "close the help",                                               "Esc close"),
    bind(KeyCode::Esc,       NONE,  HELP,         Msg::ToggleHelp,                             "",              "",                                                             ""),
    bind(KeyCode::Up,        NONE,  HELP,         Msg::Up,                                     "↑↓ PgUp/PgDn",  "scroll this help",                                             ""),
    bind(KeyCode::Down,      NONE,  HELP,         Msg::Down,                                   "",              "",                                                             ""),
    bind(KeyCode::Char('k'), NONE,  HELP,         Msg::Up,                                     "",              "",                                                             ""),
    bind(KeyCode::Char('j'), NONE,  HELP,         Msg::Down,                                   "",              "",                                                             ""),
    bind(KeyCode::PageUp,    NONE,  HELP,         Msg::ScrollUp,                               "",              "",                                                             ""),
    bind(KeyCode::PageDown,  NONE,  HELP,         Msg::ScrollDown,                             "",              "",                                                             ""),
    bind(KeyCode::Char('q'), NONE,  HELP,         Msg::ToggleHelp,                             "",              "",                                                             ""),
    bind(KeyCode::Char('c'), CTRL,  EVERYWHERE,   Msg::Quit,                                   "Ctrl+C",        "quit from anywhere",                                           ""),
];

/// Whether `binding` matches `key` (Shift is ignored for characters and Back-Tab).
fn matches(binding: &Binding, key: &KeyEvent) -> bool {
    if binding.code != key.code {
        return false;
    }
    let shift_free = matches!(key.code, KeyCode::Char(_) | KeyCode::BackTab);
    let mask = if shift_free {
        KeyModifiers::CONTROL | KeyModifiers::ALT
    } else {
        KeyModifiers::SHIFT | KeyModifiers::CONTROL | KeyModifiers::ALT
    };
    (key.modifiers & mask) == (binding.modifiers & mask)
}

/// The message a key press sends in `context`, if any. Releases and repeats of releases are ignored.
pub fn msg_for(context: Context, key: &KeyEvent) -> Option<Msg> {
    if key.kind == KeyEventKind::Release {
        return None;
    }
    BINDINGS
        .iter()
        .find(|binding| binding.contexts.contains(&context) && matches(binding, key))
        .map(|binding| binding.msg)
        .or_else(|| typed_char(context, key))
}

/// Where a number is typed, any other character goes to the input too, which takes it (a
/// unit: `20%`, `500 ms`) or says why not (`^`): a key silently dropped turned `4^3` into `43`.
/// The on-call form takes every character: a reason is words.
fn typed_char(context: Context, key: &KeyEvent) -> Option<Msg> {
    let KeyCode::Char(c) = key.code else { return None };
    let plain = !key.modifiers.intersects(KeyModifiers::CONTROL | KeyModifiers::ALT);
    (plain && (INPUT.contains(&context) || context == Context::OncallForm)).then_some(Msg::Type(c))
}

/// The key that sends `msg`, as the help names it (`F`): for a line that tells the learner
/// what to press, so its words follow this table. The first binding of `msg` with a help
/// label gives it; `None` when no binding sends `msg`.
pub fn key_label(msg: Msg) -> Option<&'static str> {
    BINDINGS
        .iter()
        .find(|b| b.msg == msg && !b.label.is_empty())
        .map(|b| b.label)
}

/// The rows the help overlay lists for `context`, as (keys, what they do).
pub fn help_rows(context: Context) -> Vec<(&'static str, &'static str)> {
    help_rows_if(context, |_| true)
}

/// The rows of `context` whose message passes `keep` (the fleet view leaves out the lab
/// screen's rows it does not take).
pub fn help_rows_if(context: Context, keep: impl Fn(Msg) -> bool) -> Vec<(&'static str, &'static str)> {
    BINDINGS
        .iter()
        .filter(|b| !b.label.is_empty() && b.contexts.contains(&context) && keep(b.msg))
        .map(|b| (b.label, b.help))
        .collect()
}

/// Whether `context` lists a row of its own for `msg` (a live screen's `m` and `s`): the help
/// then leaves out the lab screen's row for it, which would say the same again.
pub fn lists_own_row(context: Context, msg: Msg) -> bool {
    BINDINGS
        .iter()
        .any(|b| b.msg == msg && !b.label.is_empty() && b.contexts.contains(&context))
}

/// How the footer and the help name the answer keys of a choice question with `choices`
/// choices: the key table's row names the most any question has (`a–e`), but only the
/// letters the shown question has answer it.
const ANSWER_KEYS: [(&str, &str); 5] = [
    ("a", "a answer"),
    ("a–b", "a–b answer"),
    ("a–c", "a–c answer"),
    ("a–d", "a–d answer"),
    ("a–e", "a–e answer"),
];

/// The help label and footer entry of the answer keys of a question with `choices` choices.
pub fn answer_keys(choices: usize) -> (&'static str, &'static str) {
    ANSWER_KEYS[choices.clamp(1, ANSWER_KEYS.len()) - 1]
}

/// `entry` (a footer entry or a help label of [`Context::QuizChoice`]) naming the answer keys
/// of a question with `choices` choices; any other entry as it is.
pub fn for_choices(entry: &'static str, choices: usize) -> &'static str {
    let (label, footer) = answer_keys(ANSWER_KEYS.len());
    let (own_label, own_footer) = answer_keys(choices);
    match entry {
        _ if entry == label => own_label,
        _ if entry == footer => own_footer,
        _ => entry,
    }
}

/// The footer's entries for `context`, e.g. `L lesson`.
pub fn footer_keys(context: Context) -> Vec<&'static str> {
    footer_keys_if(context, |_| true)
}

/// The footer's entries for `context` whose message passes `keep` (the reveal key shows only
/// while it has something to reveal).
pub fn footer_keys_if(context: Context, keep: impl Fn(Msg) -> bool) -> Vec<&'static str> {
    footer_entries_if(context, keep)
        .into_iter()
        .map(|(_, entry)| entry)
        .collect()
}

/// [`footer_keys_if`] with each entry's message, so a page places its own keys among them
/// by what the keys do, not by their words.
pub fn footer_entries_if(context: Context, keep: impl Fn(Msg) -> bool) -> Vec<(Msg, &'static str)> {
    BINDINGS
        .iter()
        .filter(|b| !b.footer.is_empty() && b.contexts.contains(&context) && keep(b.msg))
        .map(|b| (b.msg, b.footer))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_messages_key_label_is_the_one_its_binding_shows() {
        let fleet = BINDINGS.iter().find(|b| b.msg == Msg::NextPage).expect("a binding");
        assert_eq!(key_label(Msg::NextPage), Some(fleet.label));
        assert_eq!(
            key_label(Msg::NextSlider),
            Some("Tab/↓/j"),
            "the labelled row, not the bare j"
        );
        assert_eq!(key_label(Msg::Type('x')), None, "typed characters have no binding");
    }
}
