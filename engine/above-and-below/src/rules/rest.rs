//! Rest (`docs/rules/above-and-below.md` F.5, C.4, H.8, H.9, H.10): the 4-player starters move to ready after
//! round 1, mechanical villagers move one step by their own bed, then potions (injured →
//! exhausted), cider (exhausted → ready) and beds (one step each, one bed per villager), as
//! the `round_end` entry chooses or by the default of F.5.4.

use std::collections::BTreeSet;

use crate::error::{ensure, ErrorCode, RuleResult};
use crate::game::{Game, Villager};
use crate::ids::{same_id, VState};
use crate::notation::{Effect, Rest};

fn is_mechanical(game: &Game, id: &str) -> bool {
    game.traits.is_mechanical(id)
}

/// The first villager with the id of villager `i`: the rules below step "the villager named
/// so", which is the first of that name, as a lookup by id found it.
fn first_named(villagers: &[Villager], i: usize) -> usize {
    let id = &villagers[i].id;
    villagers[..i].iter().position(|v| same_id(&v.id, id)).unwrap_or(i)
}

/// One step toward ready.
fn step_up(s: VState) -> VState {
    match s {
        VState::Injured => VState::Exhausted,
        _ => VState::Ready,
    }
}

/// The beds on a player's cards (B.3 `beds`, the starting house included).
pub fn beds(game: &Game, p: usize) -> u64 {
    game.sum(p, |e| if let Effect::Beds { n } = e { Some(*n) } else { None })
}

/// Rests one player.
pub fn rest(game: &mut Game, p: usize, choice: Option<&Rest>) -> RuleResult {
    // F.5.1, H.10: the two starters that began exhausted, without a bed.
    if game.players[p].starters_pending {
        game.players[p].starters_pending = false;
        for v in game.players[p].villagers.iter_mut().filter(|v| v.id == "start_quill" || v.id == "start_explorer") {
            if v.state == VState::Exhausted {
                v.state = VState::Ready;
            }
        }
    }
    // F.5.5, H.9: mechanical villagers use their own bed.
    // Walked by index, with no list of ids: whether a villager is mechanical does not change,
    // and a step only touches a villager at or before the one walked.
    for i in 0..game.players[p].villagers.len() {
        if is_mechanical(game, &game.players[p].villagers[i].id) {
            let villagers = &mut game.players[p].villagers;
            let j = first_named(villagers, i);
            villagers[j].state = step_up(villagers[j].state);
        }
    }
    let n_beds = beds(game, p);
    match choice {
        None => default_rest(game, p, n_beds),
        Some(r) => chosen_rest(game, p, r, n_beds),
    }
}

/// F.5.4: beds to exhausted villagers first, then injured ones, in village order.
fn default_rest(game: &mut Game, p: usize, n_beds: u64) -> RuleResult {
    let mut left = n_beds;
    for wanted in [VState::Exhausted, VState::Injured] {
        // Walked by index, with no list of ids: a step touches only the first villager of the
        // walked one's name, at or before it, so the villagers after it are tested as they were
        // when the pass began.
        for i in 0..game.players[p].villagers.len() {
            let v = &game.players[p].villagers[i];
            if v.state != wanted || is_mechanical(game, &v.id) {
                continue;
            }
            if left == 0 {
                return Ok(());
            }
            let villagers = &mut game.players[p].villagers;
            let j = first_named(villagers, i);
            villagers[j].state = step_up(villagers[j].state);
            left -= 1;
        }
    }
    Ok(())
}

/// Moves each named villager from `from` to `to`; each once, own, not mechanical.
fn spend(game: &mut Game, p: usize, ids: &[String], from: &[VState], what: &str) -> RuleResult {
    let mut seen = BTreeSet::new();
    for id in ids {
        ensure(seen.insert(id), ErrorCode::Rest, || format!("{id} gets two {what} in one rest (F.5.2–F.5.3)"))?;
        ensure(!is_mechanical(game, id), ErrorCode::Rest, || format!("{id} is mechanical: no {what} (F.5.5)"))?;
        let Some(v) = game.players[p].villager_mut(id) else {
            return crate::error::fail(ErrorCode::Rest, format!("{id} is not a villager of {}", game.seat_name(p)));
        };
        ensure(from.contains(&v.state), ErrorCode::Rest, || {
            format!("{id} is {} and cannot take {what} (F.5)", v.state.id())
        })?;
        v.state = step_up(v.state);
    }
    Ok(())
}

fn chosen_rest(game: &mut Game, p: usize, r: &Rest, n_beds: u64) -> RuleResult {
    let pl = &game.players[p];
    ensure(r.potions.len() as u64 <= pl.potions, ErrorCode::Rest, || {
        format!("{} potions spent, {} in the reserve (F.5.2)", r.potions.len(), pl.potions)
    })?;
    ensure(r.cider.len() as u64 <= pl.cider, ErrorCode::Rest, || {
        format!("{} cider spent, {} in the reserve (F.5.2)", r.cider.len(), pl.cider)
    })?;
    spend(game, p, &r.potions, &[VState::Injured], "potions")?;
    spend(game, p, &r.cider, &[VState::Exhausted], "cider")?;
    game.players[p].potions -= r.potions.len() as u64;
    game.players[p].cider -= r.cider.len() as u64;
    ensure(r.beds.len() as u64 <= n_beds, ErrorCode::Rest, || {
        format!("{} beds used, {n_beds} beds owned (F.5.3)", r.beds.len())
    })?;
    let mut all_beds: Vec<String> = r.beds.clone();
    let mut extra = 0u64;
    for credit in &r.custom {
        game.check_custom_card(p, &credit.card)?;
        all_beds.extend(credit.beds.iter().cloned());
        extra += credit.beds.len() as u64;
    }
    spend(game, p, &all_beds, &[VState::Injured, VState::Exhausted], "beds")?;
    if !r.custom.is_empty() {
        let t = &mut game.players[p].trust;
        t.custom_credits += r.custom.len() as u32;
        t.credit_beds += extra;
    }
    Ok(())
}
