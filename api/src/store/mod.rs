//! The game store: one interface ([`Store`]) with two implementations, PostgreSQL
//! ([`PgStore`]) and embedded SQLite ([`SqliteStore`]), chosen by a database URL. This module
//! tree is the only place in the workspace with SQL.
//!
//! Both implementations share their code (`common.rs`, compiled once per backend) and apply
//! their migrations (`migrations/`, `migrations/sqlite/`, embedded by `api/build.rs`) when
//! they open. What they store is the [`GameRecord`] derived from the engine's replay
//! (`facts.rs`), the dedupe key (`canonical.rs`) and the compressed raw log.
//!
//! Atomicity: [`Store::insert_games`] and [`Store::replace_records`] write a batch in one
//! transaction; when the batch fails, every game is retried in its own transaction. Either way a
//! game is stored completely (row, log, players, facts) or not at all.

use std::collections::{BTreeMap, HashMap};
use std::future::Future;
use std::io::{Read, Write};
use std::path::PathBuf;

use crate::facts::{GameRecord, Outcome};

mod pg;
mod sqlite;

pub use pg::PgStore;
pub use sqlite::SqliteStore;

/// The embedded migrations: `(version, description, sql)`, sorted by version.
mod embedded {
    include!(concat!(env!("OUT_DIR"), "/migrations.rs"));
}

/// The database used when neither `--database-url` nor `DATABASE_URL` is given.
pub const DEFAULT_DATABASE_URL: &str = "sqlite://./data/chronicle.db";

/// Games per transaction in `chronicle import` and `chronicle reverify`.
pub const DEFAULT_BATCH: usize = 512;

/// A store failure that is not about one game: connecting, migrating, or the database going
/// away. Failures of single games are [`Inserted::Failed`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoreError(pub String);

impl std::fmt::Display for StoreError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for StoreError {}

/// The raw log, compressed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CompressedLog {
    /// `gzip` (the only encoding so far).
    pub encoding: String,
    /// Uncompressed size in bytes.
    pub size: i64,
    pub data: Vec<u8>,
}

impl CompressedLog {
    pub fn gzip(bytes: &[u8]) -> CompressedLog {
        let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        // Writing into a Vec cannot fail.
        let data = enc.write_all(bytes).and_then(|()| enc.finish()).unwrap_or_default();
        CompressedLog { encoding: "gzip".into(), size: i64::try_from(bytes.len()).unwrap_or(i64::MAX), data }
    }

    /// The original bytes.
    pub fn decompress(&self) -> Result<Vec<u8>, String> {
        if self.encoding != "gzip" {
            return Err(format!("unknown log encoding `{}`", self.encoding));
        }
        let mut out = Vec::with_capacity(usize::try_from(self.size).unwrap_or(0).min(1 << 26));
        flate2::read::GzDecoder::new(&self.data[..])
            .read_to_end(&mut out)
            .map_err(|e| format!("stored log does not decompress: {e}"))?;
        Ok(out)
    }
}

/// A game to store: its dedupe key, provenance, raw log and replay record.
#[derive(Clone, Debug)]
pub struct NewGame {
    /// Lower-case hex SHA-256 of the canonical log (`canonical.rs`).
    pub sha256: String,
    pub format: Option<String>,
    pub uploader: Option<String>,
    pub log: CompressedLog,
    pub record: GameRecord,
}

/// What happened to one game of [`Store::insert_games`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Inserted {
    /// Stored now, with this id.
    New(i64),
    /// Already stored (or earlier in the same batch) under this id; nothing changed.
    Duplicate(i64),
    /// Not stored; the database's reason.
    Failed(String),
}

/// A stored log for `chronicle reverify`.
#[derive(Clone, Debug)]
pub struct StoredLog {
    pub id: i64,
    pub sha256: String,
    pub log: CompressedLog,
}

/// A game read back whole.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredGame {
    pub id: i64,
    pub sha256: String,
    pub format: Option<String>,
    pub uploader: Option<String>,
    /// As the database prints it (UTC).
    pub uploaded_at: String,
    pub log: CompressedLog,
    pub record: GameRecord,
}

/// A game without its raw log and facts: what the API shows of a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameHead {
    pub id: i64,
    pub sha256: String,
    pub format: Option<String>,
    pub uploader: Option<String>,
    /// As the database prints it (UTC, RFC 3339).
    pub uploaded_at: String,
    /// The verdict and the players; the fact lists are empty.
    pub record: GameRecord,
}

