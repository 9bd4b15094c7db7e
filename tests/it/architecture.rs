//! The layers stay apart, checked over the source text:
//!
//! - the engine stays pure: no file under src/engine/ names an async runtime, an HTTP
//!   library or a terminal library, so the simulations can never wait on a clock or a socket;
//! - the live labs name neither the terminal app nor the command line;
//! - the terminal app names neither the subcommands nor the command line's types, and the
//!   subcommands name no part of the terminal app;
//! - the lab screen's frame (`tui/frame/`) names no lab: no `LabId::` variant, no lab's
//!   module or type (outside its tests), so what differs between labs is a page's;
//! - a subcommand keeps no parameter bound (`const MAX_…`, `LIVE_MAX_…`) and no resolution
//!   (a named value read, a lab file's default, a bound held) of its own: one path per lab,
//!   for flags, sliders and checks; the few that bound something else are listed, with why;
//! - the printer (`report`) names no live module: the results of live runs it prints live
//!   beside the engine's;
//! - no two modules of the crate depend on each other in a loop, however long. A module
//!   depends on another when its file names a path into it: `crate::`, `self::` or `super::`
//!   (in a `use` tree, braces expanded, or inline), or a child module by its relative name;
//!   `super::` inside an inline module is the file's own module; a `#[cfg(test)]` module's
//!   paths are the test's, not the module's; a `mod` declaration alone is no dependency;
//! - each type name (struct, enum, union, trait, type alias) is defined once in `src/`,
//!   test modules aside, so a name in a message or a grep means one thing;
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

/// The source without comments and with string and character literals emptied: doc links
/// and messages may name any module, and a `'{'` must not throw the brace count off.
fn code_of(file: &Path) -> String {
    strip(&fs::read_to_string(file).expect("readable source"))
}

