//! The questions players ask, answered in words and numbers (docs/statistics.md,
//! "Questions"): each answer compares the player-games that did something with those that did
//! not — the raw win rates and their difference, beside the effect controlled for who plays
//! ([`crate::controlled`]) — and ends in a plain verdict read from the controlled effect on
//! winning ([`Verdict`]).
//!
//! - every game: "Which seat has the edge?" (per player count; the controlled model holds no
//!   seat fixed, since the seat is the question) and "Which source of points wins?" (the score
//!   row that gave a player the most points);
//! - games with counters (Village, Above and Below): "Does a high count help?" per counter
//!   (above the count's median among the player-games asked about);
//! - Caverna: "Does building tile X help?" and "When should I arm?" (the round a player first
//!   held a weapon, in thirds of the game, or never).

use chronicle_caverna::furnishing::Furnishing;

use crate::skill::{strategies, Comparison, EffectsFilter, Seen, Skill, Strategy};

/// What the numbers say, read from the controlled effect on winning.
#[derive(Clone, Debug, PartialEq)]
pub enum Verdict {
    /// Below the support, or the model cannot be fitted: why.
    NotEnoughData(String),
    /// The whole 95% interval is above zero: the estimate, in percentage points of win rate.
    Helps(f64),
    /// The whole interval is below zero.
    Hurts(f64),
    /// The interval holds zero: its ends, in percentage points.
    NoDetectableEffect(f64, f64),
}

impl Verdict {
    /// A stable id (`not_enough_data`, `helps`, `hurts`, `no_detectable_effect`).
    pub fn id(&self) -> &'static str {
        match self {
            Verdict::NotEnoughData(_) => "not_enough_data",
            Verdict::Helps(_) => "helps",
            Verdict::Hurts(_) => "hurts",
            Verdict::NoDetectableEffect(..) => "no_detectable_effect",
        }
    }

    /// The verdict as a sentence.
    pub fn words(&self) -> String {
        match self {
            Verdict::NotEnoughData(why) => format!("Not enough data: {why}."),
            Verdict::Helps(pp) => format!("Helps, by about {pp:.1} percentage points of win rate."),
            Verdict::Hurts(pp) => format!("Costs about {:.1} percentage points of win rate.", -pp),
            Verdict::NoDetectableEffect(lo, hi) => {
                format!("No detectable effect (somewhere between {lo:+.1} and {hi:+.1} percentage points of win rate).")
            }
        }
    }
}

/// The verdict of a comparison: from its controlled effect on winning only (the raw
/// difference mostly measures who plays).
pub fn verdict(c: &Comparison) -> Verdict {
    if let Some(why) = c.controlled.not_enough_data() {
        return Verdict::NotEnoughData(why.trim_start_matches("not enough data: ").to_owned());
    }
    match c.controlled.win {
        None => Verdict::NotEnoughData(
            "the model cannot be fitted on these games (every switcher's choice moves with their seat or table)"
                .to_owned(),
        ),
        Some(e) if e.ci_low > 0.0 => Verdict::Helps(e.estimate * 100.0),
        Some(e) if e.ci_high < 0.0 => Verdict::Hurts(e.estimate * 100.0),
        Some(e) => Verdict::NoDetectableEffect(e.ci_low * 100.0, e.ci_high * 100.0),
    }
}

/// One thing compared: its label, the comparison and its verdict.
#[derive(Clone, Debug, PartialEq)]
pub struct Answer {
    /// What the player-games did, for people ("Sat in seat 1", "Built the Weaving parlor").
    pub label: String,
    pub comparison: Comparison,
    pub verdict: Verdict,
}

/// A question and its answers.
#[derive(Clone, Debug, PartialEq)]
pub struct Question {
    /// A stable id (`seat-3`, `main-source`, `counter-houses_built`, `tile-weaving_parlor`, `arming`).
    pub id: String,
    /// The question as a player asks it.
    pub asked: String,
    /// What the answers compare, in a sentence.
    pub method: String,
    pub answers: Vec<Answer>,
}

impl Question {
    /// The answer in a sentence: what the controlled effects detect, else that nothing is
    /// detected, else that there is not enough data.
    pub fn summary(&self) -> String {
        let detected: Vec<String> = self
            .answers
            .iter()
            .filter(|a| matches!(a.verdict, Verdict::Helps(_) | Verdict::Hurts(_)))
            .map(|a| format!("{}: {}", a.label, lower_first(&a.verdict.words())))
            .collect();
        if !detected.is_empty() {
            detected.join(" ")
        } else if self.answers.iter().all(|a| matches!(a.verdict, Verdict::NotEnoughData(_))) {
            "Not enough data to say: too few players have tried both ways (each row says what is missing).".to_owned()
        } else {
            "No detectable effect: every controlled interval holds zero.".to_owned()
        }
    }
}

