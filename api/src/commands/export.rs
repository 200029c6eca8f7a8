//! `chronicle export`: stored games as tables for notebooks and spreadsheets, written by
//! polars in CSV, Parquet (readable by pandas and pyarrow) or NDJSON. One table per run:
//!
//! | table | one row per | columns |
//! |---|---|---|
//! | `games` | stored game | `game_id`, `game`, `variant`, `status`, `player_count`, `round`, `entries`, `tournament`, `played_at`, `source`, `uploader`, `uploaded_at`, `error_code` |
//! | `player-games` | seat of a game | `game_id`, `seat`, `name`, `player_id`, `total`, `rank`, `winner`, `claimed` |
//! | `score-rows` | seat × score-pad row | `game_id`, `seat`, `row`, `points` |
//! | `furnishings` | tile built (Caverna) | `game_id`, `seat`, `round`, `tile`, `row`, `col`, `via` |
//! | `weapons` | dwarf that held a weapon (Caverna) | `game_id`, `seat`, `dwarf`, `round_forged`, `strength_forged`, `final_strength`, `expeditions` |
//! | `placements` | dwarf placed (Caverna) | `game_id`, `seat`, `round`, `space`, `dwarf`, `imitated` |
//! | `counters` | seat × counter (Village, Above and Below) | `game_id`, `seat`, `counter`, `value` |
//!
//! Games are read in id order, a page at a time, with the filters of `chronicle export --help`
//! (those of the API's `games`); facts exist for complete and incomplete games, not for invalid
//! ones.

use std::io::Write;
use std::path::PathBuf;

use clap::{Args, ValueEnum};
use polars::prelude::*;

use crate::commands::CommandError;
use chronicle_game::{GameKind, Status};
use chronicle_store::{self as store, GameFilter, GameHead, Store};

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    Csv,
    Parquet,
    Ndjson,
}

