//! The throughput of every measured case of a report, with its interval, looked up by id.

use std::cell::RefCell;
use std::collections::{BTreeSet, HashMap};

use crate::derived::ReportFigures;
use crate::schema::Report;

/// A measured case's throughput.
#[derive(Clone, Debug, PartialEq)]
pub struct Rate {
    /// The case's display name.
    pub name: String,
    /// Loads (or the case's unit) per second.
    pub per_s: f64,
    /// Bytes per second.
    pub bytes_per_s: Option<f64>,
    /// Bytes one load reads.
    pub bytes_per_load: u32,
    /// Where the throughput lies with 95% confidence (low, high), where known.
    pub interval: Option<(f64, f64)>,
}

/// The throughputs of a report's measured cases, by case id.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Rates {
    by_id: HashMap<String, Rate>,
}

impl Rates {
    /// The throughputs of `report`'s measured cases.
    pub fn of(report: &Report) -> Rates {
        Rates::with(report, &report.derived_all())
    }

    /// The throughputs of `report`'s measured cases from their `derived` figures
    /// ([`ReportFigures::derived_all`] of the same report).
    pub fn with(report: &Report, derived: &[Option<crate::derived::Derived>]) -> Rates {
        let mut by_id = HashMap::new();
        for (case, derived) in report.cases.iter().zip(derived.iter().copied()) {
            let Some(d) = derived else { continue };
            let Some(per_s) = d.loads_per_s else { continue };
            // The interval is of the time per workgroup: the throughput's bounds are its
            // inverse, scaled like the figure itself.
            let interval = d
                .interval
                .and_then(|i| {
                    let scale = per_s * d.ns_per_group;
                    (i.low > 0.0 && i.high > 0.0).then(|| (scale / i.high, scale / i.low))
                })
                .or_else(|| source_interval(per_s, case.source_cv?));
            by_id.insert(
                case.id.clone(),
                Rate {
                    name: case.name.clone(),
                    per_s,
                    bytes_per_s: d.bytes_per_s,
                    bytes_per_load: case.bytes_per_load,
                    interval,
                },
            );
        }
        Rates { by_id }
    }

    /// The throughput of case `id`, when measured. The lookup is recorded while the
    /// selection of [`crate::answers`] records.
    pub fn get(&self, id: &str) -> Option<&Rate> {
        note(id);
        self.by_id.get(id)
    }

    /// The measured cases whose id is `wanted`, by id (each recorded while the selection of
    /// [`crate::answers`] records; the ids not wanted are not).
    pub fn matching<'a: 'w, 'w>(
        &'a self,
        wanted: impl Fn(&str) -> bool + 'w,
    ) -> impl Iterator<Item = (&'a str, &'a Rate)> + 'w {
        self.by_id
            .iter()
            .filter(move |(id, _)| wanted(id))
            .map(|(id, r)| {
                note(id);
                (id.as_str(), r)
            })
    }
}

thread_local! {
    /// The case ids looked up on this thread while [`recording`] runs; `None` otherwise.
    static READS: RefCell<Option<BTreeSet<String>>> = const { RefCell::new(None) };
}

/// Runs `f`, and returns its value with every case id that [`Rates`] looked up on this
/// thread meanwhile (what `--suite answers` selects).
pub(crate) fn recording<T>(f: impl FnOnce() -> T) -> (T, BTreeSet<String>) {
    READS.with(|r| *r.borrow_mut() = Some(BTreeSet::new()));
    let value = f();
    let read = READS.with(|r| r.borrow_mut().take()).unwrap_or_default();
    (value, read)
}

/// Records a lookup of `id` while [`recording`] runs.
fn note(id: &str) {
    READS.with(|r| {
        if let Some(read) = r.borrow_mut().as_mut() {
            read.insert(id.to_string());
        }
    });
}

/// Frames behind each figure of the tables that report a spread (perftest-vk and the Direct3D
/// 12 port both time 30 frames per case).
const SOURCE_FRAMES: f64 = 30.0;

/// The 95% interval of a published figure whose source reports the coefficient of variation
/// `cv` of its frames: the figure is an average of [`SOURCE_FRAMES`] of them, so it lies within
/// 1.96 standard errors. `None` where that reaches zero (a spread too wide to bound).
fn source_interval(per_s: f64, cv: f64) -> Option<(f64, f64)> {
    let reach = 1.96 * cv / SOURCE_FRAMES.sqrt();
    (cv.is_finite() && reach < 1.0).then_some((per_s * (1.0 - reach), per_s * (1.0 + reach)))
}

/// Whether two throughputs differ beyond their noise: both intervals known and disjoint.
/// `None` when either has no interval.
pub fn beyond_noise(a: &Rate, b: &Rate) -> Option<bool> {
    let (a_low, a_high) = a.interval?;
    let (b_low, b_high) = b.interval?;
    Some(a_high < b_low || b_high < a_low)
}

/// Loads per second in words: `12.3 G/s`.
pub fn per_s(value: f64) -> String {
    if value >= 1e9 {
        format!("{:.1} G/s", value / 1e9)
    } else if value >= 1e6 {
        format!("{:.1} M/s", value / 1e6)
    } else {
        format!("{value:.0}/s")
    }
}
