//! The run report's data: what was measured, on which device, with which settings — the JSON
//! schema `perftest-report/1` that the `perftest` command writes and reads back, and that
//! perftest-core's `ProbeReport::to_report` produces for engines.
//!
//! The report holds raw data only (per-dispatch GPU times); the figures printed from it
//! (medians, rates, the original's columns) are derived by the `perftest` command, so a saved
//! report can be re-rendered in any format later. The schema string names the layout; readers
//! refuse other schemas.

use std::time::{SystemTime, UNIX_EPOCH};

#[cfg(feature = "serde")]
use perftest_cases::Unit;
use perftest_cases::{Case, BASELINE_CASE_ID};

/// The schema this version of perftest writes and reads.
pub const SCHEMA: &str = "perftest-report/1";

/// One run of perftest over a list of cases.
///
/// The cases are [`CaseResult`]s; a writer that adds figures to each case (the derived figures
/// of `perftest --format json`) writes a `Report` of its own case type made by
/// [`Report::with_cases`], so the layout written is declared here once.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Report<C = CaseResult> {
    /// Always [`SCHEMA`] for reports this version writes.
    pub schema: String,
    /// Version of the perftest that wrote the report.
    pub perftest_version: String,
    /// When the run started, RFC 3339 UTC (`2024-05-01T12:00:00Z`).
    pub started_at: String,
    /// When the run ended, RFC 3339 UTC; empty while it is still running.
    pub finished_at: String,
    /// False when the run was interrupted before every selected case ran.
    pub complete: bool,
    /// The device the cases ran on.
    pub device: DeviceInfo,
    /// The measurement settings.
    pub settings: Settings,
    /// Id of the case the `x` column is relative to (`Buffer<RGBA8>.Load random`).
    pub baseline_id: String,
    /// One entry per case that ran (measured, skipped or failed), in suite order.
    pub cases: Vec<C>,
    /// The shader clock measured during the run, where the device has a subgroup clock.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub clock: Option<ClockSamples>,
    /// Where the figures come from when perftest did not measure them: a table another tool
    /// published, read back (absent for perftest's own runs).
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub source: Option<ReportSource>,
}

/// A table another tool published, read as a report: one figure per case, no samples.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ReportSource {
    /// The tool that measured it (`sebbbi/perftest`).
    pub tool: String,
    /// The graphics API it measured with (`Direct3D 11`).
    pub api: String,
    /// The file it was read from, as given.
    pub file: String,
}

/// The raw data of the shader clock measured during a run: a dispatch that spins on the
/// subgroup clock for a known number of ticks, timed between the cases' dispatches in every
/// round, and once more alone at two sizes (so that what a dispatch pays once cancels).
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ClockSamples {
    /// Ticks of the subgroup clock one timed dispatch of `samples_ns` spins.
    pub ticks_per_dispatch: u64,
    /// GPU time of each dispatch timed in the rounds, in nanoseconds.
    pub samples_ns: Vec<f64>,
    /// Each sample's place in the run: the dispatches timed in the rounds before it (the
    /// cases' [`Measurement::seqs`] count the same way).
    pub seqs: Vec<usize>,
    /// Ticks of one workgroup (block) of `alone`.
    pub ticks_per_group: u64,
    /// The clock dispatch measured alone at two sizes after the rounds.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub alone: Option<Measurement>,
}

