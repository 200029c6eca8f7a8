//! The rating models kept in the store: each game's Weng-Lin ratings (every rated seat's
//! rating before and after its game, every player's current rating) and, for Caverna, the
//! strategy effects its strategy page shows without a filter — computed once per corpus by a
//! background step and read by every process on the database, a hot standby's included.
//!
//! **Computing** ([`refresh`]) is an idempotent step any writer may run at any time: for each
//! game whose stored model does not cover the counted corpus as it is now (its
//! [`chronicle_store::Store::corpus_version`]), the merged player identities as they are now,
//! and this build's [`MODEL_FORMAT`], it reads the counted games of that game, computes the
//! model ([`Skill::compute_for`]) and replaces the stored one in one transaction. Two writers
//! computing at once commit one after the other; the second finds the model written and
//! writes nothing. Work is bounded by the games stored: one read of each counted game of the
//! stale game (in batches of [`BATCH`]), one rating pass in play order, and, for Caverna, the
//! strategy effects over two filters.
//!
//! Who computes: every `chronicle serve` on a writable store, on a task of its own
//! ([`Service::models_in_background`]), after it counted games, when a query finds the stored
//! model stale (games counted by another process, identities merged by `chronicle players`,
//! verdicts rewritten by `chronicle reverify`) and every [`CHECK`]. A query never computes a
//! model: it reads the stored one, waiting at most [`MODEL_WAIT`] for the task to bring it up
//! to date, and the answer says what it covers ([`RatingsModel`]).

use std::collections::HashMap;
use std::time::Duration;

use chronicle_analytics::skill::{EffectsFilter, Skill, SkillCorpus, SkillGame, StrategyEffect};
use chronicle_game::GameKind;
use chronicle_store::{Backend, ModelHead, PlayerRatingRow, SeatRatingRow, Store, StoredModel};
use serde::{Deserialize, Serialize};

use crate::questions::without_simulated;
use crate::stats_corpus::{self, Aliases};
use crate::{blocking, internal, Service, ServiceError};

/// The version of what a stored model holds; raised whenever it changes, so that a store
/// holding another is computed again by the first writer of this build.
pub const MODEL_FORMAT: i64 = 1;

/// Games read per statement while computing a model.
pub const BATCH: i64 = 2_000;

/// How often a server checks whether a model is stale although it counted nothing (a merge of
/// player identities by another process, a model another writer failed to store).
pub const CHECK: Duration = Duration::from_secs(10);

/// Longest a query waits for the models' task to bring a stale model up to date before it
/// answers from the stored one (which says it is behind): a few games' worth of rating is
/// quick; a recount of a large store is not waited for.
pub const MODEL_WAIT: Duration = Duration::from_secs(2);

/// What the strategy page shows without a filter, as a model keeps it (`stat_models.effects`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct KeptEffects {
    /// The complete games of the corpus (multiplayer or not).
    pub games: usize,
    /// Simulated games left out when games played by people exist (the page's default).
    pub default: EffectsView,
    /// Every multiplayer game, simulated ones included.
    pub everything: EffectsView,
}

/// The strategy effects over one filter, with what they are computed over.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EffectsView {
    /// The filter's `exclude_source` (`simulate` when simulated games are left out).
    pub exclude_source: Option<String>,
    /// Simulated player-games left out.
    pub left_out: u64,
    pub corpus: SkillCorpus,
    pub effects: Vec<StrategyEffect>,
}

impl KeptEffects {
    fn of(skill: &Skill) -> KeptEffects {
        let view = |include: bool| {
            let (filter, left_out) = without_simulated(skill, EffectsFilter::default(), include);
            let effects =
                if filter == EffectsFilter::default() { skill.effects.clone() } else { skill.effects_where(&filter) };
            EffectsView {
                exclude_source: filter.exclude_source.clone(),
                left_out,
                corpus: skill.corpus(&filter),
                effects,
            }
        };
        KeptEffects { games: skill.games, default: view(false), everything: view(true) }
    }

    /// The view for the strategy page: simulated games included or left out by default.
    pub fn view(&self, include_simulated: bool) -> &EffectsView {
        if include_simulated {
            &self.everything
        } else {
            &self.default
        }
    }
}

