//! Translating a batch of input rows into frame rows, game by game, without changing anything:
//! the batch is added only once it is whole (see [`crate::stats`]).
//!
//! Rows are written in game order (the order of first appearance in `player_games`), seats in
//! order within a game and facts in player-game order, so each game's rows are contiguous (see
//! [`crate::frames`]). Facts are grouped by player-game with a counting sort (linear) and only
//! the few facts of one player-game are sorted, to keep the first build of each tile and each
//! distinct loot item.
//!
//! The batch is validated during the translation, in one pass over each kind of fact (the
//! checks and errors of [`Corpus::validate`]), and the tile and space cells of its tallies are
//! counted here (see [`crate::tally::Dense`]). A game's uses of action spaces are held as one
//! mask of spaces per round while translating.

use std::collections::HashMap;

use polars::prelude::IdxSize;

use crate::buckets::{BucketKey, Catalog, Class, Label, NewGame, NewGames};
use crate::calendar::month_of;
use crate::error::AnalyticsError;
use crate::filter::parse_played_at;
use crate::frames::{GameRowsOut, PgRows, Rows, Starts, LOOT_KEYS, ROUNDS, RS, SPACE_KEYS, TILE_KEYS, TILE_ROUND};
use crate::input::{check_space, check_tile, BatchIndex, Corpus, FurnishingSet, Locator};
use crate::tally::{count_spaces, Dense, Part, PartCells};

/// A translated batch.
pub(crate) struct Batch {
    pub(crate) rows: Rows,
    pub(crate) new: NewGames,
    /// The tally parts counted during the translation ([`Part::Tiles`], [`Part::Spaces`]).
    pub(crate) counted: Vec<PartCells>,
}

/// The tally parts of a batch left to polars (the others are counted during the translation).
pub(crate) const COUNTED_BY_POLARS: [Part; 7] =
    [Part::Seats, Part::Strength, Part::FirstArmed, Part::FirstExpedition, Part::Expeditions, Part::Loot, Part::Scores];

fn too_many() -> AnalyticsError {
    AnalyticsError::InvalidInput("more rows than the index type holds".into())
}

fn idx(n: usize) -> Result<IdxSize, AnalyticsError> {
    IdxSize::try_from(n).map_err(|_| too_many())
}

/// `(row, value)` facts grouped by row, then each row's values sorted and filtered: a value is
/// kept unless `same` as the last kept value of its row. Returns the kept facts in row order
/// and, per row, the position of its first kept fact.
fn per_row(rows: usize, facts: &[(usize, u16)], same: impl Fn(u16, u16) -> bool) -> (Vec<(usize, u16)>, Vec<usize>) {
    let mut start = vec![0usize; rows + 1];
    for &(row, _) in facts {
        if let Some(s) = start.get_mut(row + 1) {
            *s += 1;
        }
    }
    for i in 1..start.len() {
        start[i] += start[i - 1];
    }
    let mut next = start.clone();
    let mut values = vec![0u16; facts.len()];
    for &(row, value) in facts {
        if let Some(at) = next.get_mut(row) {
            if let Some(slot) = values.get_mut(*at) {
                *slot = value;
            }
            *at += 1;
        }
    }
    let mut kept = Vec::with_capacity(facts.len());
    let mut first = Vec::with_capacity(rows);
    for row in 0..rows {
        first.push(kept.len());
        let Some(slice) = values.get_mut(start[row]..start[row + 1]) else { continue };
        slice.sort_unstable();
        let mut last: Option<u16> = None;
        for &v in slice.iter() {
            if last.is_some_and(|l| same(l, v)) {
                continue;
            }
            last = Some(v);
            kept.push((row, v));
        }
    }
    (kept, first)
}

