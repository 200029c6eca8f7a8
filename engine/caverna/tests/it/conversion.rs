//! Conversions and rubies: `docs/rules/caverna-reference.md` F.4, F.5, H.15.

use crate::common::*;
use chronicle_caverna::board::{Coord, Tile};
use chronicle_caverna::goods::Good;
use chronicle_caverna::ErrorCode as E;
use serde_json::json;

/// Player 0 with 2 gold etc. from `supplies`, then a free entry.
fn after_supplies(actions: serde_json::Value) -> serde_json::Value {
    json!([place(0, "supplies", json!([])), free(0, actions)])
}

/// F.4: n + 1 gold → n food; wood cannot be converted.
#[test]
fn f4_gold_and_forbidden_conversions() {
    let g = ok(2, after_supplies(json!([{ "do": "convert", "goods": { "gold": 2 } }]))).game.unwrap();
    assert_eq!(g.player(0).supply.get(Good::Food), 2 + 1);
    let g = ok(2, after_supplies(json!([{ "do": "buy_food", "food": 1 }]))).game.unwrap();
    assert_eq!(g.player(0).supply.get(Good::Gold), 0);
    rejects(2, after_supplies(json!([{ "do": "convert", "goods": { "wood": 1 } }])), 1, E::ConversionInvalid);
    rejects(2, after_supplies(json!([{ "do": "convert", "goods": { "gold": 1 } }])), 1, E::ConversionInvalid);
    rejects(2, after_supplies(json!([{ "do": "buy_food", "food": 2 }])), 1, E::InsufficientGoods);
}

/// F.4: donkeys converted together pair up (2 → 3 food).
#[test]
fn f4_donkeys_pair_up() {
    use chronicle_caverna::goods::Goods;
    use chronicle_caverna::rules::conversion::food_value;
    let g = ok(2, json!([])).game.unwrap();
    let p = g.player(0);
    let table = [
        (Goods::of(&[(Good::Donkey, 1)]), 1),
        (Goods::of(&[(Good::Donkey, 2)]), 3),
        (Goods::of(&[(Good::Donkey, 3)]), 4),
        (Goods::of(&[(Good::Sheep, 1), (Good::Boar, 1), (Good::Cattle, 1)]), 6),
        (Goods::of(&[(Good::Grain, 1), (Good::Vegetable, 1), (Good::Ruby, 1)]), 5),
        (Goods::of(&[(Good::Gold, 4)]), 3),
    ];
    for (goods, food) in table {
        assert_eq!(food_value(p, &goods), Ok(food), "{goods:?}");
    }
}

/// F.5: rubies buy goods 1:1, a cattle for 1 ruby + 1 food, and single tiles; H.15 dogs.
#[test]
fn f5_ruby_trades_and_tiles() {
    // Player 1 takes ruby... rubies come from starting_player with 4+ players.
    let prefix = || vec![place(0, "starting_player", json!([]))];
    let with = |a: serde_json::Value| {
        let mut v = prefix();
        v.push(free(0, a));
        json!(v)
    };
    let g = ok(4, with(json!([{ "do": "ruby_trade", "goods": { "dog": 1 } }]))).game.unwrap();
    assert_eq!((g.player(0).supply.get(Good::Dog), g.player(0).supply.get(Good::Ruby)), (1, 0));
    rejects(4, with(json!([{ "do": "ruby_trade", "goods": { "food": 1 } }])), 1, E::ConversionInvalid);
    let g = ok(4, with(json!([{ "do": "ruby_tile", "tile": "tunnel", "at": [1, 3] }]))).game.unwrap();
    assert_eq!(g.player(0).board.tile(Coord::at(1, 3)), Some(Tile::Tunnel));
    rejects(4, with(json!([{ "do": "ruby_tile", "tile": "cavern", "at": [1, 3] }])), 1, E::InsufficientGoods);
    rejects(4, with(json!([{ "do": "ruby_tile", "tile": "field", "at": [0, 0] }])), 1, E::NotAdjacent);
}
