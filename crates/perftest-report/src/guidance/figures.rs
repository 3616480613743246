//! The figures a plain ratio of two cases cannot give: those that read the device, several
//! findings or the cache hierarchy.

use crate::hierarchy::hierarchy;

use super::rule::{absent, Context, Figure, Measured};

/// The cost of a constant-buffer load whose lanes each read their own address over a uniform
/// one's, divided by the subgroup size: 1 when the cost grows in proportion to the number of
/// distinct addresses.
pub fn unique_addresses(ctx: &Context) -> Result<Measured, String> {
    let cases = ["cbuffer.float4.uniform", "cbuffer.float4.linear"];
    let (Some(uniform), Some(per_lane)) = (ctx.rates.get(cases[0]), ctx.rates.get(cases[1])) else {
        return Err(absent(ctx, &cases));
    };
    let lanes = ctx.report.device.subgroup_size;
    if lanes < 2 {
        return Err("the report does not give the subgroup size".to_string());
    }
    let cost = uniform.per_s / per_lane.per_s;
    Ok(Measured::plain(cost / f64::from(lanes), &cases))
}

/// The push-constant word's throughput over the fastest other constant path's (a uniform
/// block, the same without the run-time mask, a broadcast storage load; those the report
/// has, at least one).
pub fn push_fastest(ctx: &Context) -> Result<Measured, String> {
    let push = "mem.const.push";
    let others = [
        "mem.const.ubo.uniform",
        "mem.const.nomask.uniform",
        "mem.const.broadcast",
    ];
    let Some(p) = ctx.rates.get(push) else {
        return Err(absent(ctx, &[push]));
    };
    let best = others
        .iter()
        .filter_map(|id| Some((*id, ctx.rates.get(id)?)))
        .max_by(|a, b| a.1.per_s.total_cmp(&b.1.per_s));
    let Some((id, other)) = best else {
        return Err(absent(ctx, &others));
    };
    Ok(Measured::plain(p.per_s / other.per_s, &[push, id]))
}

/// The texel rate sampling reaches as a share of the rate the driver publishes per core
/// (the `peak.texel` finding).
pub fn texel_peak(ctx: &Context) -> Result<Measured, String> {
    if ctx.report.device.peak_per_unit.is_none() {
        return Err("the driver publishes no texel rate per core".to_string());
    }
    let f = ctx.findings.get("peak.texel").ok_or_else(|| {
        "the report lacks a sampling case, the shader clock or the unit count".to_string()
    })?;
    let cases: Vec<&str> = f.cases.iter().map(String::as_str).collect();
    Ok(Measured::plain(f.value, &cases))
}

/// The far L2 partition's latency over the near one's (the `cache.l2_far` and
/// `cache.l2_near` findings); 1 where the sweep found a single L2.
pub fn l2_partitions(ctx: &Context) -> Result<Measured, String> {
    let get = |id: &str| ctx.findings.get(id).map(|f| f.value);
    match (get("cache.l2_near"), get("cache.l2_far"), get("cache.l2")) {
        (Some(near), Some(far), _) => Ok(Measured::plain(far / near, &[])),
        (_, _, Some(_)) => Ok(Measured::plain(1.0, &[])),
        _ => Err("the report has no latency sweep that finds an L2 (memory suite)".to_string()),
    }
}

/// The L1 capacity without shared memory over the smallest one left by a shared-memory
/// declaration (the carve-out curves behind `cache.carveout`).
pub fn shared_takes_l1(ctx: &Context) -> Result<Measured, String> {
    let measured = ctx
        .report
        .cases
        .iter()
        .any(|c| c.id.starts_with("mem.carveout.") && ctx.rates.get(&c.id).is_some());
    if !measured {
        return Err("the report has no mem.carveout cases (memory suite)".to_string());
    }
    let h = hierarchy(ctx.report).ok_or_else(|| "no carve-out curves".to_string())?;
    let l1_of = |shared: bool| {
        h.carveout
            .iter()
            .filter(|c| (c.shared > 0) == shared)
            .filter_map(|c| c.l1.as_ref().map(|l| l.last))
            .min()
    };
    match (l1_of(false), l1_of(true)) {
        (Some(full), Some(least)) if least > 0 => {
            Ok(Measured::plain(full as f64 / least as f64, &[]))
        }
        _ => Err("the carve-out curves show no L1 level".to_string()),
    }
}

