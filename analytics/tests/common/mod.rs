//! The statistics computed again with plain loops over the input rows (no polars), and
//! comparisons that allow for floating-point summation order.

#![allow(dead_code)]

use std::collections::{BTreeMap, BTreeSet, HashMap};

use chronicle_analytics::weapons::LOOT_ITEMS;
use chronicle_analytics::*;
use chronicle_caverna::action_space::ActionSpace;
use chronicle_caverna::furnishing::Furnishing;

/// The player-games a filter selects.
pub fn selected<'a>(c: &'a Corpus, f: &StatsFilter) -> Vec<&'a PlayerGame> {
    let from = f.played_from.as_deref().map(|s| parse_played_at(s).expect("test bound"));
    let until = f.played_until.as_deref().map(|s| parse_played_at(s).expect("test bound"));
    // Games in which one of the players asked for sat.
    let with_player: BTreeSet<i64> = c
        .player_games
        .iter()
        .filter(|p| p.player.as_ref().is_some_and(|k| f.players.contains(k)))
        .map(|p| p.game_id)
        .collect();
    c.player_games
        .iter()
        .filter(|p| f.players.is_empty() || with_player.contains(&p.game_id))
        .filter(|p| f.player_count.is_none_or(|n| p.player_count == n))
        .filter(|p| f.furnishing_set.is_none_or(|s| p.furnishing_set == s))
        .filter(|p| f.tournament.is_none() || p.tournament == f.tournament)
        .filter(|p| f.source.as_deref().is_none_or(|pre| p.source.as_deref().is_some_and(|s| s.starts_with(pre))))
        .filter(|p| {
            f.exclude_source.as_deref().is_none_or(|pre| !p.source.as_deref().is_some_and(|s| s.starts_with(pre)))
        })
        .filter(|p| f.uploader.is_none() || p.uploader == f.uploader)
        .filter(|p| {
            if from.is_none() && until.is_none() {
                return true;
            }
            let Some(at) = p.played_at.as_deref().and_then(parse_played_at) else { return false };
            from.is_none_or(|b| at >= b) && until.is_none_or(|b| at < b)
        })
        .collect()
}

fn mean(sum: f64, n: u64) -> Option<f64> {
    (n > 0).then(|| sum / n as f64)
}

