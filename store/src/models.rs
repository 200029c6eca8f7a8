// The rating models kept in the store (`stat_models`, `stat_seat_ratings`,
// `stat_player_ratings`). This file is `include!`d by `pg.rs` and `sqlite.rs` after
// `tallies.rs`; the service's models step (service/src/models.rs) is the only writer. A model
// is replaced whole, per game, in one transaction that takes the counting lock (so that two
// writers computing the same model commit one after the other) and first checks that what is
// stored is not already this model or a newer one.

use crate::{ModelHead, PlayerRatingRow, SeatRatingRow, StoredModel};

/// The version of the counted corpus of `game` (see [`Store::corpus_version`]): the number of
/// the last counting transaction that counted every game again, times 2³², plus the games of
/// `game` counted since. Between two recounts games are only added, so the count names the
/// set; a recount raises the first part.
async fn corpus_version(pool: &Pool<Db>, game: &str) -> Result<i64, StoreError> {
    let fail = |e| db_error("reading the corpus version", e);
    let recounted: Option<i64> = sqlx::query_scalar("SELECT value FROM stat_state WHERE name = $1")
        .bind(RECOUNTED_AT)
        .fetch_optional(pool)
        .await
        .map_err(fail)?;
    let counted: i64 = sqlx::query_scalar(
        "SELECT COUNT(*) FROM stat_counted c JOIN games g ON g.id = c.game_id WHERE g.game = $1",
    )
    .bind(game)
    .fetch_one(pool)
    .await
    .map_err(fail)?;
    Ok(recounted.unwrap_or(0).saturating_mul(1 << 32).saturating_add(counted))
}

/// The number of the last counting transaction (0 before the first; see
/// [`Store::counting_version`]).
async fn counting_version(pool: &Pool<Db>) -> Result<i64, StoreError> {
    let version: Option<i64> = sqlx::query_scalar("SELECT value FROM stat_state WHERE name = $1")
        .bind(TALLY_VERSION)
        .fetch_optional(pool)
        .await
        .map_err(|e| db_error("reading the counting version", e))?;
    Ok(version.unwrap_or(0))
}

/// Counted complete games of `game` after `after`, ascending, at most `limit`.
async fn counted_games(pool: &Pool<Db>, game: &str, after: i64, limit: i64) -> Result<Vec<i64>, StoreError> {
    sqlx::query_scalar(
        "SELECT c.game_id FROM stat_counted c JOIN games g ON g.id = c.game_id \
         WHERE g.game = $1 AND c.game_id > $2 ORDER BY c.game_id LIMIT $3",
    )
    .bind(game)
    .bind(after)
    .bind(limit.max(0))
    .fetch_all(pool)
    .await
    .map_err(|e| db_error("finding the counted games", e))
}

type ModelRow = (String, i64, i64, String, i64, Option<String>);

fn head_of((game, format, corpus, aliases, games, effects): ModelRow) -> StoredModel {
    StoredModel { head: ModelHead { game, format, corpus, aliases, games }, effects }
}

async fn stored_model_on(conn: &mut Conn, game: &str) -> Result<Option<StoredModel>, sqlx::Error> {
    let row: Option<ModelRow> =
        sqlx::query_as("SELECT game, format, corpus, aliases, games, effects FROM stat_models WHERE game = $1")
            .bind(game)
            .fetch_optional(&mut *conn)
            .await?;
    Ok(row.map(head_of))
}

async fn stored_model(pool: &Pool<Db>, game: &str) -> Result<Option<StoredModel>, StoreError> {
    let mut conn = pool.acquire().await.map_err(|e| db_error("reading a stored model", e))?;
    stored_model_on(&mut conn, game).await.map_err(|e| db_error("reading a stored model", e))
}

async fn insert_seat_ratings(conn: &mut Conn, game: &str, seats: &[SeatRatingRow]) -> Result<(), sqlx::Error> {
    for chunk in seats.chunks(MAX_BINDS / 9) {
        let mut qb: QueryBuilder<'_, Db> = QueryBuilder::new(
            "INSERT INTO stat_seat_ratings \
             (game_id, seat, game, player, ord, mu_before, sigma_before, mu_after, sigma_after) ",
        );
        qb.push_values(chunk, |mut b, s| {
            b.push_bind(s.game_id)
                .push_bind(i16::from(s.seat))
                .push_bind(game)
                .push_bind(s.player.as_str())
                .push_bind(s.order)
                .push_bind(s.mu_before)
                .push_bind(s.sigma_before)
                .push_bind(s.mu_after)
                .push_bind(s.sigma_after);
        });
        qb.build().persistent(false).execute(&mut *conn).await?;
    }
    Ok(())
}

async fn insert_player_ratings(conn: &mut Conn, game: &str, players: &[PlayerRatingRow]) -> Result<(), sqlx::Error> {
    for chunk in players.chunks(MAX_BINDS / 7) {
        let mut qb: QueryBuilder<'_, Db> =
            QueryBuilder::new("INSERT INTO stat_player_ratings (game, place, player, name, mu, sigma, games) ");
        qb.push_values(chunk, |mut b, p| {
            b.push_bind(game)
                .push_bind(p.place)
                .push_bind(p.player.as_str())
                .push_bind(p.name.as_str())
                .push_bind(p.mu)
                .push_bind(p.sigma)
                .push_bind(p.games);
        });
        qb.build().persistent(false).execute(&mut *conn).await?;
    }
    Ok(())
}

