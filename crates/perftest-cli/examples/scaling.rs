//! A benchmark of how `render` and `compare` grow with the number of cases: reports of N and
//! 4N cases (copies of the committed H200 report's cases under new ids) are rendered as text
//! and HTML, and compared two and three at a time, each timed as the best of five (in the
//! thread's CPU time where the system has it). Every
//! step must take at most 5 times as long for 4N cases as for N (linear work takes 4 times).
//!
//! Run from the repository's root, in release mode for figures worth quoting:
//! `cargo run --release -p perftest-cli --example scaling [N]` (N defaults to 25,000). Exits 1
//! when a step grows faster than that.

use std::path::Path;
use std::process::ExitCode;
use std::time::Duration;

use perftest_cli::compare::render;
use perftest_cli::export::{exporter, ExportFormat};
use perftest_cli::outliers::fleet;
use perftest_cli::report::Report;
use perftest_cli::report_file::load_report;
use perftest_report::fleet::{Fleet, Member};
use perftest_report::outliers::{CaseNames, OutlierRule};
use perftest_report::pair::compare;

/// The largest growth allowed from N to 4N cases.
const MAX_RATIO: f64 = 5.0;

fn main() -> ExitCode {
    let n: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(25_000);
    let base = match load_report(Path::new("results/nvidia-h200.json")) {
        Ok(report) => report,
        Err(e) => {
            eprintln!("scaling: {e} (run it from the repository's root)");
            return ExitCode::FAILURE;
        }
    };
    let (small, large) = (with_cases(&base, n), with_cases(&base, 4 * n));
    println!(
        "step                 {n:>9} cases  {:>9} cases  ratio",
        4 * n
    );
    let mut worst: f64 = 0.0;
    for (name, step) in STEPS {
        let (a, b) = (best_of_five(|| step(&small)), best_of_five(|| step(&large)));
        let ratio = b.as_secs_f64() / a.as_secs_f64().max(1e-9);
        worst = worst.max(ratio);
        println!(
            "{name:<20} {:>13.3} s  {:>13.3} s  {ratio:.2}",
            a.as_secs_f64(),
            b.as_secs_f64()
        );
    }
    if worst > MAX_RATIO {
        eprintln!(
            "scaling: a step grew {worst:.2} times for 4 times the cases (at most {MAX_RATIO})"
        );
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}

/// A step timed: its name and what it does with a report of the size measured.
type Step = (&'static str, fn(&Report));

/// The steps timed.
const STEPS: [Step; 4] = [
    ("render text", |r| {
        let _ = exporter(ExportFormat::Text).serialize(r);
    }),
    ("render html", |r| {
        let _ = exporter(ExportFormat::Html).serialize(r);
    }),
    ("compare two", |r| {
        let _ = render(&compare(r, r), "a", "b");
    }),
    ("compare three", |r| {
        let mut names = CaseNames::default();
        let members = ["a", "b", "c"].map(|label| Member::of(r, label, &mut names));
        let fleet = Fleet::of(members.to_vec(), &names, OutlierRule::default());
        drop(fleet::render(&fleet));
    }),
];

/// `base` with `n` cases: its own, repeated under new ids.
fn with_cases(base: &Report, n: usize) -> Report {
    let mut report = base.clone();
    report.cases = (0..n)
        .map(|k| {
            let mut case = base.cases[k % base.cases.len()].clone();
            case.id = format!("{}.n{k}", case.id);
            case
        })
        .collect();
    report
}

/// The shortest of five runs of `step` (a shared machine slows some), in the thread's CPU time
/// where the system tells it (other processes on the machine then count for less).
fn best_of_five(mut step: impl FnMut()) -> Duration {
    (0..5)
        .map(|_| {
            let start = now();
            step();
            now().saturating_sub(start)
        })
        .min()
        .unwrap_or_default()
}

/// The CPU time this thread has used.
#[cfg(unix)]
fn now() -> Duration {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `t` is a valid timespec for the call to write; the clock id is a constant.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) };
    Duration::new(
        u64::try_from(t.tv_sec).unwrap_or(0),
        u32::try_from(t.tv_nsec).unwrap_or(0),
    )
}

/// The time since the first call (no thread CPU clock here).
#[cfg(not(unix))]
fn now() -> Duration {
    static START: std::sync::OnceLock<std::time::Instant> = std::sync::OnceLock::new();
    START.get_or_init(std::time::Instant::now).elapsed()
}
