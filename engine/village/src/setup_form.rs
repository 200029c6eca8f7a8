//! The recorder's setup form (`GameEngine::setup_form`): a Village game set up as at the table
//! (`docs/rules/village.md` B, F.1) — each seat's colour, the compensation and the start cubes
//! it needs (B.3), the component data (A.11: the synthetic table Chronicle ships, or a file
//! transcribed from a physical copy), and the market display as laid out (B.1, A.9, H.3) or
//! shuffled by Chronicle from a seed; for one player, Carla's colour and rule (F.1, F.2). A
//! filled form is checked whole: every problem is said at once, in the players' words, before
//! the setup is validated as a log's would be (`docs/log-format-village.md` "Setup").

use chronicle_game::setup_form::{FilledSetup, FormField, FormOption, FormSection, SetupForm};
use serde_json::{json, Map, Value};

use crate::components::{self, Components, SYNTHETIC};
use crate::ids::{Color, Cube, Customer};
use crate::names::{capitalized, customer_phrase};
use crate::notation::{ComponentsNotation, InlineComponents, SetupNotation};
use crate::rng::MAX_SEED;

/// Most players a Village game seats (B.1: 1 to 5).
const MAX_PLAYERS: usize = 5;
/// Customers in the queue, whatever the player count (A.9).
const QUEUE: usize = 5;
/// Customer spaces of the market (A.9): no form slot lies beyond them.
const SPACES: usize = 10;
/// What an uploaded components file is, for the page's upload button.
const UPLOAD: &str = "a components file as LOG-FORMAT 'Components' describes";

/// Stalls laid out for a player count (B.1, A.9): solo as 2 players.
fn stalls_for(players: usize) -> usize {
    match players {
        0..=2 => 3,
        3 => 4,
        _ => 5,
    }
}

/// The stall rule in words, as the problems and hints say it ("3 players lay out 4 stalls").
fn stall_rule(players: usize) -> String {
    match players {
        1 => "a solo game lays out 3 stalls".to_owned(),
        n => format!("{n} players lay out {} stalls", stalls_for(n)),
    }
}

fn field(id: &str, label: &str, options: Vec<FormOption>, default: Option<&str>) -> FormField {
    FormField { id: id.to_owned(), label: label.to_owned(), options, default: default.map(str::to_owned), upload: None }
}

fn section(id: &str, title: &str, hint: &str, fields: Vec<FormField>, shown_when: Option<(&str, &str)>) -> FormSection {
    FormSection {
        id: id.to_owned(),
        title: title.to_owned(),
        hint: hint.to_owned(),
        fields,
        shown_when: shown_when.map(|(f, v)| (f.to_owned(), v.to_owned())),
    }
}

fn colour_options() -> Vec<FormOption> {
    Color::ALL.iter().map(|c| FormOption::new(c.id(), capitalized(c.id()))).collect()
}

fn cube_options() -> Vec<FormOption> {
    Cube::INFLUENCE.iter().map(|c| FormOption::new(c.id(), capitalized(c.id()))).collect()
}

/// Seats and colours (B.2, A.1), and — with several players — the compensation switch (B.3);
/// alone, the game is solo (F.1), which shows Carla's section.
fn seats(players: usize) -> FormSection {
    let mut fields: Vec<FormField> = (0..players)
        .map(|i| {
            field(
                &format!("color_{}", i + 1),
                &format!("Seat {} colour", i + 1),
                colour_options(),
                Some(Color::ALL[i].id()),
            )
        })
        .collect();
    if players == 1 {
        fields.push(field("mode", "Game", vec![FormOption::new("solo", "solo, against Carla")], Some("solo")));
    } else {
        let options = vec![FormOption::new("on", "on, as the rulebook recommends"), FormOption::new("off", "off")];
        fields.push(field("compensation", "Compensation for the later seats", options, Some("on")));
    }
    section(
        "seats",
        "Seats and colours",
        "Seat 1 is the oldest player and the first player of round 1; each colour is played once. Compensation: seat 2 gets 1 grain, seat 3 an influence cube drawn at random, seat 4 a cube of their choice, seat 5 an extra coin.",
        fields,
        None,
    )
}