/// A game's stored rating model as a query reads it: what it covers, and whether the counted
/// corpus moved on since (a newer model is being computed).
#[derive(Clone, Debug, PartialEq)]
pub struct RatingsModel {
    pub kind: GameKind,
    /// Complete games rated.
    pub games: u64,
    /// Players rated.
    pub players: u64,
    /// Games were counted (or identities merged) after it was computed: a newer model is on
    /// its way.
    pub behind: bool,
    /// Caverna's strategy effects without a filter (`None` for other games, and when they were
    /// not stored: then they are computed from the rows).
    pub effects: Option<KeptEffects>,
}

/// What one [`refresh`] did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Refreshed {
    /// The games whose models this call stored.
    pub stored: Vec<GameKind>,
}

/// A fingerprint of the merged identities (FNV-1a over the sorted pairs): stable across builds
/// and platforms, so that every writer agrees whether a stored model used the aliases of now.
pub fn fingerprint(aliases: &[(String, String)]) -> String {
    let mut sorted: Vec<&(String, String)> = aliases.iter().collect();
    sorted.sort();
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for (alias, canonical) in sorted {
        for byte in alias.bytes().chain([0]).chain(canonical.bytes()).chain([0]) {
            hash ^= u64::from(byte);
            hash = hash.wrapping_mul(0x0100_0000_01b3);
        }
    }
    format!("{}:{hash:016x}", aliases.len())
}

/// The head a model of `kind` over the corpus version `corpus` would have (its `games` left 0:
/// known once read).
fn wanted(kind: GameKind, corpus: i64, aliases: &str) -> ModelHead {
    ModelHead { game: kind.id().to_owned(), format: MODEL_FORMAT, corpus, aliases: aliases.to_owned(), games: 0 }
}

/// The corpus versions of the games, as last read at one counting version
/// ([`Service::corpus_version`]): a count over the counted games is read again only after
/// games were counted.
#[derive(Debug, Default)]
pub struct CorpusVersions {
    counting: i64,
    versions: HashMap<GameKind, i64>,
}

/// Whether `stored` covers what `wanted` asks for.
fn covers(stored: &ModelHead, wanted: &ModelHead) -> bool {
    stored.format == wanted.format && stored.corpus == wanted.corpus && stored.aliases == wanted.aliases
}

/// Computes and stores every game's model that is stale (see the module documentation).
pub async fn refresh(store: &Backend) -> Result<Refreshed, ServiceError> {
    let aliases = store.player_aliases().await?;
    let print = fingerprint(&aliases);
    let merged: Aliases = aliases.into_iter().collect();
    let mut done = Refreshed::default();
    for &kind in GameKind::ALL {
        let mut head = wanted(kind, store.corpus_version(kind.id()).await?, &print);
        let stored = store.stored_model(kind.id()).await?;
        if stored.is_some_and(|m| covers(&m.head, &head)) {
            continue;
        }
        let games = counted_skill_games(store, kind).await?;
        head.games = i64::try_from(games.len()).unwrap_or(i64::MAX);
        let merged = merged.clone();
        let (effects, seats, players) = blocking(move || compute(kind, &games, &merged)).await??;
        let model = StoredModel { head, effects };
        if store.replace_model(&model, &seats, &players).await? {
            done.stored.push(kind);
        }
    }
    Ok(done)
}

/// Every counted game of `kind` as the ratings and effects read it (bounded by the games
/// stored; read [`BATCH`] at a time).
async fn counted_skill_games(store: &Backend, kind: GameKind) -> Result<Vec<SkillGame>, ServiceError> {
    let mut games = Vec::new();
    let mut after = 0;
    loop {
        let ids = store.counted_games(kind.id(), after, BATCH).await?;
        let Some(&last) = ids.last() else { break };
        after = last;
        for g in store.games_with_facts(&ids).await? {
            if let Some((k, game)) = stats_corpus::skill_game(g.id, &g.record).map_err(internal)? {
                if k == kind {
                    games.push(game);
                }
            }
        }
    }
    Ok(games)
}

type Computed = (Option<String>, Vec<SeatRatingRow>, Vec<PlayerRatingRow>);

/// The kept effects as stored text, if they read back as they are: JSON has no NaN or infinity
/// (serde writes `null`, which does not read back as a number), so effects holding one are
/// not stored and the strategy page computes them from the rows instead.
fn kept_text(kept: &KeptEffects) -> Option<String> {
    let text = serde_json::to_string(kept).ok()?;
    match serde_json::from_str::<KeptEffects>(&text) {
        Ok(_) => Some(text),
        Err(e) => {
            tracing::warn!(error = %e, "the strategy effects are not stored: they do not read back");
            None
        }
    }
}

