//! Animal housing (`docs/rules/caverna-reference.md` F.1): can a player keep these farm animals and dogs on this
//! home board?
//!
//! # Containers
//!
//! Read from the board (every cell, the Office-room ring included), each container holds one
//! farm-animal type only:
//!
//! * *dedicated* containers take one fixed type: Ore and Ruby mines 1 donkey each, a stable on
//!   a forest space without tile 1 wild boar, the Breakfast room 3 cattle, the Cuddle room as
//!   many sheep as there are dwarfs in play (`docs/rules/caverna-reference.md` E.2, E.7);
//! * *shared* containers take any one type, and their sizes are all powers of two: a stable on
//!   an unfenced meadow and, with the Stubble room, each unsown field hold 1; the entry and
//!   Mixed dwellings 2; a small pasture 2 (4 with its stable); a large pasture, counted once for
//!   its two halves, 4, 8 or 16 with 0, 1 or 2 stables;
//! * *guardable* zones are the meadow and pasture zones (a meadow cell, a small pasture, a large
//!   pasture as a whole): `d ≥ 1` dogs there make the zone hold `d + 1` sheep and nothing else,
//!   instead of its normal capacity (`docs/rules/caverna-reference.md` F.1, decision H.18). An unfenced meadow without
//!   a stable is guardable with normal capacity 0. Dogs themselves never need room.
//!
//! # Algorithm and why it is exact
//!
//! 1. **Dedicated capacity first.** A dedicated container can hold nothing but its own type, so
//!    any arrangement can move animals of that type out of shared containers into free
//!    dedicated room without breaking anything. Each type's demand is therefore reduced by its
//!    dedicated capacity, and only the rest must go to shared containers.
//! 2. **Dogs guard the `k` smallest zones.** If an arrangement guards `k ≥ 1` zones with the
//!    `D` dogs, putting all `D` dogs on those same zones (at least one each) gives them `D + k`
//!    sheep room, which is at least what they had: sheep are interchangeable, so only the total
//!    matters. And if it guards a zone `B` while leaving unguarded a zone `A` whose normal
//!    capacity is no larger, moving `B`'s dogs and sheep to `A` and `A`'s animals (one type, at
//!    most `A`'s capacity) to `B` is again valid. So for each `k` in `0..=min(D, zones)` only one
//!    choice needs checking: the `k` guardable zones of smallest normal capacity become `D + k`
//!    sheep-only room, and the other containers keep their normal role.
//! 3. **Greedy over shared containers.** What remains is: give each shared container (sizes
//!    `s₁ ≥ s₂ ≥ …`, all powers of two, so each size divides every larger one) to one type so
//!    that every type's demand is covered. Taking the containers from largest to smallest and
//!    giving each to the type with the largest uncovered demand maximises the number of
//!    animals housed. Exchange argument: let an optimal assignment agree with the greedy one
//!    before container `i` (size `s`); the greedy gives `i` to type `a` with the largest
//!    uncovered demand `Rₐ ≥ R_b`, the optimum gives it to `b` (if to nobody, giving it to `a`
//!    loses nothing). Let `Xₐ`, `X_b` be what the optimum gives `a` and `b` after `i`. If
//!    `Xₐ ≥ s`, some of `a`'s later containers sum to exactly `s` (they all divide `s`: add them
//!    largest first; each partial sum is a multiple of the next size, so it cannot jump past
//!    `s`); swapping them with `i` changes no type's total. If `Xₐ < s`, swap the whole sets:
//!    `a` gets `i` plus `b`'s later containers and `b` gets `a`'s. Housed animals go from
//!    `min(s + X_b, R_b) + min(Xₐ, Rₐ)` to `min(s + X_b, Rₐ) + min(Xₐ, R_b)`, no fewer, since
//!    `min(x, Rₐ) − min(x, R_b)` does not decrease as `x` grows and `s + X_b > Xₐ`. Either way
//!    an optimal assignment agrees with the greedy one on `i` too. Size-1 containers are
//!    interchangeable, so they just cover the remaining total.
//!
//! The cost is independent of the animal counts: one pass over the board, then at most
//! `min(D, zones) + 1 ≤ 49` greedy runs over at most a few dozen containers (usually one or two
//! runs over about ten), and a total-capacity bound rejects absurd counts before any of it.

use crate::board::{Coord, HomeBoard, Space, Tile};
use crate::furnishing::Furnishing;
use crate::goods::FarmAnimal;

const SHEEP: usize = FarmAnimal::Sheep as usize;
const DONKEY: usize = FarmAnimal::Donkey as usize;
const BOAR: usize = FarmAnimal::Boar as usize;
const CATTLE: usize = FarmAnimal::Cattle as usize;

/// Shared containers come in sizes `1 << class` for `class` in `0..CLASSES` (1 to 16).
const CLASSES: usize = 5;

/// Whether some arrangement houses all these animals on this board (docs/rules/caverna-reference.md F.1).
/// `animals` is indexed by `FarmAnimal::index()` (sheep, donkey, boar, cattle);
/// `dwarfs` is the number of dwarfs in play (Cuddle room capacity, newborns included).
pub fn fits(board: &HomeBoard, dwarfs: u32, animals: [u32; 4], dogs: u32) -> bool {
    if animals.iter().all(|&n| n == 0) {
        return true;
    }
    Containers::read(board, dwarfs).fit(animals, dogs)
}

/// [`fits`] for several sets of animals on one board (the default breeding tries a newborn of
/// each type in turn): the board is read once.
#[derive(Clone, Copy, Debug)]
pub struct Room(Containers);

impl Room {
    /// The room of `board` with `dwarfs` in play (see [`fits`]).
    pub fn read(board: &HomeBoard, dwarfs: u32) -> Room {
        Room(Containers::read(board, dwarfs))
    }

