//! The rows the outcome statistics read: per game, each player's seat, outcome, total, score
//! rows and counters, with the row and counter ids held once by the corpus.

/// One player of a stored complete game, as the caller reads it from its store.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayerOutcome {
    pub seat: u8,
    /// Shared wins count as wins for every winner.
    pub winner: bool,
    pub total: i64,
    /// `(score row id, points)`.
    pub rows: Vec<(String, i64)>,
    /// `(counter id, value)`.
    pub counters: Vec<(String, i64)>,
}

/// One complete game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameOutcome {
    pub game_id: i64,
    /// `meta.source` of the log.
    pub source: Option<String>,
    /// The component data its log declares is labelled synthetic (not the printed game's).
    pub synthetic: bool,
    /// In seat order.
    pub players: Vec<PlayerOutcome>,
}

/// A player as kept: rows and counters by position in the corpus's id lists (`None`: the
/// stored game has no such row or counter, e.g. stored before counters existed and not
/// reverified since).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Kept {
    pub seat: u8,
    pub winner: bool,
    pub total: i64,
    pub rows: Box<[Option<i64>]>,
    pub counters: Box<[Option<i64>]>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct KeptGame {
    pub source: Option<Box<str>>,
    pub synthetic: bool,
    pub players: Box<[Kept]>,
}

/// The complete games of one game kind, with the ids of its score rows and counters (in the
/// order the statistics list them). Ids a game carries that are not in the lists are ignored.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct OutcomeCorpus {
    pub(crate) row_ids: Vec<String>,
    pub(crate) counter_ids: Vec<String>,
    pub(crate) games: Vec<KeptGame>,
}

fn aligned(ids: &[String], values: &[(String, i64)]) -> Box<[Option<i64>]> {
    ids.iter().map(|id| values.iter().find(|(k, _)| k == id).map(|(_, v)| *v)).collect()
}

impl OutcomeCorpus {
    pub fn new(row_ids: &[&str], counter_ids: &[&str]) -> OutcomeCorpus {
        OutcomeCorpus {
            row_ids: row_ids.iter().map(|s| (*s).to_owned()).collect(),
            counter_ids: counter_ids.iter().map(|s| (*s).to_owned()).collect(),
            games: Vec::new(),
        }
    }

    pub fn add(&mut self, game: &GameOutcome) {
        let players = game
            .players
            .iter()
            .map(|p| Kept {
                seat: p.seat,
                winner: p.winner,
                total: p.total,
                rows: aligned(&self.row_ids, &p.rows),
                counters: aligned(&self.counter_ids, &p.counters),
            })
            .collect();
        self.games.push(KeptGame {
            source: game.source.as_deref().map(Into::into),
            synthetic: game.synthetic,
            players,
        });
    }

    /// Games kept (every size, solo included).
    pub fn games(&self) -> usize {
        self.games.len()
    }

    pub fn row_ids(&self) -> &[String] {
        &self.row_ids
    }

    pub fn counter_ids(&self) -> &[String] {
        &self.counter_ids
    }
}
