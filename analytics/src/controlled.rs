//! A strategy's effect controlled for who plays it: a within-player comparison (player fixed
//! effects) with the opponents' strength, seat and player count held fixed, and standard errors
//! clustered by game.
//!
//! A raw comparison ("builders of tile T win 69%, others 31%") mostly measures who builds T:
//! strong players build the tiles strong players like. Controlling for a rating only helps so
//! much: a rating is a noisy estimate of skill, and a strategy that strong players choose
//! carries information about skill that the rating lacks, so a rating-adjusted estimate keeps
//! part of the skill effect (on this module's synthetic test, a tile with no effect built by
//! strong players still shows +4 points of win rate after adjusting for Weng-Lin ratings).
//! Comparing **each player with themselves** removes every lasting difference between players,
//! measured or not: the estimate is how much more often the same player wins in the games in
//! which they use the strategy than in the games in which they do not.
//!
//! Each player-game is a row with
//! - `player`: the player's identity (a dense index chosen by the caller);
//! - `treated`: the player used the strategy (built the tile, was armed…);
//! - `advantage`: the player's rating before the game minus the mean of the opponents' ratings
//!   before it (Weng-Lin `mu`, [`crate::ratings`]), in units of 25/6 (the model's `beta`), so
//!   that who the opponents were and how the player's own skill moved over time are held fixed;
//! - the seat (one indicator per seat after the first) and the player count (one indicator per
//!   count after the smallest present).
//!
//! Two linear models with player fixed effects (the within transformation: every column and
//! the outcome minus the player's own mean, then least squares), fitted by this module's own
//! dense algebra (no crate computes these cluster-robust errors):
//! - **winning**: the outcome is `won` (0 or 1), so the coefficient of `treated` is a change of
//!   the probability of winning (a linear probability model);
//! - **margin**: the outcome is the score margin (own score minus the mean of the opponents'),
//!   in points.
//!
//! Standard errors are cluster-robust by game (the sandwich `(X'X)⁻¹ M (X'X)⁻¹`, `M` the sum
//! over games of the outer products of each game's summed `x·residual`, with the factor
//! G/(G−1)·(N−1)/(N−K−P), "CR1" counting the absorbed player means): the seats of one game are
//! not independent (one of them wins).
//!
//! Limits: only players who sometimes use the strategy and sometimes do not inform the
//! estimate (`switchers`); players whose skill changes in step with their choice of strategy
//! (learning a tile as they improve) are held fixed only through their rating; strategies
//! chosen *because* of how a game goes (building a tile when it is cheap) are not separated from
//! their effect; the linear probability model's effect is an average over the rows, not a
//! per-player prediction.

/// One player-game (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Row {
    pub game_id: i64,
    pub player: u32,
    pub player_count: u8,
    pub seat: u8,
    pub treated: bool,
    pub advantage: f64,
    pub won: bool,
    pub margin: f64,
}

/// An estimate with its cluster-robust standard error and 95% interval.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Estimate {
    pub estimate: f64,
    pub std_error: f64,
    pub ci_low: f64,
    pub ci_high: f64,
}

impl Estimate {
    fn new(estimate: f64, std_error: f64) -> Estimate {
        let half = crate::rate::Z95 * std_error;
        Estimate { estimate, std_error, ci_low: estimate - half, ci_high: estimate + half }
    }
}

/// A strategy's controlled effects and what they rest on.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Effect {
    /// Player-games and games the models were fitted on (solo games excluded).
    pub player_games: u64,
    pub games: u64,
    pub treated: u64,
    /// Players who used the strategy in some of their games and not in others.
    pub switchers: u64,
    /// Games in which a switcher used the strategy: the games the estimate learns from.
    pub informing_games: u64,
    /// The support the estimates were held to.
    pub support: Support,
    /// Change of the probability of winning (a fraction, −1 to 1); `None` below the support
    /// ([`Effect::not_enough_data`]).
    pub win: Option<Estimate>,
    /// Change of the score margin, in points.
    pub margin: Option<Estimate>,
}

