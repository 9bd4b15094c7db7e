//! One page's sliders: their values, which one has the focus, and whether a drag is moving
//! the focused knob. The lab screen holds one per page of the lab file and moves the showing
//! page's with one set of slider keys and one mouse handler ([`PageSliders::update`]), so a
//! page never carries a copy of them (Lab 1's fleet view once did, and its wheel had drifted
//! from the lab screen's: it moved the focus wherever the pointer was).

use ratatui::layout::{Position, Rect};

use crate::content::ParameterSpec;
use crate::tui::layout::{self, LabLayout, SliderHit};
use crate::tui::msg::Msg;
use crate::tui::slider::Slider;

/// How a page's parameter panel lays its sliders out.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SliderWindow {
    /// Every slider, the list scrolling only when the focused one would fall below the panel
    /// (`layout::rows`).
    #[default]
    Scrolled,
    /// As many sliders as the panel has rows less six (its bar, help and range), a window
    /// that keeps the focused one in view (Lab 1's fleet view: fifteen sliders and long help).
    AroundFocus,
}

/// The sliders of one page and the state the slider keys and the mouse move.
#[derive(Clone, Debug, Default)]
pub struct PageSliders {
    pub sliders: Vec<Slider>,
    pub focus: usize,
    /// A click landed on the focused slider's bar and the button is still down: drags move
    /// the knob.
    pub dragging: bool,
    pub window: SliderWindow,
}

impl PageSliders {
    /// Sliders for `specs`, each at its default, the first focused.
    pub fn new(specs: Vec<ParameterSpec>, window: SliderWindow) -> Self {
        Self {
            sliders: specs.into_iter().map(Slider::new).collect(),
            focus: 0,
            dragging: false,
            window,
        }
    }

    /// Every slider's value, to tell afterwards whether a message moved one.
    pub fn values(&self) -> Vec<f64> {
        self.sliders.iter().map(Slider::value).collect()
    }

    /// The sliders the panel `params` shows: the first one's index and how many.
    pub fn shown(&self, params: Rect) -> (usize, usize) {
        let count = self.sliders.len();
        match self.window {
            SliderWindow::Scrolled => (0, count),
            SliderWindow::AroundFocus => {
                let rows = usize::from(params.height.saturating_sub(6)).max(1);
                let first = (self.focus + 1).saturating_sub(rows).min(count.saturating_sub(rows));
                (first, (count - first).min(rows))
            }
        }
    }

    /// Applies a slider key or a mouse message over the parameter panel of `layout` (the
    /// screen as drawn); false if `msg` is not one (the wheel away from the panel scrolls
    /// what the screen shows there).
    pub fn update(&mut self, msg: Msg, layout: Option<&LabLayout>) -> bool {
        let count = self.sliders.len();
        match msg {
            Msg::NextSlider if count > 0 => self.focus = (self.focus + 1) % count,
            Msg::PrevSlider if count > 0 => self.focus = (self.focus + count - 1) % count,
            Msg::Step(delta) => {
                if let Some(slider) = self.sliders.get_mut(self.focus) {
                    slider.step_by(i64::from(delta));
                }
            }
            Msg::SliderMin => self.sliders.get_mut(self.focus).into_iter().for_each(Slider::to_min),
            Msg::SliderMax => self.sliders.get_mut(self.focus).into_iter().for_each(Slider::to_max),
            Msg::SliderReset => self.sliders.get_mut(self.focus).into_iter().for_each(Slider::reset),
            Msg::Click(x, y) => {
                self.dragging = false;
                match layout.and_then(|l| self.hit(l, Position::new(x, y))) {
                    Some(SliderHit::Row(row)) => self.focus = row,
                    Some(SliderHit::Bar(fraction)) => {
                        self.dragging = true;
                        if let Some(slider) = self.sliders.get_mut(self.focus) {
                            slider.set_fraction(fraction);
                        }
                    }
                    None => {}
                }
            }
            Msg::Drag(x, _) if self.dragging => {
                let fraction = layout.and_then(|l| self.bar_fraction(l, x));
                if let (Some(fraction), Some(slider)) = (fraction, self.sliders.get_mut(self.focus)) {
                    slider.set_fraction(fraction);
                }
            }
            Msg::Release => self.dragging = false,
            Msg::Wheel(x, y, down) if count > 0 && layout.is_some_and(|l| l.params.contains(Position::new(x, y))) => {
                self.focus = if down {
                    (self.focus + 1).min(count - 1)
                } else {
                    self.focus.saturating_sub(1)
                };
            }
            _ => return false,
        }
        true
    }

    /// What a click at `at` hit in the panel, as the panel lays the sliders out: a row is
    /// the slider's index among them all.
    fn hit(&self, layout: &LabLayout, at: Position) -> Option<SliderHit> {
        let (first, shown) = self.shown(layout.params);
        let focus = self.focus.checked_sub(first)?;
        match layout::slider_hit(layout, shown, focus, at)? {
            SliderHit::Row(row) => Some(SliderHit::Row(first + row)),
            bar => Some(bar),
        }
    }

    /// Where column `x` falls on the focused slider's bar, 0 to 1.
    fn bar_fraction(&self, layout: &LabLayout, x: u16) -> Option<f64> {
        let (first, shown) = self.shown(layout.params);
        layout::bar_fraction(layout, shown, self.focus.checked_sub(first)?, x)
    }
}
