//! The work phase: placing a dwarf and carrying out the action space (`docs/rules/caverna-reference.md` B.2–B.6,
//! connectors in §0, H.4, H.7, H.8, H.10).

use crate::action_space::ActionSpace;
use crate::error::{ensure, fail, ErrorCode, RuleError, RuleResult};
use crate::furnishing::Furnishing;
use crate::game::{Game, Player};
use crate::goods::{Good, Goods};
use crate::notation::Action;
use crate::rules::abilities::gain;
use crate::rules::expedition::expedition;
use crate::rules::furnish::{furnish, Furnish};
use crate::rules::tiles::{self, Pasture, Twin};
use crate::rules::{family, free, sowing, weapons};

/// The parts of an action space a log can name (everything else is taken automatically).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Part {
    Twin(&'static [Twin]),
    /// Extension: a twin plus a fixed good.
    TwinWith(Twin, Good),
    OreMine,
    /// A Ruby mine; with a Guest room one goes on an ordinary tunnel and/or one on a deep
    /// tunnel (`Some(kind)`: only on that kind), B.3 and H.8.
    RubyMine(Option<crate::board::Tile>),
    Furnish(Furnish),
    Grow,
    Sow,
    SmallPasture,
    LargePasture,
    Stable,
    Forge,
    Expedition(usize),
    TradeOre,
    Buy,
    /// The fixed goods that are one branch of an "or".
    Gain(&'static [(Good, u32)]),
    Dog,
    Imitate,
}

/// How the parts combine (`docs/rules/caverna-reference.md` §0 "Connectors").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Connector {
    /// Any non-empty subset, any order.
    AndOr,
    /// Any non-empty subset, in printed order.
    AndThenOr,
    /// The first part, then optionally the rest.
    AndThen,
    /// Exactly one part.
    Or,
    /// Urgent wish: [dwelling and then growth] or 3 gold; with a Guest room, and/or (H.8).
    UrgentWish { guest_room: bool },
}

/// Most parts of a space (Sheep farming and Urgent wish have 3).
pub const MAX_PARTS: usize = 3;

/// The parts of a space, each with how often it may be done, inline: a flow is looked up for
/// every candidate placement the generator builds.
#[derive(Clone, Copy, Debug)]
pub struct Parts {
    len: usize,
    items: [(Part, usize); MAX_PARTS],
}

impl Parts {
    const fn new(parts: &[(Part, usize)]) -> Parts {
        let mut items = [(Part::Grow, 0); MAX_PARTS];
        let mut i = 0;
        while i < parts.len() {
            items[i] = parts[i];
            i += 1;
        }
        Parts { len: parts.len(), items }
    }
}

impl std::ops::Deref for Parts {
    type Target = [(Part, usize)];
    fn deref(&self) -> &[(Part, usize)] {
        &self.items[..self.len]
    }
}

/// The parts of a space (each with how often it may be done) and how they combine.
#[derive(Clone, Copy, Debug)]
pub struct Flow {
    pub parts: Parts,
    pub connector: Connector,
}

impl Flow {
    const fn of(parts: &[(Part, usize)], connector: Connector) -> Flow {
        Flow { parts: Parts::new(parts), connector }
    }
}

const CT: &[Twin] = &[Twin::CavernTunnel];
const CT_CC: &[Twin] = &[Twin::CavernTunnel, Twin::CavernCavern];
const MF: &[Twin] = &[Twin::MeadowField];
const GROWTH_GOODS: &[(Good, u32)] =
    &[(Good::Wood, 1), (Good::Stone, 1), (Good::Ore, 1), (Good::Food, 1), (Good::Gold, 2)];
const URGENT_GOLD: &[(Good, u32)] = &[(Good::Gold, 3)];
const EXTENSION: &[(Part, usize)] =
    &[(Part::TwinWith(Twin::MeadowField, Good::Wood), 1), (Part::TwinWith(Twin::CavernTunnel, Good::Stone), 1)];
