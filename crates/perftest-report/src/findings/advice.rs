//! Advice: what to do, drawn from the findings, most important first.
//!
//! Every line quotes what following it gains on this GPU: the case it recommends against the
//! case a programmer would otherwise use. A line is given only where that gain is at least
//! [`MIN_GAIN`] and beyond the cases' noise, and it names only the remedies that reach it.

use super::rates::{beyond_noise, Rates};
use super::types::{Advice, Finding};

/// Advice that gains less than this factor is left out.
pub const MIN_GAIN: f64 = 1.2;

/// A remedy: the case that measures it, and its words in advice.
struct Remedy {
    /// The case id.
    case: &'static str,
    /// How the advice names it (`a StructuredBuffer<float4>`).
    words: &'static str,
}

/// What to keep per-lane data in rather than a constant buffer indexed per lane, at 16 bytes.
const PER_LANE_REMEDIES: [Remedy; 3] = [
    Remedy {
        case: "structured.float4.linear",
        words: "a StructuredBuffer<float4>",
    },
    Remedy {
        case: "raw.load4.linear",
        words: "a ByteAddressBuffer (Load4)",
    },
    Remedy {
        case: "typed.rgba32f.linear",
        words: "a Buffer<RGBA32f>",
    },
];

/// The uniform-address questions and the resource type each names.
const UNIFORM: [(&str, &str); 4] = [
    ("uniform.typed", "typed"),
    ("uniform.raw", "raw"),
    ("uniform.structured", "structured"),
    ("uniform.texture", "texture"),
];

/// The advice `findings` support, ranked by what following it gains. A finding whose
/// difference is within its cases' noise gives none.
pub fn advice(findings: &[Finding], rates: &Rates) -> Vec<Advice> {
    let get = |id: &str| {
        findings
            .iter()
            .find(|f| f.id == id && f.beyond_noise != Some(false) && f.value > 0.0)
    };
    let mut ranked: Vec<(f64, Advice)> = Vec::new();
    ranked.extend(per_lane_cbuffer(&get, rates));
    for (id, kind) in UNIFORM {
        ranked.extend(widths_that_gain(findings, id).map(|(gain, list)| {
            let text = format!(
                "Keep {kind} load addresses uniform where every lane reads the same data (a \
                 loop index): faster than per-lane addresses for {list}."
            );
            (gain, advise(text, &[id]))
        }));
    }
    for (id, kind) in [("typed.coalescing", "typed"), ("raw.coalescing", "raw")] {
        ranked.extend(widths_that_gain(findings, id).map(|(gain, list)| {
            let text = format!(
                "Lay {kind} per-lane data out in lane order: linear loads run faster than random \
                 ones for {list}."
            );
            (gain, advise(text, &[id]))
        }));
    }
    ranked.extend(untyped(rates));
    if let Some(s) = get("structured.vs_raw") {
        let text = format!(
            "Load 16 bytes through StructuredBuffer<float4> rather than \
             ByteAddressBuffer.Load4: {:.1}x faster.",
            s.value
        );
        ranked.push((s.value, advise(text, &["structured.vs_raw"])));
    }
    ranked.extend(textures_or_buffers(findings));
    if let Some(f) = get("sample.vs_load").filter(|f| f.value < 1.0) {
        let text = format!(
            "Load texels you address exactly rather than sampling them (nearest): {:.1}x faster.",
            1.0 / f.value
        );
        ranked.push((1.0 / f.value, advise(text, &["sample.vs_load"])));
    }
    ranked.extend(filter_half(&get, rates));
    ranked.extend(best_paths(&get, rates));
    ranked.extend(super::transfer::advice(&|id| get(id).cloned()));
    ranked.retain(|(gain, _)| *gain >= MIN_GAIN);
    ranked.sort_by(|a, b| b.0.total_cmp(&a.0));
    ranked.into_iter().map(|(_, a)| a).collect()
}

/// `a` over `b` in throughput, where both are measured and their difference is not within
/// their noise.
fn gain(rates: &Rates, a: &str, b: &str) -> Option<f64> {
    let (ra, rb) = (rates.get(a)?, rates.get(b)?);
    (beyond_noise(ra, rb) != Some(false)).then(|| ra.per_s / rb.per_s)
}

