//! The game state: the validated setup, the round and phase, whose turn it is, the face-up
//! rows, the decks, and every player's village (`docs/rules/above-and-below.md` A, C). Entries change it only
//! through [`Game::apply`], which dispatches to the rule families in [`crate::rules`].

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use serde::Serialize;

use crate::catalogue::{STARTERS, START_HOUSE};
use crate::error::{ensure, ErrorCode, RuleError, RuleResult};
use crate::ids::{same_id, Good, Item, Token, Trait, VState};
use crate::notation::{CardKind, Effect, Entry};
use crate::rng::SplitMix;
use crate::setup::{Decks, Setup, Start};

/// Where the game stands (D.1, F.1, F.9).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// The action phase of a round: `current` is to act.
    Actions,
    /// Every player passed in rounds 1–6: the end of round waits for a `round_end` entry or
    /// the next turn.
    RoundEnd,
    /// Round 7 is over (F.2): only `store` and `declare` may follow, then scoring.
    Over,
}

impl Phase {
    pub const fn id(self) -> &'static str {
        match self {
            Phase::Actions => "actions",
            Phase::RoundEnd => "round_end",
            Phase::Over => "game_end",
        }
    }
}

/// A villager in a village.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Villager {
    pub id: String,
    pub state: VState,
}

/// A house or outpost a player owns, with the goods tokens lying on it (not owned until
/// harvested, docs/rules/above-and-below.md "Owned goods").
#[derive(Clone, PartialEq, Eq, Serialize)]
pub struct OwnedCard {
    pub id: String,
    pub kind: CardKind,
    pub tokens: Vec<Good>,
    /// The card's effects as declared, kept from when it was gained: the rules read an owned
    /// card's effects on nearly every entry, and a catalogue lookup by id each time was the
    /// replay's largest overhead. Never serialised nor shown: the id says which card it is.
    #[serde(skip)]
    pub effects: Arc<[Effect]>,
}

/// As derived before [`OwnedCard::effects`] was kept: the effects are the catalogue's.
impl std::fmt::Debug for OwnedCard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OwnedCard")
            .field("id", &self.id)
            .field("kind", &self.kind)
            .field("tokens", &self.tokens)
            .finish()
    }
}

/// A cave a player owns, and the outpost on it, if any (D.5.4).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct OwnedCave {
    pub id: String,
    pub outpost: Option<OwnedCard>,
}

/// The G.5 counts of what a replay had to trust, per player.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Trust {
    pub explorations: u32,
    pub paragraphs_checked: u32,
    pub custom_bonuses: u32,
    pub card_bonuses: u32,
    pub custom_outcomes: u32,
    pub custom_credits: u32,
    pub credit_coins: u64,
    pub credit_goods: u64,
    pub credit_potions: u64,
    pub credit_cider: u64,
    pub credit_reputation: i64,
    pub credit_discount: u64,
    pub credit_beds: u64,
    pub card_vp_custom: i64,
    pub encounter_coins: i64,
    pub encounter_goods: u64,
    pub encounter_potions: u64,
    pub encounter_cider: u64,
    pub encounter_reputation: i64,
    pub encounter_villagers: u32,
    pub encounter_caves: u32,
    pub encounter_cards: u32,
}

/// One player's village and holdings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Player {
    pub name: String,
    pub coins: u64,
    /// In village order: the three starting villagers, then the others as they joined.
    pub villagers: Vec<Villager>,
    /// The starting house first, then houses as gained.
    pub houses: Vec<OwnedCard>,
    pub caves: Vec<OwnedCave>,
    /// Goods in the reserve, by [`Good::index`].
    pub reserve: [u64; 8],
    pub potions: u64,
    pub cider: u64,
    /// The sale spot (D.8.1).
    pub sale: Option<Item>,
    /// The storage track: one goods type per space, left to right (D.9).
    pub storage: Vec<(Good, u64)>,
    /// The reputation cube's position (A.6): 0 is the torch, higher is better.
    pub reputation: i32,
    /// C.4: the two starters that began exhausted in a 4-player game, until the end of round 1.
    pub starters_pending: bool,
    /// `declare` entries: card → VP (B.4).
    pub declared: BTreeMap<String, i32>,
    pub trust: Trust,
    /// Villagers the player trained (D.6): the statistics' "villagers trained".
    pub trained: u32,
    /// The round of the player's first exploration (the statistics' timing).
    pub first_exploration: Option<u8>,
}