const URGENT_WISH: &[(Part, usize)] =
    &[(Part::Furnish(crate::rules::furnish::Furnish::DwellingOnly), 1), (Part::Grow, 1), (Part::Gain(URGENT_GOLD), 1)];

/// What a space offers a dwarf: its parts and connector (`docs/rules/caverna-reference.md` B.2, B.3, §0). Each flow
/// is a constant, handed out by reference, not copied: this runs for every placement and every
/// candidate, and a placement keeps its flow while it lasts ([`Placing`]), which a copy of the
/// whole table row (parts and all) would make several times larger.
pub fn flow(space: ActionSpace, guest_room: bool, armed: bool) -> &'static Flow {
    use crate::board::Tile;
    use crate::rules::furnish::Furnish as Fu;
    use crate::rules::tiles::Twin as Tw;
    use ActionSpace as A;
    use Connector::*;
    use Part::*;
    // Growth, Extension and Wish for children are "either … or": "and/or" with a Guest room
    // (H.8).
    match space {
        A::DriftMining | A::DriftMining2 => &const { Flow::of(&[(Twin(CT), 1)], AndOr) },
        A::Excavation => &const { Flow::of(&[(Twin(CT_CC), 1)], AndOr) },
        A::Clearing | A::Sustenance => &const { Flow::of(&[(Twin(MF), 1)], AndOr) },
        A::Logging => &const { Flow::of(&[(Expedition(1), 1)], AndOr) },
        A::Growth if guest_room => &const { Flow::of(&[(Gain(GROWTH_GOODS), 1), (Grow, 1)], AndOr) },
        A::Growth => &const { Flow::of(&[(Gain(GROWTH_GOODS), 1), (Grow, 1)], Or) },
        A::Housework => &const { Flow::of(&[(Dog, 1), (Furnish(Fu::Any), 1)], AndOr) },
        A::SlashAndBurn => &const { Flow::of(&[(Twin(MF), 1), (Sow, 1)], AndThenOr) },
        A::SmallScaleDriftMining => &const { Flow::of(&[(TwinWith(Tw::CavernTunnel, Good::Stone), 1)], AndThen) },
        A::WeeklyMarket => &const { Flow::of(&[(Buy, 1)], AndOr) },
        A::HardwareRental => &const { Flow::of(&[(Expedition(2), 1), (Sow, 1)], AndThenOr) },
        A::FenceBuilding => &const { Flow::of(&[(SmallPasture, 1), (LargePasture, 1)], AndOr) },
        A::Extension if guest_room => &const { Flow::of(EXTENSION, AndOr) },
        A::Extension => &const { Flow::of(EXTENSION, Or) },
        A::Imitation | A::Imitation2 | A::Imitation3 => &const { Flow::of(&[(Imitate, 1)], AndThen) },
        A::Blacksmithing if armed => &const { Flow::of(&[(Expedition(3), 1)], AndOr) },
        A::Blacksmithing => &const { Flow::of(&[(Forge, 1), (Expedition(3), 1)], AndThen) },
        A::SheepFarming | A::DonkeyFarming => {
            &const { Flow::of(&[(SmallPasture, 1), (LargePasture, 1), (Stable, 1)], AndOr) }
        }
        A::OreMineConstruction => &const { Flow::of(&[(OreMine, 1), (Expedition(2), 1)], AndThenOr) },
        A::WishForChildren if guest_room => &const { Flow::of(&[(Grow, 1), (Furnish(Fu::DwellingOnly), 1)], AndOr) },
        A::WishForChildren => &const { Flow::of(&[(Grow, 1), (Furnish(Fu::DwellingOnly), 1)], Or) },
        A::UrgentWishForChildren if guest_room => &const { Flow::of(URGENT_WISH, UrgentWish { guest_room: true }) },
        A::UrgentWishForChildren => &const { Flow::of(URGENT_WISH, UrgentWish { guest_room: false }) },
        A::RubyMineConstruction if guest_room => {
            &const { Flow::of(&[(RubyMine(Some(Tile::Tunnel)), 1), (RubyMine(Some(Tile::DeepTunnel)), 1)], AndOr) }
        }
        A::RubyMineConstruction => &const { Flow::of(&[(RubyMine(None), 1)], AndOr) },
        A::FamilyLife => &const { Flow::of(&[(Grow, 1), (Sow, 1)], AndOr) },
        A::Exploration => &const { Flow::of(&[(Expedition(4), 1)], AndOr) },
        A::Adventure if armed => &const { Flow::of(&[(Expedition(1), 2)], AndOr) },
        A::Adventure => &const { Flow::of(&[(Forge, 1), (Expedition(1), 2)], AndThen) },
        A::OreTrading => &const { Flow::of(&[(TradeOre, 1)], AndOr) },
        _ => &const { Flow::of(&[], AndOr) },
    }
}

