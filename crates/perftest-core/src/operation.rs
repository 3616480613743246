//! Cases that are not kernels: copies between memory types, writes by the host, submissions.
//! Families whose plan runs in [`crate::plan::Stages::Operation`] hand the bench an
//! [`Operation`] per case ([`crate::plan::FamilyResources::operation`]); the bench times it and
//! reads back what it moved through the same calls as a kernel's dispatches.

use std::time::Duration;

use perftest_cases::Readback;

use crate::context::Context;
use crate::error::Result;

/// One case's operation: what it does `count` times in a timed run, and what one run leaves
/// behind for the family's CPU model.
pub(crate) trait Operation: Send + Sync {
    /// Performs `runs` timed runs of `count` operations each (one "group" of a kernel is one
    /// operation) and returns each run's time: from GPU timestamps where the work runs on a
    /// queue, from the host's clock where the host does it.
    fn time(&mut self, ctx: &mut Context, count: u64, runs: u32) -> Result<Vec<Duration>>;

    /// Performs the operation once on freshly prepared data and returns what it left behind
    /// (`written`: the destination's bytes; `sums`: empty), for the family's check.
    fn readback(&mut self, ctx: &mut Context) -> Result<Readback>;
}
