//! Replaying a `caverna-log/1` document: parse the envelope, validate the setup, apply the
//! entries one by one, apply the end-of-log defaults, score (`docs/log-format.md` "Replay result").

use chronicle_game::envelope;
use chronicle_game::members::{read, tree_rejects, without_place};
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use serde_json::Value;

use crate::error::{fail, ErrorCode, RuleError, RuleResult};
use crate::game::{Game, Phase, Player};
use crate::goods::Good;
use crate::notation::{Claimed, Entry, Meta, SetupNotation};
use crate::per_player::MAX_PLAYERS;
use crate::rules::free::{free_action, Window};
use crate::rules::{breeding, housing, placement};
use crate::scoring::{score, ScoreBreakdown};
use crate::setup;

/// The format this engine reads.
pub const FORMAT: &str = "caverna-log/1";
/// The engine's version, reported with every result.
pub const ENGINE_VERSION: &str = env!("CARGO_PKG_VERSION");
/// Largest log accepted, in bytes.
pub const MAX_LOG_BYTES: usize = chronicle_game::envelope::MAX_LOG_BYTES;
/// Most entries accepted in one log (a real game has a few hundred).
pub const MAX_ENTRIES: usize = 200_000;

pub use chronicle_game::Status;

/// Where and why a log is invalid. `entry` is `None` for the envelope and the setup.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LogError {
    pub entry: Option<usize>,
    pub player: Option<usize>,
    pub code: ErrorCode,
    pub message: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PlayerResult {
    pub name: String,
    pub score: ScoreBreakdown,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Mismatch {
    pub player: usize,
    pub claimed: i64,
    pub computed: i64,
}

/// The outcome of a replay. `game` is the state after the last legal entry (with end-of-log
/// defaults applied), absent when the envelope or setup is invalid.
#[derive(Clone, Debug)]
pub struct Replay {
    pub status: Status,
    pub error: Option<LogError>,
    pub meta: Meta,
    pub game: Option<Game>,
    /// Final scores, in seat order (complete games only).
    pub scores: Option<Vec<PlayerResult>>,
    pub winners: Vec<usize>,
    pub claimed_mismatches: Vec<Mismatch>,
    /// `claimed.scores` as written in the log (seat order), when the log has them and its
    /// setup is valid.
    pub claimed: Option<Vec<i64>>,
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
            claimed_mismatches: vec![],
            claimed: None,
            entries_applied: applied,
        }
    }

    /// The printed round reached (0 without a valid setup).
    pub fn round(&self) -> u8 {
        self.game.as_ref().map_or(0, Game::round)
    }
}

fn doc_error(code: ErrorCode, message: impl Into<String>) -> LogError {
    LogError { entry: None, player: None, code, message: message.into() }
}

/// Classifies a serde error on a typed part of the log. The part is read from its own text, so
/// serde's " at line L column C" (a place inside that part, not in the log) is dropped.
fn notation_error(e: &serde_json::Error, what: &str) -> RuleError {
    let text = without_place(e);
    let code = if text.contains("unknown field") {
        ErrorCode::UnknownField
    } else if text.contains("unknown variant") {
        ErrorCode::UnknownId
    } else {
        ErrorCode::Malformed
    };
    RuleError::new(code, crate::messages::notation(&format!("{what}: {text}")))
}

/// The parsed envelope: everything but the entries, which stay as their text in the log
/// (borrowed, never copied) and are read one at a time.
pub(crate) struct Document<'a> {
    meta: Meta,
    setup: SetupNotation,
    pub(crate) entries: Vec<&'a RawValue>,
    claimed: Option<Claimed>,
}

