//! `atomic`: atomic operations on a result buffer (modern suite, `shaders/atomic.comp`, one
//! SPIR-V per kind of operation). Every thread performs 32 operations; operation `i` of thread
//! `g = group * 256 + local` has the id `g * 32 + i`, and what it does is hashed from that id
//! with lowbias32 (`mix32`).
//!
//! - append (`InterlockedAdd append per lane|wave N%`): operation `id` is active when
//!   `mix32(id) % 100 < N`. The buffer is a counter word followed by a ring of 2^20 id slots.
//!   Per lane, every active operation takes a slot with `atomicAdd(counter, 1)` and writes its
//!   id there. Per wave, the subgroup ballots its active lanes, one lane adds the ballot's bit
//!   count to the counter (no atomic when no lane is active), the base is broadcast and each
//!   active lane writes at base + its exclusive prefix count (needs subgroup ballot).
//! - histogram (`InterlockedAdd histogram global|shared uniform|skewed`): 256 bins; uniform:
//!   bin `mix32(id) & 255`; skewed: `h = mix32(id)`, bin `(h >> 10) & 15` when `h & 0x300` is
//!   not zero (three quarters of the operations on 16 hot bins), else `h & 255`. Global: one
//!   `atomicAdd(bins[b], 1)` per operation; shared: the workgroup counts into a shared
//!   `uint[256]`, then thread `t` adds bin `t` to the global bins when it is not zero.
//! - counters (`InterlockedAdd|InterlockedOr A counters`): A = 1, 64, 4096 or 2^20 words,
//!   address `mix32(id) & (A - 1)`; add: `atomicAdd(c[a], 1)`; add with the result used: the
//!   returned values are summed and kept alive through the output buffer; or:
//!   `atomicOr(c[a], 1 << (mix32(id + 0x5bd1e995) >> 27))`.
//! - max (`InterlockedMax uint|uint64_t T targets`): T = 4096 or 2^20 targets, target
//!   `mix32(id) & (T - 1)`, depth `mix32(id ^ 0xa5a5a5a5)`; 32-bit: `atomicMax(m[t], depth)`;
//!   64-bit: `atomicMax(m[t], depth << 32 | id)` (needs 64-bit buffer atomics).
//!
//! Timing dispatches keep operating on the same buffer (counts wrap, the ring wraps); a
//! verification dispatch starts from a cleared buffer and checks what only depends on the set
//! of operations, not their order: counts, OR masks, maxima, and for append the counter (the
//! number of active operations of the 1024 threads) and the first `counter` slots holding every
//! active id exactly once, every other slot zero. The values `atomicAdd` returns are
//! order-dependent and are not checked.
//!
//! No access pattern applies: every case uses [`Pattern::Linear`] (the addresses are hashed as
//! above). Params: `variant` = [`Kind`], `count` = active lanes in percent (append), hot bins
//! (histogram: 0 uniform, 16 skewed), addresses or targets; `width` = words per operation (1,
//! or 2 for 64-bit max); `working_set` = bytes of the result buffer.

use crate::case::{Case, Params, Pattern};
use crate::check::{Readback, VerifyOutcome, VERIFY_THREADS};
use crate::data::mix32;
use crate::family::{Family, FamilyRef, Unit, Work};
use crate::feature::Feature;
use crate::suite::Suite;
use crate::support::DeviceNeed;

/// The atomic family.
pub struct Atomic;

/// Operations per thread.
pub const OPS: u32 = 32;

/// Id slots in the append ring (after the counter word).
pub const RING_SLOTS: u32 = 1 << 20;

/// Bins of the histograms.
pub const BINS: u32 = 256;

/// Hot bins of the skewed histogram.
pub const HOT_BINS: u32 = 16;

/// What an atomic case does (the kernel's `KIND`, in this order).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// Append, one `atomicAdd` per active lane.
    AppendLane,
    /// Append, one `atomicAdd` per subgroup with a prefix count.
    AppendWave,
    /// Histogram with global atomics.
    HistogramGlobal,
    /// Histogram in shared memory, then global.
    HistogramShared,
    /// `atomicAdd` on counters.
    CounterAdd,
    /// `atomicAdd` on counters, results summed and kept.
    CounterAddResult,
    /// `atomicOr` of one hashed bit on counters.
    CounterOr,
    /// 32-bit `atomicMax`.
    MaxU32,
    /// 64-bit `atomicMax` of `depth << 32 | id`.
    MaxU64,
}

