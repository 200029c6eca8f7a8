//! The position for clients, two ways: the state as JSON (`GameEngine::state_view`,
//! [`state_json`]) and the typed board view in the players' words ([`board_view`], what pages
//! and the replay viewer draw).
//!
//! The JSON's shape (every key always present unless noted):
//!
//! ```text
//! {
//!   "round": 3, "phase": "turn" | "last_turn" | "populate" | "market_day" | "refill" | "death"
//!            | "carla" | "fate" | "mass" | "final_mass" | "over",
//!   "waiting_for": "the turn of Bo (seat 2)" | null,
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

use std::collections::BTreeMap;

use chronicle_game::view::{counts_text, list_text, words, Area, Count, Line, Panel, ScoreNow, Table, TableRow};
use chronicle_game::BoardView;
use serde_json::{json, Map, Value};

use crate::game::{Carla, Game, Loc, Member, Player, Task};
use crate::ids::{Building, Category, Cube, Cubes, Customer, Good, Item, Space};
use crate::notation::{Face, Who};
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

// The board view: the same position in the players' words. Seats appear only as `to_move` and
// `Panel::seat` (for pages); every text names players by name and things by their printed
// names, so that nothing a page shows needs the rules or the log's ids to be read.

/// The position as pages draw it: the headline, the shared areas, one panel per seat and
/// Carla's board in a solo game.
pub fn board_view(game: &Game) -> BoardView {
    let to_move = game.to_move();
    let areas = [Some(spaces_area(game)), Some(bags_area(game)), Some(market_area(game)), chronicle_area(game)];
    BoardView {
        round: u16::try_from(game.round).unwrap_or(u16::MAX),
        phase: phase_words(game),
        to_move,
        // The contract asks what the game waits for only when no player is to move.
        waiting_for: if to_move.is_none() { waiting_for(game) } else { None },
        notes: notes(game),
        areas: areas.into_iter().flatten().collect(),
        players: (0..game.player_count()).map(|p| player_panel(game, p)).collect(),
        others: game.carla.iter().map(|c| carla_panel(game, c)).collect(),
    }
}

/// The phase in words, by the step at the top of the game (matched in full, so that a new kind
/// of step has to be named here); it refines the state JSON's `phase`, which calls the steps
/// between a turn's last entry and the next turn `resolving`.
fn phase_words(game: &Game) -> String {
    let Some(top) = game.tasks.last() else { return "game over".to_owned() };
    match top {
        Task::Populate => "populate",
        Task::Turn { last: false, .. } => "turns",
        Task::Turn { last: true, .. } => "last turns",
        Task::MarketDay => "market day",
        Task::Refill => "market refill",
        Task::Death { .. } => "a death in the family",
        Task::EndTurn { .. } | Task::AfterDeaths { .. } | Task::Next { .. } => "end of a turn",
        Task::CarlaTake { .. } => "Carla takes a cube",
        Task::Fate { .. } => "Carla's fate tiles",
        Task::CarlaReact { .. } => "Carla's reaction",
        Task::Mass { last: false } => "mass",
        Task::Mass { last: true } => "final mass",
    }
    .to_owned()
}

/// A seat or Carla by name (seat numbers are the log's, not the players').
fn name(game: &Game, who: Who) -> String {
    match who {
        Who::Seat(p) => game.players.get(p).map_or_else(|| "?".to_owned(), |pl| pl.name.clone()),
        Who::Carla => "Carla".to_owned(),
    }
}

/// What the game waits for, in words and by name (the state JSON's `waiting_for` adds the seat).
fn waiting_for(game: &Game) -> Option<String> {
    let seat = |p: usize| name(game, Who::Seat(p));
    Some(match game.tasks.last()? {
        Task::Populate => format!("the populate of round {}", game.round),
        Task::Turn { player, last: false } => format!("{}'s turn", seat(*player)),
        Task::Turn { player, last: true } => format!("{}'s last turn", seat(*player)),
        Task::Death { player } => format!("a death in {}'s family", seat(*player)),
        Task::MarketDay => match game.market_day.as_ref().and_then(|d| d.queue.front()) {
            Some(&who) => format!("{}'s sale or pass in the market day", name(game, who)),
            None => "the end of the market day".to_owned(),
        },
        Task::Refill => "the market refill".to_owned(),
        Task::CarlaTake { .. } => "Carla's cube".to_owned(),
        Task::Fate { .. } => "the flip of Carla's fate tile".to_owned(),
        Task::Mass { last: false } => format!("the mass of round {}", game.round),
        Task::Mass { last: true } => "the final mass".to_owned(),
        Task::EndTurn { player, .. } | Task::AfterDeaths { player, .. } => {
            format!("the end of {}'s turn", seat(*player))
        }
        Task::Next { player } => format!("the turn after {}'s", seat(*player)),
        Task::CarlaReact { space } => format!("Carla's reaction to her cube from {}", space_name(*space)),
    })
}

