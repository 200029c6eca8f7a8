//! Mass (`docs/rules/village.md` E.1, F.5, G.12, H.18, H.19, H.22): buys, random draws from the black bag,
//! promotions along the church track and the majority's 2 PP.

use crate::error::{fail, ErrorCode, RuleResult};
use crate::game::{BagItem, Game, Loc};
use crate::notation::{DrawItem, MassBuy, Promotion, Who};

/// Items a mass draws (E.1).
pub const DRAWS: usize = 4;

/// What a `mass` entry decides; the seeded default has no buys and no promotions.
#[derive(Clone, Debug, Default)]
pub struct MassChoice<'a> {
    pub buy: &'a [MassBuy],
    pub draw: Option<&'a [DrawItem]>,
    pub promote: &'a [Promotion],
}

fn item_of(d: &DrawItem) -> BagItem {
    match d {
        DrawItem::Monk(_) => BagItem::Monk,
        DrawItem::Member { player, gen } => BagItem::Member(*player, *gen),
    }
}

fn draw_item(i: BagItem) -> DrawItem {
    match i {
        BagItem::Monk => DrawItem::Monk(crate::notation::MonkTag::Monk),
        BagItem::Member(player, gen) => DrawItem::Member { player, gen },
    }
}

/// Whether any player could buy or promote at this mass (a seeded log stops before such a
/// mass at its end, LOG-FORMAT `mass`).
pub fn has_choice(game: &Game) -> bool {
    game.players.iter().any(|pl| {
        let buy = pl.coins_available() > 0 && pl.any_at(Loc::Bag);
        let promote = pl.grain > 0 && pl.members.iter().any(|m| matches!(m.loc, Loc::Church(s) if s < 4));
        buy || promote
    })
}

/// Holds the mass.
pub fn mass(game: &mut Game, choice: &MassChoice<'_>) -> RuleResult {
    let n = game.player_count();
    // 1. Buys, clockwise from the first player, 4 at most (H.19).
    let mut bought = 0usize;
    for (i, b) in choice.buy.iter().enumerate() {
        if b.player >= n {
            return fail(ErrorCode::MassBuy, format!("a buy's {}", game.no_seat("player", b.player)));
        }
        if choice.buy[..i].iter().any(|o| o.player == b.player) {
            return fail(
                ErrorCode::MassBuy,
                format!("{} buys once per mass (RULES.md H.19)", game.seat_name(b.player)),
            );
        }
    }
    for k in 0..n {
        let p = (game.first + k) % n;
        let Some(b) = choice.buy.iter().find(|b| b.player == p) else { continue };
        for &gen in &b.gens {
            if bought >= DRAWS {
                return fail(ErrorCode::MassBuy, "at most 4 members are bought per mass (RULES.md E.1)");
            }
            if game.players[p].coins_available() == 0 {
                return fail(
                    ErrorCode::MassBuy,
                    format!("{} has no coin to buy a member (RULES.md G.12.2)", game.seat_name(p)),
                );
            }
            if !game.players[p].relocate(gen, Loc::Bag, Loc::Church(1)) {
                return fail(
                    ErrorCode::MassBuy,
                    format!("{} has no generation-{gen} member in the bag", game.seat_name(p)),
                );
            }
            super::payment::pay_coins(game, p, 1);
            bought += 1;
        }
    }
    // 2. Random draws (R.5).
    let due = DRAWS - bought;
    let mut bag = game.black_bag();
    let drawn: Vec<BagItem> = match &mut game.rng {
        Some(rng) => {
            let derived: Vec<BagItem> = (0..due).filter_map(|_| rng.pick(&mut bag)).collect();
            if let Some(w) = choice.draw {
                if w.iter().map(item_of).collect::<Vec<_>>() != derived {
                    let shown: Vec<DrawItem> = derived.iter().map(|&i| draw_item(i)).collect();
                    let shown = serde_json::to_string(&shown).unwrap_or_default();
                    return fail(ErrorCode::SeedMismatch, format!("the seed draws {shown} (RULES.md G.14.1)"));
                }
            }
            derived
        }
        None => {
            let w = choice.draw.unwrap_or(&[]);
            let available = bag.len();
            if w.len() != due.min(available) {
                return fail(ErrorCode::DrawCount, format!("{} items drawn; {due} are due (RULES.md G.12.3)", w.len()));
            }
            w.iter().map(item_of).collect()
        }
    };
    let mut monks_out = 0;
    let mut back = Vec::new();
    for item in drawn {
        match item {
            BagItem::Monk => {
                if game.monks == 0 {
                    return fail(ErrorCode::DrawNotInBag, "no monk is left in the bag (RULES.md G.12.3)");
                }
                game.monks -= 1;
                monks_out += 1;
            }
            BagItem::Member(Who::Seat(p), gen) => {
                if p >= n {
                    return fail(ErrorCode::DrawNotInBag, format!("a draw's {}", game.no_seat("player", p)));
                }
                if !game.players[p].relocate(gen, Loc::Bag, Loc::Church(1)) {
                    return fail(
                        ErrorCode::DrawNotInBag,
                        format!("no generation-{gen} member of {} is in the bag (RULES.md G.12.3)", game.seat_name(p)),
                    );
                }
            }
            BagItem::Member(Who::Carla, gen) => {
                let Some(carla) = &mut game.carla else {
                    return fail(ErrorCode::DrawNotInBag, "Carla plays only in solo games");
                };
                let Some(m) = carla.members.iter_mut().find(|m| m.gen == gen && m.loc == Loc::Bag) else {
                    return fail(ErrorCode::DrawNotInBag, format!("no generation-{gen} member of Carla is in the bag"));
                };
                // F.5: one Carla member per stage; a fifth goes back into the bag (H.22).
                m.loc = Loc::Removed;
                let free = (1..=4).find(|&s| !carla.members.iter().any(|o| o.loc == Loc::Church(s)));
                match free {
                    Some(s) => {
                        if let Some(m) = carla.members.iter_mut().find(|m| m.gen == gen && m.loc == Loc::Removed) {
                            m.loc = Loc::Church(s);
                        }
                    }
                    None => back.push(gen),
                }
            }
        }
    }
    game.monks += monks_out;
    if let Some(carla) = &mut game.carla {
        for gen in back {
            if let Some(m) = carla.members.iter_mut().find(|m| m.gen == gen && m.loc == Loc::Removed) {
                m.loc = Loc::Bag;
            }
        }
    }
    // 3. Promotions, once per player (G.12.4).
    for (i, pr) in choice.promote.iter().enumerate() {
        if pr.player >= n {
            return fail(ErrorCode::PromoteInvalid, format!("a promotion's {}", game.no_seat("player", pr.player)));
        }
        if choice.promote[..i].iter().any(|o| o.player == pr.player) {
            return fail(
                ErrorCode::PromoteInvalid,
                format!("{} promotes once per mass (RULES.md E.1)", game.seat_name(pr.player)),
            );
        }
        for mv in &pr.moves {
            promote(game, pr.player, mv.gen, mv.from, mv.to)?;
        }
    }
    majority(game);
    Ok(())
}

