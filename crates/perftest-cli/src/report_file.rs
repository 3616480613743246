//! Reading a saved JSON report back (`perftest compare`, `perftest render`), as untrusted input;
//! a file that is not JSON is read as a published table ([`crate::published`]).
//!
//! Only regular files are read (a FIFO, a device such as `/dev/zero` or a directory is refused
//! before it is opened), up to [`MAX_REPORT_BYTES`]. The schema string is checked before the
//! layout, then every value the figures are derived from is checked ([`check_values`]): a report
//! that passes can be rendered and compared without surprises. Every error is one line naming
//! the file (and the case, where one is at fault), quoting what it read as a bounded excerpt
//! ([`crate::output::printable::excerpt`]). Files are UTF-8, a byte-order mark allowed; UTF-16
//! and other encodings are named as such. Parsing starts only when the memory it takes is
//! free ([`ensure_room`]).

use std::collections::HashSet;
use std::fs::File;
use std::io::{self, Read};
use std::path::{Path, PathBuf};

use crate::output::printable::{excerpt, printable, printable_path as shown};
use crate::report::{CaseStatus, DataPlaces, Measurement, Report, SCHEMA};
use perftest_report::sizing::group_total;

/// The largest report read: 256 MiB (a full run of every suite is a few MB).
pub const MAX_REPORT_BYTES: u64 = 256 * 1024 * 1024;

/// The longest sample accepted: 600 s, the largest `--fence-timeout-ms`, in nanoseconds. No
/// dispatch that took longer can have been measured.
pub const MAX_SAMPLE_NS: f64 = 600e9;

/// Why a report could not be read. Every message is one line and names the file.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    /// The file does not exist.
    #[error("{}: no such file", shown(path))]
    Missing {
        /// The file asked for.
        path: PathBuf,
    },
    /// The path exists but is not a regular file (a directory, FIFO, device, socket).
    #[error(
        "{}: not a regular file ({what}); reports are read from regular files only",
        shown(path)
    )]
    NotRegular {
        /// The file asked for.
        path: PathBuf,
        /// What it is instead.
        what: &'static str,
    },
    /// The file is larger than [`MAX_REPORT_BYTES`].
    #[error("{}: larger than the {} MiB a report may have", shown(path), MAX_REPORT_BYTES >> 20)]
    TooLarge {
        /// The file asked for.
        path: PathBuf,
    },
    /// The file exists but could not be read.
    #[error("cannot read {}: {source}", shown(path))]
    Read {
        /// The file asked for.
        path: PathBuf,
        /// The underlying error.
        source: io::Error,
    },
    /// The file is not JSON, or not a report of the expected layout.
    #[error("{} is not a valid perftest report: {}", shown(path), printable(&source.to_string()))]
    Malformed {
        /// The file asked for.
        path: PathBuf,
        /// What the JSON parser said.
        source: serde_json::Error,
    },
    /// There is not the memory to read the report (see [`ensure_room`]).
    #[error(
        "{}: not enough memory to read it (about {mib} MiB more are needed)",
        shown(path)
    )]
    NoMemory {
        /// The file asked for.
        path: PathBuf,
        /// The memory it needs, in MiB.
        mib: usize,
    },
    /// The file is not UTF-8 text (UTF-16, or a Latin-1 byte): named as such, not as a wrong
    /// format.
    #[error("{} is not UTF-8 text: {problem}", shown(path))]
    Encoding {
        /// The file asked for.
        path: PathBuf,
        /// What was found instead, and how to convert it.
        problem: String,
    },
    /// The file is a report of another schema (or has no schema string).
    #[error(
        "{} has schema {}, but this perftest reads {expected:?}",
        shown(path),
        found.as_deref().map_or_else(|| "(none)".to_string(), |s| format!("\"{}\"", excerpt(s)))
    )]
    Schema {
        /// The file asked for.
        path: PathBuf,
        /// The file's `schema` string, if it has one.
        found: Option<String>,
        /// The schema this perftest reads.
        expected: &'static str,
    },
    /// The layout is right but a value cannot be true (see [`check_values`]).
    #[error(
        "{} is not a valid perftest report: {}",
        shown(path),
        printable(problem)
    )]
    Invalid {
        /// The file asked for.
        path: PathBuf,
        /// What is wrong, naming the case.
        problem: String,
    },
}

/// Reads, parses and checks the report at `path`.
pub fn load_report(path: &Path) -> Result<Report, ReadError> {
    let bytes = read_limited(path, MAX_REPORT_BYTES)?;
    ensure_room(path, bytes.len().saturating_mul(PARSE_ROOM_PER_BYTE))?;
    parse_report(&bytes, path)
}