/// An entry from its text: the fast reading of a tag-first entry ([`crate::tag_first`]), else
/// [`read`] (so every failure, and its message, is the usual reading's).
fn read_entry(raw: &RawValue) -> Result<Entry, serde_json::Error> {
    match serde_json::from_str::<crate::tag_first::TagFirst>(raw.get()) {
        Ok(fast) => Ok(fast.0),
        Err(_) => read(raw),
    }
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

fn located(e: RuleError) -> LogError {
    LogError { entry: None, player: None, code: e.code, message: e.message }
}

/// Reads a log without replaying it: the envelope, the setup's notation and every entry's
/// notation. The baseline of replay speed (`chronicle replay --parse-only`). Returns the number
/// of entries.
pub fn parse_only(input: &[u8]) -> Result<usize, LogError> {
    if let Some(entries) = crate::single_pass::parse_only(input) {
        return Ok(entries);
    }
    let doc = parse_document(input).map_err(|(e, _)| e)?;
    for (i, raw) in doc.entries.iter().enumerate() {
        read_entry(raw).map_err(|e| {
            let e = notation_error(&e, "entry");
            tree_error(input).unwrap_or(LogError { entry: Some(i), player: None, code: e.code, message: e.message })
        })?;
    }
    Ok(doc.entries.len())
}

/// Replays a whole log.
pub fn replay(input: &[u8]) -> Replay {
    crate::single_pass::replay(input).unwrap_or_else(|| replay_until(input, None))
}

/// Replays at most the first `limit` entries (all when `None`). With a `limit`, end-of-log
/// defaults are never applied, even when it covers every entry: the state is exactly "after
/// entry limit−1", with the window it waits in still open (the position where the next entry
/// is decided: a feeding, a breeding, the before-scoring window; a window in which nobody has
/// a decision left is closed, [`Game::settle`]). Without one, the log is
/// finished as a verdict reads it (windows closed with their defaults, the game scored).
pub fn replay_until(input: &[u8], limit: Option<usize>) -> Replay {
    let doc = match parse_document(input) {
        Ok(d) => d,
        Err((e, meta)) => return Replay::invalid(e, meta, None, 0),
    };
    let mut game = match start(&doc.setup, doc.claimed.as_ref()) {
        Ok(game) => game,
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
        if let Err((player, e)) = step_raw(&mut game, raw) {
            if let Some(json) = tree_error(input) {
                return Replay::invalid(json, Meta::default(), None, 0);
            }
            let error = LogError { entry: Some(i), player, code: e.code, message: e.message };
            // The state after the last legal entry: replay again, stopping before this one.
            let game = replay_until(input, Some(i)).game;
            return Replay { claimed, ..Replay::invalid(error, doc.meta, game, i) };
        }
    }
    if limit.is_some() {
        // Entries left unread: the tree reader judges them, as it judged every log before.
        if stop < doc.entries.len() {
            if let Some(json) = tree_error(input) {
                return Replay::invalid(json, Meta::default(), None, 0);
            }
        }
        game.settle();
        return Replay {
            status: if game.is_over() { Status::Complete } else { Status::Incomplete },
            error: None,
            meta: doc.meta,
            game: Some(game),
            scores: None,
            winners: vec![],
            claimed_mismatches: vec![],
            claimed,
            entries_applied: stop,
        };
    }
    finish(&mut game);
    let complete = game.is_over();
    let (scores, winners, mismatches) =
        if complete { results(&game, doc.claimed.as_ref()) } else { (None, vec![], vec![]) };
    Replay {
        status: if complete { Status::Complete } else { Status::Incomplete },
        error: None,
        meta: doc.meta,
        game: Some(game),
        scores,
        winners,
        claimed_mismatches: mismatches,
        claimed,
        entries_applied: stop,
    }
}

/// What the housing check reads of a player: the board (by the count of its changes that can
/// change its room, [`crate::board::HomeBoard::housing_changes`]), the dwarfs in play, the farm
/// animals and the dogs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct HousingInputs {
    board: u32,
    dwarfs: u32,
    animals: [u32; 4],
    dogs: u32,
}

impl HousingInputs {
    fn of(p: &Player) -> HousingInputs {
        HousingInputs {
            board: p.board.housing_changes(),
            dwarfs: p.dwarfs_in_play(),
            animals: p.animals(),
            dogs: p.supply.get(Good::Dog),
        }
    }
}

/// For each player of one game, what its last passed housing check read, and the room it found
/// on the board (`None` when the check needed none: no farm animals). The check is a function
/// of these inputs alone, so while they are unchanged it passes again; most entries change none
/// of them (one game: the boards are told apart by their change counts only). The room is a
/// function of the board and the dwarfs alone, so while those are unchanged only the animals
/// are fitted into it again, without reading the board.
///
/// Kept inline, one slot per seat a game can have: it is looked up after every entry.
#[derive(Debug, Default)]
pub(crate) struct Housed([Option<(HousingInputs, Option<housing::Room>)>; MAX_PLAYERS]);

