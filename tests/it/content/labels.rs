//! A slider's label and its unit read as one phrase: the value goes between them
//! (`Inbound 30000 ms`), so a label that ends in a unit of measure says it twice
//! (`Inbound ms 30000 ms`).

use resilience_lab::content::Content;

#[test]
fn no_slider_label_ends_in_its_unit() {
    let content = Content::load(None).expect("the built-in labs load");
    let mut problems = Vec::new();
    let mut read = 0;
    for lab in &content.labs {
        for spec in &lab.parameters {
            read += 1;
            let label = spec.label.to_lowercase();
            // Units of measure; a counted noun may stay (`Minimum calls 10 calls` reads as English).
            let repeats = ["ms", "s", "per s"]
                .iter()
                .any(|unit| label.ends_with(&format!(" {unit}")));
            if repeats {
                let shown = spec.display(spec.default);
                problems.push(format!("{}: {} reads \"{} {shown}\"", lab.id, spec.name, spec.label));
            }
        }
    }
    assert!(read > 40, "only {read} sliders read");
    assert!(problems.is_empty(), "{problems:#?}");
}
