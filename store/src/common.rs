// The SQL shared by both stores. This file is `include!`d by `pg.rs` and `sqlite.rs`, each of
// which defines `Db` (the sqlx database type), `BEGIN` (the statement that starts a write
// transaction), `MAX_BINDS` (bind parameters per statement) and `utc` (a timestamp column as
// RFC 3339 UTC text) first; the code below is compiled once per backend. `queries.rs` (tokens,
// tournaments, listing) is included after it.

use std::collections::{BTreeMap, HashMap};

use sqlx::query_builder::Separated;
use sqlx::{Pool, QueryBuilder, Row};

use chronicle_game::{Counter, GameKind, Score, ScoreRow, Status};

use crate::record::{
    CavernaFacts, ErrorRow, ExpeditionRow, Facts, FurnishingRow, GameRecord, MetaRow, Outcome, PlacementRow, PlayerRow,
    WeaponRow,
};
use crate::{
    db_error, is_fatal, Bearer, Changed, CompressedLog, GameFilter, GameHead, Inserted, NewGame, Revoked, StoreError,
    StoredGame, StoredLog, TokenLookup, TokenRow, TournamentChange, TournamentRow,
};

type Conn = <Db as sqlx::Database>::Connection;
type DbRow = <Db as sqlx::Database>::Row;

/// The verdict columns of `games`: everything `chronicle reverify` rewrites.
const VERDICT_COLUMNS: [&str; 17] = [
    "game",
    "engine_version",
    "player_count",
    "variant",
    "status",
    "round_reached",
    "entries_applied",
    "error_entry",
    "error_player",
    "error_code",
    "error_message",
    "meta_id",
    "tournament",
    "played_at",
    "source",
    "place",
    "synthetic_data",
];

/// The tables holding one game's players, score rows and facts, children first.
const CHILD_TABLES: [&str; 9] = [
    "game_facts",
    "game_player_counts",
    "game_expedition_loot",
    "game_expeditions",
    "game_weapons",
    "game_furnishings",
    "game_placements",
    "game_score_rows",
    "game_players",
];

/// Binds the verdict columns of a record, in `VERDICT_COLUMNS` order.
fn push_verdict<'a>(b: &mut Separated<'_, 'a, Db, &'static str>, r: &'a GameRecord) {
    let error = r.error.as_ref();
    b.push_bind(r.game.map(GameKind::id))
        .push_bind(r.engine_version.as_str())
        .push_bind(r.player_count)
        .push_bind(r.variant.as_deref())
        .push_bind(r.status.id())
        .push_bind(r.round_reached)
        .push_bind(r.entries_applied)
        .push_bind(error.and_then(|e| e.entry))
        .push_bind(error.and_then(|e| e.player))
        .push_bind(error.map(|e| e.code.as_str()))
        .push_bind(error.map(|e| e.message.as_str()))
        .push_bind(r.meta.id.as_deref())
        .push_bind(r.meta.tournament.as_deref())
        .push_bind(r.meta.played_at.as_deref())
        .push_bind(r.meta.source.as_deref())
        .push_bind(r.meta.place.as_deref())
        .push_bind(r.synthetic_data);
}

/// Inserts rows with multi-row `INSERT … VALUES`, as few statements as the bind limit allows.
async fn insert_rows<'a, T: Sync>(
    conn: &mut Conn,
    head: &str,
    cols: usize,
    rows: &'a [T],
    push: impl Fn(&mut Separated<'_, 'a, Db, &'static str>, &'a T) + Send + Sync,
) -> Result<(), sqlx::Error> {
    for chunk in rows.chunks((MAX_BINDS / cols).max(1)) {
        let mut qb: QueryBuilder<'a, Db> = QueryBuilder::new(head);
        qb.push(" ");
        qb.push_values(chunk, |mut b, row| push(&mut b, row));
        qb.build().persistent(false).execute(&mut *conn).await?;
    }
    Ok(())
}

/// Column-oriented rows of one table, written by the backend's `bulk_insert` (PostgreSQL:
/// one binary `COPY … FROM STDIN` per table; SQLite: multi-row `VALUES`).
struct Table<'a> {
    name: &'static str,
    rows: usize,
    columns: Vec<(&'static str, Column<'a>)>,
}

enum Column<'a> {
    I16(Vec<Option<i16>>),
    I64(Vec<Option<i64>>),
    Text(Vec<Option<&'a str>>),
    Bool(Vec<bool>),
}

impl<'a> Table<'a> {
    fn new<T>(name: &'static str, rows: &[T], columns: Vec<(&'static str, Column<'a>)>) -> Table<'a> {
        Table { name, rows: rows.len(), columns }
    }

    /// `table (column, …)`: what an `INSERT` or a `COPY` writes to.
    fn target(&self) -> String {
        let names: Vec<&str> = self.columns.iter().map(|(n, _)| *n).collect();
        format!("{} ({})", self.name, names.join(", "))
    }

    /// `INSERT INTO table (column, …)`.
    #[allow(dead_code)] // the SQLite backend's; PostgreSQL copies to `target()`
    fn head(&self) -> String {
        format!("INSERT INTO {}", self.target())
    }
}

fn i16s<T>(rows: &[T], f: impl Fn(&T) -> Option<i16>) -> Column<'static> {
    Column::I16(rows.iter().map(f).collect())
}

fn i64s<T>(rows: &[T], f: impl Fn(&T) -> Option<i64>) -> Column<'static> {
    Column::I64(rows.iter().map(f).collect())
}

fn texts<'a, T>(rows: &[T], f: impl Fn(&T) -> Option<&'a str>) -> Column<'a> {
    Column::Text(rows.iter().map(f).collect())
}

