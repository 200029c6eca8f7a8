//! Setup validation (`docs/rules/above-and-below.md` C, A.8, B; `docs/log-format-above-and-below.md` "Setup"): the
//! unvalidated
//! [`SetupNotation`] becomes a [`Setup`] whose players, catalogue, board profile, random mode
//! and face-up rows are all checked. A [`crate::game::Game`] starts only from a [`Start`]: a
//! `Setup` and the decks it dealt.

use std::collections::VecDeque;

use serde_json::value::RawValue;

use crate::board::{Board, BoardSetting};
use crate::catalogue::Catalogue;
use crate::deck::Deck;
use crate::error::{ensure, fail, ErrorCode, RuleError, RuleResult};
use crate::notation::{CardKind, CatalogueNotation, RandomMode, SetupNotation, VillagerKind};
use crate::rng::SplitMix;
use crate::tag_first::TagFirst;

/// H.1: deck sizes as printed (IT) when the catalogue is not complete.
pub const PRINTED_BASIC: usize = 25;
pub const PRINTED_OUTPOSTS: usize = 25;
pub const PRINTED_VILLAGERS: usize = 18;
pub const PRINTED_CAVES: usize = 25;

/// The validated setup.
#[derive(Clone, Debug)]
pub struct Setup {
    pub names: Vec<String>,
    pub catalogue: Catalogue,
    pub board: Board,
    /// `Some(seed)` in seeded mode.
    pub seed: Option<u64>,
    pub key_row: Vec<String>,
    pub star_row: Vec<String>,
    pub house_row: Vec<String>,
    pub outpost_row: Vec<String>,
    pub villager_row: Vec<String>,
    /// The generator after the setup shuffles (seeded mode).
    pub rng: Option<SplitMix>,
}

/// A validated setup and the decks after its rows were dealt: what a game starts from. The
/// decks are apart from the setup because the game changes them and keeps the setup as it
/// was: kept in the setup too, they were copied card by card for every game.
#[derive(Clone, Debug)]
pub struct Start {
    pub setup: Setup,
    pub decks: Decks,
}

/// The four decks (G.1.1).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Decks {
    pub houses: Deck,
    pub outposts: Deck,
    pub villagers: Deck,
    pub caves: Deck,
}

impl Setup {
    pub fn players(&self) -> usize {
        self.names.len()
    }
}

/// Validates a setup.
pub fn validate(n: &SetupNotation) -> RuleResult<Start> {
    check_players(n)?;
    let catalogue = read_catalogue(&n.catalogue)?;
    validate_with(n, catalogue)
}

/// Validates a setup whose catalogue object was read with it, in the single pass.
pub(crate) fn validate_read<B: BoardSetting>(
    mut n: SetupNotation<TagFirst<CatalogueNotation>, B>,
) -> RuleResult<Start> {
    check_players(&n)?;
    let catalogue = Catalogue::from_notation(std::mem::take(&mut n.catalogue.0))?;
    validate_with(&n, catalogue)
}

/// C.1: 2 to 4 players.
fn check_players<C, B>(n: &SetupNotation<C, B>) -> RuleResult {
    ensure((2..=4).contains(&n.players.len()), ErrorCode::SetupPlayers, || {
        format!("{} players; Above and Below is for 2 to 4 (C.1)", n.players.len())
    })
}

/// The rest of the setup, once the catalogue is read.
fn validate_with<C, B: BoardSetting>(n: &SetupNotation<C, B>, catalogue: Catalogue) -> RuleResult<Start> {
    let board = match &n.board {
        Some(b) => b.board()?,
        None => Board::from_setup(None)?,
    };
    let mode = n.random.unwrap_or_default();
    match (mode, n.seed) {
        (RandomMode::Seeded, None) => return fail(ErrorCode::SetupRandom, "random \"seeded\" needs a `seed`"),
        (RandomMode::Explicit, Some(_)) => {
            return fail(ErrorCode::SetupRandom, "`seed` is only allowed with random \"seeded\"")
        }
        _ => {}
    }
    let names: Vec<String> = n.players.iter().map(|p| p.name.clone()).collect();
    match n.seed.filter(|_| mode == RandomMode::Seeded) {
        Some(seed) => seeded(n, names, catalogue, board, seed),
        None => explicit(n, names, catalogue, board),
    }
}

