//! The home page (upload), the games list, and a game's page with its score table and replay
//! viewer.

use std::collections::BTreeMap;
use std::sync::Arc;

use actix_web::http::header::ContentType;
use actix_web::{web, HttpRequest, HttpResponse};
use maud::{html, Markup};
use serde_json::Value;

use chronicle_game::{GameKind, Status};
use chronicle_service::cost::Budget;
use chronicle_service::ServiceError;
use chronicle_store::{GameFilter, GameHead};

use super::{not_found, page, param, query_map, refused, service_problem, status_label};
use crate::server::http::AppState;

/// Games per page of the list.
const PAGE: i64 = 50;

pub async fn home(state: web::Data<AppState>, req: HttpRequest) -> HttpResponse {
    if let Some(r) = refused(&state, &req) {
        return r;
    }
    let read_only = state.service.read_only();
    page(
        "Verify and store game logs",
        html! {
            h1 { "Verify and store game logs" }
            p { "Chronicle replays each log entry by entry through the rules engine of its game, says exactly where and why a step is illegal, and scores a complete game row by row. Logs: "
                code { "caverna-log/1" } ", " code { "village-log/1" } " and " code { "above-and-below-log/1" } " (JSON; see the " a href="/graphiql" { "API" } "), one per file, or many per NDJSON file." }
            section #upload {
                h2 { "Upload" }
                @if read_only {
                    p.notice #read-only { "This server reads from a read-only copy of the database: it verifies logs but stores none. To store games, upload them to a server on the main database." }
                }
                form #upload-form {
                    label { "Log files (.json, .ndjson)" input #files type="file" multiple accept=".json,.ndjson,application/json"; }
                    div #drop { "…or drop files here" }
                    label { "…or paste a log" textarea #paste rows="6" placeholder="{\"format\": \"caverna-log/1\", …}" {} }
                    label { "API token (needed to store; kept in this browser)" input #token type="password" autocomplete="off" placeholder="chr_…"; }
                    div.buttons {
                        button #verify type="button" { "Verify only" }
                        button #store type="button" disabled[read_only] { "Verify and store" }
                    }
                }
                p.hint { "Verifying needs no token and stores nothing. Storing a log that is stored already links to the stored game." }
                ol #results {}
            }
            section {
                h2 { "Browse" }
                ul {
                    li { a href="/games" { "Stored games" } ", with filters" }
                    li { a href="/stats/furnishings" { "Strategy statistics" } ": furnishings, weapons, seats, scores, action spaces" }
                    li { a href="/tournaments" { "Tournaments" } ": standings and verification" }
                }
            }
        },
    )
}

/// The store filter of the list's query string; unusable values are left out (and said so).
pub(super) fn filter_of(q: &BTreeMap<String, String>) -> (GameFilter, Vec<String>) {
    let mut notes = Vec::new();
    let mut f = GameFilter::default();
    if let Some(g) = param(q, "game") {
        match GameKind::from_id(g) {
            Some(k) => f.game = Some(k),
            None => notes.push(format!("no game `{g}`")),
        }
    }
    if let Some(n) = param(q, "players") {
        let most = GameKind::ALL.iter().map(|k| i16::from(k.spec().max_players)).max().unwrap_or(1);
        match n.parse::<i16>() {
            Ok(n) if (1..=most).contains(&n) => f.player_count = Some(n),
            _ => notes.push(format!("players is 1 to {most}")),
        }
    }
    if let Some(s) = param(q, "status") {
        match Status::from_id(s) {
            Some(s) => f.status = Some(s),
            None => notes.push(format!("no status `{s}`")),
        }
    }
    if let Some(t) = param(q, "tournament") {
        match t.parse::<i64>() {
            Ok(t) => f.tournament = Some(t),
            Err(_) => notes.push("tournament is a tournament id".to_owned()),
        }
    }
    let text = |key: &str| param(q, key).filter(|v| !v.contains('\0')).map(str::to_owned);
    f.player_name = text("player");
    f.meta_tournament = text("named");
    f.played_from = text("from");
    f.played_to = text("to");
    f.uploader = text("uploader");
    f.source = text("source");
    f.exclude_source = text("exclude_source");
    (f, notes)
}

pub async fn list(state: web::Data<AppState>, req: HttpRequest) -> HttpResponse {
    if let Some(r) = refused(&state, &req) {
        return r;
    }
    let q = query_map(&req);
    let (filter, notes) = filter_of(&q);
    let after = param(&q, "after").and_then(|a| a.parse::<i64>().ok()).unwrap_or(0);
    let ids = match state.service.list(&filter, after, PAGE + 1).await {
        Ok(ids) => ids,
        Err(e) => return service_problem(&e),
    };
    let more = ids.len() as i64 > PAGE;
    let ids = &ids[..ids.len().min(PAGE as usize)];
    let games = match state.service.games(ids).await {
        Ok(g) => g,
        Err(e) => return service_problem(&e),
    };
    let next = more.then(|| {
        let mut q = q.clone();
        q.insert("after".into(), ids.last().copied().unwrap_or(0).to_string());
        format!("/games?{}", encode(&q))
    });
    page(
        "Games",
        html! {
            h1 { "Games" }
            form.filters method="get" action="/games" {
                label { "Game " select name="game" {
                    option value="" { "any" }
                    @for k in GameKind::ALL {
                        option value=(k.id()) selected[param(&q, "game") == Some(k.id())] { (k.spec().name) }
                    }
                } }
                label { "Players " input name="players" type="number" min="1" max="7" value=[param(&q, "players")]; }
                label { "Status " select name="status" {
                    option value="" { "any" }
                    @for s in ["complete", "incomplete", "invalid"] {
                        option value=(s) selected[param(&q, "status") == Some(s)] { (s) }
                    }
                } }
                label { "Player " input name="player" value=[param(&q, "player")]; }
                label { "Tournament id " input name="tournament" type="number" min="1" value=[param(&q, "tournament")]; }
                label { "Log names tournament " input name="named" value=[param(&q, "named")]; }
                label { "Played from " input name="from" type="date" value=[param(&q, "from")]; }
                label { "to " input name="to" type="date" value=[param(&q, "to")]; }
                label { "Uploader " input name="uploader" value=[param(&q, "uploader")]; }
                label { "Source " input name="source" value=[param(&q, "source")] placeholder="any"; }
                label { "Leave out source " input name="exclude_source" value=[param(&q, "exclude_source")] placeholder="e.g. simulate"; }
                button type="submit" { "Filter" }
            }
            @for n in &notes { p.error { "Ignored: " (n) } }
            (games_table(&games))
            @if games.is_empty() { p { "No game matches." } }
            @if let Some(next) = next { p { a.next href=(next) { "Next page →" } } }
            form.filters #download method="get" action="/games/export" {
                @for key in ["game", "players", "status", "player", "tournament", "named", "from", "to", "uploader", "source", "exclude_source"] {
                    @if let Some(v) = param(&q, key) { input type="hidden" name=(key) value=(v); }
                }
                "Download these games (up to " (super::download::MAX_STREAMED) " as CSV or NDJSON, " (super::download::MAX_IN_MEMORY) " as Parquet) as "
                select name="table" {
                    @for t in ["games", "player-games", "score-rows", "furnishings", "weapons", "placements", "counters"] { option value=(t) { (t) } }
                }
                " in "
                select name="format" { option value="csv" { "CSV" } option value="parquet" { "Parquet" } option value="ndjson" { "NDJSON" } }
                " " button type="submit" { "Download" }
            }
        },
    )
}

