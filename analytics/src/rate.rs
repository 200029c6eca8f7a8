//! A proportion with its sample size and 95% Wilson score interval.

/// z for a two-sided 95% interval (the 0.975 quantile of the standard normal).
pub const Z95: f64 = 1.959_963_984_540_054;

/// The sample size below which a rate is flagged, unless a filter says otherwise.
pub const DEFAULT_MIN_SAMPLE: u64 = 30;

/// `successes` out of `n`, as a fraction in 0–1.
///
/// With `n = 0` there is no information: `rate` is 0 and the interval is the whole of [0, 1].
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Rate {
    pub successes: u64,
    pub n: u64,
    pub rate: f64,
    /// Lower end of the 95% Wilson score interval.
    pub ci_low: f64,
    /// Upper end of the 95% Wilson score interval.
    pub ci_high: f64,
    /// `n` is below the minimum sample of the query.
    pub below_min_sample: bool,
}

impl Rate {
    /// `successes` of `n` (`successes` is capped at `n`).
    pub fn new(successes: u64, n: u64, min_sample: u64) -> Rate {
        let successes = successes.min(n);
        let (ci_low, ci_high) = wilson(successes, n, Z95);
        let rate = if n == 0 { 0.0 } else { successes as f64 / n as f64 };
        Rate { successes, n, rate, ci_low, ci_high, below_min_sample: n < min_sample }
    }
}

/// The Wilson score interval of `k` successes in `n` trials for the normal quantile `z`:
/// `(p + z²/2n ± z·sqrt(p(1−p)/n + z²/4n²)) / (1 + z²/n)`, clamped to [0, 1]. `(0, 1)` when
/// `n = 0`.
pub fn wilson(k: u64, n: u64, z: f64) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let n_f = n as f64;
    let p = k.min(n) as f64 / n_f;
    let z2 = z * z;
    let denom = 1.0 + z2 / n_f;
    let centre = (p + z2 / (2.0 * n_f)) / denom;
    let half = z / denom * (p * (1.0 - p) / n_f + z2 / (4.0 * n_f * n_f)).sqrt();
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// The difference `p1 − p2` of two independent proportions with its 95% interval by
/// Newcombe's hybrid score method (Newcombe 1998, method 10: the Wilson intervals of each
/// proportion combined), which keeps its coverage for small samples and rates near 0 or 1
/// where the simple Wald interval does not.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Difference {
    pub difference: f64,
    pub ci_low: f64,
    pub ci_high: f64,
}

/// [`Difference`] of `k1` of `n1` against `k2` of `n2`; `None` when either sample is empty.
pub fn newcombe(k1: u64, n1: u64, k2: u64, n2: u64) -> Option<Difference> {
    if n1 == 0 || n2 == 0 {
        return None;
    }
    let (p1, p2) = (k1.min(n1) as f64 / n1 as f64, k2.min(n2) as f64 / n2 as f64);
    let (l1, u1) = wilson(k1, n1, Z95);
    let (l2, u2) = wilson(k2, n2, Z95);
    let d = p1 - p2;
    let low = d - ((p1 - l1).powi(2) + (u2 - p2).powi(2)).sqrt();
    let high = d + ((u1 - p1).powi(2) + (p2 - l2).powi(2)).sqrt();
    Some(Difference { difference: d, ci_low: low.max(-1.0), ci_high: high.min(1.0) })
}

#[cfg(test)]
mod newcombe_tests {
    use super::*;

    /// Newcombe (1998), Table II, example (a): 56/70 against 48/80 gives 0.2000 with the
    /// method-10 interval (0.0524, 0.3339).
    #[test]
    fn newcombe_matches_the_published_example() {
        let d = newcombe(56, 70, 48, 80).unwrap();
        assert!((d.difference - 0.2).abs() < 1e-12);
        assert!((d.ci_low - 0.0524).abs() < 5e-5, "{d:?}");
        assert!((d.ci_high - 0.3339).abs() < 5e-5, "{d:?}");
        // Example (h), a zero cell: 0/10 against 0/20 gives (−0.1611, 0.2775).
        let d = newcombe(0, 10, 0, 20).unwrap();
        assert!((d.ci_low + 0.1611).abs() < 5e-5 && (d.ci_high - 0.2775).abs() < 5e-5, "{d:?}");
        assert_eq!(newcombe(1, 0, 1, 2), None);
    }
}
