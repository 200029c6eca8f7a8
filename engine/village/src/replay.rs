//! Replaying a `village-log/1` document (`docs/log-format-village.md` "Replay result"): the envelope, the
//! setup, every entry in order, the end of the log, and the final scoring.

use chronicle_game::envelope;
use chronicle_game::members::{read, tree_rejects, without_place};
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use serde_json::Value;

use crate::error::{ErrorCode, RuleError};
use crate::game::{Game, Task};
use crate::notation::{Claimed, Entry, Meta, SetupNotation};
use crate::rules::scoring::{self, ScoreBreakdown, TieBreak};
use crate::rules::{self, mass};

/// The format this engine reads.
pub const FORMAT: &str = "village-log/1";
/// The engine's version, reported with every result.
pub const ENGINE_VERSION: &str = env!("CARGO_PKG_VERSION");
/// Largest log accepted, in bytes (shared with every engine).
pub const MAX_LOG_BYTES: usize = chronicle_game::envelope::MAX_LOG_BYTES;
/// Most entries accepted in one log (a real game has a few hundred).
pub const MAX_ENTRIES: usize = 100_000;

pub use chronicle_game::Status;

/// Where and why a log is invalid. `entry` is `None` for the envelope and the setup (the
/// format's index −1).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LogError {
    pub entry: Option<usize>,
    pub player: Option<usize>,
    pub code: ErrorCode,
    pub message: String,
}

/// A computed total that differs from `claimed`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Mismatch {
    pub player: usize,
    pub claimed: i64,
    pub computed: i64,
}

/// The outcome of a replay. `game` is the state after the last legal entry, absent when the
/// envelope or setup is invalid.
#[derive(Clone, Debug)]
pub struct Replay {
    pub status: Status,
    pub error: Option<LogError>,
    pub meta: Meta,
    pub game: Option<Game>,
    /// Final scores in seat order (complete games only).
    pub scores: Option<Vec<ScoreBreakdown>>,
    pub winners: Vec<usize>,
    pub tie_break: Option<TieBreak>,
    /// Solo: the rank of the player's total (F.7).
    pub solo_rank: Option<&'static str>,
    pub claimed: Option<Vec<i64>>,
    pub claimed_mismatches: Vec<Mismatch>,
    /// Entries applied (the index of the first illegal entry when invalid).
    pub entries_applied: usize,
}

impl Replay {
    fn invalid(error: LogError, meta: Meta, game: Option<Game>, applied: usize) -> Replay {
        Replay {
            status: Status::Invalid,
            error: Some(error),
            meta,
            game,
            scores: None,
            winners: Vec::new(),
            tie_break: None,
            solo_rank: None,
            claimed: None,
            claimed_mismatches: Vec::new(),
            entries_applied: applied,
        }
    }

    /// A replay of `applied` entries not (yet) scored, with no error.
    pub(crate) fn unscored(meta: Meta, claimed: Option<Vec<i64>>, applied: usize) -> Replay {
        Replay {
            status: Status::Incomplete,
            error: None,
            meta,
            game: None,
            scores: None,
            winners: Vec::new(),
            tie_break: None,
            solo_rank: None,
            claimed,
            claimed_mismatches: Vec::new(),
            entries_applied: applied,
        }
    }

    /// The round reached (0 without a valid setup).
    pub fn round(&self) -> u32 {
        self.game.as_ref().map_or(0, |g| g.round)
    }

    /// What the game waits for, when incomplete.
    pub fn waiting_for(&self) -> Option<String> {
        let g = self.game.as_ref()?;
        g.tasks.last().map(|t| rules::describe(g, t))
    }
}

fn doc_error(code: ErrorCode, message: impl Into<String>) -> LogError {
    LogError { entry: None, player: None, code, message: message.into() }
}

