//! The debrief: saved beside progress without overwriting, in its documented shape, and
//! replayed in the simulation to the same score.

use crate::common::binary::run_with_input;

/// `run oncall` for receipt-store-slow at seed 4 with `levers`, saving its debrief.
fn slow_receipts_with_debrief(levers: &str) -> [&str; 9] {
    [
        "run",
        "oncall",
        "--incident",
        "receipt-store-slow",
        "--seed",
        "4",
        "--levers",
        levers,
        "--debrief",
    ]
}

#[test]
fn a_debrief_is_saved_twice_without_overwriting_and_replays_to_its_score() {
    let dir = tempfile::tempdir().unwrap();
    let progress = dir.path().join("progress.json");
    let levers = "80:receipt-store.retries=0,95:receipt-store.enabled=off,300:receipt-store.enabled=on,310:receipt-store.retries=restore";
    let args = slow_receipts_with_debrief(levers);
    for _ in 0..2 {
        let out = run_with_input(&progress, &args, "");
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    }
    let saved = dir.path().join("oncall-debriefs");
    let first = saved.join("receipt-store-slow-seed4.json");
    assert!(first.exists() && saved.join("receipt-store-slow-seed4.md").exists());
    assert!(
        saved.join("receipt-store-slow-seed4-2.json").exists(),
        "the second debrief got its own name"
    );

    let doc: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&first).unwrap()).unwrap();
    assert_eq!(doc["schema"], "resilience-lab/oncall-debrief/1");
    for key in [
        "incident",
        "title",
        "seed",
        "dependency",
        "onset_s",
        "levers",
        "decisions",
        "timeline",
        "score",
    ] {
        assert!(doc.get(key).is_some(), "{key}");
    }
    for entry in doc["timeline"].as_array().unwrap() {
        assert!(entry["t_s"].is_number() && entry["kind"].is_string() && entry["text"].is_string());
    }
    for decision in doc["decisions"].as_array().unwrap() {
        for field in ["t_s", "what", "why", "expected"] {
            assert!(decision.get(field).is_some(), "{field}");
        }
    }
    assert_eq!(
        doc["score"]["wrong_levers"],
        serde_json::json!(["80:receipt-store.retries=0"])
    );

    let out = run_with_input(
        &progress,
        &["run", "oncall", "--replay", first.to_str().unwrap(), "--json"],
        "",
    );
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let replayed: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(replayed["score"], doc["score"]["score"]);

    let markdown = std::fs::read_to_string(saved.join("receipt-store-slow-seed4.md")).unwrap();
    assert!(markdown.contains("## Decision log") && markdown.contains("## Timeline"));
}

/// A live drill's debrief (`oncall --live`) is played again on the simulation and both
/// scores said; a sim debrief whose score was changed still fails its replay.
#[test]
fn a_live_debrief_replays_on_the_sim_without_being_held_to_its_score() {
    let dir = tempfile::tempdir().unwrap();
    let progress = dir.path().join("progress.json");
    let args = slow_receipts_with_debrief("runbook");
    let out = run_with_input(&progress, &args, "");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let file = dir.path().join("oncall-debriefs").join("receipt-store-slow-seed4.json");
    let mut doc: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    let sim_score = doc["score"]["score"].as_u64().unwrap();
    // As a live drill that scored otherwise would have saved it.
    doc["score"]["score"] = serde_json::json!(sim_score - 3);
    let replay = |doc: &serde_json::Value| {
        std::fs::write(&file, serde_json::to_string(doc).unwrap()).unwrap();
        run_with_input(&progress, &["run", "oncall", "--replay", file.to_str().unwrap()], "")
    };
    let out = replay(&doc);
    assert!(!out.status.success(), "a sim debrief is held to its score");
    doc["mode"] = serde_json::json!("live");
    doc["ms_per_drill_s"] = serde_json::json!(400);
    let out = replay(&doc);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(
        said.contains(&format!(
            "scored {} live; the simulation's replay above scores {sim_score}",
            sim_score - 3
        )),
        "{said}"
    );
}

#[test]
fn the_progress_command_lists_the_saved_drill_summaries() {
    use resilience_lab::learning::progress::{self, OncallSummary};
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("progress.json");
    let mut saved = progress::Progress::default();
    saved.record_oncall(OncallSummary {
        incident: "payments-503".to_string(),
        seed: 3,
        score: 100,
        restored_after_s: Some(23.0),
        wrong_levers: 0,
        debrief: Some("oncall-debriefs/payments-503-seed3.json".to_string()),
    });
    saved.record_oncall(OncallSummary {
        incident: "receipt-store-storm".to_string(),
        seed: 2,
        score: 20,
        restored_after_s: None,
        wrong_levers: 1,
        debrief: None,
    });
    progress::save(&path, &mut saved).unwrap();
    let out = run_with_input(&path, &["progress"], "");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(stdout.contains("  on-call drills saved: 2\n"), "{stdout}");
    assert!(
        stdout.contains(
            "    payments-503 seed 3: 100 / 100, goodput back 23 s after the onset, 0 wrong lever(s); debrief oncall-debriefs/payments-503-seed3.json\n"
        ),
        "{stdout}"
    );
    assert!(
        stdout.contains("    receipt-store-storm seed 2: 20 / 100, goodput never back, 1 wrong lever(s)\n"),
        "{stdout}"
    );
}
