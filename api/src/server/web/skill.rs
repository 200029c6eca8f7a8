//! The statistics that separate strategy from skill: each strategy's raw win-rate difference
//! beside its effect controlled for who plays it (both with their intervals), the ratings
//! table, and a player's page (rating history and games). Numbers from the analytics crate
//! (`skill.rs`; method and limits: docs/statistics.md).

use actix_web::{web, HttpRequest, HttpResponse};
use maud::{html, Markup};

use chronicle_analytics::controlled::Estimate;
use chronicle_analytics::rate::Difference;
use chronicle_analytics::skill::{EffectsFilter, StrategyEffect};
use chronicle_game::GameKind;
use chronicle_service::models::RatingsModel;

use super::{page, refused, service_problem};
use crate::server::http::AppState;

fn signed(x: f64, scale: f64, unit: &str) -> String {
    format!("{}{unit}", super::tenths(x * scale, true))
}

/// An estimate or difference with its 95% interval; `scale` 100 shows fractions as percentage
/// points. `why` says why there is no estimate (when `value` is `None`; a dash when nothing is
/// to be said) or why its interval is not shown (a raw difference below the minimum sample).
pub(super) fn interval_cell(value: Option<(f64, f64, f64)>, scale: f64, unit: &str, why: Option<&str>) -> Markup {
    match value {
        None => match why {
            Some(why) => html! { td.estimate.not-enough data-sort="" { (why) } },
            None => html! { td.estimate data-sort="" { "—" } },
        },
        // A raw difference from a small sample: the value, and why there is no interval.
        Some((v, _, _)) if why.is_some() => html! {
            td.estimate.small data-sort=(format!("{v:.6}")) {
                span.value { (signed(v, scale, unit)) } span.n { " · " (why.unwrap_or_default()) }
            }
        },
        Some((v, lo, hi)) => {
            let clear = lo > 0.0 || hi < 0.0;
            html! {
                td.estimate.clear[clear] data-sort=(format!("{v:.6}"))
                    title={ "95% interval " (signed(lo, scale, unit)) " to " (signed(hi, scale, unit)) } {
                    span.value { (signed(v, scale, unit)) }
                    span.n { " (" (signed(lo, scale, unit)) " to " (signed(hi, scale, unit)) ")" }
                }
            }
        }
    }
}

pub(super) fn est(e: Option<Estimate>) -> Option<(f64, f64, f64)> {
    e.map(|e| (e.estimate, e.ci_low, e.ci_high))
}

pub(super) fn diff(d: Option<Difference>) -> Option<(f64, f64, f64)> {
    d.map(|d| (d.difference, d.ci_low, d.ci_high))
}

fn tabs(current: &str) -> Markup {
    html! {
        nav.tabs {
            a href="/questions" { "Questions" }
            a href="/stats/furnishings" { "Furnishing tiles" }
            a href="/stats/strategies" class=[(current == "strategies").then_some("current")] { "Strategy vs skill" }
            a href="/players" class=[(current == "players").then_some("current")] { "Ratings" }
            @for k in super::outcomes::games() { a href={ "/stats/" (k.id()) } { (k.spec().name) } }
        }
    }
}

pub async fn strategies(state: web::Data<AppState>, req: HttpRequest) -> HttpResponse {
    if let Some(r) = refused(&state, &req) {
        return r;
    }
    let q = super::query_map(&req);
    let min_rating = match super::param(&q, "min_rating").map(str::parse::<f64>) {
        None => None,
        Some(Ok(r)) if r.is_finite() => Some(r),
        Some(_) => {
            let status = actix_web::http::StatusCode::BAD_REQUEST;
            return super::problem(status, "Bad filter", "min_rating is a number");
        }
    };
    let text = |name: &str| super::param(&q, name).filter(|v| !v.is_empty()).map(str::to_owned);
    let filter = EffectsFilter { min_rating, source: text("source"), exclude_source: text("exclude_source") };
    let include = text("include_simulated").is_some();
    if filter == EffectsFilter::default() {
        // The page without a filter: what the stored model keeps (docs/scaling.md).
        let model = match state.service.ratings_model(GameKind::Caverna).await {
            Ok(m) => m,
            Err(e) => return service_problem(&e),
        };
        match model.as_ref().map(|m| m.effects.as_ref()) {
            None => {
                let note = model_note(GameKind::Caverna, None);
                return page(
                    "Strategy vs skill",
                    html! { (tabs("strategies")) h1 { "Strategy vs skill · Caverna" } (note) },
                );
            }
            Some(Some(kept)) => {
                let view = kept.view(include);
                let shown = EffectsFilter { exclude_source: view.exclude_source.clone(), ..filter };
                let over =
                    Over { games: kept.games, corpus: &view.corpus, left_out: view.left_out, effects: &view.effects };
                return strategies_page(&q, &shown, &over, model_note(GameKind::Caverna, model.as_ref()));
            }
            // A model without its effects: computed from the rows below.
            Some(None) => {}
        }
    }
    let skill = match state.service.skill().await {
        Ok(s) => s,
        Err(e) => return service_problem(&e),
    };
    // Simulated games are left out by default when games played by people exist.
    let (filter, left_out) = chronicle_service::questions::without_simulated(&skill, filter, include);
    let corpus = skill.corpus(&filter);
    let effects = match state.service.skill_effects(filter.clone()).await {
        Ok(e) => e,
        Err(e) => return service_problem(&e),
    };
    let over = Over { games: skill.games, corpus: &corpus, left_out, effects: &effects };
    strategies_page(&q, &filter, &over, html! {})
}

