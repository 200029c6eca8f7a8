//! The game state: players, board, bags, market, Carla, and the stack of pending steps
//! ([`Task`]) that says what happens next. The rules in [`crate::rules`] change it; nothing
//! here decides legality beyond the invariants of the types.

use std::collections::VecDeque;
use std::sync::Arc;

use crate::components::{Components, Node};
use crate::error::{fail, ErrorCode, RuleResult};
use crate::ids::{Building, Category, Color, Cube, Cubes, Customer, Good, Space};
use crate::notation::{Face, FateSet, MemberRef, Who};
use crate::rng::Rng;
use crate::setup::{Setup, Start};

/// Where a family member is (`docs/log-format-village.md` "Member references").
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Loc {
    Reserve,
    Farm,
    Bag,
    Craft(Building),
    Council(u8),
    City(usize),
    Church(u8),
    Chronicle(Category),
    Grave,
    Removed,
    /// Carla only: beside her board (F.1).
    Beside,
    /// Carla only: on the church building (F.1).
    ChurchBuilding,
}

impl Loc {
    /// On the farm or the main board: can die (C.7) and counts as alive.
    pub fn visible(self) -> bool {
        matches!(self, Loc::Farm | Loc::Craft(_) | Loc::Council(_) | Loc::City(_) | Loc::Church(_))
    }

    /// On the main board (recall, D.2).
    pub fn on_board(self) -> bool {
        matches!(self, Loc::Craft(_) | Loc::Council(_) | Loc::City(_) | Loc::Church(_))
    }

    /// The chronicle category of a member dying here (A.10).
    pub fn category(self) -> Category {
        match self {
            Loc::Craft(_) => Category::Crafts,
            Loc::Council(_) => Category::Council,
            Loc::City(_) => Category::Travel,
            Loc::Church(_) => Category::Church,
            _ => Category::Farm,
        }
    }

    /// The `at` id of the log.
    pub fn id(self, components: &Components) -> String {
        match self {
            Loc::Reserve => "reserve".into(),
            Loc::Farm => "farm".into(),
            Loc::Bag => "bag".into(),
            Loc::Craft(b) => format!("craft:{b}"),
            Loc::Council(s) => format!("council:{s}"),
            Loc::City(c) => format!(
                "city:{}",
                components.travel.as_ref().and_then(|t| t.cities().get(c)).map_or("?", |c| c.id.as_str())
            ),
            Loc::Church(s) => format!("church:{s}"),
            Loc::Chronicle(c) => format!("chronicle:{c}"),
            Loc::Grave => "grave".into(),
            Loc::Removed => "removed".into(),
            Loc::Beside => "beside".into(),
            Loc::ChurchBuilding => "church_building".into(),
        }
    }
}

/// One family member: its generation (1–4) and where it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Member {
    pub gen: u8,
    pub loc: Loc,
}

/// The 11 members of a colour (A.1) at their starting places.
fn family(first: impl Fn(u8) -> Loc) -> Vec<Member> {
    [1, 1, 1, 1, 2, 2, 2, 3, 3, 4, 4].into_iter().map(|gen| Member { gen, loc: first(gen) }).collect()
}

/// Prestige gained during play, by score row (E.3 rows 1–3).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Track {
    pub travel: u32,
    pub council: u32,
    pub mass: u32,
}

/// One player.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Player {
    pub name: String,
    pub color: Color,
    pub members: Vec<Member>,
    /// Influence cubes on the farm (never plague).
    pub cubes: Cubes,
    pub goods: [u32; 5],
    pub grain: u32,
    pub coins: u32,
    /// Time units spent (C.6).
    pub time: u64,
    /// Quill passings waiting for the end of the turn (C.6).
    pub pending_deaths: u32,
    pub customers: Vec<Customer>,
    /// Cities holding this colour's disc (A.8), in the order visited.
    pub discs: Vec<usize>,
    /// The round in which the player placed their first travel disc (the statistics' timing).
    pub first_travel: Option<u32>,
    pub track: Track,
    /// Solo: the next-first-player token held as a coin (F.1, H.34).
    pub token: bool,
}