/// The device and driver a report was measured on.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct DeviceInfo {
    /// `VkPhysicalDeviceProperties::deviceName`.
    pub name: String,
    /// Device type in words (`discrete`, `integrated`, `virtual`, `cpu`, `other`).
    pub device_type: String,
    /// PCI vendor id.
    pub vendor_id: u32,
    /// Vendor-specific device id.
    pub device_id: u32,
    /// `VkPhysicalDeviceDriverProperties::driverName`.
    pub driver_name: String,
    /// `VkPhysicalDeviceDriverProperties::driverInfo`.
    pub driver_info: String,
    /// Vendor-encoded driver version, as reported.
    pub driver_version: u32,
    /// Vulkan version the device supports, `major.minor.patch` (`1.3.255`).
    pub api_version: String,
    /// Index of the queue family the dispatches ran on.
    pub queue_family: u32,
    /// Nanoseconds per timestamp tick (`timestampPeriod`).
    pub timestamp_period_ns: f32,
    /// Valid bits of the queue family's timestamps.
    pub timestamp_valid_bits: u32,
    /// Subgroup size of the compute stage.
    pub subgroup_size: u32,
    /// Workgroups of 256 threads the device runs at once, when the driver tells (NVIDIA, AMD);
    /// dispatch sizes are then whole multiples of it.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub resident_workgroups: Option<u32>,
    /// Shader units, when the driver tells: SMs (`VK_NV_shader_sm_builtins`), compute units
    /// (`VK_AMD_shader_core_properties`, active ones with `..._properties2`) or shader cores
    /// (`VK_ARM_shader_core_builtins`).
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub shader_units: Option<u32>,
    /// What one shader unit does per clock at most, where the driver publishes it
    /// (`VK_ARM_shader_core_properties`): a peak to set the measured rates beside.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub peak_per_unit: Option<PeakRates>,
    /// PCI address as `nvidia-smi` prints it (`00000000:18:00.0`), when the driver reports it.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub pci_bus: Option<String>,
    /// The device's UUID (`VkPhysicalDeviceIDProperties::deviceUUID`), when reported.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub device_uuid: Option<String>,
    /// The memory type each kind of memory resolved to (the transfer suite's memory loads read
    /// from each), in `MemoryKind::ALL` order, kinds the device lacks left out; empty in
    /// reports written before it was recorded.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Vec::is_empty")
    )]
    pub memory_types: Vec<MemoryTypeEntry>,
}

/// The memory type one kind of memory resolved to on a device.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct MemoryTypeEntry {
    /// The kind's word (`device`, `bar`, `host`, `cached`).
    pub kind: String,
    /// The type's index in the device's memory types.
    pub index: u32,
    /// Its property flags in words (`device-local, host-visible, host-coherent`).
    pub flags: String,
    /// The size of its heap, in bytes.
    pub heap_bytes: u64,
}

impl MemoryTypeEntry {
    /// The entry of `kind`, resolved to `info`.
    pub fn new(kind: perftest_cases::MemoryKind, info: &perftest_cases::MemoryTypeInfo) -> Self {
        MemoryTypeEntry {
            kind: kind.word().to_string(),
            index: info.index,
            flags: info.flag_words(),
            heap_bytes: info.heap_bytes,
        }
    }

    /// The entries of every kind that resolved (`kinds` in `MemoryKind::ALL` order, as
    /// `DeviceCaps::memory_kinds` holds them).
    pub fn all(kinds: &[Option<perftest_cases::MemoryTypeInfo>; 4]) -> Vec<Self> {
        perftest_cases::MemoryKind::ALL
            .iter()
            .zip(kinds)
            .filter_map(|(&kind, info)| info.as_ref().map(|i| MemoryTypeEntry::new(kind, i)))
            .collect()
    }

    /// One line for people: `device-local: type 0 (device-local, host-visible), heap 2.0 GiB`.
    pub fn describe(&self) -> String {
        let kind = perftest_cases::MemoryKind::ALL
            .iter()
            .find(|k| k.word() == self.kind)
            .map_or(self.kind.as_str(), |k| k.display());
        format!(
            "{kind}: type {} ({}), heap {:.1} GiB",
            self.index,
            self.flags,
            self.heap_bytes as f64 / f64::from(1u32 << 30)
        )
    }
}

/// The rates a vendor publishes for one shader unit per clock (Arm's
/// `VkPhysicalDeviceShaderCorePropertiesARM`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct PeakRates {
    /// Texels the unit filters per clock.
    pub texels_per_clock: u32,
    /// Fused multiply-adds per clock.
    pub fma_per_clock: u32,
    /// Pixels the unit writes per clock.
    pub pixels_per_clock: u32,
}

/// The settings a run was measured with.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Settings {
    /// Target GPU time of one measurement, in milliseconds, as given.
    pub target_ms: f64,
    /// Timed dispatches recorded per case (noisy cases collect more).
    pub samples: u32,
    /// GPU time one dispatch was sized for, in milliseconds; absent in reports from before it
    /// was fixed (when it was `target_ms / samples`).
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub dispatch_ms: Option<f64>,
    /// Upper bound on warm-up dispatches per case.
    pub warmup_max: u32,
    /// Whether the Vulkan validation layer was enabled.
    pub validation: bool,
    /// Whether every case's results were checked against the CPU model.
    pub verify: bool,
    /// The suites the run selected (`["original"]`); empty in reports written before suites
    /// existed.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Vec::is_empty")
    )]
    pub suites: Vec<String>,
    /// The SM clock the user gave (`--clock-mhz`), in MHz, for latencies in cycles; absent
    /// when not given.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub clock_mhz: Option<f64>,
    /// The shader units the user gave (`--shader-units`), for rates per clock and unit; absent
    /// when not given (the driver's count, where it tells one, is `device.shader_units`).
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub shader_units: Option<u32>,
    /// `--placements`: the places in memory the resources took turns at (absent for one).
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub placements: Option<u32>,
}