/// A table of games: id, game, status, players (winners in bold), round, when, tournament.
pub fn games_table(games: &[Arc<GameHead>]) -> Markup {
    html! {
        div.scroll { table.games {
            thead { tr { th { "Game" } th { "Kind" } th { "Status" } th { "Players" } th { "Round" } th { "Played" } th { "Tournament" } } }
            tbody {
                @for g in games {
                    @let r = &g.record;
                    tr {
                        td { a href={ "/games/" (g.id) } { "#" (g.id) } }
                        td { (r.game.map_or("unknown", |k| k.spec().name)) }
                        td { span class={ "status " (status_label(r.status)) } { (status_label(r.status)) } }
                        td { @for (i, p) in r.players.iter().enumerate() {
                            @if i > 0 { ", " }
                            @if p.winner { strong { (p.name) } } @else { (p.name) }
                            @if let Some(s) = &p.score { " (" (s.total) ")" }
                        } }
                        td { (r.round_reached) }
                        td { (r.meta.played_at.as_deref().unwrap_or("")) }
                        td { (r.meta.tournament.as_deref().unwrap_or("")) }
                    }
                }
            }
        } }
    }
}

/// A query-string value, percent-encoded.
pub fn encode_value(s: &str) -> String {
    s.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}

/// A query string from a map.
fn encode(q: &BTreeMap<String, String>) -> String {
    q.iter().map(|(k, v)| format!("{}={}", encode_value(k), encode_value(v))).collect::<Vec<_>>().join("&")
}

