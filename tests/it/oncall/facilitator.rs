//! A facilitator beside the drill (`oncall --gm`): a second fault changes the drill from its
//! moment on and not before, and still scores and replays; an owner's hint reaches on-call's
//! log; the control endpoint refuses a wrong token and serves the facilitator's client; the
//! learner's app opens it, announces it beside progress, and takes its end; no drill found
//! is one line and exit 2.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use resilience_lab::engine::oncall::{
    DrillSetup, FacilitatorCommand, FacilitatorView, OncallPlay, builtin_incidents, run_drill, score_drill,
};
use resilience_lab::live::drill_control::{self, ControlError, SharedView};
use resilience_lab::tui::screens::oncall::OncallOutcome;

use super::screen::drill_app;
use crate::common::binary::run_with_input;
use crate::common::render;

fn setup(name: &str, seed: u64) -> DrillSetup {
    let incidents = builtin_incidents().unwrap();
    DrillSetup::new(incidents.iter().find(|i| i.name == name).unwrap(), seed)
}

#[test]
fn a_second_fault_changes_the_drill_from_its_moment_on_and_not_before() {
    let incidents = builtin_incidents().unwrap();
    let storm = incidents.iter().find(|i| i.name == "receipt-store-storm").unwrap();
    let plain = setup("payments-503", 1);
    // Before the drill's own onset (60 s at the earliest), so that the receipt store's dip
    // is the only change.
    let at_s = 20;
    let mut play = OncallPlay::new(&plain);
    play.step(at_s);
    let before = run_drill(&plain, &[]);
    let extra = play
        .add_fault(storm, resilience_lab::engine::oncall::OncallDep::ReceiptStore)
        .unwrap();
    assert_eq!(extra.from_s, at_s as f64);
    let mut with_fault = plain.clone();
    with_fault.extra_faults.push(extra);
    let after = run_drill(&with_fault, &[]);
    assert_eq!(after.seconds[..at_s], before.seconds[..at_s], "the past does not move");
    assert_ne!(
        after.seconds[at_s..at_s + 20],
        before.seconds[at_s..at_s + 20],
        "the receipt store's dip shows from its moment on"
    );
    let store_attempts = |run: &resilience_lab::engine::oncall::DrillRun| {
        run.seconds[at_s + 10]
            .deps
            .iter()
            .find(|d| d.dep.name() == "receipt-store")
            .unwrap()
            .attempts
    };
    assert!(
        store_attempts(&after) > store_attempts(&before),
        "its retries multiply: {} vs {}",
        store_attempts(&after),
        store_attempts(&before)
    );
    // No second fault: the drill is the one it always was.
    assert_eq!(run_drill(&plain, &[]).seconds, before.seconds);
    // It still scores, and the score counts the whole drill.
    let score = score_drill(&after);
    assert!(score.score <= 100);
}

#[test]
fn second_faults_are_bounded_and_refused_after_the_end() {
    let incidents = builtin_incidents().unwrap();
    let mut play = OncallPlay::new(&setup("recommendations-hang", 1));
    for incident in &incidents[..3] {
        play.add_fault(incident, incident.dependencies[0]).unwrap();
    }
    assert!(play.add_fault(&incidents[3], incidents[3].dependencies[0]).is_err());
    play.end();
    assert!(play.add_hint("late").is_err());
}

#[test]
fn an_owners_hint_reaches_the_learners_log_and_screen() {
    let mut app = drill_app(100, 30, "recommendations-hang", 1, 40);
    let screen = app.oncall.as_mut().unwrap();
    let (outcome, said) = screen.apply_facilitator(FacilitatorCommand::CallOwner { hint: 0 });
    assert_eq!(outcome, OncallOutcome::Changed, "{said}");
    let hints = screen.play.view().hints;
    assert_eq!(hints.len(), 1);
    assert_eq!(hints[0].t_s, 40);
    assert!(
        hints[0].text.starts_with("recommendations owner here"),
        "{}",
        hints[0].text
    );
    let shown = render(&app);
    assert!(shown.contains("owner on the phone"), "{shown}");
    assert!(shown.contains("recommendations owner here"), "{shown}");
    // A hint the drill does not have is refused, and nothing reaches the log.
    let screen = app.oncall.as_mut().unwrap();
    let (outcome, said) = screen.apply_facilitator(FacilitatorCommand::CallOwner { hint: 5 });
    assert_eq!(outcome, OncallOutcome::Unchanged);
    assert!(said.starts_with("refused"), "{said}");
    assert_eq!(screen.play.view().hints.len(), 1);
}

#[test]
fn every_shipped_incident_has_an_owners_hint_and_the_facilitator_sees_them_all() {
    for incident in builtin_incidents().unwrap() {
        let hint = incident.owner_hint.as_deref().unwrap_or_default();
        assert!(!hint.is_empty(), "{}: owner_hint", incident.name);
    }
    let mut play = OncallPlay::new(&setup("inventory-brownout", 2));
    let incidents = builtin_incidents().unwrap();
    play.add_fault(&incidents[2], incidents[2].dependencies[0]).unwrap();
    let view = FacilitatorView::of(&play);
    assert_eq!(view.owner_hints.len(), 2, "the incident's, then the second fault's");
    assert!(
        !view.owner_hints[0].contains("{dep}"),
        "resolved: {}",
        view.owner_hints[0]
    );
    assert_eq!(view.extra_faults[0].incident, incidents[2].name);
}