/// Threads of one workgroup of an original case.
pub const ORIGINAL_THREADS_PER_GROUP: u32 = 256;

/// Loads one workgroup of an original case performs: 256 threads x 256 loads (textures:
/// 16x16 threads x 16x16 loads).
pub const ORIGINAL_OPS_PER_GROUP: u64 = 256 * 256;

#[cfg(feature = "serde")]
fn load_unit() -> String {
    Unit::Load.name().to_string()
}

#[cfg(feature = "serde")]
fn is_load_unit(unit: &String) -> bool {
    unit == Unit::Load.name()
}

/// What happened to one case.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct CaseResult {
    /// Stable case id (`typed.rgba8.random`).
    pub id: String,
    /// The original's display name (`Buffer<RGBA8>.Load random`).
    pub name: String,
    /// Resource family: its label (`typed_buffer`, `raw_buffer`, `structured_buffer`,
    /// `uniform_buffer`, `texture_load`, `texture_sample`, ...).
    pub family: String,
    /// The suite the case belongs to (`original`); absent in reports written before suites
    /// existed.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub suite: Option<String>,
    /// Bytes one load reads (one store or atomic moves, for those units).
    pub bytes_per_load: u32,
    /// The unit the case counts (`load`, `store`, `atomic`); absent means `load`.
    #[cfg_attr(
        feature = "serde",
        serde(default = "load_unit", skip_serializing_if = "is_load_unit")
    )]
    pub unit: String,
    /// Units one workgroup performs, where not the original's 65,536 (256 threads x 256).
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub ops_per_group: Option<u64>,
    /// Threads of one workgroup, where not the original's 256 (the workgroup-shape cases).
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub threads_per_group: Option<u32>,
    /// Measured, skipped, not reached or failed (serialized inline: `"status": "skipped",
    /// "reason": ...`).
    #[cfg_attr(feature = "serde", serde(flatten))]
    pub status: CaseStatus,
    /// The timing data; present for measured cases.
    pub measurement: Option<Measurement>,
    /// Statistics of the case's compiled shader, from the driver
    /// (`VK_KHR_pipeline_executable_properties`); empty where the driver offers none.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Vec::is_empty")
    )]
    pub shader_stats: Vec<ShaderStat>,
    /// The id of the compute case whose loop this case runs in another shader stage (a
    /// fragment-shader case's compute twin); absent for every other case.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub twin: Option<String>,
    /// For a case read from another tool's published table: the coefficient of variation of
    /// its dispatches as that tool reported it (a fraction: 0.11 = 11%), or `None` where the
    /// source gives none. Such a case has one figure and no samples of its own, so this is the
    /// only spread it has. Absent for perftest's own cases.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub source_cv: Option<f64>,
}

/// One statistic the driver reports about a compiled shader (register count, binary size, ...).
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ShaderStat {
    /// The driver's short name (`Register Count`).
    pub name: String,
    /// The driver's description of it.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "String::is_empty")
    )]
    pub description: String,
    /// Its value.
    pub value: StatValue,
}

/// The value of a [`ShaderStat`]: a yes/no, or a number kept exactly as the driver gave it
/// (an unsigned or signed integer, or a finite real).
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(untagged))]
pub enum StatValue {
    /// A yes/no statistic.
    Bool(bool),
    /// A count or a size.
    Uint(u64),
    /// A signed integer.
    Int(i64),
    /// A finite real number.
    Float(f64),
}

impl std::fmt::Display for StatValue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StatValue::Bool(b) => write!(f, "{b}"),
            StatValue::Uint(n) => write!(f, "{n}"),
            StatValue::Int(n) => write!(f, "{n}"),
            // `{:?}` keeps a whole real recognisable as one (`2.0`), as JSON writes it.
            StatValue::Float(x) => write!(f, "{x:?}"),
        }
    }
}

