//! An "engine" that owns its Vulkan device lends it to perftest-core at start-up, prints which
//! resource types load fastest on this GPU, then keeps using its device.
//!
//! Run: `cargo run --release -p perftest-core --example startup_diagnostics -- [--validation]
//! [--budget-ms N] [--threads N] [--pipeline-cache FILE | --engine-cache] [--timeline] [NAME]`
//!
//! - `NAME`: a substring of the device name; default: the first discrete GPU, else the first
//!   device;
//! - `--budget-ms N`: the probe's wall-time budget, default 250 ms;
//! - `--threads N`: pipeline-building threads (default: the cores, at most 8);
//! - `--pipeline-cache FILE`: load pipelines from FILE and save them there afterwards;
//! - `--engine-cache`: the engine creates a `VkPipelineCache`, lends it to the probe and
//!   destroys it itself afterwards;
//! - `--timeline`: also print every pipeline build and measurement with its start and end.
//!
//! Exits non-zero if anything fails, if nothing was measured or, with `--validation`, if the
//! Khronos validation layer reported any message.

use std::ffi::{c_void, CStr};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use perftest_cases::Pattern;
use perftest_core::ash::{self, vk};
use perftest_core::{Bench, Context, PipelineCacheSource, ProbeSettings};

static VALIDATION_MESSAGES: AtomicUsize = AtomicUsize::new(0);

unsafe extern "system" fn on_message(
    _severity: vk::DebugUtilsMessageSeverityFlagsEXT,
    _types: vk::DebugUtilsMessageTypeFlagsEXT,
    data: *const vk::DebugUtilsMessengerCallbackDataEXT<'_>,
    _user: *mut c_void,
) -> vk::Bool32 {
    VALIDATION_MESSAGES.fetch_add(1, Ordering::SeqCst);
    // SAFETY: the layer passes valid callback data with a NUL-terminated message.
    let text = unsafe { data.as_ref().and_then(|d| d.message_as_c_str()) };
    eprintln!(
        "validation: {}",
        text.map_or("?".into(), CStr::to_string_lossy)
    );
    vk::FALSE
}

/// The engine's own Vulkan objects.
struct Engine {
    _entry: ash::Entry,
    instance: ash::Instance,
    debug: Option<(ash::ext::debug_utils::Instance, vk::DebugUtilsMessengerEXT)>,
    physical_device: vk::PhysicalDevice,
    device: ash::Device,
    queue: vk::Queue,
    queue_family: u32,
}

impl Engine {
    /// Loads the loader, creates the engine's instance (with validation and its messenger
    /// when `validation`), picks a device (see [`pick_device`]) and creates it with one
    /// compute queue that has timestamps.
    fn new(validation: bool, name: Option<&str>) -> Result<Engine, String> {
        // SAFETY: loading the system Vulkan loader.
        let entry = unsafe { ash::Entry::load() }.map_err(|e| format!("no Vulkan loader: {e}"))?;
        let instance = create_instance(&entry, validation)?;
        let debug = if validation {
            Some(create_messenger(&entry, &instance)?)
        } else {
            None
        };
        let physical_device = pick_device(&instance, name)?;
        let (device, queue_family) = create_device(&instance, physical_device)?;
        // SAFETY: queue 0 of the family was requested.
        let queue = unsafe { device.get_device_queue(queue_family, 0) };
        println!(
            "engine: running on {} (queue family {queue_family})",
            describe(&instance, physical_device).0
        );
        Ok(Engine {
            _entry: entry,
            instance,
            debug,
            physical_device,
            device,
            queue,
            queue_family,
        })
    }

