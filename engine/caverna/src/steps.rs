//! Building one `place` entry step by step, so that a person (or a client) never has to guess:
//! the action space, then the dwarf, then each part of the space with its legal parameters
//! (cells for tiles, a tile and its cell for furnishing, loot item by item, the imitated space
//! and its actions), free actions at any point, and the finished entry once the draft is legal.
//!
//! Every option is checked by carrying out the draft with it on a copy of the game (the same
//! [`Placing`] steps a replay takes), so everything offered is legal so far. Unlike
//! [`crate::legal`], a part's options are not cut to a few per combination: each step lists
//! every cell, furnishing tile, sowing and loot parameter (up to [`MAX_OPTIONS`] a group, with
//! `complete` false when a group was cut). Free actions are offered one unit at a time (one
//! conversion, one ruby trade, one use of a tile), which reaches any amount by repetition.

use serde::{Deserialize, Serialize};

use crate::action_space::ActionSpace;
use crate::board::{Coord, Tile};
use crate::error::{ErrorCode, RuleError};
use crate::furnishing::Furnishing;
use crate::game::{Game, Phase};
use crate::goods::{FarmAnimal, Good};
use crate::legal::{self, adjacent_pairs, cells_where, furnish_cells, raw, stable_cells, Enumerate, Limits};
use crate::notation::{Action, Entry, Loot, LootItem, RawCoord, SingleTile, UseFor};
use crate::rules::expedition::min_strength;
use crate::rules::furnish::{can_furnish, Furnish};
use crate::rules::placement::{self, Part, Placing};
use crate::rules::tiles::{self, Single};

/// Most options in one group; a longer group is cut and the steps say they are incomplete.
pub const MAX_OPTIONS: usize = 400;

/// The dwarf chosen for a placement: the next in weapon order (`{}`), or another dwarf for a
/// ruby (`{"dwarf": 2, "ruby": true}`), as a `place` entry's `dwarf` and `ruby` fields.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Pick {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dwarf: Option<u32>,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub ruby: bool,
}

/// What a draft builds: a `place` entry (the default), or a `free` entry of any player at any
/// point of the game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum DraftKind {
    #[default]
    Place,
    Free,
}

impl DraftKind {
    fn is_place(&self) -> bool {
        *self == DraftKind::Place
    }
}

/// An entry being built: the fields chosen so far.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Draft {
    #[serde(rename = "type", default, skip_serializing_if = "DraftKind::is_place")]
    pub kind: DraftKind,
    pub player: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub space: Option<ActionSpace>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pick: Option<Pick>,
    #[serde(default)]
    pub actions: Vec<Action>,
}

impl Draft {
    /// An empty draft for player `p`.
    pub fn new(p: usize) -> Draft {
        Draft { kind: DraftKind::Place, player: p as u32, space: None, pick: None, actions: Vec::new() }
    }

    fn with_action(&self, action: Action) -> Draft {
        let mut d = self.clone();
        d.actions.push(action);
        d
    }

    fn with_last(&self, action: Action) -> Draft {
        let mut d = self.clone();
        d.actions.pop();
        d.actions.push(action);
        d
    }
}

/// One choice: what it is, and the draft it leads to.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Choice {
    pub label: String,
    pub draft: Draft,
    /// The board spaces the choice covers, in picking order, by their printed coordinates,
    /// with what goes on each: `(space, what)`.
    pub cells: Vec<(String, String)>,
    /// The furnishing tile picked before its space, by its printed name.
    pub pick: Option<String>,
    /// The picked tile's cost and points.
    pub detail: Option<String>,
}

impl Choice {
    /// A choice that covers no board space.
    fn plain(label: String, draft: Draft) -> Choice {
        Choice { label, draft, cells: Vec::new(), pick: None, detail: None }
    }

    /// The choice of `action`, said in the players' words, with the spaces it covers.
    fn of(action: &Action, draft: Draft) -> Choice {
        let (pick, detail) = match action {
            Action::Furnish { tile, .. } => (Some(tile.printed_name()), Some(tile.cost_and_points())),
            _ => (None, None),
        };
        Choice { label: crate::sentence::clause(action), draft, cells: covered(action), pick, detail }
    }
}

