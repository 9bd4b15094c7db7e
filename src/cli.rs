//! The command line: with no subcommand the terminal app, else a headless command.
//!
//! Every numeric flag is checked against the range its lab accepts (the same table
//! `resilience-lab check` holds lab files to), so a bad value gets one line that names
//! the flag, the value and what is allowed.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

mod mode;
mod oncall;
pub mod run_lab;
pub use mode::ModeArgs;
pub use oncall::{LeverScript, OncallArgs, OncallScreenArgs};
pub(crate) use run_lab::run_subcommand;
pub use run_lab::{RUN_SUBCOMMANDS, RunContext, RunLab, RunSubcommand, parsed};

use crate::content::LabId;
use crate::content::lab::required_parameters;
use crate::engine::fault::FaultKind;

#[derive(Debug, Parser)]
#[command(
    name = "resilience-lab",
    version,
    about = "A terminal lab: health checks, retries, circuit breakers and overload, live on 127.0.0.1 and simulated to the digit.",
    long_about = None
)]
pub struct Cli {
    /// A folder whose labs/*.toml replace the built-in lab files (to tune a class's defaults).
    #[arg(long, global = true, value_name = "DIR")]
    pub content: Option<PathBuf>,

    /// The progress file (default: progress.toml in the user's data directory).
    #[arg(long, global = true, value_name = "FILE")]
    pub progress: Option<PathBuf>,

    /// Colours of the terminal app for a light or a dark background (NO_COLOR removes colour).
    #[arg(long, global = true, value_enum, default_value_t = ThemeArg::Dark)]
    pub theme: ThemeArg,

    /// Write the terminal app's diagnostics to FILE (nothing is printed over the screen).
    #[arg(long, global = true, value_name = "FILE")]
    pub log: Option<PathBuf>,

    /// The app joins a workshop's room: every prediction is also sent to it (URL and CODE
    /// as `class host` printed them; give --name too).
    #[arg(long, num_args = 2, value_names = ["URL", "CODE"], value_parser = clap::builder::NonEmptyStringValueParser::new(), requires = "name")]
    pub join: Option<Vec<String>>,

    /// The name the room's projector shows for you (with --join).
    #[arg(long, value_name = "NICK", requires = "join")]
    pub name: Option<String>,

    #[command(subcommand)]
    pub command: Option<Command>,
}

/// The terminal app's colour set, as `--theme` takes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ThemeArg {
    Light,
    Dark,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Run a lab headless and print its report (text, or JSON with --json).
    Run(RunArgs),
    /// Run a lab's server in the foreground on 127.0.0.1 (what `run <lab> --live` starts).
    Serve(ServeArgs),
    /// Validate the lab files (and --content overrides); exit 2 on any problem.
    Check,
    /// List the labs and how to run them; `labs export DIR` writes their files to tune.
    Labs(LabsArgs),
    /// A quiz in the plain terminal (works with screen readers): type a letter or a number.
    Quiz(QuizArgs),
    /// Show saved progress, or erase it with --reset.
    Progress(ProgressArgs),
    /// Check a dependency register (JSON) against the resilience policy, as the Atlas's check_policy.py does.
    Policy(PolicyArgs),
    /// A room for a workshop: host it, join it from a script, merge rooms' session files.
    Class(ClassArgs),
    /// The on-call drill in the terminal app: checkout-api, a hidden incident, the Atlas's
    /// levers, a scored debrief (`run oncall` plays it headless).
    Oncall(OncallScreenArgs),
}

#[derive(Debug, Args)]
pub struct ClassArgs {
    #[command(subcommand)]
    pub command: ClassCommand,
}

#[derive(Debug, Subcommand)]
pub enum ClassCommand {
    /// Host a room: the participants' page and answers; first line `room CODE at URL`.
    /// Controls are typed here: `open CHECK`, `spread`, `reveal`, `close`, `checks`, `quit`.
    Host(ClassHostArgs),
    /// Send answers to a room, as a participant's app does: `--answer CHECK=VALUE`.
    Join(ClassJoinArgs),
    /// Join several rooms' session files into one course's (names get their room's code).
    Merge {
        /// The rooms' session files.
        #[arg(value_name = "FILE", required = true, num_args = 1..)]
        files: Vec<PathBuf>,
        /// Where the merged session goes (standard output without it).
        #[arg(long, value_name = "FILE")]
        out: Option<PathBuf>,
    },
}

#[derive(Debug, Args)]
pub struct ClassHostArgs {
    /// The address to listen at; 127.0.0.1 unless --lan is given too.
    #[arg(long, value_name = "ADDR", default_value = "127.0.0.1:0")]
    pub listen: String,
    /// Allow an address other than 127.0.0.1 (the class's LAN): say so on purpose.
    #[arg(long)]
    pub lan: bool,
    /// The session file: every answer and reveal, written as they arrive; an existing file
    /// is carried on (same code, same answers).
    #[arg(long, value_name = "FILE")]
    pub session: Option<PathBuf>,
    /// Open this check at once (a lab check's id, e.g. retry-predict-layered).
    #[arg(long, value_name = "CHECK")]
    pub check: Option<String>,
}

#[derive(Debug, Args)]
pub struct ClassJoinArgs {
    /// The room's URL, as the host printed it (http://127.0.0.1:PORT).
    #[arg(value_name = "URL")]
    pub url: String,
    /// The room's code.
    #[arg(value_name = "CODE")]
    pub code: String,
    /// The name the projector shows for you.
    #[arg(long, value_name = "NICK")]
    pub name: String,
    /// An answer to send, CHECK=VALUE (repeat for several).
    #[arg(long, value_name = "CHECK=VALUE")]
    pub answer: Vec<String>,
}

#[derive(Debug, Args)]
pub struct LabsArgs {
    #[command(subcommand)]
    pub command: Option<LabsCommand>,
}

#[derive(Debug, Subcommand)]
pub enum LabsCommand {
    /// Write the shipped lab files (DIR/labs/*.toml) and the Atlas's dependency register
    /// (DIR/dependencies.json), to edit and pass back with --content DIR. Overwrites nothing.
    Export {
        #[arg(value_name = "DIR")]
        dir: PathBuf,
    },
}

#[derive(Debug, Args)]
pub struct PolicyArgs {
    #[command(subcommand)]
    pub command: PolicyCommand,
}