/// How many bytes of memory are checked to be free per byte of a report's file before it is
/// parsed, beside the file's bytes: the typed report takes about 4.4 for a report of many
/// small cases, less for long sample lists or a published table. An estimate, so a limit
/// within a few percent of the need can still end the process; every other is one message.
pub const PARSE_ROOM_PER_BYTE: usize = 4;

/// Checks that `bytes` more bytes can be allocated now, by reserving them and giving them back
/// at once (address space only: no page is touched), so that a report too large for the
/// memory left (an address-space limit, a container's) is one error naming the file rather
/// than an abort in the middle of parsing it.
pub fn ensure_room(path: &Path, bytes: usize) -> Result<(), ReadError> {
    let mut probe: Vec<u8> = Vec::new();
    probe
        .try_reserve_exact(bytes)
        .map_err(|_| ReadError::NoMemory {
            path: path.to_path_buf(),
            mib: bytes.div_ceil(1 << 20),
        })
}

/// The bytes of the regular file at `path`, refusing anything else and anything larger than
/// `limit` bytes.
fn read_limited(path: &Path, limit: u64) -> Result<Vec<u8>, ReadError> {
    let read_error = |source: io::Error| {
        if source.kind() == io::ErrorKind::NotFound {
            ReadError::Missing {
                path: path.to_path_buf(),
            }
        } else {
            ReadError::Read {
                path: path.to_path_buf(),
                source,
            }
        }
    };
    // Decided before opening: opening a FIFO without a writer would block forever.
    let meta = std::fs::metadata(path).map_err(read_error)?;
    if !meta.is_file() {
        return Err(ReadError::NotRegular {
            path: path.to_path_buf(),
            what: file_kind(&meta),
        });
    }
    let file = File::open(path).map_err(read_error)?;
    // Room for the size seen (and the byte that shows growth) at once: growing by doubling
    // would reserve up to twice the file.
    let expected = usize::try_from(meta.len().min(limit).saturating_add(1)).unwrap_or(0);
    let mut bytes = Vec::new();
    bytes
        .try_reserve_exact(expected)
        .map_err(|_| read_error(io::ErrorKind::OutOfMemory.into()))?;
    // The size is enforced while reading too: the file may grow after the check.
    file.take(limit.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(read_error)?;
    if bytes.len() as u64 > limit {
        return Err(ReadError::TooLarge {
            path: path.to_path_buf(),
        });
    }
    Ok(bytes)
}

/// A word for what a non-regular file is.
fn file_kind(meta: &std::fs::Metadata) -> &'static str {
    if meta.is_dir() {
        return "a directory";
    }
    if let Some(kind) = crate::platform::special_file_kind(meta) {
        return kind;
    }
    "not a file"
}

/// Parses and checks report JSON read from `path` (used in messages only). The schema string is
/// checked before the layout, so a report from another perftest version gets a schema error
/// rather than a confusing missing-field one.
pub fn parse_report(bytes: &[u8], path: &Path) -> Result<Report, ReadError> {
    let malformed = |source| ReadError::Malformed {
        path: path.to_path_buf(),
        source,
    };
    let invalid = |problem| ReadError::Invalid {
        path: path.to_path_buf(),
        problem,
    };
    // A UTF-8 byte-order mark (as Windows editors write) is no part of the text.
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    if let Some(problem) = encoding_problem(bytes) {
        return Err(ReadError::Encoding {
            path: path.to_path_buf(),
            problem,
        });
    }
    if let Ok(text) = std::str::from_utf8(bytes) {
        if crate::published::is_table(text) {
            let file = path.display().to_string();
            let report = crate::published::parse_table(text, &file).map_err(invalid)?;
            check_values(&report).map_err(invalid)?;
            return Ok(report);
        }
    }
    // Two passes over the bytes, neither building a tree of the whole file: the schema string
    // alone (every other value skipped), then the typed report.
    let found = SchemaProbe::read(bytes).map_err(malformed)?;
    if found.as_deref() != Some(SCHEMA) {
        return Err(ReadError::Schema {
            path: path.to_path_buf(),
            found,
            expected: SCHEMA,
        });
    }
    let report: Report = serde_json::from_slice(bytes).map_err(malformed)?;
    check_values(&report).map_err(|problem| ReadError::Invalid {
        path: path.to_path_buf(),
        problem,
    })?;
    Ok(report)
}

