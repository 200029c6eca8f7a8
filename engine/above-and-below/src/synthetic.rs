//! The labelled **synthetic** component set (`data/synthetic-components.json`): a catalogue and
//! a board profile whose every value is made up for tests and the simulator. It is *not* the
//! printed game (whose card texts and board numbers are not available to the project,
//! `docs/rules/above-and-below.md` B.1, A.8); its `source` fields say so, and every log that uses it carries it whole
//! in `setup.catalogue` and `setup.board`, never as a named catalogue.

use serde_json::Value;

/// The JSON file, as shipped in the crate.
pub const COMPONENTS: &str = include_str!("../data/synthetic-components.json");

/// The label every synthetic `source` field carries.
pub const LABEL: &str = "synthetic test data, not the printed game";

/// `(catalogue object, board object)` of the synthetic set.
pub fn components() -> Result<(Value, Value), String> {
    let v: Value = serde_json::from_str(COMPONENTS).map_err(|e| format!("synthetic components: {e}"))?;
    let catalogue = v.get("catalogue").cloned().ok_or("synthetic components: no catalogue")?;
    let board = v.get("board").cloned().ok_or("synthetic components: no board")?;
    Ok((catalogue, board))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_synthetic_set_is_labelled_as_such() {
        let (c, b) = components().unwrap_or_default();
        for v in [&c, &b] {
            assert!(v["source"].as_str().is_some_and(|s| s.starts_with(LABEL)));
        }
    }
}
