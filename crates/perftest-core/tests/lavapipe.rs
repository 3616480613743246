//! Tests on a real Vulkan driver: Mesa's lavapipe (`llvmpipe`), with the Khronos validation
//! layer on. Any validation warning or error fails the test that caused it.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // test code

use std::sync::Arc;
use std::time::Duration;

use perftest_cases::{cases_in, original_cases, select_cases, verify, Suite};
use perftest_core::{
    compute_targets, select, Bench, ComputeTarget, Context, DeviceChoice, Error, Instance,
    InstanceOptions, VERIFY_THREADS,
};

fn instance() -> Arc<Instance> {
    let options = InstanceOptions {
        validation: true,
        ..Default::default()
    };
    match Instance::new(&options) {
        Ok(i) => Arc::new(i),
        Err(e) => panic!("cannot create a validated Vulkan instance: {e}"),
    }
}

fn lavapipe(instance: &Instance) -> ComputeTarget {
    let targets = compute_targets(instance.handle(), instance.api_version()).unwrap();
    let summaries: Vec<_> = targets.iter().map(|t| t.summary.clone()).collect();
    let choice = DeviceChoice {
        index: None,
        name: Some("llvmpipe".into()),
    };
    let i = select(&summaries, &choice).expect("lavapipe (llvmpipe) must be installed");
    targets[i].clone()
}

fn assert_no_validation_messages(instance: &Instance) {
    let messages = instance.validation_messages();
    assert!(messages.is_empty(), "validation reported: {messages:#?}");
}

/// The loader here (Debian 12's 1.3.239) offers `VK_KHR_portability_enumeration`, as the macOS
/// loader does: the instance enables it (with its create flag, which validation checks) and
/// the devices are still listed. Lavapipe implements all of Vulkan, so it is no portability
/// device.
#[test]
fn portability_enumeration_is_enabled_where_the_loader_offers_it() {
    let instance = instance();
    // SAFETY: plain loader queries.
    let offered = unsafe {
        instance
            .entry()
            .enumerate_instance_extension_properties(None)
    }
    .unwrap()
    .iter()
    .any(|e| {
        e.extension_name_as_c_str()
            .is_ok_and(|n| n == ash::khr::portability_enumeration::NAME)
    });
    // SAFETY: as above.
    let loader = unsafe { instance.entry().try_enumerate_instance_version() }
        .unwrap()
        .unwrap_or(ash::vk::API_VERSION_1_0);
    if loader >= ash::vk::make_api_version(0, 1, 3, 216) {
        assert!(offered, "a 1.3.216+ loader offers portability enumeration");
    }
    assert_eq!(instance.portability_enumeration(), offered);
    let target = lavapipe(&instance);
    assert!(!target.summary.portability_subset);
    assert!(!target.summary.describe().contains("portability"));
    assert_no_validation_messages(&instance);
}

#[test]
fn enumeration_and_selection_find_llvmpipe() {
    let instance = instance();
    let targets = compute_targets(instance.handle(), instance.api_version()).unwrap();
    let summaries: Vec<_> = targets.iter().map(|t| t.summary.clone()).collect();
    let lvp = summaries
        .iter()
        .position(|s| s.name.contains("llvmpipe"))
        .expect("llvmpipe listed");
    let t = &targets[lvp];
    assert!(t.timestamp_valid_bits > 0 && t.timestamp_period > 0.0);
    assert!(t.max_compute_work_group_count.iter().all(|&m| m >= 65535));
    assert!(t.api_version_string().starts_with("1."));
    assert!(!t.driver_name.is_empty());

    let pick = |index: Option<usize>, name: Option<&str>| {
        select(
            &summaries,
            &DeviceChoice {
                index,
                name: name.map(String::from),
            },
        )
    };
    // `-1` is the first listed target; on a GPU-less machine that is lavapipe.
    assert_eq!(pick(Some(1), None).unwrap(), 0);
    assert_eq!(
        summaries[pick(None, Some("llvm")).unwrap()].name,
        t.summary.name
    );
    assert_eq!(
        summaries[pick(Some(1), Some("LLVM")).unwrap()].name,
        t.summary.name
    );
    assert!(pick(Some(0), None)
        .unwrap_err()
        .to_string()
        .contains("llvmpipe"));
    let past = summaries.len() + 1;
    assert!(pick(Some(past), None)
        .unwrap_err()
        .to_string()
        .contains("out of range"));
    assert!(pick(Some(9), Some("llvm"))
        .unwrap_err()
        .to_string()
        .contains("match 'llvm'"));
    assert!(pick(None, Some("no such gpu"))
        .unwrap_err()
        .to_string()
        .contains("no device name contains"));
    assert_no_validation_messages(&instance);
}

