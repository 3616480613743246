//! A real engine's device: a `wgpu` application (Vulkan backend) lends its raw Vulkan instance,
//! physical device, device and queue to perftest-core's probe at start-up, prints which
//! resource types load fastest, then keeps using its wgpu device (a buffer round trip whose
//! result is checked) to show that nothing was destroyed, left bound or left waiting.
//!
//! Run: `cargo run --release -p perftest-wgpu-engine --example wgpu_engine -- [--validation]
//! [--budget-ms N] [NAME]` (`NAME`: a substring of the adapter name; default: the first
//! discrete GPU, else the first Vulkan adapter; `N`: the probe's budget, default 250 ms).
//!
//! With `--validation` wgpu enables the Khronos validation layer; every warning or error it
//! (or wgpu) reports is counted and makes the program exit with 3. `--provoke-validation-error`
//! makes one invalid Vulkan call on purpose (CI checks that it is counted, i.e. exit 3). Exits 1 when anything
//! fails, when nothing was measured, or when the data read back is wrong.

use std::future::Future;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::task::Poll;
use std::time::{Duration, Instant};

use perftest_cases::Pattern;
use perftest_core::ash;
use perftest_core::{Bench, Context, ProbeSettings};

/// Warnings and errors reported by the validation layer (through wgpu's messenger) or wgpu.
static PROBLEMS: AtomicUsize = AtomicUsize::new(0);

/// Counts and prints every log record of level warning or error (wgpu-hal logs the validation
/// layer's messages with the layer's severity).
struct CountingLogger;

impl log::Log for CountingLogger {
    fn enabled(&self, metadata: &log::Metadata<'_>) -> bool {
        metadata.level() <= log::Level::Warn
    }

    fn log(&self, record: &log::Record<'_>) {
        if self.enabled(record.metadata()) {
            PROBLEMS.fetch_add(1, Ordering::SeqCst);
            eprintln!("{} {}: {}", record.level(), record.target(), record.args());
        }
    }

    fn flush(&self) {}
}

static LOGGER: CountingLogger = CountingLogger;

/// Runs a future to completion on this thread (wgpu's native futures are ready at once or
/// after `Device::poll`); no async runtime needed.
fn block_on<F: Future>(future: F) -> F::Output {
    let mut future = std::pin::pin!(future);
    let mut cx = std::task::Context::from_waker(std::task::Waker::noop());
    loop {
        if let Poll::Ready(v) = future.as_mut().poll(&mut cx) {
            return v;
        }
        std::thread::yield_now();
    }
}

/// True when the Khronos validation layer is installed (wgpu would silently run without it).
fn validation_layer_installed() -> Result<bool, String> {
    // SAFETY: loading the system Vulkan loader; `entry` lives until the end of the function.
    let entry = unsafe { ash::Entry::load() }.map_err(|e| format!("no Vulkan loader: {e}"))?;
    // SAFETY: plain query of the loader.
    let layers = unsafe { entry.enumerate_instance_layer_properties() }
        .map_err(|e| format!("vkEnumerateInstanceLayerProperties: {e}"))?;
    Ok(layers.iter().any(|l| {
        l.layer_name_as_c_str()
            .is_ok_and(|n| n == c"VK_LAYER_KHRONOS_validation")
    }))
}

/// The application: a wgpu device and queue on the Vulkan backend.
struct App {
    device: wgpu::Device,
    queue: wgpu::Queue,
}

impl App {
    fn new(validation: bool, name: Option<&str>) -> Result<App, String> {
        let flags = if validation {
            wgpu::InstanceFlags::VALIDATION | wgpu::InstanceFlags::DEBUG
        } else {
            wgpu::InstanceFlags::empty()
        };
        let instance = wgpu::Instance::new(wgpu::InstanceDescriptor {
            backends: wgpu::Backends::VULKAN,
            flags,
            ..wgpu::InstanceDescriptor::new_without_display_handle()
        });
        let adapters = block_on(instance.enumerate_adapters(wgpu::Backends::VULKAN));
        let pick = |a: &&wgpu::Adapter| {
            let info = a.get_info();
            match name {
                Some(n) => info.name.to_lowercase().contains(&n.to_lowercase()),
                None => info.device_type == wgpu::DeviceType::DiscreteGpu,
            }
        };
        let adapter = adapters
            .iter()
            .find(pick)
            .or(if name.is_none() {
                adapters.first()
            } else {
                None
            })
            .ok_or("no matching Vulkan adapter")?;
        let (device, queue) = block_on(adapter.request_device(&wgpu::DeviceDescriptor {
            label: Some("app"),
            ..Default::default()
        }))
        .map_err(|e| format!("request_device: {e}"))?;
        device.on_uncaptured_error(Arc::new(|e| {
            PROBLEMS.fetch_add(1, Ordering::SeqCst);
            eprintln!("wgpu error: {e}");
        }));
        println!("app: wgpu on {} (Vulkan)", adapter.get_info().name);
        Ok(App { device, queue })
    }

