//! Statistics pages: Caverna's families (furnishings, weapons, seats, scores, action spaces) with
//! the API's filters in the URL, every rate with its sample size and 95% Wilson interval (drawn
//! as a bar), small samples marked. The numbers are the analytics crate's (definitions: docs/api.md, "Strategy statistics").

use std::collections::BTreeMap;

use actix_web::http::StatusCode;
use actix_web::{web, HttpRequest, HttpResponse};
use maud::{html, Markup};

use chronicle_analytics::{self as analytics, parse_played_at, FurnishingSet, Rate};

use super::{count, number, page, param, percent, problem, query_map, refused, service_problem, tenths};
use crate::server::http::AppState;

const FAMILIES: [(&str, &str); 5] = [
    ("furnishings", "Furnishing tiles"),
    ("weapons", "Weapon strategies"),
    ("seats", "Seats and first player"),
    ("scores", "Score distribution"),
    ("spaces", "Action spaces"),
];

pub async fn index() -> HttpResponse {
    HttpResponse::SeeOther().insert_header(("Location", "/questions")).finish()
}

/// The analytics filter of the query string, or what is wrong with it.
fn filter_of(q: &BTreeMap<String, String>) -> Result<analytics::StatsFilter, String> {
    let mut f = analytics::StatsFilter::all();
    if let Some(n) = param(q, "players") {
        let n = n.parse::<u8>().ok().filter(|n| (1..=7).contains(n)).ok_or("players is 1 to 7")?;
        f = f.player_count(n);
    }
    if let Some(set) = param(q, "set") {
        f = f.furnishing_set(FurnishingSet::from_id(set).ok_or("set is full or introductory")?);
    }
    if let Some(v) = param(q, "source") {
        f = f.source(v.to_owned());
    }
    if let Some(v) = param(q, "exclude_source") {
        f = f.exclude_source(v.to_owned());
    }
    if let Some(v) = param(q, "uploader") {
        f = f.uploader(v.to_owned());
    }
    if let Some(t) = param(q, "tournament") {
        f = f.tournament(t.to_owned());
    }
    for key in ["from", "until"] {
        if let Some(v) = param(q, key) {
            parse_played_at(v).ok_or_else(|| format!("{key} `{v}` is not a date or an RFC 3339 time"))?;
        }
    }
    if let Some(v) = param(q, "from") {
        f = f.played_from(v.to_owned());
    }
    if let Some(v) = param(q, "until") {
        // The picker's day is included: games strictly before the next day.
        f = f.played_until(analytics::day_after(v).unwrap_or_else(|| v.to_owned()));
    }
    if let Some(n) = param(q, "min") {
        f = f.min_sample(n.parse::<u64>().map_err(|_| "min is a whole number")?);
    }
    Ok(f)
}

fn filter_form(family: &str, q: &BTreeMap<String, String>) -> Markup {
    html! {
        form.filters method="get" action={ "/stats/" (family) } {
            label { "Players " input name="players" type="number" min="1" max="7" value=[param(q, "players")]; }
            label { "Set " select name="set" {
                option value="" { "any" }
                @for s in ["full", "introductory"] { option value=(s) selected[param(q, "set") == Some(s)] { (s) } }
            } }
            label { "Tournament " input name="tournament" value=[param(q, "tournament")]; }
            label { "Played from " input name="from" type="date" value=[param(q, "from")]; }
            label { "until (inclusive) " input name="until" type="date" value=[param(q, "until")]; }
            label { "Uploader " input name="uploader" value=[param(q, "uploader")]; }
            label { "Games with player " input name="player" value=[param(q, "player")] placeholder="name or id:…"; }
            label { "Source " input name="source" value=[param(q, "source")] placeholder="any"; }
            label { "Leave out source " input name="exclude_source" value=[param(q, "exclude_source")] placeholder="e.g. simulate"; }
            label { input name="include_simulated" type="checkbox" value="1" checked[param(q, "include_simulated").is_some()]; " Include simulated games beside games played by people" }
            label { "Min sample " input name="min" type="number" min="0" value=[param(q, "min")] placeholder="30"; }
            button type="submit" { "Apply" }
        }
    }
}