fn read_catalogue(raw: &RawValue) -> RuleResult<Catalogue> {
    let text = raw.get().trim_start();
    let read = |e: serde_json::Error| crate::replay::notation_error(&e, "setup.catalogue");
    match text.as_bytes().first() {
        Some(b'"') => {
            let name: String = serde_json::from_str(text).map_err(read)?;
            fail(
                ErrorCode::Catalogue,
                format!("catalogue \"{name}\" is not shipped: this engine has no named catalogue yet (RULES.md B.1); declare the catalogue object in the log"),
            )
        }
        Some(b'{') => Catalogue::from_notation(serde_json::from_str::<CatalogueNotation>(text).map_err(read)?),
        _ => fail(ErrorCode::Format, format!("setup.catalogue is {text}, not a name or an object")),
    }
}

/// Whether an id of a row is there twice. A row has 4 to 6 ids (its length is checked
/// first): comparing each with those before it costs less than building a set of them.
fn repeats(row: &[String]) -> bool {
    row.iter().enumerate().any(|(i, id)| row[..i].contains(id))
}

/// Checks one face-up row: its length, distinct ids, each declared and of the right kind.
fn check_cards(c: &Catalogue, row: &[String], kind: CardKind, len: usize, what: &str) -> RuleResult {
    ensure(row.len() == len, ErrorCode::SetupRows, || format!("{what} has {} cards, not {len} (C.5)", row.len()))?;
    ensure(!repeats(row), ErrorCode::SetupRows, || format!("{what} repeats a card"))?;
    for id in row {
        let card = c.card(id)?;
        ensure(card.kind == kind, ErrorCode::SetupRows, || {
            format!("{what}: {id} is a {} card, not {}", card.kind.id(), kind.id())
        })?;
    }
    Ok(())
}

fn check_villagers(c: &Catalogue, row: &[String]) -> RuleResult {
    ensure(row.len() == 5, ErrorCode::SetupRows, || format!("villager_row has {} villagers, not 5 (C.6)", row.len()))?;
    ensure(!repeats(row), ErrorCode::SetupRows, || "villager_row repeats a villager".into())?;
    for id in row {
        let v = c.villager(id)?;
        ensure(v.kind == VillagerKind::Regular, ErrorCode::SetupRows, || {
            format!("villager_row: {id} is not a regular villager")
        })?;
    }
    Ok(())
}

fn required<'a>(row: &'a Option<Vec<String>>, what: &str) -> RuleResult<&'a [String]> {
    row.as_deref().ok_or_else(|| RuleError::new(ErrorCode::SetupRows, format!("{what} is required in explicit mode")))
}

/// `star_houses` may be omitted when the catalogue lists exactly 6 star houses.
fn star_row<C, B>(n: &SetupNotation<C, B>, c: &Catalogue) -> RuleResult<Vec<String>> {
    let stars = match &n.star_houses {
        Some(s) => s.clone(),
        None => {
            let all = c.card_ids(CardKind::Star);
            ensure(all.len() == 6, ErrorCode::SetupRows, || {
                format!("star_houses is omitted but the catalogue lists {} star houses, not 6", all.len())
            })?;
            all
        }
    };
    check_cards(c, &stars, CardKind::Star, 6, "star_houses")?;
    Ok(stars)
}

