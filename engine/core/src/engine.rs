//! The trait every game's rules engine implements. Services hold no rules: they call these
//! functions through an exhaustive match on [`GameKind`](crate::GameKind).

use serde_json::Value;

use crate::kind::GameKind;
use crate::verdict::Verdict;

/// The state of a game after some entries, as a client shows it.
#[derive(Clone, Debug, PartialEq)]
pub struct StateAt {
    /// The round being played.
    pub round: u16,
    /// The game's id of the phase being played.
    pub phase: String,
    /// The whole state, in the game's own JSON shape (its documentation describes it).
    pub state: Value,
}

/// The legal next entries at a position.
#[derive(Clone, Debug, PartialEq)]
pub struct Legal {
    /// Log entries (the game's own notation), in the engine's order.
    pub entries: Vec<Value>,
    /// Whether `entries` is every legal entry: false when the limit cut the list or the
    /// engine's generator leaves some decisions out here (its documentation says which).
    pub complete: bool,
}

/// Where an entry being built step by step stands (see [`GameEngine::entry_steps`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Steps {
    /// The draft as the engine reads it (with choices it made when there was only one).
    pub draft: Value,
    /// The finished entry, when the draft is a legal entry as it is.
    pub entry: Option<Value>,
    /// The choices that continue the draft, by kind.
    pub groups: Vec<StepGroup>,
    /// False when a group was cut at the engine's documented limit.
    pub complete: bool,
}

/// Choices of one kind (an id the game documents, and a label for people).
#[derive(Clone, Debug, PartialEq)]
pub struct StepGroup {
    pub id: String,
    pub label: String,
    pub options: Vec<StepChoice>,
}

/// One choice and the draft it leads to.
#[derive(Clone, Debug, PartialEq)]
pub struct StepChoice {
    pub label: String,
    pub draft: Value,
}

/// One line of a game's ledger: what one legal entry changed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LedgerLine {
    /// The entry's index in `entries`.
    pub entry: usize,
    /// The round it was played in.
    pub round: u16,
    /// The player whose entry it is, when the entry names one.
    pub player: Option<usize>,
    /// Every change it made, player by player, in the game's order of items.
    pub changes: Vec<LedgerChange>,
}

/// A change of one counted item of one player (a good, a tile count, points on the score pad).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LedgerChange {
    pub player: usize,
    /// The game's id of what changed (a good id, or an id the game documents).
    pub item: String,
    pub delta: i64,
}

/// A deterministic rules engine: the same bytes always give the same result; no IO, no clock.
pub trait GameEngine {
    /// The game this engine verifies.
    const KIND: GameKind;
    /// The engine's version, stored with every verdict.
    const VERSION: &'static str;

    /// A replay: the verdict and everything the game's own statistics need.
    type Replay;

    /// Replays a whole log. Never panics, whatever the bytes.
    fn replay(log: &[u8]) -> Self::Replay;

    /// Replays only the first `entries` entries (the setup alone when 0), without end-of-log
    /// defaults: the position where entry `entries` is decided, whatever window it is in
    /// (`usize::MAX`: after the log's last entry).
    fn replay_until(log: &[u8], entries: usize) -> Self::Replay;

    /// The game-agnostic verdict of a replay.
    fn verdict(replay: &Self::Replay) -> Verdict;

    /// The state after the last legal entry of a replay; `None` without a valid setup.
    fn state_view(replay: &Self::Replay) -> Option<StateAt>;

    /// Up to `limit` legal next entries after the last legal entry of a replay, as log
    /// entries (JSON), in the engine's order; none when the game is over or invalid.
    fn legal_entries(replay: &Self::Replay, limit: usize) -> Legal;

    /// The next step of building one entry after the last legal entry of a replay: `draft` is
    /// the entry so far in the game's documented draft shape. Refused (with a message for
    /// people) when the draft is malformed, illegal so far, or not a kind of entry the game
    /// builds step by step; the default is a game whose entries are chosen whole from
    /// [`GameEngine::legal_entries`].
    fn entry_steps(replay: &Self::Replay, draft: &Value) -> Result<Steps, String> {
        let _ = (replay, draft);
        Err(format!("{} entries are chosen whole from the legal entries", Self::KIND.id()))
    }

    /// The legal entries where a log stops being legal: after its last legal entry, windows
    /// still open (for an invalid log, the alternatives to its illegal entry); none without a
    /// valid setup.
    fn legal_next(log: &[u8], limit: usize) -> Legal {
        let full = Self::replay(log);
        let verdict = Self::verdict(&full);
        match verdict.error.as_ref().and_then(|e| e.entry) {
            Some(n) => Self::legal_entries(&Self::replay_until(log, n), limit),
            None if verdict.error.is_some() => Legal { entries: Vec::new(), complete: true },
            None => Self::legal_entries(&Self::replay_until(log, usize::MAX), limit),
        }
    }

    /// The state after a log's last legal entry with the window it waits in still open (no
    /// end-of-log defaults): where the next entry is decided. `None` without a valid setup.
    fn open_state(log: &[u8]) -> Option<StateAt> {
        let full = Self::replay(log);
        let n = Self::verdict(&full).error.and_then(|e| e.entry).unwrap_or(usize::MAX);
        Self::state_view(&Self::replay_until(log, n))
    }

    /// What each legal entry of a log changed, in one replay (empty without a valid setup).
    fn ledger(log: &[u8]) -> Vec<LedgerLine>;

    /// A whole game played by the engine's bots for `players` seats from `seed`, as a log.
    fn simulate(seed: u64, players: u8) -> Result<Value, String>;

    /// The state after entry `at` (0-based; after the last legal entry when `None`). Refuses
    /// entries that do not exist or are not legal, and logs without a valid setup.
    fn state_at(log: &[u8], at: Option<usize>) -> Result<StateAt, String> {
        let full = Self::replay(log);
        let replay = match at {
            None => full,
            Some(n) => {
                let verdict = Self::verdict(&full);
                if let Some(e) = verdict.error.as_ref().and_then(|e| e.entry).filter(|&i| n >= i) {
                    return Err(format!("entry {n} is not legal: the log is invalid at entry {e}"));
                }
                if n >= verdict.entries_applied {
                    return Err(format!("entry {n} does not exist; the log has {} entries", verdict.entries_applied));
                }
                Self::replay_until(log, n + 1)
            }
        };
        Self::state_view(&replay).ok_or_else(|| "the game's setup is invalid: it has no state".to_owned())
    }
}
