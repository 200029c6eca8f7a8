//! The trait every game's rules engine implements ([`GameEngine`]), and the object-safe handle
//! services hold it by ([`Engine`]). Services hold no rules: the registry of games gives each
//! [`GameKind`](crate::GameKind) its `&'static dyn Engine`, and everything above the engines
//! works through that one handle.

use std::marker::PhantomData;

use serde_json::Value;

use crate::analysis::MoveAnalysis;
use crate::kind::GameKind;
use crate::setup_form::{FilledSetup, SetupForm};
use crate::timeline::{Timeline, Walk};
use crate::verdict::{LogError, Verdict};
use crate::view::BoardView;

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
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Steps {
    /// The draft as the engine reads it (with choices it made when there was only one).
    pub draft: Value,
    /// The finished entry, when the draft is a legal entry as it is.
    pub entry: Option<Value>,
    /// The choices that continue the draft, by kind.
    pub groups: Vec<StepGroup>,
    /// False when a group was cut at the engine's documented limit.
    pub complete: bool,
    /// What is not offered and why, for people (an action space someone occupies, one the
    /// player cannot use now), when the engine says.
    pub unavailable: Vec<Unavailable>,
}

/// A choice not offered, with the reason.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Unavailable {
    pub label: String,
    pub reason: String,
}

/// Choices of one kind (an id the game documents, and a label for people).
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct StepGroup {
    pub id: String,
    pub label: String,
    pub options: Vec<StepChoice>,
}

/// One choice and the draft it leads to.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct StepChoice {
    pub label: String,
    pub draft: Value,
    /// The board spaces the choice covers, in the order they are picked, by the coordinates
    /// printed on the player's board (the view's `Cell::at`): a recorder picks the choice by
    /// clicking them. Empty for a choice that covers no space.
    pub cells: Vec<ChoiceCell>,
    /// What is picked before the spaces (a furnishing tile, by its printed name), when the
    /// choice has such a pick.
    pub pick: Option<String>,
    /// What the pick costs and gives, for people (`"1 wood, 1 stone · 2 points"`).
    pub detail: Option<String>,
}

