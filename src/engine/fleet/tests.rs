//! The fleet model on hand-worked cases: every time below is worked out in the comments
//! from the Atlas's Deployment (startup /livez 5 s x 12, readiness /readyz 5 s x 2,
//! liveness /livez 10 s x 3, timeout 1 s, preStop 10 s, grace 30 s; the app's warm-up
//! 2 s and deregistration 1 s), replica i starting at i s, a routing delay of 1 s and
//! 10 requests/s of 0.1 s each from t = 10 s. Probes tick at container start + k x period.

use super::*;

fn restarts_of(run: &FleetRun) -> Vec<Vec<f64>> {
    run.replicas.iter().map(|r| r.restart_times_s.clone()).collect()
}

#[test]
fn the_back_off_doubles_from_10_s_to_a_5_minute_cap_and_is_forgotten_after_10_minutes() {
    let backoff = BackoffSpec::default();
    // The first restart is immediate; then 10, 20, 40, 80, 160, and 320 capped to 300.
    let delays: Vec<f64> = (0..8).map(|n| backoff.delay_s(n)).collect();
    assert_eq!(delays, [0.0, 10.0, 20.0, 40.0, 80.0, 160.0, 300.0, 300.0]);
    assert_eq!(backoff.streak_after(5, 599.0), 5);
    assert_eq!(backoff.streak_after(5, 600.0), 0);
}

#[test]
fn liveness_checking_the_database_restarts_every_replica_with_a_growing_back_off() {
    // The database is down from 30 s to 330 s. Replica 0 (started at 0):
    //   liveness passes at 10 and 20, fails at 30, 40, 50: 3 in a row -> stop at 50,
    //   that is threshold x period = 30 s after the last probe that passed (20 s);
    //   preStop 10 s -> SIGTERM 60; deregistration 1 s -> listener closes at 61; the last
    //   request it took arrived before 61 and ends by 61 -> exits at 61.
    //   Restart 1 is immediate: 61. Its startup probe (/livez, still checking the down
    //   database) fails at 66, 71, ... 121: 12 failures -> stop at 121, SIGTERM 131,
    //   exit 132; back-off 10 s -> restart 2 at 142; stop 202, exit 213, back-off 20 s ->
    //   restart 3 at 233; stop 293, exit 304, back-off 40 s -> restart 4 at 344. The
    //   database is up since 330: startup passes at 349 and readiness with it.
    // Replicas 1 and 2 do the same 1 s and 2 s later.
    let run = simulate(&FleetParams::scenario(FleetScenario::LivenessChecksDb));
    assert_eq!(
        restarts_of(&run),
        [
            vec![61.0, 142.0, 233.0, 344.0],
            vec![62.0, 143.0, 234.0, 345.0],
            vec![63.0, 144.0, 235.0, 346.0],
        ]
    );
    assert_eq!(run.replicas[0].stops[0], (50.0, StopReason::Liveness));
    assert_eq!(run.replicas[0].stops[1], (121.0, StopReason::Startup));
    assert_eq!(run.total_restarts(), 12);
    assert_eq!(run.first_restart_s(), Some(61.0));
    // Each replica leaves the endpoints when its first container exits (61, 62, 63);
    // the first to be ready again is replica 0 at 349: no endpoint from 63 to 349.
    assert_eq!(run.no_endpoint_windows, [(63.0, 349.0)]);
    assert_eq!(run.no_ready_endpoint_s, 286.0);
    // The Service routes by what it saw 1 s ago: refused from 64 until 350, 10 per second
    // = 2860. Served degraded while the database was down and a replica listened: 30 to
    // 64 = 340. The rest is ok: 10 to 30 and 350 to 600 = 200 + 2500.
    assert_eq!(
        run.requests,
        RequestTotals {
            ok: 2700,
            degraded: 340,
            failed: 0,
            refused: 2860
        }
    );
    let states: Vec<ReplicaState> = run.replicas[0].timeline.iter().map(|c| c.state).collect();
    assert_eq!(
        states[..6],
        [
            ReplicaState::Starting,
            ReplicaState::Ready,
            ReplicaState::Stopping,
            ReplicaState::Starting,
            ReplicaState::Stopping,
            ReplicaState::BackOff,
        ]
    );
    // Killed at 50 s, the pod is not deleted: it stays a ready endpoint (1/1) until its
    // process exits at 61 s, as the endpoints count says.
    let kill = run.replicas[0].timeline[2];
    assert_eq!(
        (kill.t_s, kill.ready_column(), kill.state.status_column()),
        (50.0, "1/1", "Killing")
    );
    assert_eq!(run.replicas[0].timeline[3].t_s, 61.0);
}