#[derive(Debug, Subcommand)]
pub enum PolicyCommand {
    /// Print every policy problem of the register; exit 0 if none, 1 if any, 2 on bad input.
    Check {
        /// The register: a JSON file with inbound_deadline_ms and a list of dependencies.
        #[arg(value_name = "FILE")]
        file: PathBuf,
        /// Print the findings as one JSON document: {"problems": [...], "count": N, "passed": bool}.
        #[arg(long)]
        json: bool,
    },
}

#[derive(Debug, Args)]
pub struct QuizArgs {
    /// Only questions of this lab, by its name.
    // The names come from `LabId::ALL`, so a new lab's questions can be asked for at once
    // (a written-out list here had left Lab 5's nine questions out); clap prints them.
    #[arg(long, value_parser = lab_name())]
    pub lab: Option<LabId>,
    /// Only questions of this topic, e.g. retries, breakers, health, shutdown, overload, interview, self-check.
    #[arg(long)]
    pub topic: Option<String>,
    /// How many questions (1 to 200); a drill asks one.
    #[arg(long, default_value_t = 10, value_parser = question_count, conflicts_with = "drill")]
    pub count: u16,
    /// Seed of the question order; the same seed asks the same quiz again.
    #[arg(long)]
    pub seed: Option<u64>,
    /// Ask the questions due for review first, on a spaced schedule kept in progress: a miss
    /// comes back the same day, a right answer after 1, 3 and 7 days, a learned one after 21.
    #[arg(long, conflicts_with = "drill")]
    pub review: bool,
    /// An interview drill instead: an open design prompt, a time limit, a model answer and a
    /// checklist. `--drill NAME` picks one by its id; `--drill` alone lets the seed pick.
    #[arg(long, value_name = "NAME", num_args = 0..=1, default_missing_value = "", conflicts_with_all = ["lab", "topic"])]
    pub drill: Option<String>,
}

#[derive(Debug, Args)]
pub struct ProgressArgs {
    /// Erase all saved progress (asks first).
    #[arg(long)]
    pub reset: bool,
    /// With --reset: do not ask.
    #[arg(long, requires = "reset")]
    pub yes: bool,
}

#[derive(Debug, Args)]
pub struct RunArgs {
    #[command(subcommand)]
    pub lab: RunLab,
}

#[derive(Debug, Args)]
pub struct ServeArgs {
    #[command(subcommand)]
    pub lab: ServeLab,
}

#[derive(Debug, Subcommand)]
pub enum ServeLab {
    /// Lab 1's health server: /livez, /readyz, /work and an ordered shutdown on SIGTERM.
    Health(Deferred<ServeHealthArgs>),
    /// The fleet lab's shared database: GET /query, made slow or down by POST /admin/...
    Database(Deferred<DatabaseArgs>),
}

/// A subcommand's flags, defined only when that subcommand is the one parsed (clap's
/// `Command::defer`): the command line has about 250 flags, and defining them all was most
/// of clap's work and heap on every start (`run breaker --sim` uses 24 of them). Help and
/// errors are unchanged: clap defines a subcommand's flags before it parses or describes them.
#[derive(Debug, Clone, Default)]
pub struct Deferred<T>(pub T);

impl<T> std::ops::Deref for Deferred<T> {
    type Target = T;

    fn deref(&self) -> &T {
        &self.0
    }
}

impl<T: clap::FromArgMatches> clap::FromArgMatches for Deferred<T> {
    fn from_arg_matches(matches: &clap::ArgMatches) -> Result<Self, clap::Error> {
        T::from_arg_matches(matches).map(Deferred)
    }

    fn from_arg_matches_mut(matches: &mut clap::ArgMatches) -> Result<Self, clap::Error> {
        T::from_arg_matches_mut(matches).map(Deferred)
    }

    fn update_from_arg_matches(&mut self, matches: &clap::ArgMatches) -> Result<(), clap::Error> {
        self.0.update_from_arg_matches(matches)
    }

    fn update_from_arg_matches_mut(&mut self, matches: &mut clap::ArgMatches) -> Result<(), clap::Error> {
        self.0.update_from_arg_matches_mut(matches)
    }
}

impl<T: Args> Args for Deferred<T> {
    fn augment_args(cmd: clap::Command) -> clap::Command {
        cmd.defer(define_flags::<T>)
    }

    fn augment_args_for_update(cmd: clap::Command) -> clap::Command {
        cmd.defer(define_flags_for_update::<T>)
    }

    fn group_id() -> Option<clap::Id> {
        T::group_id()
    }
}

/// `T`'s flags, each taking a negative number as its value ([`allow_negative_values`]).
fn define_flags<T: Args>(cmd: clap::Command) -> clap::Command {
    keep_description(cmd, T::augment_args)
}

fn define_flags_for_update<T: Args>(cmd: clap::Command) -> clap::Command {
    keep_description(cmd, T::augment_args_for_update)
}

