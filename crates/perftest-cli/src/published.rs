//! Published tables read as reports, so that `render` and `compare` take them beside
//! perftest's own JSON: the original perftest's text output (`NAME: X.XXXms Y.YYYx`, Direct3D
//! 11), as its README and its users' posts give it per GPU; its 2017 output (`Load R8
//! invariant: X.XXXms`, older names, no ratio, the time of one dispatch of 4 x 1024
//! workgroups); its Direct3D 12 port's (`NAME: TOTALms AVGms STDms R.RRRx`, the time the first
//! column, the spread of its frames the last two); and perftest-vk's CSV (its `median_ms` per
//! dispatch of 4 x 1024 workgroups and its `cv_pct`, the original suite's rows).
//!
//! A table may start with a Markdown heading naming the GPU (`### NVidia Ampere (RTX 3090)`)
//! and may sit inside a fenced block; every other non-empty line must be a case. Since November
//! 2018 `X.XXX` is the time the original's workload takes (30 dispatches of 4 x 1024
//! workgroups), so each case becomes one dispatch of those 122,880 workgroups taking that time:
//! its `ms` column reads back unchanged and its rates follow. The 2017 output printed the time
//! of a single dispatch of 4 x 1024 workgroups, so its cases are dispatches of that size (its
//! `ms` column then reads 30 times the printed figure, in the later output's unit). Names map to case ids by the original's 138 names
//! (case-insensitively, as its older 84-row list spells some); the original prints
//! `Texture2D<RGBA32F>.Sample(bilinear) uniform` where it runs the nearest sampler, so that
//! name after a nearest case is read as `Sample(nearest) uniform`. A partial table gives the
//! cases it has.

use perftest_cases::{original_cases, Case};

use crate::output::printable::{excerpt, printable};
use crate::report::{
    CaseResult, DeviceInfo, FailureKind, Measurement, Report, ReportSource, Settings,
};

/// Workgroups of the original's timed workload: 30 dispatches of 4 x 1024 groups.
pub const ORIGINAL_GROUPS: u64 = 30 * 4 * 1024;

/// The name the original prints for the nearest-sampled `Texture2D<RGBA32F>` uniform case.
const TYPO_NAME: &str = "texture2d<rgba32f>.sample(bilinear) uniform";

/// The case the original's typo stands for.
const TYPO_ID: &str = "tex.sample.nearest.rgba32f.uniform";

/// Whether `text` is a published table rather than perftest's JSON.
pub fn is_table(text: &str) -> bool {
    !text.trim_start().starts_with('{')
}

/// The first columns of perftest-vk's CSV header.
const PERFTEST_VK_HEADER: &str = "suite,test,total_ms";

/// Reads a published table of either kind; `file` names it in the report and in messages.
pub fn parse_table(text: &str, file: &str) -> Result<Report, String> {
    if text.trim_start().starts_with(PERFTEST_VK_HEADER) {
        parse_perftest_vk_csv(text, file)
    } else {
        parse_original_text(text, file)
    }
}