/// The end of the game once triggered, and who still has a last turn.
fn notes(game: &Game) -> Vec<String> {
    let Some(end) = &game.end else { return Vec::new() };
    let mut notes = vec!["The end of the game is triggered: last turns are being played.".to_owned()];
    if !end.owed.is_empty() {
        let owed: Vec<String> = end.owed.iter().map(|&p| name(game, Who::Seat(p))).collect();
        notes.push(format!("Last turns still owed: {}.", owed.join(", ")));
    }
    notes
}

/// An action space's printed name (`docs/rules/village.md` A.3, D).
fn space_name(s: Space) -> &'static str {
    match s {
        Space::Harvest => "Grain harvest",
        Space::Family => "Family",
        Space::Crafts => "Crafts",
        Space::Market => "Market",
        Space::Travel => "Travel",
        Space::Council => "Council chamber",
        Space::Church => "Church",
    }
}

/// A cube's colour as players call it: black cubes are the plague (A.2).
fn cube_word(c: Cube) -> &'static str {
    match c {
        Cube::Black => "plague",
        _ => c.id(),
    }
}

/// Cubes as text, `"2 brown, 1 green"` (`"none"` without any).
fn cubes_text(cubes: &Cubes) -> String {
    let counts: Vec<Count> =
        Cube::ALL.iter().map(|&c| Count::new(c.id(), cube_word(c), cube_count(cubes, c))).collect();
    counts_text(&counts)
}

fn cube_count(cubes: &Cubes, c: Cube) -> i64 {
    i64::from(cubes.get(c))
}

/// The cubes on each action space, in the board's order.
fn spaces_area(game: &Game) -> Area {
    let rows = Space::ALL
        .iter()
        .map(|&s| TableRow { id: s.id().to_owned(), cells: vec![space_name(s).to_owned(), cubes_text(game.space(s))] })
        .collect();
    Area {
        id: "action_spaces".to_owned(),
        title: "Action spaces".to_owned(),
        table: Some(Table { headers: vec!["Space".to_owned(), "Cubes on it".to_owned()], rows }),
        lines: Vec::new(),
    }
}

/// Where the cubes come from: the green bag and the supply; and the monks of the black bag
/// (the members in it are on their owners' panels).
fn bags_area(game: &Game) -> Area {
    Area {
        id: "bags".to_owned(),
        title: "Bags and supply".to_owned(),
        table: None,
        lines: vec![
            Line::new("Green bag", cubes_text(&game.green_bag)),
            Line::new("Monks in the black bag", game.monks.to_string()),
            Line::new("Supply", cubes_text(&game.supply)),
        ],
    }
}

/// A good's or grain's count in words (`"1 horse"`, `"2 oxen"`, `"3 grain"`).
fn item_words(item: Item, n: u32) -> String {
    let noun = match (item, n == 1) {
        (Item::Grain, _) => "grain",
        (Item::Ox, true) => "ox",
        (Item::Ox, false) => "oxen",
        (_, true) => item.id(),
        (Item::Scroll, false) => "scrolls",
        (Item::Horse, false) => "horses",
        (Item::Plough, false) => "ploughs",
        (Item::Wagon, false) => "wagons",
    };
    format!("{n} {noun}")
}

/// A customer tile's cells: its id as the log names it, what it wants and its points, from the
/// component data ("unknown" where the log does not give them).
fn customer_cells(game: &Game, c: Option<Customer>) -> [String; 3] {
    let Some(c) = c else { return ["empty".to_owned(), String::new(), String::new()] };
    match game.components().customers.get(&c) {
        Some(d) => {
            let wants: Vec<String> = d.wants.iter().map(|&(item, n)| item_words(item, n)).collect();
            [c.id(), list_text(&wants), d.points.to_string()]
        }
        None => [c.id(), "unknown".to_owned(), "unknown".to_owned()],
    }
}