/// Translates a batch for a catalog whose frames end at `at`.
pub(crate) fn translate<'a>(corpus: &'a Corpus, catalog: &Catalog, at: Starts) -> Result<Batch, AnalyticsError> {
    // Validated in one pass with the translation: the player-games here, each fact where it is
    // translated (tiles, then loot, then spaces, as `Corpus::check` does); a repeated game is
    // reported only once the whole batch is known to be valid, as `Corpus::check` would.
    let index = corpus.index()?;
    let order = index.game_order();
    let dup = order.iter().find(|g| catalog.has_game(**g)).copied();
    let mut new = NewGames::default();
    let mut new_names: HashMap<(Label, &str), u32> = HashMap::new();
    let mut new_ids: HashMap<BucketKey, u32> = HashMap::new();
    // Batch player-game row of each input row.
    let mut pos = vec![0usize; corpus.player_games.len()];
    let mut pg = PgRows::default();
    let mut first_pg = Vec::with_capacity(order.len());
    let mut game_bucket = Vec::with_capacity(order.len());
    for &id in &order {
        let rows = index.seat_rows(id).unwrap_or_default();
        let Some(first) = rows.first().and_then(|&r| corpus.player_games.get(r)) else {
            return Err(AnalyticsError::InvalidInput(format!("game {id} without player-games")));
        };
        let played = first.played_at.as_deref().and_then(parse_played_at);
        let mut code = |kind: Label, text: Option<&'a str>| -> Result<Option<u32>, AnalyticsError> {
            let Some(text) = text else { return Ok(None) };
            if let Some(code) = catalog.label(kind, text) {
                return Ok(Some(code));
            }
            let next = u32::try_from(catalog.label_count() + new_names.len()).map_err(|_| too_many())?;
            Ok(Some(*new_names.entry((kind, text)).or_insert_with(|| {
                new.labels.push((kind, text.to_owned()));
                next
            })))
        };
        let class = Class {
            pc: first.player_count,
            full: first.furnishing_set == FurnishingSet::Full,
            tournament: code(Label::Tournament, first.tournament.as_deref())?,
            source: code(Label::Source, first.source.as_deref())?,
        };
        let uploader = code(Label::Uploader, first.uploader.as_deref())?;
        let mut players = Vec::with_capacity(rows.len());
        for &r in rows {
            if let Some(c) = code(Label::Player, corpus.player_games.get(r).and_then(|p| p.player.as_deref()))? {
                players.push(c);
            }
        }
        let key = (played.map(month_of), class);
        let bucket = match catalog.bucket(&key) {
            Some(b) => b,
            None => {
                let next = u32::try_from(catalog.bucket_count() + new_ids.len()).map_err(|_| too_many())?;
                *new_ids.entry(key).or_insert_with(|| {
                    new.buckets.push(key);
                    next
                })
            }
        };
        first_pg.push(pg.bucket.len());
        game_bucket.push(bucket);
        for &r in rows {
            let Some(p) = corpus.player_games.get(r) else { continue };
            if let Some(slot) = pos.get_mut(r) {
                *slot = pg.bucket.len();
            }
            pg.bucket.push(bucket);
            pg.seat.push(i32::from(p.seat));
            pg.winner.push(p.winner);
            pg.total.push(p.total);
            pg.strength.push(p.max_strength.map(i32::from));
            pg.first_armed.push(p.first_armed.map(i32::from));
            pg.first_expedition.push(p.first_expedition.map(i32::from));
            pg.expeditions.push(p.expeditions);
        }
        new.games.push(NewGame { id, bucket, played, uploader, players, starts: Starts::default() });
    }
    let n_pg = pg.bucket.len();
    // The games grouped by bucket, for counting one bucket at a time (see `tally::Dense`).
    let mut by_bucket: Vec<usize> = (0..order.len()).collect();
    by_bucket.sort_by_key(|&g| game_bucket.get(g).copied().unwrap_or(0));
    // Tiles and loot on this thread, action spaces on another: the two read the batch and
    // write disjoint results. Errors are reported in `Corpus::check`'s order (tiles, loot,
    // then spaces), whichever thread finds its own first.
    let tables = PgTables { pos: &pos, pg: &pg, first_pg: &first_pg, by_bucket: &by_bucket, game_bucket: &game_bucket };
    let (tile_side, space_side) = std::thread::scope(|scope| {
        let spaces = scope.spawn(|| space_side(corpus, &index, &game_bucket, &by_bucket));
        let tiles = tile_side(corpus, &index, &tables);
        let spaces = spaces
            .join()
            .unwrap_or_else(|_| Err(AnalyticsError::InvalidInput("counting action-space uses failed".into())));
        (tiles, spaces)
    });
    let TileSide { t_rows, tile_first, n_tiles, l_keys, loot_first, n_loot, tile_counts } = tile_side?;
    let SpaceSide { masks, mut extra, space_counts } = space_side?;
    if let Some(dup) = dup {
        return Err(AnalyticsError::InvalidInput(format!("game {dup} was already added")));
    }
    let games = GameRowsOut { bucket: game_bucket, masks };
    extra.sort_by_key(|e| e.0);
    let n_extra = extra.len();
    let mut e = 0;
    for (g, game) in new.games.iter_mut().enumerate() {
        let p = first_pg.get(g).copied().unwrap_or(n_pg);
        while extra.get(e).is_some_and(|x| x.0 < g) {
            e += 1;
        }
        game.starts = Starts {
            pg: idx(at.pg as usize + p)?,
            tiles: idx(at.tiles as usize + tile_first.get(p).copied().unwrap_or(n_tiles))?,
            loot: idx(at.loot as usize + loot_first.get(p).copied().unwrap_or(n_loot))?,
            extra: idx(at.extra as usize + e)?,
        };
    }
    for (base, n) in [(at.pg, n_pg), (at.tiles, n_tiles), (at.loot, n_loot), (at.extra, n_extra)] {
        idx(base as usize + n)?;
    }
    let rows = Rows::new(pg, t_rows, l_keys, games, extra.into_iter().map(|x| x.1).collect())?;
    Ok(Batch { rows, new, counted: vec![tile_counts, space_counts] })
}

