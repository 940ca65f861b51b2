//! Change manifests: git's per-file facts for a range, enriched, summarised and paged.
//!
//! Pipeline: [`build`] (git facts → [`model`]) → [`page`] (budget, cursors) → [`schema`]
//! (the wire format). Language labels come from [`language`], the generated flag from
//! [`generated`]. Nothing here prints; callers get values or JSON strings.

pub mod build;
pub mod generated;
pub mod history;
pub mod hunks;
pub mod language;
pub mod model;
pub mod page;
pub mod prefetch;
pub mod schema;
pub mod snapshot;

pub use build::{ManifestError, Options, build};
pub use model::{FileChange, Manifest};

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

#[cfg(test)]
mod tests {
    #[test]
    fn rfc3339_dates() {
        assert_eq!(super::rfc3339(0), "1970-01-01T00:00:00Z");
        assert_eq!(super::rfc3339(951_782_400), "2000-02-29T00:00:00Z");
        assert_eq!(super::rfc3339(1_796_000_000), "2026-11-30T00:53:20Z");
    }
}
