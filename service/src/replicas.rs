//! Several `chronicle serve` processes on one database (replicas behind a load balancer, on a
//! PostgreSQL primary or its hot standbys, or on one SQLite file) answer alike: each listens for the changes every process commits
//! (`chronicle_store::changes`) and brings what it keeps in memory up to date — the store's
//! statistics tallies counted and read again (`crate::tallies`), new complete games added to
//! the rows it holds, and everything read again after verdicts were rewritten or the
//! connection was lost. What is read from the database at every request (games, tournaments,
//! standings, tokens and their revocation) needs nothing.

use std::sync::Arc;
use std::time::Duration;

use chronicle_store::changes::{Change, Changes};
use chronicle_store::Store;

use crate::{Service, ServiceError};

/// How long to wait before listening again after the listener failed.
const RETRY: Duration = Duration::from_secs(1);

impl Service {
    /// Starts listening for the changes committed on the store (PostgreSQL's notifications on a
    /// primary; the change sequence read on a timer on a SQLite file or a PostgreSQL standby). Listen before the statistics are
    /// read, so that nothing committed meanwhile is missed (games already counted are skipped).
    pub async fn listen_for_changes(&self) -> Result<Option<Changes>, ServiceError> {
        Ok(Changes::listen(self.store()).await?)
    }

    /// Applies the changes as they come, for as long as the process runs; listens again when
    /// the listener fails (reading everything again, since changes may have been missed).
    pub async fn follow_changes(self: Arc<Self>, mut changes: Changes) {
        loop {
            loop {
                let change = match changes.next().await {
                    Ok(c) => c,
                    Err(e) => {
                        tracing::error!(error = e.to_string(), "listening for changes");
                        break;
                    }
                };
                if let Err(e) = self.apply(&change).await {
                    tracing::error!(error = e.message(), change = change.payload(), "applying a change");
                }
            }
            loop {
                tokio::time::sleep(RETRY).await;
                match self.listen_for_changes().await {
                    Ok(Some(c)) => {
                        changes = c;
                        break;
                    }
                    Ok(None) => return,
                    Err(e) => tracing::error!(error = e.message(), "listening for changes again"),
                }
            }
            if let Err(e) = self.apply(&Change::Lost).await {
                tracing::error!(error = e.message(), "reading the statistics again");
            }
        }
    }

    /// Brings this process up to date with one change.
    pub async fn apply(&self, change: &Change) -> Result<(), ServiceError> {
        match *change {
            Change::Games { first, last } => {
                let limit = last.saturating_sub(first).saturating_add(1);
                let games = self.store().complete_records(first.saturating_sub(1), limit).await?;
                let games = games.into_iter().filter(|g| g.id <= last).map(|g| (g.id, g.uploader, g.record)).collect();
                self.add_to_stats(games).await?;
                self.refresh_tallies().await.map(|_| ())
            }
            Change::Tallied => self.read_tallies().await,
            Change::Rewritten | Change::Lost => {
                self.forget_cached_games();
                if self.holds_rows() {
                    let games = self.load_stats().await?;
                    tracing::info!(games, change = change.payload(), "statistics rows read again");
                }
                self.refresh_tallies().await.map(|_| ())
            }
        }
    }
}