/// The player-game side of a batch, read by [`tile_side`].
struct PgTables<'a> {
    /// Batch player-game row of each input row.
    pos: &'a [usize],
    pg: &'a PgRows,
    /// First player-game row of each game.
    first_pg: &'a [usize],
    by_bucket: &'a [usize],
    game_bucket: &'a [u32],
}

/// Tile and loot rows of a batch, and its counted [`Part::Tiles`] cells.
struct TileSide {
    t_rows: (Vec<i64>, Vec<bool>, Vec<i64>),
    /// Per player-game row, its first tile row.
    tile_first: Vec<usize>,
    n_tiles: usize,
    l_keys: Vec<i64>,
    /// Per player-game row, its first loot row.
    loot_first: Vec<usize>,
    n_loot: usize,
    tile_counts: PartCells,
}

/// Validates and translates the tiles, then the loot, and counts the tile cells.
fn tile_side(corpus: &Corpus, index: &BatchIndex, t: &PgTables<'_>) -> Result<TileSide, AnalyticsError> {
    let (pg, n_pg) = (t.pg, t.pg.bucket.len());
    let mut locator = Locator::new(index);
    let mut facts = Vec::with_capacity(corpus.tiles.len());
    for tile in &corpus.tiles {
        let found = locator.locate(tile.game_id, tile.seat)?;
        check_tile(tile, found.set)?;
        let row = t.pos.get(found.row).copied().unwrap_or(0);
        facts.push((row, tile.tile as u16 * TILE_ROUND as u16 + u16::from(tile.round)));
    }
    // First build of each tile: the smallest round among the values of the same tile.
    let (tiles, tile_first) = per_row(n_pg, &facts, |a, b| a / TILE_ROUND as u16 == b / TILE_ROUND as u16);
    let bucket_of = |row: usize| i64::from(pg.bucket.get(row).copied().unwrap_or(0));
    let winner_of = |row: usize| pg.winner.get(row).copied().unwrap_or(false);
    let mut t_rows =
        (Vec::with_capacity(tiles.len()), Vec::with_capacity(tiles.len()), Vec::with_capacity(tiles.len()));
    for &(row, v) in &tiles {
        t_rows.0.push(bucket_of(row) * TILE_KEYS + i64::from(v));
        t_rows.1.push(winner_of(row));
        t_rows.2.push(pg.total.get(row).copied().unwrap_or(0));
    }
    facts.clear();
    for l in &corpus.loot {
        let row = t.pos.get(locator.locate(l.game_id, l.seat)?.row).copied().unwrap_or(0);
        facts.push((row, l.item as u16));
    }
    let (loot, loot_first) = per_row(n_pg, &facts, |a, b| a == b);
    drop(facts);
    let l_keys: Vec<i64> = loot
        .iter()
        .map(|&(row, item)| bucket_of(row) * LOOT_KEYS + i64::from(item) * 2 + i64::from(winner_of(row)))
        .collect();
    // The tile cells, counted game by game in bucket order.
    let mut tile_counts = Dense::new(Part::Tiles, TILE_KEYS);
    for &g in t.by_bucket {
        tile_counts.bucket(t.game_bucket.get(g).copied().unwrap_or(0));
        let pg_rows = t.first_pg.get(g).copied().unwrap_or(n_pg)..t.first_pg.get(g + 1).copied().unwrap_or(n_pg);
        let tile_rows = tile_first.get(pg_rows.start).copied().unwrap_or(tiles.len())
            ..tile_first.get(pg_rows.end).copied().unwrap_or(tiles.len());
        let (facts, winners) =
            (tiles.get(tile_rows.clone()).unwrap_or_default(), t_rows.1.get(tile_rows).unwrap_or_default());
        for (&(row, v), &winner) in facts.iter().zip(winners) {
            tile_counts.add(usize::from(v), winner, pg.total.get(row).copied().unwrap_or(0));
        }
    }
    let (n_tiles, n_loot) = (tiles.len(), loot.len());
    Ok(TileSide { t_rows, tile_first, n_tiles, l_keys, loot_first, n_loot, tile_counts: tile_counts.cells() })
}

