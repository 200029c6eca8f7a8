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

use chronicle_game::view::{counts_text, list_text, Area, Count, Line, Panel, ScoreNow, Table, TableRow};
use chronicle_game::BoardView;
use serde_json::{json, Map, Value};

use crate::components::{Mark, Node, Path, SYNTHETIC};
use crate::game::{Carla, Game, Loc, Member, Player, Task};
use crate::ids::{Building, Category, Cube, Cubes, Customer, Good, Space};
use crate::names::{
    and_list, building_makes, building_name, category_name, city_at, city_name, cube_word, customer_wants, good_plural,
    item_words, space_name,
};
use crate::notation::{Face, Reward, Who};
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
// names, so that nothing a page shows needs the rules or the log's ids to be read. Table rows
// have ids unique across the view's areas: the recorder finds a place on the board by its row
// id, and an action space's row is the space's id (`crafts`, `market`, …).

/// The position as pages draw it: the headline, the board's parts as the table lays them out
/// (action spaces, life-cycle tracks, chronicle, council chamber, church, crafts, travel map,
/// market, bags), one panel per seat and Carla's board in a solo game.
pub fn board_view(game: &Game) -> BoardView {
    let to_move = game.to_move();
    let areas = vec![
        spaces_area(game),
        time_area(game),
        chronicle_area(game),
        council_area(game),
        church_area(game),
        crafts_area(game),
        travel_area(game),
        market_area(game),
        bags_area(game),
    ];
    BoardView {
        round: u16::try_from(game.round).unwrap_or(u16::MAX),
        phase: phase_words(game),
        to_move,
        // The contract asks what the game waits for only when no player is to move.
        waiting_for: if to_move.is_none() { waiting_for(game) } else { None },
        notes: notes(game),
        areas,
        players: (0..game.player_count()).map(|p| player_panel(game, p)).collect(),
        others: game.carla.iter().map(|c| carla_panel(game, c)).collect(),
    }
}

/// The phase in words, by the step at the top of the game (matched in full, so that a new kind
/// of step has to be named here). Pages write it after the round and before who is to move
/// ("Round 3, market day called by Bo — to move: Ana"), so it names the step, not the player
/// to move; it refines the state JSON's `phase`, which calls the steps between a turn's last
/// entry and the next turn `resolving`.
fn phase_words(game: &Game) -> String {
    let Some(top) = game.tasks.last() else { return "game over".to_owned() };
    match top {
        Task::Populate => "start of the round".to_owned(),
        Task::Turn { last: false, .. } => "turns".to_owned(),
        Task::Turn { last: true, .. } => "last turns (the end of the game is triggered)".to_owned(),
        Task::MarketDay => match &game.market_day {
            Some(day) => format!("market day called by {}", name(game, day.trigger)),
            None => "market day".to_owned(),
        },
        Task::Refill => "market refill".to_owned(),
        Task::Death { player } => format!("a death in {}'s family", name(game, Who::Seat(*player))),
        Task::EndTurn { player, .. } | Task::AfterDeaths { player, .. } | Task::Next { player } => {
            format!("end of {}'s turn", name(game, Who::Seat(*player)))
        }
        Task::CarlaTake { .. } => "Carla takes a cube".to_owned(),
        Task::Fate { .. } => "Carla's fate tile is turned over".to_owned(),
        Task::CarlaReact { .. } => "Carla's reaction".to_owned(),
        Task::Mass { last: false } => "end of the round: mass".to_owned(),
        Task::Mass { last: true } => "final mass".to_owned(),
    }
}

/// A seat or Carla by name (seat numbers are the log's, not the players').
fn name(game: &Game, who: Who) -> String {
    match who {
        Who::Seat(p) => game.players.get(p).map_or_else(|| "?".to_owned(), |pl| pl.name.clone()),
        Who::Carla => "Carla".to_owned(),
    }
}

