//! One lab file: title, objective, book chapter, slider specs, guided steps and checks.

use serde::Deserialize;
use serde::de::IgnoredAny;
use toml::Spanned;

use crate::content::frame_budget;
use crate::content::lab_id::LabId;
use crate::content::location::ContentError;
use crate::content::page::{self, PageSpec};
pub use crate::content::parameter::ParameterSpec;
use crate::content::question::{self, Question};
use crate::content::settings;
use crate::engine::fault::FaultKind;

/// The `format_version` this build reads; a newer file is refused with a message.
pub const FORMAT_VERSION: u32 = 1;

/// A lab file as written in `labs/<id>.toml`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LabFile {
    pub format_version: u32,
    /// The `id` as written; [`parse`] checks it against the file's name and sets [`LabFile::lab`].
    pub id: String,
    /// The lab this file is, as the type the app and the CLI name labs by.
    #[serde(skip)]
    pub lab: LabId,
    pub title: String,
    /// One line: what the learner will be able to explain afterwards.
    pub objective: String,
    /// The book chapter this lab belongs to, a file under `book/src/`.
    pub chapter: String,
    /// A short lesson shown beside the lab (the chapter holds the full text).
    pub lesson: String,
    #[serde(rename = "parameter", default)]
    pub parameters: Vec<ParameterSpec>,
    /// The lab screen's pages ([`crate::content::page`]); a file that declares none gets one,
    /// [`PageSpec::whole_lab`], once checked.
    #[serde(rename = "page", default)]
    pub pages: Vec<PageSpec>,
    /// The ways the live dependency can fall sick that the app offers (Lab 3), named as on
    /// the command line: hang, slow, errors, refuse. Empty offers them all.
    #[serde(default)]
    pub faults: Vec<String>,
    #[serde(rename = "step", default)]
    pub steps: Vec<GuidedStep>,
    #[serde(rename = "check", default)]
    pub checks: Vec<Question>,
}

impl LabFile {
    /// The page guided step `step` (from 0) is on: the one its `page` key names, the first
    /// page without one (a lab of one page).
    pub fn step_page(&self, step: usize) -> usize {
        let named = self.steps.get(step).and_then(|step| step.page.as_deref());
        named
            .and_then(|id| self.pages.iter().position(|page| page.id == id))
            .unwrap_or(0)
    }

    /// The page whose steps ask check `check_id`: that of the first step naming it.
    pub fn check_page(&self, check_id: &str) -> usize {
        self.steps
            .iter()
            .position(|step| step.check.as_deref() == Some(check_id))
            .map_or(0, |step| self.step_page(step))
    }

    /// The page parameter `name` is a slider of.
    pub fn parameter_page(&self, name: &str) -> usize {
        self.pages
            .iter()
            .position(|page| page.parameters.iter().any(|on| on == name))
            .unwrap_or(0)
    }

    /// Page `page`'s sliders, in the order its `parameters` list them.
    pub fn page_parameters(&self, page: usize) -> Vec<ParameterSpec> {
        let Some(page) = self.pages.get(page) else {
            return Vec::new();
        };
        page.parameters
            .iter()
            .filter_map(|name| self.parameters.iter().find(|spec| &spec.name == name))
            .cloned()
            .collect()
    }

    /// The name page `page`'s first visit is saved under in the progress file. The first
    /// page's is `lab` whatever its id: the key of every lab screen's first visit before
    /// pages were data, which saved progress files hold.
    pub fn visit_key(&self, page: usize) -> &str {
        match self.pages.get(page) {
            Some(spec) if page > 0 => &spec.id,
            _ => page::DEFAULT_PAGE_ID,
        }
    }

    /// The fault kinds the app cycles through, in the file's order; all of them if none is named.
    pub fn fault_kinds(&self) -> Vec<FaultKind> {
        let named: Vec<FaultKind> = self
            .faults
            .iter()
            .filter_map(|name| FaultKind::from_name(name))
            .collect();
        if named.is_empty() {
            FaultKind::ALL.to_vec()
        } else {
            named
        }
    }
}

/// A guided step: something to do, optionally with a check that scores it.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct GuidedStep {
    pub title: String,
    pub text: String,
    /// The id of a `[[check]]` in the same file.
    #[serde(default)]
    pub check: Option<String>,
    /// The id of the `[[page]]` the step is done on; required when the lab has more than one.
    #[serde(default)]
    pub page: Option<String>,
}

