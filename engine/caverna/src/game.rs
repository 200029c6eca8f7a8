//! The validated game state. A [`Game`] is only built from a validated [`Setup`] and only
//! changes through [`Game::apply`] (one log entry) and [`Game::finish`] (end of the log).

use std::sync::Arc;

use crate::action_space::ActionSpace;
use crate::board::HomeBoard;
use crate::furnishing::Furnishing;
use crate::goods::{Good, Goods};
use crate::notation::HarvestPhase;
use crate::setup::Setup;

pub use crate::dwarfs::Dwarfs;
pub use crate::per_player::PerPlayer;
pub use crate::spaces::Spaces;

/// Most dwarfs a player can have: 5, or 6 with the Additional dwelling (`docs/rules/caverna-reference.md` E.1).
pub const MAX_DWARFS: usize = 5;
/// Facts a new game makes room for, per player: a player of a 4-player game places about 25
/// dwarfs and adds about 9 other facts (furnished, forged, expeditions).
const EVENTS_PER_PLAYER: usize = 40;
/// Stables per player (`docs/rules/caverna-reference.md` A.4).
pub const MAX_STABLES: usize = 3;

/// One dwarf. Dwarfs are numbered per player in the order they joined.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Dwarf {
    /// Weapon strength 1–14, `None` while unarmed.
    pub weapon: Option<u8>,
    /// The action space the dwarf stands on during the work phase.
    pub space: Option<ActionSpace>,
    /// Born this round: cannot act, eats 1 food, grows up at the start of the next round.
    pub newborn: bool,
}

impl Dwarf {
    pub(crate) fn new() -> Dwarf {
        Dwarf { weapon: None, space: None, newborn: false }
    }

    pub fn is_available(&self) -> bool {
        self.space.is_none() && !self.newborn
    }
}

/// One player's everything: supply (animals and dogs included), begging markers, dwarfs and
/// home board.
///
/// Copying a player allocates nothing (the generator copies the game for every candidate
/// move): the name and the rarely changed lists are shared until written
/// ([`Arc::make_mut`]), the dwarfs are inline.
#[derive(Debug, PartialEq, Eq)]
pub struct Player {
    pub name: Arc<str>,
    pub supply: Goods,
    pub begging: u32,
    pub dwarfs: Dwarfs,
    pub board: HomeBoard,
    /// The harvest-event choice of this round's harvest (`docs/rules/caverna-reference.md` C.4, 3rd red event).
    pub harvest_choice: Option<HarvestPhase>,
    /// Furnishing tiles built, in order, with the round they were built in.
    pub built: Arc<Vec<(Furnishing, u8)>>,
    /// Both halves of Extension used with the Guest room (once per game, `docs/rules/caverna-reference.md` H.8).
    pub extension_both: bool,
    /// Goods promised by suppliers: (printed round, good), collected at that round's start.
    pub future: Arc<Vec<(u8, crate::goods::Good)>>,
}

/// Written out for [`Clone::clone_from`], which leaves the shared parts alone when they are
/// the same (see [`Game`]'s).
impl Clone for Player {
    fn clone(&self) -> Player {
        Player { name: self.name.clone(), built: self.built.clone(), future: self.future.clone(), ..*self }
    }

    fn clone_from(&mut self, source: &Player) {
        // Every field named, so that a new one cannot be forgotten here.
        let Player { name, supply, begging, dwarfs, board, harvest_choice, built, extension_both, future } = source;
        share(&mut self.name, name);
        self.supply = *supply;
        self.begging = *begging;
        self.dwarfs = *dwarfs;
        self.board = *board;
        self.harvest_choice = *harvest_choice;
        share(&mut self.built, built);
        self.extension_both = *extension_both;
        share(&mut self.future, future);
    }
}

impl Player {
    pub(crate) fn new(name: &str, food: u32) -> Player {
        let mut dwarfs = Dwarfs::new();
        dwarfs.push(Dwarf::new());
        dwarfs.push(Dwarf::new());
        Player {
            name: name.into(),
            supply: Goods::one(Good::Food, food),
            begging: 0,
            dwarfs,
            board: HomeBoard::new(),
            harvest_choice: None,
            built: Default::default(),
            extension_both: false,
            future: Default::default(),
        }
    }

    pub fn owns(&self, tile: Furnishing) -> bool {
        self.board.has_furnishing(tile)
    }

    pub fn dwarfs_in_play(&self) -> u32 {
        self.dwarfs.len() as u32
    }

    /// Farm animals per [`crate::goods::FarmAnimal::index`].
    pub fn animals(&self) -> [u32; 4] {
        self.supply.farm_animals()
    }

