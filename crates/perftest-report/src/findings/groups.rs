//! The findings that ask one question at several widths (or channel counts): a uniform-address
//! fast path, coalescing, raw against typed loads. The answer can differ by width (GCN's scalar
//! unit speeds up a uniform `Load2` 4x and leaves a uniform `Load` alone), so each width is a
//! finding of its own, and the question's finding says for which widths it holds.
//!
//! A width asked by several formats (`Buffer<R8>`, `<R16f>` and `<R32f>` are all one-channel
//! loads) answers with the median of their ratios, and names a format whose ratio lies more than
//! [`OUTLIER`] from it: one odd row does not make the answer.

use crate::statistics::median;

use super::rates::{beyond_noise, per_s, Rates};
use super::rules::faster;
use super::types::Finding;

/// A format whose ratio differs from its width's median by more than this factor (either way)
/// is named as an outlier.
pub const OUTLIER: f64 = 1.25;

/// One width of a group's question: the pairs of cases that ask it, each `(a, b)` with the
/// ratio throughput(a) / throughput(b).
#[derive(Clone, Copy, Debug)]
pub struct Width {
    /// Its words in sentences (`Load2`, `1-channel`).
    pub label: &'static str,
    /// Its id, appended to the group's (`uniform.raw.load2`).
    pub key: &'static str,
    /// The pairs of cases; the first names the width in statements.
    pub pairs: &'static [(&'static str, &'static str)],
}

/// A question asked at several widths.
#[derive(Clone, Copy, Debug)]
pub struct GroupRule {
    /// The question's id; each width's finding is `id.key`.
    pub id: &'static str,
    /// True for the original suite's findings.
    pub original: bool,
    /// What the ratio answers, as the sentence's opening words.
    pub topic: &'static str,
    /// The widths, narrowest first.
    pub widths: &'static [Width],
    /// Where the question is yes or no (a fast path, coalescing): the least ratio that says
    /// yes, and the words for yes and no. `None` for a question answered by a factor.
    pub holds: Option<(f64, &'static str, &'static str)>,
}

/// One width's answer: its median ratio, each measured pair with its ratio, and whether every
/// pair differs beyond its noise.
struct Answer {
    width: &'static Width,
    value: f64,
    measured: Vec<(&'static str, &'static str, f64)>,
    noise: Option<bool>,
}