/// The spaces an action places a tile or a stable on, in picking order, by their printed
/// coordinates (`view::cell_name`), with what goes there.
fn covered(action: &Action) -> Vec<(String, String)> {
    let name = |c: &RawCoord| crate::board::Coord::new(c.0, c.1).map(crate::view::cell_name);
    let on = |c: &RawCoord, what: &str| name(c).map(|at| (at, what.to_owned()));
    match action {
        Action::Twin { cells, kinds } | Action::OreMine { cells, kinds } => {
            cells.iter().zip(kinds).filter_map(|(c, k)| on(c, kind_id(*k))).collect()
        }
        Action::RubyMine { at } => on(at, "ruby mine").into_iter().collect(),
        Action::Furnish { tile, at, .. } => on(at, &tile.printed_name()).into_iter().collect(),
        Action::Fence { cells } => cells.iter().filter_map(|c| on(c, "pasture")).collect(),
        Action::Stable { at } => on(at, "stable").into_iter().collect(),
        _ => Vec::new(),
    }
}

/// The choices of one kind: `space`, `dwarf`, a part of the space (`twin`, `furnish`,
/// `expedition`, …, named as the action's `do`), `loot` (one more item for the expedition just
/// begun), `imitate_more` (one more action of the imitated space) or `free`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Group {
    pub id: &'static str,
    pub label: String,
    pub options: Vec<Choice>,
}

/// Where a draft stands: the draft (with the dwarf filled in when there was one choice), the
/// finished entry when the draft is legal as it is, and the choices that continue it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Steps {
    pub draft: Draft,
    pub entry: Option<Entry>,
    pub groups: Vec<Group>,
    /// False when a group was cut at [`MAX_OPTIONS`].
    pub complete: bool,
    /// The action spaces not offered, with the reason, when the choice is of a space:
    /// `(printed name, reason)`.
    pub unavailable: Vec<(String, String)>,
}

/// Why a draft cannot be continued: not this player's placement, or a field or action that is
/// illegal (`action`: its index in the draft's `actions`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refusal {
    pub action: Option<usize>,
    pub error: RuleError,
}

impl From<RuleError> for Refusal {
    fn from(error: RuleError) -> Refusal {
        Refusal { action: None, error }
    }
}

/// The steps from `draft` in `game`.
pub fn steps(game: &Game, draft: &Draft) -> Result<Steps, Refusal> {
    let p = draft.player as usize;
    if p >= game.players().len() {
        let msg = game.no_seat("player", p);
        return Err(RuleError::new(ErrorCode::UnknownPlayer, msg).into());
    }
    if draft.kind == DraftKind::Free {
        return free_steps(game, draft);
    }
    // A placement closes the harvest window the game waits in with its defaults, as in a
    // replay (`docs/log-format.md` "entries of another type").
    let mut closed;
    let mut game = game;
    if matches!(game.phase(), Phase::Keep | Phase::Feeding { .. } | Phase::Breeding { .. }) {
        closed = legal::boxed_trial(game, &mut None);
        for _ in 0..4 {
            if !matches!(closed.phase(), Phase::Keep | Phase::Feeding { .. } | Phase::Breeding { .. }) {
                break;
            }
            closed.close_window();
        }
        game = &closed;
    }
    match game.phase() {
        Phase::Work { to_move } if *to_move == p => {}
        Phase::Work { to_move } => {
            let msg = format!("{} is to place a dwarf, not {}", game.seat_name(*to_move), game.seat_name(p));
            return Err(RuleError::new(ErrorCode::NotYourTurn, msg).into());
        }
        other => {
            let msg = format!("no dwarf is placed in the {} phase; its decisions are whole entries", other.id());
            return Err(RuleError::new(ErrorCode::UnexpectedEntry, msg).into());
        }
    }
    let Some(space) = draft.space else {
        let group = space_group(game, p, draft);
        let unavailable = unavailable_spaces(game, p, &group);
        return Ok(Steps { unavailable, ..finish(draft.clone(), None, vec![group]) });
    };
    let pick = match &draft.pick {
        Some(pick) => pick.clone(),
        None => {
            let picks = dwarf_picks(game, p, space);
            match picks.as_slice() {
                [] => return Err(begin(game, p, space, &Pick::default()).err().unwrap_or_else(no_dwarf).into()),
                [one] => one.clone(),
                _ => {
                    let options = picks.iter().map(|k| Choice::plain(pick_label(game, p, k), pick_draft(draft, k)));
                    let group = Group { id: "dwarf", label: "Dwarf".into(), options: options.collect() };
                    return Ok(finish(draft.clone(), None, vec![group]));
                }
            }
        }
    };
    let draft = Draft { pick: Some(pick.clone()), ..draft.clone() };
    parts_steps(game, p, space, &pick, draft)
}

fn no_dwarf() -> RuleError {
    RuleError::new(ErrorCode::DwarfNotAvailable, "no dwarf can be placed")
}