/// The entry a game page opens at: `?at=N` when given and in range, else the last legal entry
/// (for an invalid game: the one just before the illegal entry). `None`: the setup only.
fn entry_to_show(head: &GameHead, q: &BTreeMap<String, String>) -> Option<usize> {
    let applied = usize::try_from(head.record.entries_applied).unwrap_or(0);
    let last = applied.checked_sub(1);
    match param(q, "at").and_then(|a| a.parse::<usize>().ok()) {
        Some(n) if n < applied => Some(n),
        _ => last,
    }
}

/// The stored game a page is about, or the page that says why there is none (the refusal is
/// boxed: a response is large next to the game).
async fn stored_game(state: &AppState, req: &HttpRequest, id: &str) -> Result<Arc<GameHead>, Box<HttpResponse>> {
    if let Some(r) = refused(state, req) {
        return Err(Box::new(r));
    }
    let Ok(id) = id.parse::<i64>() else { return Err(Box::new(not_found("such game"))) };
    match state.service.game(id).await {
        Ok(Some(h)) => Ok(h),
        Ok(None) => Err(Box::new(not_found(&format!("game {id}")))),
        Err(e) => Err(Box::new(service_problem(&e))),
    }
}

/// Most legal alternatives listed on an invalid game's page.
const ALTERNATIVES: usize = 30;

/// The entry an invalid stored game is refused at, when the refusal is an entry's.
fn refused_entry(head: &GameHead) -> Option<i32> {
    head.record.error.as_ref().and_then(|e| e.entry)
}

