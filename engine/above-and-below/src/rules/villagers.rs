//! Villagers (`docs/rules/above-and-below.md` A.4, D.2.5, D.10, B.6): using ready villagers, Cave Cat obedience
//! dice, and the arrival traits of a villager who joins a village.

use crate::error::{ensure, fail, ErrorCode, RuleResult};
use crate::game::{Game, Villager};
use crate::ids::{same_id, Trait, VState};
use crate::notation::CatDie;

use super::reputation;

/// D.2.5: every named villager is the player's own and ready, and named once. Returns them in order.
pub fn check_ready<S: AsRef<str>>(game: &Game, p: usize, ids: &[S]) -> RuleResult {
    check_ready_each(game, p, ids.iter().map(AsRef::as_ref))
}

/// [`check_ready`] over names in place. A name is a repeat when an earlier one equals it: the
/// lists are a few names long, so a scan of them beats building a set.
fn check_ready_each<'a>(game: &Game, p: usize, ids: impl Iterator<Item = &'a str> + Clone) -> RuleResult {
    for (i, id) in ids.clone().enumerate() {
        ensure(!ids.clone().take(i).any(|e| same_id(e, id)), ErrorCode::VillagerDuplicate, || {
            format!("villager {id} is named twice in one action (D.2.5)")
        })?;
        let ready = game.players[p].villager(id).is_some_and(|v| v.state == VState::Ready);
        ensure(ready, ErrorCode::VillagerNotReady, || {
            format!("villager {id} is not a ready villager of {} (D.2.5)", game.seat_name(p))
        })?;
    }
    Ok(())
}

/// Moves villagers to a state.
pub fn set_state<S: AsRef<str>>(game: &mut Game, p: usize, ids: &[S], state: VState) {
    for id in ids {
        if let Some(v) = game.players[p].villager_mut(id.as_ref()) {
            v.state = state;
        }
    }
}

fn is_cat(game: &Game, id: &str) -> bool {
    game.traits.is_cat(id)
}

/// D.10 and LOG-FORMAT `cat_fails`: Cave Cats that were used and rolled 1–2 go to exhausted.
pub fn cat_fails(game: &mut Game, p: usize, fails: &[CatDie]) -> RuleResult {
    check_ready_each(game, p, fails.iter().map(|f| f.villager.as_str()))?;
    for f in fails {
        ensure(is_cat(game, &f.villager), ErrorCode::CatRoll, || format!("{} is not a Cave Cat (D.10)", f.villager))?;
        let die =
            game.die(f.die, &format!("the obedience die of {}", f.villager)).map_err(|e| cat_error(e, &f.villager))?;
        ensure(die <= 2, ErrorCode::CatRoll, || {
            format!("{} rolled {die}: a cat that fails rolls 1–2 (D.10)", f.villager)
        })?;
        set_state(game, p, std::slice::from_ref(&f.villager), VState::Exhausted);
    }
    Ok(())
}

/// An out-of-range obedience die is `E_CAT_ROLL` (LOG-FORMAT), not `E_DIE`.
fn cat_error(e: crate::error::RuleError, who: &str) -> crate::error::RuleError {
    if e.code == ErrorCode::Die {
        crate::error::RuleError::new(ErrorCode::CatRoll, format!("the obedience die of {who} is not 1–6"))
    } else {
        e
    }
}

/// D.10 and LOG-FORMAT `cat_rolls`: every acting Cave Cat has an obedience die 3–6, rolled in
/// villager-list order before the action is resolved.
pub fn cat_rolls<S: AsRef<str>>(game: &mut Game, acting: &[S], rolls: &[CatDie]) -> RuleResult {
    for r in rolls {
        let acts = acting.iter().any(|a| a.as_ref() == r.villager);
        ensure(acts && is_cat(game, &r.villager), ErrorCode::CatRoll, || {
            format!("cat_rolls names {}, which is not an acting Cave Cat", r.villager)
        })?;
    }
    // A few dice at most: a scan of the earlier ones finds a repeat without building a set.
    for (i, r) in rolls.iter().enumerate() {
        let repeat = rolls[..i].iter().any(|e| e.villager == r.villager);
        ensure(!repeat, ErrorCode::CatRoll, || format!("two obedience dice for {}", r.villager))?;
    }
    // Whether a villager is a Cave Cat does not change while the dice are rolled.
    for id in acting.iter().map(AsRef::as_ref) {
        if !is_cat(game, id) {
            continue;
        }
        let written = rolls.iter().find(|r| same_id(&r.villager, id));
        if written.is_none() && !game.seeded() {
            return fail(ErrorCode::CatRoll, format!("Cave Cat {id} acts without an obedience die (D.10)"));
        }
        let die = game
            .die(written.and_then(|r| r.die), &format!("the obedience die of {id}"))
            .map_err(|e| cat_error(e, id))?;
        ensure(die >= 3, ErrorCode::CatRoll, || {
            format!("Cave Cat {id} rolled {die}: it does not obey, so it belongs in cat_fails (D.10)")
        })?;
    }
    Ok(())
}

/// A villager joins a village (Train D.6.3, encounter E.10 / H.12): its catalogue entry must be
/// full (B.5), and its arrival traits apply (A.4: bad reputation −1, good reputation +1).
pub fn join(game: &mut Game, p: usize, id: &str, state: VState) -> RuleResult {
    let def = game.setup.catalogue.full_villager(id)?;
    let delta = i64::from(def.has_trait(Trait::GoodReputation)) - i64::from(def.has_trait(Trait::BadReputation));
    game.players[p].villagers.push(Villager { id: id.to_owned(), state });
    if delta != 0 {
        reputation::gain(game, p, delta);
    }
    Ok(())
}
