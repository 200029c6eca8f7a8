//! The catalogue and the entries read by the strict cursor ([`chronicle_game::cursor`]) straight
//! from the log's text, for the single pass over a well-written log ([`crate::single_pass`]):
//! they are nearly all of a log's bytes, and serde's reading of them (a visitor per value, an
//! owned key per member) cost about as much as the rest of a replay.
//!
//! Each tagged object must have its tag first, as every writer of this project puts it (the
//! tag-first reading of [`crate::tag_first`] asks the same); each member is then read by the
//! notation's own reading of it: its name, its type, whether it may be absent (`Option` and
//! `#[serde(default)]` members) — mirrored exactly, so that what is read here is what the
//! notation's `Deserialize` reads. Anything else (a tag further on, an unknown, repeated or
//! missing member, a string with an escape, a number serde would read otherwise) gives `None`,
//! and the log is read the usual way. `tests` compares the two readings on simulated entries and
//! on thousands of edits of them.

use chronicle_game::cursor::{Cursor, Key};
use serde::Deserialize;

use crate::notation::{
    Action, BedCredit, BoardNotation, Bonus, CardNotation, CatDie, CatalogueNotation, CaveNotation, Discount, Effect,
    Entry, Free, Outcome, Payment, ReputationNotation, Rest, Roll, Step, StorageNotation, TurnCredit, VillagerNotation,
};

type Read<T> = Option<T>;

/// Stores a member's value, refusing a repeated member (the notation's structs refuse one).
fn set<T>(slot: &mut Option<T>, value: T) -> Read<()> {
    match slot {
        Some(_) => None,
        None => {
            *slot = Some(value);
            Some(())
        }
    }
}

/// The tag of a tagged object, which must be its first member: `{"tag": "kind"`. The other
/// members are then read by [`Cursor::members_after_first`].
fn open<'a, K: Deserialize<'a>>(c: &mut Cursor<'a>, tag: Key) -> Read<K> {
    (c.eat(b'{') && c.key(&tag) && c.eat(b':')).then_some(())?;
    c.id()
}

/// Reads an object's members ([`Cursor::members`]) or a tagged object's after its tag
/// ([`Cursor::members_after_first`]) into one local `Option` per named member, refusing any
/// other member or a repeated one. The names are compared with the text as the cursor's keys
/// ([`Key`]), the next expected in the order listed: the notation's, except that a member
/// writers usually leave out (a turn's free actions, an exploration's rolls, a step's
/// rerolls) comes after those they always write, so that the expected name is the one that
/// comes (an object is read in any order; a wrong guess only costs a search of the others).
macro_rules! members {
    ($how:ident, $c:expr; $($name:ident: $read:expr),* $(,)?) => {
        $(let mut $name = None;)*
        $c.$how(const { &Key::indexed([$(stringify!($name)),*]) }, |c, index| {
            let mut at = 0;
            $(
                if index == at {
                    return set(&mut $name, $read(c)?);
                }
                at += 1;
            )*
            let _ = at;
            None
        })?;
    };
}

fn string(c: &mut Cursor) -> Read<String> {
    c.str().map(str::to_owned)
}

fn strings(c: &mut Cursor) -> Read<Vec<String>> {
    list(string)(c)
}

fn ids<'a, T: Deserialize<'a>>(c: &mut Cursor<'a>) -> Read<Vec<T>> {
    list(Cursor::id)(c)
}

fn i32(c: &mut Cursor) -> Read<i32> {
    i32::try_from(c.i64()?).ok()
}

fn u32s(c: &mut Cursor) -> Read<Vec<u32>> {
    list(Cursor::u32)(c)
}

/// `null` or the value `read` reads (an `Option` member).
fn maybe<'a, T>(read: impl Fn(&mut Cursor<'a>) -> Read<T>) -> impl Fn(&mut Cursor<'a>) -> Read<Option<T>> {
    move |c| c.nullable(&read)
}

/// An array read into a `Vec`, allocated at its first item with room for [`FEW`] items: the
/// lists of a log are short (a card's effects, a party, a step's outcome), and a list grown
/// from nothing by its first push took the allocator's slower path of growing.
fn list<'a, T>(read: impl Fn(&mut Cursor<'a>) -> Read<T>) -> impl Fn(&mut Cursor<'a>) -> Read<Vec<T>> {
    move |c| {
        let mut items = Vec::new();
        c.array(|c| {
            let item = read(c)?;
            if items.capacity() == 0 {
                items = Vec::with_capacity(FEW);
            }
            items.push(item);
            Some(())
        })?;
        Some(items)
    }
}

