//! `chronicle-shuffle/1`: the versioned, documented shuffle that derives round cards and
//! harvest tokens from a log's `seed` (`docs/log-format.md` "Setup"; `docs/setup-shuffle.md`).
//!
//! The generator is SplitMix64, written out here rather than taken from a crate: its output
//! is part of the log format (the same seed must give the same setup forever, on any machine,
//! in any implementation), so it must not change with a dependency's version.

/// SplitMix64 (Steele, Lea, Flood 2014), as specified in `docs/setup-shuffle.md`.
#[derive(Clone, Debug)]
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    pub fn new(seed: u64) -> SplitMix64 {
        SplitMix64 { state: seed }
    }

    pub fn next_u64(&mut self) -> u64 {
        chronicle_game::rng::next(&mut self.state)
    }

    /// An index below `n` (`n > 0`): `next_u64() % n`. The modulo bias (< 2⁻⁵⁹ for the small
    /// `n` used here) is accepted for the sake of a one-line specification.
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    /// Fisher–Yates from the last element down: for i = len−1 … 1, swap i with below(i+1).
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i + 1);
            items.swap(i, j);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Reference values of SplitMix64 for seed 0 (the published test vector).
    #[test]
    fn splitmix64_reference_vector() {
        let mut r = SplitMix64::new(0);
        assert_eq!(r.next_u64(), 0xE220_A839_7B1D_CDAF);
        assert_eq!(r.next_u64(), 0x6E78_9E6A_A1B9_65F4);
        assert_eq!(r.next_u64(), 0x06C4_5D18_8009_454F);
    }
}
