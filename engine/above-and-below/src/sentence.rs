//! An entry in words, as a player would say it at the table ("Ana sends Start explorer and
//! Start quill to explore Cave 03: rolls 5 and 2 (3 lanterns), reads paragraph 12 (paragraph
//! die 4), chooses option 2 (explore 4 or 7), Start quill makes a last effort, reaches 4 and
//! gains 2 coins and 1 mushroom; Cave 03 is now Ana's."): players by name, cards, villagers and
//! caves by the names and effects the log's catalogue declares ([`crate::names`]), every kind of
//! entry of `docs/log-format-above-and-below.md` "Entries" — `turn` (free actions, custom
//! credits, Cave Cat failures and the action), `pass`, `store`, `round_end` and `declare`.
//!
//! Notation only: a sentence says what the entry declares, never whether it is legal (the
//! rules say that) nor what it did to each count (the ledger says that). Seeded logs may leave
//! their dice out (LOG-FORMAT "Randomness"); when the position before the entry is known
//! ([`Before`]), the dice are derived as the replay derives them, so a seeded exploration
//! still reads with its dice.

use chronicle_game::view::{entry_words, words};
use serde_json::Value;

use crate::game::Game;
use crate::ids::{Item, Skill};
use crate::names::{
    and_list, card_with_text, coins, count, goods_list, item, items, name, payment, villager_with_text,
};
use crate::notation::{
    Action, Bonus, CatDie, Discount, Effect, Entry, Free, Outcome, Payment, Rest, Roll, RowName, Step, TurnCredit,
    VillagerSource, Which,
};
use crate::replay::Replay;
use crate::rng::SplitMix;

/// What the table showed just before an entry, where the entry itself does not say it: the
/// seeded generator (to derive omitted dice), the villager row (to name a villager trained
/// by slot alone), the next cave (omitted in seeded mode) and each sale spot (what a `buy`
/// takes). Taken before the entry is applied, since applying it changes all four.
#[derive(Clone, Debug, Default)]
pub struct Before {
    rng: Option<SplitMix>,
    villager_row: Vec<Option<String>>,
    cave_next: Option<String>,
    sale: Vec<Option<Item>>,
}

impl Before {
    /// The facts of `game` a following entry's sentence may need.
    pub fn of(game: &Game) -> Before {
        Before {
            rng: game.rng.clone(),
            villager_row: game.villager_row.clone(),
            cave_next: game.decks.caves.peek_known().map(str::to_owned),
            sale: game.players.iter().map(|p| p.sale).collect(),
        }
    }
}

/// The entries a client offers next, each in words: said against the replay's last position,
/// which is the position before each of them. An entry the notation cannot read is said by
/// [`entry_words`]. `describe_next` of the engine is this.
pub fn describe_entries(replay: &Replay, entries: &[Value]) -> Vec<String> {
    let Some(game) = replay.game.as_ref() else {
        return entries.iter().map(|e| entry_words(&e.to_string(), &[])).collect();
    };
    let before = Before::of(game);
    entries
        .iter()
        .map(|e| match serde_json::from_value::<Entry>(e.clone()) {
            Ok(entry) => sentence(game, Some(&before), &entry),
            Err(_) => entry_words(&e.to_string(), &player_names(game)),
        })
        .collect()
}

/// An entry's text (as in the log) in words, against `game` and, when known, the position
/// before it; an entry the notation cannot read is said by [`entry_words`].
pub fn describe(game: &Game, before: Option<&Before>, text: &str) -> String {
    match serde_json::from_str::<Entry>(text) {
        Ok(entry) => sentence(game, before, &entry),
        Err(_) => entry_words(text, &player_names(game)),
    }
}

fn player_names(game: &Game) -> Vec<String> {
    game.players.iter().map(|p| p.name.clone()).collect()
}

/// An entry as one sentence, naming things as `game`'s catalogue declares them.
pub fn sentence(game: &Game, before: Option<&Before>, entry: &Entry) -> String {
    Said { game, before }.entry(entry)
}

/// The explore action of a `turn` with every die written: the written values, or in seeded
/// mode, when the position before the entry is known, the values the generator gives, drawn
/// in the replay's order (LOG-FORMAT "Randomness": the turn's Cave Cat failures, the action's
/// obedience dice, the paragraph die, the lantern dice, then the rerolls of the action and of
/// each step in chain order). `None` for any other entry.
pub fn explore_as_rolled(game: &Game, before: Option<&Before>, entry: &Entry) -> Option<Action> {
    let Entry::Turn { cat_fails, action: Some(action @ Action::Explore { .. }), .. } = entry else { return None };
    let mut action = action.clone();
    let Action::Explore { party, cave, die, rolls, rerolls, step, .. } = &mut action else { return None };
    if cave.is_none() {
        *cave = before.and_then(|b| b.cave_next.clone());
    }
    let Some(mut rng) = before.and_then(|b| b.rng.clone()) else { return Some(action) };
    for _ in cat_fails {
        rng.die();
    }
    for id in party.iter() {
        if game.traits.is_cat(id) {
            rng.die();
        }
    }
    let mut next = |written: Option<i64>| written.or(Some(i64::from(rng.die())));
    *die = next(*die);
    let written = rolls.take().unwrap_or_default();
    *rolls = Some(
        party
            .iter()
            .enumerate()
            .map(|(i, v)| Roll { villager: v.clone(), die: next(written.get(i).and_then(|r| r.die)) })
            .collect(),
    );
    for r in rerolls.iter_mut() {
        r.die = next(r.die);
    }
    let mut at = Some(step.as_mut());
    while let Some(s) = at {
        for r in &mut s.rerolls {
            r.die = next(r.die);
        }
        at = s.then.as_deref_mut();
    }
    Some(action)
}

