//! Legal decisions from any state: the `place` entries of the player to move (space, dwarf and
//! the actions with their parameters) and the harvest decisions (`harvest_choice`, `feed`,
//! `breed`, `keep`).
//!
//! Candidates are built from the same flow table the rules use ([`placement::flow`]) and each
//! is verified by applying it to a copy of the game, so **everything generated is legal**.
//! Large choice sets are cut by [`Limits`]; what is not enumerated:
//!
//! - `free` entries and free actions inside a placement (conversions, ruby trades, tile uses),
//!   except one conversion appended when gained animals would otherwise not fit;
//! - the Builder's `pay` substitutions;
//! - more than [`Limits::options_per_part`] options of one part inside a combination of parts
//!   (each part alone is enumerated up to [`Limits::options_alone`]);
//! - loot: the empty set, every single item, and up to [`Limits::loot_sets`] larger sets
//!   (highest-strength items first); parameterised loot takes its first legal parameter;
//! - weekly market: single purchases only;
//! - feeding: no conversion, or one plan that covers the food due with the least valuable goods.
//!
//! A [`Chooser`] decides which options a search explores, so the same code enumerates
//! (deterministically, [`Enumerate`]) or samples one path (bots).

use crate::action_space::ActionSpace;
use crate::board::{Coord, Tile};
use crate::furnishing::Furnishing;
use crate::game::{Game, Phase};
use crate::goods::{FarmAnimal, Good, Goods};
use crate::notation::{Action, Entry, HarvestPhase, Loot, LootItem, RawCoord, TileKind};
use crate::rules::expedition::min_strength;
use crate::rules::furnish::Furnish;
use crate::rules::placement::{self, connector_refusal, Connector, Flow, Part};
use crate::rules::tiles::{self, Twin};
use crate::rules::{housing, weapons};

/// Caps on enumeration (see the module docs).
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    pub options_alone: usize,
    pub options_per_part: usize,
    pub loot_sets: usize,
    pub per_space: usize,
    /// A tile that, wherever the player can furnish it, is the only furnishing option
    /// explored (a bot keen on it: `chronicle_game::pool`); `None` for every generator of
    /// legal entries.
    pub only_tile: Option<Furnishing>,
}

impl Default for Limits {
    fn default() -> Self {
        Limits { options_alone: 64, options_per_part: 6, loot_sets: 12, per_space: 96, only_tile: None }
    }
}

/// Which of `n` options a search explores.
pub trait Chooser {
    fn choose(&mut self, n: usize, cap: usize) -> Vec<usize>;
}

/// Explores options in order, up to the cap.
pub struct Enumerate;

impl Chooser for Enumerate {
    fn choose(&mut self, n: usize, cap: usize) -> Vec<usize> {
        (0..n.min(cap)).collect()
    }
}

pub(crate) fn raw(c: Coord) -> RawCoord {
    RawCoord(i64::from(c.row), i64::from(c.col))
}

/// The player whose decision the game waits for, if one player's.
pub fn deciding_players(game: &Game) -> Vec<usize> {
    match game.phase() {
        Phase::Work { to_move } => vec![*to_move],
        Phase::HarvestChoice => {
            (0..game.players().len()).filter(|&p| game.player(p).harvest_choice.is_none()).collect()
        }
        Phase::Feeding { fed, .. } => (0..fed.len()).filter(|&p| !fed[p]).collect(),
        Phase::Breeding { done } => (0..done.len()).filter(|&p| !done[p] && game.breeds(p)).collect(),
        Phase::Keep => vec![0],
        Phase::BeforeScoring | Phase::Over => vec![],
    }
}

/// Every legal entry at this point (within [`Limits`]).
pub fn legal_entries(game: &Game, limits: &Limits) -> Vec<Entry> {
    match game.phase() {
        Phase::Work { to_move } => places(game, *to_move, limits, &mut Enumerate),
        Phase::HarvestChoice => deciding_players(game)
            .into_iter()
            .flat_map(|p| {
                [HarvestPhase::Field, HarvestPhase::Breeding]
                    .map(|phase| Entry::HarvestChoice { player: p as u32, phase })
            })
            .collect(),
        Phase::Feeding { .. } => deciding_players(game).into_iter().flat_map(|p| feeds(game, p)).collect(),
        Phase::Breeding { .. } => deciding_players(game).into_iter().flat_map(|p| breeds(game, p)).collect(),
        Phase::Keep => keeps(game),
        Phase::BeforeScoring | Phase::Over => vec![],
    }
}

