//! A pool of named bot players for simulations that can be analysed (`chronicle simulate
//! --pool N`): each member has a stable name, a bot and a strength, and every game seats
//! members drawn at random in a random order. Skill (who plays), seat (where they sit) and
//! strategy (what they did in that game) then vary independently across the corpus, so the
//! within-player statistics can tell them apart; with one bot per seat and players named after
//! their seat, they cannot (every "seat effect" is a bot effect).
//!
//! A member's **strength** is the share of its decisions its own bot makes; the rest are made
//! by the game's random bot (the engine's `random`). Names say that share, not a skill: a bot
//! that plays worse than chance (Village's `greedy` does, on the synthetic components) is not
//! made stronger by playing more of its own moves. A **planted** experiment
//! ([`seating`]'s `plant`) makes one strategy seat of each game, drawn at random, keen on a
//! given tile (it builds it whenever it can) and every other strategy seat averse to it (it
//! never chooses it); random members never build it on purpose. The raw difference between
//! builders and the others then mixes the tile's effect with who builds it (never the weakest
//! players), while the effect for a given player is what the tile really does for them. Pure:
//! the same pool, count and seed always give the same seats.

use crate::rng;

/// How much of a member's play is its own bot's.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Strength {
    /// Every decision by its bot.
    AllOwn,
    /// Four decisions in five by its bot, one at random.
    FourInFive,
    /// Three decisions in five by its bot, two at random.
    ThreeInFive,
}

impl Strength {
    pub const ALL: [Strength; 3] = [Strength::AllOwn, Strength::FourInFive, Strength::ThreeInFive];

    /// Percent of decisions made by the member's own bot.
    pub fn care(self) -> u8 {
        match self {
            Strength::AllOwn => 100,
            Strength::FourInFive => 80,
            Strength::ThreeInFive => 60,
        }
    }
}

/// One member of a pool.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Member {
    /// The name written in every log it plays in (its identity across games), saying that it is
    /// a bot, which, and the share of its moves it makes: `"Ada (weapons bot, 80% own moves)"`.
    pub name: String,
    /// A bot id of the game (`GameSpec::pool_bots`, or `random`).
    pub bot: &'static str,
    /// `None` for a random bot (every decision random).
    pub strength: Option<Strength>,
}

impl Member {
    /// Percent of decisions made by the member's own bot.
    pub fn care(&self) -> u8 {
        self.strength.map_or(100, Strength::care)
    }
}

/// How a seat leans towards the planted tile.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Leaning {
    /// Builds it whenever it can.
    Keen,
    /// Never chooses it.
    Averse,
}

/// Who plays one seat of a simulated game, and how.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatPlan {
    pub name: String,
    pub bot: &'static str,
    /// Percent of decisions made by `bot`; the others by the game's random bot.
    pub care: u8,
    /// The planted tile (by its printed name) and how this seat leans towards it.
    pub plant: Option<(String, Leaning)>,
}

/// Largest pool `chronicle simulate --pool` makes.
pub const MAX_POOL: usize = 200;

/// Given names of the members, in order; members past the list take a number after the name.
const NAMES: [&str; 32] = [
    "Ada", "Bram", "Cleo", "Dario", "Edda", "Finn", "Greta", "Hugo", "Ines", "Jonas", "Kaia", "Lars", "Mira", "Nils",
    "Olga", "Pavel", "Quinn", "Rosa", "Sven", "Tove", "Ugo", "Vera", "Wim", "Xenia", "Yann", "Zora", "Anouk", "Bjorn",
    "Carla", "Dagny", "Emil", "Frida",
];

