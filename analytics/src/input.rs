//! The rows the statistics are computed from, as the service loads them from its store.
//!
//! **Only complete, legal games belong here.** The caller filters: a game whose replay is
//! incomplete or invalid has no final scores, ranks or winners, and its facts describe a game
//! that never ended. This crate checks the shape of the rows it is given (see
//! [`Corpus::validate`]) but never the rules of Caverna; those are the engine's.
//!
//! A *player-game* is one seat of one game: the unit every rate and mean is taken over.

use std::collections::{BTreeSet, HashMap};

use chronicle_caverna::action_space::ActionSpace;
use chronicle_caverna::furnishing::Furnishing;
use chronicle_caverna::notation::LootItem;

use crate::error::AnalyticsError;

/// The furnishing set a game was played with (`RULES.md` E "Set" column).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum FurnishingSet {
    /// All 48 tiles.
    #[default]
    Full,
    /// The introductory set: only tiles whose catalogue entry has `intro`.
    Introductory,
}

impl From<chronicle_caverna::notation::FurnishingSet> for FurnishingSet {
    fn from(s: chronicle_caverna::notation::FurnishingSet) -> Self {
        match s {
            chronicle_caverna::notation::FurnishingSet::Full => FurnishingSet::Full,
            chronicle_caverna::notation::FurnishingSet::Introductory => FurnishingSet::Introductory,
        }
    }
}

impl FurnishingSet {
    /// Whether `tile` can be built in a game with this set.
    pub fn contains(self, tile: Furnishing) -> bool {
        match self {
            FurnishingSet::Full => true,
            FurnishingSet::Introductory => tile.card().intro,
        }
    }

    /// The stored id (`full`, `introductory`).
    pub fn id(self) -> &'static str {
        match self {
            FurnishingSet::Full => "full",
            FurnishingSet::Introductory => "introductory",
        }
    }

    pub fn from_id(id: &str) -> Option<FurnishingSet> {
        match id {
            "full" => Some(FurnishingSet::Full),
            "introductory" => Some(FurnishingSet::Introductory),
            _ => None,
        }
    }
}

/// One seat of one complete game: its outcome and its weapon summary.
///
/// The game-level fields (`player_count`, `furnishing_set`, `tournament`, `source`, `uploader`,
/// `played_at`) must be the same on every seat of a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayerGame {
    pub game_id: i64,
    pub player_count: u8,
    pub furnishing_set: FurnishingSet,
    pub tournament: Option<String>,
    /// The log's `meta.source` (who or what recorded the game; the simulator writes
    /// `simulate:` and its bots), so simulated corpora can be selected or left out.
    pub source: Option<String>,
    /// The name of the token that stored the game.
    pub uploader: Option<String>,
    /// The seat's player identity key (`ratings::player_key`: `id:…` or `name:…`), for the
    /// filter "games with this player".
    pub player: Option<String>,
    /// As written in the log (RFC 3339 by the format's documentation); see
    /// [`crate::filter::parse_played_at`] for how it is compared.
    pub played_at: Option<String>,
    /// 0-based seat.
    pub seat: u8,
    /// Final score (the score pad's total).
    pub total: i64,
    /// 1 + the number of players with a higher total.
    pub rank: u8,
    /// Shares of a tied win count as wins.
    pub winner: bool,
    /// The strongest weapon any of the player's dwarfs held at the end (`None`: never armed).
    pub max_strength: Option<u8>,
    /// The round in which the player first held a weapon; `None` if never armed.
    pub first_armed: Option<u8>,
    /// The round of the player's first expedition; `None` without one.
    pub first_expedition: Option<u8>,
    /// Expeditions the player's dwarfs went on.
    pub expeditions: u32,
}

/// A furnishing tile a player built, and in which printed round.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TileBuilt {
    pub game_id: i64,
    pub seat: u8,
    pub tile: Furnishing,
    pub round: u8,
}

/// One loot item a player took on an expedition.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LootTaken {
    pub game_id: i64,
    pub seat: u8,
    pub item: LootItem,
}