/// The start cubes of seats 3 and 4 (B.3), shown while compensation is on.
fn start_cubes(players: usize) -> FormSection {
    let mut fields = vec![field("start_cube_3", "Seat 3: the cube drawn at random", cube_options(), None)];
    if players >= 4 {
        fields.push(field("start_cube_4", "Seat 4: the cube chosen", cube_options(), None));
    }
    section(
        "start_cubes",
        "Compensation cubes",
        "The influence cube each of these seats took from the supply. With a seed, leave seat 3's cube empty: Chronicle draws it.",
        fields,
        Some(("compensation", "on")),
    )
}

/// Carla's colour and rule (F.1, F.2), for the solo game.
fn solo() -> FormSection {
    let rules = vec![
        FormOption::new("track", "her track (the standard rule)"),
        FormOption::new("die", "the die rule (the alternative)"),
    ];
    section(
        "solo",
        "Carla, the solo opponent",
        "Carla plays a colour other than yours.",
        vec![
            field("carla_color", "Carla's colour", colour_options(), Some(Color::ALL[1].id())),
            field("carla_rule", "How Carla chooses her cubes", rules, Some("track")),
        ],
        Some(("mode", "solo")),
    )
}

/// The component data (A.11): the table Chronicle ships, or a file of the printed data.
fn components_section() -> FormSection {
    let mut f = field(
        "components",
        "Component data",
        vec![FormOption::new(SYNTHETIC, "synthetic test data, not the printed game")],
        Some(SYNTHETIC),
    );
    f.upload = Some(UPLOAD.to_owned());
    section(
        "components",
        "Component data",
        "The printed data the rulebook text lacks (setup cards, travel map, chronicle, customer tiles, Carla's board). Chronicle ships only synthetic test data; to record a table game, upload the data transcribed from your copy.",
        vec![f],
        None,
    )
}

/// How the market display came about: as laid out at the table, or shuffled from a seed.
fn dealing(players: usize) -> FormSection {
    let options =
        vec![FormOption::new("drawn", "as drawn at the table"), FormOption::new("seed", "shuffled from a seed")];
    section(
        "dealing",
        "Market display",
        &format!("{}, and a queue of {QUEUE} customers.", capitalized(&stall_rule(players))),
        vec![field("display", "The customers", options, Some("drawn"))],
        None,
    )
}

/// One slot per stall and queue place, each offering the 24 customer tiles by their ids (the
/// components declare no other name, H.40).
fn display(players: usize) -> FormSection {
    let customers: Vec<FormOption> = Customer::all().map(|c| FormOption::new(c.id(), c.id())).collect();
    let stalls =
        (1..=stalls_for(players)).map(|i| field(&format!("stall_{i}"), &format!("Stall {i}"), customers.clone(), None));
    let queue = (1..=QUEUE).map(|i| field(&format!("queue_{i}"), &format!("Queue {i}"), customers.clone(), None));
    section(
        "display",
        "Customers, as laid out",
        "Stall 1 first (the first available customer of the solo rules), then the queue from its head. Each tile's wants and points come from the component data.",
        stalls.chain(queue).collect(),
        Some(("display", "drawn")),
    )
}

/// A seed for a game Chronicle shuffles.
fn seed() -> FormSection {
    section(
        "seed",
        "Seed",
        "A whole number from 0 to 2^53 − 1: Chronicle derives the display and every random event of the game from it (the cubes drawn each round, the refills, the draws at mass).",
        vec![field("seed", "Seed", Vec::new(), None)],
        Some(("display", "seed")),
    )
}

/// The form for `players` seats (`None` outside 1–5).
pub fn setup_form(players: u8) -> Option<SetupForm> {
    let n = usize::from(players);
    if !(1..=MAX_PLAYERS).contains(&n) {
        return None;
    }
    let mut sections = vec![seats(n)];
    if n == 1 {
        sections.push(solo());
    }
    if n >= 3 {
        sections.push(start_cubes(n));
    }
    sections.extend([components_section(), dealing(n), display(n), seed()]);
    Some(SetupForm { players, sections })
}

/// The names in seat order, or the problem with their number.
fn names(filled: &FilledSetup, problems: &mut Vec<String>) -> Vec<String> {
    let names: Vec<String> = filled.names.iter().map(|n| n.trim().to_owned()).filter(|n| !n.is_empty()).collect();
    if names.is_empty() || names.len() > MAX_PLAYERS {
        problems.push(format!("{} players are named; Village takes 1 to {MAX_PLAYERS}.", names.len()));
    }
    names
}

