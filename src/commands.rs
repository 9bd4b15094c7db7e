//! What each subcommand does: load content, run an engine, hand the report back.
//!
//! Output goes to the writer `main` passes in, so that `main.rs` stays the one place
//! that owns the process's standard output.

use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

use color_eyre::eyre::{Result, WrapErr};

use crate::cli::{BreakerArgs, Cli, Command, HealthArgs, RetryArgs, RunLab};
use crate::content::{Content, ContentError, LabFile};
use crate::engine::breaker::BreakerConfig;
use crate::engine::brownout::{self, BrownoutParams};
use crate::engine::health::{self, HealthConfig};
use crate::engine::retry::{
    self, ATLAS_JITTER_BASE_S, ATLAS_JITTER_CAP_S, ATLAS_JITTER_SEED, ATLAS_PS, ScenarioParams,
};
use crate::{metrics, report};

/// A mistake in what the user asked for: printed as one line, exit code 2.
#[derive(Debug)]
pub struct UsageError(pub String);

impl std::fmt::Display for UsageError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for UsageError {}

/// Runs the parsed command line, writing its report to `out`.
pub fn dispatch(cli: Cli, out: &mut dyn Write) -> Result<ExitCode> {
    let content_dir = cli.content.clone();
    match cli.command {
        Some(Command::Check) => check(content_dir.as_deref(), out),
        Some(Command::Run(run)) => {
            let content = load_content(content_dir.as_deref())?;
            match run.lab {
                RunLab::Retry(args) => run_retry(&content, &args, out),
                RunLab::Breaker(args) => run_breaker(&content, &args, out),
                RunLab::Health(args) => run_health(&content, &args, out),
            }
        }
        // `main` opens the terminal app when there is no subcommand; the list is the fallback.
        Some(Command::Labs) | None => {
            let content = load_content(content_dir.as_deref())?;
            list_labs(&content, out)
        }
    }
}

/// Loads the labs, turning content problems into one usage error per problem line.
pub fn load_content(content_dir: Option<&Path>) -> Result<Content> {
    Content::load(content_dir).map_err(|errors| {
        let lines: Vec<String> = errors.iter().map(ContentError::to_string).collect();
        UsageError(format!(
            "{}\n(run `resilience-lab check` for the full list)",
            lines.join("\n")
        ))
        .into()
    })
}

fn list_labs(content: &Content, out: &mut dyn Write) -> Result<ExitCode> {
    writeln!(
        out,
        "resilience-lab: three labs on how a service survives its dependencies\n"
    )?;
    for (number, lab) in content.labs.iter().enumerate() {
        writeln!(
            out,
            "  Lab {}  {:<38} resilience-lab run {} --sim",
            number + 1,
            lab.title,
            lab.id
        )?;
        writeln!(out, "         {}", lab.objective)?;
    }
    writeln!(
        out,
        "\nAdd --json for a JSON report, --help on any command for its flags."
    )?;
    Ok(ExitCode::SUCCESS)
}

/// The default of slider `name` in a lab file (present: `check` insists on it).
pub fn default_of(lab: &LabFile, name: &str) -> f64 {
    lab.parameters
        .iter()
        .find(|spec| spec.name == name)
        .map_or(0.0, |spec| spec.default)
}

fn refuse_live(lab: &str) -> Result<ExitCode> {
    Err(UsageError(format!(
        "--live for the {lab} lab is not available in this build; use --sim"
    ))
    .into())
}

fn run_retry(content: &Content, args: &RetryArgs, out: &mut dyn Write) -> Result<ExitCode> {
    if args.mode.live {
        return refuse_live("retry");
    }
    let lab = content.lab("retry");
    let layered: Vec<u32> = ["attempts_client", "attempts_frontend", "attempts_backend"]
        .iter()
        .map(|name| default_of(lab, name) as u32)
        .collect();
    let actions = args.actions.unwrap_or(default_of(lab, "actions") as u64);
    let seed = args.seed.unwrap_or(default_of(lab, "seed") as u64);
    if args.names_a_scenario() {
        let params = ScenarioParams {
            p: args.p.unwrap_or(default_of(lab, "p")),
            attempts: args.attempts.clone().map_or(layered, |a| a.0),
            budget: args.budget.unwrap_or(0.0),
            actions,
            seed,
        };
        let result = retry::run_scenario(&params);
        if args.mode.json {
            writeln!(out, "{}", report::retry_scenario_json(&result, "sim"))?;
        } else {
            let name = format!("attempts {:?}", params.attempts).replace(' ', "");
            writeln!(out, "{}", report::retry_row(&name, &result))?;
        }
        return Ok(ExitCode::SUCCESS);
    }
    let budget = default_of(lab, "budget");
    let mut rows = Vec::new();
    for p in ATLAS_PS {
        for (policy, result) in retry::compare_policies(&layered, p, budget, actions, seed) {
            rows.push((policy.label(&layered, budget), result));
        }
    }
    let sleeps = retry::jitter_sleeps_s(ATLAS_JITTER_SEED, 6, ATLAS_JITTER_BASE_S, ATLAS_JITTER_CAP_S);
    if args.mode.json {
        writeln!(out, "{}", report::retry_table_json(&rows, &sleeps))?;
    } else {
        write!(out, "{}", report::retry_table_text(&rows, &sleeps))?;
    }
    Ok(ExitCode::SUCCESS)
}

