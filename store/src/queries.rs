// What the API service needs beyond import: games without logs and facts, listing with
// filters, API tokens and tournaments. `include!`d by `pg.rs` and `sqlite.rs` after
// `common.rs` (whose imports and helpers it uses); compiled once per backend.

/// Reads games' verdicts and players for `ids`, in the order of `ids`.
async fn game_heads(pool: &Pool<Db>, ids: &[i64]) -> Result<Vec<GameHead>, StoreError> {
    let fail = |e| db_error("reading games", e);
    let mut heads: HashMap<i64, GameHead> = HashMap::with_capacity(ids.len());
    for chunk in ids.chunks(MAX_BINDS) {
        let mut qb: QueryBuilder<'_, Db> = QueryBuilder::new(format!(
            "SELECT g.id, g.log_sha256, g.format, g.uploader, {} AS uploaded_at, {}, \
             (SELECT l.size FROM game_logs l WHERE l.game_id = g.id) AS log_bytes FROM games g WHERE g.id IN ",
            utc("g.uploaded_at"),
            VERDICT_COLUMNS.map(|c| format!("g.{c}")).join(", ")
        ));
        push_in_list(&mut qb, chunk);
        for row in qb.build().persistent(false).fetch_all(pool).await.map_err(fail)? {
            let id: i64 = row.try_get("id").map_err(fail)?;
            let head = GameHead {
                id,
                sha256: row.try_get("log_sha256").map_err(fail)?,
                format: row.try_get("format").map_err(fail)?,
                uploader: row.try_get("uploader").map_err(fail)?,
                uploaded_at: row.try_get("uploaded_at").map_err(fail)?,
                record: verdict_from(&row, id)?,
                log_bytes: row.try_get::<Option<i64>, _>("log_bytes").map_err(fail)?.unwrap_or(0),
            };
            heads.insert(id, head);
        }
        let mut qb: QueryBuilder<'_, Db> =
            QueryBuilder::new(format!("SELECT game_id, {} FROM game_players WHERE game_id IN ", player_columns()));
        push_in_list(&mut qb, chunk);
        qb.push(" ORDER BY game_id, seat");
        // Games whose players were written before the compact form (score rows and counters in
        // their own tables).
        let mut old = Vec::new();
        for row in qb.build().persistent(false).fetch_all(pool).await.map_err(fail)? {
            let id: i64 = row.try_get("game_id").map_err(fail)?;
            if let Some(head) = heads.get_mut(&id) {
                let (player, sheet) = player_from(&row).map_err(fail)?;
                if !sheet && old.last() != Some(&id) {
                    old.push(id);
                }
                head.record.players.push(player);
            }
        }
        if old.is_empty() {
            continue;
        }
        let mut rows = score_rows_of(pool, &old).await.map_err(fail)?;
        let mut counts = counters_of(pool, &old).await.map_err(fail)?;
        for &id in &old {
            if let Some(head) = heads.get_mut(&id) {
                attach_score_rows(id, &mut head.record.players, &mut rows);
                attach_counters(id, &mut head.record, &mut counts);
            }
        }
    }
    Ok(ids.iter().filter_map(|id| heads.remove(id)).collect())
}

/// Reads games' verdicts, players and facts for `ids`, in the order of `ids`, without logs.
async fn games_with_facts(pool: &Pool<Db>, ids: &[i64]) -> Result<Vec<GameHead>, StoreError> {
    let mut heads = game_heads(pool, ids).await?;
    let with_facts: Vec<i64> = heads.iter().filter(|h| h.record.facts.caverna().is_some()).map(|h| h.id).collect();
    if !with_facts.is_empty() {
        let mut facts = facts_of(pool, &with_facts).await.map_err(|e| db_error("reading games' facts", e))?;
        for head in &mut heads {
            let id = head.id;
            fill_facts(&mut head.record, facts.remove(&id));
        }
    }
    Ok(heads)
}

