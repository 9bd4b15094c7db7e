//! `run <lab>`: each lab simulated (the Atlas's numbers) or live on 127.0.0.1.
//!
//! The flags reach the engines through `content::params`, the same map the app's sliders
//! use: [`BreakerArgs`] and [`HealthServerArgs`] are [`Values`] by their flags' names.

use std::io::Write;
use std::process::ExitCode;

use color_eyre::eyre::{Result, WrapErr};

use crate::cli::{BreakerArgs, Deferred, HealthArgs, HealthServerArgs, LiveScenario, RetryArgs, run_subcommand};
use crate::commands::load::lab_content;
use crate::content::params::{self, AtBound, Values};
use crate::content::{Content, LabId};
use crate::engine::brownout::{self, BrownoutParams};
use crate::engine::fault::{FaultKind, FaultSchedule};
use crate::engine::health;
use crate::engine::retry::{self, ATLAS_JITTER_BASE_S, ATLAS_JITTER_CAP_S, ATLAS_JITTER_SEED, ATLAS_PS, RetryPolicy};
use crate::engine::retry_chain::ChainConfig;
use crate::error::UsageError;
use crate::live::health::{child as health_child, driver as health_driver};
use crate::live::retry::chain::LiveChain;
use crate::live::retry::metastable;
use crate::{live, report};

run_subcommand! {
    /// Lab 1: health endpoints and an ordered shutdown.
    HealthSubcommand::Health(Deferred<HealthArgs>), name: "health", order: 10,
    run: |args, context, out| {
        run_health(&lab_content(context, LabId::Health)?, &args, out)
    }
}

run_subcommand! {
    /// Lab 2: retry amplification, one retry layer, a retry budget.
    RetrySubcommand::Retry(Deferred<RetryArgs>), name: "retry", order: 20,
    run: |args, context, out| {
        run_retry(&lab_content(context, LabId::Retry)?, &args, out)
    }
}

run_subcommand! {
    /// Lab 3: a timeout alone against a timeout plus a breaker during a brownout.
    BreakerSubcommand::Breaker(Deferred<BreakerArgs>), name: "breaker", order: 30,
    run: |args, context, out| {
        run_breaker(&lab_content(context, LabId::Breaker)?, &args, out)
    }
}

/// The breaker flags by the names of the lab's parameters.
impl Values for BreakerArgs {
    fn value(&self, name: &str) -> Option<f64> {
        let whole = |flag: Option<u64>| flag.map(|value| value as f64);
        match name {
            "rate" => whole(self.rate),
            "duration_s" => self.duration_s,
            "timeout_ms" => self.timeout_ms,
            "healthy_ms" => self.healthy_ms,
            "brownout_start_s" => self.brownout_s.map(|(start_s, _)| start_s),
            "brownout_end_s" => self.brownout_s.map(|(_, end_s)| end_s),
            "window" => whole(self.window),
            "min_calls" => whole(self.min_calls),
            "threshold" => self.threshold,
            "open_s" => self.open_s,
            "trial_calls" => whole(self.trial_calls),
            _ => None,
        }
    }
}

/// The health server's flags by the names of the lab's parameters.
impl Values for HealthServerArgs {
    fn value(&self, name: &str) -> Option<f64> {
        match name {
            "warmup_s" => self.warmup_s,
            "deregister_s" => self.deregister_s,
            "grace_s" => self.grace_s,
            "work_s" => self.work_s,
            "liveness_checks_db" => Some(f64::from(u8::from(self.liveness_checks_db))),
            "readiness_checks_db" => Some(f64::from(u8::from(self.readiness_checks_db))),
            _ => None,
        }
    }
}

/// The retry flags by the names of the lab's parameters (`--attempts`, a list, travels
/// beside them).
impl Values for RetryArgs {
    fn value(&self, name: &str) -> Option<f64> {
        let whole = |flag: Option<u64>| flag.map(|value| value as f64);
        match name {
            "p" => self.p,
            "budget" => self.budget,
            "actions" => whole(self.actions),
            "seed" => whole(self.seed),
            "backoff_base_ms" => self.backoff_base_ms,
            "backoff_cap_ms" => self.backoff_cap_ms,
            // The metastable experiment's own (`params::retry::metastable_config`).
            "metastable_policy" => self
                .metastable
                .policy
                .map(RetryPolicy::from)
                .and_then(|policy| RetryPolicy::ALL.iter().position(|other| *other == policy))
                .map(|index| index as f64),
            "before_s" => self.metastable.before_s,
            "trigger_s" => self.metastable.trigger_s,
            "after_s" => self.metastable.after_s,
            "load_per_s" => self.metastable.load_per_s,
            "db_concurrency" => whole(self.metastable.db_concurrency),
            "service_ms" => self.metastable.service_ms,
            "db_timeout_ms" => whole(self.metastable.db_timeout_ms),
            "deadline_ms" => whole(self.metastable.deadline_ms),
            "bucket_ms" => whole(self.metastable.bucket_ms),
            _ => None,
        }
    }
}

