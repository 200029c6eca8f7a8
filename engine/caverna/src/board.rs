//! The home board: a 4 × 6 grid (forest left, mountain right) plus the one-cell ring the
//! Office room opens (`docs/rules/caverna-reference.md` A.1–A.5, E.7).
//!
//! The board only records what lies where; whether a placement is legal is decided by
//! [`crate::rules::tiles`].

use serde::Serialize;

use crate::furnishing::Furnishing;

/// A home-board coordinate `[row, col]`. Rows −1..=4 and columns −1..=6 exist; only
/// rows 0..=3 × columns 0..=5 are the printed board, the rest is the Office-room ring.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct Coord {
    pub row: i8,
    pub col: i8,
}

pub const ROWS: std::ops::RangeInclusive<i8> = -1..=4;
pub const COLS: std::ops::RangeInclusive<i8> = -1..=6;
/// Coordinates in all: 6 rows × 8 columns.
const CELLS: usize = 48;

impl Coord {
    /// A coordinate on the board or its ring; `None` for anything further out.
    pub fn new(row: i64, col: i64) -> Option<Coord> {
        let row = i8::try_from(row).ok().filter(|r| ROWS.contains(r))?;
        let col = i8::try_from(col).ok().filter(|c| COLS.contains(c))?;
        Some(Coord { row, col })
    }

    pub const fn at(row: i8, col: i8) -> Coord {
        Coord { row, col }
    }

    /// On the printed 4 × 6 board (not the Office-room ring).
    pub fn is_inner(self) -> bool {
        (0..=3).contains(&self.row) && (0..=5).contains(&self.col)
    }

    /// Forest side: columns ≤ 2 (ring cells take the side they border, `docs/rules/caverna-reference.md` A.4).
    pub const fn is_forest(self) -> bool {
        self.col <= 2
    }

    pub fn is_mountain(self) -> bool {
        !self.is_forest()
    }

    /// Orthogonal adjacency; the cliff between columns 2 and 3 separates the halves except on
    /// row 3, where the cave opens (`docs/rules/caverna-reference.md` A.2).
    pub const fn is_adjacent(self, other: Coord) -> bool {
        let dr = (self.row - other.row).abs();
        let dc = (self.col - other.col).abs();
        if dr + dc != 1 {
            return false;
        }
        if self.is_forest() != other.is_forest() {
            return self.row == 3 && other.row == 3;
        }
        true
    }

    /// Adjacent coordinates on the board or its ring, in the order up, down, left, right.
    pub fn neighbours(self) -> impl Iterator<Item = Coord> {
        [(-1, 0), (1, 0), (0, -1), (0, 1)].into_iter().filter_map(move |(dr, dc)| {
            let c = Coord { row: self.row.checked_add(dr)?, col: self.col.checked_add(dc)? };
            (ROWS.contains(&c.row) && COLS.contains(&c.col) && self.is_adjacent(c)).then_some(c)
        })
    }

    const fn index(self) -> usize {
        ((self.row + 1) as usize) * 8 + (self.col + 1) as usize
    }

    /// The coordinate of [`Coord::index`] `i` (`i < 48`).
    const fn from_index(i: usize) -> Coord {
        Coord { row: (i / 8) as i8 - 1, col: (i % 8) as i8 - 1 }
    }

    /// Every coordinate, in row-major order (the order of [`Coord::index`]).
    pub fn all() -> impl Iterator<Item = Coord> {
        (0..CELLS).map(Coord::from_index)
    }

    pub fn inner() -> impl Iterator<Item = Coord> {
        Coord::all().filter(|c| c.is_inner())
    }
}

/// Orthogonally adjacent pairs `(a, b)` with `a < b`, on the printed board (`ring` false) or
/// with the Office-room ring, in row-major order of `a` (the pair below `a` before the pair
/// to its right): the generator scans them for every twin tile and pasture.
pub fn adjacent_pairs(ring: bool) -> &'static [(Coord, Coord)] {
    if ring {
        &RING_PAIRS
    } else {
        &INNER_PAIRS
    }
}

static INNER_PAIRS: [(Coord, Coord); 35] = pairs(false);
static RING_PAIRS: [(Coord, Coord); 77] = pairs(true);

