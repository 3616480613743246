//! The original perftest's published tables (`tests/fixtures/sebbbi/`, from its README) read
//! as reports: `perftest render TABLE --format original` prints every line's case with the
//! same milliseconds and the same ratio to the baseline (the original's, recomputed from the
//! rounded milliseconds), and `compare` takes a table beside another.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // test code

use std::path::PathBuf;

use crate::common;

fn fixtures() -> Vec<PathBuf> {
    let dir = common::published_tables();
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    files.sort();
    files
}

fn perftest(args: &[&str]) -> (i32, String, String) {
    common::perftest(args).into_parts()
}

/// `NAME: X.XXXms Y.YYYx` split into its parts.
fn split(line: &str) -> (String, f64, f64) {
    let (name, figures) = line.rsplit_once(": ").unwrap();
    let mut words = figures.split_whitespace();
    let ms = words
        .next()
        .unwrap()
        .trim_end_matches("ms")
        .parse()
        .unwrap();
    let x = words.next().unwrap().trim_end_matches('x').parse().unwrap();
    (name.to_lowercase(), ms, x)
}

#[test]
fn every_published_table_prints_its_own_figures_back() {
    let files = fixtures();
    assert_eq!(files.len(), 14);
    for file in &files {
        let path = file.to_str().unwrap();
        let (code, stdout, stderr) = perftest(&["render", path, "--format", "original"]);
        assert_eq!(code, 0, "{path}: {stderr}");
        let table = std::fs::read_to_string(file).unwrap();
        let given: Vec<_> = table.lines().skip(1).map(split).collect();
        let printed: Vec<_> = stdout.lines().map(split).collect();
        assert_eq!(given.len(), printed.len(), "{path}\n{stdout}");
        assert!(given.len() == 84 || given.len() == 138, "{path}");
        for (g, p) in given.iter().zip(&printed) {
            // The original's misprint of row 109 is printed under the case's real name.
            let misprint = g.0 == "texture2d<rgba32f>.sample(bilinear) uniform"
                && p.0 == "texture2d<rgba32f>.sample(nearest) uniform";
            assert!(g.0 == p.0 || misprint, "{path}: {} printed as {}", g.0, p.0);
            assert!(
                (g.1 - p.1).abs() < 5e-4,
                "{path}: {}: {} ms, {} ms",
                g.0,
                g.1,
                p.1
            );
            assert!(
                (g.2 - p.2).abs() <= 0.002 * g.2.max(1.0),
                "{path}: {}: {}x, {}x",
                g.0,
                g.2,
                p.2
            );
        }
    }
}

#[test]
fn a_table_renders_with_its_source_and_compares_with_another() {
    let files = fixtures();
    let ampere = files
        .iter()
        .find(|f| f.ends_with("nvidia-ampere-rtx-3090.txt"))
        .unwrap();
    let turing = files
        .iter()
        .find(|f| f.ends_with("nvidia-turing-rtx-2080-ti.txt"))
        .unwrap();
    let (code, text, stderr) = perftest(&["render", ampere.to_str().unwrap()]);
    assert_eq!(code, 0, "{stderr}");
    assert!(
        text.starts_with("Device: NVidia Ampere (RTX 3090)"),
        "{text}"
    );
    assert!(
        text.contains("(sebbbi/perftest, Direct3D 11): one figure per case and no samples"),
        "{text}"
    );
    let (code, json, stderr) = perftest(&["render", ampere.to_str().unwrap(), "--format", "json"]);
    assert_eq!(code, 0, "{stderr}");
    let value: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(value["source"]["api"], "Direct3D 11");
    assert_eq!(value["cases"].as_array().unwrap().len(), 138);
    let (code, compared, stderr) = perftest(&[
        "compare",
        turing.to_str().unwrap(),
        ampere.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{stderr}");
    assert!(compared.contains("Buffer<R8>.Load uniform"), "{compared}");
}

#[test]
fn a_line_that_is_not_a_case_is_a_one_line_error() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.txt");
    std::fs::write(
        &bad,
        "Buffer<R8>.Load uniform: 1.0ms 1.0x\nNOTE: reduced workload\n",
    )
    .unwrap();
    let (code, stdout, stderr) = perftest(&["render", bad.to_str().unwrap()]);
    assert_eq!(code, 1, "{stdout}{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.contains("line 2: not `NAME: X.XXXms Y.YYYx`"),
        "{stderr}"
    );
}

/// perftest-vk's CSV (`tests/fixtures/perftest-vk/`, an H200 run): each row's median dispatch
/// becomes the case's figure, so the `ms` printed is 30 times it, within 0.5% of the
/// `total_ms` perftest-vk summed; and `compare` sets it beside perftest's own H200 report.
#[test]
fn perftest_vk_csv_reads_as_a_report() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let csv = dir.join("tests/fixtures/perftest-vk/nvidia-h200.csv");
    let path = csv.to_str().unwrap();
    let (code, stdout, stderr) = perftest(&["render", path, "--format", "original"]);
    assert_eq!(code, 0, "{stderr}");
    let text = std::fs::read_to_string(&csv).unwrap();
    let mut rows = 0;
    for (line, printed) in text.lines().skip(1).zip(stdout.lines()) {
        let cells: Vec<&str> = line.split(',').collect();
        let total: f64 = cells[2].parse().unwrap();
        let (name, ms, _) = split(printed);
        assert_eq!(name, cells[1].trim_matches('"').to_lowercase());
        assert!(
            (ms / total - 1.0).abs() < 0.005,
            "{name}: {ms} ms, {total} ms"
        );
        rows += 1;
    }
    assert_eq!(rows, 138);
    let (code, text, stderr) = perftest(&["render", path]);
    assert_eq!(code, 0, "{stderr}");
    assert!(text.starts_with("Device: NVIDIA H200"), "{text}");
    assert!(text.contains("(perftest-vk, Vulkan)"), "{text}");
    let ours = dir.join("tests/fixtures/reports/nvidia-h200.json");
    let (code, compared, stderr) = perftest(&["compare", ours.to_str().unwrap(), path]);
    assert_eq!(code, 0, "{stderr}");
    assert!(
        compared.contains("Texture2D<RGBA32F>.Sample(bilinear) random"),
        "{compared}"
    );
}

