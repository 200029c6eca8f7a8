//! The game store: one interface ([`Store`]) with two implementations, PostgreSQL
//! ([`PgStore`]) and embedded SQLite ([`SqliteStore`]), chosen by a database URL. This crate is
//! the only place in the workspace with SQL, and it knows no game's rules.
//!
//! Both implementations share their code (`common.rs`, compiled once per backend) and apply
//! their migrations (`migrations/`, `migrations/sqlite/`, embedded by `build.rs`) when they
//! open, then register the games of this build ([`GameKind::ALL`]) in `game_kinds`. What they
//! store is the [`GameRecord`] the service derives from an engine's replay, the dedupe key and
//! the compressed raw log.
//!
//! Atomicity: [`Store::insert_games`] and [`Store::replace_records`] write a batch in one
//! transaction; when the batch fails, every game is retried in its own transaction (import).
//! [`Store::insert_all`] (the service's submissions) stores the whole batch or nothing. Either
//! way a game is stored completely (row, log, players, facts) or not at all. A connection whose
//! transaction failed is closed, never reused.

use std::collections::{BTreeMap, HashMap};
use std::future::Future;
use std::io::{Read, Write};
use std::path::PathBuf;

use chronicle_game::{GameKind, Status};

use crate::record::{GameRecord, Outcome};

pub mod changes;
mod packed;
mod pg;
pub mod record;
mod sqlite;

pub use pg::PgStore;
pub use sqlite::SqliteStore;

/// The embedded migrations: `(version, description, sql)`, sorted by version.
mod embedded {
    include!(concat!(env!("OUT_DIR"), "/migrations.rs"));
}

/// The database used when neither `--database-url` nor `DATABASE_URL` is given.
pub const DEFAULT_DATABASE_URL: &str = "sqlite://./data/chronicle.db";

/// Games per transaction in `chronicle import` and `chronicle reverify`.
pub const DEFAULT_BATCH: usize = 512;

/// A store failure that is not about one game: connecting, migrating, the disk filling up, or
/// the database going away. Failures of single games are [`Inserted::Failed`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoreError {
    pub kind: StoreErrorKind,
    /// What failed and the database's own words (for logs and the operator, not for anonymous
    /// callers of the service).
    pub message: String,
}

/// What kind of failure a [`StoreError`] is: it decides the error code a caller sees.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StoreErrorKind {
    /// The disk (or the database's size limit) is full: nothing more can be written until space
    /// is freed. SQLite `SQLITE_FULL`, PostgreSQL `53100 disk_full`.
    Full,
    /// The database cannot be reached or went away (connection refused or reset, pool timed out,
    /// server shutting down, I/O error).
    Unavailable,
    /// The database is a read-only standby (PostgreSQL `25006 read_only_sql_transaction`):
    /// writes go to its primary.
    ReadOnly,
    /// Anything else (a bug, a constraint, a migration that does not apply).
    Other,
}

impl StoreError {
    pub fn other(message: impl Into<String>) -> StoreError {
        StoreError { kind: StoreErrorKind::Other, message: message.into() }
    }
}

impl std::fmt::Display for StoreError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.kind {
            StoreErrorKind::Full => write!(f, "the disk is full: {}", self.message),
            StoreErrorKind::Unavailable => write!(f, "the database is unavailable: {}", self.message),
            StoreErrorKind::ReadOnly => write!(f, "the database is a read-only standby: {}", self.message),
            StoreErrorKind::Other => f.write_str(&self.message),
        }
    }
}

impl std::error::Error for StoreError {}

/// The raw log, compressed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CompressedLog {
    /// `gzip` (the only encoding so far).
    pub encoding: String,
    /// Uncompressed size in bytes.
    pub size: i64,
    pub data: Vec<u8>,
}

impl CompressedLog {
    pub fn gzip(bytes: &[u8]) -> CompressedLog {
        let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        // Writing into a Vec cannot fail.
        let data = enc.write_all(bytes).and_then(|()| enc.finish()).unwrap_or_default();
        CompressedLog { encoding: "gzip".into(), size: i64::try_from(bytes.len()).unwrap_or(i64::MAX), data }
    }

    /// The original bytes.
    pub fn decompress(&self) -> Result<Vec<u8>, String> {
        if self.encoding != "gzip" {
            return Err(format!("unknown log encoding `{}`", self.encoding));
        }
        let mut out = Vec::with_capacity(usize::try_from(self.size).unwrap_or(0).min(1 << 26));
        flate2::read::GzDecoder::new(&self.data[..])
            .read_to_end(&mut out)
            .map_err(|e| format!("stored log does not decompress: {e}"))?;
        Ok(out)
    }
}

/// A game to store: its dedupe key, provenance, raw log and replay record.
#[derive(Clone, Debug)]
pub struct NewGame {
    /// Lower-case hex SHA-256 of the canonical log (`canonical.rs`).
    pub sha256: String,
    pub format: Option<String>,
    pub uploader: Option<String>,
    pub log: CompressedLog,
    pub record: GameRecord,
}

/// What happened to one game of [`Store::insert_games`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Inserted {
    /// Stored now, with this id.
    New(i64),
    /// Already stored (or earlier in the same batch) under this id; nothing changed.
    Duplicate(i64),
    /// Not stored; the database's reason.
    Failed(String),
}

/// A stored log for `chronicle reverify`.
#[derive(Clone, Debug)]
pub struct StoredLog {
    pub id: i64,
    pub sha256: String,
    /// The log's top-level `format`, as stored.
    pub format: Option<String>,
    pub log: CompressedLog,
}