/// Why `bytes` (a byte-order mark of UTF-8 already removed) is not UTF-8 text, with what it
/// seems to be instead; `None` when it is UTF-8. UTF-16 and UTF-32 are told by their
/// byte-order mark or by NUL bytes at the start (no report or table holds one); any other
/// invalid byte is named with its line, most often a Latin-1 (Windows-1252) character.
fn encoding_problem(bytes: &[u8]) -> Option<String> {
    const CONVERT: &str = "perftest reads UTF-8; convert it first (iconv -f";
    if bytes.starts_with(&[0xFF, 0xFE]) || bytes.starts_with(&[0xFE, 0xFF]) {
        return Some(format!(
            "it is UTF-16 (or UTF-32) text, by its byte-order mark; {CONVERT} UTF-16 -t UTF-8)"
        ));
    }
    if bytes.iter().take(64).any(|&b| b == 0) {
        return Some(format!(
            "it holds NUL bytes, as UTF-16 text or binary data does; {CONVERT} UTF-16 -t UTF-8)"
        ));
    }
    let error = std::str::from_utf8(bytes).err()?;
    let at = error.valid_up_to();
    let line = bytes[..at].iter().filter(|&&b| b == b'\n').count() + 1;
    let byte = bytes.get(at).copied().unwrap_or(0);
    Some(format!(
        "byte 0x{byte:02X} on line {line} is not UTF-8 (Latin-1 or Windows-1252 text?); \
         {CONVERT} LATIN1 -t UTF-8)"
    ))
}

/// Reads a report's `schema` string and nothing else: every other value is skipped as it is
/// parsed, so checking the schema costs no memory beyond the string. `top` is true for the
/// whole document (an object whose `schema` is wanted) and false for the `schema` value (a
/// string is kept, any other type is `None`); the last `schema` key counts, as in a JSON tree.
#[derive(Clone, Copy)]
struct SchemaProbe {
    /// Whether this is the whole document rather than the `schema` value.
    top: bool,
}

impl SchemaProbe {
    /// The `schema` string of the JSON document `bytes`, or `None` when the document is not an
    /// object or has no `schema` string; an error when it is not JSON.
    fn read(bytes: &[u8]) -> Result<Option<String>, serde_json::Error> {
        use serde::de::DeserializeSeed;
        let mut parser = serde_json::Deserializer::from_slice(bytes);
        let found = SchemaProbe { top: true }.deserialize(&mut parser)?;
        parser.end()?;
        Ok(found)
    }
}

impl<'de> serde::de::DeserializeSeed<'de> for SchemaProbe {
    type Value = Option<String>;

    fn deserialize<D: serde::Deserializer<'de>>(
        self,
        deserializer: D,
    ) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> serde::de::Visitor<'de> for SchemaProbe {
    type Value = Option<String>;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_str<E: serde::de::Error>(self, text: &str) -> Result<Self::Value, E> {
        Ok((!self.top).then(|| text.to_string()))
    }

    fn visit_bool<E: serde::de::Error>(self, _: bool) -> Result<Self::Value, E> {
        Ok(None)
    }

    fn visit_i64<E: serde::de::Error>(self, _: i64) -> Result<Self::Value, E> {
        Ok(None)
    }

    fn visit_u64<E: serde::de::Error>(self, _: u64) -> Result<Self::Value, E> {
        Ok(None)
    }

    fn visit_f64<E: serde::de::Error>(self, _: f64) -> Result<Self::Value, E> {
        Ok(None)
    }

    fn visit_unit<E: serde::de::Error>(self) -> Result<Self::Value, E> {
        Ok(None)
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        while seq.next_element::<serde::de::IgnoredAny>()?.is_some() {}
        Ok(None)
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut found = None;
        while let Some(key) = map.next_key::<std::borrow::Cow<'de, str>>()? {
            if self.top && key == "schema" {
                found = map.next_value_seed(SchemaProbe { top: false })?;
            } else {
                map.next_value::<serde::de::IgnoredAny>()?;
            }
        }
        Ok(found)
    }
}

/// A time from a report, as an error quotes it: as written up to 10^15, in exponent form
/// beyond (a hostile `1e300` is not printed as 301 digits).
fn shown_ns(t: f64) -> String {
    if t.abs() <= 1e15 || !t.is_finite() {
        format!("{t}")
    } else {
        format!("{t:e}")
    }
}

/// The first sample of `samples` that is not finite, positive and at most [`MAX_SAMPLE_NS`],
/// as `{what} N is X ns (...)`.
fn check_samples(samples: &[f64], what: &str) -> Result<(), String> {
    match samples
        .iter()
        .enumerate()
        .find(|(_, s)| !(s.is_finite() && **s > 0.0 && **s <= MAX_SAMPLE_NS))
    {
        Some((i, &s)) => Err(format!(
            "{what} {} is {} ns (samples must be positive and at most {MAX_SAMPLE_NS:e} ns)",
            i + 1,
            shown_ns(s)
        )),
        None => Ok(()),
    }
}

