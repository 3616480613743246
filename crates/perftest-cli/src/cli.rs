//! The command line: clap definitions and the seed's `-N` device-index shorthand.

use std::ffi::OsString;
use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

use crate::export::ExportFormat;

/// Measures how fast a GPU's shader cores load data from the L1 cache, per resource type
/// (typed, raw, structured and uniform buffers, texture loads and samples), format and access
/// pattern (uniform, linear, random). A Vulkan re-creation of sebbbi/perftest.
#[derive(Debug, Parser)]
#[command(
    name = "perftest",
    version,
    args_conflicts_with_subcommands = true,
    after_help = "Examples:\n  perftest --list                  list devices\n  perftest                         run all 138 cases on the preferred device\n  perftest -2                      run on device 2 of the list\n  perftest RTX -2                  the second device whose name contains 'RTX'\n  perftest --filter texture2d --format markdown\n  perftest --suite original,memory --list-cases\n  perftest --verify                check every case against the CPU model\n  perftest --format json --output run.json\n  perftest compare before.json after.json\n  perftest render run.json --format markdown"
)]
pub struct Cli {
    /// The benchmark run's options.
    #[command(flatten)]
    pub run: RunArgs,
    /// Subcommands (`compare`).
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// Subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Compare JSON reports. Two: per-case throughput ratio B/A, median and max change. Three
    /// or more (one per GPU or node): per case the median over them, each one's deviation,
    /// and outliers flagged (exit 6).
    Compare {
        /// The reports; the first is the reference (A) when there are two.
        #[arg(required = true, num_args = 2.., value_name = "REPORT")]
        reports: Vec<PathBuf>,
        /// Output format: an aligned table, or a self-contained HTML page (two reports: change
        /// bars; three or more: the node table with outliers marked).
        #[arg(long, value_enum, default_value_t = CompareFormat::Text)]
        format: CompareFormat,
        /// Write to FILE instead of stdout.
        #[arg(long, short = 'o', value_name = "FILE")]
        output: Option<PathBuf>,
        /// Exit 5 when any case got slower by more than PCT percent (throughput B vs A; two
        /// reports).
        #[arg(long, value_name = "PCT", allow_hyphen_values = true)]
        fail_above: Option<f64>,
        /// Exit 5 when the median change over all cases is a slowdown of more than PCT percent
        /// (two reports).
        #[arg(long, value_name = "PCT", allow_hyphen_values = true)]
        fail_median: Option<f64>,
    },
    /// Print a saved JSON report again in another format (e.g. a Markdown table).
    Render {
        /// The JSON report written by `--format json --output FILE`.
        report: PathBuf,
        /// Output format.
        #[arg(long, value_enum, default_value_t = ExportFormat::Text)]
        format: ExportFormat,
        /// Write to FILE (atomically) instead of stdout.
        #[arg(long, short = 'o', value_name = "FILE")]
        output: Option<PathBuf>,
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
}

/// Options of a benchmark run.
#[derive(Debug, Args, Default)]
pub struct RunArgs {
    /// Pick the device whose name contains NAME (case-insensitive). With -N, N indexes the
    /// devices that match.
    #[arg(value_name = "NAME")]
    pub device_name: Option<String>,

    /// Pick device N of `--list` (1-based); written `-N` as in the original, e.g. `perftest -2`.
    #[arg(long = "device", value_name = "N", allow_negative_numbers = true)]
    pub device_index: Option<i64>,

    /// List the devices (one line per device and compute queue family) and exit.
    #[arg(long)]
    pub list: bool,

    /// Run on every physical device at once (its first compute queue family), one thread and
    /// one report each, then print a node summary flagging outlier devices (exit 6). With
    /// --output, the path must contain {device} (replaced by the device's --list number) or
    /// {pci} (its PCI address, 00000000-18-00.0), or name a directory.
    #[arg(long, conflicts_with_all = ["device_name", "device_index", "verify", "list", "list_cases", "shader_stats", "dump_shaders"])]
    pub all_devices: bool,

