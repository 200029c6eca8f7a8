//! The printed component data the rulebook text lacks (`docs/rules/village.md` A.11, M.1–M.11), validated
//! against what the rulebook does fix (G.1.7). Every datum is optional: the rules ask for one
//! only when they need it and fail with `missing_component_data` otherwise (G.1.5).
//!
//! Two names are known for `setup.components`: [`BIGBOX`] (`village-bigbox/1`), the canonical
//! table of the printed game, which the project does not ship yet (no datum is known, so every
//! need fails with `missing_component_data`), and [`SYNTHETIC`] (`chronicle-synthetic/1`), a
//! made-up, clearly labelled data set for tests and simulated games — **not** the printed game.

use std::collections::BTreeMap;
use std::sync::OnceLock;

use crate::error::{fail, ErrorCode, RuleResult};
use crate::ids::{Building, Category, Customer, Item, Space};
use crate::notation::{ComponentsNotation, InlineComponents, Reward};

/// The canonical printed table's name (not shipped: the printed data is unknown).
pub const BIGBOX: &str = "village-bigbox/1";
/// The synthetic test table's name.
pub const SYNTHETIC: &str = "chronicle-synthetic/1";
/// The synthetic table as inline JSON (its `source` says what it is).
pub const SYNTHETIC_JSON: &str = include_str!("synthetic_components.json");

/// Most cities a travel map may declare (`travel.cities`). The printed map has about a dozen
/// (A.8; six discs visit at most six), the synthetic table 7. The map is read once per replay in
/// time linear in its size and each look-up in it is logarithmic, but a log could otherwise make
/// every replay, every legal-entry list and every bot build and search a map of hundreds of
/// thousands of cities (16 MiB of log hold over 300,000); 2,000 is well over a hundred times any
/// drawn map. A longer list is refused with `log_too_large` before any path is read.
pub const MAX_TRAVEL_CITIES: usize = 2_000;

/// Most paths a travel map may declare (`travel.paths`): four per city of the largest map
/// allowed. A map drawn on a board (planar) has fewer than three paths per city; the printed and
/// synthetic maps have under two. The legal entries of a travel space list one move per path
/// leaving a traveller's place, so this also bounds that list. Refused with `log_too_large`.
pub const MAX_TRAVEL_PATHS: usize = 4 * MAX_TRAVEL_CITIES;

/// Most spaces one chronicle category may declare (`chronicle.<category>`). The printed
/// categories have a handful each (the synthetic table 2–4); no game has more than 55 members
/// (5 colours of 11) to place, so more spaces could never fill. Every death counts the open
/// spaces, so the bound keeps that count small. Refused with `log_too_large`.
pub const MAX_CHRONICLE_SPACES: usize = 100;

/// Most graves the cemetery may declare (`graves`), for the same reasons as
/// [`MAX_CHRONICLE_SPACES`] (the synthetic table has 6). Refused with `log_too_large`.
pub const MAX_GRAVES: usize = 100;

/// Which player counts open a chronicle space or grave (`docs/rules/village.md` A.10, B.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mark {
    Always,
    From3,
    From4,
    Only5,
    Marriage,
}

impl Mark {
    fn parse(s: &str) -> Option<Mark> {
        Some(match s {
            "" => Mark::Always,
            "3-5" => Mark::From3,
            "4-5" => Mark::From4,
            "5" => Mark::Only5,
            "marriage" => Mark::Marriage,
            _ => return None,
        })
    }

    /// Open with `players` players (solo counts as 2, B.1).
    pub fn open(self, players: usize) -> bool {
        let n = players.max(2);
        match self {
            Mark::Always => true,
            Mark::From3 => n >= 3,
            Mark::From4 => n >= 4,
            Mark::Only5 => n >= 5,
            Mark::Marriage => false,
        }
    }
}

/// One setup card (M.1): influence cubes added per round and cubes drawn per space.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SetupCard {
    pub bag: [u32; 4],
    pub spaces: [u32; 7],
}

