//! The typed view contract: what a game's engine says a position looks like, in the players'
//! words, so that pages draw every game the same way without reading its state JSON or knowing
//! its rules. The engine chooses what to show and how to name it (printed names, 1-based seats,
//! coordinates as printed); pages only lay it out.
//!
//! A [`BoardView`] has a headline (round, phase, who is to move), shared areas (action spaces,
//! markets, rows of cards: each a table or lines of text), and one [`Panel`] per player (counts,
//! lines, an optional grid such as a home board, and the score if the game ended now), plus
//! panels of non-player boards (an automated opponent).

use serde::Serialize;

/// A position as pages draw it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct BoardView {
    /// The round being played.
    pub round: u16,
    /// The phase, for people ("work phase", "harvest: feeding").
    pub phase: String,
    /// The seat (0-based, as the log's) to move, when one player is.
    pub to_move: Option<usize>,
    /// What the game waits for when no player is to move, for people.
    pub waiting_for: Option<String>,
    /// Facts of the moment worth a line ("The end of the game is triggered").
    pub notes: Vec<String>,
    /// What all players share: the action board, a market, rows of cards.
    pub areas: Vec<Area>,
    /// One panel per seat, in seat order.
    pub players: Vec<Panel>,
    /// Boards that are no seat's (an automated opponent).
    pub others: Vec<Panel>,
}

/// A shared part of the table.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Area {
    /// A stable id (for pages and tests).
    pub id: String,
    pub title: String,
    /// A table of the area, when it has one.
    pub table: Option<Table>,
    /// Lines below it.
    pub lines: Vec<Line>,
}

/// A table with a header row.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Table {
    pub headers: Vec<String>,
    pub rows: Vec<TableRow>,
}

/// A row: a stable id and its cells as text.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct TableRow {
    pub id: String,
    pub cells: Vec<String>,
}

/// A labelled line of text ("Reserve: 2 ore, 1 fish").
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Line {
    pub label: String,
    pub text: String,
}

impl Line {
    pub fn new(label: impl Into<String>, text: impl Into<String>) -> Line {
        Line { label: label.into(), text: text.into() }
    }
}

/// What one player (or a non-player board) has.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Panel {
    /// The seat (0-based, as the log's); `None` for a board that is no seat's.
    pub seat: Option<usize>,
    pub name: String,
    /// A word beside the name (a colour).
    pub aside: Option<String>,
    /// Counts of what the player has, in the game's order; zeros are left out by pages.
    pub counts: Vec<Count>,
    /// Lines of what the player has that is not a count.
    pub lines: Vec<Line>,
    /// A board of cells (a home board), when the game has one.
    pub grid: Option<Grid>,
    /// The score pad applied to the position, row by row.
    pub score: Option<ScoreNow>,
}

/// A count with its id (for pages and tests) and its label in words.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Count {
    pub id: String,
    pub label: String,
    pub value: i64,
}

impl Count {
    /// A count labelled as its plural (`"coins"`, `"rubies"`, `"wood"`): [`Count::text`] says
    /// one of it in the singular.
    pub fn new(id: impl Into<String>, label: impl Into<String>, value: i64) -> Count {
        Count { id: id.into(), label: label.into(), value }
    }

    /// The count in words: `"3 coins"`, `"1 coin"`, `"1 ruby"`, `"2 wood"`.
    pub fn text(&self) -> String {
        if self.value.abs() == 1 {
            format!("{} {}", self.value, singular(&self.label))
        } else {
            format!("{} {}", self.value, self.label)
        }
    }
}

/// The singular of a plural label, by its last word (`"green cubes"` → `"green cube"`,
/// `"rubies"` → `"ruby"`); a word not ending in a plural `s` is left as it is (`"wood"`,
/// `"sheep"`, `"time spent"`).
fn singular(label: &str) -> String {
    let (head, last) = label.rsplit_once(' ').map_or(("", label), |(h, l)| (h, l));
    let one = if let Some(stem) = last.strip_suffix("ies") {
        format!("{stem}y")
    } else if last.ends_with("ss") || last.ends_with("us") || !last.ends_with('s') {
        last.to_owned()
    } else {
        last[..last.len() - 1].to_owned()
    };
    if head.is_empty() {
        one
    } else {
        format!("{head} {one}")
    }
}

/// A board of cells with printed coordinates: columns labelled along the top, rows down the
/// side, as a chess board has a–h and 1–8.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Grid {
    /// What the board is ("home board").
    pub title: String,
    /// Column labels, left to right.
    pub columns: Vec<String>,
    /// Rows, top to bottom.
    pub rows: Vec<GridRow>,
}

/// A row of a [`Grid`] with its label.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct GridRow {
    pub label: String,
    pub cells: Vec<Cell>,
}

/// One cell of a [`Grid`].
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Cell {
    /// Its coordinate as printed on the grid ("C4"), the name entries use for it.
    pub at: String,
    /// What covers it, as a class pages style (`forest`, `mountain`, `cavern`, `field`, …).
    pub kind: String,
    /// Whether it lies off the printed board (an extension a tile adds).
    pub outside: bool,
    /// What is on it, in words, most important first.
    pub marks: Vec<String>,
}

/// The score if the game ended now: the score pad's rows as the game's spec names them.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct ScoreNow {
    /// `(row id of the spec's score rows, points)`, in printed order.
    pub rows: Vec<(String, i64)>,
    pub total: i64,
}