async fn game_log(pool: &Pool<Db>, id: i64) -> Result<Option<CompressedLog>, StoreError> {
    let fail = |e| db_error("reading a log", e);
    let row = sqlx::query("SELECT encoding, size, data FROM game_logs WHERE game_id = $1")
        .bind(id)
        .fetch_optional(pool)
        .await
        .map_err(fail)?;
    row.map(|row| {
        Ok(CompressedLog {
            encoding: row.try_get("encoding").map_err(fail)?,
            size: row.try_get("size").map_err(fail)?,
            data: row.try_get("data").map_err(fail)?,
        })
    })
    .transpose()
}

/// The upper bound for `played_to`: every text that starts with it sorts below (byte order).
fn prefix_upper_bound(s: &str) -> String {
    format!("{s}\u{10FFFF}")
}

async fn list_games(pool: &Pool<Db>, filter: &GameFilter, after: i64, limit: i64) -> Result<Vec<i64>, StoreError> {
    let mut qb: QueryBuilder<'_, Db> = QueryBuilder::new("SELECT g.id FROM games g WHERE g.id > ");
    qb.push_bind(after);
    if let Some(game) = filter.game {
        qb.push(" AND g.game = ").push_bind(game.id());
    }
    if let Some(t) = &filter.meta_tournament {
        qb.push(" AND g.tournament = ").push_bind(t.clone());
    }
    if let Some(n) = filter.player_count {
        qb.push(" AND g.player_count = ").push_bind(n);
    }
    if let Some(status) = filter.status {
        qb.push(" AND g.status = ").push_bind(status.id());
    }
    if let Some(t) = filter.tournament {
        qb.push(" AND EXISTS (SELECT 1 FROM tournament_games t WHERE t.game_id = g.id AND t.tournament_id = ")
            .push_bind(t)
            .push(")");
    }
    if let Some(name) = &filter.player_name {
        qb.push(" AND EXISTS (SELECT 1 FROM game_players p WHERE p.game_id = g.id AND p.name = ")
            .push_bind(name.clone())
            .push(")");
    }
    if let Some(uploader) = &filter.uploader {
        qb.push(" AND g.uploader = ").push_bind(uploader.clone());
    }
    // Sources match by prefix, compared byte for byte (no LIKE patterns to escape).
    if let Some(source) = &filter.source {
        qb.push(" AND substr(g.source, 1, length(").push_bind(source.clone()).push(")) = ").push_bind(source.clone());
    }
    if let Some(source) = &filter.exclude_source {
        qb.push(" AND (g.source IS NULL OR substr(g.source, 1, length(")
            .push_bind(source.clone())
            .push(")) <> ")
            .push_bind(source.clone())
            .push(")");
    }
    if let Some(from) = &filter.played_from {
        qb.push(format!(" AND g.played_at{BYTE_ORDER} >= ")).push_bind(from.clone());
    }
    if let Some(to) = &filter.played_to {
        qb.push(format!(" AND g.played_at{BYTE_ORDER} < ")).push_bind(prefix_upper_bound(to));
    }
    qb.push(" ORDER BY g.id LIMIT ").push_bind(limit);
    qb.build_query_scalar().persistent(false).fetch_all(pool).await.map_err(|e| db_error("listing games", e))
}

async fn create_token(pool: &Pool<Db>, name: &str, sha256: &str, expires_in: Option<i64>) -> Result<i64, StoreError> {
    let run = async { write_tx!(pool, |conn| create_token_on(conn, name, sha256, expires_in)) };
    run.await.map_err(|e| db_error("creating a token", e))
}

/// In a transaction of its own: SQLite reports a full disk when an `INSERT … RETURNING`
/// finishes, after its row; the commit reports it for sure.
async fn create_token_on(conn: &mut Conn, name: &str, sha256: &str, expires_in: Option<i64>) -> Result<i64, sqlx::Error> {
    let mut tx = sqlx::Connection::begin_with(conn, BEGIN).await?;
    let expires = if expires_in.is_some() { now_plus_seconds("$3") } else { "NULL".to_owned() };
    let sql = format!("INSERT INTO api_tokens (name, token_sha256, expires_at) VALUES ($1, $2, {expires}) RETURNING id");
    let mut query = sqlx::query_scalar(&sql).bind(crate::record::clean(name)).bind(sha256);
    if let Some(seconds) = expires_in {
        query = query.bind(seconds);
    }
    let id = query.fetch_one(&mut *tx).await?;
    tx.commit().await?;
    Ok(id)
}

