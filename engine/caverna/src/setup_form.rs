//! The recorder's setup form (`GameEngine::setup_form`): a game set up as at the table — the
//! furnishing tiles, the round cards in the order revealed, one slot per round with only its
//! stage's cards (docs/rules/caverna-reference.md B.3, B.7: round 4 is always Wish for
//! Children; 1–2 players skip round 9 and Exploration), and the harvest tokens by the
//! player-count rule (B.4) — or shuffled by Chronicle from a seed. A filled form is checked
//! whole: every problem is said at once, before the setup is validated as a log's would be.

use chronicle_game::setup_form::{FilledSetup, FormField, FormOption, FormSection, SetupForm};
use chronicle_game::view::title;
use serde_json::{json, Value};

use crate::action_space::RoundCard;
use crate::notation::{FurnishingSet, HarvestToken, SetupNotation};
use crate::setup::{rounds_for, stage_cards, stage_layout, token_mix, token_rounds_for, validate};

/// Most players a Caverna game seats (docs/rules/caverna-reference.md A).
const MAX_PLAYERS: usize = 7;

fn card_field(round: u8) -> String {
    format!("round_card_{round}")
}

fn token_field(round: u8) -> String {
    format!("harvest_token_{round}")
}

fn token_label(t: HarvestToken) -> &'static str {
    match t {
        HarvestToken::Green => "green (harvest)",
        HarvestToken::Red => "red (harvest event)",
    }
}

/// How the round cards and harvest tokens were dealt: as drawn at the table (the default), or
/// shuffled by Chronicle from a seed.
fn dealing() -> FormSection {
    let field = |id: &str, label: &str, options: Vec<FormOption>, default: Option<&str>| FormField {
        id: id.to_owned(),
        label: label.to_owned(),
        options,
        default: default.map(str::to_owned),
        upload: None,
    };
    FormSection {
        id: "dealing".to_owned(),
        title: "Furnishing tiles and dealing".to_owned(),
        hint: "Choose \"as drawn at the table\" to enter the round cards and harvest tokens you turned up; a seed lets Chronicle shuffle them for a game it sets up.".to_owned(),
        fields: vec![
            field(
                "furnishings",
                "Furnishing tiles",
                vec![FormOption::new(FurnishingSet::Full.id(), "full set"), FormOption::new(FurnishingSet::Introductory.id(), "introductory set")],
                Some(FurnishingSet::Full.id()),
            ),
            field(
                "dealt",
                "Round cards and harvest tokens",
                vec![FormOption::new("drawn", "as drawn at the table"), FormOption::new("seed", "shuffled by Chronicle from a seed")],
                Some("drawn"),
            ),
        ],
        shown_when: None,
    }
}

/// One slot per round with the cards of its stage, in printed names.
fn round_cards(players: usize) -> FormSection {
    let fields = rounds_for(players)
        .into_iter()
        .zip(stage_layout(players))
        .map(|(round, stage)| {
            let cards: Vec<RoundCard> = stage_cards(players, stage)
                .into_iter()
                .filter(|&c| (round == 4) == (c == RoundCard::WishForChildren))
                .collect();
            FormField {
                id: card_field(round),
                label: format!("Round {round} (stage {stage})"),
                default: (cards.len() == 1).then(|| cards[0].id().to_owned()),
                upload: None,
                options: cards.into_iter().map(|c| FormOption::new(c.id(), title(c.id()))).collect(),
            }
        })
        .collect();
    FormSection {
        id: "round_cards".to_owned(),
        title: "Round cards, as revealed".to_owned(),
        hint: if players <= 2 {
            "Each round offers only its stage's cards. With 1–2 players there is no round 9 and no Exploration."
                .to_owned()
        } else {
            "Each round offers only its stage's cards; round 4 is always Wish for Children.".to_owned()
        },
        fields,
        shown_when: Some(("dealt".to_owned(), "drawn".to_owned())),
    }
}

/// One slot per harvest-token round, and the player-count rule in the hint.
fn harvest_tokens(players: usize) -> FormSection {
    let (green, red) = token_mix(players);
    FormSection {
        id: "harvest_tokens".to_owned(),
        title: "Harvest tokens, as turned up".to_owned(),
        hint: format!("{players} players use {green} green and {red} red tokens, one on each of these rounds."),
        fields: token_rounds_for(players)
            .into_iter()
            .map(|round| FormField {
                id: token_field(round),
                label: format!("Round {round}"),
                options: HarvestToken::ALL.iter().map(|&t| FormOption::new(t.id(), token_label(t))).collect(),
                default: None,
                upload: None,
            })
            .collect(),
        shown_when: Some(("dealt".to_owned(), "drawn".to_owned())),
    }
}