/// A space a choice covers and what goes there (for a preview on the board).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct ChoiceCell {
    pub at: String,
    pub what: String,
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

    /// Reads a log's envelope, setup and every entry's notation without applying a rule: the
    /// number of entries, or the first notation error (`chronicle replay --parse-only`, the
    /// measure of what reading costs apart from the rules).
    fn parse_only(log: &[u8]) -> Result<usize, LogError>;

    /// The state after the last legal entry of a replay; `None` without a valid setup.
    fn state_view(replay: &Self::Replay) -> Option<StateAt>;

    /// Up to `limit` legal next entries after the last legal entry of a replay, as log
    /// entries (JSON), in the engine's order; none when the game is over or invalid.
    fn legal_entries(replay: &Self::Replay, limit: usize) -> Legal;

    /// Each of `entries` (legal next entries after the last legal entry of a replay, as
    /// [`GameEngine::legal_entries`] gives them) in words, with what it will cost its player
    /// where the game can say: what a recorder's buttons say. The default says each entry in
    /// words, its player by name.
    fn describe_next(replay: &Self::Replay, entries: &[Value]) -> Vec<String> {
        let names: Vec<String> = Self::verdict(replay).players.into_iter().map(|p| p.name).collect();
        entries.iter().map(|e| crate::view::entry_words(&e.to_string(), &names)).collect()
    }

    /// The next step of building one entry after the last legal entry of a replay: `draft` is
    /// the entry so far in the game's documented draft shape; `null` starts the entry the game
    /// waits for (refused when the game builds that one whole: it is chosen from
    /// [`GameEngine::legal_entries`]). Refused (with a message for
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

    /// Replays a log's legal entries once, without end-of-log defaults (except where taking
    /// them ends the game: the last entry then shows the final position, as the verdict scores
    /// it), showing `visit` the position after the setup and after each legal entry, then the
    /// refused entry if there is one; no stop without a valid setup. The ledger and the
    /// timeline are made from it.
    fn walk(log: &[u8], visit: Walk<'_>);

    /// What each legal entry of a log changed, in one replay (empty without a valid setup).
    fn ledger(log: &[u8]) -> Vec<LedgerLine> {
        crate::timeline::ledger(|visit| Self::walk(log, visit))
    }

    /// Every position of a log from one replay, with its view and ledger line (`None` without
    /// a valid setup): what the replay viewer steps through.
    fn timeline(log: &[u8]) -> Option<Timeline> {
        crate::timeline::timeline(|visit| Self::walk(log, visit))
    }

    /// A log's legal entries in words and the view after the last of them, from one replay
    /// (`None` without a valid setup): a recorder's trail and board.
    fn trail(log: &[u8]) -> Option<(Vec<String>, BoardView)> {
        crate::timeline::trail(|visit| Self::walk(log, visit))
    }

    /// The view of the position after a log's last legal entry, its window still open (where
    /// the next entry is decided; see [`GameEngine::open_state`]); `None` without a valid setup.
    fn open_view(log: &[u8]) -> Option<BoardView> {
        crate::timeline::last_view(|visit| Self::walk(log, visit))
    }

    /// The form a recorder shows to set up a game of `players` seats as it is laid out at the
    /// table (see [`crate::setup_form`]); `None` for a game not recorded that way or a player
    /// count the game does not have.
    fn setup_form(players: u8) -> Option<SetupForm> {
        let _ = players;
        None
    }

    /// The log's `setup` a filled [`GameEngine::setup_form`] makes, or every problem of the
    /// form at once, for people.
    fn setup_from_form(filled: &FilledSetup) -> Result<Value, Vec<String>> {
        let _ = filled;
        Err(vec![format!("{} games are not set up from a form", Self::KIND.spec().name)])
    }

    /// Free actions, when the game has actions a player may take at any point beside the
    /// entry the game waits for: what they are, for people, and the [`GameEngine::entry_steps`]
    /// draft that starts one for seat `player`. `None` for a game without them.
    fn free_start(player: usize) -> Option<(String, Value)> {
        let _ = player;
        None
    }

    /// The rules as this engine implements them, for players, in Markdown (`chronicle rules`:
    /// the project's `docs/rules/<game>.md`); `None` for a game without a reference.
    fn rules_reference() -> Option<String> {
        None
    }

    /// What a replay had to take as declared rather than check, for a game whose logs declare
    /// their own component data (its spec's `capabilities.trust_report`); `None` for a game
    /// whose engine holds every rule and number it checks.
    fn trust_report(replay: &Self::Replay) -> Option<Value> {
        let _ = replay;
        None
    }

    /// The entries of a log its analysis judges (the decisions its search bot makes), in log
    /// order: refused for a game without analysis (`Capabilities::analysis`) and for a log
    /// that is not legal up to its end.
    fn analysis_moves(log: &[u8]) -> Result<Vec<usize>, String> {
        let _ = log;
        Err(format!("{} games are not analysed", Self::KIND.spec().name))
    }

    /// Entry `entry` of a log (one of [`GameEngine::analysis_moves`]) judged by the search bot
    /// with `budget` playouts from `seed`: the same arguments always give the same result.
    fn analyse_move(log: &[u8], entry: usize, budget: u32, seed: u64) -> Result<MoveAnalysis, String> {
        let _ = (log, entry, budget, seed);
        Err(format!("{} games are not analysed", Self::KIND.spec().name))
    }

    /// A whole game played by the engine's bots for `players` seats from `seed`, as a log.
    fn simulate(seed: u64, players: u8) -> Result<Value, String>;

    /// [`GameEngine::simulate`] with the bots and variant chosen (ids of the game's spec:
    /// `bots`, `variants`). The default is a game whose engine seats its own bots on its
    /// default setup: it refuses any choice.
    fn simulate_with(seed: u64, players: u8, choice: &Simulation) -> Result<Value, String> {
        match (choice.bot, choice.variant, choice.seats, choice.budget) {
            (None, None, None, None) => Self::simulate(seed, players),
            _ => Err(format!(
                "{} games are played by its engine's own bots, with no choice of bot or variant",
                Self::KIND.spec().name
            )),
        }
    }

    /// The state after entry `at` (0-based; after the last legal entry when `None`; after the
    /// last entry of a complete game, the game as scored). Refuses entries that do not exist
    /// or are not legal, and logs without a valid setup.
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
                // The last entry of a complete game: the game as scored, end-of-log defaults
                // taken (what the walk shows there too).
                if n + 1 == verdict.entries_applied && verdict.status == crate::Status::Complete {
                    return Self::state_view(&full)
                        .ok_or_else(|| "the game's setup is invalid: it has no state".to_owned());
                }
                Self::replay_until(log, n + 1)
            }
        };
        Self::state_view(&replay).ok_or_else(|| "the game's setup is invalid: it has no state".to_owned())
    }
}

