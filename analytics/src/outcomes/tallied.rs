//! The outcome statistics as additive tallies per bucket, so that a store can keep them and
//! any process can add them up. Every report is computed from buckets — a corpus's own
//! ([`OutcomeCorpus::buckets`]) or stored ones ([`report_from_buckets`]) — so the two give the
//! same answer to the last digit.
//!
//! A **bucket** holds the complete games of one `meta.source`, one player count and one kind of
//! component data (printed or synthetic). Every [`OutcomeFilter`] selects whole buckets, so
//! every outcome query is answered from them.
//!
//! **Margins are kept exact.** In a game of `k` players a player's margin (own total minus the
//! mean of the others') is `(k·own − sum of all totals) / (k − 1)`; a bucket sums the integer
//! numerators and their squares, and buckets of different sizes are brought to a common
//! denominator (the least common multiple of their `k − 1`) when they are added. Sums saturate
//! instead of overflowing (only absurd totals, near `i64::MAX`, come near).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::filter::OutcomeFilter;
use super::groups::{main_source, ValueGroup, MAX_GROUPS};
use super::input::{KeptGame, OutcomeCorpus};
use super::mean::Mean;
use super::{CounterGroups, OutcomeReport, RowPoints, SeatOutcome, SourceGroup, SIMULATED_SOURCE};
use crate::general::score_stats;
use crate::rate::{Rate, Z95};

/// The version of the tallies' text ([`OutcomeBucket::tally_text`]); a store holding another
/// counts its games again.
pub const OUTCOME_TALLY_FORMAT: i64 = 1;

/// Count, sum and sum of squares of integer observations (points, or margins times `k − 1`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
struct Sums {
    n: u64,
    sum: i128,
    sq: i128,
}

impl Sums {
    fn add(&mut self, x: i128) {
        self.n += 1;
        self.sum = self.sum.saturating_add(x);
        self.sq = self.sq.saturating_add(x.saturating_mul(x));
    }

    fn merge(&mut self, o: &Sums) {
        self.n += o.n;
        self.sum = self.sum.saturating_add(o.sum);
        self.sq = self.sq.saturating_add(o.sq);
    }

    /// The same observations multiplied by `f`.
    fn scaled(&self, f: i128) -> Sums {
        Sums { n: self.n, sum: self.sum.saturating_mul(f), sq: self.sq.saturating_mul(f.saturating_mul(f)) }
    }

    /// The mean of the observations divided by `scale`, with the 95% normal interval from the
    /// sample variance (as [`super::mean_of`]).
    fn finish(&self, scale: i128, min_sample: u64) -> Mean {
        let (n, s) = (self.n, scale.max(1) as f64);
        let mean = (n > 0).then(|| self.sum as f64 / (n as f64 * s));
        let half = (n > 1).then(|| {
            let spread = i128::from(n).saturating_mul(self.sq).saturating_sub(self.sum.saturating_mul(self.sum));
            let variance = spread.max(0) as f64 / (n as f64 * (n - 1) as f64 * s * s);
            Z95 * variance.sqrt() / (n as f64).sqrt()
        });
        Mean {
            n,
            mean,
            ci_low: mean.zip(half).map(|(m, h)| m - h),
            ci_high: mean.zip(half).map(|(m, h)| m + h),
            below_min_sample: n < min_sample,
        }
    }
}

/// Wins and margins (times `k − 1` within a bucket) of the player-games of one group.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
struct GroupSums {
    wins: u64,
    margin: Sums,
}

impl GroupSums {
    fn add(&mut self, winner: bool, margin: i128) {
        self.wins += u64::from(winner);
        self.margin.add(margin);
    }

    fn merge(&mut self, o: &GroupSums) {
        self.wins += o.wins;
        self.margin.merge(&o.margin);
    }

    fn scaled(&self, f: i128) -> GroupSums {
        GroupSums { wins: self.wins, margin: self.margin.scaled(f) }
    }

    fn win_rate(&self, min_sample: u64) -> Rate {
        Rate::new(self.wins, self.margin.n, min_sample)
    }
}