/// A rate as text with its interval drawn as a bar on a 0–100% scale. Without a sample there
/// is no rate and no interval: the scale is drawn empty (a bar over the whole of it would look
/// like a measured spread); below the page's minimum sample the rate is shown, marked small,
/// without an interval (docs/statistics.md, "Rates and intervals").
pub(super) fn rate_cell(r: &Rate) -> Markup {
    let (lo, hi) = (r.ci_low.clamp(0.0, 1.0) * 100.0, r.ci_high.clamp(0.0, 1.0) * 100.0);
    let interval = r.n > 0 && !r.below_min_sample;
    let title = match (r.n, interval) {
        (0, _) => "no player-games".to_owned(),
        (_, false) => format!("{} of {}; {TOO_FEW}", r.successes, r.n),
        _ => {
            format!("{} of {}; 95% interval {}–{}", r.successes, r.n, percent(Some(r.ci_low)), percent(Some(r.ci_high)))
        }
    };
    html! {
        td.rate.small[r.below_min_sample] data-sort=(format!("{:.6}", r.rate)) title=(title) {
            span.value { (percent((r.n > 0).then_some(r.rate))) }
            // Drawn with SVG attributes rather than a style attribute, which the pages' content
            // security policy refuses.
            svg.ci viewBox="0 0 100 1" preserveAspectRatio="none" aria-hidden="true" {
                @if interval {
                    rect.bar x=(format!("{lo:.1}")) y="0" width=(format!("{:.1}", (hi - lo).max(0.5))) height="1" {}
                }
            }
            span.n { "n=" (r.n) @if r.below_min_sample && r.n > 0 { " · " (TOO_FEW) } }
        }
    }
}

/// What a cell says in place of an interval below the minimum sample.
pub(super) const TOO_FEW: &str = "too few for an interval";

/// What a Caverna statistics page says it is computed over (`include`: the link that keeps
/// the simulated games).
fn composition(c: &chronicle_service::CavernaCorpus, include: &str) -> Markup {
    let people = c.player_games - c.simulated.min(c.player_games);
    html! {
        p #corpus { "Computed over " (count(c.player_games)) " player-games: " (count(c.simulated)) " from games Chronicle's bots played (simulated), " (count(people)) " from games played by people." }
        (corpus_notices(
            (c.left_out > 0).then(|| format!("{} player-games from games Chronicle's bots played", count(c.left_out))),
            include,
            c.player_games > 0 && 2 * c.simulated > c.player_games,
            false,
        ))
    }
}

/// The notices under what a statistics page is computed over: the simulated games left out
/// (`left_out` says how many, in the page's unit; `include` is the link that keeps them), and
/// whether most of what is counted was played by bots or declares synthetic component data.
pub(super) fn corpus_notices(left_out: Option<String>, include: &str, bots: bool, synthetic: bool) -> Markup {
    let most = match (bots, synthetic) {
        (true, true) => "were played by bots and use synthetic component data",
        (true, false) => "were played by bots",
        (false, true) => "use synthetic component data",
        (false, false) => "",
    };
    html! {
        @if let Some(left_out) = left_out {
            p.notice #simulated-left-out {
                (left_out) " are left out: games played by people exist, and the two are not mixed. "
                a href=(include) { "Include the simulated games" } "."
            }
        }
        @if !most.is_empty() {
            p.notice #corpus-notice {
                strong { "Most of these games " (most) }
                ": the figures describe how those games went, not how the printed game plays between people."
            }
        }
    }
}

fn caveat() -> Markup {
    html! {
        p.caveat { "Observational figures over stored complete games: they compare the players who did something with those who did not, in the same games. They do not control for the players' skill or for bots: a strategy chosen mostly by strong players looks better than it is (see \"Strategy vs skill\" for effects controlled for who plays). Rates carry their sample size and a 95% Wilson score interval; definitions: docs/api.md, \"Strategy statistics\"." }
    }
}

