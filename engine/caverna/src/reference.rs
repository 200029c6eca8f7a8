//! The rules reference for players (`docs/rules/caverna.md`), written from the engine's own
//! tables so that it cannot drift from what the engine checks: the score pad, the action spaces
//! by player count with their replenishment, the round cards, the 48 furnishing tiles (cost,
//! points, family, set) and the loot of expeditions. `chronicle rules` prints it; a test keeps
//! the committed file equal to it.

use std::fmt::Write as _;

use chronicle_game::kind::CAVERNA;

use crate::action_space::{ActionSpace, RoundCard};
use crate::furnishing::{Family, CATALOGUE};
use crate::goods::Goods;
use crate::notation::LootItem;
use crate::rules::expedition::min_strength;

fn goods(g: &Goods) -> String {
    let parts: Vec<String> = g.iter().filter(|(_, n)| *n > 0).map(|(good, n)| format!("{n} {}", good.id())).collect();
    if parts.is_empty() {
        "—".to_owned()
    } else {
        parts.join(", ")
    }
}

fn label(id: &str) -> String {
    let s = id.replace('_', " ");
    let mut c = s.chars();
    c.next().map(|f| f.to_uppercase().collect::<String>() + c.as_str()).unwrap_or_default()
}

/// The whole reference, as Markdown.
pub fn markdown() -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "# Caverna: the rules as Chronicle's engine implements them\n\n\
         Written from the engine's tables by `chronicle rules` (a test keeps this file equal to \
         them); ids are the ones logs use (docs/log-format.md). The rulebook's text is not repeated \
         here: this page lists what the engine checks and scores.\n"
    );
    score_pad(&mut out);
    spaces(&mut out);
    round_cards(&mut out);
    tiles(&mut out);
    loot(&mut out);
    out
}

fn score_pad(out: &mut String) {
    let _ =
        writeln!(out, "## Score pad\n\nA complete game is scored row by row, in this order; the total is their sum.\n");
    let _ = writeln!(out, "| # | id | row |\n|---|---|---|");
    for (i, row) in CAVERNA.score_rows.iter().enumerate() {
        let _ = writeln!(out, "| {} | `{}` | {} |", i + 1, row.id, row.label);
    }
    let _ = writeln!(
        out,
        "\nFarm animals and dogs 1 point each; −2 per missing farm-animal type (sheep, donkey, \
         wild boar, cattle); grain ½ point each, rounded up (supply and fields); vegetables, rubies \
         and dwarfs 1 point each; −1 per unused space of the home board; the furnishing tiles' \
         printed points, small pastures 2, large pastures 4, ore mines 3, ruby mines 4; the bonus \
         points of the yellow tiles; gold 1 point each, −3 per begging marker. The Writing \
         chamber prevents up to 7 points of losses in the negative rows.\n"
    );
}

fn spaces(out: &mut String) {
    let _ = writeln!(
        out,
        "## Action spaces\n\nThe printed action spaces by number of players (round cards come on top), \
         and what each accumulating space receives at the start of every round, by player count: \
         `A (B)` means A on an empty space, else B.\n"
    );
    let _ = writeln!(out, "| space | id | players | replenishment |");
    let _ = writeln!(out, "|---|---|---|---|");
    for space in ActionSpace::ALL {
        let counts: Vec<usize> = (1..=7).filter(|&n| ActionSpace::printed(n).contains(&space)).collect();
        if counts.is_empty() {
            continue;
        }
        let replenish = |players: usize| match space.replenish(players) {
            None => "—".to_owned(),
            Some(r) if r.if_empty == r.otherwise => goods(&r.if_empty),
            Some(r) => format!("{} ({})", goods(&r.if_empty), goods(&r.otherwise)),
        };
        // Runs of player counts with the same replenishment: "2–3: 1 wood; 4–7: 2 wood".
        let mut runs: Vec<(usize, usize, String)> = Vec::new();
        for &n in &counts {
            let r = replenish(n);
            match runs.last_mut() {
                Some((_, to, last)) if *last == r && *to + 1 == n => *to = n,
                _ => runs.push((n, n, r)),
            }
        }
        let text = if runs.len() == 1 {
            runs[0].2.clone()
        } else {
            let part = |(from, to, r): &(usize, usize, String)| {
                if from == to {
                    format!("{from}: {r}")
                } else {
                    format!("{from}–{to}: {r}")
                }
            };
            runs.iter().map(part).collect::<Vec<_>>().join("; ")
        };
        let players: Vec<String> = counts.iter().map(usize::to_string).collect();
        let _ = writeln!(out, "| {} | `{}` | {} | {text} |", label(space.id()), space.id(), players.join(", "));
    }
    let _ = writeln!(out);
}

fn round_cards(out: &mut String) {
    let _ = writeln!(out, "## Round cards\n\nOne card is revealed per round, by stage; it adds its action space.\n");
    let _ = writeln!(out, "| card | stage | action space |\n|---|---|---|");
    for card in RoundCard::ALL {
        let _ = writeln!(out, "| `{}` | {} | `{}` |", card.id(), card.stage(), card.space().id());
    }
    let _ = writeln!(out);
}

fn tiles(out: &mut String) {
    let _ = writeln!(
        out,
        "## Furnishing tiles\n\nFamily: dwelling (room for dwarfs), ordinary (an ability or printed \
         points), bonus (parlors, storages and chambers: bonus points at the end). The introductory \
         set plays only the tiles marked in its column.\n"
    );
    let _ = writeln!(out, "| tile | id | cost | points | family | introductory |\n|---|---|---|---|---|---|");
    for card in CATALOGUE.iter() {
        let family = match card.family {
            Family::Dwelling => "dwelling",
            Family::Ordinary => "ordinary",
            Family::Bonus => "bonus",
        };
        let _ = writeln!(
            out,
            "| {} | `{}` | {} | {} | {family} | {} |",
            card.name,
            card.id,
            goods(&card.cost),
            card.points,
            if card.intro { "yes" } else { "no" }
        );
    }
    let _ = writeln!(out);
}

fn loot(out: &mut String) {
    let _ = writeln!(
        out,
        "## Expedition loot\n\nAn armed dwarf on an expedition takes as many different items as the \
         expedition's level, each needing at least the weapon strength listed.\n"
    );
    let _ = writeln!(out, "| item | id | minimum strength |\n|---|---|---|");
    for item in LootItem::ALL {
        let _ = writeln!(out, "| {} | `{}` | {} |", label(item.id()), item.id(), min_strength(item));
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_committed_reference_is_the_engines() {
        let committed = include_str!("../../../docs/rules/caverna.md");
        assert!(
            committed == super::markdown(),
            "docs/rules/caverna.md is stale: run `chronicle rules > docs/rules/caverna.md`"
        );
    }
}
