//! The validated card catalogue (`docs/rules/above-and-below.md` B): houses and outposts with effects from the
//! closed vocabulary of B.3, villagers (B.5–B.6) and caves (B.7).
//!
//! The engine ships **no** named catalogue: the printed card data is not available to the
//! project (B.1), so a log names none (`E_CATALOGUE`) and declares its own. Test fixtures and
//! the simulator use a synthetic set that says so in its `source` ([`crate::synthetic`]).

use std::sync::Arc;

use chronicle_game::id_table::prefix_slot;

use crate::error::{ensure, fail, ErrorCode, RuleError, RuleResult};
use crate::ids::{Skill, Trait};
use crate::notation::{CardKind, CatalogueNotation, Effect, VillagerKind};

/// The ids of the special villagers and the encoding B.6 fixes for each.
pub const SPECIALS: [(&str, Encoding); 6] = [
    ("liquid_woman", Encoding::Trait(Trait::BadReputation)),
    ("glogo", Encoding::Skill(Skill::HammerPlus)),
    ("cave_cat_1", Encoding::Trait(Trait::CaveCat)),
    ("cave_cat_2", Encoding::Trait(Trait::CaveCat)),
    ("mechanical_man_1", Encoding::Trait(Trait::Mechanical)),
    ("mechanical_man_2", Encoding::Trait(Trait::Mechanical)),
];

/// The starting villagers, in village order (F.5.4).
pub const STARTERS: [&str; 3] = ["start_hammer", "start_quill", "start_explorer"];

/// The id of the starting house (A.7).
pub const START_HOUSE: &str = "start_house";

/// What B.6 requires a special villager's entry to carry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Encoding {
    Trait(Trait),
    Skill(Skill),
}

/// A house or outpost as declared. `cost` and `effects` are `None` for a stub (B.2).
#[derive(Clone, Debug, PartialEq)]
pub struct CardDef {
    pub id: String,
    pub kind: CardKind,
    pub cost: Option<u32>,
    /// Shared so that an owned card holds its effects ([`crate::game::OwnedCard::effects`])
    /// instead of looking its id up in the catalogue each time the rules ask.
    pub effects: Option<Arc<[Effect]>>,
}

impl CardDef {
    /// Whether the card carries a `custom` effect (B.4).
    pub fn has_custom(&self) -> bool {
        self.effects.iter().flat_map(|e| e.iter()).any(|e| matches!(e, Effect::Custom { .. }))
    }
}

/// A villager as declared. `skills` and `explore` are `None` for a stub (B.5).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VillagerDef {
    pub id: String,
    pub kind: VillagerKind,
    pub skills: Option<Vec<Skill>>,
    /// Lantern symbols `[minimum roll, lanterns]` (A.4).
    pub explore: Option<Vec<(u8, u32)>>,
    pub traits: Vec<Trait>,
    pub tags: Vec<String>,
}

impl VillagerDef {
    pub fn has_skill(&self, wanted: Skill) -> bool {
        self.skills.iter().flatten().any(|s| s.satisfies(wanted))
    }

    pub fn has_trait(&self, t: Trait) -> bool {
        self.traits.contains(&t)
    }

