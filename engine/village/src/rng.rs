//! `village-rng/1`, the generator of seeded games (`docs/log-format-village.md` "Seeded games"): SplitMix64
//! with rejection sampling for `below`, and `pick` / `shuffle` over canonical orders.

/// The largest seed a log may carry (2^53 − 1, exact in JSON numbers).
pub const MAX_SEED: u64 = (1 << 53) - 1;

/// SplitMix64 state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rng {
    s: u64,
}

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng { s: seed }
    }

    /// The next 64-bit output.
    pub fn next_u64(&mut self) -> u64 {
        chronicle_game::rng::next(&mut self.s)
    }

    /// A uniform number in `0..n` (`n` ≥ 1; 0 for `n` = 0, which no event asks for), without
    /// modulo bias: `limit = 2^64 − (2^64 mod n)`, redraw while `x ≥ limit`. With `n` = 1 the
    /// format still draws once (every `x` is below 2^64): a pick from a one-item list, such as
    /// the last monk of a mass, advances the generator like any other.
    pub fn below(&mut self, n: u64) -> u64 {
        if n == 0 {
            return 0;
        }
        // 2^64 mod n, as ((2^64 − 1) mod n + 1) mod n: in u64, without the software 128-bit
        // division that a u128 remainder costs on every pick.
        let rem = (u64::MAX % n + 1) % n;
        loop {
            let x = self.next_u64();
            // limit = 2^64 − rem, which fits in u64 when rem ≥ 1; when rem = 0 every x is
            // below it.
            if rem == 0 || x < 0u64.wrapping_sub(rem) {
                return x % n;
            }
        }
    }

    /// Takes one item out of a list in canonical order (`pick`).
    pub fn pick<T>(&mut self, items: &mut Vec<T>) -> Option<T> {
        if items.is_empty() {
            return None;
        }
        let i = self.below(items.len() as u64) as usize;
        Some(items.remove(i))
    }

    /// Fisher–Yates from the canonical order: `i` from `len−1` down to 1, `j = below(i+1)`.
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i as u64 + 1) as usize;
            items.swap(i, j);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The published SplitMix64 reference outputs for seed 0 (`docs/log-format-village.md` names SplitMix64).
    #[test]
    fn splitmix64_reference_values() {
        let mut r = Rng::new(0);
        assert_eq!(r.next_u64(), 0xE220_A839_7B1D_CDAF);
        assert_eq!(r.next_u64(), 0x6E78_9E6A_A1B9_65F4);
    }

    /// `below` as the format defines it, in u128: draw x, redraw while x ≥ 2^64 − (2^64 mod n).
    fn below_by_definition(r: &mut Rng, n: u64) -> u64 {
        let limit = (1u128 << 64) - (1u128 << 64) % u128::from(n);
        loop {
            let x = r.next_u64();
            if u128::from(x) < limit {
                return x % n;
            }
        }
    }

    /// `below` answers, and advances the generator, exactly as the format's definition, for
    /// small and huge `n` (where most draws are redrawn).
    #[test]
    fn below_is_the_formats_definition() {
        let mut pick = Rng::new(5);
        let huge = [u64::MAX, u64::MAX - 1, u64::MAX / 2 + 2, (1 << 63) + 1, u64::MAX / 3 * 2];
        let ns: Vec<u64> =
            (1..=200).chain(huge).chain((0..300).map(|_| pick.next_u64() >> (pick.next_u64() % 64))).collect();
        for (i, n) in ns.into_iter().filter(|&n| n > 0).enumerate() {
            let (mut a, mut b) = (Rng::new(i as u64), Rng::new(i as u64));
            for _ in 0..20 {
                assert_eq!(a.below(n), below_by_definition(&mut b, n), "n = {n}");
            }
            assert_eq!(a, b, "n = {n}: the generators advanced alike");
        }
    }

    /// `below`'s remainder and limit in u64 are the u128 ones of the format's definition.
    #[test]
    fn the_u64_limit_is_the_u128_one() {
        let mut r = Rng::new(11);
        let ns = [1, 2, 3, 5, 7, 24, 63, 64, 1000, u64::MAX / 3, u64::MAX - 1, u64::MAX];
        for n in ns.into_iter().chain((0..1000).map(|_| r.next_u64() >> (r.next_u64() % 64)).filter(|&n| n > 0)) {
            let wide = ((1u128 << 64) % u128::from(n)) as u64;
            let rem = (u64::MAX % n + 1) % n;
            assert_eq!(rem, wide, "{n}");
            if rem != 0 {
                assert_eq!(u128::from(0u64.wrapping_sub(rem)), (1u128 << 64) - u128::from(wide), "{n}");
            }
        }
    }

    #[test]
    fn below_stays_in_range_and_shuffle_permutes() {
        let mut r = Rng::new(7);
        assert!((0..1000).all(|_| r.below(6) < 6));
        assert_eq!(r.below(1), 0);
        // below(1) draws once, as LOG-FORMAT's `below` prescribes (one x, always < 2^64).
        let (mut a, mut b) = (Rng::new(3), Rng::new(3));
        assert_eq!(a.below(1), 0);
        b.next_u64();
        assert_eq!(a, b);
        let mut v: Vec<u32> = (0..24).collect();
        r.shuffle(&mut v);
        let mut sorted = v.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, (0..24).collect::<Vec<_>>());
    }
}
