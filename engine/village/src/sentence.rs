//! An entry in words, as a player would say it at the table ("Ana takes the brown cube from the
//! Crafts space and makes a plough at the Blacksmith with time, spending 3 time"): players by
//! name, action spaces, buildings, goods and cubes by the rulebook's names
//! (`docs/rules/village.md` A), cities and customers as the log's components name them
//! ([`crate::names`]), family members by generation and place (`docs/log-format-village.md`
//! "Member references"). One sentence per entry kind of the log format's "Entries".
//!
//! The log never writes time costs (the engine adds them, `docs/log-format-village.md`
//! "Actions"), so what an entry cost in time is read from the positions around it: the walk
//! keeps each player's time before an entry ([`describe`]), and the recorder's next entries are
//! tried on a copy of the game ([`describe_entries`]).

use chronicle_game::view::{entry_words, words};
use serde_json::Value;

use crate::game::{Game, Loc};
use crate::ids::{Building, Cube, Good};
use crate::names::{
    a_good, and_list, building_name, capitalized, city_name, cube_colours, cube_things, customer_phrase, place_phrase,
    space_name,
};
use crate::notation::{
    Action, DrawItem, Entry, Face, FateSet, MassBuy, MemberRef, Pay, PopulateSpaces, Privilege, Promotion, Take,
    WellNotation, Who,
};
use crate::replay::Replay;

/// A seat by name; a seat the game does not have is said without its number (a log's number
/// counts from 0, which no player would read as theirs).
fn seat(game: &Game, p: usize) -> String {
    game.players.get(p).map_or_else(|| "a player who is not in this game".to_owned(), |pl| pl.name.clone())
}

/// A seat or Carla by name.
fn who(game: &Game, w: Who) -> String {
    match w {
        Who::Seat(p) => seat(game, p),
        Who::Carla => "Carla".to_owned(),
    }
}

/// Where a member reference points, read as the rules read it; `None` when the reference names
/// no place of this game (the rules refuse such an entry, its words still say it).
fn loc(game: &Game, r: &MemberRef) -> Option<Loc> {
    game.loc_of(r).ok()
}

/// A member's place after "on", "at" or "in" (`"at the Blacksmith"`).
fn at(game: &Game, r: &MemberRef) -> String {
    match loc(game, r) {
        Some(l) => place_phrase(game.components(), l),
        None => format!("at {}", words(r.at.as_deref().unwrap_or("farm"))),
    }
}

/// A member's place after "from" (`"from the farm"`, `"from stage 1 of the Council chamber"`).
fn from(game: &Game, r: &MemberRef) -> String {
    let place = at(game, r);
    let rest = place.split_once(' ').map_or(place.as_str(), |(_, rest)| rest);
    format!("from {rest}")
}

/// A member by generation (`"the generation-2 member"`).
fn member(r: &MemberRef) -> String {
    format!("the generation-{} member", r.gen)
}

/// The time an entry cost its player, as a clause (`", spending 3 time"`); nothing when it cost
/// none or the cost is not known.
fn spending(time: Option<u64>) -> String {
    match time {
        Some(t) if t > 0 => format!(", spending {t} time"),
        _ => String::new(),
    }
}

/// Coins paid instead of cubes (D.9), as a clause (`", with a coin for the green cube"`).
fn coins_for(list: &[Cube]) -> String {
    match list.len() {
        0 => String::new(),
        1 => format!(", with a coin for {}", the_cubes(list)),
        n => format!(", with {n} coins for {}", the_cubes(list)),
    }
}

/// Cubes as things named once before (`"the green cube"`, `"the orange and the pink cube"`).
fn the_cubes(list: &[Cube]) -> String {
    let things = cube_things(list);
    match things.strip_prefix("a ").or_else(|| things.strip_prefix("an ")) {
        Some(rest) => format!("the {}", rest.replace(" and a ", " and the ").replace(" and an ", " and the ")),
        None => things,
    }
}

/// A cube as taken from a space: black ones are the plague (A.2).
fn cube_taken(c: Cube) -> String {
    match c {
        Cube::Black => "black plague".to_owned(),
        _ => c.id().to_owned(),
    }
}