/// Defines the flags with `define`, keeping the subcommand's description. Run undeferred,
/// `define` comes before the subcommand's own description (its doc comment, "Lab 3: ...")
/// is set; deferred, it comes after, and the flag struct's doc comment would replace it.
fn keep_description(cmd: clap::Command, define: fn(clap::Command) -> clap::Command) -> clap::Command {
    let about = cmd.get_about().cloned();
    let long_about = cmd.get_long_about().cloned();
    let cmd = define(cmd);
    let cmd = match long_about {
        Some(long_about) => cmd.long_about(long_about),
        None => cmd.long_about(None::<&'static str>),
    };
    let cmd = match about {
        Some(about) => cmd.about(about),
        None => cmd,
    };
    allow_negative_values(cmd)
}

/// Sets every value-taking flag of `command` and of its subcommands defined so far to accept
/// a negative number, so that `--p -0.1` reaches the flag's own check, which names its range
/// (`crate::cli_values::command`). Deferred subcommands get it when they are defined.
pub fn allow_negative_values(command: clap::Command) -> clap::Command {
    let command = command.mut_args(|arg| {
        // A flag whose value may be left out (`quiz --drill [NAME]`) must not take the next
        // flag as its value: `--drill --seed 0` is two flags.
        let value_optional = arg.get_num_args().is_some_and(|range| range.min_values() == 0);
        if arg.get_action().takes_values() && !value_optional {
            // Lists (`--brownout-s -5,10`, `--attempts -1,2`) are not numbers: they need hyphen values.
            arg.allow_negative_numbers(true).allow_hyphen_values(true)
        } else {
            arg
        }
    });
    let names: Vec<String> = command
        .get_subcommands()
        .map(|sub| sub.get_name().to_string())
        .collect();
    names.into_iter().fold(command, |command, name| {
        command.mut_subcommand(name, allow_negative_values)
    })
}

#[derive(Debug, Args)]
pub struct RetryArgs {
    #[command(flatten)]
    pub mode: ModeArgs,
    /// Failure probability of each database attempt (0 to 1).
    #[arg(long, value_parser = ranged("retry", "p"))]
    pub p: Option<f64>,
    /// Attempts per layer, top first, e.g. 4,4,4 (1 to 6 layers, 1 to 10 attempts each).
    #[arg(long, value_parser = parse_attempts)]
    pub attempts: Option<Attempts>,
    /// Retry budget ratio at the top client, e.g. 0.1; 0 means none.
    #[arg(long, value_parser = ranged("retry", "budget"))]
    pub budget: Option<f64>,
    /// User actions to run (default: the lab file's 10000 in --sim, 1000 in --live).
    #[arg(long, value_parser = ranged_int("retry", "actions"))]
    pub actions: Option<u64>,
    /// Seed of the failure draws (42 reproduces the Atlas).
    #[arg(long, value_parser = ranged_int("retry", "seed"))]
    pub seed: Option<u64>,
    /// Full Jitter base between attempts in milliseconds, live only (0 = no backoff).
    #[arg(long, value_parser = bounded(0.0, crate::content::params::retry::BACKOFF_BASE_MAX_MS))]
    pub backoff_base_ms: Option<f64>,
    /// Full Jitter cap in milliseconds, live only (defaults to 20 x the base).
    #[arg(long, value_parser = bounded(0.0, crate::content::params::retry::BACKOFF_CAP_MAX_MS))]
    pub backoff_cap_ms: Option<f64>,
    /// With --live: the feedback-loop experiment instead of counting (metastable).
    #[arg(long, value_parser = parse_scenario)]
    pub scenario: Option<LiveScenario>,
    #[command(flatten)]
    pub metastable: Box<MetastableArgs>,
}

/// Which live experiment to run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LiveScenario {
    /// Steady load, a trigger, and retries that keep the database down after it.
    Metastable,
}

/// Retry policy of the metastable experiment.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RetryPolicyArg {
    /// Retries at every layer (A).
    Layered,
    /// Retries at the top layer only (B).
    Single,
    /// Top layer only plus the retry budget (C).
    Budget,
}

/// The engine's policy a flag names: by name, so the flag's words never depend on the order
/// of [`RetryPolicy::ALL`](crate::engine::retry::RetryPolicy::ALL).
impl From<RetryPolicyArg> for crate::engine::retry::RetryPolicy {
    fn from(policy: RetryPolicyArg) -> Self {
        match policy {
            RetryPolicyArg::Layered => Self::Layered,
            RetryPolicyArg::Single => Self::TopOnly,
            RetryPolicyArg::Budget => Self::TopOnlyBudget,
        }
    }
}

/// Flags of `--scenario metastable`.
#[derive(Debug, Args, Clone, Default)]
pub struct MetastableArgs {
    /// Retry policy: layered, single or budget.
    #[arg(long, value_parser = parse_policy)]
    pub policy: Option<RetryPolicyArg>,
    /// Seconds of steady load before the trigger.
    #[arg(long, value_parser = bounded(0.0, 600.0))]
    pub before_s: Option<f64>,
    /// Seconds the database fails everything (the trigger).
    #[arg(long, value_parser = bounded(0.1, 600.0))]
    pub trigger_s: Option<f64>,
    /// Seconds of steady load after the trigger.
    #[arg(long, value_parser = bounded(0.0, 600.0))]
    pub after_s: Option<f64>,
    /// Offered load in actions per second.
    #[arg(long, value_parser = bounded(1.0, 20_000.0))]
    pub load_per_s: Option<f64>,
    /// Requests the database serves at once.
    #[arg(long, value_parser = bounded_int(1, 1_000))]
    pub db_concurrency: Option<u64>,
    /// Database service time per request in milliseconds.
    #[arg(long, value_parser = bounded(0.1, 1_000.0))]
    pub service_ms: Option<f64>,
    /// The back end's timeout on each database call in milliseconds.
    #[arg(long, value_parser = bounded_int(1, 60_000))]
    pub db_timeout_ms: Option<u64>,
    /// The user's deadline per action in milliseconds.
    #[arg(long, value_parser = bounded_int(1, 60_000))]
    pub deadline_ms: Option<u64>,
    /// Width of one timeline bucket in milliseconds.
    #[arg(long, value_parser = bounded_int(100, 60_000))]
    pub bucket_ms: Option<u64>,
}

impl MetastableArgs {
    /// The first metastable-only flag given, to refuse it outside the experiment.
    pub fn first_given(&self) -> Option<&'static str> {
        [
            (self.policy.is_some(), "--policy"),
            (self.before_s.is_some(), "--before-s"),
            (self.trigger_s.is_some(), "--trigger-s"),
            (self.after_s.is_some(), "--after-s"),
            (self.load_per_s.is_some(), "--load-per-s"),
            (self.db_concurrency.is_some(), "--db-concurrency"),
            (self.service_ms.is_some(), "--service-ms"),
            (self.db_timeout_ms.is_some(), "--db-timeout-ms"),
            (self.deadline_ms.is_some(), "--deadline-ms"),
            (self.bucket_ms.is_some(), "--bucket-ms"),
        ]
        .into_iter()
        .find_map(|(given, name)| given.then_some(name))
    }
}

impl RetryArgs {
    /// Whether any scenario flag was given: then one scenario runs instead of the table.
    pub fn names_a_scenario(&self) -> bool {
        self.p.is_some()
            || self.attempts.is_some()
            || self.budget.is_some()
            || self.actions.is_some()
            || self.seed.is_some()
    }
}

/// Attempts per layer, top layer first.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Attempts(pub Vec<u32>);