impl Kind {
    /// Every kind, in `variant` order.
    pub const ALL: [Kind; 9] = [
        Kind::AppendLane,
        Kind::AppendWave,
        Kind::HistogramGlobal,
        Kind::HistogramShared,
        Kind::CounterAdd,
        Kind::CounterAddResult,
        Kind::CounterOr,
        Kind::MaxU32,
        Kind::MaxU64,
    ];

    fn variant(self) -> u32 {
        Kind::ALL.iter().position(|&k| k == self).unwrap_or(0) as u32
    }
}

/// The kind of an atomic case.
pub fn kind(case: &Case) -> Kind {
    Kind::ALL
        .get(case.params.variant as usize)
        .copied()
        .unwrap_or(Kind::AppendLane)
}

/// Bytes of the result buffer of a case of `kind` with `count` (see the module docs).
fn result_bytes(kind: Kind, count: u32) -> u64 {
    let count = u64::from(count);
    match kind {
        Kind::AppendLane | Kind::AppendWave => 4 * (1 + u64::from(RING_SLOTS)),
        Kind::HistogramGlobal | Kind::HistogramShared => 4 * u64::from(BINS),
        Kind::CounterAdd | Kind::CounterAddResult | Kind::CounterOr | Kind::MaxU32 => 4 * count,
        Kind::MaxU64 => 8 * count,
    }
}

/// A count as ids (`1m`) and names (`1M`) spell it.
fn count_words(n: u32) -> (String, String) {
    if n >= 1 << 20 {
        (format!("{}m", n >> 20), format!("{}M", n >> 20))
    } else {
        (n.to_string(), n.to_string())
    }
}

fn case(kind: Kind, count: u32) -> Case {
    let (n_id, n_name) = count_words(count);
    let (id, name) = match kind {
        Kind::AppendLane | Kind::AppendWave => {
            let per = if kind == Kind::AppendLane {
                "lane"
            } else {
                "wave"
            };
            (
                format!("append.{per}.{count}"),
                format!("InterlockedAdd append per {per} {count}%"),
            )
        }
        Kind::HistogramGlobal | Kind::HistogramShared => {
            let place = if kind == Kind::HistogramGlobal {
                "global"
            } else {
                "shared"
            };
            let spread = if count == 0 { "uniform" } else { "skewed" };
            (
                format!("histogram.{place}.{spread}"),
                format!("InterlockedAdd histogram {place} {spread}"),
            )
        }
        Kind::CounterAdd | Kind::CounterAddResult | Kind::CounterOr => {
            let (op, what, suffix) = match kind {
                Kind::CounterAdd => ("add", "InterlockedAdd", ""),
                Kind::CounterAddResult => ("add-result", "InterlockedAdd", " result used"),
                _ => ("or", "InterlockedOr", ""),
            };
            let noun = if count == 1 { "counter" } else { "counters" };
            (
                format!("counter.{n_id}.{op}"),
                format!("{what} {n_name} {noun}{suffix}"),
            )
        }
        Kind::MaxU32 | Kind::MaxU64 => {
            let (bits, ty) = if kind == Kind::MaxU32 {
                ("u32", "uint")
            } else {
                ("u64", "uint64_t")
            };
            (
                format!("max.{bits}.{n_id}"),
                format!("InterlockedMax {ty} {n_name} targets"),
            )
        }
    };
    Case {
        id: format!("modern.atomic.{id}"),
        name,
        suite: Suite::Modern,
        family: FamilyRef(&Atomic),
        params: Params {
            origin: None,
            format: None,
            width: if kind == Kind::MaxU64 { 2 } else { 1 },
            variant: kind.variant(),
            working_set: result_bytes(kind, count),
            count,
        },
        pattern: Pattern::Linear,
    }
}

