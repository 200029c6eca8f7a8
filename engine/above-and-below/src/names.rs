//! The log's catalogue in the players' words: cards, villagers and caves by name, with what
//! their declared entries say they do (`docs/rules/above-and-below.md` B.2–B.7), goods and
//! tokens as players say them (A.1–A.2). The sentences ([`crate::sentence`]) and the board view
//! ([`crate::view`]) both name things through here, so a card reads the same everywhere.
//!
//! Names: format `/1`'s catalogue declares ids, costs and effects but no printed names (the
//! printed texts are not available to the project, B.1), so a card's name is its id in words,
//! capitalised as a name is (`house_05` → "House 05"). Should a later catalogue declare names,
//! [`name`] is the one place that changes. Effects are the catalogue's own, never the printed
//! cards': nothing here invents card data.

use chronicle_game::view::words;

use crate::catalogue::{CardDef, Catalogue, VillagerDef};
use crate::ids::{Good, Item, Skill, Token, Trait};
use crate::notation::{CardKind, Counter, Effect, Payment};

/// A card, villager or cave by name: its id in words, capitalised ("House 05", "Start quill").
pub fn name(id: &str) -> String {
    let text = words(id);
    let mut chars = text.chars();
    chars.next().map_or_else(String::new, |first| first.to_uppercase().chain(chars).collect())
}

/// A good as players say it ("fish", "amethyst").
pub fn good(g: Good) -> String {
    words(g.id())
}

/// A goods token, potion or cider as players say it.
pub fn item(i: Item) -> String {
    words(i.id())
}

/// `n` of something, singular for one ("1 coin", "3 coins"); goods and cider have no plural.
pub fn count(n: impl Into<i64>, one: &str, many: &str) -> String {
    let n = n.into();
    if n.abs() == 1 {
        format!("{n} {one}")
    } else {
        format!("{n} {many}")
    }
}

/// Coins, the game's money ("1 coin", "4 coins").
pub fn coins(n: impl Into<i64>) -> String {
    count(n, "coin", "coins")
}

/// `n` of an item ("2 fish", "1 potion", "3 potions", "2 cider").
pub fn items(i: Item, n: impl Into<i64>) -> String {
    match i {
        Item::Other(Token::Potion) => count(n, "potion", "potions"),
        _ => format!("{} {}", n.into(), item(i)),
    }
}

/// Words of a list joined as a sentence says it: "a", "a and b", "a, b and c".
pub fn and_list<S: AsRef<str>>(parts: &[S]) -> String {
    match parts {
        [] => String::new(),
        [one] => one.as_ref().to_owned(),
        [rest @ .., last] => {
            format!("{} and {}", rest.iter().map(AsRef::as_ref).collect::<Vec<_>>().join(", "), last.as_ref())
        }
    }
}

/// Goods in placement order, counted by type in the order each first appears ("2 fish and
/// 1 ore" for fish, ore, fish): how a player says what they store.
pub fn goods_list(goods: &[Good]) -> String {
    let mut counted: Vec<(Good, u32)> = Vec::new();
    for g in goods {
        match counted.iter_mut().find(|(t, _)| t == g) {
            Some((_, n)) => *n += 1,
            None => counted.push((*g, 1)),
        }
    }
    let parts: Vec<String> = counted.iter().map(|(g, n)| format!("{n} {}", good(*g))).collect();
    if parts.is_empty() {
        "nothing".to_owned()
    } else {
        and_list(&parts)
    }
}

/// A payment object (D.5.3) as what was handed over ("2 coins and 1 cider"); an all-zero one
/// is "nothing".
pub fn payment(p: &Payment) -> String {
    let mut parts = Vec::new();
    if p.coins > 0 {
        parts.push(coins(p.coins));
    }
    if p.cider > 0 {
        parts.push(format!("{} cider", p.cider));
    }
    if p.potions > 0 {
        parts.push(count(p.potions, "potion", "potions"));
    }
    if parts.is_empty() {
        "nothing".to_owned()
    } else {
        and_list(&parts)
    }
}

/// A card kind as players call the card (A.7).
pub fn card_kind(kind: CardKind) -> &'static str {
    match kind {
        CardKind::Starting => "starting house",
        CardKind::Basic => "house",
        CardKind::Key => "key house",
        CardKind::Star => "star house",
        CardKind::Outpost => "outpost",
    }
}

/// A `vp_per` counter (B.3) as the thing counted.
fn counter(c: Counter) -> String {
    match c {
        Counter::Villager => "villager".to_owned(),
        Counter::House => "house".to_owned(),
        Counter::Outpost => "outpost".to_owned(),
        Counter::EmptyCave => "empty cave".to_owned(),
        Counter::Item(i) => item(i),
    }
}

