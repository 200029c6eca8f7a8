//! A mean with its sample size and a 95% normal interval from the sample variance.

use crate::rate::Z95;

/// The mean of `n` observations with the 95% interval `mean ± z·s/√n` (`s` the sample standard
/// deviation). The normal approximation is fair for the sums of points averaged here once `n`
/// is a few dozen; below `min_sample` the mean is flagged. `None` fields: no observation (mean)
/// or fewer than two (interval, which needs a variance).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Mean {
    pub n: u64,
    pub mean: Option<f64>,
    pub ci_low: Option<f64>,
    pub ci_high: Option<f64>,
    pub below_min_sample: bool,
}

/// Running mean and sum of squared deviations (Welford), exact enough for millions of values and
/// one pass.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct MeanAcc {
    n: u64,
    mean: f64,
    m2: f64,
}

impl MeanAcc {
    pub fn add(&mut self, x: f64) {
        self.n += 1;
        let delta = x - self.mean;
        self.mean += delta / self.n as f64;
        self.m2 += delta * (x - self.mean);
    }

    pub fn finish(&self, min_sample: u64) -> Mean {
        let mean = (self.n > 0).then_some(self.mean);
        let half = (self.n > 1).then(|| Z95 * (self.m2 / (self.n - 1) as f64).sqrt() / (self.n as f64).sqrt());
        Mean {
            n: self.n,
            mean,
            ci_low: half.map(|h| self.mean - h),
            ci_high: half.map(|h| self.mean + h),
            below_min_sample: self.n < min_sample,
        }
    }
}

/// `Mean` of a slice (tests and one-off uses).
pub fn mean_of(values: &[f64], min_sample: u64) -> Mean {
    let mut acc = MeanAcc::default();
    values.iter().for_each(|&v| acc.add(v));
    acc.finish(min_sample)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 1..=5: mean 3, s = √2.5, half-width 1.959964·√2.5/√5 = 1.385904.
    #[test]
    fn normal_interval_of_a_known_sample() {
        let m = mean_of(&[1.0, 2.0, 3.0, 4.0, 5.0], 30);
        assert_eq!((m.n, m.mean), (5, Some(3.0)));
        assert!((m.ci_low.unwrap_or(0.0) - 1.614_096).abs() < 1e-6, "{m:?}");
        assert!((m.ci_high.unwrap_or(0.0) - 4.385_904).abs() < 1e-6, "{m:?}");
        assert!(m.below_min_sample);
    }

    #[test]
    fn no_interval_without_a_variance() {
        let one = mean_of(&[7.0], 1);
        assert_eq!((one.mean, one.ci_low, one.ci_high, one.below_min_sample), (Some(7.0), None, None, false));
        let none = mean_of(&[], 1);
        assert_eq!((none.n, none.mean, none.ci_low), (0, None, None));
    }
}