/// Whether `entry` is legal here.
pub fn is_legal(game: &Game, entry: &Entry) -> bool {
    let mut g = trial_copy(game);
    g.play_entry(entry).is_ok()
}

/// A copy of the game for testing a move: facts are not recorded on it.
fn trial_copy(game: &Game) -> Game {
    let mut g = game.clone();
    g.set_record_events(false);
    g
}

/// [`trial_copy`] on the heap, for copies that are handed on (a [`Game`] is too large to move
/// by value through the walk), written over `spare` when there is one: copies of rejected
/// candidates and replaced states are refreshed rather than freed and allocated again.
pub(crate) fn boxed_trial(game: &Game, spare: &mut Option<Box<Game>>) -> Box<Game> {
    let mut g = match spare.take() {
        Some(mut g) => {
            (*g).clone_from(game);
            g
        }
        None => Box::new(game.clone()),
    };
    g.set_record_events(false);
    g
}

/// The entry, or the entry with a conversion that makes room for gained animals, if legal.
fn verified(game: &Game, entry: Entry) -> Option<Entry> {
    verified_outcome(game, entry, &mut None).ok().map(|(e, _)| e)
}

/// [`verified`], with the state after the entry (so that callers need not apply it again);
/// if illegal, the copy it was tried on, for reuse.
fn verified_outcome(game: &Game, entry: Entry, spare: &mut Option<Box<Game>>) -> Verdict {
    let mut g = boxed_trial(game, spare);
    let result = g.play_entry(&entry);
    outcome(game, entry, g, result)
}

/// A legal entry with the state after it, or the copy an illegal one was tried on.
pub(crate) type Verdict = Result<(Entry, Box<Game>), Box<Game>>;

/// The outcome of `entry` played on a copy `g` of `game` with `result`: the entry and `g` if
/// legal; if the gained animals did not fit, the entry with [`make_room`]'s conversion appended,
/// played on a fresh copy.
pub(crate) fn outcome(game: &Game, mut entry: Entry, g: Box<Game>, result: crate::error::RuleResult) -> Verdict {
    match result {
        Ok(()) => Ok((entry, g)),
        Err(e) if e.code == crate::ErrorCode::AnimalsUnhoused => {
            let p = entry.player() as usize;
            let Some(fix) = make_room(g.player(p)) else { return Err(g) };
            if let Entry::Place { actions, .. } | Entry::Feed { actions, .. } | Entry::Free { actions, .. } = &mut entry
            {
                actions.push(fix);
            }
            let mut g = boxed_trial(game, &mut Some(g));
            match g.play_entry(&entry) {
                Ok(()) => Ok((entry, g)),
                Err(_) => Err(g),
            }
        }
        Err(_) => Err(g),
    }
}

/// A conversion of the fewest animals that lets the rest be housed (`docs/rules/caverna-reference.md` F.1, F.4).
pub fn make_room(p: &crate::game::Player) -> Option<Action> {
    let mut animals = p.animals();
    let dogs = p.supply.get(Good::Dog);
    let mut convert = Goods::new();
    let fits = |a: [u32; 4]| housing::fits(&p.board, p.dwarfs_in_play(), a, dogs);
    while !fits(animals) {
        // Prefer a removal that makes everything fit; else take from the largest herd.
        let single = FarmAnimal::ALL.into_iter().find(|a| {
            let mut t = animals;
            t[a.index()] > 0 && {
                t[a.index()] -= 1;
                fits(t)
            }
        });
        let a = single.or_else(|| FarmAnimal::ALL.into_iter().max_by_key(|a| animals[a.index()]))?;
        if animals[a.index()] == 0 {
            return None;
        }
        animals[a.index()] -= 1;
        convert.add(a.good(), 1);
    }
    (!convert.is_empty()).then(|| Action::Convert { goods: convert.iter().collect() })
}

/// Dwarf choices, as the `(dwarf, ruby)` fields of a `place` entry: the one in order, and one
/// out-of-order dwarf per other strength (1 ruby).
pub fn dwarf_choices(game: &Game, p: usize) -> Vec<(Option<u32>, bool)> {
    let player = game.player(p);
    let key = |w: Option<u8>| w.map_or(0, u32::from);
    let mut out = vec![(None, false)];
    if player.supply.get(Good::Ruby) == 0 {
        return out;
    }
    let lowest = player.dwarfs.iter().filter(|d| d.is_available()).map(|d| key(d.weapon)).min();
    let mut seen = Vec::new();
    for (i, d) in player.dwarfs.iter().enumerate() {
        let k = key(d.weapon);
        if d.is_available() && Some(k) != lowest && !seen.contains(&k) {
            seen.push(k);
            out.push((Some(i as u32), true));
        }
    }
    out
}

