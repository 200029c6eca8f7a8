//! What a replay says about a log, in the terms every game shares.

use serde::Serialize;

use crate::kind::GameKind;

/// How far a log is legal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// Every entry legal and the game over: scored.
    Complete,
    /// Every entry legal, the game not over.
    Incomplete,
    /// An entry (or the envelope, or the setup) is illegal.
    Invalid,
}

impl Status {
    /// The stable id, as stored and shown.
    pub const fn id(self) -> &'static str {
        match self {
            Status::Complete => "complete",
            Status::Incomplete => "incomplete",
            Status::Invalid => "invalid",
        }
    }

    pub fn from_id(id: &str) -> Option<Status> {
        match id {
            "complete" => Some(Status::Complete),
            "incomplete" => Some(Status::Incomplete),
            "invalid" => Some(Status::Invalid),
            _ => None,
        }
    }
}

/// Where and why a log is invalid. `entry` is `None` for the envelope and the setup.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LogError {
    pub entry: Option<usize>,
    pub player: Option<usize>,
    /// The game's stable error code (snake case).
    pub code: String,
    /// At most [`MAX_MESSAGE_CHARS`] characters when made by [`LogError::new`].
    pub message: String,
}

/// The longest message a verdict carries, in characters. Messages quote the log (an unknown
/// id, a field's name), and a log may hold a string of megabytes: a verdict made by
/// [`LogError::new`] keeps the message's start and says how much was left out, so that a
/// hostile log gets a short answer and a short stored row. The engines' longest messages of
/// their own (an unknown id with the list of the known ones) are a few hundred characters.
pub const MAX_MESSAGE_CHARS: usize = 2_000;

impl LogError {
    /// A verdict's error, its message cut to [`MAX_MESSAGE_CHARS`] characters.
    pub fn new(entry: Option<usize>, player: Option<usize>, code: &str, message: &str) -> LogError {
        LogError { entry, player, code: code.to_owned(), message: bounded_message(message) }
    }
}

/// `message`, or its first [`MAX_MESSAGE_CHARS`] characters followed by how many more there
/// were.
pub fn bounded_message(message: &str) -> String {
    match message.char_indices().nth(MAX_MESSAGE_CHARS) {
        None => message.to_owned(),
        Some((cut, _)) => {
            let more = message[cut..].chars().count();
            format!("{}… ({more} more characters)", &message[..cut])
        }
    }
}

/// The optional `meta` of a log, common to every format: every field optional, no other field
/// (the engines read a log's `meta` into it and report it in their verdicts).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Meta {
    pub id: Option<String>,
    pub tournament: Option<String>,
    pub played_at: Option<String>,
    /// Where the game was played (free text: a club, a city, an event's venue).
    pub place: Option<String>,
    /// Who or what recorded the game (free text; the simulator writes `simulate:` and its bots).
    pub source: Option<String>,
}

/// One score row's points.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ScoreRow {
    /// A row id of the game's [`crate::GameSpec::score_rows`].
    pub id: String,
    pub points: i64,
}

/// A player's final score: the rows in printed order and their sum.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Score {
    pub rows: Vec<ScoreRow>,
    pub total: i64,
}

impl Score {
    /// A score from its rows as `(row id, points)` in printed order and its total: the one
    /// builder every engine's score breakdown goes through.
    pub fn from_rows<'a>(rows: impl IntoIterator<Item = (&'a str, i64)>, total: i64) -> Score {
        Score { rows: rows.into_iter().map(|(id, points)| ScoreRow { id: id.to_owned(), points }).collect(), total }
    }

    /// The points of a row (`None` for an id this score does not have).
    pub fn row(&self, id: &str) -> Option<i64> {
        self.rows.iter().find(|r| r.id == id).map(|r| r.points)
    }
}

/// One named per-player count (an id of the game's [`crate::GameSpec::counters`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Counter {
    pub id: String,
    pub value: i64,
}

impl Counter {
    pub fn new(id: &str, value: i64) -> Counter {
        Counter { id: id.to_owned(), value }
    }
}

/// One player of a replayed log.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PlayerVerdict {
    pub name: String,
    /// The player's own identifier across games, when the log gives one (`setup.players[].id`).
    pub id: Option<String>,
    /// Complete games only.
    pub score: Option<Score>,
    /// 1 + the number of players with a higher total; complete games only.
    pub rank: Option<u16>,
    pub winner: bool,
    /// The total recorded at the table (`claimed.scores`), when the log has one.
    pub claimed: Option<i64>,
    /// The game's counters (`GameSpec::counters`, in that order), complete games only; empty
    /// for games whose statistics read their own facts (Caverna).
    pub counters: Vec<Counter>,
}