/// What a strategy page's effects are computed over.
struct Over<'a> {
    /// Stored complete games.
    games: usize,
    corpus: &'a chronicle_analytics::skill::SkillCorpus,
    /// Simulated player-games left out.
    left_out: u64,
    effects: &'a [StrategyEffect],
}

fn strategies_page(
    q: &std::collections::BTreeMap<String, String>,
    filter: &EffectsFilter,
    over: &Over<'_>,
    note: Markup,
) -> HttpResponse {
    let (effects, left_out) = (over.effects, over.left_out);
    page(
        "Strategy vs skill",
        html! {
            (tabs("strategies"))
            h1 { "Strategy vs skill · Caverna" }
            p.caveat { "The raw difference compares the players who used a strategy with those who did not: it mostly measures who uses it. The controlled effect compares each player with themselves (player fixed effects), holding the rating gap to the opponents, the seat and the player count fixed; its interval comes from standard errors clustered by game. Only players who used the strategy in some games and not in others (switchers) inform it, and a controlled effect is shown only from at least 20 switchers and 30 games in which a switcher used the strategy (otherwise the cell says what is missing). Win rates differ by percentage points; margins are in score points. Method and limits: docs/statistics.md." }
            (note)
            form.filters method="get" action="/stats/strategies" {
                label { "Every player rated at least " input name="min_rating" type="number" step="any" value=[super::param(q, "min_rating")] placeholder="any"; }
                label { "Source " input name="source" type="text" value=[super::param(q, "source")] placeholder="any"; }
                label { "Leave out source " input name="exclude_source" type="text" value=[super::param(q, "exclude_source")] placeholder="e.g. simulate"; }
                button type="submit" { "Apply" }
                span.hint { " (the rating is mu − 3·sigma before the game; a new player is at 0)" }
            }
            (super::questions::corpus(over.corpus, left_out, &super::query_with(q, "include_simulated", "1")))
            p { "Over " (super::count(effects.first().map_or(0, |e| e.controlled.games))) " multiplayer games of the " (super::count(over.games as u64)) " stored complete games"
                @if let Some(r) = filter.min_rating { ", those whose every player was rated at least " (r) " before the game" }
                @if let Some(s) = &filter.source { ", recorded by " code { (s) } }
                @if let Some(s) = filter.exclude_source.as_ref().filter(|_| left_out == 0) { ", leaving out those recorded by " code { (s) } }
                ". Click a column to sort." }
            (effects_table(effects))
        },
    )
}

