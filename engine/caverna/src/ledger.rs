//! The ledger of a log: what each legal entry changed for each player — goods (including
//! animals), begging markers, spaces covered, stables, furnishings, dwarfs, and the score the
//! pad would show if the game were scored at that moment (`points`). Replayed once, entry by
//! entry, comparing counts before and after; nothing here is a rule.

use std::collections::BTreeMap;

use chronicle_game::{LedgerChange, LedgerLine};

use crate::game::{Game, Player};
use crate::goods::Good;
use crate::replay::{parse_document, player_hint, step_raw, tree_error, validated};
use crate::scoring::score;

/// The counted items of a player, by id, in ledger order.
fn counts(p: &Player) -> BTreeMap<&'static str, i64> {
    let mut c = BTreeMap::new();
    for g in Good::ALL {
        c.insert(g.id(), i64::from(p.supply.get(g)));
    }
    c.insert("begging", i64::from(p.begging));
    c.insert("spaces_covered", p.board.tiles().count() as i64);
    c.insert("stables", p.board.stables() as i64);
    c.insert("furnishings", p.board.furnishings().count() as i64);
    c.insert("dwarfs", i64::from(p.dwarfs_in_play()));
    c.insert("points", score(p).total);
    c
}

fn snapshot(game: &Game) -> Vec<BTreeMap<&'static str, i64>> {
    game.players().iter().map(counts).collect()
}

/// The ledger of every legal entry of a Caverna log.
pub fn ledger(input: &[u8]) -> Vec<LedgerLine> {
    // A log a JSON tree cannot read has no legal entry (see `replay::tree_error`).
    if tree_error(input).is_some() {
        return Vec::new();
    }
    let Ok(doc) = parse_document(input) else { return Vec::new() };
    let Some(mut game) = validated(&doc) else { return Vec::new() };
    let mut lines = Vec::with_capacity(doc.entries.len());
    let mut before = snapshot(&game);
    for (i, raw) in doc.entries.iter().enumerate() {
        let round = u16::from(game.round());
        if step_raw(&mut game, raw).is_err() {
            break;
        }
        let after = snapshot(&game);
        let changes = after
            .iter()
            .zip(&before)
            .enumerate()
            .flat_map(|(player, (now, was))| {
                now.iter().filter_map(move |(item, n)| {
                    let delta = n - was.get(item).copied().unwrap_or(0);
                    (delta != 0).then(|| LedgerChange { player, item: (*item).to_owned(), delta })
                })
            })
            .collect();
        let player = player_hint(raw);
        lines.push(LedgerLine { entry: i, round, player, changes });
        before = after;
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

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

    #[test]
    fn a_log_without_a_valid_setup_has_no_ledger() {
        assert!(ledger(b"{").is_empty());
        assert!(ledger(br#"{"format": "caverna-log/1", "setup": {"players": []}, "entries": []}"#).is_empty());
    }
}
