//! The recorder: a game entered at the table by clicking legal choices only. The page holds the
//! log in the browser (`localStorage`, so a reload loses nothing) and, after every click, posts
//! it with the entry being built to `POST /record/next`, which answers with everything the page
//! shows: the engine's verdict, the board after the last entry (with the provisional score),
//! and the next choices — the engine's step-by-step form for a `place` entry, its whole legal
//! entries for harvest decisions, and the free-action form for any player. The page decides
//! nothing about the rules (ARCHITECTURE.md "Web app").

use actix_web::http::header::ContentType;
use actix_web::http::StatusCode;
use actix_web::{web, HttpRequest, HttpResponse};
use maud::html;
use serde::Deserialize;
use serde_json::{json, Value};

use chronicle_game::setup_form::FilledSetup;
use chronicle_game::GameKind;
use chronicle_service::cost::Budget;
use chronicle_service::ServiceError;

use super::{page, refused};
use crate::server::http::AppState;

/// Largest request body of `POST /record/next`: a recorded game's log is some tens of kB.
pub const MAX_BODY: usize = 1 << 20;

/// Most whole entries listed at a harvest decision.
const WHOLE_LIMIT: usize = 200;

/// The games the recorder records, in the registry's order.
fn recordable() -> impl Iterator<Item = GameKind> {
    GameKind::ALL.iter().copied().filter(|k| k.spec().capabilities.recorder)
}

/// `GET /record`: the recorder of the game `?game=ID`, or the choice of a game to record.
pub async fn page_(state: web::Data<AppState>, req: HttpRequest) -> HttpResponse {
    if let Some(r) = refused(&state, &req) {
        return r;
    }
    let q = super::query_map(&req);
    let chosen = q.get("game").and_then(|g| GameKind::from_id(g)).filter(|k| k.spec().capabilities.recorder);
    match chosen {
        Some(kind) => page("Record a game", recorder(kind)),
        None => page("Record a game", choose_game()),
    }
}

/// The choice of a game, each with a recording in progress in this browser marked by the
/// script.
fn choose_game() -> maud::Markup {
    html! {
        h1 { "Record a game" }
        p { "Enter a game as it is played at the table: every button is a choice the rules engine says is legal now, and the board follows each entry. Which game?" }
        ul.game-choice {
            @for kind in recordable() {
                li { a.record-game href={ "/record?game=" (kind.id()) } data-game=(kind.id()) { (kind.spec().name) } }
            }
        }
    }
}

/// The recorder of one game.
fn recorder(kind: GameKind) -> maud::Markup {
    let spec = kind.spec();
    let free = chronicle_ingest::games::engine(kind).free_start(0).map(|(label, _)| label);
    html! {
        h1 { "Record a game of " (spec.name) }
        p { "Enter a game of " (spec.name) " as it is played: every button is a choice the rules engine says is legal now, and the board below follows each entry. The log stays in this browser until you download or store it." }
        section #recorder-start hidden {
            h2 { "New game" }
            form #start-form {
                fieldset {
                    legend { "Players, in seat order (player 1 starts)" }
                    @for seat in 1..=spec.max_players {
                        label { "Player " (seat) input.player-name type="text" maxlength="40" autocomplete="off"; }
                    }
                    @if spec.min_players > 1 { p.hint { (spec.name) " takes " (spec.min_players) " to " (spec.max_players) " players." } }
                    @else { p.hint { (spec.name) " takes 1 to " (spec.max_players) " players (one player: the solo game)." } }
                }
                fieldset #game-meta {
                    legend { "The game (optional; kept in the log)" }
                    label { "Date " input #played-at type="date"; }
                    label { "Place " input #place type="text" maxlength="100" autocomplete="off" placeholder="club, city or venue"; }
                    label { "Tournament " input #tournament type="text" maxlength="100" autocomplete="off"; }
                }
                // The engine's setup form for the number of players named (`/record/setup-form`):
                // each choice offers only what the rules allow there.
                div #setup-form data-game=(kind.id()) {}
                button #start type="submit" { "Start recording" }
            }
            ul #start-error.error hidden {}
        }
        section #recorder hidden data-game=(kind.id()) {
            div #rec-status {}
            div.rec-layout {
                div #rec-choices {
                    h2 { "Next" }
                    p #draft-summary {}
                    div #groups {}
                    div.buttons {
                        button #record-entry type="button" hidden { "Record this entry" }
                        button #draft-back type="button" hidden { "Back one step" }
                    }
                    div #whole {}
                    @if let Some(label) = &free {
                        details #free-panel {
                            summary { (label) }
                            label { "Player " select #free-player {} }
                            div #free-groups {}
                            div.buttons {
                                button #record-free type="button" hidden { "Record these free actions" }
                                button #free-clear type="button" { "Clear" }
                            }
                        }
                    }
                    div #claimed hidden {
                        h2 { "Claimed final scores" }
                        p.hint { "The scores written on the score pad at the table; the engine checks them against its own." }
                        div #claimed-inputs {}
                        button #save-claimed type="button" { "Save claimed scores" }
                    }
                    details #trail-panel {
                        summary { "Entries so far" }
                        ol #trail {}
                    }
                }
                div.rec-tools {
                    button #undo type="button" { "Undo last entry" }
                    a #download href="#" download={ (kind.id()) "-log.json" } { "Download the log" }
                    label { "API token (to store the game)" input #token type="password" autocomplete="off" placeholder="chr_…"; }
                    button #submit-log type="button" { "Store the game" }
                    p #submit-result {}
                    button #new-game type="button" { "Start a new game" }
                }
            }
            div #rec-board {}
        }
        noscript { p.error { "The recorder needs JavaScript: it asks the server for the legal choices after every click." } }
        script type="module" src="/assets/recorder.js" {}
    }
}