/// The strategies, the best supported first: those with a controlled effect, then by how many
/// switchers inform them (a small sample is never on top).
fn effects_table(effects: &[StrategyEffect]) -> Markup {
    let mut effects: Vec<&StrategyEffect> = effects.iter().collect();
    effects.sort_by_key(|e| (e.controlled.win.is_none(), std::cmp::Reverse(e.controlled.switchers)));
    html! {
        div.scroll { table.sortable #strategy-effects {
            thead { tr {
                th data-type="text" { "Strategy" }
                th data-type="num" { "Used (n)" } th data-type="num" { "Win rate used" } th data-type="num" { "Win rate not used" }
                th data-type="num" { "Raw difference (percentage points of win rate)" }
                th data-type="num" { "Controlled: win rate (percentage points)" }
                th data-type="num" { "Controlled: margin (score points)" } th data-type="num" { "Switchers" }
            } }
            tbody { @for e in &effects {
                tr data-strategy=(e.strategy.id()) {
                    td { @match e.strategy {
                        chronicle_analytics::skill::Strategy::Tile(tile) => { "Building the " (tile.printed_name()) }
                        chronicle_analytics::skill::Strategy::Armed => { "Arming a dwarf" }
                    } }
                    td data-sort=(e.used.n) { (e.used.n) }
                    td data-sort=(format!("{:.6}", e.used.rate)) { (super::percent((e.used.n > 0).then_some(e.used.rate))) }
                    td data-sort=(format!("{:.6}", e.not_used.rate)) { (super::percent((e.not_used.n > 0).then_some(e.not_used.rate))) }
                    @let why = e.controlled.not_enough_data();
                    @let small = (e.used.below_min_sample || e.not_used.below_min_sample).then_some(super::stats::TOO_FEW);
                    (interval_cell(diff(e.raw), 100.0, "", small))
                    @let missing = why.as_deref().unwrap_or("the model cannot be fitted on these games");
                    (interval_cell(est(e.controlled.win), 100.0, "", e.controlled.win.is_none().then_some(missing)))
                    (interval_cell(est(e.controlled.margin), 1.0, "", e.controlled.margin.is_none().then_some(missing)))
                    td data-sort=(e.controlled.switchers) { (e.controlled.switchers) }
                }
            } }
        } }
    }
}

/// A player's name as written in their latest rated game.
/// The game of a ratings page (`?game=`; Caverna by default).
fn game_of(req: &HttpRequest) -> Option<GameKind> {
    match super::param(&super::query_map(req), "game") {
        None => Some(GameKind::Caverna),
        Some(id) => GameKind::from_id(id),
    }
}

/// The games' ratings tabs.
fn game_tabs(kind: GameKind) -> Markup {
    html! {
        nav.tabs {
            @for k in GameKind::ALL { a href={ "/players?game=" (k.id()) } class=[(*k == kind).then_some("current")] { (k.spec().name) } }
        }
    }
}

/// The sentence said when a game's ratings are not stored yet, or lag the stored games.
fn model_note(kind: GameKind, model: Option<&RatingsModel>) -> Markup {
    html! {
        @match model {
            None => p.caveat #ratings-pending { "The " (kind.spec().name) " ratings are being computed from the stored games. Reload this page in a moment." },
            Some(m) if m.behind => p.caveat #ratings-pending { "Games stored in the last moments are being rated; this page shows them once that is done (reload in a moment)." },
            Some(_) => {},
        }
    }
}

/// Rated players listed on the ratings page.
const TABLE_ROWS: u64 = 500;

/// Rated games listed on a player's page.
const HISTORY_ROWS: u64 = 200;

pub async fn players(state: web::Data<AppState>, req: HttpRequest) -> HttpResponse {
    if let Some(r) = refused(&state, &req) {
        return r;
    }
    let Some(kind) = game_of(&req) else { return super::not_found("game of that id") };
    let model = match state.service.ratings_model(kind).await {
        Ok(m) => m,
        Err(e) => return service_problem(&e),
    };
    let table = match state.service.rating_table(kind, 0, TABLE_ROWS).await {
        Ok(t) => t,
        Err(e) => return service_problem(&e),
    };
    let (games, players) = model.as_ref().map_or((0, 0), |m| (m.games, m.players));
    page(
        &format!("Ratings · {}", kind.spec().name),
        html! {
            (tabs("players"))
            (game_tabs(kind))
            h1 { "Ratings · " (kind.spec().name) }
            p { "Weng-Lin ratings (mu ± sigma; a new player is 25 ± 8.3) from every stored complete multiplayer game of " (kind.spec().name) " in the order played, sorted by mu − 3·sigma. A player is the id their logs give them (" code { "setup.players[].id" } ") or else a name (case and spacing ignored); identities an administrator merged count as one. Method: docs/statistics.md." }
            (model_note(kind, model.as_ref()))
            @if model.is_some() { p #ratings-corpus { (super::count(players)) " players rated over " (super::count(games)) " complete games." } }
            div.scroll { table.sortable #ratings {
                thead { tr { th data-type="num" { "#" } th data-type="text" { "Player" } th data-type="num" { "Rating (mu − 3σ)" } th data-type="num" { "mu" } th data-type="num" { "sigma" } th data-type="num" { "Games" } } }
                tbody { @for r in &table {
                    @let conservative = r.mu - 3.0 * r.sigma;
                    tr {
                        td { (r.place + 1) }
                        td { a href={ "/players/" (super::urlencode(&r.player)) "?game=" (kind.id()) } { (r.name) }
                             @if r.player.starts_with("id:") { " " span.hint { (r.player) } } }
                        td data-sort=(format!("{conservative:.4}")) { (super::number(Some(conservative), 1)) }
                        td { (format!("{:.2}", r.mu)) } td { (format!("{:.2}", r.sigma)) } td { (r.games) }
                    }
                } }
            } }
            @if players > TABLE_ROWS { p { "The first " (TABLE_ROWS) " of " (super::count(players)) " players." } }
        },
    )
}