/// What the game waits for when no player is to move, in words and by name (the state JSON's
/// `waiting_for` adds the seat); pages write it after the phase, so it says what is recorded
/// next rather than repeating the phase.
fn waiting_for(game: &Game) -> Option<String> {
    let seat = |p: usize| name(game, Who::Seat(p));
    Some(match game.tasks.last()? {
        Task::Populate => format!("the cubes drawn onto the action spaces for round {}", game.round),
        Task::Turn { player, last: false } => format!("{}'s turn", seat(*player)),
        Task::Turn { player, last: true } => format!("{}'s last turn", seat(*player)),
        Task::Death { player } => format!("which member of {}'s family dies", seat(*player)),
        Task::MarketDay => match game.market_day.as_ref().and_then(|d| d.queue.front()) {
            Some(&who) => format!("{}'s sale or pass", name(game, who)),
            None => "the end of the market day".to_owned(),
        },
        Task::Refill => "the new customers from the pile".to_owned(),
        Task::CarlaTake { .. } => "the cube Carla takes".to_owned(),
        Task::Fate { .. } => "the face of Carla's fate tile".to_owned(),
        Task::Mass { .. } => "the buys, draws from the black bag and promotions of the mass".to_owned(),
        Task::EndTurn { .. } | Task::AfterDeaths { .. } | Task::Next { .. } => "the next turn".to_owned(),
        Task::CarlaReact { space } => format!("Carla's reaction to her cube from {}", space_name(*space)),
    })
}

/// The component data's origin, when it is not the printed game's (synthetic test data must
/// say so wherever it is shown), then the end of the game once triggered and who still has a
/// last turn.
fn notes(game: &Game) -> Vec<String> {
    let mut notes: Vec<String> = components_note(game).into_iter().collect();
    let Some(end) = &game.end else { return notes };
    notes.push("The end of the game is triggered: last turns are being played.".to_owned());
    if !end.owed.is_empty() {
        let owed: Vec<String> = end.owed.iter().map(|&p| name(game, Who::Seat(p))).collect();
        notes.push(format!("Last turns still owed: {}.", owed.join(", ")));
    }
    notes
}

