use super::*;
use crate::gpu_matrix::matrix;
use crate::samples::{case, measurement, sample_report};
use crate::schema::{CaseResult, ReportSource};

/// A report of GPU `name` measured with `api` (`None`: perftest on Vulkan) with `(id, ns per
/// workgroup)` cases and the baseline at 100 ns.
fn gpu(name: &str, api: Option<&str>, cases: &[(&str, f64)]) -> Report {
    let mut r = sample_report();
    r.device.name = name.to_string();
    r.source = api.map(|api| ReportSource {
        tool: "sebbbi/perftest".to_string(),
        api: api.to_string(),
        file: "t.txt".to_string(),
    });
    r.cases = std::iter::once(("typed.rgba8.random", 100.0))
        .chain(cases.iter().copied())
        .map(|(id, ns)| CaseResult::measured(&case(id), measurement(1000, &[ns * 1000.0])))
        .collect();
    r
}

fn compare(reports: &[Report]) -> Vec<SameGpu> {
    let refs: Vec<&Report> = reports.iter().collect();
    let pairs: Vec<(&str, &Report)> = reports.iter().map(|r| ("f", r)).collect();
    same_gpu(&refs, &matrix(&pairs).columns, 0.05)
}

#[test]
fn a_model_is_its_name_without_vendor_architecture_and_api_words() {
    let key = |n: &str| model_key(n).join(" ");
    assert_eq!(key("NVidia Turing (RTX 2060) Dx12+Dxc"), "2060 rtx");
    assert_eq!(key("NVIDIA GeForce RTX 2060"), "2060 rtx");
    assert_eq!(key("NVIDIA Titan V (Volta)"), key("NVidia Volta (Titan V)"));
    assert_eq!(
        key("NVIDIA RTX 2080 Ti (Turing)"),
        key("NVidia Turing (RTX 2080 Ti)")
    );
    assert_ne!(
        key("Intel Skylake 6700K HD Graphics 530 (Gen9)"),
        key("Intel Gen9 (HD 630 / i7 6700K)")
    );
    assert_ne!(
        key("AMD Radeon R9 Fury X (GCN3)"),
        key("AMD GCN3 (R9 Fury 56 CU)")
    );
    assert_ne!(
        key("NVIDIA GeForce RTX 2080"),
        key("NVIDIA GeForce RTX 2080 Ti")
    );
    assert!(model_key("NVIDIA").is_empty());
}

#[test]
fn a_uniform_fast_path_on_one_api_and_not_on_another_is_a_flip() {
    let uniform = |u: f64| [("typed.r8.uniform", u), ("typed.r8.linear", 100.0)];
    let reports = [
        gpu(
            "NVidia Turing (RTX 2060)",
            Some("Direct3D 11"),
            &uniform(2.0),
        ),
        gpu("Other GPU", Some("Direct3D 11"), &uniform(2.0)),
        gpu(
            "NVidia Turing (RTX 2060) Dx12+Dxc",
            Some("Direct3D 12"),
            &uniform(100.0),
        ),
        gpu("NVIDIA GeForce RTX 2060", None, &uniform(95.0)),
    ];
    let same = compare(&reports);
    assert_eq!(same.len(), 1, "{same:?}");
    let gpu = &same[0];
    assert_eq!(gpu.labels, ["G1", "G3", "G4"]);
    let d = gpu
        .differences
        .iter()
        .find(|d| d.id == "across.uniform_fast_path")
        .unwrap();
    assert!(d.flips);
    let holds: Vec<bool> = d.answers.iter().map(|a| a.holds).collect();
    assert_eq!(holds, [true, false, false]);
    assert!((d.answers[0].value - 50.0).abs() < 1e-6, "{d:?}");
    assert!(
        d.text.starts_with("differs: G1 (Direct3D 11, sebbbi/perftest): yes (50.00); G3 (Direct3D 12, sebbbi/perftest): no (1.00); G4 (Vulkan"),
        "{}",
        d.text
    );
    assert!(
        gpu.text.starts_with(
            "NVidia Turing (RTX 2060) as G1 (Direct3D 11, sebbbi/perftest), G3 (Direct3D 12"
        ),
        "{}",
        gpu.text
    );
    assert!(
        gpu.text
            .ends_with("different answers to 1 of the 1 question (across.uniform_fast_path)."),
        "{}",
        gpu.text
    );
}

