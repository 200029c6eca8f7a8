//! The questions pages (`/questions/<game>`): the questions players ask of a game's stored
//! games, each answered in a sentence and a table — the raw win rates and their difference
//! beside the effect controlled for who plays, with intervals, sample sizes and a verdict —
//! and linked to the tables behind them (docs/statistics.md, "Questions").

use actix_web::{web, HttpRequest, HttpResponse};
use maud::{html, Markup};

use chronicle_analytics::questions::{Answer, Question, Verdict};
use chronicle_analytics::skill::SkillCorpus;
use chronicle_caverna::furnishing::Furnishing;
use chronicle_game::GameKind;
use chronicle_service::questions::QuestionsReport;

use super::skill::{diff, est, interval_cell};
use super::{count, page, param, percent, query_map, refused, service_problem};
use crate::server::http::AppState;

/// `/questions`: Caverna's, the first game.
pub async fn index() -> HttpResponse {
    let first = GameKind::ALL.first().map_or("caverna", |k| k.id());
    HttpResponse::SeeOther().insert_header(("Location", format!("/questions/{first}"))).finish()
}

pub async fn show(state: web::Data<AppState>, req: HttpRequest, game: web::Path<String>) -> HttpResponse {
    if let Some(r) = refused(&state, &req) {
        return r;
    }
    let Some(kind) = GameKind::from_id(&game) else { return super::not_found("game of that id") };
    let q = query_map(&req);
    let include = param(&q, "include_simulated").is_some_and(|v| v == "1" || v == "on");
    let tile = param(&q, "tile").map(str::to_owned);
    let report = match state.service.questions(kind, tile, include).await {
        Ok(r) => r,
        Err(e) => return service_problem(&e),
    };
    let spec = kind.spec();
    page(
        &format!("Questions · {}", spec.name),
        html! {
            nav.tabs {
                @for k in GameKind::ALL { a href={ "/questions/" (k.id()) } class=[(*k == kind).then_some("current")] { (k.spec().name) } }
            }
            h1 { "Questions · " (spec.name) }
            p.hint #tables { "The tables behind the answers: "
                @if spec.capabilities.outcome_stats { a href={ "/stats/" (kind.id()) } { "statistics by what players did" } }
                @else { a href="/stats/furnishings" { "furnishing tiles and the other families" } ", " a href="/stats/strategies" { "strategy vs skill" } }
                ", " a href={ "/players?game=" (kind.id()) } { "ratings" } "." }
            p.caveat { "Each answer compares the players who did something with those who did not. The raw difference mostly measures who does it: strong players both win and play a certain way. The controlled effect compares each player with themselves (their games with it against their games without), holding the rating gap to the opponents, the seat and the player count fixed; the verdict reads it alone. Win rates differ by percentage points; margins (own score minus the opponents' mean) are in score points. Method and limits: docs/statistics.md, \"Questions\"." }
            (corpus(&report.corpus, report.simulated_left_out, &super::query_with(&q, "include_simulated", "1")))
            @for question in &report.questions {
                (section(kind, &report, question))
            }
        },
    )
}

/// What the answers are computed over, said first (`left_out`: simulated player-games left
/// out by default; `include`: the link that keeps them).
pub(super) fn corpus(c: &SkillCorpus, left_out: u64, include: &str) -> Markup {
    let most = |n: u64| c.player_games > 0 && 2 * n > c.player_games;
    let bots: Vec<String> = by_bots(&c.simulated_by).iter().take(4).map(|(b, n)| format!("{n} by {b}")).collect();
    html! {
        p #corpus {
            "Computed over " (count(c.player_games)) " player-games of " (count(c.games)) " complete multiplayer games: "
            (count(c.simulated)) " from games Chronicle's bots played (simulated"
            @if !bots.is_empty() { "; " (bots.join(", ")) }
            "), " (count(c.player_games - c.simulated.min(c.player_games))) " from games played by people; "
            (count(c.synthetic)) " on synthetic component data (made-up test data, not the printed game)."
        }
        (super::stats::corpus_notices(
            (left_out > 0).then(|| format!("{left_out} player-games from games Chronicle's bots played")),
            include,
            most(c.simulated),
            most(c.synthetic),
        ))
    }
}

