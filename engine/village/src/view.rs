//! The state as JSON for clients (`GameEngine::state_view`).
//!
//! Shape (every key always present unless noted):
//!
//! ```text
//! {
//!   "round": 3, "phase": "turn" | "last_turn" | "populate" | "market_day" | "refill" | "death"
//!            | "carla" | "fate" | "mass" | "final_mass" | "over",
//!   "waiting_for": "the turn of player 1" | null,
//!   "to_move": 1 | null,                  // when one player is to act
//!   "first_player": 0,
//!   "next_first_player_token": null | 2,  // who took it this round (null: on the council chamber)
//!   "board": { "harvest": {"orange": 1, ...}, ... },   // cubes on each action space
//!   "green_bag": {"green": 3, ...}, "supply": {...}, "monks_in_bag": 4,
//!   "market": { "stalls": ["c04", null, ...], "queue": [...], "pile": 14,
//!               "day": null | { "trigger": 0 | "carla", "next": 1 | "carla" | null, "passed": [false, ...] } },
//!   "chronicle_free": { "farm": 1, ... } | null,        // null without chronicle data
//!   "graves_free": 3 | null,
//!   "end_triggered": false, "last_turns_owed": [2, 0],
//!   "players": [ {
//!       "name": "Alice", "color": "blue", "time": 14, "life_position": 4 | null,
//!       "cubes": {"pink": 3}, "grain": 2, "coins": 0, "token": false,
//!       "goods": {"scroll": 0, "horse": 0, "plough": 1, "ox": 0, "wagon": 0},
//!       "members": [ {"gen": 1, "at": "farm"}, ... ],   // every member, dead and unborn too
//!       "customers": ["c15"], "cities": ["north"],
//!       "provisional_score": { "rows": {"track_travel": 0, ...}, "total": 0 }
//!   } ],
//!   "carla": null | { "color": "red", "members": [...], "board": ["green", ...], "next_box": 3,
//!                     "fate": {"top": ["blank"], "bottom": []}, "served": ["c09"] }
//! }
//! ```
//!
//! The provisional score is the score if the game were scored now (`docs/rules/village.md` E.3); served
//! customers whose data the log lacks count 0 in it.

use serde_json::{json, Map, Value};

use crate::game::{Game, Member, Player};
use crate::ids::{Category, Cubes, Good, Space};
use crate::notation::Who;
use crate::rules::scoring;

fn who(w: Who) -> Value {
    match w {
        Who::Seat(p) => json!(p),
        Who::Carla => json!("carla"),
    }
}

fn members(game: &Game, ms: &[Member]) -> Value {
    ms.iter().map(|m| json!({ "gen": m.gen, "at": m.loc.id(game.components()) })).collect()
}

fn cubes(c: &Cubes) -> Value {
    json!(c.to_map())
}

fn player(game: &Game, p: usize, pl: &Player) -> Value {
    let score = scoring::provisional(game, p);
    let rows: Map<String, Value> = score.rows().iter().map(|(id, pts)| ((*id).to_owned(), json!(pts))).collect();
    let goods: Map<String, Value> = Good::ALL.iter().map(|g| (g.id().to_owned(), json!(pl.good(*g)))).collect();
    let cities: Vec<String> = pl
        .discs
        .iter()
        .filter_map(|&c| game.components().travel.as_ref().and_then(|t| t.cities().get(c)).map(|c| c.id.clone()))
        .collect();
    json!({
        "name": pl.name,
        "color": pl.color,
        "time": pl.time,
        "life_position": game.components().life_track.map(|l| pl.time % u64::from(l)),
        "cubes": cubes(&pl.cubes),
        "grain": pl.grain,
        "coins": pl.coins,
        "token": pl.token,
        "goods": goods,
        "members": members(game, &pl.members),
        "customers": pl.customers,
        "cities": cities,
        "provisional_score": { "rows": rows, "total": score.total },
    })
}

/// The state as JSON (shape in the module documentation).
pub fn state_json(game: &Game) -> Value {
    let board: Map<String, Value> = Space::ALL.iter().map(|s| (s.id().to_owned(), cubes(game.space(*s)))).collect();
    let day = game
        .market_day
        .as_ref()
        .map(|d| json!({ "trigger": who(d.trigger), "next": d.queue.front().copied().map(who), "passed": d.passed }));
    let chronicle_free = game.chronicle_free().ok().map(|f| {
        Category::ALL.iter().map(|c| (c.id().to_owned(), json!(f[c.index()]))).collect::<Map<String, Value>>()
    });
    let carla = game.carla.as_ref().map(|c| {
        let faces = |i: usize| c.fate[i].revealed.clone();
        json!({
            "color": c.color, "members": members(game, &c.members), "board": c.board,
            "next_box": c.next_box, "fate": { "top": faces(0), "bottom": faces(1) }, "served": c.served,
        })
    });
    json!({
        "round": game.round,
        "phase": game.phase_id(),
        "waiting_for": game.tasks.last().map(|t| crate::rules::describe(game, t)),
        "to_move": game.to_move(),
        "first_player": game.first,
        "next_first_player_token": game.next_first,
        "board": board,
        "green_bag": cubes(&game.green_bag),
        "supply": cubes(&game.supply),
        "monks_in_bag": game.monks,
        "market": {
            "stalls": game.market.stalls, "queue": game.market.queue, "pile": game.market.pile.len(), "day": day,
        },
        "chronicle_free": chronicle_free,
        "graves_free": game.graves_free().ok(),
        "end_triggered": game.end.is_some(),
        "last_turns_owed": game.end.as_ref().map(|e| e.owed.iter().copied().collect::<Vec<_>>()).unwrap_or_default(),
        "players": game.players.iter().enumerate().map(|(p, pl)| player(game, p, pl)).collect::<Vec<_>>(),
        "carla": carla,
    })
}