/// `GET /record/setup-form?game=ID&players=N`: the engine's setup form for that many players
/// (JSON, `chronicle_game::setup_form::SetupForm`).
pub async fn setup_form(state: web::Data<AppState>, req: HttpRequest) -> HttpResponse {
    if refused(&state, &req).is_some() {
        return error(StatusCode::TOO_MANY_REQUESTS, "RATE_LIMITED", "too many requests; retry in a minute");
    }
    let q = super::query_map(&req);
    let kind = q.get("game").and_then(|g| GameKind::from_id(g));
    let players = q.get("players").and_then(|p| p.parse::<u8>().ok());
    let form = kind.zip(players).and_then(|(k, n)| chronicle_ingest::games::engine(k).setup_form(n));
    match form {
        Some(form) => HttpResponse::Ok().content_type(ContentType::json()).body(json!(form).to_string()),
        None => error(StatusCode::NOT_FOUND, "NO_SETUP_FORM", "no setup form for that game and number of players"),
    }
}

/// What the page sends to start a game: the game, the filled setup form, and the game's date,
/// place and tournament for its `meta`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SetupRequest {
    game: String,
    names: Vec<String>,
    #[serde(default)]
    values: std::collections::BTreeMap<String, String>,
    #[serde(default)]
    meta: Meta,
}

/// The optional facts of a recorded game, as the log's `meta` has them.
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct Meta {
    #[serde(default)]
    played_at: String,
    #[serde(default)]
    place: String,
    #[serde(default)]
    tournament: String,
}

/// A new log from a filled setup form: `{"log": …}`, or `{"problems": [...]}` with every
/// problem of the form at once.
fn new_log(request: SetupRequest) -> Result<Value, String> {
    let kind = GameKind::from_id(&request.game).ok_or_else(|| format!("no game `{}`", request.game))?;
    let filled = FilledSetup { names: request.names, values: request.values };
    let setup = match chronicle_ingest::games::engine(kind).setup_from_form(&filled) {
        Ok(setup) => setup,
        Err(problems) => return Ok(json!({ "problems": problems })),
    };
    let mut log = json!({ "format": kind.spec().format, "setup": setup, "entries": [] });
    let m = &request.meta;
    let meta: serde_json::Map<String, Value> =
        [("played_at", &m.played_at), ("place", &m.place), ("tournament", &m.tournament)]
            .into_iter()
            .map(|(k, v)| (k, v.trim()))
            .filter(|(_, v)| !v.is_empty())
            .map(|(k, v)| (k.to_owned(), json!(v)))
            .collect();
    if !meta.is_empty() {
        log["meta"] = Value::Object(meta);
    }
    Ok(json!({ "log": log }))
}

