//! The JSON and text reports of `chronicle replay` and `chronicle state`.

use serde_json::{json, Map, Value};

use chronicle_caverna::{Replay, Status, ENGINE_VERSION};

/// One line of `chronicle replay --json` (`error` only when invalid; scores, winners and
/// claimed mismatches only when complete).
pub fn replay_json(file: &str, r: &Replay) -> Value {
    let mut o = Map::new();
    o.insert("file".into(), json!(file));
    o.insert("status".into(), json!(r.status));
    o.insert("round".into(), json!(r.round()));
    o.insert("engine".into(), json!(ENGINE_VERSION));
    if let Some(e) = &r.error {
        let message = chronicle_game::bounded_message(&e.message);
        o.insert("error".into(), json!({ "entry": e.entry, "player": e.player, "code": e.code, "message": message }));
    }
    if let Some(scores) = &r.scores {
        o.insert("players".into(), json!(scores));
        o.insert("winners".into(), json!(r.winners));
        o.insert("claimed_mismatches".into(), json!(r.claimed_mismatches));
    }
    Value::Object(o)
}

/// The human summary of one replay.
pub fn replay_text(file: &str, r: &Replay) -> String {
    match r.status {
        Status::Invalid => {
            let e = r.error.as_ref();
            let at = match e.and_then(|e| e.entry) {
                Some(i) => format!("entry {i}"),
                None => "the document".into(),
            };
            let player = e.and_then(|e| e.player).map(|p| format!(" (player {p})")).unwrap_or_default();
            let (code, msg) = e.map(|e| (e.code.as_str(), e.message.as_str())).unwrap_or(("", ""));
            format!("{file}: invalid at {at}{player}: {code}: {}", chronicle_game::bounded_message(msg))
        }
        Status::Incomplete => {
            let waiting = r
                .game
                .as_ref()
                .map(|g| match g.to_move() {
                    Some(p) => format!(", player {p} to place a dwarf"),
                    None => format!(", waiting in the {} phase", g.phase().id()),
                })
                .unwrap_or_default();
            format!("{file}: valid, incomplete at round {}{waiting}", r.round())
        }
        Status::Complete => {
            let scores = r.scores.as_deref().unwrap_or(&[]);
            let list: Vec<String> = scores.iter().map(|p| format!("{} {}", p.name, p.score.total)).collect();
            let winners: Vec<&str> = r.winners.iter().filter_map(|&w| scores.get(w)).map(|p| p.name.as_str()).collect();
            let mut line = format!("{file}: valid, complete: {}; winner: {}", list.join(", "), winners.join(" and "));
            for m in &r.claimed_mismatches {
                line.push_str(&format!(
                    "\n  claimed score of player {} is {}, computed {}",
                    m.player, m.claimed, m.computed
                ));
            }
            line
        }
    }
}

/// Totals for `chronicle replay --summary`.
#[derive(Debug, Default)]
pub struct Totals {
    pub logs: usize,
    pub complete: usize,
    pub incomplete: usize,
    pub invalid: usize,
}

impl Totals {
    pub fn add(&mut self, status: Status) {
        self.logs += 1;
        match status {
            Status::Complete => self.complete += 1,
            Status::Incomplete => self.incomplete += 1,
            Status::Invalid => self.invalid += 1,
        }
    }

    pub fn json(&self) -> Value {
        json!({ "logs": self.logs, "complete": self.complete, "incomplete": self.incomplete, "invalid": self.invalid })
    }
}

/// The replay of a log up to and including entry `at` (the whole log when `None`), for showing
/// the state there (`chronicle state`, the API's `replay`). Refuses entries that do not exist or
/// are not legal.
pub fn state_at(input: &[u8], at: Option<usize>) -> Result<chronicle_caverna::Replay, String> {
    let full = chronicle_caverna::replay(input);
    let Some(n) = at else { return Ok(full) };
    if let Some(e) = full.error.as_ref().and_then(|e| e.entry).filter(|&i| n >= i) {
        return Err(format!("entry {n} is not legal: the log is invalid at entry {e}"));
    }
    if n >= full.entries_applied {
        return Err(format!("entry {n} does not exist; the log has {} entries", full.entries_applied));
    }
    Ok(chronicle_caverna::replay_until(input, Some(n + 1)))
}

/// The legal alternatives to an illegal entry, one per line under the report (`replay
/// --explain`).
pub fn alternatives_text(legal: &chronicle_game::Legal) -> String {
    let mut text = String::new();
    if legal.entries.is_empty() {
        text.push_str("\n  no legal alternative here (the setup or the envelope is invalid, or the game is over)");
        return text;
    }
    let more = if legal.complete { "" } else { " (not every legal entry: see docs/api.md, legalEntries)" };
    text.push_str(&format!("\n  legal instead{more}:"));
    for entry in &legal.entries {
        text.push_str(&format!("\n    {entry}"));
    }
    text
}
