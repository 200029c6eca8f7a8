//! The corpus as polars frames, appended batch by batch, and the rows of chosen games.
//!
//! Every row carries its game's bucket (see [`crate::buckets`]): the tallies are group-bys on
//! `bucket` and a cell key, and fact rows hold the two combined in one integer `key`, because
//! grouping on one integer is much faster than on several columns.
//!
//! | frame | one row per | columns |
//! |---|---|---|
//! | player-games | seat of a game | `bucket` u32, `seat` i32, `winner` bool, `total` i64, `strength` i32 (null = never armed), `first_armed` i32 (the round of the first weapon; null = never armed), `first_expedition` i32 (null = none), `expeditions` u32 |
//! | tiles | first build of a tile by a player-game | `key` i64 = `bucket·1024 + tile·16 + round`, `winner` bool, `total` i64 (of the player-game) |
//! | loot | distinct loot item of a player-game | `key` i64 = `bucket·64 + item·2 + winner` |
//! | games | game | `bucket` u32, and per round `r1`…`r12` u64: the mask of the spaces used in that round of that game (bit = `ActionSpace` index) |
//! | extra uses | second and later use of a (round, space) in a game | `key` i64 = `bucket·1024 + round·64 + space` |
//!
//! Action-space use is held as bits per game — a game uses each space at most once a round
//! under the rules, and about 40 placements per player-game would otherwise be 40 rows each;
//! any repeated use (an imitation recorded as a use of the copied space) goes to the small
//! `extra uses` frame.
//!
//! Rows are written game by game, so the rows of one game are contiguous in every frame: a
//! game is found by where its rows start ([`Starts`]), and the rows of any set of games are
//! gathered without scanning (used for the parts of a month a time bound cuts, see
//! [`crate::buckets`]).

use chronicle_caverna::action_space::ActionSpace;
use polars::prelude::*;

use crate::tally::Part;

/// Rounds of a game.
pub(crate) const ROUNDS: u8 = 12;

/// Multiplier packing (round, space) into one key.
pub(crate) const RS: i64 = 64;

/// Multiplier packing (tile, round) into one key.
pub(crate) const TILE_ROUND: i64 = 16;

/// Multipliers placing the bucket in front of a tile, loot or space cell in a row's `key`.
pub(crate) const TILE_KEYS: i64 = 1024;
pub(crate) const LOOT_KEYS: i64 = 64;
pub(crate) const SPACE_KEYS: i64 = 1024;

/// The name of the games frame's column holding a round's masks of spaces used.
pub(crate) fn round_column(round: u8) -> String {
    format!("r{round}")
}

/// One append-only frame: a large rechunked `main` and a small `tail` of recent batches.
///
/// A batch is stacked onto the tail (no copy of older rows); the tail is rechunked when it has
/// more than [`MAX_TAIL_CHUNKS`] chunks and merged into `main` when it has grown past an eighth
/// of it. Each row is therefore copied a bounded number of times on average, whatever the batch
/// sizes, and a gather sees at most `1 + MAX_TAIL_CHUNKS` chunks.
#[derive(Clone, Debug)]
pub(crate) struct Table {
    main: DataFrame,
    tail: DataFrame,
}

const MAX_TAIL_CHUNKS: usize = 16;

impl Table {
    fn new(empty: DataFrame) -> Table {
        Table { main: empty.clone(), tail: empty }
    }

    fn append(&mut self, batch: DataFrame) -> PolarsResult<()> {
        if batch.height() == 0 {
            return Ok(());
        }
        if self.main.height() == 0 && self.tail.height() == 0 {
            // The first batch (typically the whole stored corpus) becomes the main block as is.
            self.main = batch;
            return Ok(());
        }
        self.tail.vstack_mut_owned(batch)?;
        if self.tail.max_n_chunks() > MAX_TAIL_CHUNKS {
            self.tail.rechunk_mut();
        }
        if self.tail.height() * 8 > self.main.height() {
            let tail = std::mem::replace(&mut self.tail, self.main.clear());
            self.main.vstack_mut_owned(tail)?;
            self.main.rechunk_mut_par();
        }
        Ok(())
    }

    /// The rows at `idx`, in that order.
    fn take(&self, idx: Vec<IdxSize>) -> PolarsResult<DataFrame> {
        let idx = IdxCa::from_vec("idx".into(), idx);
        if self.tail.height() == 0 {
            return self.main.take(&idx);
        }
        self.main.vstack(&self.tail)?.take(&idx)
    }

    pub(crate) fn height(&self) -> usize {
        self.main.height() + self.tail.height()
    }

    fn estimated_bytes(&self) -> usize {
        self.main.estimated_size() + self.tail.estimated_size()
    }
}

/// Rows of the five frames: a batch being added, or the rows of some games.
#[derive(Clone, Debug)]
pub(crate) struct Rows {
    pub(crate) pg: DataFrame,
    pub(crate) tiles: DataFrame,
    pub(crate) loot: DataFrame,
    pub(crate) games: DataFrame,
    pub(crate) extra: DataFrame,
}

fn column<T, P>(name: &str, values: T) -> Column
where
    Series: NamedFrom<T, P>,
    P: ?Sized,
{
    Column::new(name.into(), values)
}

/// Player-game columns as vectors.
#[derive(Default)]
pub(crate) struct PgRows {
    pub(crate) bucket: Vec<u32>,
    pub(crate) seat: Vec<i32>,
    pub(crate) winner: Vec<bool>,
    pub(crate) total: Vec<i64>,
    pub(crate) strength: Vec<Option<i32>>,
    pub(crate) first_armed: Vec<Option<i32>>,
    pub(crate) first_expedition: Vec<Option<i32>>,
    pub(crate) expeditions: Vec<u32>,
}

