//! A check's settings as a lab file writes them: a `[check.settings]` table of parameter =
//! value, or the text "on screen". The type only, so that `question` can hold it without
//! importing the rules about it (`content::settings`), which read the lab's parameters.

use std::fmt;

use serde::Deserialize;
use serde::de::{self, Deserializer, MapAccess, Visitor};

/// The word a check writes to be scored at the sliders' values.
pub const ON_SCREEN: &str = "on screen";

/// Where a check's run takes its parameters from.
#[derive(Clone, Debug, PartialEq)]
pub enum CheckSettings {
    /// These values, in the file's order: scored at them whatever the sliders say.
    Fixed(Vec<(String, f64)>),
    /// The sliders' values at the moment of the answer; the prompt shows the `shows` ones.
    OnScreen,
}

impl CheckSettings {
    /// The fixed values, or `None` for a check at the settings on screen.
    pub fn fixed(&self) -> Option<&[(String, f64)]> {
        match self {
            CheckSettings::Fixed(values) => Some(values),
            CheckSettings::OnScreen => None,
        }
    }
}

impl<'de> Deserialize<'de> for CheckSettings {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(SettingsVisitor)
    }
}

struct SettingsVisitor;

impl<'de> Visitor<'de> for SettingsVisitor {
    type Value = CheckSettings;

    fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
        write!(
            formatter,
            "a table of parameter = value ([check.settings]) or the text \"{ON_SCREEN}\""
        )
    }

    fn visit_str<E: de::Error>(self, text: &str) -> Result<Self::Value, E> {
        if text == ON_SCREEN {
            Ok(CheckSettings::OnScreen)
        } else {
            Err(E::custom(format!(
                "settings = \"{text}\" is not understood; write settings = \"{ON_SCREEN}\" or a [check.settings] table of parameter = value"
            )))
        }
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut values = Vec::new();
        while let Some((name, value)) = map.next_entry::<String, f64>()? {
            values.push((name, value));
        }
        Ok(CheckSettings::Fixed(values))
    }
}
