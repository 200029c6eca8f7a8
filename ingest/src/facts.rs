//! What is stored about a game, derived in one place from its engine's replay: the
//! game-agnostic [`Verdict`] becomes the record's verdict and players, and each game's events
//! become its own facts (Caverna: [`caverna_facts`]). Nothing here knows a rule; it only
//! reshapes what an engine says into rows.

use std::collections::BTreeMap;

use chronicle_caverna::events::{Event, Via};
use chronicle_caverna::Replay;
use chronicle_game::{Counter, Verdict};
use chronicle_store::record::{
    clean, CavernaFacts, ErrorRow, ExpeditionRow, Facts, FurnishingRow, GameRecord, MetaRow, PlacementRow, PlayerRow,
    WeaponRow,
};

fn small(n: usize) -> i16 {
    i16::try_from(n).unwrap_or(i16::MAX)
}

fn seq(n: usize) -> i32 {
    i32::try_from(n).unwrap_or(i32::MAX)
}

/// The record of a verdict and the game's facts.
pub fn record(v: &Verdict, facts: Facts) -> GameRecord {
    GameRecord {
        game: v.game,
        engine_version: v.engine_version.clone(),
        status: v.status,
        round_reached: i16::try_from(v.round_reached).unwrap_or(i16::MAX),
        entries_applied: seq(v.entries_applied),
        player_count: v.player_count.map(i16::from),
        variant: v.variant.clone(),
        error: v.error.as_ref().map(|e| ErrorRow {
            entry: e.entry.map(seq),
            player: e.player.map(|p| i64::try_from(p).unwrap_or(i64::MAX)),
            code: e.code.clone(),
            message: clean(&e.message),
        }),
        meta: MetaRow {
            id: v.meta.id.as_deref().map(clean),
            tournament: v.meta.tournament.as_deref().map(clean),
            played_at: v.meta.played_at.as_deref().map(clean),
            source: v.meta.source.as_deref().map(clean),
            place: v.meta.place.as_deref().map(clean),
        },
        synthetic_data: v.synthetic_data,
        players: v
            .players
            .iter()
            .enumerate()
            .map(|(seat, p)| PlayerRow {
                seat: small(seat),
                name: clean(&p.name),
                id: p.id.as_deref().map(clean),
                score: p.score.clone(),
                rank: p.rank.map(|r| i16::try_from(r).unwrap_or(i16::MAX)),
                winner: p.winner,
                claimed: p.claimed,
                counters: p.counters.iter().map(|c| Counter { id: clean(&c.id), value: c.value }).collect(),
            })
            .collect(),
        facts,
    }
}

/// The facts of a Caverna replay, from its engine's events.
pub fn caverna_facts(r: &Replay) -> CavernaFacts {
    let events = r.game.as_ref().map_or(&[][..], |g| g.events());
    let mut facts = CavernaFacts::default();
    for event in events {
        match event {
            Event::Placed { player, round, space, dwarf, imitated } => facts.placements.push(PlacementRow {
                seq: seq(facts.placements.len()),
                player: small(*player),
                round: i16::from(*round),
                space: space.id().to_owned(),
                dwarf: small(*dwarf),
                imitated: imitated.map(|s| s.id().to_owned()),
            }),
            Event::Furnished { player, round, tile, at, via } => {
                let (via, space) = match via {
                    Via::Space(s) => ("space", Some(s.id().to_owned())),
                    Via::Loot => ("loot", None),
                };
                facts.furnishings.push(FurnishingRow {
                    seq: seq(facts.furnishings.len()),
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
                facts.expeditions.push(ExpeditionRow {
                    seq: seq(facts.expeditions.len()),
                    player: small(*player),
                    dwarf: small(*dwarf),
                    round: i16::from(*round),
                    level: small(*level),
                    strength: i16::from(*strength),
                    loot: loot.iter().map(|item| item.id().to_owned()).collect(),
                })
            }
        }
    }
    facts.weapons = weapons(r, events);
    facts
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
    use crate::games::record_of;
    use chronicle_game::Status;

    #[test]
    fn invalid_document_has_no_players_or_facts() {
        let rec = record_of(b"{\"format\": 1}", None);
        assert_eq!(rec.status, Status::Invalid);
        assert_eq!(rec.error.as_ref().map(|e| e.code.as_str()), Some("bad_format"));
        assert!(rec.players.is_empty() && rec.caverna().placements.is_empty() && rec.caverna().weapons.is_empty());
        assert_eq!(rec.player_count, None);
        assert_eq!(rec.game, None);
    }

    #[test]
    fn names_lose_nul_characters() {
        let log =
            br#"{"format": "caverna-log/1", "setup": {"players": [{"name": "A\u0000"}], "seed": 1}, "entries": []}"#;
        let rec = record_of(log, Some("caverna-log/1"));
        assert_eq!(rec.players[0].name, "A\u{FFFD}");
    }
}