/// Writes the players and facts of games whose `games` row exists (and has no children).
async fn insert_children(conn: &mut Conn, games: &[(i64, &GameRecord)]) -> Result<(), sqlx::Error> {
    let players: Vec<(i64, &PlayerRow)> =
        games.iter().flat_map(|&(id, r)| r.players.iter().map(move |p| (id, p))).collect();
    let sheets: Vec<String> = players
        .iter()
        .map(|(_, p)| crate::packed::sheet_text(p.score.as_ref().map_or(&[][..], |s| &s.rows[..]), &p.counters))
        .collect();
    let columns = vec![
        ("game_id", i64s(&players, |x| Some(x.0))),
        ("seat", i16s(&players, |x| Some(x.1.seat))),
        ("name", texts(&players, |x| Some(x.1.name.as_str()))),
        ("player_id", texts(&players, |x| x.1.id.as_deref())),
        ("total", i64s(&players, |x| x.1.score.as_ref().map(|s| s.total))),
        ("rank", i16s(&players, |x| x.1.rank)),
        ("winner", Column::Bool(players.iter().map(|x| x.1.winner).collect())),
        ("claimed_total", i64s(&players, |x| x.1.claimed)),
        ("sheet", Column::Text(sheets.iter().map(|s| Some(s.as_str())).collect())),
    ];
    bulk_insert(conn, Table::new("game_players", &players, columns)).await?;

    let facts: Vec<(i64, String)> = games
        .iter()
        .filter_map(|&(id, r)| r.facts.caverna().map(|f| (id, crate::packed::facts_text(f))))
        .collect();
    let columns = vec![
        ("game_id", i64s(&facts, |x| Some(x.0))),
        ("facts", Column::Text(facts.iter().map(|x| Some(x.1.as_str())).collect())),
    ];
    bulk_insert(conn, Table::new("game_facts", &facts, columns)).await?;

    // The score rows, counters and facts are in the compact form only (`sheet` above and
    // `game_facts`; docs/scaling.md, "Compact facts"): the tables that held them one row each
    // are read for games written before it, and emptied of a game when it is rewritten.
    Ok(())
}

/// Pushes `(a, b, …)` for an `IN` list.
fn push_in_list<'a, T>(qb: &mut QueryBuilder<'a, Db>, values: &[T])
where
    T: sqlx::Encode<'a, Db> + sqlx::Type<Db> + Copy + Send + 'a,
{
    qb.push("(");
    let mut s = qb.separated(", ");
    for v in values {
        s.push_bind(*v);
    }
    s.push_unseparated(")");
}

/// The ids of the games stored under these keys.
async fn select_known(conn: &mut Conn, keys: &[&str]) -> Result<HashMap<String, i64>, sqlx::Error> {
    let mut known = HashMap::new();
    for chunk in keys.chunks(MAX_BINDS) {
        let mut qb: QueryBuilder<'_, Db> = QueryBuilder::new("SELECT id, log_sha256 FROM games WHERE log_sha256 IN ");
        push_in_list(&mut qb, chunk);
        for row in qb.build().persistent(false).fetch_all(&mut *conn).await? {
            known.insert(row.try_get("log_sha256")?, row.try_get("id")?);
        }
    }
    Ok(known)
}

async fn known_games(pool: &Pool<Db>, keys: &[String]) -> Result<HashMap<String, i64>, StoreError> {
    if keys.is_empty() {
        return Ok(HashMap::new());
    }
    let fail = |e| db_error("looking up stored games", e);
    let mut conn = pool.acquire().await.map_err(fail)?;
    let keys: Vec<&str> = keys.iter().map(String::as_str).collect();
    select_known(&mut conn, &keys).await.map_err(fail)
}

/// Runs one write transaction on a connection of its own. When it fails, the connection is
/// closed instead of going back to the pool: after some failures (SQLite refusing a COMMIT
/// because the disk is full) the driver's record of the transaction no longer matches the
/// connection's, and every later `BEGIN` on it would fail.
macro_rules! write_tx {
    ($pool:expr, |$conn:ident| $body:expr) => {{
        let mut pooled = $pool.acquire().await?;
        let result = {
            let $conn: &mut Conn = &mut pooled;
            $body.await
        };
        if result.is_err() {
            pooled.close_on_drop();
        }
        result
    }};
}

/// Records a change in the change sequence (`store_changes`, read by every process that is not
/// notified: on a SQLite file, on a PostgreSQL standby) and tells the processes listening on
/// this database, when the backend can ([`NOTIFY`]); both take effect when the transaction
/// commits, and neither when it rolls back. Rows older than the newest
/// [`crate::changes::KEPT`] go in the same transaction.
async fn notify(conn: &mut Conn, change: &crate::changes::Change) -> Result<(), sqlx::Error> {
    let payload = change.payload();
    let seq: i64 = sqlx::query_scalar("INSERT INTO store_changes (change) VALUES ($1) RETURNING seq")
        .bind(payload.as_str())
        .fetch_one(&mut *conn)
        .await?;
    sqlx::query("DELETE FROM store_changes WHERE seq <= $1")
        .bind(seq.saturating_sub(crate::changes::KEPT))
        .execute(&mut *conn)
        .await?;
    if let Some(sql) = NOTIFY {
        sqlx::query(sql).bind(payload).execute(&mut *conn).await?;
    }
    Ok(())
}

/// Stores a batch in one transaction: the games not stored yet, with their logs, players and
/// facts. Keys must be distinct within the batch.
async fn insert_batch(pool: &Pool<Db>, games: &[&NewGame]) -> Result<Vec<Inserted>, sqlx::Error> {
    write_tx!(pool, |conn| insert_batch_on(conn, games))
}

async fn insert_batch_on(conn: &mut Conn, games: &[&NewGame]) -> Result<Vec<Inserted>, sqlx::Error> {
    let mut tx = sqlx::Connection::begin_with(conn, BEGIN).await?;
    let mut new: HashMap<String, i64> = HashMap::new();
    let head = format!("INSERT INTO games (log_sha256, format, uploader, {}) ", VERDICT_COLUMNS.join(", "));
    for chunk in games.chunks(MAX_BINDS / (3 + VERDICT_COLUMNS.len())) {
        let mut qb: QueryBuilder<'_, Db> = QueryBuilder::new(&head);
        qb.push_values(chunk, |mut b, g| {
            b.push_bind(g.sha256.as_str()).push_bind(g.format.as_deref()).push_bind(g.uploader.as_deref());
            push_verdict(&mut b, &g.record);
        });
        qb.push(" ON CONFLICT (log_sha256) DO NOTHING RETURNING id, log_sha256");
        for row in qb.build().persistent(false).fetch_all(&mut *tx).await? {
            new.insert(row.try_get("log_sha256")?, row.try_get("id")?);
        }
    }
    let known: Vec<&str> = games.iter().map(|g| g.sha256.as_str()).filter(|s| !new.contains_key(*s)).collect();
    let existing = select_known(&mut tx, &known).await?;
    let stored: Vec<(i64, &NewGame)> = games.iter().filter_map(|g| new.get(&g.sha256).map(|&id| (id, *g))).collect();
    insert_rows(&mut tx, "INSERT INTO game_logs (game_id, encoding, size, data)", 4, &stored, |b, (id, g)| {
        b.push_bind(*id).push_bind(g.log.encoding.as_str()).push_bind(g.log.size).push_bind(g.log.data.as_slice());
    })
    .await?;
    let records: Vec<(i64, &GameRecord)> = stored.iter().map(|(id, g)| (*id, &g.record)).collect();
    insert_children(&mut tx, &records).await?;
    if let (Some(first), Some(last)) = (new.values().min(), new.values().max()) {
        notify(&mut tx, &crate::changes::Change::Games { first: *first, last: *last }).await?;
    }
    tx.commit().await?;
    Ok(games
        .iter()
        .map(|g| match (new.get(&g.sha256), existing.get(&g.sha256)) {
            (Some(&id), _) => Inserted::New(id),
            (None, Some(&id)) => Inserted::Duplicate(id),
            (None, None) => Inserted::Failed("neither inserted nor found (removed concurrently?)".into()),
        })
        .collect())
}

