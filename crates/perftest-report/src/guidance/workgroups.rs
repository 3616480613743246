//! The figures of the workgroup claims (the memory suite's `mem.wg.*` sweep): one size or
//! shape against the best one the report measured, and small groups against large ones.
//!
//! Every case of the sweep does the same work per thread, so its throughput (loads per second)
//! compares directly across sizes. A figure reads the cases the report measured; a size the
//! device skipped (over its workgroup limits) is left out, and the figure needs the size it
//! names and at least one other.

use super::rule::{absent, Context, Measured};

/// Raw 16-byte linear loads in groups of 32, 64, 128, 256, 512 and 1024 x 1.
pub const RAW_LINEAR: [&str; 6] = [
    "mem.wg.raw.load4.32x1.linear",
    "mem.wg.raw.load4.64x1.linear",
    "mem.wg.raw.load4.128x1.linear",
    "mem.wg.raw.load4.256x1.linear",
    "mem.wg.raw.load4.512x1.linear",
    "mem.wg.raw.load4.1024x1.linear",
];

/// Raw 16-byte random loads, the same sizes.
pub const RAW_RANDOM: [&str; 6] = [
    "mem.wg.raw.load4.32x1.random",
    "mem.wg.raw.load4.64x1.random",
    "mem.wg.raw.load4.128x1.random",
    "mem.wg.raw.load4.256x1.random",
    "mem.wg.raw.load4.512x1.random",
    "mem.wg.raw.load4.1024x1.random",
];

/// RGBA8 texel loads in 2D groups of the same sizes: 8x4, 8x8, 16x8, 16x16, 32x16, 32x32.
pub const TEXTURE_2D: [&str; 6] = [
    "mem.wg.tex.load.rgba8.8x4.linear",
    "mem.wg.tex.load.rgba8.8x8.linear",
    "mem.wg.tex.load.rgba8.16x8.linear",
    "mem.wg.tex.load.rgba8.16x16.linear",
    "mem.wg.tex.load.rgba8.32x16.linear",
    "mem.wg.tex.load.rgba8.32x32.linear",
];

/// Every texture shape: the 2D groups, then the 64x1 and 256x1 rows.
pub const TEXTURE_ALL: [&str; 8] = [
    "mem.wg.tex.load.rgba8.8x4.linear",
    "mem.wg.tex.load.rgba8.8x8.linear",
    "mem.wg.tex.load.rgba8.16x8.linear",
    "mem.wg.tex.load.rgba8.16x16.linear",
    "mem.wg.tex.load.rgba8.32x16.linear",
    "mem.wg.tex.load.rgba8.32x32.linear",
    "mem.wg.tex.load.rgba8.64x1.linear",
    "mem.wg.tex.load.rgba8.256x1.linear",
];

/// The raw linear loads exchanged through shared memory with a barrier per load, the same
/// sizes as [`RAW_LINEAR`].
pub const EXCHANGE: [&str; 6] = [
    "mem.wg.exchange.load4.32x1.linear",
    "mem.wg.exchange.load4.64x1.linear",
    "mem.wg.exchange.load4.128x1.linear",
    "mem.wg.exchange.load4.256x1.linear",
    "mem.wg.exchange.load4.512x1.linear",
    "mem.wg.exchange.load4.1024x1.linear",
];

/// The three load sweeps whose 64-thread groups [`sixty_four_of_best`] reads: raw linear, raw
/// random and 2D texture loads, every size.
pub const SWEEPS: [&str; 18] = [
    RAW_LINEAR[0],
    RAW_LINEAR[1],
    RAW_LINEAR[2],
    RAW_LINEAR[3],
    RAW_LINEAR[4],
    RAW_LINEAR[5],
    RAW_RANDOM[0],
    RAW_RANDOM[1],
    RAW_RANDOM[2],
    RAW_RANDOM[3],
    RAW_RANDOM[4],
    RAW_RANDOM[5],
    TEXTURE_2D[0],
    TEXTURE_2D[1],
    TEXTURE_2D[2],
    TEXTURE_2D[3],
    TEXTURE_2D[4],
    TEXTURE_2D[5],
];

/// The fastest of `row`'s measured cases: its id and loads per second.
fn best<'a>(ctx: &Context, row: &[&'a str]) -> Option<(&'a str, f64)> {
    row.iter()
        .filter_map(|id| Some((*id, ctx.rates.get(id)?.per_s)))
        .max_by(|a, b| a.1.total_cmp(&b.1))
}

/// `id`'s throughput over the fastest of `row` (which holds `id`): 1 when `id` is the best,
/// with the two cases it compares.
fn share_of_best<'a>(
    ctx: &Context,
    id: &'a str,
    row: &[&'a str],
) -> Result<(f64, [&'a str; 2]), String> {
    let Some(own) = ctx.rates.get(id).map(|r| r.per_s) else {
        return Err(absent(ctx, &[id]));
    };
    let others = row
        .iter()
        .filter(|o| **o != id && ctx.rates.get(o).is_some());
    if others.count() == 0 {
        return Err(absent(ctx, row));
    }
    let (top, rate) = best(ctx, row).unwrap_or((id, own));
    Ok((own / rate, [id, top]))
}

/// The 8x8 texture group's throughput over the fastest texture shape's (2D or a row).
pub fn eight_by_eight(ctx: &Context) -> Result<Measured, String> {
    let (value, cases) = share_of_best(ctx, TEXTURE_ALL[1], &TEXTURE_ALL)?;
    Ok(Measured::plain(value, &cases))
}

/// The 64x1 group's throughput over the fastest size's, for linear raw loads.
pub fn row_of_64_linear(ctx: &Context) -> Result<Measured, String> {
    let (value, cases) = share_of_best(ctx, RAW_LINEAR[1], &RAW_LINEAR)?;
    Ok(Measured::plain(value, &cases))
}

/// The geometric mean, over raw linear, raw random and 2D texture loads, of the 64-thread
/// group's throughput over the fastest size's.
pub fn sixty_four_of_best(ctx: &Context) -> Result<Measured, String> {
    let mut logs = 0.0;
    let mut cases = Vec::new();
    for row in [&RAW_LINEAR, &RAW_RANDOM, &TEXTURE_2D] {
        let (value, pair) = share_of_best(ctx, row[1], row)?;
        logs += value.ln();
        cases.extend(pair);
    }
    Ok(Measured::plain((logs / 3.0).exp(), &cases))
}

/// The fastest group of at most 64 threads (the row's first two) over the fastest larger one.
fn small_over_large(ctx: &Context, row: &[&'static str; 6]) -> Result<Measured, String> {
    let (small, large) = row.split_at(2);
    match (best(ctx, small), best(ctx, large)) {
        (Some((a, x)), Some((b, y))) => Ok(Measured::plain(x / y, &[a, b])),
        _ => Err(absent(ctx, row)),
    }
}

/// [`small_over_large`] of the loads exchanged through shared memory with barriers.
pub fn small_groups_with_barriers(ctx: &Context) -> Result<Measured, String> {
    small_over_large(ctx, &EXCHANGE)
}

/// [`small_over_large`] of the linear raw loads.
pub fn small_groups_linear(ctx: &Context) -> Result<Measured, String> {
    small_over_large(ctx, &RAW_LINEAR)
}
