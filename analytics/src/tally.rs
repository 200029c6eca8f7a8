//! Tallies: the additive counts of one bucket of games, and the polars group-bys that compute
//! them from rows.
//!
//! A tally holds, for each [`Part`], a sorted list of cells `key → (n, wins, score)` over the
//! player-games of one bucket (see [`crate::buckets`]). Every statistic of the crate is a
//! function of the cells of the selected buckets summed together, and sums of tallies are exact
//! (integers), so a query adds pre-computed tallies instead of scanning rows.
//!
//! | part | rows | key | counts |
//! |---|---|---|---|
//! | `Seats` | player-games | seat (0-based) | n, wins, score |
//! | `Tiles` | first builds | `tile·16 + round` | n, wins, score of the builders |
//! | `Strength` | player-games | max strength, −1 = never armed | n, wins, score |
//! | `FirstArmed` | player-games | round of the first weapon, −1 = never armed | n, wins, score |
//! | `FirstExpedition` | player-games | round of the first expedition, −1 = none | n, wins, score |
//! | `Expeditions` | player-games | expedition bucket 0–3 | n, wins, score |
//! | `Loot` | distinct items taken | `item·2 + winner` | n |
//! | `Scores` | player-games | final score | n |
//! | `Spaces` | placements | `round·64 + space` | n |
//!
//! [`compute`] runs one polars group-by per part, except `Spaces`, which is counted in Rust from
//! the games' per-round masks of spaces ([`count_spaces`]; a group-by would first have to
//! unpack the bits). When a batch is added, the `Tiles` and `Spaces` parts are counted during its
//! translation instead ([`Dense`], in [`crate::ingest`]): one dense array of cells for the
//! bucket being counted, the batch's games taken bucket by bucket. For a million player-games,
//! the polars group-by of 7 M first builds into 1.3 M cells took 1.25–1.75 s (2 shared cores);
//! the arrays count the same cells exactly, in a fraction of that. Tallies of rows gathered from
//! the frames (months cut by a time bound) use the group-bys for the other parts.

use std::collections::BTreeMap;

use polars::prelude::*;

use crate::columns::{count, i64s};
use crate::frames::{round_column, Rows, LOOT_KEYS, ROUNDS, RS, SPACE_KEYS, TILE_KEYS};

/// Player-games (or placements) of one cell: how many, how many of them won, their total score
/// and the sum of the squares of their scores (for the variance of a mean score).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Sums {
    pub(crate) n: u64,
    pub(crate) wins: u64,
    pub(crate) score: i64,
    pub(crate) score_sq: i64,
}

impl Sums {
    pub(crate) fn add(&mut self, other: &Sums) {
        self.n += other.n;
        self.wins += other.wins;
        self.score += other.score;
        self.score_sq += other.score_sq;
    }

    /// Removes a subset's counts.
    fn sub(&mut self, part: &Sums) {
        self.n = self.n.saturating_sub(part.n);
        self.wins = self.wins.saturating_sub(part.wins);
        self.score -= part.score;
        self.score_sq -= part.score_sq;
    }
}

/// Cells sorted by key, each key once.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Cells(Vec<(i64, Sums)>);

impl Cells {
    pub(crate) fn iter(&self) -> impl Iterator<Item = &(i64, Sums)> {
        self.0.iter()
    }

    /// Cells given in strictly ascending key order; `None` when they are not.
    pub(crate) fn from_sorted(cells: Vec<(i64, Sums)>) -> Option<Cells> {
        cells.windows(2).all(|w| matches!(w, [a, b] if a.0 < b.0)).then_some(Cells(cells))
    }

    pub(crate) fn first_key(&self) -> Option<i64> {
        self.0.first().map(|c| c.0)
    }

    pub(crate) fn last_key(&self) -> Option<i64> {
        self.0.last().map(|c| c.0)
    }

    /// Removes the cells of a subset of the counted rows (cells left empty go).
    fn sub(&mut self, part: &Cells) {
        for (key, s) in &part.0 {
            if let Ok(i) = self.0.binary_search_by_key(key, |c| c.0) {
                if let Some(c) = self.0.get_mut(i) {
                    c.1.sub(s);
                }
            }
        }
        self.0.retain(|c| c.1.n > 0);
    }

    /// Sorts (stable: linear on already sorted runs) and merges equal keys.
    fn normalize(&mut self) {
        self.0.sort_by_key(|c| c.0);
        self.0.dedup_by(|later, first| {
            let same = later.0 == first.0;
            if same {
                first.1.add(&later.1);
            }
            same
        });
    }

