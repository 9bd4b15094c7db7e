//! `class host`, `class join` and `class merge`: a workshop's room from the command line.
//!
//! The host's first line is `room CODE at URL`; then one line per answer taken and per
//! reveal. Its controls are typed on its own standard input (`open CHECK`, `reveal`,
//! `close`, `checks`, `quit`): the room's server has no route for them.

use std::io::{BufRead, Write};
use std::net::SocketAddr;
use std::path::Path;
use std::process::ExitCode;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use color_eyre::eyre::{Result, WrapErr};

use crate::cli::{ClassCommand, ClassHostArgs, ClassJoinArgs};
use crate::commands::load::load_content;
use crate::commands::run::live_runtime;
use crate::error::UsageError;
use crate::live::room_server::{self, Arrival, Sent};
use crate::room::SharedRoom;
use crate::room::session::{RevealRecord, SessionFile};
use crate::room::spread::{MeasuredBand, spread_lines};
use crate::room::state::{Room, unix_ms};
use crate::words::count_of;

/// Times `class join` sends a write the host did not receive, 1 s apart, before it gives up.
const RESEND_TRIES: u32 = 10;

pub fn run(command: &ClassCommand, content_dir: Option<&Path>, out: &mut dyn Write) -> Result<ExitCode> {
    match command {
        ClassCommand::Host(args) => host(args, content_dir, out),
        ClassCommand::Join(args) => join(args, out),
        ClassCommand::Merge { files, out: to } => {
            // The files take hyphen values (every flag with values does, for negative numbers),
            // so an `--out FILE` after them arrives among them.
            let (files, to) = match files.iter().position(|f| f.as_os_str() == "--out") {
                Some(at) if to.is_none() && at + 2 == files.len() => (&files[..at], files.get(at + 1).cloned()),
                _ => (&files[..], to.clone()),
            };
            merge(files, to.as_deref(), out)
        }
    }
}

/// The address to listen at, refused (exit 2) when it is not loopback and `--lan` is absent.
pub fn listen_addr(listen: &str, lan: bool) -> Result<SocketAddr, UsageError> {
    let addr: SocketAddr = listen
        .parse()
        .map_err(|_| UsageError(format!("--listen {listen:?}: an IP and a port, e.g. 127.0.0.1:8080")))?;
    if !addr.ip().is_loopback() && !lan {
        return Err(UsageError(format!(
            "--listen {addr}: not 127.0.0.1; a room on the class's network needs --lan as well"
        )));
    }
    Ok(addr)
}

/// The URL the host prints: the address it is reached at.
fn room_url(addr: SocketAddr) -> String {
    format!("http://{addr}/")
}

fn host(args: &ClassHostArgs, content_dir: Option<&Path>, out: &mut dyn Write) -> Result<ExitCode> {
    let addr = listen_addr(&args.listen, args.lan)?;
    let content = load_content(content_dir)?;
    let mut room = Room::new(&content, args.session.clone()).map_err(UsageError)?;
    if let Some(check) = &args.check {
        room.open(check, unix_ms())
            .map_err(|why| UsageError(format!("--check: {why}")))?;
    }
    let room: SharedRoom = Arc::new(Mutex::new(room));
    let runtime = live_runtime()?;
    let code = runtime.block_on(async {
        let listener = match tokio::net::TcpListener::bind(addr).await {
            Ok(listener) => listener,
            Err(err) if err.kind() == std::io::ErrorKind::AddrInUse => {
                return Err(UsageError(format!("--listen {addr}: the port is in use; pick another or 0")).into());
            }
            Err(err) => return Err(err).wrap_err_with(|| format!("binding {addr}")),
        };
        let (arrivals_tx, mut arrivals) = tokio::sync::mpsc::unbounded_channel();
        let server = room_server::start(room.clone(), listener, Some(arrivals_tx));
        let (code, write_error) = {
            let room = room.lock().map_err(|_| color_eyre::eyre::eyre!("the room's lock"))?;
            (room.code.clone(), room.write_error.clone())
        };
        writeln!(out, "room {code} at {}", room_url(server.addr))?;
        if let Some(error) = write_error {
            writeln!(out, "warning: {error}")?;
        }
        out.flush()?;
        let mut controls = stdin_lines();
        // Standard input's end stops the controls, not the room (Ctrl-C does). Ended is known
        // from `recv` giving None, not from the channel being closed: a script's lines are
        // still queued when its input closes, and every one of them is read first.
        let mut controls_ended = false;
        let mut stop = crate::signals::Stop::register().wrap_err("registering signal handlers")?;
        let exit = loop {
            tokio::select! {
                arrival = arrivals.recv() => {
                    if let Some(Arrival { name, check, counted }) = arrival {
                        writeln!(out, "answer {name} {check} ({counted} counted)")?;
                        out.flush()?;
                    }
                }
                line = controls.recv(), if !controls_ended => {
                    let Some(line) = line else {
                        controls_ended = true;
                        continue;
                    };
                    let mut room = room.lock().map_err(|_| color_eyre::eyre::eyre!("the room's lock"))?;
                    match control(&mut room, line.trim()) {
                        HostCommand::Say(said) => writeln!(out, "{said}")?,
                        HostCommand::Quit => break ExitCode::SUCCESS,
                    }
                    out.flush()?;
                }
                arrived = stop.recv() => break arrived.exit_code(),
            }
        };
        server.stop(Duration::from_secs(1)).await;
        Ok::<_, color_eyre::eyre::Report>(exit)
    })?;
    runtime.shutdown_background();
    Ok(code)
}