impl Player {
    pub fn good(&self, g: Good) -> u32 {
        self.goods[g.index()]
    }

    pub fn count_at(&self, gen: u8, loc: Loc) -> usize {
        self.members.iter().filter(|m| m.gen == gen && m.loc == loc).count()
    }

    pub fn any_at(&self, loc: Loc) -> bool {
        self.members.iter().any(|m| m.loc == loc)
    }

    /// Moves one member of `gen` from `from` to `to`; false when there is none.
    pub fn relocate(&mut self, gen: u8, from: Loc, to: Loc) -> bool {
        match self.members.iter_mut().find(|m| m.gen == gen && m.loc == from) {
            Some(m) => {
                m.loc = to;
                true
            }
            None => false,
        }
    }

    /// Members on the farm, the main board or in the black bag (E.4, H.20).
    pub fn living(&self) -> usize {
        self.members.iter().filter(|m| m.loc.visible() || m.loc == Loc::Bag).count()
    }

    /// Coins including the solo token (H.34).
    pub fn coins_available(&self) -> u32 {
        self.coins + u32::from(self.token)
    }
}

/// A fate set's state (F.3): the tiles face up in the current cycle and, seeded, the order.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct FateState {
    pub revealed: Vec<Face>,
    pub order: Option<[Face; 3]>,
}

/// Carla, the solo opponent (F).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Carla {
    pub color: Color,
    pub members: Vec<Member>,
    /// Cubes on her board since the last cleanup, in placement order (F.2, F.6).
    pub board: Vec<Cube>,
    /// The box the next cube goes on.
    pub next_box: u32,
    pub fate: [FateState; 2],
    pub served: Vec<Customer>,
}

/// The market (A.9): stalls in order, the queue from its head, and the pile.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Market {
    pub stalls: Vec<Option<Customer>>,
    pub queue: Vec<Option<Customer>>,
    /// Seeded: the pile in order, top first. Unseeded: the tiles never shown (unordered).
    pub pile: Vec<Customer>,
    pub pile_known: bool,
}

impl Market {
    /// The stalls holding a customer, lowest first.
    pub fn available(&self) -> impl Iterator<Item = Customer> + '_ {
        self.stalls.iter().flatten().copied()
    }
}

/// A market day in progress (D.4).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MarketDay {
    pub trigger: Who,
    pub passed: Vec<bool>,
    /// Who decides next in the current sequence.
    pub queue: VecDeque<Who>,
    pub trigger_sold: bool,
    pub any_sale: bool,
    /// The turn player, whose end-of-turn the day belongs to (for the end trigger, E.2).
    pub turn_player: Option<usize>,
}

/// The end of the game once triggered (E.2).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EndState {
    /// Players still owed a last turn, in order.
    pub owed: VecDeque<usize>,
}

/// A pending step. The top of [`Game::tasks`] is what happens next.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Task {
    Populate,
    Turn { player: usize, last: bool },
    MarketDay,
    Refill,
    Death { player: usize },
    EndTurn { player: usize, took: Option<(Cube, Space)> },
    AfterDeaths { player: usize, took: Option<(Cube, Space)> },
    CarlaTake { color: Cube, space: Space },
    Fate { set: FateSet, from: Space },
    CarlaReact { space: Space },
    Next { player: usize },
    Mass { last: bool },
}

/// The game.
#[derive(Clone, Debug)]
pub struct Game {
    pub setup: Arc<Setup>,
    pub players: Vec<Player>,
    pub carla: Option<Carla>,
    /// Cubes on each action space, in [`Space::ALL`] order.
    pub board: [Cubes; 7],
    pub green_bag: Cubes,
    pub supply: Cubes,
    pub monks: u32,
    pub round: u32,
    pub first: usize,
    /// Who took the next-first-player token this round (None: on the council chamber).
    pub next_first: Option<usize>,
    pub market: Market,
    pub market_day: Option<MarketDay>,
    pub end: Option<EndState>,
    pub tasks: Vec<Task>,
    pub rng: Option<Rng>,
    /// The turn in progress (whose end-of-turn deaths and triggers it is).
    pub turn_player: Option<usize>,
}

