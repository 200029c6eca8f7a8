//! The one error type of the crate.

use std::fmt;

/// Why a batch could not be added or a query could not be answered.
#[derive(Debug)]
pub enum AnalyticsError {
    /// The rows do not have the shape described in [`crate::input`] (the message says which).
    InvalidInput(String),
    /// A filter value cannot be used (an unparseable `played_at` bound).
    BadFilter(String),
    /// The filter selects games one by one or cuts a month, and these statistics hold the
    /// tallies of whole buckets only ([`crate::Stats::from_buckets`]).
    NeedsRows,
    /// The query engine failed (a bug here rather than bad data).
    Polars(polars::error::PolarsError),
}

impl fmt::Display for AnalyticsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AnalyticsError::InvalidInput(m) => write!(f, "invalid input: {m}"),
            AnalyticsError::BadFilter(m) => write!(f, "bad filter: {m}"),
            AnalyticsError::NeedsRows => {
                write!(f, "the filter needs the games' rows, which these statistics do not hold")
            }
            AnalyticsError::Polars(e) => write!(f, "query engine: {e}"),
        }
    }
}

impl std::error::Error for AnalyticsError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            AnalyticsError::Polars(e) => Some(e),
            _ => None,
        }
    }
}

impl From<polars::error::PolarsError> for AnalyticsError {
    fn from(e: polars::error::PolarsError) -> Self {
        AnalyticsError::Polars(e)
    }
}
