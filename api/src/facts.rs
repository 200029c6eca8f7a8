//! What is stored about a game, derived in one place from the engine's [`Replay`]: the verdict,
//! the players with their score rows, and the facts recorded by the engine's events
//! ([`chronicle_engine::events::Event`]). Nothing here knows a rule of Caverna; it only
//! reshapes what the engine says into rows. The stores write these rows as they are and read
//! them back into the same types, so "stored" and "derived" compare with `==`.

use std::collections::BTreeMap;

use serde::Serialize;

use chronicle_engine::events::{Event, Via};
use chronicle_engine::{Replay, ScoreBreakdown, Status, ENGINE_VERSION};

/// Everything stored about one game that comes from replaying its log.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    pub engine_version: String,
    pub status: Status,
    /// The printed round reached (0 without a valid setup).
    pub round_reached: i16,
    /// Entries applied (the index of the first illegal entry when invalid).
    pub entries_applied: i32,
    /// From the validated setup; `None` when the envelope or setup is invalid.
    pub player_count: Option<i16>,
    /// `full` or `introductory`, from the validated setup.
    pub furnishing_set: Option<String>,
    /// Set exactly when `status` is invalid.
    pub error: Option<ErrorRow>,
    pub meta: MetaRow,
    /// In seat order; empty when the envelope or setup is invalid.
    pub players: Vec<PlayerRow>,
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
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayerRow {
    pub seat: i16,
    pub name: String,
    /// Every score-pad row and the total; complete games only.
    pub score: Option<ScoreBreakdown>,
    /// 1 + the number of players with a higher total; complete games only.
    pub rank: Option<i16>,
    pub winner: bool,
    /// The final score recorded at the table (`claimed.scores`), when the log has one.
    pub claimed: Option<i64>,
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
    /// Per seat: every score row and the total (`None` unless complete).
    pub scores: Vec<Option<ScoreBreakdown>>,
    /// Seats of the winners.
    pub winners: Vec<i16>,
}

/// The stable string of a status, as stored.
pub fn status_str(s: Status) -> &'static str {
    match s {
        Status::Complete => "complete",
        Status::Incomplete => "incomplete",
        Status::Invalid => "invalid",
    }
}

/// The status of a stored string (`None` for anything else).
pub fn parse_status(s: &str) -> Option<Status> {
    match s {
        "complete" => Some(Status::Complete),
        "incomplete" => Some(Status::Incomplete),
        "invalid" => Some(Status::Invalid),
        _ => None,
    }
}

/// Text as stored: NUL characters (legal in JSON, refused by PostgreSQL's `text`) become
/// U+FFFD in both stores; the raw log keeps the original.
pub fn clean(s: &str) -> String {
    s.replace('\0', "\u{FFFD}")
}

fn small(n: usize) -> i16 {
    i16::try_from(n).unwrap_or(i16::MAX)
}

fn seq(n: usize) -> i32 {
    i32::try_from(n).unwrap_or(i32::MAX)
}

/// The id string of a value that serializes as a string (engine ids).
fn id_of<T: Serialize>(t: &T) -> String {
    match serde_json::to_value(t) {
        Ok(serde_json::Value::String(s)) => s,
        Ok(other) => other.to_string(),
        Err(_) => String::new(),
    }
}

impl GameRecord {
    /// The record of a replay.
    pub fn from_replay(r: &Replay) -> GameRecord {
        let game = r.game.as_ref();
        let error = r.error.as_ref().map(|e| ErrorRow {
            entry: e.entry.map(seq),
            player: e.player.map(|p| i64::try_from(p).unwrap_or(i64::MAX)),
            code: e.code.as_str().to_owned(),
            message: clean(&e.message),
        });
        let meta = MetaRow {
            id: r.meta.id.as_deref().map(clean),
            tournament: r.meta.tournament.as_deref().map(clean),
            played_at: r.meta.played_at.as_deref().map(clean),
        };
        let players = players(r);
        let events = game.map_or(&[][..], |g| g.events());
        let mut record = GameRecord {
            engine_version: ENGINE_VERSION.to_owned(),
            status: r.status,
            round_reached: i16::from(r.round()),
            entries_applied: seq(r.entries_applied),
            player_count: game.map(|g| small(g.setup().players())),
            furnishing_set: game.map(|g| id_of(&g.setup().furnishings)),
            error,
            meta,
            players,
            placements: Vec::new(),
            furnishings: Vec::new(),
            weapons: Vec::new(),
            expeditions: Vec::new(),
        };
        record.add_events(events);
        record.weapons = weapons(r, events);
        record
    }

