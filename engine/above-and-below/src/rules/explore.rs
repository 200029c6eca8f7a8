//! Explore (`docs/rules/above-and-below.md` E, D.3, D.10, H.7, H.11, H.14, H.15, H.24, H.28, H.30, H.33, H.34, H.36,
//! H.39):
//! Cave Cat obedience first, then the cave drawn from the face-up cave deck, the paragraph die,
//! one lantern die per party villager, rerolls within the owned allowance, and the declared
//! steps of the Adventure Book: bonuses checked, efforts applied, `reached` checked against the
//! computed total and the declared thresholds, outcomes checked and applied. The last step
//! decides: the cave becomes the player's, or goes to the bottom of the deck.

use std::collections::BTreeSet;

use crate::error::{ensure, fail, ErrorCode, RuleError, RuleResult};
use crate::game::{Game, OwnedCave};
use crate::ids::{same_id, Item, Skill, VState};
use crate::notation::{Bonus, CardKind, CatDie, Effect, Outcome, Roll, Step, VillagerKind, VillagerSource, Which};

use super::build::{find_in_rows, free_cave, place, refill, take_from_row};
use super::{payment, reputation, villagers};

/// The `explore` action as written.
pub struct ExploreOrder<'a> {
    pub party: &'a [String],
    pub cat_rolls: &'a [CatDie],
    pub cave: Option<&'a str>,
    pub die: Option<i64>,
    pub rolls: Option<&'a [Roll]>,
    pub rerolls: &'a [Roll],
    pub step: &'a Step,
}

/// What an exploration carries from step to step (E.9, H.14). It borrows the party's ids from
/// the entry: an exploration copied each of them three times.
struct Cave<'a> {
    party: &'a [String],
    /// Party villagers still in the cave (not injured, not lost).
    in_cave: Vec<&'a str>,
    /// The lantern die of each party villager, in party order (rerolls replace them).
    dice: Vec<u8>,
    efforts: u64,
    rerolls_left: u64,
    /// H.28: only caves owned before this exploration may take an outpost reward.
    caves_before: usize,
}

///
/// The checks run in G.1's table order (H.36): the party's villagers (D.2.5), Cave Cat
/// obedience (D.10), the cave drawn (`E_DRAW`; an empty deck has nothing to draw, H.24), the
/// party's size (E.1), the paragraph die and the first paragraph (E.2), the lantern dice (E.4),
/// the rerolls (E.5); in each step efforts (E.6), bonuses (E.7), then `reached` and the
/// thresholds (E.8), the outcome (E.10).
pub fn explore(game: &mut Game, p: usize, o: &ExploreOrder<'_>) -> RuleResult {
    villagers::check_ready(game, p, o.party)?;
    // H.11: obedience dice before the cave is drawn.
    villagers::cat_rolls(game, o.party, o.cat_rolls)?;
    ensure(!game.decks.caves.is_empty(), ErrorCode::CaveDeckEmpty, || {
        "the cave deck is empty: Explore is not possible (H.24)".into()
    })?;
    let setup = game.setup.clone();
    let cave = game.decks.caves.draw(o.cave, |id| setup.catalogue.cave(id).map(|_| ()))?;
    let Some(cave) = cave else { return fail(ErrorCode::CaveDeckEmpty, "the cave deck is empty (H.24)") };
    ensure(o.party.len() >= 2, ErrorCode::PartySize, || {
        format!("a party of {}: Explore sends at least 2 villagers (E.1)", o.party.len())
    })?;
    let die = game.die(o.die, "the paragraph die")?;
    first_paragraph(game, p, &cave, die, o.step)?;
    let dice = lantern_dice(game, o.party, o.rolls)?;
    for id in o.party {
        game.setup.catalogue.full_villager(id)?;
    }
    villagers::set_state(game, p, o.party, VState::Exhausted);
    let allowance = game.sum(p, |e| if let Effect::Rerolls { n } = e { Some(*n) } else { None });
    let mut c = Cave {
        party: o.party,
        in_cave: o.party.iter().map(String::as_str).collect(),
        dice,
        efforts: 0,
        rerolls_left: allowance,
        caves_before: game.players[p].caves.len(),
    };
    reroll(game, &mut c, o.rerolls)?;
    game.players[p].trust.explorations += 1;
    let round = game.round();
    game.players[p].first_exploration.get_or_insert(round);
    ensure(o.step.rerolls.is_empty(), ErrorCode::Reroll, || {
        "the first step's rerolls are the action's `rerolls` (LOG-FORMAT)".into()
    })?;
    let mut step = o.step;
    let success = loop {
        let reached = resolve(game, p, &mut c, step)?;
        match (&step.then, reached) {
            (Some(_), None) => {
                return fail(
                    ErrorCode::Outcome,
                    format!("paragraph {} failed, so it has no `then` (E.9)", step.paragraph),
                )
            }
            (Some(next), Some(_)) => {
                reroll(game, &mut c, &next.rerolls)?;
                step = next;
            }
            (None, r) => break r.is_some(),
        }
    };
    // E.8, E.11: villagers still in the cave are already exhausted.
    if success {
        game.players[p].caves.push(OwnedCave { id: cave, outpost: None });
        let coins = game.sum(p, |e| if let Effect::CoinOnExplore { n } = e { Some(*n) } else { None });
        game.players[p].coins = game.players[p].coins.saturating_add(coins);
    } else {
        game.decks.caves.put_bottom(cave);
    }
    Ok(())
}