    /// A.4: the greatest lanterns among the symbols whose minimum is ≤ the roll, or 0.
    pub fn lanterns(&self, roll: u8) -> u32 {
        self.explore.iter().flatten().filter(|(min, _)| *min <= roll).map(|(_, l)| *l).max().unwrap_or(0)
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CaveDef {
    pub id: String,
    /// B.7: the paragraph for each die face 1…6, when declared.
    pub paragraphs: Option<[u32; 6]>,
}

/// The validated catalogue.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Catalogue {
    pub source: Option<String>,
    pub cards: Defs<CardDef>,
    pub villagers: Defs<VillagerDef>,
    pub caves: Defs<CaveDef>,
}

/// A definition declared under an id.
pub trait Declared {
    fn id(&self) -> &str;
}

impl Declared for CardDef {
    fn id(&self) -> &str {
        &self.id
    }
}

impl Declared for VillagerDef {
    fn id(&self) -> &str {
        &self.id
    }
}

impl Declared for CaveDef {
    fn id(&self) -> &str {
        &self.id
    }
}

/// The definitions of one kind, in the order of their ids (bytewise, as a map of strings
/// orders them) and found through a hash table of their ids' prefixes. Every log declares its
/// own catalogue, so it is built once per replay: a few flat lists, where a map cost a node and
/// a copy of the key per definition (7% of a replay's instructions).
///
/// Ids are handled as their [`prefix`]es: the rules look villagers and cards up by id on nearly
/// every entry, and the sort and the look-up compare two integers where they compared two
/// strings through `memcmp` (a twentieth of a replay's instructions). The ids themselves are
/// compared only between equal prefixes, which keeps the order bytewise.
#[derive(Clone)]
pub struct Defs<T> {
    /// In declaration order: sorting moved each definition twice, a pair of integers costs
    /// less to move.
    defs: Vec<T>,
    /// The sorted order: each definition's id [`prefix`] and its index in `defs`, by id.
    sorted: Vec<(u128, usize)>,
    /// Each definition's id [`prefix`], in declaration order.
    prefixes: Vec<u128>,
    /// The look-up: a table of at least twice as many slots as definitions (a power of two),
    /// each the index of the definition whose prefix hashes to it or, taken, to a slot before
    /// it ([`EMPTY`] marks a free slot). One hash and, nearly always, one comparison of
    /// prefixes find an id, where the binary search of `sorted` took seven unpredictable steps
    /// for a catalogue's cards (a tenth of the rules' time went to those look-ups).
    slots: Vec<u32>,
}

/// The index of a free slot of [`Defs::slots`].
const EMPTY: u32 = u32::MAX;

/// The slot where a prefix's search starts in a table of `mask + 1` slots: the engines' shared
/// hashing of id prefixes ([`prefix_slot`]).
#[inline]
fn slot_of(prefix: u128, mask: usize) -> usize {
    prefix_slot(prefix, mask + 1)
}

/// Most slots a search of [`Defs::slots`] visits. The table's hash is public and fixed (the
/// engine is deterministic), so a log can declare ids that all start their searches at one slot
/// (ids alike in their first 16 bytes do, and others can be found that do): with no limit,
/// building the table took a number of steps quadratic in the ids and each look-up a number
/// linear in them. A definition that finds no free slot within this many is left out of the
/// table and found by a binary search of [`Defs::sorted`] instead, so building costs at most
/// this many steps per id and a look-up this many plus a logarithm. The catalogues of real and
/// simulated games find every id within four slots.
const MAX_PROBES: usize = 16;

/// The look-up table of [`Defs::slots`] for the prefixes of the definitions, in declaration
/// order; a definition without a free slot within [`MAX_PROBES`] of its start is left out.
fn slots(prefixes: &[u128]) -> Vec<u32> {
    let size = (prefixes.len() * 2).next_power_of_two().max(2);
    let mut slots = vec![EMPTY; size];
    for (i, &prefix) in (0..).zip(prefixes) {
        let start = slot_of(prefix, size - 1);
        if let Some(at) = (0..MAX_PROBES).map(|k| (start + k) & (size - 1)).find(|&at| slots[at] == EMPTY) {
            slots[at] = i;
        }
    }
    slots
}

/// As derived when the definitions were one sorted list.
impl<T: std::fmt::Debug> std::fmt::Debug for Defs<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("Defs").field(&self.sorted().collect::<Vec<_>>()).finish()
    }
}

/// As derived when the definitions were one sorted list: the same definitions in the same
/// order, whatever order they were declared in.
impl<T: PartialEq> PartialEq for Defs<T> {
    fn eq(&self, other: &Self) -> bool {
        self.sorted().eq(other.sorted())
    }
}

impl<T> Defs<T> {
    /// The definitions, sorted by id.
    fn sorted(&self) -> impl Iterator<Item = &T> {
        self.sorted.iter().map(|&(_, i)| &self.defs[i])
    }
}

