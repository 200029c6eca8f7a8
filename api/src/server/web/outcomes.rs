//! The statistics pages of the games with per-player counters (`/stats/village`,
//! `/stats/above-and-below`): win rate and margin by each counter's value and by main source of
//! points, row points of winners and others, seats and scores, with the filters of the API's
//! `village` / `aboveAndBelow` fields in the URL. Every rate shows its n and 95% Wilson interval
//! and every margin its 95% normal interval; small samples are marked.

use std::collections::BTreeMap;

use actix_web::http::StatusCode;
use actix_web::{web, HttpRequest, HttpResponse};
use maud::{html, Markup};

use chronicle_analytics::outcomes::{Mean, OutcomeFilter, OutcomeReport};
use chronicle_analytics::DEFAULT_MIN_SAMPLE;
use chronicle_game::{GameKind, GameSpec};

use super::stats::{rate_cell, scores};
use super::{count, number, page, param, percent, problem, query_map, refused, service_problem, tenths};
use crate::server::http::AppState;

/// The games with an outcome statistics page (`capabilities.outcome_stats`), at
/// `/stats/<game id>`, in the registry's order.
pub fn games() -> impl Iterator<Item = GameKind> {
    GameKind::ALL.iter().copied().filter(|k| k.spec().capabilities.outcome_stats)
}

fn filter_of(q: &BTreeMap<String, String>) -> Result<OutcomeFilter, String> {
    let mut f = OutcomeFilter { min_sample: DEFAULT_MIN_SAMPLE, bucket_width: 5, ..OutcomeFilter::default() };
    if let Some(n) = param(q, "players") {
        f.min_players = n.parse::<u8>().ok().filter(|n| (1..=10).contains(n)).ok_or("players (at least) is 1 to 10")?;
    }
    f.source = param(q, "source").map(str::to_owned);
    f.exclude_source = param(q, "exclude_source").map(str::to_owned);
    f.include_simulated = param(q, "include_simulated").is_some_and(|v| v == "1" || v == "on");
    if let Some(n) = param(q, "min") {
        f.min_sample = n.parse::<u64>().map_err(|_| "min is a whole number")?;
    }
    Ok(f)
}

fn filter_form(path: &str, q: &BTreeMap<String, String>) -> Markup {
    html! {
        form.filters method="get" action={ "/stats/" (path) } {
            label { "Players at least " input name="players" type="number" min="1" max="10" value=[param(q, "players")]; }
            label { "Source " input name="source" value=[param(q, "source")] placeholder="any"; }
            label { "Leave out source " input name="exclude_source" value=[param(q, "exclude_source")] placeholder="e.g. simulate"; }
            label { "Min sample " input name="min" type="number" min="0" value=[param(q, "min")] placeholder="30"; }
            label { input name="include_simulated" type="checkbox" value="1" checked[param(q, "include_simulated").is_some()]; " Include simulated games beside games played by people" }
            button type="submit" { "Apply" }
        }
    }
}

/// A mean margin with its interval; below the minimum sample, marked small and without one.
fn mean_cell(m: &Mean) -> Markup {
    let interval = match (m.ci_low, m.ci_high) {
        _ if m.below_min_sample && m.n > 0 => format!(" · {}", super::stats::TOO_FEW),
        (Some(lo), Some(hi)) => format!(" ({} to {})", tenths(lo, true), tenths(hi, true)),
        _ => String::new(),
    };
    html! {
        td.num.small[m.below_min_sample] data-sort=(m.mean.unwrap_or(f64::NEG_INFINITY)) {
            (m.mean.map_or("—".to_owned(), |x| tenths(x, true))) span.n { (interval) }
        }
    }
}

fn plain_mean_cell(m: &Mean) -> Markup {
    let interval = match (m.ci_low, m.ci_high) {
        _ if m.below_min_sample && m.n > 0 => format!(" · {}", super::stats::TOO_FEW),
        (Some(lo), Some(hi)) => format!(" ({} to {})", tenths(lo, false), tenths(hi, false)),
        _ => String::new(),
    };
    html! {
        td.num.small[m.below_min_sample] data-sort=(m.mean.unwrap_or(f64::NEG_INFINITY)) {
            (number(m.mean, 1)) span.n { (interval) " n=" (m.n) }
        }
    }
}

/// What the figures are computed over, said first: how many games, how many Chronicle's bots
/// played and how many rest on synthetic component data — with a notice when most do.
fn corpus(r: &OutcomeReport, include: &str) -> Markup {
    let most = |n: u64| r.games > 0 && 2 * n > r.games;
    html! {
        p #corpus {
            (count(r.games)) " multiplayer games (" (count(r.player_games)) " player-games; " (count(r.solo_games)) " solo games left out): "
            (count(r.simulated_games)) " played by Chronicle's bots (simulated), " (count(r.games - r.simulated_games.min(r.games))) " by people; "
            (count(r.synthetic_games)) " on synthetic component data (made-up test data, not the printed game)."
        }
        (super::stats::corpus_notices(
            (r.simulated_left_out > 0).then(|| format!("{} games played by Chronicle's bots", count(r.simulated_left_out))),
            include,
            most(r.simulated_games),
            most(r.synthetic_games),
        ))
    }
}

