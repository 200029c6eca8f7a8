//! Legal next entries (the trait's `legal_entries`): candidate entries for the decision at
//! hand, each kept only if it applies to a copy of the game.
//!
//! What is generated: in the action phase, `pass`; Labor with each single ready villager and
//! with all of them; Harvest with as many villagers as there are tokens; Build of every
//! affordable face-up card by each hammer villager (each free cave for an outpost); Train of
//! every occupied slot by each quill villager; Explore with the first two ready villagers and
//! with all of them; and a `store` of each player's whole reserve. At a round end, one
//! `round_end` with default rest. Left out: free actions (offer, buy, refresh), custom
//! credits, rests other than the default, payments with cider or potions, most villager
//! subsets, and every Adventure Book option but one placeholder: an explore's `step` is
//! option 1 of the paragraph, with the thresholds this log already declared for it or none,
//! and an empty outcome; a client replaces it with what the book says. In explicit mode the
//! random results (cards drawn, dice) are placeholders too: the first card the deck model
//! allows and dice of 1 (6 for a Cave Cat's obedience).

use serde_json::Value;

use crate::game::{Game, Phase};
use crate::ids::{Good, Skill, Trait};
use crate::notation::{Action, CardKind, CatDie, Entry, Roll, Step, VillagerKind};
use crate::rules::build::free_cave;

/// The dice an Explore would roll in seeded mode, derived without changing the game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExplorePreview {
    pub cave: String,
    pub die: u8,
    pub dice: Vec<u8>,
}

/// Seeded mode: the cave, paragraph die and lantern dice an Explore with `party` would get
/// (Cave Cat obedience dice are drawn first, as in the replay). `None` in explicit mode.
pub fn preview_explore(game: &Game, party: &[String]) -> Option<ExplorePreview> {
    let mut rng = game.rng.clone()?;
    let cat = &game.setup.catalogue;
    for id in party {
        if cat.villagers.get(id).is_some_and(|v| v.has_trait(Trait::CaveCat)) {
            rng.die();
        }
    }
    let cave = game.decks.caves.peek_known()?.to_owned();
    let die = rng.die();
    let dice = party.iter().map(|_| rng.die()).collect();
    Some(ExplorePreview { cave, die, dice })
}

/// Explicit mode: the first card a draw from `deck` may name (a placeholder).
fn next_draw(deck: &crate::deck::Deck, ids: &[String]) -> Option<String> {
    if deck.is_empty() {
        return None;
    }
    if deck.unseen() > 0 {
        return ids.iter().find(|id| !deck.seen.contains(*id)).cloned();
    }
    deck.tail.front().cloned()
}

fn cat_dice(game: &Game, acting: &[String]) -> Vec<CatDie> {
    let seeded = game.seeded();
    acting
        .iter()
        .filter(|id| game.setup.catalogue.villagers.get(id).is_some_and(|v| v.has_trait(Trait::CaveCat)))
        .map(|id| CatDie { villager: id.clone(), die: (!seeded).then_some(6) })
        .collect()
}

/// The placeholder step of an explore: option 1, the thresholds already declared for it (or
/// none), `reached` from the lanterns without efforts, no outcome.
pub fn placeholder_step(game: &Game, cave: &str, die: u8, party: &[String], dice: &[u8]) -> Step {
    let cat = &game.setup.catalogue;
    let paragraph = cat
        .caves
        .get(cave)
        .and_then(|c| c.paragraphs)
        .map(|t| t[usize::from(die.clamp(1, 6) - 1)])
        .or_else(|| game.paragraphs.get(cave).and_then(|dice| dice[usize::from(die.clamp(1, 6) - 1)]))
        .unwrap_or(1);
    let thresholds = game.thresholds.get(&(paragraph, 1)).cloned().unwrap_or_default();
    let total: u32 = party.iter().zip(dice).map(|(id, d)| cat.villagers.get(id).map_or(0, |v| v.lanterns(*d))).sum();
    let reached =
        if thresholds.is_empty() { Some(0) } else { thresholds.iter().copied().filter(|t| *t <= total).max() };
    Step {
        paragraph,
        option: 1,
        thresholds,
        rerolls: vec![],
        bonus: vec![],
        efforts: vec![],
        reached,
        outcome: vec![],
        then: None,
    }
}

/// An explore entry for `party` with derived (seeded) or placeholder (explicit) random values.
pub fn explore_entry(game: &Game, p: usize, party: Vec<String>) -> Option<Entry> {
    let (cave, die, dice, write) = match preview_explore(game, &party) {
        Some(pre) => (pre.cave, pre.die, pre.dice, false),
        None if game.seeded() => return None,
        None => {
            let ids: Vec<String> = game.setup.catalogue.caves.keys().map(ToOwned::to_owned).collect();
            let cave = next_draw(&game.decks.caves, &ids)?;
            (cave, 1, vec![1; party.len()], true)
        }
    };
    let step = placeholder_step(game, &cave, die, &party, &dice);
    let rolls = write.then(|| {
        party.iter().zip(&dice).map(|(v, d)| Roll { villager: v.clone(), die: Some(i64::from(*d)) }).collect()
    });
    Some(Entry::Turn {
        player: p as u64,
        free: vec![],
        cat_fails: vec![],
        action: Some(Action::Explore {
            cat_rolls: cat_dice(game, &party),
            party,
            cave: write.then_some(cave),
            die: write.then_some(i64::from(die)),
            rolls,
            rerolls: vec![],
            step: Box::new(step),
        }),
        custom: vec![],
    })
}

fn turn(p: usize, action: Action) -> Entry {
    Entry::Turn { player: p as u64, free: vec![], cat_fails: vec![], action: Some(action), custom: vec![] }
}

