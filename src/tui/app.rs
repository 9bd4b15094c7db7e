//! The app: which screen shows, the learner's progress, and the routing of messages and
//! events to the screens. `impl App` lives here only.
//!
//! Keys become [`Msg`]s in `keys.rs`; mouse events and resizes become [`Msg`]s here. Only
//! [`App::update`] and [`App::on_event`] change state, and they say whether anything
//! changed so the loop redraws only then. The app does not know any lab's insides: a lab
//! screen ([`LabScreen`]) takes the message and returns a [`LabOutcome`] the app applies.

use std::path::PathBuf;

use crossterm::event::{Event as TermEvent, MouseButton, MouseEvent, MouseEventKind};
use ratatui::layout::Rect;
use tokio::sync::mpsc;

use crate::content::book;
use crate::content::{Content, LabId};
use crate::engine::oncall::{builtin_incidents, choose_incident};
use crate::learning::progress::{self, Loaded, Progress};
use crate::live::run::{self, LabEvent};
use crate::tui::event::Event;
use crate::tui::frame::live::SHUTDOWN_DEADLINE;
use crate::tui::frame::{LabOutcome, LabScreen, ScreenCtx};
use crate::tui::keys::{self, Context};
use crate::tui::layout;
use crate::tui::log;
use crate::tui::msg::Msg;
use crate::tui::screens::book::BookState;
use crate::tui::screens::home::{EXTRA_ENTRIES, HomeOutcome, HomeScreen};
use crate::tui::screens::oncall::{OncallOutcome, OncallScreen};
use crate::tui::screens::quiz::{QuizOutcome, QuizScreen};
use crate::tui::screens::room::RoomHost;
use crate::tui::theme::Theme;

/// More rows than any help overlay has: the bound of its scroll.
const HELP_SCROLL_MAX: u16 = 200;

/// Which screen is showing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Screen {
    Home,
    /// Index into `Content::labs` (and [`App::labs`]).
    Lab(usize),
    Quiz,
    Book,
    /// The projector's view of the room this app hosts.
    Room,
    /// The on-call drill.
    Oncall,
}

/// The whole app.
pub struct App {
    pub content: Content,
    pub theme: Theme,
    pub screen: Screen,
    pub home: HomeScreen,
    /// One screen per lab, in the order of `Content::labs`.
    pub labs: Vec<LabScreen>,
    pub show_help: bool,
    /// First row shown of the help overlay, which scrolls when it is taller than the screen.
    pub help_scroll: u16,
    /// One line under the home list: a progress notice, or a save that failed.
    pub status: Option<String>,
    pub running: bool,
    /// The terminal's size, for mouse hit tests against the same layout the views draw.
    pub area: Rect,
    /// What the learner has done, saved after every answer and step.
    pub progress: Progress,
    /// Where progress is saved; `None` keeps it in memory only (tests, no data directory).
    pub progress_path: Option<PathBuf>,
    pub quiz: QuizScreen,
    pub book: BookState,
    /// The app's one event queue, for live runs to send into; `None` until the loop runs
    /// (views and tests without a runtime).
    pub events: Option<mpsc::Sender<Event>>,
    /// The signal that stopped the app, if one did: the exit code says so (128 + its number).
    pub stopped_by_signal: Option<i32>,
    /// With `--join`: the room every prediction is also sent to.
    pub room_link: Option<crate::tui::room_link::RoomLink>,
    /// The room this app hosts since `C` was pressed: its state and its server.
    pub room_host: Option<RoomHost>,
    /// The on-call drill under way or just ended; `None` until one is opened.
    pub oncall: Option<OncallScreen>,
    /// The next drill's seed (it picks the incident, its dependency and its moment).
    pub oncall_seed: u64,
    /// With `oncall --incident NAME`: every drill plays that incident.
    pub oncall_incident: Option<String>,
    /// With `oncall --live`: every drill plays the live twin on 127.0.0.1, not the sim.
    pub oncall_live: bool,
    /// Where a drill writes its control endpoint's locator for a facilitator (`oncall
    /// --gm`); None: no endpoint (tests without a runtime, no data directory).
    pub facilitator_locator: Option<PathBuf>,
    /// The drill's control endpoint, opened at the first tick of a drill under way.
    pub facilitator: Option<crate::tui::facilitator_link::FacilitatorLink>,
}

