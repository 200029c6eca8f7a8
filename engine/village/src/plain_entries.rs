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

use chronicle_game::cursor::{Cursor, Key};
use chronicle_game::id_table::IdTable;

use crate::ids::{Building, Cube, Customer, Good, Space};
use crate::notation::{
    Action, DrawItem, Entry, MassBuy, MemberRef, MonkTag, Move, PopulateSpaces, Privilege, Promotion, RewardChoice,
    Take, WellNotation, Who,
};

type Read<T> = Option<T>;

/// The `"type"` of an entry.
#[derive(Clone, Copy)]
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

impl Kind {
    /// The kinds by their tags: `Entry`'s variants' names (its `rename_all = "snake_case"`).
    const TAGS: IdTable<Kind, 16> = IdTable::new(&[
        ("populate", Kind::Populate),
        ("turn", Kind::Turn),
        ("sale", Kind::Sale),
        ("pass", Kind::Pass),
        ("refill", Kind::Refill),
        ("death", Kind::Death),
        ("mass", Kind::Mass),
        ("carla", Kind::Carla),
        ("fate", Kind::Fate),
    ]);

    fn of(c: &mut Cursor) -> Read<Kind> {
        c.id_in(&Self::TAGS)
    }

    /// The members of an entry of this kind, in `Entry`'s order (as its writers put them).
    fn members(self) -> &'static [(Key, Name)] {
        const PLAYER: (Key, Name) = (Key::new("player"), Name::Player);
        const COIN_FOR: (Key, Name) = (Key::new("coin_for"), Name::CoinFor);
        match self {
            Kind::Populate => const { &[(Key::new("round"), Name::Round), (Key::new("spaces"), Name::Spaces)] },
            Kind::Turn => {
                const {
                    &[
                        PLAYER,
                        (Key::new("take"), Name::Take),
                        (Key::new("well"), Name::Well),
                        (Key::new("free"), Name::Free),
                        (Key::new("action"), Name::Action),
                    ]
                }
            }
            Kind::Sale => const { &[PLAYER, (Key::new("customer"), Name::Customer), COIN_FOR] },
            Kind::Pass => &[PLAYER],
            Kind::Refill => const { &[(Key::new("tiles"), Name::Tiles)] },
            Kind::Death => const { &[PLAYER, (Key::new("member"), Name::Member)] },
            Kind::Mass => {
                const {
                    &[
                        (Key::new("buy"), Name::Buy),
                        (Key::new("draw"), Name::Draw),
                        (Key::new("promote"), Name::Promote),
                    ]
                }
            }
            Kind::Carla => {
                const {
                    &[
                        (Key::new("rolls"), Name::Rolls),
                        (Key::new("space"), Name::Space),
                        (Key::new("cube"), Name::Cube),
                    ]
                }
            }
            Kind::Fate => const { &[(Key::new("set"), Name::Set), (Key::new("result"), Name::Result)] },
        }
    }
}

/// The `"do"` of an action.
#[derive(Clone, Copy)]
enum Do {
    Harvest,
    Family,
    Craft,
    Market,
    Council,
    Travel,
    Church,
}

impl Do {
    /// The actions by their tags: `Action`'s variants' names (its `rename_all = "snake_case"`).
    const TAGS: IdTable<Do, 16> = IdTable::new(&[
        ("harvest", Do::Harvest),
        ("family", Do::Family),
        ("craft", Do::Craft),
        ("market", Do::Market),
        ("council", Do::Council),
        ("travel", Do::Travel),
        ("church", Do::Church),
    ]);

    fn of(c: &mut Cursor) -> Read<Do> {
        c.id_in(&Self::TAGS)
    }

    /// The members of an action of this kind, in `Action`'s order (as its writers put them).
    fn members(self) -> &'static [(Key, Name)] {
        const COIN_FOR: (Key, Name) = (Key::new("coin_for"), Name::CoinFor);
        const MEMBER: (Key, Name) = (Key::new("member"), Name::Member);
        const PAY: (Key, Name) = (Key::new("pay"), Name::Pay);
        match self {
            Do::Harvest | Do::Market => &[COIN_FOR],
            Do::Family => const { &[(Key::new("recall"), Name::Recall), COIN_FOR] },
            Do::Craft => {
                const {
                    &[
                        (Key::new("building"), Name::Building),
                        (Key::new("good"), Name::Good),
                        PAY,
                        (Key::new("train"), Name::Train),
                        COIN_FOR,
                    ]
                }
            }
            Do::Council => {
                const {
                    &[
                        (Key::new("enter"), Name::Enter),
                        (Key::new("advance"), Name::Advance),
                        PAY,
                        (Key::new("privilege"), Name::Privilege),
                        COIN_FOR,
                    ]
                }
            }
            Do::Travel => const { &[MEMBER, (Key::new("to"), Name::To), (Key::new("reward"), Name::Reward), COIN_FOR] },
            Do::Church => const { &[MEMBER, PAY, COIN_FOR] },
        }
    }
}

