//! Greedy strategy bots: every placement the generator enumerates (within small limits) is
//! applied to a copy of the game and the resulting position is scored for the bot's player;
//! the best one is played.

use chronicle_game::pool::Leaning;

use crate::action_space::ActionSpace;
use crate::board::Tile;
use crate::furnishing::Furnishing;
use crate::game::{Game, Harvest, Player};
use crate::goods::Good;
use crate::legal::{self, Chooser, Enumerate, Limits};
use crate::notation::{Action, Entry};
use crate::rules::family;
use crate::scoring::score;
use crate::shuffle::SplitMix64;

use super::random::{free_spaces, RandomBot};
use super::Bot;

/// What a [`StrategyBot`] aims for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Style {
    /// Forges early (Blacksmithing, Adventure; ore from Ore mining and Ore delivery), goes on
    /// expeditions for the loot that scores best, builds the Blacksmith, Weapon storage and
    /// Supplies storage.
    Weapons,
    /// Never forges; farms (fields, sowing, pastures, animals), furnishes (dwellings, Prayer
    /// chamber, parlors) and grows its family.
    Peaceful,
}

/// A one-step greedy bot. For each free action space it generates placements
/// ([`legal::space_outcomes`] with [`StrategyBot::limits`], exploring every sequence of parts
/// and a random subset of each part's options when there are more than the limit; see
/// [`Subset`]), scores the position after each
/// with [`StrategyBot::value`] and plays the best (ties broken by the random generator).
/// A peaceful bot drops every placement that forges. If nothing is found within the limits it
/// plays like the [`RandomBot`].
#[derive(Clone, Debug)]
pub struct StrategyBot {
    pub style: Style,
    pub limits: Limits,
    /// A planted tile ([`chronicle_game::pool`]) and how the bot leans towards it: a keen bot
    /// plays a placement that builds it over any other, an averse bot never chooses one.
    pub plant: Option<(Furnishing, Leaning)>,
}

impl StrategyBot {
    pub fn new(style: Style) -> StrategyBot {
        StrategyBot {
            style,
            limits: Limits { options_alone: 6, options_per_part: 2, loot_sets: 4, per_space: 12, only_tile: None },
            plant: None,
        }
    }

    /// A bot of `style` leaning towards a planted tile: a keen bot also explores every
    /// placement that builds the tile (its generator offers the tile as the only furnishing
    /// where it can be furnished), so it builds it whenever it can.
    pub fn planted(style: Style, plant: Option<(Furnishing, Leaning)>) -> StrategyBot {
        let mut bot = StrategyBot { plant, ..StrategyBot::new(style) };
        if let Some((tile, Leaning::Keen)) = plant {
            bot.limits.only_tile = Some(tile);
        }
        bot
    }

    /// How good the position is for player `p`: the score as if the game ended now, plus
    /// what the score does not see yet (materials, dwarfs and room for more, the next
    /// feeding), plus the style's preferences.
    pub fn value(&self, game: &Game, p: usize) -> f64 {
        let pl = game.player(p);
        let total_rounds = game.setup().rounds().len();
        let left = total_rounds.saturating_sub(game.round_index + 1) as f64;
        let has = |g: Good| f64::from(pl.supply.get(g));
        let mut v = score(pl).total as f64;
        if left > 0.0 {
            // Materials and seed become points later.
            v += 0.5 * has(Good::Wood).min(14.0) + 0.5 * has(Good::Stone).min(10.0) + 0.25 * has(Good::Ore).min(10.0);
            v += 0.3 * has(Good::Grain).min(4.0) + 0.3 * has(Good::Vegetable).min(4.0);
            // Dwarfs act every round that is left; room for one more is worth something, but
            // less than the dwarf that fills it.
            v += 1.5 * left * pl.dwarfs.len() as f64;
            let room = family::dwarf_room(pl) > pl.dwarfs_in_play() && pl.dwarfs.len() < family::max_dwarfs(pl);
            if room && left >= 2.0 {
                v += 1.0 + 0.2 * left;
            }
        }
        // The next feeding: food the player cannot cover costs a begging marker (−3).
        let urgency = match game.harvest() {
            Harvest::None => 0.5,
            _ => 1.0,
        };
        let one_food = game.harvest() == Harvest::OneFoodPerDwarf;
        let due = f64::from(crate::rules::harvest::food_due(pl, one_food, 0));
        let short = (due - food_potential(pl)).max(0.0);
        v -= 3.0 * urgency * short;
        v += 0.15 * has(Good::Food).min(10.0);
        v + match self.style {
            Style::Weapons => weapons_bonus(pl, left),
            Style::Peaceful => peaceful_bonus(pl, left),
        }
    }

    fn acceptable(&self, entry: &Entry) -> bool {
        match (self.style, entry) {
            (Style::Peaceful, Entry::Place { actions, .. }) => !actions.iter().any(forges),
            _ => true,
        }
    }
}

fn forges(a: &Action) -> bool {
    match a {
        Action::Forge { .. } => true,
        Action::Imitate { actions, .. } => actions.iter().any(forges),
        _ => false,
    }
}