pub fn furnishings(c: &Corpus, f: &StatsFilter) -> FurnishingStats {
    let sel = selected(c, f);
    let keys: HashMap<(i64, u8), &PlayerGame> = sel.iter().map(|p| ((p.game_id, p.seat), *p)).collect();
    let mut first: HashMap<(i64, u8, Furnishing), u8> = HashMap::new();
    for t in &c.tiles {
        if keys.contains_key(&(t.game_id, t.seat)) {
            let r = first.entry((t.game_id, t.seat, t.tile)).or_insert(t.round);
            *r = (*r).min(t.round);
        }
    }
    let ms = f.min_sample;
    let tiles = Furnishing::all()
        .map(|tile| {
            // per player count: (n, wins, score) eligible and built, round sum
            let mut elig: BTreeMap<u8, (u64, u64, i64)> = BTreeMap::new();
            let mut built: BTreeMap<u8, (u64, u64, i64)> = BTreeMap::new();
            let mut round_sum = 0u64;
            let mut by_round: BTreeMap<u8, (u64, u64)> = BTreeMap::new();
            // Per player count: the scores of the built and of the not built player-games.
            let mut scores: BTreeMap<u8, (Vec<f64>, Vec<f64>)> = BTreeMap::new();
            for p in &sel {
                if !p.furnishing_set.contains(tile) {
                    continue;
                }
                let e = elig.entry(p.player_count).or_default();
                e.0 += 1;
                e.1 += u64::from(p.winner);
                e.2 += p.total;
                let group = scores.entry(p.player_count).or_default();
                if first.contains_key(&(p.game_id, p.seat, tile)) { &mut group.0 } else { &mut group.1 }
                    .push(p.total as f64);
                if let Some(&r) = first.get(&(p.game_id, p.seat, tile)) {
                    let b = built.entry(p.player_count).or_default();
                    b.0 += 1;
                    b.1 += u64::from(p.winner);
                    b.2 += p.total;
                    round_sum += u64::from(r);
                    let br = by_round.entry(r).or_default();
                    br.0 += 1;
                    br.1 += u64::from(p.winner);
                }
            }
            let tot = |m: &BTreeMap<u8, (u64, u64, i64)>| {
                m.values().fold((0, 0, 0), |a, v| (a.0 + v.0, a.1 + v.1, a.2 + v.2))
            };
            let (en, ew, es) = tot(&elig);
            let (bn, bw, bs) = tot(&built);
            let (mut wd, mut sd, mut weight) = (0.0, 0.0, 0u64);
            for (pc, &(n, w, s)) in &elig {
                let (b_n, b_w, b_s) = built.get(pc).copied().unwrap_or_default();
                let nn = n - b_n;
                if b_n > 0 && nn > 0 {
                    wd += b_n as f64 * (b_w as f64 / b_n as f64 - (w - b_w) as f64 / nn as f64);
                    sd += b_n as f64 * (b_s as f64 / b_n as f64 - (s - b_s) as f64 / nn as f64);
                    weight += b_n;
                }
            }
            // Welch's variance per player count, two-pass sample variances.
            let variance = |v: &[f64]| {
                let m = v.iter().sum::<f64>() / v.len() as f64;
                v.iter().map(|x| (x - m).powi(2)).sum::<f64>() / (v.len() as f64 - 1.0)
            };
            let strata: Vec<(f64, Option<f64>)> = scores
                .values()
                .filter(|(b, n)| !b.is_empty() && !n.is_empty())
                .map(|(b, n)| {
                    let var = (b.len() >= 2 && n.len() >= 2)
                        .then(|| variance(b) / b.len() as f64 + variance(n) / n.len() as f64);
                    (b.len() as f64, var)
                })
                .collect();
            let score_ci = mean(sd, weight).and_then(|d| {
                let w: f64 = strata.iter().map(|s| s.0).sum();
                let var = strata.iter().try_fold(0.0, |acc, &(k, v)| Some(acc + (k / w).powi(2) * v?))?;
                Some((d - 1.96 * var.sqrt(), d + 1.96 * var.sqrt()))
            });
            TileStats {
                tile,
                player_games: en,
                built: bn,
                build_rate: Rate::new(bn, en, ms),
                win_rate_built: Rate::new(bw, bn, ms),
                win_rate_not_built: Rate::new(ew - bw, en - bn, ms),
                win_rate_difference: mean(wd, weight),
                // Checked on its own (tests/cases.rs), not against this reference.
                win_rate_difference_ci: None,
                mean_score_built: mean(bs as f64, bn),
                mean_score_not_built: mean((es - bs) as f64, en - bn),
                mean_score_difference: mean(sd, weight),
                mean_score_difference_ci: score_ci,
                mean_round_built: mean(round_sum as f64, bn),
                by_round: by_round
                    .into_iter()
                    .map(|(round, (n, w))| RoundWinRate { round, win_rate: Rate::new(w, n, ms) })
                    .collect(),
            }
        })
        .collect();
    FurnishingStats { player_games: sel.len() as u64, tiles }
}

fn group(pgs: &[&PlayerGame], ms: u64) -> GroupStats {
    let n = pgs.len() as u64;
    let wins = pgs.iter().filter(|p| p.winner).count() as u64;
    let score: i64 = pgs.iter().map(|p| p.total).sum();
    GroupStats { win_rate: Rate::new(wins, n, ms), mean_score: mean(score as f64, n) }
}

