//! Payments to the supply (`docs/rules/above-and-below.md` D.5.3, H.5, H.18): coins, plus cider and potions at one
//! coin each for a player who owns `cider_as_coin` / `potion_as_coin`. The payment object must
//! add up to the price exactly; without one, the price is paid in coins. Only the reserve pays.

use crate::error::{ensure, ErrorCode, RuleResult};
use crate::game::Game;
use crate::notation::{Effect, Payment};

/// Pays `price` to the supply, failing with `code` (`E_PAYMENT`, or the caller's code for an
/// encounter: `E_BONUS`, `E_OUTCOME`).
pub fn pay(game: &mut Game, p: usize, price: u64, with: Option<Payment>, code: ErrorCode) -> RuleResult {
    let pay = with.unwrap_or(Payment { coins: u32::try_from(price).unwrap_or(u32::MAX), cider: 0, potions: 0 });
    let total = u64::from(pay.coins) + u64::from(pay.cider) + u64::from(pay.potions);
    ensure(total == price, code, || format!("the payment adds up to {total}, not the price {price} (D.5.3)"))?;
    ensure(pay.cider == 0 || game.has(p, |e| matches!(e, Effect::CiderAsCoin)), code, || {
        "cider may pay only with a cider_as_coin effect (H.5)".into()
    })?;
    ensure(pay.potions == 0 || game.has(p, |e| matches!(e, Effect::PotionAsCoin)), code, || {
        "potions may pay only with a potion_as_coin effect (H.5)".into()
    })?;
    let pl = &mut game.players[p];
    ensure(pl.coins >= u64::from(pay.coins), code, || format!("{} coins to pay, {} in hand", pay.coins, pl.coins))?;
    ensure(pl.cider >= u64::from(pay.cider), code, || {
        format!("{} cider to pay, {} in the reserve", pay.cider, pl.cider)
    })?;
    ensure(pl.potions >= u64::from(pay.potions), code, || {
        format!("{} potions to pay, {} in the reserve", pay.potions, pl.potions)
    })?;
    pl.coins -= u64::from(pay.coins);
    pl.cider -= u64::from(pay.cider);
    pl.potions -= u64::from(pay.potions);
    Ok(())
}

/// D.5.3, D.6.2: a price after a skill discount and trusted custom discounts, never below 0.
pub fn discounted(cost: u32, plus: bool, custom: u64) -> u64 {
    u64::from(cost).saturating_sub(u64::from(plus)).saturating_sub(custom)
}