/// The market: its stalls (servable) and queue as a table, the pile, and the market day being
/// held, if one is.
fn market_area(game: &Game) -> Area {
    let m = &game.market;
    let place = |kind: &str, label: &str, i: usize, c: Option<Customer>| {
        let [customer, wants, points] = customer_cells(game, c);
        TableRow { id: format!("{kind}-{}", i + 1), cells: vec![format!("{label} {}", i + 1), customer, wants, points] }
    };
    let stalls = m.stalls.iter().enumerate().map(|(i, &c)| place("stall", "Stall", i, c));
    let queue = m.queue.iter().enumerate().map(|(i, &c)| place("queue", "Queue", i, c));
    let headers = ["Place", "Customer", "Wants", "Points"].map(str::to_owned).to_vec();
    let mut lines = vec![Line::new("Customers left in the pile", m.pile.len().to_string())];
    lines.extend(market_day(game));
    Area {
        id: "market".to_owned(),
        title: "Market".to_owned(),
        table: Some(Table { headers, rows: stalls.chain(queue).collect() }),
        lines,
    }
}

/// The market day being held: who called it and who decides next, by name.
fn market_day(game: &Game) -> Option<Line> {
    let day = game.market_day.as_ref()?;
    let called = format!("called by {}", name(game, day.trigger));
    Some(Line::new(
        "Market day",
        match day.queue.front() {
            Some(&next) => format!("{called}; next: {}", name(game, next)),
            None => called,
        },
    ))
}

/// The free chronicle spaces by category and the free graves, when the log's component data
/// has them (a death goes to the first free one; the last one taken ends the game, C.7).
fn chronicle_area(game: &Game) -> Option<Area> {
    let mut lines: Vec<Line> = match game.chronicle_free() {
        Ok(free) => {
            Category::ALL.iter().map(|&c| Line::new(category_name(c), free_text(free[c.index()], "space"))).collect()
        }
        Err(_) => Vec::new(),
    };
    lines.extend(game.graves_free().ok().map(|n| Line::new("Cemetery", free_text(n, "grave"))));
    (!lines.is_empty()).then(|| Area {
        id: "chronicle".to_owned(),
        title: "Village chronicle and cemetery".to_owned(),
        table: None,
        lines,
    })
}

/// `"1 free space"`, `"3 free spaces"`.
fn free_text(n: usize, what: &str) -> String {
    format!("{n} free {what}{}", if n == 1 { "" } else { "s" })
}

/// A chronicle category as printed (A.10).
fn category_name(c: Category) -> &'static str {
    match c {
        Category::Farm => "Farm",
        Category::Crafts => "Crafts",
        Category::Council => "Council chamber",
        Category::Travel => "Travel",
        Category::Church => "Church",
    }
}

/// A craft building's name (A.5).
fn building_name(b: Building) -> &'static str {
    match b {
        Building::Wainwright => "Wainwright",
        Building::Stables => "Stables",
        Building::Office => "Office",
        Building::Blacksmith => "Blacksmith",
        Building::Mill => "Mill",
    }
}

/// A city of the travel map by its id in words (the map's data names cities by id only).
fn city_name(game: &Game, city: usize) -> String {
    game.components()
        .travel
        .as_ref()
        .and_then(|t| t.cities().get(city))
        .map_or_else(|| "?".to_owned(), |c| words(&c.id))
}

/// A name at the start of a label (`"market town"` → `"Market town"`).
fn capitalized(name: &str) -> String {
    let mut chars = name.chars();
    chars.next().map_or_else(String::new, |first| first.to_uppercase().chain(chars).collect())
}

/// Where a member is, as players would say it.
fn place_name(game: &Game, loc: Loc) -> String {
    match loc {
        Loc::Reserve => "Reserve (not yet born)".to_owned(),
        Loc::Farm => "Farm".to_owned(),
        Loc::Bag => "Black bag".to_owned(),
        Loc::Craft(b) => format!("{} (crafts)", building_name(b)),
        Loc::Council(s) => format!("Council chamber, stage {s}"),
        Loc::City(c) => format!("{} (travel)", capitalized(&city_name(game, c))),
        Loc::Church(s) => format!("Church, stage {s}"),
        Loc::Chronicle(c) => format!("Village chronicle, {}", category_name(c).to_lowercase()),
        Loc::Grave => "Cemetery".to_owned(),
        Loc::Removed => "Removed from the game".to_owned(),
        Loc::Beside => "Beside Carla's board".to_owned(),
        Loc::ChurchBuilding => "On the church building".to_owned(),
    }
}