/// `populate` (C.2): the cubes drawn onto each space, in the board's order.
fn populate(round: u64, spaces: &PopulateSpaces) -> String {
    let parts: Vec<String> =
        spaces.lists().iter().map(|(s, cubes)| format!("{}: {}", space_name(*s), cube_colours(cubes))).collect();
    format!("The cubes of round {round} are drawn onto the action spaces — {}.", parts.join("; "))
}

/// How a turn began (C.3): a cube taken, the well, or a free last action.
fn turn_head(game: &Game, p: usize, take: Option<&Take>, well: Option<&WellNotation>, free: bool) -> String {
    let name = seat(game, p);
    match (take, well) {
        (Some(t), _) => {
            format!("{name} takes the {} cube from the {} space", cube_taken(t.cube), space_name(t.space))
        }
        (None, Some(w)) => format!("{name} uses the well ({})", well_paid(w)),
        (None, None) if free => format!("{name} takes a free last turn"),
        (None, None) => format!("{name} plays a turn"),
    }
}

/// The well's price (D.8): 3 cubes of one colour, coins standing in for some (D.9).
fn well_paid(w: &WellNotation) -> String {
    let cubes = format!("3 {} cubes", cube_taken(w.color));
    match w.coins {
        0 => cubes,
        1 => format!("{cubes}, one of them paid with a coin"),
        n => format!("{cubes}, {n} of them paid with coins"),
    }
}

/// `turn` (C.3, D): how it began, the action, and the time it cost.
fn turn(game: &Game, p: usize, parts: (Option<&Take>, Option<&WellNotation>, bool), action: Option<&Action>) -> String {
    let (take, well, free) = parts;
    let head = turn_head(game, p, take, well, free);
    let rest = match action {
        Some(a) => format!(" and {}", action_clause(game, a)),
        None => " and takes no action".to_owned(),
    };
    format!("{head}{rest}")
}

/// An action as a clause (`"makes a plough at the Blacksmith with time"`), D.1 – D.7.
pub(crate) fn action_clause(game: &Game, a: &Action) -> String {
    match a {
        Action::Harvest { .. } => "harvests grain".to_owned(),
        Action::Family { recall: None, .. } => {
            "has a child (the lowest generation of the reserve comes to the farm)".to_owned()
        }
        Action::Family { recall: Some(r), .. } => format!("calls {} {} back to the farm", member(r), from(game, r)),
        Action::Craft { building, good, pay, train, coin_for } => {
            craft(game, *building, *good, *pay, train.as_ref()) + &coins_for(coin_for)
        }
        Action::Market { .. } => "holds a market day".to_owned(),
        Action::Council { enter, advance, pay, privilege, coin_for } => {
            council(game, (enter.as_ref(), advance.as_ref()), (*pay, coin_for), privilege.as_ref())
        }
        Action::Travel { member: r, to, reward, coin_for } => {
            let verb = if loc(game, r) == Some(Loc::Farm) { "sends" } else { "moves" };
            let reward = reward
                .as_ref()
                .map_or_else(String::new, |c| format!(", taking {} as the reward", cube_things(&c.cubes)));
            format!("{verb} {} {} to {}{}{reward}", member(r), from(game, r), city_name(to), coins_for(coin_for))
        }
        Action::Church { member: r, pay, coin_for } => {
            let paid = if *pay == Pay::Brown { "paying a brown cube" } else { "paying with time" };
            format!(
                "puts {} {} into the black bag for the church, {paid}{}",
                member(r),
                from(game, r),
                coins_for(coin_for)
            )
        }
    }
}

/// The crafts action (D.3, A.5): a good made with time (a member trained first, perhaps) or for
/// the building's price, or 2 coins at the mill.
fn craft(game: &Game, b: Building, good: Option<Good>, pay: Option<Pay>, train: Option<&MemberRef>) -> String {
    if b == Building::Mill {
        return "works the Mill for 2 coins, paying 2 grain".to_owned();
    }
    let made = good.map_or_else(|| crate::names::building_makes(b), a_good);
    let name = building_name(b);
    match (pay, train) {
        (Some(Pay::Time), Some(r)) => {
            format!("trains {} {} at the {name} to make {made} there with time", member(r), from(game, r))
        }
        (Some(Pay::Price), _) => format!("makes {made} at the {name}, paying the price ({})", price(b)),
        _ => format!("makes {made} at the {name} with time"),
    }
}

