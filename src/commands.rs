//! What each subcommand does: load content, run an engine, hand the report back.
//!
//! Output goes to the writer `main` passes in, so that `main.rs` stays the one place
//! that owns the process's standard output.

use std::io::{BufRead, Write};
use std::path::Path;
use std::process::ExitCode;

use color_eyre::eyre::{Result, WrapErr};

use crate::cli::{
    BreakerArgs, Cli, Command, HealthArgs, HealthServerArgs, LiveScenario, ProgressArgs, QuizArgs, RetryArgs,
    RetryPolicyArg, RunLab, ServeLab, UsageError,
};
use crate::content::QuestionKind;
use crate::content::{Content, ContentError, LabFile};
use crate::engine::breaker::BreakerConfig;
use crate::engine::brownout::{self, BrownoutParams};
use crate::engine::fault::{FaultKind, FaultSchedule};
use crate::engine::health::{self, HealthConfig};
use crate::engine::retry::{
    self, ATLAS_JITTER_BASE_S, ATLAS_JITTER_CAP_S, ATLAS_JITTER_SEED, ATLAS_PS, Policy, ScenarioParams,
};
use crate::live::metastable::{self, MetastableConfig};
use crate::live::retry_chain::{self, BackoffConfig, ChainConfig, DbCapacity, LiveChain};
use crate::live::{health_child, health_driver, health_server};
use crate::{live, metrics, progress, quiz, report};

/// Lab 1 at fleet scale: `run fleet`, `serve database`, `serve health --database-port`.
mod fleet;

/// Runs the parsed command line, reading answers from `input` and writing its report to `out`.
pub fn dispatch(cli: Cli, input: &mut dyn BufRead, out: &mut dyn Write) -> Result<ExitCode> {
    let content_dir = cli.content.clone();
    match cli.command {
        Some(Command::Quiz(args)) => {
            let content = load_content(content_dir.as_deref())?;
            run_quiz(&content, &args, &progress_path(cli.progress.as_deref())?, input, out)
        }
        Some(Command::Progress(args)) => {
            let content = load_content(content_dir.as_deref())?;
            run_progress(&content, &args, &progress_path(cli.progress.as_deref())?, input, out)
        }
        Some(Command::Check) => check(content_dir.as_deref(), out),
        Some(Command::Run(run)) => {
            let content = load_labs(content_dir.as_deref())?;
            match run.lab {
                RunLab::Retry(args) => run_retry(&content, &args, out),
                RunLab::Breaker(args) => run_breaker(&content, &args, out),
                RunLab::Health(args) => run_health(&content, &args, out),
                RunLab::Fleet(args) => fleet::run_fleet(&args, out),
            }
        }
        Some(Command::Serve(serve)) => {
            let content = load_labs(content_dir.as_deref())?;
            match serve.lab {
                ServeLab::Health(args) => fleet::serve_replica(&content, &args, out),
                ServeLab::Database(args) => fleet::serve_database(&args, out),
            }
        }
        // `main` opens the terminal app when there is no subcommand; the list is the fallback.
        Some(Command::Labs) | None => {
            let content = load_labs(content_dir.as_deref())?;
            list_labs(&content, out)
        }
    }
}

/// Loads the labs, turning content problems into one usage error per problem line.
pub fn load_content(content_dir: Option<&Path>) -> Result<Content> {
    content_result(Content::load(content_dir))
}

/// Content problems as one usage error, a line per problem.
fn content_result(loaded: std::result::Result<Content, Vec<ContentError>>) -> Result<Content> {
    loaded.map_err(|errors| {
        let lines: Vec<String> = errors.iter().map(ContentError::to_string).collect();
        UsageError(format!(
            "{}\n(run `resilience-lab check` for the full list)",
            lines.join("\n")
        ))
        .into()
    })
}