/// The ready endpoints the replicas' rows add up to, half-way through each span of the
/// Service's own count, against that count: the listing and the endpoints row agree.
fn assert_rows_match_endpoints(run: &FleetRun) {
    let ends: Vec<f64> = run
        .endpoints
        .iter()
        .skip(1)
        .map(|&(t, _)| t)
        .chain([run.params.duration_s])
        .collect();
    for (&(start_s, count), end_s) in run.endpoints.iter().zip(ends) {
        if end_s <= start_s {
            continue;
        }
        let mid_s = (start_s + end_s) / 2.0;
        let ready = run
            .replicas
            .iter()
            .filter(|r| {
                r.timeline
                    .iter()
                    .rev()
                    .find(|c| c.t_s <= mid_s)
                    .is_some_and(|c| c.ready)
            })
            .count();
        assert_eq!(ready as u32, count, "{:?} at {mid_s} s", run.params.scenario);
    }
}

#[test]
fn every_scenario_s_rows_say_ready_exactly_when_the_service_counts_the_endpoint() {
    for scenario in FleetScenario::ALL {
        let params = FleetParams::scenario(scenario);
        assert_rows_match_endpoints(&simulate(&params));
        // Both probes on the database: killed while already unready.
        let mut both = params.clone();
        both.server.liveness_checks_db = true;
        both.server.readiness_checks_db = true;
        assert_rows_match_endpoints(&simulate(&both));
    }
    // A rolling pod leaves at once and says so: 0/1 Terminating at the roll.
    let run = simulate(&FleetParams::scenario(FleetScenario::RollingRestart));
    let roll = run.replicas[0]
        .timeline
        .iter()
        .find(|c| c.state == ReplicaState::Terminating);
    assert_eq!(roll.map(|c| (c.t_s, c.ready_column())), Some((30.0, "0/1")));
}

#[test]
fn a_sixty_second_outage_costs_each_replica_one_restart() {
    // Down from 30 to 90: the stop at 50 and the restart at 61 happen as above; the new
    // container's startup probe fails at 66 ... 86 (5 failures, below 12) and passes at 91.
    let mut params = FleetParams::scenario(FleetScenario::LivenessChecksDb);
    params.database[0].end_s = 90.0;
    let run = simulate(&params);
    assert_eq!(restarts_of(&run), [vec![61.0], vec![62.0], vec![63.0]]);
    // Ready again at 91, 92, 93 (startup then readiness in the same tick).
    assert_eq!(run.no_endpoint_windows, [(63.0, 91.0)]);
}

#[test]
fn a_slow_database_restarts_the_fleet_only_when_it_is_slower_than_the_probe_timeout() {
    // Self-check question 1: a liveness check on a database that is slow for ten minutes.
    // At 2000 ms every /livez misses the 1 s timeout: the same restarts as a down database.
    let mut params = FleetParams::scenario(FleetScenario::LivenessChecksDb);
    params.database[0].state = Database::Slow { latency_ms: 2000 };
    let slow = simulate(&params);
    assert_eq!(slow.replicas[0].stops[0], (50.0, StopReason::Liveness));
    assert_eq!(slow.total_restarts(), 12);
    // The drain waits for slow requests: the last one replica 0 took before its listener
    // closed at 61 is turn k = 507 (sent at 10 + 50.7 = 60.7, k % 3 == 0), which needs
    // 0.1 s of work plus 2 s of database: the process exits, and restarts, at 62.8.
    assert_eq!(slow.first_restart_s(), Some(62.8));
    // At 500 ms the probe answers in time: no restart, and requests are merely slower.
    params.database[0].state = Database::Slow { latency_ms: 500 };
    let tolerable = simulate(&params);
    assert_eq!(tolerable.total_restarts(), 0);
    assert_eq!(tolerable.requests.ok, 5900);
}

