//! Final scoring by the rows of the score pad (`docs/rules/caverna-reference.md` G.1, E.5, E.6, H.11).

use chronicle_game::kind::CAVERNA;
use chronicle_game::Score;
use serde::Serialize;

use crate::board::Tile;
use crate::furnishing::{Family, Furnishing};
use crate::game::Player;
use crate::goods::{FarmAnimal, Good};
use crate::rules::abilities::adjacent_dwellings;

/// One player's score, one field per score-pad row, in printed order.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct ScoreBreakdown {
    pub farm_animals_and_dogs: i64,
    pub missing_farm_animal_types: i64,
    pub grain: i64,
    pub vegetables: i64,
    pub rubies: i64,
    pub dwarfs: i64,
    pub unused_spaces: i64,
    pub tiles_pastures_mines: i64,
    pub bonus_parlors_storages_chambers: i64,
    pub gold_and_begging: i64,
    pub total: i64,
}

impl ScoreBreakdown {
    /// The points of each score-pad row, in the order of [`chronicle_game::kind::CAVERNA`]'s
    /// `score_rows` (the field order above), without the total.
    pub fn points(&self) -> [i64; 10] {
        [
            self.farm_animals_and_dogs,
            self.missing_farm_animal_types,
            self.grain,
            self.vegetables,
            self.rubies,
            self.dwarfs,
            self.unused_spaces,
            self.tiles_pastures_mines,
            self.bonus_parlors_storages_chambers,
            self.gold_and_begging,
        ]
    }

    /// The score as named rows (the game-agnostic form).
    pub fn score(&self) -> Score {
        Score::from_rows(CAVERNA.score_rows.iter().map(|r| r.id).zip(self.points()), self.total)
    }
}

/// Writing chamber: up to this many points of losses are prevented (E.6, H.11).
pub const WRITING_CHAMBER_RELIEF: i64 = 7;

pub fn score(p: &Player) -> ScoreBreakdown {
    let animals = p.animals();
    let (sown_grain, sown_veg) = p.board.sown();
    let grain = i64::from(p.supply.get(Good::Grain) + sown_grain);
    let vegetables = i64::from(p.supply.get(Good::Vegetable) + sown_veg);
    let mut s = ScoreBreakdown {
        farm_animals_and_dogs: animals.iter().map(|&n| i64::from(n)).sum::<i64>() + i64::from(p.supply.get(Good::Dog)),
        missing_farm_animal_types: -2 * animals.iter().filter(|&&n| n == 0).count() as i64,
        grain: (grain + 1) / 2,
        vegetables,
        rubies: i64::from(p.supply.get(Good::Ruby)),
        dwarfs: i64::from(p.dwarfs_in_play()),
        unused_spaces: -(p.board.untiled_inner().filter(|&c| !p.board.has_stable(c)).count() as i64),
        tiles_pastures_mines: tiles_pastures_mines(p),
        bonus_parlors_storages_chambers: p.board.furnishings().map(|(_, t)| bonus(p, t)).sum(),
        gold_and_begging: i64::from(p.supply.get(Good::Gold)) - 3 * i64::from(p.begging),
        total: 0,
    };
    if p.owns(Furnishing::WritingChamber) {
        writing_chamber(&mut s, p.begging);
    }
    s.total = s.farm_animals_and_dogs
        + s.missing_farm_animal_types
        + s.grain
        + s.vegetables
        + s.rubies
        + s.dwarfs
        + s.unused_spaces
        + s.tiles_pastures_mines
        + s.bonus_parlors_storages_chambers
        + s.gold_and_begging;
    s
}

/// Row 8: printed values of furnishing tiles, pastures (2 / 4) and mines (3 / 4).
fn tiles_pastures_mines(p: &Player) -> i64 {
    p.board
        .tiles()
        .map(|(_, t)| match t {
            Tile::Furnished { tile, .. } => i64::from(tile.card().points),
            Tile::SmallPasture => 2,
            Tile::LargePasture { .. } => 2, // each half: 4 per large pasture
            Tile::OreMine => 3,
            Tile::RubyMine => 4,
            _ => 0,
        })
        .sum()
}

/// Row 9: the bonus formula of a yellow tile (E.5, E.6).
pub fn bonus(p: &Player, tile: Furnishing) -> i64 {
    // Worked out only by the tiles that need them: this runs for every furnishing tile, most
    // of which give no bonus.
    let animals = || p.animals();
    let armed = || p.dwarfs.iter().filter(|d| d.weapon.is_some()).count() as i64;
    let dwarfs = || p.dwarfs.len() as i64;
    let get = |g: Good| i64::from(p.supply.get(g));
    match tile {
        Furnishing::WeavingParlor => i64::from(animals()[FarmAnimal::Sheep.index()] / 2),
        Furnishing::MilkingParlor => i64::from(animals()[FarmAnimal::Cattle.index()]),
        Furnishing::StateParlor => 4 * i64::from(adjacent_dwellings(p)),
        Furnishing::StoneStorage => get(Good::Stone),
        Furnishing::OreStorage => get(Good::Ore) / 2,
        Furnishing::MainStorage => {
            2 * p.board.furnishings().filter(|&(_, t)| t.card().family == Family::Bonus).count() as i64
        }
        Furnishing::WeaponStorage => 3 * armed(),
        Furnishing::SuppliesStorage => 8 * i64::from(armed() == dwarfs()),
        Furnishing::BroomChamber => match dwarfs() {
            5 => 5,
            d if d >= 6 => 10,
            _ => 0,
        },
        Furnishing::TreasureChamber => get(Good::Ruby),
        Furnishing::FoodChamber => {
            let (sown_grain, sown_veg) = p.board.sown();
            2 * (get(Good::Grain) + i64::from(sown_grain)).min(get(Good::Vegetable) + i64::from(sown_veg))
        }
        Furnishing::PrayerChamber => 8 * i64::from(armed() == 0),
        Furnishing::FodderChamber => animals().iter().map(|&n| i64::from(n)).sum::<i64>() / 3,
        _ => 0,
    }
}

/// H.11: the saved points go into the negative rows, in score-pad order — missing types,
/// unused spaces, then begging — at most 7 in all. Begging shares row 10 with gold, so only
/// its own loss (3 per marker) can be saved there.
fn writing_chamber(s: &mut ScoreBreakdown, begging: u32) {
    let mut left = WRITING_CHAMBER_RELIEF;
    for row in [&mut s.missing_farm_animal_types, &mut s.unused_spaces] {
        let saved = (-*row).clamp(0, left);
        *row += saved;
        left -= saved;
    }
    s.gold_and_begging += left.min(3 * i64::from(begging));
}
