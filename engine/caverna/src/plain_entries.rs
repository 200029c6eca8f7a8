//! Entries and actions read by the strict cursor ([`chronicle_game::cursor`]) straight from the
//! log's text, for the single pass over a well-written log ([`crate::single_pass`]).
//!
//! The tag (`"type"`, `"do"`) must come first, as every writer of this project puts it; each
//! member is then read by the variant's own reading: its name, its type, whether it may be
//! absent (`Option` and `#[serde(default)]` members of [`Entry`] and [`Action`]) — mirrored
//! exactly, so that what is read here is what `Entry`'s own reading reads. Anything else (a tag
//! further on, an unknown or repeated member, a missing one) gives `None`, and the log is read
//! the usual way. `tests` compares the two readings.

use chronicle_game::cursor::{Cursor, Key};

use crate::notation::{Action, Entry, GoodsMap, Loot, RawCoord};
use crate::plain_ids::{DOS, FURNISHINGS, GOODS, KINDS, SPACES, TILE_KINDS};
use crate::tag_first::{Do, Kind};

type Read<T> = Option<T>;

/// A member name as a [`Key`], made at compile time.
macro_rules! k {
    ($name:literal) => {
        const { Key::new($name) }
    };
}

fn coord(c: &mut Cursor) -> Read<RawCoord> {
    let [row, col] = c.exactly::<i64, 2>(Cursor::i64)?;
    Some(RawCoord(row, col))
}

fn coords(c: &mut Cursor) -> Read<Vec<RawCoord>> {
    c.list(coord)
}

