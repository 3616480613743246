//! The engine probe on lavapipe with the validation layer on: partial reports under tiny
//! budgets, and pipeline caches (borrowed, saved, and damaged files that must fall back).
//! Every file a test writes lies in its own temporary directory.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // test code

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use perftest_cases::{find_case, original_cases, quick_cases, Case, Pattern};
use perftest_core::ash::vk;
use perftest_core::pipeline_cache::{decode, encode, CacheIdentity};
use perftest_core::{
    compute_targets, select, Bench, Context, DeviceChoice, Instance, InstanceOptions,
    LeftOutReason, PipelineCacheSource, ProbeReport, ProbeSettings,
};

fn instance() -> Arc<Instance> {
    let options = InstanceOptions {
        validation: true,
        ..Default::default()
    };
    Arc::new(Instance::new(&options).expect("a validated Vulkan instance"))
}

fn lavapipe_bench(instance: &Arc<Instance>) -> Bench {
    let targets = compute_targets(instance.handle(), instance.api_version()).unwrap();
    let summaries: Vec<_> = targets.iter().map(|t| t.summary.clone()).collect();
    let choice = DeviceChoice {
        index: None,
        name: Some("llvmpipe".into()),
    };
    let i = select(&summaries, &choice).expect("lavapipe (llvmpipe) must be installed");
    Bench::new(Context::new(instance.clone(), &targets[i]).unwrap()).unwrap()
}

fn assert_no_validation_messages(instance: &Instance) {
    let messages = instance.validation_messages();
    assert!(messages.is_empty(), "validation reported: {messages:#?}");
}

/// A fresh directory under the system temporary directory, removed on drop.
struct TempDir(tempfile::TempDir);

impl TempDir {
    fn new(tag: &str) -> TempDir {
        let dir = tempfile::Builder::new()
            .prefix(&format!("perftest-probe-{tag}-"))
            .tempdir()
            .unwrap();
        TempDir(dir)
    }

    fn path(&self, name: &str) -> PathBuf {
        self.0.path().join(name)
    }
}

/// The first round of the quick profile's priority order would be six cases; three keep the
/// cache tests short.
fn few_cases() -> Vec<Case> {
    quick_cases().into_iter().take(3).collect()
}

fn generous(cache: PipelineCacheSource) -> ProbeSettings {
    ProbeSettings {
        budget: Duration::from_secs(20),
        warmup_share: 0.005,
        pipeline_cache: cache,
        ..ProbeSettings::default()
    }
}

/// Every case given is either measured or left out, exactly once.
fn assert_accounted(report: &ProbeReport, cases: &[Case]) {
    let mut ids: Vec<&str> = report
        .measured
        .iter()
        .map(|m| m.case.id.as_str())
        .chain(report.left_out.iter().map(|l| l.case.id.as_str()))
        .collect();
    ids.sort();
    let mut expected: Vec<&str> = cases.iter().map(|c| c.id.as_str()).collect();
    expected.sort();
    assert_eq!(ids, expected);
}

#[test]
fn a_tiny_budget_gives_a_partial_report_not_an_error() {
    let instance = instance();
    let mut bench = lavapipe_bench(&instance);
    let cases = quick_cases();
    let settings = ProbeSettings {
        budget: Duration::from_millis(20),
        build_threads: Some(1),
        ..ProbeSettings::default()
    };
    let report = bench.probe(&cases, &settings).unwrap();
    assert_accounted(&report, &cases);
    // At least one case is measured (the first in priority order), not all 30.
    assert!(!report.measured.is_empty());
    assert!(report.measured.len() < cases.len(), "{report}");
    assert_eq!(
        report.timeline.measurements[0].case_id, "structured.float.uniform",
        "the first ranking's likeliest winner comes first"
    );
    assert!(report.left_out.iter().all(|l| matches!(
        l.reason,
        LeftOutReason::NotCompiledInTime | LeftOutReason::OutOfTime
    )));
    assert!(!report
        .left_out_where(|r| *r == LeftOutReason::NotCompiledInTime)
        .is_empty());
    // The timeline accounts for what happened.
    assert_eq!(report.timeline.build_threads, 1);
    assert_eq!(
        report.timeline.measurements.len(),
        report.measured.len(),
        "{}",
        report.timeline
    );
    assert!(report.timeline.pipelines.len() >= report.measured.len());
    assert!(report.timeline.first_pipeline_ready().is_some());
    assert!(report.timeline.resources > Duration::ZERO);
    drop(bench);
    assert_no_validation_messages(&instance);
}

