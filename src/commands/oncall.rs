//! `run oncall`: the on-call drill headless. Plays an incident with a scripted lever
//! sequence on the virtual clock (or live on 127.0.0.1 with `--live`, the same printer),
//! prints the score, saves a debrief if asked, and replays a saved debrief to check that
//! its score still holds.

use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

use color_eyre::eyre::{Result, eyre};

use crate::cli::{Deferred, LeverScript, OncallArgs, run_subcommand};
use crate::engine::oncall::{
    DrillMode, DrillRun, DrillScore, DrillSetup, ExtraFault, IncidentSpec, LeverPull, builtin_incidents,
    choose_incident, run_drill, score_drill,
};
use crate::error::UsageError;
pub use crate::learning::debrief::{debrief_dir, save_debrief};
use crate::live::oncall::runner as oncall_live;
use crate::report::oncall::{
    DecisionEntry, debrief_json, debrief_markdown, expected_effect, oncall_dashboard, oncall_json, oncall_text,
};

/// The seed when none is given.
pub const DEFAULT_ONCALL_SEED: u64 = 1;

fn usage(message: impl Into<String>) -> color_eyre::Report {
    UsageError(message.into()).into()
}

/// The shipped incident of that name.
fn incident_named(name: &str) -> Result<IncidentSpec> {
    let incidents = builtin_incidents().map_err(|e| eyre!("{e}"))?;
    let names: Vec<String> = incidents.iter().map(|i| i.name.clone()).collect();
    incidents
        .into_iter()
        .find(|i| i.name == name)
        .ok_or_else(|| usage(format!("no incident {name:?} (allowed: {})", names.join(", "))))
}

/// The seed's setup, with a facilitator's second faults (a replayed debrief's), and the
/// script's levers in drill seconds.
fn setup_and_levers(
    incident: &IncidentSpec,
    seed: u64,
    script: &LeverScript,
    extra_faults: Vec<ExtraFault>,
) -> (DrillSetup, Vec<LeverPull>) {
    let mut setup = DrillSetup::new(incident, seed);
    setup.extra_faults = extra_faults;
    let levers = match script {
        LeverScript::Runbook => setup.runbook(),
        LeverScript::Pulls(pulls) => pulls.clone(),
    };
    (setup, levers)
}

/// Plays one drill and scores it.
pub fn play(incident: &IncidentSpec, seed: u64, script: &LeverScript) -> (DrillRun, DrillScore) {
    play_with_faults(incident, seed, script, Vec::new())
}

/// Plays one drill with a facilitator's second faults (a replayed debrief's) and scores it.
pub fn play_with_faults(
    incident: &IncidentSpec,
    seed: u64,
    script: &LeverScript,
    extra_faults: Vec<ExtraFault>,
) -> (DrillRun, DrillScore) {
    let (setup, levers) = setup_and_levers(incident, seed, script, extra_faults);
    let run = run_drill(&setup, &levers);
    let score = score_drill(&run);
    (run, score)
}

/// Plays one drill live on 127.0.0.1 (the twin of [`play`]) and scores it; `Err` carries
/// the signal that ended it early. The wall time is the drill's at the live scale, about
/// 35 s, whatever the flags: the load and the drill's length are fixed.
pub fn play_live(
    incident: &IncidentSpec,
    seed: u64,
    script: &LeverScript,
) -> Result<std::result::Result<(DrillRun, DrillScore), crate::signals::Arrived>> {
    // The live twin plays no facilitator's faults: `--live --replay` is refused.
    let (setup, levers) = setup_and_levers(incident, seed, script, Vec::new());
    let runtime = super::run::live_runtime()?;
    let outcome = runtime.block_on(async {
        // Registered before the servers start, so a signal at any moment ends the run.
        let mut stop = crate::signals::Stop::register()?;
        Ok::<_, color_eyre::eyre::Report>(tokio::select! {
            biased;
            signal = stop.recv() => Err(signal),
            run = oncall_live::run(&setup, &levers, oncall_live::MS_PER_DRILL_S) => Ok(run),
        })
    })?;
    // Dropping the runtime's tasks closes every server's listener and connection: no
    // server outlives the command, signal or not.
    runtime.shutdown_background();
    Ok(match outcome {
        Err(signal) => Err(signal),
        Ok(run) => {
            let run = run.map_err(|e| eyre!("running the on-call drill live on 127.0.0.1: {e}"))?;
            let score = score_drill(&run);
            Ok((run, score))
        }
    })
}