/// A colour chosen in field `id`, or the problem with it.
fn colour(filled: &FilledSetup, id: &str, whose: &str, problems: &mut Vec<String>) -> Option<Color> {
    match filled.value(id) {
        None => {
            problems.push(format!("Choose {whose} colour."));
            None
        }
        Some(v) => Color::from_id(v).or_else(|| {
            problems.push(format!("\"{v}\" is no colour ({whose}): red, yellow, blue, white or purple."));
            None
        }),
    }
}

/// The seats' colours, each once (A.1, G.1.2), or the problems.
fn colours(filled: &FilledSetup, names: &[String], problems: &mut Vec<String>) -> Vec<Option<Color>> {
    let colours: Vec<Option<Color>> = names
        .iter()
        .enumerate()
        .map(|(i, n)| colour(filled, &format!("color_{}", i + 1), &format!("{n}'s"), problems))
        .collect();
    for (i, c) in colours.iter().enumerate() {
        let Some(c) = c else { continue };
        if let Some(j) = colours[..i].iter().position(|x| x == &Some(*c)) {
            problems.push(format!("{} and {} both play {c}; each colour is played once.", names[j], names[i]));
        }
    }
    colours
}

/// An influence cube chosen in field `id`, or the problem with it; `None` when empty.
fn cube(filled: &FilledSetup, id: &str, whose: &str, problems: &mut Vec<String>) -> Option<Cube> {
    let v = filled.value(id)?;
    let found = Cube::from_id(v).filter(|c| c.is_influence());
    if found.is_none() {
        problems.push(format!("\"{v}\" is no influence colour ({whose}): orange, green, brown or pink."));
    }
    found
}

/// The `players` of the setup, with the start cubes compensation needs (B.3): seat 3's drawn
/// cube (derived by the seed when there is one), seat 4's chosen one.
fn players(filled: &FilledSetup, names: &[String], seeded: bool, problems: &mut Vec<String>) -> (Vec<Value>, bool) {
    let colours = colours(filled, names, problems);
    let compensation = names.len() > 1 && filled.value("compensation") != Some("off");
    if let Some(v) = filled.value("compensation").filter(|v| !["on", "off"].contains(v)) {
        problems.push(format!("Compensation is on or off, not \"{v}\"."));
    }
    let seats = names
        .iter()
        .zip(&colours)
        .enumerate()
        .map(|(i, (name, c))| {
            let mut seat = json!({ "name": name, "color": c.map_or("", Color::id) });
            let needed = compensation && (i == 2 || i == 3);
            let whose = format!("{name}'s compensation cube");
            match (needed, cube(filled, &format!("start_cube_{}", i + 1), &whose, problems)) {
                (true, Some(_)) if i == 2 && seeded => problems
                    .push(format!("With a seed, Chronicle draws {name}'s compensation cube: leave it empty (seat 3).")),
                (true, Some(c)) => seat["start_cube"] = json!(c),
                (true, None) if i == 3 || !seeded => {
                    problems.push(format!("Choose {name}'s compensation cube (seat {}).", i + 1))
                }
                _ => {}
            }
            seat
        })
        .collect();
    (seats, compensation)
}

/// The component data chosen: the shipped table's name, or an uploaded file's object; with it,
/// the data validated (to name customers in problems), or the problem.
fn components_of(filled: &FilledSetup, problems: &mut Vec<String>) -> (Value, Option<Components>) {
    let value = filled.value("components").unwrap_or(SYNTHETIC);
    if value == SYNTHETIC {
        return (json!(SYNTHETIC), Some(components::synthetic()));
    }
    if !value.starts_with('{') {
        problems.push(format!("\"{value}\" is no component data Chronicle ships; choose it or upload a file."));
        return (Value::Null, None);
    }
    let read = serde_json::from_str::<Value>(value)
        .map_err(|e| format!("The components file is not JSON: {e}."))
        .and_then(|object| {
            let inline = <InlineComponents as serde::Deserialize>::deserialize(&object)
                .map_err(|e| format!("The components file does not follow LOG-FORMAT 'Components': {e}."))?;
            let checked = components::validate(&ComponentsNotation::Inline(Box::new(inline)))
                .map_err(|e| format!("The components file: {}.", e.message.trim_start_matches("setup.components: ")))?;
            Ok((object, checked))
        });
    match read {
        Ok((object, checked)) => (object, Some(checked)),
        Err(problem) => {
            problems.push(problem);
            (Value::Null, None)
        }
    }
}