/// A node of the travel map.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Node {
    Village,
    City(usize),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct City {
    pub id: String,
    pub reward: Reward,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Path {
    pub a: Node,
    pub b: Node,
    pub time: u32,
    pub wagons: u32,
    pub cubes: crate::ids::Cubes,
}

/// The travel map (M.6), indexed when it is read so that every question the rules ask of it
/// costs at most a logarithm of its size: a city by its id (the cities are kept sorted by id),
/// a path by the two places it joins, and the paths leaving a place (adjacency lists).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TravelMap {
    /// Sorted by id (they come from a map keyed by id), so that [`TravelMap::city`] is a
    /// binary search and a city's index is fixed by the ids alone.
    cities: Vec<City>,
    /// In the log's order.
    paths: Vec<Path>,
    /// The path joining two places, by their [`slot`]s, the lower first.
    joins: BTreeMap<(usize, usize), usize>,
    /// Where each place's run of `exits` starts, by [`slot`]; one more entry than places.
    starts: Vec<usize>,
    /// Per place, the places one path away and that path's index, in the log's order of paths.
    exits: Vec<(Node, usize)>,
}

/// A place's index among the places of a map: the village first, then the cities.
fn slot(n: Node) -> usize {
    match n {
        Node::Village => 0,
        Node::City(c) => c + 1,
    }
}

/// The two places' slots, the lower first: a path is undirected.
fn pair(x: Node, y: Node) -> (usize, usize) {
    let (a, b) = (slot(x), slot(y));
    (a.min(b), a.max(b))
}

impl TravelMap {
    /// The map of these cities (sorted by id) and paths (each joining two different places,
    /// no two the same places), with its indexes: linear in their number, but for the
    /// logarithm of `joins`.
    fn new(cities: Vec<City>, paths: Vec<Path>, joins: BTreeMap<(usize, usize), usize>) -> TravelMap {
        let places = cities.len() + 1;
        let mut starts = vec![0; places + 1];
        for p in &paths {
            starts[slot(p.a) + 1] += 1;
            starts[slot(p.b) + 1] += 1;
        }
        for i in 1..starts.len() {
            starts[i] += starts[i - 1];
        }
        // Each place's run filled in the order of the paths: the order `neighbours` answers.
        let mut next = starts.clone();
        let mut exits = vec![(Node::Village, 0); 2 * paths.len()];
        for (i, p) in paths.iter().enumerate() {
            for (from, to) in [(p.a, p.b), (p.b, p.a)] {
                exits[next[slot(from)]] = (to, i);
                next[slot(from)] += 1;
            }
        }
        TravelMap { cities, paths, joins, starts, exits }
    }

    /// The cities, sorted by id; a city's index is its place here.
    pub fn cities(&self) -> &[City] {
        &self.cities
    }

    /// The paths, in the log's order.
    pub fn paths(&self) -> &[Path] {
        &self.paths
    }

    /// The index of the city with this id.
    pub fn city(&self, id: &str) -> Option<usize> {
        self.cities.binary_search_by(|c| c.id.as_str().cmp(id)).ok()
    }

    /// The path joining two nodes, if any.
    pub fn path(&self, x: Node, y: Node) -> Option<&Path> {
        self.joins.get(&pair(x, y)).map(|&i| &self.paths[i])
    }

    /// The nodes one path away from a node, each with the path leading there, in the log's
    /// order of paths.
    pub fn exits(&self, x: Node) -> impl Iterator<Item = (Node, &Path)> + '_ {
        let s = slot(x);
        let run = match (self.starts.get(s), self.starts.get(s + 1)) {
            (Some(&from), Some(&to)) => &self.exits[from..to],
            _ => &[],
        };
        run.iter().map(|&(to, i)| (to, &self.paths[i]))
    }

    /// The nodes one path away from a node, in the log's order of paths.
    pub fn neighbours(&self, x: Node) -> impl Iterator<Item = Node> + '_ {
        self.exits(x).map(|(to, _)| to)
    }
}

/// A customer tile's printed data (M.9).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CustomerData {
    pub wants: Vec<(Item, u32)>,
    pub points: u32,
}

/// Carla's board (M.11).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CarlaBoard {
    /// The seven action spaces in clockwise order.
    pub order: [Space; 7],
    pub boxes: u32,
    /// Per set (top, bottom), the boxes whose filling flips its tiles, in the order reached.
    pub fate: [[u32; 3]; 2],
}

