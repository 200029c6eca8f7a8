//! Build (`docs/rules/above-and-below.md` D.5): a hammer villager buys one face-up house or outpost, pays its price
//! to the supply, places it (an outpost on an own free cave), gains its when-gained effects,
//! collects `coin_on_build` from the player's other cards, and refills a house or outpost row.
//! Also the shared card moves used by encounter `card` rewards (E.10, H.28, H.31).

use std::sync::Arc;

use crate::catalogue::FullCard;
use crate::error::{ensure, fail, ErrorCode, RuleResult};
use crate::game::{Game, OwnedCard};
use crate::ids::{same_id, Skill, VState};
use crate::notation::{CardKind, CatDie, Discount, Effect, Payment};

use super::{payment, reputation, villagers};

/// The `build` action as written.
pub struct BuildOrder<'a> {
    pub villager: &'a str,
    pub card: &'a str,
    pub cave: Option<&'a str>,
    pub pay: Option<Payment>,
    pub refill: Option<&'a str>,
    pub custom: &'a [Discount],
    pub cat_rolls: &'a [CatDie],
}

/// Which face-up row a card lies in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Row {
    Houses,
    Outposts,
    Keys,
    Stars,
}

/// Where a card is face up: its row and slot.
pub fn find_in_rows(game: &Game, card: &str) -> Option<(Row, usize)> {
    let rows = [
        (Row::Houses, &game.house_row),
        (Row::Outposts, &game.outpost_row),
        (Row::Keys, &game.key_row),
        (Row::Stars, &game.star_row),
    ];
    rows.into_iter().find_map(|(row, slots)| {
        slots.iter().position(|s| s.as_deref().is_some_and(|s| same_id(s, card))).map(|i| (row, i))
    })
}

/// Takes a card from its row, leaving a gap.
pub fn take_from_row(game: &mut Game, row: Row, slot: usize) {
    let slots = match row {
        Row::Houses => &mut game.house_row,
        Row::Outposts => &mut game.outpost_row,
        Row::Keys => &mut game.key_row,
        Row::Stars => &mut game.star_row,
    };
    if let Some(s) = slots.get_mut(slot) {
        *s = None;
    }
}

/// D.5.7: a gap in the house or outpost row is filled from its deck (key and star rows never).
pub fn refill(game: &mut Game, row: Row, slot: usize, written: Option<&str>) -> RuleResult {
    let (kind, deck, slots) = match row {
        Row::Houses => (CardKind::Basic, &mut game.decks.houses, &mut game.house_row),
        Row::Outposts => (CardKind::Outpost, &mut game.decks.outposts, &mut game.outpost_row),
        Row::Keys | Row::Stars => {
            return match written {
                None => Ok(()),
                Some(w) => fail(
                    ErrorCode::Draw,
                    format!("key and star houses are not replaced; refill {w} is not allowed (D.5.7)"),
                ),
            }
        }
    };
    let cat = &game.setup.catalogue;
    let drawn = deck.draw(written, |id| new_card(cat, id, kind))?;
    if let Some(s) = slots.get_mut(slot) {
        *s = drawn;
    }
    Ok(())
}

/// A card new to a deck must be declared and of the deck's kind (LOG-FORMAT, G.1.1).
pub fn new_card(cat: &crate::catalogue::Catalogue, id: &str, kind: CardKind) -> RuleResult {
    let c = cat.card(id)?;
    ensure(c.kind == kind, ErrorCode::Draw, || {
        format!("{id} is a {} card, not a {} drawn from this deck", c.kind.id(), kind.id())
    })
}

/// The index of an own cave without an outpost among the first `limit` caves (H.28).
pub fn free_cave(game: &Game, p: usize, cave: &str, limit: usize) -> Option<usize> {
    game.players[p].caves.iter().take(limit).position(|c| same_id(&c.id, cave) && c.outpost.is_none())
}

/// Places a gained card: an outpost on the cave at `cave_index`, a house in the row of houses.
/// `card` is its full entry, looked up once by the action that gains it.
pub fn place(game: &mut Game, p: usize, card: FullCard<'_>, cave_index: Option<usize>) {
    let (id, effects) = (card.id, Arc::clone(card.effects));
    let card = OwnedCard { id: id.to_owned(), kind: card.kind, tokens: Vec::new(), effects: Arc::clone(&effects) };
    let pl = &mut game.players[p];
    match cave_index.and_then(|i| pl.caves.get_mut(i)) {
        Some(cave) => cave.outpost = Some(card),
        None => pl.houses.push(card),
    }
    // The effects just looked up are the catalogue's for `id`: no second lookup.
    gained_effects(game, p, id, &effects);
}

