//! Placing landscape tiles on the home board: twins, singles, mines, pastures and stables
//! (`docs/rules/caverna-reference.md` A.2–A.4, E.7 for the Office-room ring).

use crate::board::{printed_bonus, Coord, PrintedBonus, Tile};
use crate::error::{ensure, fail, ErrorCode, RuleResult};
use crate::furnishing::Furnishing;
use crate::game::{Player, MAX_STABLES};
use crate::goods::Good;
use crate::notation::{RawCoord, TileKind};

/// The twin tiles an action may place.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Twin {
    CavernTunnel,
    CavernCavern,
    MeadowField,
}

impl Twin {
    pub fn id(self) -> &'static str {
        match self {
            Twin::CavernTunnel => "cavern/tunnel",
            Twin::CavernCavern => "cavern/cavern",
            Twin::MeadowField => "meadow/field",
        }
    }

    /// Which twin the `kinds` of a log name, and the tile of each half.
    pub fn from_kinds(kinds: [TileKind; 2]) -> Option<(Twin, [Tile; 2])> {
        use TileKind as K;
        let tile = |k: TileKind| match k {
            K::Cavern => Tile::Cavern,
            K::Tunnel => Tile::Tunnel,
            K::Meadow => Tile::Meadow,
            _ => Tile::Field { crop: None },
        };
        let twin = match kinds {
            [K::Cavern, K::Tunnel] | [K::Tunnel, K::Cavern] => Twin::CavernTunnel,
            [K::Cavern, K::Cavern] => Twin::CavernCavern,
            [K::Meadow, K::Field] | [K::Field, K::Meadow] => Twin::MeadowField,
            _ => return None,
        };
        Some((twin, kinds.map(tile)))
    }
}

/// Checks a written coordinate: on the printed board, or on the ring when `ring` is allowed.
pub fn coord(raw: RawCoord, ring: bool) -> RuleResult<Coord> {
    match Coord::new(raw.0, raw.1) {
        Some(c) if c.is_inner() || ring => Ok(c),
        Some(_) => fail(
            ErrorCode::CellOffBoard,
            format!("{raw} is off the board (only twin tiles of an Office room owner may overhang)"),
        ),
        None => fail(ErrorCode::CellOffBoard, format!("{raw} is off the board")),
    }
}

/// Mountain tiles must join the cave system: an occupied mountain space next to them (A.2).
fn touches_cave(p: &Player, cells: &[Coord]) -> bool {
    p.board.tile_next_to(cells, true)
}

/// Forest tiles must touch an existing tile; with no forest tile yet, the only forest space
/// that does is the one in front of the cave entrance (A.2).
fn touches_tiles(p: &Player, cells: &[Coord]) -> bool {
    p.board.tile_next_to(cells, false)
}

/// Gives the printed bonus of a newly covered space (A.3).
fn cover_bonus(p: &mut Player, c: Coord) {
    if !c.is_inner() {
        return;
    }
    match printed_bonus(c) {
        Some(PrintedBonus::Boar) => p.supply.add(Good::Boar, 1),
        Some(PrintedBonus::Food(n)) => p.supply.add(Good::Food, n),
        None => {}
    }
}

/// Places a twin tile of one of the `allowed` kinds (A.4). Returns the twin placed.
pub fn place_twin(p: &mut Player, raw: [RawCoord; 2], kinds: [TileKind; 2], allowed: &[Twin]) -> RuleResult<Twin> {
    let TwinPlacement { twin, cells, halves, overhang } = check_twin(p, raw, kinds, allowed)?;
    for (c, h) in cells.into_iter().zip(halves) {
        p.board.set_tile(c, h);
        cover_bonus(p, c);
    }
    if overhang {
        p.supply.add(Good::Gold, 2);
    }
    Ok(twin)
}

/// The adjacency rule of a twin on `cells` (A.2): forest twins touch an existing tile,
/// mountain twins the cave system; the side is the first cell's.
pub fn twin_touches(p: &Player, cells: [Coord; 2]) -> bool {
    if cells[0].is_forest() {
        touches_tiles(p, &cells)
    } else {
        touches_cave(p, &cells)
    }
}

/// A twin placement that [`check_twin`] found legal.
struct TwinPlacement {
    twin: Twin,
    cells: [Coord; 2],
    halves: [Tile; 2],
    /// One half on the Office-room ring (2 gold, E.7).
    overhang: bool,
}