/// The goods a space gives to whoever uses it, when it gives any: one good, or the five of
/// Supplies. Not a bundle of all thirteen goods: this is asked at every placement, and most
/// spaces give nothing, which is then nothing to build, check or walk.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Fixed {
    /// `n` (at least 1) of one good.
    One(Good, u32),
    Several(&'static [(Good, u32)]),
}

/// Goods a space gives to whoever uses it, on top of its accumulated goods (B.2, B.3); `None`
/// when it gives nothing (a count of 0 included).
#[inline(always)]
fn fixed_goods(space: ActionSpace, players: usize, p: &Player) -> Option<Fixed> {
    use crate::board::Tile;
    use ActionSpace as A;
    // Counted only for the spaces that need them (this runs for every candidate placement).
    let ore_mines = || p.board.count(|t| t == Tile::OreMine) as u32;
    let ruby_mines = || p.board.count(|t| t == Tile::RubyMine);
    let one = |good, n| (n > 0).then_some(Fixed::One(good, n));
    let small = players <= 3;
    match space {
        A::StartingPlayer if small => one(Good::Ore, 2),
        A::StartingPlayer => one(Good::Ruby, 1),
        A::Supplies => Some(Fixed::Several(GROWTH_GOODS)),
        A::OreMining | A::OreDelivery => one(Good::Ore, 2 * ore_mines()),
        A::ForestExploration if small => one(Good::Vegetable, 1),
        A::ForestExploration => one(Good::Food, 2),
        A::Sustenance if small => one(Good::Grain, 1),
        A::RubyMining => one(Good::Ruby, u32::from(ruby_mines() >= 1)),
        A::RubyDelivery => one(Good::Ruby, u32::from(ruby_mines() >= 2)),
        A::StripMining => one(Good::Wood, 2),
        A::WeeklyMarket => one(Good::Gold, 4),
        A::HardwareRental if players >= 6 => one(Good::Wood, 2),
        _ => None,
    }
}

/// Pays `n` of one good or fails with `insufficient_goods`.
pub fn pay(p: &mut Player, good: Good, n: u32) -> RuleResult {
    p.supply
        .take(&Goods::one(good, n))
        .map_err(|_| RuleError::new(ErrorCode::InsufficientGoods, format!("{n} {} needed", good.id())))
}

/// Wood for a pasture: 2 small / 4 large, 1 / 2 as loot; Carpenter −1 per pasture (H.9).
pub fn pasture_price(p: &Player, size: Pasture, loot: bool) -> u32 {
    let base = match (size, loot) {
        (Pasture::Small, false) => 2,
        (Pasture::Large, false) => 4,
        (Pasture::Small, true) => 1,
        (Pasture::Large, true) => 2,
    };
    base - u32::from(p.owns(Furnishing::Carpenter)).min(base)
}

