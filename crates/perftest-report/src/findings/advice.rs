//! Advice: what to do, drawn from the findings, most important first.

use super::rates::Rates;
use super::types::{Advice, Finding};

/// Advice weaker than this factor (the finding's ratio either way) is left out.
const MIN_FACTOR: f64 = 1.5;

/// Advice from one finding: its text for the finding's value (`{r}` is the factor), and
/// whether the factor is the value (`faster`) or its inverse (a rate below 1).
struct Rule {
    id: &'static str,
    text: &'static str,
    inverse: bool,
}

/// The advice each finding gives where its difference is at least [`MIN_FACTOR`].
const RULES: [Rule; 10] = [
    Rule {
        id: "cbuffer.divergent",
        text: "Never index a constant buffer per lane: it is {r} slower than a uniform index; keep per-lane data in a structured or raw buffer.",
        inverse: false,
    },
    Rule {
        id: "uniform.typed",
        text: "Keep typed load addresses uniform where the data is the same for every lane (a loop index): {r} faster than per-lane addresses.",
        inverse: false,
    },
    Rule {
        id: "uniform.structured",
        text: "Keep structured load addresses uniform where the data is the same for every lane (a loop index): {r} faster than per-lane addresses.",
        inverse: false,
    },
    Rule {
        id: "uniform.raw",
        text: "Keep raw load addresses uniform where the data is the same for every lane (a loop index): {r} faster than per-lane addresses.",
        inverse: false,
    },
    Rule {
        id: "uniform.texture",
        text: "Keep texture load addresses uniform where the data is the same for every lane (a loop index): {r} faster than per-lane addresses.",
        inverse: false,
    },
    Rule {
        id: "typed.width",
        text: "128-bit typed loads are {r} slower than 64-bit ones: prefer 64-bit formats or a structured buffer for wide data.",
        inverse: true,
    },
    Rule {
        id: "sample.bilinear_wide",
        text: "Bilinear filtering of RGBA32F is {r} slower than of R32F: filter RGBA16F, or fetch only the channels you need.",
        inverse: true,
    },
    Rule {
        id: "sample.vs_load",
        text: "Nearest sampling is {r} slower than a texture load: load texels you address exactly.",
        inverse: true,
    },
    Rule {
        id: "typed.coalescing",
        text: "Lay typed per-lane data out in lane order: linear loads run {r} faster than random ones.",
        inverse: false,
    },
    Rule {
        id: "raw.vs_typed",
        text: "Use raw or structured buffers rather than typed ones for plain data: {r} faster.",
        inverse: false,
    },
];

/// The advice `findings` support, ranked by how much the difference is (as a factor). A
/// finding whose difference is within its cases' noise gives none.
pub fn advice(findings: &[Finding], rates: &Rates) -> Vec<Advice> {
    let get = |id: &str| {
        findings
            .iter()
            .find(|f| f.id == id && f.beyond_noise != Some(false))
    };
    let mut ranked: Vec<(f64, Advice)> = Vec::new();
    for rule in &RULES {
        if let Some(f) = get(rule.id).filter(|f| f.value > 0.0) {
            let factor = if rule.inverse { 1.0 / f.value } else { f.value };
            let text = rule.text.replace("{r}", &format!("{factor:.1}x"));
            ranked.push((factor, advise(text, &[rule.id])));
        }
    }
    if let (Some(s), Some(w)) = (get("structured.vs_raw"), get("raw.wide")) {
        let text = format!(
            "Load 16 bytes through StructuredBuffer<float4> rather than \
             ByteAddressBuffer.Load4: {:.1}x faster (a Load4 costs {:.1} Loads).",
            s.value, w.value
        );
        ranked.push((s.value, advise(text, &["structured.vs_raw", "raw.wide"])));
    }
    if let Some(f) = get("texture.vs_typed").filter(|f| f.value > 0.0) {
        let (factor, text) = if f.value >= 1.0 {
            (
                f.value,
                "Texture loads run {r} faster than typed buffer loads of the same format.",
            )
        } else {
            (
                1.0 / f.value,
                "Typed buffer loads run {r} faster than texture loads of the same format: keep buffer data in buffers.",
            )
        };
        let text = text.replace("{r}", &format!("{factor:.1}x"));
        ranked.push((factor, advise(text, &["texture.vs_typed"])));
    }
    ranked.extend(best_paths(findings, rates, &get));
    ranked.extend(super::transfer::advice(&|id| get(id).cloned()));
    ranked.retain(|(factor, _)| *factor >= MIN_FACTOR);
    ranked.sort_by(|a, b| b.0.total_cmp(&a.0));
    ranked.into_iter().map(|(_, a)| a).collect()
}

/// Advice naming the fastest path per width, where it beats the next by more than 10%.
fn best_paths<'a>(
    _findings: &[Finding],
    rates: &Rates,
    get: &dyn Fn(&str) -> Option<&'a Finding>,
) -> Vec<(f64, Advice)> {
    let mut out = Vec::new();
    for (id, bytes) in [("best.16byte", 16), ("best.4byte", 4)] {
        let Some(f) = get(id).filter(|f| f.cases.len() > 1 && f.value > 1.1) else {
            continue;
        };
        let Some(best) = f.cases.first().and_then(|id| rates.get(id)) else {
            continue;
        };
        let name = best.name.strip_suffix(" linear").unwrap_or(&best.name);
        let text = format!("For {bytes} bytes per lane, use {name}: the fastest here.");
        out.push((f.value.max(MIN_FACTOR), advise(text, &[id])));
    }
    out
}

/// A line of advice resting on `ids`.
fn advise(text: String, ids: &[&str]) -> Advice {
    Advice {
        text,
        findings: ids.iter().map(|s| (*s).to_string()).collect(),
    }
}
