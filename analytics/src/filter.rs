//! Which player-games a query looks at, and how `played_at` text is compared.

use crate::calendar::{civil_from_days, days_from_civil, days_in_month, month_of, month_start};
use crate::error::AnalyticsError;
use crate::input::FurnishingSet;
use crate::rate::DEFAULT_MIN_SAMPLE;

/// A query's selection of games. Every condition is on the *game* (all seats of a game are in or
/// out together); `None` means "any". `min_sample` does not select anything: rates whose `n` is
/// below it are flagged `below_min_sample`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct StatsFilter {
    pub player_count: Option<u8>,
    pub furnishing_set: Option<FurnishingSet>,
    /// Exact tournament name; games without a tournament never match a named one.
    pub tournament: Option<String>,
    /// Games whose `meta.source` starts with this (`simulate` selects every simulated game,
    /// `simulate:random` those of the random bot); games without one never match.
    pub source: Option<String>,
    /// Leave out games whose `meta.source` starts with this (e.g. `simulate`).
    pub exclude_source: Option<String>,
    /// Games stored by the token of this name.
    pub uploader: Option<String>,
    /// Games in which one of these players sat (identity keys: a player and the identities
    /// merged into them); every seat of those games counts. Empty: no condition.
    pub players: Vec<String>,
    /// Games played at or after this instant (RFC 3339 or a bare date, see
    /// [`parse_played_at`]). Games without a readable `played_at` are excluded when either bound
    /// is set.
    pub played_from: Option<String>,
    /// Games played strictly before this instant.
    pub played_until: Option<String>,
    /// Flag rates with fewer observations (default 30).
    pub min_sample: u64,
}

impl Default for StatsFilter {
    fn default() -> Self {
        StatsFilter {
            player_count: None,
            furnishing_set: None,
            tournament: None,
            source: None,
            exclude_source: None,
            uploader: None,
            players: Vec::new(),
            played_from: None,
            played_until: None,
            min_sample: DEFAULT_MIN_SAMPLE,
        }
    }
}

impl StatsFilter {
    /// Every game, minimum sample 30.
    pub fn all() -> StatsFilter {
        StatsFilter::default()
    }

    pub fn player_count(mut self, n: u8) -> Self {
        self.player_count = Some(n);
        self
    }

    pub fn furnishing_set(mut self, set: FurnishingSet) -> Self {
        self.furnishing_set = Some(set);
        self
    }

    pub fn tournament(mut self, name: impl Into<String>) -> Self {
        self.tournament = Some(name.into());
        self
    }

    pub fn source(mut self, source: impl Into<String>) -> Self {
        self.source = Some(source.into());
        self
    }

    pub fn exclude_source(mut self, source: impl Into<String>) -> Self {
        self.exclude_source = Some(source.into());
        self
    }

    pub fn uploader(mut self, name: impl Into<String>) -> Self {
        self.uploader = Some(name.into());
        self
    }

    /// Adds a player identity key to [`StatsFilter::players`].
    pub fn player(mut self, key: impl Into<String>) -> Self {
        self.players.push(key.into());
        self
    }

    pub fn played_from(mut self, at: impl Into<String>) -> Self {
        self.played_from = Some(at.into());
        self
    }

    pub fn played_until(mut self, at: impl Into<String>) -> Self {
        self.played_until = Some(at.into());
        self
    }

    pub fn min_sample(mut self, n: u64) -> Self {
        self.min_sample = n;
        self
    }

    /// Whether no condition is set (only `min_sample` may differ from the default).
    pub fn selects_all(&self) -> bool {
        self.player_count.is_none()
            && self.furnishing_set.is_none()
            && self.tournament.is_none()
            && self.source.is_none()
            && self.exclude_source.is_none()
            && self.uploader.is_none()
            && self.players.is_empty()
            && self.played_from.is_none()
            && self.played_until.is_none()
    }

    /// The `played_at` bounds as seconds since 1970-01-01T00:00:00Z.
    /// Whether the filter needs the games' rows rather than whole buckets' tallies: it selects
    /// games one by one (an uploader, players) or a time bound cuts a calendar month (a bound
    /// that is not the first instant of a month, UTC). An unreadable bound needs none (it is
    /// an error either way).
    pub fn needs_rows(&self) -> bool {
        let cuts = |bound: Option<i64>| bound.is_some_and(|at| month_start(month_of(at)) != at);
        let (from, until) = self.played_bounds().unwrap_or((None, None));
        self.uploader.is_some() || !self.players.is_empty() || cuts(from) || cuts(until)
    }

    /// Whether the filter needs rows only because a time bound cuts a month (no uploader, no
    /// players): it can then be answered from whole buckets plus the cut months' games
    /// ([`StatsFilter::cut_months`], [`StatsFilter::widened_to_months`]). Not when a widened
    /// bound cannot be written (a bound in December 9999 would widen into year 10000).
    pub fn cuts_months_only(&self) -> bool {
        self.needs_rows()
            && self.uploader.is_none()
            && self.players.is_empty()
            && self.played_bounds().is_ok()
            && self.widened_to_months().played_bounds().is_ok()
    }