/// Classifies a serde error on a typed part of the log (G.1.1, G.1.6). A part read from its
/// own text has serde's " at line L column C" (a place inside that part, not in the log):
/// it is dropped, as a part read from a JSON tree has none.
pub(crate) fn notation_error(e: &serde_json::Error, what: &str) -> RuleError {
    let text = without_place(e);
    let code = if text.contains("unknown field") {
        ErrorCode::UnknownField
    } else if text.contains("unknown variant") {
        ErrorCode::UnknownId
    } else {
        ErrorCode::BadFormat
    };
    RuleError::new(code, format!("{what}: {text}"))
}

/// The parsed envelope: everything but the entries, which stay as their text in the log
/// (borrowed, never copied) and are read one at a time when they are applied.
pub(crate) struct Document<'a> {
    pub(crate) meta: Meta,
    pub(crate) setup: SetupNotation,
    pub(crate) entries: Vec<&'a RawValue>,
    pub(crate) claimed: Option<Claimed>,
}

fn located(e: RuleError) -> LogError {
    LogError { entry: None, player: None, code: e.code, message: e.message }
}

/// [`read`] of the envelope part `what`.
fn typed<T: serde::de::DeserializeOwned>(raw: &RawValue, what: &str) -> Result<T, LogError> {
    read(raw).map_err(|e| located(notation_error(&e, what)))
}

/// The error of a log that is not JSON as a JSON tree reads it (a number out of a double's
/// range, say, which reading member by member does not notice): checked on the way out of
/// every invalid log, so such a log is `malformed_json` wherever the first rule error is.
pub(crate) fn tree_error(input: &[u8]) -> Option<LogError> {
    tree_rejects(input).map(|e| doc_error(ErrorCode::MalformedJson, e.to_string()))
}

/// The envelope read by the shared reader ([`envelope::read`]), then the setup and the claimed
/// scores in this engine's notation.
// Called once per replay: the size of its error does not matter.
#[allow(clippy::result_large_err)]
pub(crate) fn parse_document(input: &[u8]) -> Result<Document<'_>, (LogError, Meta)> {
    let parts = envelope::read(input, FORMAT, MAX_ENTRIES)
        .map_err(|f| (doc_error(ErrorCode::from(f.code), f.message), f.meta))?;
    notation(parts).map_err(|(e, meta)| match tree_error(input) {
        Some(json) => (json, Meta::default()),
        None => (e, meta),
    })
}

