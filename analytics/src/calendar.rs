//! Proleptic Gregorian calendar arithmetic on seconds since 1970-01-01T00:00:00Z (UTC), for
//! reading `played_at` texts and for the calendar months the statistics are pre-aggregated by.

pub(crate) fn is_leap(y: i64) -> bool {
    (y % 4 == 0 && y % 100 != 0) || y % 400 == 0
}

pub(crate) fn days_in_month(y: i64, m: i64) -> i64 {
    match m {
        2 if is_leap(y) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// Days since 1970-01-01 of a date (H. Hinnant's `days_from_civil`).
pub(crate) fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// `(year, month, day)` of a day number (H. Hinnant's `civil_from_days`).
pub(crate) fn civil_from_days(days: i64) -> (i64, i64, i64) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    (yoe + era * 400 + i64::from(m <= 2), m, d)
}

/// The calendar month (UTC) of an instant, numbered `year·12 + month − 1`.
pub(crate) fn month_of(secs: i64) -> i64 {
    let (y, m, _) = civil_from_days(secs.div_euclid(86_400));
    y * 12 + m - 1
}

/// The first second of a month numbered as in [`month_of`].
pub(crate) fn month_start(month: i64) -> i64 {
    days_from_civil(month.div_euclid(12), month.rem_euclid(12) + 1, 1) * 86_400
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn months_round_trip() {
        for secs in [-86_400 * 400, -1, 0, 1, 951_782_400, 1_714_559_400, 4_102_444_800] {
            let m = month_of(secs);
            assert!(month_start(m) <= secs && secs < month_start(m + 1), "{secs}");
        }
        assert_eq!(month_start(month_of(0)), 0);
        assert_eq!(month_of(951_782_400), 2000 * 12 + 1);
        assert_eq!(civil_from_days(days_from_civil(2024, 2, 29)), (2024, 2, 29));
    }
}