    /// [`fits`] on this room.
    pub fn fits(&self, animals: [u32; 4], dogs: u32) -> bool {
        animals.iter().all(|&n| n == 0) || self.0.fit(animals, dogs)
    }
}

/// Whether a space may give room by itself, as [`Containers::read`] reads it: the board keeps
/// the set of these cells ([`HomeBoard::housing_cells`]), so that a reading skips the others.
/// Empty cells, caverns and tunnels give room only with a stable (in the forest); furnishing
/// tiles only if they are one of the four read below; fields only with the Stubble room, so
/// they are read apart ([`HomeBoard::field_cells`]).
pub(crate) fn may_give_room(space: Space) -> bool {
    match space.tile {
        None | Some(Tile::Cavern | Tile::Tunnel | Tile::DeepTunnel) => space.stable,
        Some(Tile::Field { .. }) => false,
        Some(Tile::Furnished { tile, .. }) => matches!(
            tile,
            Furnishing::MixedDwelling | Furnishing::BreakfastRoom | Furnishing::CuddleRoom | Furnishing::StubbleRoom
        ),
        Some(
            Tile::Meadow
            | Tile::SmallPasture
            | Tile::LargePasture { .. }
            | Tile::OreMine
            | Tile::RubyMine
            | Tile::EntryDwelling,
        ) => true,
    }
}

/// The board's containers, summarised by what the solver needs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Containers {
    /// Room that only one farm type may use, indexed like `animals`.
    dedicated: [u64; 4],
    /// Shared containers (any one farm type) by size class: `shared[c]` containers hold
    /// `1 << c` animals each.
    shared: [u32; CLASSES],
    /// How many of `shared[c]` are meadow or pasture zones, which dogs may guard.
    guardable: [u32; CLASSES],
    /// Unfenced meadows without a stable: no room of their own, but guardable.
    bare_meadows: u32,
}

impl Containers {
    fn read(board: &HomeBoard, dwarfs: u32) -> Containers {
        let mut k = Containers::default();
        let mut stubble_room = false;
        // The other cells give no room ([`may_give_room`]); fields are read below.
        for c in board.housing_cells() {
            let space = board.space(c);
            let stable = usize::from(space.stable);
            match space.tile {
                None => {
                    if space.stable && c.is_forest() {
                        k.dedicated[BOAR] += 1;
                    }
                }
                Some(Tile::Meadow) => {
                    if space.stable {
                        k.add_zone(0);
                    } else {
                        k.bare_meadows += 1;
                    }
                }
                Some(Tile::SmallPasture) => k.add_zone(1 + stable),
                Some(Tile::LargePasture { partner }) => {
                    if is_partner(board, c, partner) {
                        // One zone for both halves: count it at its first half.
                        if c < partner {
                            k.add_zone(2 + stable + usize::from(board.has_stable(partner)));
                        }
                    } else {
                        // A half without its partner (never built by the rules): the BGA
                        // formula `2^(stables+1) × spaces` with one space.
                        k.add_zone(1 + stable);
                    }
                }
                Some(Tile::Field { .. }) => {}
                Some(Tile::OreMine | Tile::RubyMine) => k.dedicated[DONKEY] += 1,
                Some(Tile::EntryDwelling) => k.shared[1] += 1,
                Some(Tile::Furnished { tile, .. }) => match tile {
                    Furnishing::MixedDwelling => k.shared[1] += 1,
                    Furnishing::BreakfastRoom => k.dedicated[CATTLE] += 3,
                    Furnishing::CuddleRoom => k.dedicated[SHEEP] += u64::from(dwarfs),
                    Furnishing::StubbleRoom => stubble_room = true,
                    _ => {}
                },
                Some(Tile::Cavern | Tile::Tunnel | Tile::DeepTunnel) => {}
            }
        }
        if stubble_room {
            for c in board.field_cells() {
                if !matches!(board.tile(c), Some(Tile::Field { crop: Some((_, n)) }) if n > 0) {
                    k.shared[0] += 1;
                }
            }
        }
        k
    }

    fn add_zone(&mut self, class: usize) {
        self.shared[class] += 1;
        self.guardable[class] += 1;
    }

    fn fit(&self, animals: [u32; 4], dogs: u32) -> bool {
        let mut rest = [0u64; 4];
        for (t, r) in rest.iter_mut().enumerate() {
            *r = u64::from(animals[t]).saturating_sub(self.dedicated[t]);
        }
        let dogs = u64::from(dogs);
        let zones = self.bare_meadows + self.guardable.iter().sum::<u32>();
        let max_guarded = u32::try_from(dogs.min(u64::from(zones))).unwrap_or(zones);

        // Upper bound: every shared container used, plus the most dogs could ever add.
        let shared_room: u64 = (0..CLASSES).map(|c| u64::from(self.shared[c]) << c).sum();
        let dog_room = if max_guarded > 0 { dogs + u64::from(max_guarded) } else { 0 };
        let rest_total = rest.iter().sum::<u64>();
        if rest_total > shared_room + dog_room {
            return false;
        }
        // One type left to house (the usual case), and no dogs that could guard it: the greedy
        // gives it every shared container, and guarding zones would only take room from a
        // type other than sheep. So it fits exactly when the shared room holds it.
        let types = rest.iter().filter(|&&r| r > 0).count();
        if types == 0 || (types == 1 && (max_guarded == 0 || rest[SHEEP] == 0)) {
            return rest_total <= shared_room;
        }

        let mut shared = self.shared;
        let mut guardable = self.guardable;
        let mut bare_meadows = self.bare_meadows;
        for k in 0..=max_guarded {
            let mut need = rest;
            if k > 0 {
                // Guard one more zone, the smallest still unguarded (argument step 2).
                if bare_meadows > 0 {
                    bare_meadows -= 1;
                } else if let Some(c) = (0..CLASSES).find(|&c| guardable[c] > 0) {
                    guardable[c] -= 1;
                    shared[c] -= 1;
                }
                need[SHEEP] = need[SHEEP].saturating_sub(dogs + u64::from(k));
            }
            if covers(&shared, need) {
                return true;
            }
        }
        false
    }
}

