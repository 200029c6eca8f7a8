//! The corpus as polars frames, appended batch by batch, and the filtered views queries read.
//!
//! Layout (`pg` is the dense player-game index, i.e. the row number in the player-game frame,
//! and `g` the dense game index, the row number in the game frame; neither changes once
//! assigned):
//!
//! | frame | one row per | columns |
//! |---|---|---|
//! | player-games | seat of a game | `game` i64, `seat` i32, `pc` i32, `full` bool, `tournament` u32 (code, null = none), `played` i64 (seconds UTC, null = missing or unreadable), `total` i64, `rank` i32, `winner` bool, `strength` i32 (null = never armed), `expeditions` u32 |
//! | tiles | first build of a tile by a player-game | `pg` idx, `key` i32 = `(tile·16 + round)·8 + pc`, `winner` bool, `total` i64 |
//! | loot | distinct loot item of a player-game | `pg` idx, `key` i32 = `item·2 + winner` |
//! | games | game | `pc`, `full`, `tournament`, `played` as above, and one bool column per (round, space): used in that round of that game |
//! | extra uses | second and later use of a (round, space) in a game | `g` idx, `rs` i32 = `round·64 + space` |
//!
//! Every filter is a predicate on games. It is evaluated on the player-game frame once per query
//! (a boolean mask indexed by `pg`) and carried to the tile and loot rows by gathering the mask
//! at their `pg`; the game frame evaluates it directly. The player-game attributes the tile and
//! loot statistics need are copied onto their rows when a batch is added (they never change),
//! and each of those rows carries one small integer `key` combining its groups, so the tile and
//! the loot statistics are one single-key group-by each (grouping on one integer is much faster
//! than on several columns). Action-space use is held as bits per game — a game uses each space
//! at most once a round under the rules, so counting uses under a filter is ANDing the
//! selection into each bit column and counting the set bits (about 40 placements per
//! player-game would otherwise be 40 rows each); any repeated use (an imitation recorded as a
//! use of the copied space) goes to the small `extra uses` frame and is added on.

use std::collections::{BTreeSet, HashMap};

use chronicle_engine::action_space::ActionSpace;
use polars::prelude::*;

use crate::error::AnalyticsError;
use crate::filter::{parse_played_at, StatsFilter};
use crate::input::{Corpus, FurnishingSet, Locator};

/// Multiplier packing (round, space) into one key.
pub(crate) const RS: i32 = 64;

/// Rounds of a game.
pub(crate) const ROUNDS: u8 = 12;

/// Multipliers packing (tile, round, player count) into a tile row's key.
pub(crate) const TILE_ROUND: i32 = 16;
pub(crate) const TILE_PC: i32 = 8;

/// The name of the bit column of a (round, space).
pub(crate) fn space_column(round: u8, space: usize) -> String {
    format!("r{round}_{space}")
}

/// One append-only frame: a large rechunked `main` and a small `tail` of recent batches.
///
/// A batch is stacked onto the tail (no copy of older rows); the tail is rechunked when it has
/// more than [`MAX_TAIL_CHUNKS`] chunks and merged into `main` when it has grown past an eighth
/// of it. Each row is therefore copied a bounded number of times on average, whatever the batch
/// sizes, and a query sees at most `1 + MAX_TAIL_CHUNKS` chunks.
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

    /// All rows, in append order.
    pub(crate) fn frame(&self) -> PolarsResult<DataFrame> {
        if self.tail.height() == 0 {
            return Ok(self.main.clone());
        }
        if self.main.height() == 0 {
            return Ok(self.tail.clone());
        }
        self.main.vstack(&self.tail)
    }

    pub(crate) fn height(&self) -> usize {
        self.main.height() + self.tail.height()
    }

    fn estimated_bytes(&self) -> usize {
        self.main.estimated_size() + self.tail.estimated_size()
    }
}

/// The four frames and the dictionaries that translate a batch into them.
#[derive(Clone, Debug)]
pub(crate) struct Tables {
    pub(crate) pg: Table,
    pub(crate) tiles: Table,
    pub(crate) loot: Table,
    pub(crate) games: Table,
    pub(crate) extra: Table,
    /// Tournament name → code.
    tournaments: HashMap<String, u32>,
    /// Games already present (a game is added once).
    game_ids: BTreeSet<i64>,
}

fn column<T, P>(name: &str, values: T) -> Column
where
    Series: NamedFrom<T, P>,
    P: ?Sized,
{
    Column::new(name.into(), values)
}