/// A building's price instead of time (A.5 column b).
fn price(b: Building) -> &'static str {
    match b {
        Building::Wainwright | Building::Blacksmith => "an orange and a pink cube",
        Building::Office => "a pink cube",
        Building::Stables => "3 grain",
        Building::Mill => "2 grain",
    }
}

/// The council action (D.5): enter, advance, or a privilege only, with the privilege taken.
fn council(
    game: &Game,
    (enter, advance): (Option<&MemberRef>, Option<&MemberRef>),
    (pay, coin_for): (Option<Pay>, &[Cube]),
    privilege: Option<&Privilege>,
) -> String {
    let paid = match pay {
        Some(Pay::Scroll) => ", paying a scroll".to_owned(),
        Some(Pay::Green) => format!(", paying 2 green cubes{}", coins_for(coin_for)),
        _ => coins_for(coin_for),
    };
    let moved = match (enter, advance) {
        (Some(r), _) => Some(format!("sends {} {} to stage 1 of the Council chamber{paid}", member(r), from(game, r))),
        (None, Some(r)) => Some(match loc(game, r) {
            Some(Loc::Council(s)) => format!(
                "moves {} from stage {s} to stage {} of the Council chamber{paid}",
                member(r),
                s.saturating_add(1)
            ),
            _ => format!("moves {} {} up the Council chamber{paid}", member(r), from(game, r)),
        }),
        (None, None) => None,
    };
    match (moved, privilege) {
        (Some(m), Some(pr)) => format!("{m}, and takes the {}", privilege_words(pr)),
        (Some(m), None) => m,
        (None, Some(pr)) => format!("uses the Council chamber's {}", privilege_words(pr)),
        (None, None) => "uses the Council chamber".to_owned(),
    }
}

/// A privilege (A.6): the stage and what it gives.
fn privilege_words(pr: &Privilege) -> String {
    let what = match pr.stage {
        1 => "the next-first-player token".to_owned(),
        2 => pr.cubes.as_deref().map_or_else(|| "2 influence cubes".to_owned(), cube_things),
        3 => pr.good.map_or("a good", a_good).to_owned(),
        4 => "3 prestige points for 1 coin".to_owned(),
        _ => "nothing".to_owned(),
    };
    format!("stage-{} privilege: {what}", pr.stage)
}

/// `sale` (D.4): a customer served, with coins for the extra green cube.
fn sale(game: &Game, w: Who, customer: crate::ids::Customer, coin_for: &[Cube]) -> String {
    format!("{} serves {}{}", who(game, w), customer_phrase(game.components(), customer), coins_for(coin_for))
}

/// `refill` (D.4 step 4, R.4): the tiles from the pile.
fn refill(game: &Game, tiles: &[crate::ids::Customer]) -> String {
    if tiles.is_empty() {
        return "The market is refilled; no new customer comes from the pile.".to_owned();
    }
    let named: Vec<String> = tiles.iter().map(|&c| customer_phrase(game.components(), c)).collect();
    format!("The market is refilled with {} from the pile.", and_list(&named))
}

/// `mass` (E.1): buys, the draws from the black bag and promotions, each by name.
fn mass(game: &Game, buy: &[MassBuy], draw: Option<&[DrawItem]>, promote: &[Promotion]) -> String {
    let mut parts: Vec<String> = buy.iter().map(|b| bought(game, b)).collect();
    if let Some(items) = draw.filter(|d| !d.is_empty()) {
        let drawn: Vec<String> = items.iter().map(|d| drawn(game, d)).collect();
        parts.push(format!("drawn from the black bag: {}", and_list(&drawn)));
    }
    parts.extend(promote.iter().map(|p| promoted(game, p)));
    if parts.is_empty() {
        "The mass is held, with no buys and no promotions.".to_owned()
    } else {
        format!("The mass is held: {}.", parts.join("; "))
    }
}

/// One player's buys at a mass (1 coin each).
fn bought(game: &Game, b: &MassBuy) -> String {
    let gens: Vec<String> = b.gens.iter().map(u8::to_string).collect();
    let (what, coins) = match gens.len() {
        1 => (format!("their generation-{} member", gens[0]), "1 coin".to_owned()),
        n => (format!("their members of generations {}", and_list(&gens)), format!("{n} coins")),
    };
    format!("{} buys {what} out of the bag for {coins}", seat(game, b.player))
}