/// D.5.5, B.3: the when-gained effects of an owned card.
pub fn when_gained(game: &mut Game, p: usize, id: &str) {
    // The setup is shared: holding it lets the effects be read in place while the game changes.
    let setup = Arc::clone(&game.setup);
    gained_effects(game, p, id, setup.catalogue.effects(id));
}

/// [`when_gained`] with the card's effects in hand.
fn gained_effects(game: &mut Game, p: usize, id: &str, effects: &[Effect]) {
    for e in effects {
        match *e {
            Effect::GoodsOnce { good, n } => push_tokens(game, p, id, good, n),
            Effect::GoodsRefill { good } => push_tokens(game, p, id, good, 1),
            Effect::PotionsOnce { n } => game.players[p].potions += u64::from(n),
            Effect::ReputationOnce { n } => {
                reputation::gain(game, p, i64::from(n));
            }
            _ => {}
        }
    }
}

fn push_tokens(game: &mut Game, p: usize, id: &str, good: crate::ids::Good, n: u32) {
    if let Some(card) = game.players[p].cards_mut().find(|c| same_id(&c.id, id)) {
        card.tokens.extend(std::iter::repeat_n(good, n.min(1000) as usize));
    }
}

/// The Build action.
pub fn build(game: &mut Game, p: usize, o: &BuildOrder<'_>) -> RuleResult {
    let builder = [o.villager];
    villagers::check_ready(game, p, &builder)?;
    // One lookup for both skills.
    let def = game.setup.catalogue.villager(o.villager)?;
    let (plus, hammer) = (def.has_skill(Skill::HammerPlus), def.has_skill(Skill::Hammer));
    ensure(hammer, ErrorCode::SkillRequired, || {
        format!("{} has no hammer: only a hammer villager builds (D.5.1)", o.villager)
    })?;
    villagers::cat_rolls(game, &builder, o.cat_rolls)?;
    let Some((row, slot)) = find_in_rows(game, o.card) else {
        return fail(ErrorCode::CardNotAvailable, format!("{} is not face up in a row (D.5.2)", o.card));
    };
    // The setup is shared: holding it keeps the card's entry in hand while the game changes.
    let setup = Arc::clone(&game.setup);
    let card = setup.catalogue.full_card(o.card)?;
    let (kind, cost) = (card.kind, card.cost);
    let cave_index = match (kind, o.cave) {
        (CardKind::Outpost, Some(cave)) => {
            let limit = game.players[p].caves.len();
            Some(free_cave(game, p, cave, limit).ok_or_else(|| {
                crate::error::RuleError::new(
                    ErrorCode::NoFreeCave,
                    format!("{cave} is not an own cave without an outpost (D.5.4)"),
                )
            })?)
        }
        (CardKind::Outpost, None) => {
            return fail(
                ErrorCode::NoFreeCave,
                format!("outpost {} needs `cave`: the own free cave it covers (D.5.4)", o.card),
            )
        }
        (_, Some(cave)) => {
            return fail(ErrorCode::NoFreeCave, format!("{} is a house; `cave` {cave} is only for an outpost", o.card))
        }
        (_, None) => None,
    };
    let mut discount = 0u64;
    for d in o.custom {
        game.check_custom_card(p, &d.card)?;
        discount = discount.saturating_add(u64::from(d.discount));
    }
    let price = payment::discounted(cost, plus, discount);
    payment::pay(game, p, price, o.pay, ErrorCode::Payment)?;
    let t = &mut game.players[p].trust;
    if !o.custom.is_empty() {
        t.custom_credits += o.custom.len() as u32;
        t.credit_discount += discount;
    }
    villagers::set_state(game, p, &builder, VState::Exhausted);
    take_from_row(game, row, slot);
    place(game, p, card, cave_index);
    // D.5.6, H.6: coin_on_build of the player's other cards.
    let bonus: u64 = game.players[p]
        .cards()
        .filter(|c| !same_id(&c.id, o.card))
        .flat_map(|c| c.effects.iter())
        .filter_map(|e| if let Effect::CoinOnBuild { n } = e { Some(u64::from(*n)) } else { None })
        .sum();
    game.players[p].coins = game.players[p].coins.saturating_add(bonus);
    refill(game, row, slot, o.refill)
}
