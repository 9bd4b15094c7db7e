//! Which clock a drill was played on, so that the printer can say it: the virtual clock,
//! or the live twin's real one at its scale.

/// The clock a [`super::DrillRun`] was played on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DrillMode {
    Sim,
    /// On 127.0.0.1, one drill second lasting `ms_per_drill_s` real milliseconds.
    Live {
        ms_per_drill_s: u64,
    },
}

impl DrillMode {
    /// `sim` or `live`, the JSON's `mode`.
    pub fn name(self) -> &'static str {
        match self {
            DrillMode::Sim => "sim",
            DrillMode::Live { .. } => "live",
        }
    }

    /// The summary's words: `sim`, or `live, 1 drill s = 80 ms`.
    pub fn label(self) -> String {
        match self {
            DrillMode::Sim => "sim".to_string(),
            DrillMode::Live { ms_per_drill_s } => format!("live, 1 drill s = {ms_per_drill_s} ms"),
        }
    }
}
