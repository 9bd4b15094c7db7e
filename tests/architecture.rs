//! The engine stays pure: no file under src/engine/ names an async runtime, an HTTP
//! library or a terminal library, so the simulations can never wait on a clock or a socket.

use std::fs;
use std::path::Path;

const FORBIDDEN: [&str; 4] = ["tokio", "hyper", "ratatui", "crossterm"];

fn rust_files(dir: &Path, found: &mut Vec<std::path::PathBuf>) {
    for entry in fs::read_dir(dir).expect("src/engine exists") {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            rust_files(&path, found);
        } else if path.extension().is_some_and(|ext| ext == "rs") {
            found.push(path);
        }
    }
}

#[test]
fn engine_names_no_runtime_network_or_terminal_crate() {
    let mut files = Vec::new();
    rust_files(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src/engine"), &mut files);
    assert!(files.len() >= 6, "expected the engine modules, found {files:?}");
    for file in files {
        let text = fs::read_to_string(&file).expect("readable source");
        for name in FORBIDDEN {
            assert!(!text.contains(name), "{} names {name}", file.display());
        }
    }
}
