//! Which games an outcome query reads.

use crate::rate::DEFAULT_MIN_SAMPLE;

/// The selection of an outcome query; every condition is on the game (all its seats are in or
/// out together).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct OutcomeFilter {
    /// Games of at least this many players (solo games never enter the multiplayer statistics;
    /// see [`super::OutcomeReport::solo_games`]).
    pub min_players: u8,
    /// Games whose `meta.source` starts with this; games without one never match.
    pub source: Option<String>,
    /// Leave out games whose `meta.source` starts with this.
    pub exclude_source: Option<String>,
    /// Keep simulated games even when games played by people exist. By default (false, and no
    /// source condition given) simulated and real games are not mixed: when the corpus has a
    /// game not played by the simulator, the simulated ones are left out and the report says
    /// how many ([`super::OutcomeReport::simulated_left_out`]).
    pub include_simulated: bool,
    /// Flag rates and means with fewer observations.
    pub min_sample: u64,
    /// Width of the score histogram's buckets.
    pub bucket_width: u32,
}

impl Default for OutcomeFilter {
    fn default() -> Self {
        OutcomeFilter {
            min_players: 1,
            source: None,
            exclude_source: None,
            include_simulated: false,
            min_sample: DEFAULT_MIN_SAMPLE,
            bucket_width: 10,
        }
    }
}

impl OutcomeFilter {
    /// Whether a game of this `meta.source` passes (its size is judged by the caller).
    pub(crate) fn source_matches(&self, source: Option<&str>) -> bool {
        let included = self.source.as_deref().is_none_or(|p| source.is_some_and(|s| s.starts_with(p)));
        let excluded = self.exclude_source.as_deref().is_some_and(|p| source.is_some_and(|s| s.starts_with(p)));
        included && !excluded
    }
}