/// Reads perftest-vk's CSV: the rows of its original suite, each `median_ms` one dispatch of
/// 4 x 1024 workgroups; a row whose status is not `ok` is a failed case.
pub fn parse_perftest_vk_csv(text: &str, file: &str) -> Result<Report, String> {
    let mut reader = ::csv::Reader::from_reader(text.as_bytes());
    let headers = reader
        .headers()
        .map_err(|e| format!("no CSV header: {e}"))?
        .clone();
    let column = |name: &str| {
        headers
            .iter()
            .position(|h| h == name)
            .ok_or_else(|| format!("no `{}` column", excerpt(name)))
    };
    let [suite, test, median, status, device, vendor, id, driver, vulkan, cv] = [
        "suite",
        "test",
        "median_ms",
        "status",
        "device",
        "vendor_id",
        "device_id",
        "driver",
        "vulkan",
        "cv_pct",
    ]
    .map(column);
    let (suite, test, median, status) = (suite?, test?, median?, status?);
    let cases = original_cases();
    let mut report = Report::begin(DeviceInfo::unknown(), settings());
    report.source = Some(ReportSource {
        tool: "perftest-vk".to_string(),
        api: "Vulkan".to_string(),
        file: file.to_string(),
    });
    for (number, row) in reader.records().enumerate() {
        let line = number + 2;
        let row = row.map_err(|e| format!("line {line}: {e}"))?;
        let cell = |i: usize| row.get(i).unwrap_or_default();
        if cell(suite) != "original" {
            continue;
        }
        let case = find(&cases, cell(test), None).ok_or_else(|| {
            format!(
                "line {line}: no case of the original is named `{}`",
                excerpt(cell(test))
            )
        })?;
        if report.cases.iter().any(|c| c.id == case.id) {
            return Err(format!("line {line}: {} is listed twice", case.name));
        }
        if report.cases.is_empty() {
            describe_device(
                &mut report.device,
                &row,
                [&device, &vendor, &id, &driver, &vulkan],
            );
        }
        let result = if cell(status) == "ok" {
            let ms: f64 = cell(median)
                .parse()
                .ok()
                .filter(|ms: &f64| ms.is_finite() && *ms > 0.0)
                .ok_or_else(|| {
                    format!(
                        "line {line}: median_ms `{}` is no time",
                        excerpt(cell(median))
                    )
                })?;
            let mut result = CaseResult::measured(case, dispatch(ONE_DISPATCH_GROUPS, ms));
            result.source_cv =
                cv_of(cv.as_ref().ok().and_then(|&i| row.get(i))).map_err(|bad| {
                    format!("line {line}: cv_pct `{}` is no percentage", excerpt(&bad))
                })?;
            result
        } else {
            // The table says only that the case did not run to the end, not why.
            let why = format!("perftest-vk: {}", cell(status));
            CaseResult::failed(case, FailureKind::Other, why)
        };
        report.cases.push(result);
    }
    if report.cases.is_empty() {
        return Err("no row of perftest-vk's original suite".to_string());
    }
    report.finish(true);
    report.started_at = String::new();
    report.finished_at = String::new();
    Ok(report)
}

/// Workgroups of one dispatch of the original's workload (and of perftest-vk's): 4 x 1024.
const ONE_DISPATCH_GROUPS: u64 = 4 * 1024;

/// A `cv_pct` cell as a fraction: `None` for an empty or absent cell, the cell itself when it
/// is no finite, non-negative number.
fn cv_of(cell: Option<&str>) -> Result<Option<f64>, String> {
    let Some(cell) = cell.map(str::trim).filter(|c| !c.is_empty()) else {
        return Ok(None);
    };
    match cell.parse::<f64>() {
        Ok(pct) if pct.is_finite() && pct >= 0.0 => Ok(Some(pct / 100.0)),
        _ => Err(printable(cell).chars().take(40).collect()),
    }
}

/// The device columns of perftest-vk's first row, where they are there.
fn describe_device(
    device: &mut DeviceInfo,
    row: &::csv::StringRecord,
    columns: [&Result<usize, String>; 5],
) {
    let cell = |c: &Result<usize, String>| {
        c.as_ref()
            .ok()
            .and_then(|&i| row.get(i))
            .map(str::to_string)
    };
    let hex = |c| cell(c).and_then(|v| u32::from_str_radix(v.trim_start_matches("0x"), 16).ok());
    let [name, vendor, id, driver, vulkan] = columns;
    device.name = cell(name).unwrap_or_else(|| "unknown GPU".to_string());
    device.vendor_id = hex(vendor).unwrap_or(0);
    device.device_id = hex(id).unwrap_or(0);
    device.driver_name = "driver".to_string();
    device.driver_info = cell(driver).unwrap_or_default();
    device.api_version = cell(vulkan).unwrap_or_default();
}