impl Format {
    pub fn content_type(self) -> &'static str {
        match self {
            Format::Csv => "text/csv; charset=utf-8",
            Format::Parquet => "application/vnd.apache.parquet",
            Format::Ndjson => "application/x-ndjson",
        }
    }

    pub fn extension(self) -> &'static str {
        match self {
            Format::Csv => "csv",
            Format::Parquet => "parquet",
            Format::Ndjson => "ndjson",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Table {
    Games,
    PlayerGames,
    ScoreRows,
    Furnishings,
    Weapons,
    Placements,
    Counters,
}

impl Table {
    /// Whether the table's rows come from a game's facts (Caverna's furnishings, weapons and
    /// placements), which are read only for these tables.
    pub fn needs_facts(self) -> bool {
        matches!(self, Table::Furnishings | Table::Weapons | Table::Placements)
    }
}

#[derive(Args, Debug)]
pub struct ExportArgs {
    /// The table to write.
    #[arg(long, value_enum)]
    pub table: Table,
    #[arg(long, value_enum, default_value = "csv")]
    pub format: Format,
    /// The file to write; `-` writes standard output (CSV and NDJSON only).
    #[arg(long)]
    pub out: PathBuf,
    /// `postgres://…` or `sqlite://PATH`; default: env DATABASE_URL, else sqlite://./data/chronicle.db.
    #[arg(long, value_name = "URL")]
    pub database_url: Option<String>,
    /// Games of this game (`caverna`, `village`, `above-and-below`).
    #[arg(long)]
    pub game: Option<String>,
    /// Games of this player count.
    #[arg(long)]
    pub players: Option<i16>,
    /// Games of this status (`complete`, `incomplete`, `invalid`).
    #[arg(long)]
    pub status: Option<String>,
    /// Games with a player of exactly this name.
    #[arg(long)]
    pub player: Option<String>,
    /// Games whose log names this tournament (`meta.tournament`, exact).
    #[arg(long)]
    pub tournament: Option<String>,
    /// `meta.played_at` at or after this (ISO 8601).
    #[arg(long)]
    pub from: Option<String>,
    /// `meta.played_at` at or before this; a date alone includes that day.
    #[arg(long)]
    pub to: Option<String>,
    /// Games stored with the API token of this name.
    #[arg(long)]
    pub uploader: Option<String>,
    /// Games whose `meta.source` starts with this (`simulate`: every simulated game).
    #[arg(long)]
    pub source: Option<String>,
    /// Leaves out games whose `meta.source` starts with this (e.g. `simulate`).
    #[arg(long)]
    pub exclude_source: Option<String>,
}

/// Games read per page.
const PAGE: i64 = 500;

fn filter_of(a: &ExportArgs) -> Result<GameFilter, String> {
    let game = a
        .game
        .as_deref()
        .map(|g| GameKind::from_id(g).ok_or_else(|| format!("no game `{g}` (caverna, village, above-and-below)")))
        .transpose()?;
    let status = a
        .status
        .as_deref()
        .map(|s| Status::from_id(s).ok_or_else(|| format!("no status `{s}` (complete, incomplete, invalid)")))
        .transpose()?;
    Ok(GameFilter {
        game,
        player_count: a.players,
        status,
        player_name: a.player.clone(),
        meta_tournament: a.tournament.clone(),
        played_from: a.from.clone(),
        played_to: a.to.clone(),
        uploader: a.uploader.clone(),
        source: a.source.clone(),
        exclude_source: a.exclude_source.clone(),
        ..GameFilter::default()
    })
}

/// The columns of one table, filled game by game.
#[derive(Default)]
struct Columns {
    names: Vec<&'static str>,
    ints: Vec<Vec<Option<i64>>>,
    texts: Vec<Vec<Option<String>>>,
    /// For each column in `names`: (is text, index in `ints` or `texts`).
    kinds: Vec<(bool, usize)>,
    row: usize,
}

/// A value of a row.
enum V {
    I(Option<i64>),
    T(Option<String>),
}

impl Columns {
    fn push(&mut self, values: Vec<(&'static str, V)>) {
        if self.names.is_empty() {
            for (name, v) in &values {
                self.names.push(name);
                match v {
                    V::I(_) => {
                        self.kinds.push((false, self.ints.len()));
                        self.ints.push(Vec::new());
                    }
                    V::T(_) => {
                        self.kinds.push((true, self.texts.len()));
                        self.texts.push(Vec::new());
                    }
                }
            }
        }
        for ((_, v), &(_, i)) in values.into_iter().zip(&self.kinds) {
            match v {
                V::I(x) => self.ints[i].push(x),
                V::T(x) => self.texts[i].push(x),
            }
        }
        self.row += 1;
    }

    fn frame(self, empty: &[(&'static str, bool)]) -> Result<DataFrame, String> {
        let height = self.row;
        let columns: Vec<Column> = if self.names.is_empty() {
            empty
                .iter()
                .map(|&(n, text)| {
                    if text {
                        Column::new(n.into(), Vec::<Option<String>>::new())
                    } else {
                        Column::new(n.into(), Vec::<Option<i64>>::new())
                    }
                })
                .collect()
        } else {
            let (mut ints, mut texts) = (self.ints.into_iter(), self.texts.into_iter());
            self.names
                .iter()
                .zip(&self.kinds)
                .map(|(&n, &(text, _))| {
                    if text {
                        Column::new(n.into(), texts.next().unwrap_or_default())
                    } else {
                        Column::new(n.into(), ints.next().unwrap_or_default())
                    }
                })
                .collect()
        };
        DataFrame::new(height, columns).map_err(|e| e.to_string())
    }
}

fn i(x: impl Into<i64>) -> V {
    V::I(Some(x.into()))
}

fn t(x: impl Into<String>) -> V {
    V::T(Some(x.into()))
}

/// The rows one game adds to `table`.
fn rows(table: Table, g: &GameHead, out: &mut Columns) {
    let r = &g.record;
    let id = g.id;
    match table {
        Table::Games => out.push(vec![
            ("game_id", i(id)),
            ("game", V::T(r.game.map(|k| k.id().to_owned()))),
            ("variant", V::T(r.variant.clone())),
            ("status", t(r.status.id())),
            ("player_count", V::I(r.player_count.map(i64::from))),
            ("round", i(r.round_reached)),
            ("entries", i(r.entries_applied)),
            ("tournament", V::T(r.meta.tournament.clone())),
            ("played_at", V::T(r.meta.played_at.clone())),
            ("source", V::T(r.meta.source.clone())),
            ("uploader", V::T(g.uploader.clone())),
            ("uploaded_at", t(g.uploaded_at.clone())),
            ("error_code", V::T(r.error.as_ref().map(|e| e.code.clone()))),
        ]),
        Table::PlayerGames => {
            for p in &r.players {
                out.push(vec![
                    ("game_id", i(id)),
                    ("seat", i(p.seat)),
                    ("name", t(p.name.clone())),
                    ("player_id", V::T(p.id.clone())),
                    ("total", V::I(p.score.as_ref().map(|s| s.total))),
                    ("rank", V::I(p.rank.map(i64::from))),
                    ("winner", i(i64::from(p.winner))),
                    ("claimed", V::I(p.claimed)),
                ]);
            }
        }
        Table::ScoreRows => {
            for p in &r.players {
                for row in p.score.iter().flat_map(|s| &s.rows) {
                    out.push(vec![
                        ("game_id", i(id)),
                        ("seat", i(p.seat)),
                        ("row", t(row.id.clone())),
                        ("points", i(row.points)),
                    ]);
                }
            }
        }
        Table::Furnishings => {
            for f in &r.caverna().furnishings {
                out.push(vec![
                    ("game_id", i(id)),
                    ("seat", i(f.player)),
                    ("round", i(f.round)),
                    ("tile", t(f.tile.clone())),
                    ("row", i(f.row)),
                    ("col", i(f.col)),
                    ("via", t(f.via.clone())),
                ]);
            }
        }
        Table::Weapons => {
            for w in &r.caverna().weapons {
                out.push(vec![
                    ("game_id", i(id)),
                    ("seat", i(w.player)),
                    ("dwarf", i(w.dwarf)),
                    ("round_forged", V::I(w.round_forged.map(i64::from))),
                    ("strength_forged", V::I(w.strength_forged.map(i64::from))),
                    ("final_strength", V::I(w.final_strength.map(i64::from))),
                    ("expeditions", i(w.expeditions)),
                ]);
            }
        }
        Table::Counters => {
            for p in &r.players {
                for c in &p.counters {
                    out.push(vec![
                        ("game_id", i(id)),
                        ("seat", i(p.seat)),
                        ("counter", t(c.id.clone())),
                        ("value", i(c.value)),
                    ]);
                }
            }
        }
        Table::Placements => {
            for p in &r.caverna().placements {
                out.push(vec![
                    ("game_id", i(id)),
                    ("seat", i(p.player)),
                    ("round", i(p.round)),
                    ("space", t(p.space.clone())),
                    ("dwarf", i(p.dwarf)),
                    ("imitated", V::T(p.imitated.clone())),
                ]);
            }
        }
    }
}

/// The columns of an empty table (no game matched).
fn header(table: Table) -> &'static [(&'static str, bool)] {
    match table {
        Table::Games => &[
            ("game_id", false),
            ("game", true),
            ("variant", true),
            ("status", true),
            ("player_count", false),
            ("round", false),
            ("entries", false),
            ("tournament", true),
            ("played_at", true),
            ("source", true),
            ("uploader", true),
            ("uploaded_at", true),
            ("error_code", true),
        ],
        Table::PlayerGames => &[
            ("game_id", false),
            ("seat", false),
            ("name", true),
            ("player_id", true),
            ("total", false),
            ("rank", false),
            ("winner", false),
            ("claimed", false),
        ],
        Table::ScoreRows => &[("game_id", false), ("seat", false), ("row", true), ("points", false)],
        Table::Furnishings => &[
            ("game_id", false),
            ("seat", false),
            ("round", false),
            ("tile", true),
            ("row", false),
            ("col", false),
            ("via", true),
        ],
        Table::Weapons => &[
            ("game_id", false),
            ("seat", false),
            ("dwarf", false),
            ("round_forged", false),
            ("strength_forged", false),
            ("final_strength", false),
            ("expeditions", false),
        ],
        Table::Counters => &[("game_id", false), ("seat", false), ("counter", true), ("value", false)],
        Table::Placements => &[
            ("game_id", false),
            ("seat", false),
            ("round", false),
            ("space", true),
            ("dwarf", false),
            ("imitated", true),
        ],
    }
}

/// The table of `games` (their rows in order) and its row count.
pub fn frame<'a>(table: Table, games: impl IntoIterator<Item = &'a GameHead>) -> Result<(DataFrame, usize), String> {
    let mut columns = Columns::default();
    for g in games {
        rows(table, g, &mut columns);
    }
    let count = columns.row;
    Ok((columns.frame(header(table))?, count))
}

/// Writes a table in `format`.
pub fn write(frame: &mut DataFrame, format: Format, out: &mut dyn Write) -> Result<(), String> {
    write_part(frame, format, true, out)
}

/// Writes a part of a table in `format`: the first part of a CSV table has its header, later
/// parts continue it (a CSV or NDJSON table is its parts one after the other; Parquet is
/// written whole).
pub fn write_part(frame: &mut DataFrame, format: Format, first: bool, out: &mut dyn Write) -> Result<(), String> {
    match format {
        Format::Csv => CsvWriter::new(out).include_header(first).finish(frame),
        Format::Ndjson => JsonWriter::new(out).with_json_format(JsonFormat::JsonLines).finish(frame),
        Format::Parquet => ParquetWriter::new(out).finish(frame).map(|_| ()),
    }
    .map_err(|e| e.to_string())
}

/// Runs `chronicle export`; prints the number of rows written on `report`.
pub fn export_command(args: ExportArgs, stdout: &mut dyn Write, report: &mut dyn Write) -> crate::commands::Outcome {
    let filter = filter_of(&args).map_err(CommandError::Usage)?;
    if args.format == Format::Parquet && args.out.as_os_str() == "-" {
        return Err(CommandError::Usage("Parquet is written to a file (--out PATH), not standard output".into()));
    }
    let url = crate::commands::import::database_url(args.database_url.clone());
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
    let mut columns = Columns::default();
    let store_error = |e: chronicle_store::StoreError| CommandError::Store(e.to_string());
    let games = rt.block_on(async {
        let s = store::open(&url).await.map_err(store_error)?;
        let mut after = 0;
        let mut games = 0usize;
        loop {
            let ids = s.list_games(&filter, after, PAGE).await.map_err(store_error)?;
            let Some(&last) = ids.last() else { break };
            let page = if args.table.needs_facts() { s.games_with_facts(&ids).await } else { s.game_heads(&ids).await };
            for g in page.map_err(store_error)? {
                rows(args.table, &g, &mut columns);
                games += 1;
            }
            after = last;
        }
        s.close().await;
        Ok::<usize, CommandError>(games)
    })?;
    let count = columns.row;
    let mut frame = columns.frame(header(args.table)).map_err(CommandError::Io)?;
    if args.out.as_os_str() == "-" {
        write(&mut frame, args.format, stdout).map_err(CommandError::Io)?;
    } else {
        let at = |e: std::io::Error| CommandError::Io(format!("{}: {e}", args.out.display()));
        let mut file = std::fs::File::create(&args.out).map_err(at)?;
        write(&mut frame, args.format, &mut file).map_err(CommandError::Io)?;
        file.flush().map_err(at)?;
    }
    writeln!(report, "chronicle: {count} rows from {games} games")?;
    Ok(crate::commands::Done::Success)
}
