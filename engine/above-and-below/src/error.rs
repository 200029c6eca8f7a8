//! Why a log is invalid: one enum of the stable error codes of `docs/rules/above-and-below.md` G.1 and
//! `docs/log-format-above-and-below.md` ("Error codes"), spelled exactly as the spec spells them, but for the
//! envelope's faults, which have the codes every game shares (`docs/errors.md`, "Envelope
//! codes, one set for every game").

chronicle_game::error_codes! {
    // --- the envelope: the codes every game shares (`chronicle_game::envelope::codes`) ---
    /// The log, or its list of entries, is over its bound.
    LogTooLarge = "log_too_large",
    /// The input is not JSON.
    MalformedJson = "malformed_json",
    /// Not an object; `setup`, `entries` or `meta` missing or of the wrong shape.
    Malformed = "malformed",
    /// `format` is missing or not `above-and-below-log/1`.
    BadFormat = "bad_format",
    /// A top-level member, or a member of `meta`, that the format does not define.
    EnvelopeUnknownField = "unknown_field",
    // --- this game's codes (`E_…`, as the spec spells them) ---
    /// A field of the setup, the catalogue or an entry of the wrong type or shape; `claimed`
    /// with the wrong number of scores.
    Format = "E_FORMAT",
    /// A field of the setup, the catalogue or an entry that this format does not define.
    UnknownField = "E_UNKNOWN_FIELD",
    /// An id that is not a goods, skill, trait, effect, bonus or outcome id of `docs/rules/above-and-below.md`.
    UnknownId = "E_UNKNOWN_ID",
    /// `seeded` without a seed or a complete catalogue; a seed in explicit mode.
    SetupRandom = "E_SETUP_RANDOM",
    /// Explicit mode: a random result the entry needs is absent.
    RandomMissing = "E_RANDOM_MISSING",
    /// A written random result differs from the seeded one.
    RandomMismatch = "E_RANDOM_MISMATCH",
    /// An entry type where the game does not allow it.
    Sequence = "E_SEQUENCE",
    /// C.1: not 2–4 players.
    SetupPlayers = "E_SETUP_PLAYERS",
    /// A.8: the board profile is incomplete or fails a sanity check.
    SetupBoard = "E_SETUP_BOARD",
    /// B.2–B.7: the catalogue is malformed, or an id used is not declared (fully enough).
    Catalogue = "E_CATALOGUE",
    /// C.5–C.7: the face-up rows at setup.
    SetupRows = "E_SETUP_ROWS",
    /// D.2.1: not this player's turn (or not a seat of the game).
    NotYourTurn = "E_NOT_YOUR_TURN",
    /// D.2.3: an action without a ready villager.
    MustPass = "E_MUST_PASS",
    /// D.2.4: a turn or pass by a player who passed this round.
    Passed = "E_PASSED",
    /// D.2.5: a villager that is not own and ready.
    VillagerNotReady = "E_VILLAGER_NOT_READY",
    /// D.2.5: a villager twice in one action.
    VillagerDuplicate = "E_VILLAGER_DUPLICATE",
    /// D.4.1, D.7.1: Harvest and Labor use at least one villager.
    ActionVillagers = "E_ACTION_VILLAGERS",
    /// D.4.2: more goods taken than villagers.
    HarvestCount = "E_HARVEST_COUNT",
    /// D.4.2: a goods token taken from a card that does not hold one.
    HarvestEmpty = "E_HARVEST_EMPTY",
    /// D.5.1, D.6.1: builder without a hammer, trainer without a quill.
    SkillRequired = "E_SKILL_REQUIRED",
    /// D.5.2: the card is not face up in a row.
    CardNotAvailable = "E_CARD_NOT_AVAILABLE",
    /// D.5.3: a payment that does not add up, cannot be paid, or uses cider/potions without the effect.
    Payment = "E_PAYMENT",
    /// D.5.4: an outpost without an own free cave.
    NoFreeCave = "E_NO_FREE_CAVE",
    /// D.6.2: an empty slot, or a recruit that is not the slot's villager.
    Slot = "E_SLOT",
    /// D.8.1: an illegal offer.
    Offer = "E_OFFER",
    /// D.8.2: an illegal purchase.
    Buy = "E_BUY",
    /// D.8.3: a second refresh in a turn.
    Refresh = "E_REFRESH",
    /// D.9: an illegal store.
    Store = "E_STORE",
    /// D.10: a Cave Cat's obedience die.
    CatRoll = "E_CAT_ROLL",
    /// G.1.1: an illegal draw.
    Draw = "E_DRAW",
    /// E.1: a party of fewer than 2.
    PartySize = "E_PARTY_SIZE",
    /// E.1, H.24: Explore with an empty cave deck.
    CaveDeckEmpty = "E_CAVE_DECK_EMPTY",
    /// E.2, E.4: a die outside 1–6.
    Die = "E_DIE",
    /// E.2, H.33: the paragraph does not match the cave or an earlier exploration.
    Paragraph = "E_PARAGRAPH",
    /// E.4: not exactly one lantern die per party villager.
    Rolls = "E_ROLLS",
    /// E.5: rerolls beyond the allowance or of a die that is not a party lantern die.
    Reroll = "E_REROLL",
    /// E.6: an effort by a villager not in the cave.
    Effort = "E_EFFORT",
    /// E.7: a bonus whose condition does not hold.
    Bonus = "E_BONUS",
    /// B.4: a custom credit for a card without a `custom` effect.
    Custom = "E_CUSTOM",
    /// E.8: `reached` above the computed total.
    Lanterns = "E_LANTERNS",
    /// E.8, H.33–H.34: thresholds malformed, inconsistent, or the wrong one reached.
    Threshold = "E_THRESHOLD",
    /// E.9–E.10: an outcome that is malformed or cannot be applied.
    Outcome = "E_OUTCOME",
    /// F.5: illegal rest choices.
    Rest = "E_REST",
    /// B.4, F.9: an illegal declaration.
    Declare = "E_DECLARE",
}

/// A broken rule: a code of this engine and a message for people (the shared machinery,
/// `chronicle_game::error`); the replay adds where it happened.
pub type RuleError = chronicle_game::error::RuleError<ErrorCode>;

/// What a rule returns.
pub type RuleResult<T = ()> = chronicle_game::error::RuleResult<T, ErrorCode>;

pub(crate) use chronicle_game::error::{ensure, fail};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_unique_and_spelled_like_the_spec_but_the_shared_envelope_codes() {
        let shared: Vec<&str> = chronicle_game::envelope::Code::ALL.iter().map(|c| c.as_str()).collect();
        let mut seen = std::collections::HashSet::new();
        for c in ErrorCode::ALL {
            assert!(seen.insert(c.as_str()), "duplicate {}", c.as_str());
            if shared.contains(&c.as_str()) {
                continue;
            }
            assert!(c.as_str().starts_with("E_"));
            assert!(c.as_str().chars().all(|ch| ch.is_ascii_uppercase() || ch == '_'));
        }
        for code in shared {
            assert!(ErrorCode::ALL.iter().any(|c| c.as_str() == code), "{code} is not a code of this engine");
        }
    }
}
