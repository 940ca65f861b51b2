//! Time, in one place: RFC 3339 in UTC for when something happened (an answer generated, a
//! session started, a guard record written), ISO 8601 in the author's zone for blame dates,
//! and the stopwatch behind `GIT_PRISM_TRACE`.
//!
//! The formatting is pure arithmetic on seconds since the Unix epoch (no time zone database,
//! no locale): the same input always gives the same text. Only [`now_rfc3339`] reads the wall
//! clock, and the [`Stopwatch`] the monotonic one.

/// Returns the current time as RFC 3339 UTC with seconds (`2026-11-30T01:15:40Z`).
pub fn now_rfc3339() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    rfc3339(secs as i64)
}

/// Formats seconds since the Unix epoch as RFC 3339 UTC.
pub fn rfc3339(secs: i64) -> String {
    let days = secs.div_euclid(86_400);
    let rem = secs.rem_euclid(86_400);
    // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}

/// Formats seconds since the epoch in a `+hhmm` zone as ISO 8601 (`2024-01-01T09:00:00+09:00`).
pub fn iso_date(time: i64, tz: &str) -> String {
    let sign = if tz.starts_with('-') { -1 } else { 1 };
    let digits = tz.trim_start_matches(['+', '-']);
    let (h, m) = (
        digits
            .get(..2)
            .and_then(|d| d.parse::<i64>().ok())
            .unwrap_or(0),
        digits
            .get(2..4)
            .and_then(|d| d.parse::<i64>().ok())
            .unwrap_or(0),
    );
    let offset = sign * (h * 3600 + m * 60);
    let utc = rfc3339(time + offset);
    format!(
        "{}{}{:02}:{:02}",
        utc.trim_end_matches('Z'),
        if sign < 0 { '-' } else { '+' },
        h,
        m
    )
}

/// Times the phases of a run (for `GIT_PRISM_TRACE=1`).
#[derive(Debug)]
pub struct Stopwatch {
    clock: std::time::Instant,
    laps: Vec<(&'static str, std::time::Duration)>,
}

impl Stopwatch {
    /// Starts timing the first phase.
    pub fn start() -> Stopwatch {
        Stopwatch {
            clock: std::time::Instant::now(),
            laps: Vec::new(),
        }
    }

    /// Ends the current phase under `name` and starts the next.
    pub fn lap(&mut self, name: &'static str) {
        self.laps.push((name, self.clock.elapsed()));
        self.clock = std::time::Instant::now();
    }

    /// Records a phase timed elsewhere (one that ran in parallel with the current one).
    pub fn record(&mut self, name: &'static str, took: std::time::Duration) {
        self.laps.push((name, took));
    }

    /// Returns every phase, in order.
    pub fn into_laps(self) -> Vec<(&'static str, std::time::Duration)> {
        self.laps
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rfc3339_dates() {
        assert_eq!(rfc3339(0), "1970-01-01T00:00:00Z");
        assert_eq!(rfc3339(951_782_400), "2000-02-29T00:00:00Z");
        assert_eq!(rfc3339(1_796_000_000), "2026-11-30T00:53:20Z");
    }

    #[test]
    fn dates_keep_the_author_zone() {
        assert_eq!(
            iso_date(1_704_067_200, "+0100"),
            "2024-01-01T01:00:00+01:00"
        );
        assert_eq!(
            iso_date(1_704_067_200, "-0530"),
            "2023-12-31T18:30:00-05:30"
        );
        assert_eq!(iso_date(0, "+0000"), "1970-01-01T00:00:00+00:00");
    }
}
