//! Solo mode's Carla (`docs/rules/village.md` F.2 – F.6, G.13, H.21 – H.25, H.35, H.38, H.39, H.43): the
//! cube she takes after each of your cube-taking turns, her life-cycle track with the fate
//! tiles and her deaths, and her reactions.

use crate::components::CarlaBoard;
use crate::error::{fail, ErrorCode, RuleResult};
use crate::game::{Game, Loc, Task};
use crate::ids::{Category, Cube, Space};
use crate::notation::{CarlaRule, Face, FateSet, Who};

/// What Carla's take leaves open.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Take {
    /// The rule fixes the cube (steps 1–2, or a single colour in steps 3–4, or the die rule
    /// once its rolls are known).
    Forced(Space, Cube),
    /// Steps 3–4: you choose a colour on this space.
    Choice(Space, Vec<Cube>),
    /// The die rule needs rolls.
    Rolls,
}

fn first_with(game: &Game, board: &CarlaBoard, s: Space, c: Cube) -> Option<Space> {
    std::iter::once(s).chain(board.after(s)).find(|&x| game.space(x).get(c) > 0)
}

/// Steps 3–4 (or H.38 with only plague cubes): a cube of your choice from `s`, else from the
/// next space clockwise having any.
fn choice_from(game: &Game, board: &CarlaBoard, s: Space, only: Option<Cube>) -> Option<Take> {
    let space = std::iter::once(s).chain(board.after(s)).find(|&x| match only {
        Some(c) => game.space(x).get(c) > 0,
        None => !game.space(x).is_empty(),
    })?;
    let colors: Vec<Cube> = match only {
        Some(c) => vec![c],
        None => game.space(space).colors().collect(),
    };
    Some(match colors.as_slice() {
        [c] => Take::Forced(space, *c),
        _ => Take::Choice(space, colors),
    })
}

/// What the rule says about Carla's cube after you took `c` from `s` (F.2), without rolls.
pub fn due(game: &Game, c: Cube, s: Space) -> RuleResult<Option<Take>> {
    let board = game.components().carla()?;
    if game.board_empty() {
        return Ok(None);
    }
    let rule = game.setup.solo.as_ref().map_or(CarlaRule::Track, |s| s.rule);
    if rule == CarlaRule::Die {
        let present: Vec<Cube> =
            Cube::INFLUENCE.iter().copied().filter(|&x| game.board.iter().any(|b| b.get(x) > 0)).collect();
        return Ok(match present.as_slice() {
            [] => choice_from(game, board, s, Some(Cube::Black)),
            [only] => first_with(game, board, s, *only).map(|sp| Take::Forced(sp, *only)),
            _ => Some(Take::Rolls),
        });
    }
    if let Some(sp) = first_with(game, board, s, c) {
        return Ok(Some(Take::Forced(sp, c)));
    }
    Ok(choice_from(game, board, s, None))
}

/// The die rule's cube once the rolls are known (F.2 die variant): checks the rolls
/// (G.13.2) and returns the cube.
fn die_take(game: &Game, s: Space, rolls: &[Cube]) -> RuleResult<(Space, Cube)> {
    let board = game.components().carla()?;
    let present = |c: Cube| game.board.iter().any(|b| b.get(c) > 0);
    let Some((&last, before)) = rolls.split_last() else {
        return fail(ErrorCode::CarlaRollWrong, "the die rule needs `rolls` here (RULES.md F.2)");
    };
    if rolls.iter().any(|c| !c.is_influence()) || before.iter().any(|&c| present(c)) || !present(last) {
        return fail(
            ErrorCode::CarlaRollWrong,
            "every roll but the last names a colour absent from the board, the last a present one (RULES.md G.13.2)",
        );
    }
    let sp = first_with(game, board, s, last).unwrap_or(s);
    Ok((sp, last))
}

/// Seeded die rolls (LOG-FORMAT event 8): roll until a colour on the board comes up.
fn derive_rolls(game: &mut Game) -> Vec<Cube> {
    let present: Vec<bool> = Cube::INFLUENCE.iter().map(|&c| game.board.iter().any(|b| b.get(c) > 0)).collect();
    let mut rolls = Vec::new();
    let Some(rng) = &mut game.rng else { return rolls };
    if !present.iter().any(|&x| x) {
        return rolls;
    }
    // Terminates: a present colour comes up with probability ≥ 1/4 per roll.
    loop {
        let i = rng.below(4) as usize;
        rolls.push(Cube::INFLUENCE[i]);
        if present[i] {
            return rolls;
        }
    }
}

