//! Weapon strategies: arming, strength, expeditions and loot.
//!
//! Definitions (over the player-games selected by the filter; rates and means are raw, all
//! player counts pooled; shared wins count as wins):
//!
//! - **class** of a player-game by its `max_strength`: `peaceful` = never armed (`None`),
//!   `light` = 0–7, `heavy` = 8 or more.
//! - **expedition bucket** by the player's number of expeditions: `0`, `1–2`, `3–5`, `6+`.
//! - `by_max_strength`: one row per strength that occurs (`None` = never armed, first).
//! - `loot`: for every loot item, the share of *winners'* player-games in which the player took
//!   the item at least once, against the same share among the other player-games;
//!   `difference` = winners' share − others' share. Sorted by `difference`, largest first
//!   (ties by item order), so the items winners take most relative to others come first.

use std::collections::BTreeMap;

use chronicle_engine::notation::LootItem;
use polars::prelude::*;

use crate::columns::{count, i64s, mean, small};
use crate::frames::{Selection, Tables};
use crate::rate::Rate;

/// Every loot item, index = `LootItem as usize` (`RULES.md` D.2).
pub const LOOT_ITEMS: [LootItem; 23] = LootItem::ALL;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum WeaponClass {
    /// Never armed.
    Peaceful,
    /// Strongest weapon 0–7.
    Light,
    /// Strongest weapon 8 or more.
    Heavy,
}

impl WeaponClass {
    pub const ALL: [WeaponClass; 3] = [WeaponClass::Peaceful, WeaponClass::Light, WeaponClass::Heavy];

    pub fn of(max_strength: Option<u8>) -> WeaponClass {
        match max_strength {
            None => WeaponClass::Peaceful,
            Some(s) if s <= 7 => WeaponClass::Light,
            Some(_) => WeaponClass::Heavy,
        }
    }