/// Where a place comes in a family's list: the living first (farm, then the board, then
/// Carla's places and the black bag), then the unborn, then the dead.
fn place_rank(loc: Loc) -> u8 {
    match loc {
        Loc::Farm => 0,
        Loc::Craft(_) => 1,
        Loc::Council(_) => 2,
        Loc::City(_) => 3,
        Loc::Church(_) => 4,
        Loc::Beside => 5,
        Loc::ChurchBuilding => 6,
        Loc::Bag => 7,
        Loc::Reserve => 8,
        Loc::Chronicle(_) => 9,
        Loc::Grave => 10,
        Loc::Removed => 11,
    }
}

/// A family by place (`"Council chamber, stage 2: generation 1, 2"`), dead and unborn members
/// included, in the order of [`place_rank`].
fn family_lines(game: &Game, members: &[Member]) -> Vec<Line> {
    let mut at: BTreeMap<(u8, Loc), Vec<u8>> = BTreeMap::new();
    for m in members {
        at.entry((place_rank(m.loc), m.loc)).or_default().push(m.gen);
    }
    at.into_iter()
        .map(|((_, loc), mut gens)| {
            gens.sort_unstable();
            let gens: Vec<String> = gens.iter().map(u8::to_string).collect();
            Line::new(place_name(game, loc), format!("generation {}", gens.join(", ")))
        })
        .collect()
}

/// A good's plural, for counts (`"3 horses"`).
fn good_label(g: Good) -> &'static str {
    match g {
        Good::Scroll => "scrolls",
        Good::Horse => "horses",
        Good::Plough => "ploughs",
        Good::Ox => "oxen",
        Good::Wagon => "wagons",
    }
}

/// What a player holds, by the ledger's ids (so that a page can match the ledger's changes).
fn player_counts(pl: &Player) -> Vec<Count> {
    let mut counts = vec![
        Count::new("coin", "coins", i64::from(pl.coins)),
        Count::new("grain", "grain", i64::from(pl.grain)),
        Count::new("time", "time spent", i64::try_from(pl.time).unwrap_or(i64::MAX)),
    ];
    counts.extend(
        Cube::INFLUENCE
            .iter()
            .map(|&c| Count::new(format!("cube_{c}"), format!("{c} cubes"), cube_count(&pl.cubes, c))),
    );
    counts.extend(Good::ALL.iter().map(|&g| Count::new(g.id(), good_label(g), i64::from(pl.good(g)))));
    counts
}

/// The first-player token and the next-first-player token, when the player has them (C.1
/// step 4; in a solo game the latter may be spent as a coin this round, F.1).
fn token_lines(game: &Game, p: usize) -> Vec<Line> {
    let mut lines = Vec::new();
    if game.first == p {
        lines.push(Line::new("First-player token", "held"));
    }
    if game.next_first == Some(p) {
        let text = match (game.is_solo(), game.players[p].token) {
            (false, _) => "taken this round (first player from the next round)",
            (true, true) => "held: may be spent as 1 coin this round",
            (true, false) => "spent this round",
        };
        lines.push(Line::new("Next-first-player token", text));
    }
    lines
}

/// Customer tiles by the ids the log gives them.
fn customers_text(customers: &[Customer]) -> String {
    list_text(&customers.iter().map(|c| c.id()).collect::<Vec<_>>())
}

/// The score pad applied to the player's position now: the state JSON's `provisional_score`.
fn score_now(game: &Game, p: usize) -> ScoreNow {
    let score = scoring::provisional(game, p);
    ScoreNow { rows: score.rows().iter().map(|(id, pts)| ((*id).to_owned(), *pts)).collect(), total: score.total }
}