/// [`adjacent_pairs`], computed at compile time; `N` must be the number of pairs.
const fn pairs<const N: usize>(ring: bool) -> [(Coord, Coord); N] {
    let (first, last_row, last_col) = if ring { (-1, 4, 6) } else { (0, 3, 5) };
    let mut out = [(Coord::at(0, 0), Coord::at(0, 0)); N];
    let mut n = 0;
    let mut row = first;
    while row <= last_row {
        let mut col = first;
        while col <= last_col {
            if row < last_row {
                out[n] = (Coord::at(row, col), Coord::at(row + 1, col));
                n += 1;
            }
            // The cliff between columns 2 and 3 is open on row 3 only (A.2).
            if col < last_col && (col != 2 || row == 3) {
                out[n] = (Coord::at(row, col), Coord::at(row, col + 1));
                n += 1;
            }
            col += 1;
        }
        row += 1;
    }
    assert!(n == N);
    out
}

/// [`Coord::neighbours`] of each cell as a bit set of [`Coord::index`], at compile time.
static NEIGHBOURS: [u64; CELLS] = neighbour_masks();

/// The cells of the mountain side, as a bit set of [`Coord::index`].
const MOUNTAIN: u64 = {
    let mut m = 0u64;
    let mut i = 0;
    while i < CELLS {
        if Coord::from_index(i).col > 2 {
            m |= 1u64 << i;
        }
        i += 1;
    }
    m
};

/// The cells of the printed board (not the Office-room ring), as a bit set of
/// [`Coord::index`].
const INNER: u64 = {
    let mut m = 0u64;
    let mut i = 0;
    while i < CELLS {
        let c = Coord::from_index(i);
        if c.row >= 0 && c.row <= 3 && c.col >= 0 && c.col <= 5 {
            m |= 1u64 << i;
        }
        i += 1;
    }
    m
};

const fn neighbour_masks() -> [u64; CELLS] {
    let mut out = [0u64; CELLS];
    let mut i = 0;
    while i < CELLS {
        let c = Coord::from_index(i);
        let mut j = 0;
        while j < CELLS {
            if Coord::from_index(j).is_adjacent(c) {
                out[i] |= 1u64 << j;
            }
            j += 1;
        }
        i += 1;
    }
    out
}

/// The set bits of a bit set of [`Coord::index`], lowest first (row-major order).
fn bits(mut set: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        let i = set.trailing_zeros() as usize;
        (set != 0).then(|| {
            set &= set - 1;
            i
        })
    })
}

/// Bonuses printed under board spaces (`docs/rules/caverna-reference.md` A.1, A.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PrintedBonus {
    Boar,
    Food(u32),
}

pub fn printed_bonus(c: Coord) -> Option<PrintedBonus> {
    match (c.row, c.col) {
        (0, 2) | (2, 0) => Some(PrintedBonus::Boar),
        (3, 1) | (3, 4) => Some(PrintedBonus::Food(1)),
        (0, 5) => Some(PrintedBonus::Food(2)),
        _ => None,
    }
}

pub const ENTRY_DWELLING: Coord = Coord::at(3, 3);
pub const START_CAVERN: Coord = Coord::at(2, 3);
pub const CAVE_ENTRANCE_FRONT: Coord = Coord::at(3, 2);

/// A crop sown on a field.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Crop {
    Grain,
    Vegetable,
}

/// What covers one board space. Twin tiles are recorded as their two halves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tile {
    Meadow,
    Field {
        crop: Option<(Crop, u8)>,
    },
    SmallPasture,
    /// One half of a large pasture; `partner` is the other half.
    LargePasture {
        partner: Coord,
    },
    Cavern,
    Tunnel,
    DeepTunnel,
    OreMine,
    RubyMine,
    /// The pre-printed entry-level dwelling (`docs/rules/caverna-reference.md` A.5).
    EntryDwelling,
    /// A furnishing tile on a cavern (or, with the Work room, on a tunnel or deep tunnel).
    Furnished {
        tile: Furnishing,
        under: Under,
    },
}

/// What a furnishing tile was placed on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Under {
    Cavern,
    Tunnel,
    DeepTunnel,
}

