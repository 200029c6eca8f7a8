//! The PostgreSQL store (`postgres://…`). Schema: `migrations/*.sql`.

use std::str::FromStr;
use std::time::Duration;

use sqlx::postgres::{PgConnectOptions, PgPoolOptions};
use sqlx::Postgres as Db;

use crate::store::{migrator, Store};

/// `BEGIN`: PostgreSQL's default isolation (read committed) with unique keys is enough; two
/// imports of the same game serialize on the `log_sha256` index.
const BEGIN: &str = "BEGIN";
/// PostgreSQL takes at most 65,535 bind parameters per statement.
const MAX_BINDS: usize = 60_000;
/// A timestamp column as RFC 3339 UTC text.
fn utc(column: &str) -> String {
    format!(r#"to_char({column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')"#)
}

/// Makes a text comparison byte-wise (ISO 8601 timestamps then sort by time).
const BYTE_ORDER: &str = r#" COLLATE "C""#;

/// The store type the shared code (`common.rs`) implements [`Store`] for.
type Backend = PgStore;
const BACKEND: &str = "postgres";

include!("common.rs");
include!("service.rs");

/// One `INSERT … SELECT * FROM UNNEST($1::type[], …)` per table: a constant statement (prepared
/// once per connection) whatever the number of rows, and far less parsing than `VALUES` lists.
async fn bulk_insert(conn: &mut Conn, table: Table<'_>) -> Result<(), sqlx::Error> {
    if table.rows == 0 {
        return Ok(());
    }
    let arrays: Vec<String> = table
        .columns
        .iter()
        .enumerate()
        .map(|(i, (_, column))| {
            let ty = match column {
                Column::I16(_) => "int2",
                Column::I32(_) => "int4",
                Column::I64(_) => "int8",
                Column::Text(_) => "text",
                Column::Bool(_) => "bool",
            };
            format!("${}::{ty}[]", i + 1)
        })
        .collect();
    let sql = format!("{} SELECT * FROM UNNEST({})", table.head(), arrays.join(", "));
    let mut query = sqlx::query(&sql);
    for (_, column) in &table.columns {
        query = match column {
            Column::I16(v) => query.bind(v),
            Column::I32(v) => query.bind(v),
            Column::I64(v) => query.bind(v),
            Column::Text(v) => query.bind(v),
            Column::Bool(v) => query.bind(v),
        };
    }
    query.execute(&mut *conn).await?;
    Ok(())
}

/// A PostgreSQL database.
#[derive(Clone, Debug)]
pub struct PgStore {
    pool: Pool<Db>,
}

impl PgStore {
    /// Connects and applies the pending migrations.
    pub async fn open(url: &str) -> Result<PgStore, StoreError> {
        let options = PgConnectOptions::from_str(url)
            .map_err(|e| StoreError(format!("bad PostgreSQL URL: {e}")))?
            .application_name("chronicle");
        // One plain connection first: a refused connection or a wrong database fails at once
        // with its own message (the pool would retry until its timeout).
        let first = <sqlx::PgConnection as sqlx::Connection>::connect_with(&options)
            .await
            .map_err(|e| StoreError(format!("connecting to PostgreSQL: {e}")))?;
        let _ = sqlx::Connection::close(first).await;
        let pool = PgPoolOptions::new()
            .max_connections(4)
            .acquire_timeout(Duration::from_secs(15))
            .connect_with(options)
            .await
            .map_err(|e| StoreError(format!("connecting to PostgreSQL: {e}")))?;
        migrator(crate::store::embedded::POSTGRES)
            .await?
            .run(&pool)
            .await
            .map_err(|e| StoreError(format!("migrating the PostgreSQL database: {e}")))?;
        Ok(PgStore { pool })
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