/// Lines typed on standard input, read on a thread of their own (a blocking read).
fn stdin_lines() -> tokio::sync::mpsc::UnboundedReceiver<String> {
    let (tx, rx) = tokio::sync::mpsc::unbounded_channel();
    // `main` holds standard input's lock for the commands that read it: a duplicate of the
    // descriptor reads the same input without it.
    let Ok(descriptor) = std::os::fd::AsFd::as_fd(&std::io::stdin()).try_clone_to_owned() else {
        return rx;
    };
    std::thread::spawn(move || {
        for line in std::io::BufReader::new(std::fs::File::from(descriptor)).lines() {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    rx
}

enum HostCommand {
    Say(String),
    Quit,
}

/// Bins of the spread the host prints, at most: a terminal's screenful beside the log.
const HOST_BINS_MAX: usize = 8;

/// One typed control of the host.
fn control(room: &mut Room, line: &str) -> HostCommand {
    let (word, rest) = line.split_once(' ').unwrap_or((line, ""));
    HostCommand::Say(match word {
        "" => return HostCommand::Say(String::new()),
        "open" => match room.open(rest.trim(), unix_ms()) {
            Ok(()) => format!("open {}", rest.trim()),
            Err(why) => why,
        },
        "reveal" => {
            // Read before the reveal: the record keeps the counts, the room the values.
            let unit = room.open_check().and_then(|c| c.check.unit.clone()).unwrap_or_default();
            match room.reveal(unix_ms()) {
                Some(reveal) => {
                    let values: Vec<f64> = room.answers(&reveal.check).into_iter().map(|(_, v)| v).collect();
                    let mut said = vec![reveal_line(&reveal)];
                    said.extend(spread_lines(&values, MeasuredBand::of(&reveal), &unit, HOST_BINS_MAX));
                    said.join("\n")
                }
                None => "no check is open: open CHECK first".to_string(),
            }
        }
        // The facilitator's own look at the spread before revealing: the host's terminal is
        // not the projector, and nothing of it reaches a participant.
        "spread" => match room.open_check() {
            Some(open) => {
                let id = open.check.id.clone();
                let unit = open.check.unit.clone().unwrap_or_default();
                let values: Vec<f64> = room.answers(&id).into_iter().map(|(_, v)| v).collect();
                let mut said = vec![format!("spread {id}: {}", count_of(values.len(), "answer", "answers"))];
                said.extend(spread_lines(&values, None, &unit, HOST_BINS_MAX));
                said.join("\n")
            }
            None => "no check is open: open CHECK first".to_string(),
        },
        "close" => {
            room.close();
            "closed".to_string()
        }
        "checks" => room
            .checks()
            .iter()
            .map(|c| c.check.id.as_str())
            .collect::<Vec<_>>()
            .join(" "),
        "quit" => return HostCommand::Quit,
        other => format!("{other:?}: the host's controls are open CHECK, spread, reveal, close, checks, quit"),
    })
}

/// The line a reveal prints.
pub fn reveal_line(reveal: &RevealRecord) -> String {
    let value = reveal
        .value
        .map_or_else(|| "no value".to_string(), crate::learning::quiz::trim_number);
    let share = (100 * reveal.within).checked_div(reveal.answers).unwrap_or(0);
    format!(
        "reveal {}: measured {value} (right within {}); {} of {} within ({share}%)",
        reveal.check,
        crate::learning::quiz::trim_number(reveal.tolerance),
        reveal.within,
        reveal.answers
    )
}

fn join(args: &ClassJoinArgs, out: &mut dyn Write) -> Result<ExitCode> {
    let addr = room_server::parse_room_url(&args.url).map_err(UsageError)?;
    let mut answers = Vec::new();
    for answer in &args.answer {
        let (check, value) = answer.split_once('=').ok_or_else(|| {
            UsageError(format!(
                "--answer {answer:?}: CHECK=VALUE, e.g. retry-predict-layered=64"
            ))
        })?;
        answers.push((check.trim().to_string(), value.trim().to_string()));
    }
    let runtime = live_runtime()?;
    let mut refused = false;
    for (check, value) in &answers {
        let form = room_server::answer_form(&args.code, &args.name, check, value);
        let mut tries = 0;
        let sent = loop {
            tries += 1;
            match runtime.block_on(room_server::send_form(addr, "/answer", &form)) {
                Sent::Unreachable(why) if tries < RESEND_TRIES => {
                    writeln!(
                        out,
                        "not sent {check}={value}: host unreachable ({why}); resending in 1 s"
                    )?;
                    std::thread::sleep(Duration::from_secs(1));
                }
                sent => break sent,
            }
        };
        match sent {
            Sent::Answered { code: 200, line } => writeln!(out, "sent {check}={value}: {line}")?,
            Sent::Answered { code, line } => {
                refused = true;
                writeln!(out, "refused {check}={value} ({code}): {line}")?;
            }
            Sent::Unreachable(why) => {
                refused = true;
                writeln!(
                    out,
                    "not sent {check}={value}: host unreachable ({why}), gave up after {RESEND_TRIES} tries"
                )?;
            }
        }
    }
    runtime.shutdown_background();
    Ok(if refused { ExitCode::FAILURE } else { ExitCode::SUCCESS })
}

fn merge(files: &[std::path::PathBuf], to: Option<&Path>, out: &mut dyn Write) -> Result<ExitCode> {
    let sessions = files
        .iter()
        .map(|file| match SessionFile::load(file) {
            Ok(session) if !session.code.is_empty() => Ok(session),
            Ok(_) => Err(UsageError(format!("{}: no such session file", file.display()))),
            Err(why) => Err(UsageError(why)),
        })
        .collect::<Result<Vec<_>, _>>()?;
    let merged = SessionFile::merge(&sessions);
    match to {
        Some(path) => {
            merged
                .save(path)
                .wrap_err_with(|| format!("writing {}", path.display()))?;
            writeln!(
                out,
                "merged {} rooms: {} answers, {} reveals into {}",
                sessions.len(),
                merged.answers.len(),
                merged.reveals.len(),
                path.display()
            )?;
        }
        None => writeln!(out, "{}", serde_json::to_string_pretty(&merged)?)?,
    }
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_address_off_loopback_needs_lan() {
        let refused = listen_addr("0.0.0.0:8080", false).unwrap_err().0;
        assert_eq!(
            refused,
            "--listen 0.0.0.0:8080: not 127.0.0.1; a room on the class's network needs --lan as well"
        );
        assert!(listen_addr("0.0.0.0:8080", true).is_ok());
        assert!(listen_addr("127.0.0.1:0", false).is_ok());
        assert!(
            listen_addr("nowhere", false)
                .unwrap_err()
                .0
                .contains("an IP and a port")
        );
    }

    #[test]
    fn the_hosts_controls_open_reveal_and_close() {
        let content = crate::content::Content::load(None).expect("the built-in labs load");
        let mut room = Room::new(&content, None).expect("a room");
        let say = |room: &mut Room, line: &str| match control(room, line) {
            HostCommand::Say(said) => said,
            HostCommand::Quit => "quit".to_string(),
        };
        assert_eq!(say(&mut room, "reveal"), "no check is open: open CHECK first");
        assert!(say(&mut room, "open nope").starts_with("no check \"nope\""));
        assert_eq!(
            say(&mut room, "open retry-predict-layered"),
            "open retry-predict-layered"
        );
        let code = room.code.clone();
        room.answer(&code, "ada", "retry-predict-layered", "64", 0)
            .expect("taken");
        room.answer(&code, "bo", "retry-predict-layered", "12", 0)
            .expect("taken");
        // Before the reveal the host alone sees the spread, with no measured mark.
        let spread = say(&mut room, "spread");
        assert!(
            spread.starts_with("spread retry-predict-layered: 2 answers\n"),
            "{spread}"
        );
        assert!(!spread.contains("measured"), "{spread}");
        let revealed = say(&mut room, "reveal");
        let mut lines = revealed.lines();
        assert_eq!(
            lines.next(),
            Some("reveal retry-predict-layered: measured 64 (right within 0.5); 1 of 2 within (50%)")
        );
        let bins: Vec<&str> = lines.skip(1).collect();
        assert!(
            bins.iter()
                .any(|l| l.trim_start().starts_with("10 to 20  █") && l.ends_with(" 1")),
            "{revealed}"
        );
        assert_eq!(
            bins.iter().filter(|l| l.ends_with(" <- measured")).count(),
            1,
            "{revealed}"
        );
        assert!(bins.iter().any(|l| l.contains(" 1 <- measured")), "{revealed}");
        assert_eq!(say(&mut room, "quit"), "quit");
    }
}
