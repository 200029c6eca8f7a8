//! Player ratings: the Weng-Lin Bayesian approximation (Bradley-Terry, full pairing; the
//! OpenSkill family) from the `skillratings` crate, every game a free-for-all of its seats
//! ranked by final score (ties share a rank).
//!
//! Why Weng-Lin: it rates multiplayer free-for-alls directly (one update per game, every pair
//! of players compared), keeps an uncertainty per player so new players move fast and
//! established ones slowly, and is several times cheaper than TrueSkill's message passing with
//! similar accuracy; its licence and the crate's lack of dependencies keep the build lean.
//!
//! Games are rated in the order they were played: by `played_at` (text in RFC 3339 form, so
//! text order is time order for timestamps in one offset), games without a date after all
//! dated ones, and the store's id breaking ties. [`Ratings::add`] rates a game arriving in that
//! order incrementally; one that would have to go earlier is refused, and the caller recomputes
//! ([`Ratings::compute`]) — ratings then stay exactly what a recomputation gives.
//!
//! A player is an identity key chosen by the caller (the service: a normalised name within its
//! uploader's scope). Each rated seat keeps the rating *before* its game, which is what a
//! statistic may control for: a rating after the game already contains its result.

use std::collections::HashMap;

use skillratings::weng_lin::{weng_lin_multi_team, WengLinConfig, WengLinRating};
use skillratings::MultiTeamOutcome;

/// A rating: the skill estimate `mu` and its uncertainty `sigma` (Weng-Lin's scale: a new
/// player is 25 ± 8.33).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rating {
    pub mu: f64,
    pub sigma: f64,
}

impl Rating {
    /// A new player's rating.
    pub const NEW: Rating = Rating { mu: 25.0, sigma: 25.0 / 3.0 };

    /// `mu − 3·sigma`: the rating the player is very likely above; what tables sort by.
    pub fn conservative(&self) -> f64 {
        self.mu - 3.0 * self.sigma
    }
}

/// One seat of a game to rate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RatedSeat {
    pub player: String,
    /// 1 + the number of players with a higher score.
    pub rank: u8,
}

/// A complete, legal game to rate: its seats in seat order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RatedGame {
    pub game_id: i64,
    pub played_at: Option<String>,
    pub seats: Vec<RatedSeat>,
}

/// Where a game stands in rating order (see the module docs).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Order {
    undated: bool,
    played_at: String,
    game_id: i64,
}

impl RatedGame {
    pub fn order(&self) -> Order {
        Order {
            undated: self.played_at.is_none(),
            played_at: self.played_at.clone().unwrap_or_default(),
            game_id: self.game_id,
        }
    }
}

/// A player's current rating and how many rated games it rests on.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PlayerRating {
    pub rating: Rating,
    pub games: u32,
}

/// One rated game of a player: the rating before and after it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HistoryPoint {
    pub game_id: i64,
    /// The game's place among the rated games, from 0 in rating order (what a stored
    /// history is sorted by).
    pub order: u32,
    pub seat: u8,
    pub before: Rating,
    pub after: Rating,
}

/// A game offered out of rating order: recompute instead.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OutOfOrder {
    pub game_id: i64,
}

/// Every player's rating after the games rated so far, and each seat's rating before its game.
#[derive(Clone, Debug, Default)]
pub struct Ratings {
    players: HashMap<String, PlayerRating>,
    history: HashMap<String, Vec<HistoryPoint>>,
    before: HashMap<(i64, u8), Rating>,
    last: Option<Order>,
    /// Games rated so far.
    rated: u32,
}

fn config() -> WengLinConfig {
    WengLinConfig::new()
}

impl Ratings {
    /// The ratings after `games`, rated in order (sorted here).
    pub fn compute(mut games: Vec<RatedGame>) -> Ratings {
        games.sort_by_cached_key(RatedGame::order);
        let mut r = Ratings::default();
        for g in &games {
            r.rate(g);
        }
        r
    }

    /// Rates one more game, if it comes after every game rated so far.
    pub fn add(&mut self, game: &RatedGame) -> Result<(), OutOfOrder> {
        if self.last.as_ref().is_some_and(|last| game.order() <= *last) {
            return Err(OutOfOrder { game_id: game.game_id });
        }
        self.rate(game);
        Ok(())
    }

