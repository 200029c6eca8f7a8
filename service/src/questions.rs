//! The questions pages' answers ([`chronicle_analytics::questions`]) over one game's stored
//! complete multiplayer games, leaving simulated games out by default when games played by
//! people exist (docs/statistics.md, "Questions").

use std::sync::{Arc, Weak};

use chronicle_analytics::questions::{self, Question};
use chronicle_analytics::skill::{EffectsFilter, Skill, SkillCorpus, Strategy, SIMULATED};
use chronicle_caverna::furnishing::Furnishing;
use chronicle_game::GameKind;

use crate::{blocking, stats_corpus, Service, ServiceError};

/// A game's questions and what they are computed over.
#[derive(Clone, Debug)]
pub struct QuestionsReport {
    pub kind: GameKind,
    /// The player-games the answers are computed over.
    pub corpus: SkillCorpus,
    /// Simulated player-games left out (games played by people exist, and the two are not
    /// mixed unless asked).
    pub simulated_left_out: u64,
    /// The tile "Does building it help?" asks about (Caverna).
    pub tile: Option<Furnishing>,
    pub questions: Vec<Question>,
}

/// Answers kept per question set, with the skill statistics they were computed from (a
/// [`Weak`] pointer: compared by address, it keeps the address from being reused, not the
/// statistics alive), so that a page asked again costs a lookup until games are stored.
pub(crate) type Kept =
    quick_cache::sync::Cache<(GameKind, Option<Furnishing>, bool), (Weak<Skill>, Arc<QuestionsReport>)>;

/// Question sets kept: every tile of the game, with and without simulated games, for a few
/// games (a report is a few kilobytes).
pub(crate) const KEPT: usize = 256;

impl Service {
    /// The questions of `kind` (Caverna's tile question about `tile`, a tile id, or else the
    /// tile most often built), over every complete multiplayer game, simulated games left out
    /// unless `include_simulated` or no game played by people exists.
    pub async fn questions(
        &self,
        kind: GameKind,
        tile: Option<String>,
        include_simulated: bool,
    ) -> Result<Arc<QuestionsReport>, ServiceError> {
        let tile = match tile.filter(|t| !t.is_empty()) {
            None => None,
            Some(id) if stats_corpus::has_strategies(kind) => Some(Furnishing::from_id(&id).ok_or_else(|| {
                ServiceError::BadInput(chronicle_game::bounded_message(&format!("no furnishing tile `{id}`")))
            })?),
            Some(_) => return Err(ServiceError::BadInput(format!("{} has no furnishing tiles", kind.spec().name))),
        };
        let skill = self.skill_of(kind).await?;
        let key = (kind, tile, include_simulated);
        if let Some((from, kept)) = self.kept_questions.get(&key) {
            if from.upgrade().is_some_and(|s| Arc::ptr_eq(&s, &skill)) {
                return Ok(kept);
            }
        }
        let from = Arc::downgrade(&skill);
        let _slot = self.compute("a questions page").await?;
        let fresh = Arc::new(blocking(move || report(kind, &skill, tile, include_simulated)).await?);
        self.kept_questions.insert(key, (from, Arc::clone(&fresh)));
        Ok(fresh)
    }
}

/// `filter`, leaving simulated games out when games played by people pass it too, unless
/// `include_simulated` or it names a source itself; with the simulated player-games left out.
pub fn without_simulated(skill: &Skill, filter: EffectsFilter, include_simulated: bool) -> (EffectsFilter, u64) {
    if include_simulated || filter.source.is_some() || filter.exclude_source.is_some() {
        return (filter, 0);
    }
    let everything = skill.corpus(&filter);
    if everything.simulated > 0 && everything.simulated < everything.player_games {
        (EffectsFilter { exclude_source: Some(SIMULATED.to_owned()), ..filter }, everything.simulated)
    } else {
        (filter, 0)
    }
}

fn report(kind: GameKind, skill: &Skill, tile: Option<Furnishing>, include_simulated: bool) -> QuestionsReport {
    let (filter, left_out) = without_simulated(skill, EffectsFilter::default(), include_simulated);
    let spec = kind.spec();
    let mut asked = Vec::new();
    let mut tile = tile;
    if stats_corpus::has_strategies(kind) {
        let chosen = tile.unwrap_or_else(|| most_built(skill, &filter));
        tile = Some(chosen);
        asked.push(questions::tile(skill, &filter, chosen));
        asked.push(questions::arming(skill, &filter));
    }
    let rows: Vec<&str> = spec.score_rows.iter().map(|r| r.label).collect();
    asked.push(questions::main_sources(skill, &filter, &rows));
    let counters: Vec<questions::AskedCounter> = spec
        .counters
        .iter()
        .map(|c| questions::AskedCounter { label: c.label, asked: c.asked, round: c.round })
        .collect();
    asked.extend(questions::counters(skill, &filter, &counters));
    asked.extend(questions::seats(skill, &filter));
    QuestionsReport { kind, corpus: skill.corpus(&filter), simulated_left_out: left_out, tile, questions: asked }
}

/// The tile the most player-games built (the first in the catalogue's order on a tie, or when
/// none was built).
fn most_built(skill: &Skill, filter: &EffectsFilter) -> Furnishing {
    let tiles: Vec<(usize, Furnishing)> = chronicle_analytics::skill::strategies()
        .enumerate()
        .filter_map(|(k, s)| match s {
            Strategy::Tile(t) => Some((k, t)),
            Strategy::Armed => None,
        })
        .collect();
    let seen = skill.seen(filter);
    let mut best: Option<(usize, Furnishing)> = None;
    for &(k, t) in &tiles {
        let n = seen.iter().filter(|s| s.strategies & (1 << k) != 0).count();
        if best.is_none_or(|(b, _)| n > b) {
            best = Some((n, t));
        }
    }
    best.map_or(Furnishing::all().next().unwrap_or(Furnishing::Dwelling), |(_, t)| t)
}
