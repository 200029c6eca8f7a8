//! Entries and actions read by the strict cursor ([`chronicle_game::cursor`]) straight from the
//! log's text, for the single pass over a well-written log ([`crate::single_pass`]).
//!
//! The tag (`"type"`, `"do"`) must come first, as every writer of this project puts it; each
//! member is then read by the variant's own reading: its name, its type, whether it may be
//! absent (`Option` and `#[serde(default)]` members of [`Entry`] and [`Action`]) — mirrored
//! exactly, so that what is read here is what `Entry`'s own reading reads. Anything else (a tag
//! further on, an unknown or repeated member, a missing one) gives `None`, and the log is read
//! the usual way. `tests` compares the two readings.

use chronicle_game::cursor::{id_of, Cursor, Key};

use crate::notation::{Action, Entry, GoodsMap, Loot, RawCoord};
use crate::tag_first::{Do, Kind};

type Read<T> = Option<T>;

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

/// What a member of an entry or an action stands for, by how its value is read.
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
    /// A twin's or an ore mine's two cells.
    Pair,
    Kinds,
    At,
    Tile,
    /// A ruby tile's `tile`.
    SingleTile,
    /// A furnishing's `pay`: goods and counts.
    PayMap,
    /// A use's `pay`: one good.
    PayGood,
    Grain,
    Vegetable,
    /// A fence's cells.
    Cells,
    /// A required count: `strength`, `times`, `food`.
    Number,
    /// A use's `times`, which may be `null`.
    Times,
    Loot,
    /// A buy's list of goods.
    GoodsList,
    /// A conversion's, a ruby trade's or a release's goods and counts.
    GoodsMap,
    For,
    /// A use's `dwarf`, which may be `null`.
    UseDwarf,
}

/// The members of each kind of entry, in `Entry`'s order (as its writers put them).
fn entry_members(kind: Kind) -> &'static [(Key, M)] {
    const PLAYER: (Key, M) = (Key::new("player"), M::Player);
    const ACTIONS: (Key, M) = (Key::new("actions"), M::Actions);
    const PLACE: &[(Key, M)] =
        &[PLAYER, (Key::new("space"), M::Space), (Key::new("dwarf"), M::Dwarf), (Key::new("ruby"), M::Ruby), ACTIONS];
    match kind {
        Kind::Place => PLACE,
        Kind::Free | Kind::Feed => const { &[PLAYER, ACTIONS] },
        Kind::HarvestChoice => const { &[PLAYER, (Key::new("phase"), M::Phase)] },
        Kind::Breed => const { &[PLAYER, (Key::new("animals"), M::Animals)] },
        Kind::Keep => const { &[PLAYER, (Key::new("spaces"), M::Spaces)] },
    }
}

/// An entry whose first member is `"type"`.
pub(crate) fn entry(c: &mut Cursor) -> Read<Entry> {
    let (mut player, mut space, mut dwarf, mut ruby, mut actions) = (None, None, None, false, None);
    let (mut phase, mut animals, mut spaces) = (None, None, None);
    let kind = c.tagged_members(const { Key::new("type") }, Cursor::id, entry_members, |c, _, m| {
        match m {
            M::Player => player = Some(c.u32()?),
            M::Space => space = Some(c.id()?),
            M::Dwarf => dwarf = c.nullable(Cursor::u32)?,
            M::Ruby => ruby = c.bool()?,
            M::Actions => actions = Some(action_list(c)?),
            M::Phase => phase = Some(c.id()?),
            M::Animals => animals = Some(c.list(Cursor::id)?),
            M::Spaces => spaces = Some(c.list(Cursor::id)?),
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

/// The members of each kind of action, in `Action`'s order (as its writers put them).
fn action_members(what: Do) -> &'static [(Key, M)] {
    use Do::*;
    const CELLS: Key = Key::new("cells");
    const AT: (Key, M) = (Key::new("at"), M::At);
    const TILE: Key = Key::new("tile");
    const PAY: Key = Key::new("pay");
    const GOODS: Key = Key::new("goods");
    match what {
        Twin | OreMine => const { &[(CELLS, M::Pair), (Key::new("kinds"), M::Kinds)] },
        RubyMine | Stable => const { &[AT] },
        Furnish => const { &[(TILE, M::Tile), AT, (PAY, M::PayMap)] },
        Grow | Gain | Dog => const { &[] },
        Sow => const { &[(Key::new("grain"), M::Grain), (Key::new("vegetable"), M::Vegetable)] },
        Fence => const { &[(CELLS, M::Cells)] },
        Forge => const { &[(Key::new("strength"), M::Number)] },
        Expedition => const { &[(Key::new("loot"), M::Loot)] },
        TradeOre => const { &[(Key::new("times"), M::Number)] },
        Buy => const { &[(GOODS, M::GoodsList)] },
        Imitate => const { &[(Key::new("space"), M::Space), (Key::new("actions"), M::Actions)] },
        Convert | RubyTrade => const { &[(GOODS, M::GoodsMap)] },
        BuyFood => const { &[(Key::new("food"), M::Number)] },
        RubyTile => const { &[(TILE, M::SingleTile), AT] },
        Use => {
            const {
                &[
                    (TILE, M::Tile),
                    (Key::new("times"), M::Times),
                    (Key::new("for"), M::For),
                    (PAY, M::PayGood),
                    (Key::new("dwarf"), M::UseDwarf),
                ]
            }
        }
        Release => const { &[(Key::new("animals"), M::GoodsMap)] },
    }
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
    space: Option<crate::action_space::ActionSpace>,
    actions: Option<Vec<Action>>,
    for_: Option<crate::notation::UseFor>,
    dwarf: Option<u32>,
}

/// An action whose first member is `"do"`.
fn action(c: &mut Cursor) -> Read<Action> {
    let mut p = Parts::default();
    let what =
        c.tagged_members(const { Key::new("do") }, Cursor::id, action_members, |c, _, m| action_member(c, m, &mut p))?;
    build(what, p)
}

/// Reads the member `m` of an action into `p`.
fn action_member(c: &mut Cursor, m: M, p: &mut Parts) -> Read<()> {
    match m {
        M::Pair => p.pair = Some(c.exactly(coord)?),
        M::Kinds => p.kinds = Some(c.exactly(Cursor::id)?),
        M::At => p.at = Some(coord(c)?),
        M::Tile => p.tile = Some(c.id()?),
        M::SingleTile => p.single = Some(c.id()?),
        M::PayMap => p.pay_map = c.nullable(goods_map)?,
        M::PayGood => p.pay_good = c.nullable(Cursor::id)?,
        M::Grain => p.grain = Some(coords(c)?),
        M::Vegetable => p.vegetable = Some(coords(c)?),
        M::Cells => p.cells = Some(coords(c)?),
        M::Number => p.number = Some(c.u32()?),
        M::Times => p.number = c.nullable(Cursor::u32)?,
        M::Loot => p.loot = Some(loot(c)?),
        M::GoodsList => p.goods_list = Some(c.list(Cursor::id)?),
        M::GoodsMap => p.goods_map = Some(goods_map(c)?),
        M::Space => p.space = Some(c.id()?),
        M::Actions => p.actions = Some(action_list(c)?),
        M::For => p.for_ = c.nullable(Cursor::id)?,
        M::UseDwarf => p.dwarf = c.nullable(Cursor::u32)?,
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
