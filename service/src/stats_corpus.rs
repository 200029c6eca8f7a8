//! Stored Caverna facts → the analytics crate's input rows ([`chronicle_analytics::Corpus`]).
//! Only complete Caverna games count (an incomplete or invalid game has no outcome; the other
//! games have statistics of their own); ids stored as text are read back with the engine's own
//! ids (`from_id`), so a row the engine would not recognise is an error rather than silently
//! dropped.

use std::collections::HashMap;

use chronicle_analytics::outcomes::main_source;
use chronicle_analytics::ratings::player_key;
use chronicle_analytics::skill::{SeatFeatures, SkillGame, SkillSeat};
use chronicle_analytics::{Corpus, FurnishingSet, LootTaken, PlayerGame, SpaceUse, TileBuilt};
use chronicle_caverna::action_space::ActionSpace;
use chronicle_caverna::furnishing::Furnishing;
use chronicle_caverna::notation::LootItem;
use chronicle_game::{GameKind, Status};
use chronicle_store::record::GameRecord;

fn id<T>(text: &str, what: &str, from_id: impl Fn(&str) -> Option<T>) -> Result<T, String> {
    from_id(text).ok_or_else(|| format!("unknown {what} `{text}`"))
}

fn small<T: TryFrom<i64>>(n: impl Into<i64>, what: &str) -> Result<T, String> {
    let n = n.into();
    T::try_from(n).map_err(|_| format!("{what} {n} out of range"))
}

/// Merged player identities: alias key → canonical key (`chronicle players merge`).
pub type Aliases = HashMap<String, String>;

/// The identity key of a seat: the log's player id or else its normalised name
/// ([`player_key`]), then its canonical key when it was merged into another.
pub fn seat_key(aliases: &Aliases, id: Option<&str>, name: &str) -> String {
    let key = player_key(id, name);
    aliases.get(&key).cloned().unwrap_or(key)
}

/// The identity key a person typed: a key as the ratings table shows it (`id:…`, `name:…`), or
/// else a player's name (normalised). `None` for a text that names nobody.
pub fn key_of(text: &str) -> Option<String> {
    let text = text.trim();
    let key =
        if text.starts_with("id:") || text.starts_with("name:") { text.to_owned() } else { player_key(None, text) };
    (key != "id:" && key != "name:").then_some(key)
}

/// A stored complete game as the skill statistics and the questions read it, with its game
/// (`None` for a game that is not complete); merged identities are resolved when the
/// statistics are computed.
pub fn skill_game(game_id: i64, r: &GameRecord) -> Result<Option<(GameKind, SkillGame)>, String> {
    let Some(kind) = r.game.filter(|_| r.status == Status::Complete) else { return Ok(None) };
    let spec = kind.spec();
    let facts = r.caverna();
    let mut seats = Vec::with_capacity(r.players.len());
    for p in &r.players {
        let score = p.score.as_ref().ok_or_else(|| format!("game {game_id}: complete without a score"))?;
        let mut tiles = Vec::new();
        for f in facts.furnishings.iter().filter(|f| f.player == p.seat) {
            let tile = id(&f.tile, "furnishing tile", Furnishing::from_id)?;
            if !tiles.contains(&tile) {
                tiles.push(tile);
            }
        }
        let armed = facts.weapons.iter().any(|w| w.player == p.seat && w.final_strength.is_some());
        let first_armed = first_armed(facts, p.seat)?;
        let rows: Vec<Option<i64>> = spec.score_rows.iter().map(|row| score.row(row.id)).collect();
        let counters =
            spec.counters.iter().map(|c| p.counters.iter().find(|x| x.id == c.id).map_or(0, |x| x.value)).collect();
        seats.push(SkillSeat {
            player: player_key(p.id.as_deref(), &p.name),
            name: p.name.clone(),
            rank: small(p.rank.unwrap_or(1), "rank")?,
            winner: p.winner,
            total: score.total,
            tiles,
            armed,
            features: SeatFeatures {
                main_source: main_source(&rows).map(|i| small::<u8>(i as i64, "score row")).transpose()?,
                counters,
                first_armed,
            },
        });
    }
    let game = SkillGame {
        game_id,
        played_at: r.meta.played_at.clone(),
        source: r.meta.source.clone(),
        synthetic_data: r.synthetic_data,
        seats,
    };
    Ok(Some((kind, game)))
}