impl Housed {
    /// What the last passed check of player `p` read, and the room it found.
    fn last(&self, p: usize) -> Option<&(HousingInputs, Option<housing::Room>)> {
        self.0.get(p).and_then(Option::as_ref)
    }

    /// Remembers a passed check of player `p` (a seat of a valid setup, so one of the slots).
    fn passed(&mut self, p: usize, now: HousingInputs, room: Option<housing::Room>) {
        if let Some(slot) = self.0.get_mut(p) {
            *slot = Some((now, room));
        }
    }
}

/// The game at the start of a parsed log: its setup validated and its claimed scores counted.
pub(crate) fn start(setup: &SetupNotation, claimed: Option<&Claimed>) -> Result<Game, LogError> {
    let setup = setup::validate(setup).map_err(located)?;
    let players = setup.players();
    if let Some(c) = claimed {
        if c.scores.len() != players {
            let message = format!("{} claimed scores for {players} players", c.scores.len());
            return Err(doc_error(ErrorCode::ClaimedScores, message));
        }
    }
    Ok(Game::new(setup))
}

/// [`start`] for callers that only go on with a valid setup (the ledger).
pub(crate) fn validated(doc: &Document) -> Option<Game> {
    start(&doc.setup, doc.claimed.as_ref()).ok()
}

pub(crate) type Results = (Option<Vec<PlayerResult>>, Vec<usize>, Vec<Mismatch>);

pub(crate) fn results(game: &Game, claimed: Option<&Claimed>) -> Results {
    let scores: Vec<PlayerResult> =
        game.players().iter().map(|p| PlayerResult { name: p.name.to_string(), score: score(p) }).collect();
    let best = scores.iter().map(|s| s.score.total).max().unwrap_or(0);
    let winners = (0..scores.len()).filter(|&i| scores[i].score.total == best).collect();
    let mismatches = claimed
        .map(|c| {
            c.scores
                .iter()
                .zip(&scores)
                .enumerate()
                .filter(|(_, (&claimed, s))| claimed != s.score.total)
                .map(|(player, (&claimed, s))| Mismatch { player, claimed, computed: s.score.total })
                .collect()
        })
        .unwrap_or_default();
    (Some(scores), winners, mismatches)
}

impl Game {
    /// Parses and applies one log entry (a JSON value), as a replay would; on error the game
    /// may be partly changed and should be dropped. Errors carry the entry's player when known.
    pub fn play(&mut self, entry: &Value) -> Result<(), (Option<usize>, RuleError)> {
        step(self, entry)
    }

    /// The end of the log: take every optional default and advance as far as possible.
    pub fn finish(&mut self) {
        finish(self)
    }

    /// Applies one typed entry: the rules, then the housing check of `docs/rules/caverna-reference.md` F.1.
    pub fn play_entry(&mut self, entry: &Entry) -> RuleResult {
        self.apply_entry(entry)?;
        self.check_housed(entry.player() as usize)
    }

    /// [`Game::play_entry`] for a pass over a whole log: the housing check is skipped when
    /// what it reads of the player is what it last passed on, and reads the board again only
    /// when the board or the dwarfs changed ([`Housed`]).
    pub(crate) fn play_entry_housed(&mut self, entry: &Entry, housed: &mut Housed) -> RuleResult {
        self.apply_entry(entry)?;
        let p = entry.player() as usize;
        let player = self.player(p);
        let now = HousingInputs::of(player);
        let last = housed.last(p);
        if last.is_some_and(|(read, _)| *read == now) {
            return Ok(());
        }
        // The room last read, if the board and the dwarfs are still the same.
        let same_room =
            last.and_then(|(read, room)| (read.board == now.board && read.dwarfs == now.dwarfs).then_some(*room));
        let room = match same_room.flatten() {
            Some(room) => room,
            // No farm animals: housed on any board (`housing::fits`), with no room to read.
            None if now.animals == [0; 4] => {
                housed.passed(p, now, None);
                return Ok(());
            }
            None => housing::Room::read(&player.board, player.dwarfs_in_play()),
        };
        if !room.fits(now.animals, now.dogs) {
            return unhoused(self, p);
        }
        housed.passed(p, now, Some(room));
        Ok(())
    }

