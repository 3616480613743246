//! The original suite's 138 cases, in the original order, and case selection.

use crate::case::Case;
use crate::families::cases_in;
use crate::suite::Suite;

/// Id of the case the original used as the `1.000x` reference: `Buffer<RGBA8>.Load random`.
pub const BASELINE_CASE_ID: &str = "typed.rgba8.random";

/// Returns the 138 cases of the original perftest, in its order, with its display names
/// (row 109 corrected to `Sample(nearest)`): the [`Suite::Original`] cases of the registry.
pub fn original_cases() -> Vec<Case> {
    cases_in(&[Suite::Original])
}

/// Ids (without the pattern) of the quick profile: for 4-byte and 16-byte loads, one case per
/// resource family, so an engine can compare resource types per width in a few milliseconds.
pub const QUICK_PROFILE: [&str; 10] = [
    "typed.r32f",
    "typed.rgba32f",
    "raw.load",
    "raw.load4",
    "structured.float",
    "structured.float4",
    "cbuffer.float4",
    "tex.load.r32f",
    "tex.load.rgba32f",
    "tex.sample.nearest.rgba32f",
];

/// The quick profile: the [`QUICK_PROFILE`] families x uniform/linear/random (30 cases), in
/// suite order.
pub fn quick_cases() -> Vec<Case> {
    original_cases()
        .into_iter()
        .filter(|c| {
            QUICK_PROFILE
                .iter()
                .any(|q| c.id.strip_suffix(c.pattern.name()) == Some(&format!("{q}.")))
        })
        .collect()
}

/// Looks a case up by its exact id.
pub fn find_case<'a>(cases: &'a [Case], id: &str) -> Option<&'a Case> {
    cases.iter().find(|c| c.id == id)
}

/// A `--filter` that selected nothing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SelectError {
    /// The filters as given.
    pub filters: Vec<String>,
}

impl std::fmt::Display for SelectError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "no case matches the filter {}; `perftest --list-cases` lists ids and names",
            self.filters
                .iter()
                // Escaped, so a control character cannot split the one-line message.
                .map(|s| format!("'{}'", crate::one_line(s)))
                .collect::<Vec<_>>()
                .join(", ")
        )
    }
}

impl std::error::Error for SelectError {}

/// Keeps the cases whose id or display name contains any of `filters` (case-insensitive
/// substring match, no wildcards), in suite order. No filters keeps every case.
pub fn select_cases(cases: &[Case], filters: &[String]) -> Result<Vec<Case>, SelectError> {
    if filters.is_empty() {
        return Ok(cases.to_vec());
    }
    let wanted: Vec<String> = filters.iter().map(|f| f.to_lowercase()).collect();
    let selected: Vec<Case> = cases
        .iter()
        .filter(|c| {
            let id = c.id.to_lowercase();
            let name = c.name.to_lowercase();
            wanted.iter().any(|w| id.contains(w) || name.contains(w))
        })
        .cloned()
        .collect();
    if selected.is_empty() {
        Err(SelectError {
            filters: filters.to_vec(),
        })
    } else {
        Ok(selected)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::case::SampleFilter;
    use crate::families::texture_sample;
    use crate::format::Format;
    use std::collections::HashSet;

    /// The original's names, in order, as listed in the project's notes on the original.
    const ORIGINAL_NAMES: &str = include_str!("../tests/original_names.txt");

    #[test]
    fn names_and_order_match_the_original() {
        let expected: Vec<&str> = ORIGINAL_NAMES.lines().filter(|l| !l.is_empty()).collect();
        let got: Vec<String> = original_cases().into_iter().map(|c| c.name).collect();
        assert_eq!(expected.len(), 138);
        assert_eq!(got, expected);
    }

    #[test]
    fn ids_are_unique_and_lowercase() {
        let cases = original_cases();
        let ids: HashSet<&str> = cases.iter().map(|c| c.id.as_str()).collect();
        assert_eq!(ids.len(), cases.len());
        assert!(cases
            .iter()
            .all(|c| c.id == c.id.to_lowercase() && !c.id.contains(' ')));
        assert!(find_case(&cases, BASELINE_CASE_ID).is_some());
        assert_eq!(
            find_case(&cases, "raw.load4.unaligned.random").map(|c| c.name.as_str()),
            Some("ByteAddressBuffer.Load4 unaligned random")
        );
    }

    #[test]
    fn row_109_uses_the_corrected_name() {
        let cases = original_cases();
        assert_eq!(
            cases[108].name,
            "Texture2D<RGBA32F>.Sample(nearest) uniform"
        );
        assert_eq!(cases[108].family.label(), "texture_sample");
        assert_eq!(cases[108].params.format, Some(Format::Rgba32f));
        assert_eq!(texture_sample::filter(&cases[108]), SampleFilter::Nearest);
        assert_eq!(
            texture_sample::filter(&cases[111]),
            SampleFilter::Bilinear,
            "{}",
            cases[111].name
        );
    }

    #[test]
    fn filters_match_ids_and_names_case_insensitively() {
        let cases = original_cases();
        let raw = select_cases(&cases, &["bytead".to_string()]).unwrap_or_default();
        assert_eq!(raw.len(), 18);
        let by_id = select_cases(&cases, &["RAW.LOAD4".to_string()]).unwrap_or_default();
        assert_eq!(by_id.len(), 6);
        let two = select_cases(&cases, &["cbuffer".into(), "structured.float4".into()])
            .unwrap_or_default();
        assert_eq!(two.len(), 6);
        assert_eq!(two[0].id, "structured.float4.uniform");
        let none = select_cases(&cases, &["nothing-like-this".to_string()]);
        assert!(none.is_err());
        assert_eq!(select_cases(&cases, &[]).map(|v| v.len()), Ok(138));
    }

    #[test]
    fn quick_profile_is_one_case_per_family_width_and_pattern() {
        let quick = quick_cases();
        assert_eq!(quick.len(), 30);
        assert!(quick
            .iter()
            .all(|c| c.bytes_per_load() == 4 || c.bytes_per_load() == 16));
        assert_eq!(quick[0].id, "typed.r32f.uniform");
        assert_eq!(quick[29].id, "tex.sample.nearest.rgba32f.random");
    }

    #[test]
    fn bytes_per_load() {
        let cases = original_cases();
        let get = |id: &str| find_case(&cases, id).map(|c| c.bytes_per_load());
        assert_eq!(get("typed.r8.linear"), Some(1));
        assert_eq!(get("raw.load3.random"), Some(12));
        assert_eq!(get("structured.float2.uniform"), Some(8));
        assert_eq!(get("cbuffer.float4.random"), Some(16));
        assert_eq!(get("tex.sample.bilinear.rgba16f.linear"), Some(8));
    }
}
