//! Entries and actions read by the strict cursor ([`chronicle_game::cursor`]) straight from the
//! log's text, for the single pass over a well-written log ([`crate::single_pass`]).
//!
//! The tag (`"type"`, `"do"`) must come first, as every writer of this project puts it; each
//! member is then read by the variant's own reading: its name, its type, whether it may be
//! absent (`Option` and `#[serde(default)]` members of [`Entry`] and [`Action`]) — mirrored
//! exactly, so that what is read here is what `Entry`'s own reading reads. Anything else (a tag
//! further on, an unknown or repeated member, a missing one) gives `None`, and the log is read
//! the usual way. `tests` compares the two readings.

use chronicle_game::cursor::{id_of, Cursor, Seen};

use crate::action_space::ActionSpace;
use crate::notation::{Action, Entry, GoodsMap, Loot, RawCoord};
use crate::tag_first::{Do, Kind};

type Read<T> = Option<T>;

/// A coordinate, `[row, col]`: punctuation read in place rather than through
/// [`Cursor::exactly`] (coordinates are the commonest value of a log); the same text is read.
fn coord(c: &mut Cursor) -> Read<RawCoord> {
    c.eat(b'[').then_some(())?;
    let row = c.i64()?;
    c.eat(b',').then_some(())?;
    let col = c.i64()?;
    c.eat(b']').then_some(())?;
    Some(RawCoord(row, col))
}

fn coords(c: &mut Cursor) -> Read<Vec<RawCoord>> {
    c.list(coord)
}

/// A goods map; a repeated good is left to the usual reading (a map keeps the last copy).
fn goods_map(c: &mut Cursor) -> Read<GoodsMap> {
    let mut map = GoodsMap::new();
    c.object(|c, name| {
        let good = id_of(name)?;
        let n = c.u32()?;
        map.insert(good, n).is_none().then_some(())
    })?;
    Some(map)
}

/// A loot object is read by its own `Deserialize` from its text: loot is rare, and its many
/// optional members are not worth a second reading.
fn loot(c: &mut Cursor) -> Read<Vec<Loot>> {
    c.list(|c| serde_json::from_str(c.value_text()?).ok())
}

/// A member name an entry or an action may have.
#[derive(Clone, Copy, PartialEq, Eq)]
enum M {
    Player,
    Space,
    Dwarf,
    Ruby,
    Actions,
    Phase,
    Animals,
    Spaces,
    Cells,
    Kinds,
    At,
    Tile,
    Pay,
    Grain,
    Vegetable,
    Strength,
    Loot,
    Times,
    Goods,
    Food,
    For,
}

/// The member `name` names, the first time an object has it (each its bit in [`Seen`]);
/// `None` for a repeated member or a name no entry or action has.
fn member(seen: &mut Seen, name: &str) -> Read<M> {
    let m = match name {
        "player" => M::Player,
        "space" => M::Space,
        "dwarf" => M::Dwarf,
        "ruby" => M::Ruby,
        "actions" => M::Actions,
        "phase" => M::Phase,
        "animals" => M::Animals,
        "spaces" => M::Spaces,
        "cells" => M::Cells,
        "kinds" => M::Kinds,
        "at" => M::At,
        "tile" => M::Tile,
        "pay" => M::Pay,
        "grain" => M::Grain,
        "vegetable" => M::Vegetable,
        "strength" => M::Strength,
        "loot" => M::Loot,
        "times" => M::Times,
        "goods" => M::Goods,
        "food" => M::Food,
        "for" => M::For,
        _ => return None,
    };
    seen.first(m as u32)?;
    Some(m)
}

/// An action-space id. Serde's reading of one compares the text with each of 39 names in turn
/// (a twentieth of a log's reading); here the length and first and last bytes pick the one
/// candidate, whose own id ([`ActionSpace::id`], tested equal to serde's name for every
/// variant) must then be the text. Any text without such a candidate is read by serde, so the
/// answer is serde's for every text (`tests`).
fn action_space(c: &mut Cursor) -> Read<ActionSpace> {
    let text = c.str()?;
    match space_candidate(text) {
        Some(space) if space.id() == text => Some(space),
        _ => id_of(text),
    }
}

