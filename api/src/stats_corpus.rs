//! Stored facts → the analytics crate's input rows ([`chronicle_analytics::Corpus`]). Only
//! complete games count (an incomplete or invalid game has no outcome); ids stored as text
//! are read back with the engine's own serde names, so a row the engine would not recognise is
//! an error rather than silently dropped.

use chronicle_analytics::{Corpus, FurnishingSet, LootTaken, PlayerGame, SpaceUse, TileBuilt};
use chronicle_engine::action_space::ActionSpace;
use chronicle_engine::furnishing::Furnishing;
use chronicle_engine::notation::LootItem;
use chronicle_engine::Status;
use serde::de::DeserializeOwned;

use crate::facts::GameRecord;

fn id<T: DeserializeOwned>(text: &str, what: &str) -> Result<T, String> {
    serde_json::from_value(serde_json::Value::String(text.to_owned())).map_err(|_| format!("unknown {what} `{text}`"))
}

fn small<T: TryFrom<i64>>(n: impl Into<i64>, what: &str) -> Result<T, String> {
    let n = n.into();
    T::try_from(n).map_err(|_| format!("{what} {n} out of range"))
}

/// Adds one stored game to `corpus`; games that are not complete add nothing.
pub fn add_game(corpus: &mut Corpus, game_id: i64, r: &GameRecord) -> Result<(), String> {
    if r.status != Status::Complete {
        return Ok(());
    }
    let set = r.furnishing_set.as_deref().and_then(FurnishingSet::from_id).unwrap_or_default();
    let player_count: u8 = small(r.player_count.unwrap_or(0), "player count")?;
    for p in &r.players {
        let seat: u8 = small(p.seat, "seat")?;
        let score = p.score.ok_or_else(|| format!("game {game_id}: complete without a score"))?;
        let max_strength = r
            .weapons
            .iter()
            .filter(|w| w.player == p.seat)
            .filter_map(|w| w.final_strength)
            .max()
            .map(|s| small::<u8>(s, "strength"))
            .transpose()?;
        let expeditions = r.expeditions.iter().filter(|e| e.player == p.seat).count();
        corpus.player_games.push(PlayerGame {
            game_id,
            player_count,
            furnishing_set: set,
            tournament: r.meta.tournament.clone(),
            played_at: r.meta.played_at.clone(),
            seat,
            total: score.total,
            rank: small(p.rank.unwrap_or(1), "rank")?,
            winner: p.winner,
            max_strength,
            expeditions: small(i64::try_from(expeditions).unwrap_or(i64::MAX), "expeditions")?,
        });
    }
    for f in &r.furnishings {
        let tile: Furnishing = id(&f.tile, "furnishing tile")?;
        corpus.tiles.push(TileBuilt { game_id, seat: small(f.player, "seat")?, tile, round: small(f.round, "round")? });
    }
    for e in &r.expeditions {
        for item in &e.loot {
            let item: LootItem = id(item, "loot item")?;
            corpus.loot.push(LootTaken { game_id, seat: small(e.player, "seat")?, item });
        }
    }
    for u in &r.placements {
        let space: ActionSpace = id(&u.space, "action space")?;
        corpus.spaces.push(SpaceUse {
            game_id,
            seat: small(u.player, "seat")?,
            round: small(u.round, "round")?,
            space,
        });
    }
    Ok(())
}