fn finish(draft: Draft, entry: Option<Entry>, groups: Vec<Group>) -> Steps {
    let mut complete = true;
    let groups = groups
        .into_iter()
        .filter(|g| !g.options.is_empty())
        .map(|mut g| {
            if g.options.len() > MAX_OPTIONS {
                g.options.truncate(MAX_OPTIONS);
                complete = false;
            }
            g
        })
        .collect();
    Steps { draft, entry, groups, complete, unavailable: Vec::new() }
}

/// The action spaces player `p` is not offered, each with why, in the rules' words: the one
/// who occupies it, or what the rules say of a placement there without any action.
fn unavailable_spaces(game: &Game, p: usize, offered: &Group) -> Vec<(String, String)> {
    let offered: Vec<ActionSpace> = offered.options.iter().filter_map(|o| o.draft.space).collect();
    game.spaces()
        .iter()
        .filter(|(a, _)| !offered.contains(a))
        .map(|(&a, s)| {
            let why = match s.occupant() {
                Some((q, _)) => format!("occupied by {}", game.seat_name(q)),
                None => {
                    let bare =
                        Entry::Place { player: p as u32, space: a, dwarf: None, ruby: false, actions: Vec::new() };
                    match game.clone().play_entry(&bare) {
                        Err(e) => e.message,
                        Ok(()) => "no placement there is legal now".to_owned(),
                    }
                }
            };
            (chronicle_game::view::title(a.id()), why)
        })
        .collect()
}

/// The free spaces with at least one legal placement for player `p`.
fn space_group(game: &Game, p: usize, draft: &Draft) -> Group {
    // One placement is enough to offer a space; an imitation's walk shares the cap with the
    // spaces it imitates (whose first list, doing nothing, may be illegal), so it keeps the
    // default.
    let limits = |a: ActionSpace| {
        let imitates = placement::flow(a, false, false).parts.iter().any(|&(part, _)| part == Part::Imitate);
        if imitates {
            Limits::default()
        } else {
            Limits { per_space: 1, ..Limits::default() }
        }
    };
    let options = game
        .spaces()
        .iter()
        .filter(|(_, s)| s.is_free())
        .map(|(&a, _)| a)
        .filter(|&a| !legal::space_places(game, p, a, &limits(a), &mut Enumerate).is_empty())
        .map(|a| Choice::plain(chronicle_game::view::title(a.id()), Draft { space: Some(a), ..draft.clone() }))
        .collect();
    Group { id: "space", label: "Action space".into(), options }
}

/// The dwarf choices that can be placed on `space`.
fn dwarf_picks(game: &Game, p: usize, space: ActionSpace) -> Vec<Pick> {
    legal::dwarf_choices(game, p)
        .into_iter()
        .map(|(dwarf, ruby)| Pick { dwarf, ruby })
        .filter(|k| begin(game, p, space, k).is_ok())
        .collect()
}

fn pick_draft(draft: &Draft, pick: &Pick) -> Draft {
    Draft { pick: Some(pick.clone()), ..draft.clone() }
}

fn pick_label(game: &Game, p: usize, pick: &Pick) -> String {
    match pick.dwarf {
        None => "the next dwarf in weapon order".into(),
        Some(d) => match game.player(p).dwarfs.get(d as usize).and_then(|x| x.weapon) {
            Some(w) => format!("dwarf {d} (weapon {w}), for 1 ruby"),
            None => format!("dwarf {d} (unarmed), for 1 ruby"),
        },
    }
}

/// A copy of the game with the dwarf placed.
fn begin(game: &Game, p: usize, space: ActionSpace, pick: &Pick) -> Result<(Box<Game>, Placing), RuleError> {
    let mut g = legal::boxed_trial(game, &mut None);
    let placing = Placing::begin(&mut g, p, space, pick.dwarf, pick.ruby)?;
    Ok((g, placing))
}

/// A copy of the game part way through a placement.
#[derive(Clone)]
struct Trial {
    game: Box<Game>,
    placing: Placing,
}

impl Trial {
    fn act(&self, action: &Action) -> Option<Trial> {
        let mut t = self.clone();
        t.placing.act(&mut t.game, action).ok().map(|()| t)
    }
}