/// A parameter the engine needs, with the range it accepts.
#[derive(Clone, Copy, Debug)]
pub struct ParameterLimit {
    pub name: &'static str,
    pub min: f64,
    pub max: f64,
    /// Whether only whole numbers make sense (counts, calls per second).
    pub integer: bool,
}

pub(crate) const fn limit(name: &'static str, min: f64, max: f64, integer: bool) -> ParameterLimit {
    ParameterLimit {
        name,
        min,
        max,
        integer,
    }
}

/// The parameters lab `lab_id` must define (none for a name that is no lab).
pub fn required_parameters(lab_id: &str) -> &'static [ParameterLimit] {
    LabId::from_name(lab_id).map_or(&[], required_parameters_of)
}

/// A lab's parameters as its `content/params/<lab>.rs` registers them: each one its lab
/// file must define, with the widest range the engine accepts. The lab's own file adds its
/// row (a distributed slice, `linkme`), so a new lab edits no table here; the registry test
/// holds every `LabId` to exactly one row.
pub struct LabParameterLimits {
    pub lab: LabId,
    pub limits: &'static [ParameterLimit],
    /// What is wrong with the lab file as a whole, given each parameter's largest value by
    /// name (Lab 3: the calls one slider step recomputes must fit in a frame); most labs
    /// have no such rule ([`no_whole_lab_problems`]).
    pub whole_lab_problems: WholeLabProblems,
}

/// A lab's whole-file rule: its problems, given each parameter's largest value by name.
pub type WholeLabProblems = fn(&dyn Fn(&str) -> Option<f64>) -> Vec<String>;

/// For a lab whose parameters' ranges are all [`LabParameterLimits::whole_lab_problems`] needs.
pub fn no_whole_lab_problems(_max_of: &dyn Fn(&str) -> Option<f64>) -> Vec<String> {
    Vec::new()
}

/// Every lab's [`LabParameterLimits`], one row each, in no order.
#[linkme::distributed_slice]
pub static PARAMETER_LIMITS: [LabParameterLimits];

/// The row of `lab`. Every lab registers one (the registry test holds every `LabId` to
/// one row): a lab without would take any lab file, so it stops here rather than fail open.
fn limits_row(lab: LabId) -> &'static LabParameterLimits {
    PARAMETER_LIMITS
        .iter()
        .find(|row| row.lab == lab)
        .unwrap_or_else(|| panic!("lab {lab} registers no row in PARAMETER_LIMITS (content/params/{lab}.rs)"))
}

/// The parameters each lab must define, and the widest range the engine accepts.
pub fn required_parameters_of(lab: LabId) -> &'static [ParameterLimit] {
    limits_row(lab).limits
}