/// E.4: one lantern die per party villager, in party order.
fn lantern_dice(game: &mut Game, party: &[String], rolls: Option<&[Roll]>) -> RuleResult<Vec<u8>> {
    match rolls {
        Some(r) => {
            ensure(r.len() == party.len(), ErrorCode::Rolls, || {
                format!("{} lantern dice for a party of {} (E.4)", r.len(), party.len())
            })?;
            if let Some((roll, id)) = r.iter().zip(party).find(|(roll, id)| &roll.villager != *id) {
                return fail(
                    ErrorCode::Rolls,
                    format!(
                        "lantern die for {} where the party lists {id}: one per villager, in party order (E.4)",
                        roll.villager
                    ),
                );
            }
            r.iter().map(|roll| game.die(roll.die, &format!("the lantern die of {}", roll.villager))).collect()
        }
        None if game.seeded() => party.iter().map(|_| game.die(None, "a lantern die")).collect(),
        None => fail(ErrorCode::RandomMissing, "`rolls` is not written (explicit mode)"),
    }
}

/// E.5, H.7, H.14, H.39: rerolls of the lantern dice of party villagers still in the cave, within the exploration's
/// allowance.
fn reroll(game: &mut Game, c: &mut Cave<'_>, rerolls: &[Roll]) -> RuleResult {
    for r in rerolls {
        ensure(c.rerolls_left > 0, ErrorCode::Reroll, || {
            "more rerolls than the player's rerolls effects allow (E.5)".into()
        })?;
        let Some(i) = c.party.iter().position(|id| id == &r.villager) else {
            return fail(ErrorCode::Reroll, format!("{} has no lantern die in this party (H.7)", r.villager));
        };
        // H.39: the die of a villager who left the party (an effort, `injure`, `lose_villager`)
        // still counts, but is no longer rerolled.
        ensure(c.in_cave.iter().any(|v| same_id(v, &r.villager)), ErrorCode::Reroll, || {
            format!("{} has left the party: its die still counts but is not rerolled (H.39)", r.villager)
        })?;
        c.rerolls_left -= 1;
        c.dice[i] = game.die(r.die, &format!("the reroll of {}", r.villager))?;
    }
    Ok(())
}

/// E.2, B.7, H.33: the first paragraph matches the cave's table and earlier explorations.
fn first_paragraph(game: &mut Game, p: usize, cave: &str, die: u8, step: &Step) -> RuleResult {
    if let Some(table) = game.setup.catalogue.caves.get(cave).and_then(|c| c.paragraphs) {
        let want = table[usize::from(die - 1)];
        ensure(step.paragraph == want, ErrorCode::Paragraph, || {
            format!("{cave} with die {die} leads to paragraph {want}, not {} (E.2)", step.paragraph)
        })?;
        game.players[p].trust.paragraphs_checked += 1;
    }
    match game.paragraphs.get(cave).and_then(|dice| dice[usize::from(die - 1)]) {
        Some(earlier) => ensure(earlier == step.paragraph, ErrorCode::Paragraph, || {
            format!(
                "{cave} with die {die} led to paragraph {earlier} earlier in this log, not {} (H.33)",
                step.paragraph
            )
        }),
        None => {
            game.paragraphs.entry(cave.to_owned()).or_default()[usize::from(die - 1)] = Some(step.paragraph);
            Ok(())
        }
    }
}

