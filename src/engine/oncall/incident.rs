//! Incidents as data: an `assets/incidents/*.toml` file read into an [`IncidentSpec`],
//! checked on load with file:line:column errors, and the seed's choice of dependency and
//! moment ([`DrillSetup`]).
//!
//! The file's `runbook_levers` use `{dep}` for the dependency the seed picks, and count T
//! from the incident's onset: the moment varies with the seed, so only the file's reader
//! (the drill) can turn them into drill seconds ([`DrillSetup::runbook`]).

use serde::Deserialize;
use toml::Spanned;

use super::lever::{LeverPull, OncallLever};
use super::register::OncallDep;
use crate::engine::pyrandom::PyRandom;

/// What goes wrong with the incident's dependency while the fault lasts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FaultMode {
    /// Its capacity falls; past capacity every attempt queues beyond its timeout.
    Brownout,
    /// A rate limit: past capacity it answers a fast 503 with Retry-After.
    #[serde(rename = "reject_503")]
    Reject503,
    /// Every call answers, slowly, after `hang_ms`; the hang is in the client's
    /// connection pool, before the call's own timeout starts.
    Hang,
    /// Every attempt runs into its timeout.
    Slow,
}

/// The hidden settings of an incident: what the learner must find out.
#[derive(Clone, Debug, PartialEq)]
pub struct IncidentSpec {
    pub name: String,
    /// The one line the debrief shows after the reveal.
    pub title: String,
    /// The dependencies the seed chooses among.
    pub dependencies: Vec<OncallDep>,
    /// The onset's range in drill seconds, from the seed.
    pub onset_range_s: (f64, f64),
    pub mode: FaultMode,
    /// How long the fault lasts after the onset (the damage it started may last longer).
    pub duration_s: f64,
    /// The dependency's capacity while the fault lasts (attempts/s).
    pub capacity_per_s: f64,
    /// [`FaultMode::Hang`]'s answer time.
    pub hang_ms: f64,
    /// Attempts per library attempt in the mesh while the incident runs: the hidden
    /// layered retries of an incident whose register says 1.
    pub mesh_attempts: Option<u32>,
    /// The runbook's levers, T from the onset, `{dep}` unresolved.
    pub runbook_levers: Vec<String>,
    /// The lever that turns the incident around (the clock of the 120 s attempts check).
    pub right_lever: String,
    /// Levers that are not in the runbook yet not wrong (an equivalent move).
    pub also_right: Vec<String>,
    /// A lever that looks right and is not, for the wrong-lever test and the chapter.
    pub wrong_example: String,
    /// What the dependency's owner says when a facilitator "calls the owner" (`{dep}`
    /// unresolved): a nudge in on-call's words, which names neither the incident nor its
    /// settings, since the learner's screen shows it before the reveal.
    pub owner_hint: Option<String>,
}

/// A problem in an incident file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IncidentFileError {
    pub file: String,
    pub line: usize,
    pub column: usize,
    pub message: String,
}

impl std::fmt::Display for IncidentFileError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}:{}: {}", self.file, self.line, self.column, self.message)
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct IncidentFile {
    format_version: Spanned<u32>,
    name: Spanned<String>,
    title: String,
    dependencies: Spanned<Vec<Spanned<String>>>,
    onset_s: Spanned<[f64; 2]>,
    mode: FaultMode,
    duration_s: Spanned<f64>,
    capacity_per_s: Spanned<f64>,
    #[serde(default)]
    hang_ms: Option<Spanned<f64>>,
    #[serde(default)]
    mesh_attempts: Option<Spanned<u32>>,
    runbook_levers: Spanned<Vec<Spanned<String>>>,
    right_lever: Spanned<String>,
    #[serde(default)]
    also_right: Vec<Spanned<String>>,
    wrong_example: Spanned<String>,
    #[serde(default)]
    owner_hint: Option<Spanned<String>>,
}

/// The 1-based line and column of byte `offset` in `text`.
fn line_column(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let start = before.rfind('\n').map_or(0, |i| i + 1);
    (line, before[start..].chars().count() + 1)
}

