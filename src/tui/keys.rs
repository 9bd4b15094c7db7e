//! The one key table: which key sends which [`Msg`] on which screen, with its help text.
//!
//! The help overlay and the footer are generated from this table, so a key cannot work
//! without being documented, nor be documented without working.

use crossterm::event::{KeyCode, KeyEvent, KeyEventKind, KeyModifiers};

use crate::tui::app::Msg;
use crate::tui::live::LiveMsg;

/// Where a key applies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Context {
    Home,
    Lab,
    /// The help overlay, over either screen.
    Help,
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
const SCREENS: &[Context] = &[Context::Home, Context::Lab];
const EVERYWHERE: &[Context] = &[Context::Home, Context::Lab, Context::Help];

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

/// Every key of the app. The first binding that matches wins.
pub const BINDINGS: &[Binding] = &[
    bind(
        KeyCode::Up,
        NONE,
        HOME,
        Msg::Up,
        "↑/k",
        "select the entry above",
        "↑↓ move",
    ),
    bind(KeyCode::Char('k'), NONE, HOME, Msg::Up, "", "", ""),
    bind(
        KeyCode::Down,
        NONE,
        HOME,
        Msg::Down,
        "↓/j",
        "select the entry below",
        "",
    ),
    bind(KeyCode::Char('j'), NONE, HOME, Msg::Down, "", "", ""),
    bind(
        KeyCode::Enter,
        NONE,
        HOME,
        Msg::Open,
        "Enter",
        "open the selected entry",
        "Enter open",
    ),
    bind(KeyCode::Char('q'), NONE, HOME, Msg::Quit, "q", "quit", "q quit"),
    bind(KeyCode::Esc, NONE, HOME, Msg::Back, "", "", ""),
    bind(
        KeyCode::Tab,
        NONE,
        LAB,
        Msg::NextSlider,
        "Tab/↓/j",
        "focus the next slider",
        "Tab focus",
    ),
    bind(KeyCode::Down, NONE, LAB, Msg::NextSlider, "", "", ""),
    bind(KeyCode::Char('j'), NONE, LAB, Msg::NextSlider, "", "", ""),
    bind(
        KeyCode::BackTab,
        NONE,
        LAB,
        Msg::PrevSlider,
        "Shift+Tab/↑/k",
        "focus the previous slider",
        "",
    ),
    bind(KeyCode::Up, NONE, LAB, Msg::PrevSlider, "", "", ""),
    bind(KeyCode::Char('k'), NONE, LAB, Msg::PrevSlider, "", "", ""),
    bind(
        KeyCode::Left,
        NONE,
        LAB,
        Msg::Step(-1),
        "←/→",
        "move the slider one step",
        "←→ adjust",
    ),
    bind(KeyCode::Right, NONE, LAB, Msg::Step(1), "", "", ""),
    bind(
        KeyCode::Left,
        SHIFT,
        LAB,
        Msg::Step(-10),
        "Shift+←/→",
        "move the slider ten steps",
        "",
    ),
    bind(KeyCode::Right, SHIFT, LAB, Msg::Step(10), "", "", ""),
    bind(
        KeyCode::Home,
        NONE,
        LAB,
        Msg::SliderMin,
        "Home",
        "slider to its minimum",
        "",
    ),
    bind(
        KeyCode::End,
        NONE,
        LAB,
        Msg::SliderMax,
        "End",
        "slider to its maximum",
        "",
    ),
    bind(
        KeyCode::Char('0'),
        NONE,
        LAB,
        Msg::SliderReset,
        "0",
        "slider back to its default",
        "0 reset",
    ),
    bind(
        KeyCode::Char('l'),
        NONE,
        LAB,
        Msg::ToggleLesson,
        "L",
        "show or hide the lesson",
        "L lesson",
    ),
    bind(KeyCode::Char('L'), NONE, LAB, Msg::ToggleLesson, "", "", ""),
    bind(
        KeyCode::PageUp,
        NONE,
        LAB,
        Msg::ScrollUp,
        "PgUp/PgDn",
        "scroll the lesson, log or timeline",
        "",
    ),
    bind(KeyCode::PageDown, NONE, LAB, Msg::ScrollDown, "", "", ""),
    bind(
        KeyCode::Esc,
        NONE,
        LAB,
        Msg::Back,
        "Esc/q",
        "back to the home screen",
        "Esc back",
    ),
    bind(KeyCode::Char('q'), NONE, LAB, Msg::Back, "", "", ""),
    bind(
        KeyCode::Char('m'),
        NONE,
        LAB,
        Msg::ToggleMode,
        "m/s",
        "sim or live; live: s starts or stops a run",
        "",
    ),
    bind(KeyCode::Char('s'), NONE, LAB, Msg::StartStop, "", "", ""),
    bind(
        KeyCode::Char('b'),
        NONE,
        LAB,
        Msg::Live(LiveMsg::BrownOut),
        "b/f",
        "Lab 3 live: b browns out now or heals; f next fault",
        "",
    ),
    bind(
        KeyCode::Char('f'),
        NONE,
        LAB,
        Msg::Live(LiveMsg::CycleFault),
        "",
        "",
        "",
    ),
    bind(
        KeyCode::Char('v'),
        NONE,
        LAB,
        Msg::Live(LiveMsg::ToggleView),
        "v/o/g",
        "Lab 2 live: v view, o policy A/B/C, g fail db 10 s",
        "",
    ),
    bind(
        KeyCode::Char('o'),
        NONE,
        LAB,
        Msg::Live(LiveMsg::CyclePolicy),
        "",
        "",
        "",
    ),
    bind(KeyCode::Char('g'), NONE, LAB, Msg::Live(LiveMsg::Trigger), "", "", ""),
    bind(
        KeyCode::Char('+'),
        NONE,
        LAB,
        Msg::Live(LiveMsg::Load(1)),
        "+/-/c",
        "Lab 2 metastable: load ±40 actions/s; c cuts it to 0",
        "",
    ),
    bind(KeyCode::Char('='), NONE, LAB, Msg::Live(LiveMsg::Load(1)), "", "", ""),
    bind(KeyCode::Char('-'), NONE, LAB, Msg::Live(LiveMsg::Load(-1)), "", "", ""),
    bind(KeyCode::Char('c'), NONE, LAB, Msg::Live(LiveMsg::CutLoad), "", "", ""),
    bind(
        KeyCode::Char('?'),
        NONE,
        SCREENS,
        Msg::ToggleHelp,
        "?",
        "show this help",
        "? help",
    ),
    bind(
        KeyCode::Char('?'),
        NONE,
        HELP,
        Msg::ToggleHelp,
        "?/Esc/q",
        "close the help",
        "Esc close",
    ),
    bind(KeyCode::Esc, NONE, HELP, Msg::ToggleHelp, "", "", ""),
    bind(KeyCode::Char('q'), NONE, HELP, Msg::ToggleHelp, "", "", ""),
    bind(
        KeyCode::Char('c'),
        CTRL,
        EVERYWHERE,
        Msg::Quit,
        "Ctrl+C",
        "quit from anywhere",
        "",
    ),
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
}

/// The rows the help overlay lists for `context`, as (keys, what they do).
pub fn help_rows(context: Context) -> Vec<(&'static str, &'static str)> {
    BINDINGS
        .iter()
        .filter(|b| !b.label.is_empty() && b.contexts.contains(&context))
        .map(|b| (b.label, b.help))
        .collect()
}

/// The footer's entries for `context`, e.g. `L lesson`.
pub fn footer_keys(context: Context) -> Vec<&'static str> {
    BINDINGS
        .iter()
        .filter(|b| !b.footer.is_empty() && b.contexts.contains(&context))
        .map(|b| b.footer)
        .collect()
}