    /// The months (numbered as the buckets' `month`) that a time bound cuts, ascending.
    pub fn cut_months(&self) -> Vec<i64> {
        let (from, until) = self.played_bounds().unwrap_or((None, None));
        let mut months: Vec<i64> =
            [from, until].into_iter().flatten().filter(|&at| month_start(month_of(at)) != at).map(month_of).collect();
        months.dedup();
        months
    }

    /// Whether a game played at `played_at` is within the time bounds (every game when there
    /// is none; a game without a readable `played_at` is outside any bound).
    pub fn played_within(&self, played_at: Option<&str>) -> bool {
        let Ok((from, until)) = self.played_bounds() else { return false };
        if from.is_none() && until.is_none() {
            return true;
        }
        let Some(at) = played_at.and_then(parse_played_at) else { return false };
        from.is_none_or(|f| at >= f) && until.is_none_or(|u| at < u)
    }

    /// The filter with each bound that cuts a month moved out to that month's edge: the start
    /// of its month for `played_from`, the start of the next month for `played_until`. Over
    /// buckets whose cut months hold only the games within the original bounds, it selects the
    /// same games, and it selects whole buckets.
    pub fn widened_to_months(&self) -> StatsFilter {
        let (from, until) = self.played_bounds().unwrap_or((None, None));
        let text = |secs: i64| {
            let (y, m, d) = civil_from_days(secs.div_euclid(86_400));
            format!("{y:04}-{m:02}-{d:02}T00:00:00Z")
        };
        let edge = |at: i64, after: bool| {
            let month = month_of(at);
            match (month_start(month) == at, after) {
                (true, _) => at,
                (false, false) => month_start(month),
                (false, true) => month_start(month + 1),
            }
        };
        StatsFilter {
            played_from: from.map(|f| text(edge(f, false))),
            played_until: until.map(|u| text(edge(u, true))),
            ..self.clone()
        }
    }

    pub(crate) fn played_bounds(&self) -> Result<(Option<i64>, Option<i64>), AnalyticsError> {
        let parse = |s: &Option<String>| -> Result<Option<i64>, AnalyticsError> {
            match s {
                None => Ok(None),
                Some(text) => parse_played_at(text)
                    .map(Some)
                    .ok_or_else(|| AnalyticsError::BadFilter(format!("unreadable played_at bound {text:?}"))),
            }
        };
        Ok((parse(&self.played_from)?, parse(&self.played_until)?))
    }
}

/// The day after a bare date (`YYYY-MM-DD` → the next day, same shape); `None` for any other
/// text, and after 9999-12-31 (no such date can be written). A page's "until" date picker means "up to and including that day", while
/// [`StatsFilter::played_until`] is an exclusive instant: the page asks for the day after.
pub fn day_after(date: &str) -> Option<String> {
    let date = date.trim();
    if date.len() != 10 {
        return None;
    }
    let (y, m, d) = civil_from_days(parse_played_at(date)?.div_euclid(86_400) + 1);
    Some(format!("{y:04}-{m:02}-{d:02}")).filter(|next| parse_played_at(next).is_some())
}

/// The calendar month (UTC) of a `played_at` text as the statistics' buckets number it
/// (`year·12 + month − 1`); `None` when it is not readable.
pub fn played_month(played_at: &str) -> Option<i64> {
    parse_played_at(played_at).map(month_of)
}

/// Reads a `played_at` text as whole seconds since 1970-01-01T00:00:00Z, or `None` if it is not
/// one of the accepted shapes:
///
/// - `YYYY-MM-DD` (midnight UTC),
/// - `YYYY-MM-DD[T| ]HH:MM[:SS[.fraction]]` followed by `Z`, `±HH:MM`, `±HHMM` or nothing
///   (nothing = UTC); `T` and `Z` may be lower case.
///
/// Fractions of a second are dropped, so bounds compare at one-second resolution. Instants, not
/// texts, are compared: `2024-05-01T02:00:00+02:00` equals `2024-05-01T00:00:00Z`.
pub fn parse_played_at(text: &str) -> Option<i64> {
    let b = text.trim().as_bytes();
    let num = |s: &[u8]| -> Option<i64> {
        if s.is_empty() || !s.iter().all(u8::is_ascii_digit) {
            return None;
        }
        s.iter().try_fold(0i64, |acc, d| acc.checked_mul(10)?.checked_add(i64::from(d - b'0')))
    };
    if b.len() < 10 || b.get(4) != Some(&b'-') || b.get(7) != Some(&b'-') {
        return None;
    }
    let year = num(b.get(0..4)?)?;
    let month = num(b.get(5..7)?)?;
    let day = num(b.get(8..10)?)?;
    if !(1..=12).contains(&month) || day < 1 || day > days_in_month(year, month) {
        return None;
    }
    let mut secs = days_from_civil(year, month, day) * 86_400;
    let rest = b.get(10..)?;
    if rest.is_empty() {
        return Some(secs);
    }
    if !matches!(rest.first(), Some(b'T' | b't' | b' ')) {
        return None;
    }
    let rest = rest.get(1..)?;
    if rest.len() < 5 || rest.get(2) != Some(&b':') {
        return None;
    }
    let hour = num(rest.get(0..2)?)?;
    let minute = num(rest.get(3..5)?)?;
    let mut i = 5;
    let mut second = 0;
    if rest.get(i) == Some(&b':') {
        second = num(rest.get(i + 1..i + 3)?)?;
        i += 3;
        if rest.get(i) == Some(&b'.') {
            i += 1;
            let start = i;
            while rest.get(i).is_some_and(u8::is_ascii_digit) {
                i += 1;
            }
            if i == start {
                return None;
            }
        }
    }
    if hour > 23 || minute > 59 || second > 60 {
        return None;
    }
    secs += hour * 3600 + minute * 60 + second;
    let zone = rest.get(i..)?;
    let offset = match zone {
        [] | [b'Z'] | [b'z'] => 0,
        [sign @ (b'+' | b'-'), h1, h2, b':', m1, m2] | [sign @ (b'+' | b'-'), h1, h2, m1, m2] => {
            let oh = num(&[*h1, *h2])?;
            let om = num(&[*m1, *m2])?;
            if oh > 23 || om > 59 {
                return None;
            }
            let off = oh * 3600 + om * 60;
            if *sign == b'+' {
                off
            } else {
                -off
            }
        }
        _ => return None,
    };
    Some(secs - offset)
}