/// The action space whose id has the length and first and last bytes of `text`, if any (these
/// three tell every id apart).
fn space_candidate(text: &str) -> Option<ActionSpace> {
    use ActionSpace::*;
    let bytes = text.as_bytes();
    Some(match (bytes.len(), *bytes.first()?, *bytes.last()?) {
        (5, b'd', b't') => Depot,
        (6, b'g', b'h') => Growth,
        (7, b'l', b'g') => Logging,
        (8, b'c', b'g') => Clearing,
        (8, b's', b's') => Supplies,
        (9, b'a', b'e') => Adventure,
        (9, b'e', b'n') => Extension,
        (9, b'h', b'k') => Housework,
        (9, b'i', b'n') => Imitation,
        (10, b'e', b'n') => Excavation,
        (10, b'o', b'g') => OreMining,
        (10, b's', b'e') => Sustenance,
        (11, b'e', b'n') => Exploration,
        (11, b'f', b'e') => FamilyLife,
        (11, b'i', b'2') => Imitation2,
        (11, b'i', b'3') => Imitation3,
        (11, b'l', b't') => LargeDepot,
        (11, b'o', b'g') => OreTrading,
        (11, b'r', b'g') => RubyMining,
        (12, b'd', b'g') => DriftMining,
        (12, b'o', b'y') => OreDelivery,
        (12, b's', b'g') => StripMining,
        (13, b'b', b'g') => Blacksmithing,
        (13, b'r', b'y') => RubyDelivery,
        (13, b's', b'g') => SheepFarming,
        (13, b'w', b't') => WeeklyMarket,
        (14, b'd', b'g') => DonkeyFarming,
        (14, b'd', b'2') => DriftMining2,
        (14, b'f', b'g') => FenceBuilding,
        (14, b's', b'n') => SlashAndBurn,
        (14, b'w', b'g') => WoodGathering,
        (15, b'h', b'l') => HardwareRental,
        (15, b's', b'r') => StartingPlayer,
        (17, b'w', b'n') => WishForChildren,
        (18, b'f', b'n') => ForestExploration,
        (21, b'o', b'n') => OreMineConstruction,
        (22, b'r', b'n') => RubyMineConstruction,
        (24, b's', b'g') => SmallScaleDriftMining,
        (24, b'u', b'n') => UrgentWishForChildren,
        _ => return None,
    })
}

/// An entry whose first member is `"type"`.
pub(crate) fn entry(c: &mut Cursor) -> Read<Entry> {
    let mut seen = Seen::default();
    let (mut player, mut space, mut dwarf, mut ruby, mut actions) = (None, None, None, false, None);
    let (mut phase, mut animals, mut spaces) = (None, None, None);
    let kind = c.tagged("type", |c, kind: Kind, name| {
        match (kind, member(&mut seen, name)?) {
            (_, M::Player) => player = Some(c.u32()?),
            (Kind::Place, M::Space) => space = Some(action_space(c)?),
            (Kind::Place, M::Dwarf) => dwarf = c.nullable(Cursor::u32)?,
            (Kind::Place, M::Ruby) => ruby = c.bool()?,
            (Kind::Place | Kind::Free | Kind::Feed, M::Actions) => actions = Some(action_list(c)?),
            (Kind::HarvestChoice, M::Phase) => phase = Some(c.id()?),
            (Kind::Breed, M::Animals) => animals = Some(c.list(Cursor::id)?),
            (Kind::Keep, M::Spaces) => spaces = Some(c.list(Cursor::id)?),
            _ => return None,
        }
        Some(())
    })?;
    let player = player?;
    Some(match kind {
        Kind::Place => Entry::Place { player, space: space?, dwarf, ruby, actions: actions.unwrap_or_default() },
        Kind::Free => Entry::Free { player, actions: actions? },
        Kind::HarvestChoice => Entry::HarvestChoice { player, phase: phase? },
        Kind::Feed => Entry::Feed { player, actions: actions.unwrap_or_default() },
        Kind::Breed => Entry::Breed { player, animals: animals? },
        Kind::Keep => Entry::Keep { player, spaces: spaces? },
    })
}

fn action_list(c: &mut Cursor) -> Read<Vec<Action>> {
    c.list(action)
}

/// The members of one action as read, before they make its variant.
#[derive(Default)]
struct Parts {
    pair: Option<[RawCoord; 2]>,
    kinds: Option<[crate::notation::TileKind; 2]>,
    at: Option<RawCoord>,
    cells: Option<Vec<RawCoord>>,
    tile: Option<crate::furnishing::Furnishing>,
    single: Option<crate::notation::SingleTile>,
    pay_map: Option<GoodsMap>,
    pay_good: Option<crate::goods::Good>,
    grain: Option<Vec<RawCoord>>,
    vegetable: Option<Vec<RawCoord>>,
    number: Option<u32>,
    loot: Option<Vec<Loot>>,
    goods_list: Option<Vec<crate::goods::Good>>,
    goods_map: Option<GoodsMap>,
    space: Option<ActionSpace>,
    actions: Option<Vec<Action>>,
    for_: Option<crate::notation::UseFor>,
    dwarf: Option<u32>,
}

/// An action whose first member is `"do"`.
fn action(c: &mut Cursor) -> Read<Action> {
    let mut seen = Seen::default();
    let mut p = Parts::default();
    let what = c.tagged("do", |c, what, name| action_member(c, what, member(&mut seen, name)?, &mut p))?;
    build(what, p)
}

