//! Advice: what to do, drawn from the findings, most important first.

use super::rates::Rates;
use super::{Advice, Finding};

/// Advice weaker than this factor (the finding's ratio either way) is left out.
const MIN_FACTOR: f64 = 1.5;

/// The advice `findings` support, ranked by how much the difference is (as a factor). A
/// finding whose difference is within its cases' noise gives none.
pub fn advice(findings: &[Finding], rates: &Rates) -> Vec<Advice> {
    let get = |id: &str| {
        findings
            .iter()
            .find(|f| f.id == id && f.beyond_noise != Some(false))
    };
    let mut ranked: Vec<(f64, Advice)> = Vec::new();
    let mut add = |factor: f64, text: String, ids: &[&str]| {
        if factor >= MIN_FACTOR {
            ranked.push((
                factor,
                Advice {
                    text,
                    findings: ids.iter().map(|s| (*s).to_string()).collect(),
                },
            ));
        }
    };
    if let Some(f) = get("cbuffer.divergent") {
        add(
            f.value,
            format!(
                "Never index a constant buffer per lane: it is {:.0}x slower than a uniform \
                 index; keep per-lane data in a structured or raw buffer.",
                f.value
            ),
            &["cbuffer.divergent"],
        );
    }
    for (id, what) in [
        ("uniform.typed", "typed"),
        ("uniform.structured", "structured"),
        ("uniform.raw", "raw"),
        ("uniform.texture", "texture"),
    ] {
        if let Some(f) = get(id) {
            add(
                f.value,
                format!(
                    "Keep {what} load addresses uniform where the data is the same for every \
                     lane (a loop index): {:.1}x faster than per-lane addresses.",
                    f.value
                ),
                &[id],
            );
        }
    }
    for (id, bytes) in [("best.16byte", 16), ("best.4byte", 4)] {
        // Worth saying when it beats the next by more than the noise and 10%.
        if let Some(f) = get(id).filter(|f| f.cases.len() > 1 && f.value > 1.1) {
            let Some(best) = f.cases.first().and_then(|id| rates.get(id)) else {
                continue;
            };
            let name = best.name.strip_suffix(" linear").unwrap_or(&best.name);
            add(
                f.value.max(MIN_FACTOR),
                format!("For {bytes} bytes per lane, use {name}: the fastest here."),
                &[id],
            );
        }
    }
    if let (Some(s), Some(w)) = (get("structured.vs_raw"), get("raw.wide")) {
        add(
            s.value,
            format!(
                "Load 16 bytes through StructuredBuffer<float4> rather than \
                 ByteAddressBuffer.Load4: {:.1}x faster (a Load4 costs {:.1} Loads).",
                s.value, w.value
            ),
            &["structured.vs_raw", "raw.wide"],
        );
    }
    for (id, text) in [
        (
            "typed.width",
            "128-bit typed loads run at {r} the rate of 64-bit ones: prefer 64-bit formats or a structured buffer for wide data.",
        ),
        (
            "sample.bilinear_wide",
            "Bilinear filtering of RGBA32F runs at {r} the rate of R32F: filter RGBA16F, or fetch only the channels you need.",
        ),
        (
            "sample.vs_load",
            "Nearest sampling runs at {r} the rate of texture loads: load texels you address exactly.",
        ),
    ] {
        if let Some(f) = get(id) {
            let r = format!("{:.2}x", f.value);
            add(1.0 / f.value, text.replace("{r}", &r), &[id]);
        }
    }
    for (id, text) in [
        (
            "typed.coalescing",
            "Lay typed per-lane data out in lane order: linear loads run {r} faster than random ones.",
        ),
        (
            "raw.vs_typed",
            "Use raw or structured buffers rather than typed ones for plain data: {r} faster.",
        ),
        (
            "texture.vs_typed",
            "Texture loads run {r} faster than typed buffer loads of the same format.",
        ),
    ] {
        if let Some(f) = get(id) {
            let r = format!("{:.1}x", f.value);
            add(f.value, text.replace("{r}", &r), &[id]);
        }
    }
    if let Some(f) = get("texture.vs_typed").filter(|f| f.value > 0.0) {
        add(
            1.0 / f.value,
            format!(
                "Typed buffer loads run {:.1}x faster than texture loads of the same format: \
                 keep buffer data in buffers.",
                1.0 / f.value
            ),
            &["texture.vs_typed"],
        );
    }
    ranked.sort_by(|a, b| b.0.total_cmp(&a.0));
    ranked.into_iter().map(|(_, a)| a).collect()
}