/// The room a [`list`] has from its first item: as much as a first push gives.
const FEW: usize = 4;

/// [`list`] into a `Vec` with room for `capacity` items from the start, for the lists whose
/// usual length is known (a cave's six paragraphs, a game's entries, a catalogue's cards): a
/// list grown by doubling reallocates and copies its items at every power of two.
pub(crate) fn sized<'a, T>(
    capacity: usize,
    read: impl Fn(&mut Cursor<'a>) -> Read<T>,
) -> impl Fn(&mut Cursor<'a>) -> Read<Vec<T>> {
    move |c| {
        let mut items = Vec::with_capacity(capacity);
        c.array(|c| {
            items.push(read(c)?);
            Some(())
        })?;
        Some(items)
    }
}

/// A pair `[i64, u32]`, as serde reads a tuple: exactly two items.
fn pair(c: &mut Cursor) -> Read<(i64, u32)> {
    let (mut first, mut second, mut n) = (None, None, 0);
    c.array(|c| {
        n += 1;
        match n {
            1 => first = Some(c.i64()?),
            2 => second = Some(c.u32()?),
            _ => return None,
        }
        Some(())
    })?;
    Some((first?, second?))
}

/// The members after the tag of a variant whose only member is `n`.
fn only_n<'a, T>(c: &mut Cursor<'a>, read: impl Fn(&mut Cursor<'a>) -> Read<T>) -> Read<T> {
    members!(members_after_first, c; n: read);
    n
}

// ---------------------------------------------------------------------------------------------
// Catalogue

pub(crate) fn catalogue(c: &mut Cursor) -> Read<CatalogueNotation> {
    // Room for a catalogue the size of the printed game's (H.1) from the start: the synthetic
    // one has 66 cards, 27 villagers and 25 caves.
    members!(members, c; extends: maybe(string), source: maybe(string), cards: sized(128, card),
        villagers: sized(32, villager), caves: sized(32, cave));
    Some(CatalogueNotation {
        extends: extends.flatten(),
        source: source.flatten(),
        cards: cards.unwrap_or_default(),
        villagers: villagers.unwrap_or_default(),
        caves: caves.unwrap_or_default(),
    })
}

fn card(c: &mut Cursor) -> Read<CardNotation> {
    members!(members, c; id: string, kind: Cursor::id, cost: maybe(Cursor::u32), effects: maybe(list(effect)));
    Some(CardNotation { id: id?, kind: kind?, cost: cost.flatten(), effects: effects.flatten() })
}

fn effect(c: &mut Cursor) -> Read<Effect> {
    #[derive(Deserialize)]
    #[serde(rename_all = "snake_case")]
    enum K {
        Beds,
        Vp,
        VpPer,
        IncomeCoins,
        IncomePotions,
        IncomePerStored,
        GoodsOnce,
        GoodsRefill,
        PotionsOnce,
        ReputationOnce,
        TrainToReady,
        CoinOnBuild,
        CoinOnExplore,
        Rerolls,
        CiderAsCoin,
        PotionAsCoin,
        Custom,
    }
    let kind: K = open(c, const { Key::new("effect") })?;
    let u = |c: &mut Cursor| only_n(c, Cursor::u32);
    let i = |c: &mut Cursor| only_n(c, i32);
    let unit = |c: &mut Cursor| c.members_after_first(&[], |_, _: usize| None);
    Some(match kind {
        K::Beds => Effect::Beds { n: u(c)? },
        K::Vp => Effect::Vp { n: i(c)? },
        K::VpPer => {
            members!(members_after_first, c; per: ids, n: i32);
            Effect::VpPer { per: per?, n: n? }
        }
        K::IncomeCoins => Effect::IncomeCoins { n: u(c)? },
        K::IncomePotions => Effect::IncomePotions { n: u(c)? },
        K::IncomePerStored => {
            members!(members_after_first, c; goods: ids, n: Cursor::u32);
            Effect::IncomePerStored { goods: goods?, n: n? }
        }
        K::GoodsOnce => {
            members!(members_after_first, c; good: Cursor::id, n: Cursor::u32);
            Effect::GoodsOnce { good: good?, n: n? }
        }
        K::GoodsRefill => {
            members!(members_after_first, c; good: Cursor::id);
            Effect::GoodsRefill { good: good? }
        }
        K::PotionsOnce => Effect::PotionsOnce { n: u(c)? },
        K::ReputationOnce => Effect::ReputationOnce { n: i(c)? },
        K::TrainToReady => unit(c).map(|()| Effect::TrainToReady)?,
        K::CoinOnBuild => Effect::CoinOnBuild { n: u(c)? },
        K::CoinOnExplore => Effect::CoinOnExplore { n: u(c)? },
        K::Rerolls => Effect::Rerolls { n: u(c)? },
        K::CiderAsCoin => unit(c).map(|()| Effect::CiderAsCoin)?,
        K::PotionAsCoin => unit(c).map(|()| Effect::PotionAsCoin)?,
        K::Custom => {
            members!(members_after_first, c; text: string);
            Effect::Custom { text: text? }
        }
    })
}

