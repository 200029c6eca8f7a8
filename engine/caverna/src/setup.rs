//! Setup: the unvalidated `setup` of a log becomes a validated [`Setup`] (`docs/rules/caverna-reference.md` B.3,
//! B.7, B.8, C.1, C.4; `docs/log-format.md` "Setup").

use crate::action_space::RoundCard;
use crate::error::{fail, ErrorCode, RuleResult};
use crate::notation::{FurnishingSet, HarvestToken, SetupNotation};
use crate::shuffle::SplitMix64;

/// Name and version of the seed shuffle; part of the replay result's provenance.
pub const SHUFFLE_VERSION: &str = "chronicle-shuffle/1";

/// A validated setup: everything the game needs to start, with no randomness left.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    pub names: Vec<String>,
    /// Each seat's player id (`setup.players[].id`), when the log gives one.
    pub ids: Vec<Option<String>>,
    pub furnishings: FurnishingSet,
    /// One card per round, in reveal order.
    pub round_cards: Vec<RoundCard>,
    /// Harvest tokens for the token rounds ([`Setup::token_rounds`]); empty in solo.
    pub harvest_tokens: Vec<HarvestToken>,
    rounds: Vec<u8>,
    token_rounds: Vec<u8>,
}

impl Setup {
    pub fn players(&self) -> usize {
        self.names.len()
    }

    /// Printed round numbers played: 1–12, without 9 in 1–2 player games (`docs/rules/caverna-reference.md` H.16).
    pub fn rounds(&self) -> &[u8] {
        &self.rounds
    }

    /// The rounds whose harvest is decided by a token (`docs/rules/caverna-reference.md` C.4, B.7).
    pub fn token_rounds(&self) -> &[u8] {
        &self.token_rounds
    }

    /// The token lying on `round`, if any.
    pub fn token(&self, round: u8) -> Option<HarvestToken> {
        let i = self.token_rounds().iter().position(|&r| r == round)?;
        self.harvest_tokens.get(i).copied()
    }

    /// Starting food of the seat in turn order (`docs/rules/caverna-reference.md` C.1).
    pub fn starting_food(&self, seat: usize) -> u32 {
        match (self.players(), seat) {
            (1, _) => 2,
            (_, 0 | 1) => 1,
            (_, 2) => 2,
            _ => 3,
        }
    }
}

/// The rounds of a game with three or more players (`docs/rules/caverna-reference.md` B.3; 1–2 players skip round 9).
pub const ROUNDS: u8 = 12;

/// The first round a harvest token decides (`docs/rules/caverna-reference.md` B.4): tokens cover the rounds from here.
pub const FIRST_TOKEN_ROUND: u8 = 6;

pub(crate) fn rounds_for(players: usize) -> Vec<u8> {
    (1..=ROUNDS).filter(|&r| players > 2 || r != 9).collect()
}

pub(crate) fn token_rounds_for(players: usize) -> Vec<u8> {
    match players {
        1 => vec![],
        _ => rounds_for(players).into_iter().filter(|&r| r >= FIRST_TOKEN_ROUND).collect(),
    }
}

/// Validates a setup, deriving what is missing from the seed.
pub fn validate(n: &SetupNotation) -> RuleResult<Setup> {
    let players = n.players.len();
    if !(1..=7).contains(&players) {
        return fail(ErrorCode::PlayerCount, format!("{players} players; Caverna takes 1 to 7"));
    }
    let ids: Vec<Option<String>> = n.players.iter().map(|p| p.id.clone()).collect();
    if let Some((seat, id)) = ids
        .iter()
        .enumerate()
        .find_map(|(i, id)| id.as_ref().filter(|id| ids[..i].contains(&Some((*id).clone()))).map(|id| (i, id)))
    {
        return fail(ErrorCode::Malformed, format!("setup.players[{seat}]: id `{id}` is another seat's id"));
    }
    let mut rng = n.seed.map(SplitMix64::new);
    let derived_cards = rng.as_mut().map(|r| shuffled_cards(players, r));
    let derived_tokens = rng.as_mut().map(|r| shuffled_tokens(players, r));
    let round_cards = match (&n.round_cards, derived_cards) {
        (Some(cards), _) => {
            check_round_cards(players, cards)?;
            cards.clone()
        }
        (None, Some(cards)) => cards,
        (None, None) => return fail(ErrorCode::MissingSeed, "round_cards omitted and no seed to derive them"),
    };
    let harvest_tokens = match (&n.harvest_tokens, derived_tokens) {
        (Some(tokens), _) => {
            check_tokens(players, tokens)?;
            tokens.clone()
        }
        (None, _) if players == 1 => vec![],
        (None, Some(tokens)) => tokens,
        (None, None) => return fail(ErrorCode::MissingSeed, "harvest_tokens omitted and no seed to derive them"),
    };
    Ok(Setup {
        names: n.players.iter().map(|p| p.name.clone()).collect(),
        ids,
        furnishings: n.furnishings,
        round_cards,
        harvest_tokens,
        rounds: rounds_for(players),
        token_rounds: token_rounds_for(players),
    })
}