/// The model of `kind` over `games`: the kept effects (Caverna), every rated seat and every
/// rated player in table order.
fn compute(kind: GameKind, games: &[SkillGame], aliases: &Aliases) -> Result<Computed, ServiceError> {
    let with_strategies = stats_corpus::has_strategies(kind);
    let skill = Skill::compute_for(games, aliases, with_strategies);
    let effects = if with_strategies { kept_text(&KeptEffects::of(&skill)) } else { None };
    let seats = skill
        .ratings
        .seats()
        .map(|(player, p)| SeatRatingRow {
            game_id: p.game_id,
            seat: p.seat,
            player: player.to_owned(),
            order: i64::from(p.order),
            mu_before: p.before.mu,
            sigma_before: p.before.sigma,
            mu_after: p.after.mu,
            sigma_after: p.after.sigma,
        })
        .collect();
    let players = skill
        .ratings
        .table()
        .into_iter()
        .enumerate()
        .map(|(place, (key, r))| PlayerRatingRow {
            place: i64::try_from(place).unwrap_or(i64::MAX),
            player: key.to_owned(),
            name: skill.names.get(key).cloned().unwrap_or_else(|| key.to_owned()),
            mu: r.rating.mu,
            sigma: r.rating.sigma,
            games: i64::from(r.games),
        })
        .collect();
    Ok((effects, seats, players))
}

