//! A JSON view of a game state (`chronicle state`, documented in `docs/state.md`).

use serde_json::{json, Map, Value};

use crate::board::{Coord, Crop, Tile};
use crate::game::{Game, Player};
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