/// The dwarf a placement uses: the one named, or the first in weapon order (B.6).
#[inline(always)]
fn choose_dwarf(p: &mut Player, dwarf: Option<u32>, ruby: bool) -> RuleResult<usize> {
    let key = |w: Option<u8>| w.map_or(0, u32::from);
    // The first available dwarf of the lowest weapon, found in one pass.
    let mut next: Option<(u32, usize)> = None;
    for (i, d) in p.dwarfs.iter().enumerate() {
        if d.is_available() && next.is_none_or(|(lowest, _)| key(d.weapon) < lowest) {
            next = Some((key(d.weapon), i));
        }
    }
    let Some((lowest, first)) = next else {
        return fail(ErrorCode::DwarfNotAvailable, "no dwarf of yours is left to place");
    };
    let index = match dwarf {
        None => first,
        Some(i) => {
            let i = i as usize;
            ensure(p.dwarfs.get(i).is_some_and(|d| d.is_available()), ErrorCode::DwarfNotAvailable, || {
                format!("dwarf {i} does not exist or is not at home")
            })?;
            i
        }
    };
    let in_order = key(p.dwarfs[index].weapon) == lowest;
    match (in_order, ruby) {
        (true, true) => fail(ErrorCode::DwarfOrder, "a ruby is paid only to place a dwarf out of weapon order"),
        (false, false) => fail(
            ErrorCode::DwarfOrder,
            format!("dwarf {index} is out of weapon order; that costs 1 ruby (\"ruby\": true)"),
        ),
        (false, true) => pay(p, Good::Ruby, 1).map(|_| index),
        (true, false) => Ok(index),
    }
}

/// A `place` entry (B.6): the steps of [`Placing`] taken in one go, with the space's use kept
/// on the stack rather than in a [`Placing`] handed back and forth. Most entries of a log are
/// placements, so this and the steps it takes (marked `#[inline(always)]`) are compiled into
/// one body, without a call, an argument list and a returned result between each two.
#[inline(always)]
pub fn place(
    game: &mut Game,
    p: usize,
    space: ActionSpace,
    dwarf: Option<u32>,
    ruby: bool,
    actions: &[Action],
) -> RuleResult {
    let (d, took) = begin(game, p, space, dwarf, ruby)?;
    record_placed(game, p, space, d);
    let result = use_space(game, p, d, space, took, actions, &mut Vec::new());
    game.doing = Default::default();
    result
}

/// Records that dwarf `d` of player `p` was placed on `space` (after [`begin`]).
#[inline(always)]
fn record_placed(game: &mut Game, p: usize, space: ActionSpace, d: usize) {
    let round = game.round();
    game.record(crate::events::Event::Placed { player: p, round, space, dwarf: d, imitated: None });
}

/// A placement carried out one action at a time: [`place`] is [`Placing::begin`], one
/// [`Placing::act`] per action and [`Placing::end`]. The generator takes the same steps while
/// it builds a candidate, so that it checks the candidate on one copy of the game instead of
/// replaying the finished entry on another.
#[derive(Clone, Debug)]
pub struct Placing {
    using: Using,
    /// Spaces imitated so far in this placement (H.7).
    imitated: Vec<ActionSpace>,
}

impl Placing {
    /// Places the dwarf ([`begin`]) and gives the space's fixed goods.
    pub fn begin(game: &mut Game, p: usize, space: ActionSpace, dwarf: Option<u32>, ruby: bool) -> RuleResult<Placing> {
        let (d, took) = begin(game, p, space, dwarf, ruby)?;
        record_placed(game, p, space, d);
        Ok(Placing { using: Using::start(game, p, d, space, took), imitated: Vec::new() })
    }

    /// The placing player.
    pub fn player(&self) -> usize {
        self.using.p
    }

    /// The dwarf placed.
    pub fn dwarf(&self) -> usize {
        self.using.d
    }

    /// One item of the entry's `actions`.
    pub fn act(&mut self, game: &mut Game, action: &Action) -> RuleResult {
        self.using.act(game, action, &mut self.imitated)
    }

    /// The parts that may be done next (not used up, allowed by the connector after the parts
    /// done so far): what a step-by-step form offers.
    pub fn open_parts(&self) -> Vec<Part> {
        let u = &self.using;
        (0..u.flow.parts.len())
            .filter(|&k| u.used[k] < u.flow.parts[k].1 && connector_refusal(u.flow, u.used(), u.last, k).is_none())
            .map(|k| u.flow.parts[k].0)
            .collect()
    }

