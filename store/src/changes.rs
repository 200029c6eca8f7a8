//! What one process's writes tell the others on the same PostgreSQL database, so that several
//! `chronicle serve` replicas answer alike: each write transaction that stores games or
//! rewrites verdicts sends a notification (`pg_notify`, delivered at commit, never for a
//! rolled-back write) on the channel [`CHANNEL`], and every server listens ([`Changes`]).
//! SQLite stores are served by one process and send nothing.

use std::str::FromStr;

use sqlx::postgres::PgListener;

use crate::{Backend, StoreError};

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
    /// The connection was lost and made again: notifications in between are lost, so
    /// everything derived from the store is to be read again.
    Lost,
}

impl Change {
    /// The notification's text.
    pub fn payload(&self) -> String {
        match self {
            Change::Games { first, last } => format!("games {first} {last}"),
            Change::Rewritten => "rewritten".to_owned(),
            Change::Lost => "lost".to_owned(),
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
            _ => None,
        }
    }
}

/// The changes committed on a PostgreSQL store, as they arrive.
pub struct Changes {
    listener: PgListener,
}

impl Changes {
    /// Listens on `store`'s database; `None` for a store without notifications (SQLite).
    pub async fn listen(store: &Backend) -> Result<Option<Changes>, StoreError> {
        let Backend::Postgres(pg) = store else { return Ok(None) };
        let fail = |e: sqlx::Error| StoreError::other(format!("listening for changes: {e}"));
        let mut listener = PgListener::connect_with(pg.pool()).await.map_err(fail)?;
        listener.listen(CHANNEL).await.map_err(fail)?;
        Ok(Some(Changes { listener }))
    }

    /// The next change. A lost connection is made again (and reported as [`Change::Lost`]);
    /// notifications with text this build does not know are skipped.
    pub async fn next(&mut self) -> Result<Change, StoreError> {
        loop {
            match self.listener.try_recv().await {
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
        for c in [Change::Games { first: 3, last: 9 }, Change::Rewritten, Change::Lost] {
            assert_eq!(Change::parse(&c.payload()), Some(c));
        }
        for bad in ["", "games", "games 1", "games a b", "games 1 2 3", "rewritten now", "other"] {
            assert_eq!(Change::parse(bad), None, "{bad:?}");
        }
    }
}
