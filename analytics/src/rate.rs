//! A proportion with its sample size and 95% Wilson score interval.

/// z for a two-sided 95% interval (the 0.975 quantile of the standard normal).
pub const Z95: f64 = 1.959_963_984_540_054;

/// The sample size below which a rate is flagged, unless a filter says otherwise.
pub const DEFAULT_MIN_SAMPLE: u64 = 30;

/// `successes` out of `n`, as a fraction in 0–1.
///
/// With `n = 0` there is no information: `rate` is 0 and the interval is the whole of [0, 1].
#[derive(Clone, Copy, Debug, PartialEq)]
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