async fn tokens(pool: &Pool<Db>) -> Result<Vec<TokenRow>, StoreError> {
    let fail = |e| db_error("listing tokens", e);
    let sql = format!(
        "SELECT id, name, {} AS created_at, {} AS expires_at, {} AS revoked_at, \
         (expires_at IS NOT NULL AND expires_at <= {NOW}) AS expired FROM api_tokens ORDER BY id",
        utc("created_at"),
        utc("expires_at"),
        utc("revoked_at"),
    );
    let rows = sqlx::query(&sql).fetch_all(pool).await.map_err(fail)?;
    rows.iter()
        .map(|r| {
            Ok(TokenRow {
                id: r.try_get("id")?,
                name: r.try_get("name")?,
                created_at: r.try_get("created_at")?,
                expires_at: r.try_get("expires_at")?,
                revoked_at: r.try_get("revoked_at")?,
                expired: r.try_get("expired")?,
            })
        })
        .collect::<Result<_, sqlx::Error>>()
        .map_err(fail)
}

async fn revoke_token(pool: &Pool<Db>, id: i64) -> Result<Revoked, StoreError> {
    let fail = |e| db_error("revoking a token", e);
    let sql = format!("UPDATE api_tokens SET revoked_at = {NOW} WHERE id = $1 AND revoked_at IS NULL");
    let changed = sqlx::query(&sql).bind(id).execute(pool).await.map_err(fail)?.rows_affected();
    if changed > 0 {
        return Ok(Revoked::Now);
    }
    let exists: Option<i64> =
        sqlx::query_scalar("SELECT id FROM api_tokens WHERE id = $1").bind(id).fetch_optional(pool).await.map_err(fail)?;
    Ok(if exists.is_some() { Revoked::Already } else { Revoked::NoSuchToken })
}

async fn bearer(pool: &Pool<Db>, sha256: &str) -> Result<TokenLookup, StoreError> {
    let fail = |e| db_error("checking a token", e);
    let sql = format!(
        "SELECT id, name, revoked_at IS NOT NULL AS revoked, \
         (expires_at IS NOT NULL AND expires_at <= {NOW}) AS expired FROM api_tokens WHERE token_sha256 = $1"
    );
    let api = sqlx::query(&sql).bind(sha256).fetch_optional(pool).await.map_err(fail)?;
    if let Some(row) = api {
        if row.try_get::<bool, _>("revoked").map_err(fail)? {
            return Ok(TokenLookup::Revoked);
        }
        if row.try_get::<bool, _>("expired").map_err(fail)? {
            return Ok(TokenLookup::Expired);
        }
        let bearer = Bearer::Api { id: row.try_get("id").map_err(fail)?, name: row.try_get("name").map_err(fail)? };
        return Ok(TokenLookup::Valid(bearer));
    }
    let organizer: Option<i64> = sqlx::query_scalar("SELECT id FROM tournaments WHERE organizer_token_sha256 = $1")
        .bind(sha256)
        .fetch_optional(pool)
        .await
        .map_err(fail)?;
    Ok(match organizer {
        Some(tournament) => TokenLookup::Valid(Bearer::Organizer { tournament }),
        None => TokenLookup::Unknown,
    })
}

fn tournament_from(row: &DbRow) -> Result<TournamentRow, sqlx::Error> {
    Ok(TournamentRow { id: row.try_get("id")?, name: row.try_get("name")?, created_at: row.try_get("created_at")? })
}

async fn create_tournament(
    pool: &Pool<Db>,
    name: &str,
    organizer_sha256: &str,
    created_by: Option<i64>,
) -> Result<TournamentRow, StoreError> {
    let run = async { write_tx!(pool, |conn| create_tournament_on(conn, name, organizer_sha256, created_by)) };
    run.await.map_err(|e| db_error("creating a tournament", e))
}

