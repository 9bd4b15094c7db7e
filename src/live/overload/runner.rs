//! Lab 4's live run: server and client on 127.0.0.1, a sample each second into the app's
//! queue, retuned while it runs, stopped by itself at its duration.

use std::time::Duration;

use color_eyre::eyre::{Result, WrapErr};
use hyper::Uri;
use tokio::sync::watch;
use tokio::time::Instant;

use crate::content::LabId;
use crate::content::params;
use crate::engine::overload::{self, ComparedPoint, OverloadParams, OverloadRun, OverloadScenario, Second, Totals};
use crate::live::overload::client::{ClientSettings, LiveClient};
use crate::live::overload::server::LiveServer;
use crate::live::run::{self, LabEvent, LabSender, LiveRun, OverloadEvent, RunInbox};

/// A finished live run, in the simulation's shape so one report prints both.
pub type LiveSummary = OverloadRun;

/// The screen's hold on a running overload run: the settings from now on (latest wins).
/// The offered load, the timeout, the policy and its knobs apply at once; workers and
/// service time stay as started (the server's slots are fixed).
#[derive(Clone, Debug, PartialEq)]
pub struct OverloadControl {
    pub params: OverloadParams,
}

/// The most a live run offers per second: a bound of Lab 4's live parameters, kept with
/// the others in `content::params::overload`.
pub const MAX_OFFERED_PER_S: f64 = params::overload::LIVE_MAX_OFFERED_PER_S;

/// Lab 4's settings scaled to a 2-core machine, the lesson's ratios kept: 8 slots x 20 ms
/// = 400/s, the offered load as the same multiple of capacity, the timeout 20 service
/// times, the age cap 4, the admission limit the pool plus half of it.
pub fn live_params(scenario: OverloadScenario) -> OverloadParams {
    let lesson = scenario.params();
    let scale = 400.0 / lesson.capacity_per_s();
    OverloadParams {
        workers: 8,
        service_ms: 20.0,
        offered_per_s: (lesson.offered_per_s * scale).round(),
        client_timeout_ms: 400.0,
        age_cap_ms: 80.0,
        admission_limit: 12,
        duration_s: lesson.duration_s.min(20.0),
        ..lesson
    }
}

fn client_settings(params: &OverloadParams) -> ClientSettings {
    ClientSettings {
        offered_per_s: params.offered_per_s,
        timeout: Duration::from_secs_f64(params.client_timeout_ms / 1_000.0),
        throttle_k: params.throttle(),
        throttle_window_s: params.throttle_window_s,
        mix: params.mix_weights(),
        seed: params.seed,
    }
}

/// Starts the server and the client on 127.0.0.1 and runs for `params.duration_s`,
/// sending a [`Second`] per second (dropped, never waited for, when the app's queue is
/// full) and the whole run last. Must be called inside a tokio runtime.
pub fn spawn<E>(params: OverloadParams, events: LabSender<E>) -> LiveRun<OverloadControl>
where
    E: From<(LabId, LabEvent)> + Send + 'static,
{
    let control = OverloadControl { params: params.clone() };
    LiveRun::spawn(events.run(), control, move |inbox| async move {
        let result = drive(params, inbox, |second| {
            events.sample(OverloadEvent::Sample(second));
        })
        .await;
        events
            .send(OverloadEvent::Done(
                result.map(Box::new).map_err(|error| format!("{error:#}")),
            ))
            .await;
    })
}

