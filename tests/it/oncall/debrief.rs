//! The debrief: saved beside progress without overwriting, in its documented shape, and
//! replayed in the simulation to the same score.

use crate::common::binary::run_with_input;

#[test]
fn a_debrief_is_saved_twice_without_overwriting_and_replays_to_its_score() {
    let dir = tempfile::tempdir().unwrap();
    let progress = dir.path().join("progress.json");
    let levers = "80:receipt-store.retries=0,95:receipt-store.enabled=off,300:receipt-store.enabled=on,310:receipt-store.retries=restore";
    let args = [
        "run",
        "oncall",
        "--incident",
        "receipt-store-slow",
        "--seed",
        "4",
        "--levers",
        levers,
        "--debrief",
    ];
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
