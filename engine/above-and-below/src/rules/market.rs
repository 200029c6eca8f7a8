//! Free actions between players and with the rows (`docs/rules/above-and-below.md` D.8): offering an item on the
//! sale spot, buying another player's item (coins only, at least 3), and refreshing the house
//! or outpost row once per turn for 1 coin.

use crate::error::{ensure, fail, ErrorCode, RuleResult};
use crate::game::Game;
use crate::ids::Item;
use crate::notation::{CardKind, Payment, RowName};

use super::build::new_card;
use super::payment;
use super::turn::TurnCtx;

/// D.8.1: put an item from the reserve on the sale spot (returning what was there), or
/// withdraw the item there (`None`).
pub fn offer(game: &mut Game, p: usize, item: Option<Item>) -> RuleResult {
    let pl = &mut game.players[p];
    match item {
        None => {
            let Some(old) = pl.sale.take() else {
                return fail(ErrorCode::Offer, "nothing on the sale spot to withdraw (D.8.1)");
            };
            *pl.reserve_mut(old) += 1;
        }
        Some(i) => {
            if let Some(old) = pl.sale.take() {
                *pl.reserve_mut(old) += 1;
            }
            ensure(pl.in_reserve(i) > 0, ErrorCode::Offer, || {
                format!("no {} in the reserve to offer (D.8.1)", i.id())
            })?;
            *pl.reserve_mut(i) -= 1;
            pl.sale = Some(i);
        }
    }
    Ok(())
}

/// D.8.2: buy the item on another player's sale spot for `price` ≥ 3 coins, paid to them.
pub fn buy(game: &mut Game, p: usize, from: u64, price: i64) -> RuleResult {
    let Some(seller) = usize::try_from(from).ok().filter(|s| *s < game.players.len()) else {
        return fail(ErrorCode::Buy, format!("{} (D.8.2)", game.no_seat("from", from)));
    };
    ensure(seller != p, ErrorCode::Buy, || {
        format!("{} cannot buy from their own sale spot (D.8.2)", game.seat_name(p))
    })?;
    let price = u64::try_from(price).ok().filter(|n| *n >= 3);
    let Some(price) = price else {
        return fail(ErrorCode::Buy, "a purchase from a player costs at least 3 coins (D.8.2)");
    };
    let Some(item) = game.players[seller].sale else {
        return fail(ErrorCode::Buy, format!("the sale spot of {} is empty (D.8.2)", game.seat_name(seller)));
    };
    ensure(game.players[p].coins >= price, ErrorCode::Buy, || {
        format!("{price} coins to pay, {} in hand", game.players[p].coins)
    })?;
    game.players[seller].sale = None;
    game.players[seller].coins = game.players[seller].coins.saturating_add(price);
    let buyer = &mut game.players[p];
    buyer.coins -= price;
    *buyer.reserve_mut(item) += 1;
    Ok(())
}

/// D.8.3, G.1: key, star and villager rows (and any other name) are never refreshed.
fn not_refreshable(name: &str) -> RuleResult {
    fail(ErrorCode::Refresh, format!("row `{name}` cannot be refreshed: only \"houses\" or \"outposts\" (D.8.3)"))
}

/// D.8.3, H.29: put the row under its deck (slot 0 first) and draw up to 4 new cards.
pub fn refresh(
    game: &mut Game,
    p: usize,
    row: &RowName,
    drawn: Option<&[String]>,
    pay: Option<Payment>,
    ctx: &mut TurnCtx,
) -> RuleResult {
    if let RowName::Other(name) = row {
        return not_refreshable(name);
    }
    ensure(!ctx.refreshed, ErrorCode::Refresh, || "a row may be refreshed at most once per turn (D.8.3)".into())?;
    ctx.refreshed = true;
    payment::pay(game, p, 1, pay, ErrorCode::Payment)?;
    let seeded = game.seeded();
    let (kind, deck, slots) = match row {
        RowName::Houses => (CardKind::Basic, &mut game.decks.houses, &mut game.house_row),
        RowName::Outposts => (CardKind::Outpost, &mut game.decks.outposts, &mut game.outpost_row),
        RowName::Other(name) => return not_refreshable(name),
    };
    for card in slots.iter_mut().filter_map(Option::take) {
        deck.put_bottom(card);
    }
    let cat = &game.setup.catalogue;
    let mut new = Vec::with_capacity(4);
    while new.len() < 4 && !deck.is_empty() {
        let written = drawn.and_then(|d| d.get(new.len())).map(String::as_str);
        if (drawn.is_some() || !seeded) && written.is_none() {
            return fail(
                ErrorCode::RandomMissing,
                format!("refresh draws {} or more cards; `drawn` lists {}", new.len() + 1, new.len()),
            );
        }
        if let Some(c) = deck.draw(written, |id| new_card(cat, id, kind))? {
            new.push(c);
        }
    }
    if let Some(d) = drawn {
        let code = if seeded { ErrorCode::RandomMismatch } else { ErrorCode::Draw };
        ensure(d.len() == new.len(), code, || format!("refresh draws {} cards, `drawn` lists {}", new.len(), d.len()))?;
    }
    for (i, slot) in slots.iter_mut().enumerate() {
        *slot = new.get(i).cloned();
    }
    Ok(())
}
