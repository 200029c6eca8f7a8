//! Expeditions and their loot (`docs/rules/caverna-reference.md` D.1, D.2, H.1, H.2).

use crate::error::{ensure, fail, ErrorCode, RuleResult};
use crate::furnishing::Furnishing;
use crate::game::Game;
use crate::goods::Good;
use crate::notation::{Loot, LootItem, RawCoord};
use crate::rules::abilities::gain;
use crate::rules::furnish::{furnish, Furnish};
use crate::rules::tiles::{build_pasture, build_stable, place_single, Pasture, Single};
use crate::rules::weapons::strengthen;
use crate::rules::{breeding, sowing};

/// Minimum weapon strength of a loot item (D.2; meadow and dwelling at 11 per H.1, H.2).
pub fn min_strength(item: LootItem) -> u8 {
    use LootItem as L;
    match item {
        L::IncreaseAllWeapons | L::LootDog | L::LootWood => 1,
        L::LootSheep | L::LootGrain => 2,
        L::LootDonkey | L::LootStone => 3,
        L::LootVegetable | L::LootOre2 => 4,
        L::LootBoar => 5,
        L::LootGold2 => 6,
        L::LootFurnishCavern => 7,
        L::LootStable => 8,
        L::LootTunnel | L::LootSmallPasture => 9,
        L::LootCattle | L::LootLargePasture => 10,
        L::LootMeadow | L::LootDwelling2w2s => 11,
        L::LootField | L::LootSow => 12,
        L::LootCavern | L::LootBreed2 => 14,
    }
}

fn need<T: Copy>(v: Option<T>, item: LootItem, what: &str) -> RuleResult<T> {
    v.ok_or_else(|| crate::error::RuleError::new(ErrorCode::Malformed, format!("{} needs `{what}`", item.id())))
}

/// A level-`level` expedition by dwarf `dwarf` of player `p` (D.1).
pub fn expedition(game: &mut Game, p: usize, dwarf: usize, level: usize, loot: &[Loot]) -> RuleResult {
    let Some(strength) = game.players[p].dwarfs[dwarf].weapon else {
        return fail(ErrorCode::WeaponRequired, "only an armed dwarf goes on an expedition");
    };
    ensure(loot.len() <= level, ErrorCode::LootNotAllowed, || {
        format!("a level-{level} expedition takes at most {level} loot items")
    })?;
    for (i, l) in loot.iter().enumerate() {
        ensure(!loot[..i].iter().any(|o| o.item == l.item), ErrorCode::LootNotAllowed, || {
            format!("{} is taken twice in one expedition", l.item.id())
        })?;
        ensure(min_strength(l.item) <= strength, ErrorCode::LootNotAllowed, || {
            format!("{} needs strength {}; the dwarf has {strength}", l.item.id(), min_strength(l.item))
        })?;
    }
    let mut all_weapons = false;
    game.doing.loot = true;
    for l in loot {
        all_weapons |= l.item == LootItem::IncreaseAllWeapons;
        if let Err(e) = take(game, p, l) {
            game.doing.loot = false;
            return Err(e);
        }
    }
    game.doing.loot = false;
    let round = game.round();
    game.record(crate::events::Event::Expedition {
        player: p,
        round,
        dwarf,
        level,
        strength,
        loot: loot.iter().map(|l| l.item).collect(),
    });
    let player = &mut game.players[p];
    if all_weapons {
        for d in &mut player.dwarfs {
            strengthen(&mut d.weapon, 1);
        }
    }
    strengthen(&mut player.dwarfs[dwarf].weapon, 1);
    Ok(())
}

fn take(game: &mut Game, p: usize, l: &Loot) -> RuleResult {
    use LootItem as L;
    let goods = |g: Good, n: u32| Some((g, n));
    let simple = match l.item {
        L::LootDog => goods(Good::Dog, 1),
        L::LootWood => goods(Good::Wood, 1),
        L::LootSheep => goods(Good::Sheep, 1),
        L::LootGrain => goods(Good::Grain, 1),
        L::LootDonkey => goods(Good::Donkey, 1),
        L::LootStone => goods(Good::Stone, 1),
        L::LootVegetable => goods(Good::Vegetable, 1),
        L::LootOre2 => goods(Good::Ore, 2),
        L::LootBoar => goods(Good::Boar, 1),
        L::LootGold2 => goods(Good::Gold, 2),
        L::LootCattle => goods(Good::Cattle, 1),
        _ => None,
    };
    if let Some((g, n)) = simple {
        gain(&mut game.players[p], g, n);
        return Ok(());
    }
    let at = || need(l.at, l.item, "at");
    match l.item {
        L::IncreaseAllWeapons => Ok(()),
        L::LootFurnishCavern => furnish(game, p, need(l.tile, l.item, "tile")?, at()?, None, Furnish::Any),
        L::LootDwelling2w2s => {
            let tile = l.tile.unwrap_or(Furnishing::Dwelling);
            furnish(game, p, tile, at()?, None, Furnish::LootDwelling)
        }
        L::LootStable => build_stable(&mut game.players[p], at()?),
        L::LootTunnel => place_single(&mut game.players[p], Single::Tunnel, at()?),
        L::LootMeadow => place_single(&mut game.players[p], Single::Meadow, at()?),
        L::LootField => place_single(&mut game.players[p], Single::Field, at()?),
        L::LootCavern => place_single(&mut game.players[p], Single::Cavern, at()?),
        L::LootSmallPasture | L::LootLargePasture => {
            let cells: &[RawCoord] = l.cells.as_deref().unwrap_or(&[]);
            let want = if l.item == L::LootSmallPasture { 1 } else { 2 };
            ensure(cells.len() == want, ErrorCode::Malformed, || format!("{} takes {want} cell(s)", l.item.id()))?;
            let player = &mut game.players[p];
            let price = crate::rules::placement::pasture_price(
                player,
                if want == 1 { Pasture::Small } else { Pasture::Large },
                true,
            );
            crate::rules::placement::pay(player, Good::Wood, price)?;
            build_pasture(player, cells).map(|_| ())
        }
        L::LootSow => {
            let grain = l.grain.as_deref().unwrap_or(&[]);
            let vegetable = l.vegetable.as_deref().unwrap_or(&[]);
            sowing::sow(&mut game.players[p], grain, vegetable)
        }
        L::LootBreed2 => {
            let animals = need(l.animals.as_ref(), l.item, "animals")?;
            ensure(animals.len() <= 2, ErrorCode::LootNotAllowed, || "loot_breed_2 breeds at most 2 types".into())?;
            breeding::breed(game, p, animals)
        }
        _ => Ok(()),
    }
}
