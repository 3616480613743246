//! The ratio findings: each compares the throughput of two cases, as a table of rules.

use super::rates::{beyond_noise, per_s, Rates};
use super::types::Finding;

/// A finding that compares two cases: `value` = throughput of `a` / throughput of `b`.
#[derive(Clone, Copy, Debug)]
pub struct Rule {
    /// The finding's id.
    pub id: &'static str,
    /// The numerator case.
    pub a: &'static str,
    /// The denominator case.
    pub b: &'static str,
    /// True for the original suite's findings (a report of that suite that lacks one of the
    /// two cases names it as missing).
    pub original: bool,
    /// What the ratio answers, as the sentence's opening words.
    pub topic: &'static str,
    /// The verdict in words for a value.
    pub verdict: fn(f64) -> String,
}

/// Every ratio finding, in the order reports print them.
pub const RULES: &[Rule] = &[
    Rule {
        id: "typed.width",
        a: "typed.rgba32f.random",
        b: "typed.rg32f.random",
        original: true,
        topic: "128-bit typed loads against 64-bit ones",
        verdict: rate,
    },
    Rule {
        id: "typed.width64",
        a: "typed.rg32f.random",
        b: "typed.r32f.random",
        original: true,
        topic: "64-bit typed loads against 32-bit ones",
        verdict: rate,
    },
    Rule {
        id: "typed.channels",
        a: "typed.r32f.linear",
        b: "typed.rgba8.linear",
        original: true,
        topic: "1-channel against 4-channel typed loads of 4 bytes (linear)",
        verdict: faster,
    },
    Rule {
        id: "raw.wide",
        a: "raw.load.linear",
        b: "raw.load4.linear",
        original: true,
        topic: "Raw Load against Load4 (linear)",
        verdict: wide,
    },
    Rule {
        id: "raw.wide_random",
        a: "raw.load.random",
        b: "raw.load4.random",
        original: true,
        topic: "Raw Load against Load4 (random)",
        verdict: wide,
    },
    Rule {
        id: "raw.unaligned",
        a: "raw.load4.linear",
        b: "raw.load4.unaligned.linear",
        original: true,
        topic: "Aligned against unaligned raw Load4 (linear)",
        verdict: faster,
    },
    Rule {
        id: "raw.load3_random",
        a: "raw.load3.random",
        b: "raw.load4.random",
        original: true,
        topic: "Raw Load3 against Load4 (random)",
        verdict: rate,
    },
    Rule {
        id: "structured.width",
        a: "structured.float4.linear",
        b: "structured.float2.linear",
        original: true,
        topic: "StructuredBuffer<float4> against <float2> loads (linear)",
        verdict: rate,
    },
    Rule {
        id: "texture.width",
        a: "tex.load.rgba32f.linear",
        b: "tex.load.r32f.linear",
        original: true,
        topic: "Texture loads of RGBA32F against R32F (linear)",
        verdict: rate,
    },
    Rule {
        id: "texture.random_wide",
        a: "tex.load.rgba32f.random",
        b: "tex.load.rgba32f.linear",
        original: true,
        topic: "Random against linear texture loads of RGBA32F",
        verdict: rate,
    },
    Rule {
        id: "structured.vs_raw",
        a: "structured.float4.linear",
        b: "raw.load4.linear",
        original: true,
        topic: "StructuredBuffer<float4> against ByteAddressBuffer.Load4 (linear)",
        verdict: faster,
    },
    Rule {
        id: "cbuffer.divergent",
        a: "cbuffer.float4.uniform",
        b: "cbuffer.float4.linear",
        original: true,
        topic: "Constant buffer loads with a uniform index against a per-lane index",
        verdict: divergent,
    },
    Rule {
        id: "sample.vs_load",
        a: "tex.sample.nearest.r8.linear",
        b: "tex.load.r8.linear",
        original: true,
        topic: "Nearest sampling against texture loads (R8, linear)",
        verdict: rate,
    },
    Rule {
        id: "sample.bilinear",
        a: "tex.sample.bilinear.rgba8.linear",
        b: "tex.sample.nearest.rgba8.linear",
        original: true,
        topic: "Bilinear against nearest sampling (RGBA8, linear)",
        verdict: rate,
    },
    Rule {
        id: "sample.nearest_wide",
        a: "tex.sample.nearest.rgba32f.linear",
        b: "tex.sample.nearest.r32f.linear",
        original: true,
        topic: "Nearest sampling of RGBA32F against R32F (linear)",
        verdict: rate,
    },
    Rule {
        id: "sample.bilinear_wide",
        a: "tex.sample.bilinear.rgba32f.linear",
        b: "tex.sample.bilinear.r32f.linear",
        original: true,
        topic: "Bilinear sampling of RGBA32F against R32F (linear)",
        verdict: rate,
    },
    Rule {
        id: "sample.address_mode",
        a: "tex.addr.clamp.nearest.r8.linear",
        b: "tex.sample.nearest.r8.linear",
        original: false,
        topic: "Nearest sampling with clamp-to-edge against repeat (R8, linear)",
        verdict: faster,
    },
    Rule {
        id: "srgb.load",
        a: "tex.fmt.load.rgba8srgb.linear",
        b: "tex.load.rgba8.linear",
        original: false,
        topic: "sRGB against UNORM texture loads (RGBA8, linear)",
        verdict: rate,
    },
    Rule {
        id: "descriptor.nonuniform",
        a: "modern.tex.nonuniform.n32",
        b: "modern.tex.nonuniform.n1",
        original: false,
        topic: "Sampling through 32 different descriptors per wave against one",
        verdict: rate,
    },
    Rule {
        id: "descriptor.scalarized",
        a: "modern.tex.scalarized.n32",
        b: "modern.tex.nonuniform.n32",
        original: false,
        topic: "A scalarized loop over 32 descriptors against NonUniformResourceIndex",
        verdict: faster,
    },
    Rule {
        id: "fragment.vs_compute",
        a: "frag.structured.float4.linear",
        b: "structured.float4.linear",
        original: false,
        topic: "StructuredBuffer<float4> loads in a fragment shader against a compute shader",
        verdict: rate,
    },
    Rule {
        id: "vertex.fetch_vs_pull",
        a: "vertex.input.rgba8.x4.interleaved",
        b: "vertex.pull.structured.rgba8.x4",
        original: false,
        topic: "Fixed-function vertex input against pulling from a StructuredBuffer (4 x RGBA8)",
        verdict: faster,
    },
];