fn parts_steps(game: &Game, p: usize, space: ActionSpace, pick: &Pick, draft: Draft) -> Result<Steps, Refusal> {
    let (g, placing) = begin(game, p, space, pick)?;
    let mut trial = Trial { game: g, placing };
    let mut before_last = None;
    for (i, action) in draft.actions.iter().enumerate() {
        let mut next = trial.clone();
        next.placing.act(&mut next.game, action).map_err(|error| Refusal { action: Some(i), error })?;
        before_last = Some(std::mem::replace(&mut trial, next));
    }
    let entry = finished(game, &draft, &trial);
    let mut groups = Vec::new();
    if let (Some(last), Some(before)) = (draft.actions.last(), &before_last) {
        groups.extend(continue_last(before, last, &draft, p));
    }
    for part in trial.placing.open_parts() {
        let options = part_actions(&trial, p, part)
            .into_iter()
            .filter(|a| trial.act(a).is_some())
            .map(|a| Choice::of(&a, draft.with_action(a.clone())))
            .collect();
        groups.push(Group { id: part_id(part), label: part_label(part), options });
    }
    let free = free_actions(&trial.game, p)
        .into_iter()
        .filter(|a| trial.act(a).is_some())
        .map(|a| Choice::of(&a, draft.with_action(a.clone())))
        .collect();
    groups.push(Group { id: "free", label: "Free actions".into(), options: free });
    Ok(finish(draft, entry, groups))
}

/// A `free` entry: one more free action, or the entry as it is.
fn free_steps(game: &Game, draft: &Draft) -> Result<Steps, Refusal> {
    if draft.space.is_some() || draft.pick.is_some() {
        let msg = "a `free` draft has only a player and actions";
        return Err(RuleError::new(ErrorCode::Malformed, msg).into());
    }
    let entry = |actions: Vec<Action>| Entry::Free { player: draft.player, actions };
    let mut g = legal::boxed_trial(game, &mut None);
    if !draft.actions.is_empty() {
        g.play_entry(&entry(draft.actions.clone()))?;
    }
    let options = free_actions(&g, draft.player as usize)
        .into_iter()
        .filter(|a| {
            let mut actions = draft.actions.clone();
            actions.push(a.clone());
            legal::is_legal(game, &entry(actions))
        })
        .map(|a| Choice::of(&a, draft.with_action(a.clone())))
        .collect();
    let done = (!draft.actions.is_empty()).then(|| entry(draft.actions.clone()));
    Ok(finish(draft.clone(), done, vec![Group { id: "free", label: "Free actions".into(), options }]))
}

/// The draft as a whole entry, if legal now (with a conversion that makes room for gained
/// animals when that is all it lacks, as [`crate::legal`] does).
fn finished(game: &Game, draft: &Draft, trial: &Trial) -> Option<Entry> {
    let space = draft.space?;
    let pick = draft.pick.clone().unwrap_or_default();
    let entry = Entry::Place {
        player: draft.player,
        space,
        dwarf: pick.dwarf,
        ruby: pick.ruby,
        actions: draft.actions.clone(),
    };
    let mut g = trial.game.clone();
    let result = g.finish_placing(&trial.placing);
    legal::outcome(game, entry, g, result).ok().map(|(e, _)| e)
}

/// Options that extend the draft's last action: one more loot item for an expedition, one more
/// action of an imitated space.
fn continue_last(before: &Trial, last: &Action, draft: &Draft, p: usize) -> Option<Group> {
    let (id, label, candidates): (_, _, Vec<Action>) = match last {
        Action::Expedition { loot } => {
            let strength = before.game.player(p).dwarfs[before.placing.dwarf()].weapon.unwrap_or(0);
            let items = LootItem::ALL.into_iter().filter(|&i| min_strength(i) <= strength);
            let more = items
                .filter(|i| !loot.iter().any(|l| l.item == *i))
                .flat_map(|i| loot_variants(&before.game, p, i))
                .map(|l| {
                    let mut loot = loot.clone();
                    loot.push(l);
                    Action::Expedition { loot }
                });
            ("loot", "One more loot item".to_owned(), more.collect())
        }
        Action::Imitate { space, actions } => {
            let after = before.act(last)?;
            let player = after.game.player(p);
            let flow = placement::flow(
                *space,
                player.owns(Furnishing::GuestRoom),
                player.dwarfs[after.placing.dwarf()].weapon.is_some(),
            );
            let more = flow.parts.iter().flat_map(|&(part, _)| nested_actions(&after, p, *space, part)).map(|a| {
                let mut actions = actions.clone();
                actions.push(a);
                Action::Imitate { space: *space, actions }
            });
            // An expedition of the imitated space takes its loot one item at a time too.
            let mut loot_more = Vec::new();
            if let Some(Action::Expedition { loot }) = actions.last() {
                for item in LootItem::ALL.into_iter().filter(|i| !loot.iter().any(|l| l.item == *i)) {
                    for l in loot_variants(&after.game, p, item) {
                        let mut actions = actions.clone();
                        actions.pop();
                        let mut loot = loot.clone();
                        loot.push(l);
                        actions.push(Action::Expedition { loot });
                        loot_more.push(Action::Imitate { space: *space, actions });
                    }
                }
            }
            let more = more.chain(loot_more);
            ("imitate_more", format!("One more action of {}", space.id().replace('_', " ")), more.collect())
        }
        _ => return None,
    };
    let options = candidates
        .into_iter()
        .filter(|a| before.act(a).is_some())
        .map(|a| Choice { label: describe_last(&a), ..Choice::of(&a, draft.with_last(a.clone())) })
        .collect();
    Some(Group { id, label, options })
}