impl Service {
    /// Keeps the stored models current on a task of its own: after each poke (games counted,
    /// [`Service::poke_models`]) and every [`CHECK`]. Nothing on a read-only standby: it reads
    /// the models its primary's processes store.
    pub fn models_in_background(self: &std::sync::Arc<Self>) {
        if self.read_only() || self.models_started.swap(true, std::sync::atomic::Ordering::SeqCst) {
            return;
        }
        self.models_running.store(true, std::sync::atomic::Ordering::SeqCst);
        let this = std::sync::Arc::clone(self);
        tokio::spawn(async move {
            loop {
                let started = std::time::Instant::now();
                match refresh(&this.store).await {
                    Ok(r) if !r.stored.is_empty() => {
                        let millis = u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX);
                        let games: Vec<&str> = r.stored.iter().map(|k| k.id()).collect();
                        tracing::info!(?games, millis, "rating models stored");
                    }
                    Ok(_) => {}
                    Err(e) => tracing::error!(error = e.message(), "computing the rating models"),
                }
                this.models_done.send_modify(|runs| *runs = runs.wrapping_add(1));
                let _ = tokio::time::timeout(CHECK, this.models_poke.notified()).await;
            }
        });
    }

    /// Asks the models' task to look again now (games were counted).
    pub(crate) fn poke_models(&self) {
        self.models_poke.notify_one();
    }

    /// A game's stored rating model, current if the models' task makes it so within
    /// [`MODEL_WAIT`] (it is asked to look at once); else the stored one, which says that it is
    /// behind (`None` before the first is stored). A process without the task (a read-only
    /// standby, whose primary's processes store the models) does not wait.
    pub async fn ratings_model(&self, kind: GameKind) -> Result<Option<RatingsModel>, ServiceError> {
        let deadline = tokio::time::Instant::now() + MODEL_WAIT;
        loop {
            let mut runs = self.models_done.subscribe();
            let model = self.stored_ratings_model(kind).await?;
            let current = model.as_ref().is_some_and(|m| !m.behind);
            let computing = self.models_running.load(std::sync::atomic::Ordering::SeqCst);
            if current || !computing || tokio::time::Instant::now() >= deadline {
                return Ok(model);
            }
            self.poke_models();
            if tokio::time::timeout_at(deadline, runs.changed()).await.is_err() {
                return Ok(model);
            }
        }
    }

    /// A game's stored rating model as it is now (`None` before the first is stored).
    async fn stored_ratings_model(&self, kind: GameKind) -> Result<Option<RatingsModel>, ServiceError> {
        let Some(stored) = self.store.stored_model(kind.id()).await? else { return Ok(None) };
        let aliases = self.store.player_aliases().await?;
        let head = wanted(kind, self.corpus_version(kind).await?, &fingerprint(&aliases));
        // Effects that do not read back (a build that wrote another shape) are left out: the
        // strategy page then computes them from the rows, as for a filter.
        let effects = stored.effects.as_deref().and_then(|text| match serde_json::from_str::<KeptEffects>(text) {
            Ok(kept) => Some(kept),
            Err(e) => {
                tracing::error!(error = %e, game = kind.id(), "the stored strategy effects do not read back");
                None
            }
        });
        Ok(Some(RatingsModel {
            kind,
            games: u64::try_from(stored.head.games).unwrap_or(0),
            players: u64::try_from(self.store.rated_players(kind.id()).await?).unwrap_or(0),
            behind: !covers(&stored.head, &head),
            effects,
        }))
    }

    /// The corpus version of `kind` ([`chronicle_store::Store::corpus_version`]): a one-row
    /// read while no game was counted since it was last read, else a count over the counted
    /// games.
    async fn corpus_version(&self, kind: GameKind) -> Result<i64, ServiceError> {
        let counting = self.store.counting_version().await?;
        let poisoned = |_| internal("corpus versions lock poisoned");
        {
            let kept = self.corpus_versions.lock().map_err(poisoned)?;
            if let Some(&v) = kept.versions.get(&kind).filter(|_| kept.counting == counting) {
                return Ok(v);
            }
        }
        let version = self.store.corpus_version(kind.id()).await?;
        let mut kept = self.corpus_versions.lock().map_err(poisoned)?;
        if kept.counting != counting {
            *kept = CorpusVersions { counting, versions: HashMap::new() };
        }
        kept.versions.insert(kind, version);
        Ok(version)
    }

    /// Up to `limit` players of a game's stored ratings table from place `offset`.
    pub async fn rating_table(
        &self,
        kind: GameKind,
        offset: u64,
        limit: u64,
    ) -> Result<Vec<PlayerRatingRow>, ServiceError> {
        let (offset, limit) = (i64::try_from(offset).unwrap_or(i64::MAX), i64::try_from(limit).unwrap_or(i64::MAX));
        Ok(self.store.rating_table(kind.id(), offset, limit).await?)
    }

    /// One player's stored rating in a game (by merged identity key).
    pub async fn player_rating(&self, kind: GameKind, key: &str) -> Result<Option<PlayerRatingRow>, ServiceError> {
        Ok(self.store.player_rating(kind.id(), key).await?)
    }

    /// One player's latest `limit` rated games, latest first.
    pub async fn rating_history(
        &self,
        kind: GameKind,
        key: &str,
        limit: u64,
    ) -> Result<Vec<SeatRatingRow>, ServiceError> {
        Ok(self.store.rating_history(kind.id(), key, i64::try_from(limit).unwrap_or(i64::MAX)).await?)
    }

    /// Each rated seat's rating before and after one stored game.
    pub async fn seat_ratings(&self, game: i64) -> Result<Vec<SeatRatingRow>, ServiceError> {
        Ok(self.store.seat_ratings(game).await?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Stored effects read back exactly, and effects holding a number JSON cannot write (NaN)
    /// are not stored rather than stored as text that would not read back.
    #[test]
    fn kept_effects_are_stored_only_when_they_read_back() {
        let skill = Skill::compute(&[]);
        let kept = KeptEffects::of(&skill);
        assert!(!kept.everything.effects.is_empty(), "every strategy has a row, even over no game");
        let text = kept_text(&kept).expect("stored");
        assert_eq!(serde_json::from_str::<KeptEffects>(&text).ok(), Some(kept.clone()));
        let mut broken = kept;
        broken.default.effects[0].used.rate = f64::NAN;
        assert_eq!(kept_text(&broken), None);
    }

    /// The fingerprint of the merged identities does not depend on their order, and changes
    /// with any of them (a stored model computed with other aliases is stale).
    #[test]
    fn the_aliases_fingerprint_is_of_the_set() {
        let pair = |a: &str, c: &str| (a.to_owned(), c.to_owned());
        let one = [pair("name:bo", "name:ada"), pair("id:7", "name:ada")];
        let other_order = [pair("id:7", "name:ada"), pair("name:bo", "name:ada")];
        assert_eq!(fingerprint(&one), fingerprint(&other_order));
        assert_ne!(fingerprint(&one), fingerprint(&[pair("name:bo", "name:ada")]));
        assert_ne!(fingerprint(&one), fingerprint(&[pair("name:bo", "name:cleo"), pair("id:7", "name:ada")]));
        assert_ne!(fingerprint(&[]), fingerprint(&[pair("name:a", "name:b")]));
    }
}