/// The additive part of the outcome statistics of one bucket's games. Maps are keyed by the
/// engine's row and counter ids (not positions), so a stored tally stays readable when a spec
/// gains a row.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
struct OutcomeTally {
    games: u64,
    /// Counter id → value → group.
    counters: BTreeMap<String, BTreeMap<i64, GroupSums>>,
    /// Score row id → the player-games whose main source it is.
    sources: BTreeMap<String, GroupSums>,
    /// Score row id → points of winners, points of the others.
    rows: BTreeMap<String, [Sums; 2]>,
    /// Seat (0-based) → wins, player-games.
    seats: BTreeMap<u8, [u64; 2]>,
    /// Final total → player-games.
    scores: BTreeMap<i64, u64>,
}

impl OutcomeTally {
    fn merge(&mut self, o: &OutcomeTally) {
        self.games += o.games;
        for (id, values) in &o.counters {
            let mine = self.counters.entry(id.clone()).or_default();
            for (v, g) in values {
                mine.entry(*v).or_default().merge(g);
            }
        }
        for (id, g) in &o.sources {
            self.sources.entry(id.clone()).or_default().merge(g);
        }
        for (id, [w, x]) in &o.rows {
            let mine = self.rows.entry(id.clone()).or_default();
            mine[0].merge(w);
            mine[1].merge(x);
        }
        for (seat, [w, n]) in &o.seats {
            let mine = self.seats.entry(*seat).or_default();
            mine[0] += w;
            mine[1] += n;
        }
        for (total, n) in &o.scores {
            *self.scores.entry(*total).or_default() += n;
        }
    }

    /// Adds one game of this bucket (its player count is the bucket's).
    fn add(&mut self, row_ids: &[String], counter_ids: &[String], g: &KeptGame) {
        self.games += 1;
        let k = i128::try_from(g.players.len()).unwrap_or(i128::MAX);
        if k < 2 {
            return;
        }
        let all: i128 = g.players.iter().map(|p| i128::from(p.total)).fold(0, i128::saturating_add);
        for p in g.players.iter() {
            let margin = k.saturating_mul(i128::from(p.total)).saturating_sub(all);
            for (id, value) in counter_ids.iter().zip(p.counters.iter()) {
                if let Some(v) = value {
                    self.counters.entry(id.clone()).or_default().entry(*v).or_default().add(p.winner, margin);
                }
            }
            if let Some(id) = main_source(&p.rows).and_then(|r| row_ids.get(r)) {
                self.sources.entry(id.clone()).or_default().add(p.winner, margin);
            }
            for (id, points) in row_ids.iter().zip(p.rows.iter()) {
                if let Some(points) = points {
                    self.rows.entry(id.clone()).or_default()[usize::from(!p.winner)].add(i128::from(*points));
                }
            }
            let seat = self.seats.entry(p.seat).or_default();
            seat[0] += u64::from(p.winner);
            seat[1] += 1;
            *self.scores.entry(p.total).or_default() += 1;
        }
    }
}

/// The tallies of one bucket of complete games.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OutcomeBucket {
    pub source: Option<String>,
    pub players: u8,
    pub synthetic: bool,
    tally: OutcomeTally,
}

impl OutcomeBucket {
    /// A stored bucket read back; an unreadable tally is an error, never an empty bucket.
    pub fn with_tally_text(
        source: Option<String>,
        players: u8,
        synthetic: bool,
        text: &str,
    ) -> Result<OutcomeBucket, String> {
        let tally = serde_json::from_str(text).map_err(|e| format!("outcome tally: {e}"))?;
        Ok(OutcomeBucket { source, players, synthetic, tally })
    }

    /// The tally as stored (JSON, [`OUTCOME_TALLY_FORMAT`]).
    pub fn tally_text(&self) -> String {
        serde_json::to_string(&self.tally).unwrap_or_default()
    }

    /// Adds another tally of the same bucket.
    pub fn add(&mut self, other: &OutcomeBucket) {
        self.tally.merge(&other.tally);
    }