/// Reads the member `m` of an action of kind `what` into `p`.
fn action_member(c: &mut Cursor, what: Do, m: M, p: &mut Parts) -> Read<()> {
    use Do::*;
    match (what, m) {
        (Twin | OreMine, M::Cells) => p.pair = Some(c.exactly(coord)?),
        (Twin | OreMine, M::Kinds) => p.kinds = Some(c.exactly(Cursor::id)?),
        (RubyMine | Furnish | Stable | RubyTile, M::At) => p.at = Some(coord(c)?),
        (Furnish | Use, M::Tile) => p.tile = Some(c.id()?),
        (RubyTile, M::Tile) => p.single = Some(c.id()?),
        (Furnish, M::Pay) => p.pay_map = c.nullable(goods_map)?,
        (Use, M::Pay) => p.pay_good = c.nullable(Cursor::id)?,
        (Sow, M::Grain) => p.grain = Some(coords(c)?),
        (Sow, M::Vegetable) => p.vegetable = Some(coords(c)?),
        (Fence, M::Cells) => p.cells = Some(coords(c)?),
        (Forge, M::Strength) | (TradeOre, M::Times) | (BuyFood, M::Food) => p.number = Some(c.u32()?),
        (Use, M::Times) => p.number = c.nullable(Cursor::u32)?,
        (Expedition, M::Loot) => p.loot = Some(loot(c)?),
        (Buy, M::Goods) => p.goods_list = Some(c.list(Cursor::id)?),
        (Convert | RubyTrade, M::Goods) | (Release, M::Animals) => p.goods_map = Some(goods_map(c)?),
        (Imitate, M::Space) => p.space = Some(action_space(c)?),
        (Imitate, M::Actions) => p.actions = Some(action_list(c)?),
        (Use, M::For) => p.for_ = c.nullable(Cursor::id)?,
        (Use, M::Dwarf) => p.dwarf = c.nullable(Cursor::u32)?,
        _ => return None,
    }
    Some(())
}

/// The action of kind `what` from its members; `None` when a required one is missing.
fn build(what: Do, p: Parts) -> Read<Action> {
    Some(match what {
        Do::Twin => Action::Twin { cells: p.pair?, kinds: p.kinds? },
        Do::OreMine => Action::OreMine { cells: p.pair?, kinds: p.kinds? },
        Do::RubyMine => Action::RubyMine { at: p.at? },
        Do::Furnish => Action::Furnish { tile: p.tile?, at: p.at?, pay: p.pay_map },
        Do::Grow => Action::Grow {},
        Do::Sow => Action::Sow { grain: p.grain.unwrap_or_default(), vegetable: p.vegetable.unwrap_or_default() },
        Do::Fence => Action::Fence { cells: p.cells? },
        Do::Stable => Action::Stable { at: p.at? },
        Do::Forge => Action::Forge { strength: p.number? },
        Do::Expedition => Action::Expedition { loot: p.loot? },
        Do::TradeOre => Action::TradeOre { times: p.number? },
        Do::Buy => Action::Buy { goods: p.goods_list? },
        Do::Gain => Action::Gain {},
        Do::Dog => Action::Dog {},
        Do::Imitate => Action::Imitate { space: p.space?, actions: p.actions.unwrap_or_default() },
        Do::Convert => Action::Convert { goods: p.goods_map? },
        Do::BuyFood => Action::BuyFood { food: p.number? },
        Do::RubyTrade => Action::RubyTrade { goods: p.goods_map? },
        Do::RubyTile => Action::RubyTile { tile: p.single?, at: p.at? },
        Do::Use => Action::Use { tile: p.tile?, times: p.number, for_: p.for_, pay: p.pay_good, dwarf: p.dwarf },
        Do::Release => Action::Release { animals: p.goods_map? },
    })
}

#[cfg(test)]
mod tests {
    use serde_json::Value;

    use super::*;
    use crate::bots::{self, BotChoice, BotKind};
    use crate::notation::FurnishingSet;

    /// The entries of simulated games (every bot, 1–7 players, both furnishing sets), as text.
    fn simulated_entries() -> Vec<String> {
        let mut texts = Vec::new();
        for (i, (choice, players, set)) in [
            (BotChoice::All(BotKind::Random), 1, FurnishingSet::Full),
            (BotChoice::All(BotKind::Random), 4, FurnishingSet::Full),
            (BotChoice::Mixed, 3, FurnishingSet::Full),
            (BotChoice::Mixed, 7, FurnishingSet::Introductory),
            (BotChoice::All(BotKind::Weapons), 2, FurnishingSet::Full),
        ]
        .into_iter()
        .enumerate()
        {
            let seed = bots::game_seed(11, i as u64);
            let kinds = bots::seat_kinds(choice, players, seed);
            let setup = bots::simulated_setup(&kinds, set, seed);
            let log: Value = serde_json::from_str(&bots::simulate(&setup, &kinds, seed).unwrap().log_json()).unwrap();
            texts.extend(log["entries"].as_array().unwrap().iter().map(Value::to_string));
        }
        texts
    }