/// The games of a batch with distinct keys (the first occurrence of a key is stored; later ones
/// are its duplicates), and for each game of the batch the index of its key's first game.
fn distinct(games: &[NewGame]) -> (Vec<&NewGame>, Vec<usize>) {
    let mut first: HashMap<&str, usize> = HashMap::new();
    let mut unique: Vec<&NewGame> = Vec::new();
    let slots = games
        .iter()
        .map(|g| {
            *first.entry(g.sha256.as_str()).or_insert_with(|| {
                unique.push(g);
                unique.len() - 1
            })
        })
        .collect();
    (unique, slots)
}

/// One result per game of the batch from the results of its distinct games.
fn spread(results: Vec<Inserted>, slots: Vec<usize>) -> Vec<Inserted> {
    let mut seen = vec![false; results.len()];
    slots
        .into_iter()
        .map(|slot| {
            let r = results.get(slot).cloned().unwrap_or(Inserted::Failed("no result".into()));
            if std::mem::replace(&mut seen[slot], true) {
                match r {
                    Inserted::New(id) | Inserted::Duplicate(id) => Inserted::Duplicate(id),
                    failed => failed,
                }
            } else {
                r
            }
        })
        .collect()
}

/// `Store::insert_games`: the batch in one transaction; when that fails on a game's data, each
/// game alone, so that one bad game does not keep the others out.
async fn insert_games(pool: &Pool<Db>, games: &[NewGame]) -> Result<Vec<Inserted>, StoreError> {
    let (unique, slots) = distinct(games);
    let results = match insert_batch(pool, &unique).await {
        Ok(r) => r,
        Err(e) if is_fatal(&e) => return Err(db_error("storing games", e)),
        Err(_) => {
            let mut results = Vec::with_capacity(unique.len());
            for g in &unique {
                match insert_batch(pool, &[g]).await {
                    Ok(mut r) => results.push(r.pop().unwrap_or(Inserted::Failed("no result".into()))),
                    Err(e) if is_fatal(&e) => return Err(db_error("storing games", e)),
                    Err(e) => results.push(Inserted::Failed(e.to_string())),
                }
            }
            results
        }
    };
    Ok(spread(results, slots))
}

/// `Store::insert_all`: the batch in one transaction, all or nothing.
async fn insert_all(pool: &Pool<Db>, games: &[NewGame]) -> Result<Vec<Inserted>, StoreError> {
    let (unique, slots) = distinct(games);
    let results = insert_batch(pool, &unique).await.map_err(|e| db_error("storing games (none was stored)", e))?;
    Ok(spread(results, slots))
}

async fn logs_after(pool: &Pool<Db>, after: i64, limit: i64) -> Result<Vec<StoredLog>, StoreError> {
    let rows = sqlx::query(
        "SELECT g.id, g.log_sha256, g.format, l.encoding, l.size, l.data FROM games g JOIN game_logs l ON l.game_id = g.id \
         WHERE g.id > $1 ORDER BY g.id LIMIT $2",
    )
    .bind(after)
    .bind(limit)
    .fetch_all(pool)
    .await
    .map_err(|e| db_error("reading logs", e))?;
    rows.iter()
        .map(|row| {
            Ok(StoredLog {
                id: row.try_get("id")?,
                sha256: row.try_get("log_sha256")?,
                format: row.try_get("format")?,
                log: CompressedLog {
                    encoding: row.try_get("encoding")?,
                    size: row.try_get("size")?,
                    data: row.try_get("data")?,
                },
            })
        })
        .collect::<Result<_, sqlx::Error>>()
        .map_err(|e| db_error("reading logs", e))
}

async fn outcomes(pool: &Pool<Db>, ids: &[i64]) -> Result<BTreeMap<i64, Outcome>, StoreError> {
    let mut out = BTreeMap::new();
    let fail = |e| db_error("reading outcomes", e);
    for chunk in ids.chunks(MAX_BINDS) {
        let mut qb: QueryBuilder<'_, Db> = QueryBuilder::new("SELECT id, status, error_code FROM games WHERE id IN ");
        push_in_list(&mut qb, chunk);
        for row in qb.build().persistent(false).fetch_all(pool).await.map_err(fail)? {
            let o = Outcome {
                status: row.try_get("status").map_err(fail)?,
                error_code: row.try_get("error_code").map_err(fail)?,
                scores: Vec::new(),
                winners: Vec::new(),
            };
            out.insert(row.try_get::<i64, _>("id").map_err(fail)?, o);
        }
        let mut qb: QueryBuilder<'_, Db> =
            QueryBuilder::new(format!("SELECT game_id, {} FROM game_players WHERE game_id IN ", player_columns()));
        push_in_list(&mut qb, chunk);
        qb.push(" ORDER BY game_id, seat");
        let mut players = Vec::new();
        // Games whose players were written before the compact form, with their score rows in
        // their own table.
        let mut old = Vec::new();
        for row in qb.build().persistent(false).fetch_all(pool).await.map_err(fail)? {
            let id: i64 = row.try_get("game_id").map_err(fail)?;
            let (player, sheet) = player_from(&row).map_err(fail)?;
            if !sheet && old.last() != Some(&id) {
                old.push(id);
            }
            players.push((id, player));
        }
        let mut score_rows = if old.is_empty() { HashMap::new() } else { score_rows_of(pool, &old).await.map_err(fail)? };
        for (id, player) in players {
            let score = player.score.map(|mut score| {
                if let Some(rows) = score_rows.remove(&(id, player.seat)) {
                    score.rows = rows;
                }
                score
            });
            if let Some(o) = out.get_mut(&id) {
                o.scores.push(score);
                if player.winner {
                    o.winners.push(player.seat);
                }
            }
        }
    }
    Ok(out)
}

