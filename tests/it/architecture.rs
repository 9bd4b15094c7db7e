//! The layers stay apart, checked over the source text:
//!
//! - the engine stays pure: no file under src/engine/ names an async runtime, an HTTP
//!   library or a terminal library, so the simulations can never wait on a clock or a socket;
//! - the live labs name neither the terminal app nor the command line;
//! - the terminal app names neither the subcommands nor clap's argument structs;
//! - no two modules of the crate depend on each other in a loop. A module depends on another
//!   when its file names a `crate::` path into it (in a `use` line or inline) or `use`s a
//!   child module by its relative name; a `mod` declaration alone is no dependency;
//! - `build.rs` embeds every file of `labs/`, and those files are the labs of `LabId::ALL`.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

use resilience_lab::content::LabId;

const FORBIDDEN: [&str; 4] = ["tokio", "hyper", "ratatui", "crossterm"];

fn rust_files(dir: &Path, found: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).expect("the source folder exists") {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            rust_files(&path, found);
        } else if path.extension().is_some_and(|ext| ext == "rs") {
            found.push(path);
        }
    }
}

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

fn files_under(folder: &str) -> Vec<PathBuf> {
    let mut files = Vec::new();
    rust_files(&src().join(folder), &mut files);
    files
}

/// The source without comments: doc links may name any module.
fn code_of(file: &Path) -> String {
    let text = fs::read_to_string(file).expect("readable source");
    text.lines()
        .map(|line| match line.find("//") {
            Some(at) => &line[..at],
            None => line,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn engine_names_no_runtime_network_or_terminal_crate() {
    let files = files_under("engine");
    assert!(files.len() >= 6, "expected the engine modules, found {files:?}");
    for file in files {
        let text = fs::read_to_string(&file).expect("readable source");
        for name in FORBIDDEN {
            assert!(!text.contains(name), "{} names {name}", file.display());
        }
    }
}

#[test]
fn live_names_neither_the_terminal_app_nor_the_command_line() {
    let files = files_under("live");
    assert!(files.len() >= 10, "expected the live modules, found {files:?}");
    for file in files {
        let text = fs::read_to_string(&file).expect("readable source");
        for name in ["ratatui", "crossterm", "crate::tui", "crate::cli", "clap"] {
            assert!(!text.contains(name), "{} names {name}", file.display());
        }
    }
}

#[test]
fn tui_names_neither_the_subcommands_nor_clap_argument_structs() {
    let files = files_under("tui");
    assert!(files.len() >= 20, "expected the tui modules, found {files:?}");
    for file in files {
        let code = code_of(&file);
        assert!(
            !code.contains("crate::commands"),
            "{} names crate::commands",
            file.display()
        );
        assert!(!code.contains("clap"), "{} names clap", file.display());
        let words = code.split(|c: char| !(c.is_alphanumeric() || c == '_'));
        for word in words {
            assert!(
                !(word.ends_with("Args") && word.len() > 4 && word.starts_with(char::is_uppercase)),
                "{} names the clap argument struct {word}",
                file.display()
            );
        }
    }
}

/// Every module of the crate by its path (`crate::tui::app`), with its file.
fn modules() -> BTreeMap<String, PathBuf> {
    let root = src();
    let mut files = Vec::new();
    rust_files(&root, &mut files);
    files
        .into_iter()
        .filter_map(|file| {
            let relative = file.strip_prefix(&root).ok()?.with_extension("");
            let mut parts: Vec<String> = relative.iter().map(|p| p.to_string_lossy().into_owned()).collect();
            if parts.last().is_some_and(|last| last == "mod") {
                parts.pop();
            }
            if parts == ["main"] {
                return None;
            }
            if parts == ["lib"] {
                parts.clear();
            }
            let path = std::iter::once("crate".to_string())
                .chain(parts)
                .collect::<Vec<_>>()
                .join("::");
            Some((path, file))
        })
        .collect()
}

/// Every path a `use` tree names, braces expanded: `a::{b, c::{d}}` is `a::b`, `a::c::d`.
fn expand(tree: &str) -> Vec<String> {
    let tree = tree.trim();
    let Some(open) = tree.find('{') else {
        let path = tree.split(" as ").next().unwrap_or(tree).trim();
        return vec![path.trim_end_matches("::self").to_string()];
    };
    let prefix = &tree[..open];
    let inner = &tree[open + 1..tree.rfind('}').unwrap_or(tree.len())];
    let mut parts = Vec::new();
    let (mut depth, mut start) = (0, 0);
    for (at, c) in inner.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(&inner[start..at]);
                start = at + 1;
            }
            _ => {}
        }
    }
    parts.push(&inner[start..]);
    parts
        .into_iter()
        .filter(|part| !part.trim().is_empty())
        .flat_map(|part| {
            let part = part.trim();
            if part == "self" {
                vec![prefix.trim_end_matches("::").to_string()]
            } else {
                expand(&format!("{prefix}{part}"))
            }
        })
        .collect()
}

