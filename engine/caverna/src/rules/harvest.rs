//! Harvest sub-phases: the field phase and paying for food (`docs/rules/caverna-reference.md` C.3, F.6, E.4).

use crate::board::{Crop, Tile};
use crate::furnishing::Furnishing;
use crate::game::Player;
use crate::goods::Good;

/// Takes one crop from every sown field (C.3 step 1).
pub fn field_phase(p: &mut Player) {
    for c in p.board.field_cells() {
        let Some(Tile::Field { crop: Some((kind, n)) }) = p.board.tile(c) else { continue };
        let good = match kind {
            Crop::Grain => Good::Grain,
            Crop::Vegetable => Good::Vegetable,
        };
        p.supply.add(good, 1);
        let left = n.saturating_sub(1);
        p.board.set_tile(c, Tile::Field { crop: (left > 0).then_some((kind, left)) });
    }
}

/// Food due at this feeding: 2 per adult and 1 per newborn, or 1 per dwarf (C.3, C.4), less
/// the Working cave's dwarf (`relief`) and 1 per donkey in a mine with the Mining cave (E.4).
pub fn food_due(p: &Player, one_food: bool, relief: u32) -> u32 {
    // Each dwarf costs 2 or 1; the cave feeds the dearest first (counted, not sorted: this
    // runs for every player at every feeding).
    let dwarfs = p.dwarfs.len() as u32;
    let dear = if one_food { 0 } else { p.dwarfs.iter().filter(|d| !d.newborn).count() as u32 };
    let relieved_dear = relief.min(dear);
    let relieved_cheap = (relief - relieved_dear).min(dwarfs - dear);
    let fed_by_cave = 2 * relieved_dear + relieved_cheap;
    let mut due: u32 = dwarfs + dear - fed_by_cave;
    if p.owns(Furnishing::MiningCave) {
        let mines = p.board.count(|t| matches!(t, Tile::OreMine | Tile::RubyMine)) as u32;
        due = due.saturating_sub(mines.min(p.supply.get(Good::Donkey)));
    }
    due
}

/// Pays from the food supply; every missing food is a begging marker (F.6).
pub fn pay_feeding(p: &mut Player, one_food: bool, relief: u32) {
    let due = food_due(p, one_food, relief);
    let food = p.supply.get(Good::Food);
    let paid = due.min(food);
    p.supply.set(Good::Food, food - paid);
    p.begging += due - paid;
}