/// The brownout parameters: flags where given, else the lab file's defaults.
pub fn brownout_params(lab: &LabFile, args: &BreakerArgs) -> Result<BrownoutParams> {
    let start_default = default_of(lab, "brownout_start_s");
    let (brownout_start_s, brownout_end_s) = args
        .brownout_s
        .unwrap_or((start_default, start_default + default_of(lab, "brownout_length_s")));
    let params = BrownoutParams {
        rate: args.rate.unwrap_or(default_of(lab, "rate") as u64) as u32,
        duration_s: args.duration_s.unwrap_or(default_of(lab, "duration_s")),
        timeout_ms: args.timeout_ms.unwrap_or(default_of(lab, "timeout_ms")),
        healthy_ms: args.healthy_ms.unwrap_or(default_of(lab, "healthy_ms")),
        brownout_start_s,
        brownout_end_s,
        breaker: BreakerConfig {
            window: args.window.unwrap_or(default_of(lab, "window") as u64) as usize,
            min_calls: args.min_calls.unwrap_or(default_of(lab, "min_calls") as u64) as usize,
            threshold: args.threshold.unwrap_or(default_of(lab, "threshold")),
            open_s: args.open_s.unwrap_or(default_of(lab, "open_s")),
            trial_calls: args.trial_calls.unwrap_or(default_of(lab, "trial_calls") as u64) as u32,
        },
    };
    if params.total_calls() == 0 {
        return Err(UsageError(format!(
            "--rate {} with --duration-s {} makes no call; allowed: rate x duration of at least 1",
            params.rate, params.duration_s
        ))
        .into());
    }
    Ok(params)
}

fn run_breaker(content: &Content, args: &BreakerArgs, out: &mut dyn Write) -> Result<ExitCode> {
    if args.mode.live {
        return refuse_live("breaker");
    }
    let params = brownout_params(content.lab("breaker"), args)?;
    let run = brownout::compare(&params);
    if args.mode.json {
        writeln!(out, "{}", report::breaker_json(&run, "sim"))?;
    } else {
        write!(out, "{}", report::breaker_text(&run))?;
    }
    Ok(ExitCode::SUCCESS)
}

/// The health server's settings: flags where given, else the lab file's defaults.
pub fn health_config(lab: &LabFile, args: &HealthArgs) -> HealthConfig {
    HealthConfig {
        warmup_s: args.warmup_s.unwrap_or(default_of(lab, "warmup_s")),
        deregister_s: args.deregister_s.unwrap_or(default_of(lab, "deregister_s")),
        grace_s: args.grace_s.unwrap_or(default_of(lab, "grace_s")),
        work_s: args.work_s.unwrap_or(default_of(lab, "work_s")),
        ..HealthConfig::default()
    }
}

fn run_health(content: &Content, args: &HealthArgs, out: &mut dyn Write) -> Result<ExitCode> {
    if args.mode.live {
        return refuse_live("health");
    }
    let config = health_config(content.lab("health"), args);
    let run = health::simulate_driver(&config, args.port);
    if args.mode.json {
        writeln!(out, "{}", report::health_json(&run, "sim", &config))?;
    } else {
        write!(out, "{}", report::health_text(&run))?;
    }
    Ok(ExitCode::SUCCESS)
}

/// Every metric a default run of each lab produces, to check predict checks against.
pub fn default_metrics(content: &Content) -> Vec<metrics::Metric> {
    let retry_lab = content.lab("retry");
    let layered: Vec<u32> = ["attempts_client", "attempts_frontend", "attempts_backend"]
        .iter()
        .map(|name| default_of(retry_lab, name) as u32)
        .collect();
    let rows = retry::compare_policies(
        &layered,
        default_of(retry_lab, "p"),
        default_of(retry_lab, "budget"),
        default_of(retry_lab, "actions") as u64,
        default_of(retry_lab, "seed") as u64,
    );
    let mut all = metrics::retry_metrics(&rows);
    all.extend(metrics::breaker_metrics(&brownout::compare(&BrownoutParams::default())));
    all.extend(metrics::health_metrics(&health::simulate_driver(
        &HealthConfig::default(),
        18080,
    )));
    all
}

fn check(content_dir: Option<&Path>, out: &mut dyn Write) -> Result<ExitCode> {
    let content = match Content::load(content_dir) {
        Ok(content) => content,
        Err(errors) => {
            for error in &errors {
                writeln!(out, "{error}")?;
            }
            writeln!(out, "{} problem(s) found", errors.len())?;
            return Ok(ExitCode::from(2));
        }
    };
    let known = default_metrics(&content);
    let mut problems = Vec::new();
    for (lab, origin) in content.labs.iter().zip(&content.origins) {
        for check in &lab.checks {
            if let Some(metric) = &check.metric
                && metrics::lookup(&known, metric).is_none()
            {
                let names: Vec<&str> = known
                    .iter()
                    .map(|(n, _)| n.as_str())
                    .filter(|n| n.starts_with(&lab.id))
                    .collect();
                problems.push(format!(
                    "{origin}: check \"{}\": no run produces metric \"{metric}\"; use one of: {}",
                    check.id,
                    names.join(", ")
                ));
            }
        }
    }
    for problem in &problems {
        writeln!(out, "{problem}")?;
    }
    if !problems.is_empty() {
        writeln!(out, "{} problem(s) found", problems.len())?;
        return Ok(ExitCode::from(2));
    }
    for (lab, origin) in content.labs.iter().zip(&content.origins) {
        writeln!(
            out,
            "ok  {origin}: {} parameters, {} steps, {} checks",
            lab.parameters.len(),
            lab.steps.len(),
            lab.checks.len()
        )
        .wrap_err("writing the check report")?;
    }
    Ok(ExitCode::SUCCESS)
}
