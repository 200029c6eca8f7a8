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
pub const DEFAULT_BATCH: usize = 256;

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