/// The rows of a rendered text table whose name starts with `prefix`, split on whitespace.
fn table_rows<'a>(text: &'a str, prefix: &str) -> Vec<Vec<&'a str>> {
    text.lines()
        .filter(|l| l.starts_with(prefix))
        .map(|l| l.split_whitespace().collect())
        .collect()
}

/// A published table is shown as what it is: its device line names its API and tool and no
/// Vulkan fields, a source that gives no spread shows CV `-` (never a perfect 0.0%), and the
/// spread a source does give is shown: perftest-vk's `cv_pct`, the Direct3D 12 port's frame
/// deviation. The 2017 output's times are of one dispatch, so its rates are those of the later
/// output for the same GPU, not thirty times them.
#[test]
fn a_published_table_shows_its_source_and_only_the_spread_it_gives() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../results/published");
    let volta = common::published_tables().join("nvidia-volta-titan-v.txt");
    for (file, api_tool) in [
        (volta.clone(), "(Direct3D 11, sebbbi/perftest)"),
        (
            root.join("nvidia-titan-v-d3d11-perftest-legacy.txt"),
            "(Direct3D 11, sebbbi/perftest (2017 output))",
        ),
        (
            root.join("nvidia-rtx-3060-d3d12-perftest-dx12.txt"),
            "(Direct3D 12, perftest Direct3D 12 port)",
        ),
    ] {
        let (code, text, stderr) = perftest(&["render", file.to_str().unwrap()]);
        assert_eq!(code, 0, "{stderr}");
        let device = text.lines().next().unwrap();
        assert!(device.ends_with(api_tool), "{device}");
        assert!(!device.contains("Vulkan"), "{device}");
        let rows = table_rows(&text, "Buffer<");
        assert_eq!(rows.len(), 27, "{text}");
        let dx12 = api_tool.contains("Direct3D 12");
        let cvs: Vec<&str> = rows.iter().map(|r| *r.last().unwrap()).collect();
        if dx12 {
            // The port's deviation of its frames over their mean, as printed (0.000 ms where
            // under half a microsecond).
            assert!(cvs.iter().all(|cv| cv.ends_with('%')), "{cvs:?}");
            assert!(cvs.iter().any(|cv| *cv != "0.0%"), "{cvs:?}");
        } else {
            assert!(cvs.iter().all(|cv| *cv == "-"), "{cvs:?}");
        }
    }
    // The same Titan V under the two versions of the tool: a uniform R8 load within 10%.
    let rate = |file: &PathBuf| {
        let (_, text, _) = perftest(&["render", file.to_str().unwrap()]);
        let row = &table_rows(&text, "Buffer<R8>.Load uniform")[0];
        row[4].parse::<f64>().unwrap()
    };
    let (new, old) = (
        rate(&volta),
        rate(&root.join("nvidia-titan-v-d3d11-perftest-legacy.txt")),
    );
    assert!((old / new - 1.0).abs() < 0.1, "{old} against {new} Gload/s");
    // perftest-vk's own cv_pct, 11% on one row, is kept and shown.
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("pvk.csv");
    std::fs::write(
        &csv,
        "suite,test,total_ms,ratio,median_ms,min_ms,cv_pct,status,device,vendor_id,device_id,\
         driver,vulkan,compiler,config\n\
         original,\"Buffer<R8>.Load uniform\",15,1,0.5,0.5,11.0,ok,\"GPU X\",0x10de,0x2330,\
         \"580\",1.4.0,\"dxc\",\"default\"\n\
         original,\"Buffer<R8>.Load linear\",15,1,0.5,0.5,,ok,\"GPU X\",0x10de,0x2330,\
         \"580\",1.4.0,\"dxc\",\"default\"\n",
    )
    .unwrap();
    let (code, text, stderr) = perftest(&["render", csv.to_str().unwrap()]);
    assert_eq!(code, 0, "{stderr}");
    assert!(
        text.starts_with("Device: GPU X (Vulkan, perftest-vk, driver 580)\n"),
        "{text}"
    );
    let rows = table_rows(&text, "Buffer<R8>");
    assert_eq!(rows[0].last(), Some(&"11.0%"), "{text}");
    assert_eq!(rows[1].last(), Some(&"-"), "{text}");
    let (_, json, _) = perftest(&["render", csv.to_str().unwrap(), "--format", "json"]);
    let value: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(value["cases"][0]["source_cv"], 0.11);
    assert_eq!(value["cases"][0]["derived"]["summary"]["cv"], 0.11);
    assert!(value["cases"][1].get("source_cv").is_none(), "{json}");
    // In JSON too a spread the source does not give is unknown, not zero.
    for file in [&csv, &volta] {
        let (_, json, _) = perftest(&["render", file.to_str().unwrap(), "--format", "json"]);
        let value: serde_json::Value = serde_json::from_str(&json).unwrap();
        let summary = &value["cases"][1]["derived"]["summary"];
        assert!(
            summary["cv"].is_null() && summary["stddev"].is_null(),
            "{summary}"
        );
    }
}