/// One step: thresholds, bonuses, efforts, `reached`, outcome (E.3, E.6–E.10). Returns `reached`.
fn resolve(game: &mut Game, p: usize, c: &mut Cave<'_>, step: &Step) -> RuleResult<Option<u32>> {
    // H.36: efforts (E.6), then bonuses (E.7), then `reached` (E.8, checked first) and the
    // thresholds. The bonuses count the villagers in the cave at the start of the step (H.30),
    // so the efforts are checked before them and applied after.
    let mut seen = BTreeSet::new();
    for id in &step.efforts {
        ensure(seen.insert(id) && c.in_cave.iter().any(|v| same_id(v, id)), ErrorCode::Effort, || {
            format!("{id} is not a party villager still in the cave (E.6)")
        })?;
    }
    let bonus = bonuses(game, p, c, &step.bonus)?;
    for id in &step.efforts {
        c.in_cave.retain(|v| !same_id(v, id));
        villagers::set_state(game, p, std::slice::from_ref(id), VState::Injured);
        c.efforts += 1;
    }
    let cat = &game.setup.catalogue;
    let dice: u64 =
        c.party.iter().zip(&c.dice).map(|(id, d)| cat.villagers.get(id).map_or(0, |v| u64::from(v.lanterns(*d)))).sum();
    let total = dice + c.efforts + bonus;
    if let Some(r) = step.reached {
        ensure(u64::from(r) <= total, ErrorCode::Lanterns, || format!("reached {r} with {total} lanterns (E.8)"))?;
    }
    let t = &step.thresholds;
    ensure(t.windows(2).all(|w| w[0] < w[1]), ErrorCode::Threshold, || {
        format!("thresholds {t:?} are not ascending and distinct (E.8)")
    })?;
    let key = (step.paragraph, step.option);
    match game.thresholds.get(&key) {
        Some(earlier) => ensure(earlier == t, ErrorCode::Threshold, || {
            format!(
                "paragraph {} option {} had thresholds {earlier:?} earlier in this log, not {t:?} (H.33)",
                step.paragraph, step.option
            )
        })?,
        None => {
            game.thresholds.insert(key, t.clone());
        }
    }
    if t.iter().any(|x| *x > 8) {
        game.warn("W_OUTCOME_UNUSUAL", Some(p), format!("a threshold above 8 in paragraph {}", step.paragraph));
    }
    let expected = if t.is_empty() { Some(0) } else { t.iter().copied().filter(|x| u64::from(*x) <= total).max() };
    ensure(step.reached == expected, ErrorCode::Threshold, || {
        format!(
            "with {total} lanterns and thresholds {t:?}, reached is {}, not {} (E.8)",
            show(expected),
            show(step.reached)
        )
    })?;
    outcome(game, p, c, &step.outcome, expected.is_some())?;
    Ok(expected)
}

fn show(r: Option<u32>) -> String {
    r.map_or_else(|| "null".into(), |r| r.to_string())
}

/// E.7, H.30: the step's bonus lanterns, each checked (or counted as trusted).
fn bonuses(game: &mut Game, p: usize, c: &Cave<'_>, list: &[Bonus]) -> RuleResult<u64> {
    let mut sum = 0u64;
    for b in list {
        let cat = &game.setup.catalogue;
        let got = match b {
            Bonus::PerSkill { skill, n } => {
                let k = c.in_cave.iter().filter(|id| cat.villagers.get(id).is_some_and(|v| v.has_skill(*skill))).count()
                    as u64;
                ensure(k > 0, ErrorCode::Bonus, || format!("no party villager in the cave has {skill:?} (E.7)"))?;
                k * u64::from(*n)
            }
            Bonus::IfHave { item, n } => {
                ensure(game.players[p].owned(*item) > 0, ErrorCode::Bonus, || {
                    format!("the player owns no {} (E.7)", item.id())
                })?;
                u64::from(*n)
            }
            Bonus::PerHave { item, n } => {
                let k = game.players[p].owned(*item);
                ensure(k > 0, ErrorCode::Bonus, || format!("the player owns no {} (E.7)", item.id()))?;
                k.saturating_mul(u64::from(*n))
            }
            Bonus::IfTag { tag, n } => {
                let has = c.in_cave.iter().any(|id| cat.villagers.get(id).is_some_and(|v| v.tags.contains(tag)));
                ensure(has, ErrorCode::Bonus, || format!("no party villager in the cave carries tag {tag} (E.7)"))?;
                u64::from(*n)
            }
            Bonus::Pay { coins, n, with } => {
                payment::pay(game, p, u64::from(*coins), *with, ErrorCode::Bonus)?;
                u64::from(*n)
            }
            Bonus::Custom { n, .. } => {
                game.players[p].trust.custom_bonuses += 1;
                u64::from(*n)
            }
            Bonus::Card { card, n } => {
                game.check_custom_card(p, card)?;
                game.players[p].trust.card_bonuses += 1;
                u64::from(*n)
            }
        };
        sum = sum.saturating_add(got);
    }
    Ok(sum)
}