    fn rate(&mut self, game: &RatedGame) {
        self.last = Some(game.order());
        // A game of one seat (solo) or with a seat listed twice says nothing about skill.
        let distinct = game.seats.iter().enumerate().all(|(i, s)| game.seats[..i].iter().all(|o| o.player != s.player));
        if game.seats.len() < 2 || !distinct {
            return;
        }
        let current: Vec<[WengLinRating; 1]> = game
            .seats
            .iter()
            .map(|s| {
                let r = self.players.get(&s.player).map_or(Rating::NEW, |p| p.rating);
                [WengLinRating { rating: r.mu, uncertainty: r.sigma }]
            })
            .collect();
        let teams: Vec<(&[WengLinRating], MultiTeamOutcome)> = current
            .iter()
            .zip(&game.seats)
            .map(|(t, s)| (&t[..], MultiTeamOutcome::new(usize::from(s.rank.max(1)))))
            .collect();
        let updated = weng_lin_multi_team(&teams, &config());
        let order = self.rated;
        self.rated = self.rated.saturating_add(1);
        for (seat, (s, new)) in game.seats.iter().zip(&updated).enumerate() {
            let before = Rating { mu: current[seat][0].rating, sigma: current[seat][0].uncertainty };
            let after = new.first().map_or(before, |n| Rating { mu: n.rating, sigma: n.uncertainty });
            let seat = seat as u8;
            self.before.insert((game.game_id, seat), before);
            let entry = self.players.entry(s.player.clone()).or_insert(PlayerRating { rating: Rating::NEW, games: 0 });
            entry.rating = after;
            entry.games += 1;
            self.history.entry(s.player.clone()).or_default().push(HistoryPoint {
                game_id: game.game_id,
                order,
                seat,
                before,
                after,
            });
        }
    }

    /// The rating a seat had before its game (`None`: not rated, e.g. solo).
    pub fn before(&self, game_id: i64, seat: u8) -> Option<Rating> {
        self.before.get(&(game_id, seat)).copied()
    }

    pub fn player(&self, key: &str) -> Option<PlayerRating> {
        self.players.get(key).copied()
    }

    /// A player's rated games in rating order.
    pub fn history(&self, key: &str) -> &[HistoryPoint] {
        self.history.get(key).map_or(&[], Vec::as_slice)
    }

    /// Every rated player, best conservative rating first (then by key).
    pub fn table(&self) -> Vec<(&str, PlayerRating)> {
        let mut t: Vec<(&str, PlayerRating)> = self.players.iter().map(|(k, v)| (k.as_str(), *v)).collect();
        t.sort_by(|a, b| b.1.rating.conservative().total_cmp(&a.1.rating.conservative()).then(a.0.cmp(b.0)));
        t
    }

    /// Every rated seat with its player's key, player by player (each in rating order): what
    /// the store keeps of a rating model (`stat_seat_ratings`).
    pub fn seats(&self) -> impl Iterator<Item = (&str, &HistoryPoint)> {
        self.history.iter().flat_map(|(key, points)| points.iter().map(move |p| (key.as_str(), p)))
    }

    pub fn rated_games(&self) -> usize {
        self.before.keys().map(|(g, _)| *g).collect::<std::collections::HashSet<_>>().len()
    }
}

/// A player's identity key: `id:<id>` when the log gives the player an id
/// (`setup.players[].id`), else `name:<name>` with the name trimmed, inner runs of white space
/// made one space and lower-cased, so that "Ana ", "ana" and "ANA" are one player. Merged
/// identities (`chronicle players merge`) map keys onto one another before rating.
pub fn player_key(id: Option<&str>, name: &str) -> String {
    match id.map(str::trim).filter(|id| !id.is_empty()) {
        Some(id) => format!("id:{id}"),
        None => format!("name:{}", normalised_name(name)),
    }
}

