//! The form a recorder shows to set up a game as it is laid out at the table
//! ([`GameEngine::setup_form`](crate::GameEngine::setup_form)), and the setup a filled form
//! makes ([`GameEngine::setup_from_form`](crate::GameEngine::setup_from_form)). The engine
//! lays out the choices its setup needs for a player count — each with the options the rules
//! allow there, in printed names — and checks a filled form whole, saying every problem at
//! once; the page only draws the form.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// The setup choices of a game for one player count.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct SetupForm {
    /// The player count it is laid out for.
    pub players: u8,
    pub sections: Vec<FormSection>,
}

/// A group of choices ("Round cards, as revealed").
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct FormSection {
    pub id: String,
    pub title: String,
    /// How the table does it, for people ("2 players: 3 green and 3 red").
    pub hint: String,
    pub fields: Vec<FormField>,
    /// Shown only while field `id` has value `value` (a section that depends on a choice).
    pub shown_when: Option<(String, String)>,
}

/// One choice.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct FormField {
    /// The key its value is sent under.
    pub id: String,
    pub label: String,
    /// The allowed values; empty for a whole number typed in.
    pub options: Vec<FormOption>,
    /// The value chosen at first (`None`: nothing chosen yet).
    pub default: Option<String>,
    /// When set, the page also lets the user upload a JSON file (data the log declares, such
    /// as a game's printed components) whose text becomes the value; says what file it takes.
    pub upload: Option<String>,
}

/// An allowed value and its printed name.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct FormOption {
    pub value: String,
    pub label: String,
}

impl FormOption {
    pub fn new(value: impl Into<String>, label: impl Into<String>) -> FormOption {
        FormOption { value: value.into(), label: label.into() }
    }
}

/// A filled form: the players' names in seat order and each field's value by id.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
pub struct FilledSetup {
    pub names: Vec<String>,
    #[serde(default)]
    pub values: BTreeMap<String, String>,
}

impl FilledSetup {
    /// A filled form of `names` in seat order and `(field, value)` pairs.
    pub fn new(names: &[&str], values: &[(&str, &str)]) -> FilledSetup {
        FilledSetup {
            names: names.iter().map(|n| (*n).to_owned()).collect(),
            values: values.iter().map(|(k, v)| ((*k).to_owned(), (*v).to_owned())).collect(),
        }
    }

    /// The value of field `id`, when one was chosen (an empty value is none).
    pub fn value(&self, id: &str) -> Option<&str> {
        self.values.get(id).map(|v| v.trim()).filter(|v| !v.is_empty())
    }
}

/// The answer to a filled form: the setup when no problem was found, else every problem. A
/// setup the form's own checks pass is still read as a log's would be (`read`, the engine's
/// setup reading), so that a form never makes a setup its log would refuse.
pub fn answer(
    setup: serde_json::Value,
    mut problems: Vec<String>,
    read: impl FnOnce(&serde_json::Value) -> Result<(), String>,
) -> Result<serde_json::Value, Vec<String>> {
    if problems.is_empty() {
        if let Err(why) = read(&setup) {
            problems.push(why);
        }
    }
    if problems.is_empty() {
        Ok(setup)
    } else {
        Err(problems)
    }
}