    /// Ordinary engine work after the diagnostics: fill a host-visible buffer on the GPU and
    /// read it back, proving the device, queue and memory still work.
    fn keep_working(&self) -> Result<(), String> {
        let d = &self.device;
        // SAFETY: every object is created, used and destroyed here on the engine's device;
        // the fence wait guarantees the GPU is done before reading and destroying.
        unsafe {
            let buffer = d
                .create_buffer(
                    &vk::BufferCreateInfo::default()
                        .size(1024)
                        .usage(vk::BufferUsageFlags::TRANSFER_DST),
                    None,
                )
                .map_err(|e| e.to_string())?;
            let req = d.get_buffer_memory_requirements(buffer);
            let props = self
                .instance
                .get_physical_device_memory_properties(self.physical_device);
            let wanted =
                vk::MemoryPropertyFlags::HOST_VISIBLE | vk::MemoryPropertyFlags::HOST_COHERENT;
            let type_index = (0..props.memory_type_count)
                .find(|&i| {
                    req.memory_type_bits & (1 << i) != 0
                        && props.memory_types[i as usize]
                            .property_flags
                            .contains(wanted)
                })
                .ok_or("no host-visible memory")?;
            let memory = d
                .allocate_memory(
                    &vk::MemoryAllocateInfo::default()
                        .allocation_size(req.size)
                        .memory_type_index(type_index),
                    None,
                )
                .map_err(|e| e.to_string())?;
            d.bind_buffer_memory(buffer, memory, 0)
                .map_err(|e| e.to_string())?;
            let pool = d
                .create_command_pool(
                    &vk::CommandPoolCreateInfo::default().queue_family_index(self.queue_family),
                    None,
                )
                .map_err(|e| e.to_string())?;
            let cb = d
                .allocate_command_buffers(
                    &vk::CommandBufferAllocateInfo::default()
                        .command_pool(pool)
                        .command_buffer_count(1),
                )
                .map_err(|e| e.to_string())?[0];
            d.begin_command_buffer(cb, &vk::CommandBufferBeginInfo::default())
                .map_err(|e| e.to_string())?;
            d.cmd_fill_buffer(cb, buffer, 0, 1024, 0x1234_5678);
            let barrier = [vk::MemoryBarrier::default()
                .src_access_mask(vk::AccessFlags::TRANSFER_WRITE)
                .dst_access_mask(vk::AccessFlags::HOST_READ)];
            d.cmd_pipeline_barrier(
                cb,
                vk::PipelineStageFlags::TRANSFER,
                vk::PipelineStageFlags::HOST,
                vk::DependencyFlags::empty(),
                &barrier,
                &[],
                &[],
            );
            d.end_command_buffer(cb).map_err(|e| e.to_string())?;
            let fence = d
                .create_fence(&vk::FenceCreateInfo::default(), None)
                .map_err(|e| e.to_string())?;
            let cbs = [cb];
            d.queue_submit(
                self.queue,
                &[vk::SubmitInfo::default().command_buffers(&cbs)],
                fence,
            )
            .map_err(|e| e.to_string())?;
            d.wait_for_fences(&[fence], true, 5_000_000_000)
                .map_err(|e| e.to_string())?;
            let ptr = d
                .map_memory(memory, 0, 1024, vk::MemoryMapFlags::empty())
                .map_err(|e| e.to_string())?;
            let first = std::ptr::read(ptr as *const u32);
            d.unmap_memory(memory);
            d.destroy_fence(fence, None);
            d.destroy_command_pool(pool, None);
            d.destroy_buffer(buffer, None);
            d.free_memory(memory, None);
            if first != 0x1234_5678 {
                return Err(format!("engine work read back {first:#x}"));
            }
        }
        println!("engine: device still works after the diagnostics");
        Ok(())
    }
}

/// The engine's Vulkan 1.3 instance, with the validation layer and debug utils when
/// `validation`.
fn create_instance(entry: &ash::Entry, validation: bool) -> Result<ash::Instance, String> {
    let app = vk::ApplicationInfo::default().api_version(vk::API_VERSION_1_3);
    let layers = [c"VK_LAYER_KHRONOS_validation".as_ptr()];
    let extensions = [ash::ext::debug_utils::NAME.as_ptr()];
    let mut info = vk::InstanceCreateInfo::default().application_info(&app);
    if validation {
        info = info
            .enabled_layer_names(&layers)
            .enabled_extension_names(&extensions);
    }
    // SAFETY: the create info points at locals that outlive the call.
    unsafe { entry.create_instance(&info, None) }.map_err(|e| format!("vkCreateInstance: {e}"))
}

/// A messenger that counts and prints the validation layer's warnings and errors.
fn create_messenger(
    entry: &ash::Entry,
    instance: &ash::Instance,
) -> Result<(ash::ext::debug_utils::Instance, vk::DebugUtilsMessengerEXT), String> {
    let utils = ash::ext::debug_utils::Instance::new(entry, instance);
    let info = vk::DebugUtilsMessengerCreateInfoEXT::default()
        .message_severity(
            vk::DebugUtilsMessageSeverityFlagsEXT::WARNING
                | vk::DebugUtilsMessageSeverityFlagsEXT::ERROR,
        )
        .message_type(
            vk::DebugUtilsMessageTypeFlagsEXT::GENERAL
                | vk::DebugUtilsMessageTypeFlagsEXT::VALIDATION
                | vk::DebugUtilsMessageTypeFlagsEXT::PERFORMANCE,
        )
        .pfn_user_callback(Some(on_message));
    // SAFETY: valid instance with the debug-utils extension enabled.
    let messenger = unsafe { utils.create_debug_utils_messenger(&info, None) }
        .map_err(|e| format!("vkCreateDebugUtilsMessengerEXT: {e}"))?;
    Ok((utils, messenger))
}

