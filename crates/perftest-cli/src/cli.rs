//! The command line: clap definitions, the typed values they parse (each checked by clap, so a
//! value out of range is a usage error naming its option), and the seed's `-N` device-index
//! shorthand.
//!
//! A run does one thing: time one device (the default), time every device (`--all-devices`),
//! verify (`--verify`), list the devices (`--list`) or list the cases (`--list-cases`). The
//! four flags form one exclusive group, and each refuses the options it would ignore, so a
//! contradicting command line is refused before anything runs rather than half obeyed.

use std::ffi::OsString;
use std::path::PathBuf;

use clap::builder::PossibleValue;
use clap::{Args, CommandFactory, Parser, Subcommand};
use perftest_cases::Suite;

use crate::export::ExportFormat;

/// Options that only shape a timing run, refused by `--verify`, `--list` and `--list-cases`.
const TIMING_ONLY: [&str; 15] = [
    "no_verify",
    "target_ms",
    "samples",
    "dispatch_ms",
    "warmup_max",
    "placements",
    "no_refine",
    "pipeline_cache",
    "baseline",
    "format",
    "output",
    "clock_mhz",
    "shader_units",
    "shader_stats",
    "dump_shaders",
];

/// The device choice, refused where no device is chosen (`--list`, `--list-cases`,
/// `--all-devices`).
const DEVICE_CHOICE: [&str; 2] = ["device_name", "device_index"];

/// What selects cases, and what only a run on a device uses: refused by `--list`.
const CASES_AND_DEVICE_WORK: [&str; 4] = ["suite", "filter", "max_working_set", "fence_timeout_ms"];

/// Shown below `-h`.
const SHORT_EXAMPLES: &str = "\
Examples:
  perftest                          run the original's 138 cases on the preferred device
  perftest -2                       the same on device 2 of --list
  perftest RTX -2                   the second device whose name contains 'RTX'
  perftest --format json -o run.json && perftest render run.json --format html -o run.html";

/// Shown below `--help`.
const LONG_EXAMPLES: &str = "\
Examples:
  perftest --list                   list devices
  perftest                          run the original's 138 cases on the preferred device
  perftest -2                       run on device 2 of the list
  perftest RTX -2                   the second device whose name contains 'RTX'
  perftest --filter texture2d --format markdown
  perftest --suite original,memory --list-cases
  perftest --verify                 check every case against the CPU model
  perftest --format json -o run.json          write the report to run.json instead of stdout
  perftest --all-devices --format json -o 'node-{pci}.json'
  perftest compare before.json after.json
  perftest render run.json --format html -o run.html";

/// Measures how fast a GPU's shader cores load data, per resource type, format and pattern.
///
/// Resource types: typed, raw, structured and uniform buffers, texture loads and samples;
/// formats R8 to RGBA32F; access patterns uniform, linear and random. A Vulkan re-creation of
/// sebbbi/perftest, with five more suites (modern, texture, memory, graphics, transfer).
#[derive(Debug, Parser)]
#[command(
    name = "perftest",
    version,
    args_conflicts_with_subcommands = true,
    disable_help_flag = true,
    disable_version_flag = true,
    max_term_width = 100,
    after_help = SHORT_EXAMPLES,
    after_long_help = LONG_EXAMPLES
)]
pub struct Cli {
    /// The benchmark run's options.
    #[command(flatten)]
    pub run: RunArgs,
    /// Subcommands (`compare`, `render`).
    #[command(subcommand)]
    pub command: Option<Command>,
    /// Print help (`--help`: the details).
    #[arg(short = 'h', long, action = clap::ArgAction::Help, help_heading = "Diagnostics")]
    help: Option<bool>,
    /// Print the version.
    #[arg(short = 'V', long, action = clap::ArgAction::Version, help_heading = "Diagnostics")]
    version: Option<bool>,
}

/// Subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Compare JSON reports: two side by side, or many with outliers flagged.
    ///
    /// Two reports: per-case throughput ratio B/A, the median and largest change. Three or
    /// more (one per GPU or node): per GPU model, whatever the drivers, per case the median
    /// over its reports, each one's deviation, and outliers flagged (exit 6); a report no
    /// rule could judge (too few of its model) is NOT JUDGED (exit 7 when nothing is flagged).
    Compare {
        /// The reports; the first is the reference (A) when there are two.
        #[arg(required = true, num_args = 2.., value_name = "REPORT")]
        reports: Vec<PathBuf>,
        /// Output format: an aligned table, or a self-contained HTML page.
        ///
        /// The page shows change bars (two reports) or the node table with outliers marked
        /// (three or more).
        #[arg(long, value_enum, default_value_t = CompareFormat::Text)]
        format: CompareFormat,
        /// Write the comparison to FILE (atomically) instead of stdout.
        #[arg(long, short = 'o', value_name = "FILE")]
        output: Option<PathBuf>,
        /// Exit 5 when any case got slower by more than PCT percent (two reports).
        ///
        /// A case's slowdown is the drop of its throughput from A to B. A gate that compared
        /// fewer than half of A's measured cases gives no verdict: exit 7.
        #[arg(long, value_name = "PCT", allow_hyphen_values = true, value_parser = crate::gate::parse_limit)]
        fail_above: Option<f64>,
        /// Exit 5 when the median change is a slowdown of more than PCT percent (two reports).
        #[arg(long, value_name = "PCT", allow_hyphen_values = true, value_parser = crate::gate::parse_limit)]
        fail_median: Option<f64>,
        /// Print help (`--help`: the details).
        #[arg(short = 'h', long, action = clap::ArgAction::Help)]
        help: Option<bool>,
    },
    /// Print a saved JSON report again in another format (e.g. a Markdown table).
    Render {
        /// The JSON report written by `--format json -o FILE`.
        report: PathBuf,
        /// Output format.
        #[arg(long, value_enum, default_value_t = ExportFormat::Text)]
        format: ExportFormat,
        /// Write the report to FILE (atomically) instead of stdout.
        #[arg(long, short = 'o', value_name = "FILE")]
        output: Option<PathBuf>,
        /// Print help (`--help`: the details).
        #[arg(short = 'h', long, action = clap::ArgAction::Help)]
        help: Option<bool>,
    },
}