/// A game read back whole.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredGame {
    pub id: i64,
    pub sha256: String,
    pub format: Option<String>,
    pub uploader: Option<String>,
    /// As the database prints it (UTC).
    pub uploaded_at: String,
    pub log: CompressedLog,
    pub record: GameRecord,
}

/// A game without its raw log and facts: what the API shows of a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameHead {
    pub id: i64,
    pub sha256: String,
    pub format: Option<String>,
    pub uploader: Option<String>,
    /// As the database prints it (UTC, RFC 3339).
    pub uploaded_at: String,
    /// The verdict and the players; the fact lists are empty.
    pub record: GameRecord,
    /// The log's size in bytes as uploaded (uncompressed): what work on it costs is known
    /// before the log itself is read.
    pub log_bytes: i64,
}

/// Which games `Store::list_games` returns; every set field must match.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GameFilter {
    /// Games of this game.
    pub game: Option<GameKind>,
    pub player_count: Option<i16>,
    pub status: Option<Status>,
    /// Games added to this tournament.
    pub tournament: Option<i64>,
    /// Games with a player of exactly this name.
    pub player_name: Option<String>,
    /// Games stored by the token of this name.
    pub uploader: Option<String>,
    /// Games whose log's `meta.source` starts with this text (`simulate`: every simulated game).
    pub source: Option<String>,
    /// Leaves out games whose log's `meta.source` starts with this text (e.g. `simulate`).
    pub exclude_source: Option<String>,
    /// Games whose log's `meta.tournament` is exactly this text.
    pub meta_tournament: Option<String>,
    /// `meta.played_at` at or after this text (ISO 8601 compares as text).
    pub played_from: Option<String>,
    /// `meta.played_at` at or before this text; a date alone includes that whole day.
    pub played_to: Option<String>,
}

/// Whom a bearer token belongs to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Bearer {
    /// An API token (`chronicle token create`).
    Api { id: i64, name: String },
    /// The organizer token of a tournament.
    Organizer { tournament: i64 },
}

/// What a presented token is now.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TokenLookup {
    Valid(Bearer),
    /// An API token that was revoked.
    Revoked,
    /// An API token past its expiry.
    Expired,
    /// No token has this hash.
    Unknown,
}

/// An API token as listed (without its hash).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TokenRow {
    pub id: i64,
    pub name: String,
    /// As the database prints it (UTC, RFC 3339), like the other timestamps.
    pub created_at: String,
    pub expires_at: Option<String>,
    pub revoked_at: Option<String>,
    /// Past its expiry now.
    pub expired: bool,
}

/// What `Store::revoke_token` did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Revoked {
    Now,
    Already,
    NoSuchToken,
}

/// A tournament as stored (without its organizer token's hash).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TournamentRow {
    pub id: i64,
    pub name: String,
    /// As the database prints it (UTC, RFC 3339).
    pub created_at: String,
}

/// A change an organizer makes to a tournament.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TournamentChange {
    Rename(String),
    /// Takes a game out of the tournament (the game stays stored).
    Remove(i64),
    /// Takes `old` out and puts `new` in, in one transaction (a corrected upload).
    Replace {
        old: i64,
        new: i64,
    },
}

/// What a [`TournamentChange`] did; anything but `Done` changed nothing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Changed {
    Done,
    NoTournament,
    /// This game is not in the tournament.
    NotInTournament(i64),
    /// No stored game has this id.
    NoGame(i64),
}

/// The game store. Every method is one round of transactions; see the module documentation
/// for atomicity.
/// Where the stored statistics tallies stand (`stat_state`): counted at the current verdicts
/// and text format, or to be counted again from every game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TallyState {
    /// Rewrites of stored verdicts so far (`chronicle reverify`).
    pub verdicts: i64,
    /// The value of `verdicts` the tallies were counted at; `None` before the first count.
    pub tallied_verdicts: Option<i64>,
    /// The version of the tallies' text; `None` before the first count.
    pub format: Option<i64>,
}

/// What one counting transaction writes ([`Store::add_tallies`], [`Store::replace_tallies`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Counting {
    /// The games counted.
    pub counted: Vec<i64>,
    /// `(bucket, tally)`.
    pub tallies: Vec<(String, String)>,
    /// `(identity key, game)`: who sat in each counted Caverna game, so that the statistics of
    /// one player's games select those games ([`Store::counted_games_of`]) instead of reading
    /// every game.
    pub seats: Vec<(String, i64)>,
    /// `(game, month)`: the calendar month of each counted Caverna game with a readable
    /// `played_at` (numbered as the statistics' buckets), so that a time bound inside a month
    /// reads that month's games only ([`Store::counted_games_in_months`]).
    pub months: Vec<(i64, i64)>,
}

/// Which corpus a stored rating model covers (`stat_models`): a model whose head differs from
/// the one computed now is computed again.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ModelHead {
    /// The game's id.
    pub game: String,
    /// The version of what is stored (the service's `models::MODEL_FORMAT`).
    pub format: i64,
    /// The version ([`Store::corpus_version`]) of the counted games it covers.
    pub corpus: i64,
    /// A fingerprint of the merged player identities it was computed with.
    pub aliases: String,
    /// The complete games it rates.
    pub games: i64,
}

/// Which analysis of a stored game (docs/analysis.md, "On the server"): the same game, engine
/// version, budget and seed always give the same analysis.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct AnalysisKey {
    pub game_id: i64,
    pub engine_version: String,
    /// Playouts per decision.
    pub budget: i64,
    pub seed: i64,
}

/// Where a stored analysis stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AnalysisState {
    Queued,
    Running,
    Done,
    Failed,
}