/// Whether [`place_twin`] would succeed, without changing the player (the generator asks
/// this for every pair of cells).
pub fn can_place_twin(p: &Player, raw: [RawCoord; 2], kinds: [TileKind; 2], allowed: &[Twin]) -> bool {
    check_twin(p, raw, kinds, allowed).is_ok()
}

/// Every check of [`place_twin`], in its order, and what it would place.
fn check_twin(p: &Player, raw: [RawCoord; 2], kinds: [TileKind; 2], allowed: &[Twin]) -> RuleResult<TwinPlacement> {
    let Some((twin, halves)) = Twin::from_kinds(kinds).filter(|(t, _)| allowed.contains(t)) else {
        let names: Vec<_> = allowed.iter().map(|t| t.id()).collect();
        return fail(ErrorCode::BadTileKinds, format!("this action places {}", names.join(" or ")));
    };
    let office = p.owns(Furnishing::OfficeRoom);
    let cells = [coord(raw[0], office)?, coord(raw[1], office)?];
    ensure(cells[0].is_adjacent(cells[1]), ErrorCode::NotAdjacent, || {
        format!("the halves {} and {} are not adjacent", raw[0], raw[1])
    })?;
    let overhang = cells.iter().filter(|c| !c.is_inner()).count();
    ensure(overhang < 2, ErrorCode::CellOffBoard, || "a twin tile may overhang by one half only".into())?;
    let forest = twin == Twin::MeadowField;
    for (c, r) in cells.iter().zip(raw) {
        ensure(c.is_forest() == forest, ErrorCode::WrongTerrain, || {
            format!("{r} is not a {} space", if forest { "forest" } else { "mountain" })
        })?;
        ensure(p.board.tile(*c).is_none(), ErrorCode::CellOccupied, || format!("{r} already holds a tile"))?;
    }
    if forest {
        for (c, h) in cells.iter().zip(halves) {
            ensure(!(p.board.has_stable(*c) && h != Tile::Meadow), ErrorCode::CellOccupied, || {
                "a field may not go under a stable; the meadow half must".into()
            })?;
        }
        ensure(twin_touches(p, cells), ErrorCode::NotAdjacent, || {
            "forest tiles start in front of the cave entrance [3, 2] and then touch existing tiles".into()
        })?;
    } else {
        ensure(twin_touches(p, cells), ErrorCode::NotAdjacent, || "mountain tiles must adjoin the cave system".into())?;
    }
    Ok(TwinPlacement { twin, cells, halves, overhang: overhang == 1 })
}

/// The single tiles (rubies, loot): never overhanging (A.4, E.7).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Single {
    Meadow,
    Field,
    Tunnel,
    Cavern,
}

impl Single {
    /// Forest tiles (meadow, field) go on the forest side, the others in the mountain.
    pub fn is_forest(self) -> bool {
        matches!(self, Single::Meadow | Single::Field)
    }
}

pub fn place_single(p: &mut Player, kind: Single, raw: RawCoord) -> RuleResult {
    let (c, tile) = check_single(p, kind, raw)?;
    p.board.set_tile(c, tile);
    cover_bonus(p, c);
    Ok(())
}

/// Whether [`place_single`] would succeed, without changing the player.
pub fn can_place_single(p: &Player, kind: Single, raw: RawCoord) -> bool {
    check_single(p, kind, raw).is_ok()
}

/// Every check of [`place_single`], in its order: the cell and the tile it would get.
fn check_single(p: &Player, kind: Single, raw: RawCoord) -> RuleResult<(Coord, Tile)> {
    let c = coord(raw, false)?;
    let forest = kind.is_forest();
    let tile = match kind {
        Single::Meadow => Tile::Meadow,
        Single::Field => Tile::Field { crop: None },
        Single::Tunnel => Tile::Tunnel,
        Single::Cavern => Tile::Cavern,
    };
    ensure(c.is_forest() == forest, ErrorCode::WrongTerrain, || {
        format!("{raw} is not a {} space", if forest { "forest" } else { "mountain" })
    })?;
    ensure(p.board.tile(c).is_none(), ErrorCode::CellOccupied, || format!("{raw} already holds a tile"))?;
    if forest {
        ensure(!(kind == Single::Field && p.board.has_stable(c)), ErrorCode::CellOccupied, || {
            format!("a field may not go under the stable on {raw}")
        })?;
        ensure(touches_tiles(p, &[c]), ErrorCode::NotAdjacent, || {
            "forest tiles start in front of the cave entrance [3, 2] and then touch existing tiles".into()
        })?;
    } else {
        ensure(touches_cave(p, &[c]), ErrorCode::NotAdjacent, || "mountain tiles must adjoin the cave system".into())?;
    }
    Ok((c, tile))
}