/// Legal `place` entries of player `p`.
pub fn places(game: &Game, p: usize, limits: &Limits, chooser: &mut dyn Chooser) -> Vec<Entry> {
    let spaces: Vec<ActionSpace> = game.spaces().iter().filter(|(_, s)| s.is_free()).map(|(&a, _)| a).collect();
    let mut out = Vec::new();
    for space in spaces {
        out.extend(space_places(game, p, space, limits, chooser));
    }
    out
}

/// Legal `place` entries of player `p` on one space.
pub fn space_places(
    game: &Game,
    p: usize,
    space: ActionSpace,
    limits: &Limits,
    chooser: &mut dyn Chooser,
) -> Vec<Entry> {
    space_outcomes(game, p, space, limits, chooser).into_iter().map(|(e, _)| e).collect()
}

/// [`space_places`], each entry with the state after it.
pub fn space_outcomes(
    game: &Game,
    p: usize,
    space: ActionSpace,
    limits: &Limits,
    chooser: &mut dyn Chooser,
) -> Vec<(Entry, Box<Game>)> {
    let mut out = Vec::new();
    let mut spare = None;
    for choice in dwarf_choices(game, p) {
        let left = limits.per_space - out.len().min(limits.per_space);
        out.extend(dwarf_outcomes(game, p, space, choice, limits, left, chooser, &mut spare));
        if out.len() >= limits.per_space {
            break;
        }
    }
    out
}

/// Legal `place` entries of player `p` on one space with one dwarf choice (an item of
/// [`dwarf_choices`]), each with the state after it. The first copy of the game is written
/// over `spare` (a copy no longer needed) when there is one, and a copy no longer needed is
/// left there.
pub fn dwarf_places(
    game: &Game,
    p: usize,
    space: ActionSpace,
    choice: (Option<u32>, bool),
    limits: &Limits,
    chooser: &mut dyn Chooser,
    spare: &mut Option<Box<Game>>,
) -> Vec<(Entry, Box<Game>)> {
    dwarf_outcomes(game, p, space, choice, limits, limits.per_space, chooser, spare)
}

#[allow(clippy::too_many_arguments)]
fn dwarf_outcomes(
    game: &Game,
    p: usize,
    space: ActionSpace,
    (dwarf, ruby): (Option<u32>, bool),
    limits: &Limits,
    most: usize,
    chooser: &mut dyn Chooser,
    spare: &mut Option<Box<Game>>,
) -> Vec<(Entry, Box<Game>)> {
    let mut out = Vec::new();
    if most == 0 {
        return out;
    }
    let mut g = boxed_trial(game, spare);
    let Ok(placing) = placement::Placing::begin(&mut g, p, space, dwarf, ruby) else {
        *spare = Some(g);
        return out;
    };
    let d = placing.dwarf();
    // In the player's turn, finishing the placement on the walk's copy is exactly
    // `play_entry` on a fresh copy; in any other state the entry is replayed as a log would be.
    let in_turn = matches!(game.phase(), Phase::Work { to_move } if *to_move == p);
    let mut accept = |actions: Vec<Action>, trial: Trial| {
        let entry = Entry::Place { player: p as u32, space, dwarf, ruby, actions };
        let verdict = match trial {
            Trial { game: mut g, placing: Some(placing) } if in_turn => {
                let result = g.finish_placing(&placing);
                outcome(game, entry, g, result)
            }
            Trial { game: g, .. } => verified_outcome(game, entry, &mut Some(g)),
        };
        verdict.map(|o| out.push(o))
    };
    let mut walk = Walk { p, d, space, limits, depth: 0, most, accepted: 0, spare: None };
    walk.action_lists(Trial { game: g, placing: Some(placing) }, chooser, &mut accept);
    if walk.spare.is_some() {
        *spare = walk.spare;
    }
    out
}

/// The state a walk carries from part to part: the copy of the game with the actions so far
/// applied and, for a placement (not an imitated space), its progress.
#[derive(Clone)]
struct Trial {
    game: Box<Game>,
    placing: Option<placement::Placing>,
}

impl Trial {
    /// Carries out `action` for `part` as the entry will: through the placement when there is
    /// one, else as one part of the space.
    fn act(&mut self, p: usize, d: usize, space: ActionSpace, part: Part, action: &Action) -> crate::error::RuleResult {
        match &mut self.placing {
            Some(placing) => placing.act(&mut self.game, action),
            None => placement::run_action(&mut self.game, p, d, space, part, action),
        }
    }
}