    /// The space placed on.
    pub fn space(&self) -> ActionSpace {
        self.using.space
    }

    /// The checks after the last action.
    pub fn end(&self, game: &mut Game) -> RuleResult {
        let result = self.using.end(game);
        game.doing = Default::default();
        result
    }
}

/// The first half of a placement: checks the space, chooses and places the dwarf, and takes
/// the accumulated goods. Returns the dwarf and whether goods were taken.
#[inline(always)]
pub fn begin(
    game: &mut Game,
    p: usize,
    space: ActionSpace,
    dwarf: Option<u32>,
    ruby: bool,
) -> RuleResult<(usize, bool)> {
    let Some(state) = game.spaces.get(&space) else {
        return fail(ErrorCode::SpaceNotAvailable, format!("{} is not on the table this round", space.id()));
    };
    if let Some((q, _)) = state.occupant() {
        return fail(ErrorCode::SpaceOccupied, format!("{} is occupied by {}", space.id(), game.seat_name(q)));
    }
    let d = choose_dwarf(&mut game.players[p], dwarf, ruby)?;
    game.players[p].dwarfs[d].space = Some(space);
    if space == ActionSpace::StartingPlayer {
        game.starting_player = p;
    }
    let mut took = false;
    if let Some(state) = game.spaces.get_mut(&space) {
        state.set_occupant(p, d);
        // Most spaces hold nothing: the goods are walked good by good, in place (one pass finds
        // whether there are any), and a space that held some is emptied.
        for (g, n) in state.goods.iter() {
            gain(&mut game.players[p], g, n);
            took = true;
        }
        if took {
            state.goods = Default::default();
        }
    }
    Ok((d, took))
}

/// Gives the fixed goods of a space to whoever uses it (placed or imitating); whether it gave
/// any.
#[inline(always)]
pub fn give_fixed_goods(game: &mut Game, p: usize, space: ActionSpace) -> bool {
    let players = game.setup.players();
    let player = &mut game.players[p];
    match fixed_goods(space, players, player) {
        None => return false,
        Some(Fixed::One(g, n)) => gain(player, g, n),
        Some(Fixed::Several(goods)) => {
            for &(g, n) in goods {
                gain(player, g, n);
            }
        }
    }
    true
}

/// Carries out one part of a space with one action (what a log's `actions` item does there).
pub fn run_action(game: &mut Game, p: usize, d: usize, space: ActionSpace, part: Part, action: &Action) -> RuleResult {
    run_part(game, p, d, space, part, action, &mut Vec::new())
}

/// Carries out `space` for dwarf `d` of player `p`, as placed there or imitating it.
/// `took` says whether something was already gained (accumulated goods).
#[inline(always)]
fn use_space(
    game: &mut Game,
    p: usize,
    d: usize,
    space: ActionSpace,
    took: bool,
    actions: &[Action],
    imitated: &mut Vec<ActionSpace>,
) -> RuleResult {
    let mut using = Using::start(game, p, d, space, took);
    for action in actions {
        using.act(game, action, imitated)?;
    }
    using.end(game)
}

/// Dwarf `d` of player `p` using `space` (placed there or imitating it), between actions.
#[derive(Clone, Copy, Debug)]
struct Using {
    p: usize,
    d: usize,
    space: ActionSpace,
    /// Fixed when the space is entered (a Guest room or weapon gained there changes nothing).
    flow: &'static Flow,
    guest: bool,
    /// How often each part was done.
    used: [usize; MAX_PARTS],
    last: Option<usize>,
    did_something: bool,
}

impl Using {
    /// Gives the fixed goods; `took` says whether something was already gained.
    #[inline(always)]
    fn start(game: &mut Game, p: usize, d: usize, space: ActionSpace, took: bool) -> Using {
        let gave = give_fixed_goods(game, p, space);
        game.doing.space = Some(space);
        let player = &game.players[p];
        let guest = player.owns(Furnishing::GuestRoom);
        let flow = flow(space, guest, player.dwarfs[d].weapon.is_some());
        Using { p, d, space, flow, guest, used: [0; MAX_PARTS], last: None, did_something: took || gave }
    }