async fn replace_records(pool: &Pool<Db>, records: &[(i64, GameRecord)]) -> Result<(), StoreError> {
    let run = async { write_tx!(pool, |conn| replace_records_on(conn, records)) };
    run.await.map_err(|e| db_error("rewriting games", e))
}

async fn replace_records_on(conn: &mut Conn, records: &[(i64, GameRecord)]) -> Result<(), sqlx::Error> {
    let mut tx = sqlx::Connection::begin_with(conn, BEGIN).await?;
    let set: Vec<String> = VERDICT_COLUMNS.iter().enumerate().map(|(i, c)| format!("{c} = ${}", i + 1)).collect();
    let update = format!("UPDATE games SET {} WHERE id = ${}", set.join(", "), VERDICT_COLUMNS.len() + 1);
    for (id, r) in records {
        let e = r.error.as_ref();
        sqlx::query(&update)
            .bind(r.game.map(GameKind::id))
            .bind(r.engine_version.as_str())
            .bind(r.player_count)
            .bind(r.variant.as_deref())
            .bind(r.status.id())
            .bind(r.round_reached)
            .bind(r.entries_applied)
            .bind(e.and_then(|e| e.entry))
            .bind(e.and_then(|e| e.player))
            .bind(e.map(|e| e.code.as_str()))
            .bind(e.map(|e| e.message.as_str()))
            .bind(r.meta.id.as_deref())
            .bind(r.meta.tournament.as_deref())
            .bind(r.meta.played_at.as_deref())
            .bind(r.meta.source.as_deref())
            .bind(r.meta.place.as_deref())
            .bind(r.synthetic_data)
            .bind(*id)
            .execute(&mut *tx)
            .await
            ?;
    }
    let ids: Vec<i64> = records.iter().map(|(id, _)| *id).collect();
    for table in CHILD_TABLES {
        for chunk in ids.chunks(MAX_BINDS) {
            let mut qb: QueryBuilder<'_, Db> = QueryBuilder::new(format!("DELETE FROM {table} WHERE game_id IN "));
            push_in_list(&mut qb, chunk);
            qb.build().persistent(false).execute(&mut *tx).await?;
        }
    }
    let refs: Vec<(i64, &GameRecord)> = records.iter().map(|(id, r)| (*id, r)).collect();
    insert_children(&mut tx, &refs).await?;
    bump_verdicts(&mut tx).await?;
    notify(&mut tx, &crate::changes::Change::Rewritten).await?;
    tx.commit().await
}

async fn game_id(pool: &Pool<Db>, sha256: &str) -> Result<Option<i64>, StoreError> {
    sqlx::query_scalar("SELECT id FROM games WHERE log_sha256 = $1")
        .bind(sha256)
        .fetch_optional(pool)
        .await
        .map_err(|e| db_error("finding a game", e))
}

async fn game_count(pool: &Pool<Db>) -> Result<i64, StoreError> {
    sqlx::query_scalar("SELECT COUNT(*) FROM games").fetch_one(pool).await.map_err(|e| db_error("counting games", e))
}

async fn fetch_rows(pool: &Pool<Db>, sql: &str, id: i64) -> Result<Vec<DbRow>, sqlx::Error> {
    sqlx::query(sql).bind(id).fetch_all(pool).await
}

/// The columns `player_from` reads.
fn player_columns() -> &'static str {
    "seat, name, player_id, total, rank, winner, claimed_total, sheet"
}

/// A player from its `game_players` row, with its score rows and counters from the row's sheet
/// ([`crate::packed`]); `false` for a row written before the compact form, whose score rows
/// and counters are still in their own tables ([`attach_score_rows`], [`attach_counters`]).
fn player_from(r: &DbRow) -> Result<(PlayerRow, bool), sqlx::Error> {
    let total: Option<i64> = r.try_get("total")?;
    let sheet: Option<String> = r.try_get("sheet")?;
    let (rows, counters) = match &sheet {
        Some(text) => crate::packed::sheet_from(text).map_err(|e| sqlx::Error::Decode(e.into()))?,
        None => (Vec::new(), Vec::new()),
    };
    let player = PlayerRow {
        seat: r.try_get("seat")?,
        name: r.try_get("name")?,
        id: r.try_get("player_id")?,
        score: total.map(|total| Score { rows, total }),
        rank: r.try_get("rank")?,
        winner: r.try_get("winner")?,
        claimed: r.try_get("claimed_total")?,
        counters,
    };
    Ok((player, sheet.is_some()))
}

/// The record of a row with the verdict columns (`VERDICT_COLUMNS`), without players or facts.
fn verdict_from(row: &DbRow, id: i64) -> Result<GameRecord, StoreError> {
    let fail = |e| db_error("reading a game", e);
    let status: String = row.try_get("status").map_err(fail)?;
    let status = Status::from_id(&status).ok_or_else(|| StoreError::other(format!("game {id}: unknown status `{status}`")))?;
    let game = match row.try_get::<Option<String>, _>("game").map_err(fail)? {
        None => None,
        Some(g) => Some(
            GameKind::from_id(&g)
                .ok_or_else(|| StoreError::other(format!("game {id}: `{g}` is not a game this build knows")))?,
        ),
    };
    let error = match row.try_get::<Option<String>, _>("error_code").map_err(fail)? {
        None => None,
        Some(code) => Some(ErrorRow {
            entry: row.try_get("error_entry").map_err(fail)?,
            player: row.try_get("error_player").map_err(fail)?,
            code,
            message: row.try_get::<Option<String>, _>("error_message").map_err(fail)?.unwrap_or_default(),
        }),
    };
    Ok(GameRecord {
        game,
        engine_version: row.try_get("engine_version").map_err(fail)?,
        status,
        round_reached: row.try_get("round_reached").map_err(fail)?,
        entries_applied: row.try_get("entries_applied").map_err(fail)?,
        player_count: row.try_get("player_count").map_err(fail)?,
        variant: row.try_get("variant").map_err(fail)?,
        error,
        meta: MetaRow {
            id: row.try_get("meta_id").map_err(fail)?,
            tournament: row.try_get("tournament").map_err(fail)?,
            played_at: row.try_get("played_at").map_err(fail)?,
            source: row.try_get("source").map_err(fail)?,
            place: row.try_get("place").map_err(fail)?,
        },
        players: Vec::new(),
        synthetic_data: row.try_get("synthetic_data").map_err(fail)?,
        // Filled by `fill_facts` for games with fact tables.
        facts: if game == Some(GameKind::Caverna) { Facts::Caverna(CavernaFacts::default()) } else { Facts::None },
    })
}

