//! The app's one state, the messages that change it, and `update`.
//!
//! Keys become [`Msg`]s in `keys.rs`; mouse events and resizes become [`Msg`]s here. Only
//! [`App::update`] changes state, and it says whether anything changed so the loop redraws
//! only then.

use crossterm::event::{Event as TermEvent, MouseButton, MouseEvent, MouseEventKind};
use ratatui::layout::{Position, Rect};

use std::path::PathBuf;

use crate::content::{Content, LabFile};
use crate::progress::Progress;
use crate::tui::book::BookState;
use crate::tui::keys::{self, Context};
use crate::tui::live::{LiveLabs, LiveMsg};
use crate::tui::live_health::{Answer, LiveHealth};
use crate::tui::predict::PredictState;
use crate::tui::quiz_screen::QuizScreen;
use crate::tui::runs::{self, LabResults};
use crate::tui::slider::Slider;
use crate::tui::theme::Theme;
use crate::tui::view::{home, lab as lab_view};

/// What the learner asked for, whatever the device.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Msg {
    Quit,
    Back,
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
    PrevStep,
    NextStep,
    /// Select the next or previous item of a list (the book's chapters).
    NextItem,
    PrevItem,
    /// Lab 1 live: start the server, or stop it if it runs.
    LiveStartStop,
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
    /// Lab 1 live: predict the next probe's answer.
    PredictProbe(Answer),
    /// Switch the lab screen between the simulated clock and the live lab.
    ToggleMode,
    /// Live mode: start a run, or stop the one running.
    StartStop,
    /// A key only the live screens use.
    Live(LiveMsg),
}

/// Whether a lab screen shows the simulation or the live lab.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Mode {
    #[default]
    Sim,
    Live,
}

/// The home screen's entries after the labs.
pub const EXTRA_ENTRIES: [(&str, &str); 2] = [
    ("Quiz", "Concepts, worked arithmetic and interview drills."),
    ("Book", "The chapters behind each lab, readable here."),
];

/// Which screen is showing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Screen {
    Home,
    /// Index into `Content::labs`.
    Lab(usize),
    Quiz,
    Book,
}

/// One lab's screen state, kept when the learner goes back home.
#[derive(Clone, Debug)]
pub struct LabState {
    pub sliders: Vec<Slider>,
    pub focus: usize,
    pub show_lesson: bool,
    /// First line shown of the lesson.
    pub lesson_scroll: u16,
    /// First line shown of the transition log (Lab 3) or the timeline (Lab 1).
    pub log_scroll: u16,
    pub results: LabResults,
    pub mode: Mode,
}

impl LabState {
    fn new(lab: &LabFile) -> Self {
        let sliders: Vec<Slider> = lab.parameters.iter().cloned().map(Slider::new).collect();
        let results = runs::compute(lab, &sliders);
        Self {
            sliders,
            focus: 0,
            show_lesson: false,
            lesson_scroll: 0,
            log_scroll: 0,
            results,
            mode: Mode::Sim,
        }
    }
}

/// The whole app.
pub struct App {
    pub content: Content,
    pub theme: Theme,
    pub screen: Screen,
    /// Selected home entry: the labs, then Quiz and Book.
    pub home_selected: usize,
    pub labs: Vec<LabState>,
    pub show_help: bool,
    /// One line under the home list: a progress notice, or a save that failed.
    pub status: Option<String>,
    pub running: bool,
    /// The terminal's size, for mouse hit tests against the same layout the views draw.
    pub area: Rect,
    /// A click landed on a slider's bar and the button is still down: drags move the knob.
    pub dragging: bool,
    /// What the learner has done, saved after every answer and step.
    pub progress: Progress,
    /// Where progress is saved; `None` keeps it in memory only (tests, no data directory).
    pub progress_path: Option<PathBuf>,
    pub quiz: QuizScreen,
    pub book: BookState,
    /// Each lab's guided step and prediction, in the order of `Content::labs`.
    pub predicts: Vec<PredictState>,
    /// Lab 1's live mode: the server child, its probes and the predictions.
    pub health_live: LiveHealth,
    /// Lab 2's and Lab 3's live runs and what they showed.
    pub live: LiveLabs,
    /// The signal that stopped the app, if one did: the exit code says so (128 + its number).
    pub stopped_by_signal: Option<i32>,
}

impl App {
    pub fn new(content: Content, theme: Theme, area: Rect) -> Self {
        let labs = content.labs.iter().map(LabState::new).collect();
        let quiz = QuizScreen::new(&content);
        let predicts = content.labs.iter().map(|_| PredictState::default()).collect();
        Self {
            content,
            theme,
            screen: Screen::Home,
            home_selected: 0,
            labs,
            show_help: false,
            status: None,
            running: true,
            area,
            dragging: false,
            progress: Progress::new(),
            progress_path: None,
            quiz,
            book: BookState::default(),
            predicts,
            health_live: LiveHealth::default(),
            stopped_by_signal: None,
            live: LiveLabs::default(),
        }
    }