impl AnalysisState {
    /// The id stored in `game_analyses.state`.
    pub fn id(self) -> &'static str {
        match self {
            AnalysisState::Queued => "queued",
            AnalysisState::Running => "running",
            AnalysisState::Done => "done",
            AnalysisState::Failed => "failed",
        }
    }

    pub fn from_id(id: &str) -> Option<AnalysisState> {
        [AnalysisState::Queued, AnalysisState::Running, AnalysisState::Done, AnalysisState::Failed]
            .into_iter()
            .find(|s| s.id() == id)
    }
}

/// A stored analysis (`game_analyses`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AnalysisRow {
    pub key: AnalysisKey,
    pub state: AnalysisState,
    /// Decisions analysed of `total_moves` (0 of 0 until the worker has read the log).
    pub done_moves: i64,
    pub total_moves: i64,
    /// The analysis as JSON, once done.
    pub result: Option<String>,
    /// Why it failed.
    pub message: Option<String>,
    /// Unix seconds.
    pub requested_at: i64,
    /// Unix seconds: the heartbeat of a running analysis.
    pub updated_at: i64,
}

/// A stored model's head and the strategy effects it keeps (JSON; `None` for a game without
/// strategies).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct StoredModel {
    pub head: ModelHead,
    pub effects: Option<String>,
}

/// One rated seat of a stored model (`stat_seat_ratings`).
#[derive(Clone, Debug, PartialEq)]
pub struct SeatRatingRow {
    pub game_id: i64,
    pub seat: u8,
    /// The merged identity key.
    pub player: String,
    /// The game's place in rating order, from 0.
    pub order: i64,
    pub mu_before: f64,
    pub sigma_before: f64,
    pub mu_after: f64,
    pub sigma_after: f64,
}

/// One rated player of a stored model (`stat_player_ratings`).
#[derive(Clone, Debug, PartialEq)]
pub struct PlayerRatingRow {
    /// Place in the ratings table, from 0 (best `mu − 3·sigma` first, then by key).
    pub place: i64,
    pub player: String,
    /// The name in the player's latest game.
    pub name: String,
    pub mu: f64,
    pub sigma: f64,
    pub games: i64,
}

/// Stored tallies read by [`Store::tallies_after`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TallyRows {
    /// The counting transaction these rows bring a reader up to.
    pub version: i64,
    /// Whether every game was counted again since the transaction asked after: `rows` are
    /// then every tally, and tallies a reader holds that are not among them are gone.
    pub whole: bool,
    /// `(bucket, tally)`.
    pub rows: Vec<(String, String)>,
}

impl TallyState {
    /// Whether the tallies must be counted again from every game to be current at `format`.
    pub fn needs_recount(&self, format: i64) -> bool {
        self.tallied_verdicts != Some(self.verdicts) || self.format != Some(format)
    }
}

pub trait Store: Sync {
    /// `postgres` or `sqlite`.
    fn backend(&self) -> &'static str;

    /// Stores games, skipping those whose dedupe key is already stored. One result per game,
    /// in order. `Err` only when the database cannot be used at all (nothing of the failing
    /// batch is stored then).
    fn insert_games(&self, games: &[NewGame]) -> impl Future<Output = Result<Vec<Inserted>, StoreError>> + Send;

    /// Stores games like [`Store::insert_games`], but all or nothing: when the database refuses
    /// any game of the batch, none is stored and the error says why. The service's
    /// `submitGames` uses this.
    fn insert_all(&self, games: &[NewGame]) -> impl Future<Output = Result<Vec<Inserted>, StoreError>> + Send;

    /// The ids of the games stored under these dedupe keys (keys not stored are left out).
    fn known_games(&self, sha256s: &[String]) -> impl Future<Output = Result<HashMap<String, i64>, StoreError>> + Send;

    /// Up to `limit` stored logs with an id greater than `after`, by id.
    fn logs_after(&self, after: i64, limit: i64) -> impl Future<Output = Result<Vec<StoredLog>, StoreError>> + Send;

    /// The stored outcomes of these games (absent ids are left out).
    fn outcomes(&self, ids: &[i64]) -> impl Future<Output = Result<BTreeMap<i64, Outcome>, StoreError>> + Send;

    /// Replaces the verdict, players and facts of stored games (the dedupe key, provenance and
    /// raw log stay), in one transaction.
    fn replace_records(&self, records: &[(i64, GameRecord)]) -> impl Future<Output = Result<(), StoreError>> + Send;

    /// The id of the game with this dedupe key.
    fn game_id(&self, sha256: &str) -> impl Future<Output = Result<Option<i64>, StoreError>> + Send;

    /// One game read back whole.
    fn game(&self, id: i64) -> impl Future<Output = Result<Option<StoredGame>, StoreError>> + Send;

    /// Number of stored games.
    fn game_count(&self) -> impl Future<Output = Result<i64, StoreError>> + Send;

    /// The games with these ids, without logs and facts, in the order of `ids` (absent ids
    /// are left out).
    fn game_heads(&self, ids: &[i64]) -> impl Future<Output = Result<Vec<GameHead>, StoreError>> + Send;

    /// The games with these ids with their facts but without logs, in the order of `ids`
    /// (absent ids are left out): what exports write, read in a few queries per batch.
    fn games_with_facts(&self, ids: &[i64]) -> impl Future<Output = Result<Vec<GameHead>, StoreError>> + Send;

    /// The raw log of a game.
    fn game_log(&self, id: i64) -> impl Future<Output = Result<Option<CompressedLog>, StoreError>> + Send;

    /// Up to `limit` ids of games matching `filter` with an id greater than `after`, by id.
    fn list_games(
        &self,
        filter: &GameFilter,
        after: i64,
        limit: i64,
    ) -> impl Future<Output = Result<Vec<i64>, StoreError>> + Send;

