//! Furnishing-tile abilities that hook into gaining goods and building (`docs/rules/caverna-reference.md` E.3–E.5).
//!
//! Gains go through [`gain`] so that tiles reacting to goods (Seam, Dog school) see every
//! source exactly once.

use crate::board::Tile;
use crate::furnishing::Furnishing;
use crate::game::{Game, Player};
use crate::goods::Good;

/// Adds goods to a supply, with the reactions of Seam (+1 ore per stone) and Dog school
/// (+1 wood per dog) (E.3).
pub fn gain(p: &mut Player, good: Good, n: u32) {
    p.supply.add(good, n);
    match good {
        Good::Stone if p.owns(Furnishing::Seam) => p.supply.add(Good::Ore, n),
        Good::Dog if p.owns(Furnishing::DogSchool) => p.supply.add(Good::Wood, n),
        _ => {}
    }
}

/// One-off effects when a tile is built (E.3, E.5).
pub fn on_build(game: &mut Game, p: usize, tile: Furnishing) {
    let player = &mut game.players[p];
    match tile {
        Furnishing::StoneCarver => gain(player, Good::Stone, 2),
        Furnishing::Blacksmith => player.supply.add(Good::Ore, 2),
        Furnishing::WeavingParlor => {
            let sheep = player.supply.get(Good::Sheep);
            player.supply.add(Good::Food, sheep);
        }
        Furnishing::MilkingParlor => {
            let cattle = player.supply.get(Good::Cattle);
            player.supply.add(Good::Food, cattle);
        }
        Furnishing::StateParlor => {
            let food = 2 * adjacent_dwellings(player);
            player.supply.add(Good::Food, food);
        }
        Furnishing::WoodSupplier => promise(game, p, Good::Wood, 7),
        Furnishing::StoneSupplier => promise(game, p, Good::Stone, 5),
        Furnishing::RubySupplier => promise(game, p, Good::Ruby, 4),
        _ => {}
    }
}

/// A supplier puts one good on each of the next `rounds` round spaces; goods for rounds past
/// the last are lost (E.3).
fn promise(game: &mut Game, p: usize, good: Good, rounds: usize) {
    let now = game.round();
    let later: Vec<u8> = game.setup.rounds().iter().copied().filter(|&r| r > now).take(rounds).collect();
    std::sync::Arc::make_mut(&mut game.players[p].future).extend(later.into_iter().map(|r| (r, good)));
}

/// Start-of-round income: supplier goods on this round's space, and the Miner (E.3).
pub fn start_of_round(game: &mut Game) {
    let round = game.round();
    for player in &mut game.players {
        // Written only when something is due: the list is shared with copies of the game.
        if player.future.iter().any(|&(r, _)| r == round) {
            let due: Vec<Good> = player.future.iter().filter(|&&(r, _)| r == round).map(|&(_, g)| g).collect();
            std::sync::Arc::make_mut(&mut player.future).retain(|&(r, _)| r != round);
            for g in due {
                gain(player, g, 1);
            }
        }
        if player.owns(Furnishing::Miner) {
            let ore_mines = player.board.count(|t| t == Tile::OreMine) as u32;
            let ore = ore_mines.min(player.supply.get(Good::Donkey));
            player.supply.add(Good::Ore, ore);
        }
    }
}

/// Dwellings (entry dwelling included) orthogonally adjacent to the State parlor (E.5).
pub fn adjacent_dwellings(p: &Player) -> u32 {
    let Some((at, _)) = p.board.furnishings().find(|&(_, t)| t == Furnishing::StateParlor) else {
        return 0;
    };
    at.neighbours()
        .filter(|&n| match p.board.tile(n) {
            Some(Tile::EntryDwelling) => true,
            Some(Tile::Furnished { tile, .. }) => tile.is_dwelling(),
            _ => false,
        })
        .count() as u32
}
