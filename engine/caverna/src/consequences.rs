//! What a decision will cost, said before it is taken (the recorder's harvest buttons): the
//! food a feeding needs against the food the player has, and what the entry changes for its
//! player — food paid, begging markers taken (−3 points each, docs/rules/caverna-reference.md
//! F.6), animals given up or born — found by applying it to a copy of the game.

use crate::game::{Game, Harvest, Phase, Player};
use crate::goods::Good;
use crate::notation::Entry;
use crate::rules::harvest::{food_due, pay_feeding};
use crate::view::plural;
use chronicle_game::view::Count;

/// What the food the player owes at this feeding is, against what they have ("needs 4 food,
/// has 2"); `None` outside a feeding.
fn need(game: &Game, p: usize) -> Option<String> {
    let Phase::Feeding { relief, .. } = game.phase() else { return None };
    let player = game.players().get(p)?;
    let due = food_due(player, game.harvest() == Harvest::OneFoodPerDwarf, relief[p]);
    Some(format!("needs {due} food, has {}", player.supply.get(Good::Food)))
}

/// The changes of one player between two positions, in words.
fn changes(before: &Player, after: &Player) -> Vec<String> {
    let mut said = Vec::new();
    for g in Good::ALL {
        let (was, now) = (i64::from(before.supply.get(g)), i64::from(after.supply.get(g)));
        match now - was {
            0 => {}
            d if d < 0 => said.push(format!("gives up {}", Count::new(g.id(), plural(g), -d).text())),
            d => said.push(format!("gets {}", Count::new(g.id(), plural(g), d).text())),
        }
    }
    let begging = after.begging.saturating_sub(before.begging);
    if begging > 0 {
        let s = if begging == 1 { "" } else { "s" };
        said.push(format!("takes {begging} begging marker{s} (−{} points)", 3 * begging));
    }
    said
}

/// The player after a feed entry with the feeding paid (the rules take the food, or begging
/// markers for what is missing, once every player has fed: F.6), so that the button says it.
fn paid(after: &Game, entry: &Entry) -> Option<Player> {
    let p = entry.player() as usize;
    let mut player = after.players().get(p)?.clone();
    if let (Entry::Feed { .. }, Phase::Feeding { relief, .. }) = (entry, after.phase()) {
        pay_feeding(&mut player, after.harvest() == Harvest::OneFoodPerDwarf, relief[p]);
    }
    Some(player)
}

/// An entry as a recorder's button says it: the sentence, what the player owes (at a
/// feeding), and what it will change for them.
pub fn label(game: &Game, entry: &Entry) -> String {
    let p = entry.player() as usize;
    let name = game.players().get(p).map_or("A player", |pl| &*pl.name);
    let sentence = crate::sentence::sentence(entry, name);
    let mut after = game.clone();
    let effects = match (game.players().get(p), after.play_entry(entry)) {
        (Some(before), Ok(())) => paid(&after, entry).map(|a| changes(before, &a)).unwrap_or_default(),
        _ => Vec::new(),
    };
    let mut text = sentence.trim_end_matches('.').to_owned();
    if let Some(need) = need(game, p) {
        text.push_str(&format!(" ({need})"));
    }
    if effects.is_empty() {
        text.push('.');
    } else {
        text.push_str(&format!(": {}.", effects.join(", ")));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    /// F.6: food short of what is owed becomes begging markers, said with their points.
    #[test]
    fn f6_begging_markers_are_said_with_their_points() {
        let before = Player::new("Ana", 3);
        let mut after = before.clone();
        after.supply.set(Good::Food, 0);
        after.begging = 2;
        assert_eq!(changes(&before, &after), ["gives up 3 food", "takes 2 begging markers (−6 points)"]);
    }

    use chronicle_game::GameEngine;
    use serde_json::Value;

    use crate::Caverna;

    /// C.3, F.6: every feeding button says the food owed against the food held.
    #[test]
    fn c3_a_feeding_button_says_the_food_owed_and_held() {
        // A simulated 2-player game up to its first feed entry.
        let (log, at) = (1..40)
            .filter_map(|seed| Caverna::simulate(seed, 2).ok())
            .find_map(|log| {
                let at = log["entries"].as_array()?.iter().position(|e| e["type"] == "feed")?;
                Some((log, at))
            })
            .expect("a simulated game with a feed entry");
        let entries = log["entries"].as_array().expect("entries");
        let mut prefix = log.clone();
        prefix["entries"] = Value::Array(entries[..at].to_vec());
        let bytes = serde_json::to_vec(&prefix).expect("JSON");
        let r = Caverna::replay_until(&bytes, usize::MAX);
        let legal = Caverna::legal_entries(&r, 50);
        let labels = Caverna::describe_next(&r, &legal.entries);
        assert_eq!(labels.len(), legal.entries.len());
        assert!(labels.iter().all(|l| l.contains(" feeds the family") && l.contains(" food, has ")), "{labels:?}");
    }
}