/// Output formats of `perftest compare`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum CompareFormat {
    /// Aligned table: the changes with their median and largest (two reports), or the node
    /// table with outliers flagged (three or more).
    #[default]
    Text,
    /// A self-contained HTML page: per-case change bars (green faster, red slower) and the
    /// table (two reports), or the node table with flagged cells marked (three or more).
    Html,
    /// Three or more reports of different GPUs only: the matrix, its legend and the advice
    /// across GPUs as Markdown.
    Markdown,
    /// Three or more reports of different GPUs only: the matrix, its legend and the advice
    /// across GPUs as JSON.
    Json,
}

/// One word of `--suite`: a suite, `answers` for the cases the answers read, or `all` for
/// every suite. The suites' words are their own names ([`Suite::name`]), so the list lives in
/// one place.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SuiteChoice {
    /// One suite.
    One(Suite),
    /// The cases the findings and the guidance read, from every suite
    /// ([`perftest_report::answers::answer_cases`]).
    Answers,
    /// Every suite.
    All,
}

impl SuiteChoice {
    /// Every word, in the order `--help` lists them: each suite, then `answers`, then `all`.
    const VARIANTS: [SuiteChoice; Suite::ALL.len() + 2] = {
        let mut variants = [SuiteChoice::All; Suite::ALL.len() + 2];
        let mut i = 0;
        while i < Suite::ALL.len() {
            variants[i] = SuiteChoice::One(Suite::ALL[i]);
            i += 1;
        }
        variants[i] = SuiteChoice::Answers;
        variants
    };

    /// The word as given on the command line.
    pub fn name(self) -> &'static str {
        match self {
            SuiteChoice::One(suite) => suite.name(),
            SuiteChoice::Answers => "answers",
            SuiteChoice::All => "all",
        }
    }
}

impl clap::ValueEnum for SuiteChoice {
    fn value_variants<'a>() -> &'a [Self] {
        &Self::VARIANTS
    }

    fn to_possible_value(&self) -> Option<PossibleValue> {
        Some(PossibleValue::new(self.name()))
    }
}

/// Options of a benchmark run.
#[derive(Debug, Args)]
pub struct RunArgs {
    /// Pick the device whose name contains NAME (case-insensitive).
    ///
    /// With -N, N indexes the devices that match: `perftest RTX -2` is the second device whose
    /// name contains RTX.
    #[arg(value_name = "NAME", help_heading = "Device")]
    pub device_name: Option<String>,

