//! What work from a log costs, known before the work starts.
//!
//! Every piece of work that reads a log — replaying it (a verdict, a state at an entry, the
//! ledger, the trust report, legal entries, a step of the entry form), or handing its bytes out
//! (`Game.log`, an entry shown on a page) — costs that log's size in bytes, whether the log was
//! sent with the request or is stored (a stored game's size is read with its verdict, before its
//! log is). A request holds one [`Budget`] of log bytes for all its fields, pages and aliases;
//! each use is charged before it starts, cached or not (a cached state still goes out in the
//! answer once per alias), and what does not fit is refused with `BUDGET_EXCEEDED`.
//!
//! Why bytes bound CPU and memory: every engine reads a log in one pass and applies each entry
//! in time bounded by its declared data (docs/reliability.md, "Bounds on declared data"), so
//! the slowest work per byte, measured over the hostile logs of the load test, times the budget
//! bounds a request's CPU; answers built from a log (states, ledgers, reports) are a bounded
//! multiple of its size, so the budget also bounds what an answer holds. The memory a running
//! replay holds is reserved separately ([`crate::admission`]).

use std::sync::atomic::{AtomicUsize, Ordering};

/// How many times its log's size listing the legal entries costs: each candidate entry is
/// checked on a copy of the game, and a game holds its log's declared data (measured on the
/// load test's 9 MB Above and Below log: 1.0 s of CPU and 241 MiB for `legalEntries`, against
/// 0.25 s and 70 MiB for `verifyLog`; docs/reliability.md, "Load test").
pub const LEGAL_WEIGHT: usize = 4;

/// How many times its log's size listing the legal entries with what each will cost costs: the
/// listing ([`LEGAL_WEIGHT`]), one more replay to the open position, and each listed entry
/// applied once more to a copy of the game to say its consequences — at most the listing's
/// own candidates again.
pub const DESCRIBED_LEGAL_WEIGHT: usize = 2 * LEGAL_WEIGHT + 1;

/// How many times its log's size a step of the entry form costs (0.7 s on the same log).
pub const STEPS_WEIGHT: usize = 3;

use crate::ServiceError;

/// Log bytes one request may still work on.
#[derive(Debug)]
pub struct Budget {
    left: AtomicUsize,
    whole: usize,
}

impl Budget {
    pub fn new(bytes: usize) -> Budget {
        Budget { left: AtomicUsize::new(bytes), whole: bytes }
    }

    /// Takes `bytes` from the budget; `BUDGET_EXCEEDED` (and nothing taken) when less is left.
    pub fn charge(&self, bytes: usize) -> Result<(), ServiceError> {
        self.left.fetch_update(Ordering::AcqRel, Ordering::Acquire, |left| left.checked_sub(bytes)).map(drop).map_err(
            |left| {
                ServiceError::BudgetExceeded(format!(
                    "this request has worked on as many log bytes as one request may ({}); {bytes} more do not fit \
                     ({left} left)",
                    self.whole
                ))
            },
        )
    }

    /// Bytes not spent yet.
    pub fn left(&self) -> usize {
        self.left.load(Ordering::Acquire)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_budget_refuses_what_does_not_fit_and_keeps_what_is_left() {
        let budget = Budget::new(100);
        assert!(budget.charge(60).is_ok());
        let refused = budget.charge(41).unwrap_err();
        assert_eq!(refused.code(), "BUDGET_EXCEEDED");
        assert!(refused.message().contains("41 more do not fit (40 left)"), "{}", refused.message());
        assert_eq!(budget.left(), 40);
        assert!(budget.charge(40).is_ok());
        assert!(budget.charge(1).is_err());
    }
}
