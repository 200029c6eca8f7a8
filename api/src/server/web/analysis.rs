//! The analysis on a game's page (docs/analysis.md): a button that asks for it, its progress
//! while the server's worker runs it, then each player's summary and every decision with the
//! move played, the best move found, what it cost and its mark, in words.

use actix_web::{web, HttpRequest, HttpResponse};
use chronicle_game::analysis::{Analysis, MoveAnalysis, Worth};
use chronicle_service::analyses::GameAnalysis;
use chronicle_store::{AnalysisState, GameHead};
use maud::{html, Markup};

use super::{refused, service_problem};
use crate::server::http::AppState;

/// The analysis section of a game's page (nothing for a game its engine does not analyse or
/// an invalid log).
pub async fn section(state: &AppState, head: &GameHead) -> Markup {
    let analysed = head.record.game.is_some_and(|k| k.spec().capabilities.analysis);
    if !analysed || head.record.status == chronicle_game::Status::Invalid {
        return html! {};
    }
    let found = state.service.analysis(head.id, None).await;
    html! {
        section.analysis #analysis {
            h2 { "Analysis" }
            @match &found {
                Ok(None) => {
                    p { "The strong bot can judge every placement of this game: what the move played and the best move it finds are worth in final points and chances to win, what each move cost, and each player's accuracy. It runs on the server and takes a few minutes." }
                    form method="post" action={ "/games/" (head.id) "/analysis" } {
                        button type="submit" { "Analyse this game" }
                    }
                }
                Ok(Some(a)) => (status(a)),
                Err(e) => p.note { "The analysis is not shown: " (e.public_message()) },
            }
        }
    }
}

fn status(a: &GameAnalysis) -> Markup {
    match (a.state, &a.result) {
        (AnalysisState::Done, Some(result)) => done(a, result),
        (AnalysisState::Failed, _) => html! { p.note { "The analysis could not be finished." } },
        (AnalysisState::Queued, _) => html! {
            p data-refresh="5" { "The analysis is waiting for the server's worker; this page looks again every few seconds." }
        },
        _ => html! {
            p data-refresh="5" {
                "Analysing: " (a.done) " of " (a.total) " decisions judged. "
                progress value=(a.done) max=(a.total.max(1)) {}
            }
        },
    }
}

fn estimate(w: &Worth) -> String {
    format!("{:.1} ± {:.1} points, {:.0}% to win", w.points, w.spread, 100.0 * w.win_chance)
}

fn done(a: &GameAnalysis, r: &Analysis) -> Markup {
    let name = |p: usize| r.players.get(p).map_or_else(|| format!("Seat {}", p + 1), |s| s.name.clone());
    let marked: Vec<&MoveAnalysis> = r.moves.iter().filter(|m| m.mark.is_some()).collect();
    html! {
        p.note {
            "Judged by the strong bot at " (a.budget) " playouts a decision (engine " (a.engine_version) "). "
            "Points are the mover's final points as the bot estimates them, ± a 95% interval; the best move is the best the bot found, not a proof. "
            "A move is marked when it lost 3 points or more (an inaccuracy), 6 (a mistake) or 12 (a blunder), and more than its interval."
        }
        table.summary {
            thead { tr { th { "Seat" } th { "Player" } th { "Decisions" } th { "Accuracy" } th { "Points lost a decision" } th { "Inaccuracies" } th { "Mistakes" } th { "Blunders" } } }
            tbody {
                @for s in &r.players {
                    tr {
                        td { (s.player + 1) } td { (s.name) } td { (s.moves) } td { (format!("{:.0}%", s.accuracy)) }
                        td { (format!("{:.1}", s.lost_per_move)) } td { (s.inaccuracies) } td { (s.mistakes) } td { (s.blunders) }
                    }
                }
            }
        }
        @if marked.is_empty() {
            p { "No move is marked: every placement was within 3 points of the best found, or within its interval." }
        } @else {
            h3 { "Costly moves" }
            (moves_table(&marked, &name))
        }
        details {
            summary { "Every decision (" (r.moves.len()) ")" }
            (moves_table(&r.moves.iter().collect::<Vec<_>>(), &name))
        }
    }
}

fn moves_table(moves: &[&MoveAnalysis], name: &dyn Fn(usize) -> String) -> Markup {
    html! {
        table.moves {
            thead { tr { th { "Round" } th { "Entry" } th { "Player" } th { "Move played" } th { "Judgement" } th { "Best move found" } } }
            tbody {
                @for m in moves {
                    tr class=[m.mark.map(|k| k.words())] {
                        td { (m.round) }
                        td { a href={ "?at=" (m.entry) "#board" } { (m.entry + 1) } }
                        td { (name(m.player)) }
                        td { (m.played.words) br; small { (estimate(&m.played)) } }
                        td {
                            @if m.played_best { "The best move found" }
                            @else {
                                @if let Some(mark) = m.mark { strong { (capitalised(mark.words())) } ": " }
                                (format!("lost {:.1} ± {:.1} points", m.lost, m.lost_spread))
                            }
                        }
                        td { @if !m.played_best { (m.best.words) br; small { (estimate(&m.best)) } } }
                    }
                }
            }
        }
    }
}

fn capitalised(word: &str) -> String {
    let mut c = word.chars();
    c.next().map_or_else(String::new, |f| f.to_uppercase().chain(c).collect())
}

/// `POST /games/{id}/analysis`: asks for the game's analysis at the server's budget (as anyone
/// may), then shows the game's page at its analysis.
pub async fn request(state: web::Data<AppState>, req: HttpRequest, id: web::Path<String>) -> HttpResponse {
    if let Some(r) = refused(&state, &req) {
        return r;
    }
    let Ok(id) = id.parse::<i64>() else { return super::not_found("such game") };
    match state.service.request_analysis(id, None, false).await {
        Ok(_) => HttpResponse::SeeOther().insert_header(("Location", format!("/games/{id}#analysis"))).finish(),
        Err(e) => service_problem(&e),
    }
}