    /// Pick device N of --list (1-based), also written -N: `perftest -2`.
    ///
    /// The original's syntax: `-N` is rewritten to `--device N` wherever it is not the value of
    /// an option.
    #[arg(
        long = "device",
        value_name = "N",
        allow_negative_numbers = true,
        value_parser = device_number,
        help_heading = "Device"
    )]
    pub device_index: Option<usize>,

    /// List the devices, one line per device and compute queue family, and exit.
    ///
    /// Takes no other option but --validation and -v.
    #[arg(
        long,
        group = "mode",
        conflicts_with_all = DEVICE_CHOICE,
        conflicts_with_all = CASES_AND_DEVICE_WORK,
        conflicts_with_all = TIMING_ONLY,
        help_heading = "Device"
    )]
    pub list: bool,

    /// Time every device at once, then a node summary flagging outliers (exit 6).
    ///
    /// One thread and one report per physical device (its first compute queue family). Without
    /// --output, each device's text table is printed under a `== device N: ... ==` line; with
    /// it, each device's report in --format goes to its own file instead, and stdout gets the
    /// node summary only. The path must then contain {device} (replaced by the device's --list
    /// number) or {pci} (its PCI address, 00000000-18-00.0), or name a directory (which then
    /// receives perftest-device-N.EXT).
    #[arg(
        long,
        group = "mode",
        conflicts_with_all = DEVICE_CHOICE,
        conflicts_with_all = ["shader_stats", "dump_shaders"],
        help_heading = "Device"
    )]
    pub all_devices: bool,

    /// List the chosen suites' cases (id and name, in run order) and exit.
    ///
    /// With more than one suite each line starts with the case's suite. Of the other options it
    /// takes only --suite, --filter and --max-working-set (and --validation, -v): the list is
    /// text, so --format is refused.
    #[arg(
        long,
        group = "mode",
        conflicts_with_all = DEVICE_CHOICE,
        conflicts_with_all = TIMING_ONLY,
        conflicts_with = "fence_timeout_ms",
        help_heading = "Cases"
    )]
    pub list_cases: bool,

    /// Run the cases of SUITE (default: original), e.g. memory,graphics.
    ///
    /// Repeat or separate with commas for several. original: the original's 138 cases; modern: descriptor indexing, device addresses,
    /// large working sets; texture: sampler state and image shapes; memory: latency, bandwidth
    /// and cache sizes; graphics: fragment and vertex shaders, vertex fetch; transfer: loads
    /// from every memory type, uploads, readbacks and launch costs; answers: the cases the
    /// findings and the vendor guidance read, from every suite; all: every suite.
    /// Suites run in that order whatever the order given; --filter selects within them.
    #[arg(
        long,
        value_name = "SUITE",
        value_enum,
        value_delimiter = ',',
        ignore_case = true,
        hide_possible_values = true,
        help_heading = "Cases"
    )]
    pub suite: Vec<SuiteChoice>,

    /// Run only cases whose id or name contains TEXT; repeat for a union.
    ///
    /// A case-insensitive substring, no wildcards. An empty TEXT, which would select every
    /// case, is refused. TEXT may start with a dash (--filter -x, --filter=-x); one that is
    /// one of perftest's options (--filter --list) is refused as a forgotten TEXT.
    #[arg(
        long,
        value_name = "TEXT",
        value_parser = filter_text,
        allow_hyphen_values = true,
        help_heading = "Cases"
    )]
    pub filter: Vec<String>,

    /// Leave out cases whose working set is larger than SIZE (e.g. 64MB).
    ///
    /// SIZE is in bytes, or with KB, MB or GB (binary units). Use it to run the memory suite's
    /// sweep within a small device's memory; a case that does not vary its working set counts
    /// as the original's 16 KB.
    #[arg(
        long,
        value_name = "SIZE",
        allow_hyphen_values = true,
        value_parser = parse_size,
        help_heading = "Cases"
    )]
    pub max_working_set: Option<u64>,

    /// Check every case against its CPU model instead of timing it.
    ///
    /// Prints one pass/FAIL line per selected case and exits 4 on any failure. Takes no timing
    /// option.
    #[arg(
        long,
        group = "mode",
        conflicts_with_all = TIMING_ONLY,
        help_heading = "Measurement"
    )]
    pub verify: bool,

    /// Time cases without checking their results first.
    ///
    /// By default every case is checked against its CPU model before it is timed.
    #[arg(long, help_heading = "Measurement")]
    pub no_verify: bool,

    /// GPU time of one measurement in ms (0.5 to 1000).
    ///
    /// That many --dispatch-ms dispatches, at least --samples and at most 256 of them.
    #[arg(
        long,
        value_name = "MS",
        default_value_t = 12.0,
        allow_hyphen_values = true,
        value_parser = target_ms,
        help_heading = "Measurement"
    )]
    pub target_ms: f64,

    /// Dispatches timed per measurement, at least (1 to 256).
    ///
    /// Each is timestamped; their times are the samples.
    #[arg(
        long,
        value_name = "N",
        default_value_t = 6,
        allow_negative_numbers = true,
        value_parser = clap::value_parser!(u32).range(1..=i64::from(perftest_core::MAX_DISPATCHES_PER_SUBMIT)),
        help_heading = "Measurement"
    )]
    pub samples: u32,

    /// GPU time one dispatch is sized for, in ms (0.05 to 100).
    ///
    /// The time per workgroup depends on it (what a dispatch pays once, its partly idle last
    /// wave), so compare runs made with the same value; --samples and --target-ms leave it
    /// alone.
    #[arg(
        long,
        value_name = "MS",
        default_value_t = perftest_report::sizing::DEFAULT_DISPATCH_NS / 1e6,
        allow_hyphen_values = true,
        value_parser = dispatch_ms,
        help_heading = "Measurement"
    )]
    pub dispatch_ms: f64,

    /// Re-sizes of a case at most (0 to 100).
    ///
    /// How many times a case's first recorded dispatch may be discarded and the case sized
    /// again, when that dispatch lands off its size (clocks that ramped while it was sized).
    #[arg(
        long,
        value_name = "N",
        default_value_t = 5,
        allow_negative_numbers = true,
        value_parser = clap::value_parser!(u32).range(0..=100),
        help_heading = "Measurement"
    )]
    pub warmup_max: u32,

    /// Places in memory the cases' resources take turns at, one per round (1 to 16).
    ///
    /// With more than one, every case measured in the interleaved rounds binds a second (third,
    /// ...) set of the same resources in each following round, so that a run sees whether the
    /// addresses its resources got set how fast a case runs; each sample's place is in the
    /// JSON report (`sample_placements`). The resources of cases that read more than 16 MB
    /// stay where they are; the others take N times their memory.
    #[arg(
        long,
        value_name = "N",
        default_value_t = 1,
        allow_negative_numbers = true,
        value_parser = clap::value_parser!(u32).range(1..=16),
        help_heading = "Measurement"
    )]
    pub placements: u32,

    /// Measure the latency sweep on its doubling grid only.
    ///
    /// By default the sweep then measures the working sets between its levels too (at most 6
    /// rounds), until every transition is known to 1/16 of an octave.
    #[arg(long, help_heading = "Measurement")]
    pub no_refine: bool,

    /// Build pipelines through a Vulkan pipeline cache kept in FILE.
    ///
    /// Loaded when it exists and belongs to this device and driver (otherwise ignored with a
    /// warning), saved after the pipelines are built. Speeds up start-up where the driver
    /// keeps no cache of its own.
    #[arg(long, value_name = "FILE", help_heading = "Measurement")]
    pub pipeline_cache: Option<PathBuf>,

    /// Output format of the report.
    #[arg(long, value_enum, default_value_t = ExportFormat::Text, help_heading = "Output")]
    pub format: ExportFormat,

    /// Write the report in --format to FILE (atomically) instead of stdout.
    ///
    /// Progress and messages stay on stderr, which says where the report went. Should the
    /// file not be writable after the run, the text table is printed on stdout instead, so
    /// nothing measured is lost. `-` is stdout.
    #[arg(long, short = 'o', value_name = "FILE", help_heading = "Output")]
    pub output: Option<PathBuf>,

    /// Case id the `x` column is relative to.
    #[arg(
        long,
        value_name = "ID",
        default_value = perftest_cases::BASELINE_CASE_ID,
        value_parser = case_id,
        help_heading = "Output"
    )]
    pub baseline: String,

    /// Shader clock in MHz for latencies in cycles, not the measured one.
    ///
    /// A run measures the clock itself where the device has a subgroup clock
    /// (VK_KHR_shader_clock) and gives latencies in cycles with it; this value wins and the
    /// measured one is printed beside it. Where the device has no such clock, take it from the
    /// vendor's tools, e.g. `nvidia-smi --query-gpu=clocks.sm` (1 to 100000).
    #[arg(
        long,
        value_name = "MHZ",
        allow_hyphen_values = true,
        value_parser = clock_mhz,
        help_heading = "Output"
    )]
    pub clock_mhz: Option<f64>,

    /// Shader units (SMs, CUs, cores) for rates per clock and unit, where the driver tells none.
    ///
    /// NVIDIA (VK_NV_shader_sm_builtins), AMD (VK_AMD_shader_core_properties) and Arm
    /// (VK_ARM_shader_core_builtins) drivers report their units; for others (Intel, lavapipe)
    /// give the count from the vendor's specifications. A given count wins over the driver's
    /// (1 to 100000).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=100_000), help_heading = "Output")]
    pub shader_units: Option<u32>,

    /// Print the driver's statistics of each case's compiled shader.
    ///
    /// Registers, binary size, ..., below the table on stdout, where the driver offers them
    /// (VK_KHR_pipeline_executable_properties).
    #[arg(long, help_heading = "Output")]
    pub shader_stats: bool,

    /// Write each case's compiled shader to `DIR/<case id>.txt`.
    ///
    /// As the driver shows it (e.g. RADV's assembly), where the driver offers it. DIR is
    /// created if missing.
    #[arg(long, value_name = "DIR", help_heading = "Output")]
    pub dump_shaders: Option<PathBuf>,

    /// Enable the Khronos validation layer; exit 3 if it reports anything.
    #[arg(long, help_heading = "Diagnostics")]
    pub validation: bool,

    /// Print the wall time of each phase on stderr.
    ///
    /// The phases: pipelines, verification, warm-up, sizing, measurements; a line once every case has
    /// had its first measurement round, and one when a stop signal is received.
    #[arg(long, short = 'v', help_heading = "Diagnostics")]
    pub verbose: bool,

    /// When a GPU submission counts as hung, in ms.
    ///
    /// The longest time one submission may take: 1 to 600000, and at least one measurement
    /// (--dispatch-ms times its dispatches), since one submission holds one measurement.
    #[arg(
        long,
        value_name = "MS",
        default_value_t = 10_000,
        allow_negative_numbers = true,
        value_parser = clap::value_parser!(u32).range(1..=600_000),
        help_heading = "Diagnostics"
    )]
    pub fence_timeout_ms: u32,
}

