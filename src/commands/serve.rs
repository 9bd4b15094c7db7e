//! `serve health`: the Lab 1 server in the foreground, as the live lab runs it as a child.

use std::io::Write;
use std::process::ExitCode;

use color_eyre::eyre::{Result, WrapErr};
use tokio::net::TcpListener;

use crate::cli::HealthServerArgs;
use crate::commands::run::live_runtime;
use crate::content::params::health_config;
use crate::content::{Content, LabId};
use crate::live::health::lifecycle_out::LifecycleOut;
use crate::live::health::{child as health_child, log_queue, server as health_server};
use crate::live::http;

/// `serve health`: the live server in the foreground until SIGTERM and its ordered shutdown.
/// Its lifecycle lines go to the process's stdout from a thread of their own (not through
/// `out`, whose lock the caller holds: a paused terminal must not hold the exit), one
/// request line per request to stderr.
pub fn serve_health(content: &Content, args: &HealthServerArgs, _out: &mut dyn Write) -> Result<ExitCode> {
    let config = health_config(content.lab(LabId::Health), args);
    let runtime = live_runtime()?;
    let outcome = runtime.block_on(async {
        let listener = bind_port(args.port).await?;
        let log = health_server::RequestLog::start(log_queue::QUEUE_LINES, std::io::stderr())
            .wrap_err("starting the request log's writer")?;
        let mut lines = lifecycle_stdout()?;
        health_server::serve(config, listener, &mut lines, log).await
    })?;
    // Abandoned requests must not hold the exit: the runtime drops them at once.
    runtime.shutdown_background();
    Ok(ExitCode::from(u8::try_from(outcome.exit_code).unwrap_or(1)))
}

/// The lifecycle lines' writer on a duplicate of the stdout descriptor: the caller holds
/// `std::io::stdout()`'s lock for the whole command, so the writer thread may not take it.
pub fn lifecycle_stdout() -> Result<LifecycleOut> {
    use std::os::fd::AsFd;
    let stdout = std::io::stdout()
        .as_fd()
        .try_clone_to_owned()
        .wrap_err("duplicating stdout for the server's lines")?;
    LifecycleOut::start(std::fs::File::from(stdout)).wrap_err("starting the server's line writer")
}

/// Binds `127.0.0.1:port` for a server in the foreground: a port already taken is the user's
/// bad input (one line naming the port and the flag, exit 2), any other failure an error.
pub async fn bind_port(port: u16) -> Result<TcpListener> {
    match http::bind_loopback(port).await {
        Ok(listener) => Ok(listener),
        Err(err) if err.kind() == std::io::ErrorKind::AddrInUse => Err(health_child::port_in_use(port).into()),
        Err(err) => Err(err).wrap_err_with(|| format!("binding 127.0.0.1:{port}")),
    }
}
