//! The recorder's setup form (`GameEngine::setup_form`) and the log's `setup` a filled form
//! makes (`GameEngine::setup_from_form`, `docs/log-format-above-and-below.md` "Setup").
//!
//! An Above and Below log declares its own card data (`docs/rules/above-and-below.md` B.1):
//! the form asks for the catalogue — the synthetic set the engine ships (labelled as synthetic
//! test data, not the printed game) or an uploaded catalogue file — and the board numbers —
//! the built-in `standard` profile (incomplete until read from the printed board, A.8), the
//! synthetic numbers, or an uploaded board file. Then how the cards were dealt (C.5–C.7): as
//! dealt at the table, each face-up card picked by name, or shuffled by Chronicle from a seed.
//!
//! The form is the same whatever catalogue is chosen (the page draws it before any upload), so
//! the cards it lists by name are the shipped catalogue's. An uploaded catalogue's cards are
//! named by their ids: the same choices work when its ids are those of the shipped set
//! (`house_05` …), and otherwise the face-up rows are uploaded as one small file of ids.
//!
//! A filled form is checked whole: every problem is said at once, in the players' words,
//! before the setup is validated as a log's would be.

use chronicle_game::setup_form::{FilledSetup, FormField, FormOption, FormSection, SetupForm};
use serde_json::{json, Map, Value};

use crate::board::Board;
use crate::catalogue::Catalogue;
use crate::names;
use crate::notation::{CardKind, CatalogueNotation, SetupNotation, VillagerKind};
use crate::synthetic::{self, LABEL};

/// The value naming the shipped synthetic set, for the catalogue and for the board.
const SYNTHETIC: &str = "synthetic";
/// The value of the picks made one by one on the form (the rows-file field's default).
const PICKED: &str = "picked";

/// What a face-up slot holds (C.5–C.6): a card of one kind, or a regular villager.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Holds {
    Card(CardKind),
    Villager,
}

/// One group of face-up slots: its key in the log's `setup`, its fields' id prefix, the label
/// of one slot, how many slots, and what they hold.
struct Group {
    key: &'static str,
    field: &'static str,
    label: &'static str,
    slots: usize,
    holds: Holds,
}

/// The face-up rows of the setup (C.5–C.6), in the order the log writes them.
const GROUPS: [Group; 5] = [
    Group { key: "key_houses", field: "key_house", label: "Key house", slots: 4, holds: Holds::Card(CardKind::Key) },
    Group {
        key: "star_houses",
        field: "star_house",
        label: "Star house",
        slots: 6,
        holds: Holds::Card(CardKind::Star),
    },
    Group { key: "house_row", field: "house", label: "House row, slot", slots: 4, holds: Holds::Card(CardKind::Basic) },
    Group {
        key: "outpost_row",
        field: "outpost",
        label: "Outpost row, slot",
        slots: 4,
        holds: Holds::Card(CardKind::Outpost),
    },
    Group { key: "villager_row", field: "villager", label: "Villager row, slot", slots: 5, holds: Holds::Villager },
];

impl Group {
    /// The field id of slot `i` (counted from 0), numbered from 1 as players count slots.
    fn field_id(&self, i: usize) -> String {
        format!("{}_{}", self.field, i + 1)
    }

    fn slot_label(&self, i: usize) -> String {
        format!("{} {}", self.label, i + 1)
    }

    /// What one card of the group is called ("key house", "regular villager").
    fn what(&self) -> &'static str {
        match self.holds {
            Holds::Card(kind) => names::card_kind(kind),
            Holds::Villager => "regular villager",
        }
    }

    /// C.5: the star houses may be left out when the catalogue lists exactly 6 (LOG-FORMAT).
    fn optional(&self) -> bool {
        self.holds == Holds::Card(CardKind::Star)
    }
}