/// Which games `Store::list_games` returns; every set field must match.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GameFilter {
    pub player_count: Option<i16>,
    pub status: Option<chronicle_engine::Status>,
    /// Games added to this tournament.
    pub tournament: Option<i64>,
    /// Games with a player of exactly this name.
    pub player_name: Option<String>,
    /// `meta.played_at` at or after this text (ISO 8601 compares as text).
    pub played_from: Option<String>,
    /// `meta.played_at` at or before this text; a date alone includes that whole day.
    pub played_to: Option<String>,
}

/// Whom a bearer token belongs to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Bearer {
    /// An API token (`chronicle token create`).
    Api { id: i64, name: String },
    /// The organizer token of a tournament.
    Organizer { tournament: i64 },
}

/// A tournament as stored (without its organizer token's hash).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TournamentRow {
    pub id: i64,
    pub name: String,
    /// As the database prints it (UTC, RFC 3339).
    pub created_at: String,
}

/// The game store. Every method is one round of transactions; see the module documentation
/// for atomicity.
pub trait Store: Sync {
    /// `postgres` or `sqlite`.
    fn backend(&self) -> &'static str;

    /// Stores games, skipping those whose dedupe key is already stored. One result per game,
    /// in order. `Err` only when the database cannot be used at all (nothing of the failing
    /// batch is stored then).
    fn insert_games(&self, games: &[NewGame]) -> impl Future<Output = Result<Vec<Inserted>, StoreError>> + Send;

    /// The ids of the games stored under these dedupe keys (keys not stored are left out).
    fn known_games(&self, sha256s: &[String]) -> impl Future<Output = Result<HashMap<String, i64>, StoreError>> + Send;

    /// Up to `limit` stored logs with an id greater than `after`, by id.
    fn logs_after(&self, after: i64, limit: i64) -> impl Future<Output = Result<Vec<StoredLog>, StoreError>> + Send;

    /// The stored outcomes of these games (absent ids are left out).
    fn outcomes(&self, ids: &[i64]) -> impl Future<Output = Result<BTreeMap<i64, Outcome>, StoreError>> + Send;

    /// Replaces the verdict, players and facts of stored games (the dedupe key, provenance and
    /// raw log stay), in one transaction.
    fn replace_records(&self, records: &[(i64, GameRecord)]) -> impl Future<Output = Result<(), StoreError>> + Send;

    /// The id of the game with this dedupe key.
    fn game_id(&self, sha256: &str) -> impl Future<Output = Result<Option<i64>, StoreError>> + Send;

    /// One game read back whole.
    fn game(&self, id: i64) -> impl Future<Output = Result<Option<StoredGame>, StoreError>> + Send;

    /// Number of stored games.
    fn game_count(&self) -> impl Future<Output = Result<i64, StoreError>> + Send;

    /// The games with these ids, without logs and facts, in the order of `ids` (absent ids
    /// are left out).
    fn game_heads(&self, ids: &[i64]) -> impl Future<Output = Result<Vec<GameHead>, StoreError>> + Send;

    /// The raw log of a game.
    fn game_log(&self, id: i64) -> impl Future<Output = Result<Option<CompressedLog>, StoreError>> + Send;

    /// Up to `limit` ids of games matching `filter` with an id greater than `after`, by id.
    fn list_games(
        &self,
        filter: &GameFilter,
        after: i64,
        limit: i64,
    ) -> impl Future<Output = Result<Vec<i64>, StoreError>> + Send;

    /// Stores the hash of a new API token; returns its id.
    fn create_token(&self, name: &str, sha256: &str) -> impl Future<Output = Result<i64, StoreError>> + Send;

    /// Whom the token with this hash belongs to.
    fn bearer(&self, sha256: &str) -> impl Future<Output = Result<Option<Bearer>, StoreError>> + Send;

    /// Creates a tournament whose organizer token has this hash.
    fn create_tournament(
        &self,
        name: &str,
        organizer_sha256: &str,
        created_by: Option<i64>,
    ) -> impl Future<Output = Result<TournamentRow, StoreError>> + Send;

    fn tournament(&self, id: i64) -> impl Future<Output = Result<Option<TournamentRow>, StoreError>> + Send;

    /// Adds stored games to a tournament (games already in it stay, once). When some id is not
    /// a stored game nothing changes and those ids are returned.
    fn add_tournament_games(
        &self,
        tournament: i64,
        games: &[i64],
    ) -> impl Future<Output = Result<Vec<i64>, StoreError>> + Send;

    /// The ids of a tournament's games, by id.
    fn tournament_games(&self, tournament: i64) -> impl Future<Output = Result<Vec<i64>, StoreError>> + Send;

