//! The travel map (`docs/rules/village.md` A.8, D.6, G.1.7, M.6; `docs/log-format-village.md` "Components"): its
//! indexed reading against a plain reference on random maps, its faults in their order, and
//! the bounds on the size of what a log declares.

use std::collections::BTreeMap;

use chronicle_village::components::{
    self, Node, TravelMap, MAX_CHRONICLE_SPACES, MAX_GRAVES, MAX_TRAVEL_CITIES, MAX_TRAVEL_PATHS,
};
use chronicle_village::notation::ComponentsNotation;
use chronicle_village::rng::Rng;
use chronicle_village::Status;
use serde_json::{json, Value};

use crate::common::*;

/// The ids random maps draw from: cities, the village, an empty id and an unknown one.
const IDS: [&str; 10] = ["north", "south", "east", "west", "abbey", "harbour", "mill", "village", "", "atlantis"];
const COLOURS: [&str; 5] = ["orange", "green", "brown", "pink", "black"];

/// A random `travel` object: a few cities (rarely `village` or an empty id), paths between any
/// ids (repeats, either way round, self-loops, unknown cities), often the village's two paths
/// first so that many maps are whole.
fn random_travel(rng: &mut Rng) -> Value {
    let pick = |rng: &mut Rng, n: usize| usize::try_from(rng.below(n as u64)).unwrap_or(0);
    let mut cities = serde_json::Map::new();
    let rewards = ["prestige", "cubes", "coin"];
    // Mostly two cities or more; now and then none or one.
    let count = if pick(rng, 8) == 0 { pick(rng, 2) } else { 2 + pick(rng, 7) };
    for _ in 0..count {
        // Mostly real city names; one draw in ten may be `village`, `""` or `atlantis`.
        let id = IDS[if pick(rng, 10) == 0 { 7 + pick(rng, 3) } else { pick(rng, 7) }];
        cities.insert(id.to_owned(), json!({ "reward": rewards[pick(rng, 3)] }));
    }
    let names: Vec<String> = cities.keys().cloned().collect();
    let city = |rng: &mut Rng| -> String {
        if names.is_empty() {
            IDS[pick(rng, IDS.len())].to_owned()
        } else {
            names[pick(rng, names.len())].clone()
        }
    };
    let mut paths: Vec<Value> = Vec::new();
    if names.len() >= 2 && pick(rng, 4) > 0 {
        paths.push(json!({ "between": ["village", names[0]] }));
        paths.push(json!({ "between": [names[1], "village"] }));
    }
    for _ in 0..pick(rng, names.len() + 2) {
        // Mostly two cities of the map (which may repeat a pair or be one city); now and then
        // a repeat of an earlier path, a self-loop, the village or any id at all.
        let path = match pick(rng, 40) {
            0 if !paths.is_empty() => {
                let mut p = paths[pick(rng, paths.len())].clone();
                if pick(rng, 2) == 0 {
                    let [a, b] = [p["between"][0].clone(), p["between"][1].clone()];
                    p["between"] = json!([b, a]);
                }
                p
            }
            1 => {
                let a = city(rng);
                json!({ "between": [a, a] })
            }
            2 => json!({ "between": ["village", city(rng)] }),
            3 => json!({ "between": [city(rng), IDS[pick(rng, IDS.len())]] }),
            _ if names.len() >= 2 => {
                // Two different cities (a pair may still repeat an earlier path).
                let a = pick(rng, names.len());
                let b = (a + 1 + pick(rng, names.len() - 1)) % names.len();
                json!({ "between": [names[a], names[b]] })
            }
            _ => json!({ "between": [city(rng), city(rng)] }),
        };
        let mut path = path;
        if pick(rng, 3) == 0 {
            path["time"] = json!(pick(rng, 4));
        }
        if pick(rng, 3) == 0 {
            path["wagons"] = json!(pick(rng, 3));
        }
        let mut cubes = serde_json::Map::new();
        for _ in 0..pick(rng, 3) {
            // Black rarely: most maps pass the colour check.
            let c = if pick(rng, 60) == 0 { 4 } else { pick(rng, 4) };
            cubes.insert(COLOURS[c].to_owned(), json!(1 + pick(rng, 2)));
        }
        path["cubes"] = Value::Object(cubes);
        paths.push(path);
    }
    json!({ "cities": cities, "paths": paths })
}

