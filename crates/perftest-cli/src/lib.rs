//! The `perftest` command's library: the run loop that drives perftest-core's `Bench`, and
//! everything the command decides or prints without the device.
//!
//! The run loop is the one part that touches a GPU:
//!
//! - [`benchmark`]: the phases of a run (pipelines, verification, clock warm-up, sizing, the
//!   interleaved rounds, chains measured alone, the refinement of the latency curves), driven
//!   through perftest-core with perftest-report's measurement policy.
//!
//! The rest is pure, so it is unit-tested on any machine:
//!
//! - [`cli`] and [`options`]: the command line and the settings it gives,
//! - [`sizing`], [`statistics`], [`modes`] and [`report`]: the dispatch-size rule, summaries of
//!   per-dispatch times, their levels, and the run report with its derived figures (from
//!   perftest-report, which perftest-core's start-up probe shares),
//! - [`clock_notes`]: the notes a report prints about the shader clock (the clock itself is
//!   perftest-report's),
//! - [`export`]: the output formats (text, the original's lines, JSON, CSV, Markdown, HTML,
//!   SVG, and the dashboard formats BMF and benchmark-action), each rendering perftest-report's
//!   analysis, and where `--output` goes,
//! - [`report_file`]: reading a saved report back, as untrusted input,
//! - [`published`]: the original perftest's text tables read as reports,
//! - [`compare`], [`cross_gpu`] and [`gallery`]: `perftest compare A.json B.json` and reports of
//!   different GPUs side by side, rendered from perftest-report's comparisons (`pair`,
//!   `cross_gpu`), and the book's collection pages made from them,
//! - [`gate`]: the limits of `compare --fail-above`/`--fail-median` as the command line gives
//!   them (the verdict is perftest-report's `gate`),
//! - [`outliers`]: many reports side by side (every GPU of a node, a fleet's models) rendered with
//!   the outlier rule's verdicts (perftest-report's `outliers` and `fleet`),
//! - [`shader_stats`]: the driver's shader statistics and dumps in the outputs,
//! - [`hierarchy`]: the cache hierarchy from the memory suite's sweep (plateaus, level names,
//!   capacities, where to measure next),
//! - [`output`], [`stop_signals`] and [`platform`]: progress and exit codes, stopping a run on
//!   Ctrl-C and its kin, and what differs between operating systems.

#![warn(missing_docs)]

pub mod benchmark;
pub mod cli;
pub mod clock_notes;
pub mod compare;
pub mod cross_gpu;
pub mod export;
pub mod gallery;
pub mod gate;
pub mod hierarchy;
pub mod options;
pub mod outliers;
pub mod output;
pub mod platform;
pub mod published;
pub mod report_file;
pub mod shader_stats;
pub mod stop_signals;
pub use perftest_report::{modes, sizing, statistics};

/// The run report: its data types and the figures derived from them (from perftest-report).
pub mod report {
    pub use perftest_report::derived::*;
    pub use perftest_report::schema::*;
}