/// `POST /record/setup`: a filled setup form → the new game's log, or every problem at once.
pub async fn setup(state: web::Data<AppState>, req: HttpRequest, payload: web::Payload) -> HttpResponse {
    let bytes = match admitted_body(&state, &req, payload).await {
        Ok(b) => b,
        Err(r) => return r,
    };
    // Reading a body of up to MAX_BODY bytes runs off the HTTP workers; the engine's checks
    // are over the form's fields (at most a few dozen), whatever the body holds.
    let offload = std::sync::Arc::clone(&state.offload);
    let work = async move {
        let request: SetupRequest = serde_json::from_slice(&bytes).map_err(|e| format!("not a setup request: {e}"))?;
        new_log(request).map(|v| v.to_string())
    };
    match offload.run(work).await {
        Some(Ok(body)) => HttpResponse::Ok().content_type(ContentType::json()).body(body),
        Some(Err(why)) => error(StatusCode::BAD_REQUEST, "BAD_REQUEST", &why),
        None => service_error(&ServiceError::Internal("a recorder request's thread failed".into())),
    }
}

/// What the page sends: the log so far, the `place` draft being built (or none: the engine
/// starts one for the player to move), and the free-action draft (or none).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NextRequest {
    log: Value,
    #[serde(default)]
    draft: Option<Value>,
    #[serde(default)]
    free: Option<Value>,
}

/// A JSON error the page shows, with a stable code.
fn error(status: StatusCode, code: &str, message: &str) -> HttpResponse {
    HttpResponse::build(status)
        .content_type(ContentType::json())
        .body(json!({ "code": code, "message": message }).to_string())
}

fn service_error(e: &ServiceError) -> HttpResponse {
    if e.is_server_side() {
        crate::server::metrics::get().service_error(e.code());
        tracing::error!(code = e.code(), error = e.message(), "recorder request failed");
    }
    let status = match e {
        ServiceError::BadInput(_) => StatusCode::BAD_REQUEST,
        ServiceError::Busy(_) => StatusCode::SERVICE_UNAVAILABLE,
        _ => StatusCode::INTERNAL_SERVER_ERROR,
    };
    error(status, e.code(), e.public_message())
}

/// The body of a recorder POST, once the caller is within its rate limit and the body is JSON
/// of at most [`MAX_BODY`] bytes; otherwise the refusal to send.
async fn admitted_body(state: &AppState, req: &HttpRequest, payload: web::Payload) -> Result<web::Bytes, HttpResponse> {
    if refused(state, req).is_some() {
        // (counted as rate-limited by `refused`)
        return Err(error(StatusCode::TOO_MANY_REQUESTS, "RATE_LIMITED", "too many requests; retry in a minute"));
    }
    // JSON only, as `/graphql`: a `text/plain` POST is what any web page can make its visitors'
    // browsers send here without asking.
    if !crate::server::http::json_content_type(req) {
        let message = "the recorder takes `Content-Type: application/json`";
        return Err(error(StatusCode::UNSUPPORTED_MEDIA_TYPE, "UNSUPPORTED_MEDIA_TYPE", message));
    }
    body(payload).await
}

/// Reads a body of at most [`MAX_BODY`] bytes.
async fn body(payload: web::Payload) -> Result<web::Bytes, HttpResponse> {
    match payload.to_bytes_limited(MAX_BODY).await {
        Ok(Ok(bytes)) => Ok(bytes),
        Ok(Err(_)) => Err(error(StatusCode::BAD_REQUEST, "BAD_REQUEST", "the body could not be read")),
        Err(_) => {
            let msg = format!("the recorder takes at most {MAX_BODY} bytes");
            Err(error(StatusCode::PAYLOAD_TOO_LARGE, "BODY_TOO_LARGE", &msg))
        }
    }
}

pub async fn next(state: web::Data<AppState>, req: HttpRequest, payload: web::Payload) -> HttpResponse {
    let bytes = match admitted_body(&state, &req, payload).await {
        Ok(b) => b,
        Err(r) => return r,
    };
    // Parsing the body, replaying and writing the answer run off the HTTP workers, as large
    // GraphQL requests do.
    let offload = std::sync::Arc::clone(&state.offload);
    let work = async move {
        let request: NextRequest =
            serde_json::from_slice(&bytes).map_err(|e| Err(format!("not a recorder request: {e}")))?;
        view(&state, request).await.map(|v| v.to_string()).map_err(Ok)
    };
    match offload.run(work).await {
        Some(Ok(body)) => HttpResponse::Ok().content_type(ContentType::json()).body(body),
        Some(Err(Ok(e))) => service_error(&e),
        Some(Err(Err(why))) => error(StatusCode::BAD_REQUEST, "BAD_REQUEST", &why),
        None => service_error(&ServiceError::Internal("a recorder request's thread failed".into())),
    }
}