/// One player's panel: what they hold, their tokens, family, customers, cities and score.
fn player_panel(game: &Game, p: usize) -> Panel {
    let pl = &game.players[p];
    let mut lines = token_lines(game, p);
    lines.extend(family_lines(game, &pl.members));
    lines.push(Line::new("Customers served", customers_text(&pl.customers)));
    let cities: Vec<String> = pl.discs.iter().map(|&c| city_name(game, c)).collect();
    lines.push(Line::new("Cities visited", list_text(&cities)));
    Panel {
        seat: Some(p),
        name: pl.name.clone(),
        aside: Some(pl.color.id().to_owned()),
        counts: player_counts(pl),
        lines,
        grid: None,
        score: Some(score_now(game, p)),
    }
}

/// Fate tile faces in words.
fn faces_text(faces: &[Face]) -> String {
    let faces: Vec<&str> = faces
        .iter()
        .map(|f| match f {
            Face::Quill => "quill",
            Face::Blank => "blank",
        })
        .collect();
    list_text(&faces)
}

/// Carla, the solo game's opponent (F): her board, the fate she has revealed, her family and
/// her customers. She holds nothing and never scores, so her panel has no counts or score.
fn carla_panel(game: &Game, c: &Carla) -> Panel {
    let cubes: Vec<&str> = c.board.iter().map(|&cube| cube_word(cube)).collect();
    let next = match game.components().carla.as_ref() {
        Some(b) => format!("box {} of {}", c.next_box + 1, b.boxes),
        None => format!("box {}", c.next_box + 1),
    };
    let mut lines = vec![
        Line::new("Cubes on her board", list_text(&cubes)),
        Line::new("Her next cube goes on", next),
        Line::new("Fate tiles revealed, top", faces_text(&c.fate[0].revealed)),
        Line::new("Fate tiles revealed, bottom", faces_text(&c.fate[1].revealed)),
    ];
    lines.extend(family_lines(game, &c.members));
    lines.push(Line::new("Customers served", customers_text(&c.served)));
    Panel { seat: None, name: "Carla".to_owned(), aside: Some(c.color.id().to_owned()), lines, ..Panel::default() }
}

#[cfg(test)]
mod tests {
    use chronicle_game::view::Panel;
    use chronicle_game::{BoardView, GameEngine};
    use serde_json::Value;

    use super::{board_view, state_json};
    use crate::replay::replay_until;
    use crate::{Game, Village};

    fn fixture(name: &str) -> Vec<u8> {
        std::fs::read(format!("{}/tests/fixtures/{name}", env!("CARGO_MANIFEST_DIR"))).expect("fixture")
    }

    fn simulated(seed: u64, players: u8) -> Vec<u8> {
        serde_json::to_vec(&Village::simulate(seed, players).expect("simulated")).expect("json")
    }

    /// The game after the first `n` entries, where entry `n` is decided (as `state_at` has it).
    fn game_at(log: &[u8], n: usize) -> Option<Game> {
        replay_until(log, Some(n)).game
    }

    /// Every text of a view that people read (ids, for pages and tests, left out).
    fn texts(v: &BoardView) -> Vec<&str> {
        let mut t: Vec<&str> = vec![&v.phase];
        t.extend(v.waiting_for.as_deref());
        t.extend(v.notes.iter().map(String::as_str));
        for a in &v.areas {
            t.push(&a.title);
            if let Some(table) = &a.table {
                t.extend(table.headers.iter().chain(table.rows.iter().flat_map(|r| &r.cells)).map(String::as_str));
            }
            t.extend(a.lines.iter().flat_map(|l| [l.label.as_str(), l.text.as_str()]));
        }
        for p in v.players.iter().chain(&v.others) {
            t.push(&p.name);
            t.extend(p.aside.as_deref());
            t.extend(p.counts.iter().map(|c| c.label.as_str()));
            t.extend(p.lines.iter().flat_map(|l| [l.label.as_str(), l.text.as_str()]));
        }
        t
    }

    /// A panel's counts, by the ledger's ids, are what the state JSON says the player holds.
    fn counts_agree(panel: &Panel, state: &Value) {
        for c in &panel.counts {
            let json = match c.id.as_str() {
                "coin" => &state["coins"],
                "grain" | "time" => &state[&c.id],
                id => match id.strip_prefix("cube_") {
                    Some(colour) => &state["cubes"][colour],
                    None => &state["goods"][id],
                },
            };
            assert_eq!(json.as_i64().unwrap_or(0), c.value, "{}: {}", panel.name, c.id);
        }
    }

