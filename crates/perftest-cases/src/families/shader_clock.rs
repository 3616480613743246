//! The shader clock (memory suite): how many ticks of the subgroup clock (`VK_KHR_shader_clock`,
//! `shaderSubgroupClock`) the device counts per second, measured with nothing but Vulkan
//! (`shaders/shader_clock.comp`).
//!
//! A dispatch runs one workgroup in which one thread spins on the clock for a number of blocks
//! of [`TICKS`] ticks each (the sized count, as for a pointer chase: [`Unit::ClockTick`] is a
//! chain). The thread keeps one running count across the blocks, adding each read's difference
//! from the last one masked to 20 bits (AMD's RDNA 2 and 3 subgroup clocks have 20 valid bits
//! and wrap), so a block ends exactly [`TICKS`] ticks after the previous one and the overshoot
//! of the last read is paid once per dispatch. Like every chain it is timed at two dispatch
//! sizes, so that what a dispatch pays once cancels: the time per block is [`TICKS`] periods of
//! the clock, and its rate in ticks per second is the clock's frequency.
//!
//! On NVIDIA the subgroup clock counts the SM's own cycles (the shader clock `nvidia-smi`
//! reports as `clocks.sm`). A subgroup clock is only comparable within its subgroup, which is
//! why one thread reads it. Drivers without the feature (MoltenVK, Intel's older Windows
//! drivers) skip the case; `--clock-mhz` then gives the clock.
//!
//! Verification: each of the 1024 verification threads spins one block; every one must count
//! its [`TICKS`] ticks in fewer than [`READS_MAX`] reads (a clock that stands still fails, never
//! hangs). The kernel writes exact words (the ticks up to the block's end, whether no block
//! gave up, the blocks), so one wrong bit fails too.

use crate::case::{Case, Params, Pattern};
use crate::check::{check_words, Readback, VerifyOutcome};
use crate::family::{Family, FamilyRef, Unit, Work};
use crate::feature::Feature;
use crate::suite::Suite;
use crate::support::DeviceNeed;

/// The shader-clock family.
pub struct ShaderClock;

/// Clock ticks of one block (the `LOADS` specialization constant).
pub const TICKS: u32 = 4096;

/// The most clock reads one block may take before the kernel gives up on it (a clock that
/// advances by less than one tick per read would need more).
pub const READS_MAX: u32 = 4 * TICKS;

/// The case's id.
pub const ID: &str = "mem.clock.subgroup";

/// The case.
pub fn clock_case() -> Case {
    Case {
        id: ID.to_string(),
        name: "Shader clock (subgroup clock, one thread)".to_string(),
        suite: Suite::Memory,
        family: FamilyRef(&ShaderClock),
        params: Params {
            origin: None,
            format: None,
            width: 1,
            variant: 0,
            working_set: 0,
            count: 0,
        },
        pattern: Pattern::Uniform,
    }
}

/// The clock's frequency in MHz from the case's throughput in ticks per second.
pub fn mhz(ticks_per_second: f64) -> f64 {
    ticks_per_second / 1e6
}

impl Family for ShaderClock {
    fn label(&self) -> &'static str {
        "shader_clock"
    }

    fn title(&self) -> &'static str {
        "Shader clock"
    }

    fn cases(&self) -> Vec<Case> {
        vec![clock_case()]
    }

    fn loop_trip(&self) -> u32 {
        TICKS
    }

    /// A tick moves no data.
    fn bytes_per_load(&self, _case: &Case) -> u32 {
        0
    }

    fn work(&self, _case: &Case) -> Work {
        Work {
            unit: Unit::ClockTick,
            per_thread: TICKS,
        }
    }

    fn needs(&self, _case: &Case) -> Vec<DeviceNeed> {
        vec![DeviceNeed::Feature(Feature::ShaderSubgroupClock)]
    }

    fn verify(&self, case: &Case, readback: &Readback) -> VerifyOutcome {
        check_words(readback, case.threads(), |_, _| [TICKS, 1, 1, 0])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn readback(words: [u32; 4]) -> Readback {
        Readback {
            sums: vec![words.map(f32::from_bits); 4],
            written: Vec::new(),
        }
    }

    #[test]
    fn one_chain_case_that_needs_the_subgroup_clock() {
        let cases = ShaderClock.cases();
        assert_eq!(cases.len(), 1);
        assert!(cases[0].work().is_chain());
        assert_eq!(cases[0].ops_per_group(), u64::from(TICKS));
        assert_eq!(
            cases[0].needs(),
            vec![DeviceNeed::Feature(Feature::ShaderSubgroupClock)]
        );
        assert_eq!(mhz(1.98e9), 1980.0);
    }

    #[test]
    fn a_clock_that_counts_passes_and_one_that_stands_still_fails() {
        let ok = |w| ShaderClock.verify(&clock_case(), &readback(w)).passed();
        assert!(ok([TICKS, 1, 1, 0]));
        // A block that gave up, or counted short, or a second block.
        assert!(!ok([TICKS, 0, 1, 0]));
        assert!(!ok([TICKS - 1, 0, 1, 0]));
        assert!(!ok([TICKS, 1, 2, 0]));
        assert!(!ok([TICKS ^ (1 << 22), 1, 1, 0]));
    }
}
