//! Build script: the built-in lab files (`labs/*.toml`) are also written out as JSON, which the
//! binary reads instead of the TOML (`content::lab::parse_built_in`).
//!
//! Why: a headless run spends most of its own work parsing its lab file. `run breaker --sim`
//! took 0.48M of its 2.7M instructions in the TOML parser for 6 KB (callgrind); the same
//! document as JSON reads in a fraction of that. Nothing else changes: the JSON is the TOML's
//! own values, deserialized into the same types and checked by the same code. A file that does
//! not parse here gets an empty JSON file, so the binary parses its TOML and reports the
//! mistake with its line, as it does for a class's own file.

use std::path::Path;

fn main() {
    let out_dir = std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR for build scripts");
    let package = std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR for build scripts");
    // Every lab file in the folder, so a new lab is a new file here and no list to keep
    // (tests/it/architecture.rs holds the folder to `LabId::ALL`).
    let labs = Path::new(&package).join("labs");
    println!("cargo::rerun-if-changed=labs");
    let mut names: Vec<String> = std::fs::read_dir(&labs)
        .unwrap_or_else(|err| panic!("cannot read {}: {err}", labs.display()))
        .filter_map(|entry| {
            let path = entry.ok()?.path();
            if path.extension()? != "toml" {
                return None;
            }
            path.file_stem()?.to_str().map(String::from)
        })
        .collect();
    names.sort();
    for name in names {
        let source = format!("labs/{name}.toml");
        println!("cargo::rerun-if-changed={source}");
        let text = std::fs::read_to_string(Path::new(&package).join(&source)).unwrap_or_default();
        let json = toml::from_str::<toml::Table>(&text)
            .ok()
            .and_then(|table| serde_json::to_string(&table).ok())
            .unwrap_or_default();
        let target = Path::new(&out_dir).join(format!("{name}.json"));
        std::fs::write(&target, json).unwrap_or_else(|err| panic!("cannot write {}: {err}", target.display()));
    }
}