pub async fn show(state: web::Data<AppState>, req: HttpRequest, id: web::Path<String>) -> HttpResponse {
    let head = match stored_game(&state, &req, &id).await {
        Ok(h) => h,
        Err(refusal) => return *refusal,
    };
    let id = head.id;
    let q = query_map(&req);
    let at = entry_to_show(&head, &q);
    // One budget of log bytes for everything the page derives from the log, as for a GraphQL
    // request: what does not fit says so in its place.
    let budget = Budget::new(state.limits.replay_budget);
    let viewer = viewer(&state, &head, at, &budget).await;
    // Every position, what each entry changed and each entry in words, from one replay kept
    // with the game (the viewer above used the same).
    let timeline = state.service.timeline(head.id, &budget).await;
    let illegal = timeline.as_ref().ok().and_then(|t| t.as_ref().as_ref()).and_then(|t| t.refused.clone());
    // What could have been played instead of the illegal entry, as `chronicle replay --explain`
    // lists it, each in words.
    let alternatives = match refused_entry(&head) {
        Some(_) => state.service.stored_described_legal(id, ALTERNATIVES, &budget).await.ok().flatten(),
        None => None,
    };
    let trust = trust_report(&state, &head, &budget).await;
    let held_by = state.service.game_tournaments(id).await.unwrap_or_default();
    let analysis = super::analysis::section(&state, &head).await;
    let r = &head.record;
    let kind = r.game.map_or("Unknown game", |k| k.spec().name);
    super::page(
        &format!("Game {id}"),
        html! {
            h1 { "Game #" (id) " · " (kind) " · " span class={ "status " (status_label(r.status)) } { (status_label(r.status)) } }
            p.meta {
                @if let Some(v) = &r.variant { "Variant " (v) ". " }
                (r.players.len()) " players, round " (r.round_reached) ", " (r.entries_applied) @if r.entries_applied == 1 { " entry legal. " } @else { " entries legal. " }
                @if !held_by.is_empty() {
                    "In " @for (i, t) in held_by.iter().enumerate() { @if i > 0 { ", " } a.held-by href={ "/tournaments/" (t.id) } { (t.name) } } ". "
                }
                @if let Some(t) = &r.meta.tournament {
                    @if !held_by.iter().any(|h| &h.name == t) {
                        "The log names the tournament “" (t) "” (" a href={ "/games?named=" (encode_value(t)) } { "games naming it" } "). "
                    }
                }
                @match (&r.meta.played_at, &r.meta.place) {
                    (Some(when), Some(place)) => { "Played " (when_words(when)) " at " (place) ". " }
                    (Some(when), None) => { "Played " (when_words(when)) ". " }
                    (None, Some(place)) => { "Played at " (place) ". " }
                    (None, None) => {}
                }
                "Uploaded " (when_words(&head.uploaded_at)) @if let Some(u) = &head.uploader { " by " (u) } ". "
                "Engine " (r.engine_version) ". "
                span title=(head.sha256) { "Dedupe key " code { (head.sha256.get(..12).unwrap_or(&head.sha256)) } }
            }
            @if let Some(e) = &r.error {
                div.error-box #error {
                    strong { "Invalid" }
                    @if let Some(n) = e.entry { " at entry " a href={ "?at=" (n.saturating_sub(1)) "#board" } { (n + 1) } }
                    @if let Some(p) = e.player { ", by " (r.players.get(p as usize).map_or("?", |pl| pl.name.as_str())) " (seat " (p + 1) ")" }
                    ": " code { (e.code) } " — " (e.message)
                    @if let Some((_, sentence)) = &illegal { p.illegal { "The entry: " (sentence) } }
                    @if let Some((_, legal, labels)) = &alternatives {
                        @if !labels.is_empty() {
                            details.alternatives {
                                summary { "What the rules allowed there instead"
                                    @if !legal.complete { " (some of it; the list is not every legal entry)" } }
                                ul { @for l in labels { li { (l) } } }
                            }
                        }
                    }
                    @if e.entry.is_some_and(|n| n > 0) { p { "The board below shows the state just before it." } }
                }
            }
            (score_table(&head))
            @match &trust {
                Some(Ok(t)) => { @if let Some(t) = t.as_ref().as_ref() { (super::trust::trust(t)) } },
                Some(Err(e)) => p.note { "The trust report is not shown: " (e.public_message()) },
                None => {}
            }
            (viewer)
            @match &timeline {
                Ok(t) => { @if let Some(t) = t.as_ref().as_ref() { (ledger_table(&head, t, at)) } },
                Err(e) => p.note { "The ledger is not shown: " (e.public_message()) },
            }
            (analysis)
        },
    )
}

/// The trust report of a stored Above and Below game (None for the other games; an error when
/// it cannot be made now: the page then shows the verdict without it, and why).
async fn trust_report(
    state: &AppState,
    head: &GameHead,
    budget: &Budget,
) -> Option<Result<Arc<Option<Value>>, ServiceError>> {
    if !head.record.game.is_some_and(|k| k.spec().capabilities.trust_report) {
        return None;
    }
    Some(state.service.stored_trust(head.id, budget).await)
}

