//! `run overload`: Lab 4 headless, simulated on the virtual clock or live on 127.0.0.1.

use std::io::Write;
use std::process::ExitCode;

use color_eyre::eyre::Result;

use crate::cli::{Deferred, OverloadArgs, run_subcommand};
use crate::commands::load::lab_content;
use crate::content::LabId;
use crate::content::params::{self, AtBound, Values};
use crate::engine::overload::ComparedPoint;
use crate::engine::overload::metastable;
use crate::engine::overload::{self, OverloadParams, OverloadScenario, SheddingPolicy};
use crate::error::UsageError;
use crate::live::overload::runner;
use crate::report::{self, OverloadReport};

/// The five loads of the live curve, as multiples of capacity.
const LIVE_CURVE_FRACTIONS: [f64; 5] = [0.5, 1.0, 1.5, 2.0, 3.0];

fn usage(message: String) -> color_eyre::Report {
    UsageError(message).into()
}

run_subcommand! {
    /// Lab 4: overload, goodput and load shedding (queues, age cap, admission, bulkheads, throttle).
    OverloadSubcommand::Overload(Box<Deferred<OverloadArgs>>), name: "overload", order: 40,
    run: |args, context, out| {
        // Its numbers come from its parameter table, but a class's `--content` file is still
        // held to its bounds here, as every lab's is, before it runs.
        lab_content(context, LabId::Overload)?;
        run_overload(&args, out)
    }
}

/// Runs `run overload` and writes its report.
pub(crate) fn run_overload(args: &OverloadArgs, out: &mut dyn Write) -> Result<ExitCode> {
    let scenario = args.scenario.unwrap_or(OverloadScenario::Fifo);
    if scenario == OverloadScenario::Metastable {
        return run_metastable(args, out);
    }
    if let Some(flag) = args.first_metastable_flag() {
        return Err(usage(format!("{flag} applies to --scenario metastable only")));
    }
    let base = if args.mode.live {
        runner::live_params(scenario)
    } else {
        scenario.params()
    };
    let params = params::overload::apply(base, args, AtBound::Refuse, args.sweep && !args.mode.live)?;
    params::overload::check_cost(&params, args.sweep)?;
    if args.mode.live {
        return run_live(args, scenario, params, out);
    }
    let run = overload::run(&OverloadParams {
        trace_at_s: Some(2.0),
        ..params.clone()
    });
    let curves = if args.sweep {
        overload::sweep(&params)
    } else {
        Vec::new()
    };
    let report = OverloadReport {
        scenario,
        mode: "sim",
        run: &run,
        sim_beside: None,
        curves: &curves,
        compared: &[],
    };
    print(&report, args.mode.json, out)
}

fn print(report: &OverloadReport<'_>, json: bool, out: &mut dyn Write) -> Result<ExitCode> {
    if json {
        writeln!(out, "{}", report::overload_json(report))?;
    } else {
        write!(out, "{}", report::overload_text(report))?;
    }
    Ok(ExitCode::SUCCESS)
}

/// `run overload`'s flags by the names of Lab 4's parameters (`content::params::overload`).
impl Values for OverloadArgs {
    fn value(&self, name: &str) -> Option<f64> {
        let whole = |flag: Option<u64>| flag.map(|value| value as f64);
        match name {
            "offered_per_s" => self.offered_per_s,
            "workers" => whole(self.workers),
            "service_ms" => self.service_ms,
            "client_timeout_ms" => self.client_timeout_ms,
            "duration_s" => self.duration_s,
            "policy" => self
                .policy
                .and_then(|policy| SheddingPolicy::ALL.iter().position(|other| *other == policy))
                .map(|index| index as f64),
            "age_cap_ms" => self.age_cap_ms,
            "admission_limit" => whole(self.admission_limit),
            "throttle_k" => self.k,
            "throttle_window_s" => self.throttle_window_s,
            "random_seed" => whole(self.random_seed),
            "x_calls_per_s" => self.x_calls_per_s,
            "x_latency_ms" => self.x_latency_ms,
            "x_timeout_ms" => self.x_timeout_ms,
            "x_pool" => whole(self.x_pool),
            // The metastable model's own (`params::overload::metastable_params`).
            "capacity_per_s" => self.capacity_per_s,
            "attempts" => whole(self.attempts),
            "retry_cap_per_s" => self.retry_cap_per_s,
            "budget" => self.budget,
            "trigger_s" => whole(self.trigger_s),
            "after_s" => whole(self.after_s),
            "cut_at_s" => whole(self.cut_at_s),
            "cut_to_per_s" => self.cut_to_per_s,
            _ => None,
        }
    }
}

fn run_live(
    args: &OverloadArgs,
    scenario: OverloadScenario,
    params: OverloadParams,
    out: &mut dyn Write,
) -> Result<ExitCode> {
    params::overload::check_live(scenario, &params, args)?;
    let runtime = super::run::live_runtime()?;
    let live = runtime.block_on(runner::run_to_end(params.clone()))?;
    let sim = overload::run(&params);
    let compared: Vec<ComparedPoint> = if args.sweep {
        let offered: Vec<f64> = LIVE_CURVE_FRACTIONS
            .iter()
            .map(|f| (f * params.capacity_per_s()).round())
            .collect();
        runtime.block_on(runner::compare_curve(&params, &offered))?
    } else {
        Vec::new()
    };
    let report = OverloadReport {
        scenario,
        mode: "live",
        run: &live,
        sim_beside: Some(&sim),
        curves: &[],
        compared: &compared,
    };
    print(&report, args.mode.json, out)
}

/// The metastable model, with its own flags.
fn run_metastable(args: &OverloadArgs, out: &mut dyn Write) -> Result<ExitCode> {
    if args.mode.live {
        return Err(usage(
            "--scenario metastable is --sim only here; its live twin is `run retry --live --scenario metastable`"
                .to_string(),
        ));
    }
    if let Some(flag) = args.first_queueing_flag() {
        return Err(usage(format!("{flag} does not apply to --scenario metastable")));
    }
    let p = params::overload::metastable_params(args);
    let run = metastable::run(&p);
    let curve = if args.sweep {
        let loads: Vec<f64> = (1..=20).map(|i| f64::from(i) * p.capacity_per_s / 20.0).collect();
        metastable::sweep(&p, &loads)
    } else {
        Vec::new()
    };
    if args.mode.json {
        writeln!(out, "{}", report::metastable_sim_json(&run, &curve))?;
    } else {
        write!(out, "{}", report::metastable_sim_text(&run, &curve))?;
    }
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flags_override_the_scenario() {
        let args = OverloadArgs {
            offered_per_s: Some(3_000.0),
            policy: Some(SheddingPolicy::AgeCap),
            x_pool: Some(0),
            ..OverloadArgs::default()
        };
        let p = params::overload::apply(OverloadScenario::Bulkhead.params(), &args, AtBound::Refuse, false)
            .expect("in range");
        assert_eq!(p.offered_per_s, 3_000.0);
        assert_eq!(p.policy, SheddingPolicy::AgeCap);
        assert_eq!(p.dependency.as_ref().and_then(|d| d.pool), None, "0 shares the pool");
    }
}