/// Checks a lever written with `{dep}` against every dependency it may stand for.
fn check_lever(text: &str, deps: &[OncallDep], timed: bool) -> Result<(), String> {
    for dep in deps {
        let resolved = text.replace("{dep}", dep.name());
        if timed {
            LeverPull::parse(&resolved)?;
        } else {
            OncallLever::parse(&resolved)?;
        }
    }
    Ok(())
}

/// The incident's file read and checked. `file` names it in messages.
pub fn parse_incident(file: &str, text: &str) -> Result<IncidentSpec, IncidentFileError> {
    let at = |span: std::ops::Range<usize>, message: String| {
        let (line, column) = line_column(text, span.start);
        IncidentFileError {
            file: file.to_string(),
            line,
            column,
            message,
        }
    };
    let raw: IncidentFile = toml::from_str(text).map_err(|err| {
        let span = err.span().unwrap_or(0..0);
        at(span, err.message().to_string())
    })?;
    if *raw.format_version.get_ref() != 1 {
        return Err(at(raw.format_version.span(), "format_version: allowed: 1".to_string()));
    }
    let name = raw.name.get_ref();
    if name.is_empty()
        || !name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
    {
        return Err(at(
            raw.name.span(),
            "name: allowed: lowercase letters, digits and '-'".to_string(),
        ));
    }
    let mut dependencies = Vec::new();
    for dep in raw.dependencies.get_ref() {
        match OncallDep::from_name(dep.get_ref()) {
            Some(found) => dependencies.push(found),
            None => {
                let names: Vec<&str> = OncallDep::ALL.iter().map(|d| d.name()).collect();
                return Err(at(
                    dep.span(),
                    format!(
                        "no dependency {:?} in the register (allowed: {})",
                        dep.get_ref(),
                        names.join(", ")
                    ),
                ));
            }
        }
    }
    if dependencies.is_empty() {
        return Err(at(
            raw.dependencies.span(),
            "dependencies: name at least one".to_string(),
        ));
    }
    let [low, high] = *raw.onset_s.get_ref();
    if !(10.0..=600.0).contains(&low) || !(low..=600.0).contains(&high) {
        return Err(at(
            raw.onset_s.span(),
            "onset_s: allowed: [LOW, HIGH] with 10 <= LOW <= HIGH <= 600".to_string(),
        ));
    }
    let positive = |value: &Spanned<f64>, field: &str, max: f64| {
        let v = *value.get_ref();
        if v.is_finite() && v > 0.0 && v <= max {
            Ok(v)
        } else {
            Err(at(
                value.span(),
                format!("{field}: allowed: a number above 0 and at most {max}"),
            ))
        }
    };
    let duration_s = positive(&raw.duration_s, "duration_s", 3_600.0)?;
    let capacity_per_s = positive(&raw.capacity_per_s, "capacity_per_s", 10_000.0)?;
    let hang_ms = match &raw.hang_ms {
        Some(value) => positive(value, "hang_ms", 60_000.0)?,
        None if raw.mode == FaultMode::Hang => {
            return Err(at(raw.duration_s.span(), "mode = \"hang\" needs hang_ms".to_string()));
        }
        None => 0.0,
    };
    let mesh_attempts = match &raw.mesh_attempts {
        Some(value) if (1..=5).contains(value.get_ref()) => Some(*value.get_ref()),
        Some(value) => return Err(at(value.span(), "mesh_attempts: allowed: 1 to 5".to_string())),
        None => None,
    };
    if raw.runbook_levers.get_ref().is_empty() {
        return Err(at(
            raw.runbook_levers.span(),
            "runbook_levers: name at least one T:LEVER".to_string(),
        ));
    }
    for lever in raw.runbook_levers.get_ref() {
        check_lever(lever.get_ref(), &dependencies, true).map_err(|m| at(lever.span(), m))?;
    }
    for lever in raw.also_right.iter().chain([&raw.right_lever]) {
        check_lever(lever.get_ref(), &dependencies, false).map_err(|m| at(lever.span(), m))?;
    }
    check_lever(raw.wrong_example.get_ref(), &dependencies, true).map_err(|m| at(raw.wrong_example.span(), m))?;
    let runbook_levers: Vec<String> = raw
        .runbook_levers
        .get_ref()
        .iter()
        .map(|l| l.get_ref().clone())
        .collect();
    let right = raw.right_lever.get_ref();
    if !runbook_levers
        .iter()
        .any(|l| l.split_once(':').is_some_and(|(_, lever)| lever.trim() == right))
    {
        return Err(at(
            raw.right_lever.span(),
            "right_lever: must be one of runbook_levers".to_string(),
        ));
    }
    let owner_hint = match &raw.owner_hint {
        Some(hint) if hint.get_ref().trim().is_empty() || hint.get_ref().chars().count() > OWNER_HINT_MAX_CHARS => {
            return Err(at(
                hint.span(),
                format!("owner_hint: allowed: 1 to {OWNER_HINT_MAX_CHARS} characters"),
            ));
        }
        Some(hint) => Some(hint.get_ref().trim().to_string()),
        None => None,
    };
    Ok(IncidentSpec {
        name: name.clone(),
        title: raw.title,
        dependencies,
        onset_range_s: (low, high),
        mode: raw.mode,
        duration_s,
        capacity_per_s,
        hang_ms,
        mesh_attempts,
        runbook_levers,
        right_lever: right.clone(),
        also_right: raw.also_right.iter().map(|l| l.get_ref().clone()).collect(),
        wrong_example: raw.wrong_example.get_ref().clone(),
        owner_hint,
    })
}