/// The name and type of `pd`.
fn describe(instance: &ash::Instance, pd: vk::PhysicalDevice) -> (String, vk::PhysicalDeviceType) {
    // SAFETY: `pd` comes from this instance.
    let props = unsafe { instance.get_physical_device_properties(pd) };
    let name = props
        .device_name_as_c_str()
        .map_or(String::new(), |n| n.to_string_lossy().into());
    (name, props.device_type)
}

/// Picks a device: the first whose name contains `name` (any case), else (no `name`) the
/// first discrete GPU, else the first device.
fn pick_device(instance: &ash::Instance, name: Option<&str>) -> Result<vk::PhysicalDevice, String> {
    // SAFETY: plain query on a live instance.
    let devices = unsafe { instance.enumerate_physical_devices() }
        .map_err(|e| format!("vkEnumeratePhysicalDevices: {e}"))?;
    let found = devices
        .iter()
        .copied()
        .find(|&pd| match name {
            Some(n) => describe(instance, pd)
                .0
                .to_lowercase()
                .contains(&n.to_lowercase()),
            None => describe(instance, pd).1 == vk::PhysicalDeviceType::DISCRETE_GPU,
        })
        .or_else(|| {
            if name.is_none() {
                devices.first().copied()
            } else {
                None
            }
        });
    Ok(found.ok_or("no matching Vulkan device")?)
}

/// Creates the engine's device on `physical_device` with one queue of the first family that
/// computes and has timestamps; returns the device and that family.
fn create_device(
    instance: &ash::Instance,
    physical_device: vk::PhysicalDevice,
) -> Result<(ash::Device, u32), String> {
    // SAFETY: `physical_device` comes from this instance.
    let families = unsafe { instance.get_physical_device_queue_family_properties(physical_device) };
    let queue_family = families
        .iter()
        .position(|f| f.queue_flags.contains(vk::QueueFlags::COMPUTE) && f.timestamp_valid_bits > 0)
        .ok_or("no compute queue with timestamps")? as u32;
    let priorities = [1.0];
    let queues = [vk::DeviceQueueCreateInfo::default()
        .queue_family_index(queue_family)
        .queue_priorities(&priorities)];
    // SAFETY: valid physical device and create info.
    let device = unsafe {
        instance.create_device(
            physical_device,
            &vk::DeviceCreateInfo::default().queue_create_infos(&queues),
            None,
        )
    }
    .map_err(|e| format!("vkCreateDevice: {e}"))?;
    Ok((device, queue_family))
}

impl Drop for Engine {
    fn drop(&mut self) {
        // SAFETY: the engine created these objects; the device is idle.
        unsafe {
            let _ = self.device.device_wait_idle();
            self.device.destroy_device(None);
            if let Some((utils, messenger)) = self.debug.take() {
                utils.destroy_debug_utils_messenger(messenger, None);
            }
            self.instance.destroy_instance(None);
        }
    }
}

/// What the command line asked for.
#[derive(Default)]
struct Options {
    validation: bool,
    budget_ms: u64,
    threads: Option<usize>,
    pipeline_cache: Option<std::path::PathBuf>,
    engine_cache: bool,
    timeline: bool,
    name: Option<String>,
}

impl Options {
    fn parse(args: &[String]) -> Result<Options, String> {
        let mut o = Options {
            budget_ms: 250,
            ..Options::default()
        };
        let mut rest = args.iter();
        let number = |v: Option<&String>, flag: &str| {
            v.and_then(|v| v.parse::<u64>().ok())
                .ok_or(format!("{flag} needs a whole number"))
        };
        while let Some(arg) = rest.next() {
            match arg.as_str() {
                "--validation" => o.validation = true,
                "--timeline" => o.timeline = true,
                "--engine-cache" => o.engine_cache = true,
                "--budget-ms" => o.budget_ms = number(rest.next(), arg)?,
                "--threads" => {
                    o.threads = Some(usize::try_from(number(rest.next(), arg)?).unwrap_or(1))
                }
                "--pipeline-cache" => {
                    o.pipeline_cache =
                        Some(rest.next().ok_or("--pipeline-cache needs a file")?.into())
                }
                flag if flag.starts_with("--") => return Err(format!("unknown option {flag}")),
                name => o.name = Some(name.to_string()),
            }
        }
        if o.engine_cache && o.pipeline_cache.is_some() {
            return Err("--engine-cache and --pipeline-cache exclude each other".into());
        }
        Ok(o)
    }
}

