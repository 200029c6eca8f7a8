//! The bots' **synthetic encounter** content: made up from the paragraph number for simulated
//! games only, never the Adventure Book's (which the project does not have, `docs/rules/above-and-below.md` B.1).
//! Every paragraph has one option (1) with two thresholds; the same paragraph always gives the
//! same thresholds and rewards, so simulated logs pass the consistency checks of H.33.

use crate::game::Game;
use crate::ids::Good;
use crate::legal::ExplorePreview;
use crate::notation::{Outcome, Step};

/// Synthetic thresholds of a paragraph: `[low, high]`, low 2–4, high 2–3 above it.
pub fn thresholds(paragraph: u32) -> Vec<u32> {
    let low = 2 + paragraph % 3;
    vec![low, low + 2 + paragraph % 2]
}

/// Synthetic rewards: coins at the low threshold; coins, a good and reputation at the high
/// one; on failure a reputation penalty for every fourth paragraph.
pub fn outcome(paragraph: u32, reached: Option<u32>, high: u32) -> Vec<Outcome> {
    let good = Good::ALL[(paragraph % 8) as usize];
    match reached {
        None if paragraph.is_multiple_of(4) => vec![Outcome::Reputation { n: -1 }],
        None => vec![],
        Some(r) if r >= high => {
            vec![Outcome::Coins { n: 2 }, Outcome::Good { good, n: 1 }, Outcome::Reputation { n: 1 }]
        }
        Some(_) => vec![Outcome::Coins { n: 2 }, Outcome::Good { good, n: 1 }],
    }
}

/// The step a bot declares: the cave's paragraph for the die, synthetic thresholds, and
/// efforts (up to `max_efforts`) when they reach the next threshold.
pub fn step(game: &Game, party: &[String], pre: &ExplorePreview, max_efforts: usize) -> Step {
    let cat = &game.setup().catalogue;
    let paragraph =
        cat.caves.get(&pre.cave).and_then(|c| c.paragraphs).map_or(1, |t| t[usize::from(pre.die.clamp(1, 6) - 1)]);
    let t = thresholds(paragraph);
    let dice: u32 =
        party.iter().zip(&pre.dice).map(|(id, d)| cat.villagers.get(id).map_or(0, |v| v.lanterns(*d))).sum();
    let mut efforts = Vec::new();
    for target in t.iter().rev() {
        let need = target.saturating_sub(dice) as usize;
        if need > 0 && need <= max_efforts.min(party.len()) {
            efforts = party.iter().take(need).cloned().collect();
            break;
        }
    }
    let total = dice + efforts.len() as u32;
    let reached = t.iter().copied().filter(|x| *x <= total).max();
    let high = t.last().copied().unwrap_or(0);
    Step {
        paragraph,
        option: 1,
        outcome: outcome(paragraph, reached, high),
        thresholds: t,
        rerolls: vec![],
        bonus: vec![],
        efforts,
        reached,
        then: None,
    }
}
