//! A lab's pages (`[[page]]` in its file): each page has its own sliders and its own guided
//! steps, and the lab screen shows one page at a time (Lab 1: the single server, then the
//! fleet; key `F` switches).
//!
//! The file says which parameter and which step belongs to which page. Before pages were
//! data the app guessed it from name prefixes (`fleet_` parameters, `fleet.` metrics), so a
//! new page meant new prefixes in the TUI; now a page is a `[[page]]` table and a `page` key
//! on each of its steps, and the content check refuses a file that leaves one unsaid.

use serde::Deserialize;

use crate::content::parameter::ParameterSpec;

/// The page a lab file without `[[page]]` tables gets: every parameter and step on it.
pub const DEFAULT_PAGE_ID: &str = "lab";

/// One page of a lab, as written in its file.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct PageSpec {
    /// The page's name in steps' `page` keys and in the progress file's visited pages.
    pub id: String,
    /// What the steps of another page call it: "Steps 4–11 are in the fleet view".
    pub title: String,
    /// Its name beside a step of this page in another page's lesson: "(F: fleet view)".
    pub short: String,
    /// The page's sliders, by parameter name, in the order the parameter panel lists them.
    #[serde(default)]
    pub parameters: Vec<String>,
}

impl PageSpec {
    /// The one page of a lab file that declares none: all of its parameters.
    pub fn whole_lab(parameters: &[ParameterSpec]) -> Self {
        Self {
            id: DEFAULT_PAGE_ID.to_string(),
            title: "the lab".to_string(),
            short: "the lab".to_string(),
            parameters: parameters.iter().map(|spec| spec.name.clone()).collect(),
        }
    }
}

/// One guided step as the page rules see it: its title and the page it names.
pub struct StepPage<'a> {
    pub title: &'a str,
    pub page: Option<&'a str>,
}

/// The problem with a file's pages: each message names what to fix. `pages` as written
/// (possibly none), `parameters` and `steps` the file's.
pub fn problems(pages: &[PageSpec], parameters: &[ParameterSpec], steps: &[StepPage]) -> PageProblems {
    let mut found = PageProblems::default();
    if pages.is_empty() {
        for (index, step) in steps.iter().enumerate() {
            if let Some(page) = step.page {
                found.steps.push((
                    index,
                    format!(
                        "step \"{}\" names page \"{page}\", but this file declares no [[page]]; remove the key or add the page",
                        step.title
                    ),
                ));
            }
        }
        return found;
    }
    let ids: Vec<&str> = pages.iter().map(|page| page.id.as_str()).collect();
    for (index, page) in pages.iter().enumerate() {
        if ids[..index].contains(&page.id.as_str()) {
            found.pages.push((
                index,
                format!("page id \"{}\" is used twice; ids must be unique", page.id),
            ));
        }
        for (at, name) in page.parameters.iter().enumerate() {
            if !parameters.iter().any(|spec| &spec.name == name) {
                found.pages.push((
                    index,
                    format!(
                        "page \"{}\" lists parameter \"{name}\", which this file does not define",
                        page.id
                    ),
                ));
            } else if page.parameters[..at].contains(name) {
                found
                    .pages
                    .push((index, format!("page \"{}\" lists parameter \"{name}\" twice", page.id)));
            }
        }
    }
    for (index, spec) in parameters.iter().enumerate() {
        let on: Vec<&str> = pages
            .iter()
            .filter(|page| page.parameters.contains(&spec.name))
            .map(|page| page.id.as_str())
            .collect();
        match on.len() {
            1 => {}
            0 => found.parameters.push((
                index,
                format!(
                    "parameter \"{}\" is on no page; list it in one [[page]]'s parameters",
                    spec.name
                ),
            )),
            _ => found.parameters.push((
                index,
                format!(
                    "parameter \"{}\" is on pages {}; a slider belongs to one page",
                    spec.name,
                    on.join(" and ")
                ),
            )),
        }
    }
    for (index, step) in steps.iter().enumerate() {
        match step.page {
            Some(page) if !ids.contains(&page) => found.steps.push((
                index,
                format!(
                    "step \"{}\" names page \"{page}\", which this file does not declare; use one of: {}",
                    step.title,
                    ids.join(", ")
                ),
            )),
            None if pages.len() > 1 => found.steps.push((
                index,
                format!(
                    "step \"{}\" names no page, and this lab has {}; add page = \"...\" (one of: {})",
                    step.title,
                    pages.len(),
                    ids.join(", ")
                ),
            )),
            _ => {}
        }
    }
    found
}

/// What [`problems`] found, by the entry each message points at (its index in the file).
#[derive(Debug, Default)]
pub struct PageProblems {
    pub pages: Vec<(usize, String)>,
    pub parameters: Vec<(usize, String)>,
    pub steps: Vec<(usize, String)>,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(name: &str) -> ParameterSpec {
        ParameterSpec {
            name: name.into(),
            label: name.into(),
            unit: String::new(),
            min: 0.0,
            max: 1.0,
            step: 1.0,
            default: 0.0,
            help: String::new(),
            choices: Vec::new(),
            live_only: false,
        }
    }

    fn step(page: Option<&str>) -> StepPage<'_> {
        StepPage { title: "Try", page }
    }

    fn page(id: &str, parameters: &[&str]) -> PageSpec {
        PageSpec {
            id: id.into(),
            title: id.into(),
            short: id.into(),
            parameters: parameters.iter().map(|name| name.to_string()).collect(),
        }
    }

    #[test]
    fn each_parameter_is_on_one_page_and_each_step_names_a_declared_one() {
        let parameters = [spec("a"), spec("b"), spec("c")];
        let pages = [page("one", &["a", "b"]), page("two", &["b", "x"])];
        let found = problems(
            &pages,
            &parameters,
            &[step(Some("one")), step(None), step(Some("three"))],
        );
        assert_eq!(found.pages.len(), 1, "{found:?}");
        assert!(found.pages[0].1.contains("\"x\""));
        let on: Vec<usize> = found.parameters.iter().map(|(index, _)| *index).collect();
        assert_eq!(on, [1, 2], "b on two pages, c on none: {found:?}");
        let steps: Vec<usize> = found.steps.iter().map(|(index, _)| *index).collect();
        assert_eq!(
            steps,
            [1, 2],
            "no page with two declared, and an unknown one: {found:?}"
        );
        let fine = problems(&[page("one", &["a", "b", "c"])], &parameters, &[step(None)]);
        assert!(fine.pages.is_empty() && fine.parameters.is_empty() && fine.steps.is_empty());
    }
}
