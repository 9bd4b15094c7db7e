//! `run fleet` (Lab 1 at fleet scale, simulated or live), `serve database` (the fleet's
//! shared database) and `serve health` with a real database behind its handlers.

use std::io::Write;
use std::process::ExitCode;
use std::sync::Arc;

use color_eyre::eyre::{Result, WrapErr};

use crate::cli::{DatabaseArgs, DbStateArg, FleetArgs, ServeHealthArgs};
use crate::content::{Content, LabId};
use crate::engine::fleet::{self, Database, DbWindow, FleetComparison, FleetParams, Scenario};
use crate::error::UsageError;
use crate::live::database_client::DatabaseClient;
use crate::live::fleet::database::{self, DatabaseSwitch};
use crate::live::health::server as health_server;
use crate::report::fleet as report;

/// The longest a live run may take in real seconds.
const MAX_LIVE_S: f64 = 600.0;
/// The most requests per real second a live run may send.
const MAX_LIVE_RATE_PER_S: f64 = 2_000.0;
/// How slow `--db slow` is unless `--db-latency-ms` says.
const DEFAULT_SLOW_MS: u64 = 2_000;

fn usage(message: String) -> color_eyre::Report {
    UsageError(message).into()
}

/// The scenario's settings with every given flag applied, checked as a whole.
pub fn fleet_params(args: &FleetArgs) -> Result<FleetParams> {
    let mut p = FleetParams::scenario(args.scenario.unwrap_or(Scenario::LivenessChecksDb));
    let whole = |value: Option<u64>| value.map(|v| v as u32);
    if let Some(replicas) = whole(args.replicas) {
        p.replicas = replicas;
    }
    macro_rules! set {
        ($($flag:ident => $($field:ident).+),* $(,)?) => {
            $(if let Some(value) = args.$flag { p.$($field).+ = value; })*
        };
    }
    set!(
        duration_s => duration_s, time_scale => time_scale, stagger_s => stagger_s,
        startup_period_s => startup.period_s, readiness_period_s => readiness.period_s,
        liveness_period_s => liveness.period_s, backoff_initial_s => backoff.initial_s,
        backoff_factor => backoff.factor, backoff_cap_s => backoff.cap_s,
        backoff_reset_s => backoff.reset_after_s, pre_stop_s => pre_stop_s, grace_s => grace_s,
        deregister_s => server.deregister_s, warmup_s => server.warmup_s,
        routing_delay_s => routing_delay_s, load_per_s => load_per_s, load_start_s => load_start_s,
        liveness => server.liveness_checks_db, readiness => server.readiness_checks_db,
        on_db_down => on_db_down, balancing => balancing, fail_open => fail_open,
    );
    for (value, threshold) in [
        (args.startup_threshold, &mut p.startup.failure_threshold),
        (args.readiness_threshold, &mut p.readiness.failure_threshold),
        (args.liveness_threshold, &mut p.liveness.failure_threshold),
    ] {
        if let Some(value) = whole(value) {
            *threshold = value;
        }
    }
    if let Some(timeout_s) = args.probe_timeout_s {
        for probe in [&mut p.startup, &mut p.readiness, &mut p.liveness] {
            probe.timeout_s = timeout_s;
        }
    }
    if let Some(work_ms) = args.work_ms {
        p.server.work_s = work_ms as f64 / 1e3;
    }
    if let Some(roll_s) = args.roll_at_s {
        p.roll_at_s = Some(roll_s);
    }
    if let Some(black_holes) = whole(args.black_holes) {
        p.black_holes = black_holes;
    }
    apply_database(&mut p, args)?;
    check_whole(&p)?;
    Ok(p)
}