/// Goods as alternatives ("ore or amethyst").
fn or_list(parts: &[String]) -> String {
    match parts {
        [rest @ .., last] if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
        _ => parts.join(""),
    }
}

/// One effect of the closed vocabulary (B.3) as what it does for its owner.
pub fn effect(e: &Effect) -> String {
    match e {
        Effect::Beds { n } => count(*n, "bed", "beds"),
        Effect::Vp { n } => format!("{n} VP"),
        Effect::VpPer { per, n } => {
            format!("{n} VP per {}", or_list(&per.iter().map(|c| counter(*c)).collect::<Vec<_>>()))
        }
        Effect::IncomeCoins { n } => format!("{} of income each round", coins(*n)),
        Effect::IncomePotions { n } => format!("{} of income each round", count(*n, "potion", "potions")),
        Effect::IncomePerStored { goods, n } => {
            let stored = or_list(&goods.iter().map(|g| good(*g)).collect::<Vec<_>>());
            format!("{} of income per stored {stored}", coins(*n))
        }
        Effect::GoodsOnce { good: g, n } => format!("comes with {n} {}", good(*g)),
        Effect::GoodsRefill { good: g } => format!("1 {}, restocked each round", good(*g)),
        Effect::PotionsOnce { n } => format!("{} when gained", count(*n, "potion", "potions")),
        Effect::ReputationOnce { n } => format!("{n:+} reputation when gained"),
        Effect::TrainToReady => "trained villagers arrive ready".to_owned(),
        Effect::CoinOnBuild { n } => format!("{} for each card built", coins(*n)),
        Effect::CoinOnExplore { n } => format!("{} for each successful exploration", coins(*n)),
        Effect::Rerolls { n } => format!("{} per exploration", count(*n, "reroll", "rerolls")),
        Effect::CiderAsCoin => "cider pays as coins".to_owned(),
        Effect::PotionAsCoin => "potions pay as coins".to_owned(),
        Effect::Custom { text } => format!("{text} (declared, not checked)"),
    }
}

/// A card's effects as declared, joined ("1 bed; 1 fish, restocked each round"); "no effects"
/// for an empty list.
pub fn effects(list: &[Effect]) -> String {
    if list.is_empty() {
        "no effects".to_owned()
    } else {
        list.iter().map(effect).collect::<Vec<_>>().join("; ")
    }
}

/// What a card's catalogue entry says: its cost and effects ("3 coins: 1 bed"); for a stub
/// (B.2), that the catalogue declares only its kind.
pub fn card_text(def: &CardDef) -> String {
    let what = def.effects.as_deref().map(effects);
    match (def.kind, def.cost, what) {
        (CardKind::Starting, _, Some(what)) => what,
        (_, Some(cost), Some(what)) => format!("{}: {what}", coins(cost)),
        (_, Some(cost), None) => coins(cost),
        (_, None, _) => "not declared in the catalogue (only seen)".to_owned(),
    }
}

/// A card by name with what its catalogue entry says ("House 05 (3 coins: 1 bed)"); the
/// name alone for a card the catalogue does not declare.
pub fn card_with_text(catalogue: &Catalogue, id: &str) -> String {
    match catalogue.cards.get(id) {
        Some(def) => format!("{} ({})", name(id), card_text(def)),
        None => name(id),
    }
}

/// A skill (A.4) as players say it; a `_plus` skill pays 1 coin less.
pub fn skill(s: Skill) -> &'static str {
    match s {
        Skill::Hammer => "hammer",
        Skill::Quill => "quill",
        Skill::HammerPlus => "hammer, paying 1 coin less",
        Skill::QuillPlus => "quill, paying 1 coin less",
    }
}

/// A trait (A.4, B.6) as what it does.
pub fn trait_words(t: Trait) -> &'static str {
    match t {
        Trait::CaveCat => "Cave Cat (rolls to obey)",
        Trait::BadReputation => "bad reputation (−1 when joining)",
        Trait::GoodReputation => "good reputation (+1 when joining)",
        Trait::Mechanical => "mechanical (rests in its own bed)",
    }
}

/// An explore profile (A.4) as its lantern symbols ("1 lantern on 1+, 2 on 4+").
pub fn lanterns(profile: &[(u8, u32)]) -> String {
    if profile.is_empty() {
        return "no lanterns".to_owned();
    }
    let parts: Vec<String> =
        profile
            .iter()
            .enumerate()
            .map(|(i, (min, n))| {
                if i == 0 {
                    format!("{} on {min}+", count(*n, "lantern", "lanterns"))
                } else {
                    format!("{n} on {min}+")
                }
            })
            .collect();
    parts.join(", ")
}