#[test]
fn keeping_the_clocks_warm_while_waiting_for_pipelines_is_clean() {
    let instance = instance();
    let mut bench = lavapipe_bench(&instance);
    let cases = quick_cases();
    // One build thread and tiny dispatches: measuring is faster than building, so the
    // measuring thread waits for pipelines and dispatches meanwhile.
    let settings = ProbeSettings {
        budget: Duration::from_secs(20),
        warmup_share: 0.005,
        dispatch_target: Duration::from_micros(10),
        dispatches: 1,
        build_threads: Some(1),
        keep_warm: Some(true),
        ..ProbeSettings::default()
    };
    let report = bench.probe(&cases, &settings).unwrap();
    assert_eq!(report.measured.len(), cases.len(), "{report}");
    assert!(report.left_out.is_empty());
    // Whether the thread did wait depends on lavapipe's speed (its first dispatch of a
    // pipeline can take longer than building the next one); the waiting and the dispatches
    // are accounted for within the probe's time either way.
    let t = &report.timeline;
    assert!(
        t.keep_warm + t.waiting + t.measuring() + t.warmup <= t.total,
        "{t}"
    );
    drop(bench);
    assert_no_validation_messages(&instance);
}

#[test]
fn a_zero_budget_without_the_one_case_rule_measures_nothing_and_says_why() {
    let instance = instance();
    let mut bench = lavapipe_bench(&instance);
    let cases = quick_cases();
    let settings = ProbeSettings {
        budget: Duration::ZERO,
        measure_at_least_one: false,
        ..ProbeSettings::default()
    };
    let report = bench.probe(&cases, &settings).unwrap();
    assert_accounted(&report, &cases);
    assert!(report.measured.is_empty());
    // The first pipeline is always built; it had no time to be measured.
    let out_of_time = report.left_out_where(|r| *r == LeftOutReason::OutOfTime);
    assert!(out_of_time
        .iter()
        .any(|c| c.id == "structured.float.uniform"));
    assert_eq!(
        out_of_time.len()
            + report
                .left_out_where(|r| *r == LeftOutReason::NotCompiledInTime)
                .len(),
        cases.len()
    );
    // The built pipeline stays with the bench and can be used afterwards.
    let kernel = bench.prepare(&cases[0]).unwrap();
    assert_eq!(bench.time(kernel, [1, 1, 1], 1).unwrap().len(), 1);
    drop(bench);
    assert_no_validation_messages(&instance);
}

#[test]
fn a_pipeline_cache_file_is_saved_then_reused_without_warnings() {
    let instance = instance();
    let dir = TempDir::new("saved");
    let path = dir.path("pipelines.cache");
    let cases = few_cases();
    let mut bench = lavapipe_bench(&instance);
    let first = bench
        .probe(&cases, &generous(PipelineCacheSource::File(path.clone())))
        .unwrap();
    assert!(first.warnings.is_empty(), "{:?}", first.warnings);
    assert_eq!(first.measured.len(), cases.len(), "{first}");
    let identity = CacheIdentity::of(bench.context());
    drop(bench);
    let saved = fs::read(&path).unwrap();
    let data = decode(&saved, &identity).expect("a valid cache file");
    assert!(data.len() >= 32);
    // Only the cache file is in the directory: no temporary file left behind.
    assert_eq!(fs::read_dir(&dir.0).unwrap().count(), 1);

    let mut bench = lavapipe_bench(&instance);
    let second = bench
        .probe(&cases, &generous(PipelineCacheSource::File(path.clone())))
        .unwrap();
    assert!(second.warnings.is_empty(), "{:?}", second.warnings);
    assert_eq!(second.measured.len(), cases.len());
    drop(bench);
    assert_no_validation_messages(&instance);
}