/// The plain reading: every look-up a scan, as the rules state it (M.6, G.1.7). The cities in
/// id order (their JSON object read into a sorted map), the paths resolved to city indexes,
/// `usize::MAX` standing for the village.
struct Reference {
    cities: Vec<String>,
    paths: Vec<(usize, usize)>,
}

const VILLAGE: usize = usize::MAX;

impl Reference {
    /// The map, or the message of its first fault, checking in the order G.1.7 lists.
    fn read(travel: &Value) -> Result<Reference, String> {
        let sorted: BTreeMap<String, Value> =
            travel["cities"].as_object().map(|o| o.clone().into_iter().collect()).unwrap_or_default();
        let cities: Vec<String> = sorted.into_keys().collect();
        let bad = |m: String| Err(format!("setup.components: {m}"));
        if cities.iter().any(|c| c == "village" || c.is_empty()) {
            return bad("`travel.cities` may not contain \"village\" or an empty id".into());
        }
        let mut paths: Vec<(usize, usize)> = Vec::new();
        for p in travel["paths"].as_array().into_iter().flatten() {
            let mut ends = [VILLAGE; 2];
            for (end, id) in ends.iter_mut().zip(p["between"].as_array().into_iter().flatten()) {
                let id = id.as_str().unwrap_or_default();
                if id != "village" {
                    match cities.iter().position(|c| c == id) {
                        Some(i) => *end = i,
                        None => {
                            return bad(format!("travel path names \"{id}\", which is not a city of `travel.cities`"))
                        }
                    }
                }
            }
            let [a, b] = ends;
            if a == b {
                return bad("a travel path joins two different places".into());
            }
            if paths.iter().any(|&(x, y)| (x, y) == (a, b) || (x, y) == (b, a)) {
                let (x, y) = (&p["between"][0], &p["between"][1]);
                return bad(format!("two travel paths join {x} and {y}"));
            }
            if p["cubes"].as_object().is_some_and(|c| c.contains_key("black")) {
                return bad("travel path cubes are influence colours".into());
            }
            paths.push((a, b));
        }
        let from_village = paths.iter().filter(|&&(a, b)| a == VILLAGE || b == VILLAGE).count();
        if from_village != 2 {
            return bad(format!("exactly two cities are joined to the village (S l.498), not {from_village}"));
        }
        Ok(Reference { cities, paths })
    }

    /// The index of the first path joining two places.
    fn path(&self, x: usize, y: usize) -> Option<usize> {
        self.paths.iter().position(|&(a, b)| (a, b) == (x, y) || (a, b) == (y, x))
    }

    /// The places one path away, in the order of the paths.
    fn neighbours(&self, x: usize) -> Vec<usize> {
        let other = |&(a, b): &(usize, usize)| {
            if a == x {
                Some(b)
            } else if b == x {
                Some(a)
            } else {
                None
            }
        };
        self.paths.iter().filter_map(other).collect()
    }

    /// The places reachable from the village, village first, in breadth-first order.
    fn reachable(&self) -> Vec<usize> {
        let mut seen = vec![VILLAGE];
        let mut i = 0;
        while i < seen.len() {
            for n in self.neighbours(seen[i]) {
                if !seen.contains(&n) {
                    seen.push(n);
                }
            }
            i += 1;
        }
        seen
    }
}

fn node(i: usize) -> Node {
    if i == VILLAGE {
        Node::Village
    } else {
        Node::City(i)
    }
}

fn index(n: Node) -> usize {
    match n {
        Node::Village => VILLAGE,
        Node::City(c) => c,
    }
}

/// The places reachable from the village by the indexed map's own adjacency, breadth first.
fn reachable(map: &TravelMap) -> Vec<usize> {
    let mut seen = vec![false; map.cities().len()];
    let mut order = vec![VILLAGE];
    let mut i = 0;
    while i < order.len() {
        for n in map.neighbours(node(order[i])) {
            if let Node::City(c) = n {
                if !seen[c] {
                    seen[c] = true;
                    order.push(c);
                }
            }
        }
        i += 1;
    }
    order
}

