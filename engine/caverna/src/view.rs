//! A position as JSON (`chronicle state`, documented in `docs/state.md`) and as the typed view
//! pages draw ([`board_view`]: printed names, coordinates as printed on the board).

use chronicle_game::view::{
    list_text, title, words, Area, Cell, Count, Grid, GridRow, Line, Panel, ScoreNow, Table, TableRow,
};
use chronicle_game::BoardView;
use serde_json::{json, Map, Value};

use crate::board::{Coord, Crop, Tile, COLS, ROWS};
use crate::game::{Game, Phase, Player};
use crate::goods::Good;

/// The state as JSON: round, phase, spaces and every player's supply, dwarfs and board.
pub fn state_json(game: &Game) -> Value {
    let mut spaces = Map::new();
    for (space, state) in game.spaces() {
        spaces.insert(
            space.id().to_owned(),
            json!({ "goods": state.goods, "occupant": state.occupant().map(|(p, _)| p) }),
        );
    }
    json!({
        "round": game.round(),
        "phase": game.phase().id(),
        "harvest": game.harvest(),
        "starting_player": game.starting_player(),
        "to_move": game.to_move(),
        "spaces": spaces,
        "players": game.players().iter().map(player_json).collect::<Vec<_>>(),
    })
}

fn coord(c: Coord) -> Value {
    json!([c.row, c.col])
}

fn player_json(p: &Player) -> Value {
    let mut obj = Map::new();
    obj.insert("name".into(), json!(&*p.name));
    for g in Good::ALL {
        obj.insert(g.id().into(), json!(p.supply.get(g)));
    }
    obj.insert("begging".into(), json!(p.begging));
    // The score pad if the game were scored now (docs/rules/caverna-reference.md G.1): final only once the game is
    // over.
    obj.insert("provisional_score".into(), json!(crate::scoring::score(p)));
    obj.insert(
        "dwarfs".into(),
        p.dwarfs
            .iter()
            .map(|d| json!({ "weapon": d.weapon, "space": d.space.map(|s| s.id()), "newborn": d.newborn }))
            .collect(),
    );
    obj.insert("board".into(), board_json(p));
    obj.insert(
        "furnishings".into(),
        p.board.furnishings().map(|(c, t)| json!({ "tile": t.id(), "at": coord(c) })).collect(),
    );
    Value::Object(obj)
}

/// Every covered space: `{"at": [r, c], "tile": id | null, "stable": bool}` plus `crop` on a
/// sown field, `furnishing` on a furnished space, `partner` on a large-pasture half.
fn board_json(p: &Player) -> Value {
    let cells: Vec<Value> = Coord::all()
        .filter_map(|c| {
            let space = p.board.space(c);
            if space.tile.is_none() && !space.stable {
                return None;
            }
            let mut cell = Map::new();
            cell.insert("at".into(), coord(c));
            cell.insert("tile".into(), json!(space.tile.map(Tile::id)));
            cell.insert("stable".into(), json!(space.stable));
            match space.tile {
                Some(Tile::Field { crop: Some((crop, n)) }) => {
                    let name = match crop {
                        Crop::Grain => "grain",
                        Crop::Vegetable => "vegetable",
                    };
                    cell.insert("crop".into(), json!({ name: n }));
                }
                Some(Tile::Furnished { tile, .. }) => {
                    cell.insert("furnishing".into(), json!(tile.id()));
                }
                Some(Tile::LargePasture { partner }) => {
                    cell.insert("partner".into(), coord(partner));
                }
                _ => {}
            }
            Some(Value::Object(cell))
        })
        .collect();
    json!({ "cells": cells })
}

/// The phase in words, as players name it.
fn phase_words(phase: &Phase) -> &'static str {
    match phase {
        Phase::Keep => "replenishing (keeping goods)",
        Phase::Work { .. } => "work phase",
        Phase::HarvestChoice => "harvest: choosing field or breeding",
        Phase::Feeding { .. } => "harvest: feeding",
        Phase::Breeding { .. } => "harvest: breeding",
        Phase::BeforeScoring => "before final scoring",
        Phase::Over => "game over",
    }
}

/// A column's printed label (A–F on the board; the Office room's ring beyond).
fn column_label(col: i8) -> String {
    match u8::try_from(col) {
        Ok(c @ 0..=5) => char::from(b'A' + c).to_string(),
        _ if col < 0 => "◂".to_owned(),
        _ => "▸".to_owned(),
    }
}

/// A row's printed label (1–4 from the top; the ring beyond).
fn row_label(row: i8) -> String {
    match row {
        0..=3 => (row + 1).to_string(),
        _ if row < 0 => "▴".to_owned(),
        _ => "▾".to_owned(),
    }
}

/// A space's name in the text: `C2` on the board; a ring space by the board space it lies
/// beside (`left of A2`).
pub fn cell_name(c: Coord) -> String {
    let inner = |r: i8, k: i8| format!("{}{}", column_label(k.clamp(0, 5)), row_label(r.clamp(0, 3)));
    match (c.row, c.col) {
        (0..=3, 0..=5) => inner(c.row, c.col),
        (r, k) if k < 0 => format!("left of {}", inner(r, k)),
        (r, k) if k > 5 => format!("right of {}", inner(r, k)),
        (r, k) if r < 0 => format!("above {}", inner(r, k)),
        (r, k) => format!("below {}", inner(r, k)),
    }
}

