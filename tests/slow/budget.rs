//! Lab 5 live on 127.0.0.1:0 against the simulation: each hop's received budget on the
//! time-scaled deadline chain, in real milliseconds.

use resilience_lab::engine::budget::deadline::{self, DeadlineParams};
use resilience_lab::live::budget::chain::run_deadline;
use resilience_lab::live::budget::runner::DEADLINE_SCALE;

/// Real milliseconds each hop's received budget may differ from the simulation's (the
/// issue's "within 5 ms, scaled": 5 real ms are 100 model ms at 1:20).
const HOP_TOLERANCE_REAL_MS: f64 = 5.0;

/// Five runs of the default chain: every hop receives the simulation's budget within
/// [`HOP_TOLERANCE_REAL_MS`]; the worst gap of each run is printed (`--nocapture`).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_hop_receives_the_simulations_budget_within_5_ms() {
    let params = DeadlineParams::default();
    let sim = deadline::run(&params);
    for run in 0..5 {
        let live = run_deadline(&params, DEADLINE_SCALE).await.expect("the chain runs");
        let gaps: Vec<f64> = live
            .hops
            .iter()
            .zip(&sim.hops)
            .map(|(l, s)| {
                let (l, s) = (l.received_ms.expect("propagated"), s.received_ms.expect("propagated"));
                (l as f64 - s as f64).abs() / DEADLINE_SCALE
            })
            .collect();
        eprintln!("run {run}: received gap per hop, real ms: {gaps:?}");
        for gap in gaps {
            assert!(gap <= HOP_TOLERANCE_REAL_MS, "run {run}: {gap} real ms: {live:?}");
        }
    }
}

/// The note's client on a live API that answers one status: a 400 is tried once when it
/// classifies and three times when it retries everything, a 503 three times; the attempts
/// the server counts are the simulation's within 2% (in fact exactly).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn attempts_on_a_status_are_the_simulations() {
    use resilience_lab::engine::budget::status::{self, StatusParams};
    use resilience_lab::live::budget::status::run_status;
    for (code, retry_client_errors) in [(400, false), (400, true), (503, false)] {
        let p = StatusParams {
            status: code,
            retry_client_errors,
            ..StatusParams::default()
        };
        let sim = status::run(&p);
        let live = run_status(&p).await.expect("the API runs");
        eprintln!("status {code} retry everything {retry_client_errors}: live {live:?}, sim {sim:?}");
        let gap = (live.attempts as f64 - sim.attempts as f64).abs() / sim.attempts as f64;
        assert!(gap <= 0.02, "{code}: {} against {}", live.attempts, sim.attempts);
        assert!((live.backoff_ms_per_request - sim.backoff_ms_per_request).abs() < 1e-6);
    }
}

/// The half-open second live through the project's breaker: the note's admits every call
/// until the first timeout (the simulation's 20, live 20 or 21: a call due at the very
/// instant the first timeout ends goes in when the timer fires a millisecond or two late,
/// where the simulation records the failure first), and one probe admits exactly 1.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_half_open_second_lets_the_simulations_calls_through() {
    use resilience_lab::engine::budget::half_open::{self, HalfOpenParams};
    use resilience_lab::live::budget::half_open::run_half_open;
    /// Calls the live count may differ by: the one boundary call.
    const BOUNDARY_CALLS: u64 = 1;
    for limit in [0, 1] {
        let p = HalfOpenParams {
            half_open_limit: limit,
            ..HalfOpenParams::default()
        };
        let sim = half_open::run(&p);
        let live = run_half_open(&p).await.expect("the dependency runs");
        eprintln!("half-open limit {limit}: live {live:?}, sim {sim:?}");
        assert!(
            live.half_open_calls_first_s.abs_diff(sim.half_open_calls_first_s) <= BOUNDARY_CALLS,
            "limit {limit}: {live:?} against {sim:?}"
        );
        if limit == 1 {
            assert_eq!(live.half_open_calls_first_s, 1, "one probe is one call");
        }
        assert_eq!(live.calls_first_s, sim.calls_first_s);
    }
}