/// Outcome of one case. A report writes it as `status` and `reason` (and, for a failure, its
/// `kind`); a case not reached is written as a skip whose reason is [`NOT_REACHED`].
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(
    feature = "serde",
    serde(from = "WrittenStatus", into = "WrittenStatus")
)]
pub enum CaseStatus {
    /// Timed; the case's `measurement` holds the samples.
    Measured,
    /// Not run: the device lacks something the case needs.
    Skipped {
        /// What is missing, e.g. `R8 texel buffer not supported`.
        reason: String,
    },
    /// Selected but not run: the run stopped before it (a signal, or a device error on
    /// another case). Written as skipped with the reason [`NOT_REACHED`].
    NotReached,
    /// Ran but failed.
    Failed {
        /// What kind of failure it was.
        kind: FailureKind,
        /// What went wrong, in words.
        reason: String,
    },
}

/// What kind of failure ended a case that ran (a report's `kind`, in snake case).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum FailureKind {
    /// The case ran, but what it wrote did not match its CPU model.
    Verification,
    /// The device was lost (`VK_ERROR_DEVICE_LOST`): a driver reset, a hang or a removal.
    DeviceLost,
    /// GPU work did not finish within the fence timeout.
    Timeout,
    /// Creating the case's shader module or pipeline failed.
    Pipeline,
    /// Any other failure: another Vulkan error, an allocation, timestamps that cannot be
    /// used, a walk cut short, a failure a published table records.
    Other,
}

impl FailureKind {
    /// True for a failure after which the device cannot be trusted for further cases (a lost
    /// device, or GPU work that never finished): the run stops there.
    pub fn stops_the_run(self) -> bool {
        matches!(self, FailureKind::DeviceLost | FailureKind::Timeout)
    }
}

/// How a [`CaseStatus`] is written in a report: the shape reports have always had
/// (`"status": "skipped", "reason": ...`), with a failure's `kind` added. A case not reached is
/// written as skipped with the reason [`NOT_REACHED`].
#[cfg(feature = "serde")]
#[derive(serde::Serialize, serde::Deserialize)]
#[serde(tag = "status", rename_all = "lowercase")]
enum WrittenStatus {
    Measured,
    Skipped {
        reason: String,
    },
    Failed {
        /// Absent in reports written before failures had kinds.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        kind: Option<FailureKind>,
        reason: String,
    },
}

#[cfg(feature = "serde")]
impl From<CaseStatus> for WrittenStatus {
    fn from(status: CaseStatus) -> WrittenStatus {
        match status {
            CaseStatus::Measured => WrittenStatus::Measured,
            CaseStatus::Skipped { reason } => WrittenStatus::Skipped { reason },
            CaseStatus::NotReached => WrittenStatus::Skipped {
                reason: NOT_REACHED.to_string(),
            },
            CaseStatus::Failed { kind, reason } => WrittenStatus::Failed {
                kind: Some(kind),
                reason,
            },
        }
    }
}

#[cfg(feature = "serde")]
impl From<WrittenStatus> for CaseStatus {
    fn from(status: WrittenStatus) -> CaseStatus {
        match status {
            WrittenStatus::Measured => CaseStatus::Measured,
            WrittenStatus::Skipped { reason } if reason == NOT_REACHED => CaseStatus::NotReached,
            WrittenStatus::Skipped { reason } => CaseStatus::Skipped { reason },
            WrittenStatus::Failed { kind, reason } => CaseStatus::Failed {
                kind: kind.unwrap_or_else(|| older_failure_kind(&reason)),
                reason,
            },
        }
    }
}

/// The compatibility reading of older reports, whose failures have no `kind`: the kind their
/// reason's words name, as perftest wrote them (`verification failed: ...`, also after `with
/// its data at byte N of its buffer: `; `... (VK_ERROR_DEVICE_LOST) ...`; `... did not finish
/// within ...`; `vkCreateComputePipelines failed: ...` and the other creation calls), else
/// [`FailureKind::Other`]. Nothing else classifies a case by its reason.
pub fn older_failure_kind(reason: &str) -> FailureKind {
    const PIPELINE_CALLS: [&str; 3] = [
        "vkCreateComputePipelines failed",
        "vkCreateGraphicsPipelines failed",
        "vkCreateShaderModule failed",
    ];
    let mismatch = reason.starts_with("verification failed")
        || (reason.starts_with("with its data at byte")
            && reason.contains(" of its buffer: verification failed"));
    if mismatch {
        FailureKind::Verification
    } else if reason.contains("(VK_ERROR_DEVICE_LOST)") {
        FailureKind::DeviceLost
    } else if reason.contains(" did not finish within ") {
        FailureKind::Timeout
    } else if PIPELINE_CALLS.iter().any(|call| reason.starts_with(call)) {
        FailureKind::Pipeline
    } else {
        FailureKind::Other
    }
}