    pub fn add_dwarf(&mut self) {
        let mut d = Dwarf::new();
        d.newborn = true;
        self.dwarfs.push(d);
    }
}

/// What happens at the end of the current round (`docs/rules/caverna-reference.md` C.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Harvest {
    /// Rounds 1–2 and the first red event: nothing.
    None,
    /// Field, feeding and breeding phases.
    Normal,
    /// Round 4 and the second red event: 1 food per dwarf, nothing else.
    OneFoodPerDwarf,
    /// Third red event: each player chooses field or breeding; everyone feeds.
    Choice,
}

/// Where the game waits. Required decisions stop an incomplete log; optional ones take their
/// default when the log moves on (`docs/log-format.md` "Entries").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Solo replenish step with spaces of 6+ goods: optional `keep`.
    Keep,
    /// Required `place` by `to_move`.
    Work { to_move: usize },
    /// Required `harvest_choice` from every player who has not chosen.
    HarvestChoice,
    /// Optional `feed` entries; `fed[p]` once player p has given one; `relief[p]` dwarfs of
    /// player p fed by the Working cave instead of food.
    Feeding { fed: PerPlayer<bool>, relief: PerPlayer<u32> },
    /// Optional `breed` entries by the players whose animals breed this harvest.
    Breeding { done: PerPlayer<bool> },
    /// After the last harvest: optional `free` entries, then final scoring.
    BeforeScoring,
    /// Final scoring is done.
    Over,
}

impl Phase {
    pub fn id(&self) -> &'static str {
        match self {
            Phase::Keep => "keep",
            Phase::Work { .. } => "work",
            Phase::HarvestChoice => "harvest_choice",
            Phase::Feeding { .. } => "feeding",
            Phase::Breeding { .. } => "breeding",
            Phase::BeforeScoring => "before_scoring",
            Phase::Over => "over",
        }
    }
}

/// An action space on the table this round.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SpaceState {
    pub goods: crate::goods::SpaceGoods,
    /// `(player, dwarf)` standing on it, in bytes (at most 7 players and 6 dwarfs): the
    /// spaces are most of a [`Game`]'s size, and games are copied for every candidate move.
    occupant: Option<(u8, u8)>,
}

impl SpaceState {
    /// `(player, dwarf)` standing on it.
    pub fn occupant(&self) -> Option<(usize, usize)> {
        self.occupant.map(|(p, d)| (usize::from(p), usize::from(d)))
    }

    pub fn is_free(&self) -> bool {
        self.occupant.is_none()
    }

    /// Puts dwarf `d` of player `p` on the space (both are small: see the field).
    pub(crate) fn set_occupant(&mut self, p: usize, d: usize) {
        self.occupant = Some((p as u8, d as u8));
    }

    pub(crate) fn clear_occupant(&mut self) {
        self.occupant = None;
    }
}

/// A game in progress.
#[derive(Debug, PartialEq, Eq)]
pub struct Game {
    /// Shared: a game's setup never changes, and copies of a game are frequent (move
    /// generation verifies candidates on copies).
    pub(crate) setup: std::sync::Arc<Setup>,
    pub(crate) players: Vec<Player>,
    /// Index into `setup.rounds()`.
    pub(crate) round_index: usize,
    pub(crate) phase: Phase,
    pub(crate) starting_player: usize,
    pub(crate) spaces: Spaces,
    pub(crate) harvest: Harvest,
    pub(crate) reds_revealed: u8,
    /// Shared until written (copy-on-write), for the same reason.
    pub(crate) events: std::sync::Arc<Vec<crate::events::Event>>,
    /// Whether facts are recorded; trial copies of a game switch it off.
    pub(crate) record_events: bool,
    pub(crate) doing: crate::events::Doing,
}

/// Written out so that [`Clone::clone_from`] keeps the target's list of players and shared
/// parts: the generator refreshes one spare copy for candidate after candidate, and the list
/// is the copy's only allocation.
impl Clone for Game {
    fn clone(&self) -> Game {
        let mut players = Vec::with_capacity(self.players.len());
        players.extend(self.players.iter().cloned());
        Game {
            setup: self.setup.clone(),
            players,
            round_index: self.round_index,
            phase: self.phase,
            starting_player: self.starting_player,
            spaces: self.spaces.clone(),
            harvest: self.harvest,
            reds_revealed: self.reds_revealed,
            events: self.events.clone(),
            record_events: self.record_events,
            doing: self.doing,
        }
    }

