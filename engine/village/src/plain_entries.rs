//! Entries and actions read by the strict cursor ([`chronicle_game::cursor`]) straight from the
//! log's text, for the single pass over a well-written log ([`crate::single_pass`]).
//!
//! `Entry` and `Action` are internally tagged enums (and `Who` and `DrawItem` untagged ones),
//! which serde reads by buffering each whole value before reading its variant: that buffering
//! is most of what reading a log cost. Here the tag (`"type"`, `"do"`) must come first, as
//! every writer of this project puts it, and each member is then read straight into its type
//! by the variant's own reading: its name, its type, whether it may be absent or `null`
//! (`Option` and `#[serde(default)]` members of [`Entry`], [`Action`] and the structs inside
//! them) — mirrored exactly, so that what is read here is what `Entry`'s own reading reads.
//! Anything else (a tag further on, an unknown, repeated or missing member, a struct written as
//! an array, a draw item other than `"monk"` or exactly `{"player", "gen"}`) gives `None`, and
//! the log is read the usual way, which decides and words every error. `tests` compares the
//! two readings.

use chronicle_game::cursor::{Cursor, Seen};
use serde::Deserialize;

use crate::ids::{Cube, Customer};
use crate::notation::{
    Action, DrawItem, Entry, MassBuy, MemberRef, MonkTag, Move, PopulateSpaces, Privilege, Promotion, RewardChoice,
    Take, WellNotation, Who,
};

type Read<T> = Option<T>;

/// The `"type"` of an entry.
#[derive(Clone, Copy, Deserialize)]
#[serde(rename_all = "snake_case")]
enum Kind {
    Populate,
    Turn,
    Sale,
    Pass,
    Refill,
    Death,
    Mass,
    Carla,
    Fate,
}

/// The `"do"` of an action.
#[derive(Clone, Copy, Deserialize)]
#[serde(rename_all = "snake_case")]
enum Do {
    Harvest,
    Family,
    Craft,
    Market,
    Council,
    Travel,
    Church,
}

/// An object whose members are all among `names`, each at most once: `member` reads the value
/// of the member at that index in `names` (a derived struct's members, unknown ones denied).
fn fields<'a>(
    c: &mut Cursor<'a>,
    names: &[&str],
    mut member: impl FnMut(&mut Cursor<'a>, usize) -> Read<()>,
) -> Read<()> {
    let mut seen = Seen::default();
    c.object(|c, name| {
        let index = names.iter().position(|n| *n == name)?;
        seen.first(u32::try_from(index).ok()?)?;
        member(c, index)
    })
}