fn pg_frame(rows: PgRows) -> PolarsResult<DataFrame> {
    DataFrame::new_infer_height(vec![
        column("game", rows.game),
        column("seat", rows.seat),
        column("pc", rows.pc),
        column("full", rows.full),
        column("tournament", rows.tournament),
        column("played", rows.played),
        column("total", rows.total),
        column("rank", rows.rank),
        column("winner", rows.winner),
        column("strength", rows.strength),
        column("expeditions", rows.expeditions),
    ])
}

fn idx_col(name: &str, values: Vec<IdxSize>) -> Column {
    IdxCa::from_vec(name.into(), values).into_column()
}

fn tiles_frame(pg: Vec<IdxSize>, key: Vec<i32>, winner: Vec<bool>, total: Vec<i64>) -> PolarsResult<DataFrame> {
    DataFrame::new_infer_height(vec![idx_col("pg", pg), column("key", key), column("winner", winner), column("total", total)])
}

fn loot_frame(pg: Vec<IdxSize>, key: Vec<i32>) -> PolarsResult<DataFrame> {
    DataFrame::new_infer_height(vec![idx_col("pg", pg), column("key", key)])
}

fn extra_frame(g: Vec<IdxSize>, rs: Vec<i32>) -> PolarsResult<DataFrame> {
    DataFrame::new_infer_height(vec![idx_col("g", g), column("rs", rs)])
}

/// Game attributes and the (round, space) bits, `bits[(round − 1)·spaces + space]`.
#[derive(Default)]
struct GameRowsOut {
    pc: Vec<i32>,
    full: Vec<bool>,
    tournament: Vec<Option<u32>>,
    played: Vec<Option<i64>>,
    bits: Vec<Vec<bool>>,
}

fn games_frame(rows: GameRowsOut) -> PolarsResult<DataFrame> {
    let n = rows.pc.len();
    let mut cols = vec![
        column("pc", rows.pc),
        column("full", rows.full),
        column("tournament", rows.tournament),
        column("played", rows.played),
    ];
    let spaces = ActionSpace::ALL.len();
    let mut bits = rows.bits.into_iter();
    for round in 1..=ROUNDS {
        for space in 0..spaces {
            let values = bits.next().unwrap_or_else(|| vec![false; n]);
            cols.push(column(&space_column(round, space), values));
        }
    }
    DataFrame::new(n, cols)
}

#[derive(Default)]
struct PgRows {
    game: Vec<i64>,
    seat: Vec<i32>,
    pc: Vec<i32>,
    full: Vec<bool>,
    tournament: Vec<Option<u32>>,
    played: Vec<Option<i64>>,
    total: Vec<i64>,
    rank: Vec<i32>,
    winner: Vec<bool>,
    strength: Vec<Option<i32>>,
    expeditions: Vec<u32>,
}

impl Tables {
    pub(crate) fn new() -> Result<Tables, AnalyticsError> {
        Ok(Tables {
            pg: Table::new(pg_frame(PgRows::default())?),
            tiles: Table::new(tiles_frame(vec![], vec![], vec![], vec![])?),
            loot: Table::new(loot_frame(vec![], vec![])?),
            games: Table::new(games_frame(GameRowsOut::default())?),
            extra: Table::new(extra_frame(vec![], vec![])?),
            tournaments: HashMap::new(),
            game_ids: BTreeSet::new(),
        })
    }

    pub(crate) fn player_games(&self) -> usize {
        self.pg.height()
    }

    pub(crate) fn games(&self) -> usize {
        self.game_ids.len()
    }

    /// Estimated heap size of the frames (not of the dictionaries).
    pub(crate) fn estimated_bytes(&self) -> usize {
        self.pg.estimated_bytes() + self.tiles.estimated_bytes() + self.loot.estimated_bytes()
            + self.games.estimated_bytes()
            + self.extra.estimated_bytes()
    }