impl App {
    pub fn new(content: Content, theme: Theme, area: Rect) -> Self {
        let labs = content
            .labs
            .iter()
            .map(|lab| LabScreen::new(lab, crate::tui::labs::entry(lab.lab).pages))
            .collect();
        let quiz = QuizScreen::new(&content);
        Self {
            content,
            theme,
            screen: Screen::Home,
            home: HomeScreen::default(),
            labs,
            show_help: false,
            help_scroll: 0,
            status: None,
            running: true,
            area,
            progress: Progress::new(),
            progress_path: None,
            quiz,
            book: BookState::default(),
            events: None,
            stopped_by_signal: None,
            room_link: None,
            room_host: None,
            oncall: None,
            oncall_seed: 1,
            oncall_incident: None,
            oncall_live: false,
            facilitator_locator: None,
            facilitator: None,
        }
    }

    /// Live runs send into `events` from now on.
    pub fn use_events(&mut self, events: mpsc::Sender<Event>) {
        self.events = Some(events);
    }

    /// The screen of lab `id`.
    pub fn lab(&self, id: LabId) -> &LabScreen {
        self.labs
            .iter()
            .find(|screen| screen.id == id)
            .unwrap_or_else(|| panic!("lab {id} has a screen: Content::load loads every lab"))
    }

    pub fn lab_mut(&mut self, id: LabId) -> &mut LabScreen {
        self.labs
            .iter_mut()
            .find(|screen| screen.id == id)
            .unwrap_or_else(|| panic!("lab {id} has a screen: Content::load loads every lab"))
    }

    /// The live screen's own key context, if a live screen shows under any overlay.
    pub fn live_context_ignoring_help(&self) -> Option<Context> {
        match self.screen {
            Screen::Lab(index) => self.labs[index].live_context(),
            _ => None,
        }
    }

    /// The frame tick: clocks that move without events (Lab 1's warm-up); true if the screen changed.
    pub fn tick(&mut self) -> bool {
        let labs = self
            .labs
            .iter_mut()
            .fold(false, |changed, screen| screen.tick() | changed);
        // The drill clock runs only while the drill shows, help closed: unseen time is no drill time.
        let oncall = match (&mut self.oncall, self.screen) {
            (Some(screen), Screen::Oncall) if !self.show_help => {
                let outcome = screen.tick();
                self.apply_oncall_outcome(outcome)
            }
            (Some(screen), _) => {
                screen.leave();
                false
            }
            _ => false,
        };
        let facilitated = self.serve_facilitator();
        // The room's answers arrive on the server's tasks and its countdown runs: redraw.
        labs || oncall || facilitated || self.screen == Screen::Room
    }

    /// A facilitator's side of the drill, at each tick: the endpoint opened for a drill
    /// under way, the commands that came applied, the facilitator's view published. True
    /// if on-call's screen changed.
    fn serve_facilitator(&mut self) -> bool {
        let Some(screen) = self.oncall.as_mut() else {
            return false;
        };
        if self.facilitator.is_none()
            && screen.reveal.is_none()
            && let Some(path) = self.facilitator_locator.clone()
        {
            match crate::tui::facilitator_link::FacilitatorLink::open(&path) {
                Ok(link) => {
                    crate::tui::log::line(&format!("drill control endpoint at {}", link.addr()));
                    self.facilitator = Some(link);
                }
                Err(error) => {
                    // Once: the drill runs on without a facilitator.
                    crate::tui::log::line(&format!("no drill control endpoint: {error}"));
                    self.facilitator_locator = None;
                }
            }
        }
        let Some(link) = self.facilitator.as_mut() else {
            return false;
        };
        let mut outcomes = Vec::new();
        for command in link.take_commands() {
            let (outcome, said) = screen.apply_facilitator(command);
            outcomes.push(outcome);
            link.note = Some(said);
        }
        let mut view = crate::engine::oncall::FacilitatorView::of(&screen.play);
        view.note = link.note.clone();
        link.publish(view);
        if screen.reveal.is_some() {
            link.drill_ended();
        }
        outcomes
            .into_iter()
            .fold(false, |changed, outcome| self.apply_oncall_outcome(outcome) | changed)
    }