/// The questions asked per width, in the order reports print them (after [`super::RULES`]).
pub const GROUPS: &[GroupRule] = &[
    GroupRule {
        id: "uniform.typed",
        original: true,
        topic: "Uniform-address typed loads against per-lane (linear) ones",
        widths: &[
            per_channels("1-channel", "ch1", &TYPED_UNIFORM[0]),
            per_channels("2-channel", "ch2", &TYPED_UNIFORM[1]),
            per_channels("4-channel", "ch4", &TYPED_UNIFORM[2]),
        ],
        holds: Some((
            FAST,
            "a uniform-address fast path",
            "no faster than linear addresses",
        )),
    },
    GroupRule {
        id: "uniform.raw",
        original: true,
        topic: "Uniform-address raw loads against per-lane (linear) ones",
        widths: &[
            Width {
                label: "Load",
                key: "load",
                pairs: &[("raw.load.uniform", "raw.load.linear")],
            },
            Width {
                label: "Load2",
                key: "load2",
                pairs: &[("raw.load2.uniform", "raw.load2.linear")],
            },
            Width {
                label: "Load3",
                key: "load3",
                pairs: &[("raw.load3.uniform", "raw.load3.linear")],
            },
            Width {
                label: "Load4",
                key: "load4",
                pairs: &[("raw.load4.uniform", "raw.load4.linear")],
            },
        ],
        holds: Some((
            FAST,
            "a uniform-address fast path",
            "no faster than linear addresses",
        )),
    },
    GroupRule {
        id: "uniform.structured",
        original: true,
        topic: "Uniform-address structured loads against per-lane (linear) ones",
        widths: &[
            Width {
                label: "float",
                key: "float",
                pairs: &[("structured.float.uniform", "structured.float.linear")],
            },
            Width {
                label: "float2",
                key: "float2",
                pairs: &[("structured.float2.uniform", "structured.float2.linear")],
            },
            Width {
                label: "float4",
                key: "float4",
                pairs: &[("structured.float4.uniform", "structured.float4.linear")],
            },
        ],
        holds: Some((
            FAST,
            "a uniform-address fast path",
            "no faster than linear addresses",
        )),
    },
    GroupRule {
        id: "uniform.texture",
        original: true,
        topic: "Uniform-address texture loads against per-lane (linear) ones",
        widths: &[
            per_channels("1-channel", "ch1", &TEXTURE_UNIFORM[0]),
            per_channels("2-channel", "ch2", &TEXTURE_UNIFORM[1]),
            per_channels("4-channel", "ch4", &TEXTURE_UNIFORM[2]),
        ],
        holds: Some((
            FAST,
            "a uniform-address fast path",
            "no faster than linear addresses",
        )),
    },
    GroupRule {
        id: "typed.coalescing",
        original: true,
        topic: "Linear against random typed loads",
        widths: &[
            per_channels("1-channel", "ch1", &TYPED_COALESCING[0]),
            per_channels("2-channel", "ch2", &TYPED_COALESCING[1]),
            per_channels("4-channel", "ch4", &TYPED_COALESCING[2]),
        ],
        holds: Some((COALESCED, "linear loads coalesce", "no coalescing")),
    },
    GroupRule {
        id: "raw.coalescing",
        original: true,
        topic: "Linear against random raw loads",
        widths: &[
            Width {
                label: "Load",
                key: "load",
                pairs: &[("raw.load.linear", "raw.load.random")],
            },
            Width {
                label: "Load2",
                key: "load2",
                pairs: &[("raw.load2.linear", "raw.load2.random")],
            },
            Width {
                label: "Load3",
                key: "load3",
                pairs: &[("raw.load3.linear", "raw.load3.random")],
            },
            Width {
                label: "Load4",
                key: "load4",
                pairs: &[("raw.load4.linear", "raw.load4.random")],
            },
        ],
        holds: Some((COALESCED, "linear loads coalesce", "no coalescing")),
    },
    GroupRule {
        id: "raw.vs_typed",
        original: true,
        topic: "Raw against typed loads of the same width (linear)",
        widths: &[
            Width {
                label: "4 bytes",
                key: "b4",
                pairs: &[("raw.load.linear", "typed.r32f.linear")],
            },
            Width {
                label: "8 bytes",
                key: "b8",
                pairs: &[("raw.load2.linear", "typed.rg32f.linear")],
            },
            Width {
                label: "16 bytes",
                key: "b16",
                pairs: &[("raw.load4.linear", "typed.rgba32f.linear")],
            },
        ],
        holds: None,
    },
    GroupRule {
        id: "texture.vs_typed",
        original: true,
        topic: "Texture loads against typed buffer loads of the same format (linear)",
        widths: &[
            per_channels("1-channel", "ch1", &TEXTURE_VS_TYPED[0]),
            per_channels("2-channel", "ch2", &TEXTURE_VS_TYPED[1]),
            per_channels("4-channel", "ch4", &TEXTURE_VS_TYPED[2]),
        ],
        holds: None,
    },
    GroupRule {
        id: "cbuffer.vs_typed",
        original: true,
        topic: "Constant buffer loads with a per-lane index against Buffer<RGBA32f> loads",
        widths: &[
            Width {
                label: "linear",
                key: "linear",
                pairs: &[("cbuffer.float4.linear", "typed.rgba32f.linear")],
            },
            Width {
                label: "random",
                key: "random",
                pairs: &[("cbuffer.float4.random", "typed.rgba32f.random")],
            },
        ],
        holds: None,
    },
    GroupRule {
        id: "cbuffer.vs_structured",
        original: true,
        topic: "Constant buffer loads with a per-lane index against StructuredBuffer<float4> loads",
        widths: &[
            Width {
                label: "linear",
                key: "linear",
                pairs: &[("cbuffer.float4.linear", "structured.float4.linear")],
            },
            Width {
                label: "random",
                key: "random",
                pairs: &[("cbuffer.float4.random", "structured.float4.random")],
            },
        ],
        holds: None,
    },
];

/// The least ratio of a uniform-address fast path.
const FAST: f64 = 1.5;

/// The least linear-over-random ratio that is coalescing.
const COALESCED: f64 = 1.5;

/// A width asked by several formats.
const fn per_channels(
    label: &'static str,
    key: &'static str,
    pairs: &'static [(&'static str, &'static str)],
) -> Width {
    Width { label, key, pairs }
}