/// The action-space side of a batch: the masks of spaces used per round and game, repeated
/// uses as `(game, key)`, and the counted [`Part::Spaces`] cells.
struct SpaceSide {
    masks: Vec<Vec<u64>>,
    extra: Vec<(usize, i64)>,
    space_counts: PartCells,
}

/// Validates and translates the action-space uses and counts their cells.
fn space_side(
    corpus: &Corpus,
    index: &BatchIndex,
    game_bucket: &[u32],
    by_bucket: &[usize],
) -> Result<SpaceSide, AnalyticsError> {
    let mut locator = Locator::new(index);
    let mut masks = vec![vec![0u64; game_bucket.len()]; usize::from(ROUNDS)];
    let mut extra: Vec<(usize, i64)> = Vec::new();
    for u in &corpus.spaces {
        let game = locator.locate(u.game_id, u.seat)?.game;
        check_space(u)?;
        let bit = 1u64 << (u.space as u32 % 64);
        match masks.get_mut(usize::from(u.round) - 1).and_then(|m| m.get_mut(game)) {
            Some(m) if *m & bit == 0 => *m |= bit,
            Some(_) => {
                let bucket = i64::from(game_bucket.get(game).copied().unwrap_or(0));
                extra.push((game, bucket * SPACE_KEYS + i64::from(u.round) * RS + u.space as i64));
            }
            None => return Err(AnalyticsError::InvalidInput(format!("game {}: space use out of range", u.game_id))),
        }
    }
    let mut space_counts = Dense::new(Part::Spaces, SPACE_KEYS);
    count_spaces(&mut space_counts, game_bucket, by_bucket, &masks);
    for &(_, key) in &extra {
        space_counts.add_one(u32::try_from(key.div_euclid(SPACE_KEYS)).unwrap_or(0), key.rem_euclid(SPACE_KEYS));
    }
    Ok(SpaceSide { masks, extra, space_counts: space_counts.cells() })
}
