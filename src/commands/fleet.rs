//! `run fleet` (Lab 1 at fleet scale, simulated or live), `serve database` (the fleet's
//! shared database) and `serve health` with a real database behind its handlers.

use std::io::Write;
use std::process::ExitCode;
use std::sync::Arc;

use color_eyre::eyre::{Result, WrapErr};

use crate::cli::{DatabaseArgs, DbStateArg, Deferred, FleetArgs, ServeHealthArgs, run_subcommand};
use crate::commands::load::lab_content;
use crate::content::params::{self, AtBound, Values};
use crate::content::{Content, LabId};
use crate::engine::fleet::{self, Balancing, Database, FleetComparison, FleetScenario, OnDbDown};
use crate::error::UsageError;
use crate::live::database_client::DatabaseClient;
use crate::live::fleet::database::{self, DatabaseSwitch};
use crate::live::health::server as health_server;
use crate::report::fleet as report;

run_subcommand! {
    /// Lab 1 at fleet scale: replicas, a restarter and a Service, and a shared database.
    ///
    /// The report names the scenario and what the flags changed from it ("scenario
    /// liveness-checks-db (changed: db window 30-90 s)"); in JSON `scenario` is the starting
    /// point and `changed` lists the changes, empty while the settings are the scenario's.
    FleetSubcommand::Fleet(Box<Deferred<FleetArgs>>), name: "fleet", order: 45,
    run: |args, context, out| {
        run_fleet(&lab_content(context, LabId::Health)?, &args, out)
    }
}

/// `run fleet`'s flags by the names of the fleet's parameters (`content::params::fleet`):
/// the one resolver turns them into the run, as it does the fleet view's sliders.
impl Values for FleetArgs {
    fn value(&self, name: &str) -> Option<f64> {
        let whole = |flag: Option<u64>| flag.map(|value| value as f64);
        let switch = |flag: Option<bool>| flag.map(|on| f64::from(u8::from(on)));
        let window = |pick: fn((f64, f64)) -> f64| self.db_window_s.map(pick);
        match name {
            "fleet_scenario" => self
                .scenario
                .and_then(|s| FleetScenario::ALL.iter().position(|other| *other == s))
                .map(|index| index as f64),
            "fleet_replicas" => whole(self.replicas),
            "fleet_duration_s" => self.duration_s,
            "fleet_time_scale" => self.time_scale,
            "fleet_stagger_s" => self.stagger_s,
            "fleet_startup_period_s" => self.startup_period_s,
            "fleet_startup_threshold" => whole(self.startup_threshold),
            "fleet_readiness_period_s" => self.readiness_period_s,
            "fleet_readiness_threshold" => whole(self.readiness_threshold),
            "fleet_liveness_period_s" => self.liveness_period_s,
            "fleet_liveness_threshold" => whole(self.liveness_threshold),
            "fleet_timeout_s" => self.probe_timeout_s,
            "fleet_backoff_initial_s" => self.backoff_initial_s,
            "fleet_backoff_factor" => self.backoff_factor,
            "fleet_backoff_cap_s" => self.backoff_cap_s,
            "fleet_backoff_reset_s" => self.backoff_reset_s,
            "fleet_pre_stop_s" => self.pre_stop_s,
            "fleet_grace_s" => self.grace_s,
            "fleet_deregister_s" => self.deregister_s,
            "fleet_warmup_s" => self.warmup_s,
            "fleet_work_s" => self.work_ms.map(|ms| ms as f64 / 1e3),
            "fleet_routing_delay_s" => self.routing_delay_s,
            "fleet_load_per_s" => self.load_per_s,
            "fleet_load_start_s" => self.load_start_s,
            "fleet_liveness_db" => switch(self.liveness),
            "fleet_readiness_db" => switch(self.readiness),
            "fleet_on_db_down" => self.on_db_down.map(|on| f64::from(u8::from(on == OnDbDown::Fail))),
            "fleet_balancing" => self
                .balancing
                .map(|b| f64::from(u8::from(b == Balancing::LeastRequests))),
            "fleet_fail_open" => switch(self.fail_open),
            "fleet_roll_at_s" => self.roll_at_s,
            "fleet_black_holes" => whole(self.black_holes),
            "fleet_db_state" => self.db.map(|state| match state {
                DbStateArg::Up => 0.0,
                DbStateArg::Slow => 1.0,
                DbStateArg::Down => 2.0,
            }),
            "fleet_db_start_s" => window(|(start_s, _)| start_s),
            "fleet_db_end_s" => window(|(_, end_s)| end_s),
            "fleet_db_latency_ms" => whole(self.db_latency_ms),
            _ => None,
        }
    }
}

/// `run fleet`: the simulation, or the live fleet with the simulation beside it.
pub fn run_fleet(content: &Content, args: &FleetArgs, out: &mut dyn Write) -> Result<ExitCode> {
    if !args.mode.live && args.time_scale.is_some() {
        return Err(
            UsageError("--time-scale applies to --live runs only (the simulation has no real time)".into()).into(),
        );
    }
    let params = params::fleet::resolve(content.lab(LabId::Health), args, AtBound::Refuse)?;
    let sim = fleet::simulate(&params);
    if !args.mode.live {
        if args.mode.json {
            writeln!(out, "{}", report::fleet_value(&sim, "sim"))?;
        } else {
            write!(out, "{}", report::fleet_text(&sim, "sim"))?;
        }
        return Ok(ExitCode::SUCCESS);
    }
    params::fleet::check_live(&params)?;
    let program = std::env::current_exe().wrap_err("finding this program to start the replicas")?;
    let runtime = super::run::live_runtime()?;
    let live = runtime.block_on(crate::live::fleet::run(&program, params.clone()))?;
    let comparison = FleetComparison::new(&live, &sim);
    if args.mode.json {
        writeln!(out, "{}", report::fleet_live_json(&live, &sim, &comparison))?;
    } else {
        write!(out, "{}", report::fleet_text(&live, "live"))?;
        write!(out, "{}", report::fleet_comparison_text(&comparison, params.time_scale))?;
        write!(out, "{}", exits_text(&live))?;
    }
    Ok(ExitCode::SUCCESS)
}

/// What died during a live run, one line each, and what that means for the comparison
/// above (nothing when no process died).
pub fn exits_text(live: &fleet::FleetRun) -> String {
    if live.exits.is_empty() {
        return String::new();
    }
    let mut text = String::new();
    for exit in &live.exits {
        let how = match exit.exit_code {
            code if code > 128 => format!("killed by signal {}", code - 128),
            code => format!("exit code {code}"),
        };
        text.push_str(&format!("died: {} at {:.1} s ({how})\n", exit.process, exit.t_s));
    }
    text.push_str(
        "the comparison with the simulation no longer holds: the simulation has no process that dies unasked\n",
    );
    text
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
    let config = params::health_config(content.lab(LabId::Health), &args.server);
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
        let mut lines = super::serve::lifecycle_stdout()?;
        health_server::serve_with_database(config, listener, &mut lines, log, Some(database)).await
    })?;
    runtime.shutdown_background();
    Ok(ExitCode::from(u8::try_from(outcome.exit_code).unwrap_or(1)))
}