/// Probes with `file` as the cache file; the probe must succeed with one warning containing
/// `expected`, and leave a valid cache file behind.
fn falls_back(dir: &TempDir, file: &Path, expected: &str) {
    let instance = instance();
    let cases = few_cases();
    let mut bench = lavapipe_bench(&instance);
    let report = bench
        .probe(&cases, &generous(PipelineCacheSource::File(file.into())))
        .unwrap();
    assert_eq!(report.measured.len(), cases.len(), "{report}");
    assert_eq!(report.warnings.len(), 1, "{:?}", report.warnings);
    assert!(
        report.warnings[0].contains(expected),
        "expected '{expected}' in {:?}",
        report.warnings
    );
    let identity = CacheIdentity::of(bench.context());
    drop(bench);
    // The damaged file was replaced by a good one.
    assert!(decode(&fs::read(file).unwrap(), &identity).is_ok());
    assert_eq!(fs::read_dir(&dir.0).unwrap().count(), 1);
    assert_no_validation_messages(&instance);
}

/// A valid cache file for lavapipe, made by a first probe.
fn good_file(dir: &TempDir) -> (PathBuf, Vec<u8>) {
    let path = dir.path("pipelines.cache");
    let instance = instance();
    let mut bench = lavapipe_bench(&instance);
    bench
        .probe(
            &few_cases(),
            &generous(PipelineCacheSource::File(path.clone())),
        )
        .unwrap();
    drop(bench);
    let bytes = fs::read(&path).unwrap();
    (path, bytes)
}

#[test]
fn a_corrupt_cache_file_falls_back() {
    let dir = TempDir::new("corrupt");
    let (path, mut bytes) = good_file(&dir);
    let middle = bytes.len() - 8;
    bytes[middle] ^= 0x5a;
    fs::write(&path, &bytes).unwrap();
    falls_back(&dir, &path, "corrupt");
}

#[test]
fn a_truncated_cache_file_falls_back() {
    let dir = TempDir::new("truncated");
    let (path, bytes) = good_file(&dir);
    fs::write(&path, &bytes[..bytes.len() / 2]).unwrap();
    falls_back(&dir, &path, "truncated");
}

#[test]
fn a_foreign_cache_file_falls_back() {
    let dir = TempDir::new("foreign");
    let path = dir.path("pipelines.cache");
    // An intact file written by another GPU: NVIDIA's vendor id, another device and driver.
    let other = CacheIdentity {
        vendor_id: 0x10de,
        device_id: 0x2335,
        uuid: *b"not this driver!",
    };
    let mut data = other.header().to_vec();
    data.extend_from_slice(&[0xab; 200]);
    fs::write(&path, encode(&data)).unwrap();
    falls_back(&dir, &path, "vendor 0x10de");
}

#[test]
fn a_file_that_is_no_cache_is_never_overwritten() {
    let instance = instance();
    let dir = TempDir::new("garbage");
    let path = dir.path("pipelines.cache");
    let script = b"#!/bin/sh\necho this is not a pipeline cache\n";
    fs::write(&path, script).unwrap();
    let mut bench = lavapipe_bench(&instance);
    let report = bench
        .probe(
            &few_cases(),
            &generous(PipelineCacheSource::File(path.clone())),
        )
        .unwrap();
    drop(bench);
    assert_eq!(report.measured.len(), 3, "{report}");
    assert_eq!(report.warnings.len(), 1, "{:?}", report.warnings);
    assert!(
        report.warnings[0].contains("not a perftest pipeline cache"),
        "{:?}",
        report.warnings
    );
    // It used to be replaced by a cache; now it is left exactly as it was.
    assert_eq!(fs::read(&path).unwrap(), script);
    assert_eq!(fs::read_dir(&dir.0).unwrap().count(), 1);
    assert_no_validation_messages(&instance);
}