/// Moves one member forward on the church track, paying each stage's grain (A.7, H.6).
fn promote(game: &mut Game, p: usize, gen: u8, from: u8, to: u8) -> RuleResult {
    if !(1..=4).contains(&from) || !(1..=4).contains(&to) || to <= from {
        return fail(
            ErrorCode::PromoteInvalid,
            format!("a move from stage {from} to {to}: forward only, stages 1–4 (RULES.md G.12.4)"),
        );
    }
    if game.players[p].count_at(gen, Loc::Church(from)) == 0 {
        return fail(
            ErrorCode::PromoteInvalid,
            format!("{} has no generation-{gen} member on church stage {from}", game.seat_name(p)),
        );
    }
    let mut grain = 0;
    for s in from + 1..=to {
        grain += game.components().church_grain(s)?;
    }
    if game.players[p].grain < grain {
        return fail(
            ErrorCode::CannotPay,
            format!("{} lacks {} grain for the move (RULES.md A.7)", game.seat_name(p), grain - game.players[p].grain),
        );
    }
    game.players[p].grain -= grain;
    game.players[p].relocate(gen, Loc::Church(from), Loc::Church(to));
    Ok(())
}

/// Step 3 (E.1, F.5, H.18): most members on the track, tie broken by the single highest
/// member; every player still tied gains 2 PP; Carla never does.
pub fn majority(game: &mut Game) {
    // The count and the highest stage in one pass, without collecting the stages.
    let on_track = |members: &[crate::game::Member]| -> (usize, u8) {
        members.iter().fold((0, 0), |(n, top), m| match m.loc {
            Loc::Church(s) => (n + 1, top.max(s)),
            _ => (n, top),
        })
    };
    let mut rivals: Vec<(Who, (usize, u8))> =
        game.players.iter().enumerate().map(|(p, pl)| (Who::Seat(p), on_track(&pl.members))).collect();
    if let Some(c) = &game.carla {
        rivals.push((Who::Carla, on_track(&c.members)));
    }
    let most = rivals.iter().map(|r| r.1 .0).max().unwrap_or(0);
    if most == 0 {
        return;
    }
    let highest = rivals.iter().filter(|r| r.1 .0 == most).map(|r| r.1 .1).max().unwrap_or(0);
    for (who, (count, top)) in rivals {
        if let Who::Seat(p) = who {
            if count == most && top == highest {
                game.players[p].track.mass += 2;
            }
        }
    }
}