/// Most parts of a space, and most part uses in one sequence (the Adventure's forge and two
/// expeditions are 3; a test checks every flow).
const MAX_SEQ: usize = 4;

/// A sequence of part indices, inline: a walk builds every sequence of its space.
#[derive(Clone, Copy, Default)]
struct Seq {
    len: usize,
    parts: [usize; MAX_SEQ],
}

impl std::ops::Deref for Seq {
    type Target = [usize];
    fn deref(&self) -> &[usize] {
        &self.parts[..self.len]
    }
}

/// Sequences of part indices allowed by the flow (the empty sequence included), depth first.
fn part_sequences(flow: &Flow) -> Vec<Seq> {
    fn go(flow: &Flow, seq: &mut Seq, used: &mut [usize], out: &mut Vec<Seq>) {
        out.push(*seq);
        if seq.len == MAX_SEQ {
            return;
        }
        for k in 0..flow.parts.len() {
            if used[k] >= flow.parts[k].1 || connector_refusal(flow, used, seq.last().copied(), k).is_some() {
                continue;
            }
            // "and then": later parts only after the first.
            if flow.connector == Connector::AndThen && seq.is_empty() && k != 0 {
                continue;
            }
            used[k] += 1;
            seq.parts[seq.len] = k;
            seq.len += 1;
            go(flow, seq, used, out);
            seq.len -= 1;
            used[k] -= 1;
        }
    }
    let mut out = Vec::with_capacity(8);
    let mut used = [0; MAX_SEQ];
    go(flow, &mut Seq::default(), &mut used[..flow.parts.len().min(MAX_SEQ)], &mut out);
    out
}

/// One search for the action lists of dwarf `d` of player `p` on `space`.
struct Walk<'a> {
    p: usize,
    d: usize,
    space: ActionSpace,
    limits: &'a Limits,
    /// Imitation nesting (at most 2).
    depth: usize,
    /// Lists to accept before stopping.
    most: usize,
    accepted: usize,
    /// The copy of a rejected list, for reuse.
    spare: Option<Box<Game>>,
}

/// Receives a walk's action list with the state after it; `Ok` when the list counts, else
/// the copy it was tried on.
type Accept<'a> = dyn FnMut(Vec<Action>, Trial) -> Result<(), Box<Game>> + 'a;

impl Walk<'_> {
    /// Hands every action list for the dwarf, starting from `trial` (the dwarf placed), to
    /// `accept`, which says whether the list counts (towards [`Walk::most`]).
    fn action_lists(&mut self, trial: Trial, chooser: &mut dyn Chooser, accept: &mut Accept) {
        let player = trial.game.player(self.p);
        let flow =
            placement::flow(self.space, player.owns(Furnishing::GuestRoom), player.dwarfs[self.d].weapon.is_some());
        let sequences = part_sequences(flow);
        let picks = chooser.choose(sequences.len(), sequences.len());
        let mut trial = Some(trial);
        for (n, &i) in picks.iter().enumerate() {
            let seq = sequences[i];
            let cap = if seq.len() <= 1 { self.limits.options_alone } else { self.limits.options_per_part };
            let Some(t) = (if n + 1 == picks.len() { trial.take() } else { trial.clone() }) else { return };
            self.extend(t, flow, &seq, Vec::new(), cap, chooser, accept);
            if self.accepted >= self.most {
                break;
            }
        }
    }

    /// Carries out the parts `seq` on `trial`, one option each as the chooser says; the
    /// copy is moved into the last option explored rather than copied.
    #[allow(clippy::too_many_arguments)]
    fn extend(
        &mut self,
        trial: Trial,
        flow: &Flow,
        seq: &[usize],
        mut done: Vec<Action>,
        cap: usize,
        chooser: &mut dyn Chooser,
        accept: &mut Accept,
    ) {
        let Some((&k, rest)) = seq.split_first() else {
            match accept(done, trial) {
                Ok(()) => self.accepted += 1,
                Err(g) => self.spare = Some(g),
            }
            return;
        };
        let part = flow.parts[k].0;
        let options = part_options(&trial.game, self.p, self.d, self.space, part, self.limits, chooser, self.depth);
        let picks = chooser.choose(options.len(), cap);
        let mut trial = Some(trial);
        for (n, &i) in picks.iter().enumerate() {
            let action = &options[i];
            let Some(mut next) = (if n + 1 == picks.len() { trial.take() } else { trial.clone() }) else { return };
            if next.act(self.p, self.d, self.space, part, action).is_err() {
                self.spare = Some(next.game);
                continue;
            }
            // The last option takes the list itself; a list starts with room for a whole
            // sequence (at most MAX_SEQ actions), so pushing never reallocates it.
            let mut more = if n + 1 == picks.len() { std::mem::take(&mut done) } else { done.clone() };
            more.reserve(MAX_SEQ.saturating_sub(more.len()));
            more.push(action.clone());
            self.extend(next, flow, rest, more, cap, chooser, accept);
            if self.accepted >= self.most {
                return;
            }
        }
    }
}