/// Where the component data shown comes from (A.11): the synthetic table is test data, not the
/// printed game; inline data is the log's own, with the source it declares.
fn components_note(game: &Game) -> Option<String> {
    let c = game.components();
    match (c.name.as_deref(), c.source.as_deref()) {
        (Some(SYNTHETIC), _) => Some(
            "The component data (setup cards, travel map, chronicle, customers, Carla's board) is synthetic test \
             data, not the printed game."
                .to_owned(),
        ),
        (Some(_), _) => None,
        (None, Some(source)) => Some(format!("The component data is the log's own; its source: {source}.")),
        (None, None) => Some("The component data is the log's own; it names no source.".to_owned()),
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

/// The cubes on each action space, in the board's order; each row's id is the space's id.
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

/// Each family's life-cycle track (C.6): time spent, where the life marker stands and how much
/// more time brings the next death (the marker passing the quill).
fn time_area(game: &Game) -> Area {
    let lap = game.components().life_track.map(u64::from);
    let rows = game
        .players
        .iter()
        .map(|pl| {
            let (marker, quill) = match lap {
                Some(l) => {
                    let at = pl.time % l;
                    (format!("space {} of {l}", at + 1), format!("{} time", l - at))
                }
                None => ("unknown (no life-cycle track in the components)".to_owned(), "unknown".to_owned()),
            };
            TableRow {
                id: format!("life-{}", pl.color),
                cells: vec![pl.name.clone(), pl.time.to_string(), marker, quill],
            }
        })
        .collect();
    let headers = ["Family", "Time spent", "Life marker", "Next death after"].map(str::to_owned).to_vec();
    Area {
        id: "time_track".to_owned(),
        title: "Time and the life-cycle track".to_owned(),
        table: Some(Table { headers, rows }),
        lines: Vec::new(),
    }
}

/// Every colour's members at the places `at` picks, by family and generation (`"Ana:
/// generation 1 ×2, generation 2; Carla: generation 3"`), `"—"` when there are none.
fn occupants(game: &Game, at: impl Fn(Loc) -> bool) -> String {
    let mut families: Vec<(String, &[Member])> =
        game.players.iter().map(|pl| (pl.name.clone(), pl.members.as_slice())).collect();
    families.extend(game.carla.iter().map(|c| ("Carla".to_owned(), c.members.as_slice())));
    let parts: Vec<String> = families
        .into_iter()
        .filter_map(|(family, members)| {
            let gens: Vec<u8> = members.iter().filter(|m| at(m.loc)).map(|m| m.gen).collect();
            (!gens.is_empty()).then(|| format!("{family}: {}", generations(gens)))
        })
        .collect();
    if parts.is_empty() {
        "—".to_owned()
    } else {
        parts.join("; ")
    }
}

/// Generations counted (`"generation 1 ×2, generation 2"`).
fn generations(mut gens: Vec<u8>) -> String {
    gens.sort_unstable();
    let mut parts: Vec<String> = Vec::new();
    for chunk in gens.chunk_by(|a, b| a == b) {
        parts.push(match chunk.len() {
            1 => format!("generation {}", chunk[0]),
            n => format!("generation {} ×{n}", chunk[0]),
        });
    }
    parts.join(", ")
}

/// The council chamber's four stages (A.6): what each privilege gives and whose members stand
/// there; and where the next-first-player token is.
fn council_area(game: &Game) -> Area {
    let privilege = ["the next-first-player token", "2 influence cubes", "a good", "1 coin for 3 prestige points"];
    let rows = (1..=4u8)
        .zip(privilege)
        .map(|(stage, gives)| TableRow {
            id: format!("council-stage-{stage}"),
            cells: vec![format!("Stage {stage}"), gives.to_owned(), occupants(game, |l| l == Loc::Council(stage))],
        })
        .collect();
    let token = match game.next_first {
        Some(p) => format!("taken by {} this round", name(game, Who::Seat(p))),
        None => "on the council chamber".to_owned(),
    };
    Area {
        id: "council_track".to_owned(),
        title: "Council chamber".to_owned(),
        table: Some(Table { headers: ["Stage", "Privilege", "Members"].map(str::to_owned).to_vec(), rows }),
        lines: vec![Line::new("Next-first-player token", token)],
    }
}

/// The church track's four stages (A.7) with whose members stand there, and the black bag:
/// the monks and the members waiting for a mass (E.1).
fn church_area(game: &Game) -> Area {
    let rows = (1..=4u8)
        .map(|stage| TableRow {
            id: format!("church-stage-{stage}"),
            cells: vec![format!("Stage {stage}"), occupants(game, |l| l == Loc::Church(stage))],
        })
        .collect();
    let monks = match game.monks {
        1 => "1 monk".to_owned(),
        n => format!("{n} monks"),
    };
    Area {
        id: "church_track".to_owned(),
        title: "Church".to_owned(),
        table: Some(Table { headers: vec!["Stage".to_owned(), "Members".to_owned()], rows }),
        lines: vec![
            Line::new("Black bag", monks),
            Line::new("Members in the black bag", occupants(game, |l| l == Loc::Bag)),
        ],
    }
}

/// The craft buildings (A.5): what each makes and whose members are trained there.
fn crafts_area(game: &Game) -> Area {
    let rows = Building::ALL
        .iter()
        .map(|&b| {
            let staff = if b == Building::Mill {
                "no one works here".to_owned()
            } else {
                occupants(game, |l| l == Loc::Craft(b))
            };
            TableRow {
                id: format!("building-{b}"),
                cells: vec![building_name(b).to_owned(), building_makes(b).to_owned(), staff],
            }
        })
        .collect();
    Area {
        id: "craft_buildings".to_owned(),
        title: "Craft buildings".to_owned(),
        table: Some(Table { headers: ["Building", "Makes", "Members trained"].map(str::to_owned).to_vec(), rows }),
        lines: Vec::new(),
    }
}

/// A city's reward (A.8).
fn reward_words(r: Reward) -> &'static str {
    match r {
        Reward::Prestige => "3 prestige points",
        Reward::Cubes => "2 influence cubes",
        Reward::Coin => "1 coin",
    }
}

/// The travel map as the log's components declare it (A.8, M.6): each city with its reward,
/// the travellers standing there and the families whose disc it holds; the paths with their
/// costs below.
fn travel_area(game: &Game) -> Area {
    let mut area = Area { id: "travel_map".to_owned(), title: "Travel map".to_owned(), ..Area::default() };
    let Some(map) = game.components().travel.as_ref() else {
        area.lines.push(Line::new("Map", "the log's components give no travel map"));
        return area;
    };
    let rows = map
        .cities()
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let discs: Vec<String> =
                game.players.iter().filter(|pl| pl.discs.contains(&i)).map(|pl| pl.name.clone()).collect();
            TableRow {
                id: format!("city-{}", c.id),
                cells: vec![
                    city_name(&c.id),
                    reward_words(c.reward).to_owned(),
                    occupants(game, |l| l == Loc::City(i)),
                    list_text(&discs),
                ],
            }
        })
        .collect();
    let headers = ["City", "Reward", "Travellers", "Discs"].map(str::to_owned).to_vec();
    area.table = Some(Table { headers, rows });
    area.lines = map.paths().iter().map(|p| Line::new(path_name(game, p), path_cost(p))).collect();
    area
}

