//! Breeding: one newborn per farm-animal type with 2 or more animals, if it can be housed
//! (`docs/rules/caverna-reference.md` F.3; Quarry and Breeding cave E.3/E.4).

use crate::error::{ensure, ErrorCode, RuleResult};
use crate::furnishing::Furnishing;
use crate::game::{Game, Player};
use crate::goods::{FarmAnimal, Good};
use crate::rules::housing;

fn fits_with(p: &Player, extra: &[FarmAnimal]) -> bool {
    let mut animals = p.animals();
    for a in extra {
        animals[a.index()] += 1;
    }
    housing::fits(&p.board, p.dwarfs_in_play(), animals, p.supply.get(Good::Dog))
}

/// The chosen newborns (a `breed` entry or the `loot_breed_2` item).
pub fn breed(game: &mut Game, p: usize, animals: &[FarmAnimal]) -> RuleResult {
    let player = &game.players[p];
    for (i, a) in animals.iter().enumerate() {
        ensure(!animals[..i].contains(a), ErrorCode::BreedInvalid, || format!("{} named twice", a.id()))?;
        ensure(player.animals()[a.index()] >= 2, ErrorCode::BreedInvalid, || {
            format!("{} do not breed with fewer than 2 animals", a.id())
        })?;
    }
    ensure(fits_with(player, animals), ErrorCode::BreedInvalid, || "the newborns cannot all be housed".into())?;
    born(&mut game.players[p], animals);
    Ok(())
}

/// Without a `breed` entry: every newborn that can be housed, trying sheep, donkey, boar,
/// cattle in that order (`docs/log-format.md` "breed").
pub fn default_breeding(game: &mut Game, p: usize) {
    let player = &game.players[p];
    let parents = player.animals();
    if parents.iter().all(|&n| n < 2) {
        return born(&mut game.players[p], &[]);
    }
    // The board is read once for the up to four tries (this runs for every player at every
    // breeding); the newborns are kept inline.
    let room = housing::Room::read(&player.board, player.dwarfs_in_play());
    let dogs = player.supply.get(Good::Dog);
    let (mut newborns, mut n) = ([FarmAnimal::Sheep; 4], 0);
    let mut animals = parents;
    for a in FarmAnimal::ALL {
        if parents[a.index()] >= 2 {
            animals[a.index()] += 1;
            if room.fits(animals, dogs) {
                newborns[n] = a;
                n += 1;
            } else {
                animals[a.index()] -= 1;
            }
        }
    }
    born(&mut game.players[p], &newborns[..n]);
}

fn born(p: &mut Player, newborns: &[FarmAnimal]) {
    for a in newborns {
        p.supply.add(a.good(), 1);
    }
    if p.owns(Furnishing::Quarry) && newborns.contains(&FarmAnimal::Donkey) {
        crate::rules::abilities::gain(p, Good::Stone, 1);
    }
    if p.owns(Furnishing::BreedingCave) {
        let food = if newborns.len() == 4 { 5 } else { newborns.len() as u32 };
        p.supply.add(Good::Food, food);
    }
}