/// The customers in fields `prefix_1` …, in order, with the count of slots filled (including
/// slots beyond `slots`, so that a display laid out for more players is noticed).
fn laid_out(filled: &FilledSetup, prefix: &str, slots: usize, problems: &mut Vec<String>) -> (Vec<Customer>, usize) {
    let mut customers = Vec::new();
    let mut count = 0;
    for i in 1..=SPACES {
        let Some(v) = filled.value(&format!("{prefix}_{i}")) else { continue };
        count += 1;
        match Customer::from_id(v) {
            Some(c) if i <= slots => customers.push(c),
            Some(_) => {}
            None => problems.push(format!("\"{v}\" is no customer tile: the tiles are c01 to c24.")),
        }
    }
    (customers, count)
}

/// The display as laid out (B.1, A.9, G.1.3): the stall count of the player count, a queue of
/// 5, each customer once, each named as the chosen components name it.
fn display_of(filled: &FilledSetup, players: usize, data: Option<&Components>, problems: &mut Vec<String>) -> Value {
    let k = stalls_for(players);
    let (stalls, filled_stalls) = laid_out(filled, "stall", k, problems);
    let (queue, filled_queue) = laid_out(filled, "queue", QUEUE, problems);
    if filled_stalls != k {
        problems.push(format!("{filled_stalls} stalls are filled; {}.", stall_rule(players)));
    }
    if filled_queue != QUEUE {
        problems.push(format!("{filled_queue} queue places are filled; the queue always holds {QUEUE} customers."));
    }
    let places: Vec<(String, Customer)> = (stalls.iter().enumerate().map(|(i, &c)| (format!("stall {}", i + 1), c)))
        .chain(queue.iter().enumerate().map(|(i, &c)| (format!("queue place {}", i + 1), c)))
        .collect();
    for (i, (place, c)) in places.iter().enumerate() {
        if let Some((first, _)) = places[..i].iter().find(|(_, x)| x == c) {
            let named = data.map_or_else(|| crate::names::customer_name(*c), |d| customer_phrase(d, *c));
            problems.push(format!("{} is laid out twice, in {first} and {place}.", capitalized(&named)));
        }
    }
    json!({ "stalls": stalls, "queue": queue })
}

/// A seed typed in (0 to 2^53 − 1, LOG-FORMAT "Setup"), or the problem.
fn seed_of(filled: &FilledSetup, problems: &mut Vec<String>) -> Option<u64> {
    match filled.value("seed").map(str::parse::<u64>) {
        Some(Ok(seed)) if seed <= MAX_SEED => Some(seed),
        _ => {
            problems.push("The seed is a whole number from 0 to 2^53 − 1.".to_owned());
            None
        }
    }
}

/// Carla's colour and rule (F.1, F.2): a colour other than the player's.
fn solo_of(filled: &FilledSetup, name: &str, player: Option<Color>, problems: &mut Vec<String>) -> Value {
    let carla = colour(filled, "carla_color", "Carla's", problems);
    if carla.is_some() && carla == player {
        problems.push(format!("Carla plays a colour other than {name}'s; both are {}.", carla.map_or("", Color::id)));
    }
    let rule = filled.value("carla_rule").unwrap_or("track");
    if !["track", "die"].contains(&rule) {
        problems.push(format!("Carla's rule is her track or the die rule, not \"{rule}\"."));
    }
    json!({ "carla_color": carla.map_or("", Color::id), "carla_rule": rule })
}