/// The choices of a simulated game (`chronicle simulate --bot --variant --pool`): ids of the
/// game's spec (`GameSpec::bots`, `GameSpec::variants`); `None` is the engine's default.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Simulation<'a> {
    pub bot: Option<&'a str>,
    pub variant: Option<&'a str>,
    /// Who plays each seat (named pool members: [`crate::pool::seating`]), in seat order; the
    /// number of seats is the player count. Exclusive with `bot`.
    pub seats: Option<&'a [crate::pool::SeatPlan]>,
    /// The search bot's playouts per decision (`--budget`), for a game whose spec offers a
    /// search bot (`Capabilities::analysis`: its `strong` bot); `None` is its default.
    pub budget: Option<u32>,
}

/// A game's engine as services hold it: every job on a log's bytes, without the engine's own
/// replay type, so that one `&'static dyn Engine` per game (the registry's) serves them all.
/// Implemented for every [`GameEngine`] by [`Handle`].
pub trait Engine: Send + Sync {
    /// The game this engine verifies.
    fn kind(&self) -> GameKind;
    /// The engine's version, stored with every verdict.
    fn version(&self) -> &'static str;
    /// The verdict of a whole log.
    fn verdict(&self, log: &[u8]) -> Verdict;
    /// See [`GameEngine::parse_only`].
    fn parse_only(&self, log: &[u8]) -> Result<usize, LogError>;
    /// See [`GameEngine::state_at`].
    fn state_at(&self, log: &[u8], at: Option<usize>) -> Result<StateAt, String>;
    /// See [`GameEngine::open_state`].
    fn open_state(&self, log: &[u8]) -> Option<StateAt>;
    /// See [`GameEngine::legal_next`].
    fn legal_next(&self, log: &[u8], limit: usize) -> Legal;
    /// The next step of building one entry after a log's last legal entry (see
    /// [`GameEngine::entry_steps`]).
    fn entry_steps(&self, log: &[u8], draft: &Value) -> Result<Steps, String>;
    /// See [`GameEngine::ledger`].
    fn ledger(&self, log: &[u8]) -> Vec<LedgerLine>;
    /// [`GameEngine::describe_next`] after a log's last legal entry.
    fn describe_next(&self, log: &[u8], entries: &[Value]) -> Vec<String>;
    /// See [`GameEngine::timeline`].
    fn timeline(&self, log: &[u8]) -> Option<Timeline>;
    /// See [`GameEngine::open_view`].
    fn open_view(&self, log: &[u8]) -> Option<BoardView>;
    /// See [`GameEngine::trail`].
    fn trail(&self, log: &[u8]) -> Option<(Vec<String>, BoardView)>;
    /// See [`GameEngine::setup_form`].
    fn setup_form(&self, players: u8) -> Option<SetupForm>;
    /// See [`GameEngine::setup_from_form`].
    fn setup_from_form(&self, filled: &FilledSetup) -> Result<Value, Vec<String>>;
    /// See [`GameEngine::free_start`].
    fn free_start(&self, player: usize) -> Option<(String, Value)>;
    /// See [`GameEngine::simulate`].
    fn simulate(&self, seed: u64, players: u8) -> Result<Value, String>;
    /// See [`GameEngine::simulate_with`].
    fn simulate_with(&self, seed: u64, players: u8, choice: &Simulation) -> Result<Value, String>;
    /// See [`GameEngine::analysis_moves`].
    fn analysis_moves(&self, log: &[u8]) -> Result<Vec<usize>, String>;
    /// See [`GameEngine::analyse_move`].
    fn analyse_move(&self, log: &[u8], entry: usize, budget: u32, seed: u64) -> Result<MoveAnalysis, String>;
    /// The trust report of a log (see [`GameEngine::trust_report`]).
    fn trust_report(&self, log: &[u8]) -> Option<Value>;
    /// See [`GameEngine::rules_reference`].
    fn rules_reference(&self) -> Option<String>;
    /// Runs the conformance checks every engine must pass ([`crate::conformance::check_all`]),
    /// panicking with the first failure: a game registered gets them with no other line.
    #[cfg(feature = "conformance")]
    fn check_conformance(&self);
}

