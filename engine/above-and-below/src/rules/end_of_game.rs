//! After round 7 (`docs/rules/above-and-below.md` F.9, B.4): players may still store goods, and declare the VP of
//! their cards' `custom` effects, at most once per card (trusted, row `card_vp_custom`).

use crate::error::{ensure, ErrorCode, RuleResult};
use crate::game::Game;

pub fn declare(game: &mut Game, p: usize, card: &str, vp: i32) -> RuleResult {
    let owned = game.players[p].owns_card(card);
    ensure(owned, ErrorCode::Declare, || format!("{} does not own {card} (B.4)", game.seat_name(p)))?;
    let custom = game.setup.catalogue.cards.get(card).is_some_and(|c| c.has_custom());
    ensure(custom, ErrorCode::Declare, || format!("{card} has no `custom` effect to declare VP for (B.4)"))?;
    let pl = &mut game.players[p];
    ensure(!pl.declared.contains_key(card), ErrorCode::Declare, || {
        format!("{card} was already declared (B.4: at most once per card)")
    })?;
    pl.declared.insert(card.to_owned(), vp);
    pl.trust.card_vp_custom += i64::from(vp);
    Ok(())
}