/// `--db`, `--db-window-s` and `--db-latency-ms` on top of the scenario's outage.
fn apply_database(p: &mut FleetParams, args: &FleetArgs) -> Result<()> {
    let current = p.database.first().copied();
    let state = match args.db {
        Some(DbStateArg::Up) => {
            if args.db_window_s.is_some() || args.db_latency_ms.is_some() {
                return Err(usage(
                    "--db up has no window or latency; allowed with --db down or slow".into(),
                ));
            }
            p.database.clear();
            return Ok(());
        }
        Some(DbStateArg::Down) => Database::Down,
        Some(DbStateArg::Slow) => Database::Slow {
            latency_ms: args.db_latency_ms.unwrap_or(DEFAULT_SLOW_MS),
        },
        None => match (current.map(|w| w.state), args.db_latency_ms) {
            (Some(Database::Slow { .. }), Some(latency_ms)) => Database::Slow { latency_ms },
            (_, Some(_)) => return Err(usage("--db-latency-ms applies to --db slow only".into())),
            (Some(state), None) => state,
            (None, None) if args.db_window_s.is_some() => Database::Down,
            (None, None) => return Ok(()),
        },
    };
    if args.db == Some(DbStateArg::Down) && args.db_latency_ms.is_some() {
        return Err(usage("--db-latency-ms applies to --db slow only".into()));
    }
    let (start_s, end_s) = args
        .db_window_s
        .or(current.map(|w| (w.start_s, w.end_s)))
        .unwrap_or((30.0, 90.0));
    p.database = vec![DbWindow { start_s, end_s, state }];
    Ok(())
}

/// Checks that need more than one flag.
fn check_whole(p: &FleetParams) -> Result<()> {
    let shortest_period_s = [p.startup, p.readiness, p.liveness]
        .iter()
        .map(|probe| probe.period_s)
        .fold(f64::INFINITY, f64::min);
    let timeout_s = p.startup.timeout_s.max(p.readiness.timeout_s).max(p.liveness.timeout_s);
    if timeout_s >= shortest_period_s {
        return Err(usage(format!(
            "--probe-timeout-s {timeout_s} must be below every probe period; allowed: below {shortest_period_s}"
        )));
    }
    if p.black_holes > p.replicas {
        return Err(usage(format!(
            "--black-holes {} is more than the {} replicas; allowed: 0 to {}",
            p.black_holes, p.replicas, p.replicas
        )));
    }
    if let Some(roll_s) = p.roll_at_s
        && roll_s >= p.duration_s
    {
        return Err(usage(format!(
            "--roll-at-s {roll_s} is not within the run; allowed: below --duration-s {}",
            p.duration_s
        )));
    }
    Ok(())
}

/// Limits of a live run: its real length and rate, and the replicas' scaled settings,
/// which `serve health` checks against Lab 1's ranges.
fn check_live(p: &FleetParams) -> Result<()> {
    let real_s = p.duration_s * p.time_scale;
    if real_s > MAX_LIVE_S {
        return Err(usage(format!(
            "--duration-s {} at --time-scale {} takes {real_s:.0} real seconds; allowed with --live: up to {MAX_LIVE_S}",
            p.duration_s, p.time_scale
        )));
    }
    let rate = p.load_per_s / p.time_scale;
    if rate > MAX_LIVE_RATE_PER_S {
        return Err(usage(format!(
            "--load-per-s {} at --time-scale {} is {rate:.0} real requests/s; allowed with --live: up to {MAX_LIVE_RATE_PER_S}",
            p.load_per_s, p.time_scale
        )));
    }
    for (flag, model_s, min, max) in [
        ("--warmup-s", p.server.warmup_s, 0.0, 10.0),
        ("--deregister-s", p.server.deregister_s, 0.0, 10.0),
        (
            "--time-scale (the replicas' 15 s drain limit)",
            p.server.grace_s,
            0.5,
            60.0,
        ),
    ] {
        let real = model_s * p.time_scale;
        if !(min..=max).contains(&real) {
            return Err(usage(format!(
                "{flag} {model_s} at --time-scale {} is {real} real seconds; allowed with --live: {min} to {max}",
                p.time_scale
            )));
        }
    }
    Ok(())
}

