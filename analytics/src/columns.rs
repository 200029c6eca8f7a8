//! Reading aggregated polars columns back into plain Rust values.

use polars::prelude::*;

/// A column as `i64` values (cast first); nulls stay `None`.
pub(crate) fn i64s(df: &DataFrame, name: &str) -> PolarsResult<Vec<Option<i64>>> {
    let c = df.column(name)?.cast(&DataType::Int64)?;
    Ok(c.i64()?.iter().collect())
}

/// A count or sum that is never null or negative in a well-formed aggregate.
pub(crate) fn count(v: Option<i64>) -> u64 {
    v.and_then(|x| u64::try_from(x).ok()).unwrap_or(0)
}

/// `sum / n`, or `None` when `n` is 0.
pub(crate) fn mean(sum: f64, n: u64) -> Option<f64> {
    (n > 0).then(|| sum / n as f64)
}