/// A player by name and 1-based seat, `"Ada (seat 1)"`, for the log's 0-based seat `p`.
pub fn seat_label(name: &str, p: usize) -> String {
    format!("{name} (seat {})", p + 1)
}

impl Game {
    /// The game right after setup: the round-1 bag filled, waiting for its populate.
    pub fn new(start: Start) -> Game {
        let Start { setup, rng, pile, fate } = start;
        let mut supply = Cubes::default();
        for c in Cube::INFLUENCE {
            supply.add(c, 33);
        }
        supply.add(Cube::Black, 6);
        let players: Vec<Player> = setup
            .seats
            .iter()
            .enumerate()
            .map(|(i, s)| {
                let mut p = Player {
                    name: s.name.clone(),
                    color: s.color,
                    members: family(|gen| if gen == 1 { Loc::Farm } else { Loc::Reserve }),
                    cubes: Cubes::default(),
                    goods: [0; 5],
                    grain: 0,
                    coins: 1,
                    time: 0,
                    pending_deaths: 0,
                    customers: Vec::new(),
                    discs: Vec::new(),
                    first_travel: None,
                    track: Track::default(),
                    token: false,
                };
                if setup.compensation {
                    match i {
                        1 => p.grain += 1,
                        4 => p.coins += 1,
                        _ => {}
                    }
                    if let Some(c) = s.start_cube {
                        if supply.take(c, 1) {
                            p.cubes.add(c, 1);
                        }
                    }
                }
                p
            })
            .collect();
        let carla = setup.solo.as_ref().map(|s| Carla {
            color: s.carla_color,
            members: family(|gen| if gen <= 2 { Loc::Beside } else { Loc::ChurchBuilding }),
            board: Vec::new(),
            next_box: 0,
            fate: [
                FateState { revealed: Vec::new(), order: fate.map(|f| f[0]) },
                FateState { revealed: Vec::new(), order: fate.map(|f| f[1]) },
            ],
            served: Vec::new(),
        });
        let shown: Vec<Customer> = setup.stalls.iter().chain(&setup.queue).copied().collect();
        let (pile, pile_known) = match pile {
            Some(p) => (p, true),
            None => (Customer::all().filter(|c| !shown.contains(c)).collect(), false),
        };
        let market = Market {
            stalls: setup.stalls.iter().copied().map(Some).collect(),
            queue: setup.queue.iter().copied().map(Some).collect(),
            pile,
            pile_known,
        };
        let mut game = Game {
            setup: Arc::new(setup),
            players,
            carla,
            board: [Cubes::default(); 7],
            green_bag: Cubes::default(),
            supply,
            monks: 4,
            round: 0,
            first: 0,
            next_first: None,
            market,
            market_day: None,
            end: None,
            tasks: Vec::new(),
            rng,
            turn_player: None,
        };
        game.start_round();
        game
    }

    pub fn components(&self) -> &Components {
        &self.setup.components
    }

    pub fn player_count(&self) -> usize {
        self.players.len()
    }

    /// A seat as players read it, `"Ada (seat 1)"`: logs number seats from 0, players from 1.
    pub fn seat_name(&self, p: usize) -> String {
        match self.players.get(p) {
            Some(pl) => seat_label(&pl.name, p),
            None => format!("`player` {p}"),
        }
    }

    /// A log field whose value names no seat, "`player` 7 names no seat: this game has 3
    /// players (seats 1–3)": the value is the log's own, counted from 0, so it is no seat number.
    pub(crate) fn no_seat(&self, field: &str, p: usize) -> String {
        let seats = match self.player_count() {
            1 => "1 player (seat 1)".to_owned(),
            n => format!("{n} players (seats 1–{n})"),
        };
        format!("`{field}` {p} names no seat: this game has {seats}")
    }

    pub fn is_solo(&self) -> bool {
        self.carla.is_some()
    }

    pub fn is_over(&self) -> bool {
        self.tasks.is_empty()
    }

    pub fn board_empty(&self) -> bool {
        self.board.iter().all(Cubes::is_empty)
    }

