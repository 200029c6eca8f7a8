//! The validated card catalogue (`RULES.md` B): houses and outposts with effects from the
//! closed vocabulary of B.3, villagers (B.5–B.6) and caves (B.7).
//!
//! The engine ships **no** named catalogue: the printed card data is not available to the
//! project (B.1), so a log names none (`E_CATALOGUE`) and declares its own. Test fixtures and
//! the simulator use a synthetic set that says so in its `source` ([`crate::synthetic`]).

use std::collections::BTreeMap;
use std::sync::Arc;

use crate::error::{ensure, fail, ErrorCode, RuleResult};
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
    pub cards: BTreeMap<String, CardDef>,
    pub villagers: BTreeMap<String, VillagerDef>,
    pub caves: BTreeMap<String, CaveDef>,
}

/// A card whose full entry is known: what the rules need of a card that is owned.
#[derive(Clone, Copy, Debug)]
pub struct FullCard<'a> {
    pub id: &'a str,
    pub kind: CardKind,
    pub cost: u32,
    pub effects: &'a [Effect],
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
        let mut c = Catalogue { source: n.source, ..Catalogue::default() };
        for card in n.cards {
            ensure(!card.id.is_empty(), ErrorCode::Catalogue, || "a card has an empty id".into())?;
            ensure((card.kind == CardKind::Starting) == (card.id == START_HOUSE), ErrorCode::Catalogue, || {
                format!("card {}: only `{START_HOUSE}` is a starting house, and it is kind `starting`", card.id)
            })?;
            let def =
                CardDef { id: card.id.clone(), kind: card.kind, cost: card.cost, effects: card.effects.map(Arc::from) };
            if let Some(twice) = c.cards.insert(card.id, def) {
                return fail(ErrorCode::Catalogue, format!("card id {} is declared twice", twice.id));
            }
        }
        match c.cards.get(START_HOUSE) {
            Some(h) if h.effects.is_some() => {}
            _ => return fail(ErrorCode::Catalogue, format!("`{START_HOUSE}` needs its full entry with effects (B.2)")),
        }
        for v in n.villagers {
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
                id: v.id.clone(),
                kind: v.kind,
                skills: v.skills,
                explore,
                traits: v.traits.unwrap_or_default(),
                tags: v.tags.unwrap_or_default(),
            };
            check_villager(&def)?;
            if let Some(twice) = c.villagers.insert(v.id, def) {
                return fail(ErrorCode::Catalogue, format!("villager id {} is declared twice", twice.id));
            }
        }
        for s in STARTERS {
            match c.villagers.get(s) {
                Some(v) if v.skills.is_some() && v.explore.is_some() => {}
                _ => {
                    return fail(
                        ErrorCode::Catalogue,
                        format!("starting villager `{s}` needs a full entry (skills, explore)"),
                    )
                }
            }
        }
        for cave in n.caves {
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
            if let Some(twice) = c.caves.insert(cave.id.clone(), CaveDef { id: cave.id, paragraphs }) {
                return fail(ErrorCode::Catalogue, format!("cave id {} is declared twice", twice.id));
            }
        }
        Ok(c)
    }

    /// A declared card (`E_CATALOGUE` when the id is not declared).
    pub fn card(&self, id: &str) -> RuleResult<&CardDef> {
        self.cards.get(id).ok_or_else(|| {
            crate::error::RuleError::new(ErrorCode::Catalogue, format!("card {id} is not declared in the catalogue"))
        })
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
            crate::error::RuleError::new(
                ErrorCode::Catalogue,
                format!("villager {id} is not declared in the catalogue"),
            )
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
        self.caves.get(id).ok_or_else(|| {
            crate::error::RuleError::new(ErrorCode::Catalogue, format!("cave {id} is not declared in the catalogue"))
        })
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