/// The longest owner hint: a few lines of the learner's decision log at most.
pub const OWNER_HINT_MAX_CHARS: usize = 240;

impl IncidentSpec {
    /// The file's hidden settings, written as the file writes them (`capacity_per_s = 85`),
    /// for the reveal and the facilitator's screen.
    pub fn settings_lines(&self) -> Vec<String> {
        let mode = match self.mode {
            FaultMode::Brownout => "brownout",
            FaultMode::Reject503 => "reject_503",
            FaultMode::Hang => "hang",
            FaultMode::Slow => "slow",
        };
        let mut settings = vec![
            format!("mode = \"{mode}\""),
            format!("duration_s = {}", self.duration_s),
            format!("capacity_per_s = {}", self.capacity_per_s),
        ];
        if self.mode == FaultMode::Hang {
            settings.push(format!("hang_ms = {}", self.hang_ms));
        }
        if let Some(mesh) = self.mesh_attempts {
            settings.push(format!("mesh_attempts = {mesh}"));
        }
        settings
    }
}

/// The incident files shipped in the binary, as (file name, text).
pub const BUILTIN_INCIDENTS: [(&str, &str); 5] = [
    (
        "inventory-brownout.toml",
        include_str!("../../../assets/incidents/inventory-brownout.toml"),
    ),
    (
        "recommendations-hang.toml",
        include_str!("../../../assets/incidents/recommendations-hang.toml"),
    ),
    (
        "payments-503.toml",
        include_str!("../../../assets/incidents/payments-503.toml"),
    ),
    (
        "receipt-store-storm.toml",
        include_str!("../../../assets/incidents/receipt-store-storm.toml"),
    ),
    (
        "receipt-store-slow.toml",
        include_str!("../../../assets/incidents/receipt-store-slow.toml"),
    ),
];

/// Every shipped incident, checked (a broken shipped file is a bug the tests catch).
pub fn builtin_incidents() -> Result<Vec<IncidentSpec>, IncidentFileError> {
    BUILTIN_INCIDENTS
        .iter()
        .map(|(file, text)| parse_incident(&format!("assets/incidents/{file}"), text))
        .collect()
}

/// A second fault a facilitator adds while the drill runs: another incident's fault (its
/// mode and settings) on a dependency, from a drill second on. It is additive: the drill's
/// own incident goes on beside it, and a drill without one runs as it always did.
#[derive(Clone, Debug, PartialEq)]
pub struct ExtraFault {
    /// The incident file whose fault this is.
    pub incident: IncidentSpec,
    pub dependency: OncallDep,
    /// The drill second it starts at (whole, as the onset is).
    pub from_s: f64,
}

impl ExtraFault {
    /// The debrief's form: `payments-503@payments@140`.
    pub fn label(&self) -> String {
        format!("{}@{}@{}", self.incident.name, self.dependency.name(), self.from_s)
    }