/// A measurement's `data_places`: as many probes as offsets (at least one), the chosen place
/// one of them, and every probe a time a sample could be, or 0 (no probe returned one).
fn check_data_places(places: &DataPlaces) -> Result<(), String> {
    let (offsets, probes) = (places.offsets.len(), places.probe_ns.len());
    if offsets == 0 || offsets != probes {
        return Err(format!(
            "data_places has {offsets} offsets and {probes} probes (as many, at least one)"
        ));
    }
    if places.place as usize >= offsets {
        return Err(format!(
            "data_places.place is {} of {offsets} places",
            places.place
        ));
    }
    match places
        .probe_ns
        .iter()
        .find(|&&t| !(t == 0.0 || (t.is_finite() && t > 0.0 && t <= MAX_SAMPLE_NS)))
    {
        Some(&t) => Err(format!(
            "a data_places probe is {} ns (0, or positive and at most {MAX_SAMPLE_NS:e} ns)",
            shown_ns(t)
        )),
        None => Ok(()),
    }
}

/// The lists kept beside a measurement's samples, one entry per sample or none: `seqs` (the
/// rounds' order, which the clock-step filter matches samples by) and `sample_placements`,
/// each below the run's `placements`.
fn check_sample_lists(m: &Measurement, placements: u32) -> Result<(), String> {
    let samples = m.samples_ns.len();
    for (name, len) in [
        ("seqs", m.seqs.len()),
        ("sample_placements", m.sample_placements.len()),
    ] {
        if len != 0 && len != samples {
            return Err(format!(
                "{len} {name} for {samples} samples (one per sample, or none)"
            ));
        }
    }
    match m.sample_placements.iter().find(|&&p| p >= placements) {
        Some(p) => Err(format!(
            "a sample at placement {p}, of settings.placements {placements}"
        )),
        None => Ok(()),
    }
}