/// Never index a constant buffer per lane, where a per-lane index is slow *and* moving the
/// data gains: the advice names each place to move it that gains at least [`MIN_GAIN`] over
/// the per-lane constant buffer (linear), with its gain.
fn per_lane_cbuffer<'a>(
    get: &dyn Fn(&str) -> Option<&'a Finding>,
    rates: &Rates,
) -> Option<(f64, Advice)> {
    let divergent = get("cbuffer.divergent").filter(|f| f.value >= MIN_GAIN)?;
    let mut remedies: Vec<(f64, &str)> = PER_LANE_REMEDIES
        .iter()
        .filter_map(|r| Some((gain(rates, r.case, "cbuffer.float4.linear")?, r.words)))
        .filter(|(g, _)| *g >= MIN_GAIN)
        .collect();
    remedies.sort_by(|a, b| b.0.total_cmp(&a.0));
    let best = remedies.iter().map(|(g, _)| *g).fold(0.0, f64::max);
    let list: Vec<String> = remedies
        .iter()
        .map(|(g, words)| format!("{words} ({g:.1}x)"))
        .collect();
    let text = format!(
        "Keep per-lane data out of constant buffers: indexed per lane, a constant buffer is \
         {:.1}x slower than with a uniform index, and the same loads run faster from {}.",
        divergent.value,
        join_or(&list)
    );
    (!list.is_empty()).then(|| (best, advise(text, &["cbuffer.divergent"])))
}

/// The widths for which the per-width question `id` says yes (its finding passes the
/// question's threshold, and [`MIN_GAIN`]): the largest of their values and the list in words
/// (`Load2 (4.3x), Load4 (2.0x)`).
fn widths_that_gain(findings: &[Finding], id: &str) -> Option<(f64, String)> {
    let group = super::GROUPS.iter().find(|g| g.id == id)?;
    let at = group.holds.map_or(MIN_GAIN, |(at, _, _)| at);
    let prefix = format!("{id}.");
    let found: Vec<&Finding> = findings
        .iter()
        .filter(|f| f.id.starts_with(&prefix) && f.beyond_noise != Some(false))
        .filter(|f| f.value >= at.max(MIN_GAIN))
        .collect();
    let best = found.iter().map(|f| f.value).fold(0.0, f64::max);
    let label = |key: &str| {
        let width = group.widths.iter().find(|w| w.key == key);
        width.map_or(key.to_string(), |w| w.label.to_string())
    };
    let list: Vec<String> = found
        .iter()
        .map(|f| format!("{} ({:.1}x)", label(&f.id[prefix.len()..]), f.value))
        .collect();
    (!found.is_empty()).then(|| (best, list.join(", ")))
}

/// Raw or structured buffers rather than typed ones, per width: at each width the faster of
/// the two against the typed load of that width (linear), where it gains.
fn untyped(rates: &Rates) -> Option<(f64, Advice)> {
    let widths = [
        (
            "4",
            "raw.load.linear",
            "structured.float.linear",
            "typed.r32f.linear",
        ),
        (
            "8",
            "raw.load2.linear",
            "structured.float2.linear",
            "typed.rg32f.linear",
        ),
        (
            "16",
            "raw.load4.linear",
            "structured.float4.linear",
            "typed.rgba32f.linear",
        ),
    ];
    let mut parts = Vec::new();
    let mut best: f64 = 0.0;
    for (bytes, raw, structured, typed) in widths {
        let choices = [(raw, "ByteAddressBuffer"), (structured, "StructuredBuffer")];
        let Some((g, name)) = choices
            .iter()
            .filter_map(|(id, name)| Some((gain(rates, id, typed)?, *name)))
            .max_by(|a, b| a.0.total_cmp(&b.0))
        else {
            continue;
        };
        if g >= MIN_GAIN {
            parts.push(format!("{bytes} bytes through a {name} {g:.1}x faster"));
            best = best.max(g);
        }
    }
    (!parts.is_empty()).then(|| {
        let text = format!(
            "Use raw or structured buffers rather than typed ones for plain data: {}.",
            parts.join(", ")
        );
        (best, advise(text, &["raw.vs_typed"]))
    })
}