/// Puts a game's facts into its record (when its game has fact tables).
fn fill_facts(record: &mut GameRecord, facts: Option<CavernaFacts>) {
    if let (Facts::Caverna(slot), Some(facts)) = (&mut record.facts, facts) {
        *slot = facts;
    }
}

/// The score rows of these games' players, by (game, seat), in printed order.
async fn score_rows_of(pool: &Pool<Db>, ids: &[i64]) -> Result<HashMap<(i64, i16), Vec<ScoreRow>>, sqlx::Error> {
    let mut out: HashMap<(i64, i16), Vec<ScoreRow>> = HashMap::new();
    let sql = "SELECT game_id, seat, row_id, points FROM game_score_rows WHERE game_id IN ";
    for r in rows_of(pool, sql, ids, "seat, position").await? {
        let row = ScoreRow { id: r.try_get("row_id")?, points: r.try_get("points")? };
        out.entry((r.try_get("game_id")?, r.try_get("seat")?)).or_default().push(row);
    }
    Ok(out)
}

/// Adds the score rows of `rows` to the scores of a game's players.
fn attach_score_rows(id: i64, players: &mut [PlayerRow], rows: &mut HashMap<(i64, i16), Vec<ScoreRow>>) {
    for p in players {
        if let Some(score) = &mut p.score {
            score.rows = rows.remove(&(id, p.seat)).unwrap_or_default();
        }
    }
}

/// The counters of these games' players, by (game, seat), in the order of the game's
/// `GameSpec::counters` (ids the spec no longer has last, by id), as the engine reports them.
async fn counters_of(pool: &Pool<Db>, ids: &[i64]) -> Result<HashMap<(i64, i16), Vec<Counter>>, sqlx::Error> {
    let mut out: HashMap<(i64, i16), Vec<Counter>> = HashMap::new();
    let sql = "SELECT game_id, seat, counter, value FROM game_player_counts WHERE game_id IN ";
    for r in rows_of(pool, sql, ids, "seat, counter").await? {
        let c = Counter { id: r.try_get("counter")?, value: r.try_get("value")? };
        out.entry((r.try_get("game_id")?, r.try_get("seat")?)).or_default().push(c);
    }
    Ok(out)
}

/// Adds the counters of `counts` to a game's players, in the game's spec order.
fn attach_counters(id: i64, record: &mut GameRecord, counts: &mut HashMap<(i64, i16), Vec<Counter>>) {
    let spec = record.game.map_or(&[][..], |g| g.spec().counters);
    let position = |c: &Counter| spec.iter().position(|s| s.id == c.id).unwrap_or(spec.len());
    for p in &mut record.players {
        let mut counters = counts.remove(&(id, p.seat)).unwrap_or_default();
        counters.sort_by(|a, b| position(a).cmp(&position(b)).then_with(|| a.id.cmp(&b.id)));
        p.counters = counters;
    }
}

/// Rows of `sql` (which ends in `game_id IN `) for these games, ordered by `order`.
async fn rows_of(pool: &Pool<Db>, sql: &str, ids: &[i64], order: &str) -> Result<Vec<DbRow>, sqlx::Error> {
    let mut rows = Vec::new();
    for chunk in ids.chunks(MAX_BINDS) {
        let mut qb: QueryBuilder<'_, Db> = QueryBuilder::new(sql);
        push_in_list(&mut qb, chunk);
        qb.push(format!(" ORDER BY game_id, {order}"));
        rows.extend(qb.build().persistent(false).fetch_all(pool).await?);
    }
    Ok(rows)
}

/// The facts of these games (games without facts are absent): from their compact rows
/// (`game_facts`), or from the fact tables for games written before the compact form.
async fn facts_of(pool: &Pool<Db>, ids: &[i64]) -> Result<HashMap<i64, CavernaFacts>, sqlx::Error> {
    let mut out: HashMap<i64, CavernaFacts> = HashMap::new();
    for r in rows_of(pool, "SELECT game_id, facts FROM game_facts WHERE game_id IN ", ids, "game_id").await? {
        let text: String = r.try_get("facts")?;
        let facts = crate::packed::facts_from(&text).map_err(|e| sqlx::Error::Decode(e.into()))?;
        out.insert(r.try_get("game_id")?, facts);
    }
    let old: Vec<i64> = ids.iter().copied().filter(|id| !out.contains_key(id)).collect();
    if !old.is_empty() {
        out.extend(fact_rows_of(pool, &old).await?);
    }
    Ok(out)
}

