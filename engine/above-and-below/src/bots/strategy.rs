//! The strategy bot, a simple greedy player: build the most valuable affordable card, train
//! while villagers are few, explore with spare villagers (spending efforts to reach a
//! threshold), harvest tokens, labor otherwise; it stores every good it can (see
//! [`super::store_all`]).

use crate::game::Game;
use crate::ids::{Skill, Trait};
use crate::legal::{applies, preview_explore};
use crate::notation::{Action, CardKind, Effect, Entry};
use crate::rng::SplitMix;
use crate::rules::build::free_cave;

use super::encounter;

/// A rough value of a card for this bot: printed VP, beds, income, goods, plus the rule's 1 VP.
fn value(effects: &[Effect]) -> i64 {
    1 + effects
        .iter()
        .map(|e| match e {
            Effect::Vp { n } => i64::from(*n),
            Effect::VpPer { n, .. } => 2 * i64::from(*n),
            Effect::Beds { n } => 2 * i64::from(*n),
            Effect::IncomeCoins { n } => 3 * i64::from(*n),
            Effect::GoodsRefill { .. } => 2,
            Effect::GoodsOnce { n, .. } => i64::from(*n),
            _ => 1,
        })
        .sum::<i64>()
}

fn turn_entry(p: usize, action: Action) -> Entry {
    Entry::Turn { player: p as u64, free: vec![], cat_fails: vec![], action: Some(action), custom: vec![] }
}

pub fn turn(game: &Game, p: usize, rng: &mut SplitMix) -> Entry {
    let pass = Entry::Pass { player: p as u64, free: vec![] };
    let pl = &game.players()[p];
    let cat = &game.setup().catalogue;
    let ready: Vec<String> = pl
        .ready()
        .filter(|v| !cat.villagers.get(&v.id).is_some_and(|d| d.has_trait(Trait::CaveCat)))
        .map(|v| v.id.clone())
        .collect();
    if ready.is_empty() {
        return pass;
    }
    let has = |id: &str, s: Skill| cat.villagers.get(id).is_some_and(|v| v.has_skill(s));
    let mut tries: Vec<Entry> = Vec::new();
    // Build: the best affordable card.
    if let Some(builder) = ready.iter().find(|v| has(v, Skill::Hammer)) {
        let mut best: Option<(i64, Entry)> = None;
        for row in [&game.house_row, &game.outpost_row, &game.key_row, &game.star_row] {
            for card in row.iter().flatten() {
                let Ok(full) = cat.full_card(card) else { continue };
                if u64::from(full.cost) > pl.coins {
                    continue;
                }
                let cave = match full.kind {
                    CardKind::Outpost => {
                        match pl.caves.iter().find(|c| free_cave(game, p, &c.id, pl.caves.len()).is_some()) {
                            Some(c) => Some(c.id.clone()),
                            None => continue,
                        }
                    }
                    _ => None,
                };
                let v = value(full.effects) * 10 / i64::from(full.cost.max(1)) + i64::from(full.cost);
                if best.as_ref().is_none_or(|(b, _)| v > *b) {
                    let action = Action::Build {
                        villager: builder.clone(),
                        card: card.clone(),
                        cave,
                        pay: None,
                        refill: None,
                        custom: vec![],
                        cat_rolls: vec![],
                    };
                    best = Some((v, turn_entry(p, action)));
                }
            }
        }
        tries.extend(best.map(|(_, e)| e));
    }
    // Train: while the village is small, the cheapest occupied slot.
    if pl.villagers.len() < 7 && game.round() <= 5 {
        if let Some(trainer) = ready.iter().find(|v| has(v, Skill::Quill)) {
            let costs = game.setup().board.train_costs;
            let slot = (0..5).filter(|s| game.villager_row[*s].is_some()).min_by_key(|s| costs[*s]);
            if let Some(slot) = slot.filter(|s| u64::from(costs[*s]) < pl.coins) {
                tries.push(turn_entry(
                    p,
                    Action::Train {
                        villager: trainer.clone(),
                        slot: slot as i64,
                        recruit: None,
                        pay: None,
                        custom: vec![],
                        cat_rolls: vec![],
                    },
                ));
            }
        }
    }
    // Explore: with every ready villager, when there are at least two.
    if ready.len() >= 2 && !game.decks.caves.is_empty() {
        let party: Vec<String> = if rng.uniform(2) == 0 { ready.clone() } else { ready[..2].to_vec() };
        if let Some(pre) = preview_explore(game, &party) {
            let step = encounter::step(game, &party, &pre, 1);
            let action = Action::Explore {
                party,
                cat_rolls: vec![],
                cave: Some(pre.cave.clone()),
                die: Some(i64::from(pre.die)),
                rolls: None,
                rerolls: vec![],
                step: Box::new(step),
            };
            tries.push(turn_entry(p, action));
        }
    }
    // Harvest, then Labor.
    let tokens: Vec<String> = pl.cards().flat_map(|c| std::iter::repeat_n(c.id.clone(), c.tokens.len())).collect();
    if !tokens.is_empty() {
        let k = tokens.len().min(ready.len());
        tries.push(turn_entry(
            p,
            Action::Harvest { villagers: ready[..k].to_vec(), take: tokens[..k].to_vec(), cat_rolls: vec![] },
        ));
    }
    tries.push(turn_entry(p, Action::Labor { villagers: ready.clone(), cat_rolls: vec![] }));
    let _ = game.has(p, |e| matches!(e, Effect::TrainToReady));
    tries.into_iter().find(|e| applies(game, e)).unwrap_or(pass)
}