    /// Adds another list cell by cell (a merge of two sorted lists).
    fn add(&mut self, other: &Cells) {
        if other.0.is_empty() {
            return;
        }
        if self.0.is_empty() {
            self.0.clone_from(&other.0);
            return;
        }
        let (a, b) = (&self.0, &other.0);
        let mut out = Vec::with_capacity(a.len() + b.len());
        let (mut i, mut j) = (0, 0);
        while let (Some(&x), Some(&y)) = (a.get(i), b.get(j)) {
            if x.0 < y.0 {
                out.push(x);
                i += 1;
            } else if y.0 < x.0 {
                out.push(y);
                j += 1;
            } else {
                let mut s = x.1;
                s.add(&y.1);
                out.push((x.0, s));
                i += 1;
                j += 1;
            }
        }
        out.extend_from_slice(a.get(i..).unwrap_or_default());
        out.extend_from_slice(b.get(j..).unwrap_or_default());
        self.0 = out;
    }
}

/// What a tally counts; see the module table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Part {
    Seats,
    Tiles,
    Strength,
    Expeditions,
    Loot,
    Scores,
    Spaces,
    FirstArmed,
    FirstExpedition,
}

/// The cells of every part for one bucket of games (parts not computed stay empty).
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Tally {
    parts: [Cells; 9],
}

impl Tally {
    pub(crate) fn get(&self, part: Part) -> &Cells {
        &self.parts[part as usize]
    }

    pub(crate) fn set(&mut self, part: Part, cells: Cells) {
        self.parts[part as usize] = cells;
    }

    pub(crate) fn add(&mut self, other: &Tally) {
        for (mine, theirs) in self.parts.iter_mut().zip(&other.parts) {
            mine.add(theirs);
        }
    }

    /// Removes the counts of a subset of the tallied games.
    pub(crate) fn sub(&mut self, part: &Tally) {
        for (mine, theirs) in self.parts.iter_mut().zip(&part.parts) {
            mine.sub(theirs);
        }
    }

    /// Heap bytes of the cells.
    pub(crate) fn bytes(&self) -> usize {
        self.parts.iter().map(|c| c.0.capacity() * std::mem::size_of::<(i64, Sums)>()).sum()
    }
}

/// Reads group-by output (`key`, `n` and optionally `wins`, `score`) as `(bucket, cell, sums)`
/// with `key = bucket·per + (cell − shift)`.
fn read(df: &DataFrame, per: i64, shift: i64) -> PolarsResult<Vec<(u32, i64, Sums)>> {
    let key = i64s(df, "key")?;
    let n = i64s(df, "n")?;
    let opt = |name: &str| -> PolarsResult<Vec<Option<i64>>> {
        if df.column(name).is_ok() {
            i64s(df, name)
        } else {
            Ok(vec![Some(0); key.len()])
        }
    };
    let (wins, score, score_sq) = (opt("wins")?, opt("score")?, opt("score_sq")?);
    let mut out = Vec::with_capacity(key.len());
    for i in 0..key.len() {
        let Some(k) = key[i] else { continue };
        let Ok(bucket) = u32::try_from(k.div_euclid(per)) else { continue };
        let sums = Sums {
            n: count(n[i]),
            wins: count(wins[i]),
            score: score[i].unwrap_or(0),
            score_sq: score_sq[i].unwrap_or(0),
        };
        out.push((bucket, k.rem_euclid(per) + shift, sums));
    }
    Ok(out)
}

/// Runs a tally query. These are single group-bys on in-memory frames, which no plan rewrite
/// improves, while optimizing a plan costs time on every query: only the passes needed for
/// correctness run.
fn collect(query: LazyFrame) -> PolarsResult<DataFrame> {
    query.with_optimizations(OptFlags::TYPE_COERCION | OptFlags::TYPE_CHECK | OptFlags::EAGER).collect()
}

/// `frame` grouped by one integer key, with the given aggregations, sorted by key.
fn grouped(frame: &DataFrame, key: Expr, aggs: Vec<Expr>) -> PolarsResult<DataFrame> {
    collect(frame.clone().lazy().group_by([key.alias("key")]).agg(aggs).sort(["key"], SortMultipleOptions::default()))
}

fn outcome() -> Vec<Expr> {
    vec![
        len().alias("n"),
        col("winner").sum().alias("wins"),
        col("total").sum().alias("score"),
        (col("total") * col("total")).sum().alias("score_sq"),
    ]
}

fn bucket_times(per: i64) -> Expr {
    col("bucket").cast(DataType::Int64) * lit(per)
}

/// Multiplier placing the bucket in front of a seat, a strength + 1, an expedition bucket.
const SEAT_KEYS: i64 = 8;
const STRENGTH_KEYS: i64 = 512;
const EXPEDITION_KEYS: i64 = 4;
/// Rounds of the first weapon or expedition + 1 (0: never): Caverna has at most 12 rounds.
const FIRST_ARMED_KEYS: i64 = 16;