    /// List the cases of the chosen suites (id and name, in run order) and exit; with more
    /// than one suite each line starts with the case's suite.
    #[arg(long)]
    pub list_cases: bool,

    /// Run the cases of SUITE: original (the default: the original's 138 cases), modern,
    /// texture, memory, graphics (fragment and vertex shaders, vertex fetch), or all. Repeat or
    /// separate with commas for several; --filter then selects within them.
    #[arg(long, value_name = "SUITE")]
    pub suite: Vec<String>,

    /// Run only cases whose id or name contains TEXT (case-insensitive substring, no
    /// wildcards). Repeat to select the union.
    #[arg(long, value_name = "TEXT")]
    pub filter: Vec<String>,

    /// Leave out cases whose working set is larger than SIZE (bytes, or with KB, MB or GB:
    /// `64MB`), e.g. to run the memory suite's sweep within a small device's memory; a case
    /// that does not vary its working set counts as the original's 16 KB.
    #[arg(long, value_name = "SIZE", allow_hyphen_values = true)]
    pub max_working_set: Option<String>,

    /// The SM clock the device runs at while measuring, in MHz (from the vendor's tools, e.g.
    /// `nvidia-smi --query-gpu=clocks.sm`): the cache-hierarchy section then gives latencies
    /// in cycles too.
    #[arg(long, value_name = "MHZ", allow_hyphen_values = true)]
    pub clock_mhz: Option<f64>,

    /// Check every selected case against its CPU model instead of timing it; prints pass/FAIL
    /// per case, exits 4 on any failure.
    #[arg(long, conflicts_with = "no_verify")]
    pub verify: bool,

    /// Time cases without first checking their results against the CPU model.
    #[arg(long)]
    pub no_verify: bool,

    /// Measure the latency sweep on its doubling grid only. By default the sweep then measures
    /// the working sets between its levels too (at most 4 rounds), until every transition is
    /// known to 1/16 of an octave.
    #[arg(long)]
    pub no_refine: bool,

    /// GPU time of one measurement, in milliseconds (0.5 to 1000): that many --dispatch-ms
    /// dispatches, at least --samples and at most 256 of them.
    #[arg(
        long,
        value_name = "MS",
        default_value_t = 12.0,
        allow_hyphen_values = true
    )]
    pub target_ms: f64,

    /// Timestamped dispatches per measurement, at least; their times are the samples (1 to
    /// 256).
    #[arg(
        long,
        value_name = "N",
        default_value_t = 6,
        allow_negative_numbers = true
    )]
    pub samples: i64,

    /// GPU time one dispatch is sized for, in milliseconds (0.05 to 100). The time per
    /// workgroup depends on it (what a dispatch pays once, its partly idle last wave), so
    /// compare runs made with the same value; --samples and --target-ms leave it alone.
    #[arg(
        long,
        value_name = "MS",
        default_value_t = perftest_core::sizing::DEFAULT_DISPATCH_NS / 1e6,
        allow_hyphen_values = true
    )]
    pub dispatch_ms: f64,

    /// Measurements a case may discard while waiting for steady clocks (0 to 100).
    #[arg(
        long,
        value_name = "N",
        default_value_t = 5,
        allow_negative_numbers = true
    )]
    pub warmup_max: i64,

    /// Case id the `x` column is relative to.
    #[arg(long, value_name = "ID", default_value = perftest_cases::BASELINE_CASE_ID)]
    pub baseline: String,

    /// Output format.
    #[arg(long, value_enum, default_value_t = ExportFormat::Text)]
    pub format: ExportFormat,

    /// Write the report in --format to FILE (atomically) and print the text table.
    #[arg(long, short = 'o', value_name = "FILE")]
    pub output: Option<PathBuf>,

    /// Enable the Khronos validation layer; exit 3 if it reports anything.
    #[arg(long)]
    pub validation: bool,

    /// Print the wall time of each phase (pipelines, verification, warm-up, measurements) on
    /// stderr.
    #[arg(long, short = 'v')]
    pub verbose: bool,

    /// Print the driver's statistics of each case's compiled shader (registers, binary size,
    /// ...) below the table, where the driver offers them (VK_KHR_pipeline_executable_properties).
    #[arg(long)]
    pub shader_stats: bool,

    /// Write each case's compiled shader as the driver shows it (e.g. RADV's assembly) to
    /// `DIR/<case id>.txt`, where the driver offers it. DIR is created if missing.
    #[arg(long, value_name = "DIR")]
    pub dump_shaders: Option<PathBuf>,

    /// Build pipelines through a Vulkan pipeline cache kept in FILE: loaded when it exists and
    /// belongs to this device and driver (otherwise ignored with a warning), saved after the
    /// pipelines are built. Speeds up start-up where the driver keeps no cache of its own.
    #[arg(long, value_name = "FILE")]
    pub pipeline_cache: Option<PathBuf>,

    /// Longest time one GPU submission may take before it is reported as hung, in ms.
    #[arg(
        long,
        value_name = "MS",
        default_value_t = 10_000,
        allow_negative_numbers = true
    )]
    pub fence_timeout_ms: i64,
}