    /// Games counted in this bucket.
    pub fn games(&self) -> u64 {
        self.tally.games
    }

    fn simulated(&self) -> bool {
        self.source.as_deref().is_some_and(|s| s.starts_with(SIMULATED_SOURCE))
    }

    fn source_matches(&self, f: &OutcomeFilter) -> bool {
        f.source_matches(self.source.as_deref())
    }
}

impl OutcomeCorpus {
    /// The corpus's games as buckets, in key order.
    pub fn buckets(&self) -> Vec<OutcomeBucket> {
        let mut by_key: BTreeMap<(Option<&str>, u8, bool), OutcomeTally> = BTreeMap::new();
        for g in &self.games {
            let players = u8::try_from(g.players.len()).unwrap_or(u8::MAX);
            let tally = by_key.entry((g.source.as_deref(), players, g.synthetic)).or_default();
            tally.add(&self.row_ids, &self.counter_ids, g);
        }
        by_key
            .into_iter()
            .map(|((source, players, synthetic), tally)| OutcomeBucket {
                source: source.map(str::to_owned),
                players,
                synthetic,
                tally,
            })
            .collect()
    }
}

fn gcd(a: i128, b: i128) -> i128 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

/// Every outcome statistic over the buckets `f` selects; rows and counters listed in the order
/// of `row_ids` and `counter_ids` (the spec's).
pub fn report_from_buckets(
    row_ids: &[String],
    counter_ids: &[String],
    buckets: &[OutcomeBucket],
    f: &OutcomeFilter,
) -> OutcomeReport {
    // Simulated and real games are not mixed unless asked (see `OutcomeFilter::include_simulated`).
    let by_default = !f.include_simulated && f.source.is_none() && f.exclude_source.is_none();
    let real_only = by_default && buckets.iter().any(|b| !b.simulated() && b.games() > 0);
    let mut report = Totals::default();
    let mut chosen = Vec::new();
    for b in buckets.iter().filter(|b| b.source_matches(f)) {
        if real_only && b.simulated() {
            report.left_out += b.games();
            continue;
        }
        if b.players == 1 && f.min_players <= 1 {
            report.solo += b.games();
        }
        if b.players < f.min_players.max(2) {
            continue;
        }
        report.games += b.games();
        report.simulated += if b.simulated() { b.games() } else { 0 };
        report.synthetic += if b.synthetic { b.games() } else { 0 };
        chosen.push(b);
    }
    // One denominator for every chosen bucket's margins: the lcm of their `k − 1`.
    let scale = chosen.iter().map(|b| i128::from(b.players) - 1).fold(1, |l, d| l / gcd(l, d) * d);
    let mut sum = OutcomeTally::default();
    let mut seats = Vec::new();
    for b in &chosen {
        let f = scale / (i128::from(b.players) - 1);
        let mut t = b.tally.clone();
        t.counters.values_mut().flat_map(|v| v.values_mut()).for_each(|g| *g = g.scaled(f));
        t.sources.values_mut().for_each(|g| *g = g.scaled(f));
        sum.merge(&t);
        seats.extend(b.tally.seats.iter().map(|(seat, wn)| (b.players, *seat, *wn)));
    }
    report.finish(row_ids, counter_ids, &sum, seats, scale, f)
}

/// The game counts of a report's selection.
#[derive(Default)]
struct Totals {
    games: u64,
    simulated: u64,
    synthetic: u64,
    left_out: u64,
    solo: u64,
}

