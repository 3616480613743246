//! Timing one prepared case of a [`Bench`] for the measurement policy, and the device errors
//! that end a run. The suite driver, the clock watch and verification share them.

use perftest_core::{Bench, Error, KernelId};
use perftest_report::places::PlaceTimer;
use perftest_report::policy::DispatchTimer;

/// A [`DispatchTimer`] over one prepared case of a [`Bench`].
pub struct BenchTimer<'a> {
    /// The bench.
    pub bench: &'a mut Bench,
    /// The case's kernel.
    pub kernel: KernelId,
}

impl DispatchTimer for BenchTimer<'_> {
    type Error = Error;
    fn time(&mut self, dims: [u32; 3], dispatches: u32) -> Result<Vec<f64>, Error> {
        let times = self.bench.time(self.kernel, dims, dispatches)?;
        Ok(times.iter().map(|d| d.as_nanos() as f64).collect())
    }
}

impl PlaceTimer for BenchTimer<'_> {
    fn places(&self) -> usize {
        self.bench.data_places(self.kernel).map_or(1, |p| p.len())
    }

    fn put(&mut self, place: usize) -> Result<(), Error> {
        self.bench.put_data(self.kernel, place)
    }
}

/// True for errors after which the device cannot be trusted for further cases: those whose
/// failure kind stops the run (a lost device, a timeout; see `FailureKind::stops_the_run`).
pub fn is_fatal(e: &Error) -> bool {
    e.failure_kind().stops_the_run()
}
