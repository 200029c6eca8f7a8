//! Reads: public, no token needed.

use async_graphql::connection::{Connection, Edge};
use async_graphql::{Context, Json, Object, Result, ID};

use chronicle_game::GameKind;

use std::sync::Arc;

use crate::server::graphql::types::{Game, GameFilter, GameKindInfo, LogSource, ReplayState, Tournament, Verification};
use crate::server::graphql::{budget, errors, log_bytes, parse_id, service, REPLAY_COMPLEXITY};
use chronicle_store as store;

/// Page size of `games` when `first` is not given.
pub const DEFAULT_PAGE: i32 = 20;
/// Largest page of `games`.
pub const MAX_PAGE: i32 = 100;

/// Games, replays, tournaments, verification.
#[derive(Default)]
pub struct GameQuery;

fn store_filter(f: GameFilter) -> Result<store::GameFilter> {
    let tournament = f.tournament_id.as_ref().map(|id| parse_id(id, "tournament")).transpose()?;
    let game = f
        .game
        .as_deref()
        .map(|id| GameKind::from_id(id).ok_or_else(|| errors::bad_input(format!("no game `{id}`; see gameKinds"))))
        .transpose()?;
    let most = GameKind::ALL.iter().map(|k| k.spec().max_players).max().unwrap_or(1);
    let player_count = f
        .player_count
        .map(|n| i16::try_from(n).ok().filter(|n| (1..=i16::from(most)).contains(n)))
        .map(|n| n.ok_or_else(|| errors::bad_input(format!("playerCount is 1 to {most}"))))
        .transpose()?;
    // A NUL character matches no stored text (stored text never holds one) and PostgreSQL
    // refuses it outright: it is a mistake in the request, said the same way on both stores.
    for (name, text) in [
        ("playerName", &f.player_name),
        ("metaTournament", &f.meta_tournament),
        ("playedFrom", &f.played_from),
        ("playedTo", &f.played_to),
        ("uploader", &f.uploader),
        ("source", &f.source),
        ("excludeSource", &f.exclude_source),
    ] {
        if text.as_deref().is_some_and(|t| t.contains('\0')) {
            return Err(errors::bad_input(format!("{name} must not contain a NUL character")));
        }
    }
    Ok(store::GameFilter {
        game,
        player_count,
        status: f.status.map(Into::into),
        tournament,
        player_name: f.player_name,
        meta_tournament: f.meta_tournament,
        played_from: f.played_from,
        played_to: f.played_to,
        uploader: f.uploader,
        source: f.source,
        exclude_source: f.exclude_source,
    })
}

#[Object]
impl GameQuery {
    /// The games this server knows, with their log formats and score pads.
    async fn game_kinds(&self) -> Vec<GameKindInfo> {
        // Every game of this build has its engine in the registry (`chronicle_ingest::games`).
        GameKind::ALL.iter().map(|&k| GameKindInfo::of(k.spec(), true)).collect()
    }

    /// A stored game.
    async fn game(&self, ctx: &Context<'_>, id: ID) -> Result<Option<Game>> {
        let id = parse_id(&id, "game")?;
        let game = service(ctx)?.game(id).await.map_err(errors::service)?;
        Ok(game.as_ref().map(Game::from))
    }

    /// Stored games by id (oldest first), a page at a time: pass `pageInfo.endCursor` as `after`
    /// for the next page.
    #[graphql(complexity = "(first.unwrap_or(DEFAULT_PAGE).clamp(0, MAX_PAGE) as usize) * child_complexity + 1")]
    async fn games(
        &self,
        ctx: &Context<'_>,
        filter: Option<GameFilter>,
        #[graphql(desc = "Page size, 0 to 100 (default 20).")] first: Option<i32>,
        #[graphql(desc = "A cursor from an earlier page; the page starts after it.")] after: Option<String>,
    ) -> Result<Connection<String, Game>> {
        let first = first.unwrap_or(DEFAULT_PAGE);
        if !(0..=MAX_PAGE).contains(&first) {
            return Err(errors::bad_input(format!("first must be 0 to {MAX_PAGE}")));
        }
        let after_id = match &after {
            None => 0,
            Some(c) => {
                c.parse::<i64>().ok().filter(|n| *n >= 0).ok_or_else(|| errors::bad_input("not a cursor of `games`"))?
            }
        };
        let filter = store_filter(filter.unwrap_or_default())?;
        let service = service(ctx)?;
        let mut ids = service.list(&filter, after_id, i64::from(first) + 1).await.map_err(errors::service)?;
        let has_next = ids.len() > usize::try_from(first).unwrap_or(0);
        ids.truncate(usize::try_from(first).unwrap_or(0));
        let games = service.games(&ids).await.map_err(errors::service)?;
        let mut connection = Connection::new(after.is_some(), has_next);
        connection.edges.extend(games.iter().map(|g| Edge::new(g.id.to_string(), Game::from(g))));
        Ok(connection)
    }