    /// Reads [`ExtraFault::label`]'s form back, the incident from `incidents`.
    pub fn parse_label(text: &str, incidents: &[IncidentSpec]) -> Result<ExtraFault, String> {
        let allowed = "allowed: INCIDENT@DEPENDENCY@T_S, e.g. payments-503@payments@140";
        let mut parts = text.trim().split('@');
        let (Some(name), Some(dep), Some(t), None) = (parts.next(), parts.next(), parts.next(), parts.next()) else {
            return Err(format!("second fault {text:?}: {allowed}"));
        };
        let incident = incidents
            .iter()
            .find(|i| i.name == name)
            .ok_or_else(|| format!("second fault {text:?}: no incident {name:?}"))?;
        let dependency =
            OncallDep::from_name(dep).ok_or_else(|| format!("second fault {text:?}: no dependency {dep:?}"))?;
        let from_s = t
            .parse::<f64>()
            .ok()
            .filter(|t| t.is_finite() && (0.0..=3_600.0).contains(t))
            .ok_or_else(|| format!("second fault {text:?}: {allowed}"))?;
        Ok(ExtraFault {
            incident: incident.clone(),
            dependency,
            from_s,
        })
    }

    /// The owner's hint for this fault, `{dep}` resolved.
    pub fn owner_hint(&self) -> Option<String> {
        let hint = self.incident.owner_hint.as_ref()?;
        Some(hint.replace("{dep}", self.dependency.name()))
    }
}

/// The seed's choice for one incident: which dependency, and when.
#[derive(Clone, Debug, PartialEq)]
pub struct DrillSetup {
    pub incident: IncidentSpec,
    pub dependency: OncallDep,
    /// Whole drill seconds, so that the timeline's seconds line up with the onset.
    pub onset_s: f64,
    pub seed: u64,
    /// Faults a facilitator added (`oncall --gm`), in the order added; empty otherwise.
    pub extra_faults: Vec<ExtraFault>,
}

impl DrillSetup {
    /// Draws the dependency, then the moment, from the seed.
    pub fn new(incident: &IncidentSpec, seed: u64) -> DrillSetup {
        let mut rng = PyRandom::new(u128::from(seed));
        let pick = (rng.random() * incident.dependencies.len() as f64) as usize;
        let dependency = incident.dependencies[pick.min(incident.dependencies.len() - 1)];
        let (low, high) = incident.onset_range_s;
        let onset_s = rng.uniform(low, high).floor();
        DrillSetup {
            incident: incident.clone(),
            dependency,
            onset_s,
            seed,
            extra_faults: Vec::new(),
        }
    }

    /// The owner's hint for the drill's own incident, `{dep}` resolved.
    pub fn owner_hint(&self) -> Option<String> {
        let hint = self.incident.owner_hint.as_ref()?;
        Some(hint.replace("{dep}", self.dependency.name()))
    }

    /// A lever of the file with `{dep}` resolved.
    pub fn resolve(&self, lever: &str) -> String {
        lever.replace("{dep}", self.dependency.name())
    }

    /// A file's `T:LEVER` list resolved: `{dep}` named, T moved from the onset to drill seconds.
    pub fn timed(&self, levers: &[String]) -> Vec<LeverPull> {
        let mut pulls: Vec<LeverPull> = levers
            .iter()
            .filter_map(|text| LeverPull::parse(&self.resolve(text)).ok())
            .map(|pull| LeverPull {
                t_s: pull.t_s + self.onset_s,
                lever: pull.lever,
            })
            .collect();
        pulls.sort_by(|a, b| a.t_s.total_cmp(&b.t_s));
        pulls
    }

    /// The runbook's sequence in drill seconds, for `--levers runbook` and the tests.
    pub fn runbook(&self) -> Vec<LeverPull> {
        self.timed(&self.incident.runbook_levers)
    }

    /// The file's wrong example in drill seconds.
    pub fn wrong_example(&self) -> Vec<LeverPull> {
        self.timed(std::slice::from_ref(&self.incident.wrong_example))
    }
}

/// The seed's incident for a drill whose incident the learner does not choose.
pub fn choose_incident(incidents: &[IncidentSpec], seed: u64) -> Option<&IncidentSpec> {
    // A stream of its own (seed + a constant), so that the incident's choice does not
    // also fix the first draw of the dependency's choice.
    let mut rng = PyRandom::new(u128::from(seed) + 7_919);
    let pick = (rng.random() * incidents.len() as f64) as usize;
    incidents.get(pick.min(incidents.len().saturating_sub(1)))
}