/// Players by score-pad row: the game's rows with their labels, the total, rank, the claimed
/// total and the difference.
fn score_table(head: &GameHead) -> Markup {
    let r = &head.record;
    let spec = r.game.map(GameKind::spec);
    let rows: Vec<(String, String)> = r
        .players
        .iter()
        .find_map(|p| p.score.as_ref())
        .map(|s| {
            s.rows
                .iter()
                .map(|row| (row.id.clone(), spec.and_then(|g| g.row_label(&row.id)).unwrap_or(&row.id).to_owned()))
                .collect()
        })
        .unwrap_or_default();
    html! {
        section #scores {
            h2 { "Players and scores" }
            div.scroll { table.scores {
                thead { tr { th { "" } @for p in &r.players { th { @if p.winner { "★ " } (p.name) } } } }
                tbody {
                    @for (id, label) in &rows {
                        tr { th scope="row" { (label) } @for p in &r.players {
                            td.num { (p.score.as_ref().and_then(|s| s.row(id)).map_or(String::new(), |x| x.to_string())) }
                        } }
                    }
                    tr.total { th scope="row" { "Total" } @for p in &r.players { td.num { (p.score.as_ref().map_or("—".to_owned(), |s| s.total.to_string())) } } }
                    tr { th scope="row" { "Rank" } @for p in &r.players { td.num { (p.rank.map_or("—".to_owned(), |x| x.to_string())) } } }
                    tr { th scope="row" { "Claimed" } @for p in &r.players {
                        @let computed = p.score.as_ref().map(|s| s.total);
                        td.num.mismatch[p.claimed.is_some() && computed.is_some() && p.claimed != computed] {
                            (p.claimed.map_or("—".to_owned(), |x| x.to_string()))
                            @if let (Some(c), Some(t)) = (p.claimed, computed) { @if c != t { " (computed " (t) ")" } }
                        }
                    } }
                }
            } }
        }
    }
}

/// A line's changes grouped by player, the players in seat order.
/// Changes player by player, the player of the entry first without a name.
fn changes_cell<'a>(
    changes: &[chronicle_game::LedgerChange],
    by: Option<usize>,
    name: &dyn Fn(usize) -> &'a str,
    view: Option<&chronicle_game::BoardView>,
) -> Markup {
    html! {
        @for (k, (player, list)) in by_player(changes, by).into_iter().enumerate() {
            @if k > 0 { "; " }
            @if by != Some(player) { strong { (name(player)) } ": " }
            @for (i, c) in list.iter().enumerate() {
                @if i > 0 { ", " }
                span class={ "delta " @if c.delta > 0 { "gain" } @else { "loss" } } { (super::views::change_text(view, c)) }
            }
        }
    }
}

/// The changes grouped by player: the entry's own player first, then the others in seat order.
fn by_player(
    changes: &[chronicle_game::LedgerChange],
    by: Option<usize>,
) -> Vec<(usize, Vec<&chronicle_game::LedgerChange>)> {
    let mut groups: BTreeMap<usize, Vec<&chronicle_game::LedgerChange>> = BTreeMap::new();
    for c in changes {
        groups.entry(c.player).or_default().push(c);
    }
    let mut list: Vec<_> = groups.into_iter().collect();
    list.sort_by_key(|(p, _)| Some(*p) != by);
    list
}