    /// Stores the hash of a new API token, valid for `expires_in` seconds from now (`None`: until
    /// revoked); returns its id.
    fn create_token(
        &self,
        name: &str,
        sha256: &str,
        expires_in: Option<i64>,
    ) -> impl Future<Output = Result<i64, StoreError>> + Send;

    /// Every API token (without its hash), by id.
    fn tokens(&self) -> impl Future<Output = Result<Vec<TokenRow>, StoreError>> + Send;

    /// Revokes an API token: from now on it authenticates no request. The row stays (a
    /// tournament may name it as its creator).
    fn revoke_token(&self, id: i64) -> impl Future<Output = Result<Revoked, StoreError>> + Send;

    /// Whom the token with this hash belongs to, if it is valid now.
    fn bearer(&self, sha256: &str) -> impl Future<Output = Result<TokenLookup, StoreError>> + Send;

    /// Creates a tournament whose organizer token has this hash.
    fn create_tournament(
        &self,
        name: &str,
        organizer_sha256: &str,
        created_by: Option<i64>,
    ) -> impl Future<Output = Result<TournamentRow, StoreError>> + Send;

    fn tournament(&self, id: i64) -> impl Future<Output = Result<Option<TournamentRow>, StoreError>> + Send;

    /// Renames a tournament, or removes or replaces one of its games, in one transaction.
    fn change_tournament(
        &self,
        tournament: i64,
        change: &TournamentChange,
    ) -> impl Future<Output = Result<Changed, StoreError>> + Send;

    /// Up to `limit` tournaments with an id greater than `after`, by id.
    fn tournaments(
        &self,
        after: i64,
        limit: i64,
    ) -> impl Future<Output = Result<Vec<TournamentRow>, StoreError>> + Send;

    /// Adds stored games to a tournament (games already in it stay, once). When some id is not
    /// a stored game nothing changes and those ids are returned.
    fn add_tournament_games(
        &self,
        tournament: i64,
        games: &[i64],
    ) -> impl Future<Output = Result<Vec<i64>, StoreError>> + Send;

    /// The ids of a tournament's games, by id.
    fn tournament_games(&self, tournament: i64) -> impl Future<Output = Result<Vec<i64>, StoreError>> + Send;

    /// The tournaments that hold a game, by id.
    fn game_tournaments(&self, game: i64) -> impl Future<Output = Result<Vec<TournamentRow>, StoreError>> + Send;

    /// The games replaced in a tournament by a corrected upload, by id.
    fn replaced_games(&self, tournament: i64) -> impl Future<Output = Result<Vec<i64>, StoreError>> + Send;

    /// Up to `limit` complete games with an id greater than `after`, by id, with their players
    /// and facts (the statistics' input; unlike [`Store::game_heads`], the facts are filled).
    fn complete_records(
        &self,
        after: i64,
        limit: i64,
    ) -> impl Future<Output = Result<Vec<GameHead>, StoreError>> + Send;

    /// Every merged player identity as (alias, canonical) keys, by alias.
    fn player_aliases(&self) -> impl Future<Output = Result<Vec<(String, String)>, StoreError>> + Send;

    /// Makes each of `aliases` the player `into` (identity keys), in one transaction: `into`
    /// is first resolved to its own canonical key, and identities merged into an alias move
    /// with it, so every alias points at a canonical key in one step. Returns the canonical
    /// key; an alias equal to it is refused.
    fn merge_players(&self, into: &str, aliases: &[String]) -> impl Future<Output = Result<String, StoreError>> + Send;

    /// Undoes the merge of `alias`; whether it was merged.
    fn unmerge_player(&self, alias: &str) -> impl Future<Output = Result<bool, StoreError>> + Send;

    /// Whether the database answers (`/readyz`).
    fn ping(&self) -> impl Future<Output = Result<(), StoreError>> + Send;

    /// The change sequence after number `after`, oldest first, at most `limit` changes: how a
    /// process that is not notified learns what others committed ([`changes`]).
    fn changes_after(
        &self,
        after: i64,
        limit: i64,
    ) -> impl Future<Output = Result<changes::ChangeLog, StoreError>> + Send;

    /// Whether the database can write: writes and deletes a 1 MiB row (`/readyz`, after a write
    /// failed on a full disk).
    fn probe_write(&self) -> impl Future<Output = Result<(), StoreError>> + Send;

    /// Where the stored statistics tallies stand.
    fn tally_state(&self) -> impl Future<Output = Result<TallyState, StoreError>> + Send;

    /// Complete games of `game` (its id) that the tallies do not count yet, ascending, at
    /// most `limit`.
    fn uncounted_games(&self, game: &str, limit: i64) -> impl Future<Output = Result<Vec<i64>, StoreError>> + Send;

    /// Counts games into the tallies in one transaction: records `counting.counted` and their
    /// seats, and adds each `(bucket, tally)` to the stored one with `merge(bucket, stored,
    /// new)` (or stores it when the bucket is new). `Ok(false)`, writing nothing, when the
    /// state is no longer `expect` or a game was counted meanwhile (by another process).
    fn add_tallies(
        &self,
        expect: &TallyState,
        counting: &Counting,
        merge: &(dyn Fn(&str, &str, &str) -> Result<String, String> + Sync),
    ) -> impl Future<Output = Result<bool, StoreError>> + Send;

    /// Replaces every tally and seat with those of `counting` in one transaction, counted at
    /// `expect.verdicts` in text `format`. `Ok(false)`, writing nothing, when verdicts were
    /// rewritten since `expect` was read.
    fn replace_tallies(
        &self,
        expect: &TallyState,
        format: i64,
        counting: &Counting,
    ) -> impl Future<Output = Result<bool, StoreError>> + Send;

