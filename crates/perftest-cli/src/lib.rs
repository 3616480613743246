//! The pure parts of the `perftest` command: no Vulkan, no GPU.
//!
//! The binary drives the device through `perftest-core`; everything it decides or prints without
//! touching the device lives here, so it is unit-tested on any machine:
//!
//! - [`sizing`], [`statistics`], [`modes`] and [`report`]: the dispatch-size rule, summaries of
//!   per-dispatch times, their levels, and the run report with its derived figures (from
//!   perftest-report, which perftest-core's start-up probe shares),
//! - [`clock`]: the shader clock latencies are given in cycles with (measured or given),
//! - [`export`]: the output formats (text, the original's lines, JSON, CSV, Markdown, HTML,
//!   SVG, and the dashboard formats BMF and benchmark-action) and where `--output` goes,
//! - [`report_file`]: reading a saved report back, as untrusted input,
//! - [`published`]: the original perftest's text tables read as reports,
//! - [`compare`]: `perftest compare A.json B.json`,
//! - [`gate`]: the regression gate of `compare --fail-above`/`--fail-median`,
//! - [`node`]: many reports side by side (every GPU of a node, many nodes) and the outlier rule,
//! - [`shader_stats`]: the driver's shader statistics and dumps in the outputs,
//! - [`sweep`]: the cache hierarchy from the memory suite's sweep (plateaus, level names,
//!   capacities, where to measure next),
//! - [`stop_signals`] and [`platform`]: stopping a run on Ctrl-C and its kin, and what differs
//!   between operating systems.

#![warn(missing_docs)]

pub mod benchmark;
pub mod cli;
pub mod clock;
pub mod compare;
pub mod cross;
pub mod export;
pub mod gallery;
pub mod gate;
pub mod node;
pub mod options;
pub mod output;
pub mod platform;
pub mod published;
pub mod report_file;
pub mod shader_stats;
pub mod stop_signals;
pub mod sweep;
pub use perftest_report::{modes, sizing, statistics};

/// The run report: its data types and the figures derived from them (from perftest-report).
pub mod report {
    pub use perftest_report::derived::*;
    pub use perftest_report::schema::*;
}