/// Reads the original's text output; `file` names it in the report and in messages. An error
/// is one line naming the line at fault.
pub fn parse_original_text(text: &str, file: &str) -> Result<Report, String> {
    let cases = original_cases();
    let mut device = DeviceInfo::unknown();
    device.name = "unknown GPU".to_string();
    let mut report = Report::begin(device, settings());
    report.started_at = String::new();
    let mut layout: Option<Layout> = None;
    let mut previous: Option<&Case> = None;
    for (number, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with("```") {
            continue;
        }
        if let Some(heading) = line.strip_prefix('#') {
            if report.cases.is_empty() {
                report.device.name = heading.trim_start_matches('#').trim().to_string();
                continue;
            }
        }
        let expected = layout.map_or(Layout::Original.form(), Layout::form);
        let (name, times, kind) = case_line(line)
            .filter(|(_, _, kind)| layout.is_none_or(|l| l == *kind))
            .ok_or_else(|| format!("line {}: not `{expected}`: {}", number + 1, excerpt(line)))?;
        layout = Some(kind);
        let name = match kind {
            Layout::Legacy => legacy_name(name).ok_or_else(|| {
                format!(
                    "line {}: no case of the original is named `{}`",
                    number + 1,
                    excerpt(name)
                )
            })?,
            _ => name.to_string(),
        };
        let name = name.as_str();
        let case = find(&cases, name, previous).ok_or_else(|| {
            format!(
                "line {}: no case of the original is named `{}`",
                number + 1,
                excerpt(name)
            )
        })?;
        if report.cases.iter().any(|c| c.id == case.id) {
            return Err(format!(
                "line {}: {} is listed twice",
                number + 1,
                case.name
            ));
        }
        let mut result = CaseResult::measured(case, dispatch(kind.groups(), times[0]));
        if kind == Layout::Dx12Port {
            // Its last two times are one frame's mean and their standard deviation.
            result.source_cv = (times[1] > 0.0).then(|| times[2] / times[1]);
        }
        report.cases.push(result);
        previous = Some(case);
    }
    let Some(layout) = layout else {
        return Err("no `NAME: X.XXXms Y.YYYx` line".to_string());
    };
    let (tool, api) = layout.source();
    report.source = Some(ReportSource {
        tool: tool.to_string(),
        api: api.to_string(),
        file: file.to_string(),
    });
    report.finish(true);
    report.finished_at = String::new();
    Ok(report)
}

/// The line layouts of the original's text output and its kin: each a time per case in the
/// original's scale (30 dispatches of 4 x 1024 workgroups).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Layout {
    /// The original since November 2018: `NAME: X.XXXms Y.YYYx`.
    Original,
    /// The original before: `Load R8 invariant: X.XXXms`, older names, no ratio.
    Legacy,
    /// The Direct3D 12 port: `NAME: TOTALms AVGms STDms R.RRRx`, the time the first column.
    Dx12Port,
}

impl Layout {
    /// The tool and the API a table of this layout comes from.
    fn source(self) -> (&'static str, &'static str) {
        match self {
            Layout::Original => ("sebbbi/perftest", "Direct3D 11"),
            Layout::Legacy => ("sebbbi/perftest (2017 output)", "Direct3D 11"),
            Layout::Dx12Port => ("perftest Direct3D 12 port", "Direct3D 12"),
        }
    }

    /// The workgroups one printed time covers: the 2017 output timed one dispatch, the later
    /// ones 30.
    fn groups(self) -> u64 {
        match self {
            Layout::Legacy => ONE_DISPATCH_GROUPS,
            Layout::Original | Layout::Dx12Port => ORIGINAL_GROUPS,
        }
    }

    /// The layout's lines, for messages.
    fn form(self) -> &'static str {
        match self {
            Layout::Original => "NAME: X.XXXms Y.YYYx",
            Layout::Legacy => "NAME: X.XXXms",
            Layout::Dx12Port => "NAME: TOTALms AVGms STDms R.RRRx",
        }
    }
}