/// `Default` is "no flag given": every parameter then comes from the lab file.
#[derive(Debug, Args, Default)]
pub struct BreakerArgs {
    #[command(flatten)]
    pub mode: ModeArgs,
    /// Calls per second (whole number).
    #[arg(long, value_parser = ranged_int("breaker", "rate"))]
    pub rate: Option<u64>,
    /// Length of the run in seconds.
    #[arg(long, value_parser = ranged("breaker", "duration_s"))]
    pub duration_s: Option<f64>,
    /// Per-call timeout in milliseconds.
    #[arg(long, value_parser = ranged("breaker", "timeout_ms"))]
    pub timeout_ms: Option<f64>,
    /// Latency of a healthy call in milliseconds.
    #[arg(long, value_parser = ranged("breaker", "healthy_ms"))]
    pub healthy_ms: Option<f64>,
    /// The brownout window START,END in seconds, e.g. 10,40.
    #[arg(long, value_parser = parse_window, value_name = "START,END")]
    pub brownout_s: Option<(f64, f64)>,
    /// Outcomes the failure rate is computed over.
    #[arg(long, value_parser = ranged_int("breaker", "window"))]
    pub window: Option<u64>,
    /// Outcomes needed before the breaker may open.
    #[arg(long, value_parser = ranged_int("breaker", "min_calls"))]
    pub min_calls: Option<u64>,
    /// Failure ratio that opens the breaker (0.5 = 50%).
    #[arg(long, value_parser = ranged("breaker", "threshold"))]
    pub threshold: Option<f64>,
    /// Seconds the breaker stays open before trial calls.
    #[arg(long, value_parser = ranged("breaker", "open_s"))]
    pub open_s: Option<f64>,
    /// Trial calls in half-open; all must succeed to close.
    #[arg(long, value_parser = ranged_int("breaker", "trial_calls"))]
    pub trial_calls: Option<u64>,
    /// What the sick dependency does during the brownout (--live): hang|slow|errors|refuse.
    #[arg(long, value_parser = parse_fault, value_name = "hang|slow|errors|refuse")]
    pub fault: Option<FaultKind>,
}

#[derive(Debug, Args)]
pub struct HealthArgs {
    #[command(flatten)]
    pub mode: ModeArgs,
    #[command(flatten)]
    pub server: HealthServerArgs,
}

/// The health server's settings, shared by `run health` and `serve health`.
/// `Default` is "no flag given" (and port 0): the settings then come from the lab file.
#[derive(Debug, Args, Clone, Default)]
pub struct HealthServerArgs {
    /// Port the server listens on (127.0.0.1 only; 0 picks a free port).
    #[arg(long, default_value_t = 18080, value_parser = parse_port)]
    pub port: u16,
    /// Seconds after start before /readyz answers 200.
    #[arg(long, value_parser = ranged("health", "warmup_s"))]
    pub warmup_s: Option<f64>,
    /// Seconds the server keeps serving after SIGTERM.
    #[arg(long, value_parser = ranged("health", "deregister_s"))]
    pub deregister_s: Option<f64>,
    /// Seconds after SIGTERM by which the server must exit.
    #[arg(long, value_parser = ranged("health", "grace_s"))]
    pub grace_s: Option<f64>,
    /// Seconds one /work request takes.
    #[arg(long, value_parser = ranged("health", "work_s"))]
    pub work_s: Option<f64>,
    /// Exercise: make /livez (wrongly) depend on the pretend database (POST /admin/database/down or /up flips it).
    #[arg(long)]
    pub liveness_checks_db: bool,
    /// Exercise: make /readyz depend on the pretend database (POST /admin/database/down or /up flips it).
    #[arg(long)]
    pub readiness_checks_db: bool,
}

// ---- Lab 1 at fleet scale: `run fleet` and `serve database` ----