/// `run fleet`: the simulation, or the live fleet with the simulation beside it.
pub fn run_fleet(args: &FleetArgs, out: &mut dyn Write) -> Result<ExitCode> {
    let params = fleet_params(args)?;
    let sim = fleet::simulate(&params);
    if !args.mode.live {
        if args.mode.json {
            writeln!(out, "{}", report::fleet_value(&sim, "sim"))?;
        } else {
            write!(out, "{}", report::fleet_text(&sim, "sim"))?;
        }
        return Ok(ExitCode::SUCCESS);
    }
    check_live(&params)?;
    let program = std::env::current_exe().wrap_err("finding this program to start the replicas")?;
    let runtime = super::run::live_runtime()?;
    let live = runtime.block_on(crate::live::fleet::run(&program, params.clone()))?;
    let comparison = FleetComparison::new(&live, &sim);
    if args.mode.json {
        writeln!(out, "{}", report::fleet_live_json(&live, &sim, &comparison))?;
    } else {
        write!(out, "{}", report::fleet_text(&live, "live"))?;
        write!(out, "{}", report::fleet_comparison_text(&comparison, params.time_scale))?;
    }
    Ok(ExitCode::SUCCESS)
}

/// `serve database`: the shared database in the foreground until SIGTERM or Ctrl-C.
pub fn serve_database(args: &DatabaseArgs, out: &mut dyn Write) -> Result<ExitCode> {
    let runtime = super::run::live_runtime()?;
    runtime.block_on(async {
        let listener = super::serve::bind_port(args.port).await?;
        let port = listener.local_addr()?.port();
        let switch = Arc::new(DatabaseSwitch::default());
        switch.set(match (args.down, args.latency_ms) {
            (true, _) => Database::Down,
            (false, 0) => Database::Up,
            (false, latency_ms) => Database::Slow { latency_ms },
        });
        use tokio::signal::unix::{SignalKind, signal};
        let mut sigterm = signal(SignalKind::terminate()).wrap_err("installing the SIGTERM handler")?;
        let mut sigint = signal(SignalKind::interrupt()).wrap_err("installing the SIGINT handler")?;
        writeln!(out, "listening on 127.0.0.1:{port}")?;
        out.flush()?;
        database::serve(listener, switch, async {
            tokio::select! {
                _ = sigterm.recv() => {}
                _ = sigint.recv() => {}
            }
        })
        .await;
        writeln!(out, "stopped")?;
        Ok::<_, color_eyre::Report>(())
    })?;
    Ok(ExitCode::SUCCESS)
}

/// `serve health` with `--database-port`: the health server asking the real database.
pub fn serve_replica(content: &Content, args: &ServeHealthArgs, out: &mut dyn Write) -> Result<ExitCode> {
    let config = super::run::health_config(content.lab(LabId::Health), &args.server);
    let Some(database_port) = args.database.database_port else {
        return super::serve::serve_health(content, &args.server, out);
    };
    let port = args.server.port;
    let quiet = args.database.quiet;
    let on_down = args.database.on_db_down.unwrap_or(fleet::OnDbDown::Degrade);
    let api_work = std::time::Duration::from_millis(args.database.api_work_ms);
    let runtime = super::run::live_runtime()?;
    let outcome = runtime.block_on(async {
        let listener = super::serve::bind_port(port).await?;
        // A quiet replica still logs through the queue, into nothing: the request path is the same.
        let writer: Box<dyn Write + Send> = if quiet {
            Box::new(std::io::sink())
        } else {
            Box::new(std::io::stderr())
        };
        let log = health_server::RequestLog::start(crate::live::health::log_queue::QUEUE_LINES, writer)
            .wrap_err("starting the request log's writer")?;
        let database = DatabaseClient::new(database_port, on_down, api_work);
        health_server::serve_with_database(config, listener, out, log, Some(database)).await
    })?;
    runtime.shutdown_background();
    Ok(ExitCode::from(u8::try_from(outcome.exit_code).unwrap_or(1)))
}