    fn used(&self) -> &[usize] {
        &self.used[..self.flow.parts.len()]
    }

    #[inline(always)]
    fn act(&mut self, game: &mut Game, action: &Action, imitated: &mut Vec<ActionSpace>) -> RuleResult {
        let (p, space, flow) = (self.p, self.space, self.flow);
        if action.is_free() {
            return free::free_action(game, p, action, free::Window::Anytime);
        }
        let cell = ruby_mine_cell(&game.players[p], action);
        let k = flow
            .parts
            .iter()
            .enumerate()
            .position(|(k, &(part, max))| matches(part, action) && self.used[k] < max && fits_cell(part, cell))
            .ok_or_else(|| not_allowed(space, action, flow, self.used()))?;
        check_connector(space, flow, self.used(), self.last, k)?;
        run_part(game, p, self.d, space, flow.parts[k].0, action, imitated)?;
        self.used[k] += 1;
        self.last = Some(k);
        self.did_something = true;
        Ok(())
    }

    #[inline(always)]
    fn end(&self, game: &mut Game) -> RuleResult {
        let space = self.space;
        if space == ActionSpace::Extension && self.guest && self.used().iter().all(|&u| u > 0) {
            let player = &mut game.players[self.p];
            ensure(!player.extension_both, ErrorCode::ActionNotAllowed, || {
                "the Guest room lets you use both halves of Extension once per game".into()
            })?;
            player.extension_both = true;
        }
        ensure(self.did_something, ErrorCode::NoAction, || {
            format!("a dwarf on {} must carry out at least one of its actions", chronicle_game::view::title(space.id()))
        })
    }
}

/// What lies under a `ruby_mine` action's cell (for the Guest room's two Ruby mines, H.8).
fn ruby_mine_cell(p: &Player, action: &Action) -> Option<crate::board::Tile> {
    match action {
        Action::RubyMine { at } => tiles::coord(*at, true).ok().and_then(|c| p.board.tile(c)),
        _ => None,
    }
}

/// A kind-bound Ruby mine part takes only a cell of its kind; other cells go to the first free
/// part and are rejected by the placement itself.
fn fits_cell(part: Part, cell: Option<crate::board::Tile>) -> bool {
    use crate::board::Tile;
    match (part, cell) {
        (Part::RubyMine(Some(kind)), Some(t @ (Tile::Tunnel | Tile::DeepTunnel))) => kind == t,
        _ => true,
    }
}

#[inline]
fn matches(part: Part, action: &Action) -> bool {
    match (part, action) {
        (Part::Twin(_) | Part::TwinWith(..), Action::Twin { kinds, .. }) => match part {
            Part::TwinWith(t, _) => tiles::Twin::from_kinds(*kinds).is_some_and(|(k, _)| k == t),
            _ => true,
        },
        (Part::OreMine, Action::OreMine { .. }) => true,
        (Part::RubyMine(_), Action::RubyMine { .. }) => true,
        (Part::Furnish(_), Action::Furnish { .. }) => true,
        (Part::Grow, Action::Grow {}) => true,
        (Part::Sow, Action::Sow { .. }) => true,
        (Part::SmallPasture, Action::Fence { cells }) => cells.len() == 1,
        (Part::LargePasture, Action::Fence { cells }) => cells.len() == 2,
        (Part::Stable, Action::Stable { .. }) => true,
        (Part::Forge, Action::Forge { .. }) => true,
        (Part::Expedition(_), Action::Expedition { .. }) => true,
        (Part::TradeOre, Action::TradeOre { .. }) => true,
        (Part::Buy, Action::Buy { .. }) => true,
        (Part::Gain(_), Action::Gain {}) => true,
        (Part::Dog, Action::Dog {}) => true,
        (Part::Imitate, Action::Imitate { .. }) => true,
        _ => false,
    }
}