/// `run fleet`: a named scenario, and any of its settings changed by a flag.
/// Every flag is optional: unset ones keep the scenario's value.
#[derive(Debug, Args, Clone, Default)]
pub struct FleetArgs {
    #[command(flatten)]
    pub mode: ModeArgs,
    /// liveness-checks-db, readiness-checks-db, process-local, rolling-restart or black-hole.
    #[arg(long, value_parser = parse_fleet_scenario)]
    pub scenario: Option<crate::engine::fleet::FleetScenario>,
    /// Replicas (1 to 10).
    #[arg(long, value_parser = fleet_count("fleet_replicas"))]
    pub replicas: Option<u64>,
    /// Length of the run in model seconds.
    #[arg(long, value_parser = fleet_number("fleet_duration_s"))]
    pub duration_s: Option<f64>,
    /// Live only: real seconds per model second (0.1 runs 10 minutes in 1).
    #[arg(long, value_parser = fleet_number("fleet_time_scale"))]
    pub time_scale: Option<f64>,
    /// Replica i starts i x this many seconds after the first.
    #[arg(long, value_parser = fleet_number("fleet_stagger_s"))]
    pub stagger_s: Option<f64>,
    /// Startup probe period in seconds.
    #[arg(long, value_parser = fleet_number("fleet_startup_period_s"))]
    pub startup_period_s: Option<f64>,
    /// Startup probe failures before a restart.
    #[arg(long, value_parser = fleet_count("fleet_startup_threshold"))]
    pub startup_threshold: Option<u64>,
    /// Readiness probe period in seconds.
    #[arg(long, value_parser = fleet_number("fleet_readiness_period_s"))]
    pub readiness_period_s: Option<f64>,
    /// Readiness probe failures in a row before the replica leaves the endpoints.
    #[arg(long, value_parser = fleet_count("fleet_readiness_threshold"))]
    pub readiness_threshold: Option<u64>,
    /// Liveness probe period in seconds.
    #[arg(long, value_parser = fleet_number("fleet_liveness_period_s"))]
    pub liveness_period_s: Option<f64>,
    /// Liveness probe failures in a row before a restart.
    #[arg(long, value_parser = fleet_count("fleet_liveness_threshold"))]
    pub liveness_threshold: Option<u64>,
    /// Every probe's timeout in seconds (Kubernetes' default is 1); below every probe period.
    #[arg(long, value_parser = fleet_number("fleet_timeout_s"))]
    pub probe_timeout_s: Option<f64>,
    /// The second restart's back-off in seconds (the first restart is immediate).
    #[arg(long, value_parser = fleet_number("fleet_backoff_initial_s"))]
    pub backoff_initial_s: Option<f64>,
    /// What each further restart multiplies the back-off by.
    #[arg(long, value_parser = fleet_number("fleet_backoff_factor"))]
    pub backoff_factor: Option<f64>,
    /// The longest back-off in seconds.
    #[arg(long, value_parser = fleet_number("fleet_backoff_cap_s"))]
    pub backoff_cap_s: Option<f64>,
    /// Seconds of running after which the back-off starts again from nothing.
    #[arg(long, value_parser = fleet_number("fleet_backoff_reset_s"))]
    pub backoff_reset_s: Option<f64>,
    /// The preStop sleep in seconds: serving continues this long before SIGTERM.
    #[arg(long, value_parser = fleet_number("fleet_pre_stop_s"))]
    pub pre_stop_s: Option<f64>,
    /// terminationGracePeriodSeconds: from the start of a stop to SIGKILL.
    #[arg(long, value_parser = fleet_number("fleet_grace_s"))]
    pub grace_s: Option<f64>,
    /// The app's own delay after SIGTERM before it stops listening, in seconds.
    #[arg(long, value_parser = fleet_number("fleet_deregister_s"))]
    pub deregister_s: Option<f64>,
    /// Seconds after start before /readyz can pass.
    #[arg(long, value_parser = fleet_number("fleet_warmup_s"))]
    pub warmup_s: Option<f64>,
    /// Milliseconds one request takes.
    #[arg(long, value_parser = bounded_int(1, 10_000))]
    pub work_ms: Option<u64>,
    /// Seconds the Service keeps routing by an old endpoint list.
    #[arg(long, value_parser = fleet_number("fleet_routing_delay_s"))]
    pub routing_delay_s: Option<f64>,
    /// Client requests per (model) second; 0 for none.
    #[arg(long, value_parser = fleet_number("fleet_load_per_s"))]
    pub load_per_s: Option<f64>,
    /// When the load begins, in seconds.
    #[arg(long, value_parser = fleet_number("fleet_load_start_s"))]
    pub load_start_s: Option<f64>,
    /// What the database does during its window: down, slow or up (no outage).
    #[arg(long, value_parser = parse_db_state, value_name = "down|slow|up")]
    pub db: Option<DbStateArg>,
    /// The database's outage window START,END in seconds, e.g. 30,90.
    #[arg(long, value_parser = parse_db_window, value_name = "START,END")]
    pub db_window_s: Option<(f64, f64)>,
    /// With --db slow: how long each query takes, in milliseconds.
    #[arg(long, value_parser = fleet_count("fleet_db_latency_ms"))]
    pub db_latency_ms: Option<u64>,
    /// What /livez checks: local (the process only) or db (the shared database too).
    #[arg(long, value_parser = parse_check, value_name = "local|db")]
    pub liveness: Option<bool>,
    /// What /readyz checks: local or db.
    #[arg(long, value_parser = parse_check, value_name = "local|db")]
    pub readiness: Option<bool>,
    /// What a replica answers when its database call fails: degrade (a fallback) or fail.
    #[arg(long, value_parser = parse_on_db_down, value_name = "degrade|fail")]
    pub on_db_down: Option<crate::engine::fleet::OnDbDown>,
    /// How the Service picks an endpoint: round-robin or least-requests.
    #[arg(long, value_parser = parse_balancing, value_name = "round-robin|least-requests")]
    pub balancing: Option<crate::engine::fleet::Balancing>,
    /// With no ready endpoint, send to every replica anyway: on or off.
    #[arg(long, value_parser = parse_on_off, value_name = "on|off")]
    pub fail_open: Option<bool>,
    /// When a rolling restart begins, in seconds (replicas replaced one at a time).
    #[arg(long, value_parser = fleet_number("fleet_roll_at_s"))]
    pub roll_at_s: Option<f64>,
    /// How many replicas have a broken database connection and fail fast (0 to 10).
    #[arg(long, value_parser = fleet_count("fleet_black_holes"))]
    pub black_holes: Option<u64>,
}

/// `serve health`: the server's settings, and the fleet lab's real database if one is named.
#[derive(Debug, Args, Clone, Default)]
pub struct ServeHealthArgs {
    #[command(flatten)]
    pub server: HealthServerArgs,
    #[command(flatten)]
    pub database: ReplicaDatabaseArgs,
}

/// How a fleet replica reaches the shared database (`serve health` only).
#[derive(Debug, Args, Clone, Default)]
pub struct ReplicaDatabaseArgs {
    /// Ask the real database on 127.0.0.1:PORT (`serve database`) instead of the pretend flag.
    #[arg(long, value_name = "PORT")]
    pub database_port: Option<u16>,
    /// What GET /api answers when the database call fails: degrade or fail (needs --database-port).
    #[arg(long, value_parser = parse_on_db_down, value_name = "degrade|fail", requires = "database_port")]
    pub on_db_down: Option<crate::engine::fleet::OnDbDown>,
    /// How long GET /api works, in milliseconds, besides its database query (needs --database-port).
    #[arg(long, default_value_t = 100, value_parser = bounded_int(0, 60_000), requires = "database_port")]
    pub api_work_ms: u64,
    /// No request line on stderr (a fleet's replicas would log hundreds a second).
    #[arg(long)]
    pub quiet: bool,
}

/// The database's state during its window, as a flag.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DbStateArg {
    Down,
    Slow,
    Up,
}

/// `serve database`: the shared database of the fleet lab.
#[derive(Debug, Args, Clone)]
pub struct DatabaseArgs {
    /// Port the database listens on (127.0.0.1 only; 0 picks a free port).
    #[arg(long, default_value_t = 18090)]
    pub port: u16,
    /// Start slow: every query answers after this many milliseconds (0 = at once).
    #[arg(long, default_value_t = 0, value_parser = bounded_int(0, 60_000))]
    pub latency_ms: u64,
    /// Start down: every query fails with 503 until POST /admin/up.
    #[arg(long)]
    pub down: bool,
}

fn parse_fleet_scenario(text: &str) -> Result<crate::engine::fleet::FleetScenario, String> {
    crate::engine::fleet::FleetScenario::from_name(text.trim()).ok_or_else(|| {
        "allowed: liveness-checks-db, readiness-checks-db, process-local, rolling-restart, black-hole".to_string()
    })
}

fn parse_db_state(text: &str) -> Result<DbStateArg, String> {
    match text.trim() {
        "down" => Ok(DbStateArg::Down),
        "slow" => Ok(DbStateArg::Slow),
        "up" => Ok(DbStateArg::Up),
        _ => Err("allowed: down, slow or up".to_string()),
    }
}