/// The game-agnostic result of replaying a log.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Verdict {
    /// The game the log records; `None` when its format names no game Chronicle knows.
    pub game: Option<GameKind>,
    /// The engine's version (empty when no engine read the log).
    pub engine_version: String,
    pub status: Status,
    /// Set exactly when `status` is invalid.
    pub error: Option<LogError>,
    pub meta: Meta,
    /// The setup's variant (one of the spec's variants), when the setup is valid.
    pub variant: Option<String>,
    /// From the validated setup; `None` when the envelope or setup is invalid.
    pub player_count: Option<u8>,
    /// The round reached (0 without a valid setup).
    pub round_reached: u16,
    /// Entries applied (the index of the first illegal entry when invalid).
    pub entries_applied: usize,
    /// In seat order; empty when the envelope or setup is invalid.
    pub players: Vec<PlayerVerdict>,
    /// The component data the log declares is labelled synthetic (made-up test data, not the
    /// printed game's: [`SYNTHETIC_LABEL`]): figures from such games say nothing of the printed
    /// game, and statistics count them apart. Left out of the JSON when false.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub synthetic_data: bool,
}

/// The word every synthetic component set's `source` carries (Village's synthetic table, Above
/// and Below's synthetic catalogue and board numbers).
pub const SYNTHETIC_LABEL: &str = "synthetic";

/// Whether declared component data with this `source` is synthetic (see
/// [`Verdict::synthetic_data`]).
pub fn is_synthetic(source: Option<&str>) -> bool {
    source.is_some_and(|s| s.to_ascii_lowercase().contains(SYNTHETIC_LABEL))
}

impl serde::Serialize for GameKind {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.id())
    }
}

/// `meta.source` of a simulated game: `simulate:` and the bots of its seats, each once in seat
/// order (`simulate:weapons+random`), so simulated games can be selected or left out.
pub fn simulated_source<'a>(bots: impl IntoIterator<Item = &'a str>) -> String {
    let mut ids: Vec<&str> = Vec::new();
    for id in bots {
        if !ids.contains(&id) {
            ids.push(id);
        }
    }
    format!("simulate:{}", ids.join("+"))
}

/// Ranks of totals: 1 + the number of strictly higher totals (ties share a rank).
/// The players of a verdict from what every engine knows, seat by seat: the names, the final
/// scores (`None` until the game is over), the winners' seats and the claimed totals; ranks come
/// from the scores' totals ([`rank`]).
pub fn player_verdicts(
    names: impl IntoIterator<Item = String>,
    scores: Option<Vec<Score>>,
    winners: &[usize],
    claimed: Option<&[i64]>,
) -> Vec<PlayerVerdict> {
    let ranks = scores.as_ref().map(|s| rank(&s.iter().map(|s| s.total).collect::<Vec<_>>()));
    names
        .into_iter()
        .enumerate()
        .map(|(seat, name)| PlayerVerdict {
            name,
            id: None,
            score: scores.as_ref().and_then(|s| s.get(seat)).cloned(),
            rank: ranks.as_ref().and_then(|r| r.get(seat).copied()),
            winner: winners.contains(&seat),
            claimed: claimed.and_then(|c| c.get(seat).copied()),
            counters: Vec::new(),
        })
        .collect()
}

pub fn rank(totals: &[i64]) -> Vec<u16> {
    totals.iter().map(|t| 1 + u16::try_from(totals.iter().filter(|o| *o > t).count()).unwrap_or(u16::MAX - 1)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn simulated_sources_name_each_bot_once_in_seat_order() {
        assert_eq!(simulated_source(["weapons", "random", "weapons"]), "simulate:weapons+random");
        assert_eq!(simulated_source(["random"]), "simulate:random");
    }

    #[test]
    fn ties_share_a_rank() {
        assert_eq!(rank(&[50, 61, 50, 40]), vec![2, 1, 2, 4]);
        assert_eq!(rank(&[]), Vec::<u16>::new());
    }

    #[test]
    fn a_long_message_keeps_its_start_and_says_how_much_was_cut() {
        let short = "unknown id `x`";
        assert_eq!(LogError::new(Some(3), Some(1), "unknown_id", short).message, short);
        let exact = "é".repeat(MAX_MESSAGE_CHARS);
        assert_eq!(bounded_message(&exact), exact);
        let long = format!("unknown id `{}`", "é".repeat(5_000_000));
        let e = LogError::new(Some(0), None, "unknown_id", &long);
        let kept: String = long.chars().take(MAX_MESSAGE_CHARS).collect();
        let cut = long.chars().count() - MAX_MESSAGE_CHARS;
        assert_eq!(e.message, format!("{kept}… ({cut} more characters)"));
        assert_eq!((e.entry, e.player, e.code.as_str()), (Some(0), None, "unknown_id"));
    }

    #[test]
    fn status_ids_round_trip() {
        for s in [Status::Complete, Status::Incomplete, Status::Invalid] {
            assert_eq!(Status::from_id(s.id()), Some(s));
            assert_eq!(serde_json::to_value(s).ok(), Some(serde_json::Value::String(s.id().into())));
        }
    }
}