/// The `setup` of a filled form (LOG-FORMAT "Setup"), or every problem at once.
pub fn setup_from_form(filled: &FilledSetup) -> Result<Value, Vec<String>> {
    let mut problems = Vec::new();
    let names = names(filled, &mut problems);
    let n = names.len();
    let seeded = filled.value("display") == Some("seed");
    let (seats, compensation) = players(filled, &names, seeded, &mut problems);
    let (components, data) = components_of(filled, &mut problems);
    let mut setup = Map::new();
    setup.insert("players".to_owned(), Value::Array(seats.clone()));
    if n > 1 {
        setup.insert("compensation".to_owned(), json!(compensation));
    }
    if seeded {
        if let Some(seed) = seed_of(filled, &mut problems) {
            setup.insert("seed".to_owned(), json!(seed));
        }
    } else if (1..=MAX_PLAYERS).contains(&n) {
        setup.insert("customers".to_owned(), display_of(filled, n, data.as_ref(), &mut problems));
    }
    setup.insert("components".to_owned(), components);
    if n == 1 {
        let player = Color::from_id(seats[0]["color"].as_str().unwrap_or(""));
        setup.insert("solo".to_owned(), solo_of(filled, &names[0], player, &mut problems));
    }
    let setup = Value::Object(setup);
    // The form's checks are the rules' own; the setup is still read as a log's would be.
    chronicle_game::setup_form::answer(setup, problems, |setup| {
        let read = serde_json::from_value::<SetupNotation>(setup.clone()).map_err(|e| e.to_string());
        read.and_then(|n| crate::setup::validate(&n).map(|_| ()).map_err(|e| e.message))
    })
}

#[cfg(test)]
mod tests {
    use chronicle_game::{GameEngine, Status};

    use super::*;
    use crate::Village;

    fn filled(names: &[&str], values: &[(&str, &str)]) -> FilledSetup {
        FilledSetup::new(names, values)
    }

    const NAMES: [&str; 5] = ["Ana", "Bo", "Cy", "Di", "Ed"];

    /// A form of `players` seats filled as the table laid it out: each field's default, the
    /// compensation cubes, and (drawn) customers c01 … in order, or (seeded) a seed.
    fn table_form(players: usize, seeded: bool) -> FilledSetup {
        let form = setup_form(u8::try_from(players).expect("a count")).expect("a form");
        let mut values: Vec<(String, String)> = form
            .sections
            .iter()
            .flat_map(|s| &s.fields)
            .filter_map(|f| Some((f.id.clone(), f.default.clone()?)))
            .collect();
        if !seeded {
            values.push(("start_cube_3".into(), "pink".into()));
        }
        values.push(("start_cube_4".into(), "green".into()));
        if seeded {
            values.extend([("display".into(), "seed".into()), ("seed".into(), "42".into())]);
        } else {
            let slots = form.sections.iter().find(|s| s.id == "display").expect("the display").fields.iter();
            values.extend(slots.zip(Customer::all()).map(|(f, c)| (f.id.clone(), c.id())));
        }
        FilledSetup {
            names: NAMES[..players].iter().map(|n| (*n).to_owned()).collect(),
            values: values.into_iter().collect(),
        }
    }

    /// The setup a form makes replays: a log of it with no entries is valid (waiting for its
    /// first entry), through the crate's `GameEngine`.
    fn replays(setup: Value, what: &str) {
        let log = json!({ "format": "village-log/1", "setup": setup, "entries": [] });
        let verdict = Village::verdict(&Village::replay(&serde_json::to_vec(&log).expect("json")));
        assert_eq!(verdict.status, Status::Incomplete, "{what}: {:?}", verdict.error);
    }

    /// B.1, F.1: the form for 1 to 5 players, laid out as at the table or seeded, makes a setup
    /// that replays, with the stall count of B.1; no form outside 1–5.
    #[test]
    fn b1_a_filled_form_makes_a_setup_that_replays_for_1_3_and_5_players() {
        for players in [1, 3, 5] {
            for seeded in [false, true] {
                let what = format!("{players} players, seeded: {seeded}");
                let setup = setup_from_form(&table_form(players, seeded)).unwrap_or_else(|p| panic!("{what}: {p:?}"));
                if !seeded {
                    let stalls = setup["customers"]["stalls"].as_array().map_or(0, Vec::len);
                    assert_eq!(stalls, stalls_for(players), "{what}");
                }
                assert_eq!(setup["solo"].is_object(), players == 1, "{what}");
                replays(setup, &what);
            }
        }
        assert!(setup_form(0).is_none() && setup_form(6).is_none());
    }