impl CarlaBoard {
    /// The spaces after `s`, clockwise, ending with `s` itself excluded.
    pub fn after(&self, s: Space) -> Vec<Space> {
        let i = self.order.iter().position(|&x| x == s).unwrap_or(0);
        (1..7).map(|k| self.order[(i + k) % 7]).collect()
    }
}

/// Validated component data; every datum optional.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Components {
    /// The shipped table's name, when the log names one.
    pub name: Option<String>,
    pub source: Option<String>,
    pub setup_cards: BTreeMap<u8, SetupCard>,
    pub life_track: Option<u32>,
    pub training: BTreeMap<Building, u32>,
    pub council_time: Option<[u32; 3]>,
    pub church_grain: Option<[u32; 3]>,
    pub travel: Option<TravelMap>,
    pub chronicle: Option<[Vec<Mark>; 5]>,
    pub graves: Option<Vec<Mark>>,
    pub customers: BTreeMap<Customer, CustomerData>,
    pub carla: Option<CarlaBoard>,
}

fn bad<T>(message: impl Into<String>) -> RuleResult<T> {
    fail(ErrorCode::BadComponents, format!("setup.components: {}", message.into()))
}

fn stage_triplet(key: &str, map: &BTreeMap<String, u32>) -> RuleResult<[u32; 3]> {
    if let Some(k) = map.keys().find(|k| !["2", "3", "4"].contains(&k.as_str())) {
        return bad(format!("`{key}` has stage \"{k}\"; the stages are \"2\", \"3\", \"4\""));
    }
    let get = |s: &str| map.get(s).copied().ok_or(());
    match (get("2"), get("3"), get("4")) {
        (Ok(a), Ok(b), Ok(c)) => Ok([a, b, c]),
        _ => bad(format!("`{key}` must give stages \"2\", \"3\" and \"4\" (a key present must be whole)")),
    }
}

/// Reads `setup.components` (a shipped name or inline data) and checks it (G.1.7).
pub fn validate(notation: &ComponentsNotation) -> RuleResult<Components> {
    match notation {
        ComponentsNotation::Named(name) if name == BIGBOX => {
            Ok(Components { name: Some(name.clone()), ..Components::default() })
        }
        ComponentsNotation::Named(name) if name == SYNTHETIC => synthetic_table().clone(),
        ComponentsNotation::Named(name) => fail(
            ErrorCode::UnknownId,
            format!("setup.components names \"{name}\"; the engine knows \"{SYNTHETIC}\" and \"{BIGBOX}\""),
        ),
        ComponentsNotation::Inline(inline) => validate_inline(inline),
    }
}

/// The synthetic table, read and checked once per process: a constant of the engine (it is
/// compiled in), so every log naming it gets the same table, a copy of the one read first,
/// instead of reading its text again (most of the setup's cost).
fn synthetic_table() -> &'static RuleResult<Components> {
    static TABLE: OnceLock<RuleResult<Components>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let inline: InlineComponents = serde_json::from_str(SYNTHETIC_JSON)
            .map_err(|e| crate::error::RuleError::new(ErrorCode::BadComponents, e.to_string()))?;
        let mut c = validate_inline(&inline)?;
        c.name = Some(SYNTHETIC.to_owned());
        Ok(c)
    })
}

/// The synthetic table, validated.
pub fn synthetic() -> Components {
    validate(&ComponentsNotation::Named(SYNTHETIC.to_owned())).unwrap_or_default()
}

