//! The round: reveal, replenish, work phase order, return home, and the harvest schedule
//! (`docs/rules/caverna-reference.md` C.2, C.4, B.7, B.8, H.5, H.16, H.17).

use crate::action_space::{ActionSpace, RoundCard, REPLENISHED, REPLENISHMENT};
use crate::error::{ensure, ErrorCode, RuleResult};
use crate::game::{Game, Harvest, PerPlayer, Phase};
use crate::notation::HarvestToken;
use crate::rules::{abilities, breeding, harvest};

/// Goods at which the solo replenish step clears a space (H.5).
pub const SOLO_CLEAR_AT: u64 = 6;

impl Game {
    /// Steps 1–2 of a round and the start of the work phase (C.2).
    pub(crate) fn start_round(&mut self) {
        for player in &mut self.players {
            player.dwarfs.grow_up();
            player.harvest_choice = None;
        }
        let card = self.setup.round_cards[self.round_index];
        self.reveal(card);
        self.harvest = self.schedule();
        if self.setup.players() == 1 && !self.solo_overflowing().is_empty() {
            self.phase = Phase::Keep;
            return;
        }
        self.replenish_and_work();
    }

    fn reveal(&mut self, card: RoundCard) {
        self.spaces.insert(card.space(), Default::default());
        if card == RoundCard::FamilyLife {
            if let Some(state) = self.spaces.remove(&ActionSpace::WishForChildren) {
                self.spaces.insert(ActionSpace::UrgentWishForChildren, state);
            }
        }
    }

    /// The harvest of the current round (C.4; solo B.8; red events in reveal order, H.17).
    fn schedule(&mut self) -> Harvest {
        let round = self.round();
        if self.setup.players() == 1 {
            return match round {
                1 | 2 => Harvest::None,
                4 => Harvest::OneFoodPerDwarf,
                _ => Harvest::Normal,
            };
        }
        match (round, self.setup.token(round)) {
            (1 | 2, _) => Harvest::None,
            (4, _) => Harvest::OneFoodPerDwarf,
            (_, Some(HarvestToken::Red)) => {
                self.reds_revealed += 1;
                match self.reds_revealed {
                    1 => Harvest::None,
                    2 => Harvest::OneFoodPerDwarf,
                    _ => Harvest::Choice,
                }
            }
            _ => Harvest::Normal,
        }
    }

    /// Accumulation spaces holding 6 or more goods at the solo replenish step (H.5).
    pub(crate) fn solo_overflowing(&self) -> Vec<ActionSpace> {
        self.spaces.iter().filter(|(_, s)| s.goods.total() >= SOLO_CLEAR_AT).map(|(&a, _)| a).collect()
    }

    /// A solo `keep` entry: 1 ruby per kept space; the other full spaces are cleared (H.5).
    pub(crate) fn keep(&mut self, p: usize, keep: &[ActionSpace]) -> RuleResult {
        let overflowing = self.solo_overflowing();
        for (i, s) in keep.iter().enumerate() {
            ensure(overflowing.contains(s), ErrorCode::KeepInvalid, || {
                format!("{} does not hold 6 or more goods", s.id())
            })?;
            ensure(!keep[..i].contains(s), ErrorCode::KeepInvalid, || format!("{} is kept twice", s.id()))?;
        }
        crate::rules::placement::pay(&mut self.players[p], crate::goods::Good::Ruby, keep.len() as u32)?;
        self.clear_overflowing(keep);
        Ok(())
    }

    pub(crate) fn clear_overflowing(&mut self, keep: &[ActionSpace]) {
        for s in self.solo_overflowing() {
            if !keep.contains(&s) {
                if let Some(state) = self.spaces.get_mut(&s) {
                    state.goods = Default::default();
                }
            }
        }
        self.replenish_and_work();
    }