/// Ore mine / Deep tunnel twin on two adjacent ordinary tunnels (A.4).
pub fn place_ore_mine(p: &mut Player, raw: [RawCoord; 2], kinds: [TileKind; 2]) -> RuleResult {
    let halves = match kinds {
        [TileKind::OreMine, TileKind::DeepTunnel] => [Tile::OreMine, Tile::DeepTunnel],
        [TileKind::DeepTunnel, TileKind::OreMine] => [Tile::DeepTunnel, Tile::OreMine],
        _ => return fail(ErrorCode::BadTileKinds, "an ore mine twin is [\"ore_mine\", \"deep_tunnel\"]"),
    };
    let cells = [coord(raw[0], true)?, coord(raw[1], true)?];
    ensure(cells[0].is_adjacent(cells[1]), ErrorCode::NotAdjacent, || {
        format!("{} and {} are not adjacent", raw[0], raw[1])
    })?;
    for (c, r) in cells.iter().zip(raw) {
        ensure(p.board.tile(*c) == Some(Tile::Tunnel), ErrorCode::WrongTerrain, || {
            format!("{r} is not an ordinary unfurnished tunnel")
        })?;
    }
    for (c, h) in cells.into_iter().zip(halves) {
        p.board.set_tile(c, h);
    }
    Ok(())
}

/// Ruby mine on an unfurnished tunnel or deep tunnel; +1 ruby on a deep tunnel (A.3, A.4).
pub fn place_ruby_mine(p: &mut Player, raw: RawCoord) -> RuleResult {
    let c = coord(raw, true)?;
    match p.board.tile(c) {
        Some(Tile::Tunnel) => {}
        Some(Tile::DeepTunnel) => p.supply.add(Good::Ruby, 1),
        _ => return fail(ErrorCode::WrongTerrain, format!("{raw} is not an unfurnished tunnel or deep tunnel")),
    }
    p.board.set_tile(c, Tile::RubyMine);
    Ok(())
}

/// Pasture size built by a `fence`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pasture {
    Small,
    Large,
}

/// Turns one meadow into a small pasture or two adjacent meadows into a large one (A.4).
pub fn build_pasture(p: &mut Player, raw: &[RawCoord]) -> RuleResult<Pasture> {
    let cells = raw.iter().map(|&r| coord(r, true)).collect::<RuleResult<Vec<_>>>()?;
    for (c, r) in cells.iter().zip(raw) {
        ensure(p.board.tile(*c) == Some(Tile::Meadow), ErrorCode::WrongTerrain, || format!("{r} is not a meadow"))?;
    }
    match cells[..] {
        [c] => {
            p.board.set_tile(c, Tile::SmallPasture);
            Ok(Pasture::Small)
        }
        [a, b] => {
            ensure(a.is_adjacent(b), ErrorCode::NotAdjacent, || format!("{} and {} are not adjacent", raw[0], raw[1]))?;
            p.board.set_tile(a, Tile::LargePasture { partner: b });
            p.board.set_tile(b, Tile::LargePasture { partner: a });
            Ok(Pasture::Large)
        }
        _ => fail(ErrorCode::Malformed, "a pasture covers 1 (small) or 2 (large) meadows"),
    }
}

/// A stable: forest side, no field, one per space, three per player (A.4).
pub fn build_stable(p: &mut Player, raw: RawCoord) -> RuleResult {
    let c = coord(raw, true)?;
    ensure(p.board.stables() < MAX_STABLES, ErrorCode::StableNotAllowed, || "all 3 stables are built".into())?;
    ensure(c.is_forest(), ErrorCode::StableNotAllowed, || format!("{raw} is in the mountain"))?;
    ensure(!p.board.has_stable(c), ErrorCode::StableNotAllowed, || format!("{raw} already has a stable"))?;
    match p.board.tile(c) {
        None if !c.is_inner() => fail(ErrorCode::StableNotAllowed, format!("{raw} is an empty off-board space")),
        None | Some(Tile::Meadow | Tile::SmallPasture | Tile::LargePasture { .. }) => {
            p.board.set_stable(c);
            Ok(())
        }
        Some(_) => fail(ErrorCode::StableNotAllowed, format!("a stable may not stand on the field at {raw}")),
    }
}