/// Every candidate entry for the decision at hand (not yet checked).
pub fn candidates(game: &Game) -> Vec<Entry> {
    let mut out = Vec::new();
    match game.phase() {
        Phase::Over => return out,
        Phase::RoundEnd => {
            let villagers = (!game.seeded()).then(|| {
                let empty = game.villager_row.iter().filter(|s| s.is_none()).count().min(game.decks.villagers.len());
                let ids = game.setup.catalogue.villager_ids(VillagerKind::Regular);
                let mut deck = game.decks.villagers.clone();
                let mut drawn = Vec::new();
                for _ in 0..empty {
                    if let Some(id) = next_draw(&deck, &ids) {
                        let _ = deck.draw(Some(&id), |_| Ok(()));
                        drawn.push(id);
                    }
                }
                drawn
            });
            out.push(Entry::RoundEnd { villagers: villagers.filter(|v| !v.is_empty()), rest: vec![] });
        }
        Phase::Actions => action_candidates(game, game.current, &mut out),
    }
    for (p, pl) in game.players().iter().enumerate() {
        let goods: Vec<Good> =
            Good::ALL.iter().flat_map(|g| std::iter::repeat_n(*g, pl.reserve[g.index()].min(50) as usize)).collect();
        if !goods.is_empty() {
            out.push(Entry::Store { player: p as u64, goods });
        }
    }
    out
}

fn action_candidates(game: &Game, p: usize, out: &mut Vec<Entry>) {
    out.push(Entry::Pass { player: p as u64, free: vec![] });
    let pl = &game.players()[p];
    let ready: Vec<String> = pl.ready().map(|v| v.id.clone()).collect();
    if ready.is_empty() {
        return;
    }
    let cat = &game.setup.catalogue;
    for v in &ready {
        out.push(turn(
            p,
            Action::Labor { villagers: vec![v.clone()], cat_rolls: cat_dice(game, std::slice::from_ref(v)) },
        ));
    }
    if ready.len() > 1 {
        out.push(turn(p, Action::Labor { villagers: ready.clone(), cat_rolls: cat_dice(game, &ready) }));
    }
    let tokens: Vec<String> = pl.cards().flat_map(|c| std::iter::repeat_n(c.id.clone(), c.tokens.len())).collect();
    if !tokens.is_empty() {
        let k = tokens.len().min(ready.len());
        let vs: Vec<String> = ready[..k].to_vec();
        out.push(turn(
            p,
            Action::Harvest { cat_rolls: cat_dice(game, &vs), villagers: vs, take: tokens[..k].to_vec() },
        ));
    }
    let has = |id: &str, s: Skill| cat.villagers.get(id).is_some_and(|v| v.has_skill(s));
    let rows = [
        (&game.house_row, CardKind::Basic),
        (&game.outpost_row, CardKind::Outpost),
        (&game.key_row, CardKind::Key),
        (&game.star_row, CardKind::Star),
    ];
    // The card that would refill a house or outpost row (explicit mode), the same for every
    // builder and card: each is a scan of the catalogue, found once, not once per builder and
    // card.
    let (house_refill, outpost_refill) = (std::cell::OnceCell::new(), std::cell::OnceCell::new());
    for builder in ready.iter().filter(|v| has(v, Skill::Hammer)) {
        for (row, _) in rows {
            for card in row.iter().flatten() {
                let Ok(full) = cat.full_card(card) else { continue };
                if u64::from(full.cost) > pl.coins + 1 {
                    continue;
                }
                let refill = match (game.seeded(), full.kind) {
                    (false, CardKind::Basic) => house_refill
                        .get_or_init(|| next_draw(&game.decks.houses, &cat.card_ids(CardKind::Basic)))
                        .clone(),
                    (false, CardKind::Outpost) => outpost_refill
                        .get_or_init(|| next_draw(&game.decks.outposts, &cat.card_ids(CardKind::Outpost)))
                        .clone(),
                    _ => None,
                };
                let caves: Vec<Option<String>> = if full.kind == CardKind::Outpost {
                    pl.caves
                        .iter()
                        .filter(|c| free_cave(game, p, &c.id, pl.caves.len()).is_some())
                        .map(|c| Some(c.id.clone()))
                        .collect()
                } else {
                    vec![None]
                };
                for cave in caves {
                    out.push(turn(
                        p,
                        Action::Build {
                            villager: builder.clone(),
                            card: card.clone(),
                            cave,
                            pay: None,
                            refill: refill.clone(),
                            custom: vec![],
                            cat_rolls: cat_dice(game, std::slice::from_ref(builder)),
                        },
                    ));
                }
            }
        }
    }
    for trainer in ready.iter().filter(|v| has(v, Skill::Quill)) {
        for (slot, v) in game.villager_row.iter().enumerate() {
            if v.is_some() {
                out.push(turn(
                    p,
                    Action::Train {
                        villager: trainer.clone(),
                        slot: slot as i64,
                        recruit: v.clone(),
                        pay: None,
                        custom: vec![],
                        cat_rolls: cat_dice(game, std::slice::from_ref(trainer)),
                    },
                ));
            }
        }
    }
    if ready.len() >= 2 && !game.decks.caves.is_empty() {
        out.extend(explore_entry(game, p, ready[..2].to_vec()));
        if ready.len() > 2 {
            out.extend(explore_entry(game, p, ready.clone()));
        }
    }
}

/// Whether an entry applies to a copy of the game.
pub fn applies(game: &Game, entry: &Entry) -> bool {
    game.clone().apply(entry).is_ok()
}

/// The legal candidate entries, as log JSON.
pub fn legal_entries(game: &Game) -> Vec<Value> {
    candidates(game).into_iter().filter(|e| applies(game, e)).filter_map(|e| serde_json::to_value(e).ok()).collect()
}
