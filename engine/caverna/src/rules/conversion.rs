//! Any-time actions: food conversion, buying food with gold, ruby trades and ruby tiles,
//! releasing animals (`docs/rules/caverna-reference.md` F.4, F.5, F.6 and `docs/log-format.md` "free").

use crate::error::{ensure, fail, ErrorCode, RuleError, RuleResult};
use crate::furnishing::Furnishing;
use crate::game::Player;
use crate::goods::{Good, Goods};
use crate::notation::{goods_of, GoodsMap, RawCoord, SingleTile};
use crate::rules::abilities::gain;
use crate::rules::tiles::{place_single, Single};

fn remove(p: &mut Player, goods: &Goods, what: &str) -> RuleResult {
    let held = p.supply;
    p.supply.take(goods).map_err(|g| short_of(what, g, goods.get(g), held.get(g)))
}

/// The error of a payment to `what` that needs `need` of good `g` where `have` are held.
fn short_of(what: &str, g: Good, need: u32, have: u32) -> RuleError {
    RuleError::new(ErrorCode::InsufficientGoods, format!("to {what} you need {need} {}; you have {have}", g.id()))
}

/// The goods a map names with a count above 0, in id order: the goods [`Goods::iter`] walks in
/// the bundle [`goods_of`] makes of the map. Conversions and releases read their map once into
/// this short list, not into a bundle of all thirteen goods (feeding converts at almost every
/// entry), and walk the list for each of their steps.
struct Named {
    len: usize,
    items: [(Good, u32); Good::ALL.len()],
}

impl Named {
    fn of(map: &GoodsMap) -> Named {
        let mut named = Named { len: 0, items: [(Good::Wood, 0); Good::ALL.len()] };
        // A map has each good at most once, so at most thirteen items.
        for (&g, &n) in map.iter().filter(|(_, &n)| n > 0) {
            named.items[named.len] = (g, n);
            named.len += 1;
        }
        named
    }

    fn iter(&self) -> impl Iterator<Item = (Good, u32)> + '_ {
        self.items[..self.len].iter().copied()
    }

    /// [`remove`] of these goods: fails on the first good (in id order) that is short, leaving
    /// the supply unchanged.
    fn remove(&self, p: &mut Player, what: &str) -> RuleResult {
        if let Some((g, n)) = self.iter().find(|&(g, n)| p.supply.get(g) < n) {
            return Err(short_of(what, g, n, p.supply.get(g)));
        }
        for (g, n) in self.iter() {
            p.supply.set(g, p.supply.get(g) - n);
        }
        Ok(())
    }
}

/// Food from converting `goods` at the table rates of F.4 (Slaughtering cave +1 per farm
/// animal, E.4). Donkeys converted together pair up: 2 → 3 food.
pub fn food_value(p: &Player, goods: &Goods) -> RuleResult<u32> {
    food_of(p, goods.iter())
}

/// [`food_value`] of goods given one at a time (each good once, in id order).
fn food_of(p: &Player, goods: impl Iterator<Item = (Good, u32)>) -> RuleResult<u32> {
    let slaughter = u32::from(p.owns(Furnishing::SlaughteringCave));
    let mut food = 0u64;
    for (g, n) in goods {
        let n64 = u64::from(n);
        food += match g {
            Good::Sheep | Good::Boar | Good::Cattle => {
                let base = match g {
                    Good::Sheep => 1,
                    Good::Boar => 2,
                    _ => 3,
                };
                n64 * u64::from(base + slaughter)
            }
            Good::Donkey => (n64 / 2) * 3 + n64 % 2 + n64 * u64::from(slaughter),
            Good::Grain => n64,
            Good::Vegetable | Good::Ruby => 2 * n64,
            Good::Gold if n >= 2 => n64 - 1,
            Good::Gold => return fail(ErrorCode::ConversionInvalid, "gold converts as n + 1 gold → n food"),
            other => return fail(ErrorCode::ConversionInvalid, format!("{} cannot be converted to food", other.id())),
        };
    }
    u32::try_from(food).map_err(|_| RuleError::new(ErrorCode::OutOfRange, "conversion too large"))
}

pub fn convert(p: &mut Player, map: &GoodsMap) -> RuleResult {
    let goods = Named::of(map);
    ensure(goods.len > 0, ErrorCode::ConversionInvalid, || "convert names no goods".into())?;
    let food = food_of(p, goods.iter())?;
    goods.remove(p, "convert")?;
    p.supply.add(Good::Food, food);
    Ok(())
}

/// `buy_food`: n food for n + 1 gold (F.4).
pub fn buy_food(p: &mut Player, food: u32) -> RuleResult {
    ensure(food >= 1, ErrorCode::OutOfRange, || "buy at least 1 food".into())?;
    remove(p, &Goods::one(Good::Gold, food.saturating_add(1)), "buy food")?;
    p.supply.add(Good::Food, food);
    Ok(())
}

/// Ruby trades: 1 ruby for one good, 1 ruby + 1 food for a cattle (F.5, dog per H.15).
pub fn ruby_trade(p: &mut Player, map: &GoodsMap) -> RuleResult {
    let goods = goods_of(map);
    ensure(!goods.is_empty(), ErrorCode::ConversionInvalid, || "ruby_trade names no goods".into())?;
    let mut cost = Goods::new();
    for (g, n) in goods.iter() {
        match g {
            Good::Ruby | Good::Food => {
                return fail(ErrorCode::ConversionInvalid, format!("rubies do not buy {}", g.id()))
            }
            Good::Cattle => {
                cost.add(Good::Ruby, n);
                cost.add(Good::Food, n);
            }
            _ => cost.add(Good::Ruby, n),
        }
    }
    remove(p, &cost, "pay the ruby trade")?;
    for (g, n) in goods.iter() {
        gain(p, g, n);
    }
    Ok(())
}

/// A single tile bought with rubies: meadow, field, tunnel 1 ruby; cavern 2 (F.5).
pub fn ruby_tile(p: &mut Player, tile: SingleTile, at: RawCoord) -> RuleResult {
    let (kind, rubies) = match tile {
        SingleTile::Meadow => (Single::Meadow, 1),
        SingleTile::Field => (Single::Field, 1),
        SingleTile::Tunnel => (Single::Tunnel, 1),
        SingleTile::Cavern => (Single::Cavern, 2),
    };
    remove(p, &Goods::one(Good::Ruby, rubies), "buy the tile")?;
    place_single(p, kind, at)
}

/// Lets animals (or dogs) go; they are lost.
pub fn release(p: &mut Player, map: &GoodsMap) -> RuleResult {
    let goods = Named::of(map);
    for (g, _) in goods.iter() {
        ensure(g == Good::Dog || g.farm_animal().is_some(), ErrorCode::ConversionInvalid, || {
            format!("only animals can be released, not {}", g.id())
        })?;
    }
    goods.remove(p, "release")
}