/// The current name of a case the original's 2017 output names (`Load R8 invariant`,
/// `Load4 raw32 unaligned random`, `Tex2D load RGBA32F linear`); `None` for other names.
fn legacy_name(name: &str) -> Option<String> {
    let (what, pattern) = name.rsplit_once(' ')?;
    let pattern = match pattern {
        "invariant" => "uniform",
        "linear" | "random" => pattern,
        _ => return None,
    };
    let resource = if let Some(format) = what.strip_prefix("Tex2D load ") {
        format!("Texture2D<{format}>.Load")
    } else if let Some(raw) = what.strip_prefix("Load") {
        match raw.split_once(" raw32") {
            Some((width, unaligned)) => {
                let width = if width == "1" { "" } else { width };
                format!("ByteAddressBuffer.Load{width}{unaligned}")
            }
            None => format!("Buffer<{}>.Load", raw.trim_start()),
        }
    } else {
        return None;
    };
    Some(format!("{resource} {pattern}"))
}

/// The name, times in milliseconds and layout of a case line: `NAME: X.XXXms Y.YYYx`,
/// `NAME: X.XXXms` or `NAME: TOTALms AVGms STDms R.RRRx` (a ratio is not kept: it is derived
/// again from the baseline; the case's time is always the first figure).
fn case_line(line: &str) -> Option<(&str, Vec<f64>, Layout)> {
    let (name, figures) = line.rsplit_once(": ")?;
    let words: Vec<&str> = figures.split_whitespace().collect();
    let times: Vec<f64> = words
        .iter()
        .map_while(|w| w.strip_suffix("ms")?.parse().ok())
        .collect();
    let ratios: Vec<f64> = words[times.len()..]
        .iter()
        .map(|w| w.strip_suffix('x')?.parse().ok())
        .collect::<Option<_>>()?;
    let layout = match (times.len(), ratios.len()) {
        (1, 1) => Layout::Original,
        (1, 0) => Layout::Legacy,
        (3, 1) => Layout::Dx12Port,
        _ => return None,
    };
    let finite = times.iter().chain(&ratios).all(|v| v.is_finite());
    let positive = times[0] > 0.0 && times.iter().all(|t| *t >= 0.0);
    (finite && positive).then_some((name.trim(), times, layout))
}

/// The case named `name` (case-insensitively); the original's typo after a nearest case is the
/// nearest one.
fn find<'a>(cases: &'a [Case], name: &str, previous: Option<&Case>) -> Option<&'a Case> {
    let lower = name.to_lowercase();
    let after_nearest = previous.is_some_and(|c| c.name.contains("Sample(nearest)"));
    if lower == TYPO_NAME && after_nearest {
        return cases.iter().find(|c| c.id == TYPO_ID);
    }
    cases.iter().find(|c| c.name.to_lowercase() == lower)
}

/// One dispatch of `groups` workgroups (a multiple of 4096) taking `ms`.
fn dispatch(groups: u64, ms: f64) -> Measurement {
    Measurement {
        groups,
        dims: [4096, u32::try_from(groups / 4096).unwrap_or(1), 1],
        samples_ns: vec![ms * 1e6],
        sample_placements: Vec::new(),
        warmup_dispatches: 0,
        steady: true,
        short: None,
        seqs: Vec::new(),
        data_places: None,
    }
}

/// The settings of a table that records none: one figure per case.
fn settings() -> Settings {
    Settings {
        target_ms: 0.0,
        samples: 1,
        dispatch_ms: None,
        warmup_max: 0,
        validation: false,
        verify: false,
        suites: vec!["original".to_string()],
        clock_mhz: None,
        shader_units: None,
        placements: None,
    }
}