    fn add_events(&mut self, events: &[Event]) {
        for event in events {
            match event {
                Event::Placed { player, round, space, dwarf, imitated } => self.placements.push(PlacementRow {
                    seq: seq(self.placements.len()),
                    player: small(*player),
                    round: i16::from(*round),
                    space: space.id(),
                    dwarf: small(*dwarf),
                    imitated: imitated.map(|s| s.id()),
                }),
                Event::Furnished { player, round, tile, at, via } => {
                    let (via, space) = match via {
                        Via::Space(s) => ("space", Some(s.id())),
                        Via::Loot => ("loot", None),
                    };
                    self.furnishings.push(FurnishingRow {
                        seq: seq(self.furnishings.len()),
                        player: small(*player),
                        round: i16::from(*round),
                        tile: tile.id().to_owned(),
                        row: i16::from(at.row),
                        col: i16::from(at.col),
                        via: via.to_owned(),
                        space,
                    });
                }
                Event::Forged { .. } => {}
                Event::Expedition { player, round, dwarf, level, strength, loot } => {
                    self.expeditions.push(ExpeditionRow {
                        seq: seq(self.expeditions.len()),
                        player: small(*player),
                        dwarf: small(*dwarf),
                        round: i16::from(*round),
                        level: small(*level),
                        strength: i16::from(*strength),
                        loot: loot.iter().map(id_of).collect(),
                    })
                }
            }
        }
    }

    /// Status, error code, scores and winners.
    pub fn outcome(&self) -> Outcome {
        Outcome {
            status: status_str(self.status).to_owned(),
            error_code: self.error.as_ref().map(|e| e.code.clone()),
            scores: self.players.iter().map(|p| p.score).collect(),
            winners: self.players.iter().filter(|p| p.winner).map(|p| p.seat).collect(),
        }
    }
}

fn players(r: &Replay) -> Vec<PlayerRow> {
    let Some(game) = &r.game else { return Vec::new() };
    let scores = r.scores.as_deref();
    game.players()
        .iter()
        .enumerate()
        .map(|(seat, p)| {
            let score = scores.and_then(|s| s.get(seat)).map(|s| s.score);
            let rank = score.map(|mine| {
                let better = scores.unwrap_or(&[]).iter().filter(|o| o.score.total > mine.total).count();
                small(better + 1)
            });
            PlayerRow {
                seat: small(seat),
                name: clean(&p.name),
                score,
                rank,
                winner: r.winners.contains(&seat),
                claimed: r.claimed.as_ref().and_then(|c| c.get(seat).copied()),
            }
        })
        .collect()
}

/// Per dwarf: the first forging (round, strength) and the number of expeditions.
#[derive(Default)]
struct DwarfWeapon {
    forged: Option<(u8, u8)>,
    expeditions: usize,
}

fn weapons(r: &Replay, events: &[Event]) -> Vec<WeaponRow> {
    let mut by_dwarf: BTreeMap<(usize, usize), DwarfWeapon> = BTreeMap::new();
    for event in events {
        match *event {
            Event::Forged { player, round, dwarf, strength } => {
                by_dwarf.entry((player, dwarf)).or_default().forged.get_or_insert((round, strength));
            }
            Event::Expedition { player, dwarf, .. } => by_dwarf.entry((player, dwarf)).or_default().expeditions += 1,
            _ => {}
        }
    }
    let finals = |p: usize, d: usize| -> Option<u8> { r.game.as_ref()?.players().get(p)?.dwarfs.get(d)?.weapon };
    if let Some(game) = &r.game {
        for (p, player) in game.players().iter().enumerate() {
            for (d, dwarf) in player.dwarfs.iter().enumerate() {
                if dwarf.weapon.is_some() {
                    by_dwarf.entry((p, d)).or_default();
                }
            }
        }
    }
    by_dwarf
        .into_iter()
        .map(|((p, d), w)| WeaponRow {
            player: small(p),
            dwarf: small(d),
            round_forged: w.forged.map(|(round, _)| i16::from(round)),
            strength_forged: w.forged.map(|(_, strength)| i16::from(strength)),
            final_strength: finals(p, d).map(i16::from),
            expeditions: seq(w.expeditions),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn invalid_document_has_no_players_or_facts() {
        let r = chronicle_engine::replay(b"{\"format\": 1}");
        let rec = GameRecord::from_replay(&r);
        assert_eq!(rec.status, Status::Invalid);
        assert_eq!(rec.error.as_ref().map(|e| e.code.as_str()), Some("bad_format"));
        assert!(rec.players.is_empty() && rec.placements.is_empty() && rec.weapons.is_empty());
        assert_eq!(rec.player_count, None);
    }

    #[test]
    fn names_lose_nul_characters() {
        let log =
            br#"{"format": "caverna-log/1", "setup": {"players": [{"name": "A\u0000"}], "seed": 1}, "entries": []}"#;
        let rec = GameRecord::from_replay(&chronicle_engine::replay(log));
        assert_eq!(rec.players[0].name, "A\u{FFFD}");
    }
}
