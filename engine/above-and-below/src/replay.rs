//! Replaying an `above-and-below-log/1` document (`docs/log-format-above-and-below.md` "Replay result"): parse the
//! envelope, validate the setup, apply the entries one by one, then — for a whole log only —
//! apply the end-of-log forced passes and score a finished game.

use chronicle_game::envelope;
use serde::Serialize;
use serde_json::value::RawValue;

use crate::error::{ErrorCode, RuleError};
use crate::game::{Game, Warning};
use crate::notation::{Claimed, Entry, Meta, SetupNotation};
use crate::rules::scoring::{score, winners, ScoreBreakdown};
use crate::rules::turn::forced_passes;
use crate::setup::Start;

/// The format this engine reads.
pub const FORMAT: &str = "above-and-below-log/1";
/// The engine's version, reported with every result.
pub const ENGINE_VERSION: &str = env!("CARGO_PKG_VERSION");
/// Largest log accepted, in bytes.
pub const MAX_LOG_BYTES: usize = chronicle_game::envelope::MAX_LOG_BYTES;
/// Most entries accepted in one log (a real game has a few hundred at most).
pub const MAX_ENTRIES: usize = 100_000;

pub use chronicle_game::Status;

/// Where and why a log is invalid. `entry` is `None` for the envelope and the setup.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LogError {
    pub entry: Option<usize>,
    pub player: Option<usize>,
    pub code: ErrorCode,
    pub message: String,
}

/// The outcome of a replay. `game` is the state after the last legal entry, absent when the
/// envelope or setup is invalid.
#[derive(Clone, Debug)]
pub struct Replay {
    pub status: Status,
    pub error: Option<LogError>,
    pub meta: Meta,
    pub game: Option<Game>,
    /// Final scores, in seat order (complete games only).
    pub scores: Option<Vec<ScoreBreakdown>>,
    /// F.12: the winners after the tie-breaks (complete games only).
    pub winners: Vec<usize>,
    /// `claimed.scores`, when the log has them.
    pub claimed: Option<Vec<i64>>,
    /// G.3 warnings (`W_…`), entry-located.
    pub warnings: Vec<Warning>,
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
            winners: vec![],
            claimed: None,
            warnings: vec![],
            entries_applied: applied,
        }
    }

    /// The round reached (0 without a valid setup).
    pub fn round(&self) -> u8 {
        self.game.as_ref().map_or(0, Game::round)
    }
}

fn doc_error(code: ErrorCode, message: impl Into<String>) -> LogError {
    LogError { entry: None, player: None, code, message: message.into() }
}

/// Classifies a serde error on a typed part of the log: an unknown field, an unknown id of a
/// closed vocabulary, or a malformed value.
pub(crate) fn notation_error(e: &serde_json::Error, what: &str) -> RuleError {
    let text = e.to_string();
    let code = if text.contains("unknown field") {
        ErrorCode::UnknownField
    } else if text.contains("unknown variant") {
        ErrorCode::UnknownId
    } else {
        ErrorCode::Format
    };
    RuleError::new(code, format!("{what}: {text}"))
}

/// The parsed envelope; entries are kept as their raw JSON text and read one at a time, so a
/// malformed entry is an error at that entry, and no JSON tree is built for the log.
pub(crate) struct Document {
    pub(crate) meta: Meta,
    pub(crate) setup: SetupNotation,
    pub(crate) entries: Vec<Box<RawValue>>,
    pub(crate) claimed: Option<Claimed>,
}

/// The envelope read by the shared reader ([`envelope::read`]), then the setup and the claimed
/// scores in this engine's notation.
#[allow(clippy::result_large_err)]
pub(crate) fn parse_document(input: &[u8]) -> Result<Document, (LogError, Meta)> {
    let fault = |f: envelope::Fault| (doc_error(ErrorCode::from(f.code), f.message), f.meta);
    let parts = envelope::read(input, FORMAT, MAX_ENTRIES).map_err(fault)?;
    // This format refuses a member name repeated in any object (LOG-FORMAT "Envelope").
    // (A log the tree reader refuses is `malformed_json`, as for every envelope fault.)
    if let Some(f) = parts.refuse_repeated() {
        return Err(match chronicle_game::members::tree_rejects(input) {
            Some(e) => (doc_error(ErrorCode::MalformedJson, e.to_string()), Meta::default()),
            None => fault(f),
        });
    }
    let meta = parts.meta;
    let setup: SetupNotation =
        serde_json::from_str(parts.setup.get()).map_err(|e| (located(notation_error(&e, "setup")), meta.clone()))?;
    let entries: Vec<Box<RawValue>> = parts.entries.into_iter().map(ToOwned::to_owned).collect();
    let claimed = match parts.claimed {
        None => None,
        Some(v) => {
            Some(serde_json::from_str(v.get()).map_err(|e| (located(notation_error(&e, "claimed")), meta.clone()))?)
        }
    };
    Ok(Document { meta, setup, entries, claimed })
}