/// The texture-bandwidth cases [`compressed_over_rgba8`] reads: the compressed formats of the
/// 8192x4096 image, then `RGBA8`'s.
pub const COMPRESSED_AND_RGBA8: [&str; 4] = [
    "mem.texbw.8192x4096.astc4x4",
    "mem.texbw.8192x4096.bc7",
    "mem.texbw.8192x4096.bc1",
    "mem.texbw.8192x4096.rgba8",
];

/// The geometric mean, over the compressed formats the report measured (ASTC 4x4 where the
/// device has `textureCompressionASTC_LDR`, BC7 and BC1 where it has `textureCompressionBC`),
/// of the 8192x4096 image's texel rate in that format over its rate in `RGBA8`; the cases read
/// name the formats it was judged on.
pub fn compressed_over_rgba8(ctx: &Context) -> Result<Measured, String> {
    let (compressed, rgba8) = COMPRESSED_AND_RGBA8.split_at(3);
    let Some(reference) = ctx.rates.get(rgba8[0]) else {
        return Err(absent(ctx, rgba8));
    };
    let measured: Vec<(&str, f64)> = compressed
        .iter()
        .filter_map(|id| Some((*id, ctx.rates.get(id)?.per_s)))
        .collect();
    if measured.is_empty() {
        return Err(absent(ctx, compressed));
    }
    let logs: f64 = measured
        .iter()
        .map(|(_, per_s)| (per_s / reference.per_s).ln())
        .sum();
    let mut cases: Vec<&str> = measured.iter().map(|(id, _)| *id).collect();
    cases.push(rgba8[0]);
    Ok(Measured::plain(
        (logs / measured.len() as f64).exp(),
        &cases,
    ))
}

/// Anisotropic sampling of RGBA8 UNORM against the same of its data viewed as sRGB (16x,
/// linear and random).
pub const SRGB_ANISO_PAIRS: [(&str, &str); 2] = [
    ("tex.mip.aniso16.rgba8.linear", "tex.srgb.aniso16.linear"),
    ("tex.mip.aniso16.rgba8.random", "tex.srgb.aniso16.random"),
];

/// Trilinear sampling of RGBA8 UNORM against the same viewed as sRGB (linear and random).
pub const SRGB_TRILINEAR_PAIRS: [(&str, &str); 2] = [
    (
        "tex.mip.trilinear.rgba8.linear",
        "tex.srgb.trilinear.linear",
    ),
    (
        "tex.mip.trilinear.rgba8.random",
        "tex.srgb.trilinear.random",
    ),
];

/// The cases [`srgb_aniso_extra`] reads.
pub const SRGB_ANISO_CASES: [&str; 8] = [
    "tex.mip.aniso16.rgba8.linear",
    "tex.srgb.aniso16.linear",
    "tex.mip.aniso16.rgba8.random",
    "tex.srgb.aniso16.random",
    "tex.mip.trilinear.rgba8.linear",
    "tex.srgb.trilinear.linear",
    "tex.mip.trilinear.rgba8.random",
    "tex.srgb.trilinear.random",
];

/// What sRGB costs with anisotropic filtering over what it costs with trilinear: the UNORM
/// over sRGB ratio of [`SRGB_ANISO_PAIRS`] divided by that of [`SRGB_TRILINEAR_PAIRS`] (each
/// a geometric mean); 1 when sRGB costs anisotropic sampling what it costs trilinear. Pairs
/// within each other's noise count as equal in the figure's noise estimate, as in a ratio.
pub fn srgb_aniso_extra(ctx: &Context) -> Result<Measured, String> {
    let aniso = Figure::Ratio(&SRGB_ANISO_PAIRS).measure(ctx)?;
    let trilinear = Figure::Ratio(&SRGB_TRILINEAR_PAIRS).measure(ctx)?;
    let noisy = aniso.within_noise.is_some() || trilinear.within_noise.is_some();
    let quiet = |m: &Measured| m.within_noise.unwrap_or(m.value);
    Ok(Measured {
        value: aniso.value / trilinear.value,
        within_noise: noisy.then(|| quiet(&aniso) / quiet(&trilinear)),
        cases: SRGB_ANISO_CASES.iter().map(|c| (*c).to_string()).collect(),
    })
}