/// The decision log of a headless run: no reason written, the lever's documented effect.
fn scripted_decisions(levers: &[LeverPull]) -> Vec<DecisionEntry> {
    levers
        .iter()
        .map(|pull| DecisionEntry {
            pull: *pull,
            why: "scripted (--levers)".to_string(),
            expected: expected_effect(pull.lever).to_string(),
        })
        .collect()
}

/// A saved debrief's incident, seed, levers and score, read back.
pub fn read_debrief(path: &Path) -> Result<(IncidentSpec, u64, Vec<LeverPull>, u32)> {
    let text = std::fs::read_to_string(path).map_err(|e| usage(format!("{}: {e}", path.display())))?;
    let doc: serde_json::Value =
        serde_json::from_str(&text).map_err(|e| usage(format!("{}: not JSON: {e}", path.display())))?;
    let bad = |what: &str| {
        usage(format!(
            "{}: {what} (see the book's on-call chapter for the schema)",
            path.display()
        ))
    };
    if doc["schema"] != crate::report::oncall::DEBRIEF_SCHEMA {
        return Err(bad("not an on-call debrief"));
    }
    let incident = incident_named(doc["incident"].as_str().ok_or_else(|| bad("no incident"))?)?;
    let seed = doc["seed"].as_u64().ok_or_else(|| bad("no seed"))?;
    let levers = doc["levers"]
        .as_array()
        .ok_or_else(|| bad("no levers"))?
        .iter()
        .map(|v| LeverPull::parse(v.as_str().unwrap_or("")))
        .collect::<std::result::Result<Vec<_>, _>>()
        .map_err(|e| bad(&e))?;
    let score = doc["score"]["score"].as_u64().ok_or_else(|| bad("no score.score"))? as u32;
    Ok((incident, seed, levers, score))
}

/// Whether a saved debrief is a live drill's (`"mode": "live"`, written by `oncall --live`).
pub fn read_debrief_live(path: &Path) -> Result<bool> {
    let text = std::fs::read_to_string(path).map_err(|e| usage(format!("{}: {e}", path.display())))?;
    let doc: serde_json::Value =
        serde_json::from_str(&text).map_err(|e| usage(format!("{}: not JSON: {e}", path.display())))?;
    Ok(doc.get("mode").and_then(|m| m.as_str()) == Some("live"))
}

/// A saved debrief's second faults (`second_faults`, written when a facilitator added
/// one); none when the key is absent.
pub fn read_debrief_second_faults(path: &Path) -> Result<Vec<ExtraFault>> {
    let text = std::fs::read_to_string(path).map_err(|e| usage(format!("{}: {e}", path.display())))?;
    let doc: serde_json::Value =
        serde_json::from_str(&text).map_err(|e| usage(format!("{}: not JSON: {e}", path.display())))?;
    let Some(labels) = doc.get("second_faults") else {
        return Ok(Vec::new());
    };
    let labels = labels
        .as_array()
        .ok_or_else(|| usage(format!("{}: second_faults: allowed: a list of strings", path.display())))?;
    let incidents = builtin_incidents().map_err(|e| eyre!("{e}"))?;
    labels
        .iter()
        .map(|label| {
            ExtraFault::parse_label(label.as_str().unwrap_or(""), &incidents)
                .map_err(|e| usage(format!("{}: {e}", path.display())))
        })
        .collect()
}