    /// Edits of one entry's text, token by token: numbers and strings replaced by what the
    /// plain reader must refuse or read as `serde_json` does, members repeated, reordered or
    /// removed, whitespace and `null` in every place.
    fn edits(text: &str) -> Vec<String> {
        const NUMBERS: [&str; 12] =
            ["-0", "01", "1.0", "1e1", "-1", "4294967296", "null", "\"1\"", "0", "-9", "true", "[]"];
        const STRINGS: [&str; 6] = ["\"\\u0061\"", "\"\"", "null", "\"sheep\"", "\"logging\"", "\"x\\\"\""];
        let mut out = chronicle_game::cursor::token_edits(text, &NUMBERS, &STRINGS, " \t\n");
        // A member repeated, the first member moved last, a member removed, one added.
        if let Ok(Value::Object(map)) = serde_json::from_str::<Value>(text) {
            let members: Vec<String> = map.iter().map(|(k, v)| format!("{}:{v}", Value::from(k.as_str()))).collect();
            for k in 0..members.len() {
                let mut m = members.clone();
                m.push(members[k].clone());
                out.push(format!("{{{}}}", m.join(",")));
                let mut m = members.clone();
                m.remove(k);
                out.push(format!("{{{}}}", m.join(",")));
            }
            let mut m = members.clone();
            m.rotate_left(1);
            out.push(format!("{{{}}}", m.join(",")));
            out.push(format!("{{{},\"x\":1}}", members.join(",")));
        }
        out
    }

    /// The action-space lookup answers serde's reading for every id and for texts one edit
    /// away from one (same length and ends, one byte changed, cut, lengthened, a case changed).
    #[test]
    fn action_space_ids_are_read_as_serde_reads_them() {
        let mut texts: Vec<String> = vec![String::new(), "x".into(), "imitation2".into()];
        for space in ActionSpace::ALL {
            let id = space.id();
            assert_eq!(space_candidate(id), Some(space), "{id}");
            texts.push(id.to_string());
            texts.push(format!("{id}_"));
            texts.push(id[1..].to_string());
            texts.push(id[..id.len() - 1].to_string());
            texts.push(id.to_uppercase());
            for i in 0..id.len() {
                for with in ["a", "z", "_", "2"] {
                    texts.push(format!("{}{with}{}", &id[..i], &id[i + 1..]));
                }
            }
        }
        for text in texts {
            let serde: Option<ActionSpace> = serde_json::from_value(Value::from(text.as_str())).ok();
            let json = Value::from(text.as_str()).to_string();
            assert_eq!(action_space(&mut Cursor::new(&json)), serde, "{text}");
        }
    }

    /// A coordinate reads what `[i64; 2]` reads, and refuses the rest.
    #[test]
    fn coordinates_are_read_as_pairs() {
        for text in ["[1,2]", " [ -1 , 0 ] ", "[1]", "[]", "[1,2,3]", "[1,,2]", "[1 2]", "[-0,1]", "[1,2", "1,2]"] {
            let serde = serde_json::from_str::<[i64; 2]>(text).ok().filter(|_| !text.contains("-0"));
            let mut c = Cursor::new(text);
            let plain = coord(&mut c).filter(|_| c.end().is_some()).map(|RawCoord(r, c)| [r, c]);
            assert_eq!(plain, serde, "{text}");
        }
    }

    fn plain(text: &str) -> Option<Entry> {
        let mut c = Cursor::new(text);
        entry(&mut c).filter(|_| c.end().is_some())
    }

    /// What the plain reader reads, `Entry`'s own reading reads the same (it may refuse more:
    /// the usual reading then decides); and it reads every entry as the simulator writes it.
    #[test]
    fn the_plain_reading_of_an_entry_is_entrys_own_reading() {
        let entries = simulated_entries();
        let (mut read, mut refused) = (0, 0);
        for text in &entries {
            assert_eq!(plain(text).as_ref(), Some(&serde_json::from_str::<Entry>(text).unwrap()), "{text}");
            for edit in edits(text) {
                match plain(&edit) {
                    Some(e) => {
                        read += 1;
                        assert_eq!(serde_json::from_str::<Entry>(&edit).ok(), Some(e), "{edit}");
                    }
                    None => refused += 1,
                }
            }
        }
        assert!(read > 1000 && refused > 1000, "edits read {read}, refused {refused}");
    }
}