impl Family for Atomic {
    fn label(&self) -> &'static str {
        "atomic"
    }

    fn title(&self) -> &'static str {
        "Atomics"
    }

    fn cases(&self) -> Vec<Case> {
        let mut cases = Vec::new();
        for kind in [Kind::AppendLane, Kind::AppendWave] {
            for pct in [100, 50, 10] {
                cases.push(case(kind, pct));
            }
        }
        for kind in [Kind::HistogramGlobal, Kind::HistogramShared] {
            for hot in [0, HOT_BINS] {
                cases.push(case(kind, hot));
            }
        }
        for addresses in [1, 64, 4096, 1 << 20] {
            for kind in [Kind::CounterAdd, Kind::CounterAddResult, Kind::CounterOr] {
                cases.push(case(kind, addresses));
            }
        }
        for kind in [Kind::MaxU32, Kind::MaxU64] {
            for targets in [4096, 1 << 20] {
                cases.push(case(kind, targets));
            }
        }
        cases
    }

    fn loop_trip(&self) -> u32 {
        OPS
    }

    fn bytes_per_load(&self, case: &Case) -> u32 {
        4 * case.params.width
    }

    fn work(&self, _case: &Case) -> Work {
        Work {
            unit: Unit::Atomic,
            per_thread: OPS,
        }
    }

    fn needs(&self, case: &Case) -> Vec<DeviceNeed> {
        let mut needs = vec![DeviceNeed::StorageBufferRange(case.params.working_set)];
        match kind(case) {
            Kind::AppendWave => needs.push(DeviceNeed::SubgroupBallot),
            Kind::MaxU64 => needs.push(DeviceNeed::Feature(Feature::Int64Atomics)),
            _ => {}
        }
        needs
    }

    /// `FAMILY_A`: active percentage (append) or address mask (counters, max);
    /// `FAMILY_B`: 1 for the skewed histogram.
    fn constants(&self, case: &Case) -> [u32; 3] {
        let count = case.params.count;
        match kind(case) {
            Kind::AppendLane | Kind::AppendWave => [count, 0, 0],
            Kind::HistogramGlobal | Kind::HistogramShared => [0, u32::from(count != 0), 0],
            _ => [count.saturating_sub(1), 0, 0],
        }
    }

    fn verify(&self, case: &Case, readback: &Readback) -> VerifyOutcome {
        let bytes = case.params.working_set as usize;
        if readback.written.len() != bytes {
            return VerifyOutcome::unusable(format!(
                "read back {} bytes of the {bytes}-byte result buffer",
                readback.written.len()
            ));
        }
        match kind(case) {
            Kind::AppendLane | Kind::AppendWave => verify_append(case.params.count, readback),
            k => verify_values(case, &expected_values(k, case.params.count), readback),
        }
    }
}

/// The ids of the operations of the 1024 verification threads (`g * 32 + i`: 0..32768).
pub fn verification_ids() -> std::ops::Range<u32> {
    0..VERIFY_THREADS * OPS
}

/// Whether append operation `id` is active at `pct` percent of lanes.
pub fn append_active(id: u32, pct: u32) -> bool {
    mix32(id) % 100 < pct
}

/// The histogram bin of operation `id` (uniform, or skewed onto 16 hot bins).
pub fn histogram_bin(id: u32, skewed: bool) -> u32 {
    let h = mix32(id);
    if skewed && h & 0x300 != 0 {
        (h >> 10) & (HOT_BINS - 1)
    } else {
        h & (BINS - 1)
    }
}

/// The address (counter or max target) of operation `id` among `n` (a power of two).
pub fn address(id: u32, n: u32) -> u32 {
    mix32(id) & n.wrapping_sub(1)
}

/// The bit operation `id` ORs into its counter.
pub fn or_bit(id: u32) -> u32 {
    1 << (mix32(id.wrapping_add(0x5bd1_e995)) >> 27)
}

/// The depth (32-bit max value, high word of the 64-bit one) of operation `id`.
pub fn depth(id: u32) -> u32 {
    mix32(id ^ 0xa5a5_a5a5)
}

/// What every element of the result buffer must hold after the verification dispatch, for
/// every kind except append (which is checked as a set).
pub fn expected_values(kind: Kind, count: u32) -> Vec<u64> {
    let len = match kind {
        Kind::HistogramGlobal | Kind::HistogramShared => BINS,
        Kind::AppendLane | Kind::AppendWave => 0,
        _ => count,
    };
    let mut values = vec![0u64; len as usize];
    for id in verification_ids() {
        let at = match kind {
            Kind::AppendLane | Kind::AppendWave => continue,
            Kind::HistogramGlobal | Kind::HistogramShared => histogram_bin(id, count != 0),
            _ => address(id, count),
        };
        let Some(v) = values.get_mut(at as usize) else {
            continue;
        };
        *v = match kind {
            Kind::CounterOr => *v | u64::from(or_bit(id)),
            Kind::MaxU32 => (*v).max(u64::from(depth(id))),
            Kind::MaxU64 => (*v).max(u64::from(depth(id)) << 32 | u64::from(id)),
            _ => *v + 1,
        };
    }
    values
}