/// Replaces one game's model (see [`Store::replace_model`]).
async fn replace_model_on(
    conn: &mut Conn,
    model: &StoredModel,
    seats: &[SeatRatingRow],
    players: &[PlayerRatingRow],
) -> Result<bool, sqlx::Error> {
    let head = &model.head;
    let mut tx = begin_counting(conn).await?;
    if let Some(stored) = stored_model_on(&mut tx, &head.game).await? {
        let same = stored.head == *head;
        let newer = stored.head.format == head.format && stored.head.corpus > head.corpus;
        if same || newer {
            return Ok(false);
        }
    }
    for table in ["stat_seat_ratings", "stat_player_ratings"] {
        sqlx::query(&format!("DELETE FROM {table} WHERE game = $1")).bind(&head.game).execute(&mut *tx).await?;
    }
    insert_seat_ratings(&mut tx, &head.game, seats).await?;
    insert_player_ratings(&mut tx, &head.game, players).await?;
    sqlx::query(
        "INSERT INTO stat_models (game, format, corpus, aliases, games, effects) VALUES ($1, $2, $3, $4, $5, $6) \
         ON CONFLICT (game) DO UPDATE SET format = excluded.format, corpus = excluded.corpus, \
         aliases = excluded.aliases, games = excluded.games, effects = excluded.effects",
    )
    .bind(&head.game)
    .bind(head.format)
    .bind(head.corpus)
    .bind(&head.aliases)
    .bind(head.games)
    .bind(model.effects.as_deref())
    .execute(&mut *tx)
    .await?;
    tx.commit().await?;
    Ok(true)
}

type RatedPlayerRow = (i64, String, String, f64, f64, i64);

fn player_of((place, player, name, mu, sigma, games): RatedPlayerRow) -> PlayerRatingRow {
    PlayerRatingRow { place, player, name, mu, sigma, games }
}

/// A page of one game's ratings table (see [`Store::rating_table`]).
async fn rating_table(pool: &Pool<Db>, game: &str, offset: i64, limit: i64) -> Result<Vec<PlayerRatingRow>, StoreError> {
    let rows: Vec<RatedPlayerRow> = sqlx::query_as(
        "SELECT place, player, name, mu, sigma, games FROM stat_player_ratings \
         WHERE game = $1 AND place >= $2 ORDER BY place LIMIT $3",
    )
    .bind(game)
    .bind(offset.max(0))
    .bind(limit.max(0))
    .fetch_all(pool)
    .await
    .map_err(|e| db_error("reading the ratings table", e))?;
    Ok(rows.into_iter().map(player_of).collect())
}

async fn rated_players(pool: &Pool<Db>, game: &str) -> Result<i64, StoreError> {
    // The last place + 1, found by the key (game, place) rather than by counting rows.
    sqlx::query_scalar("SELECT COALESCE(MAX(place) + 1, 0) FROM stat_player_ratings WHERE game = $1")
        .bind(game)
        .fetch_one(pool)
        .await
        .map_err(|e| db_error("counting the rated players", e))
}

async fn player_rating(pool: &Pool<Db>, game: &str, player: &str) -> Result<Option<PlayerRatingRow>, StoreError> {
    let row: Option<RatedPlayerRow> = sqlx::query_as(
        "SELECT place, player, name, mu, sigma, games FROM stat_player_ratings WHERE player = $1 AND game = $2",
    )
    .bind(player)
    .bind(game)
    .fetch_optional(pool)
    .await
    .map_err(|e| db_error("reading a player's rating", e))?;
    Ok(row.map(player_of))
}

type RatedSeatRow = (i64, i16, String, i64, f64, f64, f64, f64);

fn seat_of((game_id, seat, player, order, mu_before, sigma_before, mu_after, sigma_after): RatedSeatRow) -> SeatRatingRow {
    SeatRatingRow {
        game_id,
        seat: u8::try_from(seat).unwrap_or(u8::MAX),
        player,
        order,
        mu_before,
        sigma_before,
        mu_after,
        sigma_after,
    }
}

const SEAT_COLUMNS: &str = "game_id, seat, player, ord, mu_before, sigma_before, mu_after, sigma_after";

async fn rating_history(pool: &Pool<Db>, game: &str, player: &str, limit: i64) -> Result<Vec<SeatRatingRow>, StoreError> {
    let rows: Vec<RatedSeatRow> = sqlx::query_as(&format!(
        "SELECT {SEAT_COLUMNS} FROM stat_seat_ratings WHERE player = $1 AND game = $2 ORDER BY ord DESC LIMIT $3"
    ))
    .bind(player)
    .bind(game)
    .bind(limit.max(0))
    .fetch_all(pool)
    .await
    .map_err(|e| db_error("reading a player's rating history", e))?;
    Ok(rows.into_iter().map(seat_of).collect())
}

async fn seat_ratings(pool: &Pool<Db>, game_id: i64) -> Result<Vec<SeatRatingRow>, StoreError> {
    let rows: Vec<RatedSeatRow> =
        sqlx::query_as(&format!("SELECT {SEAT_COLUMNS} FROM stat_seat_ratings WHERE game_id = $1 ORDER BY seat"))
            .bind(game_id)
            .fetch_all(pool)
            .await
            .map_err(|e| db_error("reading a game's ratings", e))?;
    Ok(rows.into_iter().map(seat_of).collect())
}