/// The least a controlled effect is shown from (docs/statistics.md "Support").
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Support {
    /// Fewest switchers: fewer players comparing themselves with themselves make an interval
    /// that says more about those few players than about the strategy.
    pub switchers: u64,
    /// Fewest games in which a switcher used the strategy: an interval is never drawn from one
    /// game or a handful (errors clustered by game need many games to be trusted).
    pub informing_games: u64,
}

impl Support {
    /// What every page and API answer uses.
    pub const DEFAULT: Support = Support { switchers: 20, informing_games: 30 };
    /// No minimum: for tests of the model itself on small populations.
    pub const NONE: Support = Support { switchers: 1, informing_games: 1 };
}

impl Effect {
    /// Why no controlled effect is given, for people (`"not enough data: 3 switchers (needs
    /// 20)"`), or `None` when the support is met (the estimate may still be missing if the
    /// model cannot be fitted: every switcher's choice moves with their seat, say).
    pub fn not_enough_data(&self) -> Option<String> {
        let need = self.support;
        let mut short = Vec::new();
        let counted = |n: u64, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
        if self.switchers < need.switchers {
            short.push(format!("{} (needs {})", counted(self.switchers, "switcher", "switchers"), need.switchers));
        }
        if self.informing_games < need.informing_games {
            let games = counted(self.informing_games, "game", "games");
            short.push(format!("{games} in which a switcher used it (needs {})", need.informing_games));
        }
        (!short.is_empty()).then(|| format!("not enough data: {}", short.join(", ")))
    }
}

/// The scale of `advantage`: Weng-Lin's beta.
pub const ADVANTAGE_UNIT: f64 = 25.0 / 6.0;

/// The columns of the controls (every column but `treated`; dense, as the within
/// transformation fills every entry).
struct Design {
    advantage: bool,
    seat_col: [Option<usize>; 8],
    count_col: [Option<usize>; 8],
    width: usize,
}

impl Design {
    fn of(rows: &[Row]) -> Design {
        // Without rating differences (every row 0) the advantage column would be all zeros.
        let advantage = rows.iter().any(|r| r.advantage != 0.0);
        let mut seats = [false; 8];
        let mut counts = [false; 8];
        for r in rows {
            seats[usize::from(r.seat.min(7))] = true;
            counts[usize::from(r.player_count.min(7))] = true;
        }
        // 0 advantage (when there is one); then indicators for every level present except the
        // first (the reference). No intercept: the player means absorb it.
        let mut width = usize::from(advantage);
        let mut indicators = |present: [bool; 8]| {
            let mut cols = [None; 8];
            let first = present.iter().position(|&p| p);
            for (level, &p) in present.iter().enumerate() {
                if p && Some(level) != first {
                    cols[level] = Some(width);
                    width += 1;
                }
            }
            cols
        };
        let seat_col = indicators(seats);
        let count_col = indicators(counts);
        Design { advantage, seat_col, count_col, width }
    }

    fn fill(&self, r: &Row, x: &mut [f64]) {
        x.iter_mut().for_each(|v| *v = 0.0);
        if self.advantage {
            x[0] = r.advantage;
        }
        for col in [self.seat_col[usize::from(r.seat.min(7))], self.count_col[usize::from(r.player_count.min(7))]]
            .into_iter()
            .flatten()
        {
            x[col] = 1.0;
        }
    }
}

/// The inverse of a symmetric `k × k` matrix (row-major) by Gauss–Jordan elimination with
/// partial pivoting; `None` when singular.
fn inverse(k: usize, m: &[f64]) -> Option<Vec<f64>> {
    let mut a = m.to_vec();
    let mut inv = vec![0.0; k * k];
    for i in 0..k {
        inv[i * k + i] = 1.0;
    }
    let scale = a.iter().fold(0.0f64, |s, v| s.max(v.abs())).max(1e-300);
    for col in 0..k {
        let pivot = (col..k).max_by(|&x, &y| a[x * k + col].abs().total_cmp(&a[y * k + col].abs()))?;
        if a[pivot * k + col].abs() < 1e-10 * scale {
            return None;
        }
        for j in 0..k {
            a.swap(col * k + j, pivot * k + j);
            inv.swap(col * k + j, pivot * k + j);
        }
        let p = a[col * k + col];
        for j in 0..k {
            a[col * k + j] /= p;
            inv[col * k + j] /= p;
        }
        for r in 0..k {
            let f = a[r * k + col];
            if r != col && f != 0.0 {
                for j in 0..k {
                    a[r * k + j] -= f * a[col * k + j];
                    inv[r * k + j] -= f * inv[col * k + j];
                }
            }
        }
    }
    Some(inv)
}