/// The paths a file names: its `use` trees (relative child paths resolved) and inline
/// `crate::` paths.
fn named_paths(module: &str, code: &str, known: &BTreeMap<String, PathBuf>) -> Vec<String> {
    let mut paths = Vec::new();
    let mut rest = code;
    while let Some(at) = rest.find("use ") {
        let before = rest[..at].chars().last();
        rest = &rest[at + 4..];
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
            continue;
        }
        let Some(end) = rest.find(';') else { break };
        for path in expand(&rest[..end]) {
            let first = path.split("::").next().unwrap_or_default();
            let child = format!("{module}::{first}");
            if first == "crate" {
                paths.push(path);
            } else if known.contains_key(&child) {
                paths.push(format!("{module}::{path}"));
            }
        }
    }
    let mut rest = code;
    while let Some(at) = rest.find("crate::") {
        let tail = &rest[at..];
        let end = tail
            .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
            .unwrap_or(tail.len());
        paths.push(tail[..end].trim_end_matches(':').to_string());
        rest = &tail[7..];
    }
    paths
}

/// The module a path lands in: its longest prefix that is a module.
fn owner<'a>(path: &str, known: &'a BTreeMap<String, PathBuf>) -> Option<&'a str> {
    let parts: Vec<&str> = path.split("::").collect();
    (1..=parts.len()).rev().find_map(|len| {
        let prefix = parts[..len].join("::");
        known.get_key_value(&prefix).map(|(key, _)| key.as_str())
    })
}

#[test]
fn no_two_modules_import_each_other_in_a_loop() {
    let known = modules();
    assert!(known.len() >= 60, "expected the crate's modules, found {}", known.len());
    let mut edges: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
    for (module, file) in &known {
        let code = code_of(file);
        for path in named_paths(module, &code, &known) {
            if let Some(target) = owner(&path, &known)
                && target != module
                && target != "crate"
            {
                edges.entry(module.as_str()).or_default().insert(target);
            }
        }
    }
    // A depth-first walk; a module met again on the current path closes a loop.
    fn walk<'a>(
        at: &'a str,
        edges: &BTreeMap<&'a str, BTreeSet<&'a str>>,
        path: &mut Vec<&'a str>,
        done: &mut BTreeSet<&'a str>,
    ) -> Option<Vec<&'a str>> {
        if let Some(start) = path.iter().position(|m| *m == at) {
            let mut cycle = path[start..].to_vec();
            cycle.push(at);
            return Some(cycle);
        }
        if !done.insert(at) {
            return None;
        }
        path.push(at);
        for next in edges.get(at).into_iter().flatten() {
            if let Some(cycle) = walk(next, edges, path, done) {
                return Some(cycle);
            }
        }
        path.pop();
        None
    }
    let mut done = BTreeSet::new();
    for module in known.keys() {
        if let Some(cycle) = walk(module, &edges, &mut Vec::new(), &mut done) {
            panic!("modules import each other in a loop: {}", cycle.join(" -> "));
        }
    }
    // The walk sees the edges it must: the app routes to the lab screens.
    assert!(edges["crate::tui::app"].contains("crate::tui::screens::lab"));
}

#[test]
fn use_trees_expand_to_every_path() {
    assert_eq!(
        expand("crate::a::{b, c::{d, e as f}, self}"),
        vec!["crate::a::b", "crate::a::c::d", "crate::a::c::e", "crate::a"]
    );
}

#[test]
fn build_rs_embeds_the_labs_folder_which_holds_the_labs_of_lab_id_all() {
    let package = Path::new(env!("CARGO_MANIFEST_DIR"));
    let build = code_of(&package.join("build.rs"));
    assert!(
        build.contains("read_dir(") && !build.contains("\"health\""),
        "build.rs reads the labs/ folder, not a list of its own"
    );
    let mut in_folder: Vec<String> = fs::read_dir(package.join("labs"))
        .expect("the labs folder")
        .filter_map(|entry| {
            let path = entry.ok()?.path();
            if path.extension()? != "toml" {
                return None;
            }
            path.file_stem()?.to_str().map(String::from)
        })
        .collect();
    in_folder.sort();
    let mut labs: Vec<String> = LabId::ALL.into_iter().map(|lab| lab.name().to_string()).collect();
    labs.sort();
    assert_eq!(in_folder, labs, "labs/*.toml and LabId::ALL name the same labs");
}
