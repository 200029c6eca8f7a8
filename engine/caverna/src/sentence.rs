//! An entry in words, as a player would say it at the table ("Ana places a dwarf on Logging;
//! builds a cavern on D1 and a tunnel on E1"): players by name, spaces and tiles by their printed
//! names, board spaces by the coordinates printed on the board (`view::cell_name`). Notation
//! only: what the entry did to each player's goods is the ledger's to say.

use chronicle_game::view::{title, words};

use crate::board::Coord;
use crate::goods::{FarmAnimal, Good};
use crate::notation::{Action, Entry, GoodsMap, HarvestPhase, Loot, RawCoord, SingleTile, TileKind, UseFor};
use crate::view::cell_name;

/// A coordinate as printed on the board; one off the board in its log form.
fn at(c: &RawCoord) -> String {
    Coord::new(c.0, c.1).map_or_else(|| format!("({}, {})", c.0, c.1), cell_name)
}

fn cells(list: &[RawCoord]) -> String {
    list.iter().map(at).collect::<Vec<_>>().join(", ")
}

fn tile_kind(k: TileKind) -> &'static str {
    match k {
        TileKind::Cavern => "a cavern",
        TileKind::Tunnel => "a tunnel",
        TileKind::Meadow => "a meadow",
        TileKind::Field => "a field",
        TileKind::OreMine => "an ore mine",
        TileKind::DeepTunnel => "a deep tunnel",
    }
}

fn good(g: Good, n: u32) -> String {
    let name = words(g.id());
    match (g, n) {
        (Good::Ruby, 1) | (Good::Vegetable, 1) | (Good::Donkey, 1) | (Good::Dog, 1) => format!("1 {name}"),
        (Good::Ruby, _) => format!("{n} rubies"),
        (Good::Vegetable | Good::Donkey | Good::Dog, _) => format!("{n} {name}s"),
        _ => format!("{n} {name}"),
    }
}

fn goods(map: &GoodsMap) -> String {
    let list: Vec<String> = map.iter().filter(|(_, n)| **n > 0).map(|(g, n)| good(*g, *n)).collect();
    if list.is_empty() {
        "nothing".to_owned()
    } else {
        list.join(", ")
    }
}

/// Animals as a list with "and" ("sheep, donkeys and wild boar"), as the rulebook names them.
fn animals(list: &[FarmAnimal]) -> String {
    let names: Vec<&str> = list
        .iter()
        .map(|a| match a {
            FarmAnimal::Sheep => "sheep",
            FarmAnimal::Donkey => "donkeys",
            FarmAnimal::Boar => "wild boar",
            FarmAnimal::Cattle => "cattle",
        })
        .collect();
    match names.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        _ => names.join(""),
    }
}

/// A loot item with where it goes.
fn loot(l: &Loot) -> String {
    let mut text = words(l.item.id());
    if let Some(t) = l.tile {
        text = format!("{text}: {}", t.printed_name());
    }
    if let Some(a) = &l.at {
        text.push_str(&format!(" on {}", at(a)));
    }
    if let Some(c) = &l.cells {
        text.push_str(&format!(" on {}", cells(c)));
    }
    text
}

/// One action as a clause ("builds a cavern on D1 and a tunnel on E1").
fn action(a: &Action) -> String {
    match a {
        Action::Twin { cells, kinds } | Action::OreMine { cells, kinds } => format!(
            "lays {} on {} and {} on {}",
            tile_kind(kinds[0]),
            at(&cells[0]),
            tile_kind(kinds[1]),
            at(&cells[1])
        ),
        Action::RubyMine { at: c } => format!("builds a ruby mine on {}", at(c)),
        Action::Furnish { tile, at: c, pay } => {
            let paid = pay.as_ref().map_or_else(String::new, |p| format!(", paying {}", goods(p)));
            format!("furnishes {} on {}{paid}", tile.printed_name(), at(c))
        }
        Action::Grow {} => "has a child".to_owned(),
        Action::Sow { grain, vegetable } => {
            let mut parts = Vec::new();
            if !grain.is_empty() {
                parts.push(format!("grain on {}", cells(grain)));
            }
            if !vegetable.is_empty() {
                parts.push(format!("vegetables on {}", cells(vegetable)));
            }
            if parts.is_empty() {
                "sows nothing".to_owned()
            } else {
                format!("sows {}", parts.join(" and "))
            }
        }
        Action::Fence { cells: c } => format!("fences a pasture on {}", cells(c)),
        Action::Stable { at: c } => format!("builds a stable on {}", at(c)),
        Action::Forge { strength } => format!("forges a weapon of strength {strength}"),
        Action::Expedition { loot: items } if items.is_empty() => "goes on an expedition and takes no loot".to_owned(),
        Action::Expedition { loot: items } => {
            format!("goes on an expedition and takes {}", items.iter().map(loot).collect::<Vec<_>>().join("; "))
        }
        Action::TradeOre { times } => format!("trades ore {times} time{}", if *times == 1 { "" } else { "s" }),
        Action::Buy { goods: list } => {
            format!("buys {}", list.iter().map(|g| words(g.id())).collect::<Vec<_>>().join(", "))
        }
        Action::Gain {} => "takes the goods".to_owned(),
        Action::Dog {} => "takes a dog".to_owned(),
        Action::Imitate { space, actions } => {
            let rest = clauses(actions);
            format!(
                "imitates {}{}",
                title(space.id()),
                if rest.is_empty() { String::new() } else { format!(" and {rest}") }
            )
        }
        Action::Convert { goods: g } => format!("converts {} to food", goods(g)),
        Action::BuyFood { food } => format!("buys {food} food"),
        Action::RubyTrade { goods: g } => format!("trades rubies for {}", goods(g)),
        Action::RubyTile { tile, at: c } => {
            let t = match tile {
                SingleTile::Meadow => "meadow",
                SingleTile::Field => "field",
                SingleTile::Tunnel => "tunnel",
                SingleTile::Cavern => "cavern",
            };
            format!("pays a ruby for a {t} on {}", at(c))
        }
        Action::Use { tile, times, for_, .. } => {
            let n = times.map_or_else(String::new, |t| format!(" {t} time{}", if t == 1 { "" } else { "s" }));
            let aim = match for_ {
                Some(UseFor::Gold) => " for gold",
                Some(UseFor::Food) => " for food",
                None => "",
            };
            format!("uses {}{n}{aim}", tile.printed_name())
        }
        Action::Release { animals: a } => format!("releases {}", goods(a)),
    }
}