    /// Whether Lab 1's live screen is showing (its keys come first).
    pub fn health_live_showing(&self) -> bool {
        self.health_live_showing_ignoring_help() && !self.show_help
    }

    /// Whether Lab 1's live screen is under whatever overlay shows (the help lists its keys).
    pub fn health_live_showing_ignoring_help(&self) -> bool {
        matches!(self.screen, Screen::Lab(index) if self.content.labs[index].id == "health") && self.health_live.shown
    }

    /// The frame tick: live labs read what arrived; true if the screen changed.
    pub fn tick(&mut self) -> bool {
        // Both are polled every tick: `|` rather than `||`, which would skip the second.
        self.health_live.poll() | self.poll_live()
    }

    /// Which part of the key table applies now.
    pub fn context(&self) -> Context {
        if self.show_help {
            Context::Help
        } else {
            self.screen_context()
        }
    }

    /// The context of the screen under the help overlay.
    pub fn screen_context(&self) -> Context {
        match self.screen {
            Screen::Home => Context::Home,
            Screen::Lab(index) if self.predicts[index].is_showing_outcome() => Context::Observed,
            Screen::Lab(index) if self.predicts[index].is_open() => Context::Predict,
            Screen::Lab(_) => Context::Lab,
            Screen::Quiz => self.quiz.context(),
            Screen::Book => Context::Book,
        }
    }

    pub fn home_entries(&self) -> usize {
        self.content.labs.len() + EXTRA_ENTRIES.len()
    }

    /// The message a terminal event sends, if any.
    pub fn msg_for(&self, event: &TermEvent) -> Option<Msg> {
        match event {
            // Lab 1 live keys come first, but not while a prompt takes typed digits.
            TermEvent::Key(key) => (self.health_live_showing() && self.context() == Context::Lab)
                .then(|| keys::msg_for(Context::LiveHealth, key))
                .flatten()
                .or_else(|| keys::msg_for(self.context(), key)),
            TermEvent::Mouse(mouse) => mouse_msg(mouse),
            TermEvent::Resize(width, height) => Some(Msg::Resize(*width, *height)),
            _ => None,
        }
    }

    /// Applies `msg`; returns whether anything the screen shows changed.
    pub fn update(&mut self, msg: Msg) -> bool {
        match msg {
            Msg::Quit => {
                self.running = false;
                true
            }
            Msg::Resize(width, height) => {
                self.area = Rect::new(0, 0, width, height);
                true
            }
            Msg::ToggleHelp => {
                self.show_help = !self.show_help;
                true
            }
            // The help overlay is modal: clicks and wheels close nothing and change nothing.
            _ if self.show_help => false,
            _ => match self.screen {
                Screen::Home => self.update_home(msg),
                Screen::Lab(index) => self.update_lab(index, msg),
                Screen::Quiz => self.update_quiz(msg),
                Screen::Book => self.update_book(msg),
            },
        }
    }

    fn update_home(&mut self, msg: Msg) -> bool {
        let entries = self.home_entries();
        let before = (self.home_selected, self.status.clone(), self.screen);
        match msg {
            Msg::Up => self.home_selected = self.home_selected.saturating_sub(1),
            Msg::Down => self.home_selected = (self.home_selected + 1).min(entries - 1),
            Msg::Open => self.open(self.home_selected),
            Msg::Click(x, y) => {
                if let Some(entry) = home::entry_at(self.area, entries, Position::new(x, y)) {
                    self.home_selected = entry;
                    self.open(entry);
                }
            }
            Msg::Wheel(_, _, down) => {
                let step = if down { Msg::Down } else { Msg::Up };
                return self.update_home(step);
            }
            _ => {}
        }
        before != (self.home_selected, self.status.clone(), self.screen)
    }

    fn open(&mut self, entry: usize) {
        let labs = self.content.labs.len();
        if entry < labs {
            self.screen = Screen::Lab(entry);
            self.status = None;
        } else if let Some((name, _)) = EXTRA_ENTRIES.get(entry - labs) {
            match *name {
                "Quiz" => self.open_quiz(),
                "Book" => self.open_book(),
                _ => self.status = Some(format!("{name}: coming soon")),
            }
        }
    }

    fn update_lab(&mut self, index: usize, msg: Msg) -> bool {
        if self.predicts[index].is_open() || matches!(msg, Msg::Predict | Msg::PrevStep | Msg::NextStep) {
            return self.update_predict(index, msg);
        }
        // Lab 1's live mode is its own (a server child, in `health_live`); Labs 2 and 3 share `live`.
        if self.content.labs[index].id != "health" {
            match msg {
                Msg::ToggleMode | Msg::StartStop | Msg::Live(_) => return self.update_live(index, msg),
                Msg::Back => self.live_left(index),
                _ => {}
            }
        }
        let changed = self.update_lab_view(index, msg);
        if changed && self.labs[index].mode == Mode::Live {
            self.live_sliders_changed(index);
        }
        changed
    }