/// An item drawn from the black bag.
fn drawn(game: &Game, d: &DrawItem) -> String {
    match d {
        DrawItem::Monk(_) => "a monk".to_owned(),
        DrawItem::Member { player, gen } => format!("{}'s generation-{gen} member", who(game, *player)),
    }
}

/// One player's promotions on the church track (grain per stage, A.7).
fn promoted(game: &Game, p: &Promotion) -> String {
    let moves: Vec<String> = p
        .moves
        .iter()
        .map(|m| format!("the generation-{} member from stage {} to stage {}", m.gen, m.from, m.to))
        .collect();
    format!("{} moves {} of the church track", seat(game, p.player), and_list(&moves))
}

/// `carla` (F.2): her cube, after her die rolls if the die rule is played.
fn carla(rolls: Option<&[Cube]>, space: crate::ids::Space, cube: Cube) -> String {
    let took = format!("takes the {} cube from the {} space", cube_taken(cube), space_name(space));
    match rolls.filter(|r| !r.is_empty()) {
        Some(r) => {
            let rolled: Vec<&str> = r.iter().map(|c| c.id()).collect();
            format!("Carla rolls {} and {took}", rolled.join(", then "))
        }
        None => format!("Carla {took}"),
    }
}

/// `fate` (F.3, R.6): the face of the tile turned over.
fn fate(set: FateSet, result: Face) -> String {
    let set = match set {
        FateSet::Top => "top",
        FateSet::Bottom => "bottom",
    };
    let face = match result {
        Face::Quill => "a quill",
        Face::Blank => "blank",
    };
    format!("One of Carla's {set} fate tiles is turned over: {face}.")
}

/// An entry as one sentence; `time` is what it cost its player in time, when known.
pub fn sentence(game: &Game, entry: &Entry, time: Option<u64>) -> String {
    let text = match entry {
        Entry::Populate { round, spaces } => return populate(*round, spaces),
        Entry::Turn { player, take, well, free, action } => {
            let parts = (take.as_ref(), well.as_ref(), free.unwrap_or(false));
            turn(game, *player, parts, action.as_ref()) + &spending(time)
        }
        Entry::Sale { player, customer, coin_for } => sale(game, *player, *customer, coin_for) + &spending(time),
        Entry::Pass { player } => format!("{} passes in the market day", who(game, *player)),
        Entry::Refill { tiles } => return refill(game, tiles),
        Entry::Death { player, member: r } => {
            format!("{}'s generation-{} member {} dies", seat(game, *player), r.gen, at(game, r))
        }
        Entry::Mass { buy, draw, promote } => return mass(game, buy, draw.as_deref(), promote),
        Entry::Carla { rolls, space, cube } => carla(rolls.as_deref(), *space, *cube),
        Entry::Fate { set, result } => return fate(*set, *result),
    };
    format!("{}.", capitalized(&text))
}

/// The time the entry's player spent between two positions of the game (time is never given
/// back, C.6, so the difference is what the entry cost).
fn time_spent(before: &[u64], after: &Game, entry: &Entry) -> Option<u64> {
    let p = entry.seat()?;
    Some(after.players.get(p)?.time.saturating_sub(*before.get(p)?))
}

/// Each player's time spent, in seat order: what [`describe`] compares an entry's position with.
pub fn times(game: &Game) -> Vec<u64> {
    game.players.iter().map(|p| p.time).collect()
}

/// An entry's text in the log as a sentence, in the position it left (`before`: each player's
/// time before it, empty when unknown); an entry the notation cannot read is said in words.
pub fn describe(game: &Game, text: &str, before: &[u64]) -> String {
    match serde_json::from_str::<Entry>(text) {
        Ok(entry) => sentence(game, &entry, time_spent(before, game, &entry)),
        Err(_) => entry_words(text, &names(game)),
    }
}

fn names(game: &Game) -> Vec<String> {
    game.players.iter().map(|p| p.name.clone()).collect()
}