/// The shipped synthetic catalogue, validated (it always is: a test keeps it so).
fn shipped() -> Option<Catalogue> {
    let (catalogue, _) = synthetic::components().ok()?;
    Catalogue::from_notation(serde_json::from_value(catalogue).ok()?).ok()
}

fn field(id: &str, label: &str, options: Vec<FormOption>, default: Option<&str>, upload: Option<&str>) -> FormField {
    FormField {
        id: id.to_owned(),
        label: label.to_owned(),
        options,
        default: default.map(str::to_owned),
        upload: upload.map(str::to_owned),
    }
}

/// The catalogue and the board numbers: the shipped synthetic set, labelled as such, the
/// built-in standard board, or files the players upload.
fn components() -> FormSection {
    FormSection {
        id: "components".to_owned(),
        title: "Cards and board numbers".to_owned(),
        hint: format!(
            "Chronicle ships no catalogue of the printed cards, whose texts it does not have: choose the synthetic cards ({LABEL}) or upload a catalogue entered from your cards. The standard board lacks the numbers not yet read from the printed board: choose the synthetic numbers ({LABEL}) or upload a board file."
        ),
        fields: vec![
            field(
                "catalogue",
                "Cards",
                vec![FormOption::new(SYNTHETIC, format!("synthetic cards ({LABEL})"))],
                Some(SYNTHETIC),
                Some("a catalogue file as LOG-FORMAT 'Catalogue object' describes"),
            ),
            field(
                "board",
                "Board numbers",
                vec![
                    FormOption::new("standard", "standard (built in, incomplete until read from the printed board)"),
                    FormOption::new(SYNTHETIC, format!("synthetic board numbers ({LABEL})")),
                ],
                Some(SYNTHETIC),
                Some("a board file as LOG-FORMAT 'Board object' describes"),
            ),
        ],
        shown_when: None,
    }
}

/// How the cards were dealt (C.7): as dealt at the table, or shuffled from a seed.
fn dealing() -> FormSection {
    FormSection {
        id: "dealing".to_owned(),
        title: "Dealing".to_owned(),
        hint: "As dealt at the table: enter the cards you turned face up. Shuffled from a seed: Chronicle deals the cards, the dice and every draw from the seed (the same seed always deals the same game); it needs a catalogue listing every card.".to_owned(),
        fields: vec![field(
            "random",
            "Cards and dice",
            vec![FormOption::new("explicit", "as dealt at the table"), FormOption::new("seeded", "shuffled from a seed")],
            Some("explicit"),
            None,
        )],
        shown_when: None,
    }
}

/// The choices of one slot: the shipped catalogue's cards of its kind, by name with their
/// cost and declared effects.
fn slot_options(catalogue: &Catalogue, holds: Holds) -> Vec<FormOption> {
    match holds {
        Holds::Card(kind) => catalogue
            .cards
            .values()
            .filter(|c| c.kind == kind)
            .map(|c| FormOption::new(c.id.clone(), format!("{} — {}", names::name(&c.id), names::card_text(c))))
            .collect(),
        Holds::Villager => catalogue
            .villagers
            .values()
            .filter(|v| v.kind == VillagerKind::Regular)
            .map(|v| FormOption::new(v.id.clone(), format!("{} — {}", names::name(&v.id), names::villager_text(v))))
            .collect(),
    }
}