fn villager(c: &mut Cursor) -> Read<VillagerNotation> {
    members!(members, c; id: string, kind: Cursor::id, skills: maybe(ids), explore: maybe(list(pair)),
        traits: maybe(ids), tags: maybe(strings));
    Some(VillagerNotation {
        id: id?,
        kind: kind?,
        skills: skills.flatten(),
        explore: explore.flatten(),
        traits: traits.flatten(),
        tags: tags.flatten(),
    })
}

fn cave(c: &mut Cursor) -> Read<CaveNotation> {
    members!(members, c; id: string, paragraphs: maybe(sized(6, Cursor::u32)));
    Some(CaveNotation { id: id?, paragraphs: paragraphs.flatten() })
}

// ---------------------------------------------------------------------------------------------
// Board

/// A `setup.board` object: read once per log, but by serde it cost as much as a tenth of the
/// catalogue.
pub(crate) fn board(c: &mut Cursor) -> Read<BoardNotation> {
    members!(members, c; source: maybe(string), storage: maybe(board_storage), reputation: maybe(board_reputation),
        train_costs: maybe(u32s));
    Some(BoardNotation {
        source: source.flatten(),
        storage: storage.flatten(),
        reputation: reputation.flatten(),
        train_costs: train_costs.flatten(),
    })
}

fn board_storage(c: &mut Cursor) -> Read<StorageNotation> {
    members!(members, c; base_income: maybe(Cursor::u32), spaces: maybe(list(two(Cursor::u32))));
    Some(StorageNotation { base_income: base_income.flatten(), spaces: spaces.flatten() })
}

fn board_reputation(c: &mut Cursor) -> Read<ReputationNotation> {
    members!(members, c; track: maybe(list(two(i32))));
    Some(ReputationNotation { track: track.flatten() })
}

/// A pair of values of one type, as serde reads a tuple: exactly two items.
fn two<'a, T: Copy>(read: impl Fn(&mut Cursor<'a>) -> Read<T>) -> impl Fn(&mut Cursor<'a>) -> Read<(T, T)> {
    move |c| c.exactly::<T, 2>(&read).map(|[a, b]| (a, b))
}

// ---------------------------------------------------------------------------------------------
// Entries

pub(crate) fn entry(c: &mut Cursor) -> Read<Entry> {
    #[derive(Deserialize)]
    #[serde(rename_all = "snake_case")]
    enum K {
        Turn,
        Pass,
        Store,
        RoundEnd,
        Declare,
    }
    let kind: K = open(c, const { Key::new("type") })?;
    Some(match kind {
        K::Turn => {
            members!(members_after_first, c; player: Cursor::u64, action: maybe(turn_action), free: list(free_action),
                cat_fails: list(cat_die), custom: list(turn_credit));
            Entry::Turn {
                player: player?,
                free: free.unwrap_or_default(),
                cat_fails: cat_fails.unwrap_or_default(),
                action: action.flatten(),
                custom: custom.unwrap_or_default(),
            }
        }
        K::Pass => {
            members!(members_after_first, c; player: Cursor::u64, free: list(free_action));
            Entry::Pass { player: player?, free: free.unwrap_or_default() }
        }
        K::Store => {
            members!(members_after_first, c; player: Cursor::u64, goods: ids);
            Entry::Store { player: player?, goods: goods? }
        }
        K::RoundEnd => {
            members!(members_after_first, c; villagers: maybe(strings), rest: list(rest_choices));
            Entry::RoundEnd { villagers: villagers.flatten(), rest: rest.unwrap_or_default() }
        }
        K::Declare => {
            members!(members_after_first, c; player: Cursor::u64, card: string, vp: i32);
            Entry::Declare { player: player?, card: card?, vp: vp? }
        }
    })
}