pub async fn family(state: web::Data<AppState>, req: HttpRequest, family: web::Path<String>) -> HttpResponse {
    // A game with outcome statistics has its page here too (`/stats/village`), admitted there.
    if let Some(kind) = super::outcomes::games().find(|k| k.id() == family.as_str()) {
        return super::outcomes::show(state, req, kind).await;
    }
    if let Some(r) = refused(&state, &req) {
        return r;
    }
    let Some(&(id, title)) = FAMILIES.iter().find(|(id, _)| *id == family.as_str()) else {
        return super::not_found("such statistics page");
    };
    let q = query_map(&req);
    let mut filter = match filter_of(&q) {
        Ok(f) => f,
        Err(e) => return problem(StatusCode::BAD_REQUEST, "Bad filter", &e),
    };
    if let Some(player) = param(&q, "player") {
        // Games with the player or an identity merged into them.
        filter.players = match state.service.player_identities(player).await {
            Ok(Some(keys)) => keys,
            Ok(None) => return problem(StatusCode::BAD_REQUEST, "Bad filter", "player names nobody"),
            Err(e) => return super::service_problem(&e),
        };
    }
    let include = param(&q, "include_simulated").is_some();
    let (filter, corpus) = match state.service.caverna_corpus(filter, include).await {
        Ok(c) => c,
        Err(e) => return service_problem(&e),
    };
    let content = match id {
        "furnishings" => state.service.stats_over(filter, |s, f| s.furnishings(f)).await.map(|f| furnishings(&f)),
        "weapons" => state.service.stats_over(filter, |s, f| s.weapons(f)).await.map(|w| weapons(&w)),
        "seats" => state.service.stats_over(filter, |s, f| s.seats(f)).await.map(|s| seats(&s)),
        "scores" => state.service.stats_over(filter, |s, f| s.scores(f, 5)).await.map(|s| scores(&s)),
        _ => state.service.stats_over(filter, |s, f| s.spaces(f)).await.map(|s| spaces(&s)),
    };
    let content = match content {
        Ok(c) => c,
        Err(e) => return service_problem(&e),
    };
    page(
        title,
        html! {
            nav.tabs {
                a href="/questions" { "Questions" }
                @for (f, t) in FAMILIES { a href={ "/stats/" (f) } class=[(f == id).then_some("current")] { (t) } }
                a href="/stats/strategies" { "Strategy vs skill" }
                a href="/players" { "Ratings" }
                @for k in super::outcomes::games() { a href={ "/stats/" (k.id()) } { (k.spec().name) } }
            }
            h1 { (title) " · Caverna" }
            (filter_form(id, &q))
            (composition(&corpus, &super::query_with(&q, "include_simulated", "1")))
            (caveat())
            (content)
        },
    )
}

fn furnishings(f: &analytics::FurnishingStats) -> Markup {
    html! {
        p { "Per tile, over the player-games whose furnishing set includes it. Click a column to sort." }
        div.scroll { table.sortable #furnishing-stats {
            thead { tr {
                th data-type="text" { "Tile" } th data-type="num" { "Player-games" } th data-type="num" { "Built" }
                th data-type="num" { "Win rate built" } th data-type="num" { "Win rate not built" }
                th data-type="num" { "Win rate difference (percentage points, 95%)" }
                th data-type="num" { "Mean score difference (score points, 95%)" } th data-type="num" { "Mean round built" }
            } }
            tbody { @for t in &f.tiles {
                tr {
                    td { (t.tile.printed_name()) }
                    td.num data-sort=(t.player_games) { (t.player_games) }
                    td.num data-sort=(t.built) { (t.built) }
                    (rate_cell(&t.win_rate_built))
                    (rate_cell(&t.win_rate_not_built))
                    @let small = t.win_rate_built.below_min_sample || t.win_rate_not_built.below_min_sample;
                    td.num.small[small] data-sort=(t.win_rate_difference.unwrap_or(f64::NEG_INFINITY)) {
                        @match (t.win_rate_difference, t.win_rate_difference_ci) {
                            (Some(d), _) if small => { (tenths(d * 100.0, true)) span.n { " · " (TOO_FEW) } }
                            (Some(d), Some((lo, hi))) => { (tenths(d * 100.0, true)) span.n { " (" (tenths(lo * 100.0, true)) " to " (tenths(hi * 100.0, true)) ")" } }
                            (Some(d), None) => { (tenths(d * 100.0, true)) }
                            _ => { "—" }
                        }
                    }
                    td.num.score-difference.small[small] data-sort=(t.mean_score_difference.unwrap_or(f64::NEG_INFINITY)) {
                        @match (t.mean_score_difference, t.mean_score_difference_ci) {
                            (Some(d), _) if small => { (tenths(d, true)) span.n { " · " (TOO_FEW) } }
                            (Some(d), Some((lo, hi))) => { (tenths(d, true)) span.n { " (" (tenths(lo, true)) " to " (tenths(hi, true)) ")" } }
                            (Some(d), None) => { (tenths(d, true)) }
                            _ => { "—" }
                        }
                    }
                    td.num data-sort=(t.mean_round_built.unwrap_or(f64::INFINITY)) { (number(t.mean_round_built, 1)) }
                }
            } }
        } }
    }
}