/// Bounds of `--target-ms`.
pub const TARGET_MS_RANGE: (f64, f64) = (0.5, 1000.0);

/// Bounds of `--dispatch-ms`.
pub const DISPATCH_MS_RANGE: (f64, f64) = (0.05, 100.0);

/// Bounds of `--clock-mhz`.
pub const CLOCK_MHZ_RANGE: (f64, f64) = (1.0, 100_000.0);

/// A finite number within `range`, in `unit`.
fn number_in(text: &str, (lo, hi): (f64, f64), unit: &str) -> Result<f64, String> {
    let value: f64 = text
        .trim()
        .parse()
        .map_err(|_| format!("{text:?} is not a number"))?;
    if value.is_finite() && (lo..=hi).contains(&value) {
        Ok(value)
    } else {
        Err(format!("{value} is outside {lo}..={hi} {unit}"))
    }
}

/// `--target-ms`.
fn target_ms(text: &str) -> Result<f64, String> {
    number_in(text, TARGET_MS_RANGE, "ms")
}

/// `--dispatch-ms`.
fn dispatch_ms(text: &str) -> Result<f64, String> {
    number_in(text, DISPATCH_MS_RANGE, "ms")
}

/// `--clock-mhz`.
fn clock_mhz(text: &str) -> Result<f64, String> {
    number_in(text, CLOCK_MHZ_RANGE, "MHz")
}

/// `--device` (`-N`): a whole number; 0 passes here and is refused with the device list.
fn device_number(text: &str) -> Result<usize, String> {
    match text.parse::<i64>() {
        Ok(n) if n < 0 => Err("devices are numbered from 1".into()),
        _ => text.parse().map_err(|e| format!("{e}")),
    }
}

/// `--filter`: any text but an empty one or one of perftest's own options (`--filter --list`
/// forgot its TEXT: no case id or name is an option).
fn filter_text(text: &str) -> Result<String, String> {
    if text.trim().is_empty() {
        return Err(
            "an empty filter would select every case; leave --filter out to run them all".into(),
        );
    }
    let option = text.split_once('=').map_or(text, |(name, _)| name);
    if option.starts_with('-') && option_names().iter().any(|o| o == option) {
        return Err(format!(
            "{option} is one of perftest's options, not a TEXT; give --filter its TEXT first"
        ));
    }
    Ok(text.to_string())
}

/// Every option's long and short forms (`--list`, `-v`), of perftest and its subcommands.
fn option_names() -> Vec<String> {
    fn collect(command: &clap::Command, out: &mut Vec<String>) {
        for arg in command.get_arguments().filter(|a| !a.is_positional()) {
            let longs = arg.get_long_and_visible_aliases().unwrap_or_default();
            out.extend(longs.into_iter().map(|long| format!("--{long}")));
            let shorts = arg.get_short_and_visible_aliases().unwrap_or_default();
            out.extend(shorts.into_iter().map(|short| format!("-{short}")));
        }
        for subcommand in command.get_subcommands() {
            collect(subcommand, out);
        }
    }
    let mut out = vec![
        "--help".to_string(),
        "-h".to_string(),
        "--version".to_string(),
    ];
    collect(&Cli::command(), &mut out);
    out
}

