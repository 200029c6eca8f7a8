//! The seeded generator `ab-splitmix-1` of `docs/log-format-above-and-below.md` ("Randomness"), exactly as
//! specified: SplitMix64 steps, rejection sampling for `uniform`, and a Fisher–Yates shuffle
//! from the end. Seeded logs depend on every detail, so nothing here may change.

/// The generator's state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SplitMix {
    state: u64,
}

impl SplitMix {
    pub fn new(seed: u64) -> SplitMix {
        SplitMix { state: seed }
    }

    /// The next 64-bit output (all arithmetic wrapping).
    pub fn next_u64(&mut self) -> u64 {
        chronicle_game::rng::next(&mut self.state)
    }

    /// A uniform integer in `0..n` by rejection (`n` = 0 gives 0).
    pub fn uniform(&mut self, n: u64) -> u64 {
        if n == 0 {
            return 0;
        }
        // 2^64 mod n, computed without 128-bit arithmetic: (2^64 − n) mod n.
        let rem = (u64::MAX - n + 1) % n;
        loop {
            let x = self.next_u64();
            // x < 2^64 − rem; when rem is 0 every x is accepted.
            if rem == 0 || x < 0u64.wrapping_sub(rem) {
                return x % n;
            }
        }
    }

    /// A die: `1 + uniform(6)`.
    pub fn die(&mut self) -> u8 {
        // uniform(6) < 6, so the cast cannot truncate.
        1 + (self.uniform(6) as u8)
    }

    /// Shuffles in place: for i from len − 1 down to 1, swap i with uniform(i + 1).
    pub fn shuffle<T>(&mut self, list: &mut [T]) {
        for i in (1..list.len()).rev() {
            let j = self.uniform(i as u64 + 1) as usize;
            list.swap(i, j);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The SplitMix64 reference outputs for seed 0.
    #[test]
    fn matches_the_splitmix64_reference() {
        let mut r = SplitMix::new(0);
        assert_eq!(r.next_u64(), 0xE220_A839_7B1D_CDAF);
        assert_eq!(r.next_u64(), 0x6E78_9E6A_A1B9_65F4);
    }

    #[test]
    fn dice_stay_in_range_and_shuffles_permute() {
        let mut r = SplitMix::new(42);
        assert!((0..1000).map(|_| r.die()).all(|d| (1..=6).contains(&d)));
        let mut v: Vec<u32> = (0..20).collect();
        r.shuffle(&mut v);
        let mut s = v.clone();
        s.sort_unstable();
        assert_eq!(s, (0..20).collect::<Vec<_>>());
    }
}
