//! Child processes as `/proc` shows them, for the tests that promise no child outlives its
//! parent: a process's children, and whether one still runs.

// Each test file that shares this module uses part of it.
#![allow(dead_code)]

/// Which of a parent's children [`children_of`] lists.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Which {
    /// Every child, zombies too: a child its parent has not reaped is still its child.
    Any,
    /// Only the children that still run (not zombies, not dead).
    Running,
}

/// The state letter and the parent pid of `pid`, from `/proc/PID/stat`; None once it is gone.
fn state_and_parent(pid: u32) -> Option<(char, u32)> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The command name in parentheses may hold spaces and ")": the fields start after the last
    // ")", state first, then the parent pid.
    let mut fields = stat.rsplit_once(')')?.1.split_whitespace();
    let state = fields.next()?.chars().next()?;
    let parent = fields.next()?.parse().ok()?;
    Some((state, parent))
}

fn is_running(state: char) -> bool {
    state != 'Z' && state != 'X'
}

/// The pids whose parent is `parent`, all of them or only the running ones.
pub fn children_of(parent: u32, which: Which) -> Vec<u32> {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    entries
        .filter_map(|entry| entry.ok()?.file_name().to_str()?.parse::<u32>().ok())
        .filter(|&pid| {
            state_and_parent(pid)
                .is_some_and(|(state, ppid)| ppid == parent && (which == Which::Any || is_running(state)))
        })
        .collect()
}

/// Running means present and not a zombie (a reparented zombie may wait for a reaper).
pub fn running(pid: u32) -> bool {
    state_and_parent(pid).is_some_and(|(state, _)| is_running(state))
}
