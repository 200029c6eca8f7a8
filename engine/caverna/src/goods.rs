//! Goods: building materials, food, gold, crops and animals, and counted bundles of them.
//!
//! Every good a player can hold has one id shared with the log format (`docs/rules/caverna-reference.md` §0,
//! `docs/log-format.md` "Goods ids"). Counts are `u32`; arithmetic that could overflow saturates at
//! the caller's bound checks, so absurd inputs give errors instead of wrapping.

use serde::{Deserialize, Serialize};

/// One kind of good. Dogs and the four farm animals are goods too: they are gained, traded and
/// converted like the rest, and only [`crate::rules::housing`] treats them specially.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Good {
    Wood,
    Stone,
    Ore,
    Ruby,
    Food,
    Gold,
    Grain,
    Vegetable,
    Dog,
    Sheep,
    Donkey,
    Boar,
    Cattle,
}

impl Good {
    pub const ALL: [Good; 13] = [
        Good::Wood,
        Good::Stone,
        Good::Ore,
        Good::Ruby,
        Good::Food,
        Good::Gold,
        Good::Grain,
        Good::Vegetable,
        Good::Dog,
        Good::Sheep,
        Good::Donkey,
        Good::Boar,
        Good::Cattle,
    ];

    /// The log-format id.
    pub const fn id(self) -> &'static str {
        match self {
            Good::Wood => "wood",
            Good::Stone => "stone",
            Good::Ore => "ore",
            Good::Ruby => "ruby",
            Good::Food => "food",
            Good::Gold => "gold",
            Good::Grain => "grain",
            Good::Vegetable => "vegetable",
            Good::Dog => "dog",
            Good::Sheep => "sheep",
            Good::Donkey => "donkey",
            Good::Boar => "boar",
            Good::Cattle => "cattle",
        }
    }

    pub fn from_id(id: &str) -> Option<Good> {
        Good::ALL.into_iter().find(|g| g.id() == id)
    }

    fn index(self) -> usize {
        self as usize
    }

    /// The farm animal this good is, if any (dogs are not farm animals, `docs/rules/caverna-reference.md` F.1).
    pub fn farm_animal(self) -> Option<FarmAnimal> {
        match self {
            Good::Sheep => Some(FarmAnimal::Sheep),
            Good::Donkey => Some(FarmAnimal::Donkey),
            Good::Boar => Some(FarmAnimal::Boar),
            Good::Cattle => Some(FarmAnimal::Cattle),
            _ => None,
        }
    }
}

/// The four farm animals, in the order the default breeding tries them (`docs/log-format.md`
/// "breed": sheep, donkey, boar, cattle).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FarmAnimal {
    Sheep,
    Donkey,
    Boar,
    Cattle,
}

impl FarmAnimal {
    pub const ALL: [FarmAnimal; 4] = [FarmAnimal::Sheep, FarmAnimal::Donkey, FarmAnimal::Boar, FarmAnimal::Cattle];

    pub fn good(self) -> Good {
        match self {
            FarmAnimal::Sheep => Good::Sheep,
            FarmAnimal::Donkey => Good::Donkey,
            FarmAnimal::Boar => Good::Boar,
            FarmAnimal::Cattle => Good::Cattle,
        }
    }

    pub fn index(self) -> usize {
        self as usize
    }

    pub fn id(self) -> &'static str {
        self.good().id()
    }
}

/// A counted bundle of goods (a supply, a cost, a gain).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Goods([u32; 13]);

impl Goods {
    pub const fn new() -> Goods {
        Goods([0; 13])
    }

    /// Builds a bundle from `(good, count)` pairs; used for the rules' static tables.
    pub const fn of(pairs: &[(Good, u32)]) -> Goods {
        let mut counts = [0u32; 13];
        let mut i = 0;
        while i < pairs.len() {
            counts[pairs[i].0 as usize] += pairs[i].1;
            i += 1;
        }
        Goods(counts)
    }

    pub fn one(good: Good, count: u32) -> Goods {
        let mut g = Goods::new();
        g.0[good.index()] = count;
        g
    }

    pub fn get(&self, good: Good) -> u32 {
        self.0[good.index()]
    }

    pub fn set(&mut self, good: Good, count: u32) {
        self.0[good.index()] = count;
    }

    /// Adds, saturating: counts are bounded far below `u32::MAX` by the rules, and a
    /// saturated count can never be paid from, so nothing illegal slips through.
    pub fn add(&mut self, good: Good, count: u32) {
        let slot = &mut self.0[good.index()];
        *slot = slot.saturating_add(count);
    }

    pub fn add_all(&mut self, other: &Goods) {
        for g in Good::ALL {
            self.add(g, other.get(g));
        }
    }

    pub fn contains(&self, other: &Goods) -> bool {
        Good::ALL.iter().all(|&g| self.get(g) >= other.get(g))
    }