/// Everything the page shows after a log (see the module docs).
async fn view(state: &AppState, request: NextRequest) -> Result<Value, ServiceError> {
    let log = serde_json::to_vec(&request.log).unwrap_or_default();
    crate::server::metrics::get().replays("recorder", 1);
    let service = &state.service;
    // One budget of log bytes for the request's replays, as for a GraphQL request.
    let budget = &Budget::new(state.limits.replay_budget);
    let record = service.verify(log.clone(), budget).await?;
    // The board after the last entry and every entry in words, from one replay.
    let trail = service.trail(log.clone(), budget).await?;
    let players: Vec<&str> = record.players.iter().map(|p| p.name.as_str()).collect();
    let mut out = json!({
        "status": super::status_label(record.status),
        "entries": record.entries_applied,
        "round": record.round_reached,
        "players": players,
        "error": record.error.as_ref().map(|e| json!({ "entry": e.entry, "code": e.code, "message": e.message })),
        "claimed": record.players.iter().map(|p| p.claimed).collect::<Vec<_>>(),
        "computed": record.players.iter().map(|p| p.score.as_ref().map(|s| s.total)).collect::<Vec<_>>(),
    });
    let Some((said, open)) = trail else { return Ok(out) };
    out["round"] = json!(open.round);
    out["phase"] = json!(open.phase);
    out["board"] = json!(super::views::board(record.game, &open).into_string());
    out["trail"] = json!(said);
    if record.error.is_some() {
        return Ok(out);
    }
    // The engine's step form for the entry the game waits for; a decision the engine builds
    // whole (a harvest choice, or every entry of a game without a step form) is chosen from
    // its legal entries, each in words with what it will cost.
    let kind = record.game;
    let steps_form = kind.is_some_and(|k| k.spec().capabilities.step_form);
    let started = match (&request.draft, steps_form) {
        (Some(draft), _) => Some(service.entry_steps(log.clone(), draft.clone(), budget).await?),
        (None, true) => match service.entry_steps(log.clone(), Value::Null, budget).await? {
            Some((_, Err(_))) => None,
            found => Some(found),
        },
        (None, false) => None,
    };
    match started {
        Some(found) => {
            // The finished entry in words, so that "Record this entry" says what it records.
            let finished = found.as_ref().and_then(|(_, st)| st.as_ref().ok()).and_then(|st| st.entry.clone());
            out["steps"] = steps_json(found);
            if let Some(entry) = finished {
                let said = service.describe_next(log.clone(), vec![entry], budget).await?;
                out["steps"]["said"] = json!(said.and_then(|s| s.into_iter().next()));
            }
        }
        None => {
            if let Some((_, legal, labels)) = service.described_legal_entries(log.clone(), WHOLE_LIMIT, budget).await? {
                let whole: Vec<Value> =
                    legal.entries.iter().zip(labels).map(|(e, label)| json!({ "label": label, "entry": e })).collect();
                out["whole"] = json!(whole);
            }
        }
    }
    if let Some(free) = request.free {
        out["free"] = steps_json(service.entry_steps(log, free, budget).await?);
    }
    if let Some(kind) = kind {
        let engine = chronicle_ingest::games::engine(kind);
        let starts: Vec<Value> = (0..players.len()).filter_map(|p| engine.free_start(p)).map(|(_, d)| d).collect();
        if !starts.is_empty() {
            out["free_starts"] = json!(starts);
        }
    }
    Ok(out)
}

/// The engine's steps as the page reads them, or its refusal as `{"refused": message}`.
fn steps_json(found: Option<(GameKind, Result<chronicle_game::Steps, String>)>) -> Value {
    match found {
        None => Value::Null,
        Some((_, Err(why))) => json!({ "refused": chronicle_game::bounded_message(&why) }),
        Some((_, Ok(st))) => json!(st),
    }
}
