//! Lab 1's first page, the single server: the simulated driver at the sliders (its two
//! requests and the server's exit drawn by [`results`], its timeline by [`charts`]), and
//! live ([`live`]): a real `resilience-lab serve health` child on 127.0.0.1, probed as it
//! happens, where a guided step's check is asked before the action and a real probe decides
//! it; [`view`] draws that live screen whole. The lab's second page is the fleet
//! (`tui/labs/fleet/`).

pub mod charts;
pub mod live;
pub mod results;
pub mod view;

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;

use crate::content::params;
use crate::content::{LabFile, Question};
use crate::engine::health::{self, DriverRun};
use crate::learning::metrics::{self, Metric, readyz_moment};
use crate::live::run::LabBody;
use crate::tui::frame::predict::{Observed, sliders_at_settings};
use crate::tui::keys::Context;
use crate::tui::labs::page::PageFrame;
use crate::tui::labs::sim_page::{LabSim, SimPage};
use crate::tui::layout::{LabLayout, ResultsRows};
use crate::tui::slider::Slider;
use live::LiveHealth;

/// Lab 1's first page.
pub type HealthPage = SimPage<HealthLab>;

/// What Lab 1's first page is made of.
#[derive(Debug)]
pub struct HealthLab;

impl LabSim for HealthLab {
    type Results = DriverRun;
    type Live = LiveHealth;

    fn compute(lab: &LabFile, sliders: &[Slider]) -> DriverRun {
        health::simulate_driver(&params::health_config(lab, sliders), health::SIM_DRIVER_PORT)
    }

    fn metrics(run: &DriverRun) -> Vec<Metric> {
        metrics::health_metrics(run)
    }

    fn rows(_live_showing: bool) -> ResultsRows {
        // The two requests and the exit (or one line each at 80 columns) and the note; live:
        // the server panel.
        ResultsRows::Fixed(5)
    }

    fn sim_title() -> (&'static str, &'static str) {
        ("simulated clock · m live · F fleet ", "m live · F fleet ")
    }

    fn key_context(page: &HealthPage) -> Option<Context> {
        page.live_showing.then_some(Context::LiveHealth)
    }

    fn takes_event(body: &LabBody) -> bool {
        matches!(body, LabBody::Health(_))
    }

    fn slider_note(page: &HealthPage, sliders: &[Slider], focus: usize) -> Option<String> {
        match sliders.get(focus).map(|s| s.spec.name.as_str()) {
            _ if page.live_showing => None,
            Some("port") => Some("In sim there is no server: this is the live server's (m).".to_string()),
            Some("probe_period_s") => Some(
                "In sim this changes nothing: requests go at set times. It is the live probes' period (m).".to_string(),
            ),
            _ => None,
        }
    }

    /// Live, a real probe scores a check the live server can answer (a /readyz moment of the
    /// Atlas's schedule), but only with the sliders at the check's own settings, since the
    /// server starts at the sliders; else the simulation at the check's settings does.
    fn scored_by(page: &HealthPage, check: Option<&Question>, sliders: &[Slider]) -> Option<&'static str> {
        if !page.live_showing {
            return None;
        }
        let probe_decides = check.is_some_and(|check| {
            check.metric.as_deref().and_then(readyz_moment).is_some() && sliders_at_settings(check, sliders)
        });
        Some(if probe_decides {
            "   (Enter, then start the server or send SIGTERM: a probe decides)"
        } else {
            "   (Enter: the simulation at the check's settings scores it)"
        })
    }

    /// Asked before the action that decides it: a real probe scores it (see
    /// [`LiveHealth::expect`]).
    fn predict_live(live: &mut LiveHealth, check: &Question, predicted: f64, (step, title): (usize, &str)) -> bool {
        live.expect(check, predicted, step, title).is_some()
    }

    fn take_live_verdict(live: &mut LiveHealth) -> Option<(usize, String, Observed)> {
        let (check, observed) = *live.decided.take()?;
        Some((check.step, check.step_title, observed))
    }

    /// Live, the server, its probes, what to do next and its log: a screen of its own.
    fn render_whole(page: &HealthPage, frame: &dyn PageFrame, layout: &LabLayout, buf: &mut Buffer) -> bool {
        if page.live_showing {
            view::render(&page.live, frame, layout, buf);
        }
        page.live_showing
    }

    fn render_results(page: &HealthPage, frame: &dyn PageFrame, area: Rect, buf: &mut Buffer) {
        let run = page.shown_results(frame.verdict());
        results::render(run, page.shows_verdict_run(frame), frame, area, buf);
    }

    fn render_charts(page: &HealthPage, frame: &dyn PageFrame, area: Rect, buf: &mut Buffer) {
        charts::render(page.shown_results(frame.verdict()), frame, area, buf);
    }
}

#[cfg(test)]
mod tests {
    use ratatui::buffer::Buffer;
    use ratatui::layout::Rect;

    use super::*;
    use crate::content::{Content, LabId};
    use crate::learning::progress::Progress;
    use crate::tui::frame::view::{LabView, render};
    use crate::tui::frame::{LabOutcome, LabScreen, ScreenCtx};
    use crate::tui::labs::entry;
    use crate::tui::msg::Msg;
    use crate::tui::theme::{Theme, ThemeName};

    #[test]
    fn keys_without_a_server_say_why_and_flags_wait_for_the_next_start() {
        let content = Content::load(None).expect("the built-in labs load");
        let lab = content.lab(LabId::Health);
        // The screen, as the app makes it from Lab 1's registry row.
        let mut screen = LabScreen::new(lab, entry(LabId::Health).pages);
        let area = Rect::new(0, 0, 100, 30);
        let ctx = ScreenCtx {
            lab,
            area,
            events: None,
        };
        assert_eq!(
            screen.update(Msg::LiveWork, &ctx),
            LabOutcome::Unchanged,
            "hidden: the lab screen handles it"
        );
        screen.update(Msg::ToggleMode, &ctx);
        assert!(screen.live_showing());
        screen.update(Msg::LiveWork, &ctx);
        screen.update(Msg::LiveLivenessDb, &ctx);
        // The page's live part is its own: its screen says what the keys did.
        let progress = Progress::default();
        let view = LabView {
            screen: &screen,
            lab,
            number: 1,
            theme: Theme::new(ThemeName::Dark, false),
            progress: &progress,
            context: screen.context(),
        };
        let mut buf = Buffer::empty(area);
        render(&view, area, &mut buf);
        let text: String = buf.content().iter().map(|cell| cell.symbol()).collect();
        assert!(text.contains("1 livez checks db: yes"), "the flag is set");
        assert!(
            text.contains("on the next start: /livez checks the database: yes"),
            "the status says when"
        );
        let mut live = LiveHealth::default();
        live.update(Msg::LiveWork);
        assert!(live.status.as_deref().unwrap_or_default().contains("s starts one"));
        assert_eq!(live.update(Msg::NextSlider), None);
    }
}