/// The travel map of inline components holding only `travel`, or the error's code and message.
fn read(travel: &Value) -> Result<TravelMap, (String, String)> {
    let notation: ComponentsNotation =
        serde_json::from_value(json!({ "travel": travel })).map_err(|e| ("notation".to_owned(), e.to_string()))?;
    match components::validate(&notation) {
        Ok(c) => c.travel.ok_or_else(|| ("no map".to_owned(), String::new())),
        Err(e) => Err((e.code.as_str().to_owned(), e.message)),
    }
}

/// G.1.7, M.6, D.6: on 400 random maps (fixed seed) the indexed map gives the plain reading's
/// verdict — the same first fault, word for word — and, when whole, the same cities, the same
/// city for every id, the same path for every two places, the same neighbours in the same
/// order (the order of the legal travel entries), and the same places reachable from the
/// village.
#[test]
fn d6_the_indexed_map_answers_as_the_plain_reading_on_random_maps() {
    let mut rng = Rng::new(0x007A_E1D6);
    let mut whole = 0;
    for case in 0..400 {
        let travel = random_travel(&mut rng);
        let fast = read(&travel);
        let plain = Reference::read(&travel);
        let (map, reference) = match (fast, plain) {
            (Err((code, message)), Err(expected)) => {
                assert_eq!((code.as_str(), message), ("bad_components", expected), "case {case}: {travel}");
                continue;
            }
            (Ok(map), Ok(reference)) => (map, reference),
            (fast, plain) => panic!("case {case}: {travel}: {:?} against {:?}", fast.err(), plain.err()),
        };
        whole += 1;
        let ids: Vec<&str> = map.cities().iter().map(|c| c.id.as_str()).collect();
        assert_eq!(ids, reference.cities, "case {case}");
        for id in IDS {
            assert_eq!(map.city(id), reference.cities.iter().position(|c| c == id), "case {case}: {id}");
        }
        let places: Vec<usize> = std::iter::once(VILLAGE).chain(0..reference.cities.len()).collect();
        for &x in &places {
            let neighbours: Vec<usize> = map.neighbours(node(x)).map(index).collect();
            assert_eq!(neighbours, reference.neighbours(x), "case {case}: neighbours of {x}");
            for (to, path) in map.exits(node(x)) {
                assert!(std::ptr::eq(path, map.path(node(x), to).expect("the exit's path")), "case {case}");
            }
            for &y in &places {
                let path = map.path(node(x), node(y)).map(|p| map.paths().iter().position(|q| std::ptr::eq(p, q)));
                assert_eq!(path.flatten(), reference.path(x, y), "case {case}: path {x}–{y}");
            }
        }
        assert_eq!(reachable(&map), reference.reachable(), "case {case}");
    }
    // The generator reaches whole maps often enough for the answers to be compared.
    assert!(whole >= 100, "{whole} whole maps of 400");
}

