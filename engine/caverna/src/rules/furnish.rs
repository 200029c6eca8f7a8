//! Furnishing a cavern or a dwelling: availability, cell, cost with discounts and the Builder's
//! substitution (`docs/rules/caverna-reference.md` B.4, E, E.7).

use crate::board::{Coord, Tile, Under};
use crate::error::{ensure, fail, ErrorCode, RuleResult};
use crate::furnishing::Furnishing;
use crate::game::Game;
use crate::goods::{Good, Goods};
use crate::notation::{goods_of, GoodsMap, RawCoord};
use crate::rules::tiles::coord;

/// What the action allows to be built.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Furnish {
    /// Furnish a cavern: any available tile.
    Any,
    /// Furnish a dwelling: the six dwelling tiles (B.4).
    DwellingOnly,
    /// The 2 wood + 2 stone ordinary dwelling loot (D.2).
    LootDwelling,
}

/// Applies a discount of one good, never below zero (E.7).
fn discount(cost: &mut Goods, good: Good) {
    let n = cost.get(good);
    cost.set(good, n.saturating_sub(1));
}

/// The price of a tile for this player after Carpenter and Stone carver (E.3, E.7).
pub fn price(game: &Game, p: usize, tile: Furnishing, kind: Furnish) -> Goods {
    let player = game.player(p);
    let mut cost = match kind {
        Furnish::LootDwelling => Goods::of(&[(Good::Wood, 2), (Good::Stone, 2)]),
        _ => tile.card().cost,
    };
    if player.owns(Furnishing::Carpenter) {
        discount(&mut cost, Good::Wood);
    }
    if player.owns(Furnishing::StoneCarver) {
        discount(&mut cost, Good::Stone);
    }
    cost
}

/// Checks a Builder payment: the price with at most one wood and one stone paid as ore (E.3).
fn builder_payment(cost: Goods, pay: &Goods) -> RuleResult<Goods> {
    for (wood_swap, stone_swap) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
        let mut c = cost;
        if cost.get(Good::Wood) < wood_swap || cost.get(Good::Stone) < stone_swap {
            continue;
        }
        c.set(Good::Wood, cost.get(Good::Wood) - wood_swap);
        c.set(Good::Stone, cost.get(Good::Stone) - stone_swap);
        c.add(Good::Ore, wood_swap + stone_swap);
        if &c == pay {
            return Ok(c);
        }
    }
    fail(ErrorCode::InsufficientGoods, "the Builder pays the price with at most 1 wood and 1 stone replaced by ore")
}

/// Where the tile may go: an empty cavern, or with the Work room an unfurnished tunnel or deep
/// tunnel (E.7, H.22). Trader and Spare part storage stack on each other (E.7).
fn check_cell(game: &Game, p: usize, tile: Furnishing, at: Coord, raw: RawCoord) -> RuleResult<Under> {
    let player = game.player(p);
    let rival = match tile {
        Furnishing::Trader => Some(Furnishing::SparePartStorage),
        Furnishing::SparePartStorage => Some(Furnishing::Trader),
        _ => None,
    };
    if let Some(rival) = rival.filter(|&r| player.owns(r)) {
        return match player.board.tile(at) {
            Some(Tile::Furnished { tile: t, under }) if t == rival => Ok(under),
            _ => fail(ErrorCode::FurnishingCell, format!("{} must be placed on top of your {}", tile.id(), rival.id())),
        };
    }
    let work_room = player.owns(Furnishing::WorkRoom) && tile != Furnishing::WorkRoom;
    match player.board.tile(at) {
        Some(Tile::Cavern) => Ok(Under::Cavern),
        Some(Tile::Tunnel) if work_room => Ok(Under::Tunnel),
        Some(Tile::DeepTunnel) if work_room => Ok(Under::DeepTunnel),
        _ => fail(
            ErrorCode::FurnishingCell,
            format!("{raw} is not an empty cavern{}", if work_room { " or tunnel" } else { "" }),
        ),
    }
}

/// Furnishes `tile` at `at` for player `p`, paying for it.
pub fn furnish(
    game: &mut Game,
    p: usize,
    tile: Furnishing,
    raw: RawCoord,
    pay: Option<&GoodsMap>,
    kind: Furnish,
) -> RuleResult {
    let (at, under, paid) = check_furnish(game, p, tile, raw, pay, kind)?;
    let round = game.round();
    let player = &mut game.players[p];
    let held = player.supply;
    player.supply.take(&paid).map_err(|g| short(tile, &paid, held.get(g), g))?; // checked above: never short
    player.board.set_tile(at, Tile::Furnished { tile, under });
    std::sync::Arc::make_mut(&mut player.built).push((tile, round));
    let via = match game.doing {
        crate::events::Doing { loot: true, .. } => crate::events::Via::Loot,
        crate::events::Doing { space: Some(s), .. } => crate::events::Via::Space(s),
        // Furnishing happens only on a space or as loot; a space is always set then.
        _ => crate::events::Via::Loot,
    };
    game.record(crate::events::Event::Furnished { player: p, round, tile, at, via });
    crate::rules::abilities::on_build(game, p, tile);
    Ok(())
}

/// Whether [`furnish`] (without a Builder payment) would succeed, without changing the game
/// (the generator asks this for every tile).
pub fn can_furnish(game: &Game, p: usize, tile: Furnishing, raw: RawCoord, kind: Furnish) -> bool {
    check_furnish(game, p, tile, raw, None, kind).is_ok()
}

/// Every check of [`furnish`], in its order: the cell, what lies under the tile and the
/// goods paid.
fn check_furnish(
    game: &Game,
    p: usize,
    tile: Furnishing,
    raw: RawCoord,
    pay: Option<&GoodsMap>,
    kind: Furnish,
) -> RuleResult<(Coord, Under, Goods)> {
    match kind {
        Furnish::DwellingOnly => ensure(tile.is_dwelling(), ErrorCode::FurnishingUnavailable, || {
            format!("{} is not a dwelling; this action furnishes dwellings only", tile.id())
        })?,
        Furnish::LootDwelling => ensure(tile == Furnishing::Dwelling, ErrorCode::FurnishingUnavailable, || {
            format!("this loot builds an ordinary dwelling, not {}", tile.id())
        })?,
        Furnish::Any => {}
    }
    ensure(game.is_available(tile), ErrorCode::FurnishingUnavailable, || {
        format!("{} is already built or not in this game's set", tile.id())
    })?;
    let at = coord(raw, true)?;
    let under = check_cell(game, p, tile, at, raw)?;
    let cost = price(game, p, tile, kind);
    let paid = match pay {
        None => cost,
        Some(_) if !game.player(p).owns(Furnishing::Builder) => {
            return fail(ErrorCode::ActionNotAllowed, "`pay` needs a Builder")
        }
        Some(map) => builder_payment(cost, &goods_of(map))?,
    };
    let mut left = game.player(p).supply;
    left.take(&paid).map_err(|g| short(tile, &paid, game.player(p).supply.get(g), g))?;
    Ok((at, under, paid))
}

/// The error of a payment short of `good`, with the numbers: what it costs and what the player
/// holds ("dwelling costs 4 wood, 3 stone; you have 2 wood").
fn short(tile: Furnishing, paid: &crate::goods::Goods, held: u32, good: Good) -> crate::error::RuleError {
    let cost: Vec<String> = paid.iter().filter(|(_, n)| *n > 0).map(|(g, n)| format!("{n} {}", g.id())).collect();
    crate::error::RuleError::new(
        ErrorCode::InsufficientGoods,
        format!("{} costs {}; you have {held} {}", tile.id(), cost.join(", "), good.id()),
    )
}
