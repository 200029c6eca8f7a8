//! Tournament pages: the list, and a tournament's standings, verification and games. An
//! organizer changes a tournament with its organizer token through the API (the page's form
//! posts GraphQL; the token stays in the browser).

use std::sync::Arc;

use actix_web::{web, HttpRequest, HttpResponse};
use maud::html;

use chronicle_service::tournament::{standings, verify};
use chronicle_store::{GameFilter, GameHead};

use super::games::games_table;
use super::{not_found, page, param, query_map, refused, service_problem};
use crate::server::http::AppState;

const PAGE: i64 = 100;

pub async fn list(state: web::Data<AppState>, req: HttpRequest) -> HttpResponse {
    if let Some(r) = refused(&state, &req) {
        return r;
    }
    let q = query_map(&req);
    let after = param(&q, "after").and_then(|a| a.parse::<i64>().ok()).unwrap_or(0);
    let mut list = match state.service.tournaments(after, PAGE + 1).await {
        Ok(t) => t,
        Err(e) => return service_problem(&e),
    };
    // `?name=`: the tournaments a log's `meta.tournament` names (exact name).
    let name = param(&q, "name");
    if let Some(name) = name {
        list.retain(|t| t.name == name);
    }
    let more = list.len() as i64 > PAGE;
    let shown = &list[..list.len().min(PAGE as usize)];
    page(
        "Tournaments",
        html! {
            h1 { "Tournaments" @if let Some(n) = name { " named “" (n) "”" } }
            p { "A tournament gathers stored games; its organizer adds, removes and replaces them with the organizer token it was created with. A log names its tournament in "
                code { "meta.tournament" } "; a tournament's page lists the stored games that name it and are not in it yet, for its organizer to add. Create one below with an API token." }
            @if shown.is_empty() { p #no-tournaments { "No tournament yet." } }
            div.scroll hidden[shown.is_empty()] {
                table #tournaments {
                    thead { tr { th { "Tournament" } th { "Created" } } }
                    tbody { @for t in shown { tr { td { a href={ "/tournaments/" (t.id) } { (t.name) } } td { (t.created_at) } } } }
                }
            }
            @if more { p { a.next href={ "/tournaments?after=" (shown.last().map_or(0, |t| t.id)) } { "Next page →" } } }
            section #create {
                h2 { "Create a tournament" }
                form #create-form {
                    label { "Name" input #tournament-name maxlength="200"; }
                    label { "API token (kept in this browser)" input #token type="password" autocomplete="off"; }
                    button #create-tournament type="button" { "Create" }
                }
                p #create-result role="status" {}
            }
        },
    )
}