pub async fn player(state: web::Data<AppState>, req: HttpRequest, name: web::Path<String>) -> HttpResponse {
    if let Some(r) = refused(&state, &req) {
        return r;
    }
    let aliases = match state.service.player_aliases().await {
        Ok(a) => a,
        Err(e) => return service_problem(&e),
    };
    let Some(asked) = chronicle_service::stats_corpus::key_of(&name) else {
        return super::not_found("rated player of that name");
    };
    let key = aliases.iter().find(|(alias, _)| *alias == asked).map_or(asked, |(_, canonical)| canonical.clone());
    let merged: Vec<&str> = aliases.iter().filter(|(_, c)| *c == key).map(|(a, _)| a.as_str()).collect();
    let Some(kind) = game_of(&req) else { return super::not_found("game of that id") };
    let model = match state.service.ratings_model(kind).await {
        Ok(m) => m,
        Err(e) => return service_problem(&e),
    };
    let rating = match state.service.player_rating(kind, &key).await {
        Ok(Some(r)) => r,
        Ok(None) if model.as_ref().is_some_and(|m| !m.behind) => return super::not_found("rated player of that name"),
        Ok(None) => {
            return page(
                "Rating",
                html! { (tabs("players")) h1 { "Rating · " (kind.spec().name) } (model_note(kind, model.as_ref())) },
            )
        }
        Err(e) => return service_problem(&e),
    };
    let history = match state.service.rating_history(kind, &key, HISTORY_ROWS).await {
        Ok(h) => h,
        Err(e) => return service_problem(&e),
    };
    let ids: Vec<i64> = history.iter().map(|h| h.game_id).collect();
    let games = match state.service.games(&ids).await {
        Ok(g) => g,
        Err(e) => return service_problem(&e),
    };
    let conservative = rating.mu - 3.0 * rating.sigma;
    page(
        &format!("{} · rating", rating.name),
        html! {
            (tabs("players"))
            h1 { (rating.name) " · " (kind.spec().name) }
            p.hint { "Identity " code { (key) }
                @if !merged.is_empty() { "; also recorded as " @for (i, a) in merged.iter().enumerate() { @if i > 0 { ", " } code { (a) } } } }
            (model_note(kind, model.as_ref()))
            p #player-rating { (kind.spec().name) " rating " strong { (super::number(Some(conservative), 1)) } " (mu " (format!("{:.2}", rating.mu)) ", sigma " (format!("{:.2}", rating.sigma)) ") after " (rating.games) " rated games." }
            h2 { "Rated games, latest first" }
            div.scroll { table #rating-history {
                thead { tr { th { "Game" } th { "Played" } th { "Seat" } th { "Rank" } th { "Score" } th { "mu before" } th { "mu after" } th { "sigma after" } } }
                tbody { @for h in &history {
                    @let head = games.iter().find(|g| g.id == h.game_id);
                    @let seat = head.and_then(|g| g.record.players.get(usize::from(h.seat)));
                    tr { td { a href={ "/games/" (h.game_id) } { (h.game_id) } }
                         td { (head.and_then(|g| g.record.meta.played_at.clone()).unwrap_or_default()) }
                         td { (h.seat + 1) }
                         td { (seat.and_then(|p| p.rank).map(|r| r.to_string()).unwrap_or_default()) }
                         td { (seat.and_then(|p| p.score.as_ref()).map(|s| s.total.to_string()).unwrap_or_default()) }
                         td { (format!("{:.2}", h.mu_before)) } td { (format!("{:.2}", h.mu_after)) } td { (format!("{:.2}", h.sigma_after)) } }
                } }
            } }
            @if u64::try_from(rating.games).unwrap_or(0) > HISTORY_ROWS { p { "The latest " (HISTORY_ROWS) " of " (rating.games) " rated games." } }
        },
    )
}