fn cat_die(c: &mut Cursor) -> Read<CatDie> {
    members!(members, c; villager: string, die: maybe(Cursor::i64));
    Some(CatDie { villager: villager?, die: die.flatten() })
}

fn roll(c: &mut Cursor) -> Read<Roll> {
    members!(members, c; villager: string, die: maybe(Cursor::i64));
    Some(Roll { villager: villager?, die: die.flatten() })
}

fn payment(c: &mut Cursor) -> Read<Payment> {
    members!(members, c; coins: Cursor::u32, cider: Cursor::u32, potions: Cursor::u32);
    Some(Payment {
        coins: coins.unwrap_or_default(),
        cider: cider.unwrap_or_default(),
        potions: potions.unwrap_or_default(),
    })
}

fn discount(c: &mut Cursor) -> Read<Discount> {
    members!(members, c; card: string, discount: Cursor::u32);
    Some(Discount { card: card?, discount: discount? })
}

fn turn_credit(c: &mut Cursor) -> Read<TurnCredit> {
    members!(members, c; card: string, coins: maybe(Cursor::u32), goods: maybe(ids), potions: maybe(Cursor::u32),
        cider: maybe(Cursor::u32), reputation: maybe(i32));
    Some(TurnCredit {
        card: card?,
        coins: coins.flatten(),
        goods: goods.flatten(),
        potions: potions.flatten(),
        cider: cider.flatten(),
        reputation: reputation.flatten(),
    })
}

fn turn_action(c: &mut Cursor) -> Read<Action> {
    #[derive(Deserialize)]
    #[serde(rename_all = "snake_case")]
    enum K {
        Explore,
        Harvest,
        Build,
        Train,
        Labor,
    }
    let kind: K = open(c, const { Key::new("do") })?;
    Some(match kind {
        K::Explore => {
            members!(members_after_first, c; party: strings, cave: maybe(string), die: maybe(Cursor::i64), step: explore_step,
                cat_rolls: list(cat_die), rolls: maybe(list(roll)), rerolls: list(roll));
            Action::Explore {
                party: party?,
                cat_rolls: cat_rolls.unwrap_or_default(),
                cave: cave.flatten(),
                die: die.flatten(),
                rolls: rolls.flatten(),
                rerolls: rerolls.unwrap_or_default(),
                step: Box::new(step?),
            }
        }
        K::Harvest => {
            members!(members_after_first, c; villagers: strings, take: strings, cat_rolls: list(cat_die));
            Action::Harvest {
                villagers: villagers?,
                take: take.unwrap_or_default(),
                cat_rolls: cat_rolls.unwrap_or_default(),
            }
        }
        K::Build => {
            members!(members_after_first, c; villager: string, card: string, cave: maybe(string), pay: maybe(payment),
                refill: maybe(string), custom: list(discount), cat_rolls: list(cat_die));
            Action::Build {
                villager: villager?,
                card: card?,
                cave: cave.flatten(),
                pay: pay.flatten(),
                refill: refill.flatten(),
                custom: custom.unwrap_or_default(),
                cat_rolls: cat_rolls.unwrap_or_default(),
            }
        }
        K::Train => {
            members!(members_after_first, c; villager: string, slot: Cursor::i64, recruit: maybe(string), pay: maybe(payment),
                custom: list(discount), cat_rolls: list(cat_die));
            Action::Train {
                villager: villager?,
                slot: slot?,
                recruit: recruit.flatten(),
                pay: pay.flatten(),
                custom: custom.unwrap_or_default(),
                cat_rolls: cat_rolls.unwrap_or_default(),
            }
        }
        K::Labor => {
            members!(members_after_first, c; villagers: strings, cat_rolls: list(cat_die));
            Action::Labor { villagers: villagers?, cat_rolls: cat_rolls.unwrap_or_default() }
        }
    })
}

