//! The limits of `perftest compare --fail-above PCT --fail-median PCT` as given on the command
//! line; the gate's verdict is perftest-report's ([`perftest_report::gate`]).

/// Parses a limit of `--fail-above`/`--fail-median`: a percentage, finite and at least 0.
pub fn parse_limit(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(value) if value.is_finite() && value >= 0.0 => Ok(value),
        _ => Err(format!("{text} is not a percentage, finite and at least 0")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_are_validated() {
        for bad in ["-1", "NaN", "inf", "-0.001", "five", ""] {
            let error = parse_limit(bad).unwrap_err();
            assert!(error.contains("finite and at least 0"), "{bad:?}: {error}");
        }
        assert_eq!(parse_limit("0"), Ok(0.0));
        assert_eq!(parse_limit("2.5"), Ok(2.5));
    }
}
