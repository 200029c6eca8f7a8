//! Admission control for heavy work, so that no burst of requests can exhaust the server:
//!
//! - **Replay slots**: at most `replay_slots` replays run at once (each on a blocking thread
//!   of its own); the others wait in a bounded queue.
//! - **Memory**: a replay reserves an estimate of what it will hold (a multiple of the log's
//!   size) from `replay_memory`, and a large request body reserves its estimate from
//!   `body_memory` before it is read; what is reserved in all is never more than the two
//!   budgets. A single reservation larger than its whole budget is cut to the budget (it then
//!   runs alone).
//! - **Bounded waiting**: at most `queue` callers wait at once and none waits longer than
//!   `wait`; beyond either, the caller gets [`Busy`] at once (`BUSY`, HTTP 503 with
//!   `Retry-After`) instead of piling up.
//!
//! - **Statistics computed for one request** (an outcome report over a filter, strategy effects
//!   over a filter, a questions page's answers on a miss of the kept ones) take a replay slot
//!   too ([`Admission::compute`]): they are CPU work of the same order, on a blocking thread.
//!   Answers read from kept tallies or kept results take none.
//!
//! Two budgets rather than one: a request holds its body's reservation while it waits for a
//! replay's, and with one shared budget, bodies could take it all and wait for each other.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use tokio::sync::{OwnedSemaphorePermit, Semaphore};

/// What a log of `n` bytes holds while it is replayed: the engine's parsed JSON document (an
/// order-preserving map per object) and its game states, measured at about 5× the log's size
/// for large logs (docs/reliability.md); 8× leaves room.
pub const REPLAY_MEMORY_FACTOR: usize = 8;

/// What a request body of `n` bytes holds while it is executed: the bytes, the GraphQL
/// request's variables, each `JSON` argument converted for the resolver and re-serialised as
/// the log's bytes; measured at about 9× (docs/reliability.md); 12× leaves room.
pub const BODY_MEMORY_FACTOR: usize = 12;

/// Bodies up to this size reserve nothing: cheap queries never wait for memory.
pub const SMALL_BODY: usize = 64 * 1024;

/// The limits of [`Admission`].
#[derive(Clone, Copy, Debug)]
pub struct AdmissionLimits {
    /// Replays that may run at once.
    pub replay_slots: usize,
    /// Bytes all running replays may reserve together.
    pub replay_memory: usize,
    /// Bytes all large request bodies being executed may reserve together.
    pub body_memory: usize,
    /// Callers that may wait for a slot or memory at once.
    pub queue: usize,
    /// Longest wait for a slot or memory.
    pub wait: Duration,
    /// Bytes the rows of every stored game may take when a query first needs them (filtered
    /// strategy effects, questions; players, uploaders or cut months with more than 5,000
    /// games): estimated before the read at [`ROWS_BYTES_PER_GAME`] a stored game; a store
    /// whose estimate is over it refuses those queries (`BUDGET_EXCEEDED`) instead of reading.
    pub rows_memory: usize,
    /// Playouts a decision in the analyses this server runs when the caller names no budget
    /// (every anonymous request): what one analysis costs (docs/analysis.md, "On the server").
    pub analysis_budget: u32,
}

/// What one stored game's rows take once read (facts, statistics rows, skill rows): measured at
/// about 7 KB a four-player Caverna game (704 MB for 100,000, docs/scaling.md); 8 KB leaves
/// room, and games of fewer seats take less.
pub const ROWS_BYTES_PER_GAME: usize = 8 * 1024;

impl AdmissionLimits {
    /// One replay per core but one (so that cheap requests always find a core), 256 MiB for
    /// replays and 256 MiB for bodies, 64 waiting for at most 10 s; 4 GiB for every game's rows
    /// (about 500,000 games).
    pub fn for_this_machine() -> AdmissionLimits {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        AdmissionLimits {
            replay_slots: cores.saturating_sub(1).max(1),
            replay_memory: 256 << 20,
            body_memory: 256 << 20,
            queue: 64,
            wait: Duration::from_secs(10),
            rows_memory: 4 << 30,
            analysis_budget: chronicle_game::analysis::DEFAULT_BUDGET,
        }
    }
}

/// Why heavy work was not admitted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Busy(pub String);

/// Reservations are counted in KiB, so that a budget of gigabytes fits a semaphore's `u32`.
const UNIT: usize = 1024;

/// Admission control for the whole server (see the module documentation).
pub struct Admission {
    limits: AdmissionLimits,
    slots: Arc<Semaphore>,
    replay_memory: Arc<Semaphore>,
    body_memory: Arc<Semaphore>,
    waiting: AtomicUsize,
}