fn caveat() -> Markup {
    html! {
        p.caveat { "Descriptive figures over stored complete multiplayer games: each row describes the player-games that share a value (cities visited, main source of points, seat). They control for nothing — not for the players' skill, nor for bots: strong players both win and play a certain way, so a high win rate beside a value is not the value's effect. Win rates carry their sample size and a 95% Wilson interval; margins (own score minus the opponents' mean score) a 95% normal interval. Solo games are counted apart and in no figure. Definitions: docs/statistics.md, \"Village and Above and Below\"." }
    }
}

fn counters(spec: &GameSpec, r: &OutcomeReport) -> Markup {
    html! {
        @for c in &r.counters {
            @let round = spec.counters.iter().any(|s| s.id == c.counter && s.round);
            h2 { (spec.counter_label(&c.counter).unwrap_or(&c.counter)) }
            p { (count(c.player_games)) " player-games. The smallest values one by one, larger ones together."
                @if round { " A round number; never is shown as “never”." } }
            div.scroll { table.sortable {
                thead { tr { th data-type="num" { @if round { "Round" } @else { "Value" } } th data-type="num" { "Win rate" } th data-type="num" { "Mean margin (95%)" } } }
                tbody { @for g in &c.groups {
                    tr {
                        td.num data-sort=(g.low) {
                            @if round && g.low == 0 && g.high == Some(0) { "never" }
                            @else { (g.low) @if g.high.is_none() { " or more" } }
                        }
                        (rate_cell(&g.win_rate)) (mean_cell(&g.margin))
                    }
                } }
            } }
        }
    }
}

fn sources(spec: &GameSpec, r: &OutcomeReport) -> Markup {
    html! {
        h2 { "Main source of points" }
        p { "The score row that gave the player the most points (the first printed on a tie)." }
        div.scroll { table.sortable #main-sources {
            thead { tr { th data-type="text" { "Main source" } th data-type="num" { "Win rate" } th data-type="num" { "Mean margin (95%)" } } }
            tbody { @for s in &r.main_sources {
                tr { td { (spec.row_label(&s.row).unwrap_or(&s.row)) } (rate_cell(&s.win_rate)) (mean_cell(&s.margin)) }
            } }
        } }
        h2 { "Points per score row" }
        div.scroll { table.sortable {
            thead { tr { th data-type="text" { "Row" } th data-type="num" { "Winners' mean (95%)" } th data-type="num" { "Others' mean (95%)" } } }
            tbody { @for p in &r.rows {
                tr { td { (spec.row_label(&p.row).unwrap_or(&p.row)) } (plain_mean_cell(&p.winners)) (plain_mean_cell(&p.others)) }
            } }
        } }
    }
}

fn seats(r: &OutcomeReport) -> Markup {
    html! {
        h2 { "Win rate by seat" }
        div.scroll { table.sortable {
            thead { tr { th data-type="num" { "Players" } th data-type="num" { "Seat" } th data-type="num" { "Win rate" } th data-type="num" { "Expected (1 / players)" } } }
            tbody { @for s in &r.seats {
                tr { td.num { (s.player_count) } td.num { (u16::from(s.seat) + 1) } (rate_cell(&s.win_rate)) td.num { (percent(Some(s.expected))) } }
            } }
        } }
    }
}

/// The outcome statistics page of `kind` (a game with `capabilities.outcome_stats`).
pub async fn show(state: web::Data<AppState>, req: HttpRequest, kind: GameKind) -> HttpResponse {
    let path = kind.id();
    if let Some(r) = refused(&state, &req) {
        return r;
    }
    let q = query_map(&req);
    let filter = match filter_of(&q) {
        Ok(f) => f,
        Err(e) => return problem(StatusCode::BAD_REQUEST, "Bad filter", &e),
    };
    let report = match state.service.outcomes(kind, filter).await {
        Ok(r) => r,
        Err(e) => return service_problem(&e),
    };
    let spec = kind.spec();
    page(
        &format!("{} statistics", spec.name),
        html! {
            nav.tabs {
                a href="/questions" { "Questions" }
                a href="/stats/furnishings" { "Caverna" }
                @for k in games() { a href={ "/stats/" (k.id()) } class=[(k == kind).then_some("current")] { (k.spec().name) } }
                a href={ "/players?game=" (kind.id()) } { "Ratings · " (spec.name) }
            }
            h1 { "Statistics · " (spec.name) }
            (filter_form(path, &q))
            (caveat())
            (corpus(&report, &super::query_with(&q, "include_simulated", "1")))
            (sources(spec, &report))
            (counters(spec, &report))
            (seats(&report))
            h2 { "Score distribution" }
            (scores(&report.scores))
        },
    )
}