    pub fn space(&self, s: Space) -> &Cubes {
        &self.board[s.index()]
    }

    pub fn space_mut(&mut self, s: Space) -> &mut Cubes {
        &mut self.board[s.index()]
    }

    /// C.1 steps 4 and 1 (C.2 steps 1–2): a new round with the green bag refilled, waiting
    /// for its populate.
    pub fn start_round(&mut self) {
        self.round += 1;
        if let Some(p) = self.next_first.take() {
            if !self.is_solo() {
                self.first = p;
            }
        }
        for p in &mut self.players {
            // F.1, H.34, H.41: an unused solo token returns before the bag is refilled.
            p.token = false;
        }
        if let Some(carla) = &mut self.carla {
            // F.6: all cubes but the last placed return to the supply.
            let keep = carla.board.pop();
            for c in carla.board.drain(..) {
                self.supply.add(c, 1);
            }
            carla.board.extend(keep);
        }
        self.tasks.push(Task::Populate);
    }

    /// C.2 steps 1–2, at the populate: the setup card's influence cubes (as far as the supply
    /// holds them) and every plague cube of the supply go into the green bag.
    pub fn fill_bag(&mut self) -> RuleResult {
        let card = self.setup.components.setup_card(self.player_count())?.clone();
        for c in Cube::INFLUENCE {
            let k = card.bag[c.index()].min(self.supply.get(c));
            self.supply.take(c, k);
            self.green_bag.add(c, k);
        }
        let black = self.supply.get(Cube::Black);
        self.supply.take(Cube::Black, black);
        self.green_bag.add(Cube::Black, black);
        Ok(())
    }

    /// Parses a member reference of a player into its location (LOG-FORMAT "Member references").
    pub fn loc_of(&self, r: &MemberRef) -> RuleResult<Loc> {
        let at = r.at.as_deref().unwrap_or("farm");
        let stage = |s: &str| -> RuleResult<u8> {
            match s {
                "1" => Ok(1),
                "2" => Ok(2),
                "3" => Ok(3),
                "4" => Ok(4),
                _ => fail(ErrorCode::UnknownId, format!("stage \"{s}\" in `{at}`; stages are 1–4")),
            }
        };
        let (head, tail) = at.split_once(':').map_or((at, None), |(h, t)| (h, Some(t)));
        let loc = match (head, tail) {
            ("farm", None) => Loc::Farm,
            ("bag", None) => Loc::Bag,
            ("craft", Some(b)) => Loc::Craft(
                Building::from_id(b)
                    .ok_or_else(|| crate::error::RuleError::new(ErrorCode::UnknownId, format!("building `{b}`")))?,
            ),
            ("council", Some(s)) => Loc::Council(stage(s)?),
            ("church", Some(s)) => Loc::Church(stage(s)?),
            ("city", Some(c)) => {
                let map = self.components().travel()?;
                Loc::City(map.city(c).ok_or_else(|| {
                    crate::error::RuleError::new(ErrorCode::UnknownId, format!("city `{c}` is not on the travel map"))
                })?)
            }
            ("reserve" | "grave" | "removed", None) | ("chronicle", Some(_)) => {
                return fail(ErrorCode::MemberNotFound, format!("`{at}`: dead and unborn members are never named"))
            }
            _ => return fail(ErrorCode::UnknownId, format!("member location `{at}`")),
        };
        if !(1..=4).contains(&r.gen) {
            return fail(ErrorCode::MemberNotFound, format!("generation {}; members are generation 1–4", r.gen));
        }
        Ok(loc)
    }

    /// A player's member at a reference, checked to exist.
    pub fn member(&self, p: usize, r: &MemberRef) -> RuleResult<Loc> {
        let loc = self.loc_of(r)?;
        if self.players[p].count_at(r.gen, loc) == 0 {
            return fail(
                ErrorCode::MemberNotFound,
                format!("{} has no generation-{} member at `{}`", self.seat_name(p), r.gen, loc.id(self.components())),
            );
        }
        Ok(loc)
    }