    fn replenish_and_work(&mut self) {
        let players = self.setup.players();
        let round = self.round();
        self.spaces.for_each_among(REPLENISHED[players], |space, state| {
            let Some((if_empty, otherwise)) = &REPLENISHMENT[players][space as usize] else { return };
            if space == ActionSpace::RubyMining && players == 2 && round <= 2 {
                return;
            }
            state.goods.add_goods(if state.goods.is_empty() { if_empty } else { otherwise });
        });
        abilities::start_of_round(self);
        self.phase = Phase::Work { to_move: self.starting_player };
    }

    /// After a placement: the next player clockwise with a dwarf at home, or the end of the
    /// work phase (B.6).
    #[inline(always)]
    pub(crate) fn next_turn(&mut self, after: usize) {
        let n = self.players.len();
        // Clockwise by wrapping rather than by a remainder (this runs after every placement).
        let mut q = after;
        for _ in 0..n {
            q = if q + 1 >= n { 0 } else { q + 1 };
            if self.players[q].dwarfs.iter().any(|d| d.is_available()) {
                self.phase = Phase::Work { to_move: q };
                return;
            }
        }
        self.end_work_phase();
    }

    /// Return home, then the harvest (C.2 steps 4–5).
    fn end_work_phase(&mut self) {
        for player in &mut self.players {
            player.dwarfs.return_home();
        }
        self.spaces.clear_occupants();
        match self.harvest {
            Harvest::None => self.end_round(),
            Harvest::OneFoodPerDwarf => self.start_feeding(),
            Harvest::Normal => {
                for p in 0..self.players.len() {
                    harvest::field_phase(&mut self.players[p]);
                }
                self.start_feeding();
            }
            Harvest::Choice => self.phase = Phase::HarvestChoice,
        }
    }

    /// Once every player has chosen (C.4, third red event).
    pub(crate) fn after_harvest_choice(&mut self) {
        for player in &mut self.players {
            if player.harvest_choice == Some(crate::notation::HarvestPhase::Field) {
                harvest::field_phase(player);
            }
        }
        self.start_feeding();
    }

    fn start_feeding(&mut self) {
        let n = self.players.len();
        self.phase = Phase::Feeding { fed: PerPlayer::new(n), relief: PerPlayer::new(n) };
    }

    /// Pays the food due, then breeding (or the end of the round).
    pub(crate) fn resolve_feeding(&mut self) {
        let relief = match self.phase {
            Phase::Feeding { relief, .. } => relief,
            _ => PerPlayer::new(self.players.len()),
        };
        let one_food = self.harvest == Harvest::OneFoodPerDwarf;
        for (p, player) in self.players.iter_mut().enumerate() {
            harvest::pay_feeding(player, one_food, relief[p]);
        }
        match self.harvest {
            Harvest::Normal | Harvest::Choice => {
                self.phase = Phase::Breeding { done: PerPlayer::new(self.players.len()) };
            }
            _ => self.end_round(),
        }
    }

    /// Default breeding for everyone who gave no `breed` entry, then the end of the round.
    pub(crate) fn resolve_breeding(&mut self) {
        let done = match self.phase {
            Phase::Breeding { done } => done,
            _ => {
                let mut all = PerPlayer::new(self.players.len());
                all.fill(true);
                all
            }
        };
        for (p, &done) in done.iter().enumerate() {
            if !done && self.breeds(p) {
                breeding::default_breeding(self, p);
            }
        }
        self.end_round();
    }

    /// Whether player p's animals breed in this harvest.
    pub(crate) fn breeds(&self, p: usize) -> bool {
        match self.harvest {
            Harvest::Normal => true,
            Harvest::Choice => self.players[p].harvest_choice == Some(crate::notation::HarvestPhase::Breeding),
            _ => false,
        }
    }

    fn end_round(&mut self) {
        if self.is_last_round() {
            self.phase = Phase::BeforeScoring;
        } else {
            self.round_index += 1;
            self.start_round();
        }
    }
}