/// In a transaction of its own, for the reason given at `create_token_on`.
async fn create_tournament_on(
    conn: &mut Conn,
    name: &str,
    organizer_sha256: &str,
    created_by: Option<i64>,
) -> Result<TournamentRow, sqlx::Error> {
    let mut tx = sqlx::Connection::begin_with(conn, BEGIN).await?;
    let sql = format!(
        "INSERT INTO tournaments (name, organizer_token_sha256, created_by) VALUES ($1, $2, $3) \
         RETURNING id, name, {} AS created_at",
        utc("created_at")
    );
    let row = sqlx::query(&sql)
        .bind(crate::record::clean(name))
        .bind(organizer_sha256)
        .bind(created_by)
        .fetch_one(&mut *tx)
        .await?;
    let created = tournament_from(&row)?;
    tx.commit().await?;
    Ok(created)
}

async fn tournament(pool: &Pool<Db>, id: i64) -> Result<Option<TournamentRow>, StoreError> {
    let fail = |e| db_error("reading a tournament", e);
    let sql = format!("SELECT id, name, {} AS created_at FROM tournaments WHERE id = $1", utc("created_at"));
    let row = sqlx::query(&sql).bind(id).fetch_optional(pool).await.map_err(fail)?;
    row.map(|r| tournament_from(&r).map_err(fail)).transpose()
}

async fn tournaments(pool: &Pool<Db>, after: i64, limit: i64) -> Result<Vec<TournamentRow>, StoreError> {
    let fail = |e| db_error("reading tournaments", e);
    let sql = format!(
        "SELECT id, name, {} AS created_at FROM tournaments WHERE id > $1 ORDER BY id LIMIT $2",
        utc("created_at")
    );
    let rows = sqlx::query(&sql).bind(after).bind(limit).fetch_all(pool).await.map_err(fail)?;
    rows.iter().map(|r| tournament_from(r).map_err(fail)).collect()
}

/// The games replaced in a tournament by a corrected upload, by id.
async fn replaced_games(pool: &Pool<Db>, tournament: i64) -> Result<Vec<i64>, StoreError> {
    sqlx::query_scalar("SELECT old_game_id FROM tournament_replacements WHERE tournament_id = $1 ORDER BY old_game_id")
        .bind(tournament)
        .fetch_all(pool)
        .await
        .map_err(|e| db_error("reading a tournament's replaced games", e))
}

/// The tournaments that hold game `game`, by id (bounded by the tournaments a game can be in:
/// one row per membership).
async fn game_tournaments(pool: &Pool<Db>, game: i64) -> Result<Vec<TournamentRow>, StoreError> {
    let fail = |e| db_error("reading a game's tournaments", e);
    let sql = format!(
        "SELECT t.id, t.name, {} AS created_at FROM tournaments t JOIN tournament_games g ON g.tournament_id = t.id \
         WHERE g.game_id = $1 ORDER BY t.id",
        utc("t.created_at")
    );
    let rows = sqlx::query(&sql).bind(game).fetch_all(pool).await.map_err(fail)?;
    rows.iter().map(|r| tournament_from(r).map_err(fail)).collect()
}

async fn add_tournament_games(pool: &Pool<Db>, tournament: i64, games: &[i64]) -> Result<Vec<i64>, StoreError> {
    let run = async { write_tx!(pool, |conn| add_tournament_games_on(conn, tournament, games)) };
    run.await.map_err(|e| db_error("adding games to a tournament", e))
}