/// The [`Engine`] of the [`GameEngine`] `E`: a zero-sized value the registry keeps in a static.
pub struct Handle<E>(PhantomData<fn() -> E>);

impl<E> Handle<E> {
    /// The handle (a constant, so that a registry can take `&Handle::<E>::NEW` as `'static`).
    pub const NEW: Handle<E> = Handle(PhantomData);
}

impl<E: GameEngine> Engine for Handle<E> {
    fn kind(&self) -> GameKind {
        E::KIND
    }
    fn version(&self) -> &'static str {
        E::VERSION
    }
    fn verdict(&self, log: &[u8]) -> Verdict {
        E::verdict(&E::replay(log))
    }
    fn parse_only(&self, log: &[u8]) -> Result<usize, LogError> {
        E::parse_only(log)
    }
    fn state_at(&self, log: &[u8], at: Option<usize>) -> Result<StateAt, String> {
        E::state_at(log, at)
    }
    fn open_state(&self, log: &[u8]) -> Option<StateAt> {
        E::open_state(log)
    }
    fn legal_next(&self, log: &[u8], limit: usize) -> Legal {
        E::legal_next(log, limit)
    }
    fn entry_steps(&self, log: &[u8], draft: &Value) -> Result<Steps, String> {
        E::entry_steps(&E::replay_until(log, usize::MAX), draft)
    }
    fn ledger(&self, log: &[u8]) -> Vec<LedgerLine> {
        E::ledger(log)
    }
    fn describe_next(&self, log: &[u8], entries: &[Value]) -> Vec<String> {
        E::describe_next(&E::replay_until(log, usize::MAX), entries)
    }
    fn timeline(&self, log: &[u8]) -> Option<Timeline> {
        E::timeline(log)
    }
    fn open_view(&self, log: &[u8]) -> Option<BoardView> {
        E::open_view(log)
    }
    fn trail(&self, log: &[u8]) -> Option<(Vec<String>, BoardView)> {
        E::trail(log)
    }
    fn setup_form(&self, players: u8) -> Option<SetupForm> {
        E::setup_form(players)
    }
    fn setup_from_form(&self, filled: &FilledSetup) -> Result<Value, Vec<String>> {
        E::setup_from_form(filled)
    }
    fn free_start(&self, player: usize) -> Option<(String, Value)> {
        E::free_start(player)
    }
    fn simulate(&self, seed: u64, players: u8) -> Result<Value, String> {
        E::simulate(seed, players)
    }
    fn simulate_with(&self, seed: u64, players: u8, choice: &Simulation) -> Result<Value, String> {
        E::simulate_with(seed, players, choice)
    }
    fn analysis_moves(&self, log: &[u8]) -> Result<Vec<usize>, String> {
        E::analysis_moves(log)
    }
    fn analyse_move(&self, log: &[u8], entry: usize, budget: u32, seed: u64) -> Result<MoveAnalysis, String> {
        E::analyse_move(log, entry, budget, seed)
    }
    fn trust_report(&self, log: &[u8]) -> Option<Value> {
        if !E::KIND.spec().capabilities.trust_report {
            return None;
        }
        E::trust_report(&E::replay(log))
    }
    fn rules_reference(&self) -> Option<String> {
        E::rules_reference()
    }
    #[cfg(feature = "conformance")]
    fn check_conformance(&self) {
        crate::conformance::check_all::<E>();
    }
}