    /// Creates a zero-sized buffer through the raw device (invalid usage the validation
    /// layer reports), to prove that messages reach the counter.
    fn provoke_validation_error(&self) -> Result<(), String> {
        // SAFETY: the guard keeps the device alive for the call.
        let hal = unsafe { self.device.as_hal::<wgpu::hal::api::Vulkan>() }
            .ok_or("the wgpu device is not a Vulkan device")?;
        let info = ash::vk::BufferCreateInfo::default()
            .size(0)
            .usage(ash::vk::BufferUsageFlags::STORAGE_BUFFER);
        // SAFETY: size 0 is invalid usage on purpose; a buffer the driver creates anyway is
        // destroyed at once and never used.
        unsafe {
            if let Ok(b) = hal.raw_device().create_buffer(&info, None) {
                hal.raw_device().destroy_buffer(b, None);
            }
        }
        Ok(())
    }

    /// Lends the raw Vulkan objects under the wgpu device to perftest-core's probe. The app
    /// first waits for its own work, and does not touch wgpu until the probe returned.
    fn diagnostics(&self, budget: Duration) -> Result<usize, String> {
        self.device
            .poll(wgpu::PollType::wait_indefinitely())
            .map_err(|e| format!("poll: {e}"))?;
        let start = Instant::now();
        // SAFETY: the guard keeps wgpu's Vulkan device alive while the probe runs; nothing
        // perftest creates outlives `bench`, which is dropped before the guard.
        let hal = unsafe { self.device.as_hal::<wgpu::hal::api::Vulkan>() }
            .ok_or("the wgpu device is not a Vulkan device")?;
        let shared = hal.shared_instance();
        // SAFETY: all handles come from one live wgpu device: the instance it was created
        // on, its physical device, its device and its queue of `queue_family_index()`. They
        // outlive `bench`. The app does not use the queue (or wgpu) while perftest submits,
        // and all of its earlier work finished (the poll above).
        let context = unsafe {
            Context::borrow(
                shared.raw_instance(),
                shared.instance_api_version(),
                hal.raw_physical_device(),
                hal.raw_device(),
                hal.raw_queue(),
                hal.queue_family_index(),
            )
        }
        .map_err(|e| e.to_string())?;
        let report = Bench::new(context).and_then(|mut bench| {
            let settings = ProbeSettings {
                budget: budget.saturating_sub(start.elapsed()),
                ..ProbeSettings::default()
            };
            bench.probe(&perftest_cases::quick_cases(), &settings)
            // `bench` drops here: perftest's objects are destroyed, wgpu's are untouched.
        });
        drop(hal);
        let wall = start.elapsed();
        let report = report.map_err(|e| e.to_string())?;
        println!("{report}");
        for width in [4, 16] {
            for pattern in Pattern::ALL {
                match report.fastest(pattern, width) {
                    Some((best, ratio)) => println!(
                        "app: {width:>2}-byte {:<7} loads: {} ({ratio:.2}x the next)",
                        pattern.name(),
                        best.case.name
                    ),
                    None => println!(
                        "app: {width:>2}-byte {:<7} loads: no ranking (fewer than two measured)",
                        pattern.name()
                    ),
                }
            }
        }
        println!("{}", report.timeline);
        println!(
            "perftest: quick profile took {:.1} ms wall time from Context::borrow to the report \
             (budget {} ms)",
            wall.as_secs_f64() * 1e3,
            budget.as_millis()
        );
        Ok(report.measured.len())
    }