pub fn weapons(c: &Corpus, f: &StatsFilter) -> WeaponStats {
    let sel = selected(c, f);
    let ms = f.min_sample;
    let by_class = WeaponClass::ALL
        .iter()
        .map(|&class| {
            let pgs: Vec<_> = sel.iter().copied().filter(|p| WeaponClass::of(p.max_strength) == class).collect();
            ClassStats { class, stats: group(&pgs, ms) }
        })
        .collect();
    let strengths: BTreeSet<Option<u8>> = sel.iter().map(|p| p.max_strength).collect();
    let by_max_strength = strengths
        .into_iter()
        .map(|s| {
            let pgs: Vec<_> = sel.iter().copied().filter(|p| p.max_strength == s).collect();
            StrengthStats { max_strength: s, stats: group(&pgs, ms) }
        })
        .collect();
    let by_expeditions = ExpeditionBucket::ALL
        .iter()
        .map(|&bucket| {
            let (lo, hi) = bucket.range();
            let pgs: Vec<_> =
                sel.iter().copied().filter(|p| p.expeditions >= lo && hi.is_none_or(|h| p.expeditions <= h)).collect();
            ExpeditionStats { bucket, stats: group(&pgs, ms) }
        })
        .collect();
    let keys: HashMap<(i64, u8), bool> = sel.iter().map(|p| ((p.game_id, p.seat), p.winner)).collect();
    let took: BTreeSet<(i64, u8, usize)> = c
        .loot
        .iter()
        .filter(|l| keys.contains_key(&(l.game_id, l.seat)))
        .map(|l| (l.game_id, l.seat, l.item as usize))
        .collect();
    let winners = sel.iter().filter(|p| p.winner).count() as u64;
    let others = sel.len() as u64 - winners;
    let mut loot: Vec<LootStats> = LOOT_ITEMS
        .iter()
        .map(|&item| {
            let (mut w, mut o) = (0, 0);
            for &(g, s, i) in &took {
                if i == item as usize {
                    if keys[&(g, s)] {
                        w += 1;
                    } else {
                        o += 1;
                    }
                }
            }
            let winners = Rate::new(w, winners, ms);
            let others = Rate::new(o, others, ms);
            let difference_ci =
                chronicle_analytics::rate::newcombe(winners.successes, winners.n, others.successes, others.n)
                    .map(|d| (d.ci_low, d.ci_high));
            LootStats { item, winners, others, difference: winners.rate - others.rate, difference_ci }
        })
        .collect();
    loot.sort_by(|a, b| b.difference.total_cmp(&a.difference).then(a.item.cmp(&b.item)));
    // The rounds of the first weapon and of the first expedition that occur, never first.
    let by_round = |round_of: fn(&PlayerGame) -> Option<u8>| -> Vec<RoundStats> {
        let rounds: BTreeSet<Option<u8>> = sel.iter().map(|p| round_of(p)).collect();
        rounds
            .into_iter()
            .map(|round| {
                let pgs: Vec<_> = sel.iter().copied().filter(|p| round_of(p) == round).collect();
                RoundStats { round, stats: group(&pgs, ms) }
            })
            .collect()
    };
    let (by_first_armed, by_first_expedition) = (by_round(|p| p.first_armed), by_round(|p| p.first_expedition));
    WeaponStats {
        player_games: sel.len() as u64,
        by_class,
        by_max_strength,
        by_expeditions,
        by_first_armed,
        by_first_expedition,
        loot,
    }
}

pub fn seats(c: &Corpus, f: &StatsFilter) -> SeatStats {
    let sel = selected(c, f);
    let ms = f.min_sample;
    let mut m: BTreeMap<(u8, u8), (u64, u64)> = BTreeMap::new();
    for p in &sel {
        let e = m.entry((p.player_count, p.seat)).or_default();
        e.0 += u64::from(p.winner);
        e.1 += 1;
    }
    let by_seat = m
        .iter()
        .map(|(&(pc, seat), &(w, n))| SeatWinRate {
            player_count: pc,
            seat,
            win_rate: Rate::new(w, n, ms),
            expected: 1.0 / f64::from(pc),
        })
        .collect();
    let first_player: Vec<FirstPlayerRow> = m
        .iter()
        .filter(|((pc, seat), _)| *seat == 0 && *pc >= 2)
        .map(|(&(pc, _), &(w, n))| {
            let r = Rate::new(w, n, ms);
            FirstPlayerRow {
                player_count: Some(pc),
                win_rate: r,
                expected: 1.0 / f64::from(pc),
                advantage: r.rate - 1.0 / f64::from(pc),
            }
        })
        .collect();
    let seat0: Vec<_> = sel.iter().filter(|p| p.seat == 0 && p.player_count >= 2).collect();
    let first_player_overall = (!seat0.is_empty()).then(|| {
        let r = Rate::new(seat0.iter().filter(|p| p.winner).count() as u64, seat0.len() as u64, ms);
        let expected = seat0.iter().map(|p| 1.0 / f64::from(p.player_count)).sum::<f64>() / seat0.len() as f64;
        FirstPlayerRow { player_count: None, win_rate: r, expected, advantage: r.rate - expected }
    });
    SeatStats { by_seat, first_player, first_player_overall }
}