fn located(e: RuleError) -> LogError {
    LogError { entry: None, player: None, code: e.code, message: e.message }
}

/// The game at the start of a parsed log.
pub(crate) fn start(doc: &Document) -> Result<Game, LogError> {
    let setup = crate::setup::validate(&doc.setup)
        .map_err(|e| located(RuleError::new(e.code, format!("setup: {}", e.message))))?;
    begin(setup, doc.claimed.as_ref())
}

/// The game at the start of a log whose setup is valid, once its claimed scores are checked
/// to be one per seat.
pub(crate) fn begin(start: Start, claimed: Option<&Claimed>) -> Result<Game, LogError> {
    let players = start.setup.players();
    if let Some(c) = claimed {
        if c.scores.len() != players {
            return Err(doc_error(
                ErrorCode::Format,
                format!("claimed: {} scores for {players} players", c.scores.len()),
            ));
        }
    }
    Ok(Game::new(start))
}

/// The `player` of an entry that may be malformed (for locating its error), when it is a seat.
pub(crate) fn player_of(raw: &RawValue, seats: usize) -> Option<usize> {
    #[derive(serde::Deserialize)]
    struct Player {
        player: Option<u64>,
    }
    let p = serde_json::from_str::<Player>(raw.get()).ok()?.player?;
    usize::try_from(p).ok().filter(|p| *p < seats)
}

/// Reads and applies one entry; the error names the entry's player when it has a valid one.
pub(crate) fn step(game: &mut Game, raw: &RawValue) -> Result<(), (Option<usize>, RuleError)> {
    let seats = game.players.len();
    let entry: Entry =
        serde_json::from_str(raw.get()).map_err(|e| (player_of(raw, seats), notation_error(&e, "entry")))?;
    play(game, &entry)
}

/// Applies one read entry; its warnings and its error name the entry's player when it has a
/// valid one.
fn play(game: &mut Game, entry: &Entry) -> Result<(), (Option<usize>, RuleError)> {
    let seats = game.players.len();
    let player = entry.player().and_then(|p| usize::try_from(p).ok()).filter(|p| *p < seats);
    let before = game.warnings.len();
    let result = game.apply(entry).map_err(|e| (player, e));
    for w in &mut game.warnings[before..] {
        w.player = w.player.or(player);
    }
    result
}

/// Applies entry `i` (already read), its warnings located at it.
pub(crate) fn play_at(game: &mut Game, i: usize, entry: &Entry) -> Result<(), (Option<usize>, RuleError)> {
    let before = game.warnings.len();
    play(game, entry)?;
    locate(game, before, i);
    Ok(())
}

/// Locates the warnings from `before` on at entry `i`.
fn locate(game: &mut Game, before: usize, i: usize) {
    for w in &mut game.warnings[before..] {
        w.entry = Some(i);
    }
}

/// Parses a log without applying any rule: the envelope, the setup notation, a catalogue
/// object and every entry read into their typed forms. Returns the number of entries. This is
/// the syntax share of a replay, timed apart from the rules by `examples/aab_speed.rs`.
pub fn parse_only(input: &[u8]) -> Result<usize, LogError> {
    crate::single_pass::parse_only(input).map_or_else(|| parse_members(input), Ok)
}

/// [`parse_only`] member by member, for the logs the single pass steps aside from.
pub(crate) fn parse_members(input: &[u8]) -> Result<usize, LogError> {
    let doc = parse_document(input).map_err(|(e, _)| e)?;
    if doc.setup.catalogue.get().starts_with('{') {
        serde_json::from_str::<crate::notation::CatalogueNotation>(doc.setup.catalogue.get())
            .map_err(|e| located(notation_error(&e, "setup.catalogue")))?;
    }
    for (i, value) in doc.entries.iter().enumerate() {
        serde_json::from_str::<Entry>(value.get()).map_err(|e| {
            let e = notation_error(&e, "entry");
            LogError { entry: Some(i), player: None, code: e.code, message: e.message }
        })?;
    }
    Ok(doc.entries.len())
}

/// Replays a whole log: forced passes at the end, scoring when the game is over.
pub fn replay(input: &[u8]) -> Replay {
    crate::single_pass::replay(input).unwrap_or_else(|| run(input, None))
}