/// The nine typed formats' uniform and linear loads, one-channel formats first.
const TYPED_UNIFORM: [[(&str, &str); 3]; 3] = [
    [
        ("typed.r8.uniform", "typed.r8.linear"),
        ("typed.r16f.uniform", "typed.r16f.linear"),
        ("typed.r32f.uniform", "typed.r32f.linear"),
    ],
    [
        ("typed.rg8.uniform", "typed.rg8.linear"),
        ("typed.rg16f.uniform", "typed.rg16f.linear"),
        ("typed.rg32f.uniform", "typed.rg32f.linear"),
    ],
    [
        ("typed.rgba8.uniform", "typed.rgba8.linear"),
        ("typed.rgba16f.uniform", "typed.rgba16f.linear"),
        ("typed.rgba32f.uniform", "typed.rgba32f.linear"),
    ],
];

/// The nine texture formats' uniform and linear loads, one-channel formats first.
const TEXTURE_UNIFORM: [[(&str, &str); 3]; 3] = [
    [
        ("tex.load.r8.uniform", "tex.load.r8.linear"),
        ("tex.load.r16f.uniform", "tex.load.r16f.linear"),
        ("tex.load.r32f.uniform", "tex.load.r32f.linear"),
    ],
    [
        ("tex.load.rg8.uniform", "tex.load.rg8.linear"),
        ("tex.load.rg16f.uniform", "tex.load.rg16f.linear"),
        ("tex.load.rg32f.uniform", "tex.load.rg32f.linear"),
    ],
    [
        ("tex.load.rgba8.uniform", "tex.load.rgba8.linear"),
        ("tex.load.rgba16f.uniform", "tex.load.rgba16f.linear"),
        ("tex.load.rgba32f.uniform", "tex.load.rgba32f.linear"),
    ],
];

/// The nine typed formats' linear and random loads, one-channel formats first.
const TYPED_COALESCING: [[(&str, &str); 3]; 3] = [
    [
        ("typed.r8.linear", "typed.r8.random"),
        ("typed.r16f.linear", "typed.r16f.random"),
        ("typed.r32f.linear", "typed.r32f.random"),
    ],
    [
        ("typed.rg8.linear", "typed.rg8.random"),
        ("typed.rg16f.linear", "typed.rg16f.random"),
        ("typed.rg32f.linear", "typed.rg32f.random"),
    ],
    [
        ("typed.rgba8.linear", "typed.rgba8.random"),
        ("typed.rgba16f.linear", "typed.rgba16f.random"),
        ("typed.rgba32f.linear", "typed.rgba32f.random"),
    ],
];

impl GroupRule {
    /// The question's finding and one per width the report measured; or, where it measured no
    /// width, the cases of the first pair of each width.
    pub fn apply(&self, rates: &Rates) -> Result<Vec<Finding>, Vec<String>> {
        let answers: Vec<Answer> = self
            .widths
            .iter()
            .filter_map(|w| answer(w, rates))
            .collect();
        if answers.is_empty() {
            return Err(self
                .widths
                .iter()
                .flat_map(|w| [w.pairs[0].0, w.pairs[0].1])
                .filter(|id| rates.get(id).is_none())
                .map(str::to_string)
                .collect());
        }
        let mut out = vec![self.summary(&answers)];
        out.extend(answers.iter().map(|a| self.width_finding(a, rates)));
        Ok(out)
    }

    /// The words for one width's ratio.
    fn verdict(&self, value: f64) -> String {
        match self.holds {
            Some((at, yes, _)) if value >= at => format!("{yes}, {value:.2}x"),
            Some((_, _, no)) => format!("{no} ({value:.2}x)"),
            None => faster(value),
        }
    }

    /// The finding of one width.
    fn width_finding(&self, a: &Answer, rates: &Rates) -> Finding {
        let (first_a, first_b, _) = a.measured[0];
        let name = |id: &str| rates.get(id).map_or(id.to_string(), |r| r.name.clone());
        let rate = |id: &str| rates.get(id).map_or(String::new(), |r| per_s(r.per_s));
        let mut statement = format!(
            "{}, {}: {}",
            self.topic,
            a.width.label,
            self.verdict(a.value)
        );
        if a.measured.len() > 1 {
            statement.push_str(&format!(", the median of {} formats", a.measured.len()));
            let odd: Vec<String> = a
                .measured
                .iter()
                .filter(|(_, _, v)| (v / a.value).max(a.value / v) > OUTLIER)
                .map(|(x, _, v)| format!("{} {v:.2}x", name(x)))
                .collect();
            if !odd.is_empty() {
                statement.push_str(&format!(" (outlier: {})", odd.join(", ")));
            }
            statement.push('.');
        } else {
            statement.push_str(&format!(
                ", {} ({}) against {} ({}).",
                name(first_a),
                rate(first_a),
                name(first_b),
                rate(first_b)
            ));
        }
        Finding {
            id: format!("{}.{}", self.id, a.width.key),
            statement,
            value: a.value,
            cases: a
                .measured
                .iter()
                .flat_map(|(x, y, _)| [x.to_string(), y.to_string()])
                .collect(),
            beyond_noise: a.noise,
        }
    }