/// `30,90`: START from 0 to 3600, END after START and at most 3600.
fn parse_db_window(text: &str) -> Result<(f64, f64), String> {
    const ALLOWED: &str = "allowed: START,END in seconds, 0 <= START < END <= 3600, e.g. 30,90";
    let parts: Vec<f64> = text
        .split(',')
        .map(|item| item.trim().parse::<f64>())
        .collect::<Result<_, _>>()
        .map_err(|_| ALLOWED.to_string())?;
    match parts[..] {
        [start, end] if start.is_finite() && end.is_finite() && 0.0 <= start && start < end && end <= 3_600.0 => {
            Ok((start, end))
        }
        _ => Err(ALLOWED.to_string()),
    }
}

/// `local` (false) or `db` (true): whether a probe checks the database.
fn parse_check(text: &str) -> Result<bool, String> {
    match text.trim() {
        "local" => Ok(false),
        "db" => Ok(true),
        _ => Err("allowed: local or db".to_string()),
    }
}

fn parse_on_db_down(text: &str) -> Result<crate::engine::fleet::OnDbDown, String> {
    match text.trim() {
        "degrade" => Ok(crate::engine::fleet::OnDbDown::Degrade),
        "fail" => Ok(crate::engine::fleet::OnDbDown::Fail),
        _ => Err("allowed: degrade or fail".to_string()),
    }
}

fn parse_balancing(text: &str) -> Result<crate::engine::fleet::Balancing, String> {
    match text.trim() {
        "round-robin" => Ok(crate::engine::fleet::Balancing::RoundRobin),
        "least-requests" => Ok(crate::engine::fleet::Balancing::LeastRequests),
        _ => Err("allowed: round-robin or least-requests".to_string()),
    }
}

fn parse_on_off(text: &str) -> Result<bool, String> {
    match text.trim() {
        "on" => Ok(true),
        "off" => Ok(false),
        _ => Err("allowed: on or off".to_string()),
    }
}

// ---- end of the fleet lab's flags ----

/// The allowed range of a lab parameter, from the table lab files are checked against.
fn limits_of(lab: &'static str, name: &'static str) -> (f64, f64) {
    required_parameters(lab)
        .iter()
        .find(|limit| limit.name == name)
        .map_or((f64::NEG_INFINITY, f64::INFINITY), |limit| (limit.min, limit.max))
}

/// A port: 0 (any free port) to 65535.
pub fn parse_port(text: &str) -> Result<u16, String> {
    text.trim()
        .parse::<u16>()
        .map_err(|_| "allowed: a whole number from 0 to 65535 (0 picks a free port)".to_string())
}

/// A parser for a decimal flag within its lab's range.
fn ranged(lab: &'static str, name: &'static str) -> impl Fn(&str) -> Result<f64, String> + Clone {
    move |text| {
        let (min, max) = limits_of(lab, name);
        match text.trim().parse::<f64>() {
            Ok(value) if value.is_finite() && (min..=max).contains(&value) => Ok(value),
            _ => Err(format!("allowed: a number from {min} to {max}")),
        }
    }
}

/// A parser for a whole-number flag within its lab's range.
fn ranged_int(lab: &'static str, name: &'static str) -> impl Fn(&str) -> Result<u64, String> + Clone {
    move |text| {
        let (min, max) = limits_of(lab, name);
        match text.trim().parse::<u64>() {
            Ok(value) if (min..=max).contains(&(value as f64)) => Ok(value),
            _ => Err(format!("allowed: a whole number from {min} to {max}")),
        }
    }
}

/// `metastable`, in one line when wrong (clap's own list would go on a second line).
fn parse_scenario(text: &str) -> Result<LiveScenario, String> {
    match text.trim() {
        "metastable" => Ok(LiveScenario::Metastable),
        _ => Err("allowed: metastable".to_string()),
    }
}

/// A lab by its name, one of `LabId::ALL`'s (clap lists them when a name is not one).
fn lab_name() -> impl clap::builder::TypedValueParser<Value = LabId> {
    use clap::builder::TypedValueParser as _;
    clap::builder::PossibleValuesParser::new(LabId::ALL.map(LabId::name))
        .try_map(|name| LabId::from_name(&name).ok_or_else(|| format!("no lab is named {name}")))
}

/// `layered`, `single` or `budget`.
fn parse_policy(text: &str) -> Result<RetryPolicyArg, String> {
    match text.trim() {
        "layered" => Ok(RetryPolicyArg::Layered),
        "single" => Ok(RetryPolicyArg::Single),
        "budget" => Ok(RetryPolicyArg::Budget),
        _ => Err("allowed: layered, single or budget".to_string()),
    }
}

/// A fleet flag's parser, within its bound in `content::params::fleet` (the sliders' too).
fn fleet_number(name: &'static str) -> impl Fn(&str) -> Result<f64, String> + Clone {
    let bound = crate::content::params::fleet::bound_of(name);
    bounded(bound.min, bound.max)
}

/// A whole-number fleet flag's parser, within its bound.
fn fleet_count(name: &'static str) -> impl Fn(&str) -> Result<u64, String> + Clone {
    let bound = crate::content::params::fleet::bound_of(name);
    bounded_int(bound.min as u64, bound.max as u64)
}

/// A Lab 4 flag's parser, within its bound in `content::params::overload` (the sliders' too).
fn overload_number(name: &'static str) -> impl Fn(&str) -> Result<f64, String> + Clone {
    let bound = crate::content::params::overload::bound_of(name);
    bounded(bound.min, bound.max)
}

/// A whole-number Lab 4 flag's parser, within its bound.
fn overload_count(name: &'static str) -> impl Fn(&str) -> Result<u64, String> + Clone {
    let bound = crate::content::params::overload::bound_of(name);
    bounded_int(bound.min as u64, bound.max as u64)
}

/// A parser for a decimal flag within fixed bounds (flags that no lab file tunes).
fn bounded(min: f64, max: f64) -> impl Fn(&str) -> Result<f64, String> + Clone {
    move |text| match text.trim().parse::<f64>() {
        Ok(value) if value.is_finite() && (min..=max).contains(&value) => Ok(value),
        _ => Err(format!("allowed: a number from {min} to {max}")),
    }
}