async fn add_tournament_games_on(conn: &mut Conn, tournament: i64, games: &[i64]) -> Result<Vec<i64>, sqlx::Error> {
    let mut unique: Vec<i64> = games.to_vec();
    unique.sort_unstable();
    unique.dedup();
    let mut tx = sqlx::Connection::begin_with(conn, BEGIN).await?;
    let mut found = std::collections::HashSet::new();
    for chunk in unique.chunks(MAX_BINDS) {
        let mut qb: QueryBuilder<'_, Db> = QueryBuilder::new("SELECT id FROM games WHERE id IN ");
        push_in_list(&mut qb, chunk);
        let ids: Vec<i64> = qb.build_query_scalar().persistent(false).fetch_all(&mut *tx).await?;
        found.extend(ids);
    }
    let missing: Vec<i64> = unique.iter().copied().filter(|id| !found.contains(id)).collect();
    if !missing.is_empty() {
        tx.rollback().await?;
        return Ok(missing);
    }
    for chunk in unique.chunks(MAX_BINDS / 2) {
        let mut qb: QueryBuilder<'_, Db> = QueryBuilder::new("INSERT INTO tournament_games (tournament_id, game_id) ");
        qb.push_values(chunk, |mut b, id| {
            b.push_bind(tournament).push_bind(*id);
        });
        qb.push(" ON CONFLICT DO NOTHING");
        qb.build().persistent(false).execute(&mut *tx).await?;
    }
    tx.commit().await?;
    Ok(Vec::new())
}

async fn change_tournament(pool: &Pool<Db>, tournament: i64, change: &TournamentChange) -> Result<Changed, StoreError> {
    let run = async { write_tx!(pool, |conn| change_tournament_on(conn, tournament, change)) };
    run.await.map_err(|e| db_error("changing a tournament", e))
}

async fn change_tournament_on(conn: &mut Conn, tournament: i64, change: &TournamentChange) -> Result<Changed, sqlx::Error> {
    let mut tx = sqlx::Connection::begin_with(conn, BEGIN).await?;
    let exists: Option<i64> =
        sqlx::query_scalar("SELECT id FROM tournaments WHERE id = $1").bind(tournament).fetch_optional(&mut *tx).await?;
    if exists.is_none() {
        tx.rollback().await?;
        return Ok(Changed::NoTournament);
    }
    let outcome = match change {
        TournamentChange::Rename(name) => {
            sqlx::query("UPDATE tournaments SET name = $2 WHERE id = $1")
                .bind(tournament)
                .bind(crate::record::clean(name))
                .execute(&mut *tx)
                .await?;
            Changed::Done
        }
        TournamentChange::Remove(game) => {
            let gone = sqlx::query("DELETE FROM tournament_games WHERE tournament_id = $1 AND game_id = $2")
                .bind(tournament)
                .bind(*game)
                .execute(&mut *tx)
                .await?
                .rows_affected();
            if gone == 0 { Changed::NotInTournament(*game) } else { Changed::Done }
        }
        TournamentChange::Replace { old, new } => {
            let stored: Option<i64> =
                sqlx::query_scalar("SELECT id FROM games WHERE id = $1").bind(*new).fetch_optional(&mut *tx).await?;
            if stored.is_none() {
                Changed::NoGame(*new)
            } else {
                let gone = sqlx::query("DELETE FROM tournament_games WHERE tournament_id = $1 AND game_id = $2")
                    .bind(tournament)
                    .bind(*old)
                    .execute(&mut *tx)
                    .await?
                    .rows_affected();
                if gone == 0 {
                    Changed::NotInTournament(*old)
                } else {
                    sqlx::query(
                        "INSERT INTO tournament_games (tournament_id, game_id) VALUES ($1, $2) ON CONFLICT DO NOTHING",
                    )
                    .bind(tournament)
                    .bind(*new)
                    .execute(&mut *tx)
                    .await?;
                    // Remembered so that the replaced game is not offered to the tournament again.
                    sqlx::query(
                        "INSERT INTO tournament_replacements (tournament_id, old_game_id, new_game_id) VALUES ($1, $2, $3) \
                         ON CONFLICT (tournament_id, old_game_id) DO UPDATE SET new_game_id = excluded.new_game_id",
                    )
                    .bind(tournament)
                    .bind(*old)
                    .bind(*new)
                    .execute(&mut *tx)
                    .await?;
                    Changed::Done
                }
            }
        }
    };
    if outcome == Changed::Done {
        tx.commit().await?;
    } else {
        tx.rollback().await?;
    }
    Ok(outcome)
}