/// The herd live, each sleep on its own run: every client comes back after the outage.
/// The peaks are printed, not held to the simulation's: on the 2-core machine (debug
/// build) the live peaks per 10 ms were fixed 79, 51 and 42, ±25% 35, 41 and 46, full 52,
/// 60 and 42 in three runs, against the simulation's 1,000, 22 and 15. A spike of 1,000 calls due at
/// one instant lands only as fast as 127.0.0.1 accepts new connections (the pool keeps 64
/// idle), and the jittered clients' retries during the outage queue and land in bunches;
/// the live run does not yet separate the policy's shape from the machine's (open).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_herd_client_comes_back_live() {
    use resilience_lab::engine::budget::backoff::Sleep;
    use resilience_lab::engine::budget::herd::{self, HerdParams};
    use resilience_lab::live::budget::herd::run_herd;
    let p = HerdParams::default();
    for sleep in Sleep::ALL {
        let live = run_herd(&p, sleep).await.expect("the dependency runs");
        let sim = herd::run(&p, sleep);
        eprintln!(
            "herd {}: live peak {} per 10 ms, sim {}",
            sleep.name(),
            live.peak_per_10ms,
            sim.peak_per_10ms
        );
        assert_eq!(live.gave_up, sim.gave_up);
        assert!(live.landed_ms.len() >= p.clients as usize, "every client came back");
    }
}

/// `run budget --live` ended by SIGTERM or Ctrl-C (SIGINT) part way through a 4 s run: the
/// process ends within 3 s, and it started no child (its servers are its own tasks, so they
/// end with it: no listener outlives it).
#[test]
fn run_budget_live_ends_on_sigterm_and_ctrl_c() {
    use std::process::{Command, Stdio};
    use std::time::{Duration, Instant};
    for signal in [libc::SIGTERM, libc::SIGINT] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_resilience-lab"))
            .args(["run", "budget", "--live", "--scenario", "retry-after"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("the binary starts");
        std::thread::sleep(Duration::from_millis(1_000));
        let pid = child.id();
        assert!(
            crate::common::procs::children_of(pid, crate::common::procs::Which::Any).is_empty(),
            "no child process"
        );
        // SAFETY: kill with a pid this test spawned and has not reaped.
        assert_eq!(unsafe { libc::kill(pid as libc::pid_t, signal) }, 0);
        let sent = Instant::now();
        loop {
            if child.try_wait().expect("waitable").is_some() {
                break;
            }
            assert!(
                sent.elapsed() < Duration::from_secs(3),
                "signal {signal}: still running"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

/// Lab 5 live from the app: `s` runs the deadline scenario to its end (the frame tick picks
/// the result up); a second run quit part way (the app's shutdown, as on `q`, Ctrl-C or
/// SIGTERM) leaves no task behind: no server, no client.
#[test]
fn lab5_live_runs_from_the_app_and_quitting_leaves_no_task() {
    use resilience_lab::content::Content;
    use resilience_lab::tui::app::App;
    use resilience_lab::tui::event::CHANNEL_CAPACITY;
    use resilience_lab::tui::msg::Msg;
    use std::time::Duration;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("runtime");
    runtime.block_on(async {
        let content = Content::load(None).expect("the built-in labs load");
        let theme = resilience_lab::tui::theme::Theme::new(resilience_lab::tui::theme::ThemeName::Dark, false);
        let mut app = App::new(content, theme, ratatui::layout::Rect::new(0, 0, 100, 30));
        app.mark_all_visited();
        let (events, _received) = tokio::sync::mpsc::channel(CHANNEL_CAPACITY);
        app.use_events(events);
        for msg in [
            Msg::Down,
            Msg::Down,
            Msg::Down,
            Msg::Down,
            Msg::Open,
            Msg::ToggleMode,
            Msg::StartStop,
        ] {
            app.update(msg);
        }
        // The page reports a finished live run's named numbers (`budget.NAME`).
        let live = |app: &App| app.lab(resilience_lab::content::LabId::Budget).live_run_metrics();
        let mut measured = None;
        for _ in 0..200 {
            app.tick();
            measured = live(&app);
            if measured.is_some() {
                break;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        let measured = measured.expect("the deadline run ended within 10 s");
        assert_eq!(
            resilience_lab::learning::metrics::lookup(&measured, "budget.edge_budget_ms"),
            Some(30_000.0)
        );
        // Again, and quit while it runs.
        app.update(Msg::StartStop);
        tokio::time::sleep(Duration::from_millis(500)).await;
        app.shutdown_live().await;
        let metrics = tokio::runtime::Handle::current().metrics();
        for _ in 0..60 {
            if metrics.num_alive_tasks() == 0 {
                break;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        assert_eq!(metrics.num_alive_tasks(), 0, "quitting left no task");
    });
}