/// The facts of games written before the compact form, from the fact tables.
async fn fact_rows_of(pool: &Pool<Db>, ids: &[i64]) -> Result<HashMap<i64, CavernaFacts>, sqlx::Error> {
    let mut out: HashMap<i64, CavernaFacts> = HashMap::new();
    let sql = "SELECT game_id, seq, player, round, space, dwarf, imitated FROM game_placements WHERE game_id IN ";
    for r in rows_of(pool, sql, ids, "seq").await? {
        out.entry(r.try_get("game_id")?).or_default().placements.push(PlacementRow {
            seq: r.try_get("seq")?,
            player: r.try_get("player")?,
            round: r.try_get("round")?,
            space: r.try_get("space")?,
            dwarf: r.try_get("dwarf")?,
            imitated: r.try_get("imitated")?,
        });
    }
    let sql = "SELECT game_id, seq, player, round, tile, cell_row, cell_col, via, space FROM game_furnishings \
               WHERE game_id IN ";
    for r in rows_of(pool, sql, ids, "seq").await? {
        out.entry(r.try_get("game_id")?).or_default().furnishings.push(FurnishingRow {
            seq: r.try_get("seq")?,
            player: r.try_get("player")?,
            round: r.try_get("round")?,
            tile: r.try_get("tile")?,
            row: r.try_get("cell_row")?,
            col: r.try_get("cell_col")?,
            via: r.try_get("via")?,
            space: r.try_get("space")?,
        });
    }
    let sql = "SELECT game_id, player, dwarf, round_forged, strength_forged, final_strength, expeditions \
               FROM game_weapons WHERE game_id IN ";
    for r in rows_of(pool, sql, ids, "player, dwarf").await? {
        out.entry(r.try_get("game_id")?).or_default().weapons.push(WeaponRow {
            player: r.try_get("player")?,
            dwarf: r.try_get("dwarf")?,
            round_forged: r.try_get("round_forged")?,
            strength_forged: r.try_get("strength_forged")?,
            final_strength: r.try_get("final_strength")?,
            expeditions: r.try_get("expeditions")?,
        });
    }
    let mut loot: BTreeMap<(i64, i32), Vec<String>> = BTreeMap::new();
    let sql = "SELECT game_id, expedition, item FROM game_expedition_loot WHERE game_id IN ";
    for r in rows_of(pool, sql, ids, "expedition, idx").await? {
        loot.entry((r.try_get("game_id")?, r.try_get("expedition")?)).or_default().push(r.try_get("item")?);
    }
    let sql = "SELECT game_id, seq, player, dwarf, round, level, strength FROM game_expeditions WHERE game_id IN ";
    for r in rows_of(pool, sql, ids, "seq").await? {
        let game: i64 = r.try_get("game_id")?;
        let seq: i32 = r.try_get("seq")?;
        out.entry(game).or_default().expeditions.push(ExpeditionRow {
            seq,
            player: r.try_get("player")?,
            dwarf: r.try_get("dwarf")?,
            round: r.try_get("round")?,
            level: r.try_get("level")?,
            strength: r.try_get("strength")?,
            loot: loot.remove(&(game, seq)).unwrap_or_default(),
        });
    }
    Ok(out)
}

async fn game(pool: &Pool<Db>, id: i64) -> Result<Option<StoredGame>, StoreError> {
    let fail = |e| db_error("reading a game", e);
    let sql = format!(
        "SELECT g.log_sha256, g.format, g.uploader, {} AS uploaded_at, {}, \
         l.encoding, l.size, l.data FROM games g JOIN game_logs l ON l.game_id = g.id WHERE g.id = $1",
        utc("g.uploaded_at"),
        VERDICT_COLUMNS.map(|c| format!("g.{c}")).join(", ")
    );
    let Some(row) = sqlx::query(&sql).bind(id).fetch_optional(pool).await.map_err(fail)? else {
        return Ok(None);
    };
    let mut record = verdict_from(&row, id)?;
    let players_sql = format!("SELECT {} FROM game_players WHERE game_id = $1 ORDER BY seat", player_columns());
    let mut compact = true;
    for r in fetch_rows(pool, &players_sql, id).await.map_err(fail)? {
        let (player, sheet) = player_from(&r).map_err(fail)?;
        compact &= sheet;
        record.players.push(player);
    }
    if !compact {
        let mut rows = score_rows_of(pool, &[id]).await.map_err(fail)?;
        attach_score_rows(id, &mut record.players, &mut rows);
        let mut counts = counters_of(pool, &[id]).await.map_err(fail)?;
        attach_counters(id, &mut record, &mut counts);
    }
    if record.facts.caverna().is_some() {
        let facts = facts_of(pool, &[id]).await.map_err(fail)?.remove(&id);
        fill_facts(&mut record, facts);
    }
    Ok(Some(StoredGame {
        id,
        sha256: row.try_get("log_sha256").map_err(fail)?,
        format: row.try_get("format").map_err(fail)?,
        uploader: row.try_get("uploader").map_err(fail)?,
        uploaded_at: row.try_get("uploaded_at").map_err(fail)?,
        log: CompressedLog {
            encoding: row.try_get("encoding").map_err(fail)?,
            size: row.try_get("size").map_err(fail)?,
            data: row.try_get("data").map_err(fail)?,
        },
        record,
    }))
}

/// Registers the games of this build ([`GameKind::ALL`]) in `game_kinds`: adds those missing
/// and updates those whose format or player bounds changed. Writes nothing when all match, so
/// that a store on a full disk still opens.
async fn register_games(pool: &Pool<Db>) -> Result<(), StoreError> {
    let fail = |e| db_error("registering this build's games", e);
    let rows = sqlx::query("SELECT id, format, min_players, max_players FROM game_kinds")
        .fetch_all(pool)
        .await
        .map_err(fail)?;
    let mut stored: HashMap<String, (String, i16, i16)> = HashMap::new();
    for r in rows {
        let bounds = (r.try_get("format").map_err(fail)?, r.try_get("min_players").map_err(fail)?, r.try_get("max_players").map_err(fail)?);
        stored.insert(r.try_get("id").map_err(fail)?, bounds);
    }
    for kind in GameKind::ALL {
        let spec = kind.spec();
        let wanted = (spec.format.to_owned(), i16::from(spec.min_players), i16::from(spec.max_players));
        if stored.get(spec.id) == Some(&wanted) {
            continue;
        }
        sqlx::query(
            "INSERT INTO game_kinds (id, format, min_players, max_players) VALUES ($1, $2, $3, $4) \
             ON CONFLICT (id) DO UPDATE SET format = excluded.format, min_players = excluded.min_players, \
             max_players = excluded.max_players",
        )
        .bind(spec.id)
        .bind(wanted.0)
        .bind(wanted.1)
        .bind(wanted.2)
        .execute(pool)
        .await
        .map_err(fail)?;
    }
    Ok(())
}

/// Bytes the readiness probe writes: about what a few hundred games take.
const PROBE_BYTES: usize = 1 << 20;