impl Tile {
    pub fn id(self) -> &'static str {
        match self {
            Tile::Meadow => "meadow",
            Tile::Field { .. } => "field",
            Tile::SmallPasture => "small_pasture",
            Tile::LargePasture { .. } => "large_pasture",
            Tile::Cavern => "cavern",
            Tile::Tunnel => "tunnel",
            Tile::DeepTunnel => "deep_tunnel",
            Tile::OreMine => "ore_mine",
            Tile::RubyMine => "ruby_mine",
            Tile::EntryDwelling => "entry_dwelling",
            Tile::Furnished { .. } => "furnished",
        }
    }

    pub fn is_forest_tile(self) -> bool {
        matches!(self, Tile::Meadow | Tile::Field { .. } | Tile::SmallPasture | Tile::LargePasture { .. })
    }
}

/// One board space: at most one tile and at most one stable.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Space {
    pub tile: Option<Tile>,
    pub stable: bool,
}

/// A player's home board.
#[derive(Clone, Copy, Debug)]
pub struct HomeBoard {
    spaces: [Space; CELLS],
    /// Bit `t` set while furnishing tile `t` lies on the board: ownership is asked on every
    /// gain and payment, so it must not scan the board.
    owned: u64,
    /// Bit [`Coord::index`] set while the cell holds a tile (tiles are never removed, only
    /// covered): adjacency checks for new tiles run for every candidate cell.
    tiled: u64,
    /// Bit [`Coord::index`] set while the cell may count for animal housing (see
    /// [`HomeBoard::housing_cells`]): housing is checked for every entry and candidate move,
    /// and most cells never count.
    housing: u64,
    /// Bit [`Coord::index`] set while the cell holds a field: the field phase and the Stubble
    /// room walk them.
    fields: u64,
    /// How often a tile or stable was set on a cell that gives room or holds a field, before or
    /// after ([`HomeBoard::housing_changes`]). Not part of what the board holds: equality
    /// ignores it.
    housing_changes: u32,
}

/// Boards are equal when they hold the same: the change count says how they got there.
impl PartialEq for HomeBoard {
    fn eq(&self, other: &HomeBoard) -> bool {
        // Every field named, so that a new one cannot be forgotten here.
        let HomeBoard { spaces, owned, tiled, housing, fields, housing_changes: _ } = self;
        *spaces == other.spaces
            && *owned == other.owned
            && *tiled == other.tiled
            && *housing == other.housing
            && *fields == other.fields
    }
}

impl Eq for HomeBoard {}

impl Default for HomeBoard {
    fn default() -> Self {
        HomeBoard::new()
    }
}

impl HomeBoard {
    /// The starting board: entry dwelling and one empty cavern (`docs/rules/caverna-reference.md` A.5).
    pub fn new() -> HomeBoard {
        let mut b = HomeBoard {
            spaces: [Space::default(); CELLS],
            owned: 0,
            tiled: 0,
            housing: 0,
            fields: 0,
            housing_changes: 0,
        };
        b.set_tile(ENTRY_DWELLING, Tile::EntryDwelling);
        b.set_tile(START_CAVERN, Tile::Cavern);
        b
    }

    /// How many times a tile or a stable has been set (wrapping) on a cell that may give room
    /// ([`HomeBoard::housing_cells`]) or holds a field ([`HomeBoard::field_cells`]), before or
    /// after the change. The housing check reads only those cells (and a large pasture's
    /// partner, itself such a cell whenever it matters), so while this count stays the same
    /// the board gives the same room: a replay checks housing again only for room (or
    /// animals) changed since the last check. Caverns, tunnels and most furnishing tiles
    /// placed on empty cells leave it alone.
    pub fn housing_changes(&self) -> u32 {
        self.housing_changes
    }

    pub fn space(&self, c: Coord) -> Space {
        self.spaces[c.index()]
    }

    pub fn tile(&self, c: Coord) -> Option<Tile> {
        self.spaces[c.index()].tile
    }