fn answer(
    skill: &Skill,
    filter: &EffectsFilter,
    label: String,
    within: &dyn Fn(&Seen) -> bool,
    did: &dyn Fn(&Seen) -> bool,
    seat_free: bool,
) -> Answer {
    let comparison = skill.compare(filter, within, did, seat_free);
    Answer { label, verdict: verdict(&comparison), comparison }
}

/// "Which seat has the edge?": one question per player count present, each seat against the
/// table's other seats.
pub fn seats(skill: &Skill, filter: &EffectsFilter) -> Vec<Question> {
    let mut counts: Vec<u8> = skill.seen(filter).iter().map(|s| s.row.player_count).collect();
    counts.sort_unstable();
    counts.dedup();
    counts
        .into_iter()
        .map(|n| Question {
            id: format!("seat-{n}"),
            asked: format!("Which seat has the edge in {n}-player games?"),
            method: format!(
                "Each seat's win rate against the other seats' in {n}-player games (a fair share is {:.1}%); the controlled effect compares each player's games in that seat with their games in the others.",
                100.0 / f64::from(n)
            ),
            answers: (0..n)
                .map(|seat| {
                    let within = move |s: &Seen| s.row.player_count == n;
                    let did = move |s: &Seen| s.row.seat == seat;
                    answer(skill, filter, format!("Seat {}", seat + 1), &within, &did, true)
                })
                .collect(),
        })
        .collect()
}

/// "Which source of points wins?": for each score row (`rows`: the game's labels in the pad's
/// order), the player-games whose most points came from it against the others.
pub fn main_sources(skill: &Skill, filter: &EffectsFilter, rows: &[&str]) -> Question {
    let seen = skill.seen(filter);
    let answers = rows
        .iter()
        .enumerate()
        .filter(|(i, _)| seen.iter().any(|s| s.features.main_source == Some(*i as u8)))
        .map(|(i, label)| {
            let did = move |s: &Seen| s.features.main_source == Some(i as u8);
            answer(skill, filter, format!("Most points from {}", lower_first(label)), &|_| true, &did, false)
        })
        .collect();
    Question {
        id: "main-source".to_owned(),
        asked: "Which source of points wins?".to_owned(),
        method: "Players whose largest score row was this one, against every other player.".to_owned(),
        answers,
    }
}

/// "Does a high count help?": for each counter (`counters`: the game's, in its spec's order),
/// the player-games above the counter's median
/// against the others; for a round counter ("round of the first exploration", 0 for never),
/// "early, late or never?" ([`timing`]).
pub fn counters(skill: &Skill, filter: &EffectsFilter, counters: &[AskedCounter]) -> Vec<Question> {
    let seen = skill.seen(filter);
    counters
        .iter()
        .enumerate()
        .filter_map(|(k, c)| {
            if c.round {
                return Some(timing(skill, filter, k, c));
            }
            let mut values: Vec<i64> = seen.iter().filter_map(|s| s.features.counters.get(k).copied()).collect();
            values.sort_unstable();
            let median = *values.get(values.len().checked_sub(1)? / 2)?;
            let did = move |s: &Seen| s.features.counters.get(k).is_some_and(|&v| v > median);
            Some(Question {
                id: format!("counter-{k}"),
                asked: c.asked.to_owned(),
                method: format!(
                    "{}: players with more than {median} (the median of the player-games asked about) against those with {median} or fewer.",
                    c.label
                ),
                answers: vec![answer(skill, filter, format!("More than {median}"), &|_| true, &did, false)],
            })
        })
        .collect()
}

/// A game's counter as the questions read it.
#[derive(Clone, Copy, Debug)]
pub struct AskedCounter<'a> {
    /// What the count is, for people.
    pub label: &'a str,
    /// The question a player asks of it.
    pub asked: &'a str,
    /// The value is the round something first happened (0: never).
    pub round: bool,
}

