//! Toy: a made-up game, for tests only. It is not a real game and none of its data is a real
//! game's: it exists to show that storage, deduplication, verification, tournaments and score
//! rows work for a second game through [`GameEngine`] and one registry line, without touching
//! Caverna's code.
//!
//! Rules: 2 or 3 players move in seat order for [`ROUNDS`] rounds; each entry is
//! `{"player": p, "steps": n}` with n from 1 to 3. Score rows: `steps` (the player's steps) and
//! `bonus` (the same again in the `doubled` variant, 0 in `plain`). Highest total wins; ties
//! share the win.
//!
//! ```json
//! {"format": "toy-log/1", "setup": {"players": ["Ada", "Bo"], "variant": "plain"},
//!  "entries": [{"player": 0, "steps": 2}, {"player": 1, "steps": 3}], "claimed": {"scores": [2, 3]}}
//! ```

use chronicle_game::envelope;
use chronicle_game::kind::TOY;
use chronicle_game::view::{Count, Panel, ScoreNow};
use chronicle_game::{
    rank, BoardView, GameEngine, GameKind, Legal, LogError, Meta, PlayerVerdict, Position, Score, ScoreRow, StateAt,
    Status, Verdict, Visit, Walk,
};
use serde_json::{json, Value};

/// Rounds in a game.
pub const ROUNDS: usize = 3;

/// Most entries accepted in one log.
pub const MAX_ENTRIES: usize = 100_000;

/// The toy engine.
pub struct Toy;

/// A replay of a toy log.
#[derive(Clone, Debug)]
pub struct ToyReplay {
    verdict: Verdict,
    /// Steps per player after the last legal entry; empty without a valid setup.
    steps: Vec<i64>,
    doubled: bool,
}

fn fail(entry: Option<usize>, player: Option<usize>, code: &str, message: impl Into<String>) -> LogError {
    let message: String = message.into();
    LogError::new(entry, player, code, &message)
}

fn base(meta: Meta) -> Verdict {
    Verdict {
        game: Some(GameKind::Toy),
        engine_version: Toy::VERSION.to_owned(),
        status: Status::Invalid,
        error: None,
        meta,
        variant: None,
        player_count: None,
        round_reached: 0,
        entries_applied: 0,
        players: Vec::new(),
        synthetic_data: false,
    }
}

fn invalid(mut verdict: Verdict, error: LogError, steps: Vec<i64>, doubled: bool) -> ToyReplay {
    verdict.status = Status::Invalid;
    verdict.error = Some(error);
    ToyReplay { verdict, steps, doubled }
}

/// The log as a JSON tree, once its envelope is read as every engine reads it
/// ([`envelope::read`]); otherwise the envelope's fault, with the meta read before it.
// Called once per replay: the size of its error does not matter.
#[allow(clippy::result_large_err)]
fn document(log: &[u8]) -> Result<(Value, Meta), (LogError, Meta)> {
    let meta = match envelope::read(log, TOY.format, MAX_ENTRIES) {
        Ok(parts) => parts.meta,
        Err(f) => return Err((fail(None, None, f.code.as_str(), f.message), f.meta)),
    };
    match serde_json::from_slice(log) {
        Ok(doc) => Ok((doc, meta)),
        Err(e) => Err((fail(None, None, envelope::codes::MALFORMED_JSON, e.to_string()), Meta::default())),
    }
}