/// Whether `partner` is the other half of the large pasture at `c`.
fn is_partner(board: &HomeBoard, c: Coord, partner: Coord) -> bool {
    partner != c
        && Coord::new(i64::from(partner.row), i64::from(partner.col)).is_some()
        && board.tile(partner) == Some(Tile::LargePasture { partner: c })
}

/// Whether shared containers (`shared[c]` of size `1 << c`) can cover `need`, each container
/// going to one type: largest first, each to the type with the most animals still unhoused
/// (argument step 3 in the module documentation).
fn covers(shared: &[u32; CLASSES], mut need: [u64; 4]) -> bool {
    for class in (1..CLASSES).rev() {
        for _ in 0..shared[class] {
            let mut t = 0;
            for u in 1..4 {
                if need[u] > need[t] {
                    t = u;
                }
            }
            if need[t] == 0 {
                return true;
            }
            need[t] = need[t].saturating_sub(1 << class);
        }
    }
    need.iter().sum::<u64>() <= u64::from(shared[0])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Crop, Under, ENTRY_DWELLING};

    /// `[sheep, donkey, boar, cattle]`.
    type Animals = [u32; 4];

    const NONE: Animals = [0, 0, 0, 0];

    fn sheep(n: u32) -> Animals {
        [n, 0, 0, 0]
    }
    fn donkeys(n: u32) -> Animals {
        [0, n, 0, 0]
    }
    fn boars(n: u32) -> Animals {
        [0, 0, n, 0]
    }
    fn cattle(n: u32) -> Animals {
        [0, 0, 0, n]
    }

    fn at(row: i8, col: i8) -> Coord {
        Coord::at(row, col)
    }

    /// The starting board with the entry dwelling's animal room taken away (a cavern in its
    /// place), so a test sees only the containers it builds.
    fn bare() -> HomeBoard {
        let mut b = HomeBoard::new();
        b.set_tile(ENTRY_DWELLING, Tile::Cavern);
        b
    }

    fn furnish(b: &mut HomeBoard, c: Coord, tile: Furnishing) {
        b.set_tile(c, Tile::Furnished { tile, under: Under::Cavern });
    }

    fn large_pasture(b: &mut HomeBoard, x: Coord, y: Coord) {
        b.set_tile(x, Tile::LargePasture { partner: y });
        b.set_tile(y, Tile::LargePasture { partner: x });
    }

    /// Checks `(animals, dogs, expected)` rows against one board.
    fn table(rule: &str, board: &HomeBoard, dwarfs: u32, rows: &[(Animals, u32, bool)]) {
        for &(animals, dogs, want) in rows {
            assert_eq!(
                fits(board, dwarfs, animals, dogs),
                want,
                "{rule}: animals {animals:?}, {dogs} dogs, {dwarfs} dwarfs"
            );
        }
    }

    /// docs/rules/caverna-reference.md F.1: with nothing to house, every board fits, whatever the dogs.
    #[test]
    fn f1_zero_animals_always_fit() {
        let mut full = HomeBoard::new();
        full.set_tile(at(0, 0), Tile::Meadow);
        full.set_stable(at(1, 1));
        for b in [bare(), HomeBoard::new(), full] {
            table("F.1 zero animals", &b, 0, &[(NONE, 0, true), (NONE, 7, true), (NONE, u32::MAX, true)]);
        }
    }

    /// docs/rules/caverna-reference.md F.1 `small_pasture` 2, `small_pasture_with_stable` 4, one farm type.
    #[test]
    fn f1_small_pasture_holds_2_or_4_with_stable() {
        let mut b = bare();
        b.set_tile(at(3, 2), Tile::SmallPasture);
        table(
            "F.1 small_pasture",
            &b,
            2,
            &[(sheep(2), 0, true), (cattle(2), 0, true), (sheep(3), 0, false), ([1, 0, 1, 0], 0, false)],
        );
        b.set_stable(at(3, 2));
        table(
            "F.1 small_pasture_with_stable",
            &b,
            2,
            &[(boars(4), 0, true), (boars(5), 0, false), ([2, 0, 2, 0], 0, false)],
        );
    }

    /// docs/rules/caverna-reference.md F.1 `large_pasture` 4 / 8 / 16 with 0 / 1 / 2 stables (`2^(stables+1) × 2`),
    /// one zone counted once.
    #[test]
    fn f1_large_pasture_holds_4_8_16_by_stables() {
        let mut b = bare();
        large_pasture(&mut b, at(3, 2), at(2, 2));
        table("F.1 large_pasture", &b, 2, &[(sheep(4), 0, true), (sheep(5), 0, false), ([2, 2, 0, 0], 0, false)]);
        b.set_stable(at(2, 2));
        table("F.1 large_pasture_1_stable", &b, 2, &[(donkeys(8), 0, true), (donkeys(9), 0, false)]);
        b.set_stable(at(3, 2));
        table("F.1 large_pasture_2_stables", &b, 2, &[(cattle(16), 0, true), (cattle(17), 0, false)]);
    }

    /// docs/rules/caverna-reference.md F.1 and A.4: cells of the Office-room ring house animals like any other.
    #[test]
    fn f1_ring_cells_are_ordinary_cells() {
        let mut b = bare();
        large_pasture(&mut b, at(-1, 0), at(-1, 1));
        b.set_stable(at(-1, 0));
        b.set_tile(at(4, 6), Tile::OreMine);
        table("F.1 ring cells", &b, 2, &[([0, 1, 8, 0], 0, true), ([0, 1, 9, 0], 0, false), ([0, 2, 8, 0], 0, false)]);
    }

    /// docs/rules/caverna-reference.md F.1 `stable_on_meadow`: 1 animal of any farm type; an unfenced meadow without a
    /// stable holds none.
    #[test]
    fn f1_meadow_holds_one_any_with_stable_none_without() {
        let mut b = bare();
        b.set_tile(at(3, 2), Tile::Meadow);
        table("F.1 meadow without stable", &b, 2, &[(sheep(1), 0, false), (boars(1), 0, false)]);
        b.set_stable(at(3, 2));
        for t in FarmAnimal::ALL {
            let mut one = NONE;
            one[t.index()] = 1;
            let mut two = NONE;
            two[t.index()] = 2;
            table("F.1 stable_on_meadow", &b, 2, &[(one, 0, true), (two, 0, false)]);
        }
    }

    /// docs/rules/caverna-reference.md F.1 `stable_in_forest`: a stable on a forest space without tile holds 1 wild
    /// boar and nothing else.
    #[test]
    fn f1_forest_stable_holds_one_boar_only() {
        let mut b = bare();
        b.set_stable(at(0, 0));
        table(
            "F.1 stable_in_forest",
            &b,
            2,
            &[
                (boars(1), 0, true),
                (boars(2), 0, false),
                (sheep(1), 0, false),
                (donkeys(1), 0, false),
                (cattle(1), 0, false),
            ],
        );
        b.set_stable(at(1, 0));
        table("F.1 stable_in_forest ×2", &b, 2, &[(boars(2), 0, true), (boars(3), 0, false)]);
    }

    /// docs/rules/caverna-reference.md F.1 `ore_mine`, `ruby_mine`: 1 donkey each, donkeys only.
    #[test]
    fn f1_mines_hold_one_donkey_each() {
        let mut b = bare();
        b.set_tile(at(0, 3), Tile::DeepTunnel);
        b.set_tile(at(0, 4), Tile::OreMine);
        table(
            "F.1 ore_mine",
            &b,
            2,
            &[(donkeys(1), 0, true), (donkeys(2), 0, false), (sheep(1), 0, false), (boars(1), 0, false)],
        );
        b.set_tile(at(1, 4), Tile::RubyMine);
        table("F.1 ruby_mine", &b, 2, &[(donkeys(2), 0, true), (donkeys(3), 0, false), (cattle(1), 0, false)]);
    }

    /// docs/rules/caverna-reference.md F.1 `entry_dwelling` and `mixed_dwelling`: a pair of one type each.
    #[test]
    fn f1_dwellings_hold_a_pair_of_one_type() {
        let b = HomeBoard::new();
        table(
            "F.1 entry_dwelling",
            &b,
            2,
            &[(sheep(2), 0, true), (cattle(2), 0, true), (sheep(3), 0, false), ([1, 0, 1, 0], 0, false)],
        );
        let mut b = bare();
        furnish(&mut b, at(1, 3), Furnishing::MixedDwelling);
        table("F.1 mixed_dwelling", &b, 2, &[(donkeys(2), 0, true), (donkeys(3), 0, false), ([0, 1, 0, 1], 0, false)]);
        furnish(&mut b, at(1, 4), Furnishing::Dwelling);
        table("F.1 plain dwelling holds no animals", &b, 2, &[(donkeys(3), 0, false)]);
    }

    /// docs/rules/caverna-reference.md F.1: each container holds one farm type. The entry dwelling cannot keep 1 sheep
    /// and 1 boar, but two small pastures can.
    #[test]
    fn f1_one_farm_type_per_container() {
        let b = HomeBoard::new();
        table("F.1 one type: entry dwelling", &b, 2, &[([1, 0, 1, 0], 0, false)]);
        let mut b = bare();
        b.set_tile(at(3, 2), Tile::SmallPasture);
        b.set_tile(at(3, 1), Tile::SmallPasture);
        table(
            "F.1 one type: two small pastures",
            &b,
            2,
            &[([1, 0, 1, 0], 0, true), ([2, 0, 2, 0], 0, true), ([3, 0, 1, 0], 0, false), ([1, 1, 1, 0], 0, false)],
        );
        // 8 + 4 + 2 + 2 = 16 room, but 5 + 5 + 5 needs each pen of one type: the 8 takes
        // one type, the 4 and a 2 another, the last 2 cannot finish the third.
        let mut b = HomeBoard::new();
        large_pasture(&mut b, at(0, 0), at(0, 1));
        b.set_stable(at(0, 0));
        b.set_tile(at(1, 0), Tile::SmallPasture);
        b.set_stable(at(1, 0));
        b.set_tile(at(2, 0), Tile::SmallPasture);
        table(
            "F.1 one type: mixed pens",
            &b,
            2,
            &[
                ([5, 5, 5, 0], 0, false),
                ([8, 6, 2, 0], 0, true),
                ([7, 5, 3, 0], 0, false),
                ([5, 5, 4, 0], 0, false),
                ([8, 4, 4, 0], 0, true),
            ],
        );
    }

    /// docs/rules/caverna-reference.md F.1 `breakfast_room` (E.2): up to 3 cattle, nothing else.
    #[test]
    fn f1_breakfast_room_holds_3_cattle_only() {
        let mut b = HomeBoard::new();
        furnish(&mut b, at(1, 3), Furnishing::BreakfastRoom);
        table(
            "F.1 breakfast_room",
            &b,
            2,
            &[
                (cattle(3), 0, true),
                (cattle(5), 0, true),
                (cattle(6), 0, false),
                ([2, 0, 0, 3], 0, true),
                (sheep(3), 0, false),
            ],
        );
    }

    /// docs/rules/caverna-reference.md F.1 `cuddle_room` (E.2, E.7): as many sheep as dwarfs in play, no other type.
    #[test]
    fn f1_cuddle_room_holds_sheep_up_to_dwarfs() {
        let mut b = bare();
        furnish(&mut b, at(1, 3), Furnishing::CuddleRoom);
        for dwarfs in 0..=6 {
            table(
                "F.1 cuddle_room",
                &b,
                dwarfs,
                &[(sheep(dwarfs), 0, true), (sheep(dwarfs + 1), 0, false), (boars(1), 0, false)],
            );
        }
    }

    /// docs/rules/caverna-reference.md F.1 `stubble_room` fields (E.2): with the Stubble room, each unsown field holds
    /// 1 farm animal of any type; sown fields, or fields without the room, hold none.
    #[test]
    fn f1_stubble_room_unsown_fields_hold_one_any() {
        let mut b = bare();
        b.set_tile(at(3, 2), Tile::Field { crop: None });
        b.set_tile(at(3, 1), Tile::Field { crop: None });
        b.set_tile(at(2, 2), Tile::Field { crop: Some((Crop::Grain, 3)) });
        b.set_tile(at(2, 1), Tile::Field { crop: Some((Crop::Vegetable, 1)) });
        table("F.1 fields without stubble_room", &b, 2, &[(sheep(1), 0, false)]);
        furnish(&mut b, at(1, 3), Furnishing::StubbleRoom);
        table(
            "F.1 stubble_room",
            &b,
            2,
            &[([1, 0, 1, 0], 0, true), (cattle(2), 0, true), ([1, 1, 1, 0], 0, false), (donkeys(3), 0, false)],
        );
        // A field whose last crop was harvested is unsown again.
        b.set_tile(at(2, 2), Tile::Field { crop: Some((Crop::Grain, 0)) });
        table("F.1 stubble_room harvested field", &b, 2, &[([1, 1, 1, 0], 0, true)]);
    }

    /// docs/rules/caverna-reference.md F.1 last row: caverns, tunnels, other furnishings and bare forest hold nothing.
    #[test]
    fn f1_other_spaces_hold_nothing() {
        let mut b = bare();
        b.set_tile(at(0, 3), Tile::Tunnel);
        b.set_tile(at(0, 4), Tile::DeepTunnel);
        b.set_tile(at(1, 3), Tile::Cavern);
        furnish(&mut b, at(1, 4), Furnishing::WeavingParlor);
        b.set_stable(at(1, 5)); // a mountain space without tile is no forest stable
        for t in FarmAnimal::ALL {
            let mut one = NONE;
            one[t.index()] = 1;
            table("F.1 other spaces", &b, 2, &[(one, 0, false)]);
        }
    }

    /// docs/rules/caverna-reference.md F.1 dogs and H.18: one dog on an unfenced meadow keeps 2 sheep, three dogs 4.
    #[test]
    fn h18_dogs_on_a_meadow_keep_dogs_plus_one_sheep() {
        let mut b = bare();
        b.set_tile(at(3, 2), Tile::Meadow);
        table(
            "F.1/H.18 dogs on meadow",
            &b,
            2,
            &[
                (sheep(1), 0, false),
                (sheep(2), 1, true),
                (sheep(3), 1, false),
                (sheep(3), 2, true),
                (sheep(4), 3, true),
                (sheep(5), 3, false),
                (boars(1), 3, false),
            ],
        );
        b.set_tile(at(3, 1), Tile::Meadow);
        table(
            "F.1/H.18 dogs split over two meadows",
            &b,
            2,
            &[
                (sheep(4), 2, true),
                (sheep(5), 2, false),
                (sheep(5), 3, true),
                (sheep(2), 1, true),
                (sheep(3), 1, false),
            ],
        );
    }

    /// docs/rules/caverna-reference.md F.1 and H.18: dogs may stand on fields or forest, but guard nothing there.
    #[test]
    fn h18_dogs_guard_nothing_on_fields_or_forest() {
        let mut b = bare();
        b.set_tile(at(3, 2), Tile::Field { crop: None });
        b.set_stable(at(0, 0));
        table(
            "F.1/H.18 dogs on fields/forest",
            &b,
            2,
            &[(sheep(1), 3, false), (boars(1), 3, true), (boars(2), 3, false), ([1, 0, 1, 0], 3, false)],
        );
        furnish(&mut b, at(1, 3), Furnishing::StubbleRoom);
        table("F.1/H.18 dogs on a stubble field", &b, 2, &[(sheep(1), 2, true), (sheep(2), 2, false)]);
    }

    /// docs/rules/caverna-reference.md F.1 and H.18: guarding replaces a pasture's capacity (stables ignored), so the
    /// pasture keeps max(normal, d + 1) sheep, never the sum.
    #[test]
    fn h18_dogs_replace_pasture_capacity() {
        let mut b = bare();
        b.set_tile(at(3, 2), Tile::SmallPasture);
        b.set_stable(at(3, 2));
        table(
            "F.1/H.18 dogs on small pasture with stable",
            &b,
            2,
            &[
                (sheep(4), 1, true),
                (sheep(5), 1, false),
                (sheep(5), 3, false),
                (sheep(5), 4, true),
                (sheep(6), 4, false),
            ],
        );
        let mut b = bare();
        large_pasture(&mut b, at(3, 2), at(2, 2));
        table(
            "F.1/H.18 dogs on a large pasture (one zone)",
            &b,
            2,
            &[(sheep(4), 1, true), (sheep(5), 1, false), (sheep(5), 4, true), (sheep(6), 4, false)],
        );
        b.set_stable(at(3, 2));
        b.set_stable(at(2, 2));
        table(
            "F.1/H.18 dogs on large pasture with stables",
            &b,
            2,
            &[(sheep(16), 1, true), (sheep(17), 1, false), (sheep(17), 16, true)],
        );
    }

    /// docs/rules/caverna-reference.md F.1 and H.18: a guarded zone holds sheep and no other farm animal, so a stable
    /// meadow keeps 1 animal of any type or, guarded, sheep only.
    #[test]
    fn h18_guarded_zone_holds_sheep_only() {
        let mut b = bare();
        b.set_tile(at(3, 2), Tile::Meadow);
        b.set_stable(at(3, 2));
        table(
            "F.1/H.18 guarded stable meadow",
            &b,
            2,
            &[(boars(1), 1, true), (sheep(2), 1, true), ([2, 0, 1, 0], 1, false), ([1, 0, 1, 0], 1, false)],
        );
        // With a second, bare meadow the dog goes there and the stable keeps the boar.
        b.set_tile(at(3, 1), Tile::Meadow);
        table(
            "F.1/H.18 dog on the bare meadow",
            &b,
            2,
            &[([2, 0, 1, 0], 1, true), ([3, 0, 1, 0], 1, false), ([3, 0, 1, 0], 2, true)],
        );
        // Dogs go to the smaller pen, the pair of boars to the larger one.
        let mut b = bare();
        b.set_tile(at(3, 2), Tile::SmallPasture);
        b.set_tile(at(3, 1), Tile::SmallPasture);
        b.set_stable(at(3, 1));
        table(
            "F.1/H.18 guard the smaller pasture",
            &b,
            2,
            &[([3, 0, 4, 0], 2, true), ([4, 0, 4, 0], 2, false), ([3, 0, 5, 0], 2, false)],
        );
    }

    /// docs/rules/caverna-reference.md F.1 and H.18: dogs themselves never need room.
    #[test]
    fn h18_dogs_alone_always_fit() {
        table("F.1/H.18 dogs alone", &bare(), 0, &[(NONE, 1, true), (NONE, 1000, true)]);
        table("F.1/H.18 dogs beside a pair", &HomeBoard::new(), 2, &[(cattle(2), 1000, true)]);
    }

    /// The board of `f1_big_numbers_are_rejected_quickly`: twelve meadows, one with a stable,
    /// the entry dwelling and a Cuddle room. `examples/rules_bench.rs` times the same board.
    fn big_numbers_board() -> HomeBoard {
        let mut b = HomeBoard::new();
        for row in 0..=3 {
            for col in 0..=2 {
                b.set_tile(at(row, col), Tile::Meadow);
            }
        }
        b.set_stable(at(0, 0));
        furnish(&mut b, at(1, 3), Furnishing::CuddleRoom);
        b
    }

    /// docs/rules/caverna-reference.md F.1: absurd counts are rejected by the capacity bound, without overflow, and an
    /// entry that leaves them on the board is rejected with `animals_unhoused`. (How quickly:
    /// `examples/rules_bench.rs`, `housing` section; a unit test does not time anything.)
    #[test]
    fn f1_big_numbers_are_rejected_quickly() {
        let b = big_numbers_board();
        let rows =
            [(sheep(500), 0, false), (boars(500), 500, false), (sheep(500), 500, true), (sheep(600), 500, false)];
        table("F.1 big numbers", &b, 2, &rows);
        table(
            "F.1 big numbers, huge cuddle room",
            &b,
            u32::MAX,
            &[
                ([u32::MAX; 4], u32::MAX, false),
                (sheep(u32::MAX), 0, true),
                ([u32::MAX, 0, 0, 3], u32::MAX, true),
                ([u32::MAX, 0, 0, 4], u32::MAX, false),
            ],
        );
        // The same verdicts through `Game::play_entry` (two dwarfs in play): an entry that
        // leaves these animals on this board is rejected with `animals_unhoused`.
        let log = br#"{"format": "caverna-log/1", "setup": {"players": [{"name": "A"}, {"name": "B"}], "seed": 1},
                       "entries": []}"#;
        let start = crate::replay(log).game.expect("the empty log replays");
        let rows =
            rows.iter().copied().chain([([u32::MAX; 4], u32::MAX, false), ([u32::MAX, 0, 0, 0], u32::MAX, true)]);
        for (animals, dogs, want) in rows {
            let mut game = start.clone();
            let player = &mut game.players[0];
            player.board = b;
            for (animal, n) in FarmAnimal::ALL.into_iter().zip(animals) {
                player.supply.set(animal.good(), n);
            }
            player.supply.set(crate::goods::Good::Dog, dogs);
            let got = game.play_entry(&crate::notation::Entry::Free { player: 0, actions: Vec::new() });
            let got = got.map_err(|e| e.code);
            let expected = if want { Ok(()) } else { Err(crate::ErrorCode::AnimalsUnhoused) };
            assert_eq!(got, expected, "F.1 big numbers in a log: animals {animals:?}, {dogs} dogs");
        }
        // Dogs galore on twelve meadows: 1000 dogs guard at most 1000 + 12 sheep.
        table("F.1/H.18 many dogs", &bare_with_meadows(), 2, &[(sheep(1012), 1000, true), (sheep(1013), 1000, false)]);
    }

    fn bare_with_meadows() -> HomeBoard {
        let mut b = bare();
        for row in 0..=3 {
            for col in 0..=2 {
                b.set_tile(at(row, col), Tile::Meadow);
            }
        }
        b
    }

    /// docs/rules/caverna-reference.md F.1: a late-game board mixing every kind of container.
    #[test]
    fn f1_late_game_board() {
        let mut b = HomeBoard::new(); // entry dwelling: 2
        large_pasture(&mut b, at(0, 0), at(0, 1));
        b.set_stable(at(0, 1)); // 8
        b.set_tile(at(1, 0), Tile::SmallPasture); // 2
        b.set_tile(at(1, 1), Tile::Meadow);
        b.set_stable(at(1, 1)); // 1 any
        b.set_stable(at(2, 2)); // 1 boar
        b.set_tile(at(0, 4), Tile::OreMine); // 1 donkey
        b.set_tile(at(0, 3), Tile::DeepTunnel);
        furnish(&mut b, at(1, 3), Furnishing::BreakfastRoom); // 3 cattle
        furnish(&mut b, at(1, 4), Furnishing::CuddleRoom); // 4 sheep
        table(
            "F.1 late game",
            &b,
            4,
            &[
                ([4 + 8, 1 + 2, 1 + 2, 3 + 1], 0, true),
                ([4 + 8, 1 + 2, 1 + 2, 3 + 2], 0, false),
                ([4, 1 + 8, 1 + 2, 3 + 2 + 1], 0, true),
                ([4 + 1, 1, 1 + 8, 3 + 2 + 2], 0, true),
                ([4 + 4, 1, 1 + 8, 3 + 2], 0, false),
                ([4 + 4, 1, 1 + 8, 3 + 2], 1, true),
                ([4 + 4, 1, 1 + 8, 3 + 3], 1, false),
            ],
        );
    }

    // ---- exhaustive cross-check -------------------------------------------------------

    /// A container as the naive search sees it: allowed types (bit mask), capacity, guardable.
    type Naive = (u8, u64, bool);

    /// Lists the board's containers straight from the F.1 table.
    fn naive_containers(b: &HomeBoard, dwarfs: u32) -> Vec<Naive> {
        let any = 0b1111;
        let stubble = b.has_furnishing(Furnishing::StubbleRoom);
        let mut list = Vec::new();
        for c in Coord::all() {
            let s = b.space(c);
            let stables = u32::from(s.stable);
            let item = match s.tile {
                None if s.stable && c.is_forest() => Some((1 << BOAR, 1, false)),
                None => None,
                Some(Tile::Meadow) => Some((any, u64::from(stables), true)),
                Some(Tile::SmallPasture) => Some((any, 2 << stables, true)),
                Some(Tile::LargePasture { partner }) if c < partner => {
                    Some((any, 4 << (stables + u32::from(b.has_stable(partner))), true))
                }
                Some(Tile::LargePasture { .. }) => None,
                Some(Tile::Field { crop: None }) if stubble => Some((any, 1, false)),
                Some(Tile::OreMine | Tile::RubyMine) => Some((1 << DONKEY, 1, false)),
                Some(Tile::EntryDwelling) => Some((any, 2, false)),
                Some(Tile::Furnished { tile: Furnishing::MixedDwelling, .. }) => Some((any, 2, false)),
                Some(Tile::Furnished { tile: Furnishing::BreakfastRoom, .. }) => Some((1 << CATTLE, 3, false)),
                Some(Tile::Furnished { tile: Furnishing::CuddleRoom, .. }) => {
                    Some((1 << SHEEP, u64::from(dwarfs), false))
                }
                _ => None,
            };
            list.extend(item);
        }
        list
    }

    /// Tries every placement of dogs on guardable zones and every type for every container.
    fn naive_fits(list: &[Naive], animals: Animals, dogs: u32) -> bool {
        fn place_dogs(list: &[Naive], i: usize, dogs: u32, eff: &mut Vec<(u8, u64)>, need: [u64; 4]) -> bool {
            if i == list.len() {
                return assign(eff, 0, need);
            }
            let (mask, cap, guardable) = list[i];
            eff.push((mask, cap));
            if place_dogs(list, i + 1, dogs, eff, need) {
                return true;
            }
            eff.pop();
            if guardable {
                for d in 1..=dogs {
                    eff.push((1 << SHEEP, u64::from(d) + 1));
                    if place_dogs(list, i + 1, dogs - d, eff, need) {
                        return true;
                    }
                    eff.pop();
                }
            }
            false
        }
        fn assign(eff: &[(u8, u64)], i: usize, need: [u64; 4]) -> bool {
            if need.iter().all(|&n| n == 0) {
                return true;
            }
            if need.iter().sum::<u64>() > eff[i..].iter().map(|&(_, cap)| cap).sum::<u64>() {
                return false;
            }
            let (mask, cap) = eff[i];
            (0..4).any(|t| {
                mask & (1 << t) != 0 && need[t] > 0 && {
                    let mut n = need;
                    n[t] = n[t].saturating_sub(cap);
                    assign(eff, i + 1, n)
                }
            }) || assign(eff, i + 1, need)
        }
        place_dogs(list, 0, dogs, &mut Vec::new(), animals.map(u64::from))
    }

    /// A small deterministic random source for the random-board tests: `rand(n)` is below `n`.
    fn xorshift(mut seed: u64) -> impl FnMut(u64) -> u64 {
        move |n| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % n
        }
    }

    /// docs/rules/caverna-reference.md F.1 and H.18: the fast solver agrees with an exhaustive search on thousands of
    /// random small boards.
    #[test]
    fn f1_h18_solver_matches_exhaustive_search() {
        let mut rand = xorshift(0x9E37_79B9_7F4A_7C15);
        let forest = [at(0, 0), at(0, 1), at(0, 2), at(1, 0), at(1, 1), at(1, 2), at(2, 2), at(3, 2)];
        let mountain = [at(0, 3), at(0, 4), at(1, 3), at(1, 4)];
        let mut agree = 0;
        for _ in 0..3000 {
            let mut b = if rand(3) == 0 { bare() } else { HomeBoard::new() };
            let mut cells = 0;
            if rand(3) == 0 {
                large_pasture(&mut b, at(2, 0), at(2, 1));
                if rand(2) == 0 {
                    b.set_stable(at(2, 0));
                }
                if rand(3) == 0 {
                    b.set_stable(at(2, 1));
                }
                cells += 1;
            }
            for &c in &forest {
                if cells >= 5 {
                    break;
                }
                match rand(7) {
                    0 => b.set_tile(c, Tile::Meadow),
                    1 => b.set_tile(c, Tile::SmallPasture),
                    2 => b.set_tile(c, Tile::Field { crop: None }),
                    3 => b.set_tile(c, Tile::Field { crop: Some((Crop::Grain, 2)) }),
                    4 => {}
                    _ => continue,
                }
                if !matches!(b.tile(c), Some(Tile::Field { .. })) && rand(2) == 0 {
                    b.set_stable(c);
                }
                cells += 1;
            }
            for &c in &mountain {
                match rand(8) {
                    0 => b.set_tile(c, Tile::OreMine),
                    1 => furnish(&mut b, c, Furnishing::MixedDwelling),
                    2 => furnish(&mut b, c, Furnishing::BreakfastRoom),
                    3 => furnish(&mut b, c, Furnishing::CuddleRoom),
                    4 => furnish(&mut b, c, Furnishing::StubbleRoom),
                    _ => {}
                }
            }
            let dwarfs = 1 + rand(5) as u32;
            let dogs = [0, 0, 1, 2, 3][rand(5) as usize];
            let animals: Animals = std::array::from_fn(|_| rand(7) as u32);
            let want = naive_fits(&naive_containers(&b, dwarfs), animals, dogs);
            assert_eq!(fits(&b, dwarfs, animals, dogs), want, "{b:?} dwarfs {dwarfs} animals {animals:?} dogs {dogs}");
            agree += usize::from(want);
        }
        // Both answers occur often enough for the comparison to mean something.
        assert!((300..2700).contains(&agree), "{agree} of 3000 fit");
    }

    /// `HomeBoard::housing_changes` (ARCHITECTURE.md "Invariants", the single pass's housing
    /// skip): over thousands of random changes of random boards, a change that leaves the count
    /// alone leaves the room read from the board alone too, whatever the dwarfs; and caverns,
    /// tunnels and most furnishing tiles on empty cells do leave it alone.
    #[test]
    fn the_room_changes_only_with_the_housing_change_count() {
        let mut rand = xorshift(0x2545_F491_4F6C_DD1D);
        let furnishings = [
            Furnishing::MixedDwelling,
            Furnishing::BreakfastRoom,
            Furnishing::CuddleRoom,
            Furnishing::StubbleRoom,
            Furnishing::Dwelling,
            Furnishing::Carpenter,
        ];
        let (mut kept, mut changed) = (0, 0);
        for _ in 0..300 {
            let mut b = HomeBoard::new();
            for _ in 0..40 {
                let c = Coord::all().nth(rand(Coord::all().count() as u64) as usize).unwrap();
                let before = (b.housing_changes(), b);
                match rand(12) {
                    0 => b.set_tile(c, Tile::Cavern),
                    1 => b.set_tile(c, Tile::Tunnel),
                    2 => b.set_tile(c, Tile::Meadow),
                    3 => b.set_tile(c, Tile::SmallPasture),
                    4 => {
                        let partner = c.neighbours().next().unwrap_or(c);
                        large_pasture(&mut b, c, partner);
                    }
                    5 => b.set_tile(c, Tile::Field { crop: None }),
                    6 => b.set_tile(c, Tile::Field { crop: Some((Crop::Grain, rand(3) as u8)) }),
                    7 => b.set_tile(c, [Tile::OreMine, Tile::RubyMine, Tile::DeepTunnel][rand(3) as usize]),
                    8 | 9 => furnish(&mut b, c, furnishings[rand(furnishings.len() as u64) as usize]),
                    _ => b.set_stable(c),
                }
                if b.housing_changes() == before.0 {
                    kept += 1;
                    for dwarfs in 1..=6 {
                        assert_eq!(Containers::read(&before.1, dwarfs), Containers::read(&b, dwarfs), "{b:?}");
                    }
                } else {
                    changed += 1;
                }
            }
        }
        // Both cases occur often enough for the comparison to mean something.
        assert!(kept > 1000 && changed > 1000, "{kept} kept, {changed} changed");
        let mut b = HomeBoard::new();
        let start = b.housing_changes();
        b.set_tile(at(1, 4), Tile::Cavern);
        b.set_tile(at(1, 5), Tile::Tunnel);
        furnish(&mut b, at(1, 4), Furnishing::Carpenter);
        assert_eq!(b.housing_changes(), start, "no room given or taken");
        b.set_tile(at(1, 1), Tile::Meadow);
        assert_ne!(b.housing_changes(), start, "a meadow is a guardable zone");
    }

    /// The greedy of step 3 against every assignment of pens to types (no dogs, no board).
    #[test]
    fn f1_greedy_matches_exhaustive_assignment() {
        let pens: [&[u64]; 6] =
            [&[16, 4, 2, 2], &[8, 8, 4, 2], &[4, 4, 4, 2, 2], &[8, 2, 2, 2, 2], &[16, 8, 4, 4], &[4, 2, 2, 2]];
        for sizes in pens {
            let mut shared = [0u32; CLASSES];
            for &s in sizes {
                shared[s.trailing_zeros() as usize] += 1;
            }
            let list: Vec<Naive> = sizes.iter().map(|&s| (0b1111, s, false)).collect();
            for units in 0..2u32 {
                let mut with_units = list.clone();
                with_units.extend((0..units).map(|_| (0b1111, 1, false)));
                shared[0] = units;
                for a in 0..=10 {
                    for d in 0..=10 {
                        for c in 0..=8 {
                            let need = [a, d, c, 0];
                            assert_eq!(
                                covers(&shared, need.map(u64::from)),
                                naive_fits(&with_units, need, 0),
                                "F.1 pens {sizes:?} + {units} units, need {need:?}"
                            );
                        }
                    }
                }
            }
        }
    }
}