/// The note reports print about a read table: where its figures come from and what it lacks.
pub fn note(report: &Report) -> Option<String> {
    let source = report.source.as_ref()?;
    let cv = if report.cases.iter().any(|c| c.source_cv.is_some()) {
        "CV is the source's own"
    } else {
        "the source gives no CV (-)"
    };
    let unit = if source.tool.contains("2017") {
        " Its times were of one dispatch each; ms shows them as the later output's 30."
    } else {
        ""
    };
    Some(format!(
        "Read from {} ({}, {}): one figure per case and no samples, so no ±; {cv}; {} of the \
         original's 138 cases.{unit}",
        printable(&source.file),
        printable(&source.tool),
        printable(&source.api),
        report.cases.len()
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::ReportFigures;

    /// The first rows of the original's README table for the RTX 3090 (sebbbi/perftest,
    /// MIT; measured figures).
    const RTX3090: &str = "### NVidia Ampere (RTX 3090)\n```\n\
        Buffer<R8>.Load uniform: 0.691ms 15.067x\n\
        Buffer<R8>.Load linear: 6.324ms 1.647x\n\
        Buffer<R8>.Load random: 7.773ms 1.340x\n\
        Buffer<RGBA8>.Load random: 10.414ms 1.000x\n\
        Texture2D<RG32F>.Sample(nearest) random: 12.510ms 0.832x\n\
        Texture2D<RGBA32F>.Sample(bilinear) uniform: 24.8ms 0.419x\n\
        Texture2D<RGBA32F>.Sample(bilinear) linear: 49.592ms 0.210x\n```\n";

    #[test]
    fn a_table_becomes_a_report_whose_ms_and_ratios_read_back() {
        let report = parse_original_text(RTX3090, "rtx3090.txt").unwrap();
        assert_eq!(report.device.name, "NVidia Ampere (RTX 3090)");
        assert_eq!(report.cases.len(), 7);
        assert_eq!(report.source.as_ref().unwrap().tool, "sebbbi/perftest");
        let derived = report.derived_all();
        let ms = derived[0].unwrap().original_ms;
        assert!((ms - 0.691).abs() < 1e-9, "{ms}");
        let x = derived[0].unwrap().relative.unwrap();
        assert!((x - 10.414 / 0.691).abs() < 1e-9, "{x}");
        // The typo after a nearest case is the nearest case; the real bilinear one follows.
        assert_eq!(report.cases[5].id, TYPO_ID);
        assert_eq!(report.cases[6].id, "tex.sample.bilinear.rgba32f.linear");
        assert!(crate::report_file::check_values(&report).is_ok());
        assert!(note(&report)
            .unwrap()
            .contains("7 of the original's 138 cases"));
    }

    #[test]
    fn the_2017_output_and_the_direct3d_12_port_read_as_the_original() {
        let old = "### AMD Radeon 7970 GE (GCN1)\nLoad R8 invariant: 0.541ms\n\
            Load RGBA8 random: 2.121ms\nLoad1 raw32 linear: 0.561ms\n\
            Load4 raw32 unaligned random: 2.622ms\nTex2D load RGBA32F linear: 3.179ms\n";
        let r = parse_original_text(old, "old.txt").unwrap();
        let ids: Vec<&str> = r.cases.iter().map(|c| c.id.as_str()).collect();
        assert_eq!(
            ids,
            [
                "typed.r8.uniform",
                "typed.rgba8.random",
                "raw.load.linear",
                "raw.load4.unaligned.random",
                "tex.load.rgba32f.linear"
            ]
        );
        assert_eq!(
            r.source.as_ref().unwrap().tool,
            "sebbbi/perftest (2017 output)"
        );
        // A 2017 time is of one dispatch: the original's 30 take 30 times it.
        assert!((r.derived(&r.cases[0]).unwrap().original_ms - 30.0 * 0.541).abs() < 1e-9);
        assert_eq!(r.cases[0].source_cv, None);
        let dx12 = "### AMD Navi 2 (RX 6600) Dx12+Dxc\n\
            Buffer<R8>.Load uniform: 5.486ms 0.183ms 0.000ms 2.596x\n\
            Buffer<RGBA8>.Load random: 14.240ms 0.475ms 0.001ms 1.000x\n";
        let r = parse_original_text(dx12, "dx12.txt").unwrap();
        assert_eq!(r.source.as_ref().unwrap().api, "Direct3D 12");
        assert!((r.derived(&r.cases[0]).unwrap().original_ms - 5.486).abs() < 1e-9);
        // Its spread: the deviation of its frames over their mean.
        assert_eq!(r.cases[0].source_cv, Some(0.0));
        assert!((r.cases[1].source_cv.unwrap() - 0.001 / 0.475).abs() < 1e-12);
        // One table, one layout.
        let mixed = "Buffer<R8>.Load uniform: 5.486ms 0.183ms 0.000ms 2.596x\n\
            Buffer<RGBA8>.Load random: 14.240ms 1.000x\n";
        let e = parse_original_text(mixed, "m.txt").unwrap_err();
        assert!(
            e.starts_with("line 2: not `NAME: TOTALms AVGms STDms R.RRRx`"),
            "{e}"
        );
        assert!(parse_original_text("Load R8 sideways: 1.0ms\n", "x").is_err());
    }

    #[test]
    fn bad_lines_are_named() {
        for (text, needle) in [
            ("Buffer<R8>.Load uniform: fast\n", "line 1: not `NAME"),
            (
                "Buffer<R9>.Load uniform: 1.0ms 1.0x\n",
                "no case of the original is named",
            ),
            (
                "Buffer<R8>.Load uniform: 1.0ms 1.0x\nbuffer<r8>.load uniform: 1.0ms 1.0x\n",
                "line 2: Buffer<R8>.Load uniform is listed twice",
            ),
            ("Buffer<R8>.Load uniform: -1.0ms 1.0x\n", "line 1"),
            ("### Only a heading\n", "no `NAME"),
        ] {
            let error = parse_original_text(text, "t.txt").unwrap_err();
            assert!(error.contains(needle), "{text:?}: {error}");
            assert!(!error.contains('\n'), "{error}");
        }
        assert!(is_table("Buffer<R8>.Load uniform: 1ms 1x"));
        assert!(!is_table("  {\"schema\": 1}"));
    }

    #[test]
    fn perftest_vk_rows_of_other_suites_are_left_out_and_bad_rows_named() {
        let header = "suite,test,total_ms,ratio,median_ms,min_ms,cv_pct,status,device,\
                      vendor_id,device_id,driver,vulkan,compiler,config\n";
        let row = |suite: &str, test: &str, median: &str, status: &str| {
            format!(
                "{suite},\"{test}\",1,1,{median},1,0,{status},\"GPU X\",0x1002,0x73BF,\"1.2\",\
                 1.3.0,\"glslang\",\"default\"\n"
            )
        };
        let text = format!(
            "{header}{}{}{}",
            row("original", "Buffer<R8>.Load uniform", "0.5", "ok"),
            row("bindless", "Something else", "0.5", "ok"),
            row("original", "Buffer<R8>.Load linear", "0.5", "timeout"),
        );
        let report = parse_table(&text, "pvk.csv").unwrap();
        assert_eq!(report.device.name, "GPU X");
        assert_eq!(report.device.vendor_id, 0x1002);
        assert_eq!(report.cases.len(), 2);
        // Its cv_pct (0 in these rows) is the case's spread.
        assert_eq!(report.cases[0].source_cv, Some(0.0));
        assert!((report.derived_all()[0].unwrap().original_ms - 15.0).abs() < 1e-9);
        assert_eq!(
            report.cases[1].status.reason(),
            Some("perftest-vk: timeout")
        );
        let bad = format!(
            "{header}{}",
            row("original", "Buffer<R8>.Load uniform", "-1", "ok")
        );
        let error = parse_table(&bad, "pvk.csv").unwrap_err();
        assert!(
            error.contains("line 2: median_ms `-1` is no time"),
            "{error}"
        );
        let error = parse_table("suite,test,total_ms\n", "pvk.csv").unwrap_err();
        assert!(error.contains("no `median_ms` column"), "{error}");
    }
}