    /// Up to `limit` complete games with an id greater than `after`, by id, with their players
    /// and facts (the statistics' input).
    fn complete_records(
        &self,
        after: i64,
        limit: i64,
    ) -> impl Future<Output = Result<Vec<(i64, GameRecord)>, StoreError>> + Send;

    /// Whether the database answers (`/readyz`).
    fn ping(&self) -> impl Future<Output = Result<(), StoreError>> + Send;
}

/// Every operation of [`Backend`] is that of the store it holds.
macro_rules! delegate {
    ($self:ident, $s:ident => $call:expr) => {
        match $self {
            Backend::Postgres($s) => $call,
            Backend::Sqlite($s) => $call,
        }
    };
}

impl Store for Backend {
    fn backend(&self) -> &'static str {
        delegate!(self, s => s.backend())
    }

    async fn insert_games(&self, games: &[NewGame]) -> Result<Vec<Inserted>, StoreError> {
        delegate!(self, s => s.insert_games(games).await)
    }

    async fn known_games(&self, sha256s: &[String]) -> Result<HashMap<String, i64>, StoreError> {
        delegate!(self, s => s.known_games(sha256s).await)
    }

    async fn logs_after(&self, after: i64, limit: i64) -> Result<Vec<StoredLog>, StoreError> {
        delegate!(self, s => s.logs_after(after, limit).await)
    }

    async fn outcomes(&self, ids: &[i64]) -> Result<BTreeMap<i64, Outcome>, StoreError> {
        delegate!(self, s => s.outcomes(ids).await)
    }

    async fn replace_records(&self, records: &[(i64, GameRecord)]) -> Result<(), StoreError> {
        delegate!(self, s => s.replace_records(records).await)
    }

    async fn game_id(&self, sha256: &str) -> Result<Option<i64>, StoreError> {
        delegate!(self, s => s.game_id(sha256).await)
    }

    async fn game(&self, id: i64) -> Result<Option<StoredGame>, StoreError> {
        delegate!(self, s => s.game(id).await)
    }

    async fn game_count(&self) -> Result<i64, StoreError> {
        delegate!(self, s => s.game_count().await)
    }

    async fn game_heads(&self, ids: &[i64]) -> Result<Vec<GameHead>, StoreError> {
        delegate!(self, s => s.game_heads(ids).await)
    }

    async fn game_log(&self, id: i64) -> Result<Option<CompressedLog>, StoreError> {
        delegate!(self, s => s.game_log(id).await)
    }

    async fn list_games(&self, filter: &GameFilter, after: i64, limit: i64) -> Result<Vec<i64>, StoreError> {
        delegate!(self, s => s.list_games(filter, after, limit).await)
    }

    async fn create_token(&self, name: &str, sha256: &str) -> Result<i64, StoreError> {
        delegate!(self, s => s.create_token(name, sha256).await)
    }

    async fn bearer(&self, sha256: &str) -> Result<Option<Bearer>, StoreError> {
        delegate!(self, s => s.bearer(sha256).await)
    }

    async fn create_tournament(
        &self,
        name: &str,
        organizer_sha256: &str,
        created_by: Option<i64>,
    ) -> Result<TournamentRow, StoreError> {
        delegate!(self, s => s.create_tournament(name, organizer_sha256, created_by).await)
    }

    async fn tournament(&self, id: i64) -> Result<Option<TournamentRow>, StoreError> {
        delegate!(self, s => s.tournament(id).await)
    }

    async fn add_tournament_games(&self, tournament: i64, games: &[i64]) -> Result<Vec<i64>, StoreError> {
        delegate!(self, s => s.add_tournament_games(tournament, games).await)
    }

    async fn tournament_games(&self, tournament: i64) -> Result<Vec<i64>, StoreError> {
        delegate!(self, s => s.tournament_games(tournament).await)
    }

    async fn complete_records(&self, after: i64, limit: i64) -> Result<Vec<(i64, GameRecord)>, StoreError> {
        delegate!(self, s => s.complete_records(after, limit).await)
    }

    async fn ping(&self) -> Result<(), StoreError> {
        delegate!(self, s => s.ping().await)
    }
}

impl Backend {
    /// Closes every connection.
    pub async fn close(&self) {
        delegate!(self, s => s.close().await)
    }
}

/// A store opened from a URL.
pub enum Backend {
    Postgres(PgStore),
    Sqlite(SqliteStore),
}

/// Where a database URL points.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Location {
    /// The URL as given (`postgres://…` or `postgresql://…`).
    Postgres(String),
    /// The database file.
    Sqlite(PathBuf),
}