fn diagnostics(engine: &Engine, options: &Options) -> Result<usize, perftest_core::Error> {
    let budget = Duration::from_millis(options.budget_ms);
    // The engine's own pipeline cache, lent to the probe and destroyed here afterwards.
    let engine_cache = if options.engine_cache {
        // SAFETY: valid device; an empty cache.
        let cache = unsafe {
            engine
                .device
                .create_pipeline_cache(&vk::PipelineCacheCreateInfo::default(), None)
        }
        .map_err(|result| perftest_core::Error::Vulkan {
            call: "vkCreatePipelineCache",
            result,
        })?;
        Some(cache)
    } else {
        None
    };
    let start = Instant::now();
    // SAFETY: the engine's handles are valid, related, and outlive `bench` (dropped below);
    // the engine does not touch its queue while perftest runs.
    let context = unsafe {
        Context::borrow(
            &engine.instance,
            vk::API_VERSION_1_3,
            engine.physical_device,
            &engine.device,
            engine.queue,
            engine.queue_family,
        )
    }?;
    let mut bench = Bench::new(context)?;
    // The budget covers everything, resource set-up included.
    let settings = ProbeSettings {
        budget: budget.saturating_sub(start.elapsed()),
        build_threads: options.threads,
        pipeline_cache: match (&options.pipeline_cache, engine_cache) {
            (Some(path), _) => PipelineCacheSource::File(path.clone()),
            (None, Some(cache)) => PipelineCacheSource::Borrowed(cache),
            (None, None) => PipelineCacheSource::None,
        },
        ..ProbeSettings::default()
    };
    let report = bench.probe(&perftest_cases::quick_cases(), &settings);
    drop(bench); // destroys perftest's objects; the engine's device stays
    let wall = start.elapsed();
    if let Some(cache) = engine_cache {
        // SAFETY: the engine's cache; the probe is over and never destroys it.
        unsafe { engine.device.destroy_pipeline_cache(cache, None) };
    }
    let report = report?;
    println!("{report}");
    for width in [4, 16] {
        for pattern in Pattern::ALL {
            match report.fastest(pattern, width) {
                Some((best, ratio)) => println!(
                    "engine: {width:>2}-byte {:<7} loads: use {} ({ratio:.2}x the next best)",
                    pattern.name(),
                    best.case.name
                ),
                None => println!(
                    "engine: {width:>2}-byte {:<7} loads: no ranking (fewer than two candidates \
                     measured)",
                    pattern.name()
                ),
            }
        }
    }
    // The same findings and advice the `perftest` command prints, from the probe's cases.
    for advice in report.findings().advice.iter().take(3) {
        println!(
            "engine: advice: {} [{}]",
            advice.text,
            advice.findings.join(", ")
        );
    }
    for left in &report.left_out {
        println!("left out: {}: {}", left.case.id, left.reason);
    }
    println!("{}", report.timeline);
    if options.timeline {
        print!("{}", report.timeline.details());
    }
    println!(
        "perftest: quick profile took {:.1} ms wall time from Context::borrow to the report \
         (budget {} ms)",
        wall.as_secs_f64() * 1e3,
        budget.as_millis()
    );
    Ok(report.measured.len())
}

fn main() -> std::process::ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let options = match Options::parse(&args) {
        Ok(o) => o,
        Err(e) => {
            eprintln!("engine: {e}");
            return std::process::ExitCode::from(2);
        }
    };
    let engine = match Engine::new(options.validation, options.name.as_deref()) {
        Ok(e) => e,
        Err(e) => {
            eprintln!("engine: {e}");
            return std::process::ExitCode::FAILURE;
        }
    };
    let result = match diagnostics(&engine, &options) {
        Ok(0) => Err("nothing was measured".to_string()),
        Ok(_) => engine.keep_working(),
        Err(e) => Err(e.to_string()),
    };
    drop(engine);
    let messages = VALIDATION_MESSAGES.load(Ordering::SeqCst);
    if options.validation {
        println!("validation: {messages} message(s)");
    }
    match result {
        Ok(()) if messages == 0 => std::process::ExitCode::SUCCESS,
        Ok(()) => std::process::ExitCode::from(3),
        Err(e) => {
            eprintln!("engine: {e}");
            std::process::ExitCode::FAILURE
        }
    }
}
