//! Vulkan core of perftest: measures how fast a GPU's shader cores load data from L1, per
//! resource type, format and access pattern.
//!
//! The crate enumerates compute targets (device + timestamp-capable compute queue family),
//! creates or borrows a device, uploads the suite's resources, builds one compute pipeline per
//! case from embedded SPIR-V, and runs timestamped dispatches and verification dispatches.
//! Policy — how many dispatches, statistics, output — belongs to the caller.
//!
//! ```no_run
//! use std::sync::Arc;
//! use perftest_core::{compute_targets, select, Bench, Context, DeviceChoice, Instance, InstanceOptions};
//!
//! # fn main() -> Result<(), perftest_core::Error> {
//! let instance = Arc::new(Instance::new(&InstanceOptions::default())?);
//! let targets = compute_targets(instance.handle(), instance.api_version())?;
//! let summaries: Vec<_> = targets.iter().map(|t| t.summary.clone()).collect();
//! let chosen = select(&summaries, &DeviceChoice::default())?;
//! let mut bench = Bench::new(Context::new(instance.clone(), &targets[chosen])?)?;
//! let cases = perftest_cases::original_cases();
//! let kernel = bench.prepare(&cases[0])?;
//! let times = bench.time(kernel, [4, 1024, 1], 3)?;
//! println!("{}: {:?}", cases[0].name, times);
//! # Ok(())
//! # }
//! ```

#![warn(missing_docs)]

mod adapter;
mod barriers;
mod bench;
mod building_blocks;
mod context;
mod error;
mod executables;
mod families;
mod formats;
mod graphics;
mod image_shapes;
mod instance;
mod kernels;
mod library_file;
mod memory;
mod operation;
pub mod pipeline_cache;
mod placed_copies;
mod plan;
mod platform;
mod probe;
mod resources;
mod selection;
mod submitter;
mod targets;
mod timing;
mod validation;

pub use adapter::{Adapter, DynamicRendering, ShaderUnits};
pub use ash;
pub use bench::{Bench, KernelId, MAX_DISPATCHES_PER_SUBMIT, PLACED_FOOTPRINT_MAX};
pub use context::{Context, DEFAULT_FENCE_TIMEOUT};
pub use error::{Error, Result};
pub use executables::{
    InternalRepresentation, PipelineExecutable, ShaderStatistic, StatisticValue,
};
pub use formats::{format_support, vk_format};
pub use instance::{Instance, InstanceOptions, HOST_TIMELINE_THREADS_LAYER};
pub use kernels::{in_waves, specialization, spirv_for};
pub use perftest_cases::{Readback, VerifyOutcome, VERIFY_GROUPS, VERIFY_THREADS};
/// The report's data types, shared with the `perftest` command (see perftest-report).
pub use perftest_report::schema as report;
/// The dispatch-size rule, shared with the `perftest` command (see perftest-report).
pub use perftest_report::sizing;
pub use pipeline_cache::PipelineCacheSource;
pub use probe::{
    CaseThroughput, LeftOut, LeftOutReason, ProbeReport, ProbeSettings, ProbeTimeline, Ranking,
    Span,
};
pub use selection::{listing, select, DeviceChoice, DeviceType, SelectionError, TargetSummary};
pub use targets::{
    compute_targets, describe_target, first_family_per_device, timestamp_compute_families,
    ComputeTarget,
};
pub use timing::elapsed;
pub use validation::{Severity, ValidationMessage};