impl Player {
    /// Every owned house and outpost.
    pub fn cards(&self) -> impl Iterator<Item = &OwnedCard> {
        self.houses.iter().chain(self.caves.iter().filter_map(|c| c.outpost.as_ref()))
    }

    pub fn cards_mut(&mut self) -> impl Iterator<Item = &mut OwnedCard> {
        self.houses.iter_mut().chain(self.caves.iter_mut().filter_map(|c| c.outpost.as_mut()))
    }

    pub fn owns_card(&self, id: &str) -> bool {
        self.cards().any(|c| same_id(&c.id, id))
    }

    pub fn villager(&self, id: &str) -> Option<&Villager> {
        self.villagers.iter().find(|v| same_id(&v.id, id))
    }

    pub fn villager_mut(&mut self, id: &str) -> Option<&mut Villager> {
        self.villagers.iter_mut().find(|v| same_id(&v.id, id))
    }

    pub fn has_ready(&self) -> bool {
        self.villagers.iter().any(|v| v.state == VState::Ready)
    }

    pub fn ready(&self) -> impl Iterator<Item = &Villager> {
        self.villagers.iter().filter(|v| v.state == VState::Ready)
    }

    /// Owned items of a kind (reserve + storage + sale spot, A.1 "Owned goods", H.18).
    pub fn owned(&self, item: Item) -> u64 {
        let on_sale = u64::from(self.sale == Some(item));
        match item {
            Item::Good(g) => self.reserve[g.index()] + self.stored(g) + on_sale,
            Item::Other(Token::Potion) => self.potions + on_sale,
            Item::Other(Token::Cider) => self.cider + on_sale,
        }
    }

    /// Items of a kind in the reserve (what can be spent, offered or lost).
    pub fn in_reserve(&self, item: Item) -> u64 {
        match item {
            Item::Good(g) => self.reserve[g.index()],
            Item::Other(Token::Potion) => self.potions,
            Item::Other(Token::Cider) => self.cider,
        }
    }

    pub fn reserve_mut(&mut self, item: Item) -> &mut u64 {
        match item {
            Item::Good(g) => &mut self.reserve[g.index()],
            Item::Other(Token::Potion) => &mut self.potions,
            Item::Other(Token::Cider) => &mut self.cider,
        }
    }

    pub fn stored(&self, g: Good) -> u64 {
        self.storage.iter().find(|(t, _)| *t == g).map_or(0, |(_, n)| *n)
    }

    /// Basic, key and star houses and outposts (row 2, H.2).
    pub fn houses_and_outposts(&self) -> usize {
        self.cards().filter(|c| c.kind != CardKind::Starting).count()
    }
}

/// The ids of the catalogue's villagers with the traits the rules test on every rest and every
/// action (H.9 mechanical, D.10 Cave Cat): usually two of each, so a test is a short scan of
/// equal-length candidates instead of a binary search of the whole catalogue by id.
#[derive(Clone)]
pub(crate) struct TraitHolders {
    mechanical: Arc<[String]>,
    cats: Arc<[String]>,
}

impl TraitHolders {
    fn new(catalogue: &crate::catalogue::Catalogue) -> TraitHolders {
        let with = |t: Trait| catalogue.villagers.values().filter(|v| v.has_trait(t)).map(|v| v.id.clone()).collect();
        TraitHolders { mechanical: with(Trait::Mechanical), cats: with(Trait::CaveCat) }
    }

    /// As `catalogue.villagers.get(id).is_some_and(|v| v.has_trait(Trait::Mechanical))`: ids
    /// in the catalogue are unique.
    pub(crate) fn is_mechanical(&self, id: &str) -> bool {
        self.mechanical.iter().any(|m| same_id(m, id))
    }

    /// As `catalogue.villagers.get(id).is_some_and(|v| v.has_trait(Trait::CaveCat))`.
    pub(crate) fn is_cat(&self, id: &str) -> bool {
        self.cats.iter().any(|c| same_id(c, id))
    }
}

