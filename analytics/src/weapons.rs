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

use chronicle_caverna::notation::LootItem;

use crate::buckets::Gathered;
use crate::columns::mean;
use crate::rate::Rate;
use crate::tally::{Part, Sums};

/// The tally parts the statistics are computed from.
pub(crate) const PARTS: &[Part] =
    &[Part::Seats, Part::Strength, Part::FirstArmed, Part::FirstExpedition, Part::Expeditions, Part::Loot];

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

/// Player-games by the round in which the player first did something (held a weapon, went on
/// an expedition).
#[derive(Clone, Debug, PartialEq)]
pub struct RoundStats {
    /// `None`: never armed.
    pub round: Option<u8>,
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
    /// The 95% interval of `difference` (Newcombe's hybrid score interval; `None` when a group
    /// is empty).
    pub difference_ci: Option<(f64, f64)>,
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
    /// Rounds in which players first held a weapon, `None` (never armed) first then ascending:
    /// the timing of arming.
    pub by_first_armed: Vec<RoundStats>,
    /// Rounds of the first expedition, `None` (no expedition) first then ascending.
    pub by_first_expedition: Vec<RoundStats>,
    /// Every loot item, by `difference` descending.
    pub loot: Vec<LootStats>,
}

fn group(s: &Sums, min_sample: u64) -> GroupStats {
    GroupStats { win_rate: Rate::new(s.wins, s.n, min_sample), mean_score: mean(s.score as f64, s.n) }
}

/// Cells of one part summed over the tallies, by key.
fn summed(tallies: &Gathered<'_>, part: Part) -> BTreeMap<i64, Sums> {
    let mut out: BTreeMap<i64, Sums> = BTreeMap::new();
    for (_, tally) in tallies {
        for (key, s) in tally.get(part).iter() {
            out.entry(*key).or_default().add(s);
        }
    }
    out
}

pub(crate) fn compute(tallies: &Gathered<'_>, min_sample: u64) -> WeaponStats {
    let all = summed(tallies, Part::Seats).values().fold(Sums::default(), |mut a, s| {
        a.add(s);
        a
    });
    let (player_games, winners) = (all.n, all.wins);
    let others = player_games.saturating_sub(winners);
    // Max strength (−1: never armed) -> sums.
    let by_strength = summed(tallies, Part::Strength);
    let mut by_class = [Sums::default(); 3];
    for (&strength, s) in &by_strength {
        let class = WeaponClass::of(u8::try_from(strength).ok());
        by_class[WeaponClass::ALL.iter().position(|&c| c == class).unwrap_or(0)].add(s);
    }
    let by_bucket = summed(tallies, Part::Expeditions);
    let by_round = |part: Part| -> Vec<RoundStats> {
        summed(tallies, part)
            .iter()
            .map(|(&k, s)| RoundStats { round: u8::try_from(k).ok(), stats: group(s, min_sample) })
            .collect()
    };
    let (by_first_armed, by_first_expedition) = (by_round(Part::FirstArmed), by_round(Part::FirstExpedition));
    // item -> (winners who took it, others who took it)
    let mut took: BTreeMap<i64, (u64, u64)> = BTreeMap::new();
    for (k, s) in summed(tallies, Part::Loot) {
        let e = took.entry(k / 2).or_default();
        if k % 2 == 1 {
            e.0 += s.n;
        } else {
            e.1 += s.n;
        }
    }
    let mut loot: Vec<LootStats> = LOOT_ITEMS
        .iter()
        .map(|&item| {
            let (w, o) = took.get(&(item as i64)).copied().unwrap_or((0, 0));
            let winners = Rate::new(w, winners, min_sample);
            let others = Rate::new(o, others, min_sample);
            let difference_ci = crate::rate::newcombe(winners.successes, winners.n, others.successes, others.n)
                .map(|d| (d.ci_low, d.ci_high));
            LootStats { item, winners, others, difference: winners.rate - others.rate, difference_ci }
        })
        .collect();
    loot.sort_by(|a, b| b.difference.total_cmp(&a.difference).then(a.item.cmp(&b.item)));

    WeaponStats {
        player_games,
        by_class: WeaponClass::ALL
            .iter()
            .zip(&by_class)
            .map(|(&class, s)| ClassStats { class, stats: group(s, min_sample) })
            .collect(),
        by_max_strength: by_strength
            .iter()
            .map(|(&k, s)| StrengthStats { max_strength: u8::try_from(k).ok(), stats: group(s, min_sample) })
            .collect(),
        by_expeditions: ExpeditionBucket::ALL
            .iter()
            .enumerate()
            .map(|(i, &bucket)| ExpeditionStats {
                bucket,
                stats: group(&by_bucket.get(&(i as i64)).copied().unwrap_or_default(), min_sample),
            })
            .collect(),
        by_first_armed,
        by_first_expedition,
        loot,
    }
}