impl<T> Default for Defs<T> {
    fn default() -> Self {
        Defs { defs: Vec::new(), sorted: Vec::new(), prefixes: Vec::new(), slots: slots(&[]) }
    }
}

/// An id's first 16 bytes as one big-endian number, zero-padded: ids whose prefixes differ
/// are in the order of their prefixes (a shorter id is padded with zeros, which no longer id
/// can be below at that byte), so only ids with equal prefixes need their texts compared.
///
/// Read as whole words, not copied byte by byte into a buffer (a call to `memcpy` for every
/// look-up): an id of 16 bytes or more is one load; a shorter one is two loads of its first
/// and last 8 (or 4) bytes that overlap, the overlap shifted out.
#[inline]
fn prefix(id: &str) -> u128 {
    let b = id.as_bytes();
    if let Some(first) = b.first_chunk::<16>() {
        return u128::from_be_bytes(*first);
    }
    let n = b.len();
    let top = |v: u64| u128::from(v) << 64;
    match (b.first_chunk::<8>(), b.first_chunk::<4>()) {
        (Some(first), _) => {
            // 8 ≤ n < 16: bytes 8..n are the last n - 8 of the last eight bytes.
            let last = u64::from_be_bytes(b[n - 8..].try_into().unwrap_or([0; 8]));
            let rest = if n == 8 { 0 } else { last << (8 * (16 - n)) };
            top(u64::from_be_bytes(*first)) | u128::from(rest)
        }
        (None, Some(first)) => {
            // 4 ≤ n < 8: the same with four-byte words, in the top eight bytes.
            let last = u64::from(u32::from_be_bytes(b[n - 4..].try_into().unwrap_or([0; 4])));
            let rest = (last << (8 * (8 - n))) & 0xFFFF_FFFF;
            top(u64::from(u32::from_be_bytes(*first)) << 32 | rest)
        }
        (None, None) => {
            let mut word = 0u64;
            for (k, &byte) in b.iter().enumerate() {
                word |= u64::from(byte) << (8 * (7 - k));
            }
            top(word)
        }
    }
}

/// Whether two ids with equal [`prefix`]es are the same: an id of at most 16 bytes is all in
/// its prefix, so then equal lengths suffice (a shorter id's padding could be an id's NULs),
/// and only longer ids are compared as texts.
fn same_given_prefix(a: &str, b: &str) -> bool {
    a.len() == b.len() && (a.len() <= 16 || a == b)
}

/// Bytewise order of two ids, given their [`prefix`]es.
fn by_id(a: (u128, &str), b: (u128, &str)) -> std::cmp::Ordering {
    a.0.cmp(&b.0).then_with(|| a.1.cmp(b.1))
}

impl<T: Declared> Defs<T> {
    /// The definitions given in declaration order, sorted; `Err` with the id of the first one
    /// (in declaration order) whose id was declared before it.
    fn new(declared: Vec<T>) -> Result<Defs<T>, String> {
        let prefixes: Vec<u128> = declared.iter().map(|d| prefix(d.id())).collect();
        let key = |i: usize| (prefixes[i], declared[i].id());
        // A list declared in strictly increasing id order (the caves of every simulated log)
        // is sorted and has no repeat: one pass checks it.
        if (1..declared.len()).all(|i| by_id(key(i - 1), key(i)).is_lt()) {
            let sorted = prefixes.iter().copied().zip(0..).collect();
            let slots = slots(&prefixes);
            return Ok(Defs { defs: declared, sorted, prefixes, slots });
        }
        // The declaration indices sorted by id, equal ids in declaration order: pairs of
        // integers are sorted, not the definitions, and only a run of equal prefixes (ids
        // alike in their first 16 bytes) is sorted again by the ids' texts.
        let mut order: Vec<(u128, usize)> = prefixes.iter().copied().zip(0..).collect();
        order.sort_unstable();
        for run in order.chunk_by_mut(|a, b| a.0 == b.0).filter(|run| run.len() > 1) {
            run.sort_by(|a, b| declared[a.1].id().cmp(declared[b.1].id()));
        }
        // In a run of equal ids, all but the first (in declaration order) repeat it.
        let repeat = order.windows(2).filter(|w| key(w[0].1) == key(w[1].1)).map(|w| w[1].1).min();
        if let Some(i) = repeat {
            return Err(declared[i].id().to_owned());
        }
        let slots = slots(&prefixes);
        Ok(Defs { defs: declared, sorted: order, prefixes, slots })
    }