    /// The question's finding: for a yes-or-no question, the widths it holds for and those it
    /// does not, with the largest width's ratio as its value (where the answer is yes for any
    /// width, it is that width's); for a factor, each width's, with their median as its value.
    fn summary(&self, answers: &[Answer]) -> Finding {
        let mut sorted: Vec<&Answer> = answers.iter().collect();
        sorted.sort_by(|x, y| x.value.total_cmp(&y.value));
        let best = match self.holds {
            Some(_) => sorted[sorted.len() - 1],
            None => sorted[(sorted.len() - 1) / 2],
        };
        let values: Vec<f64> = answers.iter().map(|a| a.value).collect();
        let value = match self.holds {
            Some(_) => best.value,
            None => median(&values).unwrap_or(best.value),
        };
        let list = |set: &[&Answer]| {
            set.iter()
                .map(|a| format!("{} {:.2}x", a.width.label, a.value))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let said = match self.holds {
            Some((at, yes, no)) => {
                let (hold, not): (Vec<&Answer>, Vec<&Answer>) =
                    answers.iter().partition(|a| a.value >= at);
                let mut parts = Vec::new();
                if !hold.is_empty() {
                    parts.push(format!("{yes} for {}", list(&hold)));
                }
                if !not.is_empty() {
                    parts.push(format!("{no} for {}", list(&not)));
                }
                parts.join("; ")
            }
            None => {
                let all: Vec<&Answer> = answers.iter().collect();
                let words: Vec<String> = all
                    .iter()
                    .map(|a| format!("{} {}", a.width.label, faster(a.value)))
                    .collect();
                words.join(", ")
            }
        };
        Finding {
            id: self.id.to_string(),
            statement: format!("{}: {said}.", self.topic),
            value,
            cases: best
                .measured
                .iter()
                .flat_map(|(x, y, _)| [x.to_string(), y.to_string()])
                .collect(),
            beyond_noise: best.noise,
        }
    }
}

/// A width's answer, where the report measured at least one of its pairs.
fn answer(width: &'static Width, rates: &Rates) -> Option<Answer> {
    let mut noise = Some(true);
    let measured: Vec<(&'static str, &'static str, f64)> = width
        .pairs
        .iter()
        .filter_map(|&(a, b)| {
            let (ra, rb) = (rates.get(a)?, rates.get(b)?);
            noise = match (noise, beyond_noise(ra, rb)) {
                (Some(all), Some(this)) => Some(all && this),
                _ => None,
            };
            Some((a, b, ra.per_s / rb.per_s))
        })
        .collect();
    let values: Vec<f64> = measured.iter().map(|(_, _, v)| *v).collect();
    let value = median(&values)?;
    Some(Answer {
        width,
        value,
        measured,
        noise,
    })
}

/// The nine formats' linear texture and typed buffer loads, one-channel formats first.
const TEXTURE_VS_TYPED: [[(&str, &str); 3]; 3] = [
    [
        ("tex.load.r8.linear", "typed.r8.linear"),
        ("tex.load.r16f.linear", "typed.r16f.linear"),
        ("tex.load.r32f.linear", "typed.r32f.linear"),
    ],
    [
        ("tex.load.rg8.linear", "typed.rg8.linear"),
        ("tex.load.rg16f.linear", "typed.rg16f.linear"),
        ("tex.load.rg32f.linear", "typed.rg32f.linear"),
    ],
    [
        ("tex.load.rgba8.linear", "typed.rgba8.linear"),
        ("tex.load.rgba16f.linear", "typed.rgba16f.linear"),
        ("tex.load.rgba32f.linear", "typed.rgba32f.linear"),
    ],
];