/// The run itself: `on_second` gets each second's counts as it ends.
async fn drive(
    params: OverloadParams,
    mut inbox: RunInbox<OverloadControl>,
    mut on_second: impl FnMut(Second),
) -> Result<LiveSummary> {
    let server = LiveServer::start(
        params.workers,
        Duration::from_secs_f64(params.service_ms / 1_000.0),
        params.server_policy(),
    )
    .await?;
    let uri: Uri = format!("http://{}/work", server.addr)
        .parse()
        .wrap_err("building Lab 4's request address")?;
    let client = LiveClient::start(uri, client_settings(&params));
    let start = Instant::now();
    let seconds_total = params.duration_s.ceil().max(1.0) as u32;
    let mut current = params.clone();
    let mut seconds = Vec::with_capacity(seconds_total as usize);
    let mut stopping = false;
    for k in 1..=seconds_total {
        let edge = start + Duration::from_secs_f64(f64::from(k).min(params.duration_s));
        loop {
            tokio::select! {
                () = tokio::time::sleep_until(edge) => break,
                changed = inbox.control.changed(), if !stopping => {
                    if changed.is_err() { stopping = true; break; }
                    current = OverloadParams {
                        workers: params.workers,
                        service_ms: params.service_ms,
                        ..inbox.control.borrow_and_update().params.clone()
                    };
                    server.set_policy(current.server_policy());
                    client.set(client_settings(&current));
                }
                () = run::stopped(&mut inbox.stop), if !stopping => { stopping = true; break; }
            }
        }
        let sample = sample_now(&server, &client, f64::from(k).min(params.duration_s));
        on_second(sample.clone());
        seconds.push(sample);
        if stopping {
            break;
        }
    }
    let throttle_probability = client.throttle_probability();
    client.stop().await;
    server.shutdown().await;
    let mut totals = totals_of(&seconds, start.elapsed().as_secs_f64().min(params.duration_s));
    totals.throttle_probability = throttle_probability;
    Ok(LiveSummary {
        capacity_per_s: current.capacity_per_s(),
        age_cap_queue_limit: None,
        params: current,
        seconds,
        totals,
    })
}

fn sample_now(server: &LiveServer, client: &LiveClient, t_s: f64) -> Second {
    let seen = client.take_counts();
    let done = server.take_counts();
    let (queue_len, queue_wait_s, busy) = server.queue();
    Second {
        t_s,
        offered: seen.offered,
        goodput: seen.goodput,
        wasted: done.wasted,
        refused: seen.refused,
        timed_out: seen.timed_out,
        throttled: seen.throttled,
        queue_len,
        queue_wait_s,
        oldest_wait_s: 0.0,
        busy,
        x_busy: 0,
    }
}

fn totals_of(seconds: &[Second], elapsed_s: f64) -> Totals {
    let sum = |f: fn(&Second) -> u64| seconds.iter().map(f).sum::<u64>();
    let goodput = sum(|s| s.goodput);
    Totals {
        offered: sum(|s| s.offered),
        goodput,
        wasted: sum(|s| s.wasted),
        refused: sum(|s| s.refused),
        timed_out: sum(|s| s.timed_out),
        throttled: sum(|s| s.throttled),
        goodput_per_s: goodput as f64 / elapsed_s.max(1e-3),
        max_queue_len: seconds.iter().map(|s| s.queue_len).max().unwrap_or(0),
        ..Totals::default()
    }
}

/// Runs live to the end, ignoring the per-second samples (the command line's use).
pub async fn run_to_end(params: OverloadParams) -> Result<LiveSummary> {
    // Nobody retunes or stops a command-line run: the senders just stay alive to its end.
    let (_control, control) = watch::channel(OverloadControl { params: params.clone() });
    let (_stop, stop) = watch::channel(false);
    drive(params, RunInbox { control, stop }, |_| {}).await
}

/// Live against sim at each offered load (one short live run per point).
pub async fn compare_curve(params: &OverloadParams, offered: &[f64]) -> Result<Vec<ComparedPoint>> {
    let mut points = Vec::with_capacity(offered.len());
    for &offered_per_s in offered {
        let at = OverloadParams {
            offered_per_s,
            ..params.clone()
        };
        let live = run_to_end(at.clone()).await?;
        points.push(ComparedPoint {
            offered_per_s,
            live_goodput_per_s: live.totals.goodput_per_s,
            sim_goodput_per_s: overload::run(&at).totals.goodput_per_s,
        });
    }
    Ok(points)
}