/// `--baseline`: a non-empty case id (whether it names a case is checked against the cases).
fn case_id(text: &str) -> Result<String, String> {
    if text.trim().is_empty() {
        Err("an empty case id".into())
    } else {
        Ok(text.to_string())
    }
}

/// Parses a size: a whole number of bytes, or a number with `KB`, `MB` or `GB` (binary units,
/// case-insensitive, `K`/`M`/`G` and a space allowed): `4096`, `64MB`, `1.5 GB`.
pub fn parse_size(text: &str) -> Result<u64, String> {
    let t = text.trim().to_ascii_lowercase();
    let t = t.strip_suffix('b').unwrap_or(&t);
    let (number, scale) = match t.char_indices().last() {
        Some((i, 'k')) => (&t[..i], 1u64 << 10),
        Some((i, 'm')) => (&t[..i], 1 << 20),
        Some((i, 'g')) => (&t[..i], 1 << 30),
        _ => (t, 1),
    };
    let number = number.trim();
    let value: f64 = number
        .parse()
        .ok()
        .filter(|v: &f64| v.is_finite() && *v > 0.0 && !number.starts_with('+'))
        .ok_or_else(|| format!("{text:?} is not a size (say 4096, 512KB, 64MB or 1GB)"))?;
    let bytes = value * scale as f64;
    if bytes < 1.0 || bytes > (1u64 << 50) as f64 {
        return Err(format!("{text:?} is outside 1 byte..=1 PB"));
    }
    Ok(bytes as u64)
}

/// The options (long and short forms, of perftest and its subcommands) whose next argument is
/// their value, read from the clap definition itself.
fn value_options() -> Vec<String> {
    fn collect(command: &clap::Command, out: &mut Vec<String>) {
        for arg in command.get_arguments() {
            if arg.is_positional() || !arg.get_action().takes_values() {
                continue;
            }
            let longs = arg.get_long_and_visible_aliases().unwrap_or_default();
            out.extend(longs.into_iter().map(|long| format!("--{long}")));
            let shorts = arg.get_short_and_visible_aliases().unwrap_or_default();
            out.extend(shorts.into_iter().map(|short| format!("-{short}")));
        }
        for subcommand in command.get_subcommands() {
            collect(subcommand, out);
        }
    }
    let mut out = Vec::new();
    collect(&Cli::command(), &mut out);
    out
}

/// The subcommands' names (`compare`, `render`), read from the clap definition.
fn subcommand_names() -> Vec<String> {
    Cli::command()
        .get_subcommands()
        .map(|s| s.get_name().to_string())
        .collect()
}

/// Rewrites the seed's `-N` (a dash followed by digits only) into `--device N`, except where
/// it is the value of an option, and not at all in a subcommand (`perftest render -1` reads a
/// report named `-1`; neither subcommand takes a device). `perftest -2` and
/// `perftest RTX -2` then parse as expected.
pub fn normalize_args<I: IntoIterator<Item = OsString>>(args: I) -> Vec<OsString> {
    let value_options = value_options();
    let subcommands = subcommand_names();
    let mut out: Vec<OsString> = Vec::new();
    let mut after_value_option = false;
    let mut after_double_dash = false;
    let mut in_subcommand = false;
    for (i, arg) in args.into_iter().enumerate() {
        let text = arg.to_str().unwrap_or("");
        in_subcommand |= i == 1 && subcommands.iter().any(|s| s == text);
        let is_index = i > 0
            && !in_subcommand
            && !after_value_option
            && !after_double_dash
            && text.len() > 1
            && text.starts_with('-')
            && text[1..].bytes().all(|b| b.is_ascii_digit());
        after_value_option = value_options.iter().any(|o| o == text);
        after_double_dash |= text == "--";
        if is_index {
            out.push("--device".into());
            out.push(text[1..].into());
        } else {
            out.push(arg);
        }
    }
    out
}

/// perftest's own message for argument errors that clap words misleadingly, if `error` is one:
/// a second bare word (`perftest llvm llvm2`, or `perftest -v llvm llvm2` with options before
/// or between the words) is not a subcommand that "cannot be used with `[NAME]`" but one
/// device name too many.
pub fn own_usage_message(error: &clap::Error) -> Option<String> {
    use clap::error::{ContextKind, ContextValue};
    if error.kind() != clap::error::ErrorKind::ArgumentConflict {
        return None;
    }
    // clap lists the one argument given before the word as a string, several as a list.
    let after_name = match error.get(ContextKind::PriorArg) {
        Some(ContextValue::String(prior)) => prior == "[NAME]",
        Some(ContextValue::Strings(priors)) => priors.iter().any(|p| p == "[NAME]"),
        _ => false,
    };
    match error.get(ContextKind::InvalidSubcommand) {
        Some(ContextValue::String(word)) if after_name => Some(format!(
            "perftest: unexpected argument '{word}': give one device NAME at most (a \
                 case-insensitive part of its name; add -N to pick among several that match)\n  \
                 For more information, try '--help'.\n"
        )),
        _ => None,
    }
}

