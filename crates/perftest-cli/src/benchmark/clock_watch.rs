//! The shader clock watched during a timing run: the case that spins on the subgroup clock
//! (where the device has one) is checked against its CPU model, sized, then timed in every
//! round between the cases' dispatches, and once more alone at two sizes after the rounds, so
//! that every case has a clock reading near it and the run has an exact one.

use std::sync::atomic::AtomicBool;

use crate::report::ClockSamples;
use perftest_cases::{clock_case, verify, Case, Support};
use perftest_core::{Bench, KernelId};

use crate::benchmark::rounds::Entry;
use crate::benchmark::timer::BenchTimer;
use perftest_report::policy::{
    cut_short, measure_alone, size_case, LapFloor, LoopSettings, Sizing,
};
use perftest_report::sizing::group_total;
use perftest_report::statistics::median;

/// The clock case, ready to take part in the rounds.
pub struct ClockWatch {
    case: Case,
    kernel: KernelId,
    sizing: Sizing,
    /// The run's settings for a chain ([`LoopSettings::for_chain`]), which the clock is.
    settings: LoopSettings,
}

impl ClockWatch {
    /// Prepares, checks and sizes the clock case with the run's `settings` as
    /// [`LoopSettings::for_chain`] makes them (the clock is a chain), kept for the rounds and
    /// the measurement alone; `None` when the device has no subgroup clock,
    /// or its kernel cannot be built, gives wrong counts or cannot be timed (the run then has
    /// no clock of its own, and says nothing of one).
    pub fn start(bench: &mut Bench, settings: &LoopSettings, stop: &AtomicBool) -> Option<Self> {
        let settings = settings.for_chain();
        let case = clock_case();
        if bench.support(&case) != Support::Supported {
            return None;
        }
        let kernel = bench.prepare(&case).ok()?;
        let readback = bench.verify(kernel).ok()?;
        if !verify(&case, &readback).passed() {
            return None;
        }
        let mut timer = BenchTimer { bench, kernel };
        let sizing = size_case(&mut timer, &settings, 1, stop).ok()?;
        Some(ClockWatch {
            case,
            kernel,
            sizing,
            settings,
        })
    }

    /// The kernel the rounds time.
    pub fn kernel(&self) -> KernelId {
        self.kernel
    }

    /// The clock's entry in the rounds.
    pub fn entry(&self) -> Entry {
        Entry::new(self.sizing.dims, self.sizing.probes, &self.settings)
    }

    /// After the rounds: the clock measured alone at two sizes, and the raw data of the run's
    /// clock with `entry`'s samples. `None` when the rounds collected none, or when the driver
    /// ended the spin early, so that no dispatch counted the ticks it was sized for: the longer
    /// of the two sizes took too little longer ([`cut_short`]) in two measurements in a row, or
    /// the rounds' samples read a
    /// clock beyond what `--clock-mhz` accepts (lavapipe's spins cut short read 10^9 MHz).
    pub fn finish(
        self,
        bench: &mut Bench,
        entry: &Entry,
        stop: &AtomicBool,
    ) -> Option<ClockSamples> {
        let per_group = self.case.ops_per_group();
        let ticks = group_total(entry.dims).saturating_mul(per_group);
        let mhz = median(&entry.samples_ns).map(|ns| ticks as f64 / ns * 1e3)?;
        if mhz.is_nan() || mhz > crate::cli::CLOCK_MHZ_RANGE.1 {
            return None;
        }
        let mut timer = BenchTimer {
            bench,
            kernel: self.kernel,
        };
        let batch_max = perftest_core::MAX_DISPATCHES_PER_SUBMIT;
        let sizing = Sizing {
            dims: entry.dims,
            probes: 0,
        };
        let mut measure = || {
            measure_alone(
                &mut timer,
                &self.settings,
                (sizing, LapFloor::NONE),
                1,
                batch_max,
                stop,
            )
            .ok()
        };
        // Judged twice, as a chain is (`confirmed_result`): other work on a CPU driver can
        // stretch one set of dispatches, a driver's limit cuts every spin.
        let alone = match measure() {
            Some(first) if cut_short(&first) => Some(measure().filter(|m| !cut_short(m))?),
            other => other,
        };
        Some(ClockSamples {
            ticks_per_dispatch: ticks,
            samples_ns: entry.samples_ns.clone(),
            seqs: entry.seqs.clone(),
            ticks_per_group: per_group,
            alone,
        })
    }
}