#[cfg(unix)]
#[test]
fn a_cache_path_that_is_a_symbolic_link_is_not_written_through() {
    let instance = instance();
    let dir = TempDir::new("symlink");
    // A perftest cache of another device (so read and ignored), reached through a link.
    let target = dir.path("precious.cache");
    let kept = encode(b"another device's data");
    fs::write(&target, &kept).unwrap();
    let link = dir.path("pipelines.cache");
    std::os::unix::fs::symlink(&target, &link).unwrap();
    let mut bench = lavapipe_bench(&instance);
    let report = bench
        .probe(
            &few_cases(),
            &generous(PipelineCacheSource::File(link.clone())),
        )
        .unwrap();
    drop(bench);
    assert_eq!(report.measured.len(), 3);
    // Reading it gives "ignored" (another device); saving through the link is refused.
    assert_eq!(report.warnings.len(), 2, "{:?}", report.warnings);
    assert!(report.warnings[1].contains("symbolic link"));
    assert_eq!(fs::read(&target).unwrap(), kept);
    assert!(fs::symlink_metadata(&link)
        .unwrap()
        .file_type()
        .is_symlink());
    assert_eq!(fs::read_dir(&dir.0).unwrap().count(), 2);
    assert_no_validation_messages(&instance);
}

#[test]
fn an_engine_pipeline_cache_is_used_and_not_destroyed() {
    let instance = instance();
    let mut bench = lavapipe_bench(&instance);
    let device = bench.context().device().clone();
    // SAFETY: valid device; an empty cache owned by this test.
    let cache =
        unsafe { device.create_pipeline_cache(&vk::PipelineCacheCreateInfo::default(), None) }
            .unwrap();
    let cases = few_cases();
    let report = bench
        .probe(&cases, &generous(PipelineCacheSource::Borrowed(cache)))
        .unwrap();
    assert_eq!(report.measured.len(), cases.len());
    assert!(report.warnings.is_empty());
    // Still alive: its data can be read (the header, at least) and it is destroyed here; the
    // validation layer would report a use or destruction of a destroyed handle.
    // SAFETY: the cache belongs to this device and no pipeline is being built.
    let data = unsafe { device.get_pipeline_cache_data(cache) }.unwrap();
    assert!(data.len() >= 32);
    assert!(perftest_core::pipeline_cache::check_vulkan_header(
        &data,
        &CacheIdentity::of(bench.context())
    )
    .is_ok());
    // SAFETY: the test's cache, destroyed before the bench destroys its device.
    unsafe { device.destroy_pipeline_cache(cache, None) };
    drop(bench);
    assert_no_validation_messages(&instance);
}

/// The probe's rankings are findings of the command's type (`rank.<bytes>byte.<pattern>`, the
/// fastest first), beside the command's rules over its report, and its advice names them.
#[test]
fn the_probe_gives_findings_and_advice_of_the_commands_types() {
    let instance = instance();
    let mut bench = lavapipe_bench(&instance);
    let cases: Vec<Case> = [
        "raw.load4.linear",
        "structured.float4.linear",
        "typed.rgba32f.linear",
    ]
    .iter()
    .filter_map(|id| find_case(&original_cases(), id).cloned())
    .collect();
    assert_eq!(cases.len(), 3);
    let report = bench
        .probe(&cases, &generous(PipelineCacheSource::None))
        .unwrap();
    assert_eq!(report.measured.len(), 3);
    let found = report.findings();
    let rank = found
        .get("rank.16byte.linear")
        .expect("the 16-byte linear ranking");
    assert_eq!(rank.cases.len(), 3);
    let best = report.fastest(Pattern::Linear, 16).unwrap();
    assert_eq!(rank.cases[0], best.0.case.id);
    assert!((rank.value - best.1).abs() < 1e-12);
    assert_eq!(rank.beyond_noise, None);
    // The command's rules over the same cases: structured against raw, the best 16-byte path.
    assert!(found.get("structured.vs_raw").is_some());
    assert!(found.get("best.16byte").is_some());
    // Advice for the ranking where its fastest leads by more than 10%.
    let advised = found
        .advice
        .iter()
        .any(|a| a.findings == ["rank.16byte.linear"]);
    assert_eq!(advised, rank.value > 1.1, "{:?}", found.advice);
    drop(bench);
    assert_no_validation_messages(&instance);
}