#[test]
fn runs_of_one_gpu_with_one_api_and_tool_are_not_listed() {
    let reports = [
        gpu("NVIDIA H200", None, &[]),
        gpu("NVIDIA H200", None, &[]),
        gpu("NVIDIA H100", Some("Direct3D 11"), &[]),
    ];
    assert!(compare(&reports).is_empty());
}

#[test]
fn a_path_flips_where_no_choice_is_best_on_both() {
    let paths = |s: f64, r: f64| [("structured.float4.linear", s), ("raw.load4.linear", r)];
    let reports = [
        gpu("GPU X", Some("Direct3D 11"), &paths(10.0, 40.0)),
        gpu("GPU X", Some("Direct3D 12"), &paths(40.0, 10.0)),
        gpu("GPU Y", Some("Direct3D 11"), &paths(10.0, 10.2)),
        gpu("GPU Y", Some("Direct3D 12"), &paths(10.0, 10.0)),
    ];
    let same = compare(&reports);
    assert_eq!(same.len(), 2);
    let path = |g: &SameGpu| {
        g.differences
            .iter()
            .find(|d| d.id == "across.16byte")
            .cloned()
            .unwrap()
    };
    let x = path(&same[0]);
    assert!(x.flips);
    assert_eq!(
        x.answers[0].best.as_deref(),
        Some("StructuredBuffer<float4>.Load")
    );
    assert_eq!(
        x.answers[1].best.as_deref(),
        Some("ByteAddressBuffer.Load4")
    );
    assert!((x.answers[0].value - 4.0).abs() < 1e-6);
    // Within the margin on both: the same answer.
    assert!(!path(&same[1]).flips);
    assert!(
        same[1]
            .text
            .ends_with("the same answers to the 1 question of the advice."),
        "{}",
        same[1].text
    );
}

#[test]
fn one_gpu_under_two_apis_counts_once() {
    let reports = [
        gpu(
            "NVidia Turing (RTX 2060) Dx12+Dxc",
            Some("Direct3D 12"),
            &[],
        ),
        gpu("NVIDIA GeForce RTX 2060", None, &[]),
        gpu("NVIDIA H200", None, &[]),
    ];
    let pairs: Vec<(&str, &Report)> = reports.iter().map(|r| ("f", r)).collect();
    let columns = matrix(&pairs).columns;
    assert_eq!(columns.len(), 3);
    assert_eq!(distinct_gpus(&columns), 2);
}

#[test]
fn an_answer_says_what_its_question_asks() {
    // A Load4 costing 6.89 Loads under one API and 1.0 under another: "yes" is the answer to
    // "does it cost 3 Loads or more", and the question asks exactly that.
    let wide = |load4: f64| [("raw.load.linear", 10.0), ("raw.load4.linear", load4)];
    let reports = [
        gpu("GPU Z", Some("Direct3D 11"), &wide(68.9)),
        gpu("GPU Z", Some("Direct3D 12"), &wide(10.0)),
    ];
    let same = compare(&reports);
    let d = same[0]
        .differences
        .iter()
        .find(|d| d.id == "across.raw_wide")
        .unwrap();
    assert_eq!(
        d.question,
        "Does a ByteAddressBuffer.Load4 cost 3 Loads or more (linear)?"
    );
    assert!(
        d.text.contains("yes (6.89)") && d.text.contains("no (1.00)"),
        "{}",
        d.text
    );
}