    pub fn set_tile(&mut self, c: Coord, t: Tile) {
        let before = self.room_or_field(c);
        let slot = &mut self.spaces[c.index()].tile;
        if let Some(Tile::Furnished { tile, .. }) = *slot {
            // Only unique tiles are ever covered (Trader / Spare part storage, E.7).
            if tile.is_unique() {
                self.owned &= !(1u64 << tile as u32);
            }
        }
        *slot = Some(t);
        if let Tile::Furnished { tile, .. } = t {
            self.owned |= 1u64 << tile as u32;
        }
        self.tiled |= 1u64 << c.index();
        if let Tile::Field { .. } = t {
            self.fields |= 1u64 << c.index();
        } else {
            self.fields &= !(1u64 << c.index());
        }
        self.note_housing(c, before);
    }

    pub fn set_stable(&mut self, c: Coord) {
        let before = self.room_or_field(c);
        self.spaces[c.index()].stable = true;
        self.note_housing(c, before);
    }

    /// Whether cell `c` counts for housing ([`HomeBoard::housing_changes`]): it may give room
    /// or holds a field.
    fn room_or_field(&self, c: Coord) -> bool {
        (self.housing | self.fields) & (1u64 << c.index()) != 0
    }

    /// Whether a cell next to one of `cells` ([`Coord::neighbours`]), not itself one of
    /// them, holds a tile; only mountain neighbours count when `mountain` is set.
    pub fn tile_next_to(&self, cells: &[Coord], mountain: bool) -> bool {
        let (mut near, mut own) = (0u64, 0u64);
        for c in cells {
            near |= NEIGHBOURS[c.index()];
            own |= 1u64 << c.index();
        }
        let side = if mountain { MOUNTAIN } else { u64::MAX };
        near & !own & side & self.tiled != 0
    }

    /// Keeps bit `c` of `housing`: whether the cell may give room by itself
    /// ([`crate::rules::housing::may_give_room`]); counts the change in `housing_changes` when
    /// the cell counted for housing `before` it or counts now.
    fn note_housing(&mut self, c: Coord, before: bool) {
        let bit = 1u64 << c.index();
        if crate::rules::housing::may_give_room(self.space(c)) {
            self.housing |= bit;
        } else {
            self.housing &= !bit;
        }
        if before || self.room_or_field(c) {
            self.housing_changes = self.housing_changes.wrapping_add(1);
        }
    }

    /// The cells that may give room to animals by themselves, in [`Coord::all`] order (fields,
    /// which count only with the Stubble room, are [`HomeBoard::field_cells`]).
    pub fn housing_cells(&self) -> impl Iterator<Item = Coord> {
        bits(self.housing).map(Coord::from_index)
    }

    /// The cells of the printed board without a tile, in row-major order (final scoring
    /// counts the unused ones).
    pub fn untiled_inner(&self) -> impl Iterator<Item = Coord> {
        bits(INNER & !self.tiled).map(Coord::from_index)
    }

    pub fn has_stable(&self, c: Coord) -> bool {
        self.spaces[c.index()].stable
    }

