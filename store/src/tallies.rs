// The stored statistics tallies (`stat_tallies`, `stat_counted`, `stat_state`). This file is
// `include!`d by `pg.rs` and `sqlite.rs` after `common.rs`, like `queries.rs`; the service's
// counting step (service/src/tallies.rs) is the only writer. Every write is one transaction
// that first checks the state it was planned on ([`TallyState`]), so that two processes
// counting at once never count a game twice: the second finds the state changed, or a game's
// `stat_counted` row already there, and writes nothing.

use crate::{Counting, TallyRows, TallyState};

/// `stat_state` names.
const VERDICTS: &str = "verdicts";
const TALLIED_VERDICTS: &str = "tallied_verdicts";
const TALLY_FORMAT: &str = "tally_format";
const TALLY_VERSION: &str = "tally_version";
const RECOUNTED_AT: &str = "recounted_at";

/// Adds one to the rewrites of stored verdicts, in a transaction that rewrites them.
async fn bump_verdicts(conn: &mut Conn) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO stat_state (name, value) VALUES ($1, 1) \
         ON CONFLICT (name) DO UPDATE SET value = stat_state.value + 1",
    )
    .bind(VERDICTS)
    .execute(&mut *conn)
    .await?;
    Ok(())
}

async fn state_on(conn: &mut Conn) -> Result<TallyState, sqlx::Error> {
    let rows: Vec<(String, i64)> = sqlx::query_as("SELECT name, value FROM stat_state").fetch_all(&mut *conn).await?;
    let get = |name: &str| rows.iter().find(|(n, _)| n == name).map(|(_, v)| *v);
    Ok(TallyState {
        verdicts: get(VERDICTS).unwrap_or(0),
        tallied_verdicts: get(TALLIED_VERDICTS),
        format: get(TALLY_FORMAT),
    })
}

async fn tally_state(pool: &Pool<Db>) -> Result<TallyState, StoreError> {
    let mut conn = pool.acquire().await.map_err(|e| db_error("reading the tallies' state", e))?;
    state_on(&mut conn).await.map_err(|e| db_error("reading the tallies' state", e))
}

/// Complete games of `game` not counted yet, ascending, at most `limit`.
async fn uncounted_games(pool: &Pool<Db>, game: &str, limit: i64) -> Result<Vec<i64>, StoreError> {
    sqlx::query_scalar(
        "SELECT g.id FROM games g WHERE g.game = $1 AND g.status = 'complete' \
         AND NOT EXISTS (SELECT 1 FROM stat_counted c WHERE c.game_id = g.id) ORDER BY g.id LIMIT $2",
    )
    .bind(game)
    .bind(limit.max(0))
    .fetch_all(pool)
    .await
    .map_err(|e| db_error("finding games to count", e))
}

/// The tally rows written after counting transaction `after` (see [`Store::tallies_after`]).
async fn tallies_after(pool: &Pool<Db>, after: i64) -> Result<TallyRows, StoreError> {
    let fail = |e| db_error("reading the tallies", e);
    // The state first: counting transactions commit in the order of their numbers (one at a
    // time), so rows read afterwards include every transaction up to the number read.
    let state: Vec<(String, i64)> = sqlx::query_as("SELECT name, value FROM stat_state WHERE name IN ($1, $2)")
        .bind(TALLY_VERSION)
        .bind(RECOUNTED_AT)
        .fetch_all(pool)
        .await
        .map_err(fail)?;
    let get = |name: &str| state.iter().find(|(n, _)| n == name).map_or(0, |(_, v)| *v);
    let (version, recounted_at) = (get(TALLY_VERSION), get(RECOUNTED_AT));
    let whole = recounted_at > after;
    let rows: Vec<(String, String, i64)> =
        sqlx::query_as("SELECT bucket, tally, version FROM stat_tallies WHERE version > $1 ORDER BY bucket")
            .bind(if whole { -1 } else { after })
            .fetch_all(pool)
            .await
            .map_err(fail)?;
    let version = rows.iter().map(|r| r.2).fold(version, i64::max);
    Ok(TallyRows { version, whole, rows: rows.into_iter().map(|(b, t, _)| (b, t)).collect() })
}