    /// Checks one position's view against the state JSON of the same position.
    fn view_agrees_with_state(game: &Game, what: &str) {
        let view = board_view(game);
        let state = state_json(game);
        assert_eq!(Some(u64::from(view.round)), state["round"].as_u64(), "{what}");
        assert_eq!(view.to_move.map(|p| p as u64), state["to_move"].as_u64(), "{what}");
        assert_eq!(view.players.len(), game.player_count(), "{what}: one panel per seat");
        let spec: Vec<&str> = chronicle_game::kind::VILLAGE.score_rows.iter().map(|r| r.id).collect();
        for (seat, (panel, json)) in view.players.iter().zip(state["players"].as_array().expect("players")).enumerate()
        {
            assert_eq!(panel.seat, Some(seat), "{what}");
            assert_eq!(Some(panel.name.as_str()), json["name"].as_str(), "{what}: the panel names its player");
            let score = panel.score.as_ref().expect("a score");
            let provisional = &json["provisional_score"];
            assert_eq!(Some(score.total), provisional["total"].as_i64(), "{what}: {}", panel.name);
            let rows: Vec<&str> = score.rows.iter().map(|(id, _)| id.as_str()).collect();
            assert_eq!(rows, spec, "{what}: the spec's score rows, in order");
            for (id, points) in &score.rows {
                assert_eq!(Some(*points), provisional["rows"][id].as_i64(), "{what}: {id}");
            }
            counts_agree(panel, json);
        }
        let others: Vec<&str> = view.others.iter().map(|p| p.name.as_str()).collect();
        assert_eq!(others, if game.is_solo() { vec!["Carla"] } else { vec![] }, "{what}");
        assert!(view.others.iter().all(|p| p.seat.is_none()), "{what}");
        for t in texts(&view) {
            assert!(!t.contains('_') && !t.contains('{'), "{what}: an id or JSON in the text {t:?}");
        }
    }

    /// The view of positions all through simulated games of every size and of the complete
    /// fixtures names every player in a panel of their own, scores each as the state JSON's
    /// provisional score, holds what the state JSON says, and shows no id or JSON to people.
    #[test]
    fn board_view_names_every_player_and_scores_as_the_state_json() {
        let mut logs: Vec<(String, Vec<u8>)> =
            (1..=5).map(|players| (format!("simulated {players}p"), simulated(3, players))).collect();
        for name in ["synthetic-2p-complete.json", "synthetic-solo-complete.json"] {
            logs.push((name.to_owned(), fixture(name)));
        }
        for (name, log) in &logs {
            let applied = Village::verdict(&Village::replay(log)).entries_applied;
            assert!(applied > 0, "{name}");
            for n in (0..=applied).step_by(5).chain([applied]) {
                let game = game_at(log, n).expect("a valid setup");
                view_agrees_with_state(&game, &format!("{name} after {n} entries"));
            }
        }
    }

    /// The replay viewer's timeline shows, after the setup and after each legal entry, the
    /// position where the next entry is decided: the view of `state_at`'s position, one step
    /// per legal entry, stopping at an illegal one; no timeline without a valid setup.
    #[test]
    fn the_timeline_shows_where_each_next_entry_is_decided() {
        let dir = format!("{}/tests/fixtures", env!("CARGO_MANIFEST_DIR"));
        let mut names: Vec<String> = std::fs::read_dir(&dir)
            .expect("fixtures")
            .filter_map(|e| e.ok()?.file_name().into_string().ok())
            .filter(|n| n.ends_with(".json") && !n.ends_with(".expect.json"))
            .collect();
        names.sort();
        for name in &names {
            let log = fixture(name);
            let Some(timeline) = Village::timeline(&log) else {
                assert!(game_at(&log, 0).is_none(), "{name}: a valid setup without a timeline");
                continue;
            };
            let applied = Village::verdict(&Village::replay(&log)).entries_applied;
            assert_eq!(timeline.steps.len(), applied, "{name}: one step per legal entry");
            for n in 0..=applied {
                let at = n.checked_sub(1);
                let game = game_at(&log, n).expect("a valid setup");
                assert_eq!(timeline.view(at), Some(&board_view(&game)), "{name}: after {n} entries");
            }
        }
    }
}