    /// Chronicle spaces open with this player count, per category; `None` without data.
    pub fn chronicle_free(&self) -> RuleResult<[usize; 5]> {
        let marks = self.components().chronicle()?;
        let n = self.player_count();
        // The members on the chronicle counted in one pass over every colour, not one per
        // category: this runs at every death.
        let mut taken = [0usize; 5];
        let carla = self.carla.iter().map(|c| &c.members);
        for m in self.players.iter().map(|p| &p.members).chain(carla).flatten() {
            if let Loc::Chronicle(cat) = m.loc {
                taken[cat.index()] += 1;
            }
        }
        let mut free = [0; 5];
        for cat in Category::ALL {
            let open = marks[cat.index()].iter().filter(|m| m.open(n)).count();
            free[cat.index()] = open.saturating_sub(taken[cat.index()]);
        }
        Ok(free)
    }

    pub fn graves_free(&self) -> RuleResult<usize> {
        let n = self.player_count();
        let open = self.components().graves()?.iter().filter(|m| m.open(n)).count();
        Ok(open.saturating_sub(self.count_everywhere(Loc::Grave)))
    }

    /// Members of every colour (Carla's too) at a location.
    pub fn count_everywhere(&self, loc: Loc) -> usize {
        let seats: usize = self.players.iter().map(|p| p.members.iter().filter(|m| m.loc == loc).count()).sum();
        seats + self.carla.as_ref().map_or(0, |c| c.members.iter().filter(|m| m.loc == loc).count())
    }

    /// The black bag's items in canonical order: monks, members by seat (Carla last) and gen.
    pub fn black_bag(&self) -> Vec<BagItem> {
        let mut items: Vec<BagItem> = std::iter::repeat_n(BagItem::Monk, self.monks as usize).collect();
        for (seat, p) in self.players.iter().enumerate() {
            let mut gens: Vec<u8> = p.members.iter().filter(|m| m.loc == Loc::Bag).map(|m| m.gen).collect();
            gens.sort_unstable();
            items.extend(gens.into_iter().map(|gen| BagItem::Member(Who::Seat(seat), gen)));
        }
        if let Some(c) = &self.carla {
            let mut gens: Vec<u8> = c.members.iter().filter(|m| m.loc == Loc::Bag).map(|m| m.gen).collect();
            gens.sort_unstable();
            items.extend(gens.into_iter().map(|gen| BagItem::Member(Who::Carla, gen)));
        }
        items
    }

    /// The travel node a location stands on (farm = village).
    pub fn node(loc: Loc) -> Option<Node> {
        match loc {
            Loc::Farm => Some(Node::Village),
            Loc::City(c) => Some(Node::City(c)),
            _ => None,
        }
    }

    /// The player to act, when one player is (`state_view`'s `to_move`).
    pub fn to_move(&self) -> Option<usize> {
        match self.tasks.last()? {
            Task::Turn { player, .. } | Task::Death { player } => Some(*player),
            Task::MarketDay => match self.market_day.as_ref()?.queue.front()? {
                Who::Seat(p) => Some(*p),
                Who::Carla => None,
            },
            Task::Mass { .. } | Task::Populate | Task::Refill => None,
            Task::CarlaTake { .. } | Task::Fate { .. } => self.is_solo().then_some(0),
            _ => None,
        }
    }

    /// The phase id of `state_view`.
    pub fn phase_id(&self) -> &'static str {
        match self.tasks.last() {
            None => "over",
            Some(Task::Populate) => "populate",
            Some(Task::Turn { last: false, .. }) => "turn",
            Some(Task::Turn { last: true, .. }) => "last_turn",
            Some(Task::MarketDay) => "market_day",
            Some(Task::Refill) => "refill",
            Some(Task::Death { .. }) => "death",
            Some(Task::CarlaTake { .. }) => "carla",
            Some(Task::Fate { .. }) => "fate",
            Some(Task::Mass { last: false }) => "mass",
            Some(Task::Mass { last: true }) => "final_mass",
            Some(_) => "resolving",
        }
    }
}

/// An item of the black bag.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BagItem {
    Monk,
    Member(Who, u8),
}
