//! Actions allowed at any time (`docs/log-format.md` "free", `docs/rules/caverna-reference.md` F.4, F.5, E.4–E.6 "any
//! time" tiles), and the dispatch of `use` to the tile abilities.

use crate::error::{ensure, fail, ErrorCode, RuleResult};
use crate::furnishing::Furnishing;
use crate::game::{Game, Phase};
use crate::goods::{Good, Goods};
use crate::notation::{Action, UseFor};
use crate::rules::conversion;

/// When an action is done: at any time, or inside a `feed` entry (feeding-only abilities).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Window {
    Anytime,
    Feeding,
}

pub fn free_action(game: &mut Game, p: usize, action: &Action, window: Window) -> RuleResult {
    let player = &mut game.players[p];
    match action {
        Action::Convert { goods } => conversion::convert(player, goods),
        Action::BuyFood { food } => conversion::buy_food(player, *food),
        Action::RubyTrade { goods } => conversion::ruby_trade(player, goods),
        Action::RubyTile { tile, at } => conversion::ruby_tile(player, *tile, *at),
        Action::Release { animals } => conversion::release(player, animals),
        Action::Use { tile, times, for_, pay, dwarf } => {
            use_tile(game, p, *tile, times.unwrap_or(1), *for_, *pay, *dwarf, window)
        }
        other => fail(ErrorCode::ActionNotAllowed, format!("`{}` is only done on an action space", other.name())),
    }
}

/// An exchange printed on a tile, `times` times.
fn exchange(game: &mut Game, p: usize, tile: Furnishing, give: Goods, get: Goods, times: u32) -> RuleResult {
    let player = &mut game.players[p];
    let mut cost = Goods::new();
    let mut gain = Goods::new();
    for _ in 0..times {
        cost.add_all(&give);
        gain.add_all(&get);
    }
    let held = player.supply;
    player.supply.take(&cost).map_err(|g| {
        crate::error::RuleError::new(
            ErrorCode::InsufficientGoods,
            format!("{} × {} needs {} {}; you have {}", times, tile.id(), cost.get(g), g.id(), held.get(g)),
        )
    })?;
    for (g, n) in gain.iter() {
        crate::rules::abilities::gain(player, g, n);
    }
    Ok(())
}

#[allow(clippy::too_many_arguments)]
fn use_tile(
    game: &mut Game,
    p: usize,
    tile: Furnishing,
    times: u32,
    for_: Option<UseFor>,
    pay: Option<Good>,
    dwarf: Option<u32>,
    window: Window,
) -> RuleResult {
    ensure(game.players[p].owns(tile), ErrorCode::TileNotUsable, || format!("you do not own {}", tile.id()))?;
    ensure((1..=1000).contains(&times), ErrorCode::OutOfRange, || format!("`times` {times} out of 1–1000"))?;
    let g = |pairs: &[(Good, u32)]| Goods::of(pairs);
    use Furnishing as T;
    use Good::*;
    match tile {
        T::Trader => exchange(game, p, tile, g(&[(Gold, 2)]), g(&[(Wood, 1), (Stone, 1), (Ore, 1)]), times),
        T::SparePartStorage => exchange(game, p, tile, g(&[(Wood, 1), (Stone, 1), (Ore, 1)]), g(&[(Gold, 2)]), times),
        T::HuntingParlor => exchange(game, p, tile, g(&[(Boar, 2)]), g(&[(Gold, 2), (Food, 2)]), times),
        T::BeerParlor => {
            let get = match for_ {
                Some(UseFor::Gold) => g(&[(Gold, 3)]),
                Some(UseFor::Food) => g(&[(Food, 4)]),
                None => return fail(ErrorCode::Malformed, "beer_parlor needs `for`: gold or food"),
            };
            exchange(game, p, tile, g(&[(Grain, 2)]), get, times)
        }
        T::BlacksmithingParlor => exchange(game, p, tile, g(&[(Ruby, 1), (Ore, 1)]), g(&[(Gold, 2), (Food, 1)]), times),
        T::CookingCave => exchange(game, p, tile, g(&[(Grain, 1), (Vegetable, 1)]), g(&[(Food, 5)]), times),
        T::PeacefulCave => {
            let Some(d) = dwarf.map(|d| d as usize) else {
                return fail(ErrorCode::Malformed, "peaceful_cave needs `dwarf`");
            };
            let player = &mut game.players[p];
            let Some(strength) = player.dwarfs.get(d).and_then(|x| x.weapon) else {
                return fail(ErrorCode::WeaponRequired, format!("dwarf {d} has no weapon to give up"));
            };
            player.dwarfs[d].weapon = None;
            player.supply.add(Food, u32::from(strength));
            Ok(())
        }
        T::WorkingCave => {
            let Phase::Feeding { relief, .. } = &mut game.phase else {
                return fail(ErrorCode::TileNotUsable, "the working cave is used only in a feeding phase");
            };
            ensure(window == Window::Feeding, ErrorCode::TileNotUsable, || {
                "the working cave is used inside a `feed` entry".into()
            })?;
            ensure(relief[p] == 0, ErrorCode::TileNotUsable, || "the working cave feeds one dwarf per feeding".into())?;
            let cost = match pay {
                Some(Wood) => g(&[(Wood, 1)]),
                Some(Stone) => g(&[(Stone, 1)]),
                Some(Ore) => g(&[(Ore, 2)]),
                _ => return fail(ErrorCode::Malformed, "working_cave needs `pay`: wood, stone or ore"),
            };
            relief[p] = 1;
            let held = game.players[p].supply;
            game.players[p].supply.take(&cost).map_err(|g| {
                let message = format!("working_cave needs {} {}; you have {}", cost.get(g), g.id(), held.get(g));
                crate::error::RuleError::new(ErrorCode::InsufficientGoods, message)
            })
        }
        other => fail(ErrorCode::TileNotUsable, format!("{} has no ability to use", other.id())),
    }
}