/// A struct of two members, each read by its own reading and each possibly absent (the
/// caller says which must be there).
fn two<'a, A, B>(
    c: &mut Cursor<'a>,
    names: [&str; 2],
    mut first: impl FnMut(&mut Cursor<'a>) -> Read<A>,
    mut second: impl FnMut(&mut Cursor<'a>) -> Read<B>,
) -> Read<(Option<A>, Option<B>)> {
    let (mut a, mut b) = (None, None);
    fields(c, &names, |c, i| {
        match i {
            0 => a = Some(first(c)?),
            _ => b = Some(second(c)?),
        }
        Some(())
    })?;
    Some((a, b))
}

fn u8(c: &mut Cursor) -> Read<u8> {
    u8::try_from(c.u64()?).ok()
}

fn usize(c: &mut Cursor) -> Read<usize> {
    usize::try_from(c.u64()?).ok()
}

fn string(c: &mut Cursor) -> Read<String> {
    c.str().map(str::to_owned)
}

fn cubes(c: &mut Cursor) -> Read<Vec<Cube>> {
    c.list(Cursor::id)
}

/// A [`Who`], as its own reading has it: an unsigned integer is a seat, `"carla"` Carla.
fn who(c: &mut Cursor) -> Read<Who> {
    if c.peek() == Some(b'"') {
        return (c.str()? == "carla").then_some(Who::Carla);
    }
    Some(Who::Seat(usize::try_from(c.u64()?).unwrap_or(usize::MAX)))
}

fn member_ref(c: &mut Cursor) -> Read<MemberRef> {
    let (gen, at) = two(c, ["gen", "at"], u8, |c| c.nullable(string))?;
    Some(MemberRef { gen: gen?, at: at.flatten() })
}

fn take(c: &mut Cursor) -> Read<Take> {
    let (space, cube) = two(c, ["space", "cube"], Cursor::id, Cursor::id)?;
    Some(Take { space: space?, cube: cube? })
}

/// `coins` defaults to 0 when absent (but `null` is not a number).
fn well(c: &mut Cursor) -> Read<WellNotation> {
    let (color, coins) = two(c, ["color", "coins"], Cursor::id, Cursor::u32)?;
    Some(WellNotation { color: color?, coins: coins.unwrap_or(0) })
}

fn privilege(c: &mut Cursor) -> Read<Privilege> {
    let (mut stage, mut cubes_, mut good) = (None, None, None);
    fields(c, &["stage", "cubes", "good"], |c, i| {
        match i {
            0 => stage = Some(u8(c)?),
            1 => cubes_ = c.nullable(cubes)?,
            _ => good = c.nullable(Cursor::id)?,
        }
        Some(())
    })?;
    Some(Privilege { stage: stage?, cubes: cubes_, good })
}

fn reward(c: &mut Cursor) -> Read<RewardChoice> {
    let mut list = None;
    fields(c, &["cubes"], |c, _| {
        list = Some(cubes(c)?);
        Some(())
    })?;
    Some(RewardChoice { cubes: list? })
}

fn populate_spaces(c: &mut Cursor) -> Read<PopulateSpaces> {
    const SPACES: [&str; 7] = ["harvest", "family", "crafts", "market", "travel", "council", "church"];
    let mut lists: [Option<Vec<Cube>>; 7] = Default::default();
    fields(c, &SPACES, |c, i| {
        *lists.get_mut(i)? = Some(cubes(c)?);
        Some(())
    })?;
    let [harvest, family, crafts, market, travel, council, church] = lists;
    Some(PopulateSpaces {
        harvest: harvest?,
        family: family?,
        crafts: crafts?,
        market: market?,
        travel: travel?,
        council: council?,
        church: church?,
    })
}

fn mass_buy(c: &mut Cursor) -> Read<MassBuy> {
    let (player, gens) = two(c, ["player", "gens"], usize, |c| c.list(u8))?;
    Some(MassBuy { player: player?, gens: gens? })
}

fn moves(c: &mut Cursor) -> Read<Move> {
    let mut n: [Option<u8>; 3] = [None; 3];
    fields(c, &["gen", "from", "to"], |c, i| {
        *n.get_mut(i)? = Some(u8(c)?);
        Some(())
    })?;
    let [gen, from, to] = n;
    Some(Move { gen: gen?, from: from?, to: to? })
}

fn promotion(c: &mut Cursor) -> Read<Promotion> {
    let (player, list) = two(c, ["player", "moves"], usize, |c| c.list(moves))?;
    Some(Promotion { player: player?, moves: list? })
}

/// A draw item: the string `"monk"`, or an object of exactly `player` and `gen` (the untagged
/// reading would also take other spellings, such as `{"monk": null}` or extra members: those
/// are left to it).
fn draw_item(c: &mut Cursor) -> Read<DrawItem> {
    if c.peek() == Some(b'"') {
        return (c.str()? == "monk").then_some(DrawItem::Monk(MonkTag::Monk));
    }
    let (player, gen) = two(c, ["player", "gen"], who, u8)?;
    Some(DrawItem::Member { player: player?, gen: gen? })
}

/// The members any entry or action may have, each its bit in [`Seen`]; `None` for a name no
/// entry or action has (the tags among them: a repeated tag is refused).
fn member(seen: &mut Seen, name: &str) -> Read<()> {
    seen.first(match name {
        "round" => 0,
        "spaces" => 1,
        "player" => 2,
        "take" => 3,
        "well" => 4,
        "free" => 5,
        "action" => 6,
        "customer" => 7,
        "coin_for" => 8,
        "tiles" => 9,
        "member" => 10,
        "buy" => 11,
        "draw" => 12,
        "promote" => 13,
        "rolls" => 14,
        "space" => 15,
        "cube" => 16,
        "set" => 17,
        "result" => 18,
        "recall" => 19,
        "building" => 20,
        "good" => 21,
        "pay" => 22,
        "train" => 23,
        "enter" => 24,
        "advance" => 25,
        "privilege" => 26,
        "to" => 27,
        "reward" => 28,
        _ => return None,
    })
}

/// The members of one entry as read, before they make its variant.
#[derive(Default)]
struct EntryParts {
    round: Option<u64>,
    spaces: Option<PopulateSpaces>,
    seat: Option<usize>,
    who: Option<Who>,
    take: Option<Take>,
    well: Option<WellNotation>,
    free: Option<bool>,
    action: Option<Action>,
    customer: Option<Customer>,
    coin_for: Option<Vec<Cube>>,
    tiles: Option<Vec<Customer>>,
    member: Option<MemberRef>,
    buy: Option<Vec<MassBuy>>,
    draw: Option<Vec<DrawItem>>,
    promote: Option<Vec<Promotion>>,
    rolls: Option<Vec<Cube>>,
    space: Option<crate::ids::Space>,
    cube: Option<Cube>,
    set: Option<crate::notation::FateSet>,
    result: Option<crate::notation::Face>,
}

/// An object whose first member is `tag` (its kind `K`): each other member read by `read` into
/// the parts `P`, which `build` makes the value of that kind.
fn variant<'a, K: Copy + Deserialize<'a>, P: Default, T>(
    c: &mut Cursor<'a>,
    tag: &str,
    read: impl Fn(&mut Cursor<'a>, K, &str, &mut P) -> Read<()>,
    build: impl FnOnce(K, P) -> Read<T>,
) -> Read<T> {
    let mut seen = Seen::default();
    let mut parts = P::default();
    let kind = c.tagged(tag, |c, kind, name| {
        member(&mut seen, name)?;
        read(c, kind, name, &mut parts)
    })?;
    build(kind, parts)
}

/// An entry whose first member is `"type"`.
pub(crate) fn entry(c: &mut Cursor) -> Read<Entry> {
    variant(c, "type", entry_member, build_entry)
}

/// Reads the member `name` of an entry of kind `kind` into `p`.
fn entry_member(c: &mut Cursor, kind: Kind, name: &str, p: &mut EntryParts) -> Read<()> {
    use Kind::*;
    match (kind, name) {
        (Populate, "round") => p.round = Some(c.u64()?),
        (Populate, "spaces") => p.spaces = Some(populate_spaces(c)?),
        (Turn | Death, "player") => p.seat = Some(usize(c)?),
        (Sale | Pass, "player") => p.who = Some(who(c)?),
        (Turn, "take") => p.take = c.nullable(take)?,
        (Turn, "well") => p.well = c.nullable(well)?,
        (Turn, "free") => p.free = c.nullable(Cursor::bool)?,
        (Turn, "action") => p.action = c.nullable(action)?,
        (Sale, "customer") => p.customer = Some(c.id()?),
        (Sale, "coin_for") => p.coin_for = Some(cubes(c)?),
        (Refill, "tiles") => p.tiles = Some(c.list(Cursor::id)?),
        (Death, "member") => p.member = Some(member_ref(c)?),
        (Mass, "buy") => p.buy = Some(c.list(mass_buy)?),
        (Mass, "draw") => p.draw = c.nullable(|c| c.list(draw_item))?,
        (Mass, "promote") => p.promote = Some(c.list(promotion)?),
        (Carla, "rolls") => p.rolls = c.nullable(cubes)?,
        (Carla, "space") => p.space = Some(c.id()?),
        (Carla, "cube") => p.cube = Some(c.id()?),
        (Fate, "set") => p.set = Some(c.id()?),
        (Fate, "result") => p.result = Some(c.id()?),
        _ => return None,
    }
    Some(())
}

/// The entry of kind `kind` from its members; `None` when a required one is missing.
fn build_entry(kind: Kind, p: EntryParts) -> Read<Entry> {
    Some(match kind {
        Kind::Populate => Entry::Populate { round: p.round?, spaces: p.spaces? },
        Kind::Turn => Entry::Turn { player: p.seat?, take: p.take, well: p.well, free: p.free, action: p.action },
        Kind::Sale => Entry::Sale { player: p.who?, customer: p.customer?, coin_for: p.coin_for.unwrap_or_default() },
        Kind::Pass => Entry::Pass { player: p.who? },
        Kind::Refill => Entry::Refill { tiles: p.tiles? },
        Kind::Death => Entry::Death { player: p.seat?, member: p.member? },
        Kind::Mass => {
            Entry::Mass { buy: p.buy.unwrap_or_default(), draw: p.draw, promote: p.promote.unwrap_or_default() }
        }
        Kind::Carla => Entry::Carla { rolls: p.rolls, space: p.space?, cube: p.cube? },
        Kind::Fate => Entry::Fate { set: p.set?, result: p.result? },
    })
}

/// The members of one action as read, before they make its variant.
#[derive(Default)]
struct ActionParts {
    coin_for: Option<Vec<Cube>>,
    recall: Option<MemberRef>,
    building: Option<crate::ids::Building>,
    good: Option<crate::ids::Good>,
    pay: Option<crate::notation::Pay>,
    train: Option<MemberRef>,
    enter: Option<MemberRef>,
    advance: Option<MemberRef>,
    privilege: Option<Privilege>,
    member: Option<MemberRef>,
    to: Option<String>,
    reward: Option<RewardChoice>,
}

/// An action whose first member is `"do"`.
fn action(c: &mut Cursor) -> Read<Action> {
    variant(c, "do", action_member, build_action)
}

/// Reads the member `name` of an action of kind `what` into `p`.
fn action_member(c: &mut Cursor, what: Do, name: &str, p: &mut ActionParts) -> Read<()> {
    use Do::*;
    match (what, name) {
        (_, "coin_for") => p.coin_for = Some(cubes(c)?),
        (Family, "recall") => p.recall = c.nullable(member_ref)?,
        (Craft, "building") => p.building = Some(c.id()?),
        (Craft, "good") => p.good = c.nullable(Cursor::id)?,
        // Optional for a craft or a council move, required for the church.
        (Craft | Council, "pay") => p.pay = c.nullable(Cursor::id)?,
        (Church, "pay") => p.pay = Some(c.id()?),
        (Craft, "train") => p.train = c.nullable(member_ref)?,
        (Council, "enter") => p.enter = c.nullable(member_ref)?,
        (Council, "advance") => p.advance = c.nullable(member_ref)?,
        (Council, "privilege") => p.privilege = c.nullable(privilege)?,
        (Travel | Church, "member") => p.member = Some(member_ref(c)?),
        (Travel, "to") => p.to = Some(string(c)?),
        (Travel, "reward") => p.reward = c.nullable(reward)?,
        _ => return None,
    }
    Some(())
}

/// The action of kind `what` from its members; `None` when a required one is missing.
fn build_action(what: Do, p: ActionParts) -> Read<Action> {
    let coin_for = p.coin_for.unwrap_or_default();
    Some(match what {
        Do::Harvest => Action::Harvest { coin_for },
        Do::Market => Action::Market { coin_for },
        Do::Family => Action::Family { recall: p.recall, coin_for },
        Do::Craft => Action::Craft { building: p.building?, good: p.good, pay: p.pay, train: p.train, coin_for },
        Do::Council => {
            Action::Council { enter: p.enter, advance: p.advance, pay: p.pay, privilege: p.privilege, coin_for }
        }
        Do::Travel => Action::Travel { member: p.member?, to: p.to?, reward: p.reward, coin_for },
        Do::Church => Action::Church { member: p.member?, pay: p.pay?, coin_for },
    })
}

#[cfg(test)]
pub(crate) mod tests {
    use std::collections::BTreeSet;

    use serde_json::Value;

    use super::*;

    /// The distinct entries of simulated games of every player count and of the fixtures.
    fn entries() -> BTreeSet<String> {
        let mut logs: Vec<Value> = Vec::new();
        for players in 1..=5 {
            for seed in 0..3 {
                logs.push(crate::bots::simulate(seed, players).expect("a simulated game"));
            }
        }
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures");
        for file in std::fs::read_dir(dir).expect("fixtures").filter_map(Result::ok) {
            if let Some(log) = std::fs::read(file.path()).ok().and_then(|b| serde_json::from_slice(&b).ok()) {
                logs.push(log);
            }
        }
        logs.iter().filter_map(|l| l["entries"].as_array()).flatten().map(Value::to_string).collect()
    }

    /// Other texts of a value, as serde_json writes it, at every depth: each object with a
    /// member repeated, removed, the first moved last, an unknown one added; each member's or
    /// item's value by its own other texts.
    fn variants(v: &Value) -> Vec<String> {
        let text = |k: &String, v: &str| format!("{}:{v}", Value::from(k.as_str()));
        let mut out = Vec::new();
        match v {
            Value::Object(map) => {
                let members: Vec<String> = map.iter().map(|(k, v)| text(k, &v.to_string())).collect();
                let object = |m: &[String]| format!("{{{}}}", m.join(","));
                for (i, (k, v)) in map.iter().enumerate() {
                    let mut m = members.clone();
                    m.push(members[i].clone());
                    out.push(object(&m));
                    let mut m = members.clone();
                    m.remove(i);
                    out.push(object(&m));
                    for inner in variants(v) {
                        let mut m = members.clone();
                        m[i] = text(k, &inner);
                        out.push(object(&m));
                    }
                }
                let mut m = members.clone();
                m.rotate_left(1);
                out.push(object(&m));
                out.push(object(&[members.as_slice(), &["\"x\":1".to_owned()]].concat()));
            }
            Value::Array(items) => {
                let items: Vec<String> = items.iter().map(Value::to_string).collect();
                let array = |m: &[String]| format!("[{}]", m.join(","));
                for (i, v) in v.as_array().into_iter().flatten().enumerate() {
                    for inner in variants(v) {
                        let mut m = items.clone();
                        m[i] = inner;
                        out.push(array(&m));
                    }
                }
            }
            _ => {}
        }
        out
    }

    /// Edits of one entry's text (also used on whole logs' entries by the single pass's
    /// tests): token by token (numbers and strings replaced by what the
    /// plain reader must refuse or read as `serde_json` does, whitespace before every
    /// punctuation), and members repeated, removed, reordered or added at every depth.
    pub(crate) fn edits(text: &str) -> Vec<String> {
        const NUMBERS: [&str; 14] =
            ["-0", "01", "1.0", "1e1", "-1", "4294967296", "null", "\"1\"", "0", "2", "256", "true", "[]", "{}"];
        const STRINGS: [&str; 10] = [
            "\"\\u0061\"",
            "\"\"",
            "null",
            "\"carla\"",
            "\"c\\u0061rla\"",
            "\"monk\"",
            "\"c01\"",
            "\"green\"",
            "\"farm\"",
            "3",
        ];
        let mut out = chronicle_game::cursor::token_edits(text, &NUMBERS, &STRINGS, " \t\n\r");
        if let Ok(v) = serde_json::from_str::<Value>(text) {
            out.extend(variants(&v));
        }
        out
    }

    fn plain(text: &str) -> Option<Entry> {
        let mut c = Cursor::new(text);
        entry(&mut c).filter(|_| c.end().is_some())
    }

    /// What the plain reader reads, `Entry`'s own reading reads the same (it may refuse more:
    /// the usual reading then decides); and it reads every entry as the simulator writes it.
    #[test]
    fn the_plain_reading_of_an_entry_is_entrys_own_reading() {
        let (mut read, mut refused) = (0, 0);
        for text in entries() {
            let own = serde_json::from_str::<Entry>(&text).ok();
            if own.is_some() && !text.contains('\\') {
                assert_eq!(plain(&text), own, "{text}");
            }
            for edit in edits(&text) {
                match plain(&edit) {
                    Some(e) => {
                        read += 1;
                        assert_eq!(serde_json::from_str::<Entry>(&edit).ok(), Some(e), "{edit}");
                    }
                    None => refused += 1,
                }
            }
        }
        assert!(read > 20_000 && refused > 20_000, "edits read {read}, refused {refused}");
    }

    /// Spellings the plain reader leaves to the usual reading, though that reading may take
    /// them: never read differently, only refused.
    #[test]
    fn unusual_spellings_are_refused() {
        for text in [
            r#"{"player":1,"type":"pass"}"#,
            r#"{"type":"pass","type":"pass","player":1}"#,
            r#"{"type":"pass","player":"c\u0061rla"}"#,
            r#"{"type":"pass","player":"bob"}"#,
            r#"{"type":"mass","draw":[{"monk":null}]}"#,
            r#"{"type":"mass","draw":[{"player":1,"gen":2,"x":0}]}"#,
            r#"{"type":"death","player":0,"member":[1]}"#,
            r#"{"type":"turn","player":0,"action":{"coin_for":[],"do":"harvest"}}"#,
            r#"{"type":"turn","player":0,"action":{"do":"church","member":{"gen":1},"pay":null}}"#,
            r#"{"type":"turn","player":0,"well":{"color":"pink","coins":null}}"#,
        ] {
            assert_eq!(plain(text), None, "{text}");
        }
        let read = [
            r#"{"type":"mass","draw":["monk",{"gen":1,"player":"carla"},{"player":1,"gen":2}]}"#,
            r#"{"type":"turn","player":1,"well":{"color":"pink"},"free":true,"action":null,"take":null}"#,
            r#"{"type":"turn","player":0,"action":{"do":"council","advance":{"gen":2,"at":null},"pay":null}}"#,
        ];
        for text in read {
            assert_eq!(plain(text), serde_json::from_str(text).ok(), "{text}");
            assert!(plain(text).is_some(), "{text}");
        }
    }
}
