//! Filling large byte buffers on every CPU core: working sets of hundreds of megabytes are
//! made before a run's first pipeline, and one core making them dominates a short run.

/// Below this many bytes a buffer is filled on the calling thread: starting threads would
/// cost more than they save.
pub const PARALLEL_MIN_BYTES: usize = 4 << 20;

/// Most threads a fill uses.
pub const MAX_THREADS: usize = 16;

/// Fills `out` in runs of whole `unit`-byte units, calling `fill(first, run)` with the index of
/// the run's first unit and the run's bytes (only the last run may end in a partial unit); the
/// runs are filled on up to [`MAX_THREADS`] threads when `out` holds at least
/// [`PARALLEL_MIN_BYTES`]. `fill` must write a unit's bytes from its index alone, so that
/// the result is the same however `out` is split.
pub fn fill_units<F>(out: &mut [u8], unit: usize, fill: F)
where
    F: Fn(usize, &mut [u8]) + Sync,
{
    let unit = unit.max(1);
    let threads = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(MAX_THREADS);
    if out.len() < PARALLEL_MIN_BYTES || threads < 2 {
        fill(0, out);
        return;
    }
    let units_per_run = out.len().div_ceil(unit).div_ceil(threads);
    let fill = &fill;
    std::thread::scope(|scope| {
        let mut inline = Vec::new();
        for (i, run) in out.chunks_mut(units_per_run * unit).enumerate() {
            let first = i * units_per_run;
            // A run whose thread cannot be started (a pids limit) is filled on this thread.
            let spawned = std::thread::Builder::new().spawn_scoped(scope, move || fill(first, run));
            if spawned.is_err() {
                inline.push(first);
            }
        }
        inline
    })
    .into_iter()
    .for_each(|first| {
        let start = first * unit;
        let end = (start + units_per_run * unit).min(out.len());
        fill(first, &mut out[start..end]);
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    fn word_fill(first: usize, run: &mut [u8]) {
        for (i, chunk) in run.chunks_mut(4).enumerate() {
            let word = ((first + i) as u32).wrapping_mul(0x9e37_79b9).to_le_bytes();
            chunk.copy_from_slice(&word[..chunk.len()]);
        }
    }

    /// A buffer filled on many threads equals the same buffer filled on one, for sizes that
    /// split evenly, unevenly and into a partial last unit.
    #[test]
    fn a_parallel_fill_equals_a_serial_one() {
        for len in [0, 7, PARALLEL_MIN_BYTES + 6, 3 * PARALLEL_MIN_BYTES + 1] {
            let mut parallel = vec![0u8; len];
            fill_units(&mut parallel, 4, word_fill);
            let mut serial = vec![0u8; len];
            word_fill(0, &mut serial);
            assert_eq!(parallel, serial, "{len} bytes");
        }
    }
}
