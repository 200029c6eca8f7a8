//! Train (`docs/rules/above-and-below.md` D.6): a quill villager takes the villager of one slot of the villager row,
//! pays the slot's cost (−1 with `quill_plus`, minus trusted discounts), and the recruit joins
//! exhausted, or ready with `train_to_ready`. The slot stays empty until the round end.

use crate::error::{ensure, fail, ErrorCode, RuleResult};
use crate::game::Game;
use crate::ids::{Skill, VState};
use crate::notation::{CatDie, Discount, Effect, Payment};

use super::{payment, villagers};

/// The `train` action as written.
pub struct TrainOrder<'a> {
    pub villager: &'a str,
    pub slot: i64,
    pub recruit: Option<&'a str>,
    pub pay: Option<Payment>,
    pub custom: &'a [Discount],
    pub cat_rolls: &'a [CatDie],
}

pub fn train(game: &mut Game, p: usize, o: &TrainOrder<'_>) -> RuleResult {
    let trainer = [o.villager];
    villagers::check_ready(game, p, &trainer)?;
    let def = game.setup.catalogue.villager(o.villager)?;
    let plus = def.has_skill(Skill::QuillPlus);
    ensure(def.has_skill(Skill::Quill), ErrorCode::SkillRequired, || {
        format!("{} has no quill: only a quill villager trains (D.6.1)", o.villager)
    })?;
    villagers::cat_rolls(game, &trainer, o.cat_rolls)?;
    let Some(slot) = usize::try_from(o.slot).ok().filter(|s| *s < 5) else {
        return fail(ErrorCode::Slot, format!("slot {} is not 0–4 (D.6.2)", o.slot));
    };
    let Some(recruit) = game.villager_row.get(slot).cloned().flatten() else {
        return fail(ErrorCode::Slot, format!("slot {slot} of the villager row is empty (D.6.2)"));
    };
    if let Some(named) = o.recruit {
        ensure(named == recruit, ErrorCode::Slot, || format!("slot {slot} holds {recruit}, not {named}"))?;
    }
    game.setup.catalogue.full_villager(&recruit)?;
    let mut discount = 0u64;
    for d in o.custom {
        game.check_custom_card(p, &d.card)?;
        discount = discount.saturating_add(u64::from(d.discount));
    }
    let cost = game.setup.board.train_costs[slot];
    payment::pay(game, p, payment::discounted(cost, plus, discount), o.pay, ErrorCode::Payment)?;
    if !o.custom.is_empty() {
        let t = &mut game.players[p].trust;
        t.custom_credits += o.custom.len() as u32;
        t.credit_discount += discount;
    }
    villagers::set_state(game, p, &trainer, VState::Exhausted);
    game.villager_row[slot] = None;
    let fast = game.has(p, |e| matches!(e, Effect::TrainToReady));
    villagers::join(game, p, &recruit, if fast { VState::Ready } else { VState::Exhausted })?;
    game.players[p].trained += 1;
    Ok(())
}