/// A parser for a whole-number flag within fixed bounds.
fn bounded_int(min: u64, max: u64) -> impl Fn(&str) -> Result<u64, String> + Clone {
    move |text| match text.trim().parse::<u64>() {
        Ok(value) if (min..=max).contains(&value) => Ok(value),
        _ => Err(format!("allowed: a whole number from {min} to {max}")),
    }
}

/// `quiz --count`: 1 to 200 questions.
fn question_count(text: &str) -> Result<u16, String> {
    bounded_int(1, 200)(text).map(|count| count as u16)
}

/// `4,4,4`: 1 to 6 layers of 1 to 10 attempts.
fn parse_attempts(text: &str) -> Result<Attempts, String> {
    const ALLOWED: &str = "allowed: 1 to 6 comma-separated whole numbers from 1 to 10, e.g. 4,4,4";
    let attempts: Vec<u32> = text
        .split(',')
        .map(|item| item.trim().parse::<u32>())
        .collect::<Result<_, _>>()
        .map_err(|_| ALLOWED.to_string())?;
    if !(1..=6).contains(&attempts.len()) || attempts.iter().any(|a| !(1..=10).contains(a)) {
        return Err(ALLOWED.to_string());
    }
    Ok(Attempts(attempts))
}

/// `10,40`: a start and an end in seconds, start >= 0, end after start.
fn parse_window(text: &str) -> Result<(f64, f64), String> {
    let (start_min, start_max) = limits_of("breaker", "brownout_start_s");
    let (length_min, length_max) = limits_of("breaker", "brownout_length_s");
    let allowed = format!(
        "allowed: START,END in seconds, START from {start_min} to {start_max}, \
         END - START from {length_min} to {length_max}, e.g. 10,40"
    );
    let parts: Vec<f64> = text
        .split(',')
        .map(|item| item.trim().parse::<f64>())
        .collect::<Result<_, _>>()
        .map_err(|_| allowed.clone())?;
    match parts[..] {
        [start, end]
            if (start_min..=start_max).contains(&start) && (length_min..=length_max).contains(&(end - start)) =>
        {
            Ok((start, end))
        }
        _ => Err(allowed),
    }
}

/// A fault kind by the name the engine gives it.
fn parse_fault(text: &str) -> Result<FaultKind, String> {
    FaultKind::from_name(text.trim()).ok_or_else(|| "allowed: hang, slow, errors, refuse".to_string())
}

// ---- Lab 4: `run overload` ------------------------------------------------------------

/// `run overload`: a scenario (default fifo), any of its settings changed by flags.
/// `Default` is "no flag given": everything then comes from the scenario.
#[derive(Debug, Args, Clone, Default)]
pub struct OverloadArgs {
    #[command(flatten)]
    pub mode: ModeArgs,
    /// fifo, age-cap, lifo, admission, criticality, bulkhead, throttle or metastable.
    #[arg(long, value_parser = parse_overload_scenario)]
    pub scenario: Option<crate::engine::overload::OverloadScenario>,
    /// Print the goodput against offered load for every policy too.
    #[arg(long)]
    pub sweep: bool,
    /// Requests per second offered (1 to 100000; metastable: the web tier's QPS).
    #[arg(long, value_parser = overload_number("offered_per_s"))]
    pub offered_per_s: Option<f64>,
    /// Worker slots (1 to 10000).
    #[arg(long, value_parser = overload_count("workers"))]
    pub workers: Option<u64>,
    /// Time one request holds a worker, in ms (0.1 to 10000).
    #[arg(long, value_parser = overload_number("service_ms"))]
    pub service_ms: Option<f64>,
    /// The caller gives up after this many ms (1 to 600000).
    #[arg(long, value_parser = overload_number("client_timeout_ms"))]
    pub client_timeout_ms: Option<f64>,
    /// Seconds to run (1 to 600; --live: 1 to 120).
    #[arg(long, value_parser = overload_number("duration_s"))]
    pub duration_s: Option<f64>,
    /// fifo, age-cap, lifo, admission, criticality or throttle (overrides the scenario's).
    #[arg(long, value_parser = parse_overload_policy)]
    pub policy: Option<crate::engine::overload::SheddingPolicy>,
    /// Age cap in ms (1 to 60000), for the age-cap policy.
    #[arg(long, value_parser = overload_number("age_cap_ms"))]
    pub age_cap_ms: Option<f64>,
    /// Requests in the server (serving + queued) at which a new one gets a 503 (1 to 1000000).
    #[arg(long, value_parser = overload_count("admission_limit"))]
    pub admission_limit: Option<u64>,
    /// The client-side throttle's K (1 to 10), for the throttle policy.
    #[arg(long, value_parser = overload_number("throttle_k"))]
    pub k: Option<f64>,
    /// Seconds the throttle counts requests and accepts over (1 to 120).
    #[arg(long, value_parser = overload_number("throttle_window_s"))]
    pub throttle_window_s: Option<f64>,
    /// Seeded random (Poisson) arrivals instead of even spacing (0 to 4294967295).
    #[arg(long, value_parser = overload_count("random_seed"))]
    pub random_seed: Option<u64>,
    /// Calls per second to dependency X (0 to 100000), bulkhead.
    #[arg(long, value_parser = overload_number("x_calls_per_s"))]
    pub x_calls_per_s: Option<f64>,
    /// Dependency X's latency in ms (0.1 to 1000000), bulkhead.
    #[arg(long, value_parser = overload_number("x_latency_ms"))]
    pub x_latency_ms: Option<f64>,
    /// The server's timeout on X in ms (1 to 1000000), bulkhead.
    #[arg(long, value_parser = overload_number("x_timeout_ms"))]
    pub x_timeout_ms: Option<f64>,
    /// X's own pool (0 = share the whole pool; 1 to 10000), bulkhead.
    #[arg(long, value_parser = overload_count("x_pool"))]
    pub x_pool: Option<u64>,
    /// Metastable: database QPS below which it answers fast (1 to 100000).
    #[arg(long, value_parser = bounded(1.0, 100_000.0))]
    pub capacity_per_s: Option<f64>,
    /// Metastable: queries per request when none answers in time (1 to 100; 2 = one retry).
    #[arg(long, value_parser = bounded_int(1, 100))]
    pub attempts: Option<u64>,
    /// Metastable: retries per second held under this (0 to 100000).
    #[arg(long, value_parser = bounded(0.0, 100_000.0))]
    pub retry_cap_per_s: Option<f64>,
    /// Metastable: retries at most this share of requests (0 to 1; 0 = none).
    #[arg(long, value_parser = bounded(0.0, 1.0))]
    pub budget: Option<f64>,
    /// Metastable: seconds of the outage (0 to 600).
    #[arg(long, value_parser = bounded_int(0, 600))]
    pub trigger_s: Option<u64>,
    /// Metastable: seconds after the outage (1 to 3600).
    #[arg(long, value_parser = bounded_int(1, 3_600))]
    pub after_s: Option<u64>,
    /// Metastable: cut the load to --cut-to-per-s from this second on (0 to 4200).
    #[arg(long, value_parser = bounded_int(0, 4_200), requires = "cut_to_per_s")]
    pub cut_at_s: Option<u64>,
    /// Metastable: the load after the cut (0 to 100000).
    #[arg(long, value_parser = bounded(0.0, 100_000.0), requires = "cut_at_s")]
    pub cut_to_per_s: Option<f64>,
}

