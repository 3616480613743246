//! The pure parts of the `perftest` command: no Vulkan, no GPU.
//!
//! The binary drives the device through `perftest-core`; everything it decides or prints without
//! touching the device lives here, so it is unit-tested on any machine:
//!
//! - [`sizing`]: the adaptive dispatch-size rule and the split of a group count over X/Y/Z
//!   (re-exported from perftest-core, which shares it with its time-budgeted probe),
//! - [`clock`]: the shader clock latencies are given in cycles with (measured or given),
//! - [`statistics`]: summaries of per-dispatch times and the clock warm-up test,
//! - [`report`]: the schema-versioned run report and the figures derived from it,
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
pub mod export;
pub mod gate;
pub mod modes;
pub mod node;
pub mod options;
pub mod output;
pub mod platform;
pub mod published;
pub mod report;
pub mod report_file;
pub mod shader_stats;
pub use perftest_core::sizing;
pub mod statistics;
pub mod stop_signals;
pub mod sweep;