    /// The state of a stored game after entry `atEntry` (0-based), or after its last legal
    /// entry when not given. Null when there is no such game. Charged to the request's budget
    /// of log bytes by the game's log size (docs/api.md, "Requests").
    #[graphql(complexity = "REPLAY_COMPLEXITY")]
    async fn replay(&self, ctx: &Context<'_>, game_id: ID, at_entry: Option<i32>) -> Result<Option<ReplayState>> {
        let id = parse_id(&game_id, "game")?;
        let at =
            at_entry.map(|n| usize::try_from(n).map_err(|_| errors::bad_input("atEntry is 0 or more"))).transpose()?;
        let service = service(ctx)?;
        if service.game(id).await.map_err(errors::service)?.is_none() {
            return Ok(None);
        }
        let state = service.state(id, at, budget(ctx)?).await.map_err(errors::service)?;
        Ok(Some(ReplayState {
            game_id,
            at_entry,
            round: i32::from(state.round),
            phase: state.phase.clone(),
            state: Json(state.state.clone()),
        }))
    }

    /// Tournaments by id: up to `first` (1 to 100, default 20) after the one with id `after`.
    async fn tournaments(&self, ctx: &Context<'_>, first: Option<i32>, after: Option<ID>) -> Result<Vec<Tournament>> {
        let first = first.unwrap_or(DEFAULT_PAGE);
        if !(1..=MAX_PAGE).contains(&first) {
            return Err(errors::bad_input(format!("first is 1 to {MAX_PAGE}")));
        }
        let after = after.as_ref().map(|id| parse_id(id, "tournament")).transpose()?.unwrap_or(0);
        let rows = service(ctx)?.tournaments(after, i64::from(first)).await.map_err(errors::service)?;
        Ok(rows.iter().map(Tournament::from).collect())
    }

    /// A tournament: its games, standings and verification.
    async fn tournament(&self, ctx: &Context<'_>, id: ID) -> Result<Option<Tournament>> {
        let id = parse_id(&id, "tournament")?;
        let t = service(ctx)?.tournament(id).await.map_err(errors::service)?;
        Ok(t.as_ref().map(Tournament::from))
    }

    /// The legal next entries where a log stops being legal: after its last entry, or — for an
    /// invalid log — the alternatives to its illegal entry. Entries are in the log's own
    /// notation, grouped by kind and, for placements, by action space, in the engine's order:
    /// `{"game", "complete", "count", "groups": [{"type", "space"?, "entries": […]}]}`.
    /// `complete` says whether the list holds every legal entry (the generator's documented
    /// cuts, docs/api.md). Only the entries of `player` when given; at most `limit` (1 to 1,000,
    /// default 200).
    #[graphql(complexity = "REPLAY_COMPLEXITY")]
    async fn legal_entries(
        &self,
        ctx: &Context<'_>,
        log: Json<serde_json::Value>,
        player: Option<i32>,
        limit: Option<i32>,
    ) -> Result<Json<serde_json::Value>> {
        let limit = limit.unwrap_or(200);
        if !(1..=1000).contains(&limit) {
            return Err(errors::bad_input("limit is 1 to 1000"));
        }
        let log = log_bytes(log);
        crate::server::metrics::get().replays("legal", 1);
        let limit = usize::try_from(limit).unwrap_or(200);
        let Some((kind, legal)) =
            service(ctx)?.legal_entries(log, limit, budget(ctx)?).await.map_err(errors::service)?
        else {
            return Err(errors::bad_input("this server cannot verify logs of this format (see gameKinds)"));
        };
        Ok(Json(group_legal(kind, legal, player)))
    }