    /// Removes `other`; returns the first good that is short, leaving `self` unchanged.
    pub fn take(&mut self, other: &Goods) -> Result<(), Good> {
        if let Some(&short) = Good::ALL.iter().find(|&&g| self.get(g) < other.get(g)) {
            return Err(short);
        }
        for g in Good::ALL {
            self.0[g.index()] -= other.get(g);
        }
        Ok(())
    }

    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|&c| c == 0)
    }

    pub fn total(&self) -> u64 {
        self.0.iter().map(|&c| u64::from(c)).sum()
    }

    /// Non-zero entries in id order: the non-zero slots are found in one pass (a bit each),
    /// then only those are visited (bundles hold a few goods of the 13; every gain walks one).
    pub fn iter(&self) -> impl Iterator<Item = (Good, u32)> + '_ {
        let mut held = self.0.iter().enumerate().fold(0u32, |m, (i, &c)| m | (u32::from(c != 0) << i));
        std::iter::from_fn(move || {
            if held == 0 {
                return None;
            }
            let i = held.trailing_zeros() as usize;
            held &= held - 1;
            Some((Good::ALL[i], self.0[i]))
        })
    }

    pub fn farm_animals(&self) -> [u32; 4] {
        FarmAnimal::ALL.map(|a| self.get(a.good()))
    }
}

/// The goods lying on an action space, one byte per good: the spaces are most of a
/// [`crate::game::Game`], which the generator copies for every candidate move, and a space
/// gains at most a few goods a round for 12 rounds, far below 255. Adds saturate, like
/// [`Goods::add`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct SpaceGoods([u8; 13]);

impl SpaceGoods {
    /// The goods of `(good, count)` pairs, adding like [`SpaceGoods::add`]; for the rules'
    /// static tables.
    pub const fn of(pairs: &[(Good, u32)]) -> SpaceGoods {
        let mut counts = [0u8; 13];
        let mut i = 0;
        while i < pairs.len() {
            let (good, n) = pairs[i];
            let sum = counts[good as usize] as u32 + n;
            counts[good as usize] = if sum > u8::MAX as u32 { u8::MAX } else { sum as u8 };
            i += 1;
        }
        SpaceGoods(counts)
    }

    /// Non-zero entries in id order, found like [`Goods::iter`]'s.
    #[inline]
    pub fn iter(&self) -> impl Iterator<Item = (Good, u32)> + '_ {
        let mut held = self.0.iter().enumerate().fold(0u32, |m, (i, &c)| m | (u32::from(c != 0) << i));
        std::iter::from_fn(move || {
            if held == 0 {
                return None;
            }
            let i = held.trailing_zeros() as usize;
            held &= held - 1;
            Some((Good::ALL[i], u32::from(self.0[i])))
        })
    }

    /// As a bundle of goods.
    pub fn goods(&self) -> Goods {
        Goods(self.0.map(u32::from))
    }

    pub fn get(&self, good: Good) -> u32 {
        u32::from(self.0[good.index()])
    }

    pub fn add_all(&mut self, other: &Goods) {
        for g in Good::ALL {
            self.add(g, other.get(g));
        }
    }

    /// Adds every good of `other`, each saturating at 255 like [`SpaceGoods::add`]: the
    /// thirteen counts at once, with no walk over the goods (the replenish step).
    pub fn add_goods(&mut self, other: &SpaceGoods) {
        for (count, &n) in self.0.iter_mut().zip(&other.0) {
            *count = count.saturating_add(n);
        }
    }

    /// Adds `n` of one good, saturating at 255.
    pub fn add(&mut self, good: Good, n: u32) {
        let slot = &mut self.0[good.index()];
        *slot = u8::try_from(u32::from(*slot).saturating_add(n)).unwrap_or(u8::MAX);
    }

    /// Read as three words rather than byte by byte: every replenish step asks this of every
    /// space it fills.
    pub fn is_empty(&self) -> bool {
        let [a, b, c, d, e, f, g, h, i, j, k, l, m] = self.0;
        u64::from_le_bytes([a, b, c, d, e, f, g, h]) | u64::from(u32::from_le_bytes([i, j, k, l]) | u32::from(m)) == 0
    }

    pub fn total(&self) -> u64 {
        self.0.iter().map(|&c| u64::from(c)).sum()
    }
}

impl Serialize for SpaceGoods {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.goods().serialize(s)
    }
}

impl Serialize for Goods {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut m = s.serialize_map(None)?;
        for (g, c) in self.iter() {
            m.serialize_entry(g.id(), &c)?;
        }
        m.end()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn take_is_all_or_nothing() {
        let mut supply = Goods::of(&[(Good::Wood, 3), (Good::Stone, 1)]);
        let cost = Goods::of(&[(Good::Wood, 2), (Good::Stone, 2)]);
        assert_eq!(supply.take(&cost), Err(Good::Stone));
        assert_eq!(supply.get(Good::Wood), 3);
        supply.add(Good::Stone, 1);
        assert_eq!(supply.take(&cost), Ok(()));
        assert_eq!(supply, Goods::of(&[(Good::Wood, 1)]));
    }

    #[test]
    fn ids_round_trip() {
        for g in Good::ALL {
            assert_eq!(Good::from_id(g.id()), Some(g));
        }
    }
}