impl Rule {
    /// The finding, or the cases the report lacks for it.
    pub fn apply(&self, rates: &Rates) -> Result<Finding, Vec<String>> {
        let (a, b) = match (rates.get(self.a), rates.get(self.b)) {
            (Some(a), Some(b)) => (a, b),
            (a, b) => {
                let missing = [(self.a, a.is_none()), (self.b, b.is_none())];
                return Err(missing
                    .iter()
                    .filter(|(_, gone)| *gone)
                    .map(|(id, _)| (*id).to_string())
                    .collect());
            }
        };
        let value = a.per_s / b.per_s;
        let statement = format!(
            "{}: {}, {} ({}) against {} ({}).",
            self.topic,
            (self.verdict)(value),
            a.name,
            per_s(a.per_s),
            b.name,
            per_s(b.per_s)
        );
        Ok(Finding {
            id: self.id.to_string(),
            statement,
            value,
            cases: vec![self.a.to_string(), self.b.to_string()],
            beyond_noise: beyond_noise(a, b),
        })
    }
}

/// True when `rates` holds any case of the original suite's findings (so the ones it lacks
/// are worth naming).
pub fn original_measured(rates: &Rates) -> bool {
    let measured = |id: &str| rates.get(id).is_some();
    let by_rule = RULES
        .iter()
        .filter(|r| r.original)
        .any(|r| measured(r.a) || measured(r.b));
    let by_group = super::GROUPS
        .iter()
        .filter(|g| g.original)
        .flat_map(|g| g.widths.iter().flat_map(|w| w.pairs.iter()))
        .any(|(a, b)| measured(a) || measured(b));
    by_rule || by_group
}

/// Within this fraction, two rates count as the same.
pub const SAME: f64 = 0.1;

/// A rate in the words the original's analyses use: full, half or quarter rate, else the
/// factor.
pub fn rate(value: f64) -> String {
    let named = [
        (1.0, "the same rate"),
        (0.5, "half rate"),
        (0.25, "quarter rate"),
    ];
    for (at, words) in named {
        if (value / at - 1.0).abs() <= SAME {
            return format!("{words} ({value:.2}x)");
        }
    }
    if value > 1.0 {
        format!("{value:.2}x faster")
    } else {
        format!("{value:.2}x the rate ({:.1}x slower)", 1.0 / value)
    }
}

/// How much faster the first is: the same, or the factor either way.
pub fn faster(value: f64) -> String {
    if (value - 1.0).abs() <= SAME {
        format!("the same rate ({value:.2}x)")
    } else if value > 1.0 {
        format!("{value:.2}x faster")
    } else {
        format!("{:.2}x slower", 1.0 / value)
    }
}

/// A 4-byte load against a 16-byte one, in loads per second: about 1 when the wide load is
/// native, about 4 (or more) when it costs as much as four narrow loads.
fn wide(value: f64) -> String {
    if value <= 1.5 {
        format!("a Load4 costs about one Load ({value:.2}x): native wide loads")
    } else {
        format!("a Load4 costs {value:.1} Loads")
    }
}

/// A uniform index against a per-lane one into a constant buffer.
fn divergent(value: f64) -> String {
    if value >= 1.5 {
        format!("a per-lane index is {value:.1}x slower")
    } else {
        format!("a per-lane index costs little ({value:.2}x)")
    }
}