fn explicit<C, B>(
    n: &SetupNotation<C, B>,
    names: Vec<String>,
    catalogue: Catalogue,
    board: Board,
) -> RuleResult<Start> {
    let key_row = required(&n.key_houses, "key_houses")?.to_vec();
    check_cards(&catalogue, &key_row, CardKind::Key, 4, "key_houses")?;
    let star_row = star_row(n, &catalogue)?;
    let house_row = required(&n.house_row, "house_row")?.to_vec();
    check_cards(&catalogue, &house_row, CardKind::Basic, 4, "house_row")?;
    let outpost_row = required(&n.outpost_row, "outpost_row")?.to_vec();
    check_cards(&catalogue, &outpost_row, CardKind::Outpost, 4, "outpost_row")?;
    let villager_row = required(&n.villager_row, "villager_row")?.to_vec();
    check_villagers(&catalogue, &villager_row)?;
    let mut decks = Decks {
        houses: Deck::new("house", PRINTED_BASIC, None),
        outposts: Deck::new("outpost", PRINTED_OUTPOSTS, None),
        villagers: Deck::new("villager", PRINTED_VILLAGERS, None),
        caves: Deck::new("cave", PRINTED_CAVES, None),
    };
    house_row.iter().for_each(|id| decks.houses.see(id));
    outpost_row.iter().for_each(|id| decks.outposts.see(id));
    villager_row.iter().for_each(|id| decks.villagers.see(id));
    let setup = Setup {
        names,
        catalogue,
        board,
        seed: None,
        key_row,
        star_row,
        house_row,
        outpost_row,
        villager_row,
        rng: None,
    };
    Ok(Start { setup, decks })
}

/// Seeded mode (LOG-FORMAT "Randomness"): the rows and decks are derived with `ab-splitmix-1`
/// from the catalogue's ids sorted bytewise; rows written in the log must match.
fn seeded<C, B>(
    n: &SetupNotation<C, B>,
    names: Vec<String>,
    catalogue: Catalogue,
    board: Board,
    seed: u64,
) -> RuleResult<Start> {
    let mut keys = catalogue.card_ids(CardKind::Key);
    let mut villagers = catalogue.villager_ids(VillagerKind::Regular);
    let mut basics = catalogue.card_ids(CardKind::Basic);
    let mut outposts = catalogue.card_ids(CardKind::Outpost);
    let mut caves: Vec<String> = catalogue.caves.keys().map(ToOwned::to_owned).collect();
    let short = [
        ("key houses", keys.len(), 4),
        ("regular villagers", villagers.len(), 5),
        ("basic houses", basics.len(), 4),
        ("outposts", outposts.len(), 4),
    ];
    if let Some((what, have, need)) = short.iter().find(|(_, have, need)| have < need) {
        return fail(ErrorCode::SetupRandom, format!("seeded mode needs a catalogue listing every card; it has {have} {what}, fewer than the {need} the setup deals"));
    }
    let mut rng = SplitMix::new(seed);
    rng.shuffle(&mut keys);
    rng.shuffle(&mut villagers);
    rng.shuffle(&mut basics);
    rng.shuffle(&mut outposts);
    rng.shuffle(&mut caves);
    let key_row: Vec<String> = keys.into_iter().take(4).collect();
    let villager_row: Vec<String> = villagers.drain(..5).collect();
    let house_row: Vec<String> = basics.drain(..4).collect();
    let outpost_row: Vec<String> = outposts.drain(..4).collect();
    for (written, derived, what) in [
        (&n.key_houses, &key_row, "key_houses"),
        (&n.villager_row, &villager_row, "villager_row"),
        (&n.house_row, &house_row, "house_row"),
        (&n.outpost_row, &outpost_row, "outpost_row"),
    ] {
        if let Some(w) = written {
            ensure(w == derived, ErrorCode::RandomMismatch, || {
                format!("{what} is {derived:?} by the seed, not {w:?}")
            })?;
        }
    }
    let star_row = star_row(n, &catalogue)?;
    let deck = |name, list: Vec<String>, row: &[String]| {
        let mut d = Deck::new(name, list.len() + row.len(), Some(VecDeque::from(list)));
        row.iter().for_each(|id| d.see(id));
        d
    };
    let decks = Decks {
        houses: deck("house", basics, &house_row),
        outposts: deck("outpost", outposts, &outpost_row),
        villagers: deck("villager", villagers, &villager_row),
        caves: deck("cave", caves, &[]),
    };
    let setup = Setup {
        names,
        catalogue,
        board,
        seed: Some(seed),
        key_row,
        star_row,
        house_row,
        outpost_row,
        villager_row,
        rng: Some(rng),
    };
    Ok(Start { setup, decks })
}