async fn tournament_games(pool: &Pool<Db>, tournament: i64) -> Result<Vec<i64>, StoreError> {
    sqlx::query_scalar("SELECT game_id FROM tournament_games WHERE tournament_id = $1 ORDER BY game_id")
        .bind(tournament)
        .fetch_all(pool)
        .await
        .map_err(|e| db_error("reading a tournament's games", e))
}

/// Up to `limit` complete games with an id greater than `after`, by id, with players and facts.
async fn complete_records(pool: &Pool<Db>, after: i64, limit: i64) -> Result<Vec<GameHead>, StoreError> {
    let fail = |e| db_error("reading game facts", e);
    let ids: Vec<i64> =
        sqlx::query_scalar("SELECT id FROM games WHERE id > $1 AND status = 'complete' ORDER BY id LIMIT $2")
            .bind(after)
            .bind(limit)
            .fetch_all(pool)
            .await
            .map_err(fail)?;
    let heads = game_heads(pool, &ids).await?;
    let with_facts: Vec<i64> = heads.iter().filter(|h| h.record.facts.caverna().is_some()).map(|h| h.id).collect();
    let mut facts = facts_of(pool, &with_facts).await.map_err(fail)?;
    Ok(heads
        .into_iter()
        .map(|mut h| {
            fill_facts(&mut h.record, facts.remove(&h.id));
            h
        })
        .collect())
}

async fn player_aliases(pool: &Pool<Db>) -> Result<Vec<(String, String)>, StoreError> {
    sqlx::query_as("SELECT alias, canonical FROM player_aliases ORDER BY alias")
        .fetch_all(pool)
        .await
        .map_err(|e| db_error("reading player aliases", e))
}

async fn merge_players(pool: &Pool<Db>, into: &str, aliases: &[String]) -> Result<String, StoreError> {
    let run = async { write_tx!(pool, |conn| merge_players_on(conn, into, aliases)) };
    match run.await.map_err(|e| db_error("merging players", e))? {
        Ok(canonical) => Ok(canonical),
        Err(alias) => Err(StoreError::other(format!("`{alias}` is the player merged into; nothing changed"))),
    }
}

/// `Ok(Err(alias))` when an alias is the canonical key itself (the transaction is rolled back).
async fn merge_players_on(conn: &mut Conn, into: &str, aliases: &[String]) -> Result<Result<String, String>, sqlx::Error> {
    let mut tx = sqlx::Connection::begin_with(conn, BEGIN).await?;
    let canonical: String = sqlx::query_scalar("SELECT canonical FROM player_aliases WHERE alias = $1")
        .bind(into)
        .fetch_optional(&mut *tx)
        .await?
        .unwrap_or_else(|| into.to_owned());
    for alias in aliases {
        if *alias == canonical {
            tx.rollback().await?;
            return Ok(Err(alias.clone()));
        }
        sqlx::query("DELETE FROM player_aliases WHERE alias = $1").bind(alias).execute(&mut *tx).await?;
        sqlx::query("UPDATE player_aliases SET canonical = $1 WHERE canonical = $2")
            .bind(&canonical)
            .bind(alias)
            .execute(&mut *tx)
            .await?;
        sqlx::query("INSERT INTO player_aliases (alias, canonical) VALUES ($1, $2)")
            .bind(alias)
            .bind(&canonical)
            .execute(&mut *tx)
            .await?;
    }
    tx.commit().await?;
    Ok(Ok(canonical))
}

async fn unmerge_player(pool: &Pool<Db>, alias: &str) -> Result<bool, StoreError> {
    let run = async {
        write_tx!(pool, |conn| async move {
            sqlx::query("DELETE FROM player_aliases WHERE alias = $1").bind(alias).execute(&mut *conn).await
        })
    };
    let done = run.await.map_err(|e| db_error("undoing a player merge", e))?;
    Ok(done.rows_affected() > 0)
}