/// The cards face up as dealt at the table (C.5–C.6): one field per slot, and a file of all
/// the rows for an uploaded catalogue whose cards the page cannot list.
fn cards_dealt() -> FormSection {
    let catalogue = shipped().unwrap_or_default();
    let mut fields: Vec<FormField> = GROUPS
        .iter()
        .flat_map(|g| {
            let options = slot_options(&catalogue, g.holds);
            (0..g.slots).map(move |i| field(&g.field_id(i), &g.slot_label(i), options.clone(), None, None))
        })
        .collect();
    fields.push(field(
        "rows_file",
        "Or every row at once",
        vec![FormOption::new(PICKED, "as picked above")],
        Some(PICKED),
        Some("a file of the face-up cards: a JSON object with key_houses, star_houses (may be left out), house_row, outpost_row and villager_row, each a list of your catalogue's ids in slot order"),
    ));
    FormSection {
        id: "cards_dealt".to_owned(),
        title: "Cards face up, as dealt".to_owned(),
        hint: format!(
            "Pick each card face up, slots counted from the left. The choices are the shipped synthetic cards ({LABEL}). With an uploaded catalogue the page cannot list its cards: pick the choice with the same id as your card (House 05 is house_05), or upload every row at once as a file of your catalogue's ids. The star houses may be left empty when the catalogue lists exactly 6."
        ),
        fields,
        shown_when: Some(("random".to_owned(), "explicit".to_owned())),
    }
}

/// A seed for a game Chronicle shuffles.
fn seed() -> FormSection {
    FormSection {
        id: "seed".to_owned(),
        title: "Seed".to_owned(),
        hint: "A whole number: the same seed always deals the same cards and rolls the same dice.".to_owned(),
        fields: vec![field("seed", "Seed", Vec::new(), None, None)],
        shown_when: Some(("random".to_owned(), "seeded".to_owned())),
    }
}

/// The form for `players` seats (`None` outside the 2 to 4 of C.1).
pub fn setup_form(players: u8) -> Option<SetupForm> {
    if !(2..=4).contains(&players) {
        return None;
    }
    Some(SetupForm { players, sections: vec![components(), dealing(), cards_dealt(), seed()] })
}

/// The players' names in seat order, or the problem with them (C.1).
fn player_names(filled: &FilledSetup, problems: &mut Vec<String>) -> Vec<String> {
    let named: Vec<String> = filled.names.iter().map(|n| n.trim().to_owned()).filter(|n| !n.is_empty()).collect();
    if !(2..=4).contains(&named.len()) {
        let n = names::count(i64::try_from(named.len()).unwrap_or(i64::MAX), "player is", "players are");
        problems.push(format!("{n} named; Above and Below takes 2 to 4."));
    }
    named
}

/// An uploaded file's text as a JSON object, or the problem with it, said for `what`.
fn uploaded_object(text: &str, what: &str, problems: &mut Vec<String>) -> Option<Map<String, Value>> {
    match serde_json::from_str::<Value>(text) {
        Ok(Value::Object(o)) => Some(o),
        Ok(_) => {
            problems.push(format!("The {what} file holds no JSON object."));
            None
        }
        Err(e) => {
            problems.push(format!("The {what} file is not JSON: {e}."));
            None
        }
    }
}

/// The catalogue chosen: its value for the log (the object, inlined) and its validated form;
/// or the problem with it (B.2–B.7).
fn catalogue(filled: &FilledSetup, problems: &mut Vec<String>) -> Option<(Value, Catalogue)> {
    let value = match filled.value("catalogue").unwrap_or(SYNTHETIC) {
        SYNTHETIC => synthetic::components().ok()?.0,
        text if text.starts_with('{') => Value::Object(uploaded_object(text, "catalogue", problems)?),
        other => {
            problems.push(format!(
                "The catalogue {other} is not shipped: choose the synthetic cards or upload a catalogue file."
            ));
            return None;
        }
    };
    let read = serde_json::from_value::<CatalogueNotation>(value.clone())
        .map_err(|e| format!("The catalogue file is not a catalogue as LOG-FORMAT describes it: {e}."))
        .and_then(|n| Catalogue::from_notation(n).map_err(|e| format!("The catalogue file: {}.", e.message)));
    match read {
        Ok(c) => Some((value, c)),
        Err(why) => {
            problems.push(why);
            None
        }
    }
}