    /// Ordinary wgpu work: upload a pattern, copy it to a second buffer, clear the start of
    /// that copy, read it back and check every word.
    fn round_trip(&self) -> Result<(), String> {
        const WORDS: u64 = 1024;
        const CLEARED: u64 = 16;
        let size = WORDS * 4;
        let pattern: Vec<u8> = (0..WORDS as u32)
            .flat_map(|i| i.wrapping_mul(0x9e37_79b9).wrapping_add(1).to_le_bytes())
            .collect();
        let buffer = |label, usage| {
            self.device.create_buffer(&wgpu::BufferDescriptor {
                label: Some(label),
                size,
                usage,
                mapped_at_creation: false,
            })
        };
        let source = buffer(
            "source",
            wgpu::BufferUsages::COPY_SRC | wgpu::BufferUsages::COPY_DST,
        );
        let copy = buffer(
            "copy",
            wgpu::BufferUsages::COPY_SRC | wgpu::BufferUsages::COPY_DST,
        );
        let readback = buffer(
            "readback",
            wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
        );
        self.queue.write_buffer(&source, 0, &pattern);
        let mut encoder = self
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor { label: None });
        encoder.copy_buffer_to_buffer(&source, 0, &copy, 0, size);
        encoder.clear_buffer(&copy, 0, Some(CLEARED * 4));
        encoder.copy_buffer_to_buffer(&copy, 0, &readback, 0, size);
        self.queue.submit([encoder.finish()]);
        let mapped = Arc::new(Mutex::new(None));
        let slot = mapped.clone();
        readback.map_async(wgpu::MapMode::Read, .., move |r| {
            if let Ok(mut s) = slot.lock() {
                *s = Some(r);
            }
        });
        self.device
            .poll(wgpu::PollType::wait_indefinitely())
            .map_err(|e| format!("poll: {e}"))?;
        match mapped.lock().map(|m| m.clone()) {
            Ok(Some(Ok(()))) => {}
            other => return Err(format!("mapping the read-back buffer: {other:?}")),
        }
        let wrong = {
            let view = readback
                .get_mapped_range(..)
                .map_err(|e| format!("get_mapped_range: {e}"))?;
            view.chunks_exact(4)
                .zip(pattern.chunks_exact(4))
                .enumerate()
                .filter(|(i, (got, want))| {
                    let cleared = (*i as u64) < CLEARED;
                    (cleared && *got != [0u8; 4]) || (!cleared && got != want)
                })
                .count()
        };
        readback.unmap();
        if wrong > 0 {
            return Err(format!("{wrong} of {WORDS} words read back wrong"));
        }
        println!("app: wgpu buffer round trip after the probe: all {WORDS} words correct");
        Ok(())
    }
}

fn main() -> std::process::ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let validation = args.iter().any(|a| a == "--validation");
    let provoke = args.iter().any(|a| a == "--provoke-validation-error");
    let mut budget_ms = 250;
    let mut name = None;
    let mut rest = args
        .iter()
        .filter(|a| *a != "--validation" && *a != "--provoke-validation-error");
    while let Some(arg) = rest.next() {
        if arg == "--budget-ms" {
            match rest.next().map(|v| v.parse::<u64>()) {
                Some(Ok(ms)) => budget_ms = ms,
                _ => {
                    eprintln!("app: --budget-ms needs a whole number of milliseconds");
                    return std::process::ExitCode::from(2);
                }
            }
        } else if arg.starts_with("--") {
            eprintln!("app: unknown option {arg}");
            return std::process::ExitCode::from(2);
        } else {
            name = Some(arg.as_str());
        }
    }
    if log::set_logger(&LOGGER).is_ok() {
        log::set_max_level(log::LevelFilter::Warn);
    }
    if validation {
        match validation_layer_installed() {
            Ok(true) => {}
            Ok(false) => {
                eprintln!("app: --validation needs VK_LAYER_KHRONOS_validation (apt-get install vulkan-validationlayers)");
                return std::process::ExitCode::FAILURE;
            }
            Err(e) => {
                eprintln!("app: {e}");
                return std::process::ExitCode::FAILURE;
            }
        }
    }
    let result = App::new(validation, name).and_then(|app| {
        if provoke {
            app.provoke_validation_error()?;
        }
        match app.diagnostics(Duration::from_millis(budget_ms))? {
            0 => Err("nothing was measured".to_string()),
            _ => app.round_trip(),
        }
        // `app` drops here: wgpu destroys its device and instance.
    });
    let problems = PROBLEMS.load(Ordering::SeqCst);
    if validation {
        println!("validation: {problems} message(s)");
    }
    match result {
        Ok(()) if problems == 0 => std::process::ExitCode::SUCCESS,
        Ok(()) => std::process::ExitCode::from(3),
        Err(e) => {
            eprintln!("app: {e}");
            std::process::ExitCode::FAILURE
        }
    }
}