/// A path by the places it joins (`"Village – North"`).
fn path_name(game: &Game, p: &Path) -> String {
    let node = |n: Node| match n {
        Node::Village => "Village".to_owned(),
        Node::City(c) => city_at(game.components(), c),
    };
    format!("{} – {}", node(p.a), node(p.b))
}

/// A path's cost (D.6): its time, wagons and cubes.
fn path_cost(p: &Path) -> String {
    let wagons = if p.wagons == 1 { "1 wagon".to_owned() } else { format!("{} wagons", p.wagons) };
    let cubes = if p.cubes.is_empty() { String::new() } else { format!(", {}", cubes_text(&p.cubes)) };
    format!("{} time, {wagons}{cubes}", p.time)
}

/// Where the cubes come from: the green bag and the supply.
fn bags_area(game: &Game) -> Area {
    Area {
        id: "bags".to_owned(),
        title: "Green bag and supply".to_owned(),
        table: None,
        lines: vec![Line::new("Green bag", cubes_text(&game.green_bag)), Line::new("Supply", cubes_text(&game.supply))],
    }
}

/// A customer tile's cells: its name as the components give it (its id: the format declares no
/// other), what it wants and its points ("unknown" where the log does not give them).
fn customer_cells(game: &Game, c: Option<Customer>) -> [String; 3] {
    let Some(c) = c else { return ["empty".to_owned(), String::new(), String::new()] };
    match game.components().customers.get(&c) {
        Some(d) => {
            let wants: Vec<String> = d.wants.iter().map(|&(item, n)| item_words(item, n)).collect();
            [c.id(), and_list(&wants), d.points.to_string()]
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

/// The village chronicle by category and the cemetery (A.10): the spaces open with this
/// player count, how many are free (a death goes to the first free one; the last one taken
/// ends the game, C.7) and whose members lie there.
fn chronicle_area(game: &Game) -> Area {
    let n = game.player_count();
    let open = |marks: &[Mark]| marks.iter().filter(|m| m.open(n)).count().to_string();
    let free = game.chronicle_free().ok();
    let marks = game.components().chronicle.as_ref();
    let unknown = || "unknown".to_owned();
    let mut rows: Vec<TableRow> = Category::ALL
        .iter()
        .map(|&c| TableRow {
            id: format!("chronicle-{c}"),
            cells: vec![
                category_name(c).to_owned(),
                marks.map_or_else(unknown, |m| open(&m[c.index()])),
                free.map_or_else(unknown, |f| f[c.index()].to_string()),
                occupants(game, |l| l == Loc::Chronicle(c)),
            ],
        })
        .collect();
    rows.push(TableRow {
        id: "cemetery".to_owned(),
        cells: vec![
            "Cemetery".to_owned(),
            game.components().graves.as_ref().map_or_else(unknown, |g| open(g)),
            game.graves_free().map_or_else(|_| unknown(), |f| f.to_string()),
            occupants(game, |l| l == Loc::Grave),
        ],
    });
    let headers = ["Place", "Open spaces", "Free", "Members there"].map(str::to_owned).to_vec();
    Area {
        id: "chronicle".to_owned(),
        title: "Village chronicle and cemetery".to_owned(),
        table: Some(Table { headers, rows }),
        lines: Vec::new(),
    }
}

/// Where a member is, as players would say it.
fn place_name(game: &Game, loc: Loc) -> String {
    match loc {
        Loc::Reserve => "Reserve (not yet born)".to_owned(),
        Loc::Farm => "Farm".to_owned(),
        Loc::Bag => "Black bag".to_owned(),
        Loc::Craft(b) => format!("{} (crafts)", building_name(b)),
        Loc::Council(s) => format!("Council chamber, stage {s}"),
        Loc::City(c) => format!("{} (travel)", city_at(game.components(), c)),
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

/// A family by place (`"Council chamber, stage 2: generation 1 ×2, generation 2"`), dead and
/// unborn members included, in the order of [`place_rank`].
fn family_lines(game: &Game, members: &[Member]) -> Vec<Line> {
    let mut at: BTreeMap<(u8, Loc), Vec<u8>> = BTreeMap::new();
    for m in members {
        at.entry((place_rank(m.loc), m.loc)).or_default().push(m.gen);
    }
    at.into_iter().map(|((_, loc), gens)| Line::new(place_name(game, loc), generations(gens))).collect()
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
    counts.extend(Good::ALL.iter().map(|&g| Count::new(g.id(), good_plural(g), i64::from(pl.good(g)))));
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

/// Customer tiles by the names the components give them (their ids).
fn customers_text(game: &Game, customers: &[Customer]) -> String {
    let named: Vec<String> = customers
        .iter()
        .map(|&c| match customer_wants(game.components(), c) {
            Some(w) => format!("{c} ({w})"),
            None => c.id(),
        })
        .collect();
    list_text(&named)
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
    lines.push(Line::new("Customers served", customers_text(game, &pl.customers)));
    let cities: Vec<String> = pl.discs.iter().map(|&c| city_at(game.components(), c)).collect();
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
    lines.push(Line::new("Customers served", customers_text(game, &c.served)));
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

    /// Every view of a game's timeline, after the setup and after each legal entry.
    fn views(log: &[u8]) -> Vec<BoardView> {
        let timeline = Village::timeline(log).expect("a timeline");
        std::iter::once(timeline.setup).chain(timeline.steps.into_iter().map(|s| s.view)).collect()
    }

    /// The headline as the game page writes it (`api` `views::board`).
    fn headline(v: &BoardView) -> String {
        let mut line = format!("Round {}, {}", v.round, v.phase);
        if let Some(p) = v.to_move {
            line.push_str(&format!(" — to move: {}", v.players[p].name));
        }
        if let Some(w) = &v.waiting_for {
            line.push_str(&format!(" — waiting for {w}"));
        }
        line
    }

    /// A.3: the action-space table has one row per space whose id is the space's id (the
    /// recorder makes those rows clickable), and no two rows of the view's areas share an id.
    #[test]
    fn a3_action_space_rows_carry_the_space_ids_and_row_ids_are_unique() {
        for players in [1u8, 3, 5] {
            for v in views(&simulated(11, players)) {
                let spaces = v.areas.iter().find(|a| a.id == "action_spaces").and_then(|a| a.table.as_ref());
                let ids: Vec<&str> = spaces.expect("the action spaces").rows.iter().map(|r| r.id.as_str()).collect();
                assert_eq!(ids, ["harvest", "family", "crafts", "market", "travel", "council", "church"]);
                let mut all: Vec<&str> = v
                    .areas
                    .iter()
                    .filter_map(|a| a.table.as_ref())
                    .flat_map(|t| &t.rows)
                    .map(|r| r.id.as_str())
                    .collect();
                let count = all.len();
                all.sort_unstable();
                all.dedup();
                assert_eq!(all.len(), count, "{players} players: row ids are unique across the areas");
                let mut areas: Vec<&str> = v.areas.iter().map(|a| a.id.as_str()).collect();
                areas.dedup();
                assert_eq!(areas.len(), v.areas.len(), "area ids are unique");
                assert!(v.players.iter().chain(&v.others).all(|p| p.grid.is_none()), "Village has no grid");
            }
        }
    }

    /// The headline reads as a sentence: the phase, then who is to move by name or what the game
    /// waits for — never both, never a seat number or an entry's id.
    #[test]
    fn c1_the_headline_names_who_moves_or_what_is_awaited() {
        let mut phases = std::collections::BTreeSet::new();
        for players in [1u8, 2, 4] {
            for v in views(&simulated(4, players)) {
                let line = headline(&v);
                assert!(v.to_move.is_none() || v.waiting_for.is_none(), "{line}");
                for telltale in ["player ", "seat", "waiting for the turn", "`", "_"] {
                    assert!(!line.contains(telltale), "{line}");
                }
                phases.insert(v.phase.clone());
            }
        }
        assert!(phases.contains("turns") && phases.contains("game over"), "{phases:?}");
        assert!(phases.iter().any(|p| p.starts_with("market day called by ")), "{phases:?}");
        let log = simulated(4, 2);
        let start = views(&log).into_iter().next().expect("the setup's view");
        assert_eq!(
            headline(&start),
            "Round 1, start of the round — waiting for the cubes drawn onto the action spaces for round 1"
        );
    }

    /// A.5 – A.10, C.6: the board shows each family's time on the life-cycle track, the
    /// chronicle and cemetery, the council and church tracks, the craft buildings and the
    /// travel map, with each family's members there by name and generation, and the market's
    /// customers by their ids with what they want.
    #[test]
    fn a5_a10_the_board_shows_tracks_buildings_map_and_market_with_each_family() {
        let log = simulated(3, 3);
        let all = views(&log);
        let table = |v: &BoardView, id: &str| -> Vec<Vec<String>> {
            let area = v.areas.iter().find(|a| a.id == id).unwrap_or_else(|| panic!("area {id}"));
            area.table.as_ref().map(|t| t.rows.iter().map(|r| r.cells.clone()).collect()).unwrap_or_default()
        };
        let last = all.last().expect("a view");
        assert_eq!(table(last, "time_track").len(), 3, "one life-cycle row per family");
        assert_eq!(table(last, "council_track").len(), 4);
        assert_eq!(table(last, "church_track").len(), 4);
        assert_eq!(table(last, "craft_buildings").len(), 5);
        assert_eq!(table(last, "chronicle").len(), 6, "five categories and the cemetery");
        assert_eq!(table(last, "travel_map").len(), 7, "the synthetic map's cities");
        let names: Vec<&str> = last.players.iter().map(|p| p.name.as_str()).collect();
        let shows = |area: &str, col: usize| {
            all.iter().any(|v| {
                table(v, area).iter().any(|r| names.iter().any(|n| r[col].contains(&format!("{n}: generation "))))
            })
        };
        assert!(shows("travel_map", 2), "travellers on the map by family and generation");
        assert!(shows("council_track", 2) && shows("church_track", 1) && shows("craft_buildings", 2));
        assert!(shows("chronicle", 3), "the dead in the chronicle");
        let market = table(&all[0], "market");
        assert_eq!(market.len(), 4 + 5, "3 players: 4 stalls and a queue of 5");
        assert!(market.iter().all(|r| r[1].starts_with('c') && r[1].len() == 3), "customers by their ids");
    }

    /// A.11: component data that is not the printed game's says so wherever it is shown: the
    /// synthetic table as synthetic test data, a log's own data with the source it declares.
    #[test]
    fn a11_synthetic_component_data_is_labelled_in_the_view() {
        let v = views(&simulated(1, 2)).pop().expect("a view");
        assert!(v.notes.iter().any(|n| n.contains("synthetic test data, not the printed game")), "{:?}", v.notes);
        let v = views(&fixture("synthetic-2p-complete.json")).pop().expect("a view");
        assert!(v.notes.iter().any(|n| n.starts_with("The component data is the log's own; its source: synthetic")));
    }
}