/// One action-space use (a dwarf placed, or a space copied through an Imitation space as the
/// store records it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SpaceUse {
    pub game_id: i64,
    pub seat: u8,
    pub round: u8,
    pub space: ActionSpace,
}

/// A batch of whole games: every seat's [`PlayerGame`] and all their facts.
///
/// Facts may reference only player-games of the same batch: a game is always added with all
/// its rows at once.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Corpus {
    pub player_games: Vec<PlayerGame>,
    pub tiles: Vec<TileBuilt>,
    pub loot: Vec<LootTaken>,
    pub spaces: Vec<SpaceUse>,
}

/// Where each game of a batch is: its set and, per seat, the row of its [`PlayerGame`].
pub(crate) struct BatchIndex {
    games: HashMap<i64, GameRows>,
}

struct GameRows {
    /// Position of the game in the batch (order of first appearance in `player_games`).
    order: usize,
    set: FurnishingSet,
    /// Row in `Corpus::player_games` per seat (`usize::MAX`: not given).
    rows: [usize; 7],
    player_count: u8,
}

/// Where a fact's player-game is.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Located {
    /// Row in `Corpus::player_games`.
    pub(crate) row: usize,
    /// Position of the game in the batch.
    pub(crate) game: usize,
    pub(crate) set: FurnishingSet,
}

impl GameRows {
    fn seat(&self, seat: u8) -> Option<Located> {
        self.rows.get(usize::from(seat)).filter(|&&r| r != usize::MAX).map(|&row| Located {
            row,
            game: self.order,
            set: self.set,
        })
    }
}

impl BatchIndex {
    /// Game ids in batch order.
    pub(crate) fn game_order(&self) -> Vec<i64> {
        let mut ids: Vec<(usize, i64)> = self.games.iter().map(|(&id, g)| (g.order, id)).collect();
        ids.sort_unstable();
        ids.into_iter().map(|(_, id)| id).collect()
    }

    /// The rows of a game's player-games, by seat.
    pub(crate) fn seat_rows(&self, game_id: i64) -> Option<&[usize]> {
        self.games.get(&game_id).and_then(|g| g.rows.get(..usize::from(g.player_count)))
    }

    /// Where `(game_id, seat)` is.
    pub(crate) fn locate(&self, game_id: i64, seat: u8) -> Result<Located, AnalyticsError> {
        self.games.get(&game_id).and_then(|g| g.seat(seat)).ok_or_else(|| {
            AnalyticsError::InvalidInput(format!(
                "fact for game {game_id} seat {seat}, which has no player-game row in the batch"
            ))
        })
    }
}

/// Looks facts up with a one-game memo: facts usually come game by game.
pub(crate) struct Locator<'a> {
    index: &'a BatchIndex,
    last: Option<(i64, &'a GameRows)>,
}

impl<'a> Locator<'a> {
    pub(crate) fn new(index: &'a BatchIndex) -> Locator<'a> {
        Locator { index, last: None }
    }

    pub(crate) fn locate(&mut self, game_id: i64, seat: u8) -> Result<Located, AnalyticsError> {
        let game = match self.last {
            Some((id, g)) if id == game_id => Some(g),
            _ => {
                let g = self.index.games.get(&game_id);
                if let Some(g) = g {
                    self.last = Some((game_id, g));
                }
                g
            }
        };
        match game.and_then(|g| g.seat(seat)) {
            Some(found) => Ok(found),
            None => self.index.locate(game_id, seat),
        }
    }
}

impl Corpus {
    pub fn new() -> Corpus {
        Corpus::default()
    }

    /// Appends another batch.
    pub fn extend(&mut self, other: Corpus) {
        self.player_games.extend(other.player_games);
        self.tiles.extend(other.tiles);
        self.loot.extend(other.loot);
        self.spaces.extend(other.spaces);
    }

    /// Number of distinct games.
    pub fn games(&self) -> usize {
        self.player_games.iter().map(|p| p.game_id).collect::<BTreeSet<_>>().len()
    }