/// G.1.7, M.6: each fault of a map is named as before, and the first in the order of the
/// checks is the one reported: the city ids, then each path in turn (its two places, that
/// they differ, that no earlier path joins them, its cubes), then the village's two
/// neighbours.
#[test]
fn g1_7_the_first_fault_of_a_map_is_reported_in_the_order_of_its_paths() {
    let cities = json!({ "north": { "reward": "prestige" }, "south": { "reward": "coin" } });
    let base = [json!({ "between": ["village", "north"] }), json!({ "between": ["south", "village"] })];
    let with = |extra: Vec<Value>| {
        let paths: Vec<Value> = base.iter().cloned().chain(extra).collect();
        json!({ "cities": cities, "paths": paths })
    };
    let message = |travel: &Value| read(travel).err().map(|(_, m)| m.replace("setup.components: ", ""));
    let cases = [
        (
            with(vec![json!({ "between": ["north", "atlantis"] }), json!({ "between": ["north", "north"] })]),
            "travel path names \"atlantis\", which is not a city of `travel.cities`",
        ),
        (
            with(vec![json!({ "between": ["south", "south"] }), json!({ "between": ["north", "atlantis"] })]),
            "a travel path joins two different places",
        ),
        (
            with(vec![json!({ "between": ["north", "village"] }), json!({ "between": ["x", "north"] })]),
            "two travel paths join \"north\" and \"village\"",
        ),
        (
            with(vec![
                json!({ "between": ["north", "south"], "cubes": { "black": 1 } }),
                json!({ "between": ["south", "north"] }),
            ]),
            "travel path cubes are influence colours",
        ),
        (
            with(vec![json!({ "between": ["north", "south"] }), json!({ "between": ["south", "north"] })]),
            "two travel paths join \"south\" and \"north\"",
        ),
        (
            json!({ "cities": cities, "paths": [base[0]] }),
            "exactly two cities are joined to the village (S l.498), not 1",
        ),
        (
            json!({ "cities": { "village": { "reward": "coin" } }, "paths": [{ "between": ["x", "y"] }] }),
            "`travel.cities` may not contain \"village\" or an empty id",
        ),
    ];
    for (travel, expected) in cases {
        assert_eq!(message(&travel).as_deref(), Some(expected), "{travel}");
    }
}

/// Adds a path to a `travel` object.
fn push(travel: &mut Value, path: Value) {
    if let Some(paths) = travel["paths"].as_array_mut() {
        paths.push(path);
    }
}

/// `n` cities `c0 … c{n-1}` in one chain hung from `hub`: `n` paths.
fn chain(travel: &mut Value, n: usize, hub: &str) {
    for i in 0..n {
        travel["cities"][format!("c{i}")] = json!({ "reward": "coin" });
        let from = if i == 0 { hub.to_owned() } else { format!("c{}", i - 1) };
        push(travel, json!({ "between": [from, format!("c{i}")] }));
    }
}

/// D.6, M.6, `docs/log-format-village.md` "Components": a simulated game replays to the same end on the
/// synthetic map and on that map with a chain hung from `abbey` up to the bound on cities:
/// a map of the largest size allowed is read, and every travel in the game looked up in it,
/// without changing a verdict or a score.
#[test]
fn d6_a_game_on_a_map_of_the_largest_size_allowed_ends_as_on_the_small_map() {
    let log = chronicle_village::bots::simulate(7, 2).expect("a simulated game");
    let small = replay(&log);
    assert_eq!(small.status, Status::Complete);
    let mut large = log.clone();
    let mut table = synthetic();
    let declared = table["travel"]["cities"].as_object().map_or(0, serde_json::Map::len);
    chain(&mut table["travel"], MAX_TRAVEL_CITIES - declared, "abbey");
    large["setup"]["components"] = table;
    let r = replay(&large);
    assert!(r.error.is_none(), "{:?}", r.error);
    assert_eq!(r.status, Status::Complete);
    let map = r.game.as_ref().and_then(|g| g.components().travel.clone()).expect("the map");
    assert_eq!(map.cities().len(), MAX_TRAVEL_CITIES);
    let totals = |r: &chronicle_village::Replay| r.scores.iter().flatten().map(|s| s.total).collect::<Vec<_>>();
    assert_eq!(totals(&r), totals(&small));
    assert_eq!(r.winners, small.winners);
}

/// M.6, `docs/log-format-village.md` "Components": a map with the most paths allowed is read (the
/// village's two paths, then every other path among the cities, each pair once).
#[test]
fn m6_a_map_with_the_most_paths_allowed_is_read() {
    let n = 130;
    let mut travel =
        json!({ "cities": {}, "paths": [{ "between": ["village", "c0"] }, { "between": ["village", "c1"] }] });
    for i in 0..n {
        travel["cities"][format!("c{i}")] = json!({ "reward": "cubes" });
    }
    let paths = travel["paths"].as_array_mut().expect("paths");
    'all: for i in 0..n {
        for j in i + 1..n {
            if paths.len() == MAX_TRAVEL_PATHS {
                break 'all;
            }
            paths.push(json!({ "between": [format!("c{i}"), format!("c{j}")] }));
        }
    }
    assert_eq!(paths.len(), MAX_TRAVEL_PATHS);
    let map = read(&travel).expect("a whole map");
    assert_eq!(map.paths().len(), MAX_TRAVEL_PATHS);
    assert_eq!(map.neighbours(Node::City(0)).count(), n);
    assert!(map.path(Node::City(0), Node::City(n - 1)).is_some());
}