/// Game columns as vectors: buckets and the (round, space) bits, as one mask of spaces per
/// round and game: bit `space` of `masks[round − 1][game]`.
#[derive(Default)]
pub(crate) struct GameRowsOut {
    pub(crate) bucket: Vec<u32>,
    pub(crate) masks: Vec<Vec<u64>>,
}

// A round's spaces fit in one mask.
const _: () = assert!(ActionSpace::ALL.len() <= 64);

impl Rows {
    pub(crate) fn new(
        pg: PgRows,
        tiles: (Vec<i64>, Vec<bool>, Vec<i64>),
        loot: Vec<i64>,
        games: GameRowsOut,
        extra: Vec<i64>,
    ) -> PolarsResult<Rows> {
        let pg = DataFrame::new_infer_height(vec![
            column("bucket", pg.bucket),
            column("seat", pg.seat),
            column("winner", pg.winner),
            column("total", pg.total),
            column("strength", pg.strength),
            column("first_armed", pg.first_armed),
            column("first_expedition", pg.first_expedition),
            column("expeditions", pg.expeditions),
        ])?;
        let tiles = DataFrame::new_infer_height(vec![
            column("key", tiles.0),
            column("winner", tiles.1),
            column("total", tiles.2),
        ])?;
        let loot = DataFrame::new_infer_height(vec![column("key", loot)])?;
        let n = games.bucket.len();
        let mut cols = vec![column("bucket", games.bucket)];
        let mut masks = games.masks.into_iter();
        for round in 1..=ROUNDS {
            let round_masks = masks.next().filter(|m| m.len() == n).unwrap_or_else(|| vec![0u64; n]);
            cols.push(column(&round_column(round), round_masks));
        }
        let games = DataFrame::new(n, cols)?;
        let extra = DataFrame::new_infer_height(vec![column("key", extra)])?;
        Ok(Rows { pg, tiles, loot, games, extra })
    }

    fn empty() -> PolarsResult<Rows> {
        Rows::new(PgRows::default(), (vec![], vec![], vec![]), vec![], GameRowsOut::default(), vec![])
    }
}

/// Where a game's rows start in each frame (its game row is its index).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Starts {
    pub(crate) pg: IdxSize,
    pub(crate) tiles: IdxSize,
    pub(crate) loot: IdxSize,
    pub(crate) extra: IdxSize,
}

/// The five frames.
#[derive(Clone, Debug)]
pub(crate) struct Tables {
    pg: Table,
    tiles: Table,
    loot: Table,
    games: Table,
    extra: Table,
}

impl Tables {
    pub(crate) fn new() -> PolarsResult<Tables> {
        let empty = Rows::empty()?;
        Ok(Tables {
            pg: Table::new(empty.pg),
            tiles: Table::new(empty.tiles),
            loot: Table::new(empty.loot),
            games: Table::new(empty.games),
            extra: Table::new(empty.extra),
        })
    }

    /// The rows the next game would start at (`None` past the index type).
    pub(crate) fn ends(&self) -> Option<Starts> {
        let at = |t: &Table| IdxSize::try_from(t.height()).ok();
        Some(Starts { pg: at(&self.pg)?, tiles: at(&self.tiles)?, loot: at(&self.loot)?, extra: at(&self.extra)? })
    }

    pub(crate) fn player_games(&self) -> usize {
        self.pg.height()
    }

    pub(crate) fn estimated_bytes(&self) -> usize {
        [&self.pg, &self.tiles, &self.loot, &self.games, &self.extra].iter().map(|t| t.estimated_bytes()).sum()
    }

    /// Adds a batch's rows (written game by game, as [`Starts`] describes).
    pub(crate) fn append(&mut self, rows: Rows) -> PolarsResult<()> {
        self.pg.append(rows.pg)?;
        self.tiles.append(rows.tiles)?;
        self.loot.append(rows.loot)?;
        self.games.append(rows.games)?;
        self.extra.append(rows.extra)
    }

    /// The rows of the games numbered `games` (ascending), given where every game starts, in
    /// the frames `parts` read (the other frames are left empty).
    pub(crate) fn take(&self, games: &[IdxSize], starts: &[Starts], parts: &[Part]) -> PolarsResult<Rows> {
        let ends = self.ends().unwrap_or_default();
        let (mut pg, mut tiles, mut loot, mut extra) = (vec![], vec![], vec![], vec![]);
        for &g in games {
            let (Some(from), next) = (starts.get(g as usize), starts.get(g as usize + 1)) else { continue };
            let to = next.unwrap_or(&ends);
            pg.extend(from.pg..to.pg);
            tiles.extend(from.tiles..to.tiles);
            loot.extend(from.loot..to.loot);
            extra.extend(from.extra..to.extra);
        }
        let reads = |frame: &[Part]| parts.iter().any(|p| frame.contains(p));
        let take = |table: &Table, idx: Vec<IdxSize>, frame: &[Part]| -> PolarsResult<DataFrame> {
            if reads(frame) {
                table.take(idx)
            } else {
                Ok(DataFrame::empty())
            }
        };
        Ok(Rows {
            pg: take(
                &self.pg,
                pg,
                &[
                    Part::Seats,
                    Part::Strength,
                    Part::FirstArmed,
                    Part::FirstExpedition,
                    Part::Expeditions,
                    Part::Scores,
                ],
            )?,
            tiles: take(&self.tiles, tiles, &[Part::Tiles])?,
            loot: take(&self.loot, loot, &[Part::Loot])?,
            games: take(&self.games, games.to_vec(), &[Part::Spaces])?,
            extra: take(&self.extra, extra, &[Part::Spaces])?,
        })
    }
}
