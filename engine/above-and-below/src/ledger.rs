//! The ledger of a log: what each legal entry changed for each player — coins, goods in the
//! reserve and in storage, potions, cider, reputation, villagers, houses and outposts, caves,
//! and the provisional score (`points`). Replayed once, comparing counts before and after.

use std::collections::BTreeMap;

use chronicle_game::{LedgerChange, LedgerLine};

use crate::game::{Game, Player};
use crate::ids::Good;
use crate::replay::{parse_document, start, step};
use crate::rules::scoring::score;

fn counts(p: &Player, points: i64) -> BTreeMap<String, i64> {
    let mut c = BTreeMap::new();
    let n = |v: u64| i64::try_from(v).unwrap_or(i64::MAX);
    c.insert("coins".to_owned(), n(p.coins));
    for g in Good::ALL {
        c.insert(g.id().to_owned(), n(p.reserve[g.index()]));
        c.insert(format!("stored_{}", g.id()), n(p.stored(g)));
    }
    c.insert("potions".into(), n(p.potions));
    c.insert("cider".into(), n(p.cider));
    c.insert("reputation".into(), i64::from(p.reputation));
    c.insert("villagers".into(), p.villagers.len() as i64);
    c.insert("houses_outposts".into(), p.houses_and_outposts() as i64);
    c.insert("caves".into(), p.caves.len() as i64);
    c.insert("points".into(), points);
    c
}

fn snapshot(game: &Game) -> Vec<BTreeMap<String, i64>> {
    let s = score(game);
    game.players().iter().zip(s).map(|(p, s)| counts(p, s.total)).collect()
}

/// The ledger of every legal entry of a log (empty without a valid setup).
pub fn ledger(input: &[u8]) -> Vec<LedgerLine> {
    let Ok(doc) = parse_document(input) else { return Vec::new() };
    let Ok(mut game) = start(&doc) else { return Vec::new() };
    let mut lines = Vec::with_capacity(doc.entries.len());
    let mut before = snapshot(&game);
    for (i, value) in doc.entries.iter().enumerate() {
        let round = u16::from(game.round());
        if step(&mut game, value).is_err() {
            break;
        }
        let after = snapshot(&game);
        let changes = after
            .iter()
            .zip(&before)
            .enumerate()
            .flat_map(|(player, (now, was))| {
                now.iter().filter_map(move |(item, v)| {
                    let delta = v - was.get(item).copied().unwrap_or(0);
                    (delta != 0).then(|| LedgerChange { player, item: item.clone(), delta })
                })
            })
            .collect();
        let player = crate::replay::player_of(value, game.players().len());
        lines.push(LedgerLine { entry: i, round, player, changes });
        before = after;
    }
    lines
}