    fn clone_from(&mut self, source: &Game) {
        // Every field named, so that a new one cannot be forgotten here.
        let Game {
            setup,
            players,
            round_index,
            phase,
            starting_player,
            spaces,
            harvest,
            reds_revealed,
            events,
            record_events,
            doing,
        } = source;
        share(&mut self.setup, setup);
        self.players.clone_from(players);
        self.round_index = *round_index;
        self.phase = *phase;
        self.starting_player = *starting_player;
        self.spaces.clone_from(spaces);
        self.harvest = *harvest;
        self.reds_revealed = *reds_revealed;
        share(&mut self.events, events);
        self.record_events = *record_events;
        self.doing = *doing;
    }
}

/// Points `slot` at what `source` points at, without touching the counts when it already
/// does (copies of one game share these; the counts are atomic, so each change costs).
fn share<T: ?Sized>(slot: &mut Arc<T>, source: &Arc<T>) {
    if !Arc::ptr_eq(slot, source) {
        *slot = Arc::clone(source);
    }
}

impl Game {
    /// A new game at the first decision of round 1.
    pub fn new(setup: Setup) -> Game {
        let players = setup.names.iter().enumerate().map(|(i, n)| Player::new(n, setup.starting_food(i))).collect();
        let spaces = ActionSpace::printed(setup.players()).into_iter().map(|s| (s, SpaceState::default())).collect();
        let events = Vec::with_capacity(EVENTS_PER_PLAYER * setup.players());
        let mut g = Game {
            setup: std::sync::Arc::new(setup),
            players,
            round_index: 0,
            phase: Phase::Work { to_move: 0 },
            starting_player: 0,
            spaces,
            harvest: Harvest::None,
            reds_revealed: 0,
            // Room for a whole game's facts up front (a dwarf placed, a tile furnished, …: a
            // few per player and round), instead of growing the list step by step.
            events: std::sync::Arc::new(events),
            record_events: true,
            doing: Default::default(),
        };
        g.start_round();
        g
    }

    pub fn setup(&self) -> &Setup {
        &self.setup
    }

    pub fn players(&self) -> &[Player] {
        &self.players
    }

    pub fn player(&self, p: usize) -> &Player {
        &self.players[p]
    }

    /// Seat `p` as players read it: the name and the seat counted from 1, "Ada (seat 1)".
    pub fn seat_name(&self, p: usize) -> String {
        format!("{} (seat {})", self.players[p].name, p + 1)
    }

    /// A log field whose value names no seat, "`player` 7 names no seat: this game has 3
    /// players (seats 1–3)": the value is the log's own, counted from 0, so it is no seat number.
    pub(crate) fn no_seat(&self, field: &str, value: usize) -> String {
        match self.players.len() {
            1 => format!("`{field}` {value} names no seat: this game has 1 player (seat 1)"),
            n => format!("`{field}` {value} names no seat: this game has {n} players (seats 1–{n})"),
        }
    }

    pub fn phase(&self) -> &Phase {
        &self.phase
    }

    /// The printed round number.
    pub fn round(&self) -> u8 {
        self.setup.rounds()[self.round_index.min(self.setup.rounds().len() - 1)]
    }

    pub fn starting_player(&self) -> usize {
        self.starting_player
    }

    pub fn spaces(&self) -> &Spaces {
        &self.spaces
    }

    pub fn harvest(&self) -> Harvest {
        self.harvest
    }

    /// The facts recorded so far, in the order they happened.
    pub fn events(&self) -> &[crate::events::Event] {
        &self.events
    }

    /// Switches the recording of facts on or off (off for copies used only to test moves).
    pub fn set_record_events(&mut self, on: bool) {
        self.record_events = on;
    }

    pub(crate) fn record(&mut self, event: crate::events::Event) {
        if self.record_events {
            std::sync::Arc::make_mut(&mut self.events).push(event);
        }
    }

    pub(crate) fn last_event_mut(&mut self) -> Option<&mut crate::events::Event> {
        if self.record_events {
            std::sync::Arc::make_mut(&mut self.events).last_mut()
        } else {
            None
        }
    }

    pub fn is_over(&self) -> bool {
        self.phase == Phase::Over
    }

    pub fn to_move(&self) -> Option<usize> {
        match self.phase {
            Phase::Work { to_move } => Some(to_move),
            _ => None,
        }
    }

    pub(crate) fn is_last_round(&self) -> bool {
        self.round_index + 1 >= self.setup.rounds().len()
    }

    /// Furnishing tiles no player has built yet are available; `dwelling` always is.
    pub fn is_available(&self, tile: Furnishing) -> bool {
        use crate::notation::FurnishingSet;
        if self.setup.furnishings == FurnishingSet::Introductory && !tile.card().intro {
            return false;
        }
        !tile.is_unique() || !self.players.iter().any(|p| p.built.iter().any(|&(t, _)| t == tile))
    }
}