pub(crate) fn adjacent_pairs(ring: bool) -> impl Iterator<Item = (Coord, Coord)> {
    crate::board::adjacent_pairs(ring).iter().copied()
}

fn twin_kinds(t: Twin) -> &'static [[TileKind; 2]] {
    use TileKind as K;
    match t {
        Twin::CavernTunnel => &[[K::Cavern, K::Tunnel], [K::Tunnel, K::Cavern]],
        Twin::CavernCavern => &[[K::Cavern, K::Cavern]],
        Twin::MeadowField => &[[K::Meadow, K::Field], [K::Field, K::Meadow]],
    }
}

fn twins(g: &Game, p: usize, allowed: &[Twin]) -> Vec<Action> {
    let player = g.player(p);
    let office = player.owns(Furnishing::OfficeRoom);
    let mut out = Vec::new();
    for (a, b) in adjacent_pairs(office) {
        // Cheap necessary conditions first (A.4): two empty cells of the twin's terrain.
        if player.board.tile(a).is_some() || player.board.tile(b).is_some() || a.is_forest() != b.is_forest() {
            continue;
        }
        // The check most pairs fail, once per pair rather than once per kind.
        if !tiles::twin_touches(player, [a, b]) {
            continue;
        }
        for &t in allowed {
            if (t == Twin::MeadowField) != a.is_forest() {
                continue;
            }
            for &kinds in twin_kinds(t) {
                let cells = [raw(a), raw(b)];
                if tiles::can_place_twin(player, cells, kinds, &[t]) {
                    out.push(Action::Twin { cells, kinds });
                }
            }
        }
    }
    out
}

pub(crate) fn cells_where(g: &Game, p: usize, pred: impl Fn(Coord, Option<Tile>, bool) -> bool) -> Vec<Coord> {
    let b = &g.player(p).board;
    Coord::all().filter(|&c| pred(c, b.tile(c), b.has_stable(c))).collect()
}

#[allow(clippy::too_many_arguments)]
pub(crate) fn part_options(
    g: &Game,
    p: usize,
    d: usize,
    space: ActionSpace,
    part: Part,
    limits: &Limits,
    chooser: &mut dyn Chooser,
    depth: usize,
) -> Vec<Action> {
    let player = g.player(p);
    match part {
        Part::Twin(allowed) => twins(g, p, allowed),
        Part::TwinWith(t, _) => twins(g, p, &[t]),
        Part::OreMine => {
            let mut out = Vec::new();
            for (a, b) in adjacent_pairs(true) {
                if player.board.tile(a) == Some(Tile::Tunnel) && player.board.tile(b) == Some(Tile::Tunnel) {
                    for kinds in [[TileKind::OreMine, TileKind::DeepTunnel], [TileKind::DeepTunnel, TileKind::OreMine]]
                    {
                        out.push(Action::OreMine { cells: [raw(a), raw(b)], kinds });
                    }
                }
            }
            out
        }
        Part::RubyMine(kind) => cells_where(g, p, |_, t, _| match (t, kind) {
            (Some(Tile::Tunnel | Tile::DeepTunnel), None) => true,
            (Some(t), Some(k)) => t == k,
            _ => false,
        })
        .into_iter()
        .map(|c| Action::RubyMine { at: raw(c) })
        .collect(),
        Part::Furnish(kind) => {
            let mut options = furnish_options(g, p, kind);
            if let Some(only) = limits.only_tile {
                if options.iter().any(|a| matches!(a, Action::Furnish { tile, .. } if *tile == only)) {
                    options.retain(|a| matches!(a, Action::Furnish { tile, .. } if *tile == only));
                }
            }
            options
        }
        Part::Grow => vec![Action::Grow {}],
        Part::Sow => sow_options(player),
        Part::SmallPasture => cells_where(g, p, |_, t, _| t == Some(Tile::Meadow))
            .into_iter()
            .map(|c| Action::Fence { cells: vec![raw(c)] })
            .collect(),
        Part::LargePasture => adjacent_pairs(true)
            .filter(|&(a, b)| player.board.tile(a) == Some(Tile::Meadow) && player.board.tile(b) == Some(Tile::Meadow))
            .map(|(a, b)| Action::Fence { cells: vec![raw(a), raw(b)] })
            .collect(),
        Part::Stable => stable_cells(g, p).into_iter().map(|c| Action::Stable { at: raw(c) }).collect(),
        Part::Forge => {
            let ore = player.supply.get(Good::Ore);
            (1..=weapons::MAX_FORGED)
                .rev()
                .filter(|&s| weapons::forge_cost(player, s) <= ore)
                .map(|strength| Action::Forge { strength })
                .collect()
        }
        Part::Expedition(level) => loot_options(g, p, player.dwarfs[d].weapon.unwrap_or(0), level, limits)
            .into_iter()
            .map(|loot| Action::Expedition { loot })
            .collect(),
        Part::TradeOre => {
            (1..=(player.supply.get(Good::Ore) / 2).min(3)).map(|times| Action::TradeOre { times }).collect()
        }
        Part::Buy => [
            Good::Dog,
            Good::Sheep,
            Good::Donkey,
            Good::Boar,
            Good::Cattle,
            Good::Wood,
            Good::Stone,
            Good::Ore,
            Good::Grain,
            Good::Vegetable,
        ]
        .into_iter()
        .map(|good| Action::Buy { goods: vec![good] })
        .collect(),
        Part::Gain(_) => vec![Action::Gain {}],
        Part::Dog => vec![Action::Dog {}],
        Part::Imitate => imitate_options(g, p, d, space, limits, chooser, depth),
    }
}