/// Where in a lab file a problem is, before its line is known: the spans are looked up only
/// when something is wrong, because a second parse of a sound file would be wasted (it was
/// about a third of a headless run's start-up).
#[derive(Clone, Copy)]
enum Place {
    File,
    FormatVersion,
    Id,
    Faults,
    Parameter(usize),
    /// One key of a parameter's table (`default`, `min`, ...): the line of the wrong value.
    ParameterField(usize, &'static str),
    Check(usize),
    Step(usize),
    Page(usize),
}

/// The byte span of each entry a message can point at. `IgnoredAny` skips each table's contents.
#[derive(Default, Deserialize)]
struct Spans {
    #[serde(rename = "parameter", default)]
    parameters: Vec<Spanned<ParameterSpans>>,
    #[serde(rename = "step", default)]
    steps: Vec<Spanned<IgnoredAny>>,
    #[serde(rename = "check", default)]
    checks: Vec<Spanned<IgnoredAny>>,
    #[serde(rename = "page", default)]
    pages: Vec<Spanned<IgnoredAny>>,
    #[serde(default)]
    format_version: Option<Spanned<IgnoredAny>>,
    #[serde(default)]
    id: Option<Spanned<IgnoredAny>>,
    #[serde(default)]
    faults: Option<Spanned<IgnoredAny>>,
}

/// Where each key of one `[[parameter]]` table is written.
#[derive(Default, Deserialize)]
struct ParameterSpans {
    name: Option<Spanned<IgnoredAny>>,
    min: Option<Spanned<IgnoredAny>>,
    max: Option<Spanned<IgnoredAny>>,
    step: Option<Spanned<IgnoredAny>>,
    default: Option<Spanned<IgnoredAny>>,
    choices: Option<Spanned<IgnoredAny>>,
    help: Option<Spanned<IgnoredAny>>,
}

impl ParameterSpans {
    fn of(&self, field: &str) -> Option<std::ops::Range<usize>> {
        let key = match field {
            "name" => &self.name,
            "min" => &self.min,
            "max" => &self.max,
            "step" => &self.step,
            "default" => &self.default,
            "choices" => &self.choices,
            "help" => &self.help,
            _ => &None,
        };
        key.as_ref().map(Spanned::span)
    }
}

impl Spans {
    fn of(&self, place: Place) -> Option<std::ops::Range<usize>> {
        match place {
            Place::File => None,
            Place::FormatVersion => self.format_version.as_ref().map(Spanned::span),
            Place::Id => self.id.as_ref().map(Spanned::span),
            Place::Faults => self.faults.as_ref().map(Spanned::span),
            Place::Parameter(index) => self.parameters.get(index).map(Spanned::span),
            // The key's own line; the table's header when the key is not written (a default).
            Place::ParameterField(index, field) => self
                .parameters
                .get(index)
                .map(|parameter| parameter.get_ref().of(field).unwrap_or_else(|| parameter.span())),
            Place::Check(index) => self.checks.get(index).map(Spanned::span),
            Place::Step(index) => self.steps.get(index).map(Spanned::span),
            Place::Page(index) => self.pages.get(index).map(Spanned::span),
        }
    }
}

/// Parses and checks one lab file; `file` names it in messages, `expected` is the lab it must be.
pub fn parse(text: &str, file: &str, expected: LabId) -> Result<LabFile, Vec<ContentError>> {
    let lab: LabFile = toml::from_str(text).map_err(|err| {
        let message = err.message().trim_end().replace('\n', " ");
        vec![ContentError::at(file, text, err.span(), message)]
    })?;
    checked(lab, text, file, expected)
}

/// A built-in lab file, read from the JSON that build.rs wrote of its TOML `text` (the same
/// values, so the same [`LabFile`]) and checked exactly as [`parse`] checks a file. The TOML
/// parser was most of a headless run's own work; `text` is parsed only if the JSON is missing
/// (the TOML did not parse when the binary was built), so that its mistake is reported with
/// its line, or for the places of the problems found.
pub fn parse_built_in(json: &str, text: &str, file: &str, expected: LabId) -> Result<LabFile, Vec<ContentError>> {
    match serde_json::from_str::<LabFile>(json) {
        Ok(lab) => checked(lab, text, file, expected),
        Err(_) => parse(text, file, expected),
    }
}

/// Every rule a lab file must keep beyond its syntax; the problems point into `text`.
fn checked(mut lab: LabFile, text: &str, file: &str, expected: LabId) -> Result<LabFile, Vec<ContentError>> {
    let expected_id = expected.name();
    lab.lab = expected;
    let mut errors: Vec<(Place, String)> = Vec::new();

    if lab.format_version > FORMAT_VERSION {
        errors.push((
            Place::FormatVersion,
            format!(
                "format_version {} is newer than this resilience-lab reads ({FORMAT_VERSION}); update resilience-lab or set format_version = {FORMAT_VERSION}",
                lab.format_version
            ),
        ));
    }
    if lab.id != expected_id {
        errors.push((
            Place::Id,
            format!(
                "id is \"{}\" but this file is the {expected_id} lab; set id = \"{expected_id}\"",
                lab.id
            ),
        ));
    }

    for (index, spec) in lab.parameters.iter().enumerate() {
        let span = Place::Parameter(index);
        if lab.parameters[..index].iter().any(|earlier| earlier.name == spec.name) {
            errors.push((span, format!("parameter \"{}\" is defined twice; keep one", spec.name)));
        }
        for (field, problem) in parameter_problems(expected_id, spec) {
            errors.push((
                Place::ParameterField(index, field),
                format!("parameter \"{}\": {problem}", spec.name),
            ));
        }
        for problem in frame_budget::step_problems(spec.min, spec.max, spec.step) {
            errors.push((span, format!("parameter \"{}\": {problem}", spec.name)));
        }
    }
    let max_of = |name: &str| {
        lab.parameters
            .iter()
            .find(|spec| spec.name == name)
            .map(|spec| spec.max)
    };
    for problem in (limits_row(expected).whole_lab_problems)(&max_of) {
        errors.push((Place::File, problem));
    }
    for required in required_parameters(expected_id) {
        if !lab.parameters.iter().any(|spec| spec.name == required.name) {
            errors.push((
                Place::File,
                format!(
                    "the {expected_id} lab needs a [[parameter]] named \"{}\"; add it",
                    required.name
                ),
            ));
        }
    }

    let default_named = |name: &str| lab.parameters.iter().position(|spec| spec.name == name);
    if let (Some(window), Some(min_calls)) = (default_named("window"), default_named("min_calls"))
        && lab.parameters[min_calls].default > lab.parameters[window].default
    {
        errors.push((
            Place::Parameter(min_calls),
            format!(
                "parameter \"min_calls\": default {} is more than the window's default {}; the breaker could never \
                 open at the defaults: lower it or raise the window",
                lab.parameters[min_calls].default, lab.parameters[window].default
            ),
        ));
    }
    for (index, name) in lab.faults.iter().enumerate() {
        let span = Place::Faults;
        if FaultKind::from_name(name).is_none() {
            let known: Vec<&str> = FaultKind::ALL.iter().map(|kind| kind.name()).collect();
            errors.push((span, format!("fault \"{name}\" is unknown; use {}", known.join(", "))));
        } else if lab.faults[..index].contains(name) {
            errors.push((span, format!("fault \"{name}\" is listed twice; keep one")));
        }
        if expected_id != "breaker" {
            errors.push((
                span,
                "only the breaker lab has a dependency to fall sick; remove faults".to_string(),
            ));
        }
    }
    for (index, check) in lab.checks.iter().enumerate() {
        let span = Place::Check(index);
        if lab.checks[..index].iter().any(|earlier| earlier.id == check.id) {
            errors.push((
                span,
                format!("check id \"{}\" is used twice; ids must be unique", check.id),
            ));
        }
        if check.lab.as_deref().is_some_and(|lab_id| lab_id != expected_id) {
            errors.push((
                span,
                format!("check \"{}\" names another lab; remove its lab key", check.id),
            ));
        }
        for problem in question::problems(check) {
            errors.push((span, format!("check \"{}\": {problem}", check.id)));
        }
        for problem in settings::problems(check, &lab.parameters) {
            errors.push((span, format!("check \"{}\": {problem}", check.id)));
        }
    }
    for (index, step) in lab.steps.iter().enumerate() {
        if let Some(check_id) = &step.check
            && !lab.checks.iter().any(|check| &check.id == check_id)
        {
            errors.push((
                Place::Step(index),
                format!(
                    "step \"{}\" names check \"{check_id}\", which this file does not define",
                    step.title
                ),
            ));
        }
    }
    let steps: Vec<page::StepPage> = lab
        .steps
        .iter()
        .map(|step| page::StepPage {
            title: &step.title,
            page: step.page.as_deref(),
        })
        .collect();
    let pages = page::problems(&lab.pages, &lab.parameters, &steps);
    errors.extend(
        pages
            .pages
            .into_iter()
            .map(|(index, message)| (Place::Page(index), message)),
    );
    errors.extend(
        pages
            .parameters
            .into_iter()
            .map(|(index, message)| (Place::Parameter(index), message)),
    );
    errors.extend(
        pages
            .steps
            .into_iter()
            .map(|(index, message)| (Place::Step(index), message)),
    );
    if errors.is_empty() {
        if lab.pages.is_empty() {
            lab.pages.push(PageSpec::whole_lab(&lab.parameters));
        }
        return Ok(lab);
    }
    // The same text parsed again, only to know where each entry starts; it parsed once, so a
    // failure here can only lose the line numbers, not the messages.
    let spans: Spans = toml::from_str(text).unwrap_or_default();
    Err(errors
        .into_iter()
        .map(|(place, message)| ContentError::at(file, text, spans.of(place), message))
        .collect())
}

/// A help line that tells a learner nothing: empty, or naming the parameter by its
/// identifier (`rate_per_s`), which is how a placeholder reads and no sentence for a reader.
fn help_problem(spec: &ParameterSpec) -> Option<String> {
    let help = spec.help.trim();
    if help.is_empty() {
        return Some("help is empty; say in one line what the slider is, its unit and what it changes".to_string());
    }
    let names_itself = spec.name.contains('_')
        && help
            .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .any(|word| word == spec.name);
    names_itself.then(|| {
        format!(
            "help names the parameter by its identifier ({}); say in words what it is, its unit and what it changes",
            spec.name
        )
    })
}

/// What is wrong with one slider spec, in words that say what to fix, each with the key whose
/// line a message points at.
fn parameter_problems(lab_id: &str, spec: &ParameterSpec) -> Vec<(&'static str, String)> {
    let mut problems = Vec::new();
    if spec.step.is_nan() || spec.step <= 0.0 {
        problems.push(("step", format!("step is {}; it must be above 0", spec.step)));
    }
    if spec.min.is_nan() || spec.max.is_nan() || spec.min >= spec.max {
        problems.push(("min", format!("min {} must be below max {}", spec.min, spec.max)));
    }
    if !(spec.min <= spec.default && spec.default <= spec.max) {
        problems.push((
            "default",
            format!(
                "default {} is outside min {} to max {}",
                spec.default, spec.min, spec.max
            ),
        ));
    }
    if let Some(problem) = help_problem(spec) {
        problems.push(("help", problem));
    }
    if !spec.choices.is_empty() {
        let values = ((spec.max - spec.min) / spec.step).round() + 1.0;
        if values != spec.choices.len() as f64 {
            problems.push((
                "choices",
                format!(
                    "{} choices for {values} values ({} to {}, step {}): name every value once",
                    spec.choices.len(),
                    spec.min,
                    spec.max,
                    spec.step
                ),
            ));
        }
    }
    let limits = required_parameters(lab_id);
    match limits.iter().find(|limit| limit.name == spec.name) {
        None => {
            let known: Vec<&str> = limits.iter().map(|limit| limit.name).collect();
            problems.push((
                "name",
                format!(
                    "the {lab_id} lab has no such parameter; use one of: {}",
                    known.join(", ")
                ),
            ));
        }
        Some(limit) => {
            if spec.min < limit.min || spec.max > limit.max {
                let field = if spec.min < limit.min { "min" } else { "max" };
                problems.push((
                    field,
                    format!(
                        "range {} to {} goes beyond what the lab accepts ({} to {})",
                        spec.min, spec.max, limit.min, limit.max
                    ),
                ));
            }
            let whole = |x: f64| x.fract() == 0.0;
            if limit.integer && !(whole(spec.min) && whole(spec.max) && whole(spec.step) && whole(spec.default)) {
                let field = [
                    ("min", spec.min),
                    ("max", spec.max),
                    ("step", spec.step),
                    ("default", spec.default),
                ]
                .into_iter()
                .find(|(_, x)| !whole(*x))
                .map_or("default", |(name, _)| name);
                problems.push((
                    field,
                    "counts take whole numbers: make min, max, step and default whole".to_string(),
                ));
            }
        }
    }
    problems
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_lab_registers_its_parameter_limits_once() {
        for lab in LabId::ALL {
            let rows = PARAMETER_LIMITS.iter().filter(|row| row.lab == lab).count();
            assert_eq!(rows, 1, "{lab}: {rows} rows in PARAMETER_LIMITS");
            assert!(!required_parameters_of(lab).is_empty(), "{lab}");
        }
        assert_eq!(PARAMETER_LIMITS.len(), LabId::ALL.len());
    }

    #[test]
    fn display_uses_the_step_decimals_and_unit() {
        let spec = ParameterSpec {
            name: "timeout_ms".into(),
            label: "Timeout".into(),
            unit: "ms".into(),
            min: 10.0,
            max: 2000.0,
            step: 10.0,
            default: 200.0,
            help: String::new(),
            choices: Vec::new(),
            live_only: false,
        };
        assert_eq!(spec.display(200.0), "200 ms");
        let ratio = ParameterSpec {
            unit: String::new(),
            step: 0.05,
            ..spec
        };
        assert_eq!(ratio.decimals(), 2);
        assert_eq!(ratio.display(0.5), "0.50");
        let policy = ParameterSpec {
            min: 0.0,
            max: 2.0,
            step: 1.0,
            choices: vec!["fifo".into(), "age-cap".into(), "lifo".into()],
            ..ratio
        };
        assert_eq!(policy.display(1.0), "age-cap", "a choice shows its name, not its index");
        assert_eq!(policy.display(2.0), "lifo");
    }
}