fn served_view() -> FacilitatorView {
    FacilitatorView::of(&OncallPlay::new(&setup("payments-503", 1)))
}

#[tokio::test]
async fn the_control_endpoint_refuses_a_wrong_token() {
    let listener = resilience_lab::live::http::bind_loopback(0).await.unwrap();
    let view: SharedView = Arc::new(Mutex::new(Some(served_view())));
    let (tx, mut commands) = tokio::sync::mpsc::unbounded_channel();
    let control = drill_control::start(listener, "right-token".to_string(), view, tx);
    let addr = control.addr;
    for wrong in ["", "wrong-token", "right-toke", "right-token2"] {
        match drill_control::fetch_view(addr, wrong).await {
            Err(ControlError::Refused { code, line }) => {
                assert_eq!(code, 403);
                assert_eq!(line, drill_control::WRONG_TOKEN);
            }
            other => panic!("{wrong:?}: {other:?}"),
        }
        let sent = drill_control::send_command(addr, wrong, &FacilitatorCommand::End).await;
        assert!(matches!(sent, Err(ControlError::Refused { code: 403, .. })), "{sent:?}");
    }
    assert!(commands.try_recv().is_err(), "no command got through");
    control.stop(Duration::from_secs(1)).await;
}

#[tokio::test]
async fn the_facilitators_client_reads_the_view_and_sends_commands_on_port_0() {
    let listener = resilience_lab::live::http::bind_loopback(0).await.unwrap();
    let view: SharedView = Arc::new(Mutex::new(None));
    let (tx, mut commands) = tokio::sync::mpsc::unbounded_channel();
    let control = drill_control::start(listener, "t0k3n".to_string(), view.clone(), tx);
    let addr = control.addr;
    assert_ne!(addr.port(), 0);
    assert!(
        matches!(
            drill_control::fetch_view(addr, "t0k3n").await,
            Err(ControlError::Refused { code: 503, .. })
        ),
        "nothing published yet"
    );
    *view.lock().unwrap() = Some(served_view());
    let read = drill_control::fetch_view(addr, "t0k3n").await.unwrap();
    assert_eq!(read, served_view(), "the view reads back as it was written");
    let add = FacilitatorCommand::AddFault {
        incident: "receipt-store-slow".to_string(),
        dependency: "receipt-store".to_string(),
    };
    for command in [add, FacilitatorCommand::CallOwner { hint: 0 }, FacilitatorCommand::End] {
        drill_control::send_command(addr, "t0k3n", &command).await.unwrap();
        assert_eq!(commands.recv().await, Some(command));
    }
    control.stop(Duration::from_secs(1)).await;
    assert!(matches!(
        drill_control::fetch_view(addr, "t0k3n").await,
        Err(ControlError::Unreachable(_))
    ));
}

#[tokio::test]
async fn the_learners_app_announces_its_drill_takes_a_facilitators_commands_and_forgets_the_file_at_the_end() {
    let dir = tempfile::tempdir().unwrap();
    let locator = drill_control::locator_path(&dir.path().join("progress.toml"));
    let mut app = drill_app(100, 30, "recommendations-hang", 1, 30);
    app.facilitator_locator = Some(locator.clone());
    app.tick();
    let found = drill_control::read_locator(&locator).expect("the locator beside progress");
    let link = app.facilitator.as_ref().expect("the endpoint is open");
    assert_eq!(found.port, link.addr().port());
    assert_eq!(found.token, link.token());
    let addr = link.addr();
    let seen = drill_control::fetch_view(addr, &found.token).await.unwrap();
    assert_eq!(seen.incident, "recommendations-hang");
    assert!(!seen.ended);
    let add = FacilitatorCommand::AddFault {
        incident: "payments-503".to_string(),
        dependency: "payments".to_string(),
    };
    for command in [add, FacilitatorCommand::CallOwner { hint: 1 }, FacilitatorCommand::End] {
        drill_control::send_command(addr, &found.token, &command).await.unwrap();
    }
    // The commands wait in the channel for the app's next tick.
    tokio::task::yield_now().await;
    app.tick();
    let screen = app.oncall.as_ref().unwrap();
    let reveal = screen.reveal.as_ref().expect("the facilitator's end reveals");
    assert!(reveal.ended_by_facilitator);
    assert_eq!(reveal.run.setup.extra_faults.len(), 1);
    assert_eq!(reveal.hints.len(), 1, "the second fault's owner");
    assert!(reveal.hints[0].text.starts_with("payments owner here"));
    assert!(!locator.exists(), "the file goes when the drill ends");
    let last = drill_control::fetch_view(addr, &found.token).await.unwrap();
    assert!(last.ended && last.ended_by_facilitator);
    assert!(last.score.is_some());
    assert_eq!(last.note.as_deref(), Some("ended: on-call's screen shows the reveal"));
    drop(app);
}

