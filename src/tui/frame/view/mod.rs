//! The lab screen's frame, the same for every lab, drawn from a [`LabView`]: its title,
//! parameter panel, lesson, prompt and footer around the showing page's results and charts,
//! which the page draws (`tui::labs::page::Page`), or the page's whole screen when it draws
//! one. It names no lab. Its layout is `tui/layout.rs`'s, shared with the mouse hit tests.
//!
//! ```text
//!  Lab 3 · A breaker during a brownout                          simulated clock
//! ┌ Results ─────────────────────────────────────────────────────────────────┐
//! │ timeout only  calls= 6000 to sick= 3000 degraded= 3000 p99 wait=200 ms ... │
//! │ with breaker  calls= 2911 to sick=   44 degraded= 3133 p99 wait= 40 ms ... │
//! │ t=10.29s closed -> open    t=15.29s open -> half_open    ... (log, PgUp/Dn)│
//! └──────────────────────────────────────────────────────────────────────────┘
//! ┌ Parameters ──────────────┐┌ Charts (or the Lesson, with L) ───────────────┐
//! │▸ Timeout          200 ms ││ timeout only          │ with breaker           │
//! │  ├━━━━━━●──────────────┤ ││ calls, to sick, deg.  │ calls, to sick, deg.   │
//! │  Healthy latency   40 ms ││ waiting (sparkline)   │ waiting (sparkline)    │
//! │  ...                     ││                       │ breaker state band     │
//! │ help of the focused one  ││                                                │
//! └──────────────────────────┘└────────────────────────────────────────────────┘
//!  footer keys
//! ```

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget, Wrap};

use crate::content::LabFile;
use crate::learning::reveal::{self, Masked, placeholder};
use crate::tui::frame::first_visit;
use crate::tui::keys::{self, Context};
use crate::tui::labs::page::{OpenVerdict, PageFrame};
use crate::tui::layout;
use crate::tui::msg::Msg;
use crate::tui::theme::Theme;
use crate::tui::view::footer;
use crate::tui::widgets::panel::panel;

pub mod hidden_legend;
pub mod lab_view;
pub mod lesson;
pub mod params;
pub mod predict;

pub use lab_view::LabView;

/// What the frame lends a page to draw itself with.
impl PageFrame for LabView<'_> {
    fn lab(&self) -> &LabFile {
        self.lab
    }

    fn number(&self) -> usize {
        self.number
    }

    fn sliders(&self) -> &[crate::tui::slider::Slider] {
        &self.screen.showing_sliders().sliders
    }

    fn theme(&self) -> Theme {
        self.theme
    }

    fn verdict(&self) -> Option<OpenVerdict<'_>> {
        self.screen.open_verdict()
    }

    fn shown_step(&self) -> usize {
        let screen = self.screen;
        match screen.predict.observed {
            Some(_) => screen.predict.step,
            None => screen.current_step(self.lab),
        }
    }

    fn step(&self) -> usize {
        self.screen.predict.step
    }

    fn steps_elsewhere(&self, from: usize) -> Option<String> {
        first_visit::steps_elsewhere(self.lab, self.screen.page(), from)
    }

    fn step_done(&self, step: usize) -> bool {
        let Some(title) = self.lab.steps.get(step).map(|s| &s.title) else {
            return false;
        };
        self.progress
            .labs
            .get(&self.lab.id)
            .is_some_and(|p| p.steps_done.iter().any(|t| t == title))
    }

    fn log_scroll(&self) -> u16 {
        self.screen.log_scroll
    }

    fn masked(&self) -> Masked {
        LabView::masked(self)
    }

    fn masked_spanning(&self, spanning: &[&str]) -> Masked {
        LabView::masked_spanning(self, spanning)
    }

    fn hidden_why(&self) -> Option<String> {
        hidden_why(self)
    }

    fn reveal_offered(&self) -> bool {
        self.screen.reveal_offered(self.lab, self.progress)
    }

    fn context(&self) -> Context {
        self.context
    }

    fn live_context(&self) -> Option<Context> {
        self.screen.live_context()
    }

    fn show_lesson(&self) -> bool {
        self.screen.show_lesson
    }

    fn render_params(&self, area: Rect, buf: &mut Buffer) {
        params::render(self, area, buf);
    }

    fn render_lesson(&self, area: Rect, buf: &mut Buffer) {
        lesson::render(self, area, buf);
    }

    fn render_predict(&self, area: Rect, buf: &mut Buffer) {
        predict::render(self, area, buf);
    }
}

/// A report row hides the numbers masked by the hiding rule, by their metric, before it is
/// text: the rule lives in `learning`, the cells in `report`, and the app is where both meet.
impl crate::report::cells::Mask for Masked {
    fn hidden(&self, metric: &str) -> Option<String> {
        self.step(metric).map(placeholder)
    }
}

/// A chart's area when a number it draws is masked: the one line saying which step asks for it.
pub fn masked_chart(title: &str, step: usize, theme: Theme, area: Rect, buf: &mut Buffer) {
    hidden(title, &reveal::Why::AskedBy(step).text(), theme, area, buf);
}

/// The Results panel's title when the run shown is, or is not, that at an open verdict's
/// check's own settings.
pub fn results_title_of(check_run: bool) -> &'static str {
    if check_run {
        " Results · check's settings "
    } else {
        " Results "
    }
}