#[test]
fn every_case_matches_the_cpu_model() {
    let instance = instance();
    let target = lavapipe(&instance);
    let mut bench = Bench::new(Context::new(instance.clone(), &target).unwrap()).unwrap();
    let mut failures = Vec::new();
    for case in original_cases() {
        let kernel = bench.prepare(&case).unwrap();
        let readback = bench.verify(kernel).unwrap();
        assert_eq!(readback.sums.len(), VERIFY_THREADS as usize);
        assert!(readback.written.is_empty());
        let outcome = verify(&case, &readback);
        if !outcome.passed() {
            failures.push(format!("{}: {:?}", case.name, outcome.first));
        }
    }
    assert!(
        failures.is_empty(),
        "{} cases failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
    drop(bench);
    assert_no_validation_messages(&instance);
}

#[test]
fn timed_dispatch_is_positive_and_plausible() {
    let instance = instance();
    let target = lavapipe(&instance);
    let mut bench = Bench::new(Context::new(instance.clone(), &target).unwrap()).unwrap();
    let cases = select_cases(&original_cases(), &["raw.load4.random".into()]).unwrap();
    let kernel = bench.prepare(&cases[0]).unwrap();
    let small = bench.time(kernel, [1, 1, 1], 3).unwrap();
    let large = bench.time(kernel, [64, 1, 1], 3).unwrap();
    assert_eq!(small.len(), 3);
    for d in small.iter().chain(&large) {
        // 65536 loads per group: more than a microsecond, less than a second on any CPU.
        assert!(
            *d > Duration::from_micros(1) && *d < Duration::from_secs(1),
            "{d:?}"
        );
    }
    // 64 times the work takes clearly longer, however busy the CPU cores are.
    let fastest = |v: &[Duration]| v.iter().min().copied().unwrap();
    assert!(
        fastest(&large) > fastest(&small) * 4,
        "64 groups ({large:?}) should take much longer than 1 ({small:?})"
    );
    // Out-of-range requests are refused, not sent to the driver.
    assert!(matches!(
        bench.time(kernel, [0, 1, 1], 1),
        Err(Error::InvalidArgument(_))
    ));
    assert!(matches!(
        bench.time(kernel, [1, 1, 1], 0),
        Err(Error::InvalidArgument(_))
    ));
    drop(bench);
    assert_no_validation_messages(&instance);
}

#[test]
fn a_dispatch_longer_than_the_fence_timeout_is_an_error() {
    let instance = instance();
    let target = lavapipe(&instance);
    let mut bench = Bench::new(Context::new(instance.clone(), &target).unwrap()).unwrap();
    let cases = select_cases(
        &original_cases(),
        &["tex.sample.bilinear.rgba32f.random".into()],
    )
    .unwrap();
    let kernel = bench.prepare(&cases[0]).unwrap();
    bench
        .context_mut()
        .set_fence_timeout(Duration::from_micros(1));
    let err = bench.time(kernel, [256, 1, 1], 1).unwrap_err();
    assert!(matches!(err, Error::Timeout { .. }), "{err}");
    assert!(err.to_string().contains("did not finish"));
    // After a generous timeout the context is usable again.
    bench
        .context_mut()
        .set_fence_timeout(Duration::from_secs(60));
    assert_eq!(bench.time(kernel, [1, 1, 1], 1).unwrap().len(), 1);
    drop(bench);
    assert_no_validation_messages(&instance);
}

#[test]
fn the_validation_log_records_real_errors() {
    // Guards the guard: a deliberately invalid call must show up in the log.
    let instance = instance();
    let target = lavapipe(&instance);
    let ctx = Context::new(instance.clone(), &target).unwrap();
    let info = perftest_core::ash::vk::BufferCreateInfo::default()
        .size(0)
        .usage(perftest_core::ash::vk::BufferUsageFlags::STORAGE_BUFFER);
    // SAFETY: size 0 is invalid usage on purpose; the layer reports it. If the driver still
    // creates a buffer, it is destroyed right away.
    unsafe {
        if let Ok(b) = ctx.device().create_buffer(&info, None) {
            ctx.device().destroy_buffer(b, None);
        }
    }
    let messages = instance.validation_messages();
    assert!(
        messages
            .iter()
            .any(|m| m.id.contains("VUID-VkBufferCreateInfo-size")),
        "{messages:#?}"
    );
}

/// The data of the uniform-buffer family and of the constant paths that read a buffer lies at
/// four places 32 KB apart, and their kernels read the same data, verified and timed, wherever
/// they are put; other cases (the push-constant path, other families) have one place, and a
/// place that does not exist is refused.
#[test]
fn uniform_buffer_data_verifies_and_times_at_every_place() {
    let instance = instance();
    let target = lavapipe(&instance);
    let mut bench = Bench::new(Context::new(instance.clone(), &target).unwrap()).unwrap();
    let mut cases = select_cases(&original_cases(), &["cbuffer".into()]).unwrap();
    let constants = select_cases(&cases_in(&[Suite::Memory]), &["mem.const.".into()]).unwrap();
    let (push, constants): (Vec<_>, Vec<_>) = constants
        .into_iter()
        .partition(|c| c.id == "mem.const.push");
    assert_eq!((cases.len(), push.len(), constants.len()), (3, 1, 6));
    cases.extend(constants);
    for case in &cases {
        let kernel = bench.prepare(case).unwrap();
        let offsets = bench.data_places(kernel).unwrap();
        assert_eq!(offsets.len(), 4, "{}", case.id);
        for pair in offsets.windows(2) {
            assert_eq!(pair[1] - pair[0], 32 * 1024, "{offsets:?}");
        }
        for place in (0..offsets.len()).rev() {
            bench.put_data(kernel, place).unwrap();
            let outcome = verify(case, &bench.verify(kernel).unwrap());
            assert!(
                outcome.passed(),
                "{} at {place}: {:?}",
                case.id,
                outcome.first
            );
            assert_eq!(bench.time(kernel, [2, 1, 1], 1).unwrap().len(), 1);
        }
        assert!(matches!(
            bench.put_data(kernel, offsets.len()),
            Err(Error::InvalidArgument(_))
        ));
    }
    let mut others = select_cases(&original_cases(), &["raw.load4.random".into()]).unwrap();
    others.extend(push);
    for case in &others {
        let kernel = bench.prepare(case).unwrap();
        assert_eq!(bench.data_places(kernel).unwrap(), [0], "{}", case.id);
        bench.put_data(kernel, 0).unwrap();
        assert!(bench.put_data(kernel, 1).is_err());
        assert!(verify(case, &bench.verify(kernel).unwrap()).passed());
    }
    drop(bench);
    assert_no_validation_messages(&instance);
}
