// What the API service needs beyond import: games without logs and facts, listing with
// filters, API tokens and tournaments. `include!`d by `pg.rs` and `sqlite.rs` after
// `common.rs` (whose imports and helpers it uses); compiled once per backend.

/// Reads games' verdicts and players for `ids`, in the order of `ids`.
async fn game_heads(pool: &Pool<Db>, ids: &[i64]) -> Result<Vec<GameHead>, StoreError> {
    let fail = |e| db_error("reading games", e);
    let mut heads: HashMap<i64, GameHead> = HashMap::with_capacity(ids.len());
    for chunk in ids.chunks(MAX_BINDS) {
        let mut qb: QueryBuilder<'_, Db> = QueryBuilder::new(format!(
            "SELECT g.id, g.log_sha256, g.format, g.uploader, {} AS uploaded_at, {} FROM games g WHERE g.id IN ",
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
            };
            heads.insert(id, head);
        }
        let mut qb: QueryBuilder<'_, Db> =
            QueryBuilder::new(format!("SELECT game_id, {} FROM game_players WHERE game_id IN ", player_columns()));
        push_in_list(&mut qb, chunk);
        qb.push(" ORDER BY game_id, seat");
        for row in qb.build().persistent(false).fetch_all(pool).await.map_err(fail)? {
            let id: i64 = row.try_get("game_id").map_err(fail)?;
            if let Some(head) = heads.get_mut(&id) {
                head.record.players.push(player_from(&row).map_err(fail)?);
            }
        }
    }
    Ok(ids.iter().filter_map(|id| heads.remove(id)).collect())
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
    if let Some(n) = filter.player_count {
        qb.push(" AND g.player_count = ").push_bind(n);
    }
    if let Some(status) = filter.status {
        qb.push(" AND g.status = ").push_bind(status_str(status));
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
    if let Some(from) = &filter.played_from {
        qb.push(format!(" AND g.played_at{BYTE_ORDER} >= ")).push_bind(from.clone());
    }
    if let Some(to) = &filter.played_to {
        qb.push(format!(" AND g.played_at{BYTE_ORDER} < ")).push_bind(prefix_upper_bound(to));
    }
    qb.push(" ORDER BY g.id LIMIT ").push_bind(limit);
    qb.build_query_scalar().persistent(false).fetch_all(pool).await.map_err(|e| db_error("listing games", e))
}

async fn create_token(pool: &Pool<Db>, name: &str, sha256: &str) -> Result<i64, StoreError> {
    sqlx::query_scalar("INSERT INTO api_tokens (name, token_sha256) VALUES ($1, $2) RETURNING id")
        .bind(crate::facts::clean(name))
        .bind(sha256)
        .fetch_one(pool)
        .await
        .map_err(|e| db_error("creating a token", e))
}

async fn bearer(pool: &Pool<Db>, sha256: &str) -> Result<Option<Bearer>, StoreError> {
    let fail = |e| db_error("checking a token", e);
    let api = sqlx::query("SELECT id, name FROM api_tokens WHERE token_sha256 = $1")
        .bind(sha256)
        .fetch_optional(pool)
        .await
        .map_err(fail)?;
    if let Some(row) = api {
        return Ok(Some(Bearer::Api { id: row.try_get("id").map_err(fail)?, name: row.try_get("name").map_err(fail)? }));
    }
    let organizer: Option<i64> = sqlx::query_scalar("SELECT id FROM tournaments WHERE organizer_token_sha256 = $1")
        .bind(sha256)
        .fetch_optional(pool)
        .await
        .map_err(fail)?;
    Ok(organizer.map(|tournament| Bearer::Organizer { tournament }))
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
    let fail = |e| db_error("creating a tournament", e);
    let sql = format!(
        "INSERT INTO tournaments (name, organizer_token_sha256, created_by) VALUES ($1, $2, $3) \
         RETURNING id, name, {} AS created_at",
        utc("created_at")
    );
    let row = sqlx::query(&sql)
        .bind(crate::facts::clean(name))
        .bind(organizer_sha256)
        .bind(created_by)
        .fetch_one(pool)
        .await
        .map_err(fail)?;
    tournament_from(&row).map_err(fail)
}

async fn tournament(pool: &Pool<Db>, id: i64) -> Result<Option<TournamentRow>, StoreError> {
    let fail = |e| db_error("reading a tournament", e);
    let sql = format!("SELECT id, name, {} AS created_at FROM tournaments WHERE id = $1", utc("created_at"));
    let row = sqlx::query(&sql).bind(id).fetch_optional(pool).await.map_err(fail)?;
    row.map(|r| tournament_from(&r).map_err(fail)).transpose()
}

async fn add_tournament_games(pool: &Pool<Db>, tournament: i64, games: &[i64]) -> Result<Vec<i64>, StoreError> {
    let fail = |e| db_error("adding games to a tournament", e);
    let mut unique: Vec<i64> = games.to_vec();
    unique.sort_unstable();
    unique.dedup();
    let mut tx = pool.begin_with(BEGIN).await.map_err(fail)?;
    let mut found = std::collections::HashSet::new();
    for chunk in unique.chunks(MAX_BINDS) {
        let mut qb: QueryBuilder<'_, Db> = QueryBuilder::new("SELECT id FROM games WHERE id IN ");
        push_in_list(&mut qb, chunk);
        let ids: Vec<i64> = qb.build_query_scalar().persistent(false).fetch_all(&mut *tx).await.map_err(fail)?;
        found.extend(ids);
    }
    let missing: Vec<i64> = unique.iter().copied().filter(|id| !found.contains(id)).collect();
    if !missing.is_empty() {
        tx.rollback().await.map_err(fail)?;
        return Ok(missing);
    }
    for chunk in unique.chunks(MAX_BINDS / 2) {
        let mut qb: QueryBuilder<'_, Db> = QueryBuilder::new("INSERT INTO tournament_games (tournament_id, game_id) ");
        qb.push_values(chunk, |mut b, id| {
            b.push_bind(tournament).push_bind(*id);
        });
        qb.push(" ON CONFLICT DO NOTHING");
        qb.build().persistent(false).execute(&mut *tx).await.map_err(fail)?;
    }
    tx.commit().await.map_err(fail)?;
    Ok(Vec::new())
}

async fn tournament_games(pool: &Pool<Db>, tournament: i64) -> Result<Vec<i64>, StoreError> {
    sqlx::query_scalar("SELECT game_id FROM tournament_games WHERE tournament_id = $1 ORDER BY game_id")
        .bind(tournament)
        .fetch_all(pool)
        .await
        .map_err(|e| db_error("reading a tournament's games", e))
}

/// Up to `limit` complete games with an id greater than `after`, by id, with players and facts.
async fn complete_records(pool: &Pool<Db>, after: i64, limit: i64) -> Result<Vec<(i64, GameRecord)>, StoreError> {
    let fail = |e| db_error("reading game facts", e);
    let ids: Vec<i64> =
        sqlx::query_scalar("SELECT id FROM games WHERE id > $1 AND status = 'complete' ORDER BY id LIMIT $2")
            .bind(after)
            .bind(limit)
            .fetch_all(pool)
            .await
            .map_err(fail)?;
    let heads = game_heads(pool, &ids).await?;
    let mut facts = facts_of(pool, &ids).await.map_err(fail)?;
    Ok(heads
        .into_iter()
        .map(|mut h| {
            if let Some(f) = facts.remove(&h.id) {
                f.fill(&mut h.record);
            }
            (h.id, h.record)
        })
        .collect())
}