/// The cells of one part over all rows, as `(bucket, cell, sums)` sorted by bucket then cell
/// (except `Spaces`, whose two sources are merged by [`Cells::normalize`]).
fn cells(rows: &Rows, part: Part) -> PolarsResult<Vec<(u32, i64, Sums)>> {
    let pg = &rows.pg;
    match part {
        Part::Seats => {
            read(&grouped(pg, bucket_times(SEAT_KEYS) + col("seat").cast(DataType::Int64), outcome())?, SEAT_KEYS, 0)
        }
        Part::Strength => {
            let s = col("strength").cast(DataType::Int64).fill_null(lit(-1i64)) + lit(1i64);
            read(&grouped(pg, bucket_times(STRENGTH_KEYS) + s, outcome())?, STRENGTH_KEYS, -1)
        }
        Part::FirstArmed | Part::FirstExpedition => {
            let column = if part == Part::FirstArmed { "first_armed" } else { "first_expedition" };
            let r = col(column).cast(DataType::Int64).fill_null(lit(-1i64)) + lit(1i64);
            read(&grouped(pg, bucket_times(FIRST_ARMED_KEYS) + r, outcome())?, FIRST_ARMED_KEYS, -1)
        }
        Part::Expeditions => {
            let e = col("expeditions").cast(DataType::Int64);
            let bucket = when(e.clone().eq(lit(0i64)))
                .then(lit(0i64))
                .when(e.clone().lt_eq(lit(2i64)))
                .then(lit(1i64))
                .when(e.lt_eq(lit(5i64)))
                .then(lit(2i64))
                .otherwise(lit(3i64));
            read(&grouped(pg, bucket_times(EXPEDITION_KEYS) + bucket, outcome())?, EXPEDITION_KEYS, 0)
        }
        Part::Tiles => read(&grouped(&rows.tiles, col("key"), outcome())?, TILE_KEYS, 0),
        Part::Loot => read(&grouped(&rows.loot, col("key"), vec![len().alias("n")])?, LOOT_KEYS, 0),
        Part::Scores => {
            let df = collect(
                pg.clone()
                    .lazy()
                    .group_by([col("bucket"), col("total")])
                    .agg([len().alias("n")])
                    .sort(["bucket", "total"], SortMultipleOptions::default()),
            )?;
            let (bucket, total, n) = (i64s(&df, "bucket")?, i64s(&df, "total")?, i64s(&df, "n")?);
            Ok(bucket
                .into_iter()
                .zip(total)
                .zip(n)
                .filter_map(|((b, t), n)| Some((u32::try_from(b?).ok()?, t?, Sums { n: count(n), ..Sums::default() })))
                .collect())
        }
        Part::Spaces => {
            let games = &rows.games;
            let buckets = games.column("bucket")?.u32()?;
            let buckets: Vec<u32> = buckets.into_no_null_iter().collect();
            let mut masks = Vec::with_capacity(usize::from(ROUNDS));
            for round in 1..=ROUNDS {
                masks.push(games.column(&round_column(round))?.u64()?.into_no_null_iter().collect::<Vec<u64>>());
            }
            let mut by_bucket: Vec<usize> = (0..buckets.len()).collect();
            by_bucket.sort_by_key(|&g| buckets.get(g).copied().unwrap_or(0));
            let mut counts = Dense::new(Part::Spaces, SPACE_KEYS);
            count_spaces(&mut counts, &buckets, &by_bucket, &masks);
            let (_, mut out) = counts.cells();
            if rows.extra.height() > 0 {
                out.extend(read(&grouped(&rows.extra, col("key"), vec![len().alias("n")])?, SPACE_KEYS, 0)?);
            }
            Ok(out)
        }
    }
}

/// Counts the (round, space) bits of games into `counts`: `masks[round − 1][game]` holds the
/// spaces `game` used in that round, `buckets[game]` its bucket, and `by_bucket` lists the
/// games grouped by bucket (so that [`Dense`] switches buckets rarely). Round by round: one
/// round's masks are a small array, read in a cache-friendly order.
pub(crate) fn count_spaces(counts: &mut Dense, buckets: &[u32], by_bucket: &[usize], masks: &[Vec<u64>]) {
    for (r, masks) in masks.iter().enumerate() {
        let base = (r + 1) * RS as usize;
        for &g in by_bucket {
            counts.bucket(buckets.get(g).copied().unwrap_or(0));
            let mut m = masks.get(g).copied().unwrap_or(0);
            while m != 0 {
                counts.add(base + m.trailing_zeros() as usize, false, 0);
                m &= m - 1;
            }
        }
    }
}

/// One part's cells as `(bucket, cell, sums)`.
pub(crate) type PartCells = (Part, Vec<(u32, i64, Sums)>);