/// A running replay's slot and memory; released when dropped.
#[derive(Debug)]
pub struct ReplayPermit {
    _slots: OwnedSemaphorePermit,
    _memory: OwnedSemaphorePermit,
}

/// A running computation's slot; released when dropped.
#[derive(Debug)]
pub struct ComputePermit {
    _slot: OwnedSemaphorePermit,
}

/// A request body's memory; released when dropped.
#[derive(Debug)]
pub struct BodyPermit {
    _memory: Option<OwnedSemaphorePermit>,
}

fn units(bytes: usize) -> usize {
    bytes.div_ceil(UNIT)
}

fn permits(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX).max(1)
}

impl Admission {
    pub fn new(limits: AdmissionLimits) -> Admission {
        let limits = AdmissionLimits { replay_slots: limits.replay_slots.max(1), ..limits };
        Admission {
            slots: Arc::new(Semaphore::new(limits.replay_slots)),
            replay_memory: Arc::new(Semaphore::new(permits(units(limits.replay_memory)) as usize)),
            body_memory: Arc::new(Semaphore::new(permits(units(limits.body_memory)) as usize)),
            waiting: AtomicUsize::new(0),
            limits,
        }
    }

    pub fn limits(&self) -> AdmissionLimits {
        self.limits
    }

    /// Admits `threads` replays over logs of `bytes` bytes in all (a batch takes as many slots
    /// as it runs threads, at most every slot).
    pub async fn replay(&self, threads: usize, bytes: usize) -> Result<ReplayPermit, Busy> {
        let slots = permits(threads.clamp(1, self.limits.replay_slots));
        let memory = Self::memory_units(self.limits.replay_memory, bytes.saturating_mul(REPLAY_MEMORY_FACTOR));
        let now = (
            Arc::clone(&self.replay_memory).try_acquire_many_owned(memory),
            Arc::clone(&self.slots).try_acquire_many_owned(slots),
        );
        if let (Ok(memory), Ok(slots)) = now {
            return Ok(ReplayPermit { _slots: slots, _memory: memory });
        }
        drop(now);
        let (slots, memory) = self
            .wait_for("replay", async {
                let memory = Arc::clone(&self.replay_memory).acquire_many_owned(memory).await;
                let slots = Arc::clone(&self.slots).acquire_many_owned(slots).await;
                (slots, memory)
            })
            .await?;
        match (slots, memory) {
            (Ok(slots), Ok(memory)) => Ok(ReplayPermit { _slots: slots, _memory: memory }),
            _ => Err(Busy("the server is shutting down".into())),
        }
    }

    /// Admits one computation of statistics for a request (`what`, as its refusal says it): one
    /// slot of the replays' (it is CPU work on a blocking thread), through the same bounded
    /// queue; no memory reservation (it reads kept rows, and holds what its answer holds).
    pub async fn compute(&self, what: &str) -> Result<ComputePermit, Busy> {
        if let Ok(slot) = Arc::clone(&self.slots).try_acquire_owned() {
            return Ok(ComputePermit { _slot: slot });
        }
        let slot = self.wait_for(what, Arc::clone(&self.slots).acquire_owned()).await?;
        slot.map(|s| ComputePermit { _slot: s }).map_err(|_| Busy("the server is shutting down".into()))
    }

    /// The number of replay threads a batch of `n` logs may use.
    pub fn threads_for(&self, n: usize) -> usize {
        n.clamp(1, self.limits.replay_slots)
    }

    /// Admits a request body of `bytes` bytes (small bodies reserve nothing).
    pub async fn body(&self, bytes: usize) -> Result<BodyPermit, Busy> {
        if bytes <= SMALL_BODY {
            return Ok(BodyPermit { _memory: None });
        }
        let memory = Self::memory_units(self.limits.body_memory, bytes.saturating_mul(BODY_MEMORY_FACTOR));
        if let Ok(permit) = Arc::clone(&self.body_memory).try_acquire_many_owned(memory) {
            return Ok(BodyPermit { _memory: Some(permit) });
        }
        let permit = self.wait_for("request body", Arc::clone(&self.body_memory).acquire_many_owned(memory)).await?;
        permit.map(|p| BodyPermit { _memory: Some(p) }).map_err(|_| Busy("the server is shutting down".into()))
    }

    /// A reservation in units, cut to the whole budget of `budget_bytes`.
    fn memory_units(budget_bytes: usize, bytes: usize) -> u32 {
        permits(units(bytes).min(units(budget_bytes)))
    }