/// The number of this counting transaction (one more than the last).
async fn next_version(conn: &mut Conn) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar(
        "INSERT INTO stat_state (name, value) VALUES ($1, 1) \
         ON CONFLICT (name) DO UPDATE SET value = stat_state.value + 1 RETURNING value",
    )
    .bind(TALLY_VERSION)
    .fetch_one(&mut *conn)
    .await
}

/// Starts a counting transaction: one at a time per database.
async fn begin_counting(conn: &mut Conn) -> Result<sqlx::Transaction<'_, Db>, sqlx::Error> {
    let mut tx = sqlx::Connection::begin_with(conn, BEGIN).await?;
    if let Some(lock) = TALLY_LOCK {
        sqlx::query(lock).execute(&mut *tx).await?;
    }
    Ok(tx)
}

async fn insert_counted(conn: &mut Conn, counting: &Counting) -> Result<(), sqlx::Error> {
    let months: HashMap<i64, i64> = counting.months.iter().copied().collect();
    for chunk in counting.counted.chunks(MAX_BINDS / 2) {
        let mut qb: QueryBuilder<'_, Db> = QueryBuilder::new("INSERT INTO stat_counted (game_id, month) ");
        qb.push_values(chunk, |mut b, id| {
            b.push_bind(*id).push_bind(months.get(id).copied());
        });
        qb.build().persistent(false).execute(&mut *conn).await?;
    }
    Ok(())
}

async fn upsert_tallies(conn: &mut Conn, tallies: &[(String, String)], version: i64) -> Result<(), sqlx::Error> {
    for chunk in tallies.chunks(MAX_BINDS / 3) {
        let mut qb: QueryBuilder<'_, Db> = QueryBuilder::new("INSERT INTO stat_tallies (bucket, tally, version) ");
        qb.push_values(chunk, |mut b, (bucket, tally)| {
            b.push_bind(bucket.as_str()).push_bind(tally.as_str()).push_bind(version);
        });
        qb.push(" ON CONFLICT (bucket) DO UPDATE SET tally = excluded.tally, version = excluded.version");
        qb.build().persistent(false).execute(&mut *conn).await?;
    }
    Ok(())
}

async fn set_state(conn: &mut Conn, name: &str, value: i64) -> Result<(), sqlx::Error> {
    sqlx::query("INSERT INTO stat_state (name, value) VALUES ($1, $2) ON CONFLICT (name) DO UPDATE SET value = excluded.value")
        .bind(name)
        .bind(value)
        .execute(&mut *conn)
        .await?;
    Ok(())
}

async fn insert_seats(conn: &mut Conn, seats: &[(String, i64)]) -> Result<(), sqlx::Error> {
    for chunk in seats.chunks(MAX_BINDS / 2) {
        let mut qb: QueryBuilder<'_, Db> = QueryBuilder::new("INSERT INTO stat_player_games (player_key, game_id) ");
        qb.push_values(chunk, |mut b, (key, game)| {
            b.push_bind(key.as_str()).push_bind(*game);
        });
        qb.build().persistent(false).execute(&mut *conn).await?;
    }
    Ok(())
}

/// Counted Caverna games of some players and/or an uploader (see [`Store::counted_games_of`]).
async fn counted_games_of(
    pool: &Pool<Db>,
    players: &[String],
    uploader: Option<&str>,
    limit: i64,
) -> Result<Vec<i64>, StoreError> {
    let mut qb: QueryBuilder<'_, Db> = if players.is_empty() {
        QueryBuilder::new(
            "SELECT g.id FROM games g JOIN stat_counted c ON c.game_id = g.id \
             WHERE g.game = 'caverna' AND g.status = 'complete'",
        )
    } else {
        let mut qb = QueryBuilder::new(
            "SELECT DISTINCT g.id FROM stat_player_games p JOIN games g ON g.id = p.game_id WHERE p.player_key IN ",
        );
        let keys: Vec<&str> = players.iter().take(MAX_BINDS).map(String::as_str).collect();
        push_in_list(&mut qb, &keys);
        qb
    };
    if let Some(name) = uploader {
        qb.push(" AND g.uploader = ").push_bind(name);
    }
    qb.push(" ORDER BY g.id LIMIT ").push_bind(limit.max(0));
    qb.build_query_scalar().persistent(false).fetch_all(pool).await.map_err(|e| db_error("finding one player's games", e))
}

