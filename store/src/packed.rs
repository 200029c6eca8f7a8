//! The compact form of a game's facts and of a player's score sheet: one text per game
//! (`game_facts.facts`) and one per player (`game_players.sheet`) instead of a row per fact, per
//! score row and per counter (about 170 rows for a 4-player Caverna game). Nothing reads them in
//! SQL: they are written and read whole, with the game or the player they belong to.
//!
//! The texts are JSON with positional arrays (the order of each tuple is fixed below and never
//! changes; a new form would get a new `v`). Rows written before the compact form are read from
//! the old tables (`common.rs`, the fallbacks of `sheets_of` and `facts_of`).

use chronicle_game::{Counter, ScoreRow};
use serde::{Deserialize, Serialize};

use crate::record::{CavernaFacts, ExpeditionRow, FurnishingRow, PlacementRow, WeaponRow};

/// The form this build writes.
const VERSION: u8 = 1;

/// A player's score rows (printed order) and counters (spec order).
#[derive(Debug, Default, Serialize, Deserialize)]
struct Sheet {
    v: u8,
    /// `[row id, points]`.
    #[serde(default)]
    r: Vec<(String, i64)>,
    /// `[counter id, value]`.
    #[serde(default)]
    c: Vec<(String, i64)>,
}

/// A player's sheet as stored.
pub(crate) fn sheet_text(rows: &[ScoreRow], counters: &[Counter]) -> String {
    let sheet = Sheet {
        v: VERSION,
        r: rows.iter().map(|r| (r.id.clone(), r.points)).collect(),
        c: counters.iter().map(|c| (c.id.clone(), c.value)).collect(),
    };
    serde_json::to_string(&sheet).unwrap_or_default()
}

/// A stored sheet read back: score rows and counters.
pub(crate) fn sheet_from(text: &str) -> Result<(Vec<ScoreRow>, Vec<Counter>), String> {
    let sheet: Sheet = serde_json::from_str(text).map_err(|e| format!("a stored score sheet: {e}"))?;
    known(sheet.v)?;
    let rows = sheet.r.into_iter().map(|(id, points)| ScoreRow { id, points }).collect();
    let counters = sheet.c.into_iter().map(|(id, value)| Counter { id, value }).collect();
    Ok((rows, counters))
}

/// `[seq, player, round, space, dwarf, imitated]`.
type Placement = (i32, i16, i16, String, i16, Option<String>);
/// `[seq, player, round, tile, row, col, via, space]`.
type Furnishing = (i32, i16, i16, String, i16, i16, String, Option<String>);
/// `[player, dwarf, round forged, strength forged, final strength, expeditions]`.
type Weapon = (i16, i16, Option<i16>, Option<i16>, Option<i16>, i32);
/// `[seq, player, dwarf, round, level, strength, loot]`.
type Expedition = (i32, i16, i16, i16, i16, i16, Vec<String>);

/// Caverna's facts of one game.
#[derive(Debug, Default, Serialize, Deserialize)]
struct Facts {
    v: u8,
    #[serde(default)]
    p: Vec<Placement>,
    #[serde(default)]
    f: Vec<Furnishing>,
    #[serde(default)]
    w: Vec<Weapon>,
    #[serde(default)]
    e: Vec<Expedition>,
}

/// A game's facts as stored.
pub(crate) fn facts_text(facts: &CavernaFacts) -> String {
    let packed = Facts {
        v: VERSION,
        p: facts
            .placements
            .iter()
            .map(|x| (x.seq, x.player, x.round, x.space.clone(), x.dwarf, x.imitated.clone()))
            .collect(),
        f: facts
            .furnishings
            .iter()
            .map(|x| (x.seq, x.player, x.round, x.tile.clone(), x.row, x.col, x.via.clone(), x.space.clone()))
            .collect(),
        w: facts
            .weapons
            .iter()
            .map(|x| (x.player, x.dwarf, x.round_forged, x.strength_forged, x.final_strength, x.expeditions))
            .collect(),
        e: facts
            .expeditions
            .iter()
            .map(|x| (x.seq, x.player, x.dwarf, x.round, x.level, x.strength, x.loot.clone()))
            .collect(),
    };
    serde_json::to_string(&packed).unwrap_or_default()
}

/// Stored facts read back.
pub(crate) fn facts_from(text: &str) -> Result<CavernaFacts, String> {
    let packed: Facts = serde_json::from_str(text).map_err(|e| format!("a game's stored facts: {e}"))?;
    known(packed.v)?;
    Ok(CavernaFacts {
        placements: packed
            .p
            .into_iter()
            .map(|(seq, player, round, space, dwarf, imitated)| PlacementRow {
                seq,
                player,
                round,
                space,
                dwarf,
                imitated,
            })
            .collect(),
        furnishings: packed
            .f
            .into_iter()
            .map(|(seq, player, round, tile, row, col, via, space)| FurnishingRow {
                seq,
                player,
                round,
                tile,
                row,
                col,
                via,
                space,
            })
            .collect(),
        weapons: packed
            .w
            .into_iter()
            .map(|(player, dwarf, round_forged, strength_forged, final_strength, expeditions)| WeaponRow {
                player,
                dwarf,
                round_forged,
                strength_forged,
                final_strength,
                expeditions,
            })
            .collect(),
        expeditions: packed
            .e
            .into_iter()
            .map(|(seq, player, dwarf, round, level, strength, loot)| ExpeditionRow {
                seq,
                player,
                dwarf,
                round,
                level,
                strength,
                loot,
            })
            .collect(),
    })
}

fn known(version: u8) -> Result<(), String> {
    if version == VERSION {
        Ok(())
    } else {
        Err(format!("stored in form {version}, which this build does not read (it writes form {VERSION})"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What is packed reads back the same, every field and every optional one both ways.
    #[test]
    fn packed_facts_and_sheets_read_back_unchanged() {
        let facts = CavernaFacts {
            placements: vec![
                PlacementRow { seq: 0, player: 1, round: 1, space: "logging".into(), dwarf: 0, imitated: None },
                PlacementRow {
                    seq: 3,
                    player: 0,
                    round: 2,
                    space: "imitation".into(),
                    dwarf: 1,
                    imitated: Some("ore_mining".into()),
                },
            ],
            furnishings: vec![FurnishingRow {
                seq: 2,
                player: 0,
                round: 1,
                tile: "weaving_parlor".into(),
                row: 1,
                col: 3,
                via: "space".into(),
                space: Some("housework".into()),
            }],
            weapons: vec![WeaponRow {
                player: 1,
                dwarf: 0,
                round_forged: Some(4),
                strength_forged: Some(3),
                final_strength: None,
                expeditions: 2,
            }],
            expeditions: vec![ExpeditionRow {
                seq: 5,
                player: 1,
                dwarf: 0,
                round: 5,
                level: 3,
                strength: 4,
                loot: vec!["wood".into(), "dog".into()],
            }],
        };
        assert_eq!(facts_from(&facts_text(&facts)), Ok(facts));
        assert_eq!(facts_from(&facts_text(&CavernaFacts::default())), Ok(CavernaFacts::default()));
        let rows = vec![ScoreRow { id: "dwarfs".into(), points: 5 }, ScoreRow { id: "gold".into(), points: -3 }];
        let counters = vec![Counter { id: "cities".into(), value: 2 }];
        assert_eq!(sheet_from(&sheet_text(&rows, &counters)), Ok((rows, counters)));
        assert!(sheet_from(r#"{"v":9}"#).unwrap_err().contains("form 9"));
        assert!(facts_from("[").is_err());
    }
}