/// Options whose next argument is a value (so `--target-ms -5` keeps its `-5`).
const VALUE_OPTIONS: [&str; 17] = [
    "--device",
    "--max-working-set",
    "--clock-mhz",
    "--filter",
    "--suite",
    "--target-ms",
    "--samples",
    "--warmup-max",
    "--baseline",
    "--format",
    "--output",
    "-o",
    "--fence-timeout-ms",
    "--fail-above",
    "--fail-median",
    "--dump-shaders",
    "--pipeline-cache",
];

/// Rewrites the seed's `-N` (a dash followed by digits only) into `--device N`, except where
/// it is the value of an option. `perftest -2` and `perftest RTX -2` then parse as expected.
pub fn normalize_args<I: IntoIterator<Item = OsString>>(args: I) -> Vec<OsString> {
    let mut out: Vec<OsString> = Vec::new();
    let mut after_value_option = false;
    let mut after_double_dash = false;
    for (i, arg) in args.into_iter().enumerate() {
        let text = arg.to_str().unwrap_or("");
        let is_index = i > 0
            && !after_value_option
            && !after_double_dash
            && text.len() > 1
            && text.starts_with('-')
            && text[1..].bytes().all(|b| b.is_ascii_digit());
        after_value_option = VALUE_OPTIONS.contains(&text);
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
/// a second bare word (`perftest llvm llvm2`) is not a subcommand that "cannot be used with
/// `[NAME]`" but one device name too many.
pub fn own_usage_message(error: &clap::Error) -> Option<String> {
    use clap::error::{ContextKind, ContextValue};
    if error.kind() != clap::error::ErrorKind::ArgumentConflict {
        return None;
    }
    match (
        error.get(ContextKind::InvalidSubcommand),
        error.get(ContextKind::PriorArg),
    ) {
        (Some(ContextValue::String(word)), Some(ContextValue::String(prior)))
            if prior == "[NAME]" =>
        {
            Some(format!(
                "perftest: unexpected argument '{word}': give one device NAME at most (a \
                 case-insensitive part of its name; add -N to pick among several that match)\n  \
                 For more information, try '--help'.\n"
            ))
        }
        _ => None,
    }
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

    #[test]
    fn option_values_keep_their_dash() {
        let cli = parse(&["--target-ms", "-5"]).unwrap();
        assert_eq!(cli.run.target_ms, -5.0);
        assert_eq!(cli.run.device_index, None);
        let cli = parse(&["--samples", "-3", "-4"]).unwrap();
        assert_eq!((cli.run.samples, cli.run.device_index), (-3, Some(4)));
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
        assert_eq!(cli.run.suite, ["original,memory", "all"]);
        assert_eq!(cli.run.device_index, Some(2));
    }
}