/// Player-games of simulated games by the set of bots that played them (sources that name
/// the same bots in another seat order are one), most first.
fn by_bots(sources: &[(String, u64)]) -> Vec<(String, u64)> {
    let mut by: Vec<(String, u64)> = Vec::new();
    for (source, n) in sources {
        let words = bots_of(source);
        match by.iter_mut().find(|(w, _)| *w == words) {
            Some((_, m)) => *m += n,
            None => by.push((words, *n)),
        }
    }
    by.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    by
}

/// The bots of a simulated game's `meta.source` (`simulate:weapons+random`), in words, in
/// alphabetical order.
fn bots_of(source: &str) -> String {
    let mut bots: Vec<&str> = source.trim_start_matches("simulate").trim_start_matches(':').split('+').collect();
    bots.sort_unstable();
    match bots.as_slice() {
        [] | [""] => "bots".to_owned(),
        [one] => format!("{one} bots"),
        [rest @ .., last] => format!("{} and {last} bots", rest.join(", ")),
    }
}

fn section(kind: GameKind, r: &QuestionsReport, question: &Question) -> Markup {
    html! {
        section.question id=(question.id) {
            h2 { (question.asked) }
            @if question.id.starts_with("tile-") { (tile_form(kind, r)) }
            p.answer { strong { (question.summary()) } }
            p.hint { (question.method) " " a href=(behind(kind, &question.id)) { "The table behind it" } "." }
            div.scroll { table.answers {
                thead { tr {
                    th { "Players who…" } th { "Player-games" } th { "Their win rate" } th { "Others' win rate" }
                    th { "Raw difference (percentage points of win rate)" }
                    th { "Controlled: win rate (percentage points)" } th { "Controlled: margin (score points)" }
                    th { "Switchers" } th { "Verdict" }
                } }
                tbody { @for a in &question.answers { (row(a)) } }
            } }
        }
    }
}

fn row(a: &Answer) -> Markup {
    let c = &a.comparison;
    let why = c.controlled.not_enough_data();
    let missing = why.as_deref().unwrap_or("the model cannot be fitted on these games");
    let small = (c.used.below_min_sample || c.not_used.below_min_sample).then_some(super::stats::TOO_FEW);
    html! {
        tr data-verdict=(a.verdict.id()) {
            td { (a.label) }
            td.num { (c.used.n) }
            td.num { (percent((c.used.n > 0).then_some(c.used.rate))) }
            td.num { (percent((c.not_used.n > 0).then_some(c.not_used.rate))) }
            (interval_cell(diff(c.raw), 100.0, "", small))
            @if c.controlled.win.is_none() && c.controlled.margin.is_none() {
                td.estimate.not-enough colspan="2" { (missing) }
            } @else {
                (interval_cell(est(c.controlled.win), 100.0, "", c.controlled.win.is_none().then_some(missing)))
                (interval_cell(est(c.controlled.margin), 1.0, "", c.controlled.margin.is_none().then_some(missing)))
            }
            td.num { (c.controlled.switchers) }
            td.verdict.clear[matches!(a.verdict, Verdict::Helps(_) | Verdict::Hurts(_))] {
                // The reason is in the controlled cell beside it.
                @match &a.verdict { Verdict::NotEnoughData(_) => { "Not enough data." } v => { (v.words()) } }
            }
        }
    }
}

/// The tile picker of "Does building it help?".
fn tile_form(kind: GameKind, r: &QuestionsReport) -> Markup {
    html! {
        form.filters method="get" action={ "/questions/" (kind.id()) } {
            label { "Tile "
                select name="tile" {
                    @for t in Furnishing::all() { option value=(t.id()) selected[Some(t) == r.tile] { (t.printed_name()) } }
                }
            }
            @if r.simulated_left_out == 0 && r.corpus.simulated > 0 { input type="hidden" name="include_simulated" value="1"; }
            button type="submit" { "Ask" }
        }
    }
}

/// The statistics table a question's numbers come from.
fn behind(kind: GameKind, question: &str) -> String {
    match (kind.spec().capabilities.outcome_stats, question) {
        (true, _) => format!("/stats/{}", kind.id()),
        (false, q) if q.starts_with("seat-") => "/stats/seats".to_owned(),
        (false, "arming") => "/stats/weapons".to_owned(),
        (false, "main-source") => "/stats/scores".to_owned(),
        (false, _) => "/stats/strategies".to_owned(),
    }
}