impl Totals {
    fn finish(
        self,
        row_ids: &[String],
        counter_ids: &[String],
        sum: &OutcomeTally,
        seats: Vec<(u8, u8, [u64; 2])>,
        scale: i128,
        f: &OutcomeFilter,
    ) -> OutcomeReport {
        let min = f.min_sample;
        let scores: Vec<(i64, u64)> = sum.scores.iter().map(|(t, n)| (*t, *n)).collect();
        OutcomeReport {
            games: self.games,
            simulated_games: self.simulated,
            synthetic_games: self.synthetic,
            simulated_left_out: self.left_out,
            player_games: scores.iter().map(|s| s.1).sum(),
            solo_games: self.solo,
            counters: counter_ids.iter().map(|id| counter_groups(id, sum.counters.get(id), scale, min)).collect(),
            main_sources: (row_ids.iter())
                .filter_map(|id| sum.seats_of_source(id).map(|g| (id, g)))
                .map(|(id, g)| SourceGroup {
                    row: id.clone(),
                    win_rate: g.win_rate(min),
                    margin: g.margin.finish(scale, min),
                })
                .collect(),
            rows: (row_ids.iter())
                .map(|id| {
                    let [w, o] = sum.rows.get(id).copied().unwrap_or_default();
                    RowPoints { row: id.clone(), winners: w.finish(1, min), others: o.finish(1, min) }
                })
                .collect(),
            seats: seat_outcomes(seats, min),
            scores: score_stats(&scores, f.bucket_width),
        }
    }
}

impl OutcomeTally {
    /// The group of a score row as main source; `None` when no player-game has it.
    fn seats_of_source(&self, row: &str) -> Option<GroupSums> {
        self.sources.get(row).copied().filter(|g| g.margin.n > 0)
    }
}

fn seat_outcomes(seats: Vec<(u8, u8, [u64; 2])>, min_sample: u64) -> Vec<SeatOutcome> {
    let mut acc: BTreeMap<(u8, u8), [u64; 2]> = BTreeMap::new();
    for (players, seat, [w, n]) in seats {
        let a = acc.entry((players, seat)).or_default();
        a[0] += w;
        a[1] += n;
    }
    acc.into_iter()
        .map(|((player_count, seat), [wins, n])| SeatOutcome {
            player_count,
            seat,
            win_rate: Rate::new(wins, n, min_sample),
            expected: 1.0 / f64::from(player_count.max(1)),
        })
        .collect()
}