/// A seed for a game Chronicle shuffles.
fn seed() -> FormSection {
    FormSection {
        id: "seed".to_owned(),
        title: "Seed".to_owned(),
        hint: "A whole number: the same seed always deals the same cards and tokens.".to_owned(),
        fields: vec![FormField {
            id: "seed".to_owned(),
            label: "Seed".to_owned(),
            options: Vec::new(),
            default: None,
            upload: None,
        }],
        shown_when: Some(("dealt".to_owned(), "seed".to_owned())),
    }
}

/// The form for `players` seats (`None` outside 1–7).
pub fn setup_form(players: u8) -> Option<SetupForm> {
    let n = usize::from(players);
    if !(1..=MAX_PLAYERS).contains(&n) {
        return None;
    }
    let mut sections = vec![dealing()];
    if n > 1 {
        sections.push(round_cards(n));
        sections.push(harvest_tokens(n));
    }
    sections.push(seed());
    Some(SetupForm { players, sections })
}

/// The round cards chosen, or the problems of their slots.
fn chosen_cards(players: usize, filled: &FilledSetup, problems: &mut Vec<String>) -> Vec<String> {
    let mut cards: Vec<(u8, RoundCard)> = Vec::new();
    for (round, stage) in rounds_for(players).into_iter().zip(stage_layout(players)) {
        match filled.value(&card_field(round)).map(|v| (v, RoundCard::ALL.into_iter().find(|c| c.id() == v))) {
            None => problems.push(format!("Round {round}: choose the round card revealed.")),
            Some((v, None)) => problems.push(format!("Round {round}: `{v}` is no round card.")),
            Some((_, Some(c)))
                if !stage_cards(players, stage).contains(&c) || (round == 4) != (c == RoundCard::WishForChildren) =>
            {
                problems.push(format!("Round {round}: {} is not a card of this slot (stage {stage}).", title(c.id())));
            }
            Some((_, Some(c))) => match cards.iter().find(|(_, other)| *other == c) {
                Some((first, _)) => {
                    problems.push(format!("{} is chosen for rounds {first} and {round}.", title(c.id())))
                }
                None => cards.push((round, c)),
            },
        }
    }
    cards.into_iter().map(|(_, c)| c.id().to_owned()).collect()
}

/// The harvest tokens chosen, or the problems of their slots and of the mix.
fn chosen_tokens(players: usize, filled: &FilledSetup, problems: &mut Vec<String>) -> Vec<String> {
    let mut tokens = Vec::new();
    for round in token_rounds_for(players) {
        match filled.value(&token_field(round)) {
            Some(v) if HarvestToken::ALL.iter().any(|t| t.id() == v) => tokens.push(v.to_owned()),
            Some(v) => problems.push(format!("Round {round}: `{v}` is no harvest token.")),
            None => problems.push(format!("Round {round}: choose the harvest token turned up.")),
        }
    }
    let (green, red) = token_mix(players);
    let greens = tokens.iter().filter(|t| *t == HarvestToken::Green.id()).count();
    if tokens.len() == token_rounds_for(players).len() && greens != green {
        problems.push(format!(
            "{greens} green and {} red harvest tokens are chosen; {players} players use {green} green and {red} red.",
            tokens.len() - greens
        ));
    }
    tokens
}

/// The names in seat order, or the problems with them.
fn names(filled: &FilledSetup, problems: &mut Vec<String>) -> Vec<String> {
    let names: Vec<String> = filled.names.iter().map(|n| n.trim().to_owned()).filter(|n| !n.is_empty()).collect();
    if names.is_empty() || names.len() > MAX_PLAYERS {
        problems.push(format!("{} players are named; Caverna takes 1 to {MAX_PLAYERS}.", names.len()));
    }
    names
}