fn validate_inline(n: &InlineComponents) -> RuleResult<Components> {
    let mut c = Components { source: n.source.clone(), ..Components::default() };
    for (key, card) in n.setup_cards.iter().flatten() {
        let players: u8 = match key.as_str() {
            "2" => 2,
            "3" => 3,
            "4" => 4,
            "5" => 5,
            _ => return bad(format!("setup card \"{key}\": cards are \"2\" … \"5\"")),
        };
        let mut bag = [0; 4];
        for (cube, &k) in &card.bag {
            if !cube.is_influence() {
                return bad(format!("setup card \"{key}\": the bag lists influence colours only, not `{cube}`"));
            }
            bag[cube.index()] = k;
        }
        if card.bag.len() != 4 {
            return bad(format!("setup card \"{key}\": `bag` must give all four influence colours"));
        }
        if card.spaces.len() != 7 {
            return bad(format!("setup card \"{key}\": `spaces` must give all seven action spaces"));
        }
        let mut spaces = [0; 7];
        for (s, &k) in &card.spaces {
            spaces[s.index()] = k;
        }
        let total: u64 = spaces.iter().map(|&x| u64::from(x)).sum();
        if !total.is_multiple_of(u64::from(players)) {
            return bad(format!(
                "setup card \"{key}\" draws {total} cubes, not divisible by {players} players (RULES.md G.1.7, S l.671)"
            ));
        }
        if players == 2 && spaces[Space::Market.index()] != 1 {
            return bad("the 2-player card puts exactly 1 cube on `market` (RULES.md M.1, S l.859)");
        }
        c.setup_cards.insert(players, SetupCard { bag, spaces });
    }
    if let Some(l) = n.life_track {
        if l == 0 {
            return bad("`life_track` must be at least 1");
        }
        c.life_track = Some(l);
    }
    for (&b, &t) in n.training.iter().flatten() {
        if b == Building::Mill {
            return bad("`training` has no `mill`: no member is placed there (RULES.md A.5)");
        }
        if let Some(known) = b.known_training() {
            if known != t {
                return bad(format!("`training.{b}` is {known} in the rulebook (RULES.md A.5), not {t}"));
            }
        }
        c.training.insert(b, t);
    }
    if let Some(map) = &n.council_time {
        let t = stage_triplet("council_time", map)?;
        if t.iter().any(|&x| x != 2 && x != 3) {
            return bad("`council_time` values are 2 or 3 (RULES.md A.6, S l.463)");
        }
        c.council_time = Some(t);
    }
    if let Some(map) = &n.church_grain {
        let g = stage_triplet("church_grain", map)?;
        if g[0] != 1 || g.iter().map(|&x| u64::from(x)).sum::<u64>() != 4 {
            return bad("`church_grain`: stage 2 costs 1 and the three stages total 4 (RULES.md A.7)");
        }
        c.church_grain = Some(g);
    }
    if let Some(t) = &n.travel {
        c.travel = Some(travel(t)?);
    }
    if let Some(ch) = &n.chronicle {
        let mut cats: [Vec<Mark>; 5] = Default::default();
        if let Some(k) = ch.keys().find(|k| Category::from_id(k).is_none()) {
            return bad(format!("chronicle category \"{k}\" is not one of farm, crafts, council, travel, church"));
        }
        for cat in Category::ALL {
            let Some(marks) = ch.get(cat.id()) else {
                return bad(format!("`chronicle` lacks category `{cat}` (all five are needed)"));
            };
            if marks.declared() > MAX_CHRONICLE_SPACES {
                return too_many(&format!("chronicle.{cat}"), marks.declared(), MAX_CHRONICLE_SPACES);
            }
            cats[cat.index()] = marks_of(marks.items(), "chronicle")?;
        }
        let marriage = cats.iter().flatten().filter(|m| **m == Mark::Marriage).count();
        if marriage != 2 {
            return bad(format!("the chronicle has exactly two `marriage` spaces (S l.188), not {marriage}"));
        }
        c.chronicle = Some(cats);
    }
    if let Some(g) = &n.graves {
        if g.declared() > MAX_GRAVES {
            return too_many("graves", g.declared(), MAX_GRAVES);
        }
        c.graves = Some(marks_of(g.items(), "graves")?);
    }
    for (&id, data) in n.customers.iter().flatten() {
        c.customers.insert(
            id,
            CustomerData { wants: data.wants.iter().map(|(&i, &k)| (i, k)).collect(), points: data.points },
        );
    }
    if let Some(cb) = &n.carla {
        let mut order = [Space::Harvest; 7];
        if cb.order.len() != 7 || Space::ALL.iter().any(|s| !cb.order.contains(s)) {
            return bad("`carla.order` lists the seven action spaces once each");
        }
        order.copy_from_slice(&cb.order);
        let board = CarlaBoard { order, boxes: cb.boxes, fate: [[0; 3]; 2] };
        let after_market = board.after(Space::Market);
        let pos = |s: Space| after_market.iter().position(|&x| x == s);
        if pos(Space::Travel) > pos(Space::Council) {
            return bad("going clockwise from `market`, `travel` comes before `council` (RULES.md H.21)");
        }
        if cb.boxes == 0 {
            return bad("`carla.boxes` must be at least 1");
        }
        let mut fate = [[0; 3]; 2];
        for (i, set) in [&cb.fate.top, &cb.fate.bottom].into_iter().enumerate() {
            let distinct = set.len() == 3 && set[0] != set[1] && set[1] != set[2] && set[0] != set[2];
            if !distinct || set.iter().any(|&b| b >= cb.boxes) {
                return bad("each `carla.fate` set names three distinct boxes of the track");
            }
            fate[i].copy_from_slice(set);
        }
        c.carla = Some(CarlaBoard { fate, ..board });
    }
    Ok(c)
}

