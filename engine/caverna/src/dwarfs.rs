//! A player's dwarfs, stored inline: at most six ever exist (5, or 6 with the Additional
//! dwelling, `docs/rules/caverna-reference.md` E.1), and a [`crate::game::Game`] is copied for every candidate move the
//! generator verifies, so a heap vector here would cost an allocation per player per copy.

use std::ops::{Deref, DerefMut};

use crate::game::Dwarf;

/// Most dwarfs a player can ever have in play (the Additional dwelling's sixth included).
pub const CAPACITY: usize = 6;

/// The dwarfs in the order they joined; reads and writes go through the slice it derefs to.
#[derive(Clone, Copy)]
pub struct Dwarfs {
    len: u8,
    items: [Dwarf; CAPACITY],
}

impl Dwarfs {
    pub(crate) fn new() -> Dwarfs {
        Dwarfs { len: 0, items: [Dwarf::new(); CAPACITY] }
    }

    /// Adds a dwarf. The rules never allow more than [`CAPACITY`] (family growth checks the
    /// limit first, `rules::family::grow`), so a dwarf beyond it is a bug; it is not added.
    pub(crate) fn push(&mut self, d: Dwarf) {
        debug_assert!((self.len as usize) < CAPACITY, "more than {CAPACITY} dwarfs");
        if let Some(slot) = self.items.get_mut(self.len as usize) {
            *slot = d;
            self.len += 1;
        }
    }
}

impl Dwarfs {
    /// Every dwarf home from its action space (the return home, `docs/rules/caverna-reference.md` C.2).
    pub(crate) fn return_home(&mut self) {
        // Over every slot, the unused ones included (ignored, and already home): a loop of
        // fixed length, with no length to check. It runs for every player every round.
        for d in &mut self.items {
            d.space = None;
        }
    }

    /// Every newborn grown up (the start of a round, `docs/rules/caverna-reference.md` C.2).
    pub(crate) fn grow_up(&mut self) {
        // Over every slot, like `return_home`.
        for d in &mut self.items {
            d.newborn = false;
        }
    }
}

/// Dwarfs from a list (tests and tools build players this way); at most [`CAPACITY`] are kept.
impl FromIterator<Dwarf> for Dwarfs {
    fn from_iter<I: IntoIterator<Item = Dwarf>>(iter: I) -> Dwarfs {
        let mut dwarfs = Dwarfs::new();
        for d in iter.into_iter().take(CAPACITY) {
            dwarfs.push(d);
        }
        dwarfs
    }
}

impl Deref for Dwarfs {
    type Target = [Dwarf];
    fn deref(&self) -> &[Dwarf] {
        &self.items[..self.len as usize]
    }
}

impl DerefMut for Dwarfs {
    fn deref_mut(&mut self) -> &mut [Dwarf] {
        &mut self.items[..self.len as usize]
    }
}

impl<'a> IntoIterator for &'a Dwarfs {
    type Item = &'a Dwarf;
    type IntoIter = std::slice::Iter<'a, Dwarf>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl<'a> IntoIterator for &'a mut Dwarfs {
    type Item = &'a mut Dwarf;
    type IntoIter = std::slice::IterMut<'a, Dwarf>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter_mut()
    }
}

/// Equal when the dwarfs in play are (unused slots do not count).
impl PartialEq for Dwarfs {
    fn eq(&self, other: &Dwarfs) -> bool {
        **self == **other
    }
}

impl Eq for Dwarfs {}

/// Printed like the list of dwarfs in play.
impl std::fmt::Debug for Dwarfs {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        (**self).fmt(f)
    }
}