    pub fn id(self) -> &'static str {
        match self {
            WeaponClass::Peaceful => "peaceful",
            WeaponClass::Light => "light",
            WeaponClass::Heavy => "heavy",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ExpeditionBucket {
    /// No expedition.
    None,
    /// 1–2 expeditions.
    Few,
    /// 3–5 expeditions.
    Several,
    /// 6 or more.
    Many,
}

impl ExpeditionBucket {
    pub const ALL: [ExpeditionBucket; 4] =
        [ExpeditionBucket::None, ExpeditionBucket::Few, ExpeditionBucket::Several, ExpeditionBucket::Many];

    pub fn of(expeditions: u32) -> ExpeditionBucket {
        match expeditions {
            0 => ExpeditionBucket::None,
            1..=2 => ExpeditionBucket::Few,
            3..=5 => ExpeditionBucket::Several,
            _ => ExpeditionBucket::Many,
        }
    }

    /// Inclusive bounds (`None` = unbounded above).
    pub fn range(self) -> (u32, Option<u32>) {
        match self {
            ExpeditionBucket::None => (0, Some(0)),
            ExpeditionBucket::Few => (1, Some(2)),
            ExpeditionBucket::Several => (3, Some(5)),
            ExpeditionBucket::Many => (6, None),
        }
    }

    pub fn id(self) -> &'static str {
        match self {
            ExpeditionBucket::None => "0",
            ExpeditionBucket::Few => "1-2",
            ExpeditionBucket::Several => "3-5",
            ExpeditionBucket::Many => "6+",
        }
    }
}

/// Outcome of a group of player-games.
#[derive(Clone, Debug, PartialEq)]
pub struct GroupStats {
    pub win_rate: Rate,
    pub mean_score: Option<f64>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct ClassStats {
    pub class: WeaponClass,
    pub stats: GroupStats,
}

#[derive(Clone, Debug, PartialEq)]
pub struct StrengthStats {
    /// `None`: never armed.
    pub max_strength: Option<u8>,
    pub stats: GroupStats,
}

#[derive(Clone, Debug, PartialEq)]
pub struct ExpeditionStats {
    pub bucket: ExpeditionBucket,
    pub stats: GroupStats,
}

#[derive(Clone, Debug, PartialEq)]
pub struct LootStats {
    pub item: LootItem,
    /// Winners' player-games that took the item, of all winners' player-games.
    pub winners: Rate,
    /// Other player-games that took the item, of all other player-games.
    pub others: Rate,
    pub difference: f64,
}

#[derive(Clone, Debug, PartialEq)]
pub struct WeaponStats {
    pub player_games: u64,
    /// All three classes, in the order peaceful, light, heavy.
    pub by_class: Vec<ClassStats>,
    /// Strengths that occur, `None` first then ascending.
    pub by_max_strength: Vec<StrengthStats>,
    /// All four buckets, ascending.
    pub by_expeditions: Vec<ExpeditionStats>,
    /// Every loot item, by `difference` descending.
    pub loot: Vec<LootStats>,
}

fn group(df: &DataFrame, min_sample: u64) -> PolarsResult<BTreeMap<Option<i64>, GroupStats>> {
    let key = i64s(df, "key")?;
    let n = i64s(df, "n")?;
    let wins = i64s(df, "wins")?;
    let score = i64s(df, "score")?;
    let mut out = BTreeMap::new();
    for i in 0..key.len() {
        let n = count(n[i]);
        out.insert(
            key[i],
            GroupStats { win_rate: Rate::new(count(wins[i]), n, min_sample), mean_score: mean(score[i].unwrap_or(0) as f64, n) },
        );
    }
    Ok(out)
}

fn empty_group(min_sample: u64) -> GroupStats {
    GroupStats { win_rate: Rate::new(0, 0, min_sample), mean_score: None }
}

pub(crate) fn compute(t: &Tables, sel: &Selection, min_sample: u64) -> PolarsResult<WeaponStats> {
    let pg = sel.player_games(t)?;
    let player_games = pg.height() as u64;
    let outcome = || [len().alias("n"), col("winner").sum().alias("wins"), col("total").sum().alias("score")];
    let s = col("strength");
    let class = when(s.clone().is_null())
        .then(lit(0i32))
        .when(s.clone().lt_eq(lit(7i32)))
        .then(lit(1i32))
        .otherwise(lit(2i32));
    let e = col("expeditions").cast(DataType::Int64);
    let bucket = when(e.clone().eq(lit(0i64)))
        .then(lit(0i32))
        .when(e.clone().lt_eq(lit(2i64)))
        .then(lit(1i32))
        .when(e.lt_eq(lit(5i64)))
        .then(lit(2i32))
        .otherwise(lit(3i32));
    let lazy = pg.clone().lazy();
    let by_class = group(&lazy.clone().group_by([class.alias("key")]).agg(outcome()).collect()?, min_sample)?;
    let by_strength = group(&lazy.clone().group_by([s.alias("key")]).agg(outcome()).collect()?, min_sample)?;
    let by_bucket = group(&lazy.group_by([bucket.alias("key")]).agg(outcome()).collect()?, min_sample)?;

    let winners = pg.column("winner")?.bool()?.sum().map_or(0, u64::from);
    let others = player_games.saturating_sub(winners);
    let loot = sel.facts(&t.loot)?;
    let by_item = loot
        .lazy()
        .group_by([col("key")])
        .agg([len().alias("n")])
        .collect()?;
    // item -> (winners who took it, others who took it)
    let mut took: BTreeMap<i64, (u64, u64)> = BTreeMap::new();
    {
        let key = i64s(&by_item, "key")?;
        let n = i64s(&by_item, "n")?;
        for i in 0..key.len() {
            let Some(k) = key[i] else { continue };
            let e = took.entry(k / 2).or_default();
            if k % 2 == 1 {
                e.0 += count(n[i]);
            } else {
                e.1 += count(n[i]);
            }
        }
    }
    let mut loot: Vec<LootStats> = LOOT_ITEMS
        .iter()
        .map(|&item| {
            let (w, o) = took.get(&(item as i64)).copied().unwrap_or((0, 0));
            let winners = Rate::new(w, winners, min_sample);
            let others = Rate::new(o, others, min_sample);
            LootStats { item, winners, others, difference: winners.rate - others.rate }
        })
        .collect();
    loot.sort_by(|a, b| b.difference.total_cmp(&a.difference).then(a.item.cmp(&b.item)));

    let get = |m: &BTreeMap<Option<i64>, GroupStats>, k: i64| m.get(&Some(k)).cloned().unwrap_or_else(|| empty_group(min_sample));
    Ok(WeaponStats {
        player_games,
        by_class: WeaponClass::ALL
            .iter()
            .enumerate()
            .map(|(i, &class)| ClassStats { class, stats: get(&by_class, i as i64) })
            .collect(),
        by_max_strength: by_strength
            .into_iter()
            .filter_map(|(k, stats)| match k {
                None => Some(StrengthStats { max_strength: None, stats }),
                Some(k) => small(Some(k)).map(|s| StrengthStats { max_strength: Some(s), stats }),
            })
            .collect(),
        by_expeditions: ExpeditionBucket::ALL
            .iter()
            .enumerate()
            .map(|(i, &bucket)| ExpeditionStats { bucket, stats: get(&by_bucket, i as i64) })
            .collect(),
        loot,
    })
}