/// The raw timing data of one measured case.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Measurement {
    /// Workgroups per dispatch (the product of `dims`).
    pub groups: u64,
    /// Dispatch dimensions X, Y, Z.
    pub dims: [u32; 3],
    /// GPU time of each timed dispatch, in nanoseconds.
    pub samples_ns: Vec<f64>,
    /// Each sample's placement (`--placements`): which set of the case's resources it bound,
    /// from 0. Empty for a run with one placement, and in older reports.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Vec::is_empty")
    )]
    pub sample_placements: Vec<u32>,
    /// Dispatches run before the recorded ones: sizing probes, and first dispatches that were
    /// off target and re-sized.
    pub warmup_dispatches: u32,
    /// True when the medians of the first and second half of the samples agree within 2% (and,
    /// for a case measured alone without smaller dispatches, its median is within 25% of the
    /// target).
    pub steady: bool,
    /// Dispatches of a second, smaller size, timed right after `samples_ns` (a pointer chase
    /// has them: about half the groups). The difference of the two medians is the time of the
    /// groups the larger dispatch has in addition, free of whatever every dispatch pays once
    /// (for a chase, the lap that refills the L1, which each dispatch starts empty). Absent for
    /// other cases and in older reports.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub short: Option<ShortDispatches>,
    /// Each sample's place in the run's interleaved rounds (the dispatches timed before it);
    /// empty for cases measured alone and in older reports.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Vec::is_empty")
    )]
    pub seqs: Vec<usize>,
    /// Where the case's data lay, for a case whose data has several places (the uniform-buffer
    /// family's and the constant paths' that read a buffer): each place's offset, its probe,
    /// and the place the samples were taken at. Absent for other cases, in runs with several
    /// `--placements` and in older reports.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub data_places: Option<DataPlaces>,
}

/// Where a case's data lay ([`Measurement::data_places`]): it had several places, identical
/// copies in one buffer, and its samples were taken at the one that the probes found fastest
/// (see `perftest_report::places`).
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct DataPlaces {
    /// Each place's byte offset in the buffer that holds the copies.
    pub offsets: Vec<u64>,
    /// The fastest probe dispatch at each place, in nanoseconds (dispatches of half the
    /// measurement's workgroups, in whole waves where the wave is known, `places::probe_dims`;
    /// counted in `warmup_dispatches`; 0 where none returned a time).
    pub probe_ns: Vec<f64>,
    /// The place (an index into `offsets`) every sample was taken at.
    pub place: u32,
}

/// The smaller dispatches of a [`Measurement`] (see [`Measurement::short`]).
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ShortDispatches {
    /// Workgroups per dispatch (the product of `dims`, fewer than the measurement's).
    pub groups: u64,
    /// Dispatch dimensions X, Y, Z.
    pub dims: [u32; 3],
    /// GPU time of each of these dispatches, in nanoseconds.
    pub samples_ns: Vec<f64>,
}

impl Report {
    /// An empty report for a run starting now: current schema and version, the original's
    /// baseline case, not yet complete.
    pub fn begin(device: DeviceInfo, settings: Settings) -> Report {
        Report {
            schema: SCHEMA.to_string(),
            perftest_version: env!("CARGO_PKG_VERSION").to_string(),
            started_at: now_rfc3339(),
            finished_at: String::new(),
            complete: false,
            device,
            settings,
            baseline_id: BASELINE_CASE_ID.to_string(),
            cases: Vec::new(),
            clock: None,
            source: None,
        }
    }

    /// Stamps the end time; `complete` is false when the run was interrupted.
    pub fn finish(&mut self, complete: bool) {
        self.finished_at = now_rfc3339();
        self.complete = complete;
    }

    /// The baseline case's result, when it is in the report.
    pub fn baseline(&self) -> Option<&CaseResult> {
        self.cases.iter().find(|c| c.id == self.baseline_id)
    }
}

/// The reason a report writes for a case the run selected but stopped before
/// ([`CaseStatus::NotReached`], written as skipped).
pub const NOT_REACHED: &str = "not measured: the run stopped before it";

impl CaseResult {
    /// A measured case.
    pub fn measured(case: &Case, measurement: Measurement) -> CaseResult {
        CaseResult::with_status(case, CaseStatus::Measured, Some(measurement))
    }