run_subcommand! {
    /// The on-call drill: checkout-api, a hidden incident, the Atlas's levers, a score.
    OncallSubcommand::Oncall(Box<Deferred<OncallArgs>>), name: "oncall", order: 90,
    run: |args, context, out| {
        // The drill's incidents are its own files, not a lab file.
        run_oncall(&args, context.progress, out)
    }
}

/// Runs `run oncall`.
pub(crate) fn run_oncall(args: &OncallArgs, progress_file: Option<&Path>, out: &mut dyn Write) -> Result<ExitCode> {
    if args.mode.live && args.replay.is_some() {
        return Err(usage(
            "--replay checks a saved score on the virtual clock; allowed with --sim, not --live",
        ));
    }
    if let Some(path) = &args.replay {
        let (incident, seed, levers, saved_score) = read_debrief(path)?;
        let extra_faults = read_debrief_second_faults(path)?;
        let (run, score) = play_with_faults(&incident, seed, &LeverScript::Pulls(levers), extra_faults);
        print(DrillMode::Sim, &run, &score, args.mode.json, out)?;
        // A live drill's score was measured on real sockets: the twin agrees with the sim
        // in distribution, not to the point, so its replay is shown, not held to it.
        if read_debrief_live(path)? {
            if !args.mode.json {
                writeln!(
                    out,
                    "{}: a live drill's debrief, scored {saved_score} live; the simulation's replay above scores {}",
                    path.display(),
                    score.score
                )?;
            }
            return Ok(ExitCode::SUCCESS);
        }
        if score.score != saved_score {
            return Err(eyre!(
                "{}: replayed score {} differs from the saved {saved_score}",
                path.display(),
                score.score
            ));
        }
        return Ok(ExitCode::SUCCESS);
    }
    let seed = args.seed.unwrap_or(DEFAULT_ONCALL_SEED);
    let incident = match args.incident.as_deref() {
        Some(name) => incident_named(name)?,
        None => {
            let incidents = builtin_incidents().map_err(|e| eyre!("{e}"))?;
            choose_incident(&incidents, seed)
                .cloned()
                .ok_or_else(|| eyre!("no incidents are shipped"))?
        }
    };
    let script = args.levers.clone().unwrap_or(LeverScript::Pulls(Vec::new()));
    let (mode, (run, score)) = if args.mode.live {
        match play_live(&incident, seed, &script)? {
            Ok(played) => (
                DrillMode::Live {
                    ms_per_drill_s: oncall_live::MS_PER_DRILL_S,
                },
                played,
            ),
            Err(signal) => {
                writeln!(out, "interrupted by {}: the drill's servers were stopped", signal.name)?;
                return Ok(signal.exit_code());
            }
        }
    } else {
        (DrillMode::Sim, play(&incident, seed, &script))
    };
    if let Some(every) = args.dashboard_every.filter(|_| !args.mode.json) {
        for second in run.seconds.iter().step_by(every) {
            writeln!(out, "{}", oncall_dashboard(second))?;
        }
    }
    print(mode, &run, &score, args.mode.json, out)?;
    if args.debrief {
        let progress = super::progress::progress_path(progress_file)?;
        let decisions = scripted_decisions(&run.levers);
        let json = serde_json::to_string_pretty(&debrief_json(&run, &score, &decisions))?;
        let md = debrief_markdown(&run, &score, &decisions);
        let path = save_debrief(
            &debrief_dir(&progress),
            &format!("{}-seed{seed}", incident.name),
            &json,
            &md,
        )?;
        if !args.mode.json {
            writeln!(out, "debrief saved: {} (and .md)", path.display())?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn print(mode: DrillMode, run: &DrillRun, score: &DrillScore, json: bool, out: &mut dyn Write) -> Result<()> {
    if json {
        writeln!(out, "{}", oncall_json(mode, run, score))?;
    } else {
        write!(out, "{}", oncall_text(mode, run, score))?;
    }
    Ok(())
}