fn free_action(c: &mut Cursor) -> Read<Free> {
    #[derive(Deserialize)]
    #[serde(rename_all = "snake_case")]
    enum K {
        Offer,
        Buy,
        Refresh,
        Store,
    }
    let kind: K = open(c, const { Key::new("do") })?;
    Some(match kind {
        K::Offer => {
            members!(members_after_first, c; item: maybe(Cursor::id));
            Free::Offer { item: item.flatten() }
        }
        K::Buy => {
            members!(members_after_first, c; from: Cursor::u64, price: Cursor::i64);
            Free::Buy { from: from?, price: price? }
        }
        K::Refresh => {
            members!(members_after_first, c; row: Cursor::id, drawn: maybe(strings), pay: maybe(payment));
            Free::Refresh { row: row?, drawn: drawn.flatten(), pay: pay.flatten() }
        }
        K::Store => {
            members!(members_after_first, c; goods: ids);
            Free::Store { goods: goods? }
        }
    })
}

fn explore_step(c: &mut Cursor) -> Read<Step> {
    members!(members, c; paragraph: Cursor::u32, option: Cursor::u32, thresholds: u32s, reached: maybe(Cursor::u32),
        outcome: list(outcome_item), rerolls: list(roll), bonus: list(bonus_lanterns), efforts: strings,
        then: maybe(explore_step));
    Some(Step {
        paragraph: paragraph?,
        option: option?,
        thresholds: thresholds?,
        rerolls: rerolls.unwrap_or_default(),
        bonus: bonus.unwrap_or_default(),
        efforts: efforts.unwrap_or_default(),
        // Required, `null` for failure.
        reached: reached?,
        outcome: outcome?,
        then: then.flatten().map(Box::new),
    })
}

fn bonus_lanterns(c: &mut Cursor) -> Read<Bonus> {
    #[derive(Deserialize)]
    #[serde(rename_all = "snake_case")]
    enum K {
        PerSkill,
        IfHave,
        PerHave,
        IfTag,
        Pay,
        Custom,
        Card,
    }
    let kind: K = open(c, const { Key::new("kind") })?;
    Some(match kind {
        K::PerSkill => {
            members!(members_after_first, c; skill: Cursor::id, n: Cursor::u32);
            Bonus::PerSkill { skill: skill?, n: n? }
        }
        K::IfHave => {
            members!(members_after_first, c; item: Cursor::id, n: Cursor::u32);
            Bonus::IfHave { item: item?, n: n? }
        }
        K::PerHave => {
            members!(members_after_first, c; item: Cursor::id, n: Cursor::u32);
            Bonus::PerHave { item: item?, n: n? }
        }
        K::IfTag => {
            members!(members_after_first, c; tag: string, n: Cursor::u32);
            Bonus::IfTag { tag: tag?, n: n? }
        }
        K::Pay => {
            members!(members_after_first, c; coins: Cursor::u32, n: Cursor::u32, with: maybe(payment));
            Bonus::Pay { coins: coins?, n: n?, with: with.flatten() }
        }
        K::Custom => {
            members!(members_after_first, c; n: Cursor::u32, text: string);
            Bonus::Custom { n: n?, text: text? }
        }
        K::Card => {
            members!(members_after_first, c; card: string, n: Cursor::u32);
            Bonus::Card { card: card?, n: n? }
        }
    })
}

fn outcome_item(c: &mut Cursor) -> Read<Outcome> {
    #[derive(Deserialize)]
    #[serde(rename_all = "snake_case")]
    enum K {
        Coins,
        Pay,
        LoseCoins,
        Good,
        Potion,
        Cider,
        Reputation,
        Villager,
        Cave,
        Card,
        Injure,
        LoseGood,
        LoseVillager,
        Nothing,
        Custom,
    }
    let kind: K = open(c, const { Key::new("get") })?;
    let u = |c: &mut Cursor| only_n(c, Cursor::u32);
    let i = |c: &mut Cursor| only_n(c, Cursor::i64);
    Some(match kind {
        K::Coins => Outcome::Coins { n: i(c)? },
        K::Pay => {
            members!(members_after_first, c; n: Cursor::u32, with: maybe(payment));
            Outcome::Pay { n: n?, with: with.flatten() }
        }
        K::LoseCoins => Outcome::LoseCoins { n: u(c)? },
        K::Good => {
            members!(members_after_first, c; good: Cursor::id, n: Cursor::u32);
            Outcome::Good { good: good?, n: n? }
        }
        K::Potion => Outcome::Potion { n: u(c)? },
        K::Cider => Outcome::Cider { n: u(c)? },
        K::Reputation => Outcome::Reputation { n: i(c)? },
        K::Villager => {
            members!(members_after_first, c; villager: string, from: Cursor::id, which: maybe(Cursor::id));
            Outcome::Villager { villager: villager?, from: from?, which: which.flatten() }
        }
        K::Cave => {
            members!(members_after_first, c; card: maybe(string));
            Outcome::Cave { card: card.flatten() }
        }
        K::Card => {
            members!(members_after_first, c; card: string, max_cost: maybe(Cursor::u32), cave: maybe(string), refill: maybe(string));
            Outcome::Card { card: card?, max_cost: max_cost.flatten(), cave: cave.flatten(), refill: refill.flatten() }
        }
        K::Injure => {
            members!(members_after_first, c; villagers: strings);
            Outcome::Injure { villagers: villagers? }
        }
        K::LoseGood => {
            members!(members_after_first, c; item: Cursor::id, n: Cursor::u32);
            Outcome::LoseGood { item: item?, n: n? }
        }
        K::LoseVillager => {
            members!(members_after_first, c; villager: string);
            Outcome::LoseVillager { villager: villager? }
        }
        K::Nothing => c.members_after_first(&[], |_, _: usize| None).map(|()| Outcome::Nothing)?,
        K::Custom => {
            members!(members_after_first, c; text: string);
            Outcome::Custom { text: text? }
        }
    })
}