/// Writes a probe row of [`PROBE_BYTES`] (incompressible, so that neither store can make it
/// smaller) and deletes it again.
async fn probe_write(pool: &Pool<Db>) -> Result<(), StoreError> {
    let fail = |e| db_error("writing a probe row", e);
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    let data: Vec<u8> = (0..PROBE_BYTES)
        .map(|_| {
            // xorshift: cheap bytes that no compressor shrinks.
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state.to_le_bytes()[0]
        })
        .collect();
    // `execute`, not `INSERT … RETURNING` with `fetch_one`: SQLite reports a full disk when the
    // statement finishes, after its row, and a reader that stops at the row never sees it.
    sqlx::query("INSERT INTO store_probes (data) VALUES ($1)").bind(data).execute(pool).await.map_err(fail)?;
    // The table is empty between probes; a concurrent probe's row may go too.
    sqlx::query("DELETE FROM store_probes").execute(pool).await.map_err(fail)?;
    if let Some(sql) = PROBE_FLUSH {
        // SQLite answers (busy, frames in the log, frames checkpointed): anything but a whole
        // checkpoint proves nothing.
        let row = sqlx::query(sql).fetch_one(pool).await.map_err(fail)?;
        let (busy, frames, done): (i64, i64, i64) =
            (row.try_get(0).map_err(fail)?, row.try_get(1).map_err(fail)?, row.try_get(2).map_err(fail)?);
        if busy != 0 || done < frames {
            return Err(StoreError::other(format!("the probe's checkpoint did not finish ({done} of {frames} frames)")));
        }
    }
    Ok(())
}