/// Whether Carla's take at the top resolves without an entry (forced, or seeded rolls).
pub fn can_auto(game: &Game, c: Cube, s: Space) -> RuleResult<bool> {
    Ok(match due(game, c, s)? {
        None | Some(Take::Forced(..)) => true,
        Some(Take::Rolls) => game.rng.is_some(),
        Some(Take::Choice(..)) => false,
    })
}

/// Resolves Carla's take (the task is on top): `written` is the `carla` entry, if any.
pub fn take(game: &mut Game, c: Cube, s: Space, written: Option<(Option<&[Cube]>, Space, Cube)>) -> RuleResult {
    game.tasks.pop();
    let Some(rule) = due(game, c, s)? else {
        if written.is_some() {
            return fail(ErrorCode::CarlaNotDue, "the board is empty: Carla takes nothing (RULES.md F.2)");
        }
        return Ok(());
    };
    let (space, cube) = match rule {
        Take::Forced(sp, cube) => {
            if let Some((rolls, wsp, wc)) = written {
                if rolls.is_some_and(|r| !r.is_empty()) {
                    return fail(ErrorCode::CarlaRollWrong, "no die is rolled here (RULES.md G.13.2)");
                }
                if (wsp, wc) != (sp, cube) {
                    return fail(
                        ErrorCode::CarlaTakeWrong,
                        format!("Carla takes a {cube} cube from {sp} (RULES.md F.2)"),
                    );
                }
            }
            (sp, cube)
        }
        Take::Choice(sp, colors) => {
            let Some((_, wsp, wc)) = written else {
                return fail(
                    ErrorCode::ExpectedEntry,
                    format!("you choose Carla's cube on {sp}: a `carla` entry (RULES.md F.2)"),
                );
            };
            if wsp != sp || !colors.contains(&wc) {
                return fail(
                    ErrorCode::CarlaTakeWrong,
                    format!("Carla takes a cube of your choice from {sp} (RULES.md F.2 steps 3–4)"),
                );
            }
            (sp, wc)
        }
        Take::Rolls => {
            let rolls: Vec<Cube> = if game.rng.is_some() {
                let derived = derive_rolls(game);
                if let Some((Some(w), _, _)) = written {
                    if w != derived.as_slice() {
                        return fail(ErrorCode::SeedMismatch, format!("the seed rolls {derived:?} (RULES.md G.14.1)"));
                    }
                }
                derived
            } else {
                match written {
                    Some((Some(w), _, _)) => w.to_vec(),
                    _ => {
                        return fail(
                            ErrorCode::ExpectedEntry,
                            "the die rule's rolls are written in a `carla` entry (RULES.md F.2)",
                        )
                    }
                }
            };
            let (sp, cube) = die_take(game, s, &rolls)?;
            if let Some((_, wsp, wc)) = written {
                if (wsp, wc) != (sp, cube) {
                    return fail(
                        ErrorCode::CarlaTakeWrong,
                        format!("Carla takes a {cube} cube from {sp} (RULES.md F.2)"),
                    );
                }
            }
            (sp, cube)
        }
    };
    place(game, space, cube)
}

/// Her cube onto her board (F.2); the fate tiles it reaches flip, then she reacts (H.43).
fn place(game: &mut Game, space: Space, cube: Cube) -> RuleResult {
    let board = game.components().carla()?.clone();
    game.space_mut(space).take(cube, 1);
    let Some(carla) = &mut game.carla else { return Ok(()) };
    let b = carla.next_box;
    carla.board.push(cube);
    carla.next_box = (b + 1) % board.boxes;
    game.tasks.push(Task::CarlaReact { space });
    for (i, set) in [FateSet::Bottom, FateSet::Top].into_iter().enumerate() {
        if board.fate[1 - i].contains(&b) {
            game.tasks.push(Task::Fate { set, from: space });
        }
    }
    Ok(())
}

fn set_index(set: FateSet) -> usize {
    match set {
        FateSet::Top => 0,
        FateSet::Bottom => 1,
    }
}