    #[inline]
    pub fn get(&self, id: &str) -> Option<&T> {
        let key = prefix(id);
        let mask = self.slots.len() - 1;
        let mut at = slot_of(key, mask);
        for _ in 0..MAX_PROBES {
            let i = self.slots[at] as usize;
            // A free slot (EMPTY) ends the search: every definition whose search passes it
            // found a free slot before it, and none was left out of the table.
            if self.prefixes.get(i)? == &key {
                let def = &self.defs[i];
                if same_given_prefix(def.id(), id) {
                    return Some(def);
                }
            }
            at = (at + 1) & mask;
        }
        self.searched(key, id)
    }

    /// A definition left out of the look-up table ([`MAX_PROBES`]), by a binary search of the
    /// sorted order.
    #[cold]
    fn searched(&self, key: u128, id: &str) -> Option<&T> {
        let i = self.sorted.binary_search_by(|&(p, i)| by_id((p, self.defs[i].id()), (key, id))).ok()?;
        Some(&self.defs[self.sorted[i].1])
    }

    /// The definitions, sorted by id.
    pub fn values(&self) -> impl Iterator<Item = &T> {
        self.sorted()
    }

    /// The ids, sorted.
    pub fn keys(&self) -> impl Iterator<Item = &str> {
        self.sorted().map(Declared::id)
    }

    pub fn len(&self) -> usize {
        self.defs.len()
    }

    pub fn is_empty(&self) -> bool {
        self.defs.is_empty()
    }
}

/// Definitions read in declaration order by `def`, which checks each: the first failure in
/// declaration order is the answer, where a definition whose id was declared before fails as
/// "`what` id … is declared twice" (B.2, B.5, B.7).
fn declare<N, T: Declared>(
    declared: Vec<N>,
    what: &str,
    mut def: impl FnMut(N) -> RuleResult<T>,
) -> RuleResult<Defs<T>> {
    let mut defs = Vec::with_capacity(declared.len());
    let mut failure = None;
    for n in declared {
        match def(n) {
            Ok(d) => defs.push(d),
            Err(e) => {
                failure = Some(e);
                break;
            }
        }
    }
    let defs = Defs::new(defs)
        .map_err(|id| RuleError::new(ErrorCode::Catalogue, format!("{what} id {id} is declared twice")))?;
    failure.map_or(Ok(defs), Err)
}

/// A card whose full entry is known: what the rules need of a card that is owned.
#[derive(Clone, Copy, Debug)]
pub struct FullCard<'a> {
    pub id: &'a str,
    pub kind: CardKind,
    pub cost: u32,
    /// Shared, so that a gained card keeps them without a second lookup.
    pub effects: &'a Arc<[Effect]>,
}