    /// A case skipped because the device lacks something it needs.
    pub fn skipped(case: &Case, reason: impl Into<String>) -> CaseResult {
        let status = CaseStatus::Skipped {
            reason: reason.into(),
        };
        CaseResult::with_status(case, status, None)
    }

    /// A case the run selected but did not reach: it stopped first (a signal, or a device
    /// error on another case). Listed so that the report still names every case it selected.
    pub fn not_reached(case: &Case) -> CaseResult {
        CaseResult::with_status(case, CaseStatus::NotReached, None)
    }

    /// Whether this is a case the run did not reach ([`CaseResult::not_reached`]).
    pub fn is_not_reached(&self) -> bool {
        self.status == CaseStatus::NotReached
    }

    /// A case that failed while running, with a failure of `kind`.
    pub fn failed(case: &Case, kind: FailureKind, reason: impl Into<String>) -> CaseResult {
        let status = CaseStatus::Failed {
            kind,
            reason: reason.into(),
        };
        CaseResult::with_status(case, status, None)
    }

    fn with_status(
        case: &Case,
        status: CaseStatus,
        measurement: Option<Measurement>,
    ) -> CaseResult {
        CaseResult {
            id: case.id.clone(),
            name: case.name.clone(),
            family: case.family.label().to_string(),
            suite: Some(case.suite.name().to_string()),
            bytes_per_load: case.bytes_per_load(),
            unit: case.work().unit.name().to_string(),
            ops_per_group: Some(case.ops_per_group()).filter(|&n| n != ORIGINAL_OPS_PER_GROUP),
            threads_per_group: Some(case.threads()).filter(|&n| n != ORIGINAL_THREADS_PER_GROUP),
            status,
            measurement,
            shader_stats: Vec::new(),
            twin: case.family.twin(case).map(|t| t.id),
            source_cv: None,
        }
    }
}

impl CaseStatus {
    /// The lowercase word a report writes as `status` (`measured`, `skipped`, `failed`); a
    /// case not reached is written `skipped`, as reports always have.
    pub fn label(&self) -> &'static str {
        match self {
            CaseStatus::Measured => "measured",
            CaseStatus::Skipped { .. } | CaseStatus::NotReached => "skipped",
            CaseStatus::Failed { .. } => "failed",
        }
    }

    /// Why the case was skipped, not reached ([`NOT_REACHED`]) or failed; `None` for measured
    /// cases.
    pub fn reason(&self) -> Option<&str> {
        match self {
            CaseStatus::Measured => None,
            CaseStatus::NotReached => Some(NOT_REACHED),
            CaseStatus::Skipped { reason } | CaseStatus::Failed { reason, .. } => Some(reason),
        }
    }
}

/// The current time as RFC 3339 UTC with whole seconds (`2024-05-01T12:00:00Z`).
pub fn now_rfc3339() -> String {
    rfc3339_utc(SystemTime::now())
}

/// Formats `time` as RFC 3339 UTC with whole seconds (`2024-05-01T12:00:00Z`), rounding down.
pub fn rfc3339_utc(time: SystemTime) -> String {
    let seconds: i64 = match time.duration_since(UNIX_EPOCH) {
        Ok(after) => i64::try_from(after.as_secs()).unwrap_or(i64::MAX),
        Err(before) => {
            let before = before.duration();
            let whole = i64::try_from(before.as_secs()).unwrap_or(i64::MAX);
            let partial = i64::from(before.subsec_nanos() > 0);
            whole.saturating_neg().saturating_sub(partial)
        }
    };
    let days = seconds.div_euclid(86_400);
    let of_day = seconds.rem_euclid(86_400);
    let (year, month, day) = civil_from_days(days);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        of_day / 3600,
        of_day / 60 % 60,
        of_day % 60
    )
}

/// Proleptic Gregorian date of a day count since 1970-01-01 (H. Hinnant's `civil_from_days`).
fn civil_from_days(days: i64) -> (i64, i64, i64) {
    let z = days.saturating_add(719_468);
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097); // day of era, [0, 146096]
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365; // [0, 399]
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100); // [0, 365], from March 1st
    let mp = (5 * doy + 2) / 153; // [0, 11], March = 0
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