/// R type 7 quantile of sorted values.
pub fn quantile(sorted: &[i64], q: f64) -> f64 {
    let h = (sorted.len() - 1) as f64 * q;
    let lo = h.floor() as usize;
    let hi = (lo + 1).min(sorted.len() - 1);
    sorted[lo] as f64 + (h - lo as f64) * (sorted[hi] - sorted[lo]) as f64
}

pub fn scores(c: &Corpus, f: &StatsFilter, width: u32) -> ScoreStats {
    let sel = selected(c, f);
    let mut totals: Vec<i64> = sel.iter().map(|p| p.total).collect();
    totals.sort_unstable();
    let w = i64::from(width.max(1));
    if totals.is_empty() {
        return ScoreStats {
            player_games: 0,
            mean: None,
            min: None,
            max: None,
            quantiles: None,
            bucket_width: w as u32,
            histogram: vec![],
        };
    }
    let lo = totals[0].div_euclid(w) * w;
    let hi = totals[totals.len() - 1].div_euclid(w) * w;
    let mut histogram = Vec::new();
    let mut from = lo;
    while from <= hi {
        histogram.push(Bucket { from, count: totals.iter().filter(|&&t| t >= from && t < from + w).count() as u64 });
        from += w;
    }
    ScoreStats {
        player_games: totals.len() as u64,
        mean: mean(totals.iter().sum::<i64>() as f64, totals.len() as u64),
        min: totals.first().copied(),
        max: totals.last().copied(),
        quantiles: Some(Quantiles {
            p10: quantile(&totals, 0.10),
            p25: quantile(&totals, 0.25),
            p50: quantile(&totals, 0.50),
            p75: quantile(&totals, 0.75),
            p90: quantile(&totals, 0.90),
        }),
        bucket_width: w as u32,
        histogram,
    }
}

pub fn spaces(c: &Corpus, f: &StatsFilter) -> SpaceUseStats {
    let keys: BTreeSet<(i64, u8)> = selected(c, f).iter().map(|p| (p.game_id, p.seat)).collect();
    let mut m: BTreeMap<u8, BTreeMap<ActionSpace, u64>> = BTreeMap::new();
    for s in &c.spaces {
        if keys.contains(&(s.game_id, s.seat)) {
            *m.entry(s.round).or_default().entry(s.space).or_default() += 1;
        }
    }
    let mut placements = 0;
    let rounds = m
        .into_iter()
        .map(|(round, spaces)| {
            let total: u64 = spaces.values().sum();
            placements += total;
            let mut spaces: Vec<SpaceCount> = spaces
                .into_iter()
                .map(|(space, count)| SpaceCount { space, count, share: count as f64 / total as f64 })
                .collect();
            spaces.sort_by(|a, b| b.count.cmp(&a.count).then(a.space.cmp(&b.space)));
            RoundUse { round, placements: total, spaces }
        })
        .collect();
    SpaceUseStats { placements, rounds }
}

// ---- comparisons ----

pub fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * (1.0 + a.abs().max(b.abs()))
}

pub fn close_opt(a: Option<f64>, b: Option<f64>) -> bool {
    match (a, b) {
        (None, None) => true,
        (Some(a), Some(b)) => close(a, b),
        _ => false,
    }
}

pub fn same_rate(a: &Rate, b: &Rate) -> bool {
    a.successes == b.successes
        && a.n == b.n
        && a.below_min_sample == b.below_min_sample
        && close(a.rate, b.rate)
        && close(a.ci_low, b.ci_low)
        && close(a.ci_high, b.ci_high)
}

