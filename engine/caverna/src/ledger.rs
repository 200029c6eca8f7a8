//! The walk of a log (`GameEngine::walk`): every legal entry applied once, showing each
//! position, with what a Caverna position counts — goods (including animals), begging markers,
//! spaces covered, stables, furnishings, dwarfs, and the score the pad would show if the game
//! were scored at that moment (`points`). Core compares the counts into the ledger; nothing
//! here is a rule.

use std::collections::BTreeMap;

use chronicle_game::{BoardView, Position, Visit, Walk};

use crate::game::{Game, Phase, Player};
use crate::goods::Good;
use crate::replay::{parse_document, player_hint, step_raw, tree_error, validated};
use crate::scoring::score;

/// The counted items of a player, by id, in ledger order.
fn counts(p: &Player) -> BTreeMap<String, i64> {
    let mut c = BTreeMap::new();
    for g in Good::ALL {
        c.insert(g.id().to_owned(), i64::from(p.supply.get(g)));
    }
    c.insert("begging".into(), i64::from(p.begging));
    c.insert("spaces_covered".into(), p.board.tiles().count() as i64);
    c.insert("stables".into(), p.board.stables() as i64);
    c.insert("furnishings".into(), p.board.furnishings().count() as i64);
    c.insert("dwarfs".into(), i64::from(p.dwarfs_in_play()));
    c.insert("points".into(), score(p).total);
    c
}

impl Position for Game {
    fn counts(&self) -> Vec<BTreeMap<String, i64>> {
        self.players().iter().map(counts).collect()
    }

    fn view(&self) -> BoardView {
        crate::view::board_view(self)
    }

    /// The entry as a sentence ([`crate::sentence`]); an entry the notation cannot read is
    /// said in words.
    fn describe(&self, entry: &str) -> String {
        let names: Vec<String> = self.players().iter().map(|p| p.name.to_string()).collect();
        match serde_json::from_str::<crate::notation::Entry>(entry) {
            Ok(e) => {
                let name = names.get(e.player() as usize).map_or("A player", String::as_str);
                crate::sentence::sentence(&e, name)
            }
            Err(_) => chronicle_game::view::entry_words(entry, &names),
        }
    }
}

/// The game after its log's last entry with the end-of-log defaults taken, when that ends the
/// game (docs/log-format.md "Replay result"): the last harvest's feeding and breeding and the
/// before-scoring window closed. The last entry of a complete game then shows its final
/// score, as the verdict has it; an unfinished game stays as it is, its windows open.
fn finished(game: &Game) -> Option<Game> {
    let mut over = game.clone();
    crate::replay::finish(&mut over);
    (over.is_over() && !game.is_over()).then_some(over)
}

/// The game after the windows an entry closes before its own effects, as a replay closes them
/// (docs/log-format.md "entries of another type": an entry that is not the window's own takes
/// its defaults — the solo keep, the feeding, the breeding — and the round may end): `None`
/// when the entry closes none. Each close ends a window, so the loop runs at most three times.
fn automatic_steps(game: &Game, raw: &serde_json::value::RawValue) -> Option<Game> {
    let kind = serde_json::from_str::<serde_json::Value>(raw.get()).ok()?.get("type")?.as_str()?.to_owned();
    let mut closed: Option<Game> = None;
    for _ in 0..3 {
        let now = closed.as_ref().unwrap_or(game);
        let own = match now.phase() {
            Phase::Keep => "keep",
            Phase::Feeding { .. } => "feed",
            Phase::Breeding { .. } => "breed",
            _ => break,
        };
        if kind == own {
            break;
        }
        closed.get_or_insert_with(|| game.clone()).close_window();
    }
    closed
}

/// Walks every legal entry of a Caverna log once (see `GameEngine::walk`).
pub fn walk(input: &[u8], visit: Walk<'_>) {
    // A log a JSON tree cannot read has no legal entry (see `replay::tree_error`).
    if tree_error(input).is_some() {
        return;
    }
    let Ok(doc) = parse_document(input) else { return };
    let Some(mut game) = validated(&doc) else { return };
    visit(Visit::setup(u16::from(game.round()), &game));
    let last = doc.entries.len().checked_sub(1);
    for (i, raw) in doc.entries.iter().enumerate() {
        let round = u16::from(game.round());
        let automatic = automatic_steps(&game, raw);
        if step_raw(&mut game, raw).is_err() {
            visit(Visit::refused(i, round, player_hint(raw), raw.get(), &game));
            break;
        }
        // The windows no player has a decision left in close now, as `chronicle state` shows
        // the position (a feeding all have fed is paid): the entry that ended it shows what it
        // settled, and the next entry's own changes are its own.
        game.settle();
        if Some(i) == last {
            if let Some(over) = finished(&game) {
                game = over;
            }
        }
        let between = automatic.as_ref().map(|g| g as &dyn Position);
        visit(Visit::applied(i, round, player_hint(raw), raw.get(), &game).after_automatic(between));
    }
}

#[cfg(test)]
mod tests {
    use chronicle_game::GameEngine;

    use crate::Caverna;

    fn ledger(log: &[u8]) -> Vec<chronicle_game::LedgerLine> {
        Caverna::ledger(log)
    }

    /// docs/rules/caverna-reference.md C: a placement on a space with goods moves them into the player's supply.
    #[test]
    fn a_placement_on_logging_gains_its_wood() {
        let log = br#"{"format": "caverna-log/1", "setup": {"players": [{"name": "A"}, {"name": "B"}], "seed": 1},
            "entries": [{"type": "place", "player": 0, "space": "logging"}, {"type": "place", "player": 1, "space": "logging"}]}"#;
        let lines = ledger(log);
        assert_eq!(lines.len(), 1, "stops at the illegal second entry");
        let wood = lines[0].changes.iter().find(|c| c.item == "wood").map(|c| (c.player, c.delta));
        assert!(matches!(wood, Some((0, n)) if n > 0), "{:?}", lines[0]);
        assert_eq!(lines[0].player, Some(0));
        assert!(lines[0].changes.iter().all(|c| c.player == 0));
    }

    /// The last entry of a complete game shows its final score (docs/log-format.md "Replay
    /// result": the end-of-log defaults taken), the totals of the verdict, in the view and in
    /// the ledger's running totals.
    #[test]
    fn the_last_entry_of_a_complete_game_shows_the_final_score() {
        for name in ["complete_2p.json", "complete_3p.json", "complete_4p.json"] {
            let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/games").join(name);
            let log = std::fs::read(&path).expect("fixture");
            let verdict = Caverna::verdict(&Caverna::replay(&log));
            let totals: Vec<i64> = verdict.players.iter().map(|p| p.score.as_ref().expect("complete").total).collect();
            let timeline = Caverna::timeline(&log).expect("timeline");
            let last = timeline.steps.last().expect("entries");
            let shown: Vec<i64> = last.view.players.iter().map(|p| p.score.as_ref().expect("score").total).collect();
            assert_eq!(shown, totals, "{name}: the view of the last entry");
            let running: Vec<i64> = last.totals.iter().map(|t| t["points"]).collect();
            assert_eq!(running, totals, "{name}: the ledger's running totals after the last entry");
        }
    }

    #[test]
    fn a_log_without_a_valid_setup_has_no_ledger() {
        assert!(ledger(b"{").is_empty());
        assert!(ledger(br#"{"format": "caverna-log/1", "setup": {"players": []}, "entries": []}"#).is_empty());
    }
}
