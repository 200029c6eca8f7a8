//! Deaths (`docs/rules/village.md` C.6, C.7, G.11): who dies when the life marker passes the quill, and
//! where the dead member goes (chronicle category, else a grave, else removed), with the end
//! trigger of E.2. Time itself is paid in [`super::payment::spend_time`].

use crate::error::{fail, ErrorCode, RuleResult};
use crate::game::{Game, Loc, Task};
use crate::ids::Category;
use crate::notation::{MemberRef, Who};

/// The lowest visible generation of a player and the distinct places where it stands (C.7,
/// H.8); `None` when nobody can die.
pub fn candidates(game: &Game, p: usize) -> Option<(u8, Vec<Loc>)> {
    let pl = &game.players[p];
    let gen = pl.members.iter().filter(|m| m.loc.visible()).map(|m| m.gen).min()?;
    let mut locs: Vec<Loc> = pl.members.iter().filter(|m| m.loc.visible() && m.gen == gen).map(|m| m.loc).collect();
    locs.sort();
    locs.dedup();
    Some((gen, locs))
}

/// Whether a member of player `p` can die: [`candidates`] is `Some`, without building its list
/// (asked at every death the end of a turn queues).
pub fn can_die(game: &Game, p: usize) -> bool {
    game.players[p].members.iter().any(|m| m.loc.visible())
}

/// Whether the death at the top needs a `death` entry (a choice between places, G.11.1).
pub fn needs_choice(game: &Game, p: usize) -> bool {
    candidates(game, p).is_some_and(|(_, locs)| locs.len() > 1)
}

/// Resolves one death of player `p`: `named` is the `death` entry's member, `None` for the
/// forced one (G.11.1, G.11.2). The caller pops the task.
pub fn die(game: &mut Game, p: usize, named: Option<&MemberRef>) -> RuleResult {
    let Some((gen, locs)) = candidates(game, p) else {
        if named.is_some() {
            return fail(
                ErrorCode::DeathNotDue,
                format!("{} has no visible member: nobody dies (RULES.md H.8)", game.seat_name(p)),
            );
        }
        return Ok(());
    };
    let loc = match named {
        Some(r) => {
            let loc = game.loc_of(r)?;
            if game.players[p].count_at(r.gen, loc) == 0 {
                return fail(
                    ErrorCode::MemberNotFound,
                    format!(
                        "{} has no generation-{} member at `{}`",
                        game.seat_name(p),
                        r.gen,
                        loc.id(game.components())
                    ),
                );
            }
            if !loc.visible() {
                return fail(
                    ErrorCode::NotOldest,
                    format!("a member at `{}` cannot die (RULES.md C.7)", loc.id(game.components())),
                );
            }
            if r.gen != gen {
                return fail(
                    ErrorCode::NotOldest,
                    format!(
                        "the oldest visible members of {} are generation {gen}, not {} (RULES.md C.7)",
                        game.seat_name(p),
                        r.gen
                    ),
                );
            }
            loc
        }
        None => match locs.as_slice() {
            [only] => *only,
            _ => {
                return fail(
                    ErrorCode::DeathExpected,
                    format!("{} chooses which generation-{gen} member dies (RULES.md G.11.3)", game.seat_name(p)),
                )
            }
        },
    };
    let place = place_dead(game, Who::Seat(p), Some(loc.category()))?;
    game.players[p].relocate(gen, loc, place);
    Ok(())
}

/// Where a dying member goes (C.7 step 2): a free chronicle space of its category (`None`:
/// straight to a grave, Carla's market cube, F.3), else a free grave, else removed. Triggers
/// the end when it takes the last free chronicle space or the last free grave (step 3).
pub fn place_dead(game: &mut Game, who: Who, category: Option<Category>) -> RuleResult<Loc> {
    let free = game.chronicle_free()?;
    if let Some(cat) = category {
        if free[cat.index()] > 0 {
            if free.iter().sum::<usize>() == 1 {
                super::end_of_game::trigger(game, who);
            }
            return Ok(Loc::Chronicle(cat));
        }
    }
    let graves = game.graves_free()?;
    if graves > 0 {
        if graves == 1 {
            super::end_of_game::trigger(game, who);
        }
        return Ok(Loc::Grave);
    }
    Ok(Loc::Removed)
}

/// The end of a turn (C.6): the player's pending quill passings become deaths, resolved in
/// order (H.9), then [`Task::AfterDeaths`].
pub fn end_turn(game: &mut Game, p: usize, took: Option<(crate::ids::Cube, crate::ids::Space)>) {
    game.tasks.push(Task::AfterDeaths { player: p, took });
    let n = std::mem::take(&mut game.players[p].pending_deaths).min(super::payment::MAX_DEATHS);
    for _ in 0..n {
        game.tasks.push(Task::Death { player: p });
    }
}