/// The `setup` of a filled form, or every problem at once.
pub fn setup_from_form(filled: &FilledSetup) -> Result<Value, Vec<String>> {
    let mut problems = Vec::new();
    let names = names(filled, &mut problems);
    let players = names.len();
    let furnishings = filled.value("furnishings").unwrap_or(FurnishingSet::Full.id());
    if ![FurnishingSet::Full, FurnishingSet::Introductory].iter().any(|s| s.id() == furnishings) {
        problems.push(format!("`{furnishings}` is no set of furnishing tiles."));
    }
    let mut setup = json!({ "players": names.iter().map(|n| json!({ "name": n })).collect::<Vec<_>>(), "furnishings": furnishings });
    if filled.value("dealt") == Some("seed") {
        match filled.value("seed").map(str::parse::<u64>) {
            Some(Ok(seed)) => setup["seed"] = json!(seed),
            _ => problems.push("The seed is a whole number.".to_owned()),
        }
    } else if players > 1 && players <= MAX_PLAYERS {
        setup["round_cards"] = json!(chosen_cards(players, filled, &mut problems));
        setup["harvest_tokens"] = json!(chosen_tokens(players, filled, &mut problems));
    }
    // The form's checks are the rules' own; the setup is still read as a log's would be.
    chronicle_game::setup_form::answer(setup, problems, |setup| {
        let read = serde_json::from_value::<SetupNotation>(setup.clone()).map_err(|e| e.to_string());
        read.and_then(|n| validate(&n).map(|_| ()).map_err(|e| e.message))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn filled(names: &[&str], values: &[(&str, &str)]) -> FilledSetup {
        FilledSetup::new(names, values)
    }

    /// B.3, B.7: a 2-player form has 11 round slots (no round 9), each with only its stage's
    /// cards, round 4 fixed to Wish for Children, and no Exploration; B.4: 6 token slots.
    #[test]
    fn b3_a_two_player_form_offers_each_round_only_its_stage() {
        let form = setup_form(2).expect("2 players");
        let cards = &form.sections.iter().find(|s| s.id == "round_cards").expect("round cards").fields;
        assert_eq!(cards.len(), 11);
        assert!(cards.iter().all(|f| f.id != "round_card_9"));
        let round4 = cards.iter().find(|f| f.id == "round_card_4").expect("round 4");
        assert_eq!((round4.options.len(), round4.default.as_deref()), (1, Some("wish_for_children")));
        assert!(cards.iter().all(|f| f.options.iter().all(|o| o.value != "exploration")));
        let tokens = &form.sections.iter().find(|s| s.id == "harvest_tokens").expect("tokens");
        assert_eq!(tokens.fields.len(), 6);
        assert!(tokens.hint.contains("3 green and 3 red"), "{}", tokens.hint);
        assert!(setup_form(8).is_none() && setup_form(0).is_none());
    }

    /// A form filled with the cards and tokens the seed deals makes the same game as the seed.
    #[test]
    fn a_form_filled_as_dealt_makes_the_dealt_setup() {
        for players in 2..=7usize {
            let n: SetupNotation = serde_json::from_value(json!({
                "players": (0..players).map(|i| json!({ "name": format!("P{i}") })).collect::<Vec<_>>(), "seed": 7
            }))
            .expect("setup");
            let dealt = validate(&n).expect("valid");
            let mut values: Vec<(String, String)> = dealt
                .rounds()
                .iter()
                .zip(&dealt.round_cards)
                .map(|(r, c)| (card_field(*r), c.id().to_owned()))
                .collect();
            values.extend(
                dealt.token_rounds().iter().map(|&r| (token_field(r), dealt.token(r).expect("token").id().to_owned())),
            );
            let form = FilledSetup {
                names: n.players.iter().map(|p| p.name.to_string()).collect(),
                values: values.into_iter().collect(),
            };
            let setup = setup_from_form(&form).unwrap_or_else(|p| panic!("{players} players: {p:?}"));
            let cards: Vec<&str> = dealt.round_cards.iter().map(|c| c.id()).collect();
            assert_eq!(setup["round_cards"], json!(cards), "{players} players");
        }
    }

    /// Every problem of a form is said at once: empty slots, a card chosen twice, the token mix.
    #[test]
    fn every_problem_of_a_form_is_said_at_once() {
        let problems = setup_from_form(&filled(
            &["Ana", "Bo", "Cy"],
            &[("round_card_1", "sheep_farming"), ("round_card_2", "sheep_farming"), ("harvest_token_6", "red")],
        ))
        .expect_err("incomplete");
        assert!(problems.iter().any(|p| p == "Sheep Farming is chosen for rounds 1 and 2."), "{problems:?}");
        assert!(problems.iter().any(|p| p == "Round 3: choose the round card revealed."), "{problems:?}");
        assert!(problems.iter().any(|p| p == "Round 7: choose the harvest token turned up."), "{problems:?}");
        assert!(problems.len() >= 10, "{problems:?}");
        let seeded = setup_from_form(&filled(&["Ana", "Bo"], &[("dealt", "seed"), ("seed", "42")])).expect("seeded");
        assert_eq!(seeded["seed"], 42);
        assert!(setup_from_form(&filled(&[], &[])).is_err());
    }
}