async fn page_of(state: &AppState, id: i64) -> HttpResponse {
    let tournament = match state.service.tournament(id).await {
        Ok(Some(t)) => t,
        Ok(None) => return not_found(&format!("tournament {id}")),
        Err(e) => return service_problem(&e),
    };
    let games: Vec<Arc<GameHead>> = match state.service.tournament_games(id).await {
        Ok(g) => g,
        Err(e) => return service_problem(&e),
    };
    let refs: Vec<&GameHead> = games.iter().map(Arc::as_ref).collect();
    let filter = GameFilter { meta_tournament: Some(tournament.name.clone()), ..GameFilter::default() };
    // A game the organizer replaced by a corrected upload is not offered again.
    let replaced = match state.service.replaced_games(id).await {
        Ok(r) => r,
        Err(e) => return service_problem(&e),
    };
    let naming: Vec<i64> = match state.service.list(&filter, 0, 200).await {
        Ok(ids) => ids.into_iter().filter(|id| !games.iter().any(|g| g.id == *id) && !replaced.contains(id)).collect(),
        Err(e) => return service_problem(&e),
    };
    let table = standings(&refs);
    let check = verify(&refs);
    page(
        &tournament.name,
        html! {
            h1 { (tournament.name) }
            p.meta { "Tournament #" (id) ", created " (tournament.created_at) ". " (games.len()) " games." }
            section #standings {
                h2 { "Standings" }
                p.hint { "Complete games only. A win per game won (tied winners each get one); order: wins, then total score, then name." }
                div.scroll { table {
                    thead { tr { th { "Rank" } th { "Player" } th { "Games" } th { "Wins" } th { "Total score" } } }
                    tbody { @for s in &table { tr { td.num { (s.rank) } td { (s.player) } td.num { (s.games) } td.num { (s.wins) } td.num { (s.total_score) } } } }
                } }
            }
            section #verification {
                h2 { "Verification" }
                @if games.is_empty() { p { "No games yet: there is nothing to verify." } } @else { ul {
                    li { @if check.all_complete { "✔ every game is complete" } @else { "✘ some games are not complete" } }
                    li { @if check.all_legal { "✔ no game is invalid" } @else { "✘ some games are invalid" } }
                    li { @if check.score_mismatches.is_empty() { "✔ every recorded score is the computed one" }
                         @else { "✘ " (check.score_mismatches.len()) " recorded scores differ from the computed ones" } }
                    @if !check.unclaimed.is_empty() { li { (check.unclaimed.len()) " complete games record no scores to compare" } }
                } }
                @if !check.score_mismatches.is_empty() {
                    div.scroll { table.mismatches {
                        thead { tr { th { "Game" } th { "Player" } th { "Recorded" } th { "Computed" } } }
                        tbody { @for m in &check.score_mismatches { tr { td { a href={ "/games/" (m.game) } { "#" (m.game) } } td { (m.name) } td.num { (m.claimed) } td.num { (m.computed) } } } }
                    } }
                }
            }
            section #games {
                h2 { "Games" }
                (games_table(&games))
            }
            @if !naming.is_empty() {
                section #naming {
                    h2 { "Stored games that name this tournament" }
                    p.hint { "Their logs say " code { "meta.tournament: \"" (tournament.name) "\"" } " but they are not in the tournament yet; the organizer adds them below." }
                    p { @for (i, id) in naming.iter().enumerate() { @if i > 0 { ", " } a href={ "/games/" (id) } { "#" (id) } } }
                }
            }
            section #organizer {
                h2 { "Organizer" }
                p.hint { "With the tournament's organizer token: add stored games, take a game out, replace a game by uploading its corrected log (stored with your API token) or by a stored game's number, rename the tournament." }
                form #organizer-form data-tournament=(id) {
                    label { "Organizer token (kept in this browser)" input #organizer-token type="password" autocomplete="off"; }
                    label { "API token, to upload a corrected log (kept in this browser)" input #upload-token type="password" autocomplete="off"; }
                    label { "Game ids to add (comma-separated)" input #add-games; }
                    button #add type="button" { "Add games" }
                    label { "New name" input #new-name value=(tournament.name); }
                    button #rename type="button" { "Rename" }
                    @if !games.is_empty() {
                        div.scroll { table #organizer-games {
                            thead { tr { th { "Game" } th { "Replace by a corrected log" } th { "or by a stored game" } th { "" } } }
                            tbody { @for g in &games {
                                tr data-game=(g.id) {
                                    td { a href={ "/games/" (g.id) } { "#" (g.id) } }
                                    td { input.replacement-file type="file" accept=".json,application/json" aria-label={ "corrected log for game " (g.id) }; }
                                    td { input.replacement type="number" min="1" aria-label={ "replacement for game " (g.id) }; button.replace-game type="button" { "Replace" } }
                                    td { button.remove-game type="button" { "Remove" } }
                                }
                            } }
                        } }
                    }
                }
                p #organizer-result role="status" {}
            }
        },
    )
}

pub async fn show(state: web::Data<AppState>, req: HttpRequest, id: web::Path<String>) -> HttpResponse {
    if let Some(r) = refused(&state, &req) {
        return r;
    }
    let Ok(id) = id.parse::<i64>() else { return not_found("such tournament") };
    page_of(&state, id).await
}
