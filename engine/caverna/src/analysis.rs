//! A Caverna log judged move by move (docs/analysis.md): every placement (`place` entry) is
//! searched by the strong bot ([`crate::bots::strong`]) from the position where it was
//! decided, with the move played among the candidates; the other entries (harvest choices,
//! feeding, breeding, keeping) follow from a placement's plan and are not judged.

use chronicle_game::analysis::{MoveAnalysis, Worth, SPREAD_Z};
use chronicle_game::Status;
use serde_json::Value;

use crate::bots::strong::{search, Estimate};
use crate::game::{Game, Phase};
use crate::notation::Entry;
use crate::replay::{replay, replay_until};

/// The `place` entries of a log that is legal to its end (complete or not), in order.
pub fn analysis_moves(log: &[u8]) -> Result<Vec<usize>, String> {
    let full = replay(log);
    if let (Status::Invalid, Some(e)) = (full.status, full.error.as_ref()) {
        return Err(match e.entry {
            Some(n) => format!("the log is not legal at entry {n} ({}); only legal play is analysed", e.message),
            None => format!("the log cannot be read ({}); only legal play is analysed", e.message),
        });
    }
    Ok(entries(log)?.iter().enumerate().filter(|(_, e)| matches!(e, Entry::Place { .. })).map(|(i, _)| i).collect())
}

/// Entry `entry` (a placement) judged by the strong bot with `budget` playouts from `seed`.
pub fn analyse_move(log: &[u8], entry: usize, budget: u32, seed: u64) -> Result<MoveAnalysis, String> {
    let played = entries(log)?.into_iter().nth(entry).ok_or_else(|| format!("the log has no entry {entry}"))?;
    let before = replay_until(log, Some(entry));
    let game = before.game.filter(|_| before.status != Status::Invalid);
    let mut game = game.ok_or_else(|| format!("the log is not legal before entry {entry}"))?;
    to_placement(&mut game);
    let game = &game;
    let (Phase::Work { to_move }, Entry::Place { player, .. }) = (*game.phase(), &played) else {
        return Err(format!("entry {entry} is not a placement; only placements are analysed"));
    };
    if *player as usize != to_move {
        return Err(format!("entry {entry} is not the placement of the player to move"));
    }
    let found = search(game, to_move, budget, seed, Some(&played));
    let best = found.best().ok_or("no placement could be played out")?;
    let mine = found.of(&played).ok_or("the move played could not be played out")?;
    let words = |e: &Estimate| worth(game, e);
    let diff = mine.paired_difference(best);
    Ok(MoveAnalysis::new(entry, u16::from(game.round()), to_move, words(mine), words(best), diff))
}

/// Closes the windows a placement closes when it comes (feeding, breeding, keeping: each with
/// its default, as the replay does), so that the game stands where the placement is decided.
/// A round has at most three such windows before its next placement: the bound of the loop.
fn to_placement(game: &mut Game) {
    for _ in 0..4 {
        match game.phase() {
            Phase::Feeding { .. } | Phase::Breeding { .. } | Phase::Keep => game.close_window(),
            _ => return,
        }
    }
}

fn worth(game: &Game, e: &Estimate) -> Worth {
    Worth {
        words: crate::consequences::label(game, &e.entry),
        points: e.mean_points(),
        spread: SPREAD_Z * e.points_error(),
        win_chance: e.win_chance(),
        playouts: e.playouts(),
    }
}