/// Whether the flip at the top resolves without an entry (seeded).
pub fn fate_auto(game: &Game) -> bool {
    game.rng.is_some()
}

/// A fate flip (F.3, G.13.3): the face revealed (`written`, checked against the seed), a
/// reshuffle after the third, and Carla's death on a quill.
pub fn fate(
    game: &mut Game,
    set: FateSet,
    from: Space,
    written: Option<(FateSet, crate::notation::Face)>,
) -> RuleResult {
    if let Some((wset, _)) = written {
        if wset != set {
            return fail(
                ErrorCode::ExpectedEntry,
                format!("the flip due is of the `{}` set", if set == FateSet::Top { "top" } else { "bottom" }),
            );
        }
    }
    game.tasks.pop();
    let i = set_index(set);
    let seeded = game.rng.is_some();
    let Some(carla) = &mut game.carla else { return Ok(()) };
    let st = &mut carla.fate[i];
    let face = if seeded {
        let f = st.order.map_or(Face::Blank, |o| o[st.revealed.len().min(2)]);
        if let Some((_, w)) = written {
            if w != f {
                return fail(ErrorCode::SeedMismatch, format!("the seed reveals {f:?} (RULES.md G.14.1)"));
            }
        }
        f
    } else {
        let Some((_, w)) = written else {
            return fail(ErrorCode::ExpectedEntry, "a `fate` entry is due (RULES.md G.3.9)");
        };
        w
    };
    let quills = st.revealed.iter().filter(|&&f| f == Face::Quill).count();
    let blanks = st.revealed.len() - quills;
    if (face == Face::Quill && quills > 0) || (face == Face::Blank && blanks >= 2) {
        return fail(
            ErrorCode::FateInconsistent,
            "each cycle of 3 flips of a set shows exactly one quill (RULES.md G.13.3)",
        );
    }
    st.revealed.push(face);
    if st.revealed.len() == 3 {
        st.revealed.clear();
        if let Some(rng) = &mut game.rng {
            let mut order = [Face::Quill, Face::Blank, Face::Blank];
            rng.shuffle(&mut order);
            if let Some(c) = &mut game.carla {
                c.fate[i].order = Some(order);
            }
        }
    }
    if face == Face::Quill {
        carla_dies(game, from)?;
    }
    Ok(())
}

/// One of Carla's oldest dies (F.3, H.35): beside her board gen 1 then 2; then on the church
/// building gen 3 then 4; then on the track, stage 1 first. Bag members cannot die.
fn carla_dies(game: &mut Game, from: Space) -> RuleResult {
    let Some(carla) = &game.carla else { return Ok(()) };
    let rank = |loc: Loc, gen: u8| -> Option<(u8, u8)> {
        match loc {
            Loc::Beside => Some((0, gen)),
            Loc::ChurchBuilding => Some((1, gen)),
            Loc::Church(s) => Some((2, s)),
            _ => None,
        }
    };
    let Some(idx) = (0..carla.members.len())
        .filter(|&i| rank(carla.members[i].loc, carla.members[i].gen).is_some())
        .min_by_key(|&i| rank(carla.members[i].loc, carla.members[i].gen))
    else {
        return Ok(());
    };
    let category = match from {
        Space::Harvest | Space::Family => Some(Category::Farm),
        Space::Crafts => Some(Category::Crafts),
        Space::Travel => Some(Category::Travel),
        Space::Council => Some(Category::Council),
        Space::Church => Some(Category::Church),
        Space::Market => None,
    };
    let loc = super::time_and_death::place_dead(game, Who::Carla, category)?;
    if let Some(c) = &mut game.carla {
        c.members[idx].loc = loc;
    }
    Ok(())
}

/// Carla's reaction to the space her cube came from (F.4).
pub fn react(game: &mut Game, space: Space) {
    match space {
        Space::Market => super::market::open(game, Who::Carla),
        Space::Church => {
            if let Some(c) = &mut game.carla {
                let lowest = c.members.iter().filter(|m| m.loc == Loc::ChurchBuilding).map(|m| m.gen).min();
                if let Some(m) = c.members.iter_mut().find(|m| m.loc == Loc::ChurchBuilding && Some(m.gen) == lowest) {
                    m.loc = Loc::Bag;
                }
            }
        }
        _ => {}
    }
}
