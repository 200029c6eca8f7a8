//! Setup (`docs/rules/village.md` B, F.1): the log's [`SetupNotation`] validated into a [`Setup`] (G.1.2 –
//! G.1.4, G.1.7), with the seeded setup events derived (`docs/log-format-village.md` "Seeded games", events
//! 1–3).

use crate::components::{self, Components};
use crate::error::{fail, ErrorCode, RuleResult};
use crate::game::seat_label;
use crate::ids::{Color, Cube, Customer};
use crate::notation::{CarlaRule, Face, SetupNotation};
use crate::rng::{Rng, MAX_SEED};

/// One seat.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Seat {
    pub name: String,
    pub color: Color,
    /// The compensation cube of seats 2 and 3 (B.3).
    pub start_cube: Option<Cube>,
}

/// Solo settings (F.1).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solo {
    pub carla_color: Color,
    pub rule: CarlaRule,
}

/// A validated setup.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    pub seats: Vec<Seat>,
    pub compensation: bool,
    pub components: Components,
    pub seed: Option<u64>,
    pub solo: Option<Solo>,
    /// The face-up display (stalls in order, queue from its head).
    pub stalls: Vec<Customer>,
    pub queue: Vec<Customer>,
}

/// What setup leaves for the game: the generator after the setup events and the seeded pile
/// and fate orders.
#[derive(Clone, Debug)]
pub struct Start {
    pub setup: Setup,
    pub rng: Option<Rng>,
    /// The seeded pile, top first (unseeded: unknown, `None`).
    pub pile: Option<Vec<Customer>>,
    /// Seeded solo fate orders (top, bottom).
    pub fate: Option<[[Face; 3]; 2]>,
}

impl Setup {
    pub fn players(&self) -> usize {
        self.seats.len()
    }

    pub fn is_solo(&self) -> bool {
        self.solo.is_some()
    }

    /// Stalls by player count (B.1, H.2).
    pub fn stall_count(&self) -> usize {
        match self.players() {
            0..=2 => 3,
            3 => 4,
            _ => 5,
        }
    }
}

fn bad<T>(message: impl Into<String>) -> RuleResult<T> {
    fail(ErrorCode::BadSetup, message)
}

/// Validates a setup and derives its seeded events.
pub fn validate(n: &SetupNotation) -> RuleResult<Start> {
    let players = n.players.len();
    if !(1..=5).contains(&players) {
        return bad(format!("{players} players; Village has 1 to 5 (RULES.md G.1.2)"));
    }
    for (i, p) in n.players.iter().enumerate() {
        if n.players[..i].iter().any(|q| q.color == p.color) {
            return bad(format!("colour `{}` is taken twice (RULES.md G.1.2)", p.color));
        }
    }
    let solo = match (&n.solo, players) {
        (Some(s), 1) => {
            if s.carla_color == n.players[0].color {
                return bad("Carla's colour must differ from the player's (RULES.md G.1.2)");
            }
            Some(crate::setup::Solo { carla_color: s.carla_color, rule: s.carla_rule })
        }
        (None, 1) => return bad("a 1-player game is solo: `setup.solo` is required (RULES.md G.1.2)"),
        (Some(_), _) => return bad("`setup.solo` only with one player (RULES.md G.1.2)"),
        (None, _) => None,
    };
    if let Some(seed) = n.seed {
        if seed > MAX_SEED {
            return bad(format!("seed {seed} is above 2^53 − 1"));
        }
    }
    let compensation = solo.is_none() && n.compensation.unwrap_or(true);
    if solo.is_some() && n.compensation == Some(true) {
        return bad("compensation does not apply in solo (RULES.md F.1)");
    }
    let components = components::validate(&n.components)?;
    let mut rng = n.seed.map(Rng::new);
    let stalls_n = match players {
        0..=2 => 3,
        3 => 4,
        _ => 5,
    };
    // Event 1: the customer pile.
    let (stalls, queue, pile) = match &mut rng {
        Some(r) => {
            let mut pile: Vec<Customer> = Customer::all().collect();
            r.shuffle(&mut pile);
            let stalls: Vec<Customer> = pile.drain(..stalls_n).collect();
            let queue: Vec<Customer> = pile.drain(..5).collect();
            if let Some(d) = &n.customers {
                if d.stalls != stalls || d.queue != queue {
                    return fail(
                        ErrorCode::SeedMismatch,
                        format!("setup.customers differ from the seed's display: stalls {stalls:?}, queue {queue:?}"),
                    );
                }
            }
            (stalls, queue, Some(pile))
        }
        None => {
            let Some(d) = &n.customers else {
                return bad("setup.customers is required without a seed (RULES.md G.1.3)");
            };
            (d.stalls.clone(), d.queue.clone(), None)
        }
    };
    if stalls.len() != stalls_n || queue.len() != 5 {
        return bad(format!(
            "the display has {stalls_n} stalls and 5 queue tiles with {players} players, not {} and {} (RULES.md B.1, G.1.3)",
            stalls.len(),
            queue.len()
        ));
    }
    let shown: Vec<Customer> = stalls.iter().chain(&queue).copied().collect();
    if shown.iter().enumerate().any(|(i, c)| shown[..i].contains(c)) {
        return bad("a customer tile is shown twice (RULES.md G.1.3)");
    }
    // Event 2: seat 2's random compensation cube; seat 3 chooses.
    let mut seats: Vec<Seat> = Vec::with_capacity(players);
    for (i, p) in n.players.iter().enumerate() {
        let wants_cube = compensation && (i == 2 || i == 3);
        let mut start_cube = p.start_cube;
        if let Some(c) = start_cube {
            if !wants_cube {
                return bad(format!("{} gets no compensation cube here (RULES.md B.3, G.1.4)", seat_label(&p.name, i)));
            }
            if !c.is_influence() {
                return bad(format!(
                    "the compensation cube of {} must be an influence colour, not `{c}`",
                    seat_label(&p.name, i)
                ));
            }
        }
        if wants_cube && i == 2 {
            if let Some(r) = &mut rng {
                let mut supply: Vec<Cube> = Cube::INFLUENCE.iter().flat_map(|&c| std::iter::repeat_n(c, 33)).collect();
                let drawn = r.pick(&mut supply);
                if start_cube.is_some() && start_cube != drawn {
                    return fail(
                        ErrorCode::SeedMismatch,
                        format!("the start cube of {} is {drawn:?} by the seed", seat_label(&p.name, i)),
                    );
                }
                start_cube = drawn;
            }
        }
        if wants_cube && start_cube.is_none() {
            return bad(format!("{} needs `start_cube` (RULES.md B.3, G.1.4)", seat_label(&p.name, i)));
        }
        seats.push(Seat { name: p.name.clone(), color: p.color, start_cube });
    }
    // Event 3: solo fate tiles.
    let fate = match (&solo, &mut rng) {
        (Some(_), Some(r)) => {
            let mut sets = [[Face::Quill, Face::Blank, Face::Blank]; 2];
            for set in &mut sets {
                r.shuffle(set);
            }
            Some(sets)
        }
        _ => None,
    };
    let setup = Setup { seats, compensation, components, seed: n.seed, solo, stalls, queue };
    Ok(Start { setup, rng, pile, fate })
}
