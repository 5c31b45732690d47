//! Wall-clock instants as UTC calendar fields, for file names and timestamps in saved files.
//!
//! Conventions: Unix seconds (no leap seconds), proleptic Gregorian calendar, UTC. No time-zone
//! database: what octoref writes is always UTC.

/// A UTC calendar date and time of day, to the second.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct UtcTime {
    pub year: i64,
    pub month: i64,
    pub day: i64,
    pub hour: u64,
    pub minute: u64,
    pub second: u64,
}

impl UtcTime {
    /// Unix seconds -> calendar fields (Howard Hinnant's civil-from-days).
    pub fn from_unix(unix_secs: u64) -> Self {
        let days = (unix_secs / 86_400) as i64;
        let rem = unix_secs % 86_400;
        let z = days + 719_468;
        let era = z.div_euclid(146_097);
        let doe = z - era * 146_097;
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
        let mp = (5 * doy + 2) / 153;
        let day = doy - (153 * mp + 2) / 5 + 1;
        let month = if mp < 10 { mp + 3 } else { mp - 9 };
        UtcTime {
            year: yoe + era * 400 + i64::from(month <= 2),
            month,
            day,
            hour: rem / 3600,
            minute: rem % 3600 / 60,
            second: rem % 60,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_instants() {
        let t = UtcTime::from_unix(0);
        assert_eq!(
            (t.year, t.month, t.day, t.hour, t.minute, t.second),
            (1970, 1, 1, 0, 0, 0)
        );
        // 2000-02-29T12:34:56Z, a leap day in a century leap year.
        let t = UtcTime::from_unix(951_827_696);
        assert_eq!(
            (t.year, t.month, t.day, t.hour, t.minute, t.second),
            (2000, 2, 29, 12, 34, 56)
        );
    }
}
