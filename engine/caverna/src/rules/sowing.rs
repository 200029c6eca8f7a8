//! Sowing: up to 2 grain and 2 vegetable fields (`docs/rules/caverna-reference.md` B.4).

use crate::board::{Crop, Tile};
use crate::error::{ensure, ErrorCode, RuleResult};
use crate::game::Player;
use crate::goods::Good;
use crate::notation::RawCoord;
use crate::rules::tiles::coord;

pub fn sow(p: &mut Player, grain: &[RawCoord], vegetable: &[RawCoord]) -> RuleResult {
    ensure(!grain.is_empty() || !vegetable.is_empty(), ErrorCode::SowInvalid, || {
        "a sow action sows at least one field".into()
    })?;
    ensure(grain.len() <= 2 && vegetable.len() <= 2, ErrorCode::SowInvalid, || {
        "sow at most 2 grain and 2 vegetable fields".into()
    })?;
    let mut seen = Vec::new();
    for (crop, good, cells, total) in
        [(Crop::Grain, Good::Grain, grain, 3u8), (Crop::Vegetable, Good::Vegetable, vegetable, 2u8)]
    {
        ensure(p.supply.get(good) as usize >= cells.len(), ErrorCode::SowInvalid, || {
            format!("sowing {} {} fields needs {} {} in your supply", cells.len(), good.id(), cells.len(), good.id())
        })?;
        for &raw in cells {
            let c = coord(raw, true)?;
            ensure(!seen.contains(&c), ErrorCode::SowInvalid, || format!("{raw} is sown twice"))?;
            seen.push(c);
            ensure(p.board.tile(c) == Some(Tile::Field { crop: None }), ErrorCode::SowInvalid, || {
                format!("{raw} is not an empty field")
            })?;
        }
        for &raw in cells {
            let c = coord(raw, true)?;
            p.supply.set(good, p.supply.get(good) - 1);
            p.board.set_tile(c, Tile::Field { crop: Some((crop, total)) });
        }
    }
    Ok(())
}