/// A struct of two members, each read by its own reading and each possibly absent (the
/// caller says which must be there).
fn two<'a, A, B>(
    c: &mut Cursor<'a>,
    names: &[(Key, usize); 2],
    mut first: impl FnMut(&mut Cursor<'a>) -> Read<A>,
    mut second: impl FnMut(&mut Cursor<'a>) -> Read<B>,
) -> Read<(Option<A>, Option<B>)> {
    let (mut a, mut b) = (None, None);
    c.members(names, |c, i| {
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
    c.list(cube)
}

/// A cube colour by [`Cube::IDS`], which holds exactly the names `Cube`'s own reading takes
/// (`ids`' tests compare them), without serde's machinery for every cube of a log.
fn cube(c: &mut Cursor) -> Read<Cube> {
    c.id_in(&Cube::IDS)
}

/// An action space, as [`cube`] reads a cube.
fn space(c: &mut Cursor) -> Read<Space> {
    c.id_in(&Space::IDS)
}

/// A [`Who`], as its own reading has it: an unsigned integer is a seat, `"carla"` Carla.
fn who(c: &mut Cursor) -> Read<Who> {
    if c.peek() == Some(b'"') {
        return (c.str()? == "carla").then_some(Who::Carla);
    }
    Some(Who::Seat(usize::try_from(c.u64()?).unwrap_or(usize::MAX)))
}

fn member_ref(c: &mut Cursor) -> Read<MemberRef> {
    let (gen, at) = two(c, const { &Key::indexed(["gen", "at"]) }, u8, |c| c.nullable(string))?;
    Some(MemberRef { gen: gen?, at: at.flatten() })
}

fn take(c: &mut Cursor) -> Read<Take> {
    let (space, cube) = two(c, const { &Key::indexed(["space", "cube"]) }, space, cube)?;
    Some(Take { space: space?, cube: cube? })
}

/// `coins` defaults to 0 when absent (but `null` is not a number).
fn well(c: &mut Cursor) -> Read<WellNotation> {
    let (color, coins) = two(c, const { &Key::indexed(["color", "coins"]) }, cube, Cursor::u32)?;
    Some(WellNotation { color: color?, coins: coins.unwrap_or(0) })
}

fn privilege(c: &mut Cursor) -> Read<Privilege> {
    let (mut stage, mut cubes_, mut good) = (None, None, None);
    c.members(const { &Key::indexed(["stage", "cubes", "good"]) }, |c, i| {
        match i {
            0 => stage = Some(u8(c)?),
            1 => cubes_ = c.nullable(cubes)?,
            _ => good = c.nullable(|c| c.id_in(&Good::IDS))?,
        }
        Some(())
    })?;
    Some(Privilege { stage: stage?, cubes: cubes_, good })
}

fn reward(c: &mut Cursor) -> Read<RewardChoice> {
    let mut list = None;
    c.members(const { &Key::indexed(["cubes"]) }, |c, _| {
        list = Some(cubes(c)?);
        Some(())
    })?;
    Some(RewardChoice { cubes: list? })
}

fn populate_spaces(c: &mut Cursor) -> Read<PopulateSpaces> {
    const SPACES: [(Key, usize); 7] =
        Key::indexed(["harvest", "family", "crafts", "market", "travel", "council", "church"]);
    let mut lists: [Option<Vec<Cube>>; 7] = Default::default();
    c.members(&SPACES, |c, i| {
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
    let (player, gens) = two(c, const { &Key::indexed(["player", "gens"]) }, usize, |c| c.list(u8))?;
    Some(MassBuy { player: player?, gens: gens? })
}

fn moves(c: &mut Cursor) -> Read<Move> {
    let mut n: [Option<u8>; 3] = [None; 3];
    c.members(const { &Key::indexed(["gen", "from", "to"]) }, |c, i| {
        *n.get_mut(i)? = Some(u8(c)?);
        Some(())
    })?;
    let [gen, from, to] = n;
    Some(Move { gen: gen?, from: from?, to: to? })
}

fn promotion(c: &mut Cursor) -> Read<Promotion> {
    let (player, list) = two(c, const { &Key::indexed(["player", "moves"]) }, usize, |c| c.list(moves))?;
    Some(Promotion { player: player?, moves: list? })
}

/// A draw item: the string `"monk"`, or an object of exactly `player` and `gen` (the untagged
/// reading would also take other spellings, such as `{"monk": null}` or extra members: those
/// are left to it).
fn draw_item(c: &mut Cursor) -> Read<DrawItem> {
    if c.peek() == Some(b'"') {
        return (c.str()? == "monk").then_some(DrawItem::Monk(MonkTag::Monk));
    }
    let (player, gen) = two(c, const { &Key::indexed(["player", "gen"]) }, who, u8)?;
    Some(DrawItem::Member { player: player?, gen: gen? })
}

/// What a member of an entry or an action stands for (its name, [`Kind::members`], [`Do::members`]).
#[derive(Clone, Copy)]
enum Name {
    Round,
    Spaces,
    Player,
    Take,
    Well,
    Free,
    Action,
    Customer,
    CoinFor,
    Tiles,
    Member,
    Buy,
    Draw,
    Promote,
    Rolls,
    Space,
    Cube,
    Set,
    Result,
    Recall,
    Building,
    Good,
    Pay,
    Train,
    Enter,
    Advance,
    Privilege,
    To,
    Reward,
}

/// An object whose first member is `tag`, whose value `kind` reads (its kind `K`), the other
/// members among `names(K)`: `start` makes the empty parts `P` of that kind, each other member is
/// read by `read` into them, and `build` makes the value. The parts are only the kind's own (an
/// enum of kinds), so that starting, moving and dropping them costs what that kind has, not
/// what every kind together has. As [`Cursor::tagged_members`], with the tag's value read by a
/// plain `match` instead of serde's enum reading.
fn variant<'a, K: Copy, P, T>(
    c: &mut Cursor<'a>,
    tag: Key,
    kind: impl Fn(&mut Cursor<'a>) -> Read<K>,
    names: impl FnOnce(K) -> &'static [(Key, Name)],
    start: impl Fn(K) -> P,
    read: impl Fn(&mut Cursor<'a>, Name, &mut P) -> Read<()>,
    build: impl FnOnce(P) -> Read<T>,
) -> Read<T> {
    let mut parts: Option<P> = None;
    let k = c.tagged_members(tag, kind, names, |c, k, name| read(c, name, parts.get_or_insert_with(|| start(k))))?;
    build(parts.unwrap_or_else(|| start(k)))
}

/// An entry whose first member is `"type"`.
pub(crate) fn entry(c: &mut Cursor) -> Read<Entry> {
    variant(c, const { Key::new("type") }, Kind::of, Kind::members, EntryParts::start, entry_member, build_entry)
}

/// The members of one entry as read, by its kind, before they make its variant.
enum EntryParts {
    Populate {
        round: Option<u64>,
        spaces: Option<PopulateSpaces>,
    },
    Turn {
        seat: Option<usize>,
        take: Option<Take>,
        well: Option<WellNotation>,
        free: Option<bool>,
        action: Option<Action>,
    },
    Sale {
        who: Option<Who>,
        customer: Option<Customer>,
        coin_for: Option<Vec<Cube>>,
    },
    Pass {
        who: Option<Who>,
    },
    Refill {
        tiles: Option<Vec<Customer>>,
    },
    Death {
        seat: Option<usize>,
        member: Option<MemberRef>,
    },
    Mass {
        buy: Option<Vec<MassBuy>>,
        draw: Option<Vec<DrawItem>>,
        promote: Option<Vec<Promotion>>,
    },
    Carla {
        rolls: Option<Vec<Cube>>,
        space: Option<Space>,
        cube: Option<Cube>,
    },
    Fate {
        set: Option<crate::notation::FateSet>,
        result: Option<crate::notation::Face>,
    },
}

impl EntryParts {
    /// The parts of an entry of kind `kind` before any member.
    fn start(kind: Kind) -> EntryParts {
        match kind {
            Kind::Populate => EntryParts::Populate { round: None, spaces: None },
            Kind::Turn => EntryParts::Turn { seat: None, take: None, well: None, free: None, action: None },
            Kind::Sale => EntryParts::Sale { who: None, customer: None, coin_for: None },
            Kind::Pass => EntryParts::Pass { who: None },
            Kind::Refill => EntryParts::Refill { tiles: None },
            Kind::Death => EntryParts::Death { seat: None, member: None },
            Kind::Mass => EntryParts::Mass { buy: None, draw: None, promote: None },
            Kind::Carla => EntryParts::Carla { rolls: None, space: None, cube: None },
            Kind::Fate => EntryParts::Fate { set: None, result: None },
        }
    }
}

/// Reads the member `name` of an entry into its parts `p`.
fn entry_member(c: &mut Cursor, name: Name, p: &mut EntryParts) -> Read<()> {
    use EntryParts as P;
    match (p, name) {
        (P::Populate { round, .. }, Name::Round) => *round = Some(c.u64()?),
        (P::Populate { spaces, .. }, Name::Spaces) => *spaces = Some(populate_spaces(c)?),
        (P::Turn { seat, .. } | P::Death { seat, .. }, Name::Player) => *seat = Some(usize(c)?),
        (P::Sale { who, .. } | P::Pass { who }, Name::Player) => *who = Some(self::who(c)?),
        (P::Turn { take, .. }, Name::Take) => *take = c.nullable(self::take)?,
        (P::Turn { well, .. }, Name::Well) => *well = c.nullable(self::well)?,
        (P::Turn { free, .. }, Name::Free) => *free = c.nullable(Cursor::bool)?,
        (P::Turn { action, .. }, Name::Action) => *action = c.nullable(self::action)?,
        (P::Sale { customer, .. }, Name::Customer) => *customer = Some(c.id()?),
        (P::Sale { coin_for, .. }, Name::CoinFor) => *coin_for = Some(cubes(c)?),
        (P::Refill { tiles }, Name::Tiles) => *tiles = Some(c.list(Cursor::id)?),
        (P::Death { member, .. }, Name::Member) => *member = Some(member_ref(c)?),
        (P::Mass { buy, .. }, Name::Buy) => *buy = Some(c.list(mass_buy)?),
        (P::Mass { draw, .. }, Name::Draw) => *draw = c.nullable(|c| c.list(draw_item))?,
        (P::Mass { promote, .. }, Name::Promote) => *promote = Some(c.list(promotion)?),
        (P::Carla { rolls, .. }, Name::Rolls) => *rolls = c.nullable(cubes)?,
        (P::Carla { space, .. }, Name::Space) => *space = Some(self::space(c)?),
        (P::Carla { cube, .. }, Name::Cube) => *cube = Some(self::cube(c)?),
        (P::Fate { set, .. }, Name::Set) => *set = Some(c.id()?),
        (P::Fate { result, .. }, Name::Result) => *result = Some(c.id()?),
        _ => return None,
    }
    Some(())
}

/// The entry from its parts; `None` when a required member is missing.
fn build_entry(p: EntryParts) -> Read<Entry> {
    Some(match p {
        EntryParts::Populate { round, spaces } => Entry::Populate { round: round?, spaces: spaces? },
        EntryParts::Turn { seat, take, well, free, action } => Entry::Turn { player: seat?, take, well, free, action },
        EntryParts::Sale { who, customer, coin_for } => {
            Entry::Sale { player: who?, customer: customer?, coin_for: coin_for.unwrap_or_default() }
        }
        EntryParts::Pass { who } => Entry::Pass { player: who? },
        EntryParts::Refill { tiles } => Entry::Refill { tiles: tiles? },
        EntryParts::Death { seat, member } => Entry::Death { player: seat?, member: member? },
        EntryParts::Mass { buy, draw, promote } => {
            Entry::Mass { buy: buy.unwrap_or_default(), draw, promote: promote.unwrap_or_default() }
        }
        EntryParts::Carla { rolls, space, cube } => Entry::Carla { rolls, space: space?, cube: cube? },
        EntryParts::Fate { set, result } => Entry::Fate { set: set?, result: result? },
    })
}

/// The members of one action as read, by its kind, before they make its variant
/// (`coin_for`, which every action may have, beside them).
enum ActionKind {
    Harvest,
    Market,
    Family {
        recall: Option<MemberRef>,
    },
    Craft {
        building: Option<crate::ids::Building>,
        good: Option<crate::ids::Good>,
        pay: Option<crate::notation::Pay>,
        train: Option<MemberRef>,
    },
    Council {
        enter: Option<MemberRef>,
        advance: Option<MemberRef>,
        pay: Option<crate::notation::Pay>,
        privilege: Option<Privilege>,
    },
    Travel {
        member: Option<MemberRef>,
        to: Option<String>,
        reward: Option<RewardChoice>,
    },
    Church {
        member: Option<MemberRef>,
        pay: Option<crate::notation::Pay>,
    },
}

/// An action's parts: its kind's own and `coin_for`.
struct ActionParts {
    coin_for: Option<Vec<Cube>>,
    kind: ActionKind,
}

impl ActionParts {
    /// The parts of an action of kind `what` before any member.
    fn start(what: Do) -> ActionParts {
        let kind = match what {
            Do::Harvest => ActionKind::Harvest,
            Do::Market => ActionKind::Market,
            Do::Family => ActionKind::Family { recall: None },
            Do::Craft => ActionKind::Craft { building: None, good: None, pay: None, train: None },
            Do::Council => ActionKind::Council { enter: None, advance: None, pay: None, privilege: None },
            Do::Travel => ActionKind::Travel { member: None, to: None, reward: None },
            Do::Church => ActionKind::Church { member: None, pay: None },
        };
        ActionParts { coin_for: None, kind }
    }
}

/// An action whose first member is `"do"`.
fn action(c: &mut Cursor) -> Read<Action> {
    variant(c, const { Key::new("do") }, Do::of, Do::members, ActionParts::start, action_member, build_action)
}

/// Reads the member `name` of an action into its parts `p`.
fn action_member(c: &mut Cursor, name: Name, p: &mut ActionParts) -> Read<()> {
    use ActionKind as A;
    match (&mut p.kind, name) {
        (_, Name::CoinFor) => p.coin_for = Some(cubes(c)?),
        (A::Family { recall }, Name::Recall) => *recall = c.nullable(member_ref)?,
        (A::Craft { building, .. }, Name::Building) => *building = Some(c.id_in(&Building::IDS)?),
        (A::Craft { good, .. }, Name::Good) => *good = c.nullable(|c| c.id_in(&Good::IDS))?,
        // Optional for a craft or a council move, required for the church.
        (A::Craft { pay, .. } | A::Council { pay, .. }, Name::Pay) => *pay = c.nullable(Cursor::id)?,
        (A::Church { pay, .. }, Name::Pay) => *pay = Some(c.id()?),
        (A::Craft { train, .. }, Name::Train) => *train = c.nullable(member_ref)?,
        (A::Council { enter, .. }, Name::Enter) => *enter = c.nullable(member_ref)?,
        (A::Council { advance, .. }, Name::Advance) => *advance = c.nullable(member_ref)?,
        (A::Council { privilege, .. }, Name::Privilege) => *privilege = c.nullable(self::privilege)?,
        (A::Travel { member, .. } | A::Church { member, .. }, Name::Member) => *member = Some(member_ref(c)?),
        (A::Travel { to, .. }, Name::To) => *to = Some(string(c)?),
        (A::Travel { reward, .. }, Name::Reward) => *reward = c.nullable(self::reward)?,
        _ => return None,
    }
    Some(())
}

/// The action from its parts; `None` when a required member is missing.
fn build_action(p: ActionParts) -> Read<Action> {
    let coin_for = p.coin_for.unwrap_or_default();
    Some(match p.kind {
        ActionKind::Harvest => Action::Harvest { coin_for },
        ActionKind::Market => Action::Market { coin_for },
        ActionKind::Family { recall } => Action::Family { recall, coin_for },
        ActionKind::Craft { building, good, pay, train } => {
            Action::Craft { building: building?, good, pay, train, coin_for }
        }
        ActionKind::Council { enter, advance, pay, privilege } => {
            Action::Council { enter, advance, pay, privilege, coin_for }
        }
        ActionKind::Travel { member, to, reward } => Action::Travel { member: member?, to: to?, reward, coin_for },
        ActionKind::Church { member, pay } => Action::Church { member: member?, pay: pay?, coin_for },
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
        chronicle_game::cursor::whole(text, entry)
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
