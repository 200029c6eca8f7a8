//! The round (`docs/rules/village.md` C.1, C.2, G.2, H.28): populating the action spaces from the green bag.

use crate::error::{fail, ErrorCode, RuleResult};
use crate::game::{Game, Task};
use crate::ids::{Cube, Cubes, Space};
use crate::notation::PopulateSpaces;

/// The seeded populate (LOG-FORMAT event 4): spaces in canonical order, each cube a `pick`
/// of the green bag in canonical colour order. The bag is filled already.
fn derive(game: &mut Game, counts: &[u32; 7]) -> [Cubes; 7] {
    let mut out = [Cubes::default(); 7];
    // Sized first: collected from the nested repeats, the bag grew a step at a time.
    let mut bag: Vec<Cube> = Vec::with_capacity(game.green_bag.total() as usize);
    for &c in Cube::ALL {
        bag.extend(std::iter::repeat_n(c, game.green_bag.get(c) as usize));
    }
    if let Some(rng) = &mut game.rng {
        for s in Space::ALL {
            for _ in 0..counts[s.index()] {
                match rng.pick(&mut bag) {
                    Some(c) => out[s.index()].add(c, 1),
                    None => break,
                }
            }
        }
    }
    out
}

/// Populates the round's spaces from a `populate` entry (`written`) or, seeded, the derived
/// draw (G.2.1 – G.2.3, G.14.1).
pub fn populate(game: &mut Game, written: Option<(u64, &PopulateSpaces)>) -> RuleResult {
    if let Some((round, _)) = written {
        if round != u64::from(game.round) {
            return fail(
                ErrorCode::UnexpectedPopulate,
                format!("this populate starts round {}, not {round} (RULES.md G.2.1)", game.round),
            );
        }
    }
    game.fill_bag()?;
    let counts = game.components().setup_card(game.player_count())?.spaces;
    let placed: [Cubes; 7] = if game.rng.is_some() {
        let derived = derive(game, &counts);
        if let Some((_, spaces)) = written {
            for (s, list) in spaces.lists() {
                if Cubes::from_list(list) != derived[s.index()] {
                    let want: Vec<&str> = Cube::ALL
                        .iter()
                        .flat_map(|&c| std::iter::repeat_n(c.id(), derived[s.index()].get(c) as usize))
                        .collect();
                    return fail(ErrorCode::SeedMismatch, format!("the seed puts {want:?} on {s} (RULES.md G.14.1)"));
                }
            }
        }
        derived
    } else {
        let Some((_, spaces)) = written else {
            return fail(
                ErrorCode::ExpectedPopulate,
                format!("the populate of round {} is due (RULES.md G.2.1)", game.round),
            );
        };
        let mut out = [Cubes::default(); 7];
        for (s, list) in spaces.lists() {
            if list.len() as u64 > u64::from(counts[s.index()]) {
                return fail(
                    ErrorCode::PopulateCount,
                    format!(
                        "{} cubes on {s}; the setup card puts {} there (RULES.md G.2.2)",
                        list.len(),
                        counts[s.index()]
                    ),
                );
            }
            out[s.index()] = Cubes::from_list(list);
        }
        let mut total = Cubes::default();
        for c in &out {
            for x in Cube::ALL {
                total.add(*x, c.get(*x));
            }
        }
        for &c in Cube::ALL {
            if total.get(c) > game.green_bag.get(c) {
                return fail(
                    ErrorCode::PopulateNotInBag,
                    format!(
                        "{} {c} cubes placed; the green bag holds {} (RULES.md G.2.3)",
                        total.get(c),
                        game.green_bag.get(c)
                    ),
                );
            }
        }
        let short = Space::ALL.iter().any(|s| (out[s.index()].total()) < counts[s.index()]);
        if short && total != game.green_bag {
            return fail(
                ErrorCode::PopulateCount,
                "a space is short although the green bag still holds cubes (RULES.md G.2.2, H.28)",
            );
        }
        out
    };
    for s in Space::ALL {
        for &c in Cube::ALL {
            let k = placed[s.index()].get(c);
            game.green_bag.take(c, k);
            game.board[s.index()].add(c, k);
        }
    }
    game.tasks.pop();
    if game.board_empty() {
        game.tasks.push(Task::Mass { last: false });
    } else {
        game.tasks.push(Task::Turn { player: game.first, last: false });
    }
    Ok(())
}