/// E.10, H.12, H.15, H.28, H.31: checks and applies an outcome (a reward, or a penalty on failure).
fn outcome(game: &mut Game, p: usize, c: &mut Cave<'_>, items: &[Outcome], success: bool) -> RuleResult {
    // The goods types of the outcome, one bit each.
    let types =
        items.iter().fold(0u16, |t, i| if let Outcome::Good { good, .. } = i { t | 1 << good.index() } else { t });
    if types.count_ones() > 2 {
        game.warn("W_OUTCOME_UNUSUAL", Some(p), "more than 2 goods types in one outcome".into());
    }
    for item in items {
        ensure(success || item.is_penalty(), ErrorCode::Outcome, || {
            format!("a failed step gives no reward: {item:?} is not a penalty (E.10)")
        })?;
        apply_item(game, p, c, item)?;
    }
    Ok(())
}

fn apply_item(game: &mut Game, p: usize, c: &mut Cave<'_>, item: &Outcome) -> RuleResult {
    let e = ErrorCode::Outcome;
    match item {
        Outcome::Coins { n } => {
            let n = u64::try_from(*n)
                .ok()
                .filter(|n| *n >= 1)
                .ok_or_else(|| RuleError::new(e, "a coins reward is at least 1"))?;
            if n > 10 {
                game.warn("W_OUTCOME_UNUSUAL", Some(p), format!("a coins reward of {n}"));
            }
            let pl = &mut game.players[p];
            pl.coins = pl.coins.saturating_add(n);
            pl.trust.encounter_coins = pl.trust.encounter_coins.saturating_add(n as i64);
        }
        Outcome::Pay { n, with } => payment::pay(game, p, u64::from(*n), *with, e)?,
        Outcome::LoseCoins { n } => {
            let pl = &mut game.players[p];
            let lost = pl.coins.min(u64::from(*n));
            // G.5 counts what encounters gave; a penalty's loss is not a gain.
            pl.coins -= lost;
        }
        Outcome::Good { good, n } => {
            let pl = &mut game.players[p];
            *pl.reserve_mut(Item::Good(*good)) += u64::from(*n);
            pl.trust.encounter_goods += u64::from(*n);
        }
        Outcome::Potion { n } => {
            let pl = &mut game.players[p];
            pl.potions += u64::from(*n);
            pl.trust.encounter_potions += u64::from(*n);
        }
        Outcome::Cider { n } => {
            let pl = &mut game.players[p];
            pl.cider += u64::from(*n);
            pl.trust.encounter_cider += u64::from(*n);
        }
        Outcome::Reputation { n } => {
            ensure(*n != 0, e, || "a reputation item is never 0 (E.10)".into())?;
            if !(-2..=3).contains(n) {
                game.warn("W_OUTCOME_UNUSUAL", Some(p), format!("a reputation item of {n}"));
            }
            let moved = reputation::gain(game, p, *n);
            game.players[p].trust.encounter_reputation += moved;
        }
        Outcome::Villager { villager, from, which } => gain_villager(game, p, villager, *from, *which)?,
        Outcome::Cave { card } => {
            ensure(!game.decks.caves.is_empty(), e, || {
                "the cave deck is empty: the extra cave is lost, and the log leaves the item out (H.15, H.24)".into()
            })?;
            let setup = game.setup.clone();
            let drawn = game.decks.caves.draw(card.as_deref(), |id| setup.catalogue.cave(id).map(|_| ()))?;
            if let Some(id) = drawn {
                game.players[p].caves.push(OwnedCave { id, outpost: None });
                game.players[p].trust.encounter_caves += 1;
            }
        }
        Outcome::Card { card, max_cost, cave, refill: written } => {
            let Some((row, slot)) = find_in_rows(game, card) else {
                return fail(
                    e,
                    format!(
                        "{card} is not face up in a row: the reward is lost, and the log leaves it out (H.15, H.31)"
                    ),
                );
            };
            let setup = game.setup.clone();
            let full = setup.catalogue.full_card(card)?;
            let (kind, cost) = (full.kind, full.cost);
            if let Some(max) = max_cost {
                ensure(cost <= *max, e, || format!("{card} costs {cost}, more than {max} (E.10)"))?;
            }
            let cave_index = match (kind, cave) {
                (CardKind::Outpost, Some(cv)) => Some(free_cave(game, p, cv, c.caves_before).ok_or_else(|| {
                    RuleError::new(e, format!("{cv} is not an own free cave owned before this exploration (H.28)"))
                })?),
                (CardKind::Outpost, None) => {
                    return fail(e, format!("outpost {card} needs the own free `cave` it covers (H.28)"))
                }
                (_, Some(cv)) => return fail(e, format!("{card} is a house; `cave` {cv} is only for an outpost")),
                (_, None) => None,
            };
            take_from_row(game, row, slot);
            place(game, p, full, cave_index);
            game.players[p].trust.encounter_cards += 1;
            refill(game, row, slot, written.as_deref())?;
        }
        Outcome::Injure { villagers: ids } => {
            for id in ids {
                ensure(c.in_cave.iter().any(|v| same_id(v, id)), e, || {
                    format!("{id} is not a party villager still in the cave (E.10)")
                })?;
                c.in_cave.retain(|v| !same_id(v, id));
                villagers::set_state(game, p, std::slice::from_ref(id), VState::Injured);
            }
        }
        Outcome::LoseGood { item, n } => {
            let pl = &mut game.players[p];
            ensure(pl.in_reserve(*item) >= u64::from(*n), e, || {
                format!(
                    "{n} {} to lose, {} in the reserve: the log writes only what the reserve held (H.15)",
                    item.id(),
                    pl.in_reserve(*item)
                )
            })?;
            *pl.reserve_mut(*item) -= u64::from(*n);
        }
        Outcome::LoseVillager { villager } => {
            let there = c.party.contains(villager) && game.players[p].villager(villager).is_some();
            ensure(there, e, || format!("{villager} is not a villager of this exploration's party (E.10)"))?;
            game.players[p].villagers.retain(|v| !same_id(&v.id, villager));
            c.in_cave.retain(|v| v != villager);
        }
        Outcome::Nothing => {}
        Outcome::Custom { .. } => game.players[p].trust.custom_outcomes += 1,
    }
    Ok(())
}

