//! What the service derives from stored logs — the decompressed log, states at entries, the
//! ledger, the timeline (every position's view from one replay), the trust report — kept for
//! later requests, bounded by bytes.
//!
//! A stored game never changes on a running server (a reverify restarts it, see the crate
//! documentation), so what a replay derived from it stays true. Keeping it makes repeated work
//! cheap: aliases of one field in one request, a page and its board fragment, a viewer stepping
//! from entry *n* to *n* + 1 (every position is in the game's timeline). Each kept product
//! weighs its log's size in bytes (a timeline [`TIMELINE_WEIGHT`] times that) — what the answers built from a log are bounded by
//! (docs/reliability.md) — and the whole cache at most [`CAPACITY`]; least recently used first
//! out. Keeping a product does not make it free: every use is still charged to the request's
//! [`crate::cost::Budget`], since each use goes out in an answer.

use std::sync::Arc;

use chronicle_game::{LedgerLine, StateAt, Timeline};
use quick_cache::sync::Cache;
use quick_cache::Weighter;

/// Bytes of products kept at most (each weighs its log's size).
pub const CAPACITY: u64 = 64 << 20;

/// What was derived, of which stored game.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Key {
    /// The log's bytes as uploaded.
    Log(i64),
    /// The state after an entry (after the last legal entry when `None`).
    State(i64, Option<usize>),
    Ledger(i64),
    /// Every position's view and ledger line, from one replay (the replay viewer's).
    Timeline(i64),
    /// Above and Below's trust report; `None` for games whose engine checks all it applies.
    Trust(i64),
}

#[derive(Clone, Debug)]
pub(crate) enum Product {
    Log(Arc<Vec<u8>>),
    State(Arc<StateAt>),
    Ledger(Arc<Vec<LedgerLine>>),
    /// `None` for a log without a valid setup or of no known game.
    Timeline(Arc<Option<Timeline>>),
    Trust(Arc<Option<serde_json::Value>>),
}

/// A product with its weight (fixed when it is kept, as the cache requires).
#[derive(Clone, Debug)]
pub(crate) struct Kept {
    weight: u64,
    pub product: Product,
}

/// How many times its log's size a timeline weighs: it holds a view of every position, about
/// 20 times the bytes of the entries that made them (measured on `complete_3p.json`: a 12 kB
/// log, a timeline of 230 kB as JSON).
pub const TIMELINE_WEIGHT: u64 = 20;

impl Kept {
    pub fn new(log_bytes: usize, product: Product) -> Kept {
        let bytes = u64::try_from(log_bytes).unwrap_or(u64::MAX).max(1);
        let weight = match product {
            Product::Timeline(_) => bytes.saturating_mul(TIMELINE_WEIGHT),
            _ => bytes,
        };
        Kept { weight, product }
    }
}

#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct ByBytes;

impl Weighter<Key, Kept> for ByBytes {
    fn weight(&self, _key: &Key, kept: &Kept) -> u64 {
        kept.weight
    }
}

pub(crate) type Derived = Cache<Key, Kept, ByBytes>;

pub(crate) fn new_cache() -> Derived {
    Cache::with_weighter(1024, CAPACITY, ByBytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kept_products_weigh_their_logs_bytes_and_the_cache_stays_within_its_capacity() {
        let cache = new_cache();
        let big = usize::try_from(CAPACITY / 4).unwrap_or(usize::MAX);
        for id in 0..10 {
            cache.insert(Key::Log(id), Kept::new(big, Product::Log(Arc::new(Vec::new()))));
        }
        assert!(cache.weight() <= CAPACITY, "{} > {CAPACITY}", cache.weight());
        assert!(cache.len() <= 4);
    }
}