/// Every candidate action for `part` (checked by the caller).
fn part_actions(trial: &Trial, p: usize, part: Part) -> Vec<Action> {
    match part {
        Part::Imitate => imitate_first(trial, p),
        other => nested_actions(trial, p, trial.placing.space(), other),
    }
}

/// Candidate actions for `part` of `space` (placed on or imitated), as [`crate::legal`]
/// generates them, with every parameter for tiles, sowings and loot.
fn nested_actions(trial: &Trial, p: usize, space: ActionSpace, part: Part) -> Vec<Action> {
    let g = &trial.game;
    let d = trial.placing.dwarf();
    match part {
        Part::Furnish(kind) => furnish_all(g, p, kind),
        Part::Sow => {
            sow_all(g.player(p)).into_iter().map(|(grain, vegetable)| Action::Sow { grain, vegetable }).collect()
        }
        Part::Expedition(_) => {
            let strength = g.player(p).dwarfs[d].weapon.unwrap_or(0);
            let mut out = vec![Action::Expedition { loot: vec![] }];
            for item in LootItem::ALL.into_iter().filter(|&i| min_strength(i) <= strength) {
                out.extend(loot_variants(g, p, item).into_iter().map(|l| Action::Expedition { loot: vec![l] }));
            }
            out
        }
        other => {
            let limits = Limits { options_alone: MAX_OPTIONS, ..Limits::default() };
            legal::part_options(g, p, d, space, other, &limits, &mut Enumerate, 1)
        }
    }
}

/// Imitations with their first action: every occupied space another player holds, with each
/// first action of its parts (or none, when its fixed goods are enough).
fn imitate_first(trial: &Trial, p: usize) -> Vec<Action> {
    let g = &trial.game;
    let mut out = Vec::new();
    for target in legal::imitation_targets(g, p, trial.placing.space()) {
        out.push(Action::Imitate { space: target, actions: vec![] });
        let player = g.player(p);
        let flow = placement::flow(
            target,
            player.owns(Furnishing::GuestRoom),
            player.dwarfs[trial.placing.dwarf()].weapon.is_some(),
        );
        for k in 0..flow.parts.len() {
            if placement::connector_refusal(flow, &[0; placement::MAX_PARTS][..flow.parts.len()], None, k).is_some() {
                continue;
            }
            for a in nested_actions(trial, p, target, flow.parts[k].0) {
                out.push(Action::Imitate { space: target, actions: vec![a] });
            }
        }
    }
    out
}

/// Every (tile, cell) a tile might be furnished on (checked by the caller).
fn furnish_all(g: &Game, p: usize, kind: Furnish) -> Vec<Action> {
    let cells = furnish_cells(g, p);
    let mut out = Vec::new();
    for tile in Furnishing::all() {
        if kind == Furnish::DwellingOnly && !tile.is_dwelling() || !g.is_available(tile) {
            continue;
        }
        for &c in &cells {
            if can_furnish(g, p, tile, raw(c), kind) {
                out.push(Action::Furnish { tile, at: raw(c), pay: None });
            }
        }
    }
    out
}

/// Every sowing: up to 2 grain and up to 2 vegetables, each on an empty field (B.5).
fn sow_all(player: &crate::game::Player) -> Vec<(Vec<RawCoord>, Vec<RawCoord>)> {
    let empty: Vec<RawCoord> = player.board.fields().filter(|(_, crop)| crop.is_none()).map(|(c, _)| raw(c)).collect();
    let grain = (player.supply.get(Good::Grain) as usize).min(2);
    let veg = (player.supply.get(Good::Vegetable) as usize).min(2);
    let mut out = Vec::new();
    for gs in subsets(&empty, grain) {
        let left: Vec<RawCoord> = empty.iter().filter(|c| !gs.contains(c)).copied().collect();
        for vs in subsets(&left, veg) {
            if !gs.is_empty() || !vs.is_empty() {
                out.push((gs.clone(), vs));
            }
        }
    }
    out
}