pub(crate) fn stage_cards(players: usize, stage: u8) -> Vec<RoundCard> {
    RoundCard::ALL
        .into_iter()
        .filter(|c| c.stage() == stage)
        .filter(|&c| !(players <= 2 && c == RoundCard::Exploration))
        .collect()
}

/// The stage layout: stage of each card position (`docs/rules/caverna-reference.md` B.3, B.7).
pub(crate) fn stage_layout(players: usize) -> Vec<u8> {
    let stage3 = if players <= 2 { 2 } else { 3 };
    let mut v = vec![1, 1, 1, 2, 2, 2];
    v.extend(std::iter::repeat_n(3, stage3));
    v.extend([4, 4, 4]);
    v
}

fn shuffled_cards(players: usize, rng: &mut SplitMix64) -> Vec<RoundCard> {
    let mut out = Vec::with_capacity(12);
    for stage in 1..=4 {
        let mut cards = stage_cards(players, stage);
        if stage == 2 {
            // Wish for children is always the round-4 card; only the other two shuffle.
            cards.retain(|&c| c != RoundCard::WishForChildren);
            rng.shuffle(&mut cards);
            out.push(RoundCard::WishForChildren);
        } else {
            rng.shuffle(&mut cards);
        }
        out.extend(cards);
    }
    if players == 1 {
        return RoundCard::SOLO_ORDER.to_vec();
    }
    out
}

fn shuffled_tokens(players: usize, rng: &mut SplitMix64) -> Vec<HarvestToken> {
    let greens = if players <= 2 { 3 } else { 4 };
    let mut tokens: Vec<HarvestToken> =
        std::iter::repeat_n(HarvestToken::Green, greens).chain(std::iter::repeat_n(HarvestToken::Red, 3)).collect();
    rng.shuffle(&mut tokens);
    tokens
}

fn check_round_cards(players: usize, cards: &[RoundCard]) -> RuleResult {
    if players == 1 {
        if cards != RoundCard::SOLO_ORDER {
            return fail(ErrorCode::RoundCards, "the solo game uses the fixed card order of RULES.md B.8");
        }
        return Ok(());
    }
    let layout = stage_layout(players);
    if cards.len() != layout.len() {
        return fail(
            ErrorCode::RoundCards,
            format!("{} round cards; {players} players use {}", cards.len(), layout.len()),
        );
    }
    for (i, (&card, &stage)) in cards.iter().zip(&layout).enumerate() {
        if card.stage() != stage || (players <= 2 && card == RoundCard::Exploration) {
            return fail(
                ErrorCode::RoundCards,
                format!("card {} ({}) is not a stage-{stage} card here", i + 1, card.id()),
            );
        }
        if cards[..i].contains(&card) {
            return fail(ErrorCode::RoundCards, format!("card {} appears twice", card.id()));
        }
    }
    if cards[3] != RoundCard::WishForChildren {
        return fail(ErrorCode::RoundCards, "wish_for_children must be the round-4 card");
    }
    Ok(())
}

/// Green and red harvest tokens of a game of 2 or more players (docs/rules/caverna-reference.md
/// B.4): 3 and 3 with 2 players (no round 9), 4 and 3 with more.
pub(crate) fn token_mix(players: usize) -> (usize, usize) {
    if players <= 2 {
        (3, 3)
    } else {
        (4, 3)
    }
}

