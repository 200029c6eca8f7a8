//! The ledger of a log: what each legal entry changed for each player — cubes by colour,
//! goods, grain, coins, time, customers served, members per kind of place, and the score the
//! pad would show if the game were scored then (`points`). Replayed once, entry by entry,
//! comparing counts before and after; nothing here is a rule.

use std::collections::BTreeMap;

use chronicle_game::{LedgerChange, LedgerLine};

use crate::game::{Game, Loc};
use crate::ids::{Cube, Good};
use crate::replay::{parse_document, player_hint, start, tree_error};
use crate::rules::scoring;

fn counts(game: &Game, p: usize) -> BTreeMap<String, i64> {
    let pl = &game.players[p];
    let mut c = BTreeMap::new();
    for cube in Cube::INFLUENCE {
        c.insert(format!("cube_{cube}"), i64::from(pl.cubes.get(cube)));
    }
    for g in Good::ALL {
        c.insert(g.id().to_owned(), i64::from(pl.good(*g)));
    }
    c.insert("grain".into(), i64::from(pl.grain));
    c.insert("coin".into(), i64::from(pl.coins));
    c.insert("time".into(), i64::try_from(pl.time).unwrap_or(i64::MAX));
    c.insert("customers".into(), pl.customers.len() as i64);
    let count = |f: fn(Loc) -> bool| pl.members.iter().filter(|m| f(m.loc)).count() as i64;
    c.insert("members_alive".into(), count(|l| l.visible() || l == Loc::Bag));
    c.insert("members_dead".into(), count(|l| matches!(l, Loc::Chronicle(_) | Loc::Grave | Loc::Removed)));
    c.insert("cities".into(), pl.discs.len() as i64);
    c.insert("points".into(), scoring::provisional(game, p).total);
    c
}

/// The ledger of every legal entry of a Village log.
pub fn ledger(input: &[u8]) -> Vec<LedgerLine> {
    // A log a JSON tree cannot read has no legal entry (see `replay::tree_error`).
    if tree_error(input).is_some() {
        return Vec::new();
    }
    let Ok(doc) = parse_document(input) else { return Vec::new() };
    let Ok(mut game) = start(&doc) else { return Vec::new() };
    let snapshot = |g: &Game| (0..g.player_count()).map(|p| counts(g, p)).collect::<Vec<_>>();
    let mut before = snapshot(&game);
    let mut lines = Vec::with_capacity(doc.entries.len());
    for (i, raw) in doc.entries.iter().enumerate() {
        let round = u16::try_from(game.round).unwrap_or(u16::MAX);
        if game.play_raw(raw).is_err() {
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
                    (delta != 0).then(|| LedgerChange { player, item: item.clone(), delta })
                })
            })
            .collect();
        let player = player_hint(raw);
        lines.push(LedgerLine { entry: i, round, player, changes });
        before = after;
    }
    lines
}
