//! `run oncall`'s flags: which incident, the seed, the levers (`T:LEVER,...` or
//! `runbook`), and where a debrief goes. Each value is checked as it is parsed, so a
//! mistake is one line naming what is allowed (exit 2).

use std::path::PathBuf;

use clap::Args;

use crate::cli::mode::ModeArgs;
use crate::engine::oncall::{LeverPull, builtin_incidents};

/// The largest seed: a 32-bit number, as the other labs take.
pub const MAX_ONCALL_SEED: u64 = u32::MAX as u64;

/// The levers to play: a list, or the incident's own runbook resolved for the seed.
#[derive(Debug, Clone, PartialEq)]
pub enum LeverScript {
    Pulls(Vec<LeverPull>),
    Runbook,
}

/// `run oncall`: an incident played with a scripted lever sequence.
#[derive(Debug, Clone, Args)]
pub struct OncallArgs {
    #[command(flatten)]
    pub mode: ModeArgs,
    /// The incident, by its file's name (e.g. inventory-brownout); without it the seed
    /// picks one and the summary reveals it at the end, as a drill does.
    #[arg(long, value_name = "NAME", value_parser = parse_incident_name)]
    pub incident: Option<String>,
    /// Picks the dependency and the moment (0 to 4294967295; default 1).
    #[arg(long, value_name = "S", value_parser = parse_seed)]
    pub seed: Option<u64>,
    /// The levers as T:LEVER,... in drill seconds, or `runbook` for the incident's runbook.
    #[arg(long, value_name = "T:LEVER,...", value_parser = parse_levers, allow_hyphen_values = true)]
    pub levers: Option<LeverScript>,
    /// Prints on-call's dashboard every S drill seconds before the summary (1 to 420).
    #[arg(long, value_name = "S", value_parser = parse_every)]
    pub dashboard_every: Option<usize>,
    /// Saves the debrief (Markdown and JSON) beside the progress file, never over an older one.
    #[arg(long)]
    pub debrief: bool,
    /// Plays a saved debrief's incident, seed and levers again and checks its score.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["incident", "seed", "levers"])]
    pub replay: Option<PathBuf>,
}

/// `oncall`: the drill in the terminal app, on its own screen.
#[derive(Debug, Clone, Args)]
pub struct OncallScreenArgs {
    /// The incident, by its file's name (e.g. inventory-brownout); without it the seed picks
    /// one, and the screen never says which until the drill ends.
    #[arg(long, value_name = "NAME", value_parser = parse_incident_name)]
    pub incident: Option<String>,
    /// Picks the incident, its dependency and its moment (0 to 4294967295; default: a new
    /// one each session).
    #[arg(long, value_name = "S", value_parser = parse_seed)]
    pub seed: Option<u64>,
    /// A facilitator's screen for the drill a learner runs (in a second terminal): its
    /// hidden incident, a second fault, an owner's hint, the end.
    #[arg(long, conflicts_with_all = ["incident", "seed"])]
    pub gm: bool,
    /// Plays the drill live: checkout-api and its dependencies run on 127.0.0.1 under
    /// steady load, 1 drill s = 400 ms real (the drill in under 3 minutes); a lever goes to
    /// the running service at once; the signals show a few drill seconds late, once each
    /// second's requests have ended; the clock cannot pause.
    #[arg(long, conflicts_with = "gm")]
    pub live: bool,
    /// With --gm: the drill's port, if not the one its locator file names (1 to 65535).
    #[arg(long, value_name = "P", requires = "gm", value_parser = clap::value_parser!(u16).range(1..))]
    pub port: Option<u16>,
    /// With --gm: the drill's token, if not the one its locator file holds.
    #[arg(long, value_name = "T", requires = "gm")]
    pub token: Option<String>,
}

fn parse_incident_name(text: &str) -> Result<String, String> {
    let incidents = builtin_incidents().map_err(|e| e.to_string())?;
    let names: Vec<&str> = incidents.iter().map(|i| i.name.as_str()).collect();
    if names.contains(&text.trim()) {
        Ok(text.trim().to_string())
    } else {
        Err(format!("allowed: {}", names.join(", ")))
    }
}

fn parse_seed(text: &str) -> Result<u64, String> {
    match text.trim().parse::<u64>() {
        Ok(seed) if seed <= MAX_ONCALL_SEED => Ok(seed),
        _ => Err(format!("allowed: a whole number from 0 to {MAX_ONCALL_SEED}")),
    }
}

fn parse_every(text: &str) -> Result<usize, String> {
    let last = crate::engine::oncall::sim::DRILL_S;
    match text.trim().parse::<usize>() {
        Ok(every) if (1..=last).contains(&every) => Ok(every),
        _ => Err(format!("allowed: a whole number of drill seconds from 1 to {last}")),
    }
}

fn parse_levers(text: &str) -> Result<LeverScript, String> {
    if text.trim() == "runbook" {
        return Ok(LeverScript::Runbook);
    }
    LeverPull::parse_list(text).map(LeverScript::Pulls)
}