#[cfg(test)]
mod tests {
    use super::{parse_played_at, StatsFilter};

    /// A picked "until" day is included: the filter asks for the day after, across month and
    /// year ends and 29 February; other texts are not dates to move.
    #[test]
    fn the_day_after_a_date() {
        let cases = [
            ("2026-03-10", "2026-03-11"),
            ("2026-01-31", "2026-02-01"),
            ("2024-02-28", "2024-02-29"),
            ("2025-12-31", "2026-01-01"),
        ];
        for (day, next) in cases {
            assert_eq!(super::day_after(day).as_deref(), Some(next), "{day}");
        }
        assert_eq!(super::day_after("2026-03-10T12:00:00Z"), None);
        assert_eq!(super::day_after("2026-02-30"), None);
        assert_eq!(super::day_after("9999-12-31"), None, "the last writable day has no day after");
    }

    /// A bound inside a month cuts that month; widening moves it to the month's edges, and
    /// `played_within` keeps the original bounds (from inclusive, until exclusive).
    #[test]
    fn bounds_inside_a_month_cut_it_and_widen_to_its_edges() {
        let f = StatsFilter::all().played_from("2026-02-14").played_until("2026-03-10T12:00:00Z");
        assert!(f.cuts_months_only());
        assert_eq!(f.cut_months(), [2026 * 12 + 1, 2026 * 12 + 2]);
        let w = f.widened_to_months();
        assert_eq!(
            (w.played_from.as_deref(), w.played_until.as_deref()),
            (Some("2026-02-01T00:00:00Z"), Some("2026-04-01T00:00:00Z"))
        );
        assert!(!w.needs_rows());
        assert!(f.played_within(Some("2026-02-14")) && f.played_within(Some("2026-03-10T11:59:59Z")));
        assert!(!f.played_within(Some("2026-02-13T23:59:59Z")) && !f.played_within(Some("2026-03-10T12:00:00Z")));
        assert!(!f.played_within(None) && StatsFilter::all().played_within(None));
        let same_month = StatsFilter::all().played_from("2026-02-14").played_until("2026-02-20");
        assert_eq!(same_month.cut_months(), [2026 * 12 + 1]);
        let on_edges = StatsFilter::all().played_from("2026-02-01").played_until("2026-03-10");
        assert_eq!(on_edges.cut_months(), [2026 * 12 + 2]);
        assert_eq!(on_edges.widened_to_months().played_from.as_deref(), Some("2026-02-01T00:00:00Z"));
        assert!(!StatsFilter::all().player("name:ana").played_from("2026-02-14").cuts_months_only());
        assert!(!StatsFilter::all().played_until("9999-12-31").cuts_months_only(), "year 10000 cannot be written");
    }

    #[test]
    fn played_at_shapes() {
        assert_eq!(parse_played_at("1970-01-01"), Some(0));
        assert_eq!(parse_played_at("1970-01-02T00:00:00Z"), Some(86_400));
        assert_eq!(parse_played_at("2024-05-01T02:00:00+02:00"), parse_played_at("2024-05-01T00:00:00Z"));
        assert_eq!(parse_played_at("2024-05-01t00:00:00.123z"), parse_played_at("2024-05-01"));
        assert_eq!(parse_played_at("2024-05-01 10:30-0130"), Some(1_714_559_400 + 5_400));
        assert_eq!(parse_played_at("2000-02-29"), Some(951_782_400));
        for bad in [
            "",
            "2024-02-30",
            "2023-02-29",
            "2024-13-01",
            "2024-05-01T25:00:00Z",
            "2024-05-01T10:00:00+2",
            "yesterday",
            "2024-05-01T10:00:00.Z",
        ] {
            assert_eq!(parse_played_at(bad), None, "{bad}");
        }
    }
}