/// Reads a database URL: `postgres://…`, `postgresql://…`, `sqlite://PATH` or `sqlite:PATH`.
pub fn parse_url(url: &str) -> Result<Location, String> {
    if url.starts_with("postgres://") || url.starts_with("postgresql://") {
        return Ok(Location::Postgres(url.to_owned()));
    }
    if let Some(path) = url.strip_prefix("sqlite://").or_else(|| url.strip_prefix("sqlite:")) {
        let path = path.split('?').next().unwrap_or_default();
        if path.is_empty() {
            return Err("sqlite URL without a path; use sqlite://PATH".into());
        }
        return Ok(Location::Sqlite(PathBuf::from(path)));
    }
    let scheme = url.split("://").next().filter(|s| *s != url).unwrap_or("(none)");
    Err(format!("unsupported database URL scheme `{scheme}`; use postgres://… or sqlite://PATH"))
}

/// Opens the store a URL names, creating the SQLite file and its directory when missing, and
/// applies the pending migrations.
pub async fn open(url: &str) -> Result<Backend, StoreError> {
    match parse_url(url).map_err(StoreError)? {
        Location::Postgres(url) => Ok(Backend::Postgres(PgStore::open(&url).await?)),
        Location::Sqlite(path) => Ok(Backend::Sqlite(SqliteStore::open(&path).await?)),
    }
}

/// The embedded migrations as sqlx's migrator wants them.
#[derive(Debug)]
struct Embedded(&'static [(i64, &'static str, &'static str)]);

type BoxDynError = Box<dyn std::error::Error + Send + Sync>;

impl<'s> sqlx::migrate::MigrationSource<'s> for Embedded {
    fn resolve(
        self,
    ) -> std::pin::Pin<Box<dyn Future<Output = Result<Vec<sqlx::migrate::Migration>, BoxDynError>> + Send + 's>> {
        let migrations = self
            .0
            .iter()
            .map(|&(version, description, sql)| {
                sqlx::migrate::Migration::new(
                    version,
                    description.replace('_', " ").into(),
                    sqlx::migrate::MigrationType::Simple,
                    sql.into(),
                    sql.starts_with("-- no-transaction"),
                )
            })
            .collect();
        Box::pin(async move { Ok(migrations) })
    }
}

async fn migrator(which: &'static [(i64, &'static str, &'static str)]) -> Result<sqlx::migrate::Migrator, StoreError> {
    sqlx::migrate::Migrator::new(Embedded(which)).await.map_err(|e| StoreError(format!("loading migrations: {e}")))
}

/// Version and name of each embedded migration.
pub type MigrationNames = Vec<(i64, &'static str)>;

/// The embedded migration versions and names: (PostgreSQL, SQLite).
pub fn migration_names() -> (MigrationNames, MigrationNames) {
    let names = |m: &'static [(i64, &'static str, &'static str)]| m.iter().map(|&(v, n, _)| (v, n)).collect();
    (names(embedded::POSTGRES), names(embedded::SQLITE))
}

/// Errors that end a whole import (the database is gone) rather than one game.
fn is_fatal(e: &sqlx::Error) -> bool {
    !matches!(e, sqlx::Error::Database(_))
}

fn db_error(context: &str, e: sqlx::Error) -> StoreError {
    StoreError(format!("{context}: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls() {
        assert_eq!(parse_url("sqlite://./data/x.db"), Ok(Location::Sqlite("./data/x.db".into())));
        assert_eq!(parse_url("sqlite:/tmp/x.db?mode=rwc"), Ok(Location::Sqlite("/tmp/x.db".into())));
        assert!(matches!(parse_url("postgres://u@h/db"), Ok(Location::Postgres(_))));
        assert!(parse_url("mysql://u:secret@h/db").unwrap_err().contains("`mysql`"));
        assert!(!parse_url("mysql://u:secret@h/db").unwrap_err().contains("secret"));
        assert!(parse_url("sqlite://").is_err());
        assert!(parse_url("nonsense").is_err());
    }

    #[test]
    fn gzip_round_trip() {
        let log = CompressedLog::gzip(b"{\"format\": \"caverna-log/1\"}");
        assert_eq!(log.size, 27);
        assert_eq!(log.decompress().unwrap(), b"{\"format\": \"caverna-log/1\"}");
        let bad = CompressedLog { data: vec![1, 2, 3], ..log };
        assert!(bad.decompress().is_err());
    }

    #[test]
    fn both_stores_have_the_same_migrations() {
        let (pg, lite) = migration_names();
        assert!(!pg.is_empty());
        assert_eq!(pg, lite);
    }
}