fn marks_of(list: &[String], key: &str) -> RuleResult<Vec<Mark>> {
    list.iter()
        .map(|m| {
            Mark::parse(m).map_or_else(
                || bad(format!("`{key}` mark \"{m}\" is not one of \"\", \"3-5\", \"4-5\", \"5\", \"marriage\"")),
                Ok,
            )
        })
        .collect()
}

/// The refusal of a declared list longer than the engine's bound for it.
fn too_many<T>(key: &str, declared: usize, most: usize) -> RuleResult<T> {
    fail(ErrorCode::LogTooLarge, format!("setup.components: `{key}` declares {declared}; at most {most}"))
}

/// Reads and checks the travel map in time linear in its cities and paths (but for the
/// logarithms of the look-ups), stopping at the first fault in the order the checks have
/// always had: the bounds, the city ids, then each path in turn (its two places, that they
/// differ, that no earlier path joins them, its cubes), then the village's two neighbours.
fn travel(t: &crate::notation::TravelNotation) -> RuleResult<TravelMap> {
    if t.cities.declared() > MAX_TRAVEL_CITIES {
        return too_many("travel.cities", t.cities.declared(), MAX_TRAVEL_CITIES);
    }
    if t.paths.declared() > MAX_TRAVEL_PATHS {
        return too_many("travel.paths", t.paths.declared(), MAX_TRAVEL_PATHS);
    }
    // Sorted by id: the notation keys them by id.
    let cities: Vec<City> = t.cities.items().iter().map(|(id, c)| City { id: id.clone(), reward: c.reward }).collect();
    if cities.iter().any(|c| c.id == "village" || c.id.is_empty()) {
        return bad("`travel.cities` may not contain \"village\" or an empty id");
    }
    let node = |id: &str| -> RuleResult<Node> {
        if id == "village" {
            return Ok(Node::Village);
        }
        cities
            .binary_search_by(|c| c.id.as_str().cmp(id))
            .map(Node::City)
            .or_else(|_| bad(format!("travel path names \"{id}\", which is not a city of `travel.cities`")))
    };
    let mut paths = Vec::with_capacity(t.paths.declared());
    let mut joins = BTreeMap::new();
    for p in t.paths.items() {
        let (a, b) = (node(&p.between[0])?, node(&p.between[1])?);
        if a == b {
            return bad("a travel path joins two different places");
        }
        if joins.insert(pair(a, b), paths.len()).is_some() {
            return bad(format!("two travel paths join \"{}\" and \"{}\"", p.between[0], p.between[1]));
        }
        let mut cubes = crate::ids::Cubes::default();
        for (&cube, &k) in &p.cubes {
            if !cube.is_influence() {
                return bad("travel path cubes are influence colours");
            }
            cubes.add(cube, k);
        }
        paths.push(Path { a, b, time: p.time.unwrap_or(2), wagons: p.wagons.unwrap_or(1), cubes });
    }
    let map = TravelMap::new(cities, paths, joins);
    let from_village = map.neighbours(Node::Village).count();
    if from_village != 2 {
        return bad(format!("exactly two cities are joined to the village (S l.498), not {from_village}"));
    }
    Ok(map)
}