/// Loads the labs without the question bank, for commands that ask no questions.
fn load_labs(content_dir: Option<&Path>) -> Result<Content> {
    content_result(Content::load_labs(content_dir))
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

/// The lab file's attempts per layer, top layer first: the Atlas's 4,4,4 as shipped.
pub fn layered_defaults(lab: &LabFile) -> Vec<u32> {
    ["attempts_client", "attempts_frontend", "attempts_backend"]
        .iter()
        .map(|name| default_of(lab, name) as u32)
        .collect()
}

/// The most database attempts one run may cost in the worst case (every attempt failing):
/// about a second of simulation, and a bound on a live run's requests.
const MAX_WORST_CASE_DB_ATTEMPTS: u64 = 1_000_000_000;

/// The one scenario the flags name: unset flags take the lab's defaults, and no budget.
///
/// Each flag is range-checked alone, but the cost is their product: 10^6 actions of six
/// layers of 10 attempts would be 10^12 database attempts, so that combination is refused.
fn one_scenario(lab: &LabFile, args: &RetryArgs, layered: Vec<u32>, actions: u64, seed: u64) -> Result<ScenarioParams> {
    let attempts = args.attempts.clone().map_or(layered, |a| a.0);
    let per_action: u64 = attempts.iter().map(|&a| u64::from(a)).product();
    let worst_case = per_action.saturating_mul(actions);
    if worst_case > MAX_WORST_CASE_DB_ATTEMPTS {
        return Err(UsageError(format!(
            "--actions {actions} with --attempts {} could cost {worst_case} database attempts; \
             allowed: actions x the product of attempts up to {MAX_WORST_CASE_DB_ATTEMPTS}",
            attempts.iter().map(u32::to_string).collect::<Vec<_>>().join(",")
        ))
        .into());
    }
    Ok(ScenarioParams {
        p: args.p.unwrap_or(default_of(lab, "p")),
        attempts,
        budget: args.budget.unwrap_or(0.0),
        actions,
        seed,
    })
}

fn run_retry(content: &Content, args: &RetryArgs, out: &mut dyn Write) -> Result<ExitCode> {
    if args.mode.live {
        return run_retry_live(content, args, out);
    }
    if args.scenario.is_some() {
        return Err(UsageError("--scenario metastable needs --live".into()).into());
    }
    if let Some(flag) = args
        .metastable
        .first_given()
        .or(args.backoff_base_ms.map(|_| "--backoff-base-ms"))
        .or(args.backoff_cap_ms.map(|_| "--backoff-cap-ms"))
    {
        return Err(UsageError(format!("{flag} applies to --live runs only")).into());
    }
    let lab = content.lab("retry");
    let layered = layered_defaults(lab);
    let actions = args.actions.unwrap_or(default_of(lab, "actions") as u64);
    let seed = args.seed.unwrap_or(default_of(lab, "seed") as u64);
    if args.names_a_scenario() {
        let params = one_scenario(lab, args, layered, actions, seed)?;
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

/// Actions a live counting run makes unless --actions says otherwise.
const LIVE_DEFAULT_ACTIONS: u64 = 1_000;
/// Actions the live top client keeps in flight at once.
const LIVE_CONCURRENCY: usize = 16;

/// A runtime for one live command: 2 workers, as the lab's target machine has 2 cores.
fn live_runtime() -> Result<tokio::runtime::Runtime> {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .wrap_err("starting the async runtime for a live lab")
}

/// Full Jitter from the flags: the cap defaults to 20 x the base (0 when there is no base).
fn backoff_of(args: &RetryArgs) -> Result<BackoffConfig> {
    let base_ms = args.backoff_base_ms.unwrap_or(0.0);
    let cap_ms = args.backoff_cap_ms.unwrap_or(base_ms * 20.0);
    if args.backoff_cap_ms.is_some() && base_ms > 0.0 && cap_ms < base_ms {
        return Err(UsageError(format!(
            "--backoff-cap-ms {cap_ms} is below --backoff-base-ms {base_ms}; allowed: a cap from {base_ms} to 60000"
        ))
        .into());
    }
    Ok(BackoffConfig { base_ms, cap_ms })
}

/// `run retry --live`: the Atlas's table, one scenario, or the metastable experiment.
fn run_retry_live(content: &Content, args: &RetryArgs, out: &mut dyn Write) -> Result<ExitCode> {
    let lab = content.lab("retry");
    let layered = layered_defaults(lab);
    let backoff = backoff_of(args)?;
    let seed = args.seed.unwrap_or(default_of(lab, "seed") as u64);
    let runtime = live_runtime()?;
    if args.scenario == Some(LiveScenario::Metastable) {
        if let Some(flag) = [(args.p.is_some(), "--p"), (args.actions.is_some(), "--actions")]
            .into_iter()
            .find_map(|(given, name)| given.then_some(name))
        {
            return Err(UsageError(format!(
                "{flag} does not apply to --scenario metastable (the trigger sets the failures)"
            ))
            .into());
        }
        let m = &args.metastable;
        let defaults = MetastableConfig::default();
        let capacity = DbCapacity {
            concurrency: m.db_concurrency.map_or(defaults.capacity.concurrency, |c| c as usize),
            service_ms: m.service_ms.unwrap_or(defaults.capacity.service_ms),
        };
        let capacity_per_s = capacity.concurrency as f64 * 1e3 / capacity.service_ms;
        let config = MetastableConfig {
            policy: match m.policy.unwrap_or(RetryPolicyArg::Layered) {
                RetryPolicyArg::Layered => Policy::Layered,
                RetryPolicyArg::Single => Policy::TopOnly,
                RetryPolicyArg::Budget => Policy::TopOnlyBudget,
            },
            layered: args.attempts.clone().map_or(defaults.layered.clone(), |a| a.0),
            budget: args.budget.unwrap_or(default_of(lab, "budget")),
            // Unless given, the load stays at the default's 60% of whatever capacity was chosen.
            load_per_s: m.load_per_s.unwrap_or((0.6 * capacity_per_s).round()),
            capacity,
            db_timeout_ms: m.db_timeout_ms.unwrap_or(defaults.db_timeout_ms),
            deadline_ms: m.deadline_ms.unwrap_or(defaults.deadline_ms),
            before_s: m.before_s.unwrap_or(defaults.before_s),
            trigger_s: m.trigger_s.unwrap_or(defaults.trigger_s),
            after_s: m.after_s.unwrap_or(defaults.after_s),
            bucket_ms: m.bucket_ms.unwrap_or(defaults.bucket_ms),
            seed,
            backoff,
        };
        let run = runtime.block_on(metastable::run_metastable(&config))?;
        if args.mode.json {
            writeln!(out, "{}", report::metastable_json(&run))?;
        } else {
            write!(out, "{}", report::metastable_text(&run))?;
        }
        return Ok(ExitCode::SUCCESS);
    }
    if let Some(flag) = args.metastable.first_given() {
        return Err(UsageError(format!("{flag} applies to --scenario metastable only")).into());
    }
    let actions = args.actions.unwrap_or(LIVE_DEFAULT_ACTIONS);
    if args.names_a_scenario() {
        let params = one_scenario(lab, args, layered, actions, seed)?;
        let result = runtime.block_on(async {
            let mut config = ChainConfig::counting(params.attempts.len(), params.p, params.seed);
            config.backoff = backoff;
            let chain = LiveChain::start(config).await?;
            let result = chain
                .run_actions(&params.attempts, params.budget, params.actions, LIVE_CONCURRENCY)
                .await;
            chain.shutdown().await?;
            Ok::<_, color_eyre::eyre::Report>(result)
        })?;
        let comparison = retry_chain::compare_with_sim(&result);
        if args.mode.json {
            writeln!(out, "{}", report::retry_live_value(&result, &comparison))?;
        } else {
            let name = format!("attempts {:?}", params.attempts).replace(' ', "");
            writeln!(out, "{}", report::retry_row(&name, &result))?;
            write!(out, "{}", report::retry_live_lines(&result, &comparison))?;
        }
        return Ok(ExitCode::SUCCESS);
    }
    let budget = default_of(lab, "budget");
    let rows = runtime.block_on(async {
        // One chain serves the whole table: the attempts travel with each request.
        let mut config = ChainConfig::counting(layered.len(), 0.0, seed);
        config.backoff = backoff;
        let chain = LiveChain::start(config).await?;
        let mut rows = Vec::new();
        for p in ATLAS_PS {
            for policy in Policy::ALL {
                chain.set_p(p, seed);
                let result = chain
                    .run_actions(
                        &policy.attempts(&layered),
                        policy.budget(budget),
                        actions,
                        LIVE_CONCURRENCY,
                    )
                    .await;
                let comparison = retry_chain::compare_with_sim(&result);
                rows.push((policy.label(&layered, budget), result, comparison));
            }
        }
        chain.shutdown().await?;
        Ok::<_, color_eyre::eyre::Report>(rows)
    })?;
    let sleeps = retry::jitter_sleeps_s(ATLAS_JITTER_SEED, 6, ATLAS_JITTER_BASE_S, ATLAS_JITTER_CAP_S);
    if args.mode.json {
        writeln!(out, "{}", report::retry_live_table_json(&rows, &sleeps))?;
    } else {
        for (name, result, comparison) in &rows {
            writeln!(out, "{}", report::retry_row(name, result))?;
            write!(out, "{}", report::retry_live_lines(result, comparison))?;
        }
        writeln!(out, "{}", report::jitter_line(&sleeps))?;
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
    let params = brownout_params(content.lab("breaker"), args)?;
    // The app lets a learner try this (the breaker then never opens); on the command line
    // it is almost always a typo, so it is refused with the reason.
    if params.breaker.min_calls > params.breaker.window {
        return Err(UsageError(format!(
            "--min-calls {} is more than --window {}: the window never holds that many outcomes, so the breaker \
             could never open; allowed: min-calls up to the window",
            params.breaker.min_calls, params.breaker.window
        ))
        .into());
    }
    if args.mode.live {
        return run_breaker_live(params, args, out);
    }
    if let Some(fault) = args.fault.filter(|fault| *fault != FaultKind::Hang) {
        return Err(UsageError(format!(
            "--fault {fault} needs --live; the simulation models the hang fault only"
        ))
        .into());
    }
    let run = brownout::compare(&params);
    if args.mode.json {
        writeln!(out, "{}", report::breaker_json(&run, "sim"))?;
    } else {
        write!(out, "{}", report::breaker_text(&run))?;
    }
    Ok(ExitCode::SUCCESS)
}

/// Lab 3 for real on 127.0.0.1: the same report, measured, plus one line on the clock.
fn run_breaker_live(params: BrownoutParams, args: &BreakerArgs, out: &mut dyn Write) -> Result<ExitCode> {
    let faults = FaultSchedule::window(
        args.fault.unwrap_or(FaultKind::Hang),
        params.brownout_start_s,
        params.brownout_end_s,
    );
    let run = live_runtime()?.block_on(live::brownout::run(params, faults))?;
    if args.mode.json {
        writeln!(out, "{}", report::breaker_live_json(&run))?;
    } else {
        write!(out, "{}", report::breaker_live_text(&run))?;
    }
    Ok(ExitCode::SUCCESS)
}

/// The health server's settings: flags where given, else the lab file's defaults.
pub fn health_config(lab: &LabFile, args: &HealthServerArgs) -> HealthConfig {
    HealthConfig {
        warmup_s: args.warmup_s.unwrap_or(default_of(lab, "warmup_s")),
        deregister_s: args.deregister_s.unwrap_or(default_of(lab, "deregister_s")),
        grace_s: args.grace_s.unwrap_or(default_of(lab, "grace_s")),
        work_s: args.work_s.unwrap_or(default_of(lab, "work_s")),
        liveness_checks_db: args.liveness_checks_db,
        readiness_checks_db: args.readiness_checks_db,
    }
}

fn run_health(content: &Content, args: &HealthArgs, out: &mut dyn Write) -> Result<ExitCode> {
    let config = health_config(content.lab("health"), &args.server);
    let port = args.server.port;
    if !args.mode.live {
        let run = health::simulate_driver(&config, port);
        if args.mode.json {
            writeln!(out, "{}", report::health_json(&run, "sim", &config))?;
        } else {
            write!(out, "{}", report::health_text(&run))?;
        }
        return Ok(ExitCode::SUCCESS);
    }
    // Checked here first so the common mistake gets its one line before anything starts.
    if !health_child::port_is_free(port) {
        return Err(health_child::port_in_use(port).into());
    }
    let json = args.mode.json;
    let mut on_line = |line: &str| {
        if !json {
            // Printed as it happens, like the Atlas's script; a closed stdout is not fatal here.
            let _ = writeln!(out, "{line}");
            let _ = out.flush();
        }
    };
    let runtime = live_runtime()?;
    let live = runtime.block_on(health_driver::run_live(None, &config, port, &mut on_line))?;
    if json {
        writeln!(
            out,
            "{}",
            report::health_live_json(&live.run, &config, &live.server_log)
        )?;
    } else {
        // The timeline went out as it happened: only the closing lines are left.
        for line in live.run.lines().iter().skip(live.run.timeline.len()) {
            writeln!(out, "{line}")?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// `serve health`: the live server in the foreground until SIGTERM and its ordered shutdown.
/// Its lifecycle lines go to `out`, one request line per request to stderr.
fn serve_health(content: &Content, args: &HealthServerArgs, out: &mut dyn Write) -> Result<ExitCode> {
    let config = health_config(content.lab("health"), args);
    let runtime = live_runtime()?;
    let outcome = runtime.block_on(async {
        let listener = match health_server::bind(args.port).await {
            Ok(listener) => listener,
            Err(err) if err.kind() == std::io::ErrorKind::AddrInUse => {
                return Err(health_child::port_in_use(args.port).into());
            }
            Err(err) => return Err(err).wrap_err_with(|| format!("binding 127.0.0.1:{}", args.port)),
        };
        let log: health_server::RequestLog = std::sync::Arc::new(|line: &str| {
            let _ = writeln!(std::io::stderr().lock(), "{line}");
        });
        health_server::serve(config, listener, out, log).await
    })?;
    // Abandoned requests must not hold the exit: the runtime drops them at once.
    runtime.shutdown_background();
    Ok(ExitCode::from(u8::try_from(outcome.exit_code).unwrap_or(1)))
}

/// Every metric a default run of each lab produces, to check predict checks against.
pub fn default_metrics(content: &Content) -> Vec<metrics::Metric> {
    let retry_lab = content.lab("retry");
    let layered = layered_defaults(retry_lab);
    let rows = retry::compare_policies(
        &layered,
        default_of(retry_lab, "p"),
        default_of(retry_lab, "budget"),
        default_of(retry_lab, "actions") as u64,
        default_of(retry_lab, "seed") as u64,
    );
    let mut all = metrics::retry_metrics(&rows);
    // The lab files' defaults, which `--content` may have changed for a class: a check is
    // scored against the run the class sees. Lab files that `check` accepts make calls.
    let breaker = brownout_params(content.lab("breaker"), &BreakerArgs::default()).unwrap_or_default();
    all.extend(metrics::breaker_metrics(&brownout::compare(&breaker)));
    let health = health_config(content.lab("health"), &HealthServerArgs::default());
    all.extend(metrics::health_metrics(&health::simulate_driver(&health, 18080)));
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
    // One line per bank file, in the order the files were read.
    let mut files: Vec<(String, usize)> = Vec::new();
    for entry in &content.bank {
        let origin = entry.origin.to_string();
        match files.iter_mut().find(|(name, _)| *name == origin) {
            Some((_, count)) => *count += 1,
            None => files.push((origin, 1)),
        }
    }
    for (origin, count) in files {
        writeln!(out, "ok  {origin}: {count} questions")?;
    }
    let lab_checks: usize = content.labs.iter().map(|lab| lab.checks.len()).sum();
    writeln!(
        out,
        "{} questions and {lab_checks} lab checks, every id unique",
        content.bank.len()
    )?;
    Ok(ExitCode::SUCCESS)
}

/// The progress file to use: `--progress FILE`, else the user's data directory.
pub fn progress_path(flag: Option<&Path>) -> Result<std::path::PathBuf> {
    match flag {
        Some(path) => Ok(path.to_path_buf()),
        None => progress::default_path()
            .ok_or_else(|| UsageError("no data directory is known here; pass --progress FILE".to_string()).into()),
    }
}

/// Asks a quiz in the plain terminal: one question at a time, answers typed on stdin.
pub fn run_quiz(
    content: &Content,
    args: &QuizArgs,
    progress_file: &Path,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
) -> Result<ExitCode> {
    let questions = content.all_questions();
    if let Some(topic) = &args.topic
        && !questions.iter().any(|q| &q.topic == topic)
    {
        let mut topics: Vec<&str> = questions.iter().map(|q| q.topic.as_str()).collect();
        topics.sort_unstable();
        topics.dedup();
        return Err(UsageError(format!(
            "--topic {topic} has no questions; allowed: {}",
            topics.join(", ")
        ))
        .into());
    }
    let mut loaded = progress::load(progress_file)?;
    if let Some(notice) = loaded.notice.take() {
        writeln!(out, "note: {notice}")?;
    }
    let seed = args.seed.unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(1, |d| d.as_secs() % 100_000)
    });
    let filter = quiz::Filter {
        lab: args.lab.clone(),
        topic: args.topic.clone(),
    };
    let drawn = quiz::draw(&questions, &filter, usize::from(args.count), seed);
    if drawn.is_empty() {
        return Err(
            UsageError("no question matches --lab and --topic together; try one of them alone".to_string()).into(),
        );
    }
    let needs_run = drawn.iter().any(|asked| asked.question.kind == QuestionKind::Predict);
    let run_metrics = if needs_run {
        default_metrics(content)
    } else {
        Vec::new()
    };

    writeln!(
        out,
        "resilience-lab quiz: {} question(s), seed {seed} (--seed {seed} asks the same quiz again)",
        drawn.len()
    )?;
    writeln!(out, "Answer with a letter or a number, then Enter. Type q to stop.")?;
    let mut score = quiz::Score::default();
    'questions: for (number, asked) in drawn.iter().enumerate() {
        let question = &asked.question;
        let lab = question
            .lab
            .as_deref()
            .map(|lab| format!(", lab {lab}"))
            .unwrap_or_default();
        writeln!(
            out,
            "\nQuestion {} of {} ({}, {}{lab})",
            number + 1,
            drawn.len(),
            question.topic,
            question.difficulty.label()
        )?;
        writeln!(out, "{}", question.prompt)?;
        match question.kind {
            QuestionKind::Choice => {
                for (letter, choice) in asked.shown_choices() {
                    writeln!(out, "  {letter}) {choice}")?;
                }
            }
            QuestionKind::Number => writeln!(out, "  (a number{})", unit_hint(question))?,
            QuestionKind::Predict => writeln!(
                out,
                "  (predict a number{}; the lab's simulation then runs at its defaults)",
                unit_hint(question)
            )?,
        }
        let response = loop {
            write!(out, "> ")?;
            out.flush()?;
            let mut line = String::new();
            if input.read_line(&mut line)? == 0 {
                writeln!(out)?;
                break 'questions;
            }
            let line = line.trim();
            if line.eq_ignore_ascii_case("q") {
                break 'questions;
            }
            match parse_response(asked, line) {
                Some(response) => break response,
                None => writeln!(out, "  {}", response_hint(asked))?,
            }
        };
        let verdict = quiz::grade(asked, &response, &run_metrics);
        let word = if verdict.right { "Right." } else { "Not quite." };
        writeln!(out, "{word} The answer: {}", verdict.expected)?;
        writeln!(out, "Why: {}", question.explanation)?;
        writeln!(out, "Source: {}", question.source)?;
        score.record(question, &verdict);
        loaded
            .progress
            .record_answer(&question.id, question.lab.as_deref(), verdict.right);
        progress::save(progress_file, &loaded.progress)?;
    }

    let percent = (score.right * 100).checked_div(score.asked).unwrap_or(0);
    writeln!(out, "\nScore: {} of {} right ({percent}%).", score.right, score.asked)?;
    if !score.missed.is_empty() {
        writeln!(out, "\nWhat you missed:")?;
        for (number, (question, verdict)) in score.missed.iter().enumerate() {
            writeln!(out, "{}. {}", number + 1, question.prompt)?;
            writeln!(out, "   Answer: {}", verdict.expected)?;
            writeln!(out, "   Why: {}", question.explanation)?;
            writeln!(out, "   Source: {}", question.source)?;
        }
    }
    if score.asked > 0 {
        writeln!(out, "\nProgress saved to {}", progress_file.display())?;
    }
    Ok(ExitCode::SUCCESS)
}

fn unit_hint(question: &crate::content::Question) -> String {
    question
        .unit
        .as_deref()
        .map(|unit| format!(", in {unit}"))
        .unwrap_or_default()
}

/// Reads what the learner typed as the kind of answer the question takes.
fn parse_response(asked: &quiz::Asked, line: &str) -> Option<quiz::Response> {
    match asked.question.kind {
        QuestionKind::Choice => {
            let letter = line.chars().next()?.to_ascii_lowercase();
            let valid = line.chars().count() == 1 && asked.shown_choices().iter().any(|(l, _)| *l == letter);
            valid.then_some(quiz::Response::Letter(letter))
        }
        QuestionKind::Number | QuestionKind::Predict => quiz::parse_number(line).map(quiz::Response::Number),
    }
}

fn response_hint(asked: &quiz::Asked) -> String {
    match asked.question.kind {
        QuestionKind::Choice => {
            let letters: Vec<String> = asked.shown_choices().iter().map(|(l, _)| l.to_string()).collect();
            format!("type one of {}, or q to stop", letters.join(", "))
        }
        _ => "type a number (e.g. 64 or 1.1), or q to stop".to_string(),
    }
}

/// Shows saved progress, or erases it after asking.
pub fn run_progress(
    content: &Content,
    args: &ProgressArgs,
    progress_file: &Path,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
) -> Result<ExitCode> {
    if args.reset {
        if !progress_file.exists() {
            writeln!(out, "nothing to reset: {} does not exist", progress_file.display())?;
            return Ok(ExitCode::SUCCESS);
        }
        if !args.yes {
            write!(
                out,
                "Erase all saved progress in {}? Type yes to confirm: ",
                progress_file.display()
            )?;
            out.flush()?;
            let mut answer = String::new();
            input.read_line(&mut answer)?;
            if !matches!(answer.trim().to_ascii_lowercase().as_str(), "yes" | "y") {
                writeln!(out, "kept: nothing was erased")?;
                return Ok(ExitCode::SUCCESS);
            }
        }
        std::fs::remove_file(progress_file)
            .wrap_err_with(|| format!("cannot erase progress file {}", progress_file.display()))?;
        writeln!(out, "progress erased: {}", progress_file.display())?;
        return Ok(ExitCode::SUCCESS);
    }
    let loaded = progress::load(progress_file)?;
    if let Some(notice) = &loaded.notice {
        writeln!(out, "note: {notice}")?;
    }
    let progress = &loaded.progress;
    writeln!(out, "progress file: {}", progress_file.display())?;
    for lab in &content.labs {
        let (done, total) = progress.lab_fraction(&lab.id, lab.steps.len(), lab.checks.len());
        writeln!(out, "  {:<40} {done} of {total} steps and checks", lab.title)?;
    }
    let answered = progress.questions.len();
    let right_last = progress.questions.values().filter(|q| q.streak > 0).count();
    writeln!(
        out,
        "  questions answered: {answered} of {}; right at the last try: {right_last}",
        content.all_questions().len()
    )?;
    Ok(ExitCode::SUCCESS)
}