/// Food the player holds or can convert cheaply (F.4).
fn food_potential(pl: &Player) -> f64 {
    let has = |g: Good| f64::from(pl.supply.get(g));
    let gold = has(Good::Gold);
    has(Good::Food) + has(Good::Grain) + 2.0 * has(Good::Vegetable) + if gold >= 2.0 { gold - 1.0 } else { 0.0 }
}

fn weapons_bonus(pl: &Player, left: f64) -> f64 {
    let mut v = 0.0;
    let unarmed = pl.dwarfs.iter().filter(|d| d.weapon.is_none()).count();
    for d in &pl.dwarfs {
        if let Some(s) = d.weapon {
            v += 3.0 + 0.6 * f64::from(s.min(14));
        }
    }
    if unarmed > 0 && left > 0.0 {
        v += 0.4 * f64::from(pl.supply.get(Good::Ore).min(8));
    }
    for tile in [Furnishing::Blacksmith, Furnishing::WeaponStorage, Furnishing::SuppliesStorage] {
        if pl.owns(tile) {
            v += 4.0;
        }
    }
    v
}

fn peaceful_bonus(pl: &Player, left: f64) -> f64 {
    let mut v = 0.0;
    let fields = pl.board.count(|t| matches!(t, Tile::Field { .. }));
    let pastures = pl.board.count(|t| matches!(t, Tile::SmallPasture | Tile::LargePasture { .. }));
    let animals: u32 = pl.animals().iter().sum();
    if left > 0.0 {
        v += 0.8 * fields.min(6) as f64 + 0.8 * pastures.min(6) as f64;
    }
    v += 0.4 * f64::from(animals.min(20));
    // A larger family.
    v += 1.5 * pl.dwarfs.len().saturating_sub(2) as f64;
    let (grain, veg) = pl.board.sown();
    v += 0.2 * f64::from(grain + veg);
    for (_, tile) in pl.board.furnishings() {
        v += match tile {
            Furnishing::PrayerChamber => 4.0,
            Furnishing::WeavingParlor
            | Furnishing::MilkingParlor
            | Furnishing::StateParlor
            | Furnishing::HuntingParlor
            | Furnishing::BeerParlor => 2.0,
            t if t.is_dwelling() => 1.5,
            _ => 0.0,
        };
    }
    v
}

impl Bot for StrategyBot {
    fn place_and_play(&self, game: &Game, p: usize, rng: &mut SplitMix64) -> Option<(Entry, Option<Box<Game>>)> {
        let mut best: Option<(f64, Entry, Box<Game>)> = None;
        for space in free_spaces(game) {
            if self.style == Style::Peaceful && skip_peaceful(space) {
                continue;
            }
            let outcomes = legal::space_outcomes(game, p, space, &self.limits, &mut Subset { rng: &mut *rng });
            for (entry, after) in outcomes {
                if !self.acceptable(&entry) {
                    continue;
                }
                let planted = match self.plant {
                    Some((tile, leaning)) if super::seated::builds(game, &after, p, tile) => {
                        match super::seated::planted_bonus(leaning) {
                            Some(bonus) => bonus,
                            None => continue,
                        }
                    }
                    _ => 0.0,
                };
                // Ties are broken at random (the jitter is far below any real difference).
                let jitter = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64 * 1e-3;
                let v = self.value(&after, p) + planted + jitter;
                if best.as_ref().is_none_or(|(b, _, _)| v > *b) {
                    best = Some((v, entry, after));
                }
            }
        }
        if let Some((_, entry, after)) = best {
            return Some((entry, Some(after)));
        }
        // Nothing within the limits (or only forging, for a peaceful bot): play at random,
        // still never forging if peaceful.
        let random = RandomBot::default();
        let free = free_spaces(game);
        for _ in 0..random.attempts {
            if let Some((e, after)) = random.walk(game, p, &free, rng) {
                if self.acceptable(&e) {
                    return Some((e, Some(after)));
                }
            }
        }
        let all = legal::places(game, p, &Limits::default(), &mut Enumerate);
        let fine: Vec<&Entry> = all.iter().filter(|e| self.acceptable(e)).collect();
        let entry = fine.get(rng.below(fine.len().max(1))).map(|e| (*e).clone()).or_else(|| all.first().cloned());
        entry.map(|e| (e, None))
    }
}

/// A [`Chooser`] exploring every option when there are at most `cap`, else `cap` distinct
/// options drawn uniformly (in increasing order), so that limits cut at random rather than
/// always keeping the first options (the first cells, the first tiles of the catalogue).
pub struct Subset<'a> {
    pub rng: &'a mut SplitMix64,
}

impl Chooser for Subset<'_> {
    fn choose(&mut self, n: usize, cap: usize) -> Vec<usize> {
        if n <= cap {
            return (0..n).collect();
        }
        // Partial Fisher–Yates: the first `cap` of a random permutation.
        let mut all: Vec<usize> = (0..n).collect();
        for i in 0..cap {
            let j = i + self.rng.below(n - i);
            all.swap(i, j);
        }
        all.truncate(cap);
        all.sort_unstable();
        all
    }
}

/// Spaces a peaceful bot has no use for (their only actions are forging and expeditions).
fn skip_peaceful(space: ActionSpace) -> bool {
    matches!(space, ActionSpace::Blacksmithing | ActionSpace::Adventure | ActionSpace::Exploration)
}
