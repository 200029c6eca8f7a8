//! The action spaces on the table, as a map from [`ActionSpace`] to its state stored in an
//! array indexed by the space: a [`crate::game::Game`] is copied for every candidate move the
//! generator verifies, and a tree map here cost several allocations per copy.
//!
//! Iteration is in [`ActionSpace`] order, the order of the `BTreeMap` this replaces.

use crate::action_space::ActionSpace;
use crate::game::SpaceState;

const N: usize = ActionSpace::ALL.len();
// One bit per space in `Spaces::on_table`.
const _: () = assert!(N <= 64);

/// The keys, as a static so that iteration can hand out `&ActionSpace` like a map does.
static KEYS: [ActionSpace; N] = ActionSpace::ALL;

/// The spaces on the table and their goods and occupants.
#[derive(Clone, PartialEq, Eq)]
pub struct Spaces {
    /// Bit `space as usize` set while the space is on the table.
    on_table: u64,
    /// The state of each space on the table; the default for the others (so that derived
    /// equality compares only what is on the table).
    states: [SpaceState; N],
}

impl Default for Spaces {
    fn default() -> Spaces {
        Spaces { on_table: 0, states: [SpaceState::default(); N] }
    }
}

impl Spaces {
    fn bit(space: ActionSpace) -> u64 {
        1u64 << space as usize
    }

    pub fn contains_key(&self, space: &ActionSpace) -> bool {
        self.on_table & Spaces::bit(*space) != 0
    }

    pub fn get(&self, space: &ActionSpace) -> Option<&SpaceState> {
        self.contains_key(space).then(|| &self.states[*space as usize])
    }

    pub fn get_mut(&mut self, space: &ActionSpace) -> Option<&mut SpaceState> {
        if self.contains_key(space) {
            Some(&mut self.states[*space as usize])
        } else {
            None
        }
    }

    /// Puts a space on the table with `state`; returns its former state if it was there.
    pub fn insert(&mut self, space: ActionSpace, state: SpaceState) -> Option<SpaceState> {
        let old = self.remove(&space);
        self.on_table |= Spaces::bit(space);
        self.states[space as usize] = state;
        old
    }

    /// Takes a space off the table; returns its state if it was there.
    pub fn remove(&mut self, space: &ActionSpace) -> Option<SpaceState> {
        let old = self.get(space).copied();
        self.on_table &= !Spaces::bit(*space);
        self.states[*space as usize] = SpaceState::default();
        old
    }

    pub fn len(&self) -> usize {
        self.on_table.count_ones() as usize
    }

    pub fn is_empty(&self) -> bool {
        self.on_table == 0
    }

    /// The spaces on the table with their states, in [`ActionSpace`] order.
    pub fn iter(&self) -> Iter<'_> {
        Iter { on_table: self.on_table, inner: KEYS.iter().zip(&self.states) }
    }

    pub fn iter_mut(&mut self) -> impl Iterator<Item = (&ActionSpace, &mut SpaceState)> + '_ {
        let on_table = self.on_table;
        KEYS.iter().zip(&mut self.states).filter(move |(k, _)| on_table & Spaces::bit(**k) != 0)
    }

    /// Calls `f` on each space on the table whose bit (`1 << space as usize`) is set in `among`,
    /// in [`ActionSpace`] order: only those bits are walked, not every space.
    pub(crate) fn for_each_among(&mut self, among: u64, mut f: impl FnMut(ActionSpace, &mut SpaceState)) {
        let mut left = self.on_table & among;
        while left != 0 {
            let i = left.trailing_zeros() as usize;
            left &= left - 1;
            f(KEYS[i], &mut self.states[i]);
        }
    }

    /// Takes every dwarf off the spaces (the return home, `docs/rules/caverna-reference.md` C.2). The spaces off the
    /// table have no occupant, so all states are cleared without looking which are on it.
    pub(crate) fn clear_occupants(&mut self) {
        for state in &mut self.states {
            state.clear_occupant();
        }
    }

    pub fn keys(&self) -> impl Iterator<Item = &ActionSpace> + '_ {
        self.iter().map(|(k, _)| k)
    }

    pub fn values(&self) -> impl Iterator<Item = &SpaceState> + '_ {
        self.iter().map(|(_, v)| v)
    }

    pub fn values_mut(&mut self) -> impl Iterator<Item = &mut SpaceState> + '_ {
        self.iter_mut().map(|(_, v)| v)
    }
}

/// `spaces[&space]`, like a map: panics when the space is not on the table.
impl std::ops::Index<&ActionSpace> for Spaces {
    type Output = SpaceState;
    fn index(&self, space: &ActionSpace) -> &SpaceState {
        self.get(space).unwrap_or_else(|| panic!("{} is not on the table", space.id()))
    }
}

/// Iterator of [`Spaces::iter`].
pub struct Iter<'a> {
    on_table: u64,
    inner: std::iter::Zip<std::slice::Iter<'static, ActionSpace>, std::slice::Iter<'a, SpaceState>>,
}

impl<'a> Iterator for Iter<'a> {
    type Item = (&'static ActionSpace, &'a SpaceState);
    fn next(&mut self) -> Option<Self::Item> {
        let on_table = self.on_table;
        self.inner.find(|(k, _)| on_table & Spaces::bit(**k) != 0)
    }
}

impl<'a> IntoIterator for &'a Spaces {
    type Item = (&'static ActionSpace, &'a SpaceState);
    type IntoIter = Iter<'a>;
    fn into_iter(self) -> Iter<'a> {
        self.iter()
    }
}

impl FromIterator<(ActionSpace, SpaceState)> for Spaces {
    fn from_iter<I: IntoIterator<Item = (ActionSpace, SpaceState)>>(iter: I) -> Spaces {
        let mut spaces = Spaces::default();
        for (k, v) in iter {
            spaces.insert(k, v);
        }
        spaces
    }
}

/// Printed like the map it replaces.
impl std::fmt::Debug for Spaces {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Indexing by `space as usize` and iterating over `ActionSpace::ALL` agree, and both follow
    /// the derived order (the order of the map this replaces).
    #[test]
    fn keys_are_in_enum_order() {
        for (i, k) in KEYS.iter().enumerate() {
            assert_eq!(*k as usize, i);
        }
        assert!(KEYS.windows(2).all(|w| w[0] < w[1]));
    }

    #[test]
    fn behaves_like_a_map() {
        let mut s = Spaces::default();
        assert!(s.insert(ActionSpace::Supplies, SpaceState::default()).is_none());
        s.insert(ActionSpace::DriftMining, SpaceState::default());
        s.get_mut(&ActionSpace::Supplies).unwrap().set_occupant(1, 0);
        let keys: Vec<_> = s.keys().copied().collect();
        assert_eq!(keys, [ActionSpace::DriftMining, ActionSpace::Supplies]);
        assert_eq!(s.remove(&ActionSpace::Supplies).unwrap().occupant(), Some((1, 0)));
        assert_eq!(s.len(), 1);
        assert_eq!(s, [(ActionSpace::DriftMining, SpaceState::default())].into_iter().collect());
    }
}