/// A goods map; a repeated good is left to the usual reading (a map keeps the last copy).
fn goods_map(c: &mut Cursor) -> Read<GoodsMap> {
    let mut map = GoodsMap::new();
    c.id_object(&GOODS, |c, good| {
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

/// An entry whose first member is `"type"`: the rest is read by its kind's own reader.
pub(crate) fn entry(c: &mut Cursor) -> Read<Entry> {
    (c.eat(b'{') && c.key(&k!("type")) && c.eat(b':')).then_some(())?;
    Some(match c.id_in(&KINDS)? {
        Kind::Place => place(c)?,
        Kind::Free => {
            let (player, actions) = two(c, [k!("player"), k!("actions")], Cursor::u32, action_list)?;
            Entry::Free { player: player?, actions: actions? }
        }
        Kind::HarvestChoice => {
            let (player, phase) = two(c, [k!("player"), k!("phase")], Cursor::u32, Cursor::id)?;
            Entry::HarvestChoice { player: player?, phase: phase? }
        }
        Kind::Feed => {
            let (player, actions) = two(c, [k!("player"), k!("actions")], Cursor::u32, action_list)?;
            Entry::Feed { player: player?, actions: actions.unwrap_or_default() }
        }
        Kind::Breed => {
            let (player, animals) = two(c, [k!("player"), k!("animals")], Cursor::u32, |c| c.list(Cursor::id))?;
            Entry::Breed { player: player?, animals: animals? }
        }
        Kind::Keep => {
            let (player, spaces) = two(c, [k!("player"), k!("spaces")], Cursor::u32, |c| c.list(Cursor::id))?;
            Entry::Keep { player: player?, spaces: spaces? }
        }
    })
}

/// A placement's `player`, `space`, `dwarf` (or `null`), `ruby` and `actions`.
fn place(c: &mut Cursor) -> Read<Entry> {
    const NAMES: [(Key, u8); 5] = [
        (Key::new("player"), 0),
        (Key::new("space"), 1),
        (Key::new("dwarf"), 2),
        (Key::new("ruby"), 3),
        (Key::new("actions"), 4),
    ];
    let (mut player, mut space, mut dwarf, mut ruby, mut actions) = (None, None, None, false, None);
    c.members_after_first(&NAMES, |c, m| {
        match m {
            0 => player = Some(c.u32()?),
            1 => space = Some(c.id_in(&SPACES)?),
            2 => dwarf = c.nullable(Cursor::u32)?,
            3 => ruby = c.bool()?,
            _ => actions = Some(action_list(c)?),
        }
        Some(())
    })?;
    Some(Entry::Place { player: player?, space: space?, dwarf, ruby, actions: actions.unwrap_or_default() })
}

fn action_list(c: &mut Cursor) -> Read<Vec<Action>> {
    c.list(action)
}

/// An action whose first member is `"do"`: the rest is read by its kind's own reader, which
/// knows its members' names, order and types (one small match per kind, not one over every
/// kind's members: the branch is then predictable from the kind alone).
fn action(c: &mut Cursor) -> Read<Action> {
    (c.eat(b'{') && c.key(&k!("do")) && c.eat(b':')).then_some(())?;
    Some(match c.id_in(&DOS)? {
        Do::Twin => {
            let (cells, kinds) =
                two(c, [k!("cells"), k!("kinds")], |c| c.exactly(coord), |c| c.exactly(|c| c.id_in(&TILE_KINDS)))?;
            Action::Twin { cells: cells?, kinds: kinds? }
        }
        Do::OreMine => {
            let (cells, kinds) =
                two(c, [k!("cells"), k!("kinds")], |c| c.exactly(coord), |c| c.exactly(|c| c.id_in(&TILE_KINDS)))?;
            Action::OreMine { cells: cells?, kinds: kinds? }
        }
        Do::RubyMine => Action::RubyMine { at: one(c, k!("at"), coord)?? },
        Do::Furnish => furnish(c)?,
        Do::Grow => none(c).map(|()| Action::Grow {})?,
        Do::Sow => {
            let (grain, vegetable) = two(c, [k!("grain"), k!("vegetable")], coords, coords)?;
            Action::Sow { grain: grain.unwrap_or_default(), vegetable: vegetable.unwrap_or_default() }
        }
        Do::Fence => Action::Fence { cells: one(c, k!("cells"), coords)?? },
        Do::Stable => Action::Stable { at: one(c, k!("at"), coord)?? },
        Do::Forge => Action::Forge { strength: one(c, k!("strength"), Cursor::u32)?? },
        Do::Expedition => Action::Expedition { loot: one(c, k!("loot"), loot)?? },
        Do::TradeOre => Action::TradeOre { times: one(c, k!("times"), Cursor::u32)?? },
        Do::Buy => Action::Buy { goods: one(c, k!("goods"), |c| c.list(|c| c.id_in(&GOODS)))?? },
        Do::Gain => none(c).map(|()| Action::Gain {})?,
        Do::Dog => none(c).map(|()| Action::Dog {})?,
        Do::Imitate => {
            let (space, actions) = two(c, [k!("space"), k!("actions")], |c| c.id_in(&SPACES), action_list)?;
            Action::Imitate { space: space?, actions: actions.unwrap_or_default() }
        }
        Do::Convert => Action::Convert { goods: one(c, k!("goods"), goods_map)?? },
        Do::BuyFood => Action::BuyFood { food: one(c, k!("food"), Cursor::u32)?? },
        Do::RubyTrade => Action::RubyTrade { goods: one(c, k!("goods"), goods_map)?? },
        Do::RubyTile => {
            let (tile, at) = two(c, [k!("tile"), k!("at")], Cursor::id, coord)?;
            Action::RubyTile { tile: tile?, at: at? }
        }
        Do::Use => use_(c)?,
        Do::Release => Action::Release { animals: one(c, k!("animals"), goods_map)?? },
    })
}

/// The rest of an action without members: its `}`.
fn none(c: &mut Cursor) -> Read<()> {
    c.members_after_first::<()>(&[], |_, ()| None)
}

/// The rest of an action whose one member is `name`, read by `read`; `Some(None)` when absent.
#[inline]
fn one<'a, T>(c: &mut Cursor<'a>, name: Key, read: impl FnOnce(&mut Cursor<'a>) -> Read<T>) -> Read<Option<T>> {
    let (mut read, mut value) = (Some(read), None);
    c.members_after_first(&[(name, ())], |c, ()| {
        value = Some(read.take()?(c)?);
        Some(())
    })?;
    Some(value)
}

/// The rest of an action whose two members are `names`, read by `a` and `b`.
#[inline]
fn two<'a, A, B>(
    c: &mut Cursor<'a>,
    names: [Key; 2],
    mut a: impl FnMut(&mut Cursor<'a>) -> Read<A>,
    mut b: impl FnMut(&mut Cursor<'a>) -> Read<B>,
) -> Read<(Option<A>, Option<B>)> {
    let (mut first, mut second) = (None, None);
    c.members_after_first(&[(names[0], false), (names[1], true)], |c, is_second| {
        if is_second {
            second = Some(b(c)?);
        } else {
            first = Some(a(c)?);
        }
        Some(())
    })?;
    Some((first, second))
}

/// A furnishing's `tile`, `at` and `pay` (goods and counts, or `null`).
fn furnish(c: &mut Cursor) -> Read<Action> {
    const NAMES: [(Key, u8); 3] = [(Key::new("tile"), 0), (Key::new("at"), 1), (Key::new("pay"), 2)];
    let (mut tile, mut at, mut pay) = (None, None, None);
    c.members_after_first(&NAMES, |c, m| {
        match m {
            0 => tile = Some(c.id_in(&FURNISHINGS)?),
            1 => at = Some(coord(c)?),
            _ => pay = c.nullable(goods_map)?,
        }
        Some(())
    })?;
    Some(Action::Furnish { tile: tile?, at: at?, pay })
}

/// A use's `tile`, and its optional (or `null`) `times`, `for`, `pay` and `dwarf`.
fn use_(c: &mut Cursor) -> Read<Action> {
    const NAMES: [(Key, u8); 5] = [
        (Key::new("tile"), 0),
        (Key::new("times"), 1),
        (Key::new("for"), 2),
        (Key::new("pay"), 3),
        (Key::new("dwarf"), 4),
    ];
    let (mut tile, mut times, mut for_, mut pay, mut dwarf) = (None, None, None, None, None);
    c.members_after_first(&NAMES, |c, m| {
        match m {
            0 => tile = Some(c.id_in(&FURNISHINGS)?),
            1 => times = c.nullable(Cursor::u32)?,
            2 => for_ = c.nullable(Cursor::id)?,
            3 => pay = c.nullable(|c| c.id_in(&GOODS))?,
            _ => dwarf = c.nullable(Cursor::u32)?,
        }
        Some(())
    })?;
    Some(Action::Use { tile: tile?, times, for_, pay, dwarf })
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

    fn plain(text: &str) -> Option<Entry> {
        chronicle_game::cursor::whole(text, entry)
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