    /// An event of a live run: to its lab's screen.
    pub fn on_event(&mut self, lab: LabId, event: LabEvent) -> bool {
        let screen = self.lab_mut(lab);
        let changed = screen.on_event(event);
        match screen.take_outcome() {
            Some(outcome) => self.apply_lab_outcome(outcome),
            None => changed,
        }
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
            Screen::Lab(index) => self.labs[index].context(),
            Screen::Quiz => self.quiz.context(),
            Screen::Book => Context::Book,
            Screen::Room => Context::Room,
            Screen::Oncall => self.oncall.as_ref().map_or(Context::Home, OncallScreen::context),
        }
    }

    pub fn home_entries(&self) -> usize {
        self.content.labs.len() + EXTRA_ENTRIES.len()
    }

    /// The message a terminal event sends, if any.
    pub fn msg_for(&self, event: &TermEvent) -> Option<Msg> {
        match event {
            // A live screen's keys come first, but not while a prompt takes typed digits.
            TermEvent::Key(key) => self
                .live_context_ignoring_help()
                .filter(|_| !self.show_help && self.context() == Context::Lab)
                .and_then(|live| keys::msg_for(live, key))
                .or_else(|| keys::msg_for(self.context(), key)),
            TermEvent::Mouse(mouse) => mouse_msg(mouse),
            TermEvent::Resize(width, height) => Some(Msg::Resize(*width, *height)),
            _ => None,
        }
    }

    /// Applies `msg` and recomputes what it changed; returns whether anything the screen
    /// shows changed.
    pub fn update(&mut self, msg: Msg) -> bool {
        let changed = self.update_deferred(msg);
        self.settle();
        changed
    }

    /// Recomputes the simulations whose sliders moved since the last call, all of them.
    pub fn settle(&mut self) {
        self.settle_for_frame();
        self.finish_slow_work();
    }

    /// Recomputes what the next frame shows of the simulations whose sliders moved: the event
    /// loop calls it once before each frame, so a burst of queued steps costs one recompute.
    /// Work too slow for the frame (Lab 2's p-curve) is left to [`App::finish_slow_work`].
    pub fn settle_for_frame(&mut self) {
        for (screen, lab) in self.labs.iter_mut().zip(&self.content.labs) {
            screen.settle(lab);
        }
    }

    /// Whether a recompute left work for later ([`App::finish_slow_work`]).
    pub fn slow_work_pending(&self) -> bool {
        self.labs.iter().any(LabScreen::slow_work_pending)
    }

    /// Does the work [`App::settle_for_frame`] left; true if the screen changed.
    pub fn finish_slow_work(&mut self) -> bool {
        self.labs
            .iter_mut()
            .fold(false, |changed, screen| screen.finish_slow_work() | changed)
    }

    /// Applies `msg`, leaving a recompute it needs to [`App::settle`].
    pub fn update_deferred(&mut self, msg: Msg) -> bool {
        match msg {
            Msg::Quit => {
                self.running = false;
                true
            }
            Msg::Resize(width, height) => {
                self.area = Rect::new(0, 0, width, height);
                true
            }
            // Nothing else acts while the screen only says it is too small: a key would
            // change what the learner cannot see.
            _ if layout::is_too_small(self.area) => false,
            Msg::ToggleHelp => {
                self.show_help = !self.show_help;
                self.help_scroll = 0;
                true
            }
            // The help overlay is modal: it scrolls; clicks close nothing and change nothing.
            _ if self.show_help => {
                let before = self.help_scroll;
                self.help_scroll = match msg {
                    Msg::Up | Msg::Wheel(_, _, false) => before.saturating_sub(1),
                    Msg::Down | Msg::Wheel(_, _, true) => before.saturating_add(1),
                    Msg::ScrollUp => before.saturating_sub(10),
                    Msg::ScrollDown => before.saturating_add(10),
                    _ => before,
                }
                // The view stops at the last row; this only bounds the count.
                .min(HELP_SCROLL_MAX);
                self.help_scroll != before
            }
            Msg::OpenRoom => self.open_room(),
            Msg::OpenOncall if self.screen == Screen::Home => self.open_oncall_in(false),
            Msg::OpenOncallLive if self.screen == Screen::Home => self.open_oncall_in(true),
            _ => match self.screen {
                Screen::Home => self.update_home(msg),
                Screen::Room => self.update_room(msg),
                Screen::Lab(index) => self.update_lab(index, msg),
                Screen::Quiz => self.update_quiz(msg),
                Screen::Oncall => self.update_oncall(msg),
                Screen::Book => match self.book.update(msg, self.area) {
                    Some(changed) => changed,
                    None => {
                        self.screen = Screen::Home;
                        true
                    }
                },
            },
        }
    }

    /// Shows the room, hosting it first if this app hosts none yet: on 127.0.0.1 at a port
    /// the system picks (a room for the class's network is `class host --lan`). The room
    /// lives until the app ends, so Esc and `C` again find the same answers.
    fn open_room(&mut self) -> bool {
        if self.room_host.is_none() {
            match RoomHost::start(&self.content) {
                Ok(host) => self.room_host = Some(host),
                Err(why) => {
                    self.status = Some(format!("no room: {why}"));
                    return true;
                }
            }
        }
        self.screen = Screen::Room;
        self.status = None;
        true
    }

    fn update_room(&mut self, msg: Msg) -> bool {
        let Some(host) = &self.room_host else {
            self.screen = Screen::Home;
            return true;
        };
        match msg {
            Msg::RoomNext => host.screen.open_next(),
            Msg::RoomReveal => host.screen.reveal(),
            Msg::Back => self.screen = Screen::Home,
            _ => return false,
        }
        true
    }

    fn update_home(&mut self, msg: Msg) -> bool {
        match self.home.update(msg, self.home_entries(), self.area) {
            HomeOutcome::Unchanged => false,
            HomeOutcome::Changed => true,
            HomeOutcome::Open(entry) => {
                self.open(entry);
                true
            }
        }
    }

    fn open(&mut self, entry: usize) {
        let labs = self.content.labs.len();
        if entry < labs {
            self.screen = Screen::Lab(entry);
            self.status = None;
            self.greet_first_visit(entry);
        } else if let Some((name, _)) = EXTRA_ENTRIES.get(entry - labs) {
            match *name {
                "Quiz" => self.screen = Screen::Quiz,
                "Book" => self.screen = Screen::Book,
                "On-call" => {
                    self.open_oncall();
                }
                _ => {}
            }
            self.status = None;
        }
    }

    fn update_lab(&mut self, index: usize, msg: Msg) -> bool {
        let ctx = ScreenCtx {
            lab: &self.content.labs[index],
            area: self.area,
            events: self.events.as_ref(),
        };
        let outcome = self.labs[index].update(msg, &ctx);
        let changed = self.apply_lab_outcome(outcome);
        // `F` may have opened the fleet view for the first time.
        self.greet_first_visit(index) || changed
    }

    /// On the first visit of the page lab `index` shows, the lesson opens by itself; the
    /// visit is saved like an answer. True if it was the first.
    fn greet_first_visit(&mut self, index: usize) -> bool {
        if self.screen != Screen::Lab(index) {
            return false;
        }
        let (lab, screen) = (&self.content.labs[index], &mut self.labs[index]);
        let page = screen.page();
        if self.progress.visited(&lab.id, lab.visit_key(page)) {
            return false;
        }
        let lab_lesson_seen =
            (0..lab.pages.len()).any(|other| other != page && self.progress.visited(&lab.id, lab.visit_key(other)));
        screen.open_first_visit(lab, page, lab_lesson_seen);
        self.progress.mark_visited(&lab.id, lab.visit_key(page));
        self.save_progress();
        true
    }

    /// Marks every page of every lab visited, as for a learner who has opened them all
    /// before: no lesson opens by itself (the fixture of tests about later visits).
    pub fn mark_all_visited(&mut self) {
        for lab in &self.content.labs {
            for page in 0..lab.pages.len() {
                self.progress.mark_visited(&lab.id, lab.visit_key(page));
            }
        }
    }

    /// Applies what a lab screen's message or event did: home, a step done, an answer saved.
    fn apply_lab_outcome(&mut self, outcome: LabOutcome) -> bool {
        match outcome {
            LabOutcome::Unchanged => false,
            LabOutcome::Changed => true,
            LabOutcome::Home => {
                self.screen = Screen::Home;
                true
            }
            LabOutcome::StepDone { lab, title } => {
                self.progress.mark_step(lab.name(), &title);
                self.save_progress();
                true
            }
            LabOutcome::Predicted {
                lab,
                check_id,
                right,
                step_title,
                seen_first,
            } => {
                if seen_first {
                    self.progress.record_answer_after_seeing(&check_id, lab.name(), right);
                } else {
                    self.progress.record_answer(&check_id, Some(lab.name()), right);
                }
                self.send_to_room(lab, &check_id);
                if let Some(title) = step_title {
                    self.progress.mark_step(lab.name(), &title);
                }
                self.save_progress();
                true
            }
        }
    }

    /// With `--join`, the prediction just recorded goes to the room too; the room's last
    /// word (sent, or not sent and resending) shows under the home list.
    fn send_to_room(&mut self, lab: LabId, check_id: &str) {
        let Some(link) = &self.room_link else { return };
        let predicted = self
            .lab(lab)
            .predict
            .observed
            .as_ref()
            .map(|observed| observed.predicted);
        if let Some(value) = predicted {
            link.send(check_id, value);
        }
        if let Some(said) = link.status.lock().ok().and_then(|status| status.clone()) {
            self.status = Some(said);
        }
    }

    /// Shows the drill under way, or starts the next one: the incident named on the command
    /// line, else the seed's.
    /// Opens the drill: the one running, else a new one, `live` on 127.0.0.1 or simulated.
    fn open_oncall_in(&mut self, live: bool) -> bool {
        if self.oncall.as_ref().is_none_or(|screen| screen.reveal.is_some()) {
            self.oncall_live = live;
        }
        self.open_oncall()
    }

    pub fn open_oncall(&mut self) -> bool {
        let ended = self.oncall.as_ref().is_none_or(|screen| screen.reveal.is_some());
        if ended {
            let incidents = match builtin_incidents() {
                Ok(incidents) => incidents,
                Err(error) => {
                    self.status = Some(format!("no drill: {error}"));
                    return true;
                }
            };
            let incident = match &self.oncall_incident {
                Some(name) => incidents.iter().find(|i| &i.name == name),
                None => choose_incident(&incidents, self.oncall_seed),
            };
            let Some(incident) = incident else {
                self.status = Some("no drill: no such incident is shipped".to_string());
                return true;
            };
            self.oncall = Some(if self.oncall_live {
                OncallScreen::new_live(incident, self.oncall_seed)
            } else {
                OncallScreen::new(incident, self.oncall_seed)
            });
            // A new drill gets a new endpoint and token at its first tick.
            self.facilitator = None;
        }
        self.screen = Screen::Oncall;
        self.status = None;
        true
    }

    fn update_oncall(&mut self, msg: Msg) -> bool {
        let Some(screen) = self.oncall.as_mut() else {
            self.screen = Screen::Home;
            return true;
        };
        let outcome = screen.update(msg);
        self.apply_oncall_outcome(outcome)
    }

    /// Applies what the drill did: home, or the end (the debrief saved, the summary in progress).
    fn apply_oncall_outcome(&mut self, outcome: OncallOutcome) -> bool {
        match outcome {
            OncallOutcome::Unchanged => false,
            OncallOutcome::Changed => true,
            OncallOutcome::Home => {
                self.screen = Screen::Home;
                true
            }
            OncallOutcome::Ended => {
                let Some(screen) = self.oncall.as_mut() else {
                    return true;
                };
                let mut debrief = None;
                screen.saved = Some(match &self.progress_path {
                    None => "debrief not saved: this session keeps progress in memory only".to_string(),
                    Some(path) => match screen.save(path) {
                        Ok(saved) => {
                            debrief = Some(saved.display().to_string());
                            format!("debrief saved: {} (and .md)", saved.display())
                        }
                        Err(error) => format!("debrief not saved: {error:#}"),
                    },
                });
                if let Some(summary) = screen.summary(debrief) {
                    self.progress.record_oncall(summary);
                    self.save_progress();
                }
                // The next drill is another: a new seed picks a new incident and moment.
                self.oncall_seed = self.oncall_seed.wrapping_add(1) % (u64::from(u32::MAX) + 1);
                true
            }
        }
    }

    fn update_quiz(&mut self, msg: Msg) -> bool {
        let msg = match msg {
            // The wheel scrolls the review and moves through choices and picks.
            Msg::Wheel(_, _, down) => {
                if down {
                    Msg::Down
                } else {
                    Msg::Up
                }
            }
            other => other,
        };
        match self.quiz.update(msg, &self.content, &self.progress) {
            QuizOutcome::Unchanged => false,
            QuizOutcome::Changed => true,
            QuizOutcome::Answered {
                question_id,
                lab: _,
                right,
            } => {
                // The quiz counts in the quiz: a lab's progress is its own steps and checks, done there.
                self.progress.record_answer(&question_id, None, right);
                self.save_progress();
                true
            }
            QuizOutcome::Home => {
                self.screen = Screen::Home;
                true
            }
        }
    }

    /// Uses `loaded` as the learner's progress, saved to `path`; its notice shows once in
    /// the home status line.
    pub fn use_progress(&mut self, path: Option<PathBuf>, loaded: Loaded) {
        self.progress = loaded.progress;
        self.progress_path = path;
        if let Some(notice) = loaded.notice {
            self.status = Some(notice);
        }
    }

    /// Saves progress; a failure shows in the status line and the app goes on.
    fn save_progress(&mut self) {
        let Some(path) = &self.progress_path else { return };
        if let Err(error) = progress::save(path, &mut self.progress) {
            self.status = Some(format!("progress not saved: {error:#}"));
        }
    }

    /// The home screen's right-hand marker for entry `entry`.
    pub fn home_marker(&self, entry: usize) -> String {
        let labs = self.content.labs.len();
        if let Some(lab) = self.content.labs.get(entry) {
            return self.progress.lab_summary(lab);
        }
        match entry - labs {
            0 => {
                // Answers given in the quiz only: a lab's predictions count in the lab's row.
                let counts = self.progress.quiz_counts(&self.content.quiz_questions());
                format!(
                    "answered {} of {}, right at the last try {}",
                    counts.answered, counts.total, counts.right_last
                )
            }
            1 => format!("{} chapters", book::chapters().len()),
            _ => self.progress.oncall_line(),
        }
    }

    /// The app is about to stop every live run: a lab screen whose stop takes a moment says
    /// so (Lab 1's server: SIGTERM, then a kill).
    pub fn quitting(&mut self) {
        self.labs.iter_mut().for_each(LabScreen::quitting);
    }

    /// Whether any live run or server is going.
    pub fn live_running(&self) -> bool {
        self.labs.iter().any(LabScreen::live_running) || self.oncall.as_ref().is_some_and(OncallScreen::live_running)
    }

    /// Stops every live run and waits (bounded) until their servers and tasks are gone.
    pub async fn shutdown_live(&mut self) {
        if let Some(host) = self.room_host.as_mut() {
            host.stop(SHUTDOWN_DEADLINE).await;
        }
        let mut tasks: Vec<_> = self.labs.iter_mut().flat_map(LabScreen::shutdown).collect();
        tasks.extend(self.oncall.as_mut().and_then(OncallScreen::stop_live));
        if tasks.is_empty() {
            return;
        }
        let aborted = run::join_all(tasks, SHUTDOWN_DEADLINE).await;
        log::line(&format!(
            "live labs shut down ({aborted} aborted after {SHUTDOWN_DEADLINE:?})"
        ));
    }
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