/// For arguments clap refused: a subcommand given after a run's options (`perftest --filter x
/// compare a.json b.json`), which clap reads as a device NAME followed by one word too many.
/// The message says where it goes instead. `None` when the first bare word (not an option or
/// an option's value) is not a subcommand, or stands first.
pub fn misplaced_subcommand(args: &[OsString]) -> Option<String> {
    let value_options = value_options();
    let subcommands = subcommand_names();
    let mut after_value_option = false;
    for (i, arg) in args.iter().enumerate().skip(1) {
        let text = arg.to_str().unwrap_or("");
        if text == "--" {
            return None;
        }
        let bare = !after_value_option && !text.starts_with('-');
        after_value_option = value_options.iter().any(|o| o == text);
        if !bare {
            continue;
        }
        if i == 1 || !subcommands.iter().any(|s| s == text) {
            return None;
        }
        return Some(format!(
            "perftest: '{text}' is a command and must come first, before any option: \
             `perftest {text} ...` (the run's options do not go with it)\n  \
             For more information, try 'perftest help {text}'.\n"
        ));
    }
    None
}

/// Turns clap's rendered error into perftest's form: the first line is `perftest: MESSAGE` (the
/// message's own continuation lines joined into it), then clap's `tip:` lines and its pointer
/// to `--help`; the usage block is left out. Ends with a newline.
pub fn usage_error_text(rendered: &str) -> String {
    let mut blocks = rendered
        .split("\n\n")
        .map(str::trim_end)
        .filter(|b| !b.trim().is_empty());
    let message = blocks.next().unwrap_or("invalid arguments");
    let message = message.strip_prefix("error: ").unwrap_or(message);
    let joined: Vec<&str> = message
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    let mut out = format!("perftest: {}\n", joined.join(" "));
    for block in blocks {
        for line in block.lines() {
            let trimmed = line.trim();
            if trimmed.starts_with("tip:") || trimmed.starts_with("For more information") {
                out.push_str("  ");
                out.push_str(trimmed);
                out.push('\n');
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_device_name_is_called_what_it_is() {
        let error = parse(&["llvm", "llvm2"]).unwrap_err();
        let text = own_usage_message(&error).expect("perftest's own message");
        assert!(
            text.starts_with("perftest: unexpected argument 'llvm2'"),
            "{text}"
        );
        assert!(!text.contains("subcommand"), "{text}");
        assert!(own_usage_message(&parse(&["--samples", "x"]).unwrap_err()).is_none());
        // Options before or between the words change how clap lists what came first.
        for args in [
            &["-v", "llvm", "llvm2"][..],
            &["llvm", "-v", "llvm2"][..],
            &["--samples", "3", "llvm", "llvm2"][..],
            &["--filter", "x", "llvm", "llvm2", "llvm3"][..],
        ] {
            let error = parse(args).unwrap_err();
            let text = own_usage_message(&error).unwrap_or_else(|| error.to_string());
            assert!(
                text.starts_with("perftest: unexpected argument 'llvm2'"),
                "{args:?}: {text}"
            );
            assert!(!text.contains("subcommand"), "{args:?}: {text}");
        }
    }

    /// `--filter` takes a TEXT that starts with a dash, in either form, but not one of
    /// perftest's options (a forgotten TEXT).
    #[test]
    fn a_filter_may_start_with_a_dash() {
        for args in [&["--filter", "-x"][..], &["--filter=-x"][..]] {
            let cli = parse(args).unwrap_or_else(|e| panic!("{args:?}: {e}"));
            assert_eq!(cli.run.filter, ["-x"], "{args:?}");
        }
        let cli = parse(&["--filter", "-2"]).unwrap();
        assert_eq!(cli.run.filter, ["-2"]);
        assert_eq!(cli.run.device_index, None);
        for args in [&["--filter", "--list"][..], &["--filter", "-v"][..]] {
            let error = parse(args).unwrap_err().to_string();
            assert!(
                error.contains("one of perftest's options"),
                "{args:?}: {error}"
            );
        }
    }

    fn parse(args: &[&str]) -> Result<Cli, clap::Error> {
        let args = std::iter::once("perftest")
            .chain(args.iter().copied())
            .map(OsString::from);
        Cli::try_parse_from(normalize_args(args))
    }

    #[test]
    fn dash_digits_is_a_device_index() {
        let cli = parse(&["-2"]).unwrap();
        assert_eq!(cli.run.device_index, Some(2));
        let cli = parse(&["RTX", "-2"]).unwrap();
        assert_eq!(
            (cli.run.device_name.as_deref(), cli.run.device_index),
            (Some("RTX"), Some(2))
        );
        let cli = parse(&["-1", "llvm"]).unwrap();
        assert_eq!(
            (cli.run.device_name.as_deref(), cli.run.device_index),
            (Some("llvm"), Some(1))
        );
        assert_eq!(parse(&["-0"]).unwrap().run.device_index, Some(0));
    }

    /// The first line of `args`' error, in perftest's form.
    fn error_line(args: &[&str]) -> String {
        let error = parse(args).expect_err("a usage error");
        let text = usage_error_text(&error.render().to_string());
        text.lines().next().unwrap_or_default().to_string()
    }

    #[test]
    fn option_values_keep_their_dash() {
        let cli = parse(&["--clock-mhz", "1980", "-4"]).unwrap();
        assert_eq!(
            (cli.run.clock_mhz, cli.run.device_index),
            (Some(1980.0), Some(4))
        );
        // A negative value stays the option's: a range error naming it, not `--device`.
        for (args, option) in [
            (&["--dispatch-ms", "-2"][..], "'--dispatch-ms <MS>'"),
            (&["--target-ms", "-5"][..], "'--target-ms <MS>'"),
            (&["--samples", "-3", "-4"][..], "'--samples <N>'"),
            (
                &["--max-working-set", "-4"][..],
                "'--max-working-set <SIZE>'",
            ),
            (
                &["compare", "a", "b", "--fail-above", "-2"][..],
                "'--fail-above <PCT>'",
            ),
        ] {
            let line = error_line(args);
            assert!(line.contains("invalid value '-"), "{args:?}: {line}");
            assert!(line.contains(option), "{args:?}: {line}");
            assert!(!line.contains("--device"), "{args:?}: {line}");
        }
        let line = error_line(&["--dispatch-ms", "-2"]);
        assert!(line.contains("-2 is outside 0.05..=100 ms"), "{line}");
    }

    /// A subcommand after a run's options is told to come first; a valid command line, or a
    /// subcommand's name as an option's value, is no such case.
    #[test]
    fn a_subcommand_after_options_is_told_to_come_first() {
        let args = |list: &[&str]| -> Vec<OsString> {
            std::iter::once("perftest")
                .chain(list.iter().copied())
                .map(OsString::from)
                .collect()
        };
        let text = misplaced_subcommand(&args(&["--filter", "cbuffer", "compare", "a", "b"]))
            .expect("a message");
        assert!(
            text.starts_with("perftest: 'compare' is a command and must come first"),
            "{text}"
        );
        assert!(misplaced_subcommand(&args(&["-v", "render", "a.json"])).is_some());
        for fine in [
            &["compare", "a", "b"][..],
            &["--filter", "compare"][..],
            &["llvm", "compare"][..],
            &["--", "render"][..],
        ] {
            assert_eq!(misplaced_subcommand(&args(fine)), None, "{fine:?}");
        }
    }

    /// A subcommand takes no device: its `-1` is never `--device 1`. As a report's name it
    /// needs `--` before it, as clap's hint says, naming `-1` (it used to name `--device`).
    #[test]
    fn subcommands_keep_dash_numbers() {
        for args in [&["render", "-1"][..], &["compare", "a.json", "-1"][..]] {
            let line = error_line(args);
            assert!(
                line.contains("unexpected argument '-1'"),
                "{args:?}: {line}"
            );
            assert!(!line.contains("--device"), "{args:?}: {line}");
        }
        let cli = parse(&["render", "--", "-1"]).unwrap();
        assert!(
            matches!(&cli.command, Some(Command::Render { report, .. }) if report.as_os_str() == "-1")
        );
        // A run still reads -N as the device.
        assert_eq!(parse(&["llvm", "-2"]).unwrap().run.device_index, Some(2));
    }

    /// Every option that takes a value is known, with its short form and its subcommand's.
    #[test]
    fn value_options_come_from_the_definition() {
        let options = value_options();
        for known in [
            "--dispatch-ms",
            "--target-ms",
            "--device",
            "--output",
            "-o",
            "--suite",
            "--fail-above",
            "--fail-median",
        ] {
            assert!(options.iter().any(|o| o == known), "{known}: {options:?}");
        }
        for flag in ["--list", "--verbose", "-v", "--help", "-h", "--all-devices"] {
            assert!(!options.iter().any(|o| o == flag), "{flag}: {options:?}");
        }
    }

    /// Values out of range are clap's errors, each naming its option and the range.
    #[test]
    fn ranges_are_checked_by_clap() {
        for (args, needles) in [
            (
                &["--target-ms", "0.4"][..],
                &["--target-ms", "0.5..=1000"][..],
            ),
            (&["--target-ms", "NaN"][..], &["--target-ms"][..]),
            (&["--samples", "0"][..], &["--samples", "1..=256"][..]),
            (&["--samples", "257"][..], &["--samples", "1..=256"][..]),
            (
                &["--dispatch-ms", "101"][..],
                &["--dispatch-ms", "0.05..=100"][..],
            ),
            (
                &["--warmup-max", "101"][..],
                &["--warmup-max", "0..=100"][..],
            ),
            (
                &["--fence-timeout-ms", "0"][..],
                &["--fence-timeout-ms"][..],
            ),
            (
                &["--clock-mhz", "0"][..],
                &["--clock-mhz", "1..=100000 MHz"][..],
            ),
            (
                &["--max-working-set", "lots"][..],
                &["--max-working-set", "not a size"][..],
            ),
            (
                &["--filter", " "][..],
                &["--filter", "select every case"][..],
            ),
            (
                &["--baseline", ""][..],
                &["--baseline", "empty case id"][..],
            ),
            (
                &["--device", "-1"][..],
                &["--device", "numbered from 1"][..],
            ),
            (
                &["--suite", "bogus"][..],
                &["--suite", "'bogus'", "transfer, answers, all"][..],
            ),
            (
                &["compare", "a", "b", "--fail-median", "inf"][..],
                &["--fail-median"][..],
            ),
        ] {
            let error = parse(args).expect_err("out of range");
            assert!(
                matches!(
                    error.kind(),
                    clap::error::ErrorKind::ValueValidation | clap::error::ErrorKind::InvalidValue
                ),
                "{args:?}: {:?}",
                error.kind()
            );
            let line = error_line(args);
            for needle in needles {
                assert!(line.contains(needle), "{args:?}: no {needle:?} in {line}");
            }
        }
        let cli = parse(&[
            "--max-working-set",
            "64MB",
            "--samples",
            "256",
            "--warmup-max",
            "0",
        ])
        .unwrap();
        assert_eq!(cli.run.max_working_set, Some(64 << 20));
        assert_eq!((cli.run.samples, cli.run.warmup_max), (256, 0));
    }

    /// The modes exclude each other, and each refuses what it would ignore.
    #[test]
    fn contradicting_options_are_refused() {
        let modes = ["--list", "--list-cases", "--verify", "--all-devices"];
        for (i, a) in modes.iter().enumerate() {
            for b in &modes[i + 1..] {
                let error = parse(&[a, b]).expect_err("two modes");
                assert_eq!(error.kind(), clap::error::ErrorKind::ArgumentConflict);
                let line = error_line(&[a, b]);
                assert!(line.starts_with("perftest: "), "{line}");
                assert!(line.contains(a) && line.contains(b), "{line}");
            }
        }
        for args in [
            &["--list-cases", "--format", "json"][..],
            &["--list-cases", "-o", "cases.txt"][..],
            &["--list-cases", "--samples", "3"][..],
            &["--list-cases", "-2"][..],
            &["--list-cases", "llvm"][..],
            &["--list", "--target-ms", "5"][..],
            &["--list", "--suite", "memory"][..],
            &["--list", "--filter", "raw"][..],
            &["--list", "-2"][..],
            &["--list", "llvm"][..],
            &["--verify", "--format", "json"][..],
            &["--verify", "-o", "v.json"][..],
            &["--verify", "--no-verify"][..],
            &["--verify", "--shader-stats"][..],
            &["--verify", "--dispatch-ms", "1"][..],
            &["--all-devices", "-2"][..],
            &["--all-devices", "llvm"][..],
            &["--all-devices", "--dump-shaders", "dir"][..],
        ] {
            let error = parse(args).expect_err("a contradiction");
            assert_eq!(
                error.kind(),
                clap::error::ErrorKind::ArgumentConflict,
                "{args:?}"
            );
            assert!(error_line(args).contains("cannot be used with"), "{args:?}");
        }
        // What each mode does use still parses.
        for args in [
            &["--list", "--validation", "-v"][..],
            &[
                "--list-cases",
                "--suite",
                "all",
                "--filter",
                "raw",
                "--max-working-set",
                "1MB",
            ][..],
            &[
                "--verify",
                "-2",
                "--filter",
                "raw",
                "--fence-timeout-ms",
                "100",
            ][..],
            &[
                "--all-devices",
                "--format",
                "json",
                "-o",
                "{device}.json",
                "--samples",
                "3",
            ][..],
            &[
                "RTX",
                "-2",
                "--no-verify",
                "--format",
                "json",
                "-o",
                "run.json",
            ][..],
        ] {
            assert!(parse(args).is_ok(), "{args:?}: {}", error_line(args));
        }
    }
    #[test]
    fn unknown_flags_are_errors() {
        assert!(parse(&["--frobnicate"]).is_err());
        assert!(parse(&["-x"]).is_err());
        assert!(parse(&["--verify", "--no-verify"]).is_err());
    }

    #[test]
    fn compare_subcommand() {
        let cli = parse(&["compare", "a.json", "b.json"]).unwrap();
        assert!(matches!(cli.command, Some(Command::Compare { .. })));
        assert!(parse(&["compare", "a.json"]).is_err());
        let cli = parse(&["compare", "a.json", "b.json", "c.json"]).unwrap();
        assert!(
            matches!(cli.command, Some(Command::Compare { reports, .. }) if reports.len() == 3)
        );
        let cli = parse(&["render", "a.json", "--format", "markdown"]).unwrap();
        assert!(matches!(
            cli.command,
            Some(Command::Render {
                format: ExportFormat::Markdown,
                ..
            })
        ));
    }

    /// The first line of every clap error starts with `perftest:` and holds the whole message.
    #[test]
    fn clap_errors_read_like_perftest_errors() {
        for (args, needle) in [
            (&["--frobnicate"][..], "unexpected argument '--frobnicate'"),
            (&["--samples", "ten"][..], "invalid value 'ten'"),
            (&["compare", "a.json"][..], "2 values required"),
            (&["--verify", "--no-verify"][..], "cannot be used with"),
        ] {
            let error = parse(args).unwrap_err();
            let text = usage_error_text(&error.render().to_string());
            let first = text.lines().next().unwrap();
            assert!(first.starts_with("perftest: "), "{args:?}: {text}");
            assert!(first.contains(needle), "{args:?}: {text}");
            assert!(!text.contains("Usage:"), "{args:?}: {text}");
            assert!(text.lines().skip(1).all(|l| l.starts_with("  ")), "{text}");
            assert!(text.ends_with('\n'));
        }
        assert_eq!(usage_error_text(""), "perftest: invalid arguments\n");
    }

    #[test]
    fn defaults() {
        let cli = parse(&[]).unwrap();
        assert_eq!(cli.run.target_ms, 12.0);
        assert_eq!(cli.run.samples, 6);
        assert_eq!(cli.run.dispatch_ms, 2.0);
        assert_eq!(cli.run.format, ExportFormat::Text);
        assert_eq!(cli.run.baseline, "typed.rgba8.random");
        assert!(cli.run.suite.is_empty());
    }

    #[test]
    fn suite_repeats_and_keeps_commas() {
        let cli = parse(&["--suite", "original,memory", "--suite", "all", "-2"]).unwrap();
        assert_eq!(
            cli.run.suite,
            [
                SuiteChoice::One(Suite::Original),
                SuiteChoice::One(Suite::Memory),
                SuiteChoice::All
            ]
        );
        assert_eq!(cli.run.device_index, Some(2));
        let cli = parse(&["--suite", "Modern"]).unwrap();
        assert_eq!(cli.run.suite, [SuiteChoice::One(Suite::Modern)]);
        // Every suite has its word, then `answers`, and `all` comes last.
        let words: Vec<&str> = SuiteChoice::VARIANTS.iter().map(|c| c.name()).collect();
        assert_eq!(
            words,
            ["original", "modern", "texture", "memory", "graphics", "transfer", "answers", "all"]
        );
    }
}