/// The game.
#[derive(Clone)]
pub struct Game {
    pub(crate) setup: Arc<Setup>,
    pub(crate) players: Vec<Player>,
    pub(crate) round: u8,
    pub(crate) phase: Phase,
    /// The round's first player (F.8).
    pub(crate) first: usize,
    /// The player to act in the action phase.
    pub(crate) current: usize,
    pub(crate) passed: Vec<bool>,
    /// A.2: the cider on the board's cider space.
    pub(crate) board_cider: bool,
    pub(crate) house_row: Vec<Option<String>>,
    pub(crate) outpost_row: Vec<Option<String>>,
    pub(crate) key_row: Vec<Option<String>>,
    pub(crate) star_row: Vec<Option<String>>,
    pub(crate) villager_row: Vec<Option<String>>,
    /// Special villagers still aside (A.4).
    pub(crate) specials: BTreeSet<String>,
    pub(crate) decks: Decks,
    pub(crate) rng: Option<SplitMix>,
    /// H.33: cave → the first paragraph of each paragraph die (1–6, by `die - 1`), as first
    /// declared in the log. Keyed by the cave alone, so that a look-up borrows the cave's id.
    pub(crate) paragraphs: BTreeMap<String, [Option<u32>; 6]>,
    /// H.33: (paragraph, option) → thresholds, as first declared in the log.
    pub(crate) thresholds: BTreeMap<(u32, u32), Vec<u32>>,
    /// G.3 warnings, in order.
    pub(crate) warnings: Vec<Warning>,
    /// Derived from the catalogue once: not part of the state, so not in `Debug`.
    pub(crate) traits: TraitHolders,
}

/// As derived before [`Game::traits`] was kept: the traits are the catalogue's.
impl std::fmt::Debug for Game {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Game")
            .field("setup", &self.setup)
            .field("players", &self.players)
            .field("round", &self.round)
            .field("phase", &self.phase)
            .field("first", &self.first)
            .field("current", &self.current)
            .field("passed", &self.passed)
            .field("board_cider", &self.board_cider)
            .field("house_row", &self.house_row)
            .field("outpost_row", &self.outpost_row)
            .field("key_row", &self.key_row)
            .field("star_row", &self.star_row)
            .field("villager_row", &self.villager_row)
            .field("specials", &self.specials)
            .field("decks", &self.decks)
            .field("rng", &self.rng)
            .field("paragraphs", &self.paragraphs)
            .field("thresholds", &self.thresholds)
            .field("warnings", &self.warnings)
            .finish()
    }
}

/// A plausibility warning (G.3): never an error.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Warning {
    pub code: &'static str,
    pub entry: Option<usize>,
    pub player: Option<usize>,
    pub message: String,
}

impl Game {
    /// The game at the start (C.2–C.6).
    pub fn new(start: Start) -> Game {
        let Start { setup, decks } = start;
        let n = setup.players();
        let four = n == 4;
        let players = setup
            .names
            .iter()
            .enumerate()
            .map(|(seat, name)| Player {
                name: name.clone(),
                coins: starting_coins(n, seat),
                villagers: STARTERS
                    .iter()
                    .map(|id| Villager {
                        id: (*id).to_owned(),
                        state: if four && *id != "start_hammer" { VState::Exhausted } else { VState::Ready },
                    })
                    .collect(),
                houses: vec![OwnedCard {
                    id: START_HOUSE.into(),
                    kind: CardKind::Starting,
                    tokens: Vec::new(),
                    effects: setup.catalogue.shared_effects(START_HOUSE),
                }],
                caves: Vec::new(),
                reserve: [0; 8],
                potions: 0,
                cider: 0,
                sale: None,
                storage: Vec::new(),
                reputation: 0,
                starters_pending: four,
                declared: BTreeMap::new(),
                trust: Trust::default(),
                trained: 0,
                first_exploration: None,
            })
            .collect();
        let specials = setup.catalogue.villager_ids(crate::notation::VillagerKind::Special).into_iter().collect();
        let some = |row: &[String]| row.iter().cloned().map(Some).collect::<Vec<_>>();
        let mut game = Game {
            players,
            round: 1,
            phase: Phase::Actions,
            first: 0,
            current: 0,
            passed: vec![false; n],
            board_cider: true,
            house_row: some(&setup.house_row),
            outpost_row: some(&setup.outpost_row),
            key_row: some(&setup.key_row),
            star_row: some(&setup.star_row),
            villager_row: some(&setup.villager_row),
            specials,
            decks,
            rng: setup.rng.clone(),
            paragraphs: BTreeMap::new(),
            thresholds: BTreeMap::new(),
            warnings: Vec::new(),
            traits: TraitHolders::new(&setup.catalogue),
            setup: Arc::new(setup),
        };
        // The starting house's when-gained effects (a starting house could carry goods).
        for seat in 0..n {
            crate::rules::build::when_gained(&mut game, seat, START_HOUSE);
        }
        game
    }

    pub fn setup(&self) -> &Setup {
        &self.setup
    }

    pub fn players(&self) -> &[Player] {
        &self.players
    }