    /// The counted Caverna games of these months (as [`Counting::months`] numbers them),
    /// ascending, at most `limit`. Indexed: costs the games it returns.
    fn counted_games_in_months(
        &self,
        months: &[i64],
        limit: i64,
    ) -> impl Future<Output = Result<Vec<i64>, StoreError>> + Send;

    /// The counted Caverna games, ascending, at most `limit`, in which one of `players`
    /// (identity keys) sat — any game when `players` is empty — and, when `uploader` is given,
    /// stored by the token of that name. Indexed: costs the games it returns, not the store.
    fn counted_games_of(
        &self,
        players: &[String],
        uploader: Option<&str>,
        limit: i64,
    ) -> impl Future<Output = Result<Vec<i64>, StoreError>> + Send;

    /// The tallies written after counting transaction `after` (0: every tally).
    fn tallies_after(&self, after: i64) -> impl Future<Output = Result<TallyRows, StoreError>> + Send;

    /// The version of the counted corpus of `game` (its id) that a stored model says it
    /// covers: it changes whenever a game of `game` is counted or every game is counted again.
    fn corpus_version(&self, game: &str) -> impl Future<Output = Result<i64, StoreError>> + Send;

    /// The number of the last counting transaction (0 before the first): when it did not
    /// change, no game was counted, so a corpus version read at it still holds.
    fn counting_version(&self) -> impl Future<Output = Result<i64, StoreError>> + Send;

    /// Counted games of `game` after `after`, ascending, at most `limit` (what a model is
    /// computed over).
    fn counted_games(
        &self,
        game: &str,
        after: i64,
        limit: i64,
    ) -> impl Future<Output = Result<Vec<i64>, StoreError>> + Send;

    /// The stored model of `game` (its id), if any.
    fn stored_model(&self, game: &str) -> impl Future<Output = Result<Option<StoredModel>, StoreError>> + Send;

    /// Replaces the stored model of `model.head.game` and its ratings in one transaction;
    /// `false` (nothing written) when the stored one is this model already, or covers a newer
    /// corpus in the same format (another process wrote it first).
    fn replace_model(
        &self,
        model: &StoredModel,
        seats: &[SeatRatingRow],
        players: &[PlayerRatingRow],
    ) -> impl Future<Output = Result<bool, StoreError>> + Send;

    /// Up to `limit` rows of a game's stored ratings table from place `offset`.
    fn rating_table(
        &self,
        game: &str,
        offset: i64,
        limit: i64,
    ) -> impl Future<Output = Result<Vec<PlayerRatingRow>, StoreError>> + Send;

    /// How many players a game's stored ratings table holds.
    fn rated_players(&self, game: &str) -> impl Future<Output = Result<i64, StoreError>> + Send;

    /// The stored analysis `key`, if any.
    fn analysis(&self, key: &AnalysisKey) -> impl Future<Output = Result<Option<AnalysisRow>, StoreError>> + Send;

    /// Queues the analysis `key` (at Unix second `now`) unless it is stored already; the stored
    /// row either way.
    fn request_analysis(
        &self,
        key: &AnalysisKey,
        now: i64,
    ) -> impl Future<Output = Result<AnalysisRow, StoreError>> + Send;

    /// How many analyses are queued or running.
    fn pending_analyses(&self) -> impl Future<Output = Result<i64, StoreError>> + Send;

    /// Takes the oldest queued analysis, or a running one whose heartbeat is older than
    /// `stale_before` (its worker stopped), marking it running at `now`; `None` when there is
    /// none or another worker took it first.
    fn claim_analysis(
        &self,
        now: i64,
        stale_before: i64,
    ) -> impl Future<Output = Result<Option<AnalysisRow>, StoreError>> + Send;

    /// Records a running analysis's progress and heartbeat.
    fn analysis_progress(
        &self,
        key: &AnalysisKey,
        done: i64,
        total: i64,
        now: i64,
    ) -> impl Future<Output = Result<(), StoreError>> + Send;

    /// Ends a running analysis: done with its result (JSON), or failed with why.
    fn finish_analysis(
        &self,
        key: &AnalysisKey,
        outcome: Result<&str, &str>,
        now: i64,
    ) -> impl Future<Output = Result<(), StoreError>> + Send;

    /// One player's stored rating in a game (by merged identity key).
    fn player_rating(
        &self,
        game: &str,
        player: &str,
    ) -> impl Future<Output = Result<Option<PlayerRatingRow>, StoreError>> + Send;

    /// One player's latest `limit` rated seats in a game, latest first.
    fn rating_history(
        &self,
        game: &str,
        player: &str,
        limit: i64,
    ) -> impl Future<Output = Result<Vec<SeatRatingRow>, StoreError>> + Send;

    /// The rated seats of one stored game, by seat (none when it is not rated).
    fn seat_ratings(&self, game_id: i64) -> impl Future<Output = Result<Vec<SeatRatingRow>, StoreError>> + Send;
}

/// Every operation of [`Backend`] is that of the store it holds.
macro_rules! delegate {
    ($self:ident, $s:ident => $call:expr) => {
        match $self {
            Backend::Postgres($s) => $call,
            Backend::Sqlite($s) => $call,
        }
    };
}