    /// B.2, B.3, F.1, A.11: the form's sections — colours, compensation cubes shown while
    /// compensation is on, Carla's section shown for the solo game, the components with the
    /// synthetic table labelled and an upload, the display shown when drawn, the seed when
    /// seeded.
    #[test]
    fn b3_the_form_shows_each_section_when_it_applies() {
        let form = setup_form(4).expect("4 players");
        let ids: Vec<&str> = form.sections.iter().map(|s| s.id.as_str()).collect();
        assert_eq!(ids, ["seats", "start_cubes", "components", "dealing", "display", "seed"]);
        let get = |id: &str| form.sections.iter().find(|s| s.id == id).expect("a section");
        assert_eq!(get("start_cubes").shown_when, Some(("compensation".to_owned(), "on".to_owned())));
        assert_eq!(get("display").shown_when, Some(("display".to_owned(), "drawn".to_owned())));
        assert_eq!(get("display").fields.len(), 5 + 5, "4 players: 5 stalls and a queue of 5");
        assert_eq!(get("seed").shown_when, Some(("display".to_owned(), "seed".to_owned())));
        let components = &get("components").fields[0];
        assert_eq!(components.options, vec![FormOption::new(SYNTHETIC, "synthetic test data, not the printed game")]);
        assert_eq!(components.upload.as_deref(), Some(UPLOAD));
        assert!(setup_form(3).expect("3").sections.iter().any(|s| s.hint.contains("3 players lay out 4 stalls")));
        let solo = setup_form(1).expect("solo");
        let carla = solo.sections.iter().find(|s| s.id == "solo").expect("Carla's section");
        assert_eq!(carla.shown_when, Some(("mode".to_owned(), "solo".to_owned())));
        assert!(solo.sections.iter().all(|s| s.id != "start_cubes"));
    }

    /// A.11: an uploaded components file is inlined as the setup's `components` object; a file
    /// that is not component data is a problem said in words.
    #[test]
    fn a11_an_uploaded_components_file_is_inlined() {
        let mut form = table_form(3, false);
        form.values.insert("components".into(), crate::components::SYNTHETIC_JSON.to_owned());
        let setup = setup_from_form(&form).expect("a setup");
        assert!(setup["components"].is_object() && setup["components"]["customers"]["c04"].is_object());
        replays(setup, "uploaded");
        form.values.insert("components".into(), r#"{"life_track": 0}"#.to_owned());
        let problems = setup_from_form(&form).expect_err("a bad file");
        assert_eq!(problems, ["The components file: `life_track` must be at least 1."]);
    }

    /// G.1.2, G.1.3, B.1: every problem of a form is said at once, naming players and
    /// customers: two seats with one colour, a customer laid out twice, the stall count of the
    /// player count, a missing compensation cube.
    #[test]
    fn g1_every_problem_of_a_form_is_said_at_once() {
        let problems = setup_from_form(&filled(
            &["Ana", "Bo", "Cy"],
            &[
                ("color_1", "red"),
                ("color_2", "red"),
                ("color_3", "white"),
                ("stall_1", "c04"),
                ("stall_2", "c09"),
                ("stall_3", "c15"),
                ("stall_4", "c21"),
                ("stall_5", "c22"),
                ("queue_1", "c04"),
                ("queue_2", "c12"),
                ("queue_3", "c18"),
                ("queue_4", "c20"),
                ("queue_5", "c23"),
            ],
        ))
        .expect_err("several problems");
        let expected = [
            "Ana and Bo both play red; each colour is played once.",
            "Choose Cy's compensation cube (seat 3).",
            "5 stalls are filled; 3 players lay out 4 stalls.",
            "Customer c04 (a horse, 3 points) is laid out twice, in stall 1 and queue place 1.",
        ];
        assert_eq!(problems, expected);
        let solo =
            setup_from_form(&filled(&["Ana"], &[("color_1", "red"), ("carla_color", "red"), ("display", "seed")]))
                .expect_err("solo problems");
        assert_eq!(
            solo,
            ["The seed is a whole number from 0 to 2^53 − 1.", "Carla plays a colour other than Ana's; both are red."]
        );
        assert!(setup_from_form(&filled(&[], &[])).is_err());
    }
}