/// Legal next entries after a replay's last legal entry, each as a sentence with what it will
/// cost its player in time (the entry tried on a copy of the game): what a recorder's buttons
/// say (`GameEngine::describe_next`). An entry the notation cannot read is said in words.
pub fn describe_entries(replay: &Replay, entries: &[Value]) -> Vec<String> {
    let Some(game) = replay.game.as_ref() else {
        return entries.iter().map(|e| entry_words(&e.to_string(), &[])).collect();
    };
    let before = times(game);
    entries
        .iter()
        .map(|e| match serde_json::from_value::<Entry>(e.clone()) {
            Ok(entry) => {
                let mut after = game.clone();
                let time =
                    crate::rules::apply(&mut after, &entry).ok().and_then(|()| time_spent(&before, &after, &entry));
                sentence(game, &entry, time)
            }
            Err(_) => entry_words(&e.to_string(), &names(game)),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use chronicle_game::GameEngine;
    use serde_json::json;

    use super::*;
    use crate::Village;

    /// A 3-player game on the synthetic table (its customers and cities as the components
    /// declare them), where entries are said.
    fn game() -> Game {
        let log = json!({
            "format": "village-log/1",
            "setup": {
                "players": [{ "name": "Ana", "color": "blue" }, { "name": "Bo", "color": "red" },
                            { "name": "Cy", "color": "white", "start_cube": "pink" }],
                "customers": { "stalls": ["c04", "c09", "c15", "c21"], "queue": ["c01", "c12", "c18", "c20", "c23"] },
                "components": "chronicle-synthetic/1"
            },
            "entries": []
        });
        crate::replay_until(&serde_json::to_vec(&log).expect("json"), Some(0)).game.expect("a valid setup")
    }

    /// What would give an entry's JSON or a 0-based seat away in a sentence.
    fn no_telltales(s: &str) {
        for t in ['{', '}', '_', '"'] {
            assert!(!s.contains(t), "{s:?} holds {t:?}");
        }
        for t in ["player 0", "Player 0", "seat 0", "player\""] {
            assert!(!s.contains(t), "{s:?} holds {t:?}");
        }
    }

    /// LOG-FORMAT "Entries": each kind, and each action of a `turn` (D.1 – D.8), as one
    /// sentence by player name, with spaces, buildings, goods, cubes, cities, customers and
    /// members named as the rulebook and the components name them.
    #[test]
    fn d1_d8_entries_of_every_kind_are_one_sentence_each_in_the_players_words() {
        let g = game();
        let cases: Vec<(Value, &str)> = vec![
            (
                json!({ "type": "populate", "round": 1, "spaces": {
                    "harvest": ["orange", "black", "green"], "family": ["pink", "brown"],
                    "crafts": ["orange", "pink", "orange", "black"], "market": ["green"],
                    "travel": ["brown", "pink"], "council": ["green", "green", "brown"], "church": [] } }),
                "The cubes of round 1 are drawn onto the action spaces — Grain harvest: orange, green and black; \
                 Family: brown and pink; Crafts: 2 orange, pink and black; Market: green; Travel: brown and pink; \
                 Council chamber: 2 green and brown; Church: no cube.",
            ),
            (
                json!({ "type": "turn", "player": 0, "take": { "space": "crafts", "cube": "brown" },
                        "action": { "do": "craft", "building": "blacksmith", "pay": "time", "train": { "gen": 1 } } }),
                "Ana takes the brown cube from the Crafts space and trains the generation-1 member from the farm \
                 at the Blacksmith to make a plough there with time.",
            ),
            (
                json!({ "type": "turn", "player": 1, "take": { "space": "crafts", "cube": "pink" },
                        "action": { "do": "craft", "building": "stables", "good": "ox", "pay": "price" } }),
                "Bo takes the pink cube from the Crafts space and makes an ox at the Stables, paying the price (3 grain).",
            ),
            (
                json!({ "type": "turn", "player": 1, "take": { "space": "crafts", "cube": "orange" },
                        "action": { "do": "craft", "building": "wainwright", "pay": "price", "coin_for": ["pink"] } }),
                "Bo takes the orange cube from the Crafts space and makes a wagon at the Wainwright, paying the price \
                 (an orange and a pink cube), with a coin for the pink cube.",
            ),
            (
                json!({ "type": "turn", "player": 2, "take": { "space": "crafts", "cube": "black" },
                        "action": { "do": "craft", "building": "mill" } }),
                "Cy takes the black plague cube from the Crafts space and works the Mill for 2 coins, paying 2 grain.",
            ),
            (
                json!({ "type": "turn", "player": 0, "take": { "space": "harvest", "cube": "green" }, "action": { "do": "harvest" } }),
                "Ana takes the green cube from the Grain harvest space and harvests grain.",
            ),
            (
                json!({ "type": "turn", "player": 0, "take": { "space": "family", "cube": "pink" }, "action": { "do": "family" } }),
                "Ana takes the pink cube from the Family space and has a child (the lowest generation of the reserve \
                 comes to the farm).",
            ),
            (
                json!({ "type": "turn", "player": 0, "take": { "space": "family", "cube": "pink" },
                        "action": { "do": "family", "recall": { "gen": 2, "at": "city:market_town" } } }),
                "Ana takes the pink cube from the Family space and calls the generation-2 member from Market town \
                 back to the farm.",
            ),
            (
                json!({ "type": "turn", "player": 1, "take": { "space": "market", "cube": "green" }, "action": { "do": "market" } }),
                "Bo takes the green cube from the Market space and holds a market day.",
            ),
            (
                json!({ "type": "turn", "player": 1, "take": { "space": "council", "cube": "green" },
                        "action": { "do": "council", "enter": { "gen": 1 }, "pay": "green", "privilege": { "stage": 1 } } }),
                "Bo takes the green cube from the Council chamber space and sends the generation-1 member from the \
                 farm to stage 1 of the Council chamber, paying 2 green cubes, and takes the stage-1 privilege: the \
                 next-first-player token.",
            ),
            (
                json!({ "type": "turn", "player": 1, "take": { "space": "council", "cube": "brown" },
                        "action": { "do": "council", "advance": { "gen": 2, "at": "council:1" }, "pay": "scroll",
                                    "privilege": { "stage": 2, "cubes": ["orange", "pink"] } } }),
                "Bo takes the brown cube from the Council chamber space and moves the generation-2 member from stage 1 \
                 to stage 2 of the Council chamber, paying a scroll, and takes the stage-2 privilege: an orange and a \
                 pink cube.",
            ),
            (
                json!({ "type": "turn", "player": 1, "take": { "space": "council", "cube": "brown" },
                        "action": { "do": "council", "privilege": { "stage": 3, "good": "horse" } } }),
                "Bo takes the brown cube from the Council chamber space and uses the Council chamber's stage-3 \
                 privilege: a horse.",
            ),
            (
                json!({ "type": "turn", "player": 2, "well": { "color": "green", "coins": 1 },
                        "action": { "do": "travel", "member": { "gen": 2, "at": "city:north" }, "to": "east" } }),
                "Cy uses the well (3 green cubes, one of them paid with a coin) and moves the generation-2 member \
                 from North to East.",
            ),
            (
                json!({ "type": "turn", "player": 2, "take": { "space": "travel", "cube": "brown" },
                        "action": { "do": "travel", "member": { "gen": 1 }, "to": "south",
                                    "reward": { "cubes": ["green", "green"] }, "coin_for": ["orange"] } }),
                "Cy takes the brown cube from the Travel space and sends the generation-1 member from the farm to \
                 South, with a coin for the orange cube, taking 2 green cubes as the reward.",
            ),
            (
                json!({ "type": "turn", "player": 1, "free": true,
                        "action": { "do": "church", "member": { "gen": 3 }, "pay": "time" } }),
                "Bo takes a free last turn and puts the generation-3 member from the farm into the black bag for the \
                 church, paying with time.",
            ),
            (
                json!({ "type": "turn", "player": 1, "take": { "space": "travel", "cube": "brown" } }),
                "Bo takes the brown cube from the Travel space and takes no action.",
            ),
            (
                json!({ "type": "sale", "player": 0, "customer": "c15", "coin_for": ["green"] }),
                "Ana serves customer c15 (a scroll and a wagon, 4 points), with a coin for the green cube.",
            ),
            (json!({ "type": "sale", "player": "carla", "customer": "c09" }), "Carla serves customer c09 (a plough, 3 points)."),
            (json!({ "type": "pass", "player": 2 }), "Cy passes in the market day."),
            (
                json!({ "type": "refill", "tiles": ["c07", "c22"] }),
                "The market is refilled with customer c07 (a wagon and 2 grain, 4 points) and customer c22 (a scroll, \
                 a plough and a wagon, 8 points) from the pile.",
            ),
            (
                json!({ "type": "death", "player": 0, "member": { "gen": 1, "at": "craft:blacksmith" } }),
                "Ana's generation-1 member at the Blacksmith dies.",
            ),
            (
                json!({ "type": "mass", "buy": [{ "player": 0, "gens": [2] }, { "player": 2, "gens": [1, 3] }],
                        "draw": ["monk", { "player": 1, "gen": 1 }],
                        "promote": [{ "player": 1, "moves": [{ "gen": 1, "from": 1, "to": 2 }] }] }),
                "The mass is held: Ana buys their generation-2 member out of the bag for 1 coin; Cy buys their \
                 members of generations 1 and 3 out of the bag for 2 coins; drawn from the black bag: a monk and \
                 Bo's generation-1 member; Bo moves the generation-1 member from stage 1 to stage 2 of the church track.",
            ),
            (json!({ "type": "mass" }), "The mass is held, with no buys and no promotions."),
            (
                json!({ "type": "carla", "rolls": ["brown", "green"], "space": "travel", "cube": "green" }),
                "Carla rolls brown, then green and takes the green cube from the Travel space.",
            ),
            (json!({ "type": "carla", "space": "council", "cube": "black" }), "Carla takes the black plague cube from the Council chamber space."),
            (json!({ "type": "fate", "set": "top", "result": "quill" }), "One of Carla's top fate tiles is turned over: a quill."),
        ];
        for (entry, expected) in &cases {
            let said = describe(&g, &entry.to_string(), &[]);
            assert_eq!(said, *expected, "{entry}");
            no_telltales(&said);
        }
        let kinds: std::collections::BTreeSet<&str> = cases.iter().filter_map(|(e, _)| e["type"].as_str()).collect();
        assert_eq!(kinds.len(), 9, "every entry kind of LOG-FORMAT \"Entries\": {kinds:?}");
    }

    /// An entry the notation cannot read is said in words by player name, never as JSON.
    #[test]
    fn g1_1_an_unreadable_entry_is_said_in_words_by_name() {
        let said = describe(&game(), r#"{"type": "turn", "player": 1, "take": {"space": "moon"}}"#, &[]);
        assert!(said.starts_with("Bo: turn"), "{said}");
        assert!(!said.contains('{') && !said.contains("\"player\""), "{said}");
        let said = describe(&game(), r#"{"type": "pass", "player": 7}"#, &[]);
        assert_eq!(said, "A player who is not in this game passes in the market day.");
    }

    /// C.6: the time an entry cost is read from the walk's positions around it (the log never
    /// writes it), so the timeline's sentences say it, and say every entry in words.
    #[test]
    fn c6_the_timeline_says_what_each_turn_cost_in_time() {
        for players in [1u8, 3] {
            let log = serde_json::to_vec(&Village::simulate(5, players).expect("simulated")).expect("json");
            let timeline = Village::timeline(&log).expect("a timeline");
            assert!(timeline.steps.iter().any(|s| s.sentence.contains(", spending ")), "{players} players");
            for step in &timeline.steps {
                no_telltales(&step.sentence);
                assert!(step.sentence.ends_with('.'), "{}", step.sentence);
            }
        }
    }

    /// `describe_next`'s sentences: one per legal next entry, by name, with its time cost where
    /// it has one (a black cube costs 2 time, C.3).
    #[test]
    fn c3_next_entries_are_said_with_their_time_cost() {
        let log = serde_json::to_vec(&Village::simulate(9, 2).expect("simulated")).expect("json");
        let mut seen_cost = false;
        for n in [0usize, 1, 5, 12, 30] {
            let r = Village::replay_until(&log, n);
            let legal = Village::legal_entries(&r, 200);
            let said = describe_entries(&r, &legal.entries);
            assert_eq!(said.len(), legal.entries.len());
            for s in &said {
                no_telltales(s);
            }
            seen_cost |= said.iter().any(|s| s.contains(", spending "));
        }
        assert!(seen_cost, "some next entry costs time");
    }
}
