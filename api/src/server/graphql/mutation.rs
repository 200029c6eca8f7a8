//! Writes: every mutation needs `Authorization: Bearer <token>`.

use async_graphql::{Context, Json, Object, Result, ID};
use chronicle_store::TournamentChange;

use crate::server::graphql::types::{Game, SubmitResult, Tournament, TournamentCreated};
use crate::server::graphql::{bearer, charge, errors, log_bytes, parse_id, service, REPLAY_COMPLEXITY};

pub struct Mutation;

#[Object]
impl Mutation {
    /// Replays and stores a log (valid or not: an illegal log is stored with its error). A log
    /// stored already returns the existing game with `duplicate: true`. Needs an API token.
    #[graphql(complexity = "REPLAY_COMPLEXITY")]
    async fn submit_game(&self, ctx: &Context<'_>, log: Json<serde_json::Value>) -> Result<SubmitResult> {
        let by = bearer(ctx)?;
        let log = log_bytes(log);
        charge(ctx, &[&log])?;
        let mut results = service(ctx)?.submit(vec![log], by).await.map_err(errors::service)?;
        count_submitted(&results);
        let r = results.pop().ok_or_else(|| errors::coded("INTERNAL_SERVER_ERROR", "no result"))?;
        Ok(SubmitResult { game: Game::from(&r.game), duplicate: r.duplicate })
    }

    /// `submitGame` for many logs (at most 1,000), one result per log in order. All or
    /// nothing: when any log cannot be stored, none is.
    #[graphql(complexity = "REPLAY_COMPLEXITY")]
    async fn submit_games(&self, ctx: &Context<'_>, logs: Vec<Json<serde_json::Value>>) -> Result<Vec<SubmitResult>> {
        let by = bearer(ctx)?;
        let logs: Vec<Vec<u8>> = logs.into_iter().map(log_bytes).collect();
        charge(ctx, &logs.iter().map(Vec::as_slice).collect::<Vec<_>>())?;
        let results = service(ctx)?.submit(logs, by).await.map_err(errors::service)?;
        count_submitted(&results);
        Ok(results.iter().map(|r| SubmitResult { game: Game::from(&r.game), duplicate: r.duplicate }).collect())
    }

    /// Asks for a stored game's analysis by its game's search bot (docs/analysis.md): queued
    /// for the server's worker unless it was asked for before, in which case the stored one
    /// (maybe done) is returned. `budget` is playouts a decision (1 to 1,000; default the
    /// server's). Refused as `BUSY` when 16 analyses are waiting. Needs an API token.
    async fn analyse_game(
        &self,
        ctx: &Context<'_>,
        game_id: ID,
        budget: Option<i32>,
    ) -> Result<crate::server::graphql::analysis::GameAnalysisInfo> {
        // An organizer token asks as anyone does (the default budget).
        let signed_in = matches!(bearer(ctx)?, chronicle_store::Bearer::Api { .. });
        let id = parse_id(&game_id, "game")?;
        let budget = budget.map(|b| u32::try_from(b).unwrap_or(0));
        let found = service(ctx)?.request_analysis(id, budget, signed_in).await.map_err(errors::service)?;
        Ok((&found).into())
    }

    /// Creates a tournament and its organizer token (needs an API token).
    async fn create_tournament(&self, ctx: &Context<'_>, name: String) -> Result<TournamentCreated> {
        let by = bearer(ctx)?;
        let (row, token) = service(ctx)?.create_tournament(&name, by).await.map_err(errors::service)?;
        Ok(TournamentCreated { tournament: Tournament::from(&row), organizer_token: token })
    }

    /// Adds stored games to a tournament (needs that tournament's organizer token as the bearer
    /// token). All or nothing: an unknown game id adds none.
    async fn add_games_to_tournament(
        &self,
        ctx: &Context<'_>,
        tournament_id: ID,
        game_ids: Vec<ID>,
    ) -> Result<Tournament> {
        let by = bearer(ctx)?;
        let tournament = parse_id(&tournament_id, "tournament")?;
        let games = game_ids.iter().map(|id| parse_id(id, "game")).collect::<Result<Vec<i64>>>()?;
        let service = service(ctx)?;
        let row = service
            .tournament(tournament)
            .await
            .map_err(errors::service)?
            .ok_or_else(|| errors::coded("NOT_FOUND", format!("no tournament {tournament}")))?;
        service.add_to_tournament(tournament, &games, by).await.map_err(errors::service)?;
        Ok(Tournament::from(&row))
    }

    /// Takes a game out of a tournament (the game stays stored; needs the organizer token).
    async fn remove_game_from_tournament(
        &self,
        ctx: &Context<'_>,
        tournament_id: ID,
        game_id: ID,
    ) -> Result<Tournament> {
        let tournament = parse_id(&tournament_id, "tournament")?;
        let game = parse_id(&game_id, "game")?;
        change(ctx, tournament, TournamentChange::Remove(game)).await
    }

    /// Replaces a game of a tournament by another stored game in one step (a corrected upload;
    /// needs the organizer token). Nothing changes when either game is wrong.
    async fn replace_tournament_game(
        &self,
        ctx: &Context<'_>,
        tournament_id: ID,
        game_id: ID,
        new_game_id: ID,
    ) -> Result<Tournament> {
        let tournament = parse_id(&tournament_id, "tournament")?;
        let old = parse_id(&game_id, "game")?;
        let new = parse_id(&new_game_id, "game")?;
        change(ctx, tournament, TournamentChange::Replace { old, new }).await
    }

    /// Renames a tournament (1 to 200 characters; needs the organizer token).
    async fn rename_tournament(&self, ctx: &Context<'_>, tournament_id: ID, name: String) -> Result<Tournament> {
        let tournament = parse_id(&tournament_id, "tournament")?;
        change(ctx, tournament, TournamentChange::Rename(name)).await
    }
}

async fn change(ctx: &Context<'_>, tournament: i64, change: TournamentChange) -> Result<Tournament> {
    let by = bearer(ctx)?;
    let service = service(ctx)?;
    let row = service.change_tournament(tournament, change, by).await.map_err(errors::service)?;
    Ok(Tournament::from(&row))
}

/// Replays and newly stored games of a submission, for `/metrics`.
fn count_submitted(results: &[chronicle_service::Submitted]) {
    let m = crate::server::metrics::get();
    m.replays("submit", results.len() as u64);
    m.stored(results.iter().filter(|r| !r.duplicate).count() as u64);
}