    /// The rules of one entry, without the housing check.
    fn apply_entry(&mut self, entry: &Entry) -> RuleResult {
        let p = entry.player() as usize;
        if p >= self.players().len() {
            return fail(ErrorCode::UnknownPlayer, self.no_seat("player", p));
        }
        apply(self, entry)
    }

    /// The rest of [`Game::play_entry`] for a `place` entry carried out step by step on this
    /// game (the generator's candidates): the placement's last checks, the next turn and the
    /// housing check. Only for a placement begun in the placing player's work turn.
    pub(crate) fn finish_placing(&mut self, placing: &crate::rules::placement::Placing) -> RuleResult {
        placing.end(self)?;
        self.next_turn(placing.player());
        self.check_housed(placing.player())
    }

    /// Every entry ends with all of its player's animals housed (`docs/rules/caverna-reference.md` F.1).
    fn check_housed(&self, p: usize) -> RuleResult {
        let player = self.player(p);
        if !housing::fits(&player.board, player.dwarfs_in_play(), player.animals(), player.supply.get(Good::Dog)) {
            return unhoused(self, p);
        }
        Ok(())
    }

    /// Closes the optional window the game waits in (solo clearing, feeding, breeding, the
    /// before-scoring window) with its defaults, as the next entry of another type would.
    pub fn close_window(&mut self) {
        match self.phase {
            Phase::Keep => self.clear_overflowing(&[]),
            Phase::Feeding { .. } => self.resolve_feeding(),
            Phase::Breeding { .. } => self.resolve_breeding(),
            Phase::BeforeScoring => self.phase = Phase::Over,
            Phase::Work { .. } | Phase::HarvestChoice | Phase::Over => {}
        }
    }

    /// Closes the feeding and breeding windows in which no player has a decision left (all
    /// fed; nobody who can breed left to choose), as the next entry would: the position where
    /// the next decision is taken. The before-scoring window stays open (free entries).
    pub fn settle(&mut self) {
        // Each close moves the game on by one window; a round's harvest has two of them.
        for _ in 0..4 {
            let settled = !matches!(self.phase, Phase::Feeding { .. } | Phase::Breeding { .. })
                || !crate::legal::deciding_players(self).is_empty();
            if settled {
                return;
            }
            self.close_window();
        }
    }

    /// Final scores and winners, once the game is over.
    pub fn results(&self) -> Option<(Vec<PlayerResult>, Vec<usize>)> {
        if !self.is_over() {
            return None;
        }
        let (scores, winners, _) = results(self, None);
        scores.map(|s| (s, winners))
    }
}

/// The failed housing check of player `p` (`docs/rules/caverna-reference.md` F.1).
fn unhoused(game: &Game, p: usize) -> RuleResult {
    fail(
        ErrorCode::AnimalsUnhoused,
        format!("no arrangement houses all animals of {}; convert or release some in this entry", game.seat_name(p)),
    )
}

/// Parses and applies one entry; errors carry the entry's player when known.
/// The `player` of an entry that could not be read, when its text says one.
pub(crate) fn player_hint(raw: &RawValue) -> Option<usize> {
    serde_json::from_str::<Value>(raw.get()).ok()?.get("player").and_then(Value::as_u64).map(|p| p as usize)
}

/// [`step`] from the entry's text in the log: read straight into its typed form.
pub(crate) fn step_raw(game: &mut Game, raw: &RawValue) -> Result<(), (Option<usize>, RuleError)> {
    let entry: Entry = read_entry(raw).map_err(|e| (player_hint(raw), notation_error(&e, "entry")))?;
    game.play_entry(&entry).map_err(|e| (Some(entry.player() as usize), e))
}

fn step(game: &mut Game, value: &Value) -> Result<(), (Option<usize>, RuleError)> {
    let player_hint = value.get("player").and_then(Value::as_u64).map(|p| p as usize);
    let entry = Entry::deserialize(value).map_err(|e| (player_hint, notation_error(&e, "entry")))?;
    game.play_entry(&entry).map_err(|e| (Some(entry.player() as usize), e))
}