#[test]
fn readiness_checking_the_database_takes_every_replica_out_of_rotation_together() {
    // Down from 30 to 90. Replica 0's readiness fails at 30 and 35: unready at 35; replica
    // 1 at 36, replica 2 at 37. It passes again at 90, 91, 92. No restart: liveness is local.
    let run = simulate(&FleetParams::scenario(FleetScenario::ReadinessChecksDb));
    assert_eq!(run.total_restarts(), 0);
    assert_eq!(run.no_endpoint_windows, [(37.0, 90.0)]);
    // Clients are refused from 38 to 91 (the 1 s routing delay): 530; degraded 30 to 38: 80.
    assert_eq!(
        run.requests,
        RequestTotals {
            ok: 5290,
            degraded: 80,
            failed: 0,
            refused: 530
        }
    );
}

#[test]
fn a_load_balancer_that_fails_open_serves_degraded_answers_instead_of_refusing() {
    let mut params = FleetParams::scenario(FleetScenario::ReadinessChecksDb);
    params.fail_open = true;
    let run = simulate(&params);
    // Every request of 30 to 90 reaches a replica, which answers from its fallback.
    assert_eq!(run.requests.refused, 0);
    assert_eq!(run.requests.degraded, 600);
    assert_eq!(run.requests.ok, 5300);
}

#[test]
fn process_local_probes_ride_out_the_outage_with_degraded_answers() {
    let run = simulate(&FleetParams::scenario(FleetScenario::ProcessLocal));
    assert_eq!(run.total_restarts(), 0);
    assert!(run.no_endpoint_windows.is_empty());
    assert_eq!(
        run.requests,
        RequestTotals {
            ok: 5300,
            degraded: 600,
            failed: 0,
            refused: 0
        }
    );
    // With a design that fails instead of degrading, the same 600 fail.
    let mut params = FleetParams::scenario(FleetScenario::ProcessLocal);
    params.on_db_down = OnDbDown::Fail;
    assert_eq!(simulate(&params).requests.failed, 600);
}

#[test]
fn a_rolling_restart_without_pre_stop_loses_the_requests_routed_during_the_delay() {
    // No preStop, no deregistration delay, a 2 s routing delay; 10 requests/s from 10 s,
    // request k at 10 + k/10 s, round-robin turn k.
    // 30: pod 0 is deleted and closes at once; the Service still sends it turn k % 3 == 0
    //     until 32: k = 201, 204, ... 219 -> 7 lost. Its replacement starts at 30.
    // 35: the replacement is ready; pod 1 is deleted. Endpoints seen in 35..37 are {1, 2}
    //     (pod 0's replacement is seen from 37): pod 1 gets even k = 250 ... 268 -> 10 lost.
    // 40: pod 1's replacement is ready; pod 2 is deleted. Seen in 40..42: {0, 2}; pod 2
    //     gets odd k = 301 ... 319 -> 10 lost. 7 + 10 + 10 = 27 of 800.
    let run = simulate(&FleetParams::scenario(FleetScenario::RollingRestart));
    assert_eq!(run.requests.failed, 27);
    assert_eq!(run.requests.ok, 773);
    assert_eq!(run.total_restarts(), 0, "a replaced pod is not a restart");
    let stops: Vec<f64> = run.replicas.iter().map(|r| r.stops[0].0).collect();
    assert_eq!(stops, [30.0, 35.0, 40.0]);
}