    /// Every coordinate holding a tile, in row-major order: the set bits of `tiled`, since a
    /// board holds a few tiles among its 48 cells and harvests, incomes and scoring ask often.
    pub fn tiles(&self) -> impl Iterator<Item = (Coord, Tile)> + '_ {
        bits(self.tiled).filter_map(|i| self.spaces[i].tile.map(|t| (Coord::from_index(i), t)))
    }

    /// The cells holding a field, in row-major order, without borrowing the board (the field
    /// phase changes the fields it walks).
    pub fn field_cells(&self) -> impl Iterator<Item = Coord> {
        bits(self.fields).map(Coord::from_index)
    }

    pub fn count(&self, pred: impl Fn(Tile) -> bool) -> usize {
        self.tiles().filter(|&(_, t)| pred(t)).count()
    }

    pub fn stables(&self) -> usize {
        self.spaces.iter().filter(|s| s.stable).count()
    }

    pub fn furnishings(&self) -> impl Iterator<Item = (Coord, Furnishing)> + '_ {
        self.tiles().filter_map(|(c, t)| match t {
            Tile::Furnished { tile, .. } => Some((c, tile)),
            _ => None,
        })
    }

    pub fn has_furnishing(&self, f: Furnishing) -> bool {
        self.owned & (1u64 << f as u32) != 0
    }

    /// Fields with their crops.
    pub fn fields(&self) -> impl Iterator<Item = (Coord, Option<(Crop, u8)>)> + '_ {
        self.tiles().filter_map(|(c, t)| match t {
            Tile::Field { crop } => Some((c, crop)),
            _ => None,
        })
    }

    /// Crops standing on fields: (grain, vegetables).
    pub fn sown(&self) -> (u32, u32) {
        self.fields().fold((0, 0), |(g, v), (_, crop)| match crop {
            Some((Crop::Grain, n)) => (g + u32::from(n), v),
            Some((Crop::Vegetable, n)) => (g, v + u32::from(n)),
            None => (g, v),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `docs/rules/caverna-reference.md` A.2: the cliff separates forest and mountain except on row 3.
    #[test]
    fn a2_cliff_blocks_adjacency_except_row_3() {
        for row in 0..=2 {
            assert!(!Coord::at(row, 2).is_adjacent(Coord::at(row, 3)));
        }
        assert!(Coord::at(3, 2).is_adjacent(Coord::at(3, 3)));
        assert!(Coord::at(0, 0).is_adjacent(Coord::at(1, 0)));
        assert!(!Coord::at(0, 0).is_adjacent(Coord::at(1, 1)));
    }

    #[test]
    fn coordinates_and_indices_agree() {
        let all: Vec<Coord> = ROWS.flat_map(|r| COLS.map(move |c| Coord::at(r, c))).collect();
        assert_eq!(Coord::all().collect::<Vec<_>>(), all);
        for (i, c) in all.iter().enumerate() {
            assert_eq!(c.index(), i);
            let by_new: Vec<Coord> = [(-1, 0), (1, 0), (0, -1), (0, 1)]
                .into_iter()
                .filter_map(|(dr, dc)| Coord::new(i64::from(c.row) + dr, i64::from(c.col) + dc))
                .filter(|&n| c.is_adjacent(n))
                .collect();
            assert_eq!(c.neighbours().collect::<Vec<_>>(), by_new);
        }
    }

    /// The table is the adjacency relation itself, in the documented order.
    #[test]
    fn adjacent_pairs_follow_adjacency() {
        for ring in [false, true] {
            let expected: Vec<(Coord, Coord)> = Coord::all()
                .filter(|c| ring || c.is_inner())
                .flat_map(|a| a.neighbours().filter(move |&b| a < b && (ring || b.is_inner())).map(move |b| (a, b)))
                .collect();
            assert_eq!(adjacent_pairs(ring), &expected[..]);
        }
    }

    #[test]
    fn neighbour_masks_follow_neighbours() {
        let mut b = HomeBoard::new();
        for c in Coord::all() {
            let want: u64 = c.neighbours().map(|n| 1u64 << n.index()).sum();
            assert_eq!(NEIGHBOURS[c.index()], want, "{c:?}");
            assert_eq!(MOUNTAIN & (1u64 << c.index()) != 0, c.is_mountain());
            assert_eq!(INNER & (1u64 << c.index()) != 0, c.is_inner());
        }
        b.set_tile(Coord::at(2, 3), Tile::Cavern);
        assert!(b.tile_next_to(&[Coord::at(1, 3)], true));
        // The pair's own cells do not count; nothing else lies near the top right corner.
        assert!(!b.tile_next_to(&[Coord::at(0, 5), Coord::at(0, 4)], true));
        b.set_tile(Coord::at(0, 4), Tile::Tunnel);
        assert!(!b.tile_next_to(&[Coord::at(0, 5), Coord::at(0, 4)], true));
        assert!(b.tile_next_to(&[Coord::at(0, 5)], true));
    }

    #[test]
    fn a1_coordinates_outside_the_ring_do_not_exist() {
        assert!(Coord::new(-2, 0).is_none());
        assert!(Coord::new(0, 7).is_none());
        assert!(Coord::new(i64::MAX, 0).is_none());
        assert!(Coord::new(4, 6).is_some_and(|c| !c.is_inner()));
    }

    /// `docs/rules/caverna-reference.md` A.5: entry dwelling and start cavern are pre-printed.
    #[test]
    fn a5_starting_board() {
        let b = HomeBoard::new();
        assert_eq!(b.tile(ENTRY_DWELLING), Some(Tile::EntryDwelling));
        assert_eq!(b.tile(START_CAVERN), Some(Tile::Cavern));
        assert_eq!(b.tiles().count(), 2);
    }
}
