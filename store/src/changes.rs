//! What one process's writes tell the others on the same database, so that several
//! `chronicle serve` processes answer alike. Each write transaction that stores games or
//! rewrites verdicts records a [`Change`] in the **change sequence** (`store_changes`, numbered
//! rows written in that transaction, so a rolled-back write leaves none), and on PostgreSQL
//! also sends it as a notification on the channel [`CHANNEL`] (`pg_notify`, delivered at
//! commit).
//!
//! A server follows the changes ([`Changes`]) in one of two ways:
//!
//! - **notified**: on a PostgreSQL primary it listens on [`CHANNEL`];
//! - **polled**: on a SQLite file, and on a PostgreSQL hot standby (which receives the primary's
//!   rows by streaming replication but none of its notifications), it asks every [`POLL`] for
//!   the rows after the last one it applied. Every write is seen this way, by any writer:
//!   games stored by `chronicle import` or another server, verdicts rewritten by
//!   `chronicle reverify`.
//!
//! PostgreSQL numbers rows when they are written, not when they commit, so a polled reader can
//! see row 7 before a slower transaction commits row 6: it keeps the rows it applied above its
//! first gap and waits up to [`GAP_WAIT`] for the gap to fill (a rolled-back write leaves a gap
//! for ever). Applying a change twice is harmless (the service skips games it counted). Writers
//! keep the newest [`KEPT`] rows; a reader left further behind than that reads everything
//! again ([`Change::Lost`]).

use std::collections::{BTreeSet, VecDeque};
use std::str::FromStr;
use std::time::{Duration, Instant};

use sqlx::postgres::PgListener;

use crate::{Backend, Store, StoreError};

/// How often a polled server asks for the changes others committed.
pub const POLL: Duration = Duration::from_millis(500);

/// Rows of the change sequence the writers keep (older ones are deleted by each write).
pub const KEPT: i64 = 10_000;

/// Rows read per poll; the rest come with the next polls.
const PAGE: i64 = 1_000;

/// How long a polled reader waits for a gap in the sequence to fill before it moves past it
/// (a transaction that took a number and has not committed yet, or rolled back).
pub const GAP_WAIT: Duration = Duration::from_secs(30);

/// The notification channel.
pub const CHANNEL: &str = "chronicle_changes";

/// A change another process (or this one) committed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Change {
    /// Games were stored with ids from `first` to `last` (other ids in that range may belong
    /// to other transactions: the reader skips games it knows).
    Games { first: i64, last: i64 },
    /// Verdicts of stored games were rewritten (`chronicle reverify`): whatever was computed
    /// from them is to be computed again.
    Rewritten,
    /// The connection was lost and made again, or the reader fell too far behind: changes in
    /// between are lost, so everything derived from the store is to be read again.
    Lost,
    /// Games were counted into the statistics' tallies (by any process): the tallies are to be
    /// read again. A server on a read-only standby counts nothing itself, so this is how it
    /// learns that the games of an earlier [`Change::Games`] are now in the tallies.
    Tallied,
}

impl Change {
    /// The notification's text, and the change sequence's.
    pub fn payload(&self) -> String {
        match self {
            Change::Games { first, last } => format!("games {first} {last}"),
            Change::Rewritten => "rewritten".to_owned(),
            Change::Lost => "lost".to_owned(),
            Change::Tallied => "tallied".to_owned(),
        }
    }

    /// A notification's text read back; `None` for text this build does not know.
    pub fn parse(payload: &str) -> Option<Change> {
        let mut words = payload.split(' ');
        match (words.next()?, words.next(), words.next(), words.next()) {
            ("games", Some(a), Some(b), None) => {
                Some(Change::Games { first: i64::from_str(a).ok()?, last: i64::from_str(b).ok()? })
            }
            ("rewritten", None, None, None) => Some(Change::Rewritten),
            ("lost", None, None, None) => Some(Change::Lost),
            ("tallied", None, None, None) => Some(Change::Tallied),
            _ => None,
        }
    }
}

/// A page of the change sequence ([`Store::changes_after`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ChangeLog {
    /// The oldest and newest numbers kept (0 when none is).
    pub oldest: i64,
    pub newest: i64,
    /// The rows asked for: number and the change's text, oldest first.
    pub rows: Vec<(i64, String)>,
}

/// The changes committed on a store, as they arrive.
pub struct Changes {
    source: Source,
}

/// Where the changes come from.
enum Source {
    /// PostgreSQL's notifications.
    Notified(PgListener),
    /// The change sequence, asked every [`POLL`].
    Polled { store: Backend, cursor: Cursor, pending: VecDeque<Change> },
}

/// How far a polled reader has read.
#[derive(Debug, Default)]
struct Cursor {
    /// Every number up to this one is applied (or given up on).
    applied: i64,
    /// Numbers applied above the first gap.
    above: BTreeSet<i64>,
    /// Since when the first gap is waited for.
    gap_since: Option<Instant>,
}

impl Cursor {
    /// The changes of `log` not applied yet, in order; [`Change::Lost`] alone when rows were
    /// pruned before they were read.
    fn take(&mut self, log: &ChangeLog, now: Instant) -> Vec<Change> {
        if log.oldest > self.applied.saturating_add(1) && log.newest.saturating_sub(self.applied) >= KEPT {
            *self = Cursor { applied: log.newest, ..Cursor::default() };
            return vec![Change::Lost];
        }
        let mut out = Vec::new();
        for (seq, text) in &log.rows {
            if *seq <= self.applied || !self.above.insert(*seq) {
                continue;
            }
            // Text this build does not know (a newer writer's) is skipped.
            out.extend(Change::parse(text));
        }
        self.advance(now);
        out
    }

