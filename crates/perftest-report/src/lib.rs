//! What perftest measures, without Vulkan: the run report's data, the measurement policy that
//! both the `perftest` command and perftest-core's start-up probe follow, and the figures
//! derived from a report.
//!
//! - [`schema`]: the report (`perftest-report/1`): device, settings, per-case samples; read and
//!   written as JSON with the `serde` feature,
//! - [`policy`] and [`sizing`]: how a dispatch is sized, how the clocks are warmed up and when a
//!   measurement counts as steady, generic over a [`policy::DispatchTimer`],
//! - [`places`]: where a case whose data has several places is measured,
//! - [`statistics`] and [`modes`]: medians, intervals and the levels samples fall into,
//! - [`derived`]: the figures printed from a report (rates, the original's two columns).
//! - [`analysis`]: everything the output formats print beyond the samples, computed once,
//! - [`gpu_matrix`]: reports of different GPUs side by side, and advice that holds across them,
//! - [`apis`]: one GPU under several APIs or tools, and which answers of that advice differ,
//! - [`cross_gpu`]: reports of different GPUs compared (the matrix, the advice, the same GPU
//!   under several APIs, the guidance across them), each report read once,
//! - [`pair`] and [`gate`]: two reports compared case by case, and the regression gate's
//!   verdict on that comparison,
//! - [`outliers`] and [`fleet`]: many reports of one GPU model side by side with the outlier
//!   rule, and reports of many models grouped by model, each group judged on its own,
//! - [`hierarchy`]: the cache levels, capacities and latencies of the memory suite's sweep,
//! - [`findings`]: what a report says about the GPU (findings with their numbers, and advice),
//! - [`guidance`]: the vendors' published performance claims, each judged on the report's GPU,
//! - [`clock`]: the shader clock a run measured, per run and per case, and throttled cases,
//! - [`clock_steps`]: the samples a case's figures leave out, taken on another clock step,
//!
//! The crate depends on nothing but the case matrix (perftest-cases), so an engine that embeds
//! perftest-core and never serialises a report does not build serde.

#![warn(missing_docs)]

pub mod analysis;
pub mod answers;
pub mod apis;
pub mod clock;
pub mod clock_steps;
pub mod cross_gpu;
pub mod derived;
pub mod findings;
pub mod fleet;
pub mod gate;
pub mod gpu_matrix;
pub mod guidance;
pub mod hierarchy;
pub mod modes;
pub mod outliers;
pub mod pair;
pub mod places;
pub mod policy;
#[cfg(any(test, feature = "samples"))]
pub mod samples;
pub mod schema;
pub mod sizing;
pub mod statistics;

pub use derived::{Derived, ReportFigures};
pub use schema::*;