macro_rules! check {
    ($cond:expr, $($what:tt)*) => {
        assert!($cond, "{}", format!($($what)*))
    };
}

pub fn assert_furnishings(got: &FurnishingStats, want: &FurnishingStats, ctx: &str) {
    check!(got.player_games == want.player_games, "{ctx}: player_games {} vs {}", got.player_games, want.player_games);
    check!(got.tiles.len() == want.tiles.len(), "{ctx}: tiles");
    for (g, w) in got.tiles.iter().zip(&want.tiles) {
        let t = w.tile.id();
        check!(g.tile == w.tile, "{ctx}: tile order");
        check!(g.player_games == w.player_games && g.built == w.built, "{ctx} {t}: counts {g:?} vs {w:?}");
        check!(same_rate(&g.build_rate, &w.build_rate), "{ctx} {t}: build rate");
        check!(
            same_rate(&g.win_rate_built, &w.win_rate_built),
            "{ctx} {t}: win built {:?} vs {:?}",
            g.win_rate_built,
            w.win_rate_built
        );
        check!(same_rate(&g.win_rate_not_built, &w.win_rate_not_built), "{ctx} {t}: win not built");
        check!(
            close_opt(g.win_rate_difference, w.win_rate_difference),
            "{ctx} {t}: win diff {:?} vs {:?}",
            g.win_rate_difference,
            w.win_rate_difference
        );
        check!(close_opt(g.mean_score_built, w.mean_score_built), "{ctx} {t}: score built");
        check!(close_opt(g.mean_score_not_built, w.mean_score_not_built), "{ctx} {t}: score not built");
        check!(close_opt(g.mean_score_difference, w.mean_score_difference), "{ctx} {t}: score diff");
        check!(
            close_opt(g.mean_score_difference_ci.map(|c| c.0), w.mean_score_difference_ci.map(|c| c.0))
                && close_opt(g.mean_score_difference_ci.map(|c| c.1), w.mean_score_difference_ci.map(|c| c.1)),
            "{ctx} {t}: score diff interval {:?} vs {:?}",
            g.mean_score_difference_ci,
            w.mean_score_difference_ci
        );
        check!(close_opt(g.mean_round_built, w.mean_round_built), "{ctx} {t}: round");
        check!(g.by_round.len() == w.by_round.len(), "{ctx} {t}: by_round {:?} vs {:?}", g.by_round, w.by_round);
        for (a, b) in g.by_round.iter().zip(&w.by_round) {
            check!(a.round == b.round && same_rate(&a.win_rate, &b.win_rate), "{ctx} {t}: round {}", b.round);
        }
    }
}

fn same_group(a: &GroupStats, b: &GroupStats) -> bool {
    same_rate(&a.win_rate, &b.win_rate) && close_opt(a.mean_score, b.mean_score)
}

pub fn assert_weapons(got: &WeaponStats, want: &WeaponStats, ctx: &str) {
    check!(got.player_games == want.player_games, "{ctx}: player_games");
    check!(got.by_class.len() == 3 && want.by_class.len() == 3, "{ctx}: classes");
    for (g, w) in got.by_class.iter().zip(&want.by_class) {
        check!(g.class == w.class && same_group(&g.stats, &w.stats), "{ctx}: class {:?}: {g:?} vs {w:?}", w.class);
    }
    check!(
        got.by_max_strength.len() == want.by_max_strength.len(),
        "{ctx}: strengths {:?} vs {:?}",
        got.by_max_strength,
        want.by_max_strength
    );
    for (g, w) in got.by_max_strength.iter().zip(&want.by_max_strength) {
        check!(
            g.max_strength == w.max_strength && same_group(&g.stats, &w.stats),
            "{ctx}: strength {:?}",
            w.max_strength
        );
    }
    for (g, w) in got.by_expeditions.iter().zip(&want.by_expeditions) {
        check!(g.bucket == w.bucket && same_group(&g.stats, &w.stats), "{ctx}: bucket {:?}", w.bucket);
    }
    check!(got.by_expeditions.len() == 4, "{ctx}: buckets");
    check!(got.loot.len() == want.loot.len(), "{ctx}: loot");
    for (g, w) in got.loot.iter().zip(&want.loot) {
        check!(
            g.item == w.item
                && same_rate(&g.winners, &w.winners)
                && same_rate(&g.others, &w.others)
                && close(g.difference, w.difference),
            "{ctx}: loot {g:?} vs {w:?}"
        );
    }
}