pub fn run_retry(content: &Content, args: &RetryArgs, out: &mut dyn Write) -> Result<ExitCode> {
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
    let lab = content.lab(LabId::Retry);
    if args.names_a_scenario() {
        let actions = params::retry::actions(lab, args, false);
        let params = params::retry::scenario(lab, args, args.attempts.clone().map(|a| a.0), actions)?;
        let result = retry::run_scenario(&params);
        if args.mode.json {
            writeln!(out, "{}", report::retry_scenario_json(&result, "sim"))?;
        } else {
            let name = format!("attempts {:?}", params.attempts).replace(' ', "");
            writeln!(out, "{}", report::retry_row(&name, &result))?;
        }
        return Ok(ExitCode::SUCCESS);
    }
    let table = params::retry::table_settings(lab);
    let (layered, budget) = (&table.layered, table.budget);
    let mut rows = Vec::new();
    for p in ATLAS_PS {
        for (policy, result) in retry::compare_policies(layered, p, budget, table.actions, table.seed) {
            rows.push((policy.label(layered, budget), result));
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

/// Actions the live top client keeps in flight at once.
const LIVE_CONCURRENCY: usize = 16;

/// A runtime for one live command: 2 workers, as the lab's target machine has 2 cores.
pub fn live_runtime() -> Result<tokio::runtime::Runtime> {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .wrap_err("starting the async runtime for a live lab")
}

/// A live run's time limit as the report says it, if the limit cut the run short (it is
/// enforced inside actions too), and its comparison with the simulation, only if it is
/// whole: a cut-off run has fewer actions than asked and its cut ones half-done.
fn judged(
    requested: u64,
    result: &retry::ScenarioResult,
    cut_off: u64,
) -> (Option<report::RetryTimeLimit>, Option<retry::SimComparison>) {
    let limited = (cut_off > 0 || result.params.actions < requested)
        .then(|| report::RetryTimeLimit::new(requested, result, cut_off));
    let comparison = limited.is_none().then(|| retry::compare_with_sim(result));
    (limited, comparison)
}

/// `run retry --live`: the Atlas's table, one scenario, or the metastable experiment.
fn run_retry_live(content: &Content, args: &RetryArgs, out: &mut dyn Write) -> Result<ExitCode> {
    let lab = content.lab(LabId::Retry);
    let backoff = params::retry::backoff(args)?;
    if args.scenario == Some(LiveScenario::Metastable) {
        let config = params::retry::metastable_config(lab, args, args.attempts.clone().map(|a| a.0))?;
        let run = live_runtime()?.block_on(metastable::run_metastable(&config))?;
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
    let actions = params::retry::actions(lab, args, true);
    if args.names_a_scenario() {
        let params = params::retry::scenario(lab, args, args.attempts.clone().map(|a| a.0), actions)?;
        params::retry::check_live_time(
            &retry::run_scenario(&params),
            backoff,
            LIVE_CONCURRENCY,
            retry::RUN_ACTIONS_TIME_LIMIT.as_secs_f64(),
        )?;
        let result = live_runtime()?.block_on(async {
            let mut config = ChainConfig::counting(params.attempts.len(), params.p, params.seed);
            config.backoff = backoff.into();
            let chain = LiveChain::start(config).await?;
            let result = chain
                .run_actions(&params.attempts, params.budget, params.actions, LIVE_CONCURRENCY)
                .await;
            let cut_off = chain.cut_off();
            chain.shutdown().await?;
            Ok::<_, color_eyre::eyre::Report>((result, cut_off))
        })?;
        let (result, cut_off) = result;
        let (limited, comparison) = judged(params.actions, &result, cut_off);
        if args.mode.json {
            let mut value = report::retry_live_value(&result, comparison.as_ref());
            if let Some(limited) = &limited {
                value["time_limit"] = serde_json::json!(limited);
            }
            writeln!(out, "{value}")?;
        } else {
            let name = format!("attempts {:?}", params.attempts).replace(' ', "");
            writeln!(out, "{}", report::retry_row(&name, &result))?;
            write!(out, "{}", report::retry_live_lines(&result, comparison.as_ref()))?;
            if let Some(limited) = &limited {
                writeln!(out, "{}", limited.line())?;
            }
        }
        return Ok(ExitCode::SUCCESS);
    }
    let table = params::retry::table_settings(lab);
    let (layered, budget, seed) = (&table.layered, table.budget, table.seed);
    let rows = live_runtime()?.block_on(async {
        // One chain serves the whole table: the attempts travel with each request.
        let mut config = ChainConfig::counting(layered.len(), 0.0, seed);
        config.backoff = backoff.into();
        let chain = LiveChain::start(config).await?;
        let mut rows = Vec::new();
        for p in ATLAS_PS {
            for policy in RetryPolicy::ALL {
                chain.set_p(p, seed);
                let result = chain
                    .run_actions(
                        &policy.attempts(layered),
                        policy.budget(budget),
                        actions,
                        LIVE_CONCURRENCY,
                    )
                    .await;
                let (_, comparison) = judged(actions, &result, chain.cut_off());
                rows.push((policy.label(layered, budget), result, comparison));
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
            write!(out, "{}", report::retry_live_lines(result, comparison.as_ref()))?;
        }
        writeln!(out, "{}", report::jitter_line(&sleeps))?;
    }
    Ok(ExitCode::SUCCESS)
}

pub fn run_breaker(content: &Content, args: &BreakerArgs, out: &mut dyn Write) -> Result<ExitCode> {
    let params = params::breaker::resolve(content.lab(LabId::Breaker), args, AtBound::Refuse)?;
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
    let run = live_runtime()?.block_on(live::breaker::brownout::run(params, faults))?;
    if args.mode.json {
        writeln!(out, "{}", report::breaker_live_json(&run))?;
    } else {
        write!(out, "{}", report::breaker_live_text(&run))?;
    }
    Ok(ExitCode::SUCCESS)
}

pub fn run_health(content: &Content, args: &HealthArgs, out: &mut dyn Write) -> Result<ExitCode> {
    let config = params::health_config(content.lab(LabId::Health), &args.server);
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
    let interrupted = runtime.block_on(async {
        // Registered before the run starts, so a signal at any moment ends it at once.
        let mut stop = crate::signals::Stop::register()?;
        Ok::<_, color_eyre::eyre::Report>(tokio::select! {
            // Biased, the signal first: the driver sees the same signal and would build an
            // error report (with a backtrace, seconds to resolve) before giving way.
            biased;
            signal = stop.recv() => Ok(signal),
            live = health_driver::run_live(None, &config, port, &mut on_line) => Err(live),
        })
    })?;
    let live = match interrupted {
        // Dropping the run killed its server child (kill on drop, and PR_SET_PDEATHSIG).
        Ok(signal) => {
            // Whatever the run had in flight (a probe's blocking work) must not hold the exit.
            runtime.shutdown_background();
            writeln!(out, "interrupted by {}: the server was stopped", signal.name)?;
            return Ok(signal.exit_code());
        }
        Err(live) => live?,
    };
    if json {
        writeln!(
            out,
            "{}",
            report::health_live_json(&live.run, &config, &live.server_log)
        )?;
    } else {
        // The timeline went out as it happened: only the closing lines are left.
        for row in report::health_rows(&live.run).iter().skip(live.run.timeline.len()) {
            writeln!(out, "{}", row.line())?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::{Cli, Command, RunArgs};
    use crate::engine::retry::ScenarioParams;
    use clap::Parser;

    /// A `--policy` word reaches the engine as the policy it names: the flag travels as an
    /// index of `RetryPolicy::ALL` and is read back there, so both ends take the index from
    /// the one list and a reordered list changes no run.
    #[test]
    fn each_metastable_policy_word_runs_the_policy_it_names() {
        let content = Content::load(None).expect("embedded content loads");
        let named = [
            ("layered", RetryPolicy::Layered),
            ("single", RetryPolicy::TopOnly),
            ("budget", RetryPolicy::TopOnlyBudget),
        ];
        for (word, policy) in named {
            let line = [
                "resilience-lab",
                "run",
                "retry",
                "--live",
                "--scenario",
                "metastable",
                "--policy",
                word,
            ];
            let cli = Cli::try_parse_from(line).expect("the line parses");
            let Some(Command::Run(RunArgs { lab })) = cli.command else {
                panic!("`run retry` parses as a run");
            };
            assert_eq!(lab.subcommand.name, "retry");
            let RetrySubcommand::Retry(args) = crate::cli::parsed(&lab.matches).expect("its flags parse");
            let config = params::retry::metastable_config(content.lab(LabId::Retry), &*args, None).expect("resolves");
            assert_eq!(config.policy, policy, "--policy {word}");
        }
    }

    #[test]
    fn only_a_whole_live_run_is_compared_with_the_simulation() {
        let params = ScenarioParams {
            p: 1.0,
            attempts: vec![4, 4, 4],
            budget: 0.0,
            actions: 100,
            seed: 42,
        };
        let whole = retry::run_scenario(&params);
        let (limited, comparison) = judged(100, &whole, 0);
        assert!(limited.is_none() && comparison.is_some(), "a whole run is compared");
        // Cut at the limit: 40 of 100 actions ran, 4 of them cut mid-retry.
        let cut = retry::run_scenario(&ScenarioParams { actions: 40, ..params });
        let (limited, comparison) = judged(100, &cut, 4);
        assert!(
            comparison.is_none(),
            "a cut-off run is not judged against the simulation"
        );
        let line = limited.expect("the limit is reported").line();
        assert!(line.contains("40 of 100 actions ran, 4 cut off"), "{line}");
        let lines = report::retry_live_lines(&cut, comparison.as_ref());
        assert!(
            !lines.contains("sampling error") && lines.contains("not compared"),
            "{lines}"
        );
    }
}