impl Catalogue {
    /// B.2–B.7: reads the catalogue object and checks it is well formed.
    pub fn from_notation(n: CatalogueNotation) -> RuleResult<Catalogue> {
        if let Some(name) = &n.extends {
            return fail(
                ErrorCode::Catalogue,
                format!("catalogue.extends names \"{name}\", but this engine ships no named catalogue (RULES.md B.1): declare every card in the log"),
            );
        }
        let cards = declare(n.cards, "card", |card| {
            ensure(!card.id.is_empty(), ErrorCode::Catalogue, || "a card has an empty id".into())?;
            ensure((card.kind == CardKind::Starting) == (card.id == START_HOUSE), ErrorCode::Catalogue, || {
                format!("card {}: only `{START_HOUSE}` is a starting house, and it is kind `starting`", card.id)
            })?;
            Ok(CardDef { id: card.id, kind: card.kind, cost: card.cost, effects: card.effects.map(Arc::from) })
        })?;
        match cards.get(START_HOUSE) {
            Some(h) if h.effects.is_some() => {}
            _ => return fail(ErrorCode::Catalogue, format!("`{START_HOUSE}` needs its full entry with effects (B.2)")),
        }
        let villagers = declare(n.villagers, "villager", |v| {
            let explore = match v.explore {
                None => None,
                Some(pairs) => {
                    let mut out = Vec::with_capacity(pairs.len());
                    for (min, l) in pairs {
                        let Some(m) = u8::try_from(min).ok().filter(|m| (1..=6).contains(m)) else {
                            return fail(
                                ErrorCode::Catalogue,
                                format!("villager {}: lantern symbol minimum {min} is not 1–6", v.id),
                            );
                        };
                        out.push((m, l));
                    }
                    Some(out)
                }
            };
            let def = VillagerDef {
                id: v.id,
                kind: v.kind,
                skills: v.skills,
                explore,
                traits: v.traits.unwrap_or_default(),
                tags: v.tags.unwrap_or_default(),
            };
            check_villager(&def)?;
            Ok(def)
        })?;
        for s in STARTERS {
            match villagers.get(s) {
                Some(v) if v.skills.is_some() && v.explore.is_some() => {}
                _ => {
                    return fail(
                        ErrorCode::Catalogue,
                        format!("starting villager `{s}` needs a full entry (skills, explore)"),
                    )
                }
            }
        }
        let caves = declare(n.caves, "cave", |cave| {
            let paragraphs = match cave.paragraphs {
                None => None,
                Some(p) => match <[u32; 6]>::try_from(p) {
                    Ok(a) => Some(a),
                    Err(p) => {
                        return fail(
                            ErrorCode::Catalogue,
                            format!("cave {}: {} paragraphs, not 6 (B.7)", cave.id, p.len()),
                        )
                    }
                },
            };
            Ok(CaveDef { id: cave.id, paragraphs })
        })?;
        Ok(Catalogue { source: n.source, cards, villagers, caves })
    }

    /// A declared card (`E_CATALOGUE` when the id is not declared).
    pub fn card(&self, id: &str) -> RuleResult<&CardDef> {
        self.cards
            .get(id)
            .ok_or_else(|| RuleError::new(ErrorCode::Catalogue, format!("card {id} is not declared in the catalogue")))
    }

    /// A card that is bought, gained or owned: needs its effects, and its cost unless starting (B.2).
    pub fn full_card(&self, id: &str) -> RuleResult<FullCard<'_>> {
        let c = self.card(id)?;
        let cost = match (c.kind, c.cost) {
            (CardKind::Starting, cost) => cost.unwrap_or(0),
            (_, Some(cost)) => cost,
            (_, None) => {
                return fail(
                    ErrorCode::Catalogue,
                    format!("card {id} is only a stub: a card that is gained needs its cost and effects (B.2)"),
                )
            }
        };
        match &c.effects {
            Some(effects) => Ok(FullCard { id: &c.id, kind: c.kind, cost, effects }),
            None => fail(
                ErrorCode::Catalogue,
                format!("card {id} is only a stub: a card that is gained needs its effects (B.2)"),
            ),
        }
    }

    /// The effects of an owned card (empty for an undeclared one, which cannot be owned).
    pub fn effects(&self, id: &str) -> &[Effect] {
        self.cards.get(id).and_then(|c| c.effects.as_deref()).unwrap_or(&[])
    }

    /// [`Catalogue::effects`], shared: what an [`crate::game::OwnedCard`] keeps when it is gained.
    pub fn shared_effects(&self, id: &str) -> Arc<[Effect]> {
        self.cards.get(id).and_then(|c| c.effects.clone()).unwrap_or_else(|| Arc::from([]))
    }

    pub fn villager(&self, id: &str) -> RuleResult<&VillagerDef> {
        self.villagers.get(id).ok_or_else(|| {
            RuleError::new(ErrorCode::Catalogue, format!("villager {id} is not declared in the catalogue"))
        })
    }

    /// A villager that joins a village needs `skills` and `explore` (B.5).
    pub fn full_villager(&self, id: &str) -> RuleResult<&VillagerDef> {
        let v = self.villager(id)?;
        ensure(v.skills.is_some() && v.explore.is_some(), ErrorCode::Catalogue, || {
            format!("villager {id} is only a stub: a villager that joins a village needs skills and explore (B.5)")
        })?;
        Ok(v)
    }

    pub fn cave(&self, id: &str) -> RuleResult<&CaveDef> {
        self.caves
            .get(id)
            .ok_or_else(|| RuleError::new(ErrorCode::Catalogue, format!("cave {id} is not declared in the catalogue")))
    }

    /// The declared ids of one card kind, sorted bytewise (the order seeded setup shuffles, LOG-FORMAT).
    pub fn card_ids(&self, kind: CardKind) -> Vec<String> {
        self.cards.values().filter(|c| c.kind == kind).map(|c| c.id.clone()).collect()
    }

    pub fn villager_ids(&self, kind: VillagerKind) -> Vec<String> {
        self.villagers.values().filter(|v| v.kind == kind).map(|v| v.id.clone()).collect()
    }
}

