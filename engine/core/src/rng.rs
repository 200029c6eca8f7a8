//! The SplitMix64 step every game's seeded generator is built on (Steele, Lea, Flood 2014).
//! Each engine keeps its own versioned generator around it (`chronicle-shuffle/1`,
//! `village-rng/1`, `ab-splitmix-1`: how it draws an index, shuffles, picks), because a seeded
//! log depends on every detail of those; the step itself is one, here. It is written out
//! rather than taken from a crate: its output is part of the log formats and must never change
//! with a dependency's version.

/// Advances `state` by one SplitMix64 step and returns the output.
#[inline]
pub fn next(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The first output of SplitMix64 from `seed`.
pub fn splitmix64(seed: u64) -> u64 {
    next(&mut { seed })
}

/// The seed of game `index` (0-based) of a simulated run with seed `base`: SplitMix64 seeded
/// with `base` gives a start, and game `index` uses the first output of SplitMix64 seeded with
/// `start + index`, cut to 53 bits so that every JSON reader holds it exactly. Every game's
/// simulated runs (`chronicle simulate`) derive their seeds this way.
pub fn game_seed(base: u64, index: u64) -> u64 {
    splitmix64(splitmix64(base).wrapping_add(index)) & ((1 << 53) - 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The published SplitMix64 reference outputs for seed 0.
    #[test]
    fn splitmix64_reference_vector() {
        let mut s = 0;
        assert_eq!(
            [next(&mut s), next(&mut s), next(&mut s)],
            [0xE220_A839_7B1D_CDAF, 0x6E78_9E6A_A1B9_65F4, 0x06C4_5D18_8009_454F]
        );
        assert_eq!(splitmix64(0), 0xE220_A839_7B1D_CDAF);
    }
}