    /// Moves `applied` over the numbers applied without a gap, and past a gap waited for too
    /// long.
    fn advance(&mut self, now: Instant) {
        loop {
            while self.above.remove(&(self.applied + 1)) {
                self.applied += 1;
            }
            let Some(&next) = self.above.first() else {
                self.gap_since = None;
                return;
            };
            match self.gap_since {
                None => {
                    self.gap_since = Some(now);
                    return;
                }
                Some(since) if now.duration_since(since) >= GAP_WAIT => {
                    self.applied = next - 1;
                    self.gap_since = None;
                }
                Some(_) => return,
            }
        }
    }
}

impl Changes {
    /// Follows `store`'s changes from now on: PostgreSQL's notifications on a primary, the
    /// change sequence on a SQLite file or a PostgreSQL standby.
    pub async fn listen(store: &Backend) -> Result<Option<Changes>, StoreError> {
        if let Backend::Postgres(pg) = store {
            if !pg.is_standby() {
                let fail = |e: sqlx::Error| StoreError::other(format!("listening for changes: {e}"));
                let mut listener = PgListener::connect_with(pg.pool()).await.map_err(fail)?;
                listener.listen(CHANNEL).await.map_err(fail)?;
                return Ok(Some(Changes { source: Source::Notified(listener) }));
            }
        }
        let now = store.changes_after(i64::MAX, 0).await?.newest;
        let cursor = Cursor { applied: now, ..Cursor::default() };
        Ok(Some(Changes { source: Source::Polled { store: store.clone(), cursor, pending: VecDeque::new() } }))
    }

    /// The next change. A lost connection is made again (and reported as [`Change::Lost`]);
    /// changes with text this build does not know are skipped.
    pub async fn next(&mut self) -> Result<Change, StoreError> {
        let listener = match &mut self.source {
            Source::Notified(listener) => listener,
            Source::Polled { store, cursor, pending } => loop {
                if let Some(change) = pending.pop_front() {
                    return Ok(change);
                }
                tokio::time::sleep(POLL).await;
                let log = store.changes_after(cursor.applied, PAGE).await?;
                pending.extend(cursor.take(&log, Instant::now()));
            },
        };
        loop {
            match listener.try_recv().await {
                Ok(Some(n)) => {
                    if let Some(change) = Change::parse(n.payload()) {
                        return Ok(change);
                    }
                }
                Ok(None) => return Ok(Change::Lost),
                Err(e) => return Err(StoreError::other(format!("listening for changes: {e}"))),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn payloads_read_back() {
        for c in [Change::Games { first: 3, last: 9 }, Change::Rewritten, Change::Lost, Change::Tallied] {
            assert_eq!(Change::parse(&c.payload()), Some(c));
        }
        for bad in ["", "games", "games 1", "games a b", "games 1 2 3", "rewritten now", "tallied 3", "other"] {
            assert_eq!(Change::parse(bad), None, "{bad:?}");
        }
    }

    fn log(oldest: i64, newest: i64, rows: &[i64]) -> ChangeLog {
        let rows = rows.iter().map(|&s| (s, format!("games {s} {s}"))).collect();
        ChangeLog { oldest, newest, rows }
    }

    fn games(seqs: &[i64]) -> Vec<Change> {
        seqs.iter().map(|&s| Change::Games { first: s, last: s }).collect()
    }

    /// A row numbered before a later one but committed after it (PostgreSQL numbers rows when
    /// they are written) is still applied, once, when it shows up; rows are never applied twice.
    #[test]
    fn a_polled_reader_applies_a_row_that_commits_late_once() {
        let t = Instant::now();
        let mut c = Cursor { applied: 5, ..Cursor::default() };
        assert_eq!(c.take(&log(1, 8, &[7, 8]), t), games(&[7, 8]));
        assert_eq!(c.applied, 5);
        assert_eq!(c.take(&log(1, 8, &[6, 7, 8]), t + Duration::from_secs(1)), games(&[6]));
        assert_eq!((c.applied, c.above.len()), (8, 0));
        assert_eq!(c.take(&log(1, 8, &[]), t + Duration::from_secs(2)), games(&[]));
    }

    /// A gap that never fills (a rolled-back write) is passed after [`GAP_WAIT`].
    #[test]
    fn a_polled_reader_moves_past_a_gap_after_waiting() {
        let t = Instant::now();
        let mut c = Cursor { applied: 0, ..Cursor::default() };
        assert_eq!(c.take(&log(2, 3, &[2, 3]), t), games(&[2, 3]));
        assert_eq!(c.take(&log(2, 3, &[2, 3]), t + GAP_WAIT / 2), games(&[]));
        assert_eq!(c.applied, 0);
        assert_eq!(c.take(&log(2, 3, &[2, 3]), t + GAP_WAIT), games(&[]));
        assert_eq!(c.applied, 3);
    }

    /// A reader further behind than the rows the writers keep reads everything again.
    #[test]
    fn a_reader_behind_the_kept_rows_reads_everything_again() {
        let mut c = Cursor { applied: 3, ..Cursor::default() };
        let newest = 3 + KEPT + 5;
        assert_eq!(c.take(&log(newest - KEPT + 1, newest, &[newest - KEPT + 1]), Instant::now()), vec![Change::Lost]);
        assert_eq!(c.applied, newest);
    }
}