/// What a villager's catalogue entry says: skills, lanterns, traits and tags ("quill; 1
/// lantern on 3+"); for a stub, that only its kind is declared.
pub fn villager_text(def: &VillagerDef) -> String {
    let (Some(skills), Some(explore)) = (&def.skills, &def.explore) else {
        return "not declared in the catalogue (only seen)".to_owned();
    };
    let mut parts = Vec::new();
    if skills.is_empty() {
        parts.push("no skill".to_owned());
    } else {
        parts.push(skills.iter().map(|s| skill(*s)).collect::<Vec<_>>().join(", "));
    }
    parts.push(lanterns(explore));
    parts.extend(def.traits.iter().map(|t| trait_words(*t).to_owned()));
    if !def.tags.is_empty() {
        parts.push(format!("tags: {}", def.tags.iter().map(|t| words(t)).collect::<Vec<_>>().join(", ")));
    }
    parts.join("; ")
}

/// A villager by name with its declared profile ("Start quill (quill; 1 lantern on 3+)").
pub fn villager_with_text(catalogue: &Catalogue, id: &str) -> String {
    match catalogue.villagers.get(id) {
        Some(def) => format!("{} ({})", name(id), villager_text(def)),
        None => name(id),
    }
}

/// A cave's declared paragraph table (B.7) as players read the card's lower half ("die 1 →
/// paragraph 4, …"); `None` when the catalogue gives none.
pub fn cave_table(catalogue: &Catalogue, id: &str) -> Option<String> {
    let table = catalogue.caves.get(id)?.paragraphs?;
    Some(table.iter().enumerate().map(|(i, p)| format!("{} → {p}", i + 1)).collect::<Vec<_>>().join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// B.3: every effect of the closed vocabulary reads as what it does, in words.
    #[test]
    fn b3_every_effect_reads_in_words() {
        let all = [
            (Effect::Beds { n: 1 }, "1 bed"),
            (Effect::Vp { n: 3 }, "3 VP"),
            (
                Effect::VpPer {
                    per: vec![Counter::Item(Item::Other(Token::Potion)), Counter::Item(Item::Good(Good::Ore))],
                    n: 2,
                },
                "2 VP per potion or ore",
            ),
            (Effect::IncomeCoins { n: 1 }, "1 coin of income each round"),
            (Effect::IncomePotions { n: 2 }, "2 potions of income each round"),
            (
                Effect::IncomePerStored { goods: vec![Good::Ore, Good::Amethyst], n: 1 },
                "1 coin of income per stored ore or amethyst",
            ),
            (Effect::GoodsOnce { good: Good::Paper, n: 2 }, "comes with 2 paper"),
            (Effect::GoodsRefill { good: Good::Fish }, "1 fish, restocked each round"),
            (Effect::PotionsOnce { n: 1 }, "1 potion when gained"),
            (Effect::ReputationOnce { n: 1 }, "+1 reputation when gained"),
            (Effect::TrainToReady, "trained villagers arrive ready"),
            (Effect::CoinOnBuild { n: 1 }, "1 coin for each card built"),
            (Effect::CoinOnExplore { n: 2 }, "2 coins for each successful exploration"),
            (Effect::Rerolls { n: 1 }, "1 reroll per exploration"),
            (Effect::CiderAsCoin, "cider pays as coins"),
            (Effect::PotionAsCoin, "potions pay as coins"),
            (Effect::Custom { text: "a text".into() }, "a text (declared, not checked)"),
        ];
        for (e, want) in all {
            assert_eq!(effect(&e), want);
        }
    }

    /// Lists read as a sentence says them, goods counted in the order they first appear.
    #[test]
    fn d9_lists_and_goods_read_as_sentences() {
        assert_eq!(and_list(&["a", "b", "c"]), "a, b and c");
        assert_eq!(goods_list(&[Good::Fish, Good::Ore, Good::Fish]), "2 fish and 1 ore");
        assert_eq!(goods_list(&[]), "nothing");
        assert_eq!(payment(&Payment { coins: 2, cider: 1, potions: 0 }), "2 coins and 1 cider");
        assert_eq!(lanterns(&[(1, 1), (4, 2)]), "1 lantern on 1+, 2 on 4+");
        assert_eq!(name("start_quill"), "Start quill");
    }
}