/// Replays at most the first `limit` entries (all when `None`), without end-of-log defaults: the
/// state exactly after entry `limit − 1` (the setup alone for `Some(0)`).
pub fn replay_until(input: &[u8], limit: Option<usize>) -> Replay {
    run(input, limit)
}

pub(crate) fn run(input: &[u8], limit: Option<usize>) -> Replay {
    let doc = match parse_document(input) {
        Ok(d) => d,
        Err((e, meta)) => return Replay::invalid(e, meta, None, 0),
    };
    let mut game = match start(&doc) {
        Ok(g) => g,
        Err(e) => return Replay::invalid(e, doc.meta, None, 0),
    };
    let claimed = doc.claimed.as_ref().map(|c| c.scores.clone());
    let stop = limit.unwrap_or(doc.entries.len()).min(doc.entries.len());
    for (i, value) in doc.entries.iter().take(stop).enumerate() {
        let before = game.warnings.len();
        if let Err((player, e)) = step(&mut game, value) {
            let message = format!("entry {i}: {}", e.message);
            let error = LogError { entry: Some(i), player, code: e.code, message };
            // A failed entry may have half-changed the game: the state reported is the one
            // after the last legal entry, rebuilt by replaying the legal prefix again (only
            // invalid logs pay for this, instead of every entry paying for a copy).
            let last_good = state_after(&doc, i);
            let warnings = last_good.as_ref().map(|g| g.warnings.clone()).unwrap_or_default();
            return Replay { claimed, warnings, ..Replay::invalid(error, doc.meta, last_good, i) };
        }
        locate(&mut game, before, i);
    }
    finish(game, doc.meta, claimed, limit.is_none(), stop)
}

/// The replay of a log whose first `applied` entries were applied to `game`: for a `whole` log,
/// the end-of-log forced passes first; the scores of a finished game, checked against the
/// claimed ones; for a whole log, the supply warnings.
pub(crate) fn finish(mut game: Game, meta: Meta, claimed: Option<Vec<i64>>, whole: bool, applied: usize) -> Replay {
    if whole {
        forced_passes(&mut game, None);
    }
    let (scores, winners) = if game.is_over() {
        let s = score(&game);
        let w = winners(&game, &s);
        (Some(s), w)
    } else {
        (None, vec![])
    };
    if let (Some(s), Some(c)) = (&scores, &claimed) {
        for (seat, (score, claim)) in s.iter().zip(c).enumerate() {
            if score.total != *claim {
                let message = format!("{}: claimed {claim}, computed {}", game.seat_name(seat), score.total);
                game.warn("W_SCORE_CLAIM", Some(seat), message);
            }
        }
    }
    if whole {
        supply_warnings(&mut game);
    }
    Replay {
        status: if game.is_over() { Status::Complete } else { Status::Incomplete },
        error: None,
        meta,
        warnings: game.warnings.clone(),
        game: Some(game),
        scores,
        winners,
        claimed,
        entries_applied: applied,
    }
}

/// The game after the first `n` entries of a document whose first `n` entries are legal, with
/// the warnings located as in [`run`].
fn state_after(doc: &Document, n: usize) -> Option<Game> {
    let mut game = start(doc).ok()?;
    for (i, value) in doc.entries.iter().take(n).enumerate() {
        let before = game.warnings.len();
        step(&mut game, value).ok()?;
        locate(&mut game, before, i);
    }
    Some(game)
}

/// G.3 `W_SUPPLY`: more goods of a type owned or on cards than there are tokens, or more
/// potions (20) or cider (10) than exist (H.4). Checked once, at the end of the log.
fn supply_warnings(game: &mut Game) {
    use crate::ids::{Good, Item, Token};
    for g in Good::ALL {
        let on_cards: u64 = game
            .players
            .iter()
            .flat_map(|p| p.cards())
            .map(|c| c.tokens.iter().filter(|t| **t == g).count() as u64)
            .sum();
        let owned: u64 = game.players.iter().map(|p| p.owned(Item::Good(g))).sum();
        if owned + on_cards > u64::from(g.tokens()) {
            game.warn(
                "W_SUPPLY",
                None,
                format!("{} {} tokens in play; the game has {}", owned + on_cards, g.id(), g.tokens()),
            );
        }
    }
    for (t, max) in [(Token::Potion, 20u64), (Token::Cider, 10)] {
        let owned: u64 = game.players.iter().map(|p| p.owned(Item::Other(t))).sum::<u64>()
            + u64::from(t == Token::Cider && game.board_cider);
        if owned > max {
            game.warn("W_SUPPLY", None, format!("{owned} {} tokens in play; the game has {max}", Item::Other(t).id()));
        }
    }
}