fn strip(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    while at < chars.len() {
        let c = chars[at];
        let next = chars.get(at + 1).copied();
        if c == '/' && next == Some('/') {
            while at < chars.len() && chars[at] != '\n' {
                at += 1;
            }
        } else if c == '/' && next == Some('*') {
            let mut depth = 0;
            while at < chars.len() {
                if chars[at] == '/' && chars.get(at + 1) == Some(&'*') {
                    depth += 1;
                    at += 2;
                } else if chars[at] == '*' && chars.get(at + 1) == Some(&'/') {
                    depth -= 1;
                    at += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    at += 1;
                }
            }
        } else if c == 'r'
            && (next == Some('"') || next == Some('#'))
            && !chars[..at].last().is_some_and(|p| p.is_alphanumeric() || *p == '_')
        {
            // A raw string: r"..." or r#"..."#, closed by a quote and as many hashes.
            let mut hashes = 0;
            let mut look = at + 1;
            while chars.get(look) == Some(&'#') {
                hashes += 1;
                look += 1;
            }
            if chars.get(look) != Some(&'"') {
                out.push(c);
                at += 1;
                continue;
            }
            at = look + 1;
            while at < chars.len() {
                if chars[at] == '"' && (0..hashes).all(|h| chars.get(at + 1 + h) == Some(&'#')) {
                    at += 1 + hashes;
                    break;
                }
                at += 1;
            }
            out.push_str("\"\"");
        } else if c == '"' {
            at += 1;
            while at < chars.len() && chars[at] != '"' {
                at += if chars[at] == '\\' { 2 } else { 1 };
            }
            at += 1;
            out.push_str("\"\"");
        } else if c == '\'' && (next == Some('\\') || chars.get(at + 2) == Some(&'\'')) {
            // A character literal (a lifetime has no closing quote two places on).
            at += 1;
            while at < chars.len() && chars[at] != '\'' {
                at += if chars[at] == '\\' { 2 } else { 1 };
            }
            at += 1;
            out.push_str("' '");
        } else {
            out.push(c);
            at += 1;
        }
    }
    out
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
        // Its settings arrive as plain values (`tui::AppSettings`, `ThemeName`), so no type
        // of the command line's reaches it.
        assert!(!code.contains("crate::cli"), "{} names crate::cli", file.display());
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

/// The words a lab's name is spelt with in the code: each lab's id (its `LabId` variant, its
/// lab file) and the name of each folder under `tui/labs/` (a lab's pages, Lab 1's `fleet`
/// among them), so a new lab or page is in the list without an edit here.
fn lab_words() -> Vec<String> {
    let mut words: Vec<String> = LabId::ALL.iter().map(|lab| lab.name().to_string()).collect();
    let pages = std::fs::read_dir(src().join("tui/labs")).expect("src/tui/labs");
    for entry in pages.flatten().filter(|entry| entry.path().is_dir()) {
        words.push(entry.file_name().to_string_lossy().into_owned());
    }
    words.sort();
    words.dedup();
    words
}

/// The names in `code` (comments and strings already out, see [`strip`]) outside its
/// `#[cfg(test)]` modules that say which lab: a `LabId::` path, or an identifier one of
/// whose words (its `snake_case` or `CamelCase` parts) is one of [`lab_words`].
fn lab_names(code: &str) -> Vec<String> {
    let lab_words = lab_words();
    let tests = inline_modules(code);
    let in_test = |at: usize| {
        tests
            .iter()
            .any(|block| block.test_only && block.open < at && at < block.close)
    };
    let word = |c: char| c.is_alphanumeric() || c == '_';
    let mut found = Vec::new();
    let starts = code
        .char_indices()
        .filter(|&(at, c)| word(c) && !code[..at].ends_with(word))
        .map(|(at, _)| at);
    for start in starts {
        let token = code[start..].split(|c: char| !word(c)).next().unwrap_or_default();
        if in_test(start) {
            continue;
        }
        if token == "LabId" && code[start + token.len()..].starts_with("::") {
            found.push("LabId::".to_string());
            continue;
        }
        // `LiveHealth` is `live`, `health`; `FLEET_MAX` is `fleet`, `max`.
        let mut words = Vec::new();
        for part in token.split('_') {
            let mut current = String::new();
            for (index, c) in part.char_indices() {
                let after_lower = part[..index].chars().last().is_some_and(char::is_lowercase);
                if c.is_uppercase() && after_lower {
                    words.push(std::mem::take(&mut current));
                }
                current.extend(c.to_lowercase());
            }
            words.push(current);
        }
        if words.iter().any(|w| lab_words.contains(w)) {
            found.push(token.to_string());
        }
    }
    found
}

#[test]
fn the_lab_screens_frame_names_no_lab() {
    // What differs between labs is a page's, behind `tui::labs::page::Page`: a frame that
    // named a lab would be one more file a new lab has to touch, and would know a lab's
    // insides (it once held Lab 1's simulation, live part and drawing, and matched on
    // `LabId::Health` for a note and a prompt).
    // The app routes to screens and knows no lab's insides either.
    let files = files_under("tui/frame");
    assert!(files.len() >= 8, "expected the frame's modules, found {files:?}");
    assert!(
        lab_words().len() >= 6,
        "every lab's id and page folder: {:?}",
        lab_words()
    );
    for file in files.into_iter().chain([src().join("tui/app.rs")]) {
        let named = lab_names(&code_of(&file));
        assert!(named.is_empty(), "{} names a lab: {named:?}", file.display());
    }
}

/// The `LabId` variants that `code` (stripped, see [`strip`]) tells apart outside its
/// `#[cfg(test)]` modules: in a pattern (an arm `LabId::Retry =>`, an or-pattern, a tuple
/// `(LabId::Retry, _) =>`, `matches!`, `if let`) or a comparison (`== LabId::Retry`). A
/// lab's own file may still name its lab as a value: its registry row (`lab: LabId::Retry`)
/// or an argument (`content.lab(LabId::Retry)`).
fn lab_match_arms(code: &str) -> Vec<String> {
    let tests = inline_modules(code);
    let in_test = |at: usize| {
        tests
            .iter()
            .any(|block| block.test_only && block.open < at && at < block.close)
    };
    let mut arms = Vec::new();
    for (at, _) in code.match_indices("LabId::") {
        if in_test(at) {
            continue;
        }
        let rest = &code[at + "LabId::".len()..];
        let variant: String = rest.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
        let after_line = rest[variant.len()..].split('\n').next().unwrap_or_default();
        let after = after_line.trim_start();
        let before_line = code[..at].rsplit('\n').next().unwrap_or_default();
        let before = before_line.trim_end();
        let told_apart = after.starts_with("=>")
            || (after.starts_with('|') && !after.starts_with("||"))
            || after.starts_with("==")
            || after.starts_with("!=")
            || before.ends_with("==")
            || before.ends_with("!=")
            || before.ends_with("let")
            || before_line.contains("matches!(")
            || after_line.contains("=>");
        if told_apart {
            arms.push(variant);
        }
    }
    arms
}

#[test]
fn only_lab_id_matches_on_a_lab_the_rest_is_registered_by_the_labs_own_files() {
    // A lab's parameter limits, its named numbers and its `run` subcommand are rows its own
    // files add to a registry (`content::lab::PARAMETER_LIMITS`, `learning::metrics::LAB_METRICS`,
    // `cli::RUN_SUBCOMMANDS`), and its pages a row of `tui::labs::LABS`. A `match` on `LabId`
    // or a comparison with a lab elsewhere is one more existing file a new lab has to touch
    // (Lab 5 touched 11), or a rule a new lab silently misses.
    let mut files = Vec::new();
    rust_files(&src(), &mut files);
    let lab_id = src().join("content/lab_id.rs");
    let matching: Vec<String> = files
        .iter()
        .filter(|file| **file != lab_id)
        .filter_map(|file| {
            let arms = lab_match_arms(&code_of(file));
            (!arms.is_empty()).then(|| format!("{}: {arms:?}", file.display()))
        })
        .collect();
    assert!(
        matching.is_empty(),
        "labs told apart outside content/lab_id.rs: {matching:#?}"
    );
    let example = strip(
        "fn f(lab: LabId) -> u8 { match lab { LabId::Health | LabId::Retry => 1, LabId::Budget => 2, _ => 3 } }\n\
         fn g(lab: LabId) -> bool { lab == LabId::Breaker || LabId::Overload != lab }\n\
         fn h(lab: LabId, n: u8) -> bool { matches!(lab, LabId::Fleet) }\n\
         fn i(lab: LabId, n: u8) -> u8 { match (lab, n) {\n    (LabId::Pages, 0) => 1,\n    _ => 0 } }\n\
         fn j(lab: LabId) { if let LabId::Drill = lab {} }\n\
         static ROW: Row = Row { lab: LabId::Own, run };\nfn k(c: &Content) { c.lab(LabId::Own); }\n\
         #[cfg(test)]\nmod tests {\n    fn t(lab: LabId) { match lab { LabId::Overload => {} _ => {} } }\n}\n",
    );
    assert_eq!(
        lab_match_arms(&example),
        [
            "Health", "Retry", "Budget", "Breaker", "Overload", "Fleet", "Pages", "Drill"
        ],
        "arms, or-patterns, comparisons, matches!, tuple patterns and if let; not a registry row, \
         an argument or a test"
    );
}

#[test]
fn a_lab_is_found_by_its_id_or_the_words_of_its_name() {
    let code = strip(
        "use crate::tui::labs::health::view;\nfn f(id: LabId) { if id == LabId::Retry {} }\n\
         struct LiveFleet; const BUDGET_MAX: u8 = 1; fn breakers() {}\n\
         // a comment on Lab 3's breaker\nfn g() { let _ = \"overload\"; HealthyLatency; Msg::NextPage }\n\
         #[cfg(test)]\nmod tests {\n    use crate::content::LabId;\n    fn t() { LabId::Health; }\n}\n",
    );
    assert_eq!(
        lab_names(&code),
        vec!["health", "LabId::", "Retry", "LiveFleet", "BUDGET_MAX"],
        "an id and its variant, a module, a type's and a constant's word; not a comment, a string, a \
         longer word (`breakers`, `HealthyLatency`) or a test"
    );
}

#[test]
fn commands_name_no_helper_of_the_terminal_app() {
    // A subcommand that borrowed a `tui::` helper (text wrapping was one) would tie the
    // headless half to the app's modules; what both need lives where both reach.
    let files = files_under("commands");
    assert!(files.len() >= 10, "expected the subcommands, found {files:?}");
    for file in files {
        let code = code_of(&file);
        assert!(!code.contains("crate::tui"), "{} names crate::tui", file.display());
    }
}

/// The constants of `code` whose names say they bound something: a word `MAX` or `MIN`
/// among the name's parts (`MAX_ARRIVALS_PER_RUN`, `LIVE_MIN_SERVICE_MS`).
fn bound_consts(code: &str) -> Vec<String> {
    code.match_indices("const ")
        .filter(|(at, _)| *at == 0 || !code[..*at].ends_with(|c: char| c.is_alphanumeric() || c == '_'))
        .map(|(at, _)| {
            code[at + "const ".len()..]
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect::<String>()
        })
        .filter(|name| name.split('_').any(|part| part == "MAX" || part == "MIN"))
        .collect()
}

/// Whether `code` has `token`, a name's start being a whole name's (`Bound::`, not
/// `AtBound::`; `.value(` after anything).
fn names(code: &str, token: &str) -> bool {
    let word = |c: char| c.is_alphanumeric() || c == '_';
    let starts_a_name = token.starts_with(word);
    code.match_indices(token)
        .any(|(at, _)| !starts_a_name || !code[..at].ends_with(word))
}

/// What resolving a parameter looks like in source: reading a named value, taking a lab
/// file's default, holding a value to a bound. `content::params::<lab>` does it, once.
const RESOLUTION: [&str; 7] = [
    ".value(",
    "default_of(",
    "layered_defaults(",
    "Bound::",
    ".hold(",
    ".at_most(",
    ".at_least(",
];

/// The subcommands that may bound or read values of their own, each with why: what they
/// hold to a bound is not a lab's parameter.
#[rustfmt::skip]
const OWN_RULES_ALLOWED: [(&str, &str); 2] = [
    ("policy.rs", "`policy check` bounds the fields of a register file, which is input, not a lab's parameters"),
    ("class.rs",  "`class host` bounds the bins of the spread it prints, a drawing limit, not a lab's parameter"),
];

/// Where `code` (one subcommand's file) bounds or resolves a value itself: its `MAX`/`MIN`
/// constants and its resolution tokens ([`RESOLUTION`]).
fn own_parameter_rules(code: &str) -> Vec<String> {
    let consts = bound_consts(code).into_iter().map(|name| format!("const {name}"));
    let tokens = RESOLUTION
        .iter()
        .filter(|token| names(code, token))
        .map(|token| token.to_string());
    consts.chain(tokens).collect()
}

#[test]
fn commands_keep_no_parameter_bound_or_resolution_of_their_own() {
    // Issue #22: a rule is one bound the command line refuses against and the slider clamps
    // to. A bound or a fallback written in a subcommand is a second path the app never takes.
    // Every subcommand is held to it, however it names `content::params` (a `use` tree hides
    // the path), but those of `OWN_RULES_ALLOWED`.
    let files = files_under("commands");
    assert!(files.len() >= 10, "expected the subcommands, found {files:?}");
    let allowed = |file: &Path| {
        OWN_RULES_ALLOWED
            .iter()
            .any(|(name, _)| file.file_name().is_some_and(|own| own == *name))
    };
    for (name, _) in OWN_RULES_ALLOWED {
        let file = files
            .iter()
            .find(|file| file.file_name().is_some_and(|own| own == name));
        let file = file.unwrap_or_else(|| panic!("{name} is allowed but is no subcommand's file"));
        assert!(
            !own_parameter_rules(&code_of(file)).is_empty(),
            "{name} keeps no rule of its own any more: take it off the list"
        );
    }
    let found: Vec<String> = files
        .iter()
        .filter(|file| !allowed(file))
        .flat_map(|file| {
            own_parameter_rules(&code_of(file))
                .into_iter()
                .map(move |rule| format!("{}: {rule}", file.display()))
        })
        .collect();
    assert!(
        found.is_empty(),
        "move these into content/params/<lab>.rs:\n{}",
        found.join("\n")
    );
}

#[test]
fn a_subcommand_naming_params_through_a_use_tree_is_still_checked() {
    // The file the earlier filter let through: `params` reached by a `use` tree, so the text
    // never reads `content::params`, and a fallback of its own.
    let code = strip(
        "use crate::content::{params, Content};\n\
         fn run(args: &Args) -> u64 { args.value(\"seed\").map_or(42, |s| s as u64) }\n\
         const LIVE_MAX_WORKERS: u32 = 256;",
    );
    assert!(!code.contains("content::params"), "the case the filter missed");
    assert_eq!(own_parameter_rules(&code), ["const LIVE_MAX_WORKERS", ".value("]);
    assert!(own_parameter_rules(&strip("params::overload::apply(base, args, AtBound::Refuse)")).is_empty());
}

#[test]
fn report_reads_the_results_of_live_runs_from_beside_the_engine() {
    // A printer that names `live::` pulls the servers into every headless report and lets
    // a live module's change break the text; what it prints is plain data.
    let mut files = files_under("report");
    files.push(src().join("report.rs"));
    let mut found = Vec::new();
    for file in &files {
        let code = code_of(file);
        for (at, _) in code.match_indices("crate::live") {
            let path: String = code[at..]
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == ':')
                .collect();
            found.push(format!("{}: {path}", file.display()));
        }
    }
    assert!(found.is_empty(), "the printer names live types:\n{}", found.join("\n"));
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

/// An inline `mod name { ... }` block of a file: where it opens and closes, and whether
/// `#[cfg(test)]` stands before it (test code may define helper types of any name).
struct InlineModule {
    name: String,
    open: usize,
    close: usize,
    test_only: bool,
}

/// The inline modules of a file, outermost first among those that share a position.
fn inline_modules(code: &str) -> Vec<InlineModule> {
    let bytes = code.as_bytes();
    let mut found = Vec::new();
    let mut open: Vec<(usize, usize)> = Vec::new(); // (index into found, depth it opened at)
    let mut depth = 0usize;
    for (at, c) in code.char_indices() {
        match c {
            '{' => {
                let before = code[..at].trim_end();
                let word_start = before
                    .rfind(|c: char| !(c.is_alphanumeric() || c == '_'))
                    .map_or(0, |i| i + 1);
                let name = &before[word_start..];
                let head = before[..word_start].trim_end();
                if !name.is_empty() && (head.ends_with(" mod") || head == "mod" || head.ends_with("\nmod")) {
                    let attrs = head[..head.len() - 3].trim_end();
                    let attrs = attrs.strip_suffix("pub(crate)").unwrap_or(attrs);
                    let attrs = attrs.strip_suffix("pub").unwrap_or(attrs).trim_end();
                    found.push(InlineModule {
                        name: name.to_string(),
                        open: at,
                        close: bytes.len(),
                        test_only: attrs.ends_with("#[cfg(test)]"),
                    });
                    open.push((found.len() - 1, depth));
                }
                depth += 1;
            }
            '}' => {
                depth = depth.saturating_sub(1);
                if open.last().is_some_and(|(_, opened)| *opened == depth) {
                    let (index, _) = open.pop().expect("just seen");
                    found[index].close = at;
                }
            }
            _ => {}
        }
    }
    found
}

/// The module the code at `at` sits in: the file's module and its inline modules around it.
fn module_at(module: &str, inline: &[InlineModule], at: usize) -> String {
    let mut path = module.to_string();
    for block in inline.iter().filter(|b| b.open < at && at < b.close) {
        path = format!("{path}::{}", block.name);
    }
    path
}

/// A path as the file wrote it, made absolute from the module it is written in: leading
/// `self::` and `super::` resolved, a first segment that is a child module joined on.
fn absolute(path: &str, at_module: &str, known: &BTreeMap<String, PathBuf>) -> Option<String> {
    let mut base: Vec<&str> = at_module.split("::").collect();
    let mut rest: Vec<&str> = path.split("::").collect();
    match rest.first().copied() {
        Some("crate") => return Some(path.to_string()),
        Some("self") => {
            rest.remove(0);
        }
        Some("super") => {
            while rest.first() == Some(&"super") {
                rest.remove(0);
                base.pop();
            }
            if base.is_empty() {
                return None;
            }
        }
        Some(first) => {
            // `use child::Item` names a child module by its relative name; anything else
            // (`std::`, an external crate, a local item) is no module of ours.
            let child = format!("{at_module}::{first}");
            let file_child = known
                .keys()
                .any(|k| *k == child || k.starts_with(&format!("{child}::")));
            if !file_child {
                return None;
            }
        }
        None => return None,
    }
    Some(base.into_iter().chain(rest).collect::<Vec<_>>().join("::"))
}

/// The paths a file names: its `use` trees (relative, `self::` and `super::` paths
/// resolved) and inline `crate::`, `self::` and `super::` paths.
fn named_paths(module: &str, code: &str, known: &BTreeMap<String, PathBuf>) -> Vec<String> {
    let inline = inline_modules(code);
    // A unit test may drive its module through the whole app (`App` opening a lab to draw
    // its lesson): that is the test's dependency, not the shipped module's.
    let in_test = |at: usize| {
        inline
            .iter()
            .any(|block| block.test_only && block.open < at && at < block.close)
    };
    let word_before = |at: usize| {
        code[..at]
            .chars()
            .last()
            .is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':')
    };
    let mut paths = Vec::new();
    let mut from = 0;
    while let Some(found) = code[from..].find("use ") {
        let at = from + found;
        from = at + 4;
        if word_before(at) || in_test(at) {
            continue;
        }
        let Some(end) = code[from..].find(';') else { break };
        let here = module_at(module, &inline, at);
        for path in expand(&code[from..from + end]) {
            paths.extend(absolute(&path, &here, known));
        }
    }
    // Inline paths: `crate::`, `self::` and `super::` ones, and those that start at a child
    // module by its relative name (`view::render(..)` in a folder's `mod.rs`), which
    // [`absolute`] keeps only when the first segment is a child module of ours.
    let mut from = 0;
    while let Some(found) = code[from..].find("::") {
        let colons = from + found;
        from = colons + 2;
        let at = code[..colons]
            .rfind(|c: char| !(c.is_alphanumeric() || c == '_'))
            .map_or(0, |i| i + 1);
        if at == colons || word_before(at) || in_test(at) {
            continue;
        }
        let tail = &code[at..];
        let end = tail
            .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
            .unwrap_or(tail.len());
        let path = tail[..end].trim_end_matches(':');
        from = at + end.max(colons + 2 - at);
        paths.extend(absolute(path, &module_at(module, &inline, at), known));
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
    // A depth-first walk; a module met again on the current path closes a loop. Every
    // loop met is kept, so one run names them all.
    fn walk<'a>(
        at: &'a str,
        edges: &BTreeMap<&'a str, BTreeSet<&'a str>>,
        path: &mut Vec<&'a str>,
        done: &mut BTreeSet<&'a str>,
        cycles: &mut Vec<Vec<&'a str>>,
    ) {
        if let Some(start) = path.iter().position(|m| *m == at) {
            let mut cycle = path[start..].to_vec();
            cycle.push(at);
            cycles.push(cycle);
            return;
        }
        if !done.insert(at) {
            return;
        }
        path.push(at);
        for next in edges.get(at).into_iter().flatten() {
            walk(next, edges, path, done, cycles);
        }
        path.pop();
    }
    let mut done = BTreeSet::new();
    let mut cycles = Vec::new();
    for module in known.keys() {
        walk(module, &edges, &mut Vec::new(), &mut done, &mut cycles);
    }
    let shown: Vec<String> = cycles.iter().map(|cycle| cycle.join(" -> ")).collect();
    assert!(
        shown.is_empty(),
        "modules import each other in a loop:\n{}",
        shown.join("\n")
    );
    // The walk sees the edges it must: the app routes to the lab screens.
    assert!(edges["crate::tui::app"].contains("crate::tui::frame"));
}