#[test]
fn a_pre_stop_sleep_longer_than_the_routing_delay_loses_nothing() {
    // preStop 5 s >= routing 2 s: pod 0 serves until 35 while traffic to it stops at 32.
    // Replacements start at 35, 45, 55 (each 5 s preStop after a deletion at 30, 40, 50).
    let mut params = FleetParams::scenario(FleetScenario::RollingRestart);
    params.pre_stop_s = 5.0;
    let run = simulate(&params);
    assert_eq!(run.requests.failed, 0);
    assert_eq!(run.requests.ok, 800);
    let stops: Vec<f64> = run.replicas.iter().map(|r| r.stops[0].0).collect();
    assert_eq!(stops, [30.0, 40.0, 50.0]);
}

#[test]
fn least_requests_sends_most_traffic_to_the_fast_failing_replica() {
    // 30 requests/s of 0.25 s; replica 0 fails each in 1 ms, so it is always the least
    // busy. Ties go to the first in round-robin order from `turn % 3`: replica 1 can win
    // only on turns 1, 4, 7 ... and replica 2 on turns 2, 5, 8 ... (or 1 when replica 1 is
    // busy). A pick keeps a replica busy for 7.5 arrivals, so its next win is 9 turns on:
    // 2 of every 9 requests are served, 1500 x 7/9 = 1166.7 fail: 1166 in the run.
    let run = simulate(&FleetParams::scenario(FleetScenario::BlackHole));
    assert_eq!(run.requests.failed, 1166);
    assert_eq!(run.requests.ok, 334);
    // At 0.2 s a request ends exactly on its replica's next turn (6 arrivals): 4 of 6 fail.
    let mut knife_edge = FleetParams::scenario(FleetScenario::BlackHole);
    knife_edge.server.work_s = 0.2;
    assert_eq!(simulate(&knife_edge).requests.failed, 1000);
    // Round-robin gives it exactly one request in three.
    let mut params = FleetParams::scenario(FleetScenario::BlackHole);
    params.balancing = Balancing::RoundRobin;
    let fair = simulate(&params);
    assert_eq!(fair.requests.failed, 500);
    assert_eq!(fair.requests.ok, 1000);
}

#[test]
fn a_grace_period_shorter_than_pre_stop_plus_drain_cuts_requests_off() {
    // Requests of 10 s, preStop 5 s. With a grace period of 5 s SIGTERM and SIGKILL
    // coincide: pod 0, deleted at 30, is killed at 35 with every request it took after 25
    // still running. It took turns k % 3 == 0 until the Service stopped routing to it at 32:
    // k = 153, 156, ... 219 (sent at 25.3 ... 31.9) -> at least 23 cut off. With 30 s of
    // grace (>= 5 + 10) every request finishes.
    let mut params = FleetParams::scenario(FleetScenario::RollingRestart);
    params.pre_stop_s = 5.0;
    params.grace_s = 5.0;
    params.server.work_s = 10.0;
    params.server.grace_s = 10.0;
    let cut = simulate(&params);
    let mut roomy = params.clone();
    roomy.grace_s = 30.0;
    let whole = simulate(&roomy);
    assert_eq!(whole.requests.failed, 0, "grace 30 >= preStop 5 + drain 10");
    assert!(cut.requests.failed >= 23, "{:?}", cut.requests);
}

#[test]
fn every_scenario_has_a_name_that_reads_back() {
    for scenario in FleetScenario::ALL {
        assert_eq!(FleetScenario::from_name(scenario.name()), Some(scenario));
    }
    assert_eq!(FleetScenario::from_name("nope"), None);
}

#[test]
fn the_round_robin_turn_skips_nobody_and_least_requests_breaks_ties_in_turn() {
    let mut turn = 0;
    let picks: Vec<usize> = (0..4)
        .filter_map(|_| pick_endpoint(&[2, 5], Balancing::RoundRobin, &mut turn, |_| 0))
        .collect();
    assert_eq!(picks, [2, 5, 2, 5]);
    let mut turn = 1;
    assert_eq!(
        pick_endpoint(&[0, 1, 2], Balancing::LeastRequests, &mut turn, |r| [0, 3, 0][r]),
        Some(2),
        "from turn 1 the scan is 1, 2, 0: 2 is the first of the least busy"
    );
    assert_eq!(pick_endpoint(&[], Balancing::RoundRobin, &mut turn, |_| 0), None);
}
