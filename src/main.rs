//! The `resilience-lab` binary: parse the command line, open the terminal app or dispatch a
//! headless command, report errors in one line.

use std::process::ExitCode;

use clap::FromArgMatches;
use clap::error::ErrorKind;
use resilience_lab::cli::{Cli, Command};
use resilience_lab::commands;
use resilience_lab::error::UsageError;
use resilience_lab::output::{ReaderMayLeave, error_line};
use resilience_lab::tui::OncallStart;

fn main() -> ExitCode {
    one_malloc_arena();
    no_error_backtraces();
    if let Err(error) = color_eyre::install() {
        error_line(&format!("error: {error}"));
        return ExitCode::FAILURE;
    }
    // The command tree is built once and never freed: dropping its many small allocations
    // was 4% of the instructions of `run breaker --sim` (callgrind: 3.33M, 3.20M without),
    // for memory the process gives back when it exits anyway.
    let mut command = resilience_lab::cli_values::command();
    let parsed = command
        .try_get_matches_from_mut(std::env::args_os())
        .and_then(|matches| Cli::from_arg_matches(&matches));
    std::mem::forget(command);
    let cli = match parsed {
        Ok(cli) => cli,
        Err(error) => return report_parse_error(&error),
    };
    let outcome = if let Some(settings) = game_master(&cli) {
        // `oncall --gm`: a facilitator's screen; it restores the terminal before returning.
        resilience_lab::tui::game_master::run(&settings)
    } else if let Some(start) = app_start(&cli) {
        // No subcommand, or `oncall`: the terminal app. It restores the terminal before returning.
        commands::load_content(cli.content.as_deref())
            .and_then(|content| resilience_lab::tui::run(&app_settings(&cli, start), content))
    } else {
        // `| head -1` may close stdout early: the command still runs to its end and its exit code.
        let mut out = ReaderMayLeave::new(std::io::stdout().lock());
        commands::dispatch(cli, &mut std::io::stdin().lock(), &mut out)
    };
    match outcome {
        Ok(code) => code,
        Err(error) => {
            // One line, never a backtrace: the message says what was wrong.
            let usage = error.downcast_ref::<UsageError>().is_some();
            error_line(&format!("error: {error:#}"));
            if usage { ExitCode::from(2) } else { ExitCode::FAILURE }
        }
    }
}

/// Whether the command line opens the terminal app, and on which screen: `Some(None)` for
/// the home screen, `Some(Some(..))` for the on-call drill.
fn app_start(cli: &Cli) -> Option<Option<OncallStart>> {
    match &cli.command {
        None => Some(None),
        Some(Command::Oncall(args)) if !args.gm => Some(Some(OncallStart {
            seed: args.seed,
            incident: args.incident.clone(),
            live: args.live,
        })),
        Some(_) => None,
    }
}

/// `oncall --gm`'s settings, as the plain values the facilitator's screen takes.
fn game_master(cli: &Cli) -> Option<resilience_lab::tui::game_master::GameMasterSettings> {
    use resilience_lab::cli::ThemeArg;
    use resilience_lab::tui::theme::ThemeName;
    match &cli.command {
        Some(Command::Oncall(args)) if args.gm => Some(resilience_lab::tui::game_master::GameMasterSettings {
            progress: cli.progress.clone(),
            port: args.port,
            token: args.token.clone(),
            theme: match cli.theme {
                ThemeArg::Light => ThemeName::Light,
                ThemeArg::Dark => ThemeName::Dark,
            },
        }),
        _ => None,
    }
}

/// One heap for every thread. glibc gives each thread that allocates its own arena and
/// keeps what is freed in it; the live labs open and close connections on two runtime
/// threads at thousands a second, and the arenas' leftovers were about 6 MB of a 47 MB
/// metastable run (41 MB with one arena, same run, `benches/memory.sh`). Called before any
/// thread starts; the threads here allocate little enough that sharing one lock costs
/// nothing measurable.
fn one_malloc_arena() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only sets an allocator parameter; no other thread runs yet.
    unsafe {
        libc::mallopt(libc::M_ARENA_MAX, 1);
    }
}

/// Errors are printed as one line, never with a backtrace, so capturing one is waste: with
/// RUST_BACKTRACE set, color-eyre captured and resolved a backtrace for every error, a
/// refused flag included (0.3 s and 43 MB reading debug info). Panics still follow
/// RUST_BACKTRACE; a RUST_LIB_BACKTRACE set by the user still wins.
fn no_error_backtraces() {
    if std::env::var_os("RUST_LIB_BACKTRACE").is_none() {
        // SAFETY: called first thing in main, before any other thread exists.
        unsafe { std::env::set_var("RUST_LIB_BACKTRACE", "0") };
    }
}

/// Help and version go out whole; a mistake (`run` with no lab included) goes out as one
/// line, exit code 2.
fn report_parse_error(error: &clap::Error) -> ExitCode {
    match error.kind() {
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => {
            let _ = error.print();
            ExitCode::SUCCESS
        }
        _ => {
            let args: Vec<String> = std::env::args_os()
                .map(|arg| arg.to_string_lossy().into_owned())
                .collect();
            error_line(&resilience_lab::cli_values::one_line(error, &args));
            ExitCode::from(2)
        }
    }
}

/// The command line's settings for the terminal app, as the plain values it takes.
fn app_settings(cli: &Cli, oncall: Option<OncallStart>) -> resilience_lab::tui::AppSettings {
    use resilience_lab::cli::ThemeArg;
    use resilience_lab::tui::theme::ThemeName;
    resilience_lab::tui::AppSettings {
        log: cli.log.clone(),
        // clap takes exactly two values for --join.
        join: cli.join.as_deref().and_then(|given| match given {
            [url, code] => Some((url.clone(), code.clone())),
            _ => None,
        }),
        name: cli.name.clone(),
        theme: match cli.theme {
            ThemeArg::Light => ThemeName::Light,
            ThemeArg::Dark => ThemeName::Dark,
        },
        progress: cli.progress.clone(),
        oncall,
    }
}