fn rest_choices(c: &mut Cursor) -> Read<Rest> {
    members!(members, c; player: Cursor::u64, potions: strings, cider: strings, beds: strings, custom: list(bed_credit));
    Some(Rest {
        player: player?,
        potions: potions.unwrap_or_default(),
        cider: cider.unwrap_or_default(),
        beds: beds.unwrap_or_default(),
        custom: custom.unwrap_or_default(),
    })
}

fn bed_credit(c: &mut Cursor) -> Read<BedCredit> {
    members!(members, c; card: string, beds: strings);
    Some(BedCredit { card: card?, beds: beds? })
}

#[cfg(test)]
pub(crate) mod tests {
    use serde::de::DeserializeOwned;
    use serde_json::Value;

    use super::*;
    use crate::tag_first::TagFirst;

    /// Simulated games of 2–4 players, as JSON trees.
    fn simulated() -> Vec<Value> {
        (2..=4u8)
            .flat_map(|players| (0..2).map(move |seed| crate::bots::simulate(seed, players).expect("simulate")))
            .collect()
    }

    /// Every object of `value` with one member edited: repeated, removed, added, or the first
    /// moved last (one object at a time, at every depth).
    fn member_edits(value: &Value) -> Vec<Value> {
        let mut out = Vec::new();
        match value {
            Value::Object(map) => {
                let members: Vec<(String, Value)> = map.iter().map(|(k, v)| (k.clone(), v.clone())).collect();
                // Kept as text: a repeated member cannot be held by a `Value`.
                for k in 0..members.len() {
                    let mut m = members.clone();
                    m.push(members[k].clone());
                    out.push(Value::String(format!("\u{0}{}", text_of(&m))));
                    let mut m = members.clone();
                    m.remove(k);
                    out.push(Value::String(format!("\u{0}{}", text_of(&m))));
                }
                let mut m = members.clone();
                m.rotate_left(1);
                out.push(Value::String(format!("\u{0}{}", text_of(&m))));
                m.push(("x".into(), Value::from(1)));
                out.push(Value::String(format!("\u{0}{}", text_of(&m))));
                for (k, v) in &members {
                    for edited in member_edits(v) {
                        let mut m = members.clone();
                        m.iter_mut().find(|(name, _)| name == k).expect("member").1 = edited;
                        out.push(Value::String(format!("\u{0}{}", text_of(&m))));
                    }
                }
            }
            Value::Array(items) => {
                for (i, item) in items.iter().enumerate() {
                    for edited in member_edits(item) {
                        let mut items: Vec<String> = items.iter().map(Value::to_string).collect();
                        items[i] = raw(&edited);
                        out.push(Value::String(format!("\u{0}[{}]", items.join(","))));
                    }
                }
            }
            _ => {}
        }
        out
    }

    /// An edited value's text: an edit is kept as a string marked by a leading NUL.
    fn raw(value: &Value) -> String {
        match value {
            Value::String(s) if s.starts_with('\u{0}') => s[1..].to_owned(),
            v => v.to_string(),
        }
    }

    fn text_of(members: &[(String, Value)]) -> String {
        let inner: Vec<String> =
            members.iter().map(|(k, v)| format!("{}:{}", Value::from(k.as_str()), raw(v))).collect();
        format!("{{{}}}", inner.join(","))
    }

