//! [`LabId`]: which lab, as a type the compiler checks for completeness.
//!
//! A lab file's `id` is text; once the file is loaded the app and the CLI name a lab only
//! by this enum, so a new variant makes every `match` that must handle it fail to compile.

/// One lab of the app, in the order the home screen lists them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum LabId {
    /// Lab 1: truthful health probes and an ordered shutdown.
    #[default]
    Health,
    /// Lab 2: retry amplification.
    Retry,
    /// Lab 3: a circuit breaker during a brownout.
    Breaker,
    /// Lab 4: overload, goodput and load shedding.
    Overload,
    /// Lab 5: a request's budget (deadlines, Retry-After, idempotency keys, what not to retry).
    Budget,
}

impl LabId {
    /// Every lab, in the order the home screen lists them.
    pub const ALL: [LabId; 5] = [
        LabId::Health,
        LabId::Retry,
        LabId::Breaker,
        LabId::Overload,
        LabId::Budget,
    ];

    /// The id in lab files, file names (`labs/<name>.toml`) and on the command line.
    #[rustfmt::skip]
    pub const fn name(self) -> &'static str {
        match self {
            LabId::Health  => "health",
            LabId::Retry   => "retry",
            LabId::Breaker => "breaker",
            LabId::Overload => "overload",
            LabId::Budget  => "budget",
        }
    }

    /// The lab's number as the material counts them (Lab 1, Lab 2, ...).
    #[rustfmt::skip]
    pub const fn number(self) -> u8 {
        match self {
            LabId::Health  => 1,
            LabId::Retry   => 2,
            LabId::Breaker => 3,
            LabId::Overload => 4,
            LabId::Budget  => 5,
        }
    }

    /// The lab named `name`, if there is one.
    pub fn from_name(name: &str) -> Option<LabId> {
        LabId::ALL.into_iter().find(|lab| lab.name() == name)
    }
}

impl std::fmt::Display for LabId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_numbers_follow_the_order() {
        for (index, lab) in LabId::ALL.into_iter().enumerate() {
            assert_eq!(LabId::from_name(lab.name()), Some(lab));
            assert_eq!(usize::from(lab.number()), index + 1);
        }
        assert_eq!(LabId::from_name("fleet"), None);
        assert_eq!(LabId::Retry.to_string(), "retry");
    }
}
