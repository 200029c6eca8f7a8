//! The state view for clients ([`crate::AboveAndBelow`]'s `state_view`).
//!
//! Shape (every key always present unless marked optional):
//!
//! ```text
//! {
//!   "round": 1..7, "phase": "actions" | "round_end" | "game_end",
//!   "first_player": seat, "to_move": seat | null (the action phase only),
//!   "passed": [bool per seat], "board_cider": bool,
//!   "rows": { "houses": [id|null ×4], "outposts": [id|null ×4], "keys": [id|null ×4],
//!             "stars": [id|null ×6], "villagers": [id|null ×5] },
//!   "train_costs": [5 numbers],
//!   "decks": { "houses": n, "outposts": n, "villagers": n, "caves": n,   // cards left to draw
//!              "cave_next": id | null },                                  // when known
//!   "specials_aside": [ids],
//!   "players": [ {
//!       "name", "coins", "reputation": position, "potions", "cider",
//!       "reserve": { good: n }, "sale": item | null,
//!       "storage": [ { "good", "n" } ], "income": coins at the next round end,
//!       "villagers": [ { "id", "state": "ready"|"exhausted"|"injured" } ],
//!       "houses": [ { "id", "kind", "tokens": [goods] } ],
//!       "caves": [ { "id", "outpost": { "id", "kind", "tokens" } | null } ],
//!       "beds": n, "declared": { card: vp },
//!       "provisional_score": { "rows": { row id: points }, "total": n },
//!       "trust": { the G.5 counts }
//!   } ]
//! }
//! ```
//!
//! `provisional_score` is the score if the game ended now (F.10); it is final once the phase is
//! `game_end`.

use serde_json::{json, Map, Value};

use crate::game::{Game, Player};
use crate::ids::Good;
use crate::rules::scoring::{score, ScoreBreakdown};

pub fn state_json(game: &Game) -> Value {
    let scores = score(game);
    json!({
        "round": game.round(),
        "phase": game.phase().id(),
        "first_player": game.first,
        "to_move": game.to_move(),
        "passed": game.passed,
        "board_cider": game.board_cider,
        "rows": {
            "houses": game.house_row, "outposts": game.outpost_row, "keys": game.key_row,
            "stars": game.star_row, "villagers": game.villager_row,
        },
        "train_costs": game.setup.board.train_costs,
        "decks": {
            "houses": game.decks.houses.len(), "outposts": game.decks.outposts.len(),
            "villagers": game.decks.villagers.len(), "caves": game.decks.caves.len(),
            "cave_next": game.decks.caves.peek_known(),
        },
        "specials_aside": game.specials,
        "players": game.players().iter().enumerate().map(|(i, p)| player_json(game, i, p, &scores[i])).collect::<Vec<_>>(),
    })
}

fn player_json(game: &Game, seat: usize, p: &Player, s: &ScoreBreakdown) -> Value {
    let mut reserve = Map::new();
    for g in Good::ALL {
        reserve.insert(g.id().into(), json!(p.reserve[g.index()]));
    }
    let mut rows = Map::new();
    for (id, points) in s.rows() {
        rows.insert(id.into(), json!(points));
    }
    let income = u64::from(game.setup.board.income_level(p.storage.len()));
    json!({
        "name": p.name,
        "coins": p.coins,
        "reputation": p.reputation,
        "potions": p.potions,
        "cider": p.cider,
        "reserve": reserve,
        "sale": p.sale.map(|i| i.id()),
        "storage": p.storage.iter().map(|(g, n)| json!({"good": g.id(), "n": n})).collect::<Vec<_>>(),
        "income": income + game.sum(seat, |e| if let crate::notation::Effect::IncomeCoins { n } = e { Some(*n) } else { None }),
        "villagers": p.villagers,
        "houses": p.houses,
        "caves": p.caves,
        "beds": crate::rules::rest::beds(game, seat),
        "declared": p.declared,
        "provisional_score": { "rows": rows, "total": s.total },
        "trust": p.trust,
    })
}