fn replay(log: &[u8], limit: Option<usize>) -> ToyReplay {
    let (doc, meta) = match document(log) {
        Ok(read) => read,
        Err((error, meta)) => return invalid(base(meta), error, vec![], false),
    };
    let mut v = base(meta);
    let names: Vec<String> = match doc["setup"]["players"].as_array() {
        Some(a) if a.iter().all(Value::is_string) => a.iter().filter_map(|n| n.as_str().map(str::to_owned)).collect(),
        _ => return invalid(v, fail(None, None, "bad_setup", "setup.players is a list of names"), vec![], false),
    };
    if !TOY.players().contains(&u8::try_from(names.len()).unwrap_or(u8::MAX)) {
        return invalid(v, fail(None, None, "bad_setup", "a toy game has 2 or 3 players"), vec![], false);
    }
    let variant = doc["setup"]["variant"].as_str().unwrap_or("plain");
    if !TOY.variants.contains(&variant) {
        return invalid(v, fail(None, None, "bad_setup", format!("unknown variant {variant}")), vec![], false);
    }
    let doubled = variant == "doubled";
    v.variant = Some(variant.to_owned());
    v.player_count = u8::try_from(names.len()).ok();
    v.round_reached = 1;
    v.players = names
        .iter()
        .map(|name| PlayerVerdict {
            name: name.clone(),
            id: None,
            score: None,
            rank: None,
            winner: false,
            claimed: None,
            counters: Vec::new(),
        })
        .collect();
    let entries = doc["entries"].as_array().cloned().unwrap_or_default();
    let mut steps = vec![0i64; names.len()];
    let end = names.len() * ROUNDS;
    for (i, entry) in entries.iter().enumerate().take(limit.unwrap_or(usize::MAX)) {
        let seat = i % names.len();
        if i >= end {
            return invalid(v, fail(Some(i), None, "game_over", "the game is over"), steps, doubled);
        }
        if entry["player"].as_u64() != u64::try_from(seat).ok() {
            return invalid(
                v,
                fail(Some(i), Some(seat), "not_your_turn", format!("player {seat} moves")),
                steps,
                doubled,
            );
        }
        let Some(n) = entry["steps"].as_i64().filter(|n| (1..=3).contains(n)) else {
            return invalid(v, fail(Some(i), Some(seat), "bad_steps", "a move takes 1 to 3 steps"), steps, doubled);
        };
        steps[seat] += n;
        v.entries_applied = i + 1;
        v.round_reached = u16::try_from((i + 1) / names.len() + 1).unwrap_or(u16::MAX).min(ROUNDS as u16);
    }
    if v.entries_applied < end {
        v.status = Status::Incomplete;
        return ToyReplay { verdict: v, steps, doubled };
    }
    let claimed: Vec<Option<i64>> =
        (0..names.len()).map(|p| doc["claimed"]["scores"].get(p).and_then(Value::as_i64)).collect();
    let totals: Vec<i64> = steps.iter().map(|s| if doubled { 2 * s } else { *s }).collect();
    let ranks = rank(&totals);
    for (p, player) in v.players.iter_mut().enumerate() {
        let rows = vec![
            ScoreRow { id: "steps".into(), points: steps[p] },
            ScoreRow { id: "bonus".into(), points: if doubled { steps[p] } else { 0 } },
        ];
        player.score = Some(Score { rows, total: totals[p] });
        player.rank = ranks.get(p).copied();
        player.winner = player.rank == Some(1);
        player.claimed = claimed[p];
    }
    v.status = Status::Complete;
    ToyReplay { verdict: v, steps, doubled }
}

impl Position for ToyReplay {
    fn counts(&self) -> Vec<std::collections::BTreeMap<String, i64>> {
        self.steps.iter().map(|n| [("steps".to_owned(), *n)].into_iter().collect()).collect()
    }

    /// Each player's steps and the score if the game ended now.
    fn view(&self) -> BoardView {
        let to_move =
            (self.verdict.status == Status::Incomplete).then(|| self.verdict.entries_applied % self.steps.len());
        let panel = |(seat, (p, n)): (usize, (&PlayerVerdict, &i64))| Panel {
            seat: Some(seat),
            name: p.name.clone(),
            counts: vec![Count::new("steps", "steps", *n)],
            score: Some(ScoreNow {
                rows: vec![("steps".into(), *n), ("bonus".into(), if self.doubled { *n } else { 0 })],
                total: if self.doubled { 2 * n } else { *n },
            }),
            ..Panel::default()
        };
        BoardView {
            round: self.verdict.round_reached,
            phase: "moving".to_owned(),
            to_move,
            notes: vec![format!("Variant: {}", if self.doubled { "doubled" } else { "plain" })],
            players: self.verdict.players.iter().zip(&self.steps).enumerate().map(panel).collect(),
            ..BoardView::default()
        }
    }
}

impl GameEngine for Toy {
    const KIND: GameKind = GameKind::Toy;
    const VERSION: &'static str = "toy-1";
    type Replay = ToyReplay;

    fn replay(log: &[u8]) -> ToyReplay {
        replay(log, None)
    }

    fn replay_until(log: &[u8], entries: usize) -> ToyReplay {
        replay(log, Some(entries))
    }

    fn verdict(r: &ToyReplay) -> Verdict {
        r.verdict.clone()
    }

    fn state_view(r: &ToyReplay) -> Option<StateAt> {
        if r.steps.is_empty() {
            return None;
        }
        let to_move = (r.verdict.status == Status::Incomplete).then(|| r.verdict.entries_applied % r.steps.len());
        Some(StateAt {
            round: r.verdict.round_reached,
            phase: "move".to_owned(),
            state: json!({ "steps": r.steps, "doubled": r.doubled, "to_move": to_move }),
        })
    }