/// Compares the result buffer element by element with `want` (32- or 64-bit elements).
fn verify_values(case: &Case, want: &[u64], readback: &Readback) -> VerifyOutcome {
    let size = 4 * case.params.width as usize;
    let noun = match kind(case) {
        Kind::HistogramGlobal | Kind::HistogramShared => "bin",
        Kind::MaxU32 | Kind::MaxU64 => "target",
        _ => "counter",
    };
    let mut outcome = VerifyOutcome::new();
    for (a, (chunk, &want)) in readback.written.chunks_exact(size).zip(want).enumerate() {
        let got = chunk
            .iter()
            .rev()
            .fold(0u64, |v, &b| (v << 8) | u64::from(b));
        outcome.record(got == want, || {
            format!("{noun} {a}: expected {want:#x}, got {got:#x}")
        });
    }
    outcome
}

/// Checks an append result: the counter, the first `counter` slots holding every active id
/// once, and every other slot zero.
fn verify_append(pct: u32, readback: &Readback) -> VerifyOutcome {
    let ids = verification_ids();
    let active: Vec<bool> = ids.clone().map(|id| append_active(id, pct)).collect();
    let want = active.iter().filter(|&&a| a).count();
    let mut outcome = VerifyOutcome::new();
    let counter = readback.written_word(0).unwrap_or_default();
    outcome.record(counter as usize == want, || {
        format!("counter: expected {want} active operations, got {counter}")
    });
    let mut seen = vec![false; active.len()];
    for slot in 0..RING_SLOTS as usize {
        let got = readback.written_word(1 + slot).unwrap_or_default();
        if slot < want {
            let i = got as usize;
            let fresh = active.get(i).copied().unwrap_or(false) && !seen[i];
            outcome.record(fresh, || {
                let why = if active.get(i).copied().unwrap_or(false) {
                    "twice"
                } else {
                    "but that operation is not active"
                };
                format!("slot {slot}: id {got} {why}")
            });
            if fresh {
                seen[i] = true;
            }
        } else {
            outcome.record(got == 0, || {
                format!("slot {slot} (after the {want} appended ids): expected 0, got {got}")
            });
        }
    }
    outcome
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    fn find(id: &str) -> Case {
        Atomic
            .cases()
            .into_iter()
            .find(|c| c.id == id)
            .unwrap_or_else(|| unreachable!("no case {id}"))
    }

    #[test]
    fn twenty_six_cases_with_the_documented_ids_and_names() {
        let cases = Atomic.cases();
        assert_eq!(cases.len(), 26);
        let ids: HashSet<&str> = cases.iter().map(|c| c.id.as_str()).collect();
        assert_eq!(ids.len(), 26);
        let names = [
            (
                "modern.atomic.append.lane.50",
                "InterlockedAdd append per lane 50%",
            ),
            (
                "modern.atomic.append.wave.10",
                "InterlockedAdd append per wave 10%",
            ),
            (
                "modern.atomic.histogram.shared.skewed",
                "InterlockedAdd histogram shared skewed",
            ),
            ("modern.atomic.counter.1.add", "InterlockedAdd 1 counter"),
            (
                "modern.atomic.counter.4096.add-result",
                "InterlockedAdd 4096 counters result used",
            ),
            ("modern.atomic.counter.1m.or", "InterlockedOr 1M counters"),
            (
                "modern.atomic.max.u32.4096",
                "InterlockedMax uint 4096 targets",
            ),
            (
                "modern.atomic.max.u64.1m",
                "InterlockedMax uint64_t 1M targets",
            ),
        ];
        for (id, name) in names {
            assert_eq!(find(id).name, name);
        }
        for c in &cases {
            assert_eq!(c.work().unit, Unit::Atomic);
            assert_eq!(c.work().per_thread, 32);
            assert_eq!(c.pattern, Pattern::Linear);
        }
        assert_eq!(find("modern.atomic.max.u64.1m").bytes_per_load(), 8);
        assert_eq!(find("modern.atomic.max.u64.1m").params.working_set, 8 << 20);
        assert_eq!(find("modern.atomic.counter.64.or").bytes_per_load(), 4);
    }

    #[test]
    fn needs_and_constants() {
        let wave = find("modern.atomic.append.wave.100");
        assert!(wave.needs().contains(&DeviceNeed::SubgroupBallot));
        assert_eq!(Atomic.constants(&wave), [100, 0, 0]);
        let lane = find("modern.atomic.append.lane.100");
        assert_eq!(
            lane.needs(),
            vec![DeviceNeed::StorageBufferRange(4 + (4 << 20))]
        );
        let max64 = find("modern.atomic.max.u64.4096");
        assert!(max64
            .needs()
            .contains(&DeviceNeed::Feature(Feature::Int64Atomics)));
        assert_eq!(Atomic.constants(&max64), [4095, 0, 0]);
        assert_eq!(
            Atomic.constants(&find("modern.atomic.histogram.global.skewed")),
            [0, 1, 0]
        );
        assert_eq!(
            Atomic.constants(&find("modern.atomic.counter.1.or")),
            [0, 0, 0]
        );
    }

    #[test]
    fn append_activity_follows_the_percentage() {
        let n = verification_ids().len() as f64;
        for pct in [100, 50, 10] {
            let active = verification_ids()
                .filter(|&id| append_active(id, pct))
                .count();
            let share = active as f64 / n;
            assert!(
                (share - f64::from(pct) / 100.0).abs() < 0.01,
                "{pct}%: {share}"
            );
        }
        assert!(verification_ids().all(|id| append_active(id, 100)));
    }

    #[test]
    fn histograms_count_every_operation_and_skew_onto_hot_bins() {
        for skewed in [false, true] {
            let bins = expected_values(Kind::HistogramGlobal, u32::from(skewed) * HOT_BINS);
            assert_eq!(bins.len(), 256);
            assert_eq!(bins.iter().sum::<u64>(), 32 * 1024);
            let hot: u64 = bins[..16].iter().sum();
            if skewed {
                // 3/4 of the operations plus their uniform share.
                assert!(hot > 32 * 1024 * 3 / 4, "{hot}");
            } else {
                assert!(hot < 32 * 1024 / 8, "{hot}");
                assert!(bins.iter().all(|&b| b > 64));
            }
        }
    }

    #[test]
    fn counters_ors_and_maxima() {
        let one = expected_values(Kind::CounterAdd, 1);
        assert_eq!(one, vec![32 * 1024]);
        let many = expected_values(Kind::CounterAddResult, 1 << 20);
        assert_eq!(many.iter().sum::<u64>(), 32 * 1024);
        let ors = expected_values(Kind::CounterOr, 64);
        // 512 random bits per counter set nearly all 32.
        assert!(ors
            .iter()
            .all(|&m| m.count_ones() >= 28 && m <= 0xffff_ffff));
        let max32 = expected_values(Kind::MaxU32, 4096);
        let max64 = expected_values(Kind::MaxU64, 4096);
        assert!(max32.iter().zip(&max64).all(|(&a, &b)| b >> 32 == a));
        let t = address(7, 4096) as usize;
        assert!(max64[t] >= u64::from(depth(7)) << 32 | 7);
    }

    fn append_buffer(pct: u32) -> Vec<u8> {
        let ids: Vec<u32> = verification_ids()
            .filter(|&id| append_active(id, pct))
            .rev()
            .collect();
        let mut out = vec![0u8; 4 * (1 + RING_SLOTS as usize)];
        out[..4].copy_from_slice(&(ids.len() as u32).to_le_bytes());
        for (s, id) in ids.iter().enumerate() {
            out[4 + 4 * s..8 + 4 * s].copy_from_slice(&id.to_le_bytes());
        }
        out
    }

    #[test]
    fn append_checks_the_counter_and_every_id_once() {
        let case = find("modern.atomic.append.wave.10");
        let good = Readback {
            sums: Vec::new(),
            written: append_buffer(10),
        };
        let outcome = Atomic.verify(&case, &good);
        assert!(outcome.passed(), "{:?}", outcome.first);
        // A duplicated id (one lost) fails, and so does a stray write after the last slot.
        let mut twice = good.clone();
        let first = twice.written[4..8].to_vec();
        twice.written[8..12].copy_from_slice(&first);
        let outcome = Atomic.verify(&case, &twice);
        assert_eq!(outcome.mismatches, 1);
        assert!(outcome.first.unwrap().contains("twice"));
        let mut stray = good.clone();
        let end = stray.written.len() - 1;
        stray.written[end] = 1;
        assert_eq!(Atomic.verify(&case, &stray).mismatches, 1);
        let wrong_rate = Readback {
            sums: Vec::new(),
            written: append_buffer(50),
        };
        assert!(!Atomic.verify(&case, &wrong_rate).passed());
    }

    #[test]
    fn value_checks_name_the_element() {
        let case = find("modern.atomic.max.u64.4096");
        let want = expected_values(Kind::MaxU64, 4096);
        let mut written: Vec<u8> = want.iter().flat_map(|v| v.to_le_bytes()).collect();
        let good = Readback {
            sums: Vec::new(),
            written: written.clone(),
        };
        assert!(Atomic.verify(&case, &good).passed());
        written[8 * 9 + 7] ^= 0x80;
        let bad = Readback {
            sums: Vec::new(),
            written,
        };
        let outcome = Atomic.verify(&case, &bad);
        assert_eq!(outcome.mismatches, 1);
        assert!(outcome.first.unwrap().starts_with("target 9:"));
    }
}
