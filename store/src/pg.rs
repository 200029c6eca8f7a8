//! The PostgreSQL store (`postgres://…`). Schema: `migrations/*.sql`.

use std::str::FromStr;
use std::time::Duration;

use sqlx::postgres::{PgConnectOptions, PgPoolOptions};
use sqlx::Postgres as Db;

use crate::{migrate_error, migrator, Store};

/// `BEGIN`: PostgreSQL's default isolation (read committed) with unique keys is enough; two
/// imports of the same game serialize on the `log_sha256` index.
const BEGIN: &str = "BEGIN";
/// PostgreSQL takes at most 65,535 bind parameters per statement.
const MAX_BINDS: usize = 60_000;
/// A timestamp column as RFC 3339 UTC text.
fn utc(column: &str) -> String {
    format!(r#"to_char({column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')"#)
}

/// The current time, as stored in timestamp columns.
const NOW: &str = "now()";
/// The current time plus the seconds of bind parameter `param` (`$n`), as stored.
fn now_plus_seconds(param: &str) -> String {
    format!("now() + make_interval(secs => {param})")
}

/// Counting transactions of the statistics tallies take this lock first, so that they run one
/// at a time (read committed alone would let two read the same tally row and both add to it).
const TALLY_LOCK: Option<&str> = Some("SELECT pg_advisory_xact_lock(7468017)");

/// Tells every `chronicle serve` on this database what changed, at commit
/// ([`crate::changes`]): `pg_notify` is transactional, so a rolled-back write says nothing.
const NOTIFY: Option<&str> = Some("SELECT pg_notify('chronicle_changes', $1)");

/// After the readiness probe's write: nothing (a commit has written the write-ahead log).
const PROBE_FLUSH: Option<&str> = None;

/// Makes a text comparison byte-wise (ISO 8601 timestamps then sort by time).
const BYTE_ORDER: &str = r#" COLLATE "C""#;

/// The store type the shared code (`common.rs`) implements [`Store`] for.
type Backend = PgStore;
const BACKEND: &str = "postgres";

include!("common.rs");
include!("queries.rs");
include!("tallies.rs");
include!("models.rs");
include!("analyses.rs");

/// One `COPY … FROM STDIN (FORMAT binary)` per table: the server parses no SQL and no
/// arrays per batch and takes the rows as they come, the cheapest way in for bulk rows (it
/// replaced one `INSERT … SELECT * FROM UNNEST(arrays)` per table; see docs/performance.md).
/// Constraints and triggers apply to copied rows as to inserted ones, and a failing row fails
/// the statement (and so the batch's transaction).
async fn bulk_insert(conn: &mut Conn, table: Table<'_>) -> Result<(), sqlx::Error> {
    if table.rows == 0 {
        return Ok(());
    }
    let data = copy_data(&table)?;
    let sql = format!("COPY {} FROM STDIN (FORMAT binary)", table.target());
    // A `PgCopyIn` dropped on an error ends the COPY with `CopyFail`, which fails the
    // transaction like any failed statement.
    let mut copy = conn.copy_in_raw(&sql).await?;
    copy.send(data).await?;
    copy.finish().await?;
    Ok(())
}

/// The signature, flags and header extension length of PostgreSQL's binary COPY format.
const COPY_HEADER: &[u8; 19] = b"PGCOPY\n\xff\r\n\0\0\0\0\0\0\0\0\0";

/// A table's rows in PostgreSQL's binary COPY format: per row the field count, then per field
/// its length (-1 for NULL) and its value in network byte order; `-1` after the last row.
/// Each column's type must be the table column's type exactly (`int2`, `int8`, `text`,
/// `bool`): the server reads the bytes without conversion, and rejects a size mismatch.
fn copy_data(table: &Table<'_>) -> Result<Vec<u8>, sqlx::Error> {
    let fields = i16::try_from(table.columns.len())
        .map_err(|_| sqlx::Error::Protocol(format!("{}: too many columns for COPY", table.name)))?;
    let mut out = Vec::with_capacity(COPY_HEADER.len() + table.rows * (2 + 12 * table.columns.len()) + 2);
    out.extend_from_slice(COPY_HEADER);
    for row in 0..table.rows {
        out.extend_from_slice(&fields.to_be_bytes());
        for (name, column) in &table.columns {
            let missing = || sqlx::Error::Protocol(format!("{}.{name}: fewer values than rows", table.name));
            match column {
                Column::I16(v) => put_field(&mut out, v.get(row).ok_or_else(missing)?.map(i16::to_be_bytes))?,
                Column::I64(v) => put_field(&mut out, v.get(row).ok_or_else(missing)?.map(i64::to_be_bytes))?,
                Column::Text(v) => put_field(&mut out, v.get(row).ok_or_else(missing)?.map(str::as_bytes))?,
                Column::Bool(v) => put_field(&mut out, Some([u8::from(*v.get(row).ok_or_else(missing)?)]))?,
            }
        }
    }
    out.extend_from_slice(&(-1i16).to_be_bytes());
    Ok(out)
}

/// One field of a binary COPY row: its length in bytes, then the bytes; NULL is length -1.
fn put_field(out: &mut Vec<u8>, value: Option<impl AsRef<[u8]>>) -> Result<(), sqlx::Error> {
    match value {
        None => out.extend_from_slice(&(-1i32).to_be_bytes()),
        Some(bytes) => {
            let bytes = bytes.as_ref();
            let len = i32::try_from(bytes.len())
                .map_err(|_| sqlx::Error::Protocol("a COPY field longer than 2 GiB".into()))?;
            out.extend_from_slice(&len.to_be_bytes());
            out.extend_from_slice(bytes);
        }
    }
    Ok(())
}

/// A PostgreSQL database.
#[derive(Clone, Debug)]
pub struct PgStore {
    pool: Pool<Db>,
    standby: bool,
}

/// A standby cannot migrate (its primary does, and replication brings the schema): it serves
/// only when every migration of this build is applied there.
async fn check_migrated(pool: &Pool<Db>) -> Result<(), StoreError> {
    let applied: Vec<i64> = sqlx::query_scalar("SELECT version FROM _sqlx_migrations WHERE success")
        .fetch_all(pool)
        .await
        .map_err(|e| db_error("reading the standby's migrations", e))?;
    let missing: Vec<String> = crate::embedded::POSTGRES
        .iter()
        .filter(|(v, _, _)| !applied.contains(v))
        .map(|(v, name, _)| format!("{v} {name}"))
        .collect();
    if missing.is_empty() {
        return Ok(());
    }
    Err(StoreError::other(format!(
        "the database is a read-only standby whose schema lacks {} migration(s) of this build ({}): open its primary with this build first",
        missing.len(),
        missing.join(", ")
    )))
}

impl PgStore {
    /// Connects, applies the pending migrations and registers this build's games.
    pub async fn open(url: &str) -> Result<PgStore, StoreError> {
        let options = PgConnectOptions::from_str(url)
            .map_err(|e| StoreError::other(format!("bad PostgreSQL URL: {e}")))?
            .application_name("chronicle");
        // One plain connection first: a refused connection or a wrong database fails at once
        // with its own message (the pool would retry until its timeout).
        let first = <sqlx::PgConnection as sqlx::Connection>::connect_with(&options)
            .await
            .map_err(|e| db_error("connecting to PostgreSQL", e))?;
        let _ = sqlx::Connection::close(first).await;
        let pool = PgPoolOptions::new()
            .max_connections(4)
            .acquire_timeout(Duration::from_secs(15))
            .connect_with(options)
            .await
            .map_err(|e| db_error("connecting to PostgreSQL", e))?;
        let standby: bool = sqlx::query_scalar("SELECT pg_is_in_recovery()")
            .fetch_one(&pool)
            .await
            .map_err(|e| db_error("asking whether the database is a standby", e))?;
        if standby {
            check_migrated(&pool).await?;
        } else {
            migrator(crate::embedded::POSTGRES)
                .await?
                .run(&pool)
                .await
                .map_err(|e| migrate_error("migrating the PostgreSQL database", e))?;
            register_games(&pool).await?;
        }
        Ok(PgStore { pool, standby })
    }

    /// Whether the database is a hot standby (read-only; it learns the primary's writes by
    /// streaming replication, and no notifications: see [`crate::changes`]).
    pub fn is_standby(&self) -> bool {
        self.standby
    }

    /// A failed operation's error as it is: PostgreSQL names a full disk itself (`53100`).
    fn refine<T>(&self, result: Result<T, StoreError>) -> Result<T, StoreError> {
        result
    }

    /// The connection pool (for tests and tools that need plain SQL).
    pub fn pool(&self) -> &Pool<Db> {
        &self.pool
    }

    /// Closes every connection.
    pub async fn close(&self) {
        self.pool.close().await;
    }
}