/// A name as identity keys compare it (see [`player_key`]).
pub fn normalised_name(name: &str) -> String {
    name.split_whitespace().map(str::to_lowercase).collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seat(player: &str, rank: u8) -> RatedSeat {
        RatedSeat { player: player.into(), rank }
    }

    fn game(id: i64, at: Option<&str>, seats: Vec<RatedSeat>) -> RatedGame {
        RatedGame { game_id: id, played_at: at.map(str::to_owned), seats }
    }

    /// The Weng-Lin update written out (Weng & Lin 2011, Algorithm 1, Bradley-Terry full pair;
    /// beta 25/6, kappa 10⁻⁶), to check the crate's multi-team update on free-for-alls.
    fn by_hand(players: &[(f64, f64)], ranks: &[usize]) -> Vec<(f64, f64)> {
        let beta2 = (25.0f64 / 6.0).powi(2);
        players
            .iter()
            .enumerate()
            .map(|(i, &(mu_i, s_i))| {
                let (mut omega, mut delta) = (0.0, 0.0);
                for (q, &(mu_q, s_q)) in players.iter().enumerate() {
                    if q == i {
                        continue;
                    }
                    let c = (s_i * s_i + s_q * s_q + 2.0 * beta2).sqrt();
                    let p_iq = 1.0 / (1.0 + ((mu_q - mu_i) / c).exp());
                    let s = match ranks[q].cmp(&ranks[i]) {
                        std::cmp::Ordering::Greater => 1.0,
                        std::cmp::Ordering::Equal => 0.5,
                        std::cmp::Ordering::Less => 0.0,
                    };
                    let gamma = s_i / c;
                    omega += s_i * s_i / c * (s - p_iq);
                    delta += gamma * s_i * s_i / (c * c) * p_iq * (1.0 - p_iq);
                }
                (mu_i + omega, (s_i * s_i * (1.0 - delta).max(0.000_001)).sqrt())
            })
            .collect()
    }

    /// A hand-worked series: Ana beats Bo (both new: the crate's own reference values for a
    /// new player beating a new player, 27.6352… ± 8.0655…), then Cy (new) wins a three-player
    /// game ahead of Bo and Ana, checked against the update written out.
    #[test]
    fn ratings_follow_the_crates_reference_values_over_a_series() {
        let games = [
            game(1, Some("2026-01-01T10:00:00Z"), vec![seat("ana", 1), seat("bo", 2)]),
            game(2, Some("2026-01-02T10:00:00Z"), vec![seat("ana", 3), seat("bo", 2), seat("cy", 1)]),
        ];
        let mut r = Ratings::default();
        r.add(&games[0]).unwrap();
        let ana = r.player("ana").unwrap().rating;
        assert!((ana.mu - 27.635_231_383_473_65).abs() < 1e-12 && (ana.sigma - 8.065_506_316_323_548).abs() < 1e-12);
        let bo = r.player("bo").unwrap().rating;
        assert!((bo.mu - 22.364_768_616_526_35).abs() < 1e-12);
        r.add(&games[1]).unwrap();
        let expected = by_hand(&[(ana.mu, ana.sigma), (bo.mu, bo.sigma), (25.0, 25.0 / 3.0)], &[3, 2, 1]);
        for (key, (mu, sigma)) in ["ana", "bo", "cy"].iter().zip(expected) {
            let got = r.player(key).unwrap().rating;
            assert!((got.mu - mu).abs() < 1e-9 && (got.sigma - sigma).abs() < 1e-9, "{key}: {got:?} vs {mu}, {sigma}");
        }
        assert_eq!(r.before(2, 0), Some(ana), "the rating before game 2 is the one after game 1");
        assert_eq!(r.player("cy").unwrap().games, 1);
        assert_eq!(r.history("ana").len(), 2);
        assert_eq!(r.table()[0].0, "cy");
    }

    /// Games are rated in played order whatever order they arrive in; an incremental add out of
    /// order is refused, and recomputing gives what adding in order gives.
    #[test]
    fn ratings_are_in_played_order_and_recomputable() {
        let a = game(7, Some("2026-02-01"), vec![seat("x", 1), seat("y", 2)]);
        let b = game(3, Some("2026-03-01"), vec![seat("y", 1), seat("x", 2)]);
        let undated = game(1, None, vec![seat("x", 1), seat("y", 1)]);
        let all = Ratings::compute(vec![undated.clone(), b.clone(), a.clone()]);
        let mut inc = Ratings::default();
        for g in [&a, &b, &undated] {
            inc.add(g).unwrap();
        }
        assert_eq!(all.player("x"), inc.player("x"));
        assert_eq!(inc.add(&a), Err(OutOfOrder { game_id: 7 }));
        // A solo game and a seat listed twice are not rated.
        let mut r = Ratings::default();
        r.add(&game(1, None, vec![seat("x", 1)])).unwrap();
        r.add(&game(2, None, vec![seat("x", 1), seat("x", 2)])).unwrap();
        assert_eq!(r.player("x"), None);
    }

    #[test]
    fn player_keys_are_the_logs_id_or_else_the_normalised_name() {
        assert_eq!(player_key(None, "  Ana  Maria "), "name:ana maria");
        assert_eq!(player_key(None, "ANA MARIA"), player_key(None, "ana maria"));
        assert_eq!(player_key(Some("bgg:anam"), "Ana"), "id:bgg:anam");
        assert_eq!(player_key(Some("bgg:anam"), "Ana"), player_key(Some("bgg:anam"), "Someone else"));
        assert_ne!(player_key(Some("x"), "Ana"), player_key(None, "Ana"));
        assert_eq!(player_key(Some("  "), "Ana"), player_key(None, "ana"), "a blank id is no id");
    }
}