/// One action as a choice's label: its clause, capitalised ("Lays a cavern on D1 and …").
pub(crate) fn clause(a: &Action) -> String {
    let text = action(a);
    let mut chars = text.chars();
    chars.next().map_or_else(String::new, |first| first.to_uppercase().chain(chars).collect())
}

fn clauses(actions: &[Action]) -> String {
    actions.iter().map(action).collect::<Vec<_>>().join("; ")
}

/// An entry as a sentence, naming its player by `name`.
pub fn sentence(entry: &Entry, name: &str) -> String {
    let with = |head: String, actions: &[Action]| {
        if actions.is_empty() {
            format!("{head}.")
        } else {
            format!("{head}; {}.", clauses(actions))
        }
    };
    match entry {
        Entry::Place { space, ruby, actions, .. } => {
            let who = if *ruby { "a dwarf out of order (paying a ruby)" } else { "a dwarf" };
            with(format!("{name} places {who} on {}", title(space.id())), actions)
        }
        Entry::Free { actions, .. } => with(format!("{name}, between turns"), actions),
        Entry::HarvestChoice { phase, .. } => format!(
            "{name} chooses the {} phase for this harvest.",
            match phase {
                HarvestPhase::Field => "field",
                HarvestPhase::Breeding => "breeding",
            }
        ),
        Entry::Feed { actions, .. } => with(format!("{name} feeds the family"), actions),
        Entry::Breed { animals: a, .. } if a.is_empty() => format!("{name} breeds no animals."),
        Entry::Breed { animals: a, .. } => format!("{name} breeds {}.", animals(a)),
        Entry::Keep { spaces, .. } => format!(
            "{name} keeps the goods on {}.",
            spaces.iter().map(|s| title(s.id())).collect::<Vec<_>>().join(", ")
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn said(json: &str) -> String {
        let entry: Entry = serde_json::from_str(json).expect("an entry");
        sentence(&entry, "Ana")
    }

    /// Entries read as sentences in the players' words: names, printed space and tile names,
    /// board spaces by their printed coordinates (docs/log-format.md "Entries").
    #[test]
    fn entries_read_as_sentences() {
        let cases = [
            (r#"{"type":"place","player":0,"space":"logging"}"#, "Ana places a dwarf on Logging."),
            (
                r#"{"type":"place","player":0,"space":"drift_mining","actions":[{"do":"twin","cells":[[0,4],[0,5]],"kinds":["cavern","tunnel"]}]}"#,
                "Ana places a dwarf on Drift Mining; lays a cavern on E1 and a tunnel on F1.",
            ),
            (
                r#"{"type":"place","player":0,"space":"housework","actions":[{"do":"furnish","tile":"weaving_parlor","at":[2,3]}]}"#,
                "Ana places a dwarf on Housework; furnishes Weaving parlor on D3.",
            ),
            (
                r#"{"type":"feed","player":0,"actions":[{"do":"convert","goods":{"grain":2}}]}"#,
                "Ana feeds the family; converts 2 grain to food.",
            ),
            (
                r#"{"type":"harvest_choice","player":0,"phase":"breeding"}"#,
                "Ana chooses the breeding phase for this harvest.",
            ),
            (r#"{"type":"breed","player":0,"animals":["sheep","boar"]}"#, "Ana breeds sheep and wild boar."),
        ];
        for (json, expected) in cases {
            assert_eq!(said(json), expected, "{json}");
        }
    }
}