/// `docs/log-format-village.md` "Components", G.1.7: a declared list over its bound — cities, paths, a
/// chronicle category's spaces, graves — is refused at `setup` with `log_too_large`, naming
/// the list, its length and the bound; a list at its bound is read.
#[test]
fn g1_7_component_lists_over_their_bounds_are_refused_at_setup() {
    let over = |edit: &dyn Fn(&mut Value)| {
        let mut log = game2(vec![]);
        edit(&mut log["setup"]["components"]);
        replay(&log).error.map(|e| (e.entry, e.code.as_str().to_owned(), e.message))
    };
    let refused = |key: &str, n: usize, most: usize| {
        Some((None, "log_too_large".to_owned(), format!("setup.components: `{key}` declares {n}; at most {most}")))
    };
    let cities = MAX_TRAVEL_CITIES + 1;
    let many_cities = |c: &mut Value| chain(&mut c["travel"], cities - 7, "abbey");
    assert_eq!(over(&many_cities), refused("travel.cities", cities, MAX_TRAVEL_CITIES));
    let paths = MAX_TRAVEL_PATHS + 1;
    let many_paths = |c: &mut Value| {
        let p = c["travel"]["paths"][0].clone();
        if let Some(a) = c["travel"]["paths"].as_array_mut() {
            a.resize(paths, p);
        }
    };
    assert_eq!(over(&many_paths), refused("travel.paths", paths, MAX_TRAVEL_PATHS));
    let spaces = |k: usize| move |c: &mut Value| c["chronicle"]["farm"] = json!(vec![""; k]);
    assert_eq!(
        over(&spaces(MAX_CHRONICLE_SPACES + 1)),
        refused("chronicle.farm", MAX_CHRONICLE_SPACES + 1, MAX_CHRONICLE_SPACES)
    );
    assert_eq!(over(&spaces(MAX_CHRONICLE_SPACES)), None);
    let graves = |k: usize| move |c: &mut Value| c["graves"] = json!(vec![""; k]);
    assert_eq!(over(&graves(MAX_GRAVES + 1)), refused("graves", MAX_GRAVES + 1, MAX_GRAVES));
    assert_eq!(over(&graves(MAX_GRAVES)), None);
}

/// D.6, `docs/log-format-village.md` "Components": the log of the finding — 100,000 cities in a chain,
/// over 5 MB — is refused at `setup` with `log_too_large`, by the bound on cities, before any
/// path is read. The time is a generous sanity check against a same-run baseline, not a
/// measurement (the figures are in `docs/performance.md`): the refusal costs a few readings of
/// the JSON (the single pass, the part-by-part reading that words the error, the tree that
/// looks for a JSON fault), about 17 times the floor in a debug build, where the quadratic
/// reading of the map took 45 s in a release build, thousands of times the floor.
#[test]
fn d6_a_chain_of_100000_cities_is_refused_by_the_bound_at_once() {
    let mut travel = json!({ "cities": {}, "paths": [] });
    chain(&mut travel, 100_000, "village");
    push(&mut travel, json!({ "between": ["c99999", "village"] }));
    let log = log2(json!({ "travel": travel }), vec![]).to_string();
    assert!(log.len() > 5_000_000);
    let start = std::time::Instant::now();
    let r = chronicle_village::replay(log.as_bytes());
    let spent = start.elapsed();
    let start = std::time::Instant::now();
    let _ = serde_json::from_str::<serde::de::IgnoredAny>(&log);
    let floor = start.elapsed();
    let e = r.error.expect("refused");
    assert_eq!((e.entry, e.code.as_str()), (None, "log_too_large"));
    assert_eq!(e.message, format!("setup.components: `travel.cities` declares 100000; at most {MAX_TRAVEL_CITIES}"));
    assert!(spent < floor * 100, "{spent:?} against a JSON floor of {floor:?}");
}