    /// Seat `p` as players read it: the name and the seat counted from 1, "Ada (seat 1)".
    pub fn seat_name(&self, p: usize) -> String {
        format!("{} (seat {})", self.players[p].name, p + 1)
    }

    /// A log field whose value names no seat, "`player` 7 names no seat: this game has 3
    /// players (seats 1–3)": the value is the log's own, counted from 0, so it is no seat number.
    pub(crate) fn no_seat(&self, field: &str, value: u64) -> String {
        let n = self.players.len();
        format!("`{field}` {value} names no seat: this game has {n} players (seats 1–{n})")
    }

    pub fn round(&self) -> u8 {
        self.round
    }

    pub fn phase(&self) -> Phase {
        self.phase
    }

    pub fn is_over(&self) -> bool {
        self.phase == Phase::Over
    }

    pub fn seeded(&self) -> bool {
        self.rng.is_some()
    }

    /// The player to act, when one player is (the action phase).
    pub fn to_move(&self) -> Option<usize> {
        (self.phase == Phase::Actions).then_some(self.current)
    }

    pub fn first_player(&self) -> usize {
        self.first
    }

    pub fn warnings(&self) -> &[Warning] {
        &self.warnings
    }

    /// A seat of this game (`E_NOT_YOUR_TURN` for one that does not exist).
    pub(crate) fn seat(&self, player: u64) -> RuleResult<usize> {
        let seat = usize::try_from(player).ok().filter(|p| *p < self.players.len());
        seat.ok_or_else(|| RuleError::new(ErrorCode::NotYourTurn, self.no_seat("player", player)))
    }

    /// The effects of every card a player owns (B.3: effects of several cards add up), walked
    /// in place: the sums and tests over them run many times a round, so no list is built.
    pub(crate) fn effects(&self, p: usize) -> impl Iterator<Item = &Effect> {
        self.players[p].cards().flat_map(|c| c.effects.iter())
    }

    /// The sum of one numeric effect over a player's cards.
    pub(crate) fn sum(&self, p: usize, f: impl Fn(&Effect) -> Option<u32>) -> u64 {
        self.effects(p).filter_map(f).map(u64::from).sum()
    }

    pub(crate) fn has(&self, p: usize, f: impl Fn(&Effect) -> bool) -> bool {
        self.effects(p).any(f)
    }

    /// B.4: a custom credit must name an owned card with a `custom` effect.
    pub(crate) fn check_custom_card(&self, p: usize, card: &str) -> RuleResult {
        ensure(self.players[p].owns_card(card), ErrorCode::Custom, || {
            format!("custom credit for {card}, which the player does not own")
        })?;
        ensure(self.setup.catalogue.cards.get(card).is_some_and(|c| c.has_custom()), ErrorCode::Custom, || {
            format!("custom credit for {card}, which has no `custom` effect (B.4)")
        })
    }

    /// The next die from the seed (seeded mode), checked against a written value.
    pub(crate) fn die(&mut self, written: Option<i64>, what: &str) -> RuleResult<u8> {
        match self.rng.as_mut() {
            Some(rng) => {
                let d = rng.die();
                if let Some(w) = written {
                    ensure(w == i64::from(d), ErrorCode::RandomMismatch, || {
                        format!("{what} is {d} by the seed, not {w}")
                    })?;
                }
                Ok(d)
            }
            None => {
                let w = written.ok_or_else(|| {
                    RuleError::new(ErrorCode::RandomMissing, format!("{what} is not written (explicit mode)"))
                })?;
                let d = u8::try_from(w).ok().filter(|d| (1..=6).contains(d));
                d.ok_or_else(|| RuleError::new(ErrorCode::Die, format!("{what} {w} is not 1–6")))
            }
        }
    }

    pub(crate) fn warn(&mut self, code: &'static str, player: Option<usize>, message: String) {
        self.warnings.push(Warning { code, entry: None, player, message });
    }

    /// Applies one entry (LOG-FORMAT "Entries"). On error the game may be half-changed: the
    /// replay stops there and replays again to the previous entry.
    pub fn apply(&mut self, entry: &Entry) -> RuleResult {
        crate::rules::turn::apply(self, entry)
    }
}

/// C.2–C.3: starting coins by player count and seat.
pub fn starting_coins(players: usize, seat: usize) -> u64 {
    match (players, seat) {
        (2 | 3, 0) => 7,
        (2 | 3, _) => 8,
        (_, 3) => 8,
        _ => 7,
    }
}