/// What a cell shows: its class and its marks in words.
fn cell(p: &Player, c: Coord) -> Cell {
    let space = p.board.space(c);
    let mut marks = Vec::new();
    let kind = match space.tile {
        None if c.is_forest() => "forest".to_owned(),
        None => "mountain".to_owned(),
        Some(Tile::Furnished { tile, .. }) => {
            marks.push(tile.printed_name());
            "furnished".to_owned()
        }
        Some(t) => {
            marks.push(title(t.id()));
            t.id().replace('_', "-")
        }
    };
    if let Some(Tile::Field { crop: Some((crop, n)) }) = space.tile {
        marks.push(format!("{n} {}", if matches!(crop, Crop::Grain) { "grain" } else { "vegetables" }));
    }
    if space.stable {
        marks.push("stable".to_owned());
    }
    Cell { at: cell_name(c), kind, outside: !c.is_inner(), marks }
}

/// A player's home board with printed coordinates; the ring rows and columns only when a tile
/// reaches them (the Office room), so a usual board reads A–F × 1–4.
fn home_board(p: &Player) -> Grid {
    let used = |c: Coord| !c.is_inner() && (p.board.space(c).tile.is_some() || p.board.space(c).stable);
    let ring = Coord::all().any(used);
    let keep = |r: i8, k: i8| ring || ((0..=3).contains(&r) && (0..=5).contains(&k));
    let columns: Vec<i8> = COLS.filter(|&k| keep(0, k)).collect();
    Grid {
        title: "Home board".to_owned(),
        columns: columns.iter().map(|&k| column_label(k)).collect(),
        rows: ROWS
            .filter(|&r| keep(r, 0))
            .map(|r| GridRow {
                label: row_label(r),
                cells: columns.iter().map(|&k| cell(p, Coord::at(r, k))).collect(),
            })
            .collect(),
    }
}

/// A dwarf in words: its weapon, where it stands, whether it is newborn.
fn dwarf_words(d: &crate::game::Dwarf) -> String {
    let mut text = match d.weapon {
        Some(w) => format!("weapon {w}"),
        None => "unarmed".to_owned(),
    };
    if let Some(s) = d.space {
        text.push_str(&format!(" on {}", title(s.id())));
    }
    if d.newborn {
        text.push_str(" (newborn)");
    }
    text
}

/// A good's name for a count of it, as the rulebook says it (`2 rubies`, `3 wild boar`).
pub(crate) fn plural(g: Good) -> String {
    match g.id() {
        "ruby" => "rubies".to_owned(),
        "vegetable" => "vegetables".to_owned(),
        "donkey" => "donkeys".to_owned(),
        "dog" => "dogs".to_owned(),
        "boar" => "wild boar".to_owned(),
        id => words(id),
    }
}

/// One player's panel: supply, home board, dwarfs, furnishings, and the score if the game
/// ended now.
fn panel(seat: usize, p: &Player) -> Panel {
    let mut counts: Vec<Count> =
        Good::ALL.iter().map(|g| Count::new(g.id(), plural(*g), i64::from(p.supply.get(*g)))).collect();
    counts.push(Count::new("begging", "begging markers", i64::from(p.begging)));
    let dwarfs: Vec<String> = p.dwarfs.iter().map(dwarf_words).collect();
    let furnishings: Vec<String> =
        p.board.furnishings().map(|(c, t)| format!("{} ({})", t.printed_name(), cell_name(c))).collect();
    let s = crate::scoring::score(p).score();
    Panel {
        seat: Some(seat),
        name: p.name.to_string(),
        aside: None,
        counts,
        lines: vec![Line::new("Dwarfs", list_text(&dwarfs)), Line::new("Furnishings", list_text(&furnishings))],
        grid: Some(home_board(p)),
        score: Some(ScoreNow { rows: s.rows.into_iter().map(|r| (r.id, r.points)).collect(), total: s.total }),
    }
}

/// The action spaces on the table: goods on each and who stands there.
fn action_spaces(game: &Game) -> Area {
    let name = |p: usize| game.players().get(p).map_or_else(String::new, |pl| pl.name.to_string());
    let rows = game
        .spaces()
        .iter()
        .map(|(space, s)| {
            let goods: Vec<String> =
                s.goods.iter().filter(|(_, n)| *n > 0).map(|(g, n)| format!("{n} {}", words(g.id()))).collect();
            TableRow {
                id: space.id().to_owned(),
                cells: vec![
                    title(space.id()),
                    goods.join(", "),
                    s.occupant().map(|(p, _)| name(p)).unwrap_or_default(),
                ],
            }
        })
        .collect();
    Area {
        id: "action_spaces".to_owned(),
        title: "Action spaces".to_owned(),
        table: Some(Table { headers: vec!["Space".into(), "Goods on it".into(), "Occupied by".into()], rows }),
        lines: Vec::new(),
    }
}

/// The position as pages draw it (the typed view contract, `chronicle_game::view`).
pub fn board_view(game: &Game) -> BoardView {
    BoardView {
        round: u16::from(game.round()),
        phase: phase_words(game.phase()).to_owned(),
        to_move: game.to_move(),
        waiting_for: None,
        notes: Vec::new(),
        areas: vec![action_spaces(game)],
        players: game.players().iter().enumerate().map(|(seat, p)| panel(seat, p)).collect(),
        others: Vec::new(),
    }
}