/// Textures or typed buffers for data of one format: the widths (channel counts) where one
/// gains at least [`MIN_GAIN`] over the other, each way.
fn textures_or_buffers(findings: &[Finding]) -> Vec<(f64, Advice)> {
    let widths: Vec<&Finding> = findings
        .iter()
        .filter(|f| f.id.starts_with("texture.vs_typed.") && f.beyond_noise != Some(false))
        .filter(|f| f.value > 0.0)
        .collect();
    let label = |f: &Finding| match &f.id["texture.vs_typed.".len()..] {
        "ch1" => "1-channel",
        "ch2" => "2-channel",
        _ => "4-channel",
    };
    let mut out = Vec::new();
    for textures in [true, false] {
        let gains: Vec<(f64, &str)> = widths
            .iter()
            .map(|f| (if textures { f.value } else { 1.0 / f.value }, label(f)))
            .filter(|(g, _)| *g >= MIN_GAIN)
            .collect();
        let Some(best) = gains.iter().map(|(g, _)| *g).reduce(f64::max) else {
            continue;
        };
        let list: Vec<String> = gains
            .iter()
            .map(|(g, l)| format!("{l} ({g:.1}x)"))
            .collect();
        let text = if textures {
            format!(
                "Keep data in textures rather than typed buffers: texture loads run faster for {}.",
                list.join(", ")
            )
        } else {
            format!(
                "Keep data in typed buffers rather than textures: buffer loads run faster for {}.",
                list.join(", ")
            )
        };
        out.push((best, advise(text, &["texture.vs_typed"])));
    }
    out
}

/// Filter RGBA16F rather than RGBA32F, where bilinear RGBA32F is slow and RGBA16F gains.
fn filter_half<'a>(
    get: &dyn Fn(&str) -> Option<&'a Finding>,
    rates: &Rates,
) -> Option<(f64, Advice)> {
    get("sample.bilinear_wide")?;
    let g = gain(
        rates,
        "tex.sample.bilinear.rgba16f.linear",
        "tex.sample.bilinear.rgba32f.linear",
    )?;
    let text = format!(
        "Filter RGBA16F rather than RGBA32F where its precision is enough: bilinear RGBA16F \
         runs {g:.1}x faster."
    );
    Some((g, advise(text, &["sample.bilinear_wide"])))
}

/// For each width, the fastest resource type (linear), where it gains over the next that
/// is not tied with it: the advice names every type tied for the lead.
fn best_paths<'a>(get: &dyn Fn(&str) -> Option<&'a Finding>, rates: &Rates) -> Vec<(f64, Advice)> {
    let mut out = Vec::new();
    for (id, bytes) in [("best.16byte", 16), ("best.4byte", 4)] {
        let Some(f) = get(id) else { continue };
        let ranked: Vec<_> = f.cases.iter().filter_map(|c| rates.get(c)).collect();
        let Some(first) = ranked.first() else {
            continue;
        };
        let lead = ranked
            .iter()
            .take_while(|r| first.per_s / r.per_s <= 1.0 + super::best::TIE)
            .count();
        let Some(next) = ranked.get(lead) else {
            continue;
        };
        let g = ranked[lead - 1].per_s / next.per_s;
        let names: Vec<String> = ranked[..lead]
            .iter()
            .map(|r| {
                r.name
                    .strip_suffix(" linear")
                    .unwrap_or(&r.name)
                    .to_string()
            })
            .collect();
        let text = format!(
            "For {bytes} bytes per lane, use {}: {g:.1}x faster than {}, the next here.",
            join_or(&names),
            next.name.strip_suffix(" linear").unwrap_or(&next.name)
        );
        out.push((g, advise(text, &[id])));
    }
    out
}

/// `a`, `a or b`, `a, b or c`.
fn join_or(items: &[String]) -> String {
    match items.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
        Some((last, _)) => last.clone(),
        None => String::new(),
    }
}

/// A line of advice resting on `ids`.
fn advise(text: String, ids: &[&str]) -> Advice {
    Advice {
        text,
        findings: ids.iter().map(|s| (*s).to_string()).collect(),
    }
}