impl<C> Report<C> {
    /// The same report with `cases` in place of its own (each case with what a writer adds to
    /// it, in the same order): every other field as it is.
    pub fn with_cases<D>(&self, cases: Vec<D>) -> Report<D> {
        // Destructured so that a field added to `Report` fails to compile here until it is
        // carried over too.
        let Report {
            schema,
            perftest_version,
            started_at,
            finished_at,
            complete,
            device,
            settings,
            baseline_id,
            cases: _,
            clock,
            source,
        } = self;
        Report {
            schema: schema.clone(),
            perftest_version: perftest_version.clone(),
            started_at: started_at.clone(),
            finished_at: finished_at.clone(),
            complete: *complete,
            device: device.clone(),
            settings: settings.clone(),
            baseline_id: baseline_id.clone(),
            cases,
            clock: clock.clone(),
            source: source.clone(),
        }
    }
}

#[cfg(feature = "serde")]
impl Report {
    /// The report as pretty-printed JSON (what `perftest --format json` writes, less the
    /// derived figures, which readers recompute).
    pub fn to_json(&self) -> String {
        // Serializing these plain types cannot fail: no maps with non-string keys, no
        // non-finite floats reach JSON as anything but null.
        serde_json::to_string_pretty(self).unwrap_or_default()
    }
}