fn group_rows(rows: Vec<(String, &analytics::GroupStats)>) -> Markup {
    html! {
        div.scroll { table.sortable {
            thead { tr { th data-type="text" { "Group" } th data-type="num" { "Win rate" } th data-type="num" { "Mean score" } } }
            tbody { @for (name, g) in rows {
                tr { td { (name) } (rate_cell(&g.win_rate)) td.num data-sort=(g.mean_score.unwrap_or(f64::NEG_INFINITY)) { (number(g.mean_score, 1)) } }
            } }
        } }
    }
}

fn weapons(w: &analytics::WeaponStats) -> Markup {
    html! {
        p { (count(w.player_games)) " player-games. Peaceful: never armed; light: strongest weapon up to 7; heavy: 8 or more." }
        h2 { "By strategy" }
        (group_rows(w.by_class.iter().map(|c| (c.class.id().to_owned(), &c.stats)).collect()))
        h2 { "By strongest weapon" }
        (group_rows(w.by_max_strength.iter().map(|s| (s.max_strength.map_or("unarmed".to_owned(), |n| n.to_string()), &s.stats)).collect()))
        h2 { "By expeditions" }
        (group_rows(w.by_expeditions.iter().map(|e| (e.bucket.id().to_owned(), &e.stats)).collect()))
        h2 #by-first-armed { "By the round of the first weapon" }
        p { "When the player first held a weapon (forged it). The questions page asks the same with the players' skill held fixed." }
        (group_rows(w.by_first_armed.iter().map(|a| (a.round.map_or("never armed".to_owned(), |r| format!("round {r}")), &a.stats)).collect()))
        h2 #by-first-expedition { "By the round of the first expedition" }
        (group_rows(w.by_first_expedition.iter().map(|a| (a.round.map_or("no expedition".to_owned(), |r| format!("round {r}")), &a.stats)).collect()))
        h2 { "Loot: winners and others" }
        div.scroll { table.sortable {
            thead { tr { th data-type="text" { "Loot" } th data-type="num" { "Winners who took it" } th data-type="num" { "Others who took it" } th data-type="num" { "Difference (percentage points, 95% interval)" } } }
            tbody { @for l in &w.loot {
                tr { td { (l.item.id().replace('_', " ")) } (rate_cell(&l.winners)) (rate_cell(&l.others)) td.num data-sort=(l.difference) {
                    (tenths(l.difference * 100.0, true))
                    @if l.winners.below_min_sample || l.others.below_min_sample { span.n { " · " (TOO_FEW) } }
                    @else if let Some((lo, hi)) = l.difference_ci { span.n { " (" (tenths(lo * 100.0, true)) " to " (tenths(hi * 100.0, true)) ")" } }
                } }
            } }
        } }
    }
}

fn seats(s: &analytics::SeatStats) -> Markup {
    html! {
        h2 { "Win rate by seat" }
        div.scroll { table {
            thead { tr { th { "Players" } th { "Seat" } th { "Win rate" } th { "Expected (1 / players)" } } }
            tbody { @for r in &s.by_seat {
                tr { td.num { (r.player_count) } td.num { (u16::from(r.seat) + 1) } (rate_cell(&r.win_rate)) td.num { (percent(Some(r.expected))) } }
            } }
        } }
        h2 { "First player's advantage" }
        div.scroll { table {
            thead { tr { th { "Players" } th { "First player's win rate" } th { "Expected" } th { "Advantage (percentage points)" } } }
            tbody { @for r in s.first_player.iter().chain(s.first_player_overall.iter()) {
                tr { td { (r.player_count.map_or("all".to_owned(), |n| n.to_string())) } (rate_cell(&r.win_rate)) td.num { (percent(Some(r.expected))) } td.num { (tenths(r.advantage * 100.0, true)) } }
            } }
        } }
    }
}