    /// One step of building an entry after a log, so that a client never has to guess (the
    /// engine's step-by-step form; Caverna builds `place` entries: space → dwarf → each part of
    /// the space with its legal parameters → free actions; docs/api.md). `draft` is the entry
    /// so far (`{"player": 0}` to start). The answer: `{"game", "draft", "entry", "complete",
    /// "groups": [{"id", "label", "options": [{"label", "draft", "cells", "pick", "detail"}]}]}` —
    /// `cells` are the board spaces an option covers (`[{"at": "D1", "what": "cavern"}]`, by
    /// the coordinates printed on the board), `pick` the tile chosen before them and `detail`
    /// its cost and points; `unavailable` lists what is not offered with the engine's reason
    /// (`[{"label": "Blacksmithing", "reason": "…"}]`); send an option's
    /// `draft` back for the next step; `entry` (or null) is the finished entry when the draft
    /// is legal as it is. A draft that is malformed or illegal so far is an `ILLEGAL_DRAFT`
    /// error saying why.
    #[graphql(complexity = "REPLAY_COMPLEXITY")]
    async fn entry_steps(
        &self,
        ctx: &Context<'_>,
        log: Json<serde_json::Value>,
        draft: Json<serde_json::Value>,
    ) -> Result<Json<serde_json::Value>> {
        let log = log_bytes(log);
        crate::server::metrics::get().replays("steps", 1);
        let Some((kind, steps)) =
            service(ctx)?.entry_steps(log, draft.0, budget(ctx)?).await.map_err(errors::service)?
        else {
            return Err(errors::bad_input("this server cannot verify logs of this format (see gameKinds)"));
        };
        let steps = steps.map_err(|why| errors::coded(errors::ILLEGAL_DRAFT, why))?;
        let mut answer = serde_json::json!(steps);
        answer["game"] = serde_json::json!(kind.id());
        Ok(Json(answer))
    }

    /// Replays a log without storing it. An illegal log is a result with status INVALID.
    #[graphql(complexity = "REPLAY_COMPLEXITY")]
    async fn verify_log(&self, ctx: &Context<'_>, log: Json<serde_json::Value>) -> Result<Verification> {
        let log = log_bytes(log);
        let log_copy = log.clone();
        crate::server::metrics::get().replays("verify", 1);
        let record = service(ctx)?.verify(log, budget(ctx)?).await.map_err(errors::service)?;
        Ok(Verification::with_source(&record, LogSource::Sent(Arc::new(log_copy))))
    }
}

/// The legal entries grouped for a person: by entry type, placements by action space, each
/// group in the engine's order of its first entry.
pub(crate) fn group_legal(kind: GameKind, legal: chronicle_game::Legal, player: Option<i32>) -> serde_json::Value {
    // (entry type, action space) → entries
    type Group = ((String, Option<String>), Vec<serde_json::Value>);
    let mut groups: Vec<Group> = Vec::new();
    let mut count = 0;
    for entry in legal.entries {
        if player.is_some_and(|p| entry["player"].as_i64() != Some(i64::from(p))) {
            continue;
        }
        let key = (entry["type"].as_str().unwrap_or("").to_owned(), entry["space"].as_str().map(str::to_owned));
        count += 1;
        match groups.iter_mut().find(|(k, _)| *k == key) {
            Some((_, list)) => list.push(entry),
            None => groups.push((key, vec![entry])),
        }
    }
    let groups: Vec<serde_json::Value> = groups
        .into_iter()
        .map(|((kind, space), entries)| {
            let mut g = serde_json::json!({ "type": kind, "entries": entries });
            if let Some(space) = space {
                g["space"] = serde_json::Value::String(space);
            }
            g
        })
        .collect();
    serde_json::json!({ "game": kind.id(), "complete": legal.complete, "count": count, "groups": groups })
}