/// Checks what the JSON layout cannot: every number perftest writes back is finite (a value
/// that overflows `f32`, such as a `timestamp_period_ns` of `1e39`, would be written as `null`,
/// which no perftest reads: whatever perftest writes, it reads), case ids are non-empty and
/// unique, and every measured case has a measurement whose `groups` is the product of its
/// `dims` (each at least 1) and whose samples are finite, positive and at most
/// [`MAX_SAMPLE_NS`], with one `seqs` and one `sample_placements` entry per sample (or none).
/// The error names the field or the case.
pub fn check_values(report: &Report) -> Result<(), String> {
    let period = report.device.timestamp_period_ns;
    if !(period.is_finite() && period >= 0.0) {
        return Err(format!(
            "device.timestamp_period_ns is {period} (it must be a finite, non-negative 32-bit \
             float)"
        ));
    }
    let target = report.settings.target_ms;
    if !(target.is_finite() && target >= 0.0) {
        return Err(format!(
            "settings.target_ms is {target} (it must be finite and non-negative)"
        ));
    }
    if let Some(clock) = report.settings.clock_mhz {
        if !(clock.is_finite() && clock > 0.0) {
            return Err(format!(
                "settings.clock_mhz is {clock} (it must be finite and positive)"
            ));
        }
    }
    let placements = report.settings.placements.unwrap_or(1);
    if placements == 0 {
        return Err("settings.placements is 0 (at least 1)".into());
    }
    if let Some(clock) = &report.clock {
        if !clock.seqs.is_empty() && clock.seqs.len() != clock.samples_ns.len() {
            return Err(format!(
                "clock: {} seqs for {} samples (one per sample, or none)",
                clock.seqs.len(),
                clock.samples_ns.len()
            ));
        }
    }
    let mut seen = HashSet::with_capacity(report.cases.len());
    for (index, case) in report.cases.iter().enumerate() {
        let id = excerpt(&case.id);
        let at = |problem: String| format!("case {} (\"{id}\"): {problem}", index + 1);
        if case.id.is_empty() {
            return Err(at("empty id".into()));
        }
        if !seen.insert(case.id.as_str()) {
            return Err(at("the id appears twice".into()));
        }
        let Some(m) = &case.measurement else {
            if case.status == CaseStatus::Measured {
                return Err(at("measured, but without a measurement".into()));
            }
            continue;
        };
        if m.dims.contains(&0) {
            return Err(at(format!("dims {:?} has a zero dimension", m.dims)));
        }
        if m.groups != group_total(m.dims) {
            return Err(at(format!(
                "groups {} is not the product of dims {:?}",
                m.groups, m.dims
            )));
        }
        if case.status == CaseStatus::Measured && m.samples_ns.is_empty() {
            return Err(at("measured, but without samples".into()));
        }
        check_samples(&m.samples_ns, "sample").map_err(at)?;
        check_sample_lists(m, placements).map_err(at)?;
        if let Some(places) = &m.data_places {
            check_data_places(places).map_err(at)?;
        }
        if let Some(short) = &m.short {
            if short.dims.contains(&0) || short.groups != group_total(short.dims) {
                return Err(at(format!(
                    "short.groups {} is not the product of short.dims {:?} (each at least 1)",
                    short.groups, short.dims
                )));
            }
            if short.groups >= m.groups {
                return Err(at(format!(
                    "short.groups {} is not fewer than groups {}",
                    short.groups, m.groups
                )));
            }
            if short.samples_ns.is_empty() {
                return Err(at("short dispatches without samples".into()));
            }
            check_samples(&short.samples_ns, "short sample").map_err(at)?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::export::{Exporter, JsonExporter};
    use crate::report::ShortDispatches;
    use perftest_report::samples::sample_report;

    /// UTF-8 is read (its byte-order mark is removed before); UTF-16, NUL bytes and a byte that
    /// is not UTF-8 are named, the last with its line.
    #[test]
    fn encodings_are_told_apart() {
        assert_eq!(encoding_problem("caf\u{e9}: 1.0ms".as_bytes()), None);
        let utf16 = encoding_problem(b"\xFF\xFEa\x00").unwrap();
        assert!(utf16.contains("UTF-16"), "{utf16}");
        let nul = encoding_problem(b"a\x00b\x00").unwrap();
        assert!(nul.contains("NUL bytes"), "{nul}");
        let latin1 = encoding_problem(b"x\ny\ncaf\xE9").unwrap();
        assert!(
            latin1.starts_with("byte 0xE9 on line 3 is not UTF-8"),
            "{latin1}"
        );
    }

    fn scratch(name: &str) -> PathBuf {
        // Kept: each test removes it at its end.
        tempfile::Builder::new()
            .prefix(&format!("perftest-read-{name}-"))
            .tempdir()
            .unwrap()
            .keep()
    }

    fn json(report: &Report) -> Vec<u8> {
        JsonExporter.serialize(report).unwrap()
    }

    /// `data_places` must hold as many probes as offsets, at least one, choose one of them,
    /// and hold times a sample could be (or 0); anything else is refused with the case named.
    #[test]
    fn data_places_that_do_not_add_up_are_refused() {
        let good = DataPlaces {
            offsets: vec![0, 32768],
            probe_ns: vec![600e3, 0.0],
            place: 1,
        };
        let bad = [
            DataPlaces {
                probe_ns: vec![600e3],
                ..good.clone()
            },
            DataPlaces {
                offsets: Vec::new(),
                probe_ns: Vec::new(),
                place: 0,
            },
            DataPlaces {
                place: 2,
                ..good.clone()
            },
            DataPlaces {
                probe_ns: vec![600e3, -1.0],
                ..good.clone()
            },
            DataPlaces {
                probe_ns: vec![600e3, MAX_SAMPLE_NS * 2.0],
                ..good.clone()
            },
        ];
        let with = |places: &DataPlaces| {
            let mut report = sample_report();
            report.cases[0].measurement.as_mut().unwrap().data_places = Some(places.clone());
            report
        };
        assert_eq!(check_values(&with(&good)), Ok(()));
        for places in &bad {
            let error = check_values(&with(places)).unwrap_err();
            assert!(
                error.contains("case 1") && error.contains("data_places"),
                "{error}"
            );
        }
    }

    #[test]
    fn loads_exported_json() {
        let report = sample_report();
        let loaded = parse_report(&json(&report), Path::new("a.json")).unwrap();
        assert_eq!(loaded, report);
    }

    /// Whatever perftest reads, it writes back in a form it reads again, unchanged: every
    /// number field of a report, set to extreme values (beyond `f32`, subnormal, negative,
    /// zero, huge), is either refused on the first read or survives `render --format json`.
    #[test]
    fn every_report_read_round_trips_through_json() {
        let extremes = [
            "0",
            "-0.0",
            "1e-45",
            "1e-320",
            "3.4028235e38",
            "3.5e38",
            "1e39",
            "1e300",
            "1.7976931348623157e308",
            "-1",
            "-1e39",
            "0.5",
            "4294967295",
            "18446744073709551615",
        ];
        let mut report = sample_report();
        report.cases[0].measurement.as_mut().unwrap().data_places = Some(DataPlaces {
            offsets: vec![0, 32768],
            probe_ns: vec![658e3, 596e3],
            place: 1,
        });
        let base: serde_json::Value = serde_json::to_value(report).unwrap();
        let mut fields: Vec<Vec<String>> = Vec::new();
        collect_number_paths(&base, &mut Vec::new(), &mut fields);
        assert!(fields.len() > 20, "{fields:?}");
        let (mut refused, mut accepted) = (0, 0);
        for field in &fields {
            for extreme in extremes {
                let mut value = base.clone();
                let mut at = &mut value;
                for key in field {
                    at = match key.parse::<usize>() {
                        Ok(i) if at.is_array() => &mut at[i],
                        _ => &mut at[key.as_str()],
                    };
                }
                *at = serde_json::from_str(extreme).unwrap();
                let bytes = serde_json::to_vec(&value).unwrap();
                let Ok(first) = parse_report(&bytes, Path::new("hostile.json")) else {
                    refused += 1;
                    continue;
                };
                accepted += 1;
                let written = json(&first);
                let again = parse_report(&written, Path::new("written.json")).unwrap_or_else(|e| {
                    panic!("{field:?} = {extreme}: perftest wrote what it cannot read: {e}")
                });
                assert_eq!(again, first, "{field:?} = {extreme}");
            }
        }
        assert!(
            refused > 0 && accepted > 0,
            "{refused} refused, {accepted} accepted"
        );
    }

    /// The paths (keys and array indices) of every number in `value`.
    fn collect_number_paths(
        value: &serde_json::Value,
        path: &mut Vec<String>,
        out: &mut Vec<Vec<String>>,
    ) {
        match value {
            serde_json::Value::Number(_) => out.push(path.clone()),
            serde_json::Value::Array(items) => {
                for (i, item) in items.iter().enumerate() {
                    path.push(i.to_string());
                    collect_number_paths(item, path, out);
                    path.pop();
                }
            }
            serde_json::Value::Object(map) => {
                for (key, item) in map {
                    path.push(key.clone());
                    collect_number_paths(item, path, out);
                    path.pop();
                }
            }
            _ => {}
        }
    }

    #[test]
    fn schema_mismatch() {
        let mut report = sample_report();
        report.schema = "perftest-report/2".to_string();
        let bytes = serde_json::to_vec(&report).unwrap();
        let error = parse_report(&bytes, Path::new("new.json")).unwrap_err();
        assert!(
            matches!(&error, ReadError::Schema { found: Some(f), .. } if f == "perftest-report/2")
        );
        assert_eq!(
            error.to_string(),
            "new.json has schema \"perftest-report/2\", but this perftest reads \"perftest-report/1\""
        );
        let error = parse_report(b"{\"cases\": []}", Path::new("x.json")).unwrap_err();
        assert!(matches!(error, ReadError::Schema { found: None, .. }));
        assert!(error.to_string().contains("has schema (none)"), "{error}");
    }

    #[test]
    fn malformed_input() {
        let error = parse_report(b"{not json", Path::new("bad.json")).unwrap_err();
        assert!(matches!(error, ReadError::Malformed { .. }));
        assert!(error
            .to_string()
            .starts_with("bad.json is not a valid perftest report: "));
        // Right schema, wrong layout.
        let error = parse_report(
            b"{\"schema\": \"perftest-report/1\", \"cases\": 3}",
            Path::new("odd.json"),
        )
        .unwrap_err();
        assert!(matches!(error, ReadError::Malformed { .. }), "{error}");
        assert!(error.to_string().contains("odd.json"));
    }

    /// The error the sample report draws once `edit` changed it: an invalid report, in one line
    /// holding `needle`.
    fn refusal(edit: fn(&mut Report), needle: &str) -> String {
        let mut report = sample_report();
        edit(&mut report);
        let error = parse_report(&json(&report), Path::new("bad.json")).unwrap_err();
        let text = error.to_string();
        assert!(matches!(error, ReadError::Invalid { .. }), "{text}");
        assert!(text.contains(needle), "{needle:?} not in {text}");
        assert_eq!(text.lines().count(), 1, "{text}");
        text
    }

    /// Each impossible value is refused with a message naming the case.
    #[test]
    fn impossible_values_are_refused() {
        type Edit = fn(&mut Report);
        let edits: [(Edit, &str); 11] = [
            (
                |r| {
                    r.cases[0].measurement.as_mut().unwrap().short = Some(ShortDispatches {
                        groups: 4000,
                        dims: [4000, 1, 1],
                        samples_ns: vec![1e6],
                    })
                },
                "short.groups 4000 is not fewer than groups 4000",
            ),
            (
                |r| {
                    r.cases[0].measurement.as_mut().unwrap().short = Some(ShortDispatches {
                        groups: 3,
                        dims: [2, 1, 1],
                        samples_ns: vec![1e6],
                    })
                },
                "short.groups 3 is not the product",
            ),
            (
                |r| {
                    r.cases[0].measurement.as_mut().unwrap().short = Some(ShortDispatches {
                        groups: 2000,
                        dims: [2000, 1, 1],
                        samples_ns: vec![-1.0],
                    })
                },
                "short sample 1 is -1 ns",
            ),
            (
                |r| r.cases[0].measurement.as_mut().unwrap().samples_ns[1] = -5.0,
                "sample 2 is -5 ns",
            ),
            (
                |r| r.cases[0].measurement.as_mut().unwrap().samples_ns[0] = 0.0,
                "sample 1 is 0 ns",
            ),
            (
                |r| r.cases[0].measurement.as_mut().unwrap().samples_ns[0] = 1e300,
                "sample 1 is 1e300 ns (samples must be positive",
            ),
            (
                |r| r.cases[0].measurement.as_mut().unwrap().groups = 7,
                "groups 7 is not the product of dims [4000, 1, 1]",
            ),
            (
                |r| r.cases[0].measurement.as_mut().unwrap().dims = [0, 1, 1],
                "zero dimension",
            ),
            (
                |r| r.cases[0].measurement.as_mut().unwrap().samples_ns.clear(),
                "without samples",
            ),
            (|r| r.cases[0].measurement = None, "without a measurement"),
            (
                |r| {
                    let copy = r.cases[0].clone();
                    r.cases.push(copy);
                },
                "the id appears twice",
            ),
        ];
        for (edit, needle) in edits {
            let text = refusal(edit, needle);
            assert!(text.contains("typed.r8.uniform"), "{text}");
        }
    }

    /// `seqs` and `sample_placements` hold one entry per sample or none: a shorter list used to
    /// drop samples from the figures without a word (`seqs` matches samples to the clock's
    /// readings). A placement must be one of the run's.
    #[test]
    fn sample_lists_that_do_not_match_the_samples_are_refused() {
        type Edit = fn(&mut Report);
        let edits: [(Edit, &str); 6] = [
            (
                |r| r.cases[0].measurement.as_mut().unwrap().seqs = vec![0, 143],
                "2 seqs for",
            ),
            (
                |r| r.cases[0].measurement.as_mut().unwrap().sample_placements = vec![0, 1],
                "2 sample_placements for",
            ),
            (
                |r| {
                    let m = r.cases[0].measurement.as_mut().unwrap();
                    m.sample_placements = vec![0; m.samples_ns.len()];
                    m.sample_placements[1] = 200;
                    r.settings.placements = Some(2);
                },
                "a sample at placement 200, of settings.placements 2",
            ),
            (
                |r| {
                    let m = r.cases[0].measurement.as_mut().unwrap();
                    m.sample_placements = vec![1; m.samples_ns.len()];
                },
                "a sample at placement 1, of settings.placements 1",
            ),
            (
                |r| r.settings.placements = Some(0),
                "settings.placements is 0",
            ),
            (
                |r| {
                    r.clock = Some(crate::report::ClockSamples {
                        ticks_per_dispatch: 4096 * 1000,
                        samples_ns: vec![1e6; 3],
                        seqs: vec![0, 1],
                        ticks_per_group: 4096,
                        alone: None,
                    });
                },
                "clock: 2 seqs for 3 samples",
            ),
        ];
        for (edit, needle) in edits {
            refusal(edit, needle);
        }
        // Lists as long as the samples, or none, are read.
        let mut fine = sample_report();
        let m = fine.cases[0].measurement.as_mut().unwrap();
        m.seqs = (0..m.samples_ns.len()).collect();
        m.sample_placements = vec![1; m.samples_ns.len()];
        fine.settings.placements = Some(2);
        assert!(parse_report(&json(&fine), Path::new("fine.json")).is_ok());
    }

    #[test]
    fn files_that_are_not_regular_are_refused_before_opening() {
        let dir = scratch("kinds");
        let missing = dir.join("absent.json");
        let error = load_report(&missing).unwrap_err();
        assert!(matches!(&error, ReadError::Missing { path } if path == &missing));
        assert!(error.to_string().contains("absent.json: no such file"));

        let present = dir.join("present.json");
        let report = sample_report();
        std::fs::write(&present, json(&report)).unwrap();
        assert_eq!(load_report(&present).unwrap(), report);

        let error = load_report(&dir).unwrap_err();
        assert!(
            error
                .to_string()
                .contains("not a regular file (a directory)"),
            "{error}"
        );

        // The size limit (shown with a small one: the real one is 256 MiB).
        let size = std::fs::metadata(&present).unwrap().len();
        assert!(read_limited(&present, size).is_ok());
        let error = read_limited(&present, size - 1).unwrap_err();
        assert!(matches!(error, ReadError::TooLarge { .. }), "{error}");

        // A FIFO with no writer: refused at once instead of blocking forever.
        let fifo = dir.join("fifo");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        if made.is_ok_and(|s| s.success()) {
            let error = load_report(&fifo).unwrap_err();
            assert!(error.to_string().contains("(a FIFO)"), "{error}");
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn control_characters_in_paths_and_schemas_are_escaped() {
        let mut report = sample_report();
        report.schema = "x\u{1b}[2J\ny".into();
        let bytes = serde_json::to_vec(&report).unwrap();
        let error = parse_report(&bytes, Path::new("a\nb.json")).unwrap_err();
        let text = error.to_string();
        assert_eq!(text.lines().count(), 1, "{text}");
        assert!(!text.contains('\u{1b}'), "{text}");
    }

    /// A small deterministic generator (xorshift64*), so a failure is reproducible by seed.
    struct Rng(u64);

    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 >> 12;
            self.0 ^= self.0 << 25;
            self.0 ^= self.0 >> 27;
            self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
        }

        fn below(&mut self, n: usize) -> usize {
            (self.next() % n.max(1) as u64) as usize
        }
    }

    /// Odd values a hostile or damaged report may hold in place of any value.
    fn odd_value(rng: &mut Rng) -> serde_json::Value {
        use serde_json::json;
        let long = "\u{1b}[2J|`<b>&\n".repeat(1 + rng.below(3) * 20_000);
        match rng.below(14) {
            0 => json!(null),
            1 => json!(-1.0),
            2 => json!(0),
            3 => json!(1e308),
            4 => json!(u64::MAX),
            5 => json!(i64::MIN),
            6 => json!(long),
            7 => json!(""),
            8 => json!([]),
            9 => json!({}),
            10 => json!([0, 0, 0]),
            11 => json!("measured"),
            12 => json!(true),
            _ => json!(f64::MIN_POSITIVE),
        }
    }

    /// Replaces a random value somewhere in the tree (or duplicates an array element).
    fn mutate(value: &mut serde_json::Value, rng: &mut Rng, depth: u32) {
        use serde_json::Value;
        match value {
            Value::Object(map) if !map.is_empty() && depth < 6 => {
                let key = map
                    .keys()
                    .nth(rng.below(map.len()))
                    .cloned()
                    .unwrap_or_default();
                if let Some(child) = map.get_mut(&key) {
                    if rng.below(3) == 0 {
                        *child = odd_value(rng);
                    } else {
                        mutate(child, rng, depth + 1);
                    }
                }
            }
            Value::Array(items) if !items.is_empty() && depth < 6 => {
                let at = rng.below(items.len());
                match rng.below(4) {
                    0 => {
                        let copy = items[at].clone();
                        items.push(copy);
                    }
                    1 => items[at] = odd_value(rng),
                    _ => mutate(&mut items[at], rng, depth + 1),
                }
            }
            _ => *value = odd_value(rng),
        }
    }

    /// Reads mutated reports (values replaced, elements duplicated, bytes truncated or flipped)
    /// and sends every accepted one through every exporter and `compare`: nothing panics, and
    /// every rejection is a one-line message naming the file.
    #[test]
    fn fuzzed_reports_never_panic() {
        use crate::compare::render;
        use crate::export::{exporter, ExportFormat};
        use clap::ValueEnum;
        use perftest_report::pair::compare;

        let original = serde_json::to_value(sample_report()).unwrap();
        let pristine = sample_report();
        let path = Path::new("fuzz.json");
        let (mut accepted, mut rejected) = (0, 0);
        for seed in 1..=1500u64 {
            let mut rng = Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
            let mut value = original.clone();
            for _ in 0..1 + rng.below(3) {
                mutate(&mut value, &mut rng, 0);
            }
            let mut bytes = serde_json::to_vec(&value).unwrap();
            match rng.below(6) {
                0 => bytes.truncate(rng.below(bytes.len())),
                1 => {
                    let at = rng.below(bytes.len());
                    bytes[at] ^= 1 << rng.below(8);
                }
                _ => {}
            }
            let outcome = std::panic::catch_unwind(|| match parse_report(&bytes, path) {
                Ok(report) => {
                    for format in ExportFormat::value_variants() {
                        let _ = exporter(*format).serialize(&report);
                    }
                    let _ = render(&compare(&pristine, &report), "a", "b");
                    let _ = render(&compare(&report, &report), "a", "b");
                    Ok(())
                }
                Err(e) => Err(e.to_string()),
            });
            match outcome {
                Ok(Ok(())) => accepted += 1,
                Ok(Err(message)) => {
                    rejected += 1;
                    assert_eq!(message.lines().count(), 1, "seed {seed}: {message}");
                    assert!(message.contains("fuzz.json"), "seed {seed}: {message}");
                }
                Err(_) => panic!(
                    "seed {seed} panicked on {}",
                    String::from_utf8_lossy(&bytes)
                ),
            }
        }
        // Both paths were exercised.
        assert!(
            accepted > 50 && rejected > 50,
            "{accepted} accepted, {rejected} rejected"
        );
    }
}