/// The log's entries, typed (the log was read whole by the replay before: its size is bounded
/// by the replay's limits).
fn entries(log: &[u8]) -> Result<Vec<Entry>, String> {
    let doc: Value = serde_json::from_slice(log).map_err(|e| format!("the log cannot be read: {e}"))?;
    let list = doc.get("entries").and_then(Value::as_array).ok_or("the log has no entries")?;
    list.iter()
        .enumerate()
        .map(|(i, v)| serde_json::from_value(v.clone()).map_err(|e| format!("entry {i} cannot be read: {e}")))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bots::{play_on, seat_bots, simulate_seat_bots, Bot, StrategyBot, Style};
    use crate::legal::{self, Enumerate, Limits};
    use crate::notation::FurnishingSet;
    use crate::shuffle::SplitMix64;
    use serde_json::json;

    /// A solo game by the weapons bot, and the index of its last placement.
    fn solo_game() -> (Value, usize) {
        let seats = seat_bots("weapons", 1, 11, None).expect("bots");
        let sim = simulate_seat_bots(&seats, FurnishingSet::Full, 11).expect("a game");
        let last = sim.entries.iter().rposition(|e| matches!(e, Entry::Place { .. })).expect("a placement");
        (sim.log(), last)
    }

    /// The log's entries before `at`, then `entry`.
    fn with_entry(log: &Value, at: usize, entry: &Entry) -> Vec<u8> {
        let mut entries: Vec<Value> = log["entries"].as_array().expect("entries")[..at].to_vec();
        entries.push(serde_json::to_value(entry).expect("an entry"));
        json!({ "format": "caverna-log/1", "setup": log["setup"], "entries": entries }).to_string().into_bytes()
    }

    /// The final score of the solo player after `entry` in `game`, the game finished by a
    /// strategy bot (the last round has nothing hidden: one score per placement).
    fn final_score(game: &Game, entry: &Entry) -> Option<i64> {
        let mut game = Box::new(game.clone());
        game.play_entry(entry).ok()?;
        let bot = StrategyBot::new(Style::Weapons);
        play_on(&mut game, &[&bot as &dyn Bot], &mut SplitMix64::new(1), None).ok()?;
        game.results().map(|(r, _)| r[0].score.total)
    }

    /// docs/analysis.md "Sanity": at a solo game's last placement (nothing hidden is left),
    /// the worst legal placement is marked with what it lost, and the best move found, played
    /// instead, is not marked; the best found is at least as good as the greedy bot's move.
    #[test]
    fn the_last_placement_of_a_solo_game_marks_the_worst_move_and_not_the_best() {
        let (log, last) = solo_game();
        let bytes = log.to_string().into_bytes();
        let mut game = replay_until(&bytes, Some(last)).game.expect("a game");
        to_placement(&mut game);
        let all = legal::places(&game, 0, &Limits::default(), &mut Enumerate);
        let scored: Vec<(i64, &Entry)> = all.iter().filter_map(|e| final_score(&game, e).map(|s| (s, e))).collect();
        let (worst, bad) = scored.iter().min_by_key(|(s, _)| *s).copied().expect("placements");
        let greedy = final_score(&game, &entries(&bytes).expect("entries")[last]).expect("the bot's move");
        assert!(greedy - worst >= 3, "the position has a costly move: greedy {greedy}, worst {worst}");

        let bad_log = with_entry(&log, last, bad);
        let judged = analyse_move(&bad_log, last, 16, 7).expect("analysed");
        assert!(judged.mark.is_some() && judged.lost >= 3.0, "{judged:?}");
        assert!(judged.best.points >= greedy as f64, "best found {} < the greedy bot's {greedy}", judged.best.points);

        let best = search(&game, 0, 16, 7, None).best().expect("a best move").entry.clone();
        let good = analyse_move(&with_entry(&log, last, &best), last, 16, 7).expect("analysed");
        assert!(good.played_best && good.mark.is_none() && good.lost == 0.0, "{good:?}");
    }

    /// docs/analysis.md "Determinism": the same log, budget and seed give the same analysis;
    /// another seed may differ but judges the same entry.
    #[test]
    fn the_same_seed_and_budget_give_the_same_analysis() {
        let seats = seat_bots("mixed", 3, 4, None).expect("bots");
        let log = simulate_seat_bots(&seats, FurnishingSet::Full, 4).expect("a game").log().to_string().into_bytes();
        let moves = analysis_moves(&log).expect("placements");
        let at = moves[moves.len() / 2];
        let a = analyse_move(&log, at, 6, 99).expect("analysed");
        assert_eq!(a, analyse_move(&log, at, 6, 99).expect("analysed"));
        assert_eq!(analyse_move(&log, at, 6, 100).expect("analysed").entry, at);
    }

    /// Only legal play is analysed, and only placements are judged.
    #[test]
    fn an_invalid_log_or_an_entry_that_is_not_a_placement_is_refused() {
        let (log, last) = solo_game();
        let bytes = log.to_string().into_bytes();
        let all = entries(&bytes).expect("entries");
        if let Some(other) = all.iter().position(|e| !matches!(e, Entry::Place { .. })) {
            assert!(analyse_move(&bytes, other, 4, 1).is_err());
        }
        let mut broken = log.clone();
        broken["entries"][last] = json!({ "type": "place", "player": 0, "space": "no_such_space" });
        assert!(analysis_moves(broken.to_string().as_bytes()).is_err());
    }
}
