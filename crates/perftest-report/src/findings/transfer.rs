//! The transfer suite's findings: where per-frame data should live and how to move it, and what
//! a launch costs.

use perftest_cases::families::launches::{fixed_cost, LARGE_DISPATCH};

use super::rates::{Rate, Rates};
use super::rules::{faster, Rule};
use super::types::{Advice, Finding};

/// The transfer suite's ratio findings (same sizes, so a ratio of transfers per second is a
/// ratio of bandwidths).
pub const TRANSFER_RULES: &[Rule] = &[
    Rule {
        id: "upload.mapped_vs_staged",
        a: "xfer.copy.upload.mapped_write.64kb",
        b: "xfer.copy.upload.staged.64kb",
        original: false,
        topic: "Uploading 64 KB by writing mapped device-local memory against a staging buffer and a copy",
        verdict: faster,
    },
    Rule {
        id: "upload.scattered",
        a: "xfer.copy.upload.mapped_scattered.1mb",
        b: "xfer.copy.upload.mapped_write.1mb",
        original: false,
        topic: "Scattered 4-byte host writes against in-order writes into mapped device-local memory (1 MB)",
        verdict: faster,
    },
    Rule {
        id: "readback.mapped_vs_cached",
        a: "xfer.copy.readback.mapped_read.1mb",
        b: "xfer.copy.readback.cached_read.1mb",
        original: false,
        topic: "Reading 1 MB out of mapped device-local memory against a copy into host-cached memory read by the host",
        verdict: faster,
    },
    Rule {
        id: "copy.transfer_queue",
        a: "xfer.copy.upload.transfer_queue.256mb",
        b: "xfer.copy.upload.compute_queue.256mb",
        original: false,
        topic: "Uploading 256 MB with vkCmdCopyBuffer on a transfer-only queue against the compute queue",
        verdict: faster,
    },
    Rule {
        id: "copy.shader",
        a: "xfer.copy.upload.shader.256mb",
        b: "xfer.copy.upload.compute_queue.256mb",
        original: false,
        topic: "Uploading 256 MB with a compute-shader copy against vkCmdCopyBuffer",
        verdict: faster,
    },
    Rule {
        id: "memload.host",
        a: "xfer.memload.host.256mb.linear",
        b: "xfer.memload.device.256mb.linear",
        original: false,
        topic: "Shader loads from uncached host memory against device-local memory (256 MB, linear)",
        verdict: faster,
    },
    Rule {
        id: "memload.bar",
        a: "xfer.memload.bar.256mb.linear",
        b: "xfer.memload.device.256mb.linear",
        original: false,
        topic: "Shader loads from mapped device-local memory against device-local memory (256 MB, linear)",
        verdict: faster,
    },
];

/// The value findings: the best bandwidth each way, and the launch costs.
pub fn value_findings(rates: &Rates) -> Vec<Finding> {
    let mut out: Vec<Finding> = ["upload", "readback"]
        .into_iter()
        .filter_map(|way| best_bandwidth(rates, way))
        .collect();
    if let Some(submit) = rates.get("xfer.launch.submit_wait") {
        let us = 1e6 / submit.per_s;
        out.push(Finding {
            id: "launch.submit".to_string(),
            statement: format!(
                "A submission of a one-group dispatch takes {us:.1} us from vkQueueSubmit until \
                 the host sees its fence ({}).",
                submit.name
            ),
            value: us,
            cases: vec!["xfer.launch.submit_wait".to_string()],
            beyond_noise: None,
        });
    }
    out.extend(fixed_cost_finding(rates));
    out
}

/// The fastest transfer of `way` (`upload` or `readback`) at the largest size measured.
fn best_bandwidth(rates: &Rates, way: &str) -> Option<Finding> {
    let prefix = format!("xfer.copy.{way}.");
    let sizes = ["1gb", "256mb", "16mb"];
    let (size, best) = sizes.iter().find_map(|size| {
        let suffix = format!(".{size}");
        let best = rates
            .matching(|id| id.starts_with(&prefix) && id.ends_with(&suffix))
            .filter_map(|(id, r)| r.bytes_per_s.map(|b| (id, r, b)))
            .max_by(|a, b| a.2.total_cmp(&b.2))?;
        Some((*size, best))
    })?;
    let (id, rate, bytes): (&str, &Rate, f64) = best;
    Some(Finding {
        id: format!("{way}.bandwidth"),
        statement: format!(
            "The fastest {way} of {} is {} at {:.1} GB/s.",
            size.to_uppercase()
                .replace("GB", " GB")
                .replace("MB", " MB"),
            rate.name,
            bytes / 1e9
        ),
        value: bytes / 1e9,
        cases: vec![id.to_string()],
        beyond_noise: None,
    })
}

/// What a dispatch pays once, from dependent dispatches of one and of [`LARGE_DISPATCH`]
/// groups.
fn fixed_cost_finding(rates: &Rates) -> Option<Finding> {
    let (one, many) = (
        rates.get("xfer.launch.dispatch.1")?,
        rates.get("xfer.launch.dispatch.1024")?,
    );
    let ns = fixed_cost(1e9 / one.per_s, 1e9 / many.per_s, LARGE_DISPATCH)?;
    Some(Finding {
        id: "launch.fixed_cost".to_string(),
        statement: format!(
            "A dependent dispatch pays {:.2} us once, whatever its size ({} {}, {} {}).",
            ns / 1e3,
            one.name,
            per_launch(one),
            many.name,
            per_launch(many)
        ),
        value: ns,
        cases: vec![
            "xfer.launch.dispatch.1".to_string(),
            "xfer.launch.dispatch.1024".to_string(),
        ],
        beyond_noise: None,
    })
}

/// A launch's time, in microseconds.
fn per_launch(rate: &Rate) -> String {
    format!("{:.2} us", 1e6 / rate.per_s)
}

/// The advice the transfer findings give, each with its factor.
pub fn advice(get: &dyn Fn(&str) -> Option<Finding>) -> Vec<(f64, Advice)> {
    let mut out = Vec::new();
    let mut push = |id: &str, factor: f64, text: String| {
        out.push((
            factor,
            Advice {
                text,
                findings: vec![id.to_string()],
            },
        ));
    };
    if let Some(f) = get("upload.mapped_vs_staged") {
        if f.value >= 1.0 {
            push(f.id.as_str(), f.value, format!("For per-frame uploads (64 KB), write mapped device-local memory directly: {:.1}x faster than a staging buffer and a copy.", f.value));
        } else {
            push(f.id.as_str(), 1.0 / f.value, format!("For per-frame uploads (64 KB), use a staging buffer and a copy: {:.1}x faster than writing mapped device-local memory.", 1.0 / f.value));
        }
    }
    let slower = [
        ("readback.mapped_vs_cached", "Never read mapped device-local memory from the host: {r} slower than a copy into host-cached memory read there."),
        ("upload.scattered", "Write mapped device-local memory in order, whole lines at a time: scattered 4-byte writes are {r} slower."),
        ("memload.host", "Keep data shaders read in device-local memory: loads from host memory are {r} slower."),
        ("memload.bar", "Shader loads from mapped (host-visible) device-local memory are {r} slower than from device-local memory: keep it for data the host writes."),
    ];
    for (id, text) in slower {
        if let Some(f) = get(id).filter(|f| f.value > 0.0 && f.value < 1.0) {
            let r = 1.0 / f.value;
            push(id, r, text.replace("{r}", &format!("{r:.1}x")));
        }
    }
    out
}