fn check_tokens(players: usize, tokens: &[HarvestToken]) -> RuleResult {
    if players == 1 {
        if tokens.is_empty() {
            return Ok(());
        }
        return fail(ErrorCode::HarvestTokens, "the solo game has no harvest tokens");
    }
    let (greens, reds) = token_mix(players);
    let g = tokens.iter().filter(|&&t| t == HarvestToken::Green).count();
    let r = tokens.len() - g;
    if g != greens || r != reds {
        return fail(
            ErrorCode::HarvestTokens,
            format!("{g} green and {r} red tokens; {players} players use {greens} green and {reds} red"),
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::PlayerSeat;

    fn notation(players: usize, seed: Option<u64>) -> SetupNotation {
        SetupNotation {
            players: (0..players).map(|i| PlayerSeat { name: format!("P{i}"), id: None }).collect(),
            furnishings: FurnishingSet::Full,
            round_cards: None,
            harvest_tokens: None,
            seed,
        }
    }

    /// `docs/rules/caverna-reference.md` B.3 / B.7 / B.8: seeded setups respect the stage structure for every count.
    #[test]
    fn b3_seeded_setup_respects_stages_for_every_player_count() {
        for players in 1..=7 {
            for seed in 0..50 {
                let s = validate(&notation(players, Some(seed))).expect("valid");
                check_round_cards(players, &s.round_cards).expect("stages");
                check_tokens(players, &s.harvest_tokens).expect("tokens");
            }
        }
    }

    /// The `id` extension of `setup.players` (docs/log-format.md): kept per seat, optional,
    /// and unique within a game (two seats with one id are `malformed`).
    #[test]
    fn player_ids_are_kept_and_unique_within_a_game() {
        let mut n = notation(3, Some(1));
        n.players[0].id = Some("ana-7".into());
        n.players[2].id = Some("bo".into());
        let s = validate(&n).expect("valid");
        assert_eq!(s.ids, vec![Some("ana-7".to_owned()), None, Some("bo".to_owned())]);
        n.players[1].id = Some("bo".into());
        let e = validate(&n).expect_err("two seats share an id");
        assert_eq!(e.code, ErrorCode::Malformed);
        assert!(e.message.contains("setup.players[2]"), "{}", e.message);
    }

    #[test]
    fn seeded_setup_is_deterministic() {
        let a = validate(&notation(4, Some(7))).unwrap();
        let b = validate(&notation(4, Some(7))).unwrap();
        assert_eq!(a, b);
    }

    #[test]
    fn missing_seed_is_rejected() {
        let e = validate(&notation(3, None)).unwrap_err();
        assert_eq!(e.code, ErrorCode::MissingSeed);
        // docs/log-format.md: cards and tokens omitted without a seed is rejected, solo included.
        assert!(validate(&notation(1, None)).is_err());
    }

    /// `docs/rules/caverna-reference.md` C.1: starting food 1, 1, 2, 3, 3, 3, 3; solo 2.
    #[test]
    fn c1_starting_food() {
        let s = validate(&notation(7, Some(1))).unwrap();
        let food: Vec<u32> = (0..7).map(|i| s.starting_food(i)).collect();
        assert_eq!(food, vec![1, 1, 2, 3, 3, 3, 3]);
        let solo = validate(&notation(1, Some(1))).unwrap();
        assert_eq!(solo.starting_food(0), 2);
    }

    /// `docs/rules/caverna-reference.md` B.7 / H.16: two-player games skip round 9 and have 6 tokens.
    #[test]
    fn b7_two_players_skip_round_9() {
        let s = validate(&notation(2, Some(3))).unwrap();
        assert_eq!(s.rounds(), [1, 2, 3, 4, 5, 6, 7, 8, 10, 11, 12]);
        assert_eq!(s.token_rounds(), [6, 7, 8, 10, 11, 12]);
        assert_eq!(s.round_cards.len(), 11);
        assert!(!s.round_cards.contains(&RoundCard::Exploration));
    }

    #[test]
    fn b3_wrong_stage_is_rejected() {
        let mut n = notation(3, Some(1));
        let mut cards = validate(&n).unwrap().round_cards;
        cards.swap(0, 11);
        n.round_cards = Some(cards);
        assert_eq!(validate(&n).unwrap_err().code, ErrorCode::RoundCards);
    }
}