/// The board numbers chosen: `"standard"`, the synthetic object or an uploaded one, checked
/// as a log's would be (A.8); or the problem with them.
fn board(filled: &FilledSetup, problems: &mut Vec<String>) -> Option<Value> {
    let value = match filled.value("board").unwrap_or(SYNTHETIC) {
        SYNTHETIC => synthetic::components().ok()?.1,
        "standard" => Value::from("standard"),
        text if text.starts_with('{') => Value::Object(uploaded_object(text, "board", problems)?),
        other => {
            problems.push(format!(
                "The board {other} is not known: choose standard or the synthetic numbers, or upload a board file."
            ));
            return None;
        }
    };
    match Board::from_setup(Some(&value)) {
        Ok(_) => Some(value),
        Err(_) if value == "standard" => {
            problems.push("The standard board lacks numbers not yet read from the printed board (the storage track, the reputation track and the training costs): choose the synthetic numbers or upload a board file that gives them.".to_owned());
            None
        }
        Err(e) => {
            problems.push(format!("The board file: {}.", e.message));
            None
        }
    }
}

/// The ids picked for one group's slots, `None` for a slot left empty.
fn picked(filled: &FilledSetup, g: &Group) -> Vec<Option<String>> {
    (0..g.slots).map(|i| filled.value(&g.field_id(i)).map(str::to_owned)).collect()
}

/// The ids of one group in an uploaded rows file, `None` when the file leaves the group out.
fn from_file(rows: &Map<String, Value>, g: &Group, problems: &mut Vec<String>) -> Option<Vec<Option<String>>> {
    let list = rows.get(g.key)?;
    let ids: Option<Vec<Option<String>>> =
        list.as_array().and_then(|l| l.iter().map(|v| v.as_str().map(|s| Some(s.to_owned()))).collect());
    if ids.is_none() {
        problems.push(format!("The rows file: {} is not a list of ids.", g.key));
    }
    ids
}

/// The problems of one slot's card in the chosen catalogue: not declared, or of another kind.
fn slot_problem(catalogue: &Catalogue, g: &Group, label: &str, id: &str) -> Option<String> {
    let kind = match g.holds {
        Holds::Card(want) => catalogue.cards.get(id).map(|c| (c.kind == want, names::card_kind(c.kind))),
        Holds::Villager => catalogue.villagers.get(id).map(|v| {
            let what = match v.kind {
                VillagerKind::Starting => "starting villager",
                VillagerKind::Regular => "regular villager",
                VillagerKind::Special => "special villager",
            };
            (v.kind == VillagerKind::Regular, what)
        }),
    };
    match kind {
        None => Some(format!("{label}: {id} is not in the chosen catalogue.")),
        Some((false, what)) => Some(format!("{label}: {} is a {what}, not a {}.", names::name(id), g.what())),
        Some((true, _)) => None,
    }
}

/// One group's ids, checked slot by slot: each chosen (the star houses may all be left out
/// when the catalogue lists exactly 6), each of the right kind in the catalogue, none twice.
fn group_ids(
    g: &Group,
    ids: Vec<Option<String>>,
    catalogue: Option<&Catalogue>,
    problems: &mut Vec<String>,
) -> Option<Vec<String>> {
    if g.optional() && ids.iter().all(Option::is_none) {
        let stars = catalogue.map(|c| c.card_ids(CardKind::Star).len());
        if let Some(n) = stars.filter(|n| *n != g.slots) {
            problems.push(format!("Star houses: choose the 6 face up; the catalogue lists {n}."));
        }
        return None;
    }
    if ids.len() != g.slots {
        problems.push(format!("The rows file gives {} for {}, not {}.", ids.len(), g.key, g.slots));
    }
    let mut chosen: Vec<(String, String)> = Vec::new();
    for (i, id) in ids.iter().enumerate() {
        let label = g.slot_label(i);
        let Some(id) = id else {
            problems.push(format!("{label}: choose the {} face up.", g.what()));
            continue;
        };
        if let Some(problem) = catalogue.and_then(|c| slot_problem(c, g, &label, id)) {
            problems.push(problem);
        }
        match chosen.iter().find(|(other, _)| other == id) {
            Some((_, first)) => problems.push(format!("{} is chosen for {first} and {label}.", names::name(id))),
            None => chosen.push((id.clone(), label)),
        }
    }
    Some(chosen.into_iter().map(|(id, _)| id).collect())
}