impl Store for Backend {
    fn backend(&self) -> &'static str {
        delegate!(self, s => s.backend())
    }

    async fn insert_games(&self, games: &[NewGame]) -> Result<Vec<Inserted>, StoreError> {
        delegate!(self, s => s.insert_games(games).await)
    }

    async fn insert_all(&self, games: &[NewGame]) -> Result<Vec<Inserted>, StoreError> {
        delegate!(self, s => s.insert_all(games).await)
    }

    async fn known_games(&self, sha256s: &[String]) -> Result<HashMap<String, i64>, StoreError> {
        delegate!(self, s => s.known_games(sha256s).await)
    }

    async fn logs_after(&self, after: i64, limit: i64) -> Result<Vec<StoredLog>, StoreError> {
        delegate!(self, s => s.logs_after(after, limit).await)
    }

    async fn outcomes(&self, ids: &[i64]) -> Result<BTreeMap<i64, Outcome>, StoreError> {
        delegate!(self, s => s.outcomes(ids).await)
    }

    async fn replace_records(&self, records: &[(i64, GameRecord)]) -> Result<(), StoreError> {
        delegate!(self, s => s.replace_records(records).await)
    }

    async fn game_id(&self, sha256: &str) -> Result<Option<i64>, StoreError> {
        delegate!(self, s => s.game_id(sha256).await)
    }

    async fn game(&self, id: i64) -> Result<Option<StoredGame>, StoreError> {
        delegate!(self, s => s.game(id).await)
    }

    async fn game_count(&self) -> Result<i64, StoreError> {
        delegate!(self, s => s.game_count().await)
    }

    async fn game_heads(&self, ids: &[i64]) -> Result<Vec<GameHead>, StoreError> {
        delegate!(self, s => s.game_heads(ids).await)
    }

    async fn games_with_facts(&self, ids: &[i64]) -> Result<Vec<GameHead>, StoreError> {
        delegate!(self, s => s.games_with_facts(ids).await)
    }

    async fn game_log(&self, id: i64) -> Result<Option<CompressedLog>, StoreError> {
        delegate!(self, s => s.game_log(id).await)
    }

    async fn list_games(&self, filter: &GameFilter, after: i64, limit: i64) -> Result<Vec<i64>, StoreError> {
        delegate!(self, s => s.list_games(filter, after, limit).await)
    }

    async fn create_token(&self, name: &str, sha256: &str, expires_in: Option<i64>) -> Result<i64, StoreError> {
        delegate!(self, s => s.create_token(name, sha256, expires_in).await)
    }

    async fn tokens(&self) -> Result<Vec<TokenRow>, StoreError> {
        delegate!(self, s => s.tokens().await)
    }

    async fn revoke_token(&self, id: i64) -> Result<Revoked, StoreError> {
        delegate!(self, s => s.revoke_token(id).await)
    }

    async fn bearer(&self, sha256: &str) -> Result<TokenLookup, StoreError> {
        delegate!(self, s => s.bearer(sha256).await)
    }

    async fn create_tournament(
        &self,
        name: &str,
        organizer_sha256: &str,
        created_by: Option<i64>,
    ) -> Result<TournamentRow, StoreError> {
        delegate!(self, s => s.create_tournament(name, organizer_sha256, created_by).await)
    }

    async fn tournament(&self, id: i64) -> Result<Option<TournamentRow>, StoreError> {
        delegate!(self, s => s.tournament(id).await)
    }

    async fn tournaments(&self, after: i64, limit: i64) -> Result<Vec<TournamentRow>, StoreError> {
        delegate!(self, s => s.tournaments(after, limit).await)
    }

    async fn change_tournament(&self, tournament: i64, change: &TournamentChange) -> Result<Changed, StoreError> {
        delegate!(self, s => s.change_tournament(tournament, change).await)
    }

    async fn add_tournament_games(&self, tournament: i64, games: &[i64]) -> Result<Vec<i64>, StoreError> {
        delegate!(self, s => s.add_tournament_games(tournament, games).await)
    }

    async fn tournament_games(&self, tournament: i64) -> Result<Vec<i64>, StoreError> {
        delegate!(self, s => s.tournament_games(tournament).await)
    }

    async fn game_tournaments(&self, game: i64) -> Result<Vec<TournamentRow>, StoreError> {
        delegate!(self, s => s.game_tournaments(game).await)
    }

    async fn replaced_games(&self, tournament: i64) -> Result<Vec<i64>, StoreError> {
        delegate!(self, s => s.replaced_games(tournament).await)
    }

    async fn complete_records(&self, after: i64, limit: i64) -> Result<Vec<GameHead>, StoreError> {
        delegate!(self, s => s.complete_records(after, limit).await)
    }

    async fn player_aliases(&self) -> Result<Vec<(String, String)>, StoreError> {
        delegate!(self, s => s.player_aliases().await)
    }

    async fn merge_players(&self, into: &str, aliases: &[String]) -> Result<String, StoreError> {
        delegate!(self, s => s.merge_players(into, aliases).await)
    }

    async fn unmerge_player(&self, alias: &str) -> Result<bool, StoreError> {
        delegate!(self, s => s.unmerge_player(alias).await)
    }

    async fn tally_state(&self) -> Result<TallyState, StoreError> {
        delegate!(self, s => s.tally_state().await)
    }

    async fn uncounted_games(&self, game: &str, limit: i64) -> Result<Vec<i64>, StoreError> {
        delegate!(self, s => s.uncounted_games(game, limit).await)
    }

    async fn add_tallies(
        &self,
        expect: &TallyState,
        counting: &Counting,
        merge: &(dyn Fn(&str, &str, &str) -> Result<String, String> + Sync),
    ) -> Result<bool, StoreError> {
        delegate!(self, s => s.add_tallies(expect, counting, merge).await)
    }

    async fn replace_tallies(&self, expect: &TallyState, format: i64, counting: &Counting) -> Result<bool, StoreError> {
        delegate!(self, s => s.replace_tallies(expect, format, counting).await)
    }

    async fn counted_games_of(
        &self,
        players: &[String],
        uploader: Option<&str>,
        limit: i64,
    ) -> Result<Vec<i64>, StoreError> {
        delegate!(self, s => s.counted_games_of(players, uploader, limit).await)
    }

    async fn counted_games_in_months(&self, months: &[i64], limit: i64) -> Result<Vec<i64>, StoreError> {
        delegate!(self, s => s.counted_games_in_months(months, limit).await)
    }

    async fn tallies_after(&self, after: i64) -> Result<TallyRows, StoreError> {
        delegate!(self, s => s.tallies_after(after).await)
    }

    async fn corpus_version(&self, game: &str) -> Result<i64, StoreError> {
        delegate!(self, s => s.corpus_version(game).await)
    }

    async fn counting_version(&self) -> Result<i64, StoreError> {
        delegate!(self, s => s.counting_version().await)
    }

    async fn counted_games(&self, game: &str, after: i64, limit: i64) -> Result<Vec<i64>, StoreError> {
        delegate!(self, s => s.counted_games(game, after, limit).await)
    }

    async fn stored_model(&self, game: &str) -> Result<Option<StoredModel>, StoreError> {
        delegate!(self, s => s.stored_model(game).await)
    }

    async fn replace_model(
        &self,
        model: &StoredModel,
        seats: &[SeatRatingRow],
        players: &[PlayerRatingRow],
    ) -> Result<bool, StoreError> {
        delegate!(self, s => s.replace_model(model, seats, players).await)
    }

    async fn rating_table(&self, game: &str, offset: i64, limit: i64) -> Result<Vec<PlayerRatingRow>, StoreError> {
        delegate!(self, s => s.rating_table(game, offset, limit).await)
    }

    async fn rated_players(&self, game: &str) -> Result<i64, StoreError> {
        delegate!(self, s => s.rated_players(game).await)
    }

    async fn analysis(&self, key: &AnalysisKey) -> Result<Option<AnalysisRow>, StoreError> {
        delegate!(self, s => s.analysis(key).await)
    }

    async fn request_analysis(&self, key: &AnalysisKey, now: i64) -> Result<AnalysisRow, StoreError> {
        delegate!(self, s => s.request_analysis(key, now).await)
    }

    async fn pending_analyses(&self) -> Result<i64, StoreError> {
        delegate!(self, s => s.pending_analyses().await)
    }

    async fn claim_analysis(&self, now: i64, stale_before: i64) -> Result<Option<AnalysisRow>, StoreError> {
        delegate!(self, s => s.claim_analysis(now, stale_before).await)
    }

    async fn analysis_progress(&self, key: &AnalysisKey, done: i64, total: i64, now: i64) -> Result<(), StoreError> {
        delegate!(self, s => s.analysis_progress(key, done, total, now).await)
    }

    async fn finish_analysis(
        &self,
        key: &AnalysisKey,
        outcome: Result<&str, &str>,
        now: i64,
    ) -> Result<(), StoreError> {
        delegate!(self, s => s.finish_analysis(key, outcome, now).await)
    }

    async fn player_rating(&self, game: &str, player: &str) -> Result<Option<PlayerRatingRow>, StoreError> {
        delegate!(self, s => s.player_rating(game, player).await)
    }

    async fn rating_history(&self, game: &str, player: &str, limit: i64) -> Result<Vec<SeatRatingRow>, StoreError> {
        delegate!(self, s => s.rating_history(game, player, limit).await)
    }

    async fn seat_ratings(&self, game_id: i64) -> Result<Vec<SeatRatingRow>, StoreError> {
        delegate!(self, s => s.seat_ratings(game_id).await)
    }

    async fn ping(&self) -> Result<(), StoreError> {
        delegate!(self, s => s.ping().await)
    }

    async fn changes_after(&self, after: i64, limit: i64) -> Result<changes::ChangeLog, StoreError> {
        delegate!(self, s => s.changes_after(after, limit).await)
    }

    async fn probe_write(&self) -> Result<(), StoreError> {
        delegate!(self, s => s.probe_write().await)
    }
}