    /// Waits for `acquire` in the bounded queue: refused at once when the queue is full, and
    /// after `wait`.
    async fn wait_for<T>(&self, what: &str, acquire: impl std::future::Future<Output = T>) -> Result<T, Busy> {
        let queued = self.waiting.fetch_add(1, Ordering::AcqRel);
        let _leave = Leave(&self.waiting);
        if queued >= self.limits.queue {
            let queue = self.limits.queue;
            return Err(Busy(format!(
                "the server is busy: the queue for heavy work is full ({queued} of {queue}); retry later"
            )));
        }
        tokio::time::timeout(self.limits.wait, acquire).await.map_err(|_| {
            Busy(format!(
                "the server is busy: no room for a {what} within {} s; retry later",
                self.limits.wait.as_secs()
            ))
        })
    }
}

/// Leaves the queue when dropped (also when the waiting request is cancelled).
struct Leave<'a>(&'a AtomicUsize);

impl Drop for Leave<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::AcqRel);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limits(slots: usize, queue: usize) -> AdmissionLimits {
        AdmissionLimits {
            replay_slots: slots,
            replay_memory: 1 << 20,
            body_memory: 1 << 20,
            queue,
            wait: Duration::from_millis(200),
            rows_memory: 1 << 30,
            analysis_budget: 1,
        }
    }

    fn runtime() -> tokio::runtime::Runtime {
        tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap()
    }

    #[test]
    fn replays_beyond_the_slots_wait_then_get_busy() {
        runtime().block_on(async {
            let gate = Admission::new(limits(1, 8));
            let first = gate.replay(1, 100).await.unwrap();
            let second = gate.replay(1, 100).await;
            assert!(matches!(second, Err(Busy(m)) if m.contains("within")));
            drop(first);
            assert!(gate.replay(1, 100).await.is_ok());
        });
    }

    #[test]
    fn a_full_queue_is_refused_at_once() {
        runtime().block_on(async {
            let gate = Admission::new(limits(1, 0));
            let running = gate.replay(1, 100).await.unwrap();
            let start = std::time::Instant::now();
            let refused = gate.replay(1, 100).await;
            assert!(matches!(refused, Err(Busy(m)) if m.contains("queue")));
            assert!(start.elapsed() < Duration::from_millis(100));
            drop(running);
        });
    }

    #[test]
    fn memory_is_reserved_by_log_size_and_cut_to_the_budget() {
        runtime().block_on(async {
            let gate = Admission::new(limits(4, 8));
            // 100 KiB × 8 = 800 KiB of the 1 MiB replay budget: a second such replay must wait.
            let first = gate.replay(1, 100 * 1024).await.unwrap();
            assert!(gate.replay(1, 100 * 1024).await.is_err());
            drop(first);
            // Larger than the whole budget: cut to it, so it runs (alone).
            let huge = gate.replay(1, 10 << 20).await.unwrap();
            assert!(gate.replay(1, 1).await.is_err());
            drop(huge);
        });
    }

    #[test]
    fn small_bodies_reserve_nothing_and_large_ones_share_the_body_budget() {
        runtime().block_on(async {
            let gate = Admission::new(limits(1, 8));
            let small: Vec<BodyPermit> = futures_join(&gate, 100, SMALL_BODY).await;
            assert_eq!(small.len(), 100);
            let large = gate.body(80 * 1024).await.unwrap(); // 80 KiB × 12 = 960 KiB of 1 MiB
            assert!(gate.body(80 * 1024).await.is_err());
            drop(large);
            assert!(gate.body(80 * 1024).await.is_ok());
        });
    }

    async fn futures_join(gate: &Admission, n: usize, bytes: usize) -> Vec<BodyPermit> {
        let mut out = Vec::new();
        for _ in 0..n {
            out.push(gate.body(bytes).await.unwrap());
        }
        out
    }

    /// A computation of statistics takes a replay slot: with every slot taken, it waits in the
    /// bounded queue and is refused with `BUSY` after the wait, and runs once a slot is free.
    #[tokio::test]
    async fn statistics_computed_for_a_request_wait_for_a_slot_like_a_replay() {
        let admission = Admission::new(AdmissionLimits {
            replay_slots: 1,
            replay_memory: 1 << 20,
            body_memory: 1 << 20,
            queue: 4,
            wait: Duration::from_millis(50),
            rows_memory: 1 << 20,
            analysis_budget: 1,
        });
        let replay = admission.replay(1, 10).await.expect("the only slot");
        let refused = admission.compute("outcome report").await.expect_err("no slot within the wait");
        assert!(refused.0.contains("outcome report"), "{}", refused.0);
        drop(replay);
        let running = admission.compute("outcome report").await.expect("a free slot");
        assert!(admission.replay(1, 10).await.is_err(), "the computation holds the slot");
        drop(running);
    }
}