/// Subsets of `items` of at most `most` elements, in order, the empty one first.
fn subsets<T: Clone>(items: &[T], most: usize) -> Vec<Vec<T>> {
    let mut out = vec![vec![]];
    for size in 1..=most.min(items.len()) {
        let mut idx: Vec<usize> = (0..size).collect();
        loop {
            out.push(idx.iter().map(|&i| items[i].clone()).collect());
            let Some(k) = (0..size).rev().find(|&k| idx[k] < items.len() - size + k) else { break };
            idx[k] += 1;
            for j in k + 1..size {
                idx[j] = idx[j - 1] + 1;
            }
        }
    }
    out
}

/// A loot item with each of its parameters (cells, tiles, sowings, animals).
fn loot_variants(g: &Game, p: usize, item: LootItem) -> Vec<Loot> {
    let base = Loot { item, tile: None, at: None, cells: None, grain: None, vegetable: None, animals: None };
    let player = g.player(p);
    let singles = |kind: Single| -> Vec<Loot> {
        Coord::inner()
            .filter(|&c| player.board.tile(c).is_none() && tiles::can_place_single(player, kind, raw(c)))
            .map(|c| Loot { at: Some(raw(c)), ..base.clone() })
            .collect()
    };
    let meadows = || cells_where(g, p, |_, t, _| t == Some(Tile::Meadow));
    match item {
        LootItem::LootFurnishCavern | LootItem::LootDwelling2w2s => {
            let kind = if item == LootItem::LootFurnishCavern { Furnish::Any } else { Furnish::LootDwelling };
            let tiles: Vec<Furnishing> = if item == LootItem::LootFurnishCavern {
                Furnishing::all().filter(|&t| g.is_available(t)).collect()
            } else {
                vec![Furnishing::Dwelling]
            };
            let cells = furnish_cells(g, p);
            let mut out = Vec::new();
            for tile in tiles {
                for &c in &cells {
                    if can_furnish(g, p, tile, raw(c), kind) {
                        out.push(Loot { tile: Some(tile), at: Some(raw(c)), ..base.clone() });
                    }
                }
            }
            out
        }
        LootItem::LootStable => {
            stable_cells(g, p).into_iter().map(|c| Loot { at: Some(raw(c)), ..base.clone() }).collect()
        }
        LootItem::LootTunnel => singles(Single::Tunnel),
        LootItem::LootCavern => singles(Single::Cavern),
        LootItem::LootMeadow => singles(Single::Meadow),
        LootItem::LootField => singles(Single::Field),
        LootItem::LootSmallPasture => {
            meadows().into_iter().map(|c| Loot { cells: Some(vec![raw(c)]), ..base.clone() }).collect()
        }
        LootItem::LootLargePasture => adjacent_pairs(true)
            .filter(|&(a, b)| player.board.tile(a) == Some(Tile::Meadow) && player.board.tile(b) == Some(Tile::Meadow))
            .map(|(a, b)| Loot { cells: Some(vec![raw(a), raw(b)]), ..base.clone() })
            .collect(),
        LootItem::LootSow => sow_all(player)
            .into_iter()
            .map(|(grain, vegetable)| Loot { grain: Some(grain), vegetable: Some(vegetable), ..base.clone() })
            .collect(),
        LootItem::LootBreed2 => {
            let types: Vec<FarmAnimal> =
                FarmAnimal::ALL.into_iter().filter(|a| player.animals()[a.index()] >= 2).collect();
            subsets(&types, 2).into_iter().map(|animals| Loot { animals: Some(animals), ..base.clone() }).collect()
        }
        _ => vec![base],
    }
}