impl Backend {
    /// Closes every connection.
    pub async fn close(&self) {
        delegate!(self, s => s.close().await)
    }
}

/// A store opened from a URL.
#[derive(Clone, Debug)]
pub enum Backend {
    Postgres(PgStore),
    Sqlite(SqliteStore),
}

/// Where a database URL points.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Location {
    /// The URL as given (`postgres://…` or `postgresql://…`).
    Postgres(String),
    /// The database file.
    Sqlite(PathBuf),
}

/// Reads a database URL: `postgres://…`, `postgresql://…`, `sqlite://PATH` or `sqlite:PATH`.
pub fn parse_url(url: &str) -> Result<Location, String> {
    if url.starts_with("postgres://") || url.starts_with("postgresql://") {
        return Ok(Location::Postgres(url.to_owned()));
    }
    if let Some(path) = url.strip_prefix("sqlite://").or_else(|| url.strip_prefix("sqlite:")) {
        let path = path.split('?').next().unwrap_or_default();
        if path.is_empty() {
            return Err("sqlite URL without a path; use sqlite://PATH".into());
        }
        return Ok(Location::Sqlite(PathBuf::from(path)));
    }
    let scheme = url.split("://").next().filter(|s| *s != url).unwrap_or("(none)");
    Err(format!("unsupported database URL scheme `{scheme}`; use postgres://… or sqlite://PATH"))
}

/// Opens the store a URL names, creating the SQLite file and its directory when missing, and
/// applies the pending migrations.
pub async fn open(url: &str) -> Result<Backend, StoreError> {
    match parse_url(url).map_err(StoreError::other)? {
        Location::Postgres(url) => Ok(Backend::Postgres(PgStore::open(&url).await?)),
        Location::Sqlite(path) => Ok(Backend::Sqlite(SqliteStore::open(&path).await?)),
    }
}