impl OverloadArgs {
    /// The first metastable-only flag given, to refuse it for the queueing scenarios.
    pub fn first_metastable_flag(&self) -> Option<&'static str> {
        [
            (self.capacity_per_s.is_some(), "--capacity-per-s"),
            (self.attempts.is_some(), "--attempts"),
            (self.retry_cap_per_s.is_some(), "--retry-cap-per-s"),
            (self.budget.is_some(), "--budget"),
            (self.trigger_s.is_some(), "--trigger-s"),
            (self.after_s.is_some(), "--after-s"),
            (self.cut_at_s.is_some(), "--cut-at-s"),
        ]
        .into_iter()
        .find_map(|(given, name)| given.then_some(name))
    }

    /// The first queueing-only flag given, to refuse it for the metastable model.
    pub fn first_queueing_flag(&self) -> Option<&'static str> {
        [
            (self.workers.is_some(), "--workers"),
            (self.service_ms.is_some(), "--service-ms"),
            (self.client_timeout_ms.is_some(), "--client-timeout-ms"),
            (self.duration_s.is_some(), "--duration-s"),
            (self.policy.is_some(), "--policy"),
            (self.age_cap_ms.is_some(), "--age-cap-ms"),
            (self.admission_limit.is_some(), "--admission-limit"),
            (self.k.is_some(), "--k"),
            (self.throttle_window_s.is_some(), "--throttle-window-s"),
            (self.random_seed.is_some(), "--random-seed"),
            (self.x_calls_per_s.is_some(), "--x-calls-per-s"),
            (self.x_latency_ms.is_some(), "--x-latency-ms"),
            (self.x_timeout_ms.is_some(), "--x-timeout-ms"),
            (self.x_pool.is_some(), "--x-pool"),
        ]
        .into_iter()
        .find_map(|(given, name)| given.then_some(name))
    }
}

/// A Lab 4 scenario by name, in one line when wrong.
fn parse_overload_scenario(text: &str) -> Result<crate::engine::overload::OverloadScenario, String> {
    crate::engine::overload::OverloadScenario::from_name(text.trim()).ok_or_else(|| {
        "allowed: fifo, age-cap, lifo, admission, criticality, bulkhead, throttle, metastable".to_string()
    })
}

/// A Lab 4 shedding policy by name.
fn parse_overload_policy(text: &str) -> Result<crate::engine::overload::SheddingPolicy, String> {
    crate::engine::overload::SheddingPolicy::from_name(text.trim())
        .ok_or_else(|| "allowed: fifo, age-cap, lifo, admission, criticality, throttle".to_string())
}

// ---- end of Lab 4 ---------------------------------------------------------------------

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn attempts_and_windows_parse_or_say_what_is_allowed() {
        assert_eq!(parse_attempts("4,4,4"), Ok(Attempts(vec![4, 4, 4])));
        assert!(parse_attempts("4,0").is_err());
        assert!(parse_attempts("1,1,1,1,1,1,1").is_err());
        assert!(parse_attempts("4,,4").is_err());
        assert_eq!(parse_window("2,8"), Ok((2.0, 8.0)));
        assert_eq!(parse_window("10.5,40"), Ok((10.5, 40.0)));
        assert!(parse_window("40,10").is_err());
        assert!(parse_window("0,1e308").is_err(), "longer than the lab allows");
        assert!(parse_window("1e300,1e301").is_err());
        assert_eq!(parse_fault("refuse"), Ok(FaultKind::Refuse));
        assert!(parse_fault("flaky").is_err());
        assert!(parse_window("10").is_err());
    }

    #[test]
    fn ranges_come_from_the_lab_limits() {
        assert_eq!(ranged("retry", "p")("0.3"), Ok(0.3));
        assert!(ranged("retry", "p")("1.5").unwrap_err().contains("0 to 1"));
        assert!(ranged_int("breaker", "rate")("0").is_err());
    }

    /// A subcommand whose flags are defined late keeps its own description in `--help`, and
    /// its flags, once defined, are all there.
    #[test]
    fn deferred_subcommands_keep_their_description_and_flags() {
        use clap::CommandFactory;
        let mut cli = Cli::command();
        cli.build();
        let run = cli.find_subcommand("run").expect("run");
        let breaker = run.find_subcommand("breaker").expect("run breaker");
        let about = breaker.get_about().map(ToString::to_string);
        assert_eq!(
            about.as_deref(),
            Some("Lab 3: a timeout alone against a timeout plus a breaker during a brownout")
        );
        assert!(breaker.get_long_about().is_none());
        let flags: Vec<&str> = breaker.get_arguments().filter_map(|arg| arg.get_long()).collect();
        for flag in [
            "rate",
            "timeout-ms",
            "brownout-s",
            "window",
            "min-calls",
            "live",
            "json",
        ] {
            assert!(flags.contains(&flag), "--{flag} missing from {flags:?}");
        }
        let serve = cli.find_subcommand("serve").expect("serve");
        let database = serve.find_subcommand("database").expect("serve database");
        let about = database.get_about().map(ToString::to_string);
        assert_eq!(
            about.as_deref(),
            Some("The fleet lab's shared database: GET /query, made slow or down by POST /admin/...")
        );
    }
}
