//! The embedded SQLite store (`sqlite://PATH`, the default). Schema: `migrations/sqlite/*.sql`.
//! Write-ahead log, so readers never block the writer and a killed writer leaves the last
//! committed state.

use std::path::Path;
use std::time::Duration;

use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous};
use sqlx::Sqlite as Db;

use crate::{migrate_error, migrator, Store};

/// Take the write lock when the transaction starts, so that a second writer waits (busy
/// timeout) instead of failing when it upgrades a read transaction.
const BEGIN: &str = "BEGIN IMMEDIATE";
/// Below SQLite's default limit of 32,766 bind parameters per statement.
const MAX_BINDS: usize = 30_000;
/// A timestamp column as RFC 3339 UTC text (stored that way).
fn utc(column: &str) -> String {
    column.to_owned()
}

/// The current time, as stored in timestamp columns (RFC 3339 UTC text, which sorts by time).
const NOW: &str = "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')";
/// The current time plus the seconds of bind parameter `param` (`$n`), as stored.
fn now_plus_seconds(param: &str) -> String {
    format!("strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '+' || {param} || ' seconds')")
}

/// After the readiness probe's write: move the write-ahead log into the database file and cut
/// the log to nothing. A commit only appends to the log, which reuses its own space, so it can
/// succeed on a full disk; the checkpoint must grow the database file, and fails there.
const PROBE_FLUSH: Option<&str> = Some("PRAGMA wal_checkpoint(TRUNCATE)");

/// Counting transactions of the statistics tallies need no lock of their own: `BEGIN
/// IMMEDIATE` already runs writers one at a time.
const TALLY_LOCK: Option<&str> = None;

/// SQLite has no notifications: one process serves an embedded store.
const NOTIFY: Option<&str> = None;

/// Makes a text comparison byte-wise (ISO 8601 timestamps then sort by time).
const BYTE_ORDER: &str = "";

/// The store type the shared code (`common.rs`) implements [`Store`] for.
type Backend = SqliteStore;
const BACKEND: &str = "sqlite";

include!("common.rs");
include!("queries.rs");
include!("tallies.rs");
include!("models.rs");
include!("analyses.rs");

/// Multi-row `INSERT … VALUES`, as many rows per statement as the bind limit allows.
async fn bulk_insert(conn: &mut Conn, table: Table<'_>) -> Result<(), sqlx::Error> {
    let head = table.head();
    let per = (MAX_BINDS / table.columns.len().max(1)).max(1);
    let mut start = 0;
    while start < table.rows {
        let end = (start + per).min(table.rows);
        let mut qb: QueryBuilder<'_, Db> = QueryBuilder::new(&head);
        qb.push(" ");
        qb.push_values(start..end, |mut b, r| {
            for (_, column) in &table.columns {
                match column {
                    Column::I16(v) => b.push_bind(v.get(r).copied().flatten()),
                    Column::I64(v) => b.push_bind(v.get(r).copied().flatten()),
                    Column::Text(v) => b.push_bind(v.get(r).copied().flatten()),
                    Column::Bool(v) => b.push_bind(v.get(r).copied().unwrap_or(false)),
                };
            }
        });
        qb.build().persistent(false).execute(&mut *conn).await?;
        start = end;
    }
    Ok(())
}

/// Takes an exclusive lock on `PATH.setup-lock` for opening a database file: SQLite has no
/// advisory lock that sqlx's migrator could take, and two processes opening a new file at once
/// would both switch it to write-ahead logging (which fails at once with `database is locked`
/// rather than waiting) and both try to create its tables (`table games already exists`). The
/// second waits for the first and then finds nothing left to do. Closing the file releases it.
async fn setup_lock(path: &Path) -> Result<std::fs::File, StoreError> {
    let mut lock_path = path.as_os_str().to_owned();
    lock_path.push(".setup-lock");
    let lock_path = std::path::PathBuf::from(lock_path);
    tokio::task::spawn_blocking(move || -> Result<std::fs::File, String> {
        let file = std::fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&lock_path)
            .map_err(|e| format!("opening {}: {e}", lock_path.display()))?;
        file.lock().map_err(|e| format!("locking {}: {e}", lock_path.display()))?;
        Ok(file)
    })
    .await
    .map_err(|e| StoreError::other(format!("locking for setup: {e}")))?
    .map_err(StoreError::other)
}

/// An SQLite database file.
#[derive(Clone, Debug)]
pub struct SqliteStore {
    pool: Pool<Db>,
    path: std::path::PathBuf,
}

/// Whether the file system holding `db` is full: SQLite reports some writes that fail for want
/// of space (growing its shared-memory file, a checkpoint) as mere I/O errors, so after one the
/// store tries to write 64 KiB beside the database and asks the OS.
fn disk_is_full(db: &Path) -> bool {
    use std::io::Write;
    let mut scratch = db.as_os_str().to_owned();
    scratch.push(".space-check");
    let scratch = std::path::PathBuf::from(scratch);
    let written =
        std::fs::File::create(&scratch).and_then(|mut f| f.write_all(&[0u8; 64 * 1024]).and_then(|()| f.sync_all()));
    let _ = std::fs::remove_file(&scratch);
    matches!(written, Err(e) if e.kind() == std::io::ErrorKind::StorageFull)
}

/// An I/O error on a full disk is a full disk.
fn refine_error(e: StoreError, db: &Path) -> StoreError {
    if e.kind == crate::StoreErrorKind::Unavailable && disk_is_full(db) {
        StoreError { kind: crate::StoreErrorKind::Full, ..e }
    } else {
        e
    }
}

impl SqliteStore {
    /// Opens (creating the file and its directory when missing), applies the pending
    /// migrations and registers this build's games.
    pub async fn open(path: &Path) -> Result<SqliteStore, StoreError> {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(|e| StoreError::other(format!("creating {}: {e}", dir.display())))?;
        }
        let options = SqliteConnectOptions::new()
            .filename(path)
            .create_if_missing(true)
            .journal_mode(SqliteJournalMode::Wal)
            .synchronous(SqliteSynchronous::Normal)
            .foreign_keys(true)
            .busy_timeout(Duration::from_secs(30));
        let lock = setup_lock(path).await.map_err(|e| refine_error(e, path))?;
        let pool = SqlitePoolOptions::new()
            .max_connections(4)
            .connect_with(options)
            .await
            .map_err(|e| refine_error(db_error(&format!("opening {}", path.display()), e), path))?;
        let migrated = migrator(crate::embedded::SQLITE)
            .await?
            .run(&pool)
            .await
            .map_err(|e| migrate_error(&format!("migrating {}", path.display()), e));
        let migrated = match migrated {
            Ok(()) => register_games(&pool).await,
            Err(e) => Err(e),
        };
        drop(lock);
        if let Err(e) = migrated {
            pool.close().await;
            return Err(refine_error(e, path));
        }
        Ok(SqliteStore { pool, path: path.to_owned() })
    }

    /// A failed operation's error, a full disk named as such (opening a connection on a full
    /// disk fails as an I/O error too).
    fn refine<T>(&self, result: Result<T, StoreError>) -> Result<T, StoreError> {
        result.map_err(|e| refine_error(e, &self.path))
    }

    /// The connection pool (for tests and tools that need plain SQL).
    pub fn pool(&self) -> &Pool<Db> {
        &self.pool
    }

    /// Closes every connection (and checkpoints the write-ahead log).
    pub async fn close(&self) {
        self.pool.close().await;
    }
}