/// Subtracts from each value the mean of its player's values.
fn demean(player: &[u32], counts: &[f64], values: &mut [f64]) {
    let mut sums = vec![0.0; counts.len()];
    for (&p, v) in player.iter().zip(values.iter()) {
        sums[p as usize] += v;
    }
    for (&p, v) in player.iter().zip(values.iter_mut()) {
        *v -= sums[p as usize] / counts[p as usize];
    }
}

/// One outcome, within-transformed, with `Z'y`.
struct Outcome {
    y: Vec<f64>,
    zy: Vec<f64>,
}

/// The controls of a set of player-games, within-transformed once, so that each strategy's
/// fit costs a few passes over the rows (only the `treated` column changes between
/// strategies; `Z'Z` and `Z'y` are shared).
pub struct Model {
    /// Position in the caller's rows of each row here (sorted by game; solo games dropped).
    order: Vec<usize>,
    player: Vec<u32>,
    /// Rows per player (indexed by `Row::player`).
    counts: Vec<f64>,
    players: usize,
    /// Game id of each row, for clustering.
    game: Vec<i64>,
    games: u64,
    /// The controls, within-transformed, row-major `n × kz`.
    z: Vec<f64>,
    kz: usize,
    ztz: Vec<f64>,
    win: Outcome,
    margin: Outcome,
}

impl Model {
    pub fn new(rows: &[Row]) -> Model {
        let mut order: Vec<usize> = (0..rows.len()).filter(|&i| rows[i].player_count >= 2).collect();
        order.sort_by_key(|&i| (rows[i].game_id, rows[i].seat));
        let sorted: Vec<Row> = order.iter().map(|&i| rows[i]).collect();
        let design = Design::of(&sorted);
        let kz = design.width;
        let player: Vec<u32> = sorted.iter().map(|r| r.player).collect();
        let mut counts = vec![0.0; sorted.iter().map(|r| r.player as usize + 1).max().unwrap_or(0)];
        for &p in &player {
            counts[p as usize] += 1.0;
        }
        let players = counts.iter().filter(|&&c| c > 0.0).count();
        let n = sorted.len();
        let mut z = vec![0.0; n * kz];
        for (i, r) in sorted.iter().enumerate() {
            design.fill(r, &mut z[i * kz..(i + 1) * kz]);
        }
        let mut column = vec![0.0; n];
        for j in 0..kz {
            for i in 0..n {
                column[i] = z[i * kz + j];
            }
            demean(&player, &counts, &mut column);
            for i in 0..n {
                z[i * kz + j] = column[i];
            }
        }
        let mut ztz = vec![0.0; kz * kz];
        for i in 0..n {
            let zi = &z[i * kz..(i + 1) * kz];
            for a in 0..kz {
                for b in 0..kz {
                    ztz[a * kz + b] += zi[a] * zi[b];
                }
            }
        }
        let outcome = |value: fn(&Row) -> f64| {
            let mut y: Vec<f64> = sorted.iter().map(value).collect();
            demean(&player, &counts, &mut y);
            let mut zy = vec![0.0; kz];
            for (i, yi) in y.iter().enumerate() {
                for a in 0..kz {
                    zy[a] += z[i * kz + a] * yi;
                }
            }
            Outcome { y, zy }
        };
        let win = outcome(|r| if r.won { 1.0 } else { 0.0 });
        let margin = outcome(|r| r.margin);
        let game: Vec<i64> = sorted.iter().map(|r| r.game_id).collect();
        let games = game.windows(2).filter(|w| w[0] != w[1]).count() as u64 + u64::from(!game.is_empty());
        Model { order, player, counts, players, game, games, z, kz, ztz, win, margin }
    }

    /// The effects of a strategy; `treated[i]` says whether the caller's row `i` used it. No
    /// estimate below [`Support::DEFAULT`].
    pub fn effect(&self, treated: &[bool]) -> Effect {
        self.effect_with(treated, Support::DEFAULT)
    }