    /// Adds a validated batch. All-or-nothing: the batch is checked and translated before any
    /// frame changes.
    pub(crate) fn append(&mut self, corpus: &Corpus) -> Result<(), AnalyticsError> {
        let index = corpus.check()?;
        let order = index.game_order();
        if let Some(dup) = order.iter().find(|g| self.game_ids.contains(g)) {
            return Err(AnalyticsError::InvalidInput(format!("game {dup} was already added")));
        }
        let base = self.pg.height();
        let base_games = self.games.height();
        let too_many = || AnalyticsError::InvalidInput("more player-games than the index type holds".into());
        if base.checked_add(corpus.player_games.len()).map_or(true, |n| IdxSize::try_from(n).is_err()) {
            return Err(too_many());
        }
        let mut tournaments = self.tournaments.clone();
        let mut rows = PgRows::default();
        for p in &corpus.player_games {
            let next = u32::try_from(tournaments.len()).map_err(|_| too_many())?;
            rows.game.push(p.game_id);
            rows.seat.push(i32::from(p.seat));
            rows.pc.push(i32::from(p.player_count));
            rows.full.push(p.furnishing_set == FurnishingSet::Full);
            rows.tournament.push(p.tournament.as_ref().map(|t| *tournaments.entry(t.clone()).or_insert(next)));
            rows.played.push(p.played_at.as_deref().and_then(parse_played_at));
            rows.total.push(p.total);
            rows.rank.push(i32::from(p.rank));
            rows.winner.push(p.winner);
            rows.strength.push(p.max_strength.map(i32::from));
            rows.expeditions.push(p.expeditions);
        }
        let mut at = Locator::new(&index);
        // First build of each tile per player-game: sort (row, tile, round), keep the first of
        // each (row, tile).
        let mut tiles: Vec<(usize, i32, i32)> = Vec::with_capacity(corpus.tiles.len());
        for t in &corpus.tiles {
            tiles.push((at.locate(t.game_id, t.seat)?.row, t.tile as i32, i32::from(t.round)));
        }
        tiles.sort_unstable();
        tiles.dedup_by(|later, first| (later.0, later.1) == (first.0, first.1));
        let mut loot: Vec<(usize, i32)> = Vec::with_capacity(corpus.loot.len());
        for l in &corpus.loot {
            loot.push((at.locate(l.game_id, l.seat)?.row, l.item as i32));
        }
        loot.sort_unstable();
        loot.dedup();
        let idx = |row: usize| IdxSize::try_from(base + row).map_err(|_| too_many());
        let (mut t_pg, mut t_key, mut t_winner, mut t_total) = (vec![], vec![], vec![], vec![]);
        for (row, tile, round) in tiles {
            let (pc, winner, total) = match (rows.pc.get(row), rows.winner.get(row), rows.total.get(row)) {
                (Some(&pc), Some(&w), Some(&t)) => (pc, w, t),
                _ => return Err(AnalyticsError::InvalidInput("tile row without its player-game".into())),
            };
            t_pg.push(idx(row)?);
            t_key.push((tile * TILE_ROUND + round) * TILE_PC + pc);
            t_winner.push(winner);
            t_total.push(total);
        }
        let (mut l_pg, mut l_key) = (vec![], vec![]);
        for (row, item) in loot {
            let winner = rows.winner.get(row).copied().unwrap_or(false);
            l_pg.push(idx(row)?);
            l_key.push(item * 2 + i32::from(winner));
        }
        // Games in batch order, with their (round, space) bits.
        let spaces = ActionSpace::ALL.len();
        let mut games = GameRowsOut { bits: vec![vec![false; order.len()]; usize::from(ROUNDS) * spaces], ..Default::default() };
        for id in &order {
            let first = index.first_row(*id).and_then(|r| corpus.player_games.get(r));
            let Some(p) = first else {
                return Err(AnalyticsError::InvalidInput(format!("game {id} without player-games")));
            };
            games.pc.push(i32::from(p.player_count));
            games.full.push(p.furnishing_set == FurnishingSet::Full);
            games.tournament.push(p.tournament.as_ref().and_then(|t| tournaments.get(t).copied()));
            games.played.push(p.played_at.as_deref().and_then(parse_played_at));
        }
        let (mut e_g, mut e_rs) = (vec![], vec![]);
        for u in &corpus.spaces {
            let game = at.locate(u.game_id, u.seat)?.game;
            let bit = (usize::from(u.round) - 1) * spaces + u.space as usize;
            match games.bits.get_mut(bit).and_then(|b| b.get_mut(game)) {
                Some(b) if !*b => *b = true,
                Some(_) => {
                    e_g.push(IdxSize::try_from(base_games + game).map_err(|_| too_many())?);
                    e_rs.push(i32::from(u.round) * RS + u.space as i32);
                }
                None => return Err(AnalyticsError::InvalidInput(format!("game {}: space use out of range", u.game_id))),
            }
        }
        let batch = (
            pg_frame(rows)?,
            tiles_frame(t_pg, t_key, t_winner, t_total)?,
            loot_frame(l_pg, l_key)?,
            games_frame(games)?,
            extra_frame(e_g, e_rs)?,
        );
        // Nothing below fails on well-formed frames of the same schema; a failure here would
        // leave the frames as they were before the failing table.
        self.pg.append(batch.0)?;
        self.tiles.append(batch.1)?;
        self.loot.append(batch.2)?;
        self.games.append(batch.3)?;
        self.extra.append(batch.4)?;
        self.tournaments = tournaments;
        self.game_ids.extend(order);
        Ok(())
    }