    /// Checks the shape of the batch (not the rules): every game has 1–7 players and exactly one
    /// row per seat `0..player_count`, its seats agree on the game-level fields, rounds are
    /// 1–12, every fact names a player-game of the batch, and tiles belong to the game's set.
    pub fn validate(&self) -> Result<(), AnalyticsError> {
        self.check().map(|_| ())
    }

    /// [`Corpus::validate`], keeping the index it builds.
    pub(crate) fn check(&self) -> Result<BatchIndex, AnalyticsError> {
        let index = self.index()?;
        let mut at = Locator::new(&index);
        for t in &self.tiles {
            check_tile(t, at.locate(t.game_id, t.seat)?.set)?;
        }
        for l in &self.loot {
            at.locate(l.game_id, l.seat)?;
        }
        for s in &self.spaces {
            at.locate(s.game_id, s.seat)?;
            check_space(s)?;
        }
        Ok(index)
    }

    /// The checks of [`Corpus::validate`] on `player_games` only, and the index they build; the
    /// facts are checked by the caller ([`check_tile`], [`check_space`] and
    /// [`Locator::locate`]), in the order of [`Corpus::check`].
    pub(crate) fn index(&self) -> Result<BatchIndex, AnalyticsError> {
        let bad = |msg: String| Err(AnalyticsError::InvalidInput(msg));
        let mut games: HashMap<i64, GameRows> = HashMap::new();
        for (row, p) in self.player_games.iter().enumerate() {
            if !(1..=7).contains(&p.player_count) {
                return bad(format!("game {}: player_count {} is not 1-7", p.game_id, p.player_count));
            }
            if p.seat >= p.player_count {
                return bad(format!("game {}: seat {} with {} players", p.game_id, p.seat, p.player_count));
            }
            let order = games.len();
            let g = games.entry(p.game_id).or_insert(GameRows {
                order,
                set: p.furnishing_set,
                rows: [usize::MAX; 7],
                player_count: p.player_count,
            });
            let first = g.rows.iter().find(|&&r| r != usize::MAX).and_then(|&r| self.player_games.get(r));
            if let Some(first) = first {
                if (first.player_count, first.furnishing_set, &first.tournament, &first.played_at)
                    != (p.player_count, p.furnishing_set, &p.tournament, &p.played_at)
                    || (&first.source, &first.uploader) != (&p.source, &p.uploader)
                {
                    return bad(format!(
                        "game {}: seats disagree on player count, set, tournament, source, uploader or played_at",
                        p.game_id
                    ));
                }
            }
            let Some(slot) = g.rows.get_mut(usize::from(p.seat)) else {
                return bad(format!("game {}: seat {} out of range", p.game_id, p.seat));
            };
            if *slot != usize::MAX {
                return bad(format!("game {}: seat {} given twice", p.game_id, p.seat));
            }
            *slot = row;
        }
        if let Some((id, _)) =
            games.iter().find(|(_, g)| g.rows.iter().take(usize::from(g.player_count)).any(|&r| r == usize::MAX))
        {
            return bad(format!("game {id}: not every seat has a player-game row"));
        }
        Ok(BatchIndex { games })
    }
}

fn round_ok(r: u8) -> bool {
    (1..=12).contains(&r)
}

/// The checks of a tile fact once its player-game is found in a game of set `set`.
pub(crate) fn check_tile(t: &TileBuilt, set: FurnishingSet) -> Result<(), AnalyticsError> {
    if !round_ok(t.round) {
        return Err(AnalyticsError::InvalidInput(format!(
            "game {}: tile {} built in round {}",
            t.game_id,
            t.tile.id(),
            t.round
        )));
    }
    if !set.contains(t.tile) {
        return Err(AnalyticsError::InvalidInput(format!(
            "game {}: tile {} is not in the {} set",
            t.game_id,
            t.tile.id(),
            set.id()
        )));
    }
    Ok(())
}

/// The checks of a space use once its player-game is found.
pub(crate) fn check_space(s: &SpaceUse) -> Result<(), AnalyticsError> {
    if !round_ok(s.round) {
        return Err(AnalyticsError::InvalidInput(format!("game {}: space used in round {}", s.game_id, s.round)));
    }
    Ok(())
}
