//! The embedded SQLite store (`sqlite://PATH`, the default). Schema: `migrations/sqlite/*.sql`.
//! Write-ahead log, so readers never block the writer and a killed writer leaves the last
//! committed state.

use std::path::Path;
use std::time::Duration;

use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous};
use sqlx::Sqlite as Db;

use crate::store::{migrator, Store};

/// Take the write lock when the transaction starts, so that a second writer waits (busy
/// timeout) instead of failing when it upgrades a read transaction.
const BEGIN: &str = "BEGIN IMMEDIATE";
/// Below SQLite's default limit of 32,766 bind parameters per statement.
const MAX_BINDS: usize = 30_000;
/// A timestamp column as RFC 3339 UTC text (stored that way).
fn utc(column: &str) -> String {
    column.to_owned()
}

/// Makes a text comparison byte-wise (ISO 8601 timestamps then sort by time).
const BYTE_ORDER: &str = "";

/// The store type the shared code (`common.rs`) implements [`Store`] for.
type Backend = SqliteStore;
const BACKEND: &str = "sqlite";

include!("common.rs");
include!("service.rs");

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
                    Column::I32(v) => b.push_bind(v.get(r).copied().flatten()),
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

/// An SQLite database file.
#[derive(Clone, Debug)]
pub struct SqliteStore {
    pool: Pool<Db>,
}

impl SqliteStore {
    /// Opens (creating the file and its directory when missing) and applies the pending
    /// migrations.
    pub async fn open(path: &Path) -> Result<SqliteStore, StoreError> {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(|e| StoreError(format!("creating {}: {e}", dir.display())))?;
        }
        let options = SqliteConnectOptions::new()
            .filename(path)
            .create_if_missing(true)
            .journal_mode(SqliteJournalMode::Wal)
            .synchronous(SqliteSynchronous::Normal)
            .foreign_keys(true)
            .busy_timeout(Duration::from_secs(30));
        let pool = SqlitePoolOptions::new()
            .max_connections(4)
            .connect_with(options)
            .await
            .map_err(|e| StoreError(format!("opening {}: {e}", path.display())))?;
        migrator(crate::store::embedded::SQLITE)
            .await?
            .run(&pool)
            .await
            .map_err(|e| StoreError(format!("migrating {}: {e}", path.display())))?;
        Ok(SqliteStore { pool })
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