/// Every store operation is the shared function on this backend's pool.
impl Store for Backend {
    fn backend(&self) -> &'static str {
        BACKEND
    }

    async fn insert_games(&self, games: &[NewGame]) -> Result<Vec<Inserted>, StoreError> {
        self.refine(insert_games(&self.pool, games).await)
    }

    async fn insert_all(&self, games: &[NewGame]) -> Result<Vec<Inserted>, StoreError> {
        self.refine(insert_all(&self.pool, games).await)
    }

    async fn known_games(&self, sha256s: &[String]) -> Result<HashMap<String, i64>, StoreError> {
        self.refine(known_games(&self.pool, sha256s).await)
    }

    async fn logs_after(&self, after: i64, limit: i64) -> Result<Vec<StoredLog>, StoreError> {
        self.refine(logs_after(&self.pool, after, limit).await)
    }

    async fn outcomes(&self, ids: &[i64]) -> Result<BTreeMap<i64, Outcome>, StoreError> {
        self.refine(outcomes(&self.pool, ids).await)
    }

    async fn replace_records(&self, records: &[(i64, GameRecord)]) -> Result<(), StoreError> {
        self.refine(replace_records(&self.pool, records).await)
    }

    async fn game_id(&self, sha256: &str) -> Result<Option<i64>, StoreError> {
        self.refine(game_id(&self.pool, sha256).await)
    }

    async fn game(&self, id: i64) -> Result<Option<StoredGame>, StoreError> {
        self.refine(game(&self.pool, id).await)
    }

    async fn game_count(&self) -> Result<i64, StoreError> {
        self.refine(game_count(&self.pool).await)
    }

    async fn game_heads(&self, ids: &[i64]) -> Result<Vec<GameHead>, StoreError> {
        self.refine(game_heads(&self.pool, ids).await)
    }

    async fn games_with_facts(&self, ids: &[i64]) -> Result<Vec<GameHead>, StoreError> {
        self.refine(games_with_facts(&self.pool, ids).await)
    }

    async fn game_log(&self, id: i64) -> Result<Option<CompressedLog>, StoreError> {
        self.refine(game_log(&self.pool, id).await)
    }

    async fn list_games(&self, filter: &GameFilter, after: i64, limit: i64) -> Result<Vec<i64>, StoreError> {
        self.refine(list_games(&self.pool, filter, after, limit).await)
    }

    async fn create_token(&self, name: &str, sha256: &str, expires_in: Option<i64>) -> Result<i64, StoreError> {
        self.refine(create_token(&self.pool, name, sha256, expires_in).await)
    }

    async fn tokens(&self) -> Result<Vec<TokenRow>, StoreError> {
        self.refine(tokens(&self.pool).await)
    }

    async fn revoke_token(&self, id: i64) -> Result<Revoked, StoreError> {
        self.refine(revoke_token(&self.pool, id).await)
    }

    async fn bearer(&self, sha256: &str) -> Result<TokenLookup, StoreError> {
        self.refine(bearer(&self.pool, sha256).await)
    }

    async fn create_tournament(
        &self,
        name: &str,
        organizer_sha256: &str,
        created_by: Option<i64>,
    ) -> Result<TournamentRow, StoreError> {
        self.refine(create_tournament(&self.pool, name, organizer_sha256, created_by).await)
    }

    async fn tournament(&self, id: i64) -> Result<Option<TournamentRow>, StoreError> {
        self.refine(tournament(&self.pool, id).await)
    }

    async fn change_tournament(&self, tournament: i64, change: &TournamentChange) -> Result<Changed, StoreError> {
        self.refine(change_tournament(&self.pool, tournament, change).await)
    }

    async fn tournaments(&self, after: i64, limit: i64) -> Result<Vec<TournamentRow>, StoreError> {
        self.refine(tournaments(&self.pool, after, limit).await)
    }

    async fn add_tournament_games(&self, tournament: i64, games: &[i64]) -> Result<Vec<i64>, StoreError> {
        self.refine(add_tournament_games(&self.pool, tournament, games).await)
    }

    async fn tournament_games(&self, tournament: i64) -> Result<Vec<i64>, StoreError> {
        self.refine(tournament_games(&self.pool, tournament).await)
    }

    async fn game_tournaments(&self, game: i64) -> Result<Vec<TournamentRow>, StoreError> {
        self.refine(game_tournaments(&self.pool, game).await)
    }

    async fn replaced_games(&self, tournament: i64) -> Result<Vec<i64>, StoreError> {
        self.refine(replaced_games(&self.pool, tournament).await)
    }

    async fn complete_records(&self, after: i64, limit: i64) -> Result<Vec<GameHead>, StoreError> {
        self.refine(complete_records(&self.pool, after, limit).await)
    }

    async fn player_aliases(&self) -> Result<Vec<(String, String)>, StoreError> {
        self.refine(player_aliases(&self.pool).await)
    }

    async fn merge_players(&self, into: &str, aliases: &[String]) -> Result<String, StoreError> {
        self.refine(merge_players(&self.pool, into, aliases).await)
    }

    async fn unmerge_player(&self, alias: &str) -> Result<bool, StoreError> {
        self.refine(unmerge_player(&self.pool, alias).await)
    }

    async fn probe_write(&self) -> Result<(), StoreError> {
        self.refine(probe_write(&self.pool).await)
    }

    async fn tally_state(&self) -> Result<TallyState, StoreError> {
        self.refine(tally_state(&self.pool).await)
    }

    async fn uncounted_games(&self, game: &str, limit: i64) -> Result<Vec<i64>, StoreError> {
        self.refine(uncounted_games(&self.pool, game, limit).await)
    }

    async fn add_tallies(
        &self,
        expect: &TallyState,
        counting: &crate::Counting,
        merge: &(dyn Fn(&str, &str, &str) -> Result<String, String> + Sync),
    ) -> Result<bool, StoreError> {
        let run = async { write_tx!(self.pool, |conn| add_tallies_on(conn, expect, counting, merge)) };
        match self.refine(run.await.map_err(|e| db_error("counting games into the tallies", e)))? {
            Ok(done) => Ok(done),
            Err(why) => Err(StoreError::other(format!("a stored tally: {why}"))),
        }
    }

    async fn replace_tallies(
        &self,
        expect: &TallyState,
        format: i64,
        counting: &crate::Counting,
    ) -> Result<bool, StoreError> {
        let run = async { write_tx!(self.pool, |conn| replace_tallies_on(conn, expect, format, counting)) };
        self.refine(run.await.map_err(|e| db_error("counting every game into the tallies", e)))
    }

    async fn counted_games_of(
        &self,
        players: &[String],
        uploader: Option<&str>,
        limit: i64,
    ) -> Result<Vec<i64>, StoreError> {
        self.refine(counted_games_of(&self.pool, players, uploader, limit).await)
    }

    async fn counted_games_in_months(&self, months: &[i64], limit: i64) -> Result<Vec<i64>, StoreError> {
        self.refine(counted_games_in_months(&self.pool, months, limit).await)
    }

    async fn tallies_after(&self, after: i64) -> Result<TallyRows, StoreError> {
        self.refine(tallies_after(&self.pool, after).await)
    }

    async fn corpus_version(&self, game: &str) -> Result<i64, StoreError> {
        self.refine(corpus_version(&self.pool, game).await)
    }

    async fn counting_version(&self) -> Result<i64, StoreError> {
        self.refine(counting_version(&self.pool).await)
    }

    async fn counted_games(&self, game: &str, after: i64, limit: i64) -> Result<Vec<i64>, StoreError> {
        self.refine(counted_games(&self.pool, game, after, limit).await)
    }

    async fn stored_model(&self, game: &str) -> Result<Option<crate::StoredModel>, StoreError> {
        self.refine(stored_model(&self.pool, game).await)
    }

    async fn replace_model(
        &self,
        model: &crate::StoredModel,
        seats: &[crate::SeatRatingRow],
        players: &[crate::PlayerRatingRow],
    ) -> Result<bool, StoreError> {
        let run = async { write_tx!(self.pool, |conn| replace_model_on(conn, model, seats, players)) };
        self.refine(run.await.map_err(|e| db_error("storing a rating model", e)))
    }

    async fn rating_table(
        &self,
        game: &str,
        offset: i64,
        limit: i64,
    ) -> Result<Vec<crate::PlayerRatingRow>, StoreError> {
        self.refine(rating_table(&self.pool, game, offset, limit).await)
    }

    async fn rated_players(&self, game: &str) -> Result<i64, StoreError> {
        self.refine(rated_players(&self.pool, game).await)
    }

    async fn analysis(&self, key: &crate::AnalysisKey) -> Result<Option<crate::AnalysisRow>, StoreError> {
        self.refine(analysis_row(&self.pool, key).await)
    }

    async fn request_analysis(&self, key: &crate::AnalysisKey, now: i64) -> Result<crate::AnalysisRow, StoreError> {
        self.refine(request_analysis(&self.pool, key, now).await)
    }

    async fn pending_analyses(&self) -> Result<i64, StoreError> {
        self.refine(pending_analyses(&self.pool).await)
    }

    async fn claim_analysis(&self, now: i64, stale_before: i64) -> Result<Option<crate::AnalysisRow>, StoreError> {
        self.refine(claim_analysis(&self.pool, now, stale_before).await)
    }

    async fn analysis_progress(
        &self,
        key: &crate::AnalysisKey,
        done: i64,
        total: i64,
        now: i64,
    ) -> Result<(), StoreError> {
        self.refine(analysis_progress(&self.pool, key, done, total, now).await)
    }

    async fn finish_analysis(
        &self,
        key: &crate::AnalysisKey,
        outcome: Result<&str, &str>,
        now: i64,
    ) -> Result<(), StoreError> {
        self.refine(finish_analysis(&self.pool, key, outcome, now).await)
    }

    async fn player_rating(&self, game: &str, player: &str) -> Result<Option<crate::PlayerRatingRow>, StoreError> {
        self.refine(player_rating(&self.pool, game, player).await)
    }

    async fn rating_history(
        &self,
        game: &str,
        player: &str,
        limit: i64,
    ) -> Result<Vec<crate::SeatRatingRow>, StoreError> {
        self.refine(rating_history(&self.pool, game, player, limit).await)
    }

    async fn seat_ratings(&self, game_id: i64) -> Result<Vec<crate::SeatRatingRow>, StoreError> {
        self.refine(seat_ratings(&self.pool, game_id).await)
    }

    async fn ping(&self) -> Result<(), StoreError> {
        sqlx::query("SELECT 1").execute(&self.pool).await.map(|_| ()).map_err(|e| db_error("pinging the database", e))
    }

    async fn changes_after(&self, after: i64, limit: i64) -> Result<crate::changes::ChangeLog, StoreError> {
        let fail = |e| db_error("reading the change sequence", e);
        let (oldest, newest): (i64, i64) =
            sqlx::query_as("SELECT COALESCE(MIN(seq), 0), COALESCE(MAX(seq), 0) FROM store_changes")
                .fetch_one(&self.pool)
                .await
                .map_err(fail)?;
        let rows: Vec<(i64, String)> =
            sqlx::query_as("SELECT seq, change FROM store_changes WHERE seq > $1 ORDER BY seq LIMIT $2")
                .bind(after)
                .bind(limit.max(0))
                .fetch_all(&self.pool)
                .await
                .map_err(fail)?;
        Ok(crate::changes::ChangeLog { oldest, newest, rows })
    }
}