/// Counted Caverna games of some months (see [`Store::counted_games_in_months`]).
async fn counted_games_in_months(pool: &Pool<Db>, months: &[i64], limit: i64) -> Result<Vec<i64>, StoreError> {
    let mut qb: QueryBuilder<'_, Db> = QueryBuilder::new("SELECT game_id FROM stat_counted WHERE month IN ");
    push_in_list(&mut qb, &months[..months.len().min(MAX_BINDS)]);
    qb.push(" ORDER BY game_id LIMIT ").push_bind(limit.max(0));
    qb.build_query_scalar().persistent(false).fetch_all(pool).await.map_err(|e| db_error("finding a month's games", e))
}

/// Adds the tallies of newly counted games (see [`Store::add_tallies`]).
async fn add_tallies_on(
    conn: &mut Conn,
    expect: &TallyState,
    counting: &Counting,
    merge: &(dyn Fn(&str, &str, &str) -> Result<String, String> + Sync),
) -> Result<Result<bool, String>, sqlx::Error> {
    let (counted, tallies) = (&counting.counted, &counting.tallies);
    let mut tx = begin_counting(conn).await?;
    if state_on(&mut tx).await? != *expect {
        return Ok(Ok(false));
    }
    for chunk in counted.chunks(MAX_BINDS) {
        let mut qb: QueryBuilder<'_, Db> = QueryBuilder::new("SELECT COUNT(*) FROM stat_counted WHERE game_id IN ");
        push_in_list(&mut qb, chunk);
        let already: i64 = qb.build_query_scalar().persistent(false).fetch_one(&mut *tx).await?;
        if already > 0 {
            return Ok(Ok(false));
        }
    }
    insert_counted(&mut tx, counting).await?;
    insert_seats(&mut tx, &counting.seats).await?;
    let keys: Vec<&str> = tallies.iter().map(|(k, _)| k.as_str()).collect();
    let mut old: HashMap<String, String> = HashMap::new();
    for chunk in keys.chunks(MAX_BINDS) {
        let mut qb: QueryBuilder<'_, Db> = QueryBuilder::new("SELECT bucket, tally FROM stat_tallies WHERE bucket IN ");
        push_in_list(&mut qb, chunk);
        let rows: Vec<(String, String)> = qb.build_query_as().persistent(false).fetch_all(&mut *tx).await?;
        old.extend(rows);
    }
    let mut merged = Vec::with_capacity(tallies.len());
    for (bucket, tally) in tallies {
        let text = match old.get(bucket) {
            Some(before) => match merge(bucket, before, tally) {
                Ok(text) => text,
                Err(why) => return Ok(Err(why)),
            },
            None => tally.clone(),
        };
        merged.push((bucket.clone(), text));
    }
    let version = next_version(&mut tx).await?;
    upsert_tallies(&mut tx, &merged, version).await?;
    notify(&mut tx, &crate::changes::Change::Tallied).await?;
    tx.commit().await?;
    Ok(Ok(true))
}

/// Replaces every tally (see [`Store::replace_tallies`]).
async fn replace_tallies_on(
    conn: &mut Conn,
    expect: &TallyState,
    format: i64,
    counting: &Counting,
) -> Result<bool, sqlx::Error> {
    let mut tx = begin_counting(conn).await?;
    if state_on(&mut tx).await?.verdicts != expect.verdicts {
        return Ok(false);
    }
    for table in ["stat_counted", "stat_tallies", "stat_player_games"] {
        sqlx::query(&format!("DELETE FROM {table}")).execute(&mut *tx).await?;
    }
    insert_counted(&mut tx, counting).await?;
    insert_seats(&mut tx, &counting.seats).await?;
    let version = next_version(&mut tx).await?;
    upsert_tallies(&mut tx, &counting.tallies, version).await?;
    set_state(&mut tx, RECOUNTED_AT, version).await?;
    set_state(&mut tx, TALLIED_VERDICTS, expect.verdicts).await?;
    set_state(&mut tx, TALLY_FORMAT, format).await?;
    notify(&mut tx, &crate::changes::Change::Tallied).await?;
    tx.commit().await?;
    Ok(true)
}