    /// The selection a filter makes.
    pub(crate) fn select(&self, filter: &StatsFilter) -> Result<Selection, AnalyticsError> {
        let (from, until) = filter.played_bounds()?;
        if filter.selects_all() {
            return Ok(Selection { pred: None, mask: None });
        }
        let mut pred = lit(true);
        if let Some(n) = filter.player_count {
            pred = pred.and(col("pc").eq(lit(i32::from(n))));
        }
        if let Some(set) = filter.furnishing_set {
            pred = pred.and(col("full").eq(lit(set == FurnishingSet::Full)));
        }
        if let Some(name) = &filter.tournament {
            match self.tournaments.get(name) {
                Some(&code) => pred = pred.and(col("tournament").eq(lit(code))),
                None => pred = lit(false),
            }
        }
        if let Some(from) = from {
            pred = pred.and(col("played").gt_eq(lit(from)));
        }
        if let Some(until) = until {
            pred = pred.and(col("played").lt(lit(until)));
        }
        let pred = pred.fill_null(lit(false));
        let mask = mask_of(&self.pg.frame()?, &pred)?;
        Ok(Selection { pred: Some(pred), mask: Some(mask) })
    }
}

/// `pred` on every row of `frame`.
fn mask_of(frame: &DataFrame, pred: &Expr) -> PolarsResult<BooleanChunked> {
    let height = frame.height();
    let out = frame.clone().lazy().select([pred.clone().alias("keep")]).collect()?;
    let keep = out.column("keep")?.bool()?.clone();
    // A literal predicate comes back as one row; spread it over every row.
    Ok(if keep.len() == height { keep } else { BooleanChunked::full("keep".into(), keep.get(0).unwrap_or(false), height) })
}

/// A filter evaluated on the player-game frame: `mask[pg]` says whether player-game `pg` is in
/// (`None`: everything is).
#[derive(Clone, Debug)]
pub(crate) struct Selection {
    pred: Option<Expr>,
    mask: Option<BooleanChunked>,
}

impl Selection {
    /// The selected player-games.
    pub(crate) fn player_games(&self, t: &Tables) -> PolarsResult<DataFrame> {
        let frame = t.pg.frame()?;
        match &self.mask {
            None => Ok(frame),
            Some(mask) => frame.filter(mask),
        }
    }

    /// The selected rows of the tile or loot frame.
    pub(crate) fn facts(&self, table: &Table) -> PolarsResult<DataFrame> {
        let frame = table.frame()?;
        match &self.mask {
            None => Ok(frame),
            Some(mask) => {
                let keep = mask.take(frame.column("pg")?.idx()?)?;
                frame.filter(&keep)
            }
        }
    }

    /// For each bool column of the game frame named in `columns`, the number of selected games
    /// in which it is set (one row, same column names). The selection is ANDed into each
    /// column's bits rather than filtering the rows: bit operations and a population count.
    pub(crate) fn count_games(&self, t: &Tables, columns: &[String]) -> PolarsResult<DataFrame> {
        let frame = t.games.frame()?.lazy();
        match &self.pred {
            None => frame.select(columns.iter().map(|c| col(c.as_str()).sum()).collect::<Vec<_>>()).collect(),
            Some(pred) => frame
                .with_column(pred.clone().alias("__keep"))
                .select(columns.iter().map(|c| col(c.as_str()).and(col("__keep")).sum().alias(c.as_str())).collect::<Vec<_>>())
                .collect(),
        }
    }

    /// The selected rows of the extra-uses frame.
    pub(crate) fn extra(&self, t: &Tables) -> PolarsResult<DataFrame> {
        let frame = t.extra.frame()?;
        match &self.pred {
            Some(pred) if frame.height() > 0 => {
                let mask = mask_of(&t.games.frame()?, pred)?;
                let keep = mask.take(frame.column("g")?.idx()?)?;
                frame.filter(&keep)
            }
            _ => Ok(frame),
        }
    }
}