#[test]
fn a_drill_with_a_second_fault_replays_to_its_score() {
    let dir = tempfile::tempdir().unwrap();
    let progress = dir.path().join("progress.toml");
    let mut app = drill_app(100, 30, "receipt-store-slow", 3, 0);
    let screen = app.oncall.as_mut().unwrap();
    let onset = setup("receipt-store-slow", 3).onset_s as usize;
    screen.play.step(onset + 5);
    let add = FacilitatorCommand::AddFault {
        incident: "inventory-brownout".to_string(),
        dependency: "inventory".to_string(),
    };
    assert_eq!(screen.apply_facilitator(add).0, OncallOutcome::Changed);
    // On-call answers the first fault, so the score counts the recovery (a drill with no
    // right lever scores the same with or without a second fault).
    let right = setup("receipt-store-slow", 3).runbook()[0].lever;
    screen.play.pull(right, "receipt-store slow", "checkouts back").unwrap();
    screen.play.step(30);
    screen.apply_facilitator(FacilitatorCommand::CallOwner { hint: 0 });
    assert_eq!(
        screen.apply_facilitator(FacilitatorCommand::End).0,
        OncallOutcome::Ended
    );
    let saved = screen.save(&progress).unwrap();
    let doc: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&saved).unwrap()).unwrap();
    assert_eq!(doc["ended_by"], "facilitator");
    assert_eq!(
        doc["second_faults"][0],
        format!("inventory-brownout@inventory@{}", onset + 5)
    );
    assert_eq!(doc["owner_hints"][0]["t_s"], onset + 35);
    let md = std::fs::read_to_string(saved.with_extension("md")).unwrap();
    assert!(md.contains("## The facilitator"), "{md}");
    let out = run_with_input(&progress, &["run", "oncall", "--replay", saved.to_str().unwrap()], "");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let shown = String::from_utf8_lossy(&out.stdout);
    let saved_score = doc["score"]["score"].as_u64().unwrap();
    assert!(
        shown.contains(&format!("score:                      {saved_score} / 100")),
        "{shown}"
    );
    // Without its second fault the replay would not hold: the fault is part of the drill.
    let mut doc_without = doc.clone();
    doc_without.as_object_mut().unwrap().remove("second_faults");
    let without = dir.path().join("without.json");
    std::fs::write(&without, doc_without.to_string()).unwrap();
    let out = run_with_input(&progress, &["run", "oncall", "--replay", without.to_str().unwrap()], "");
    assert!(!out.status.success(), "a different drill, a different score");
}

#[test]
fn no_drill_found_is_one_line_and_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    let progress = dir.path().join("progress.toml");
    let out = run_with_input(&progress, &["oncall", "--gm"], "");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("no drill found") && err.contains("oncall-gm.json"),
        "{err}"
    );
    // A file a crashed app left behind is recognised as such, not trusted.
    let stale = drill_control::DrillLocator {
        port: 9,
        token: "t".into(),
        pid: 99_999_999,
    };
    drill_control::write_locator(&drill_control::locator_path(&progress), &stale).unwrap();
    let out = run_with_input(&progress, &["oncall", "--gm"], "");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("no longer running"), "{err}");
    // --port and --token need --gm.
    let out = run_with_input(&progress, &["oncall", "--token", "t"], "");
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn a_lever_that_answers_the_second_fault_is_not_wrong_and_the_baseline_is_the_calm_before_it() {
    use resilience_lab::engine::oncall::{ExtraFault, LeverPull, OncallDep, OncallLever};
    let incidents = builtin_incidents().unwrap();
    let slow = incidents.iter().find(|i| i.name == "receipt-store-slow").unwrap();
    let mut setup = setup("inventory-brownout", 7);
    let from_s = 30.0;
    setup.extra_faults.push(ExtraFault {
        incident: slow.clone(),
        dependency: OncallDep::ReceiptStore,
        from_s,
    });
    let answer = LeverPull {
        t_s: from_s + 10.0,
        lever: OncallLever::SwitchedOff(OncallDep::ReceiptStore, true),
    };
    let mut levers = vec![answer];
    levers.extend(setup.runbook());
    let score = score_drill(&run_drill(&setup, &levers));
    assert!(score.wrong_levers.is_empty(), "{:?}", score.wrong_levers);
    let calm = run_drill(&setup, &[]);
    let before: Vec<u32> = calm.seconds[10..from_s as usize].iter().map(|s| s.goodput).collect();
    let expected = f64::from(before.iter().sum::<u32>()) / before.len() as f64;
    assert_eq!(score_drill(&calm).baseline_goodput, expected);
    // Without a second fault the same lever is a wrong one, as it always was.
    let mut alone = setup.clone();
    alone.extra_faults.clear();
    let score = score_drill(&run_drill(&alone, &levers));
    assert_eq!(score.wrong_levers, vec![answer]);
}