pub(super) fn scores(s: &analytics::ScoreStats) -> Markup {
    let most = s.histogram.iter().map(|b| b.count).max().unwrap_or(0).max(1);
    let width = 24 * s.histogram.len().max(1);
    html! {
        p { (count(s.player_games)) " player-games. Mean " (number(s.mean, 1)) ", lowest " (s.min.map_or("—".to_owned(), |x| x.to_string())) ", highest " (s.max.map_or("—".to_owned(), |x| x.to_string())) "."
            @if let Some(q) = &s.quantiles { " Quantiles: 10% " (q.p10) ", 25% " (q.p25) ", median " (q.p50) ", 75% " (q.p75) ", 90% " (q.p90) "." } }
        // At most twice its drawn size, so that the labels stay small.
        svg.histogram viewBox={ "0 0 " (width) " 120" } width=(width * 2) role="img" aria-label="histogram of final scores" {
            @for (i, b) in s.histogram.iter().enumerate() {
                @let h = 100.0 * b.count as f64 / most as f64;
                rect x=(i * 24 + 2) y=(format!("{:.1}", 100.0 - h)) width="20" height=(format!("{h:.1}")) { title { (b.from) "–" (b.from + i64::from(s.bucket_width) - 1) ": " (b.count) } }
                text x=(i * 24 + 12) y="114" text-anchor="middle" { (b.from) }
            }
        }
        div.scroll { table {
            thead { tr { th { "Score from" } th { "Player-games" } } }
            tbody { @for b in &s.histogram { tr { td.num { (b.from) } td.num { (b.count) } } } }
        } }
    }
}

fn spaces(s: &analytics::SpaceUseStats) -> Markup {
    html! {
        p { (s.placements) " placements." }
        @for r in &s.rounds {
            details { summary { "Round " (r.round) " · " (r.placements) " placements" }
                div.scroll { table.sortable {
                    thead { tr { th data-type="text" { "Space" } th data-type="num" { "Uses" } th data-type="num" { "Share" } } }
                    tbody { @for c in &r.spaces { tr { td { (c.space.id().replace('_', " ")) } td.num data-sort=(c.count) { (c.count) } td.num data-sort=(c.share) { (percent(Some(c.share))) } } } }
                } }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The page's "until" day is included (the filter bound is the next day's start); a full
    /// RFC 3339 time is taken as it is.
    #[test]
    fn the_until_day_picked_on_a_page_is_included() {
        let q = |until: &str| BTreeMap::from([("until".to_owned(), until.to_owned())]);
        assert_eq!(filter_of(&q("2026-03-10")).unwrap().played_until.as_deref(), Some("2026-03-11"));
        assert_eq!(
            filter_of(&q("2026-03-10T12:00:00Z")).unwrap().played_until.as_deref(),
            Some("2026-03-10T12:00:00Z")
        );
    }

    /// A rate without a sample shows a dash and an empty scale; below the minimum sample, its
    /// rate without an interval; from the minimum on, its Wilson interval (0 of 1: 0–79.3%).
    #[test]
    fn a_rate_below_the_minimum_sample_draws_no_interval() {
        let none = rate_cell(&Rate::new(0, 0, 30)).into_string();
        assert!(none.contains("aria-hidden=\"true\"></svg>") && !none.contains("bar"), "{none}");
        assert!(none.contains("no player-games") && none.contains("—"), "{none}");
        let one = rate_cell(&Rate::new(0, 1, 30)).into_string();
        assert!(one.contains("aria-hidden=\"true\"></svg>") && !one.contains("bar"), "{one}");
        assert!(one.contains("0 of 1; too few for an interval") && one.contains("n=1 · too few"), "{one}");
        let shown = rate_cell(&Rate::new(0, 1, 1)).into_string();
        assert!(shown.contains("class=\"ci\"") && shown.contains("x=\"0.0\" y=\"0\" width=\"79.3\""), "{shown}");
        assert!(shown.contains("0 of 1; 95% interval 0.0%–79.3%"), "{shown}");
    }
}