/// A counter's groups: each of the smallest `MAX_GROUPS − 1` observed values alone, every larger
/// value in one open-ended top group (or alone too when there are at most `MAX_GROUPS`).
fn counter_groups(id: &str, values: Option<&BTreeMap<i64, GroupSums>>, scale: i128, min: u64) -> CounterGroups {
    let values = values.map(|v| v.iter().filter(|(_, g)| g.margin.n > 0).collect::<Vec<_>>()).unwrap_or_default();
    let top = (values.len() > MAX_GROUPS).then(|| *values[MAX_GROUPS - 1].0);
    let mut groups: Vec<(i64, Option<i64>, GroupSums)> = Vec::new();
    for (&value, g) in &values {
        let (low, high) = match top {
            Some(t) if value >= t => (t, None),
            _ => (value, Some(value)),
        };
        match groups.last_mut() {
            Some(last) if last.0 == low => last.2.merge(g),
            _ => groups.push((low, high, **g)),
        }
    }
    CounterGroups {
        counter: id.to_owned(),
        player_games: values.iter().map(|(_, g)| g.margin.n).sum(),
        groups: groups
            .into_iter()
            .map(|(low, high, g)| ValueGroup {
                low,
                high,
                win_rate: g.win_rate(min),
                margin: g.margin.finish(scale, min),
            })
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::super::{GameOutcome, PlayerOutcome};
    use super::*;

    fn game(id: i64, source: &str, totals: &[i64], counter: i64) -> GameOutcome {
        let best = totals.iter().copied().max().unwrap_or(0);
        let players = (0u8..)
            .zip(totals)
            .map(|(seat, &t)| PlayerOutcome {
                seat,
                winner: t == best,
                total: t,
                rows: vec![("a".into(), t / 2), ("b".into(), t - t / 2)],
                counters: vec![("k".into(), counter + i64::from(seat))],
            })
            .collect();
        GameOutcome { game_id: id, source: Some(source.into()), synthetic: id % 3 == 0, players }
    }

    fn corpus(games: &[GameOutcome]) -> OutcomeCorpus {
        let mut c = OutcomeCorpus::new(&["a", "b"], &["k"]);
        games.iter().for_each(|g| c.add(g));
        c
    }

    fn games() -> Vec<GameOutcome> {
        (0..40)
            .map(|i| {
                let source = ["club", "simulate:random", "simulate:greedy", "cup"][i as usize % 4];
                let totals: Vec<i64> = (0..(1 + i % 4)).map(|s| 30 + (i * 7 + s * 13) % 23).collect();
                game(i, source, &totals, i % 11)
            })
            .collect()
    }

    fn filters() -> Vec<OutcomeFilter> {
        let all = OutcomeFilter { include_simulated: true, ..OutcomeFilter::default() };
        vec![
            OutcomeFilter::default(),
            all.clone(),
            OutcomeFilter { min_players: 3, ..all.clone() },
            OutcomeFilter { source: Some("simulate".into()), ..OutcomeFilter::default() },
            OutcomeFilter { exclude_source: Some("simulate".into()), min_sample: 2, ..OutcomeFilter::default() },
        ]
    }

    /// A store adds the tallies of each batch it counts to the stored ones: the sum of two
    /// batches' buckets, read back from their text, answers every filter as the whole corpus.
    #[test]
    fn stored_buckets_counted_in_two_batches_answer_as_the_whole_corpus() {
        let all = games();
        let whole = corpus(&all);
        let mut stored: BTreeMap<(Option<String>, u8, bool), OutcomeBucket> = BTreeMap::new();
        for batch in all.chunks(17) {
            for b in corpus(batch).buckets() {
                let back = OutcomeBucket::with_tally_text(b.source.clone(), b.players, b.synthetic, &b.tally_text());
                let back = back.expect("a tally reads back");
                match stored.entry((b.source.clone(), b.players, b.synthetic)) {
                    std::collections::btree_map::Entry::Occupied(mut e) => e.get_mut().add(&back),
                    std::collections::btree_map::Entry::Vacant(e) => {
                        e.insert(back);
                    }
                }
            }
        }
        let stored: Vec<OutcomeBucket> = stored.into_values().collect();
        for f in filters() {
            let from_store = report_from_buckets(whole.row_ids(), whole.counter_ids(), &stored, &f);
            assert_eq!(from_store, whole.report(&f), "{f:?}");
            assert!(from_store.games > 0, "{f:?} selects games");
        }
    }

    /// Margins of 2-, 3- and 4-player games added over a common denominator equal the plain
    /// mean of the margins (own total minus the mean of the others').
    #[test]
    fn margins_of_games_of_different_sizes_are_exact() {
        let games = [game(1, "club", &[10, 4], 0), game(2, "club", &[9, 3, 5], 0), game(4, "club", &[7, 1, 2, 8], 0)];
        let r = corpus(&games).report(&OutcomeFilter { min_sample: 1, ..OutcomeFilter::default() });
        let margins = [6.0, -6.0, 5.0, -4.0, -1.0, 3.3333333333333335, -4.666666666666667, -3.0, 4.333333333333333];
        let expected = super::super::mean_of(&margins, 1);
        let k0 = &r.counters[0].groups[0];
        assert_eq!((k0.low, k0.margin.n), (0, 3));
        let seat_zero = [6.0, 5.0, 3.3333333333333335];
        let m = super::super::mean_of(&seat_zero, 1);
        assert!((k0.margin.mean.unwrap() - m.mean.unwrap()).abs() < 1e-12);
        assert!((k0.margin.ci_low.unwrap() - m.ci_low.unwrap()).abs() < 1e-9);
        let everyone: f64 = r.main_sources.iter().map(|g| g.margin.mean.unwrap() * g.margin.n as f64).sum();
        assert!((everyone / 9.0 - expected.mean.unwrap()).abs() < 1e-12);
    }

    #[test]
    fn a_damaged_tally_is_an_error() {
        assert!(OutcomeBucket::with_tally_text(None, 2, false, "{\"games\":").is_err());
        assert!(OutcomeBucket::with_tally_text(None, 2, false, "[]").is_err());
    }
}
