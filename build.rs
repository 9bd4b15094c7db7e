//! Build script: the built-in lab files (`labs/*.toml`) are also written out as JSON, which the
//! binary reads instead of the TOML (`content::lab::parse_built_in`).
//!
//! Why: a headless run spends most of its own work parsing its lab file. `run breaker --sim`
//! took 0.48M of its 2.7M instructions in the TOML parser for 6 KB (callgrind); the same
//! document as JSON reads in a fraction of that. Nothing else changes: the JSON is the TOML's
//! own values, deserialized into the same types and checked by the same code. A file that does
//! not parse here gets an empty JSON file, so the binary parses its TOML and reports the
//! mistake with its line, as it does for a class's own file.
//!
//! It also lists every lab file for the binary to embed (`lab_files.rs`), and every chapter of `book/src/` for the app's book (`book_files.rs`, a table of
//! `include_str!`s): a new chapter is a new file and a line in `SUMMARY.md`, with no list in
//! the code to forget (Lab 5's and the on-call drill's chapters were left out of the app by
//! the hand-kept list this replaces).

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
    write_lab_files(Path::new(&package), Path::new(&out_dir), &names);
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
    write_book_files(Path::new(&package), Path::new(&out_dir));
}

/// Writes `lab_files.rs`: `(id, its TOML, its JSON)` for every lab file in `labs/`, sorted,
/// so the binary embeds each lab the folder holds with no list kept by hand
/// (`content::EMBEDDED_LABS` puts them in `LabId::ALL`'s order, and a `LabId` without its
/// file stops the build there).
fn write_lab_files(package: &Path, out_dir: &Path, names: &[String]) {
    let mut table =
        String::from("/// Every lab file of `labs/` (its id, its TOML, the same as JSON), written by build.rs.\n");
    table.push_str("pub const LAB_FILES: &[(&str, &str, &str)] = &[\n");
    for name in names {
        let toml = package.join("labs").join(format!("{name}.toml"));
        let json = out_dir.join(format!("{name}.json"));
        table.push_str(&format!(
            "    ({name:?}, include_str!({:?}), include_str!({:?})),\n",
            toml.display().to_string(),
            json.display().to_string()
        ));
    }
    table.push_str("];\n");
    let target = out_dir.join("lab_files.rs");
    std::fs::write(&target, table).unwrap_or_else(|err| panic!("cannot write {}: {err}", target.display()));
}

/// Writes `book_files.rs`: `(path under book/src, its text)` for every Markdown file there
/// but the summary, sorted, so the app embeds exactly the book the mdBook builds.
fn write_book_files(package: &Path, out_dir: &Path) {
    let book = package.join("book/src");
    println!("cargo::rerun-if-changed=book/src");
    let mut files = Vec::new();
    let mut folders = vec![book.clone()];
    while let Some(folder) = folders.pop() {
        println!("cargo::rerun-if-changed={}", folder.display());
        let entries =
            std::fs::read_dir(&folder).unwrap_or_else(|err| panic!("cannot read {}: {err}", folder.display()));
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                folders.push(path);
            } else if path.extension().is_some_and(|e| e == "md") && path.file_name().is_some_and(|n| n != "SUMMARY.md")
            {
                let name = path
                    .strip_prefix(&book)
                    .expect("under book/src")
                    .to_string_lossy()
                    .replace('\\', "/");
                files.push((name, path));
            }
        }
    }
    files.sort();
    let mut table =
        String::from("/// Every chapter file of `book/src/` (its path there, its text), written by build.rs.\n");
    table.push_str("pub const BOOK_FILES: &[(&str, &str)] = &[\n");
    for (name, path) in &files {
        println!("cargo::rerun-if-changed={}", path.display());
        table.push_str(&format!(
            "    ({name:?}, include_str!({:?})),\n",
            path.display().to_string()
        ));
    }
    table.push_str("];\n");
    let target = out_dir.join("book_files.rs");
    std::fs::write(&target, table).unwrap_or_else(|err| panic!("cannot write {}: {err}", target.display()));
}