fn not_allowed(space: ActionSpace, action: &Action, flow: &Flow, used: &[usize]) -> RuleError {
    let repeated = flow.parts.iter().zip(used).any(|(&(part, _), &u)| u > 0 && matches(part, action));
    let msg = if repeated {
        format!("`{}` is already done on {}", action.name(), space.id())
    } else {
        format!("`{}` is not an action of {}", action.name(), space.id())
    };
    RuleError::new(ErrorCode::ActionNotAllowed, msg)
}

/// Whether doing part `k` next respects the connector, given the parts done so far.
#[inline]
pub fn check_connector(space: ActionSpace, flow: &Flow, used: &[usize], last: Option<usize>, k: usize) -> RuleResult {
    match connector_refusal(flow, used, last, k) {
        Some(why) => fail(ErrorCode::ActionNotAllowed, format!("{}: {why}", space.id())),
        None => Ok(()),
    }
}

/// Why the connector forbids doing part `k` next, if it does ([`check_connector`] without
/// building the error, for the generator, which asks for every part at every step).
pub fn connector_refusal(flow: &Flow, used: &[usize], last: Option<usize>, k: usize) -> Option<&'static str> {
    match flow.connector {
        Connector::AndOr => None,
        Connector::AndThenOr => match last {
            Some(l) if k < l => Some("its actions must be done in printed order (\"and then/or\")"),
            _ => None,
        },
        Connector::AndThen => match last {
            None if k != 0 => Some("the first action must come first (\"and then\")"),
            _ => None,
        },
        Connector::Or => match last {
            Some(l) if l != k => Some("only one of its actions may be chosen (\"either … or\")"),
            _ => None,
        },
        Connector::UrgentWish { guest_room } => {
            // Parts: 0 dwelling, 1 growth, 2 gold. Growth only after the dwelling.
            if k == 1 && used[0] == 0 {
                return Some("family growth here needs the dwelling to be built first");
            }
            let gold_branch = k == 2;
            let other_branch_used = if gold_branch { used[0] + used[1] > 0 } else { used[2] > 0 };
            if other_branch_used && !guest_room {
                return Some("either the dwelling (and growth) or the 3 gold (\"either … or\")");
            }
            None
        }
    }
}

