//! What one process's writes tell the others on the same PostgreSQL database, so that several
//! `chronicle serve` replicas answer alike: each write transaction that stores games or
//! rewrites verdicts sends a notification (`pg_notify`, delivered at commit, never for a
//! rolled-back write) on the channel [`CHANNEL`], and every server listens ([`Changes`]).
//! SQLite sends nothing: a server on a SQLite file asks it every [`POLL`] for games stored
//! since it last looked (by `chronicle import`, or another server on the same file), which
//! covers stored games; verdicts rewritten by another process (`chronicle reverify`) are seen
//! after a restart.

use std::str::FromStr;

use std::time::Duration;

use sqlx::postgres::PgListener;

use crate::{Backend, Store, StoreError};

/// How often a server on a SQLite file looks for games another process stored.
pub const POLL: Duration = Duration::from_millis(500);

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
    source: Source,
}

/// Where the changes come from.
enum Source {
    /// PostgreSQL's notifications.
    Notified(PgListener),
    /// A SQLite file asked every [`POLL`]; `last` is the largest game id seen.
    Polled { store: crate::sqlite::SqliteStore, last: i64 },
}

impl Changes {
    /// Listens on `store`'s database (PostgreSQL's notifications, or a SQLite file asked for
    /// new games); `None` for a store that can do neither.
    pub async fn listen(store: &Backend) -> Result<Option<Changes>, StoreError> {
        match store {
            Backend::Postgres(pg) => {
                let fail = |e: sqlx::Error| StoreError::other(format!("listening for changes: {e}"));
                let mut listener = PgListener::connect_with(pg.pool()).await.map_err(fail)?;
                listener.listen(CHANNEL).await.map_err(fail)?;
                Ok(Some(Changes { source: Source::Notified(listener) }))
            }
            Backend::Sqlite(s) => {
                let last = s.last_game_id().await?;
                Ok(Some(Changes { source: Source::Polled { store: s.clone(), last } }))
            }
        }
    }

    /// The next change. A lost connection is made again (and reported as [`Change::Lost`]);
    /// notifications with text this build does not know are skipped. On SQLite: the games
    /// stored since the last change, once there are some.
    pub async fn next(&mut self) -> Result<Change, StoreError> {
        let listener = match &mut self.source {
            Source::Notified(listener) => listener,
            Source::Polled { store, last } => loop {
                tokio::time::sleep(POLL).await;
                let now = store.last_game_id().await?;
                if now > *last {
                    let first = *last + 1;
                    *last = now;
                    return Ok(Change::Games { first, last: now });
                }
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
        for c in [Change::Games { first: 3, last: 9 }, Change::Rewritten, Change::Lost] {
            assert_eq!(Change::parse(&c.payload()), Some(c));
        }
        for bad in ["", "games", "games 1", "games a b", "games 1 2 3", "rewritten now", "other"] {
            assert_eq!(Change::parse(bad), None, "{bad:?}");
        }
    }
}