/// E.10 `villager`, H.12: from a slot of the villager row (the cheapest with `which`), or a
/// special villager still aside; it arrives exhausted.
fn gain_villager(game: &mut Game, p: usize, id: &str, from: VillagerSource, which: Option<Which>) -> RuleResult {
    let e = ErrorCode::Outcome;
    match from {
        VillagerSource::Row => {
            let Some(slot) = game.villager_row.iter().position(|s| s.as_deref() == Some(id)) else {
                return fail(
                    e,
                    format!("{id} is not in the villager row: the reward is lost, and the log leaves it out (H.15)"),
                );
            };
            if which == Some(Which::Cheapest) {
                let costs = game.setup.board.train_costs;
                let min =
                    game.villager_row.iter().enumerate().filter(|(_, s)| s.is_some()).map(|(i, _)| costs[i]).min();
                ensure(min == Some(costs[slot]), e, || {
                    format!("{id} is not in an occupied slot of the lowest cost (E.10)")
                })?;
            }
            game.villager_row[slot] = None;
        }
        VillagerSource::Special => {
            let special = game.setup.catalogue.villagers.get(id).is_some_and(|v| v.kind == VillagerKind::Special);
            ensure(special && game.specials.remove(id), e, || {
                format!("{id} is not a special villager still aside (E.10, H.15)")
            })?;
        }
    }
    villagers::join(game, p, id, VState::Exhausted)?;
    game.players[p].trust.encounter_villagers += 1;
    Ok(())
}

/// `per_skill` counts `_plus` skills (E.7); kept here for the tests' sake.
pub fn counts_skill(have: Skill, wanted: Skill) -> bool {
    have.satisfies(wanted)
}
