//! One value per player, stored inline: a game has at most [`MAX_PLAYERS`] players, and the
//! feeding and breeding windows ([`crate::game::Phase`]) each keep one such list, opened at
//! every harvest of every game and copied with the game for every candidate move the generator
//! verifies, so a heap vector here would cost an allocation (and a free) each time.

use std::ops::{Deref, DerefMut};

/// Most players a game has (`docs/rules/caverna-reference.md` C.1; [`crate::setup::validate`] rejects more).
pub const MAX_PLAYERS: usize = 7;

/// A value for each of the players of one game, in seat order; reads and writes go through
/// the slice it derefs to.
#[derive(Clone, Copy)]
pub struct PerPlayer<T: Copy + Default> {
    len: u8,
    items: [T; MAX_PLAYERS],
}

impl<T: Copy + Default> PerPlayer<T> {
    /// The default value for each of `players` players (at most [`MAX_PLAYERS`]: a game of
    /// more is never built, so more is a bug; the list is then cut at [`MAX_PLAYERS`]).
    pub(crate) fn new(players: usize) -> PerPlayer<T> {
        debug_assert!(players <= MAX_PLAYERS, "more than {MAX_PLAYERS} players");
        PerPlayer { len: players.min(MAX_PLAYERS) as u8, items: [T::default(); MAX_PLAYERS] }
    }
}

impl<T: Copy + Default> Deref for PerPlayer<T> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        &self.items[..usize::from(self.len)]
    }
}

impl<T: Copy + Default> DerefMut for PerPlayer<T> {
    fn deref_mut(&mut self) -> &mut [T] {
        &mut self.items[..usize::from(self.len)]
    }
}

/// Equal when the values of the players are (unused slots do not count).
impl<T: Copy + Default + PartialEq> PartialEq for PerPlayer<T> {
    fn eq(&self, other: &PerPlayer<T>) -> bool {
        **self == **other
    }
}

impl<T: Copy + Default + Eq> Eq for PerPlayer<T> {}

/// Printed like the list of the players' values (the vector it replaces).
impl<T: Copy + Default + std::fmt::Debug> std::fmt::Debug for PerPlayer<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        (**self).fmt(f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn holds_one_value_per_player_and_prints_like_a_vector() {
        let mut fed: PerPlayer<bool> = PerPlayer::new(3);
        fed[1] = true;
        assert_eq!(*fed, [false, true, false]);
        assert_eq!(format!("{fed:?}"), format!("{:?}", vec![false, true, false]));
        let mut other = PerPlayer::new(3);
        other[1] = true;
        assert_eq!(fed, other);
        assert_ne!(fed, PerPlayer::new(3));
        assert_eq!(PerPlayer::<u32>::new(MAX_PLAYERS).len(), MAX_PLAYERS);
    }
}