/// Applies one entry at the point the game has reached (`docs/log-format.md` "Entries").
pub(crate) fn apply(game: &mut Game, entry: &Entry) -> RuleResult {
    let p = entry.player() as usize;
    loop {
        match (&game.phase, entry) {
            (Phase::Over, _) => return fail(ErrorCode::GameOver, "the game is over"),
            (Phase::Keep, Entry::Keep { spaces, .. }) => return game.keep(p, spaces),
            (Phase::Keep, _) => game.clear_overflowing(&[]),
            (&Phase::Work { to_move }, Entry::Place { space, dwarf, ruby, actions, .. }) => {
                if p != to_move {
                    return fail(ErrorCode::NotYourTurn, format!("{} is to place a dwarf", game.seat_name(to_move)));
                }
                placement::place(game, p, *space, *dwarf, *ruby, actions)?;
                game.next_turn(p);
                return Ok(());
            }
            (Phase::HarvestChoice, Entry::HarvestChoice { phase, .. }) => {
                if game.players[p].harvest_choice.is_some() {
                    return fail(ErrorCode::DuplicateEntry, format!("{} has already chosen", game.seat_name(p)));
                }
                game.players[p].harvest_choice = Some(*phase);
                if game.players.iter().all(|q| q.harvest_choice.is_some()) {
                    game.after_harvest_choice();
                }
                return Ok(());
            }
            (Phase::Feeding { fed, .. }, Entry::Feed { actions, .. }) => {
                if fed[p] {
                    return fail(
                        ErrorCode::DuplicateEntry,
                        format!("{} has already fed this harvest", game.seat_name(p)),
                    );
                }
                if let Phase::Feeding { fed, .. } = &mut game.phase {
                    fed[p] = true;
                }
                for a in actions {
                    if !a.is_free() {
                        return fail(ErrorCode::ActionNotAllowed, format!("`{}` is not done while feeding", a.name()));
                    }
                    free_action(game, p, a, Window::Feeding)?;
                }
                return Ok(());
            }
            (Phase::Feeding { .. }, _) => game.resolve_feeding(),
            (Phase::Breeding { done }, Entry::Breed { animals, .. }) => {
                if !game.breeds(p) {
                    return fail(
                        ErrorCode::UnexpectedEntry,
                        format!("the animals of {} do not breed this harvest", game.seat_name(p)),
                    );
                }
                if done[p] {
                    return fail(ErrorCode::DuplicateEntry, format!("{} has already bred", game.seat_name(p)));
                }
                breeding::breed(game, p, animals)?;
                if let Phase::Breeding { done } = &mut game.phase {
                    done[p] = true;
                }
                return Ok(());
            }
            (Phase::Breeding { .. }, _) => game.resolve_breeding(),
            // A `free` entry closes an open optional window first (the `feed` run is
            // consecutive, `breed` comes directly after feeding), then applies where it stands.
            (_, Entry::Free { actions, .. }) => {
                for a in actions {
                    free_action(game, p, a, Window::Anytime)?;
                }
                return Ok(());
            }
            (Phase::BeforeScoring, _) => {
                return fail(
                    ErrorCode::UnexpectedEntry,
                    format!("after the last harvest only `free` entries may follow, not `{}`", entry.kind()),
                )
            }
            (Phase::Work { to_move }, _) => {
                return fail(
                    ErrorCode::UnexpectedEntry,
                    format!("{} is to place a dwarf; `{}` does not fit here", game.seat_name(*to_move), entry.kind()),
                )
            }
            (Phase::HarvestChoice, _) => {
                return fail(
                    ErrorCode::UnexpectedEntry,
                    format!("every player chooses field or breeding first; `{}` does not fit here", entry.kind()),
                )
            }
        }
    }
}

/// End of the log: take every optional default and advance as far as possible.
pub(crate) fn finish(game: &mut Game) {
    loop {
        match game.phase {
            Phase::Keep => game.clear_overflowing(&[]),
            Phase::Feeding { .. } => game.resolve_feeding(),
            Phase::Breeding { .. } => game.resolve_breeding(),
            Phase::BeforeScoring => game.phase = Phase::Over,
            Phase::Work { .. } | Phase::HarvestChoice | Phase::Over => return,
        }
    }
}