pub(crate) fn stable_cells(g: &Game, p: usize) -> Vec<Coord> {
    if g.player(p).board.stables() >= crate::game::MAX_STABLES {
        return vec![];
    }
    cells_where(g, p, |c, t, stable| {
        c.is_forest()
            && !stable
            && match t {
                None => c.is_inner(),
                Some(t) => matches!(t, Tile::Meadow | Tile::SmallPasture | Tile::LargePasture { .. }),
            }
    })
}

/// Cells a tile might go on: caverns, tunnels with a Work room, and the tiles a tile may cover.
pub(crate) fn furnish_cells(g: &Game, p: usize) -> Vec<Coord> {
    let work_room = g.player(p).owns(Furnishing::WorkRoom);
    cells_where(g, p, |_, t, _| match t {
        Some(Tile::Cavern) => true,
        Some(Tile::Tunnel | Tile::DeepTunnel) => work_room,
        Some(Tile::Furnished { tile, .. }) => matches!(tile, Furnishing::Trader | Furnishing::SparePartStorage),
        _ => false,
    })
}

fn furnish_options(g: &Game, p: usize, kind: Furnish) -> Vec<Action> {
    let player = g.player(p);
    let cells = furnish_cells(g, p);
    let mut out = Vec::new();
    for tile in Furnishing::all() {
        if kind == Furnish::DwellingOnly && !tile.is_dwelling() {
            continue;
        }
        if !g.is_available(tile) || !player.supply.contains(&crate::rules::furnish::price(g, p, tile, kind)) {
            continue;
        }
        for &c in &cells {
            if crate::rules::furnish::can_furnish(g, p, tile, raw(c), kind) {
                out.push(Action::Furnish { tile, at: raw(c), pay: None });
                break; // one cell per tile: cells of the same kind are alike for the rules
            }
        }
    }
    out
}

fn sow_options(player: &crate::game::Player) -> Vec<Action> {
    let empty: Vec<RawCoord> = player.board.fields().filter(|(_, crop)| crop.is_none()).map(|(c, _)| raw(c)).collect();
    let grain = (player.supply.get(Good::Grain) as usize).min(2).min(empty.len());
    let veg = (player.supply.get(Good::Vegetable) as usize).min(2);
    let mut out = Vec::new();
    for ng in 0..=grain {
        let gs = &empty[..ng];
        let left = &empty[ng..];
        for nv in 0..=veg.min(left.len()) {
            if ng + nv == 0 {
                continue;
            }
            out.push(Action::Sow { grain: gs.to_vec(), vegetable: left[..nv].to_vec() });
        }
    }
    out
}