/// The face-up rows as dealt at the table, into `setup`: picked slot by slot, or from an
/// uploaded rows file.
fn rows(filled: &FilledSetup, catalogue: Option<&Catalogue>, setup: &mut Value, problems: &mut Vec<String>) {
    let file = match filled.value("rows_file").unwrap_or(PICKED) {
        PICKED => None,
        text => uploaded_object(text, "rows", problems),
    };
    if let Some(f) = &file {
        let known: Vec<&str> = GROUPS.iter().map(|g| g.key).collect();
        for key in f.keys().filter(|k| !known.contains(&k.as_str())) {
            problems.push(format!("The rows file has {key}, which is no face-up row."));
        }
    }
    for g in &GROUPS {
        let ids = match &file {
            Some(f) => from_file(f, g, problems).unwrap_or_else(|| vec![None; g.slots]),
            None => picked(filled, g),
        };
        if let Some(ids) = group_ids(g, ids, catalogue, problems) {
            setup[g.key] = json!(ids);
        }
    }
}

/// The seed typed, or the problem with it.
fn seed_value(filled: &FilledSetup, problems: &mut Vec<String>) -> Option<u64> {
    let seed = filled.value("seed").and_then(|s| s.parse::<u64>().ok());
    if seed.is_none() {
        problems.push(format!("The seed is a whole number from 0 to {}.", u64::MAX));
    }
    seed
}

/// The `setup` of a filled form, or every problem at once.
pub fn setup_from_form(filled: &FilledSetup) -> Result<Value, Vec<String>> {
    let mut problems = Vec::new();
    let names = player_names(filled, &mut problems);
    let catalogue = catalogue(filled, &mut problems);
    let board = board(filled, &mut problems);
    let mut setup = json!({
        "players": names.iter().map(|n| json!({ "name": n })).collect::<Vec<_>>(),
        "catalogue": catalogue.as_ref().map_or(Value::Null, |(v, _)| v.clone()),
        "board": board.unwrap_or(Value::Null),
    });
    match filled.value("random").unwrap_or("explicit") {
        "seeded" => {
            setup["random"] = json!("seeded");
            if let Some(seed) = seed_value(filled, &mut problems) {
                setup["seed"] = json!(seed);
            }
        }
        "explicit" => {
            setup["random"] = json!("explicit");
            rows(filled, catalogue.as_ref().map(|(_, c)| c), &mut setup, &mut problems);
        }
        other => problems.push(format!("{other} is no way of dealing: choose as dealt at the table or a seed.")),
    }
    // The form's checks are the rules' own; the setup is still read as a log's would be.
    chronicle_game::setup_form::answer(setup, problems, |setup| {
        let read = serde_json::from_value::<SetupNotation>(setup.clone()).map_err(|e| e.to_string());
        read.and_then(|n| crate::setup::validate(&n).map(|_| ()).map_err(|e| e.message))
            .map_err(|e| format!("The setup does not replay: {e}."))
    })
}

#[cfg(test)]
mod tests {
    use chronicle_game::{GameEngine, Status};

    use super::*;
    use crate::AboveAndBelow;

    fn filled(names: &[&str], values: &[(&str, String)]) -> FilledSetup {
        FilledSetup {
            names: names.iter().map(|n| (*n).to_owned()).collect(),
            values: values.iter().map(|(k, v)| ((*k).to_owned(), v.clone())).collect(),
        }
    }