    /// [`Model::effect`] held to `support`.
    pub fn effect_with(&self, treated: &[bool], support: Support) -> Effect {
        let t: Vec<f64> = self.order.iter().map(|&i| if treated.get(i) == Some(&true) { 1.0 } else { 0.0 }).collect();
        let used = t.iter().filter(|&&v| v > 0.0).count() as u64;
        let mut per_player = vec![0.0; self.counts.len()];
        for (&p, v) in self.player.iter().zip(&t) {
            per_player[p as usize] += v;
        }
        let switching: Vec<bool> = per_player.iter().zip(&self.counts).map(|(u, n)| *u > 0.0 && *u < *n).collect();
        let switchers = switching.iter().filter(|&&s| s).count() as u64;
        let mut informing: Vec<i64> =
            (0..t.len()).filter(|&i| t[i] > 0.0 && switching[self.player[i] as usize]).map(|i| self.game[i]).collect();
        informing.sort_unstable();
        informing.dedup();
        let mut effect = Effect {
            player_games: self.order.len() as u64,
            games: self.games,
            treated: used,
            switchers,
            informing_games: informing.len() as u64,
            support,
            win: None,
            margin: None,
        };
        if effect.not_enough_data().is_some() {
            return effect;
        }
        let mut t = t;
        demean(&self.player, &self.counts, &mut t);
        effect.win = self.fit(&t, &self.win);
        effect.margin = self.fit(&t, &self.margin);
        effect
    }

    /// The coefficient of `treated` (within-transformed `t`) for one outcome.
    fn fit(&self, t: &[f64], out: &Outcome) -> Option<Estimate> {
        let (kz, k) = (self.kz, self.kz + 1);
        let mut tz = vec![0.0; kz];
        let (mut tt, mut ty) = (0.0, 0.0);
        for (i, &ti) in t.iter().enumerate() {
            tt += ti * ti;
            ty += ti * out.y[i];
            for (acc, z) in tz.iter_mut().zip(&self.z[i * kz..(i + 1) * kz]) {
                *acc += ti * z;
            }
        }
        let mut xtx = vec![0.0; k * k];
        xtx[0] = tt;
        for a in 0..kz {
            xtx[a + 1] = tz[a];
            xtx[(a + 1) * k] = tz[a];
            for b in 0..kz {
                xtx[(a + 1) * k + b + 1] = self.ztz[a * kz + b];
            }
        }
        let bread = inverse(k, &xtx)?;
        let xty: Vec<f64> = std::iter::once(ty).chain(out.zy.iter().copied()).collect();
        let beta: Vec<f64> = (0..k).map(|a| (0..k).map(|b| bread[a * k + b] * xty[b]).sum()).collect();
        // Var(β₀) = Σ_games (Σ_rows a_i·e_i)², a_i = row 0 of the bread times x_i.
        let (mut var, mut u) = (0.0, 0.0);
        for (i, &ti) in t.iter().enumerate() {
            let zi = &self.z[i * kz..(i + 1) * kz];
            let fitted = beta[0] * ti + zi.iter().zip(&beta[1..]).map(|(a, b)| a * b).sum::<f64>();
            let a = bread[0] * ti + zi.iter().zip(&bread[1..k]).map(|(x, b)| x * b).sum::<f64>();
            u += a * (out.y[i] - fitted);
            if self.game.get(i + 1) != Some(&self.game[i]) {
                var += u * u;
                u = 0.0;
            }
        }
        let (n, g) = (t.len() as f64, self.games as f64);
        let dof = n - k as f64 - self.players as f64;
        if dof < 1.0 || g < 2.0 {
            return None;
        }
        let factor = g / (g - 1.0) * (n - 1.0) / dof;
        Some(Estimate::new(beta[0], (var * factor).max(0.0).sqrt()))
    }
}

/// The controlled effects of a strategy over `rows` (any order; solo games are dropped).
pub fn effect(rows: &[Row]) -> Effect {
    effect_with(rows, Support::DEFAULT)
}

