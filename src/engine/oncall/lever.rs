//! The on-call engineer's levers, named as the Atlas names them, and a timed pull of one.
//!
//! A lever is written `NAME=VALUE`: `inventory.retries=0` (and `=restore`),
//! `recommendations.enabled=off` (and `=on`, soft dependencies only),
//! `payments.breaker=open` (and `=auto`, dependencies with a breaker only), and
//! `shed=on` (and `=off`: fast 503s with Retry-After for sheddable traffic). A pull is
//! `T:LEVER` with T in drill seconds, the form of `--levers` and of an incident's
//! `runbook_levers`.

use std::fmt;

use serde::Serialize;

use super::register::OncallDep;

/// One lever in one position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OncallLever {
    /// `DEP.retries=0` (true) or `DEP.retries=restore` (false): every retry layer the team
    /// controls, the application's and the client library's and the mesh's, down to one attempt.
    RetriesZero(OncallDep, bool),
    /// `DEP.enabled=off` (true) or `=on` (false): no call made, the degraded page served.
    SwitchedOff(OncallDep, bool),
    /// `DEP.breaker=open` (true) or `=auto` (false): every call fails fast, as if open.
    BreakerForced(OncallDep, bool),
    /// `shed=on` (true) or `shed=off` (false).
    Shed(bool),
}

/// What a lever acts on, without its position: a pull and its restore share a knob.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LeverKnob {
    Retries(OncallDep),
    Enabled(OncallDep),
    Breaker(OncallDep),
    Shed,
}

impl OncallLever {
    pub fn knob(self) -> LeverKnob {
        match self {
            OncallLever::RetriesZero(dep, _) => LeverKnob::Retries(dep),
            OncallLever::SwitchedOff(dep, _) => LeverKnob::Enabled(dep),
            OncallLever::BreakerForced(dep, _) => LeverKnob::Breaker(dep),
            OncallLever::Shed(_) => LeverKnob::Shed,
        }
    }

    /// True when the lever moves away from normal running (a pull), false for a restore.
    pub fn is_pull(self) -> bool {
        match self {
            OncallLever::RetriesZero(_, on)
            | OncallLever::SwitchedOff(_, on)
            | OncallLever::BreakerForced(_, on)
            | OncallLever::Shed(on) => on,
        }
    }

    /// Parses `NAME=VALUE`, checked against the register (one line when wrong).
    pub fn parse(text: &str) -> Result<OncallLever, String> {
        let text = text.trim();
        let allowed = "allowed: DEP.retries=0|restore, DEP.enabled=off|on, DEP.breaker=open|auto, shed=on|off";
        let Some((name, value)) = text.split_once('=') else {
            return Err(format!("lever {text:?} has no '=': {allowed}"));
        };
        if name == "shed" {
            return match value {
                "on" => Ok(OncallLever::Shed(true)),
                "off" => Ok(OncallLever::Shed(false)),
                _ => Err(format!("lever {text:?}: shed takes on or off")),
            };
        }
        let Some((dep_name, knob)) = name.rsplit_once('.') else {
            return Err(format!("lever {text:?}: {allowed}"));
        };
        let Some(dep) = OncallDep::from_name(dep_name) else {
            let names: Vec<&str> = OncallDep::ALL.iter().map(|d| d.name()).collect();
            return Err(format!(
                "lever {text:?}: no dependency {dep_name:?} in the register (allowed: {})",
                names.join(", ")
            ));
        };
        let row = dep.row();
        match (knob, value) {
            ("retries", "0") => Ok(OncallLever::RetriesZero(dep, true)),
            ("retries", "restore") => Ok(OncallLever::RetriesZero(dep, false)),
            ("retries", _) => Err(format!("lever {text:?}: retries takes 0 or restore")),
            ("enabled", _) if row.hard => Err(format!(
                "lever {text:?}: {} is a hard dependency and cannot be switched off",
                dep.name()
            )),
            ("enabled", "off") => Ok(OncallLever::SwitchedOff(dep, true)),
            ("enabled", "on") => Ok(OncallLever::SwitchedOff(dep, false)),
            ("enabled", _) => Err(format!("lever {text:?}: enabled takes off or on")),
            ("breaker", _) if !row.breaker => {
                Err(format!("lever {text:?}: {} has no breaker in the register", dep.name()))
            }
            ("breaker", "open") => Ok(OncallLever::BreakerForced(dep, true)),
            ("breaker", "auto") => Ok(OncallLever::BreakerForced(dep, false)),
            ("breaker", _) => Err(format!("lever {text:?}: breaker takes open or auto")),
            _ => Err(format!("lever {text:?}: {allowed}")),
        }
    }
}