/// The lab screen, then the one legend of hidden numbers if any is on it.
pub fn render(view: &LabView, area: Rect, buf: &mut Buffer) {
    render_regions(view, area, buf);
    if let Some(layout) = view.screen.layout(area) {
        hidden_legend::render(layout.results, area, view.theme, buf);
    }
}

/// Every region of the lab screen: the page's own whole screen, or the frame's around its
/// regions.
fn render_regions(view: &LabView, area: Rect, buf: &mut Buffer) {
    let state = view.screen;
    let (Some(layout), Some(page)) = (state.layout(area), state.showing_state()) else {
        return;
    };
    if page.render_whole(view, state.showing_sliders(), &layout, buf) {
        return;
    }
    let regions = Regions {
        title_right: page.title_right(),
        results: &|area, buf| page.render_results(view, area, buf),
        charts: &|area, buf| page.render_charts(view, area, buf),
        footer: &|area, buf| page.render_footer(view, area, buf),
    };
    render_framed(view, &regions, &layout, buf);
}

/// A drawing into one region of the frame.
type DrawInto<'a, T> = &'a dyn Fn(Rect, &mut Buffer) -> T;

/// What the frame draws of the page showing: its title's right end (wide, narrow), its
/// results and charts, and its own footer in the lab context (true when it has one).
struct Regions<'a> {
    title_right: (&'a str, &'a str),
    results: DrawInto<'a, ()>,
    charts: DrawInto<'a, ()>,
    footer: DrawInto<'a, bool>,
}

/// The frame around a page's regions: the title, the parameter panel, the results and
/// charts (hidden while the run waits), the lesson, the prompt and the footer.
fn render_framed(view: &LabView, regions: &Regions, layout: &layout::LabLayout, buf: &mut Buffer) {
    let theme = view.theme;
    let state = view.screen;
    let left = format!(" Lab {} · {}", view.number, view.lab.title);
    let (wide, narrow) = regions.title_right;
    let right = if left.chars().count() + wide.chars().count() < layout.title.width as usize {
        wide
    } else {
        narrow
    };
    let gap = (layout.title.width as usize).saturating_sub(left.chars().count() + right.len());
    Line::from(vec![
        Span::styled(left, theme.accent()),
        Span::raw(" ".repeat(gap)),
        Span::styled(right, theme.dim()),
    ])
    .render(layout.title, buf);
    params::render(view, layout.params, buf);
    // While a prompt is open, or the step's check waits for one, nothing it asks about may
    // show: the results and charts wait (the lesson holds no run's numbers and stays readable).
    if let Some(why) = hidden_why(view) {
        hidden(" Results ", &why, theme, layout.results, buf);
        if state.show_lesson {
            lesson::render(view, layout.right, buf);
        } else {
            hidden(" Charts ", &why, theme, layout.right, buf);
        }
    } else {
        (regions.results)(layout.results, buf);
        if state.show_lesson {
            lesson::render(view, layout.right, buf);
        } else {
            (regions.charts)(layout.right, buf);
        }
    }
    predict::render(view, layout.right, buf);
    if view.context != Context::Lab || !(regions.footer)(layout.footer, buf) {
        render_footer(view, layout.footer, buf);
    }
}

/// The lab screen's footer: its context's keys, the reveal key only while it reveals something.
fn render_footer(view: &LabView, area: Rect, buf: &mut Buffer) {
    footer::render_entries(footer_keys(view), view.theme, area, buf);
}

/// The footer entries of `view`'s context, `x reveal` only while it would change the screen
/// (the run waits for a prediction, or the step's own run is not the one showing). A live screen's come first (start and stop, back to the simulation), in place
/// of the sliders' (the help lists those): its footer read as the simulation's, without the
/// keys that run it.
pub fn footer_keys(frame: &dyn PageFrame) -> Vec<&'static str> {
    footer_entries(frame).into_iter().map(|(_, entry)| entry).collect()
}

/// [`footer_keys`] with each entry's message, for a page that places keys of its own among
/// them (Lab 4's `v` after the sliders' keys).
pub fn footer_entries(frame: &dyn PageFrame) -> Vec<(Msg, &'static str)> {
    let offered = frame.reveal_offered();
    let keep = |msg: Msg| msg != Msg::Reveal || offered;
    match frame.live_context().filter(|_| frame.context() == Context::Lab) {
        Some(live) => keys::footer_entries_if(live, |_| true)
            .into_iter()
            .chain(keys::footer_entries_if(Context::Lab, |msg| {
                keep(msg) && !matches!(msg, Msg::NextSlider | Msg::Step(_))
            }))
            .collect(),
        None => keys::footer_entries_if(frame.context(), keep),
    }
}

/// Why the run's panels are hidden, if they are ([`Masked::whole`]): a prompt is open, or
/// the current step's check is still to predict.
pub fn hidden_why(view: &LabView) -> Option<String> {
    view.masked().whole().map(reveal::Why::text)
}

/// A panel whose numbers are hidden until the learner predicts, saying `why`.
pub fn hidden(title: &str, why: &str, theme: Theme, area: Rect, buf: &mut Buffer) {
    Paragraph::new(Line::from(Span::styled(why.to_string(), theme.dim())))
        .wrap(Wrap { trim: true })
        .block(panel(title.to_string(), theme))
        .render(area, buf);
}