pub fn assert_seats(got: &SeatStats, want: &SeatStats, ctx: &str) {
    check!(got.by_seat.len() == want.by_seat.len(), "{ctx}: seats");
    for (g, w) in got.by_seat.iter().zip(&want.by_seat) {
        check!(
            g.player_count == w.player_count
                && g.seat == w.seat
                && same_rate(&g.win_rate, &w.win_rate)
                && close(g.expected, w.expected),
            "{ctx}: seat {g:?} vs {w:?}"
        );
    }
    let same_fp = |g: &FirstPlayerRow, w: &FirstPlayerRow| {
        g.player_count == w.player_count
            && same_rate(&g.win_rate, &w.win_rate)
            && close(g.expected, w.expected)
            && close(g.advantage, w.advantage)
    };
    check!(got.first_player.len() == want.first_player.len(), "{ctx}: first player");
    for (g, w) in got.first_player.iter().zip(&want.first_player) {
        check!(same_fp(g, w), "{ctx}: first player {g:?} vs {w:?}");
    }
    match (&got.first_player_overall, &want.first_player_overall) {
        (None, None) => {}
        (Some(g), Some(w)) => check!(same_fp(g, w), "{ctx}: overall {g:?} vs {w:?}"),
        (g, w) => panic!("{ctx}: overall {g:?} vs {w:?}"),
    }
}

pub fn assert_scores(got: &ScoreStats, want: &ScoreStats, ctx: &str) {
    check!(
        got.player_games == want.player_games && got.min == want.min && got.max == want.max,
        "{ctx}: {got:?} vs {want:?}"
    );
    check!(close_opt(got.mean, want.mean), "{ctx}: mean");
    check!(
        got.bucket_width == want.bucket_width && got.histogram == want.histogram,
        "{ctx}: histogram {:?} vs {:?}",
        got.histogram,
        want.histogram
    );
    match (got.quantiles, want.quantiles) {
        (None, None) => {}
        (Some(g), Some(w)) => check!(
            close(g.p10, w.p10)
                && close(g.p25, w.p25)
                && close(g.p50, w.p50)
                && close(g.p75, w.p75)
                && close(g.p90, w.p90),
            "{ctx}: quantiles {g:?} vs {w:?}"
        ),
        (g, w) => panic!("{ctx}: quantiles {g:?} vs {w:?}"),
    }
}

pub fn assert_spaces(got: &SpaceUseStats, want: &SpaceUseStats, ctx: &str) {
    check!(got.placements == want.placements, "{ctx}: placements");
    check!(got.rounds.len() == want.rounds.len(), "{ctx}: rounds");
    for (g, w) in got.rounds.iter().zip(&want.rounds) {
        check!(
            g.round == w.round && g.placements == w.placements && g.spaces.len() == w.spaces.len(),
            "{ctx}: round {}",
            w.round
        );
        for (a, b) in g.spaces.iter().zip(&w.spaces) {
            check!(
                a.space == b.space && a.count == b.count && close(a.share, b.share),
                "{ctx}: round {} {a:?} vs {b:?}",
                w.round
            );
        }
    }
}

/// Every family of `stats` against the plain computation over `corpus`.
pub fn assert_all(stats: &Stats, corpus: &Corpus, f: &StatsFilter, ctx: &str) {
    assert_furnishings(&stats.furnishings(f).expect("furnishings"), &furnishings(corpus, f), ctx);
    assert_weapons(&stats.weapons(f).expect("weapons"), &weapons(corpus, f), ctx);
    assert_seats(&stats.seats(f).expect("seats"), &seats(corpus, f), ctx);
    for width in [1, 7, 10] {
        assert_scores(&stats.scores(f, width).expect("scores"), &scores(corpus, f, width), ctx);
    }
    assert_spaces(&stats.spaces(f).expect("spaces"), &spaces(corpus, f), ctx);
}