impl fmt::Display for OncallLever {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            OncallLever::RetriesZero(dep, on) => {
                write!(f, "{}.retries={}", dep.name(), if on { "0" } else { "restore" })
            }
            OncallLever::SwitchedOff(dep, on) => {
                write!(f, "{}.enabled={}", dep.name(), if on { "off" } else { "on" })
            }
            OncallLever::BreakerForced(dep, on) => {
                write!(f, "{}.breaker={}", dep.name(), if on { "open" } else { "auto" })
            }
            OncallLever::Shed(on) => write!(f, "shed={}", if on { "on" } else { "off" }),
        }
    }
}

impl Serialize for OncallLever {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

/// A lever pulled (or restored) at a moment of the drill.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LeverPull {
    pub t_s: f64,
    pub lever: OncallLever,
}

/// The longest drill a pull may name, in drill seconds.
pub const LAST_PULL_S: f64 = 3_600.0;

impl LeverPull {
    /// Parses `T:LEVER`.
    pub fn parse(text: &str) -> Result<LeverPull, String> {
        let text = text.trim();
        let Some((t, lever)) = text.split_once(':') else {
            return Err(format!("{text:?} is not T:LEVER (e.g. 90:inventory.retries=0)"));
        };
        let t_s = match t.trim().parse::<f64>() {
            Ok(t_s) if t_s.is_finite() && (0.0..=LAST_PULL_S).contains(&t_s) => t_s,
            _ => {
                return Err(format!(
                    "{text:?}: T must be a number of drill seconds from 0 to {LAST_PULL_S}"
                ));
            }
        };
        Ok(LeverPull {
            t_s,
            lever: OncallLever::parse(lever)?,
        })
    }

    /// Parses `T:LEVER,T:LEVER,...` (empty: no levers), sorted by time, ties kept in order.
    pub fn parse_list(text: &str) -> Result<Vec<LeverPull>, String> {
        let mut pulls = text
            .split(',')
            .filter(|part| !part.trim().is_empty())
            .map(LeverPull::parse)
            .collect::<Result<Vec<_>, _>>()?;
        pulls.sort_by(|a, b| a.t_s.total_cmp(&b.t_s));
        Ok(pulls)
    }
}

impl fmt::Display for LeverPull {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.t_s, self.lever)
    }
}

impl Serialize for LeverPull {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_lever_reads_back_as_written() {
        for text in [
            "inventory.retries=0",
            "inventory.retries=restore",
            "recommendations.enabled=off",
            "receipt-store.enabled=on",
            "payments.breaker=open",
            "payments.breaker=auto",
            "shed=on",
            "shed=off",
        ] {
            assert_eq!(OncallLever::parse(text).unwrap().to_string(), text);
        }
    }

    #[test]
    fn the_register_limits_the_levers() {
        assert!(OncallLever::parse("payments.enabled=off").unwrap_err().contains("hard"));
        assert!(
            OncallLever::parse("receipt-store.breaker=open")
                .unwrap_err()
                .contains("no breaker")
        );
        assert!(OncallLever::parse("search.retries=0").unwrap_err().contains("register"));
    }

    #[test]
    fn a_list_is_sorted_by_time() {
        let pulls = LeverPull::parse_list("90:shed=on, 30:inventory.retries=0").unwrap();
        assert_eq!(pulls[0].to_string(), "30:inventory.retries=0");
        assert!(LeverPull::parse_list("-1:shed=on").is_err());
    }
}