/// Free actions one unit at a time (`docs/rules/caverna-reference.md` F.4, F.5, the any-time tiles of E): each
/// conversion of one good, buying 1 food, each ruby trade for one good, each single tile a
/// ruby buys on each cell, one use of each owned tile, releasing one animal.
pub fn free_actions(g: &Game, p: usize) -> Vec<Action> {
    let player = g.player(p);
    let one = |good: Good| std::iter::once((good, 1)).collect();
    let mut out = Vec::new();
    let held = |good: Good| player.supply.get(good) > 0;
    for good in [Good::Grain, Good::Vegetable, Good::Ruby, Good::Sheep, Good::Donkey, Good::Boar, Good::Cattle] {
        if held(good) {
            out.push(Action::Convert { goods: one(good) });
        }
    }
    if player.supply.get(Good::Gold) >= 2 {
        out.push(Action::BuyFood { food: 1 });
    }
    if held(Good::Ruby) {
        for good in Good::ALL.into_iter().filter(|&g| !matches!(g, Good::Ruby | Good::Food)) {
            out.push(Action::RubyTrade { goods: one(good) });
        }
        let kinds = [
            (SingleTile::Meadow, Single::Meadow),
            (SingleTile::Field, Single::Field),
            (SingleTile::Tunnel, Single::Tunnel),
            (SingleTile::Cavern, Single::Cavern),
        ];
        for (tile, kind) in kinds {
            for c in Coord::inner().filter(|&c| player.board.tile(c).is_none()) {
                if tiles::can_place_single(player, kind, raw(c)) {
                    out.push(Action::RubyTile { tile, at: raw(c) });
                }
            }
        }
    }
    let use_ = |tile, for_, dwarf| Action::Use { tile, times: None, for_, pay: None, dwarf };
    for tile in [
        Furnishing::Trader,
        Furnishing::SparePartStorage,
        Furnishing::HuntingParlor,
        Furnishing::BlacksmithingParlor,
        Furnishing::CookingCave,
    ] {
        if player.owns(tile) {
            out.push(use_(tile, None, None));
        }
    }
    if player.owns(Furnishing::BeerParlor) {
        out.push(use_(Furnishing::BeerParlor, Some(UseFor::Gold), None));
        out.push(use_(Furnishing::BeerParlor, Some(UseFor::Food), None));
    }
    if player.owns(Furnishing::PeacefulCave) {
        for (d, dwarf) in player.dwarfs.iter().enumerate() {
            if dwarf.weapon.is_some() {
                out.push(use_(Furnishing::PeacefulCave, None, Some(d as u32)));
            }
        }
    }
    for good in [Good::Dog, Good::Sheep, Good::Donkey, Good::Boar, Good::Cattle] {
        if held(good) {
            out.push(Action::Release { animals: one(good) });
        }
    }
    out
}

/// A part's id: the `do` of its actions.
fn part_id(part: Part) -> &'static str {
    match part {
        Part::Twin(_) | Part::TwinWith(..) => "twin",
        Part::OreMine => "ore_mine",
        Part::RubyMine(_) => "ruby_mine",
        Part::Furnish(_) => "furnish",
        Part::Grow => "grow",
        Part::Sow => "sow",
        Part::SmallPasture | Part::LargePasture => "fence",
        Part::Stable => "stable",
        Part::Forge => "forge",
        Part::Expedition(_) => "expedition",
        Part::TradeOre => "trade_ore",
        Part::Buy => "buy",
        Part::Gain(_) => "gain",
        Part::Dog => "dog",
        Part::Imitate => "imitate",
    }
}

fn part_label(part: Part) -> String {
    match part {
        Part::Twin(_) | Part::TwinWith(..) => "Place a twin tile".into(),
        Part::OreMine => "Build an ore mine".into(),
        Part::RubyMine(_) => "Build a ruby mine".into(),
        Part::Furnish(Furnish::DwellingOnly) => "Furnish a dwelling".into(),
        Part::Furnish(_) => "Furnish a cavern".into(),
        Part::Grow => "Family growth".into(),
        Part::Sow => "Sow".into(),
        Part::SmallPasture => "Fence a small pasture".into(),
        Part::LargePasture => "Fence a large pasture".into(),
        Part::Stable => "Build a stable".into(),
        Part::Forge => "Forge a weapon".into(),
        Part::Expedition(level) => format!("Level-{level} expedition"),
        Part::TradeOre => "Trade ore".into(),
        Part::Buy => "Buy at the weekly market".into(),
        Part::Gain(goods) => {
            let goods: Vec<String> = goods.iter().map(|(g, n)| format!("{n} {}", g.id())).collect();
            format!("Take {}", goods.join(", "))
        }
        Part::Dog => "Take a dog".into(),
        Part::Imitate => "Imitate a space".into(),
    }
}

fn cell(c: &RawCoord) -> String {
    format!("({},{})", c.0, c.1)
}

fn cells(cs: &[RawCoord]) -> String {
    cs.iter().map(cell).collect::<Vec<_>>().join(" ")
}

fn goods(map: &crate::notation::GoodsMap) -> String {
    map.iter().map(|(g, n)| format!("{n} {}", g.id())).collect::<Vec<_>>().join(", ")
}

