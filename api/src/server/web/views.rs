//! Drawing a position: the engine's typed view (`chronicle_game::view::BoardView`) laid out as
//! HTML, the same way for every game. The engine chose what to show and named it in the
//! players' words (printed names, coordinates as printed); nothing here knows a game's rules or
//! its state's shape, so a new game is drawn with no line here.

use maud::{html, Markup};

use chronicle_game::view::{Area, Count, Grid, Panel, ScoreNow};
use chronicle_game::{BoardView, GameKind, LedgerChange, TimelineStep};
use chronicle_store::GameHead;

/// A position: where the game stands, the shared areas, then one panel per player.
pub fn board(kind: Option<GameKind>, view: &BoardView) -> Markup {
    let names: Vec<&str> = view.players.iter().map(|p| p.name.as_str()).collect();
    html! {
        div class={ "state " (kind.map_or("game", |k| k.id())) } {
            p.phase { "Round " (view.round) ", " (view.phase)
                @if let Some(p) = view.to_move { " — to move: " strong.to-move { (names.get(p).copied().unwrap_or("?")) } }
                @if let Some(w) = &view.waiting_for { " — waiting for " (w) }
            }
            @for note in &view.notes { p.hint { (note) } }
            @for area in &view.areas { (area_of(area)) }
            div.players {
                @for p in &view.players { (panel(kind, p)) }
                @for p in &view.others { (panel(kind, p)) }
            }
        }
    }
}

/// A shared area: its table, then its lines.
fn area_of(area: &Area) -> Markup {
    html! {
        details.spaces open data-area=(area.id) {
            summary { (area.title) }
            @if let Some(t) = &area.table {
                div.scroll { table.spaces {
                    thead { tr { @for h in &t.headers { th { (h) } } } }
                    tbody { @for row in &t.rows { tr data-row=(row.id) { @for c in &row.cells { td { (c) } } } } }
                } }
            }
            @for line in &area.lines { p.supply { (line.label) ": " (line.text) } }
        }
    }
}

/// A player's (or a non-player board's) panel.
fn panel(kind: Option<GameKind>, p: &Panel) -> Markup {
    html! {
        section.player data-seat=[p.seat] {
            h3 { (p.name)
                @if let Some(seat) = p.seat { " " span.hint { "· seat " (seat + 1) } }
                @if let Some(aside) = &p.aside { " " span.hint { "(" (aside) ")" } }
            }
            @if let Some(g) = &p.grid { (grid(&p.name, g)) }
            @let shown: Vec<_> = p.counts.iter().filter(|c| c.value != 0).collect();
            @if !shown.is_empty() {
                p.supply { @for c in shown { span.good data-good=(c.id) { (c.text()) } " " } }
            }
            @if !p.lines.is_empty() {
                table.holdings { tbody { @for l in &p.lines { tr { th scope="row" { (l.label) } td { (l.text) } } } } }
            }
            @if let Some(s) = &p.score { (score_now(kind, s)) }
        }
    }
}

/// A board of cells with its coordinates printed along the top and down the side.
fn grid(owner: &str, g: &Grid) -> Markup {
    html! {
        div.grid role="img" aria-label={ (g.title) " of " (owner) } {
            p.grid-title { (g.title) }
            // Columns by class, not inline style: the pages' content security policy allows no
            // inline style; the stylesheet has a rule for grids up to 12 columns wide.
            div class={ "home-board cols-" (g.columns.len().min(12)) } {
                span.coord {}
                @for c in &g.columns { span.coord { (c) } }
                @for row in &g.rows {
                    span.coord { (row.label) }
                    @for cell in &row.cells {
                        div class={ "cell " (cell.kind) @if cell.outside { " ring" } } data-at=(cell.at) title=(cell.at) {
                            @for m in &cell.marks { span { (m) } }
                        }
                    }
                }
            }
        }
    }
}

/// The score if the game ended now, by the game's score-pad rows.
fn score_now(kind: Option<GameKind>, s: &ScoreNow) -> Markup {
    let label = |id: &str| {
        kind.and_then(|k| k.spec().score_rows.iter().find(|r| r.id == id))
            .map_or_else(|| id.replace('_', " "), |r| r.label.to_owned())
    };
    html! {
        table.provisional-rows title="the score pad applied to what the player has now; final only when the game is over" {
            tbody {
                @for (id, points) in &s.rows { tr data-row=(id) { th scope="row" { (label(id)) } td.num { (points) } } }
                tr.total { th scope="row" { "Score if the game ended now" } td.num.provisional-total { (s.total) } }
            }
        }
    }
}