/// Counts as text: the non-zero ones, `"3 wood, 1 ore"`; `"none"` when all are zero.
pub fn counts_text(counts: &[Count]) -> String {
    let text: Vec<String> = counts.iter().filter(|c| c.value != 0).map(Count::text).collect();
    if text.is_empty() {
        "none".to_owned()
    } else {
        text.join(", ")
    }
}

/// Words of a list, `"—"` when it is empty.
pub fn list_text<S: AsRef<str>>(items: &[S]) -> String {
    if items.is_empty() {
        "—".to_owned()
    } else {
        items.iter().map(AsRef::as_ref).collect::<Vec<_>>().join(", ")
    }
}

/// An id in words (`weaving_parlor` → `weaving parlor`): for ids whose printed name is the id.
pub fn words(id: &str) -> String {
    id.replace(['_', '-'], " ")
}

/// An entry in words when its game has no sentence of its own: who (by name, when the entry
/// names a seat), what kind, then its other members in words — never its JSON.
pub fn entry_words(entry: &str, names: &[String]) -> String {
    let Ok(serde_json::Value::Object(o)) = serde_json::from_str::<serde_json::Value>(entry) else {
        return "An entry that is not a JSON object.".to_owned();
    };
    let who = o
        .get("player")
        .and_then(serde_json::Value::as_u64)
        .and_then(|p| names.get(usize::try_from(p).ok()?))
        .map_or("A player", String::as_str);
    let kind = o.get("type").and_then(serde_json::Value::as_str).map_or_else(|| "entry".to_owned(), words);
    let details: Vec<String> = o
        .iter()
        .filter(|(k, _)| !matches!(k.as_str(), "type" | "player"))
        .map(|(k, v)| format!("{} {}", words(k), value_words(v)))
        .collect();
    if details.is_empty() {
        format!("{who}: {kind}.")
    } else {
        format!("{who}: {kind} — {}.", details.join("; "))
    }
}

/// A JSON value in few words: ids with spaces, lists joined, objects as `count name` pairs or,
/// for an action (`do`), what it does and then its members.
fn value_words(v: &serde_json::Value) -> String {
    use serde_json::Value;
    match v {
        Value::String(s) => words(s),
        Value::Array(items) if items.is_empty() => "none".into(),
        Value::Array(items) => items.iter().map(value_words).collect::<Vec<_>>().join(", "),
        Value::Object(o) => match o.get("do") {
            Some(what) => std::iter::once(value_words(what))
                .chain(
                    o.iter()
                        .filter(|(k, _)| k.as_str() != "do")
                        .map(|(k, v)| format!("{} {}", words(k), value_words(v))),
                )
                .collect::<Vec<_>>()
                .join(" "),
            None => o.iter().map(|(k, v)| format!("{} {}", value_words(v), words(k))).collect::<Vec<_>>().join(", "),
        },
        Value::Bool(b) => if *b { "yes" } else { "no" }.to_owned(),
        other => other.to_string(),
    }
}

/// An id as a printed title (`wish_for_children` → `Wish for Children`): capitalised words,
/// the small words of titles in lower case; for ids whose printed name is the id.
pub fn title(id: &str) -> String {
    const SMALL: [&str; 7] = ["a", "an", "and", "for", "of", "on", "the"];
    words(id)
        .split(' ')
        .enumerate()
        .map(|(i, w)| match w.chars().next() {
            Some(first) if i == 0 || !SMALL.contains(&w) => first.to_uppercase().chain(w.chars().skip(1)).collect(),
            _ => w.to_owned(),
        })
        .collect::<Vec<String>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An entry of a game without sentences of its own is said in words, by player name.
    #[test]
    fn an_entry_without_a_sentence_is_said_in_words() {
        let names = ["Ada".to_owned(), "Bo".to_owned()];
        assert_eq!(entry_words(r#"{"type":"sale","player":1,"customer":"c09"}"#, &names), "Bo: sale — customer c09.");
        assert_eq!(entry_words(r#"{"player":0,"steps":2}"#, &names), "Ada: entry — steps 2.");
        assert_eq!(entry_words("[1]", &names), "An entry that is not a JSON object.");
    }

    /// One of a count is said in the singular, by the last word of its plural label.
    #[test]
    fn one_of_a_count_is_said_in_the_singular() {
        let one = |label: &str| Count::new("x", label, 1).text();
        assert_eq!(
            [one("coins"), one("rubies"), one("green cubes"), one("wood"), one("sheep"), one("time spent")],
            ["1 coin", "1 ruby", "1 green cube", "1 wood", "1 sheep", "1 time spent"]
        );
        assert_eq!(Count::new("x", "coins", 2).text(), "2 coins");
        assert_eq!(Count::new("x", "begging markers", -1).text(), "-1 begging marker");
    }

    /// Counts as text leave out zeros and say "none" when nothing is left.
    #[test]
    fn counts_as_text_leave_out_zeros() {
        let c = [Count::new("wood", "wood", 3), Count::new("ore", "ore", 0), Count::new("ruby", "rubies", 1)];
        assert_eq!(counts_text(&c), "3 wood, 1 ruby");
        assert_eq!(counts_text(&c[1..2]), "none");
        assert_eq!(list_text::<&str>(&[]), "—");
        assert_eq!(words("weaving_parlor"), "weaving parlor");
        assert_eq!(title("wish_for_children"), "Wish for Children");
        assert_eq!(title("ore_mine_construction"), "Ore Mine Construction");
    }
}