/// A log's `played_at` as people write a date and time (`2025-03-14T18:00:00Z` →
/// `2025-03-14 18:00 UTC`); anything that is not such a timestamp is shown as written.
fn when_words(when: &str) -> String {
    let (Some(date), Some(time)) = (when.get(..10), when.get(11..16)) else { return when.to_owned() };
    if when.as_bytes().get(10) != Some(&b'T') {
        return when.to_owned();
    }
    let zone = match when
        .get(16..)
        .map(|rest| rest.trim_start_matches(|c: char| c == ':' || c == '.' || c.is_ascii_digit()))
    {
        Some("Z") => " UTC".to_owned(),
        Some(offset) if !offset.is_empty() => format!(" (UTC{offset})"),
        _ => String::new(),
    };
    format!("{date} {time}{zone}")
}

/// A player's running totals after an entry, as on a score sheet: the points if the game
/// ended there, and under them the new total of each item the entry changed for the player.
fn running_totals(player: usize, totals: &BTreeMap<String, i64>, step: &chronicle_game::TimelineStep) -> Markup {
    let changed: Vec<(&str, i64)> = step
        .line
        .changes
        .iter()
        .filter(|c| c.player == player && c.item != "points")
        .map(|c| (c.item.as_str(), totals.get(&c.item).copied().unwrap_or(0)))
        .collect();
    html! {
        strong { (totals.get("points").copied().unwrap_or(0)) } " pts"
        @if !changed.is_empty() {
            br;
            small.totals {
                @for (i, (item, n)) in changed.iter().enumerate() {
                    @if i > 0 { " · " }
                    span data-item=(item) data-total=(n) { (super::views::amount(Some(&step.view), player, item, *n)) }
                }
            }
        }
    }
}

/// Every legal entry with what it changed, player by player (the engine's ledger); the entry
/// shown in the viewer is marked.
fn ledger_table(head: &GameHead, timeline: &chronicle_game::Timeline, at: Option<usize>) -> Markup {
    let names: Vec<&str> = head.record.players.iter().map(|p| p.name.as_str()).collect();
    let name = |p: usize| names.get(p).copied().unwrap_or("?");
    html! {
        @if !timeline.steps.is_empty() {
            details #ledger open {
                summary { "Ledger: what each entry changed" }
                (super::views::ledger_hint())
                div.scroll { table.ledger {
                    thead { tr { th { "Entry" } th { "Round" } th { "What happened" } th { "Changes" }
                        @for n in &names { th.num title={ (n) "'s points if the game ended after the entry, and the new totals of what it changed" } { (n) } } } }
                    tbody { @for (i, step) in timeline.steps.iter().enumerate() {
                        @let line = &step.line;
                        // The round the automatic steps closed: the one the previous entry was in.
                        @let ended = i.checked_sub(1).and_then(|j| timeline.steps.get(j)).map_or(line.round, |s| s.line.round);
                        // What the game did by itself before the entry (a harvest it closed, the
                        // round it ended): a row of its own, as on a score sheet.
                        @if !step.automatic.is_empty() {
                            tr.automatic data-before-entry=(line.entry) {
                                td {} td.num { (line.round) }
                                td.sentence { "The game's own steps at the end of round " (ended) ", before the next entry." }
                                td { (changes_cell(&step.automatic, None, &name, Some(&step.view))) }
                                @for _ in &names { td {} }
                            }
                        }
                        tr data-entry=(line.entry) class=[(Some(line.entry) == at).then_some("current")] {
                            td { a href={ "?at=" (line.entry) "#board" } { (line.entry + 1) } }
                            td.num { (line.round) }
                            td.sentence { (step.sentence) }
                            td { (changes_cell(&step.own, line.player, &name, Some(&step.view))) }
                            @for (p, t) in step.totals.iter().enumerate() { td.num.running { (running_totals(p, t, step)) } }
                        }
                    } }
                } }
            }
        }
    }
}