    fn legal_entries(r: &ToyReplay, limit: usize) -> Legal {
        if r.verdict.status != Status::Incomplete || r.steps.is_empty() {
            return Legal { entries: Vec::new(), complete: true };
        }
        let player = r.verdict.entries_applied % r.steps.len();
        let entries: Vec<Value> = (1..=3).take(limit).map(|n| json!({ "player": player, "steps": n })).collect();
        Legal { complete: entries.len() == 3, entries }
    }

    /// One replay per stop: a toy game has at most [`ROUNDS`] × 3 legal entries.
    fn walk(log: &[u8], visit: Walk<'_>) {
        let full = replay(log, None);
        if full.steps.is_empty() {
            return;
        }
        let texts: Vec<String> = serde_json::from_slice::<Value>(log)
            .ok()
            .and_then(|d| d["entries"].as_array().map(|a| a.iter().map(Value::to_string).collect()))
            .unwrap_or_default();
        let seats = full.steps.len();
        let round = |i: usize| u16::try_from(i / seats + 1).unwrap_or(u16::MAX);
        visit(Visit::setup(1, &replay(log, Some(0))));
        for i in 0..full.verdict.entries_applied {
            let text = texts.get(i).map_or("", String::as_str);
            visit(Visit::applied(i, round(i), Some(i % seats), text, &replay(log, Some(i + 1))));
        }
        let refused = full.verdict.error.as_ref().and_then(|e| e.entry);
        if let Some(i) = refused.filter(|&i| i < texts.len()) {
            visit(Visit::refused(i, round(i), Some(i % seats), &texts[i], &full));
        }
    }

    /// The toy notation: a JSON object whose `setup.players` is a list of names and whose
    /// `entries` are objects with a whole `player` and `steps`.
    fn parse_only(log: &[u8]) -> Result<usize, LogError> {
        let (doc, _) = document(log).map_err(|(e, _)| e)?;
        if !doc["setup"]["players"].as_array().is_some_and(|a| a.iter().all(Value::is_string)) {
            return Err(fail(None, None, "bad_setup", "setup.players is a list of names"));
        }
        let entries = doc["entries"].as_array().map(Vec::as_slice).unwrap_or(&[]);
        for (i, entry) in entries.iter().enumerate() {
            if entry["player"].as_u64().is_none() || entry["steps"].as_i64().is_none() {
                return Err(fail(Some(i), None, "bad_steps", "an entry is {\"player\": seat, \"steps\": n}"));
            }
        }
        Ok(entries.len())
    }

    fn simulate(seed: u64, players: u8) -> Result<Value, String> {
        if !TOY.players().contains(&players) {
            return Err("a toy game has 2 or 3 players".to_owned());
        }
        let names: Vec<String> = (0..players).map(|p| format!("toy {p}")).collect();
        let entries: Vec<Value> = (0..usize::from(players) * ROUNDS)
            .map(|i| json!({ "player": i % usize::from(players), "steps": 1 + (seed.wrapping_add(i as u64) % 3) }))
            .collect();
        Ok(json!({ "format": TOY.format, "setup": { "players": names, "variant": "plain" }, "entries": entries }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn log(entries: &str) -> Vec<u8> {
        format!(r#"{{"format": "toy-log/1", "setup": {{"players": ["A", "B"], "variant": "doubled"}}, "entries": [{entries}]}}"#)
            .into_bytes()
    }

    #[test]
    fn a_whole_game_is_scored_by_its_rows() {
        let full = r#"{"player": 0, "steps": 3}, {"player": 1, "steps": 1}, {"player": 0, "steps": 1},
                      {"player": 1, "steps": 2}, {"player": 0, "steps": 1}, {"player": 1, "steps": 1}"#;
        let v = Toy::verdict(&Toy::replay(&log(full)));
        assert_eq!(v.status, Status::Complete);
        let a = v.players[0].score.clone().unwrap_or(Score { rows: vec![], total: 0 });
        assert_eq!((a.row("steps"), a.row("bonus"), a.total), (Some(5), Some(5), 10));
        assert!(v.players[0].winner && !v.players[1].winner);
    }

    #[test]
    fn a_move_out_of_turn_is_refused_where_it_happens() {
        let v = Toy::verdict(&Toy::replay(&log(r#"{"player": 0, "steps": 3}, {"player": 0, "steps": 1}"#)));
        assert_eq!(v.status, Status::Invalid);
        let e = v.error.unwrap_or_else(|| fail(None, None, "", ""));
        assert_eq!((e.entry, e.code.as_str()), (Some(1), "not_your_turn"));
    }

    #[test]
    fn simulated_games_are_complete() {
        let log = Toy::simulate(5, 3).map(|v| v.to_string()).unwrap_or_default();
        assert_eq!(Toy::verdict(&Toy::replay(log.as_bytes())).status, Status::Complete);
    }
}