    fn update_lab_view(&mut self, index: usize, msg: Msg) -> bool {
        let lab = &self.content.labs[index];
        // Lab 1 live takes its keys first; PgUp/PgDn scroll its log unless the lesson shows.
        let lesson_scroll = self.labs[index].show_lesson && matches!(msg, Msg::ScrollUp | Msg::ScrollDown);
        if lab.id == "health"
            && !lesson_scroll
            && let Some(changed) = self.health_live.update(msg, &self.labs[index].sliders)
        {
            return changed;
        }
        let layout = lab_view::layout(self.area, &lab.id, self.labs[index].show_lesson);
        let state = &mut self.labs[index];
        let count = state.sliders.len();
        let before: Vec<f64> = state.sliders.iter().map(Slider::value).collect();
        let view_before = (state.focus, state.show_lesson, state.lesson_scroll, state.log_scroll);
        match msg {
            Msg::Back => {
                self.screen = Screen::Home;
                return true;
            }
            Msg::NextSlider if count > 0 => state.focus = (state.focus + 1) % count,
            Msg::PrevSlider if count > 0 => state.focus = (state.focus + count - 1) % count,
            Msg::Step(delta) => {
                if let Some(slider) = state.sliders.get_mut(state.focus) {
                    slider.step_by(i64::from(delta));
                }
            }
            Msg::SliderMin => state.sliders.get_mut(state.focus).into_iter().for_each(Slider::to_min),
            Msg::SliderMax => state.sliders.get_mut(state.focus).into_iter().for_each(Slider::to_max),
            Msg::SliderReset => state.sliders.get_mut(state.focus).into_iter().for_each(Slider::reset),
            Msg::ToggleLesson => state.show_lesson = !state.show_lesson,
            Msg::ScrollUp | Msg::ScrollDown => scroll(state, msg == Msg::ScrollDown, 3),
            Msg::Click(x, y) => {
                let at = Position::new(x, y);
                self.dragging = false;
                match layout
                    .as_ref()
                    .and_then(|l| lab_view::slider_hit(l, count, state.focus, at))
                {
                    Some(lab_view::SliderHit::Row(row)) => state.focus = row,
                    Some(lab_view::SliderHit::Bar(fraction)) => {
                        self.dragging = true;
                        if let Some(slider) = state.sliders.get_mut(state.focus) {
                            slider.set_fraction(fraction);
                        }
                    }
                    None => {}
                }
            }
            Msg::Drag(x, _) if self.dragging => {
                let fraction = layout
                    .as_ref()
                    .and_then(|l| lab_view::bar_fraction(l, count, state.focus, x));
                if let (Some(fraction), Some(slider)) = (fraction, state.sliders.get_mut(state.focus)) {
                    slider.set_fraction(fraction);
                }
            }
            Msg::Release => self.dragging = false,
            Msg::Wheel(x, y, down) => {
                let at = Position::new(x, y);
                let over_params = layout.as_ref().is_some_and(|l| l.params.contains(at));
                if over_params && count > 0 {
                    state.focus = if down {
                        (state.focus + 1).min(count - 1)
                    } else {
                        state.focus.saturating_sub(1)
                    };
                } else {
                    scroll(state, down, 1);
                }
            }
            _ => {}
        }
        let after: Vec<f64> = state.sliders.iter().map(Slider::value).collect();
        if after != before {
            if lab.id == "health" {
                self.health_live.sliders_changed(&state.sliders);
            }
            state.results = runs::compute(lab, &state.sliders);
            return true;
        }
        view_before != (state.focus, state.show_lesson, state.lesson_scroll, state.log_scroll)
    }
}

/// Scrolls the lesson when it shows, else the log; the views clamp to the text's end.
fn scroll(state: &mut LabState, down: bool, lines: u16) {
    let target = if state.show_lesson {
        &mut state.lesson_scroll
    } else {
        &mut state.log_scroll
    };
    *target = if down {
        target.saturating_add(lines).min(500)
    } else {
        target.saturating_sub(lines)
    };
}

fn mouse_msg(mouse: &MouseEvent) -> Option<Msg> {
    let (x, y) = (mouse.column, mouse.row);
    match mouse.kind {
        MouseEventKind::Down(MouseButton::Left) => Some(Msg::Click(x, y)),
        MouseEventKind::Drag(MouseButton::Left) => Some(Msg::Drag(x, y)),
        MouseEventKind::Up(MouseButton::Left) => Some(Msg::Release),
        MouseEventKind::ScrollDown => Some(Msg::Wheel(x, y, true)),
        MouseEventKind::ScrollUp => Some(Msg::Wheel(x, y, false)),
        _ => None,
    }
}