/// The replay viewer: the controls, the entry shown, what it changed, and the board.
async fn viewer(state: &AppState, head: &GameHead, at: Option<usize>, budget: &Budget) -> Markup {
    let applied = usize::try_from(head.record.entries_applied).unwrap_or(0);
    let body = board_at(state, head, at, budget).await;
    let last = applied.checked_sub(1);
    // Always links (the script moves them as it steps); a step past either end is marked.
    let nav = |n: Option<usize>, text: &str, class: &str| -> Markup {
        let target = n.unwrap_or(if class == "prev" { 0 } else { last.unwrap_or(0) });
        html! { a class={ (class) @if n.is_none() { " disabled" } } href={ "?at=" (target) "#board" } { (text) } }
    };
    html! {
        section #viewer data-game=(head.id) data-max=(last.map_or(-1, |l| l as i64)) data-at=(at.map_or(-1, |a| a as i64)) {
            h2 { "Replay" }
            @if applied == 0 {
                p { "No legal entry to step through." }
            } @else {
                div.controls {
                    (nav(Some(0), "« first", "first"))
                    (nav(at.and_then(|a| a.checked_sub(1)), "◀ previous", "prev"))
                    input #slider type="range" min="0" max=(applied - 1) value=(at.unwrap_or(0)) aria-label="entry";
                    (nav(at.map(|a| a + 1).filter(|a| *a < applied), "next ▶", "next"))
                    (nav(last, "last »", "last"))
                    span.hint { "Keys: ← →" }
                }
            }
            div #board { (body) }
        }
    }
}

/// The board at entry `at` with the entry itself and what it changed: the HTML the viewer swaps
/// in. Both come from the game's timeline (every position from one replay, kept with the game),
/// so stepping through a game replays it once.
async fn board_at(state: &AppState, head: &GameHead, at: Option<usize>, budget: &Budget) -> Markup {
    let timeline = match state.service.timeline(head.id, budget).await {
        Ok(t) => t,
        Err(e) => return html! { p.error { (e.public_message()) } },
    };
    let Some(timeline) = timeline.as_ref().as_ref() else {
        return html! { p.note { "The game's setup is invalid: there is no position to show." } };
    };
    let Some(view) = timeline.view(at) else {
        return html! { p.error { "That entry is not one of the game's legal entries." } };
    };
    let step = at.and_then(|n| timeline.steps.get(n));
    html! {
        div.entry #current-entry data-at=(at.map_or(-1, |a| a as i64)) {
            @match at {
                Some(n) => { strong { "Entry " (n + 1) " of " (timeline.steps.len()) } " (after it; round " (view.round) ", " (view.phase) ")" }
                None => { strong { "Setup" } " (round " (view.round) ")" }
            }
            @if let Some(s) = step { p.sentence { (s.sentence) } }
            @if at.is_some() {
                (super::views::changes(head, step))
            }
        }
        (super::views::board(head.record.game, view))
    }
}

/// `GET /games/{id}/board?at=N`: the viewer's content at an entry, for the script.
pub async fn board_fragment(state: web::Data<AppState>, req: HttpRequest, id: web::Path<String>) -> HttpResponse {
    let head = match stored_game(&state, &req, &id).await {
        Ok(h) => h,
        Err(refusal) => return *refusal,
    };
    let at = entry_to_show(&head, &query_map(&req));
    let markup = board_at(&state, &head, at, &Budget::new(state.limits.replay_budget)).await;
    HttpResponse::Ok().content_type(ContentType::html()).body(markup.into_string())
}

#[cfg(test)]
mod tests {
    use super::when_words;

    /// A game's date and time are said as people write them; what is not a timestamp stays.
    #[test]
    fn played_at_is_said_as_a_date_and_time() {
        for (written, said) in [
            ("2025-03-14T18:00:00Z", "2025-03-14 18:00 UTC"),
            ("2025-03-14T18:00:00.250+01:00", "2025-03-14 18:00 (UTC+01:00)"),
            ("2025-03-14T18:00", "2025-03-14 18:00"),
            ("2025-03-14", "2025-03-14"),
            ("spring 2025", "spring 2025"),
        ] {
            assert_eq!(when_words(written), said, "{written}");
        }
    }
}