/// The lanterns a villager's die gives by its declared explore profile (A.4); 0 for a die
/// outside 1–6 or a villager the catalogue does not declare.
pub fn lanterns_of(game: &Game, villager: &str, die: i64) -> u32 {
    let roll = u8::try_from(die).ok().filter(|d| (1..=6).contains(d));
    match (roll, game.setup.catalogue.villagers.get(villager)) {
        (Some(roll), Some(def)) => def.lanterns(roll),
        _ => 0,
    }
}

/// A die as said: its value, or "?" where a seeded log leaves it to the generator and the
/// position before is not known.
fn die_text(die: Option<i64>) -> String {
    die.map_or_else(|| "?".to_owned(), |d| d.to_string())
}

/// Sentences about one game, with the position before the entry when it is known.
struct Said<'a> {
    game: &'a Game,
    before: Option<&'a Before>,
}

impl Said<'_> {
    /// A player by name; a seat the game does not have by its number counted from 1.
    fn who(&self, p: u64) -> String {
        usize::try_from(p)
            .ok()
            .and_then(|i| self.game.players.get(i))
            .map_or_else(|| format!("the player in seat {}", p.saturating_add(1)), |pl| pl.name.clone())
    }

    fn villagers(&self, ids: &[String]) -> String {
        and_list(&ids.iter().map(|v| name(v)).collect::<Vec<_>>())
    }

    fn card(&self, id: &str) -> String {
        card_with_text(&self.game.setup.catalogue, id)
    }

    /// A card named for its `custom` effect (B.4): its name and the effect's declared text
    /// ("Key 09 (its VP are declared at the end)"); the name alone without such an effect.
    fn custom_card(&self, id: &str) -> String {
        let text = self.game.setup.catalogue.effects(id).iter().find_map(|e| match e {
            Effect::Custom { text } => Some(text.clone()),
            _ => None,
        });
        match text {
            Some(text) => format!("{} ({text})", name(id)),
            None => name(id),
        }
    }

    /// An entry as a sentence, its first letter capitalised (a seat without a player starts
    /// it in lower case).
    fn entry(&self, entry: &Entry) -> String {
        let text = self.clauses(entry);
        let mut chars = text.chars();
        chars.next().map_or_else(String::new, |first| first.to_uppercase().chain(chars).collect())
    }

    fn clauses(&self, entry: &Entry) -> String {
        match entry {
            Entry::Turn { player, free, cat_fails, action, custom } => {
                let mut before: Vec<String> = free.iter().map(|f| self.free(f)).collect();
                before.extend(custom.iter().map(|c| self.credit(c)));
                before.extend(cat_fails.iter().map(|c| self.cat_fail(c)));
                let act = action.as_ref().map(|a| self.action(*player, entry, a));
                let said = match (before.is_empty(), act) {
                    (true, Some(act)) => act,
                    (false, Some(act)) => format!("{}, then {act}", before.join(", ")),
                    (_, None) => format!("{}, and takes no action", before.join(", ")),
                };
                format!("{} {said}.", self.who(*player))
            }
            Entry::Pass { player, free } if free.is_empty() => format!("{} passes.", self.who(*player)),
            Entry::Pass { player, free } => {
                let free: Vec<String> = free.iter().map(|f| self.free(f)).collect();
                format!("{} {}, then passes.", self.who(*player), free.join(", "))
            }
            Entry::Store { player, goods } => format!("{} stores {}.", self.who(*player), goods_list(goods)),
            Entry::RoundEnd { villagers, rest } => self.round_end(villagers.as_deref(), rest),
            Entry::Declare { player, card, vp } => format!(
                "{} declares {} for the custom effect of {}.",
                self.who(*player),
                count(*vp, "VP", "VP"),
                self.custom_card(card)
            ),
        }
    }

    /// A free action (D.8).
    fn free(&self, f: &Free) -> String {
        match f {
            Free::Offer { item: Some(i) } => format!("puts {} up for sale", items(*i, 1)),
            Free::Offer { item: None } => "takes back what was for sale".to_owned(),
            Free::Buy { from, price } => {
                let seller = self.who(*from);
                let what = usize::try_from(*from)
                    .ok()
                    .and_then(|s| self.before.and_then(|b| b.sale.get(s).copied().flatten()))
                    .map_or_else(|| format!("what {seller} has for sale"), |i| format!("{seller}'s {}", item(i)));
                format!("buys {what} for {}", coins(*price))
            }
            Free::Refresh { row, drawn, pay } => {
                let row = match row {
                    RowName::Houses => "house row".to_owned(),
                    RowName::Outposts => "outpost row".to_owned(),
                    RowName::Other(other) => format!("{} row", words(other)),
                };
                let paid = pay.as_ref().map_or_else(|| coins(1), payment);
                let drawn = match drawn.as_deref() {
                    Some([]) => "; the deck is empty".to_owned(),
                    Some(cards) => {
                        let cards: Vec<String> = cards.iter().map(|c| self.card(c)).collect();
                        format!(": {} {} turned up", and_list(&cards), if cards.len() == 1 { "is" } else { "are" })
                    }
                    None => String::new(),
                };
                format!("pays {paid} to refresh the {row}{drawn}")
            }
            Free::Store { goods } => format!("stores {}", goods_list(goods)),
        }
    }

    /// A custom credit outside an action (B.4): trusted, so said as declared.
    fn credit(&self, c: &TurnCredit) -> String {
        let mut got = Vec::new();
        if let Some(n) = c.coins {
            got.push(coins(n));
        }
        if let Some(g) = &c.goods {
            got.push(goods_list(g));
        }
        if let Some(n) = c.potions {
            got.push(count(n, "potion", "potions"));
        }
        if let Some(n) = c.cider {
            got.push(format!("{n} cider"));
        }
        if let Some(n) = c.reputation {
            got.push(format!("{n:+} reputation"));
        }
        let got = if got.is_empty() { "nothing".to_owned() } else { and_list(&got) };
        format!("takes {got} from the custom effect of {} (declared, not checked)", name(&c.card))
    }

    /// A Cave Cat that did not obey (D.10).
    fn cat_fail(&self, c: &CatDie) -> String {
        match c.die {
            Some(d) => format!("rolls {d} for {}, which does not obey (now exhausted)", name(&c.villager)),
            None => format!("rolls for {}, which does not obey (now exhausted)", name(&c.villager)),
        }
    }

    /// The obedience dice of the acting Cave Cats (D.10), as a lead-in to the action.
    fn cats_obey(&self, rolls: &[CatDie]) -> String {
        let said: Vec<String> = rolls
            .iter()
            .map(|c| match c.die {
                Some(d) => format!("rolls {d} for {}, which obeys", name(&c.villager)),
                None => format!("rolls for {}, which obeys", name(&c.villager)),
            })
            .collect();
        if said.is_empty() {
            String::new()
        } else {
            format!("{}, and ", and_list(&said))
        }
    }

    /// The action of a turn (D.3–D.7).
    fn action(&self, player: u64, entry: &Entry, a: &Action) -> String {
        match a {
            Action::Labor { villagers, cat_rolls } => format!(
                "{}labors with {} for {}",
                self.cats_obey(cat_rolls),
                self.villagers(villagers),
                coins(i64::try_from(villagers.len()).unwrap_or(i64::MAX))
            ),
            Action::Harvest { villagers, take, cat_rolls } => {
                format!(
                    "{}harvests with {}, taking {}",
                    self.cats_obey(cat_rolls),
                    self.villagers(villagers),
                    self.taken(take)
                )
            }
            Action::Build { villager, card, cave, pay, refill, custom, cat_rolls } => {
                let on = cave.as_ref().map_or_else(String::new, |c| format!(" on {}", name(c)));
                let price = self.price(self.build_cost(card), villager, Skill::HammerPlus, custom);
                let refill = refill.as_ref().map_or_else(String::new, |r| format!("; {} is turned up", self.card(r)));
                format!(
                    "{}builds {}{on} with {}, paying {}{}{refill}",
                    self.cats_obey(cat_rolls),
                    self.card(card),
                    name(villager),
                    self.paid(pay.as_ref(), price),
                    discounts(custom)
                )
            }
            Action::Train { villager, slot, recruit, pay, custom, cat_rolls } => {
                let at = usize::try_from(*slot).ok();
                let from_row = at.and_then(|s| self.before.and_then(|b| b.villager_row.get(s).cloned().flatten()));
                let who = match recruit.as_ref().or(from_row.as_ref()) {
                    Some(v) => villager_with_text(&self.game.setup.catalogue, v),
                    None => "the villager".to_owned(),
                };
                let cost = at.and_then(|s| self.game.setup.board.train_costs.get(s)).copied();
                let price = self.price(cost, villager, Skill::QuillPlus, custom);
                format!(
                    "{}trains {who} from slot {} with {}, paying {}{}",
                    self.cats_obey(cat_rolls),
                    slot.saturating_add(1),
                    name(villager),
                    self.paid(pay.as_ref(), price),
                    discounts(custom)
                )
            }
            Action::Explore { .. } => {
                let rolled = explore_as_rolled(self.game, self.before, entry);
                self.explore(player, rolled.as_ref().unwrap_or(a))
            }
        }
    }

    /// Goods taken in a harvest (D.4.2), per card in the order first named ("2 fish from
    /// House 03 and 1 ore from Outpost 02"): the good is the one the card's declared effects
    /// put on it; "a token" when they name none or several.
    fn taken(&self, take: &[String]) -> String {
        let mut per_card: Vec<(&str, u32)> = Vec::new();
        for id in take {
            match per_card.iter_mut().find(|(c, _)| c == id) {
                Some((_, n)) => *n += 1,
                None => per_card.push((id, 1)),
            }
        }
        if per_card.is_empty() {
            return "nothing".to_owned();
        }
        let said: Vec<String> = per_card
            .iter()
            .map(|(card, n)| match self.good_on(card) {
                Some(g) => format!("{n} {} from {}", crate::names::good(g), name(card)),
                None => format!("{} from {}", count(*n, "token", "tokens"), name(card)),
            })
            .collect();
        and_list(&said)
    }

    /// The one good a card's declared effects put on it (B.3 `goods_once`, `goods_refill`).
    fn good_on(&self, card: &str) -> Option<crate::ids::Good> {
        let mut goods = self.game.setup.catalogue.effects(card).iter().filter_map(|e| match e {
            Effect::GoodsOnce { good, .. } | Effect::GoodsRefill { good } => Some(*good),
            _ => None,
        });
        let first = goods.next()?;
        goods.all(|g| g == first).then_some(first)
    }

    /// A card's printed cost, when the catalogue declares it.
    fn build_cost(&self, card: &str) -> Option<u32> {
        self.game.setup.catalogue.cards.get(card).and_then(|c| c.cost)
    }

    /// D.5.3, D.6.2: the price of a cost for the acting villager (1 less with the `_plus`
    /// skill) less the declared discounts, never below 0.
    fn price(&self, cost: Option<u32>, villager: &str, plus: Skill, custom: &[Discount]) -> Option<u32> {
        let plus = self
            .game
            .setup
            .catalogue
            .villagers
            .get(villager)
            .is_some_and(|v| v.skills.iter().flatten().any(|s| *s == plus));
        let off: u32 = custom.iter().map(|d| d.discount).sum();
        cost.map(|c| c.saturating_sub(u32::from(plus)).saturating_sub(off))
    }

    /// What was paid: the payment object as written, or the price in coins (LOG-FORMAT: an
    /// omitted payment is the price in coins).
    fn paid(&self, pay: Option<&Payment>, price: Option<u32>) -> String {
        match (pay, price) {
            (Some(p), _) => payment(p),
            (None, Some(n)) => coins(n),
            (None, None) => "its price in coins".to_owned(),
        }
    }

    /// An exploration (E): the party and cave, the dice, then each step of the Adventure Book
    /// as declared, and where the cave ends (E.8).
    fn explore(&self, player: u64, a: &Action) -> String {
        let Action::Explore { party, cat_rolls, cave, die, rolls, rerolls, step } = a else { return String::new() };
        let cave_name = cave.as_deref().map_or_else(|| "the next cave".to_owned(), name);
        let mut parts = Vec::new();
        let mut dice: Vec<(String, Option<i64>)> = party.iter().map(|v| (v.clone(), None)).collect();
        for (slot, r) in dice.iter_mut().zip(rolls.iter().flatten()) {
            slot.1 = r.die;
        }
        parts.push(self.rolled(&dice));
        for r in rerolls {
            parts.push(reroll_text(&mut dice, r, |d| self.lanterns(d)));
        }
        parts.push(format!("reads paragraph {} (paragraph die {})", step.paragraph, die_text(*die)));
        let last = self.steps(step, &mut dice, &mut parts);
        // E.8: the last step decides where the cave goes.
        let end = match last.reached {
            Some(_) => format!("; {cave_name} is now {}'s", self.who(player)),
            None => format!("; {cave_name} goes back under the cave deck"),
        };
        format!(
            "{}sends {} to explore {cave_name}: {}{end}",
            self.cats_obey(cat_rolls),
            self.villagers(party),
            parts.join(", ")
        )
    }

    /// The dice of the party as rolled, with the lanterns they give ("rolls 5 and 2 (3
    /// lanterns)").
    fn rolled(&self, dice: &[(String, Option<i64>)]) -> String {
        let shown: Vec<String> = dice.iter().map(|(_, d)| die_text(*d)).collect();
        format!("rolls {} ({})", and_list(&shown), count(self.lanterns(dice), "lantern", "lanterns"))
    }

    /// The lanterns of the dice so far (A.4), by each villager's declared profile.
    fn lanterns(&self, dice: &[(String, Option<i64>)]) -> i64 {
        dice.iter().map(|(v, d)| d.map_or(0, |d| i64::from(lanterns_of(self.game, v, d)))).sum()
    }

    /// Each step of the chain (E.3–E.9) as its clauses; the last step, which decides.
    fn steps<'s>(&self, first: &'s Step, dice: &mut [(String, Option<i64>)], parts: &mut Vec<String>) -> &'s Step {
        let mut step = first;
        loop {
            if !std::ptr::eq(step, first) {
                parts.push(format!("then reads paragraph {}", step.paragraph));
            }
            for r in &step.rerolls {
                parts.push(reroll_text(dice, r, |d| self.lanterns(d)));
            }
            parts.push(format!("chooses option {} ({})", step.option, thresholds(&step.thresholds)));
            if !step.efforts.is_empty() {
                let verb = if step.efforts.len() == 1 { "makes" } else { "make" };
                parts.push(format!("{} {verb} a last effort", self.villagers(&step.efforts)));
            }
            parts.extend(step.bonus.iter().map(|b| self.bonus(b)));
            parts.push(self.result(step));
            match step.then.as_deref() {
                Some(next) => step = next,
                None => return step,
            }
        }
    }

    /// An option bonus used (E.7), as declared.
    fn bonus(&self, b: &Bonus) -> String {
        let plus = |n: &u32| format!("+{}", count(*n, "lantern", "lanterns"));
        match b {
            Bonus::PerSkill { skill, n } => format!("{} per {} in the party", plus(n), crate::names::skill(*skill)),
            Bonus::IfHave { item: i, n } => format!("{} for having {}", plus(n), item(*i)),
            Bonus::PerHave { item: i, n } => format!("{} per {} owned", plus(n), item(*i)),
            Bonus::IfTag { tag, n } => format!("{} for a {} in the party", plus(n), words(tag)),
            Bonus::Pay { coins: c, n, with } => {
                let paid = with.as_ref().map_or_else(|| coins(*c), payment);
                format!("pays {paid} for {}", plus(n))
            }
            Bonus::Custom { n, text } => format!("{} ({text}, declared)", plus(n)),
            Bonus::Card { card, n } => format!("{} from the custom effect of {} (declared)", plus(n), name(card)),
        }
    }

    /// A step's result (E.8) and its outcome (E.10).
    fn result(&self, step: &Step) -> String {
        let outcome = self.outcome(&step.outcome);
        match (step.reached, outcome.is_empty()) {
            (Some(0), true) => "gains nothing".to_owned(),
            (Some(0), false) => outcome,
            (Some(r), true) => format!("reaches {r} and gains nothing"),
            (Some(r), false) => format!("reaches {r} and {outcome}"),
            (None, true) => "falls short".to_owned(),
            (None, false) => format!("falls short and {outcome}"),
        }
    }

    /// Outcome items (E.10), those with the same verb said together ("gains 2 coins and 1
    /// mushroom and loses 1 reputation").
    fn outcome(&self, items_: &[Outcome]) -> String {
        let mut groups: Vec<(&str, Vec<String>)> = Vec::new();
        for o in items_ {
            let (verb, what) = self.outcome_item(o);
            match groups.last_mut() {
                Some((v, list)) if *v == verb => list.push(what),
                _ => groups.push((verb, vec![what])),
            }
        }
        let said: Vec<String> = groups.iter().map(|(verb, list)| format!("{verb} {}", and_list(list))).collect();
        and_list(&said)
    }

    /// One outcome item as its verb and object.
    fn outcome_item(&self, o: &Outcome) -> (&'static str, String) {
        match o {
            Outcome::Coins { n } => ("gains", coins(*n)),
            Outcome::Pay { n, with } => ("pays", with.as_ref().map_or_else(|| coins(*n), payment)),
            Outcome::LoseCoins { n } => ("loses", coins(*n)),
            Outcome::Good { good, n } => ("gains", format!("{n} {}", crate::names::good(*good))),
            Outcome::Potion { n } => ("gains", count(*n, "potion", "potions")),
            Outcome::Cider { n } => ("gains", format!("{n} cider")),
            Outcome::Reputation { n } if *n < 0 => ("loses", format!("{} reputation", n.unsigned_abs())),
            Outcome::Reputation { n } => ("gains", format!("{n} reputation")),
            Outcome::Villager { villager, from, which } => {
                let from = match (from, which) {
                    (VillagerSource::Row, Some(Which::Cheapest)) => "the cheapest of the villager row",
                    (VillagerSource::Row, None) => "the villager row",
                    (VillagerSource::Special, _) => "the special villagers",
                };
                ("gains", format!("{} from {from}", villager_with_text(&self.game.setup.catalogue, villager)))
            }
            Outcome::Cave { card: Some(c) } => ("gains", format!("an extra cave ({})", name(c))),
            Outcome::Cave { card: None } => ("gains", "an extra cave".to_owned()),
            Outcome::Card { card, cave, refill, .. } => {
                let on = cave.as_ref().map_or_else(String::new, |c| format!(" on {}", name(c)));
                let refill = refill.as_ref().map_or_else(String::new, |r| format!(" ({} is turned up)", name(r)));
                ("gains", format!("{} free{on}{refill}", self.card(card)))
            }
            Outcome::Injure { villagers } => ("has", format!("{} injured", self.villagers(villagers))),
            Outcome::LoseGood { item: i, n } => ("loses", items(*i, *n)),
            Outcome::LoseVillager { villager } => ("loses", name(villager)),
            Outcome::Nothing => ("gets", "nothing".to_owned()),
            Outcome::Custom { text } => ("gets", format!("{text} (declared, not checked)")),
        }
    }

    /// The end of a round (F.4–F.5): the villagers drawn into the row, then each player's rest
    /// as chosen; the others rest by the default (F.5.4).
    fn round_end(&self, villagers: Option<&[String]>, rest: &[Rest]) -> String {
        let mut parts = Vec::new();
        match villagers {
            Some([]) | None => {}
            Some([one]) => {
                parts.push(format!("{} joins the villager row", villager_with_text(&self.game.setup.catalogue, one)))
            }
            Some(list) => {
                let said: Vec<String> =
                    list.iter().map(|v| villager_with_text(&self.game.setup.catalogue, v)).collect();
                parts.push(format!("{} join the villager row", and_list(&said)));
            }
        }
        parts.extend(rest.iter().map(|r| self.rest(r)));
        let chosen = rest.len();
        let seats = self.game.players.len();
        if chosen == 0 {
            parts.push("everyone rests by default".to_owned());
        } else if chosen < seats {
            parts.push("the others rest by default".to_owned());
        }
        format!("End of the round: {}.", parts.join("; "))
    }

    /// One player's rest choices (F.5.2–F.5.3).
    fn rest(&self, r: &Rest) -> String {
        let mut said = Vec::new();
        if !r.potions.is_empty() {
            said.push(format!("a potion each for {}", self.villagers(&r.potions)));
        }
        if !r.cider.is_empty() {
            said.push(format!("a cider each for {}", self.villagers(&r.cider)));
        }
        if !r.beds.is_empty() {
            said.push(format!("beds for {}", self.villagers(&r.beds)));
        }
        for c in &r.custom {
            said.push(format!(
                "extra beds from the custom effect of {} for {} (declared)",
                name(&c.card),
                self.villagers(&c.beds)
            ));
        }
        if said.is_empty() {
            format!("{} rests without potions, cider or beds", self.who(r.player))
        } else {
            format!("{} rests: {}", self.who(r.player), said.join(", "))
        }
    }
}