fn run_part(
    game: &mut Game,
    p: usize,
    d: usize,
    space: ActionSpace,
    part: Part,
    action: &Action,
    imitated: &mut Vec<ActionSpace>,
) -> RuleResult {
    match (part, action) {
        (Part::Twin(allowed), Action::Twin { cells, kinds }) => {
            tiles::place_twin(&mut game.players[p], *cells, *kinds, allowed).map(|_| ())
        }
        (Part::TwinWith(twin, good), Action::Twin { cells, kinds }) => {
            tiles::place_twin(&mut game.players[p], *cells, *kinds, &[twin])?;
            gain(&mut game.players[p], good, 1);
            Ok(())
        }
        (Part::OreMine, Action::OreMine { cells, kinds }) => {
            tiles::place_ore_mine(&mut game.players[p], *cells, *kinds)?;
            game.players[p].supply.add(Good::Ore, 3);
            Ok(())
        }
        (Part::RubyMine(_), Action::RubyMine { at }) => tiles::place_ruby_mine(&mut game.players[p], *at),
        (Part::Furnish(kind), Action::Furnish { tile, at, pay }) => furnish(game, p, *tile, *at, pay.as_ref(), kind),
        (Part::Grow, Action::Grow {}) => family::grow(&mut game.players[p]),
        (Part::Sow, Action::Sow { grain, vegetable }) => sowing::sow(&mut game.players[p], grain, vegetable),
        (Part::SmallPasture | Part::LargePasture, Action::Fence { cells }) => {
            let player = &mut game.players[p];
            let size = if cells.len() == 1 { Pasture::Small } else { Pasture::Large };
            pay(player, Good::Wood, pasture_price(player, size, false))?;
            tiles::build_pasture(player, cells).map(|_| ())
        }
        (Part::Stable, Action::Stable { at }) => {
            let player = &mut game.players[p];
            let stone = 1 - u32::from(player.owns(Furnishing::StoneCarver));
            pay(player, Good::Stone, stone)?;
            tiles::build_stable(player, *at)
        }
        (Part::Forge, Action::Forge { strength }) => {
            weapons::forge(&mut game.players[p], d, *strength)?;
            let round = game.round();
            game.record(crate::events::Event::Forged { player: p, round, dwarf: d, strength: *strength as u8 });
            Ok(())
        }
        (Part::Expedition(level), Action::Expedition { loot }) => expedition(game, p, d, level, loot),
        (Part::TradeOre, Action::TradeOre { times }) => {
            ensure((1..=3).contains(times), ErrorCode::OutOfRange, || format!("ore trading {times} times; 1 to 3"))?;
            let player = &mut game.players[p];
            pay(player, Good::Ore, 2 * times)?;
            player.supply.add(Good::Gold, 2 * times);
            player.supply.add(Good::Food, *times);
            Ok(())
        }
        (Part::Buy, Action::Buy { goods }) => weekly_market(&mut game.players[p], goods),
        (Part::Gain(goods), Action::Gain {}) => {
            for &(g, n) in goods {
                gain(&mut game.players[p], g, n);
            }
            Ok(())
        }
        (Part::Dog, Action::Dog {}) => {
            gain(&mut game.players[p], Good::Dog, 1);
            Ok(())
        }
        (Part::Imitate, Action::Imitate { space: target, actions }) => {
            imitate(game, p, d, space, *target, actions, imitated)
        }
        _ => fail(ErrorCode::ActionNotAllowed, format!("`{}` does not fit {}", action.name(), space.id())),
    }
}

/// Weekly market prices (B.2, H.12); each good at most once.
fn weekly_market(p: &mut Player, goods: &[Good]) -> RuleResult {
    for (i, g) in goods.iter().enumerate() {
        ensure(!goods[..i].contains(g), ErrorCode::ActionNotAllowed, || {
            format!("the weekly market sells at most one {}", g.id())
        })?;
        let price = match g {
            Good::Dog | Good::Boar | Good::Vegetable => 2,
            Good::Sheep | Good::Donkey | Good::Wood | Good::Stone | Good::Ore | Good::Grain => 1,
            Good::Cattle => 3,
            _ => return fail(ErrorCode::ActionNotAllowed, format!("the weekly market does not sell {}", g.id())),
        };
        pay(p, Good::Gold, price)?;
        gain(p, *g, 1);
    }
    Ok(())
}

/// Imitation (B.5, H.7): pay the food, then use an opponent-occupied space as if there.
fn imitate(
    game: &mut Game,
    p: usize,
    d: usize,
    via: ActionSpace,
    target: ActionSpace,
    actions: &[Action],
    imitated: &mut Vec<ActionSpace>,
) -> RuleResult {
    let cost = via.imitation_cost(game.setup.players());
    pay(&mut game.players[p], Good::Food, cost)?;
    ensure(target != ActionSpace::StartingPlayer, ErrorCode::ImitationTarget, || {
        "starting_player can never be imitated".into()
    })?;
    let occupant = game.spaces.get(&target).and_then(|s| s.occupant());
    match occupant {
        Some((q, _)) if q != p => {}
        Some(_) => return fail(ErrorCode::ImitationTarget, format!("{} holds your own dwarf", target.id())),
        None => return fail(ErrorCode::ImitationTarget, format!("{} holds no opponent's dwarf", target.id())),
    }
    ensure(!imitated.contains(&target) && target != via, ErrorCode::ImitationTarget, || {
        format!("{} is already imitated in this placement", target.id())
    })?;
    imitated.push(via);
    if let Some(crate::events::Event::Placed { imitated: copied, .. }) = game.last_event_mut() {
        *copied = Some(target);
    }
    use_space(game, p, d, target, false, actions, imitated)
}