/// The first legal parameter of a parameterised loot item, or the item itself.
fn loot_with_params(g: &Game, p: usize, item: LootItem) -> Option<Loot> {
    let base = Loot { item, tile: None, at: None, cells: None, grain: None, vegetable: None, animals: None };
    let player = g.player(p);
    let first_furnish = |kind: Furnish| {
        furnish_options(g, p, kind).into_iter().find_map(|a| match a {
            Action::Furnish { tile, at, .. } => Some((tile, at)),
            _ => None,
        })
    };
    let single = |kind: tiles::Single| {
        Coord::inner().find(|&c| {
            // Cheap necessary conditions first: an empty cell of the tile's terrain.
            c.is_forest() == kind.is_forest()
                && player.board.tile(c).is_none()
                && tiles::can_place_single(player, kind, raw(c))
        })
    };
    Some(match item {
        LootItem::LootFurnishCavern => {
            let (tile, at) = first_furnish(Furnish::Any)?;
            Loot { tile: Some(tile), at: Some(at), ..base }
        }
        LootItem::LootDwelling2w2s => {
            let (_, at) = first_furnish(Furnish::DwellingOnly)?;
            Loot { tile: Some(Furnishing::Dwelling), at: Some(at), ..base }
        }
        LootItem::LootStable => Loot { at: Some(raw(*stable_cells(g, p).first()?)), ..base },
        LootItem::LootTunnel => Loot { at: Some(raw(single(tiles::Single::Tunnel)?)), ..base },
        LootItem::LootCavern => Loot { at: Some(raw(single(tiles::Single::Cavern)?)), ..base },
        LootItem::LootMeadow => Loot { at: Some(raw(single(tiles::Single::Meadow)?)), ..base },
        LootItem::LootField => Loot { at: Some(raw(single(tiles::Single::Field)?)), ..base },
        LootItem::LootSmallPasture => {
            let c = cells_where(g, p, |_, t, _| t == Some(Tile::Meadow)).into_iter().next()?;
            Loot { cells: Some(vec![raw(c)]), ..base }
        }
        LootItem::LootLargePasture => {
            let (a, b) = adjacent_pairs(true).find(|&(a, b)| {
                player.board.tile(a) == Some(Tile::Meadow) && player.board.tile(b) == Some(Tile::Meadow)
            })?;
            Loot { cells: Some(vec![raw(a), raw(b)]), ..base }
        }
        LootItem::LootSow => match sow_options(player).into_iter().next()? {
            Action::Sow { grain, vegetable } => Loot { grain: Some(grain), vegetable: Some(vegetable), ..base },
            _ => return None,
        },
        LootItem::LootBreed2 => {
            let animals: Vec<FarmAnimal> =
                FarmAnimal::ALL.into_iter().filter(|a| player.animals()[a.index()] >= 2).take(2).collect();
            Loot { animals: Some(animals), ..base }
        }
        _ => base,
    })
}

/// Loot lists for a dwarf of `strength` on a level-`level` expedition (see module docs).
fn loot_options(g: &Game, p: usize, strength: u8, level: usize, limits: &Limits) -> Vec<Vec<Loot>> {
    let mut eligible: Vec<Loot> = LootItem::ALL
        .into_iter()
        .filter(|&i| min_strength(i) <= strength)
        .filter_map(|i| loot_with_params(g, p, i))
        .collect();
    eligible.reverse(); // highest strength first
    let mut out = vec![vec![]];
    out.extend(eligible.iter().map(|l| vec![l.clone()]));
    for size in 2..=level.min(eligible.len()) {
        for start in 0..=(eligible.len() - size) {
            if out.len() >= eligible.len() + 1 + limits.loot_sets {
                return out;
            }
            out.push(eligible[start..start + size].to_vec());
        }
    }
    out
}

fn imitate_options(
    g: &Game,
    p: usize,
    d: usize,
    via: ActionSpace,
    limits: &Limits,
    chooser: &mut dyn Chooser,
    depth: usize,
) -> Vec<Action> {
    if depth >= 2 {
        return vec![];
    }
    let mut out = Vec::new();
    for target in imitation_targets(g, p, via) {
        let mut paid = Box::new(g.clone());
        let cost = via.imitation_cost(g.setup().players());
        if paid.players[p].supply.take(&Goods::one(Good::Food, cost)).is_err() {
            continue;
        }
        placement::give_fixed_goods(&mut paid, p, target);
        let mut walk =
            Walk { p, d, space: target, limits, depth: depth + 1, most: limits.per_space, accepted: 0, spare: None };
        walk.action_lists(Trial { game: paid, placing: None }, chooser, &mut |actions, _| {
            out.push(Action::Imitate { space: target, actions });
            Ok(())
        });
    }
    out
}

