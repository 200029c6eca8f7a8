//! What is stored about a game: the verdict, the players with their named score rows, and the
//! game's own facts. The service derives a record from a replay; the stores write these rows as
//! they are and read them back into the same types, so "stored" and "derived" compare with `==`.

use serde::Serialize;

use chronicle_game::{Counter, GameKind, Score, Status};

/// Everything stored about one game that comes from replaying its log.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    /// The game the log records; `None` when its format names no game Chronicle knows.
    pub game: Option<GameKind>,
    /// The engine's version (empty when no engine read the log).
    pub engine_version: String,
    pub status: Status,
    /// The printed round reached (0 without a valid setup).
    pub round_reached: i16,
    /// Entries applied (the index of the first illegal entry when invalid).
    pub entries_applied: i32,
    /// From the validated setup; `None` when the envelope or setup is invalid.
    pub player_count: Option<i16>,
    /// One of the game's variants (`GameSpec::variants`), from the validated setup.
    pub variant: Option<String>,
    /// Set exactly when `status` is invalid.
    pub error: Option<ErrorRow>,
    pub meta: MetaRow,
    /// In seat order; empty when the envelope or setup is invalid.
    pub players: Vec<PlayerRow>,
    /// The component data the log declares is labelled synthetic (`Verdict::synthetic_data`).
    pub synthetic_data: bool,
    /// The game's own facts, for its statistics.
    pub facts: Facts,
}

/// The facts a game's engine records, by game. A game without fact tables has none.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Facts {
    #[default]
    None,
    Caverna(CavernaFacts),
}

impl Facts {
    /// The Caverna facts, when this is a Caverna game.
    pub fn caverna(&self) -> Option<&CavernaFacts> {
        match self {
            Facts::Caverna(f) => Some(f),
            Facts::None => None,
        }
    }
}

/// What Caverna's engine events record (tables `game_placements`, `game_furnishings`,
/// `game_weapons`, `game_expeditions` and `game_expedition_loot`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CavernaFacts {
    pub placements: Vec<PlacementRow>,
    pub furnishings: Vec<FurnishingRow>,
    pub weapons: Vec<WeaponRow>,
    pub expeditions: Vec<ExpeditionRow>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ErrorRow {
    /// `None` for the envelope and the setup.
    pub entry: Option<i32>,
    pub player: Option<i64>,
    pub code: String,
    pub message: String,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MetaRow {
    pub id: Option<String>,
    pub tournament: Option<String>,
    /// As written in the log (RFC 3339 by the format's documentation, not checked).
    pub played_at: Option<String>,
    /// Who or what recorded the game (`meta.source`; the simulator writes `simulate:` and
    /// its bots).
    pub source: Option<String>,
    /// Where the game was played (`meta.place`, free text).
    pub place: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayerRow {
    pub seat: i16,
    pub name: String,
    /// The player's own identifier across games (`setup.players[].id`), when the log gives one.
    pub id: Option<String>,
    /// The game's score rows and the total; complete games only.
    pub score: Option<Score>,
    /// 1 + the number of players with a higher total; complete games only.
    pub rank: Option<i16>,
    pub winner: bool,
    /// The final score recorded at the table (`claimed.scores`), when the log has one.
    pub claimed: Option<i64>,
    /// The game's per-player counters (`GameSpec::counters`, table `game_player_counts`);
    /// complete games of games that declare counters only.
    pub counters: Vec<Counter>,
}

/// One action-space use (`Event::Placed`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlacementRow {
    pub seq: i32,
    pub player: i16,
    pub round: i16,
    pub space: String,
    pub dwarf: i16,
    pub imitated: Option<String>,
}

/// One furnishing tile built (`Event::Furnished`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FurnishingRow {
    pub seq: i32,
    pub player: i16,
    pub round: i16,
    pub tile: String,
    pub row: i16,
    pub col: i16,
    /// `space` (furnished with an action space) or `loot` (expedition loot).
    pub via: String,
    /// The action space, when `via` is `space`.
    pub space: Option<String>,
}

/// One dwarf's weapon: the first `Event::Forged` of the dwarf, its strength after the last legal
/// entry and the number of its `Event::Expedition`s.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WeaponRow {
    pub player: i16,
    pub dwarf: i16,
    pub round_forged: Option<i16>,
    pub strength_forged: Option<i16>,
    pub final_strength: Option<i16>,
    pub expeditions: i32,
}

/// One expedition (`Event::Expedition`) with its loot item ids in log order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExpeditionRow {
    pub seq: i32,
    pub player: i16,
    pub dwarf: i16,
    pub round: i16,
    pub level: i16,
    pub strength: i16,
    pub loot: Vec<String>,
}

/// The part of a record that `chronicle reverify` reports on when it changes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Outcome {
    pub status: String,
    pub error_code: Option<String>,
    /// Per seat: every score row (`None` unless complete).
    pub scores: Vec<Option<Score>>,
    /// Seats of the winners.
    pub winners: Vec<i16>,
}

impl GameRecord {
    /// Status, error code, scores and winners.
    pub fn outcome(&self) -> Outcome {
        Outcome {
            status: self.status.id().to_owned(),
            error_code: self.error.as_ref().map(|e| e.code.clone()),
            scores: self.players.iter().map(|p| p.score.clone()).collect(),
            winners: self.players.iter().filter(|p| p.winner).map(|p| p.seat).collect(),
        }
    }

    /// The Caverna facts (empty for other games).
    pub fn caverna(&self) -> &CavernaFacts {
        static EMPTY: CavernaFacts = CavernaFacts {
            placements: Vec::new(),
            furnishings: Vec::new(),
            weapons: Vec::new(),
            expeditions: Vec::new(),
        };
        self.facts.caverna().unwrap_or(&EMPTY)
    }
}

/// Text as stored: NUL characters (legal in JSON, refused by PostgreSQL's `text`) become
/// U+FFFD in both stores; the raw log keeps the original.
pub fn clean(s: &str) -> String {
    s.replace('\0', "\u{FFFD}")
}
