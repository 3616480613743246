//! The suites a case belongs to, and parsing `--suite` words.

/// A named group of cases that runs together (`--suite`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Suite {
    /// The original perftest's 138 L1 cases (the default).
    Original,
    /// What bindless engines do: descriptor indexing, device addresses, large working sets.
    Modern,
    /// Sampler state and image shapes.
    Texture,
    /// The rest of the memory hierarchy: narrow loads, constants, shared memory, latency.
    Memory,
    /// The same loads in fragment and vertex shaders, and fixed-function vertex fetch.
    Graphics,
    /// Where the data lives: loads from every memory type, uploads and readbacks, and what a
    /// dispatch costs to launch.
    Transfer,
}

impl Suite {
    /// Every suite, in the order `--suite all` runs them.
    pub const ALL: [Suite; 6] = [
        Suite::Original,
        Suite::Modern,
        Suite::Texture,
        Suite::Memory,
        Suite::Graphics,
        Suite::Transfer,
    ];

    /// The word `--suite` takes and reports record (`original`).
    pub fn name(self) -> &'static str {
        match self {
            Suite::Original => "original",
            Suite::Modern => "modern",
            Suite::Texture => "texture",
            Suite::Memory => "memory",
            Suite::Graphics => "graphics",
            Suite::Transfer => "transfer",
        }
    }
}

impl std::fmt::Display for Suite {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// A `--suite` word that names no suite.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SuiteError {
    /// The word as given.
    pub word: String,
}

impl std::fmt::Display for SuiteError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "'{}' is not a suite; valid suites: {}, all",
            self.word,
            Suite::ALL.map(Suite::name).join(", ")
        )
    }
}

impl std::error::Error for SuiteError {}

/// Parses `--suite` values: each may be a comma-separated list of suite names or `all`
/// (case-insensitive, surrounding spaces ignored). Returns the suites in [`Suite::ALL`] order
/// without repeats; no values at all gives `[Suite::Original]`, the default.
pub fn parse_suites<S: AsRef<str>>(values: &[S]) -> Result<Vec<Suite>, SuiteError> {
    let mut chosen = Vec::new();
    for word in values.iter().flat_map(|v| v.as_ref().split(',')) {
        let key = word.trim().to_lowercase();
        if key == "all" {
            chosen.extend(Suite::ALL);
            continue;
        }
        match Suite::ALL.into_iter().find(|s| s.name() == key) {
            Some(suite) => chosen.push(suite),
            None => {
                return Err(SuiteError {
                    word: word.to_string(),
                })
            }
        }
    }
    if chosen.is_empty() {
        chosen.push(Suite::Original);
    }
    chosen.sort();
    chosen.dedup();
    Ok(chosen)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_is_original() {
        let none: [&str; 0] = [];
        assert_eq!(parse_suites(&none), Ok(vec![Suite::Original]));
    }

    #[test]
    fn lists_repeats_and_all() {
        assert_eq!(
            parse_suites(&["memory,original", "Modern"]),
            Ok(vec![Suite::Original, Suite::Modern, Suite::Memory])
        );
        assert_eq!(parse_suites(&["all", "texture"]), Ok(Suite::ALL.to_vec()));
        assert_eq!(parse_suites(&[" texture "]), Ok(vec![Suite::Texture]));
    }

    #[test]
    fn unknown_and_empty_words_are_errors() {
        let e = parse_suites(&["orignal"]).unwrap_err();
        assert_eq!(e.word, "orignal");
        let text = e.to_string();
        for name in ["original", "modern", "texture", "memory", "graphics", "all"] {
            assert!(text.contains(name), "{text}");
        }
        assert!(parse_suites(&["original,"]).is_err());
        assert!(parse_suites(&[""]).is_err());
    }
}