/// An amount of a ledger item of a player in the words the position's view counts it in
/// (`"3 green cubes"`, `"1 coin"`); an item the view does not count is said by its id.
pub fn amount(view: Option<&BoardView>, player: usize, item: &str, n: i64) -> String {
    let counted = view.and_then(|v| v.players.get(player)).and_then(|p| p.counts.iter().find(|c| c.id == item));
    match counted {
        Some(c) => Count::new(item, c.label.clone(), n).text(),
        None => format!("{n} {}", item.replace('_', " ")),
    }
}

/// A change in words with its sign (`"+1 green cube"`, `"-2 coins"`).
pub fn change_text(view: Option<&BoardView>, c: &LedgerChange) -> String {
    let text = amount(view, c.player, &c.item, c.delta);
    if c.delta > 0 {
        format!("+{text}")
    } else {
        text
    }
}

/// Changes grouped by player, in the players' names: `[(name, ["+3 wood", …])]`.
fn grouped<'a>(changes: &[LedgerChange], names: &[&'a str], view: Option<&BoardView>) -> Vec<(&'a str, Vec<String>)> {
    let mut by_player: Vec<(usize, Vec<String>)> = Vec::new();
    for c in changes {
        let text = change_text(view, c);
        match by_player.iter_mut().find(|(p, _)| *p == c.player) {
            Some((_, list)) => list.push(text),
            None => by_player.push((c.player, vec![text])),
        }
    }
    by_player.into_iter().map(|(p, list)| (names.get(p).copied().unwrap_or("?"), list)).collect()
}

/// What one entry changed, player by player, as the engine's timeline says (the same numbers
/// as the ledger table's rows): the game's automatic steps it set off first (a harvest, the
/// end of a round), then its own effects — every game alike, in the players' names.
pub fn changes(head: &GameHead, step: Option<&TimelineStep>) -> Markup {
    let names: Vec<&str> = head.record.players.iter().map(|p| p.name.as_str()).collect();
    let view = step.map(|s| &s.view);
    let own = grouped(step.map_or(&[][..], |s| s.own.as_slice()), &names, view);
    let automatic = grouped(step.map_or(&[][..], |s| s.automatic.as_slice()), &names, view);
    html! {
        div.ledger {
            @if !automatic.is_empty() {
                p.automatic { "First the game's own steps at the end of the round: "
                    @for (i, (name, list)) in automatic.iter().enumerate() { @if i > 0 { "; " } strong { (name) } ": " (list.join(", ")) } }
            }
            @if own.is_empty() { p { "Nothing any player counts changed." } }
            @else { ul { @for (name, list) in &own { li { strong { (name) } ": " (list.join(", ")) } } } }
            @if let Some(p) = step.and_then(|s| s.line.player) { p.hint { "Entry by " (names.get(p).copied().unwrap_or("?")) " (seat " (p + 1) ")." } }
        }
    }
}

/// What the ledger table counts, for people.
pub fn ledger_hint() -> Markup {
    html! { p.hint { "What each entry changed, player by player, as the game's engine counts it; "
    em { "points" } ": the score the pad would show if the game were scored after the entry." } }
}

#[cfg(test)]
mod tests {
    use chronicle_game::view::{Cell, Count, GridRow, Line};

    use super::*;

    /// A view is drawn from its typed parts alone: names, the seat counted from 1, coordinates
    /// printed on the grid, non-zero counts, and the score rows by the spec's labels.
    #[test]
    fn a_view_is_drawn_in_the_words_the_engine_gave() {
        let view = BoardView {
            round: 3,
            phase: "harvest: feeding".into(),
            to_move: Some(1),
            players: vec![
                Panel { seat: Some(0), name: "Ada".into(), ..Panel::default() },
                Panel {
                    seat: Some(1),
                    name: "Bo".into(),
                    counts: vec![Count::new("wood", "wood", 3), Count::new("ore", "ore", 0)],
                    lines: vec![Line::new("Dwarfs", "unarmed")],
                    grid: Some(Grid {
                        title: "Home board".into(),
                        columns: vec!["A".into()],
                        rows: vec![GridRow {
                            label: "1".into(),
                            cells: vec![Cell { at: "A1".into(), kind: "forest".into(), outside: false, marks: vec![] }],
                        }],
                    }),
                    score: Some(ScoreNow { rows: vec![("gold".into(), 2)], total: 2 }),
                    ..Panel::default()
                },
            ],
            ..BoardView::default()
        };
        let html = board(Some(GameKind::Caverna), &view).into_string();
        assert!(html.contains("Round 3, harvest: feeding — to move: <strong class=\"to-move\">Bo</strong>"), "{html}");
        assert!(html.contains("· seat 2"), "{html}");
        assert!(html.contains("data-good=\"wood\">3 wood") && !html.contains("data-good=\"ore\""), "{html}");
        assert!(html.contains("data-at=\"A1\""), "{html}");
        assert!(html.contains("provisional-total\">2<"), "{html}");
    }
}