    /// The slots of a form filled with `rows`, one value per slot, in [`GROUPS`] order.
    fn slot_values(rows: [&[&str]; 5]) -> Vec<(&'static str, String)> {
        let mut values = Vec::new();
        for (g, ids) in GROUPS.iter().zip(rows) {
            for (i, id) in ids.iter().enumerate() {
                values.push((leak(g.field_id(i)), (*id).to_owned()));
            }
        }
        values
    }

    fn leak(s: String) -> &'static str {
        Box::leak(s.into_boxed_str())
    }

    const DEALT: [&[&str]; 5] = [
        &["key_01", "key_05", "key_07", "key_09"],
        &[],
        &["house_03", "house_11", "house_20", "house_25"],
        &["outpost_02", "outpost_08", "outpost_14", "outpost_19"],
        &["villager_04", "villager_09", "villager_11", "villager_15", "villager_17"],
    ];

    /// The log of a setup with no entries, replayed through the engine: its verdict.
    fn verdict_of(setup: &Value) -> chronicle_game::Verdict {
        let log = json!({ "format": "above-and-below-log/1", "setup": setup, "entries": [] });
        AboveAndBelow::verdict(&AboveAndBelow::replay(log.to_string().as_bytes()))
    }

    /// C.1: a form for 2 to 4 players only; the catalogue and board fields take uploads and
    /// label the synthetic set as such; C.5: each slot offers the shipped cards of its kind by
    /// name with their cost and effects, shown only when dealt at the table.
    #[test]
    fn c5_the_form_offers_each_slot_the_shipped_cards_of_its_kind() {
        assert!(setup_form(1).is_none() && setup_form(5).is_none());
        for players in 2..=4 {
            let form = setup_form(players).expect("a form");
            let fields: Vec<&FormField> = form.sections.iter().flat_map(|s| &s.fields).collect();
            let by_id = |id: &str| fields.iter().find(|f| f.id == id).copied().expect(id);
            for id in ["catalogue", "board"] {
                let f = by_id(id);
                assert!(f.upload.is_some(), "{id}");
                assert!(f.options.iter().any(|o| o.value == SYNTHETIC && o.label.contains(LABEL)), "{id}");
            }
            assert!(by_id("catalogue").upload.as_deref().is_some_and(|u| u.contains("Catalogue object")));
            let keys = &by_id("key_house_1").options;
            assert_eq!(keys.len(), 9);
            assert!(keys
                .iter()
                .all(|o| o.value.starts_with("key_") && o.label.starts_with("Key ") && o.label.contains("coins")));
            assert_eq!(by_id("villager_5").options.len(), 18);
            let dealt = form.sections.iter().find(|s| s.id == "cards_dealt").expect("dealt");
            assert_eq!(dealt.shown_when, Some(("random".to_owned(), "explicit".to_owned())));
            assert!(dealt.hint.contains(LABEL) && dealt.hint.contains("upload"));
            assert_eq!(dealt.fields.len(), 4 + 6 + 4 + 4 + 5 + 1);
        }
    }

    /// C.5–C.7: a form filled as dealt at the table, or with a seed, makes a setup whose log
    /// with no entries replays to a valid verdict, for 2 and 4 players.
    #[test]
    fn c7_a_filled_form_makes_a_setup_that_replays_dealt_or_seeded() {
        for names in [&["Ana", "Bo"][..], &["Ana", "Bo", "Cy", "Di"]] {
            let dealt = setup_from_form(&filled(names, &slot_values(DEALT))).unwrap_or_else(|p| panic!("{p:?}"));
            assert_eq!(dealt["house_row"], json!(DEALT[2]));
            assert!(dealt.get("star_houses").is_none(), "the synthetic set lists exactly 6");
            let seeded = setup_from_form(&filled(names, &[("random", "seeded".into()), ("seed", "42".into())]))
                .unwrap_or_else(|p| panic!("{p:?}"));
            assert_eq!((seeded["random"].as_str(), seeded["seed"].as_u64()), (Some("seeded"), Some(42)));
            for setup in [dealt, seeded] {
                let v = verdict_of(&setup);
                assert!(v.error.is_none(), "{:?}", v.error);
                assert_eq!((v.status, v.player_count), (Status::Incomplete, Some(names.len() as u8)));
                let shown: Vec<&str> = v.players.iter().map(|p| p.name.as_str()).collect();
                assert_eq!(shown, names);
            }
        }
    }

    /// LOG-FORMAT "Catalogue object", "Board object": an uploaded catalogue and board (the
    /// worked example's, whose cards are mostly stubs) with the rows uploaded as a file of ids
    /// make a setup that replays, the catalogue inlined as uploaded.
    #[test]
    fn b1_uploaded_catalogue_board_and_rows_make_a_setup_that_replays() {
        let example: Value =
            serde_json::from_str(include_str!("../tests/fixtures/log-format-example.json")).expect("the example");
        let setup = &example["setup"];
        let rows = json!({
            "key_houses": setup["key_houses"], "star_houses": setup["star_houses"], "house_row": setup["house_row"],
            "outpost_row": setup["outpost_row"], "villager_row": setup["villager_row"],
        });
        let form = filled(
            &["Alice", "Bo"],
            &[
                ("catalogue", setup["catalogue"].to_string()),
                ("board", setup["board"].to_string()),
                ("rows_file", rows.to_string()),
            ],
        );
        let made = setup_from_form(&form).unwrap_or_else(|p| panic!("{p:?}"));
        assert_eq!(made["catalogue"], setup["catalogue"]);
        assert_eq!(made["villager_row"], setup["villager_row"]);
        let v = verdict_of(&made);
        assert!(v.error.is_none() && v.status == Status::Incomplete, "{:?}", v.error);
    }

    /// Every problem of a form is said at once, in the players' words: the player count, the
    /// standard board's missing numbers, empty slots, a card of the wrong kind, a card chosen
    /// twice, an id the catalogue lacks.
    #[test]
    fn c1_every_problem_of_a_form_is_said_at_once() {
        let mut values = slot_values([
            &["key_01", "key_01", "house_02"],
            &["star_01"],
            &["house_01", "house_02", "house_03", "house_99"],
            &["outpost_01", "outpost_02", "outpost_03", "outpost_04"],
            &["villager_01", "villager_02", "villager_03", "villager_04", "glogo"],
        ]);
        values.push(("board", "standard".to_owned()));
        let problems = setup_from_form(&filled(&["Ana"], &values)).expect_err("a form with problems");
        for want in [
            "1 player is named; Above and Below takes 2 to 4.",
            "Key 01 is chosen for Key house 1 and Key house 2.",
            "Key house 3: House 02 is a house, not a key house.",
            "Key house 4: choose the key house face up.",
            "Star house 2: choose the star house face up.",
            "House row, slot 4: house_99 is not in the chosen catalogue.",
            "Villager row, slot 5: Glogo is a special villager, not a regular villager.",
        ] {
            assert!(problems.iter().any(|p| p == want), "{want:?} not in {problems:#?}");
        }
        assert!(problems.iter().any(|p| p.starts_with("The standard board lacks")), "{problems:#?}");
        assert!(problems.len() >= 12, "{problems:#?}");
        for p in &problems {
            assert!(!p.contains('{') && !p.contains("seat 0"), "{p}");
        }
        let seeded = setup_from_form(&filled(&["Ana", "Bo"], &[("random", "seeded".into()), ("seed", "-3".into())]));
        assert_eq!(seeded.expect_err("no seed").len(), 1);
        let bad = setup_from_form(&filled(&["Ana", "Bo"], &[("catalogue", "{\"cards\": 3}".into())]));
        assert!(bad.expect_err("no catalogue").iter().any(|p| p.starts_with("The catalogue file is not a catalogue")));
    }
}