#[test]
fn relative_paths_resolve_from_the_module_they_are_written_in() {
    let known: BTreeMap<String, PathBuf> = ["crate::a", "crate::a::b", "crate::a::c", "crate::d"]
        .into_iter()
        .map(|m| (m.to_string(), PathBuf::new()))
        .collect();
    let code = strip(
        "use super::c::Item;\nuse self::x::Y;\nfn f() { super::super::d::g(); }\n\
         #[cfg(test)]\nmod tests {\n    use super::*;\n    use {crate::d, std::fmt};\n}\n",
    );
    let paths = named_paths("crate::a::b", &code, &known);
    let owners: BTreeSet<&str> = paths.iter().filter_map(|p| owner(p, &known)).collect();
    // `super::*` inside `mod tests` is the file's own module, no edge to its parent.
    assert_eq!(owners, BTreeSet::from(["crate::a::b", "crate::a::c", "crate::d"]));
    // A child module named inline by its relative name is an edge too (a folder's `mod.rs`
    // calling `view::render(..)`); `std::fmt::Debug` and `Vec::new()` are none of ours.
    let code = strip("fn f() { b::draw(); let v = Vec::new(); std::fmt::write(); c::x(); }\n");
    let paths = named_paths("crate::a", &code, &known);
    let owners: BTreeSet<&str> = paths.iter().filter_map(|p| owner(p, &known)).collect();
    assert_eq!(owners, BTreeSet::from(["crate::a::b", "crate::a::c"]));
    assert_eq!(
        strip("let c = '{'; // {\nlet s = \"}\";"),
        "let c = ' '; \nlet s = \"\";"
    );
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

/// The names of the types a file defines (struct, enum, union, trait, type alias) with
/// their lines, outside `#[cfg(test)]` modules. A `type` counts when it is an alias of
/// the module (`pub`, or at the file's top level), not an associated type in an impl.
fn type_definitions(code: &str) -> Vec<(String, usize)> {
    let tests: Vec<(usize, usize)> = inline_modules(code)
        .into_iter()
        .filter(|block| block.test_only)
        .map(|block| (block.open, block.close))
        .collect();
    let mut found = Vec::new();
    let mut offset = 0;
    for (number, line) in code.lines().enumerate() {
        let at = offset;
        offset += line.len() + 1;
        if tests.iter().any(|(open, close)| *open < at && at < *close) {
            continue;
        }
        let trimmed = line.trim_start();
        let (public, item) = match trimmed.strip_prefix("pub") {
            Some(rest) if rest.starts_with(' ') || rest.starts_with('(') => {
                let rest = rest.trim_start();
                let rest = match rest.strip_prefix('(') {
                    Some(inside) => &inside[inside.find(')').map_or(0, |i| i + 1)..],
                    None => rest,
                };
                (true, rest.trim_start())
            }
            _ => (false, trimmed),
        };
        let top_level = trimmed.len() == line.len();
        for keyword in ["struct ", "enum ", "union ", "trait ", "type "] {
            let Some(rest) = item.strip_prefix(keyword) else {
                continue;
            };
            if keyword == "type " && !(public || top_level) {
                continue;
            }
            let name: String = rest.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
            if !name.is_empty() {
                found.push((name, number + 1));
            }
        }
    }
    found
}

#[test]
fn each_type_name_is_defined_once_in_the_crate() {
    let root = src();
    let mut files = Vec::new();
    rust_files(&root, &mut files);
    let mut places: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for file in &files {
        let shown = file.strip_prefix(&root).unwrap_or(file).display().to_string();
        for (name, line) in type_definitions(&code_of(file)) {
            places.entry(name).or_default().push(format!("{shown}:{line}"));
        }
    }
    assert!(places.contains_key("LabId"), "the scan finds the crate's types");
    let twice: Vec<String> = places
        .iter()
        .filter(|(_, at)| at.len() > 1)
        .map(|(name, at)| format!("{name}: {}", at.join(", ")))
        .collect();
    assert!(
        twice.is_empty(),
        "type names defined more than once (a reader or a grep cannot tell them apart):\n{}",
        twice.join("\n")
    );
}

#[test]
fn type_definitions_skip_test_modules_and_associated_types() {
    let code = strip(
        "pub struct A;\nenum B { X }\npub(crate) trait C {\n    type Out;\n}\n\
         impl C for A {\n    type Out = u8;\n}\ntype D = u8;\n\
         #[cfg(test)]\nmod tests {\n    struct A;\n}\n",
    );
    let names: Vec<String> = type_definitions(&code).into_iter().map(|(n, _)| n).collect();
    assert_eq!(names, ["A", "B", "C", "D"]);
}