    /// Edits of a text, token by token: numbers and strings replaced by what the plain reader
    /// must refuse or read as `serde_json` does, whitespace in every place; then the member
    /// edits of [`member_edits`].
    pub(crate) fn edits(text: &str) -> Vec<String> {
        const NUMBERS: [&str; 13] =
            ["-0", "01", "1.0", "1e1", "-1", "4294967296", "null", "\"1\"", "0", "-9", "true", "[]", "2147483648"];
        const STRINGS: [&str; 8] =
            ["\"\\u0061\"", "\"\"", "null", "\"wood\"", "\"potion\"", "\"x\\\"\"", "\"villager\"", "\"houses\""];
        let mut out = chronicle_game::cursor::token_edits(text, &NUMBERS, &STRINGS, " \t\n");
        let value: Value = serde_json::from_str(text).expect("json");
        out.extend(member_edits(&value).iter().map(raw));
        out
    }

    /// What `read` reads of each text and its edits, the notation's `Deserialize` and its
    /// tag-first reading (the single pass's before this reader) read the same; each text as the
    /// simulator writes it is read. Returns how many edits were read and refused.
    fn compare<T: PartialEq + std::fmt::Debug + DeserializeOwned>(
        texts: &[String],
        read: impl Fn(&mut Cursor) -> Read<T>,
        tag_first: impl Fn(&str) -> Option<T>,
    ) -> (usize, usize) {
        let (mut read_n, mut refused) = (0, 0);
        for text in texts {
            assert_eq!(
                chronicle_game::cursor::whole(text, &read).as_ref(),
                Some(&serde_json::from_str::<T>(text).expect("serde")),
                "{text}"
            );
            for edit in edits(text) {
                match chronicle_game::cursor::whole(&edit, &read) {
                    Some(v) => {
                        read_n += 1;
                        assert_eq!(serde_json::from_str::<T>(&edit).ok().as_ref(), Some(&v), "{edit}");
                        assert_eq!(tag_first(&edit).as_ref(), Some(&v), "{edit}");
                    }
                    None => refused += 1,
                }
            }
        }
        (read_n, refused)
    }

    #[test]
    fn the_plain_reading_of_an_entry_is_the_notations_own() {
        let texts: Vec<String> = simulated()
            .iter()
            .flat_map(|log| {
                log["entries"].as_array().expect("entries").iter().map(Value::to_string).collect::<Vec<_>>()
            })
            .collect();
        let tag_first = |t: &str| serde_json::from_str::<TagFirst<Entry>>(t).ok().map(|e| e.0);
        let (read, refused) = compare(&texts, entry, tag_first);
        assert!(read > 5000 && refused > 5000, "edits read {read}, refused {refused}");
    }

    #[test]
    fn the_plain_reading_of_a_catalogue_is_the_notations_own() {
        let log = &simulated()[0];
        let catalogue = &log["setup"]["catalogue"];
        // Each card, villager and cave in a catalogue of its own, and the catalogue's members.
        let mut texts: Vec<String> = ["cards", "villagers", "caves"]
            .iter()
            .flat_map(|list| {
                catalogue[list].as_array().expect("list").iter().map(move |item| format!("{{\"{list}\":[{item}]}}"))
            })
            .collect();
        let mut top = catalogue.clone();
        for list in ["cards", "villagers", "caves"] {
            top[list] = Value::Array(catalogue[list].as_array().expect("list")[..1].to_vec());
        }
        top["extends"] = Value::from("base");
        top["source"] = Value::from("test");
        texts.push(top.to_string());
        texts.push(catalogue.to_string());
        let tag_first = |t: &str| serde_json::from_str::<TagFirst<CatalogueNotation>>(t).ok().map(|c| c.0);
        let (read, refused) = compare(&texts[..texts.len() - 1], catalogue_read, tag_first);
        assert!(read > 2000 && refused > 2000, "edits read {read}, refused {refused}");
        // The whole catalogue as written, without its (many) edits.
        let whole_text = texts.last().expect("catalogue");
        assert_eq!(chronicle_game::cursor::whole(whole_text, catalogue_read), serde_json::from_str(whole_text).ok());
    }

    fn catalogue_read(c: &mut Cursor) -> Read<CatalogueNotation> {
        catalogue(c)
    }
}