/// The spaces player `p` might imitate from `via`: occupied by another player, not the
/// Starting player space (`docs/rules/caverna-reference.md` B.5, H.7; the placement checks the rest).
pub(crate) fn imitation_targets(g: &Game, p: usize, via: ActionSpace) -> Vec<ActionSpace> {
    g.spaces()
        .iter()
        .filter(|(&s, st)| s != via && s != ActionSpace::StartingPlayer && st.occupant().is_some_and(|(q, _)| q != p))
        .map(|(&s, _)| s)
        .collect()
}

/// `feed` entries: none needed, or one plan that covers the food due (see module docs).
pub fn feeds(game: &Game, p: usize) -> Vec<Entry> {
    let mut out = vec![Entry::Feed { player: p as u32, actions: vec![] }];
    if let Some(plan) = feeding_plan(game, p) {
        if let Some(e) = verified(game, Entry::Feed { player: p as u32, actions: vec![plan] }) {
            out.push(e);
        }
    }
    out
}

/// Converts the goods worth least at scoring, per food, until the food due is covered:
/// grain, vegetables and rubies first, then animals beyond one of each type, then gold.
pub fn feeding_plan(game: &Game, p: usize) -> Option<Action> {
    let player = game.player(p);
    let one_food = game.harvest() == crate::game::Harvest::OneFoodPerDwarf;
    let relief = match game.phase() {
        Phase::Feeding { relief, .. } => relief[p],
        _ => 0,
    };
    let due = crate::rules::harvest::food_due(player, one_food, relief);
    let mut short = due.saturating_sub(player.supply.get(Good::Food));
    if short == 0 {
        return None;
    }
    let mut convert = Goods::new();
    let order = [
        (Good::Grain, 1, 0),
        (Good::Vegetable, 2, 0),
        (Good::Ruby, 2, 0),
        (Good::Boar, 2, 1),
        (Good::Cattle, 3, 1),
        (Good::Sheep, 1, 1),
        (Good::Donkey, 1, 1),
    ];
    for (good, food, keep) in order {
        let have = player.supply.get(good).saturating_sub(keep);
        let n = have.min(short.div_ceil(food));
        if n > 0 {
            convert.add(good, n);
            short = short.saturating_sub(n * food);
        }
        if short == 0 {
            break;
        }
    }
    let gold = player.supply.get(Good::Gold);
    if short > 0 && gold >= 2 {
        let n = (short + 1).min(gold);
        convert.add(Good::Gold, n);
    }
    (!convert.is_empty()).then(|| Action::Convert { goods: convert.iter().collect() })
}

/// `breed` entries: every subset of the types that can breed, if the newborns fit.
pub fn breeds(game: &Game, p: usize) -> Vec<Entry> {
    let player = game.player(p);
    let types: Vec<FarmAnimal> = FarmAnimal::ALL.into_iter().filter(|a| player.animals()[a.index()] >= 2).collect();
    let mut out = Vec::new();
    for mask in 0..(1u32 << types.len()) {
        let animals: Vec<FarmAnimal> =
            types.iter().enumerate().filter(|(i, _)| mask & (1 << i) != 0).map(|(_, &a)| a).collect();
        let e = Entry::Breed { player: p as u32, animals };
        if is_legal(game, &e) {
            out.push(e);
        }
    }
    out
}

/// `keep` entries (solo): every affordable subset of the spaces being cleared.
pub fn keeps(game: &Game) -> Vec<Entry> {
    let spaces = game.solo_overflowing();
    let mut out = Vec::new();
    for mask in 0..(1u32 << spaces.len().min(8)) {
        let kept: Vec<ActionSpace> =
            spaces.iter().enumerate().filter(|(i, _)| mask & (1 << i) != 0).map(|(_, &s)| s).collect();
        let e = Entry::Keep { player: 0, spaces: kept };
        if is_legal(game, &e) {
            out.push(e);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// [`Seq`] holds every sequence of every flow.
    #[test]
    fn sequences_fit_inline() {
        for space in ActionSpace::ALL {
            for (guest, armed) in [(false, false), (false, true), (true, false), (true, true)] {
                let flow = placement::flow(space, guest, armed);
                assert!(flow.parts.len() <= MAX_SEQ, "{space:?}");
                assert!(flow.parts.iter().map(|p| p.1).sum::<usize>() <= MAX_SEQ, "{space:?}");
            }
        }
    }
}