#[allow(clippy::result_large_err)]
fn notation(parts: envelope::Parts<'_>) -> Result<Document<'_>, (LogError, Meta)> {
    let meta = parts.meta;
    let setup: SetupNotation = typed(parts.setup, "setup").map_err(|e| (e, meta.clone()))?;
    let claimed = match parts.claimed {
        None => None,
        Some(raw) => Some(typed(raw, "claimed").map_err(|e| (e, meta.clone()))?),
    };
    Ok(Document { meta, setup, entries: parts.entries, claimed })
}

/// The game at the start of a parsed log.
pub(crate) fn start(doc: &Document) -> Result<Game, LogError> {
    begin(&doc.setup, doc.claimed.as_ref())
}

/// The game at the start of a log with this setup and these claimed scores.
pub(crate) fn begin(setup: &SetupNotation, claimed: Option<&Claimed>) -> Result<Game, LogError> {
    let start = crate::setup::validate(setup).map_err(located)?;
    let players = start.setup.players();
    if let Some(c) = claimed {
        if c.scores.len() != players {
            return Err(doc_error(
                ErrorCode::BadFormat,
                format!("{} claimed scores for {players} players", c.scores.len()),
            ));
        }
    }
    Ok(Game::new(start))
}

/// Parses one entry.
pub fn parse_entry(value: &Value) -> Result<Entry, (Option<usize>, RuleError)> {
    Entry::deserialize(value).map_err(|e| (hint(value), notation_error(&e, "entry")))
}

/// The `player` an entry says, when it says a seat number.
fn hint(value: &Value) -> Option<usize> {
    value.get("player").and_then(Value::as_u64).and_then(|p| usize::try_from(p).ok())
}

/// The `player` of an entry as written in its text (for an entry that could not be read,
/// and for the ledger).
pub(crate) fn player_hint(raw: &RawValue) -> Option<usize> {
    hint(&serde_json::from_str::<Value>(raw.get()).ok()?)
}

/// [`parse_entry`] from the entry's text in the log: read straight into its typed form; when
/// that fails, read again through a JSON tree, so that a repeated member counts once (the
/// last) and the error is the one [`parse_entry`] gives.
pub(crate) fn parse_raw(raw: &RawValue) -> Result<Entry, (Option<usize>, RuleError)> {
    serde_json::from_str(raw.get()).or_else(|_| match serde_json::from_str::<Value>(raw.get()) {
        Ok(value) => parse_entry(&value),
        Err(e) => Err((None, notation_error(&e, "entry"))),
    })
}

impl Game {
    /// Parses and applies one log entry where the game stands; on error the game may be
    /// partly changed and should be dropped.
    pub fn play(&mut self, value: &Value) -> Result<(), (Option<usize>, RuleError)> {
        let entry = parse_entry(value)?;
        rules::apply(self, &entry).map_err(|e| (entry.seat(), e))
    }

    /// [`Game::play`] of an entry's text in the log.
    pub(crate) fn play_raw(&mut self, raw: &RawValue) -> Result<(), (Option<usize>, RuleError)> {
        let entry = parse_raw(raw)?;
        rules::apply(self, &entry).map_err(|e| (entry.seat(), e))
    }

    /// The end of a log: every step that needs no entry, including seeded random outcomes,
    /// forced deaths and automatic passes; a seeded log stops before a mass at which a buy or
    /// a promotion is possible (LOG-FORMAT `mass`).
    pub fn finish(&mut self) -> Result<(), RuleError> {
        for _ in 0..100_000 {
            rules::run_automatic(self)?;
            if matches!(self.tasks.last(), Some(Task::Mass { .. })) && mass::has_choice(self) {
                return Ok(());
            }
            if !rules::auto_resolve(self)? {
                return Ok(());
            }
        }
        Ok(())
    }
}

/// Parses a log without replaying it: the envelope, the setup notation and every entry's
/// notation, no rule applied. Returns the number of entries. It exists to measure what the
/// notation costs apart from the rules (`examples/village_speed.rs`).
pub fn parse_only(input: &[u8]) -> Result<usize, LogError> {
    crate::single_pass::parse(input).map_or_else(|| parse_usual(input), Ok)
}

/// [`parse`] the member-by-member way, which judges every log the single pass does not read.
pub(crate) fn parse_usual(input: &[u8]) -> Result<usize, LogError> {
    let doc = parse_document(input).map_err(|(e, _)| e)?;
    for (i, raw) in doc.entries.iter().enumerate() {
        parse_raw(raw).map_err(|(player, e)| {
            tree_error(input).unwrap_or(LogError {
                entry: Some(i),
                player,
                code: e.code,
                message: format!("entry {i}: {}", e.message),
            })
        })?;
    }
    Ok(doc.entries.len())
}

/// Replays a whole log: in one scan when it is valid and well written (`single_pass`), else
/// part by part, which judges every other log.
pub fn replay(input: &[u8]) -> Replay {
    crate::single_pass::replay(input).unwrap_or_else(|| replay_until(input, None))
}

/// Replays at most the first `limit` entries (all when `None`). With a `limit` nothing of the
/// end of the log is applied (no seeded outcome derived, no forced death or automatic pass
/// taken): the state is exactly after entry `limit − 1` and the steps that follow it on their
/// own, where the next entry is decided. Without one, the log is finished and scored.
pub fn replay_until(input: &[u8], limit: Option<usize>) -> Replay {
    let doc = match parse_document(input) {
        Ok(d) => d,
        Err((e, meta)) => return Replay::invalid(e, meta, None, 0),
    };
    let mut game = match start(&doc) {
        Ok(g) => g,
        Err(e) => {
            return match tree_error(input) {
                Some(json) => Replay::invalid(json, Meta::default(), None, 0),
                None => Replay::invalid(e, doc.meta, None, 0),
            }
        }
    };
    let claimed = doc.claimed.as_ref().map(|c| c.scores.clone());
    let stop = limit.unwrap_or(doc.entries.len()).min(doc.entries.len());
    for (i, raw) in doc.entries.iter().take(stop).enumerate() {
        let mut before = game.clone();
        if let Err((player, e)) = game.play_raw(raw) {
            if let Some(json) = tree_error(input) {
                return Replay::invalid(json, Meta::default(), None, 0);
            }
            // The state where the illegal entry was decided.
            let _ = rules::run_automatic(&mut before);
            let error = LogError { entry: Some(i), player, code: e.code, message: format!("entry {i}: {}", e.message) };
            return Replay { claimed, ..Replay::invalid(error, doc.meta, Some(before), i) };
        }
    }
    let fail_at_end = |e: RuleError, game: Game, meta: Meta, claimed: Option<Vec<i64>>| match tree_error(input) {
        Some(json) => Replay::invalid(json, Meta::default(), None, 0),
        None => Replay {
            claimed,
            ..Replay::invalid(
                LogError {
                    entry: Some(stop),
                    player: None,
                    code: e.code,
                    message: format!("after entry {}: {}", stop.wrapping_sub(1), e.message),
                },
                meta,
                Some(game),
                stop,
            )
        },
    };
    // Entries past the limit are never read: the tree reader still judges them.
    if stop < doc.entries.len() {
        if let Some(json) = tree_error(input) {
            return Replay::invalid(json, Meta::default(), None, 0);
        }
    }
    let mut result = Replay::unscored(doc.meta.clone(), claimed.clone(), stop);
    if limit.is_some() {
        let before = game.clone();
        if let Err(e) = rules::run_automatic(&mut game) {
            return fail_at_end(e, before, doc.meta, claimed);
        }
        result.status = if game.is_over() { Status::Complete } else { Status::Incomplete };
        result.game = Some(game);
        return result;
    }
    let before = game.clone();
    if let Err(e) = game.finish() {
        return fail_at_end(e, before, doc.meta, claimed);
    }
    scored(game, result).unwrap_or_else(|(e, game)| fail_at_end(e, game, doc.meta, claimed))
}

/// `result` with the game at the end of its log and, when the game is over, the final
/// scoring; the error and the game when a score cannot be computed.
// Called once per replay: the size of its error does not matter.
#[allow(clippy::result_large_err)]
pub(crate) fn scored(game: Game, mut result: Replay) -> Result<Replay, (RuleError, Game)> {
    if game.is_over() {
        let mut scores = Vec::with_capacity(game.player_count());
        for p in 0..game.player_count() {
            match scoring::score(&game, p) {
                Ok(s) => scores.push(s),
                Err(e) => return Err((e, game)),
            }
        }
        let totals: Vec<i64> = scores.iter().map(|s| s.total).collect();
        let (winners, tie) = scoring::winners(&game, &totals);
        result.solo_rank = game.is_solo().then(|| scoring::solo_rank(totals.first().copied().unwrap_or(0)));
        result.claimed_mismatches = result
            .claimed
            .iter()
            .flatten()
            .zip(&totals)
            .enumerate()
            .filter(|(_, (c, t))| c != t)
            .map(|(player, (&claimed, &computed))| Mismatch { player, claimed, computed })
            .collect();
        result.status = Status::Complete;
        result.scores = Some(scores);
        result.winners = winners;
        result.tie_break = Some(tie);
    }
    result.game = Some(game);
    Ok(result)
}