impl DeviceInfo {
    /// A description for a report whose device is not known.
    pub fn unknown() -> DeviceInfo {
        DeviceInfo {
            name: "unknown device".to_string(),
            device_type: "other".to_string(),
            vendor_id: 0,
            device_id: 0,
            driver_name: String::new(),
            driver_info: String::new(),
            driver_version: 0,
            api_version: String::new(),
            queue_family: 0,
            timestamp_period_ns: 0.0,
            timestamp_valid_bits: 0,
            subgroup_size: 0,
            resident_workgroups: None,
            shader_units: None,
            peak_per_unit: None,
            pci_bus: None,
            device_uuid: None,
            memory_types: Vec::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn rfc3339() {
        let at = |s: i64| {
            let t = if s >= 0 {
                UNIX_EPOCH + Duration::from_secs(s.unsigned_abs())
            } else {
                UNIX_EPOCH - Duration::from_secs(s.unsigned_abs())
            };
            rfc3339_utc(t)
        };
        assert_eq!(at(0), "1970-01-01T00:00:00Z");
        assert_eq!(at(951_782_400), "2000-02-29T00:00:00Z");
        assert_eq!(at(1_700_000_000), "2023-11-14T22:13:20Z");
        assert_eq!(at(4_102_444_799), "2099-12-31T23:59:59Z");
        assert_eq!(at(253_402_300_799), "9999-12-31T23:59:59Z");
        assert_eq!(at(-1), "1969-12-31T23:59:59Z");
        assert_eq!(at(-31_622_400), "1968-12-31T00:00:00Z");
        let half = UNIX_EPOCH - Duration::from_millis(500);
        assert_eq!(rfc3339_utc(half), "1969-12-31T23:59:59Z");
        let later = UNIX_EPOCH + Duration::from_millis(1_999);
        assert_eq!(rfc3339_utc(later), "1970-01-01T00:00:01Z");
    }

    /// A unified-memory device's one type serves every kind but uncached host memory.
    fn unified_types() -> Vec<MemoryTypeEntry> {
        let one = perftest_cases::MemoryTypeInfo {
            index: 0,
            flags: 0xf,
            heap_bytes: 2 << 30,
        };
        MemoryTypeEntry::all(&[Some(one), Some(one), None, Some(one)])
    }

    #[test]
    fn memory_types_list_the_kinds_that_resolved() {
        let types = unified_types();
        let kinds: Vec<&str> = types.iter().map(|t| t.kind.as_str()).collect();
        assert_eq!(kinds, ["device", "bar", "cached"]);
        assert_eq!(
            types[2].describe(),
            "host cached: type 0 (device-local, host-visible, host-coherent, host-cached), \
             heap 2.0 GiB"
        );
    }

    #[cfg(feature = "serde")]
    #[test]
    fn memory_types_round_trip_and_stay_out_when_empty() {
        let mut report = crate::samples::sample_report();
        let plain = serde_json::to_string(&report).unwrap_or_default();
        assert!(!plain.contains("memory_types"), "{plain}");
        // A report written before the field existed still loads.
        let old: Report = serde_json::from_str(&plain).unwrap_or_else(|e| panic!("{e}"));
        assert!(old.device.memory_types.is_empty());
        report.device.memory_types = unified_types();
        let text = serde_json::to_string(&report).unwrap_or_default();
        assert!(
            text.contains(r#""memory_types":[{"kind":"device","index":0,"#),
            "{text}"
        );
        assert!(text.contains(r#""heap_bytes":2147483648"#), "{text}");
        let back: Report = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(back, report);
    }

    #[test]
    fn older_reasons_read_as_the_kind_they_name() {
        let cases = [
            (
                "verification failed: thread 3 read 1.0, expected 2.0 (1 of 64 values differ)",
                FailureKind::Verification,
            ),
            (
                "verification failed: nothing was compared",
                FailureKind::Verification,
            ),
            (
                "with its data at byte 256 of its buffer: verification failed: thread 0 read 0",
                FailureKind::Verification,
            ),
            (
                "the device was lost during vkQueueSubmit (VK_ERROR_DEVICE_LOST); results so far \
                 are kept, the device cannot be used any more",
                FailureKind::DeviceLost,
            ),
            (
                "the dispatch did not finish within 2s; the dispatch may be too large for this \
                 device, or the GPU hung",
                FailureKind::Timeout,
            ),
            (
                "vkCreateComputePipelines failed: ERROR_OUT_OF_HOST_MEMORY",
                FailureKind::Pipeline,
            ),
            (
                "vkCreateGraphicsPipelines failed: ERROR_UNKNOWN",
                FailureKind::Pipeline,
            ),
            (
                "vkCreateShaderModule failed: ERROR_INVALID_SHADER_NV",
                FailureKind::Pipeline,
            ),
            (
                "vkCreateBuffer failed: ERROR_OUT_OF_DEVICE_MEMORY",
                FailureKind::Other,
            ),
            ("perftest-vk: error", FailureKind::Other),
            // Only a reason that starts with the words counts, not one that quotes them.
            ("perftest-vk: verification failed", FailureKind::Other),
        ];
        for (reason, kind) in cases {
            assert_eq!(older_failure_kind(reason), kind, "{reason}");
        }
    }

    #[test]
    fn only_failures_that_stop_the_run_stop_it() {
        let stopping: Vec<FailureKind> = [
            FailureKind::Verification,
            FailureKind::DeviceLost,
            FailureKind::Timeout,
            FailureKind::Pipeline,
            FailureKind::Other,
        ]
        .into_iter()
        .filter(|k| k.stops_the_run())
        .collect();
        assert_eq!(stopping, [FailureKind::DeviceLost, FailureKind::Timeout]);
    }

    #[test]
    fn a_case_not_reached_is_labelled_as_reports_write_it() {
        let status = CaseStatus::NotReached;
        assert_eq!(
            (status.label(), status.reason()),
            ("skipped", Some(NOT_REACHED))
        );
    }

    #[cfg(feature = "serde")]
    #[test]
    fn outcomes_are_written_as_before_and_read_back_typed() {
        let written = |status: &CaseStatus| serde_json::to_value(status).unwrap_or_default();
        let not_reached = serde_json::json!({"status": "skipped", "reason": NOT_REACHED});
        assert_eq!(written(&CaseStatus::NotReached), not_reached);
        let skipped = CaseStatus::Skipped {
            reason: "no R8".to_string(),
        };
        let skipped_json = serde_json::json!({"status": "skipped", "reason": "no R8"});
        assert_eq!(written(&skipped), skipped_json);
        let failed = CaseStatus::Failed {
            kind: FailureKind::DeviceLost,
            reason: "lost".to_string(),
        };
        let failed_json =
            serde_json::json!({"status": "failed", "kind": "device_lost", "reason": "lost"});
        assert_eq!(written(&failed), failed_json);
        let read = |v: serde_json::Value| -> CaseStatus {
            serde_json::from_value(v).unwrap_or_else(|e| panic!("{e}"))
        };
        assert_eq!(read(not_reached), CaseStatus::NotReached);
        assert_eq!(read(skipped_json), skipped);
        assert_eq!(read(failed_json), failed);
        // A failure written before kinds existed: the kind its reason names.
        let older = serde_json::json!({"status": "failed", "reason": "verification failed: x"});
        let older_kind = FailureKind::Verification;
        assert!(matches!(read(older), CaseStatus::Failed { kind, .. } if kind == older_kind));
    }

    #[cfg(feature = "serde")]
    #[test]
    fn a_case_not_reached_round_trips_inside_a_report() {
        let mut report = crate::samples::sample_report();
        let last = report.cases.len() - 1;
        report.cases[last].status = CaseStatus::NotReached;
        let text = report.to_json();
        assert!(
            text.contains(&format!("\"reason\": \"{NOT_REACHED}\"")),
            "{text}"
        );
        let back: Report = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(back, report);
        assert!(back.cases[last].is_not_reached());
    }
}