/// "Early, late or never?" for a round counter `k`: never (0), by the median round of those
/// who did it, and after it, each against every other player-game.
fn timing(skill: &Skill, filter: &EffectsFilter, k: usize, c: &AskedCounter) -> Question {
    let seen = skill.seen(filter);
    let mut rounds: Vec<i64> =
        seen.iter().filter_map(|s| s.features.counters.get(k).copied()).filter(|&r| r > 0).collect();
    rounds.sort_unstable();
    let round = move |s: &Seen| s.features.counters.get(k).copied().unwrap_or(0);
    let mut answers = Vec::new();
    if let Some(&median) = rounds.get(rounds.len().saturating_sub(1) / 2) {
        let early = move |s: &Seen| (1..=median).contains(&round(s));
        let late = move |s: &Seen| round(s) > median;
        let by = if median == 1 { "In round 1".to_owned() } else { format!("In round {median} or earlier") };
        answers.push(answer(skill, filter, by, &|_| true, &early, false));
        answers.push(answer(skill, filter, format!("After round {median}"), &|_| true, &late, false));
    }
    let never = move |s: &Seen| round(s) == 0;
    answers.push(answer(skill, filter, "Never".to_owned(), &|_| true, &never, false));
    Question {
        id: format!("counter-{k}"),
        asked: c.asked.to_owned(),
        method: format!("{}: players by the round in which it first happened (split at the median round of those to whom it happened), and those to whom it never did, each group against every other player.", c.label),
        answers,
    }
}

/// "Does building this tile help?" (Caverna).
pub fn tile(skill: &Skill, filter: &EffectsFilter, tile: Furnishing) -> Question {
    let k = strategies().position(|s| s == Strategy::Tile(tile)).unwrap_or(0);
    let did = move |s: &Seen| s.strategies & (1 << k) != 0;
    Question {
        id: format!("tile-{}", tile.id()),
        asked: format!("Does building the {} help?", tile.printed_name()),
        method: "Players who built it, against those who did not.".to_owned(),
        answers: vec![answer(skill, filter, format!("Built the {}", tile.printed_name()), &|_| true, &did, false)],
    }
}

/// The rounds of "When should I arm?": a third of Caverna's 12 rounds each.
pub const ARMING_ROUNDS: [(u8, u8); 3] = [(1, 4), (5, 8), (9, 12)];

/// "When should I arm?" (Caverna): first armed in each third of the game, and never armed,
/// each against every other player-game.
pub fn arming(skill: &Skill, filter: &EffectsFilter) -> Question {
    let mut answers: Vec<Answer> = ARMING_ROUNDS
        .iter()
        .map(|&(from, to)| {
            let did = move |s: &Seen| s.features.first_armed.is_some_and(|r| (from..=to).contains(&r));
            answer(skill, filter, format!("First armed in rounds {from}–{to}"), &|_| true, &did, false)
        })
        .collect();
    let never = |s: &Seen| s.features.first_armed.is_none();
    answers.push(answer(skill, filter, "Never armed".to_owned(), &|_| true, &never, false));
    Question {
        id: "arming".to_owned(),
        asked: "When should I arm my dwarfs?".to_owned(),
        method: "Players by the round in which they first held a weapon, each group against every other player."
            .to_owned(),
        answers,
    }
}

fn lower_first(label: &str) -> String {
    let mut chars = label.chars();
    match chars.next() {
        Some(c) => c.to_lowercase().chain(chars).collect(),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::controlled::{Effect, Estimate, Support};
    use crate::rate::Rate;

    fn comparison(switchers: u64, win: Option<(f64, f64, f64)>) -> Comparison {
        let estimate = win.map(|(estimate, ci_low, ci_high)| Estimate { estimate, std_error: 0.0, ci_low, ci_high });
        Comparison {
            used: Rate::new(1, 2, 30),
            not_used: Rate::new(1, 2, 30),
            raw: None,
            controlled: Effect {
                player_games: 100,
                games: 50,
                treated: 40,
                switchers,
                informing_games: 40,
                support: Support::DEFAULT,
                win: estimate,
                margin: estimate,
            },
        }
    }

    /// The verdict reads the controlled interval: above zero helps, below hurts, across zero
    /// is no detectable effect; below the support it says what is missing.
    #[test]
    fn verdicts_follow_the_controlled_interval_and_the_support() {
        let table = [
            (comparison(25, Some((0.05, 0.01, 0.09))), "helps", "Helps, by about 5.0 percentage points of win rate."),
            (comparison(25, Some((-0.05, -0.09, -0.01))), "hurts", "Costs about 5.0 percentage points of win rate."),
            (
                comparison(25, Some((0.01, -0.02, 0.04))),
                "no_detectable_effect",
                "No detectable effect (somewhere between -2.0 and +4.0 percentage points of win rate).",
            ),
            (comparison(3, None), "not_enough_data", "Not enough data: 3 switchers (needs 20)."),
        ];
        for (c, id, words) in table {
            let v = verdict(&c);
            assert_eq!((v.id(), v.words().as_str()), (id, words));
        }
    }
}