/// The round in which the player at `seat` first held a weapon (the first forged); `None`
/// when never armed.
fn first_armed(facts: &chronicle_store::record::CavernaFacts, seat: i16) -> Result<Option<u8>, String> {
    let rounds = facts.weapons.iter().filter(|w| w.player == seat).filter_map(|w| w.round_forged);
    rounds.min().map(|r| small::<u8>(r, "round")).transpose()
}

/// Whether a game's skill statistics carry the strategies' effects (Caverna's tiles and arms).
pub fn has_strategies(kind: GameKind) -> bool {
    kind == GameKind::Caverna
}

/// Adds one stored game (stored by `uploader`) to `corpus`; games that are not complete add
/// nothing.
pub fn add_game(corpus: &mut Corpus, game_id: i64, uploader: Option<&str>, r: &GameRecord) -> Result<(), String> {
    if r.status != Status::Complete || r.game != Some(GameKind::Caverna) {
        return Ok(());
    }
    let facts = r.caverna();
    let set = r.variant.as_deref().and_then(FurnishingSet::from_id).unwrap_or_default();
    let player_count: u8 = small(r.player_count.unwrap_or(0), "player count")?;
    for p in &r.players {
        let seat: u8 = small(p.seat, "seat")?;
        let score = p.score.as_ref().ok_or_else(|| format!("game {game_id}: complete without a score"))?;
        let max_strength = facts
            .weapons
            .iter()
            .filter(|w| w.player == p.seat)
            .filter_map(|w| w.final_strength)
            .max()
            .map(|s| small::<u8>(s, "strength"))
            .transpose()?;
        let expeditions = facts.expeditions.iter().filter(|e| e.player == p.seat).count();
        let first_armed = first_armed(facts, p.seat)?;
        let first_expedition = facts.expeditions.iter().filter(|e| e.player == p.seat).map(|e| e.round).min();
        let first_expedition = first_expedition.map(|r| small::<u8>(r, "round")).transpose()?;
        corpus.player_games.push(PlayerGame {
            game_id,
            player_count,
            furnishing_set: set,
            tournament: r.meta.tournament.clone(),
            source: r.meta.source.clone(),
            uploader: uploader.map(str::to_owned),
            player: Some(player_key(p.id.as_deref(), &p.name)),
            played_at: r.meta.played_at.clone(),
            seat,
            total: score.total,
            rank: small(p.rank.unwrap_or(1), "rank")?,
            winner: p.winner,
            max_strength,
            first_armed,
            first_expedition,
            expeditions: small(i64::try_from(expeditions).unwrap_or(i64::MAX), "expeditions")?,
        });
    }
    for f in &facts.furnishings {
        let tile = id(&f.tile, "furnishing tile", Furnishing::from_id)?;
        corpus.tiles.push(TileBuilt { game_id, seat: small(f.player, "seat")?, tile, round: small(f.round, "round")? });
    }
    for e in &facts.expeditions {
        for item in &e.loot {
            let item = id(item, "loot item", LootItem::from_id)?;
            corpus.loot.push(LootTaken { game_id, seat: small(e.player, "seat")?, item });
        }
    }
    for u in &facts.placements {
        let space = id(&u.space, "action space", ActionSpace::from_id)?;
        corpus.spaces.push(SpaceUse {
            game_id,
            seat: small(u.player, "seat")?,
            round: small(u.round, "round")?,
            space,
        });
    }
    Ok(())
}