fn loot_label(l: &Loot) -> String {
    let mut s = l.item.id().trim_start_matches("loot_").replace('_', " ");
    if let Some(t) = l.tile {
        s.push_str(&format!(" {}", t.id()));
    }
    for c in l.at.iter().chain(l.cells.iter().flatten()) {
        s.push_str(&format!(" {}", cell(c)));
    }
    if let (Some(g), Some(v)) = (&l.grain, &l.vegetable) {
        s.push_str(&format!(" grain {} vegetable {}", cells(g), cells(v)));
    }
    if let Some(a) = &l.animals {
        let a: Vec<&str> = a.iter().map(|x| x.good().id()).collect();
        s.push_str(&format!(" {}", a.join(", ")));
    }
    s
}

/// The option of [`continue_last`]: what was added.
fn describe_last(action: &Action) -> String {
    match action {
        Action::Expedition { loot } => loot.last().map_or_else(String::new, loot_label),
        Action::Imitate { actions, .. } => actions.last().map_or_else(String::new, describe_last),
        other => describe(other),
    }
}

/// A short label for an action, in the log format's words.
pub fn describe(action: &Action) -> String {
    match action {
        Action::Twin { cells: cs, kinds } => {
            format!("{} at {}, {} at {}", kind_id(kinds[0]), cell(&cs[0]), kind_id(kinds[1]), cell(&cs[1]))
        }
        Action::OreMine { cells: cs, kinds } => {
            format!("{} at {}, {} at {}", kind_id(kinds[0]), cell(&cs[0]), kind_id(kinds[1]), cell(&cs[1]))
        }
        Action::RubyMine { at } => format!("ruby mine at {}", cell(at)),
        Action::Furnish { tile, at, .. } => format!("{} at {}", tile.id(), cell(at)),
        Action::Grow {} => "family growth".into(),
        Action::Sow { grain, vegetable } => format!("grain on {}; vegetable on {}", cells(grain), cells(vegetable)),
        Action::Fence { cells: cs } => format!("pasture on {}", cells(cs)),
        Action::Stable { at } => format!("stable at {}", cell(at)),
        Action::Forge { strength } => format!("weapon of strength {strength}"),
        Action::Expedition { loot } if loot.is_empty() => "no loot".into(),
        Action::Expedition { loot } => loot.iter().map(loot_label).collect::<Vec<_>>().join("; "),
        Action::TradeOre { times } => format!("{times} × 2 ore"),
        Action::Buy { goods: g } => g.iter().map(|x| x.id()).collect::<Vec<_>>().join(", "),
        Action::Gain {} => "take the goods".into(),
        Action::Dog {} => "take a dog".into(),
        Action::Imitate { space, actions } if actions.is_empty() => space.id().replace('_', " "),
        Action::Imitate { space, actions } => {
            format!("{}: {}", space.id().replace('_', " "), actions.iter().map(describe).collect::<Vec<_>>().join("; "))
        }
        Action::Convert { goods: g } => format!("convert {}", goods(g)),
        Action::BuyFood { food } => format!("buy {food} food"),
        Action::RubyTrade { goods: g } => format!("ruby for {}", goods(g)),
        Action::RubyTile { tile, at } => format!("ruby for a {} at {}", single_id(*tile), cell(at)),
        Action::Use { tile, for_, dwarf, .. } => {
            let mut s = format!("use {}", tile.id());
            if let Some(f) = for_ {
                s.push_str(if *f == UseFor::Gold { " for gold" } else { " for food" });
            }
            if let Some(d) = dwarf {
                s.push_str(&format!(" (dwarf {d})"));
            }
            s
        }
        Action::Release { animals } => format!("release {}", goods(animals)),
    }
}

fn kind_id(k: crate::notation::TileKind) -> &'static str {
    use crate::notation::TileKind as K;
    match k {
        K::Cavern => "cavern",
        K::Tunnel => "tunnel",
        K::Meadow => "meadow",
        K::Field => "field",
        K::OreMine => "ore mine",
        K::DeepTunnel => "deep tunnel",
    }
}

fn single_id(t: SingleTile) -> &'static str {
    match t {
        SingleTile::Meadow => "meadow",
        SingleTile::Field => "field",
        SingleTile::Tunnel => "tunnel",
        SingleTile::Cavern => "cavern",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn subsets_are_every_combination_up_to_the_size() {
        let s = subsets(&[1, 2, 3], 2);
        assert_eq!(s, vec![vec![], vec![1], vec![2], vec![3], vec![1, 2], vec![1, 3], vec![2, 3]]);
        assert_eq!(subsets::<u8>(&[], 2), vec![Vec::<u8>::new()]);
    }
}