impl Components {
    pub fn setup_card(&self, players: usize) -> RuleResult<&SetupCard> {
        let n = u8::try_from(players.max(2)).unwrap_or(u8::MAX);
        self.setup_cards.get(&n).map_or_else(
            || crate::error::missing(&format!("setup_cards.\"{n}\""), "to populate the action spaces (RULES.md C.2)"),
            Ok,
        )
    }

    pub fn life_track(&self) -> RuleResult<u64> {
        self.life_track
            .map(u64::from)
            .map_or_else(|| crate::error::missing("life_track", "to move the life marker (RULES.md C.6)"), Ok)
    }

    pub fn training(&self, b: Building) -> RuleResult<u32> {
        if let Some(t) = b.known_training() {
            return Ok(t);
        }
        self.training.get(&b).copied().map_or_else(
            || crate::error::missing(&format!("training.{b}"), "to train a member there (RULES.md H.4)"),
            Ok,
        )
    }

    /// Time to advance onto `stage` (2..=4).
    pub fn council_time(&self, stage: u8) -> RuleResult<u32> {
        let t = self.council_time.map_or_else(
            || crate::error::missing("council_time", "to advance on the council track (RULES.md H.36)"),
            Ok,
        )?;
        Ok(t[usize::from(stage.clamp(2, 4) - 2)])
    }

    /// Grain to move onto church `stage` (2..=4); stage 2 is 1 by the rulebook (H.6).
    pub fn church_grain(&self, stage: u8) -> RuleResult<u32> {
        if stage <= 2 {
            return Ok(1);
        }
        let g = self.church_grain.map_or_else(
            || crate::error::missing("church_grain", "to move onto church stage 3 or 4 (RULES.md H.6)"),
            Ok,
        )?;
        Ok(g[usize::from(stage.min(4) - 2)])
    }

    pub fn travel(&self) -> RuleResult<&TravelMap> {
        self.travel.as_ref().map_or_else(|| crate::error::missing("travel", "to travel (RULES.md D.6)"), Ok)
    }

    pub fn chronicle(&self) -> RuleResult<&[Vec<Mark>; 5]> {
        self.chronicle
            .as_ref()
            .map_or_else(|| crate::error::missing("chronicle", "to place a dead member (RULES.md C.7)"), Ok)
    }

    pub fn graves(&self) -> RuleResult<&Vec<Mark>> {
        self.graves
            .as_ref()
            .map_or_else(|| crate::error::missing("graves", "to place a dead member (RULES.md C.7)"), Ok)
    }

    pub fn customer(&self, c: Customer) -> RuleResult<&CustomerData> {
        self.customers.get(&c).map_or_else(
            || crate::error::missing(&format!("customers.{c}"), "for that customer's wants and points (RULES.md M.9)"),
            Ok,
        )
    }

    pub fn carla(&self) -> RuleResult<&CarlaBoard> {
        self.carla.as_ref().map_or_else(|| crate::error::missing("carla", "for Carla's board (RULES.md M.11)"), Ok)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_synthetic_table_is_complete_and_labelled() {
        let c = synthetic();
        assert!(c.source.as_deref().is_some_and(|s| s.contains("synthetic")));
        assert_eq!(c.setup_cards.len(), 4);
        assert_eq!(c.customers.len(), 24);
        assert!(c.travel.is_some() && c.chronicle.is_some() && c.graves.is_some() && c.carla.is_some());
        assert!(c.life_track.is_some() && c.council_time.is_some() && c.church_grain.is_some());
    }

    #[test]
    fn the_canonical_name_is_known_but_empty() {
        let c = validate(&ComponentsNotation::Named(BIGBOX.into())).unwrap_or_default();
        assert_eq!(c.name.as_deref(), Some(BIGBOX));
        assert!(c.life_track.is_none());
        assert!(c.setup_card(2).is_err_and(|e| e.code == ErrorCode::MissingComponentData));
    }
}