/// Declared discounts (B.4) after a price (", less 1 from the custom effect of Key 07").
fn discounts(custom: &[Discount]) -> String {
    custom
        .iter()
        .map(|d| format!(", less {} from the custom effect of {} (declared)", d.discount, name(&d.card)))
        .collect()
}

/// An option bonus (E.7) in words, as the sentences say it (for the view's exploration).
pub(crate) fn bonus_words(game: &Game, b: &Bonus) -> String {
    Said { game, before: None }.bonus(b)
}

/// Outcome items (E.10) in words, as the sentences say them; "nothing" for none.
pub(crate) fn outcome_words(game: &Game, items_: &[Outcome]) -> String {
    let said = Said { game, before: None }.outcome(items_);
    if said.is_empty() {
        "nothing".to_owned()
    } else {
        said
    }
}

/// A reroll (E.5): the villager's die replaced, with the lanterns the dice now give.
fn reroll_text(
    dice: &mut [(String, Option<i64>)],
    r: &Roll,
    lanterns: impl Fn(&[(String, Option<i64>)]) -> i64,
) -> String {
    if let Some(slot) = dice.iter_mut().find(|(v, _)| *v == r.villager) {
        slot.1 = r.die;
    }
    format!(
        "rerolls the die of {} to {} (now {})",
        name(&r.villager),
        die_text(r.die),
        count(lanterns(dice), "lantern", "lanterns")
    )
}