/// B.5–B.6: what the rulebook fixes about starting and special villagers.
fn check_villager(v: &VillagerDef) -> RuleResult {
    let special = SPECIALS.iter().find(|(id, _)| *id == v.id);
    let starter = STARTERS.contains(&v.id.as_str());
    match v.kind {
        VillagerKind::Starting => ensure(starter, ErrorCode::Catalogue, || {
            format!("villager {}: the starting villagers are {}", v.id, STARTERS.join(", "))
        })?,
        VillagerKind::Special => {
            ensure(special.is_some(), ErrorCode::Catalogue, || {
                format!("villager {}: the special villagers are liquid_woman, glogo, cave_cat_1/2, mechanical_man_1/2 (B.6)", v.id)
            })?
        }
        VillagerKind::Regular => ensure(!starter && special.is_none(), ErrorCode::Catalogue, || {
            format!("villager {} is a starting or special id, not a regular villager", v.id)
        })?,
    }
    if starter && v.skills.is_some() {
        let hammer = v.has_skill(Skill::Hammer);
        ensure(hammer == (v.id == "start_hammer"), ErrorCode::Catalogue, || {
            format!(
                "villager {}: exactly start_hammer has a hammer among the starting villagers (IT Prep. 1, B.5)",
                v.id
            )
        })?;
    }
    if let (Some((_, enc)), true) = (special, v.skills.is_some()) {
        let ok = match enc {
            Encoding::Trait(t) => v.has_trait(*t),
            Encoding::Skill(s) => v.skills.iter().flatten().any(|k| k == s),
        };
        ensure(ok, ErrorCode::Catalogue, || {
            format!("villager {} lacks the encoding B.6 fixes for it ({enc:?})", v.id)
        })?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use serde_json::Value;

    use super::*;

    /// The synthetic catalogue with `edit` applied to its JSON, read and validated.
    fn read(edit: impl FnOnce(&mut Value)) -> RuleResult<Catalogue> {
        let (mut c, _) = crate::synthetic::components().expect("synthetic components");
        edit(&mut c);
        let n: CatalogueNotation = serde_json::from_value(c).expect("catalogue notation");
        Catalogue::from_notation(n)
    }

    /// A copy of the definition `id` in list `list`, with `id` replaced by `new_id`.
    fn copy(c: &Value, list: &str, id: &str, new_id: &str) -> Value {
        let mut d = c[list].as_array().and_then(|l| l.iter().find(|d| d["id"] == id)).cloned().expect("declared");
        d["id"] = Value::from(new_id);
        d
    }

    fn push(c: &mut Value, list: &str, d: Value) {
        c[list].as_array_mut().expect("list").push(d);
    }

    /// B.2, B.5, B.7: an id declared twice is refused, and the error names the first
    /// definition (in declaration order) that repeats an earlier id, as it did when the
    /// catalogue was built by inserting into a map; a failure of another check earlier in the
    /// list still comes first.
    #[test]
    fn the_first_repeated_id_in_declaration_order_is_refused() {
        type Edit = fn(&mut Value);
        let cases: [(&str, Edit); 6] = [
            ("card id house_02 is declared twice", |c| {
                let (a, b) = (copy(c, "cards", "house_02", "house_02"), copy(c, "cards", "house_01", "house_01"));
                push(c, "cards", a);
                push(c, "cards", b);
            }),
            ("card id house_01 is declared twice", |c| {
                let (a, b) = (copy(c, "cards", "house_01", "house_01"), copy(c, "cards", "house_01", ""));
                push(c, "cards", a);
                push(c, "cards", b);
            }),
            ("a card has an empty id", |c| {
                let (a, b) = (copy(c, "cards", "house_01", ""), copy(c, "cards", "house_01", "house_01"));
                push(c, "cards", a);
                push(c, "cards", b);
            }),
            ("villager id villager_03 is declared twice", |c| {
                let v = copy(c, "villagers", "villager_03", "villager_03");
                push(c, "villagers", v);
            }),
            ("cave id cave_05 is declared twice", |c| {
                let v = copy(c, "caves", "cave_05", "cave_05");
                c["caves"].as_array_mut().expect("caves").insert(0, v);
            }),
            ("cave id cave_02 is declared twice", |c| {
                let (a, b) = (copy(c, "caves", "cave_09", "cave_09"), copy(c, "caves", "cave_02", "cave_02"));
                c["caves"].as_array_mut().expect("caves").insert(3, a);
                c["caves"].as_array_mut().expect("caves").insert(0, b);
            }),
        ];
        for (want, edit) in cases {
            let error = read(edit).expect_err(want);
            assert_eq!((error.code, error.message.as_str()), (ErrorCode::Catalogue, want));
        }
    }

    /// Ids that the 16-byte prefixes cannot tell apart (longer ones with a common start, a
    /// trailing NUL) are still sorted bytewise, found, and refused when repeated.
    #[test]
    fn ids_with_equal_prefixes_are_sorted_and_found_by_their_text() {
        let ids = ["cave_with_a_long_name_b", "a\u{0}", "cave_with_a_long_name_a", "a", "", "cave_with_a_long_name"];
        let defs = Defs::new(ids.map(|id| CaveDef { id: id.to_owned(), paragraphs: None }).to_vec()).expect("distinct");
        let mut sorted = ids.to_vec();
        sorted.sort_unstable();
        assert!(defs.keys().eq(sorted.iter().copied()));
        for id in ids {
            assert_eq!(defs.get(id).map(|d| d.id.as_str()), Some(id));
        }
        assert!(defs.get("cave_with_a_long_name_c").is_none() && defs.get("a\u{0}\u{0}").is_none());
        let repeated = ["b", "cave_with_a_long_name_a", "a", "cave_with_a_long_name_a", "b"];
        let repeated = repeated.map(|id| CaveDef { id: id.to_owned(), paragraphs: None }).to_vec();
        assert_eq!(Defs::new(repeated).err().as_deref(), Some("cave_with_a_long_name_a"));
    }

    /// An id's prefix, read as overlapping words, is its first 16 bytes zero-padded, for every
    /// length (each branch of `prefix` and its edges); and ids of every length that differ
    /// only in their last byte are found apart.
    #[test]
    fn an_ids_prefix_is_its_first_sixteen_bytes_padded_with_zeros() {
        let text: String = ('a'..='z').collect();
        for n in 0..=20 {
            let id = &text[..n];
            let mut padded = [0u8; 16];
            padded[..n.min(16)].copy_from_slice(&id.as_bytes()[..n.min(16)]);
            assert_eq!(prefix(id), u128::from_be_bytes(padded), "{id}");
        }
        let ids: Vec<String> = (1..=20).flat_map(|n| [text[..n].to_owned(), format!("{}A", &text[..n - 1])]).collect();
        let defs =
            Defs::new(ids.iter().map(|id| CaveDef { id: id.clone(), paragraphs: None }).collect()).expect("distinct");
        for id in &ids {
            assert_eq!(defs.get(id).map(|d| d.id.as_str()), Some(id.as_str()));
            assert!(defs.get(&format!("{id}!")).is_none());
        }
    }

    /// The look-up table spreads ids that are alike in their first bytes (`villager_01` …,
    /// `house_01` …): each id of the synthetic catalogue is found within a few slots of the one
    /// its search starts at (all 27 villagers once started at one slot).
    #[test]
    fn ids_alike_in_their_first_bytes_are_spread_over_the_look_up_table() {
        fn longest<T>(defs: &Defs<T>) -> usize {
            let mask = defs.slots.len() - 1;
            let probes = |i: usize| {
                let start = slot_of(defs.prefixes[i], mask);
                (0..=mask).position(|k| defs.slots[(start + k) & mask] as usize == i).expect("in the table")
            };
            (0..defs.prefixes.len()).map(probes).max().unwrap_or(0)
        }
        let catalogue = read(|_| {}).expect("the synthetic catalogue is valid");
        for (what, n, longest) in [
            ("cards", catalogue.cards.len(), longest(&catalogue.cards)),
            ("villagers", catalogue.villagers.len(), longest(&catalogue.villagers)),
            ("caves", catalogue.caves.len(), longest(&catalogue.caves)),
        ] {
            assert!(n >= 20 && longest <= 4, "{what}: {n} ids, one found {longest} slots after its start");
        }
    }

    /// Ids that all start their searches at one slot (alike in their first 16 bytes) cost at
    /// most [`MAX_PROBES`] slots each to place and to look up: the table is built in linear
    /// time, where it was quadratic, and every id is still found, those left out of the table
    /// by the binary search; ids not declared are not.
    #[test]
    fn ids_starting_their_search_at_one_slot_are_placed_and_found_in_bounded_steps() {
        let ids: Vec<String> = (0..5_000).map(|i| format!("an_id_sixteen_by_{i:05}")).collect();
        assert!(ids.iter().all(|id| prefix(id) == prefix(&ids[0])));
        let defs = Defs::new(ids.iter().rev().map(|id| CaveDef { id: id.clone(), paragraphs: None }).collect())
            .expect("distinct");
        let placed = defs.slots.iter().filter(|&&s| s != EMPTY).count();
        assert_eq!(placed, MAX_PROBES);
        for id in &ids {
            assert_eq!(defs.get(id).map(|d| d.id.as_str()), Some(id.as_str()));
        }
        assert!(defs.get("an_id_sixteen_by_05000").is_none() && defs.get("an_id_sixteen_by_").is_none());
    }

    /// Every declared definition is found under its id, and only those; ids come sorted.
    #[test]
    fn every_declared_id_is_found_and_the_ids_come_sorted() {
        let (c, _) = crate::synthetic::components().expect("synthetic components");
        let catalogue = read(|_| {}).expect("the synthetic catalogue is valid");
        for (list, n) in [
            ("cards", catalogue.cards.len()),
            ("villagers", catalogue.villagers.len()),
            ("caves", catalogue.caves.len()),
        ] {
            let ids: Vec<&str> = c[list].as_array().expect("list").iter().filter_map(|d| d["id"].as_str()).collect();
            assert_eq!(ids.len(), n, "{list}");
            for id in ids {
                let found = match list {
                    "cards" => catalogue.cards.get(id).map(|d| d.id.as_str()),
                    "villagers" => catalogue.villagers.get(id).map(|d| d.id.as_str()),
                    _ => catalogue.caves.get(id).map(|d| d.id.as_str()),
                };
                assert_eq!(found, Some(id));
            }
        }
        assert!(catalogue.cards.get("house_00").is_none() && catalogue.villagers.get("").is_none());
        let keys: Vec<&str> = catalogue.cards.keys().collect();
        assert!(keys.windows(2).all(|w| w[0] < w[1]), "{keys:?}");
        assert!(catalogue.cards.values().map(|d| d.id.as_str()).eq(keys));
    }
}