/// Counts of one part over the rows of a batch, counted in plain Rust while it is translated
/// (see the module documentation for which parts and why): the rows of one bucket at a time
/// are counted in a dense array of `per` cells, written out when the bucket changes.
pub(crate) struct Dense {
    part: Part,
    cells: Vec<Sums>,
    bucket: Option<u32>,
    out: Vec<(u32, i64, Sums)>,
}

impl Dense {
    pub(crate) fn new(part: Part, per: i64) -> Dense {
        Dense { part, cells: vec![Sums::default(); usize::try_from(per).unwrap_or(0)], bucket: None, out: Vec::new() }
    }

    /// The rows counted next are of `bucket` (cheap when the rows come bucket by bucket; a
    /// bucket may come again, its cells are then merged by [`compute`]).
    pub(crate) fn bucket(&mut self, bucket: u32) {
        if self.bucket != Some(bucket) {
            self.flush();
            self.bucket = Some(bucket);
        }
    }

    /// Counts one row in `cell` (`0..per`).
    pub(crate) fn add(&mut self, cell: usize, winner: bool, score: i64) {
        if let Some(s) = self.cells.get_mut(cell) {
            s.n += 1;
            s.wins += u64::from(winner);
            s.score += score;
            s.score_sq += score * score;
        }
    }

    /// Counts one row of `bucket` without switching the current bucket (for rare rows).
    pub(crate) fn add_one(&mut self, bucket: u32, cell: i64) {
        self.out.push((bucket, cell, Sums { n: 1, ..Sums::default() }));
    }

    fn flush(&mut self) {
        let Some(bucket) = self.bucket else { return };
        for (cell, s) in self.cells.iter_mut().enumerate() {
            if s.n > 0 {
                self.out.push((bucket, cell as i64, *s));
                *s = Sums::default();
            }
        }
    }

    /// The part and its cells as `(bucket, cell, sums)`.
    pub(crate) fn cells(mut self) -> PartCells {
        self.flush();
        (self.part, self.out)
    }
}

/// The tallies of the buckets present in `rows`, for the parts asked, by bucket ascending,
/// counted with polars, together with parts already `counted` (see [`Dense`]).
pub(crate) fn compute(rows: &Rows, parts: &[Part], counted: Vec<PartCells>) -> PolarsResult<Vec<(u32, Tally)>> {
    let mut out: BTreeMap<u32, Tally> = BTreeMap::new();
    let mut all = Vec::with_capacity(parts.len() + counted.len());
    for &part in parts {
        let cs = cells(rows, part)?;
        all.push((part, cs));
    }
    all.extend(counted);
    for (part, cs) in all {
        let mut current: Option<(u32, Vec<(i64, Sums)>)> = None;
        let mut flush = |current: Option<(u32, Vec<(i64, Sums)>)>| {
            if let Some((bucket, cells)) = current {
                out.entry(bucket).or_default().parts[part as usize].0.extend(cells);
            }
        };
        for (bucket, key, sums) in cs {
            match &mut current {
                Some((b, cells)) if *b == bucket => cells.push((key, sums)),
                _ => {
                    flush(current.take());
                    current = Some((bucket, vec![(key, sums)]));
                }
            }
        }
        flush(current);
    }
    for tally in out.values_mut() {
        for cells in &mut tally.parts {
            cells.normalize();
        }
    }
    Ok(out.into_iter().collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cells(v: &[(i64, u64)]) -> Cells {
        Cells(v.iter().map(|&(k, n)| (k, Sums { n, wins: n / 2, score: k * n as i64, ..Sums::default() })).collect())
    }

    #[test]
    fn cells_add_by_key() {
        let mut a = cells(&[(-1, 1), (3, 2), (9, 1)]);
        a.add(&cells(&[(0, 5), (3, 1), (10, 1)]));
        let keys: Vec<(i64, u64)> = a.iter().map(|c| (c.0, c.1.n)).collect();
        assert_eq!(keys, vec![(-1, 1), (0, 5), (3, 3), (9, 1), (10, 1)]);
        let mut e = Cells::default();
        e.add(&a);
        assert_eq!(e, a);
        a.sub(&cells(&[(0, 5), (3, 1)]));
        let keys: Vec<(i64, u64)> = a.iter().map(|c| (c.0, c.1.n)).collect();
        assert_eq!(keys, vec![(-1, 1), (3, 2), (9, 1), (10, 1)]);
        let mut u = Cells(vec![
            (4, Sums { n: 1, wins: 1, score: 2, ..Sums::default() }),
            (1, Sums::default()),
            (4, Sums { n: 2, wins: 0, score: 3, ..Sums::default() }),
        ]);
        u.normalize();
        assert_eq!(u.0, vec![(1, Sums::default()), (4, Sums { n: 3, wins: 1, score: 5, ..Sums::default() })]);
    }
}