/// [`effect`] held to `support`.
pub fn effect_with(rows: &[Row], support: Support) -> Effect {
    let treated: Vec<bool> = rows.iter().map(|r| r.treated).collect();
    Model::new(rows).effect_with(&treated, support)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A case worked by hand: margins are a player's own level plus 10 points when treated, so
    /// the within-player estimate is exactly 10 whatever the players' levels, while the raw
    /// difference (treated players are the better ones here) is far from it.
    #[test]
    fn within_player_estimate_removes_lasting_differences_between_players() {
        let mut rows = Vec::new();
        for g in 0..60i64 {
            for seat in 0..2u8 {
                let player = ((g as u32) + u32::from(seat) * 7) % 10;
                // Players 5–9 use the strategy in most games, players 0–4 in few.
                let treated =
                    (g + i64::from(seat)) % if player >= 5 { 4 } else { 2 } != 0 && (player >= 5 || g % 3 == 0);
                let margin = 3.0 * f64::from(player) + if treated { 10.0 } else { 0.0 };
                let won = seat == (g % 2) as u8;
                rows.push(Row { game_id: g, player, player_count: 2, seat, treated, advantage: 0.0, won, margin });
            }
        }
        let e = effect_with(&rows, Support::NONE);
        let m = e.margin.expect("a margin estimate");
        assert!((m.estimate - 10.0).abs() < 1e-9, "{m:?}");
        assert!(m.std_error < 1e-6, "an exact fit has no error: {m:?}");
        assert_eq!((e.player_games, e.games), (120, 60));
        assert!(e.switchers > 0 && e.win.is_some());
        // Nobody switches: no estimate.
        let never: Vec<Row> = rows.iter().map(|r| Row { treated: r.player >= 5, ..*r }).collect();
        let e = effect(&never);
        assert_eq!((e.switchers, e.win, e.margin), (0, None, None));
    }

    /// The support rule (docs/statistics.md "Support"): a small corpus — one player who
    /// switches, in twelve games — gives no controlled effect and says why, however clear the
    /// difference; the same rows with no minimum do give one (the rule, not the model,
    /// withholds it).
    #[test]
    fn no_controlled_effect_is_given_below_the_support_and_the_reason_is_said() {
        let rows: Vec<Row> = (0..12i64)
            .flat_map(|g| {
                (0..2u32).map(move |player| {
                    let treated = player == 0 && g % 3 != 0;
                    Row {
                        game_id: g,
                        player,
                        player_count: 2,
                        seat: u8::from((g % 2 == 0) == (player == 0)),
                        treated,
                        advantage: if player == 0 { 0.1 * (g % 4) as f64 } else { -0.1 * (g % 4) as f64 },
                        won: if player == 0 { treated || g % 5 == 0 } else { !treated && g % 3 == 0 && g % 5 != 0 },
                        margin: if treated { 10.0 + (g % 3) as f64 } else { -2.0 - (g % 2) as f64 },
                    }
                })
            })
            .collect();
        let e = effect(&rows);
        assert_eq!((e.switchers, e.informing_games, e.win, e.margin), (1, 8, None, None));
        assert_eq!(
            e.not_enough_data().as_deref(),
            Some("not enough data: 1 switcher (needs 20), 8 games in which a switcher used it (needs 30)")
        );
        let unbounded = effect_with(&rows, Support::NONE);
        assert_eq!(unbounded.not_enough_data(), None);
        assert!(unbounded.margin.is_some(), "the model itself fits these rows: {unbounded:?}");
    }

    /// A planted effect on a synthetic corpus (labelled as such: not games): 240 players with a
    /// hidden skill play 7,000 three- and four-player games. Tile A is built by half of all
    /// players at random and adds to the builder's performance; tile B is built mostly by
    /// strong players and does nothing. The raw win-rate difference of B is large; controlled
    /// (within player, with the ratings computed from the games' results alone, seat and player
    /// count) it is about 0, inside its interval; A's effect stays clearly positive.
    #[test]
    fn controlled_estimate_recovers_a_planted_effect_and_removes_a_skill_artefact() {
        use crate::ratings::{RatedGame, RatedSeat, Ratings};
        const PLAYERS: usize = 240;
        const GAMES: usize = 7_000;
        use chronicle_caverna::shuffle::SplitMix64;
        let mut rng = SplitMix64::new(20_261_125);
        let mut unit = move || (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
        let skill: Vec<f64> = (0..PLAYERS)
            .map(|_| {
                // Box–Muller: a standard normal from two uniforms.
                let (u, v) = (unit().max(1e-12), unit());
                (-2.0 * u.ln()).sqrt() * (std::f64::consts::TAU * v).cos()
            })
            .collect();
        struct Seat {
            player: usize,
            a: bool,
            b: bool,
            perf: f64,
        }
        let mut games: Vec<Vec<Seat>> = Vec::new();
        for g in 0..GAMES {
            let n = 3 + g % 2;
            let mut seats: Vec<Seat> = Vec::new();
            while seats.len() < n {
                let p = (unit() * skill.len() as f64) as usize % skill.len();
                if seats.iter().any(|s| s.player == p) {
                    continue;
                }
                let a = unit() < 0.5;
                let b = unit() < if skill[p] > 0.5 { 0.9 } else { 0.05 };
                // Logistic noise: the latent performance of a Bradley–Terry (Plackett–Luce) game.
                let u = unit().clamp(1e-12, 1.0 - 1e-12);
                let perf = 1.2 * skill[p] + if a { 0.7 } else { 0.0 } + (u / (1.0 - u)).ln();
                seats.push(Seat { player: p, a, b, perf });
            }
            games.push(seats);
        }
        let rank = |seats: &[Seat], i: usize| 1 + seats.iter().filter(|s| s.perf > seats[i].perf).count() as u8;
        let rated: Vec<RatedGame> = games
            .iter()
            .enumerate()
            .map(|(g, seats)| RatedGame {
                game_id: g as i64,
                played_at: Some(format!("{g:08}")),
                seats: (0..seats.len())
                    .map(|i| RatedSeat { player: format!("p{}", seats[i].player), rank: rank(seats, i) })
                    .collect(),
            })
            .collect();
        let ratings = Ratings::compute(rated);
        let rows = |which: fn(&Seat) -> bool| -> Vec<Row> {
            let mut out = Vec::new();
            for (g, seats) in games.iter().enumerate() {
                let mu: Vec<f64> = (0..seats.len()).map(|i| ratings.before(g as i64, i as u8).unwrap().mu).collect();
                let perf_sum: f64 = seats.iter().map(|s| s.perf).sum();
                for (i, s) in seats.iter().enumerate() {
                    let others = (mu.iter().sum::<f64>() - mu[i]) / (seats.len() - 1) as f64;
                    let rivals = (perf_sum - s.perf) / (seats.len() - 1) as f64;
                    out.push(Row {
                        game_id: g as i64,
                        player: s.player as u32,
                        player_count: seats.len() as u8,
                        seat: i as u8,
                        treated: which(s),
                        advantage: (mu[i] - others) / ADVANTAGE_UNIT,
                        won: rank(seats, i) == 1,
                        margin: 10.0 * (s.perf - rivals),
                    });
                }
            }
            out
        };
        let raw = |rows: &[Row]| {
            let count = |t: bool| {
                let sel: Vec<&Row> = rows.iter().filter(|r| r.treated == t).collect();
                (sel.iter().filter(|r| r.won).count() as u64, sel.len() as u64)
            };
            let ((k1, n1), (k0, n0)) = (count(true), count(false));
            crate::rate::newcombe(k1, n1, k0, n0).unwrap()
        };
        let b_rows = rows(|s| s.b);
        let (b_raw, b) = (raw(&b_rows), effect(&b_rows).win.unwrap());
        assert!(b_raw.ci_low > 0.2, "the skill artefact is large raw: {b_raw:?}");
        assert!(b.ci_low < 0.0 && b.ci_high > 0.0 && b.estimate.abs() < 0.03, "B controlled: {b:?}");
        let a_rows = rows(|s| s.a);
        let a = effect(&a_rows).win.unwrap();
        assert!(a.ci_low > 0.05, "A's planted effect is found: {a:?}");
        let a_margin = effect(&a_rows).margin.unwrap();
        assert!(a_margin.ci_low < 7.0 && a_margin.ci_high > 7.0, "A adds 7 points of margin: {a_margin:?}");
    }
}