/// An option's thresholds as the reader announces them ("explore 4 or 7"; "no test").
pub(crate) fn thresholds(list: &[u32]) -> String {
    if list.is_empty() {
        return "no test".to_owned();
    }
    let said: Vec<String> = list.iter().map(u32::to_string).collect();
    match said.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("explore {} or {last}", rest.join(", ")),
        _ => format!("explore {}", said.join("")),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    /// The position after the setup of a 2-player game with the synthetic set (synthetic test
    /// data, not the printed game), Ana and Bo, in explicit or seeded mode.
    fn game(seed: Option<u64>) -> Game {
        let (catalogue, board) = crate::synthetic::components().expect("synthetic");
        let mut setup = json!({
            "players": [{ "name": "Ana" }, { "name": "Bo" }],
            "catalogue": catalogue, "board": board,
            "key_houses": ["key_01", "key_02", "key_03", "key_04"],
            "house_row": ["house_01", "house_02", "house_03", "house_04"],
            "outpost_row": ["outpost_01", "outpost_02", "outpost_03", "outpost_04"],
            "villager_row": ["villager_01", "villager_02", "villager_03", "villager_04", "villager_05"],
        });
        if let Some(seed) = seed {
            setup = json!({ "players": setup["players"], "catalogue": setup["catalogue"], "board": setup["board"], "random": "seeded", "seed": seed });
        }
        let log = json!({ "format": "above-and-below-log/1", "setup": setup, "entries": [] });
        crate::replay::replay_until(log.to_string().as_bytes(), Some(0)).game.expect("a valid setup")
    }

    fn said(game: &Game, entry: Value) -> String {
        let before = Before::of(game);
        let entry: Entry = serde_json::from_value(entry).expect("an entry");
        sentence(game, Some(&before), &entry)
    }

    /// What no sentence may show: JSON, the log's member names, 0-based seats or raw ids.
    fn assert_in_words(text: &str) {
        for bad in ["{", "\"", "player", "_", "seat 0"] {
            assert!(!text.contains(bad), "{bad:?} in {text:?}");
        }
    }

    /// LOG-FORMAT "Entries": one sentence per kind of entry and of action, free action and
    /// outcome, players by name, cards and villagers by name with their declared effects.
    #[test]
    fn d2_every_kind_of_entry_reads_as_a_sentence() {
        let g = game(None);
        let cases = [
            (json!({"type":"turn","player":0,"action":{"do":"labor","villagers":["start_hammer","start_quill"]}}),
             "Ana labors with Start hammer and Start quill for 2 coins."),
            (json!({"type":"turn","player":1,"action":{"do":"harvest","villagers":["start_hammer","start_quill"],"take":["house_03","house_03"]}}),
             "Bo harvests with Start hammer and Start quill, taking 2 fish from House 03."),
            (json!({"type":"turn","player":0,"action":{"do":"build","villager":"start_hammer","card":"house_02","refill":"house_09"}}),
             "Ana builds House 02 (3 coins: 1 fruit, restocked each round) with Start hammer, paying 3 coins; House 09 (5 coins: +1 reputation when gained) is turned up."),
            (json!({"type":"turn","player":0,"action":{"do":"build","villager":"start_hammer","card":"outpost_02","cave":"cave_04","pay":{"coins":1,"cider":1}}}),
             "Ana builds Outpost 02 (2 coins: 1 fish, restocked each round; 1 VP) on Cave 04 with Start hammer, paying 1 coin and 1 cider."),
            (json!({"type":"turn","player":1,"action":{"do":"train","villager":"start_quill","slot":1}}),
             "Bo trains Villager 02 (quill; 2 lanterns on 3+; tags: miner) from slot 2 with Start quill, paying 3 coins."),
            (json!({"type":"turn","player":0,"action":{"do":"explore","party":["start_explorer","start_quill"],"cave":"cave_03","die":4,
                "rolls":[{"villager":"start_explorer","die":5},{"villager":"start_quill","die":2}],
                "step":{"paragraph":12,"option":2,"thresholds":[4,7],"efforts":["start_quill"],"reached":4,
                        "outcome":[{"get":"coins","n":2},{"get":"good","good":"mushroom","n":1},{"get":"reputation","n":-1}]}}}),
             "Ana sends Start explorer and Start quill to explore Cave 03: rolls 5 and 2 (2 lanterns), reads paragraph 12 (paragraph die 4), chooses option 2 (explore 4 or 7), Start quill makes a last effort, reaches 4 and gains 2 coins and 1 mushroom and loses 1 reputation; Cave 03 is now Ana's."),
            (json!({"type":"turn","player":1,"action":{"do":"explore","party":["start_hammer","start_explorer"],"cave":"cave_11","die":1,
                "rolls":[{"villager":"start_hammer","die":6},{"villager":"start_explorer","die":2}],
                "step":{"paragraph":3,"option":1,"thresholds":[3],"reached":null,"outcome":[]}}}),
             "Bo sends Start hammer and Start explorer to explore Cave 11: rolls 6 and 2 (2 lanterns), reads paragraph 3 (paragraph die 1), chooses option 1 (explore 3), falls short; Cave 11 goes back under the cave deck."),
            (json!({"type":"pass","player":0,"free":[{"do":"offer","item":"mushroom"}]}),
             "Ana puts 1 mushroom up for sale, then passes."),
            (json!({"type":"pass","player":1}), "Bo passes."),
            (json!({"type":"turn","player":1,"free":[{"do":"buy","from":0,"price":3},{"do":"refresh","row":"houses","drawn":["house_05","house_06","house_07","house_08"]},{"do":"store","goods":["fish","ore","fish"]},{"do":"offer","item":null}],
                "action":{"do":"labor","villagers":["start_hammer"]}}),
             "Bo buys what Ana has for sale for 3 coins, pays 1 coin to refresh the house row: House 05 (6 coins: 1 coin of income each round), House 06 (2 coins: 2 VP), House 07 (3 coins: comes with 2 pot) and House 08 (4 coins: 2 potions when gained) are turned up, stores 2 fish and 1 ore, takes back what was for sale, then labors with Start hammer for 1 coin."),
            (json!({"type":"turn","player":0,"cat_fails":[{"villager":"cave_cat_1","die":2}]}),
             "Ana rolls 2 for Cave cat 1, which does not obey (now exhausted), and takes no action."),
            (json!({"type":"store","player":1,"goods":["mushroom","fish"]}), "Bo stores 1 mushroom and 1 fish."),
            (json!({"type":"round_end","villagers":["villager_12"],"rest":[{"player":0,"potions":["start_quill"],"beds":["start_quill","start_hammer"]}]}),
             "End of the round: Villager 12 (hammer, quill; 1 lantern on 1+, 2 on 5+; bad reputation (−1 when joining); tags: fisher, miner) joins the villager row; Ana rests: a potion each for Start quill, beds for Start quill and Start hammer; the others rest by default."),
            (json!({"type":"round_end"}), "End of the round: everyone rests by default."),
            (json!({"type":"declare","player":1,"card":"key_09","vp":4}),
             "Bo declares 4 VP for the custom effect of Key 09 (synthetic custom effect (test only): its VP are declared at the end)."),
            (json!({"type":"turn","player":0,"custom":[{"card":"key_09","coins":2,"reputation":1}],
                "action":{"do":"train","villager":"start_quill","slot":0,"recruit":"villager_01","custom":[{"card":"key_09","discount":1}]}}),
             "Ana takes 2 coins and +1 reputation from the custom effect of Key 09 (declared, not checked), then trains Villager 01 (hammer; 1 lantern on 2+; tags: fisher) from slot 1 with Start quill, paying 1 coin, less 1 from the custom effect of Key 09 (declared)."),
        ];
        let mut wrong = Vec::new();
        for (entry, want) in cases {
            let text = said(&g, entry.clone());
            assert_in_words(&text);
            if text != want {
                wrong.push(format!("{entry}\n  said: {text}\n  want: {want}"));
            }
        }
        assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    }

    /// E.5, E.7, E.9, E.10: a chained exploration reads step by step — rerolls with the
    /// lanterns they leave, bonuses, efforts, every outcome kind — and a Cave Cat's obedience
    /// die leads the action (D.10).
    #[test]
    fn e9_a_chained_exploration_reads_step_by_step() {
        let g = game(None);
        let entry = json!({"type":"turn","player":1,"action":{"do":"explore","party":["start_explorer","cave_cat_1","start_quill"],
            "cat_rolls":[{"villager":"cave_cat_1","die":5}],"cave":"cave_02","die":2,
            "rolls":[{"villager":"start_explorer","die":1},{"villager":"cave_cat_1","die":3},{"villager":"start_quill","die":1}],
            "rerolls":[{"villager":"start_quill","die":4}],
            "step":{"paragraph":38,"option":1,"thresholds":[],"bonus":[{"kind":"per_skill","skill":"quill","n":1},{"kind":"pay","coins":2,"n":1},{"kind":"if_tag","tag":"creature","n":2}],
                    "reached":0,"outcome":[{"get":"villager","villager":"villager_01","from":"row","which":"cheapest"},{"get":"card","card":"house_01","refill":"house_07"},{"get":"cave","card":"cave_09"},{"get":"potion","n":1},{"get":"cider","n":2}],
                    "then":{"paragraph":140,"option":3,"thresholds":[5],"rerolls":[{"villager":"start_explorer","die":6}],"efforts":["start_quill","cave_cat_1"],"reached":null,
                            "outcome":[{"get":"injure","villagers":["start_explorer"]},{"get":"lose_good","item":"fish","n":1},{"get":"lose_coins","n":2},{"get":"nothing"},{"get":"custom","text":"a rumour"}]}}}});
        let want = "Bo rolls 5 for Cave cat 1, which obeys, and sends Start explorer, Cave cat 1 and Start quill to explore Cave 02: \
            rolls 1, 3 and 1 (3 lanterns), rerolls the die of Start quill to 4 (now 4 lanterns), reads paragraph 38 (paragraph die 2), \
            chooses option 1 (no test), +1 lantern per quill in the party, pays 2 coins for +1 lantern, +2 lanterns for a creature in the party, \
            gains Villager 01 (hammer; 1 lantern on 2+; tags: fisher) from the cheapest of the villager row, House 01 (2 coins: 1 bed) free (House 07 is turned up), an extra cave (Cave 09), 1 potion and 2 cider, \
            then reads paragraph 140, rerolls the die of Start explorer to 6 (now 5 lanterns), chooses option 3 (explore 5), Start quill and Cave cat 1 make a last effort, \
            falls short and has Start explorer injured, loses 1 fish and 2 coins and gets nothing and a rumour (declared, not checked); Cave 02 goes back under the cave deck.";
        let text = said(&g, entry);
        assert_eq!(text, want.replace("            ", ""));
        assert_in_words(&text);
    }

    /// LOG-FORMAT "Randomness": in seeded mode the dice a log leaves out are derived as the
    /// replay derives them — the same cave, paragraph die and lantern dice as the engine's own
    /// preview of the exploration.
    #[test]
    fn e4_seeded_dice_left_out_are_derived_as_the_replay_draws_them() {
        for seed in [1, 7, 42] {
            let g = game(Some(seed));
            let party = vec!["start_hammer".to_owned(), "start_explorer".to_owned()];
            let preview = crate::legal::preview_explore(&g, &party).expect("seeded");
            let entry: Entry =
                serde_json::from_value(json!({"type":"turn","player":0,"action":{"do":"explore","party":party,
                "step":{"paragraph":1,"option":1,"thresholds":[],"reached":0,"outcome":[]}}}))
                .expect("entry");
            let before = Before::of(&g);
            let Some(Action::Explore { cave, die, rolls, .. }) = explore_as_rolled(&g, Some(&before), &entry) else {
                panic!("an exploration")
            };
            let dice: Vec<i64> = rolls.iter().flatten().filter_map(|r| r.die).collect();
            let want: Vec<i64> = preview.dice.iter().map(|d| i64::from(*d)).collect();
            assert_eq!(
                (cave, die, dice),
                (Some(preview.cave.clone()), Some(i64::from(preview.die)), want),
                "seed {seed}"
            );
            let text = sentence(&g, Some(&before), &entry);
            assert!(!text.contains('?') && text.contains(&name(&preview.cave)), "{text}");
            // Without the position before, the dice are not known and say so.
            assert!(sentence(&g, None, &entry).contains("rolls ? and ?"), "{}", sentence(&g, None, &entry));
        }
    }

    /// No 0-based seat is ever said: a seat the game does not have is said counted from 1, and
    /// an entry the notation cannot read is said in words, by player name.
    #[test]
    fn c1_unknown_seats_and_unreadable_entries_are_still_said_in_words() {
        let g = game(None);
        assert_eq!(said(&g, json!({"type":"pass","player":4})), "The player in seat 5 passes.");
        let text = describe(&g, None, r#"{"type":"turn","player":1,"action":{"do":"dance"}}"#);
        assert!(text.starts_with("Bo"), "{text}");
        assert!(!text.contains('{'), "{text}");
    }

    /// `describe_next`: the entries offered after a position read as sentences against it —
    /// by the player's name, in words — on simulated games at every round end and turn.
    #[test]
    fn d2_offered_entries_read_as_sentences_against_the_position_before_them() {
        use chronicle_game::GameEngine;
        for seed in 1..=3u64 {
            let log = crate::bots::simulate(seed, 2 + (seed % 3) as u8).expect("simulated");
            let bytes = serde_json::to_vec(&log).expect("json");
            for n in [0, 5, 17, 40] {
                let r = crate::replay::replay_until(&bytes, Some(n));
                let offered = crate::AboveAndBelow::legal_entries(&r, 30).entries;
                let said = describe_entries(&r, &offered);
                assert_eq!(said.len(), offered.len());
                let names = player_names(r.game.as_ref().expect("game"));
                for (text, entry) in said.iter().zip(&offered) {
                    assert_in_words(text);
                    let who =
                        entry["player"].as_u64().map(|p| names[p as usize].as_str()).unwrap_or("End of the round");
                    assert!(text.starts_with(who), "{text}");
                }
            }
        }
    }

    /// The walk's sentences (the replay viewer's timeline) are in words at every entry of
    /// simulated seeded games, with the dice the seed rolled.
    #[test]
    fn e4_the_timeline_says_every_entry_in_words_with_its_dice() {
        use chronicle_game::GameEngine;
        let log = crate::bots::simulate(11, 4).expect("simulated");
        let timeline = crate::AboveAndBelow::timeline(&serde_json::to_vec(&log).expect("json")).expect("timeline");
        assert!(!timeline.steps.is_empty());
        for step in &timeline.steps {
            assert_in_words(&step.sentence);
            assert!(!step.sentence.contains('?'), "{}", step.sentence);
        }
    }
}
