//! Colours of the terminal app: a dark and a light set, and none at all under `NO_COLOR`.
//!
//! Views never name a colour: they ask the theme for a role (`accent`, `closed`, ...), so
//! `NO_COLOR` and `--theme light` change one place.

use ratatui::style::{Color, Modifier, Style};
use ratatui::symbols::Marker;

/// Which colour set: for a dark or a light terminal background. The command line's
/// `--theme` arrives as this plain value (`main.rs` converts it), so the app names no clap type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ThemeName {
    Light,
    Dark,
}

/// Styles by role.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Theme {
    /// False under `NO_COLOR`: every style keeps only its modifiers.
    pub colour: bool,
    pub name: ThemeName,
}

impl Theme {
    pub fn new(name: ThemeName, colour: bool) -> Self {
        Self { colour, name }
    }

    /// The theme asked for on the command line, without colour when `NO_COLOR` is set and non-empty.
    pub fn from_env(name: ThemeName) -> Self {
        let no_colour = std::env::var_os("NO_COLOR").is_some_and(|value| !value.is_empty());
        Self::new(name, !no_colour)
    }

    /// A style in `color`, or the plain style when colour is off.
    fn fg(self, color: Color) -> Style {
        if self.colour {
            Style::new().fg(color)
        } else {
            Style::new()
        }
    }

    fn pick(self, dark: Color, light: Color) -> Color {
        match self.name {
            ThemeName::Dark => dark,
            ThemeName::Light => light,
        }
    }

    pub fn text(self) -> Style {
        Style::new()
    }

    /// Secondary text: help lines, axis labels, hints.
    pub fn dim(self) -> Style {
        if self.colour {
            self.fg(self.pick(Color::Gray, Color::DarkGray))
        } else {
            Style::new().add_modifier(Modifier::DIM)
        }
    }

    /// Titles and the focused element.
    pub fn accent(self) -> Style {
        self.fg(self.pick(Color::Cyan, Color::Blue))
            .add_modifier(Modifier::BOLD)
    }

    /// The selected row of a list or the focused slider.
    pub fn selected(self) -> Style {
        if self.colour {
            Style::new()
                .fg(self.pick(Color::Black, Color::White))
                .bg(self.pick(Color::Cyan, Color::Blue))
        } else {
            Style::new().add_modifier(Modifier::REVERSED)
        }
    }

    /// Keys in the footer and the help overlay.
    pub fn key(self) -> Style {
        self.fg(self.pick(Color::Yellow, Color::Magenta))
            .add_modifier(Modifier::BOLD)
    }

    /// Borders: quiet, but visible on a light background too (grey on white is not).
    pub fn border(self) -> Style {
        self.fg(Color::DarkGray)
    }

    /// The marker of a chart's `position`-th series. In colour every series is a braille
    /// line; without colour the lines would look alike, so each has its own glyph.
    pub fn marker(self, position: usize) -> Marker {
        if self.colour {
            Marker::Braille
        } else {
            [Marker::Braille, Marker::Dot, Marker::Bar][position % 3]
        }
    }

    /// The legend's sample of the `position`-th series: what [`Theme::marker`] draws. Without
    /// colour the braille line's sample is braille too: a trial read `━ A` and looked for a
    /// solid line among the dots.
    pub fn legend_mark(self, position: usize) -> &'static str {
        if self.colour {
            "━"
        } else {
            ["⠒", "•", "▄"][position % 3]
        }
    }

    /// The background of a scheduled brownout in a chart: a dark red on the dark theme, a
    /// pale red on the light one. Without colour the chart dots the window instead.
    pub fn brownout_bg(self) -> Color {
        self.pick(Color::Rgb(60, 40, 40), Color::Rgb(255, 222, 222))
    }

    /// The series of a chart, by index: A, B, C or calls, to sick, degraded.
    pub fn series(self, index: usize) -> Style {
        let colours = [
            self.pick(Color::LightRed, Color::Red),
            self.pick(Color::LightYellow, Color::Rgb(160, 110, 0)),
            self.pick(Color::LightGreen, Color::Green),
            self.pick(Color::LightBlue, Color::Blue),
        ];
        self.fg(colours[index % colours.len()])
    }

    /// The breaker states' band colours: closed green, open red, half-open yellow.
    pub fn closed(self) -> Style {
        self.fg(Color::Green)
    }

    pub fn open(self) -> Style {
        self.fg(Color::Red)
    }

    pub fn half_open(self) -> Style {
        self.fg(Color::Yellow)
    }
}