/// The embedded migrations as sqlx's migrator wants them.
#[derive(Debug)]
struct Embedded(&'static [(i64, &'static str, &'static str)]);

type BoxDynError = Box<dyn std::error::Error + Send + Sync>;

impl<'s> sqlx::migrate::MigrationSource<'s> for Embedded {
    fn resolve(
        self,
    ) -> std::pin::Pin<Box<dyn Future<Output = Result<Vec<sqlx::migrate::Migration>, BoxDynError>> + Send + 's>> {
        let migrations = self
            .0
            .iter()
            .map(|&(version, description, sql)| {
                sqlx::migrate::Migration::new(
                    version,
                    description.replace('_', " ").into(),
                    sqlx::migrate::MigrationType::Simple,
                    sql.into(),
                    sql.starts_with("-- no-transaction"),
                )
            })
            .collect();
        Box::pin(async move { Ok(migrations) })
    }
}

async fn migrator(which: &'static [(i64, &'static str, &'static str)]) -> Result<sqlx::migrate::Migrator, StoreError> {
    sqlx::migrate::Migrator::new(Embedded(which))
        .await
        .map_err(|e| StoreError::other(format!("loading migrations: {e}")))
}

/// Version and name of each embedded migration.
pub type MigrationNames = Vec<(i64, &'static str)>;

/// The embedded migration versions and names: (PostgreSQL, SQLite).
pub fn migration_names() -> (MigrationNames, MigrationNames) {
    let names = |m: &'static [(i64, &'static str, &'static str)]| m.iter().map(|&(v, n, _)| (v, n)).collect();
    (names(embedded::POSTGRES), names(embedded::SQLITE))
}

/// A failed migration, sorted like any database error when the database refused it.
fn migrate_error(context: &str, e: sqlx::migrate::MigrateError) -> StoreError {
    match e {
        sqlx::migrate::MigrateError::Execute(e) => db_error(context, e),
        sqlx::migrate::MigrateError::ExecuteMigration(e, version) => {
            db_error(&format!("{context} (migration {version})"), e)
        }
        other => StoreError::other(format!("{context}: {other}")),
    }
}

/// Errors that end a whole import (the database is gone) rather than one game.
fn is_fatal(e: &sqlx::Error) -> bool {
    !matches!(e, sqlx::Error::Database(_))
}

fn db_error(context: &str, e: sqlx::Error) -> StoreError {
    StoreError { kind: error_kind(&e), message: format!("{context}: {e}") }
}

/// SQLite's primary result codes for a full disk and for I/O errors (the low byte of the
/// extended code sqlx reports).
const SQLITE_FULL: i64 = 13;
const SQLITE_IOERR: i64 = 10;
const SQLITE_CANTOPEN: i64 = 14;

/// Sorts a database error into what the caller can do about it.
fn error_kind(e: &sqlx::Error) -> StoreErrorKind {
    match e {
        sqlx::Error::Database(db) => {
            let code = db.code().unwrap_or_default();
            // PostgreSQL's SQLSTATEs are digits too (`53100`): only SQLite's codes are read as
            // numbers.
            let postgres = db.try_downcast_ref::<sqlx::postgres::PgDatabaseError>().is_some();
            if let (false, Ok(sqlite)) = (postgres, code.parse::<i64>()) {
                return match sqlite & 0xff {
                    SQLITE_FULL => StoreErrorKind::Full,
                    SQLITE_IOERR | SQLITE_CANTOPEN => StoreErrorKind::Unavailable,
                    _ => StoreErrorKind::Other,
                };
            }
            // PostgreSQL SQLSTATE: class 53 insufficient resources (53100 disk_full), class 08
            // connection exceptions, class 57 operator intervention (shutdown, crash recovery).
            match code.as_ref() {
                "53100" => StoreErrorKind::Full,
                "25006" => StoreErrorKind::ReadOnly,
                c if c.starts_with("08") || c.starts_with("57") => StoreErrorKind::Unavailable,
                _ => StoreErrorKind::Other,
            }
        }
        sqlx::Error::Io(io) if io.raw_os_error() == Some(28) => StoreErrorKind::Full, // ENOSPC
        sqlx::Error::Io(_)
        | sqlx::Error::PoolTimedOut
        | sqlx::Error::PoolClosed
        | sqlx::Error::WorkerCrashed
        | sqlx::Error::Tls(_)
        | sqlx::Error::Protocol(_) => StoreErrorKind::Unavailable,
        _ => StoreErrorKind::Other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls() {
        assert_eq!(parse_url("sqlite://./data/x.db"), Ok(Location::Sqlite("./data/x.db".into())));
        assert_eq!(parse_url("sqlite:/tmp/x.db?mode=rwc"), Ok(Location::Sqlite("/tmp/x.db".into())));
        assert!(matches!(parse_url("postgres://u@h/db"), Ok(Location::Postgres(_))));
        assert!(parse_url("mysql://u:secret@h/db").unwrap_err().contains("`mysql`"));
        assert!(!parse_url("mysql://u:secret@h/db").unwrap_err().contains("secret"));
        assert!(parse_url("sqlite://").is_err());
        assert!(parse_url("nonsense").is_err());
    }

    #[test]
    fn gzip_round_trip() {
        let log = CompressedLog::gzip(b"{\"format\": \"caverna-log/1\"}");
        assert_eq!(log.size, 27);
        assert_eq!(log.decompress().unwrap(), b"{\"format\": \"caverna-log/1\"}");
        let bad = CompressedLog { data: vec![1, 2, 3], ..log };
        assert!(bad.decompress().is_err());
    }

    #[test]
    fn both_stores_have_the_same_migrations() {
        let (pg, lite) = migration_names();
        assert!(!pg.is_empty());
        assert_eq!(pg, lite);
    }
}