/// The pool of `size` members (at most [`MAX_POOL`]) for a game whose strategy bots are
/// `bots` (`GameSpec::pool_bots`): every strategy bot at every strength in turn, and one
/// random bot after each round of them, so that every kind and strength is present from a
/// pool of `3 × bots + 1` members on.
pub fn pool(bots: &'static [&'static str], size: usize) -> Vec<Member> {
    let mut recipe: Vec<(&'static str, Option<Strength>)> = Vec::new();
    for strength in Strength::ALL {
        recipe.extend(bots.iter().map(|b| (*b, Some(strength))));
    }
    recipe.push(("random", None));
    (0..size.min(MAX_POOL))
        .map(|i| {
            let (bot, strength) = recipe[i % recipe.len()];
            let given = match NAMES.get(i) {
                Some(n) => (*n).to_owned(),
                None => format!("{} {}", NAMES[i % NAMES.len()], i / NAMES.len() + 1),
            };
            let name = match strength {
                Some(s) => format!("{given} ({bot} bot, {}% own moves)", s.care()),
                None => format!("{given} ({bot} bot)"),
            };
            Member { name, bot, strength }
        })
        .collect()
}

/// The seats of one game of `players` seats: that many distinct members drawn uniformly from
/// `pool` in a uniformly random order (seeded by `seed`), or `None` when the pool is smaller
/// than the table. With `plant` (a tile's printed name), one strategy seat drawn uniformly is
/// keen on the tile and the other strategy seats are averse to it.
pub fn seating(pool: &[Member], players: usize, seed: u64, plant: Option<&str>) -> Option<Vec<SeatPlan>> {
    if players > pool.len() {
        return None;
    }
    let mut state = seed ^ SEATING_SALT;
    let mut order: Vec<usize> = (0..pool.len()).collect();
    // Partial Fisher–Yates: the first `players` of a random permutation, in drawn order.
    for i in 0..players {
        let j = i + below(&mut state, pool.len() - i);
        order.swap(i, j);
    }
    let chosen: Vec<&Member> = order[..players].iter().map(|&i| &pool[i]).collect();
    let keen = plant.and_then(|_| keen_seat(&chosen, &mut state));
    Some(
        chosen
            .iter()
            .enumerate()
            .map(|(seat, m)| SeatPlan {
                name: m.name.clone(),
                bot: m.bot,
                care: m.care(),
                plant: plant
                    .filter(|_| m.strength.is_some())
                    .map(|tile| (tile.to_owned(), if Some(seat) == keen { Leaning::Keen } else { Leaning::Averse })),
            })
            .collect(),
    )
}

/// Refuses seat plans that do not fit a simulation's request: a count other than `players`,
/// or a bot chosen for every seat besides (a pooled game's seats bring their own bots).
pub fn check_seats(seats: &[SeatPlan], players: u8, bot: Option<&str>) -> Result<(), String> {
    if bot.is_some() {
        return Err("a pooled game's seats bring their own bots".to_owned());
    }
    if seats.len() != usize::from(players) {
        return Err(format!("{} seat plans for {players} players", seats.len()));
    }
    Ok(())
}

/// The keen seat of a planted game: a strategy member's seat drawn uniformly; `None` without
/// one.
fn keen_seat(chosen: &[&Member], state: &mut u64) -> Option<usize> {
    let strategy: Vec<usize> = (0..chosen.len()).filter(|&s| chosen[s].strength.is_some()).collect();
    (!strategy.is_empty()).then(|| strategy[below(state, strategy.len())])
}

/// A uniform draw below `n` (`n` > 0), by rejection so that no value is favoured.
fn below(state: &mut u64, n: usize) -> usize {
    let n = n as u64;
    let zone = u64::MAX - u64::MAX % n;
    loop {
        let x = rng::next(state);
        if x < zone {
            return (x % n) as usize;
        }
    }
}

const SEATING_SALT: u64 = 0x706F_6F6C_5F73_6561; // "pool_sea"

#[cfg(test)]
mod tests {
    use super::*;

    const BOTS: &[&str] = &["weapons", "peaceful"];

    #[test]
    fn a_pool_has_every_bot_at_every_strength_and_a_random_bot() {
        let p = pool(BOTS, 7);
        assert_eq!(p.len(), 7);
        let kinds: Vec<(&str, Option<Strength>)> = p.iter().map(|m| (m.bot, m.strength)).collect();
        assert_eq!(
            kinds,
            [
                ("weapons", Some(Strength::AllOwn)),
                ("peaceful", Some(Strength::AllOwn)),
                ("weapons", Some(Strength::FourInFive)),
                ("peaceful", Some(Strength::FourInFive)),
                ("weapons", Some(Strength::ThreeInFive)),
                ("peaceful", Some(Strength::ThreeInFive)),
                ("random", None),
            ]
        );
        assert_eq!(p[0].name, "Ada (weapons bot, 100% own moves)");
        assert_eq!(p[2].name, "Cleo (weapons bot, 80% own moves)");
        assert_eq!(p[6].name, "Greta (random bot)");
        let big = pool(BOTS, 500);
        assert_eq!(big.len(), MAX_POOL);
        let mut names: Vec<&str> = big.iter().map(|m| m.name.as_str()).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), MAX_POOL, "every member has a name of its own");
    }

    /// Members are distinct within a game, every member sits at every seat over many games,
    /// and the same seed gives the same seats.
    #[test]
    fn seating_draws_distinct_members_at_random_seats() {
        let p = pool(BOTS, 12);
        let mut at = vec![[0u32; 4]; p.len()];
        for seed in 0..2000 {
            let seats = seating(&p, 4, seed, None).expect("12 members for 4 seats");
            assert_eq!(seats, seating(&p, 4, seed, None).expect("again"));
            let mut names: Vec<&str> = seats.iter().map(|s| s.name.as_str()).collect();
            names.sort_unstable();
            names.dedup();
            assert_eq!(names.len(), 4);
            for (seat, s) in seats.iter().enumerate() {
                let m = p.iter().position(|m| m.name == s.name).expect("a member");
                at[m][seat] += 1;
            }
        }
        // 2000 × 4 / 12 ≈ 667 games per member, ≈ 167 at each seat.
        for counts in &at {
            assert!(counts.iter().all(|&c| (100..240).contains(&c)), "{counts:?}");
        }
        assert_eq!(seating(&p[..3], 4, 1, None), None);
    }

    #[test]
    fn a_planted_game_has_one_keen_strategy_seat_and_the_others_averse() {
        let p = pool(BOTS, 7);
        for seed in 0..400 {
            let seats = seating(&p, 4, seed, Some("Weaving Parlor")).expect("seats");
            let leaning = |l: Leaning| seats.iter().filter(|s| s.plant.as_ref().is_some_and(|(_, x)| *x == l)).count();
            let strategy = seats.iter().filter(|s| s.bot != "random").count();
            assert_eq!(leaning(Leaning::Keen), 1);
            assert_eq!(leaning(Leaning::Averse), strategy - 1);
            assert!(seats.iter().filter(|s| s.bot == "random").all(|s| s.plant.is_none()));
        }
    }
}
