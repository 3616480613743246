//! The results gallery is generated: each committed report's Markdown (`results/*.md`, which
//! the book's device chapters include) is what `perftest render --format markdown` makes of its
//! JSON today, each H100-vs-H200 comparison (`results/h100-vs-h200/*.txt`) is what `perftest
//! compare` prints for the two committed reports, and every change the H100-vs-H200 chapter
//! quotes is in one of those comparisons.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // test code

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use perftest_cli::compare::render;
use perftest_cli::export::{exporter, ExportFormat};
use perftest_cli::report_file::load_report;
use perftest_report::pair::compare;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

#[test]
fn every_committed_report_renders_to_its_committed_markdown() {
    let results = root().join("results");
    let mut checked = 0;
    for entry in std::fs::read_dir(&results).unwrap() {
        let json = entry.unwrap().path();
        let md = json.with_extension("md");
        if json.extension().is_none_or(|e| e != "json") || !md.is_file() {
            continue;
        }
        let report = load_report(&json).unwrap();
        let made = exporter(ExportFormat::Markdown).serialize(&report).unwrap();
        let committed = std::fs::read(&md).unwrap();
        assert!(
            made == committed,
            "{} is not what `perftest render {} --format markdown` writes today; render it again",
            md.display(),
            json.display()
        );
        checked += 1;
    }
    assert!(checked >= 9, "only {checked} reports with Markdown");
}

/// The suites' file suffixes and the comparison files' names.
const SUITES: [(&str, &str); 5] = [
    ("", "original"),
    ("-modern", "modern"),
    ("-texture", "texture"),
    ("-memory", "memory"),
    ("-graphics", "graphics"),
];

#[test]
fn the_h100_vs_h200_comparisons_are_what_compare_prints() {
    for (suffix, name) in SUITES {
        let a_label = format!("results/nvidia-h200{suffix}.json");
        let b_label = format!("results/nvidia-h100{suffix}.json");
        let a = load_report(&root().join(&a_label)).unwrap();
        let b = load_report(&root().join(&b_label)).unwrap();
        let made = render(&compare(&a, &b), &a_label, &b_label);
        let file = root().join(format!("results/h100-vs-h200/{name}.txt"));
        let committed = std::fs::read_to_string(&file).unwrap();
        assert!(
            made == committed,
            "{} is not what `perftest compare {a_label} {b_label}` prints today",
            file.display()
        );
    }
}

#[test]
fn the_h100_vs_h200_chapter_quotes_the_comparisons() {
    let chapter = std::fs::read_to_string(root().join("docs/src/gallery/h100-vs-h200.md")).unwrap();
    let comparisons: String = SUITES
        .iter()
        .map(|(_, name)| {
            std::fs::read_to_string(root().join(format!("results/h100-vs-h200/{name}.txt")))
                .unwrap()
        })
        .collect();
    // Every signed change (`-11.87%`) and every median (`0.36%`) the chapter quotes.
    let mut quoted = 0;
    for word in chapter.split(|c: char| c.is_whitespace() || "(),`".contains(c)) {
        let number = word.trim_end_matches(['.', ';', ':']);
        let is_change = number.ends_with('%')
            && number.contains('.')
            && number[..number.len() - 1]
                .trim_start_matches(['+', '-'])
                .parse::<f64>()
                .is_ok();
        if is_change {
            assert!(
                comparisons.contains(number),
                "the chapter quotes {number}, which no comparison prints"
            );
            quoted += 1;
        }
    }
    assert!(quoted >= 15, "only {quoted} figures quoted");
}

/// The first launch on a fresh H100 and H200 (`results/nvidia-*-probe/first-launch.txt`): in
/// every run, each of the engine probe's six rankings holds the full run's two fastest
/// candidates (by `results/nvidia-*.json`) and names the full run's winner first.
#[test]
fn the_first_launches_rank_like_the_full_runs() {
    for gpu in ["h100", "h200"] {
        let full = load_report(&root().join(format!("results/nvidia-{gpu}.json"))).unwrap();
        let text = std::fs::read_to_string(
            root().join(format!("results/nvidia-{gpu}-probe/first-launch.txt")),
        )
        .unwrap();
        let launches = text.matches("=== launch").count();
        assert_eq!(launches, 3, "{gpu}: {launches} launches");
        let mut rankings = 0;
        for line in text.lines() {
            // ` 4-byte loads, linear : StructuredBuffer<float>.Load 2873 > ByteAddressBuffer.Load 2853 (Gload/s)`
            let Some((head, list)) = line.split_once(" : ").or_else(|| line.split_once(": "))
            else {
                continue;
            };
            let Some(pattern) = head
                .trim()
                .strip_suffix(" loads, uniform")
                .map(|_| "uniform")
                .or_else(|| head.trim().ends_with("loads, linear").then_some("linear"))
                .or_else(|| head.trim().ends_with("loads, random").then_some("random"))
            else {
                continue;
            };
            let bytes: u32 = head.trim().split('-').next().unwrap().parse().unwrap();
            let measured: Vec<&str> = list
                .trim_end_matches(" (Gload/s)")
                .split(" > ")
                .map(|c| c.rsplit_once(' ').unwrap().0)
                .collect();
            // The full run's candidates of this ranking (the quick profile's families), fastest
            // first.
            let mut candidates: Vec<(f64, String)> = full
                .cases
                .iter()
                .filter(|c| c.bytes_per_load == bytes && c.id.ends_with(&format!(".{pattern}")))
                .filter(|c| {
                    perftest_cases::QUICK_PROFILE
                        .iter()
                        .any(|q| c.id == format!("{q}.{pattern}"))
                })
                .filter_map(|c| {
                    let m = c.measurement.as_ref()?;
                    let mut s = m.samples_ns.clone();
                    s.sort_by(f64::total_cmp);
                    let ns = s[s.len() / 2] / m.groups as f64;
                    Some((
                        ns,
                        c.name.trim_end_matches(&format!(" {pattern}")).to_string(),
                    ))
                })
                .collect();
            candidates.sort_by(|a, b| a.0.total_cmp(&b.0));
            assert!(candidates.len() >= 2, "{gpu} {bytes} {pattern}");
            assert_eq!(measured[0], candidates[0].1, "{gpu}: {line}");
            assert!(
                measured.contains(&candidates[1].1.as_str()),
                "{gpu}: {line}"
            );
            rankings += 1;
        }
        assert_eq!(
            rankings, 18,
            "{gpu}: six rankings in each of three launches"
        );
    }
}

/// The time per workgroup a report prints for each case (by id), for the cases it derives one for.
fn figures(path: &Path) -> HashMap<String, f64> {
    use perftest_cli::report::ReportFigures;
    let report = load_report(path).unwrap();
    let derived = report.derived_all();
    report
        .cases
        .iter()
        .zip(derived)
        .filter_map(|(case, d)| Some((case.id.clone(), d?.ns_per_group)))
        .collect()
}

/// The per-case changes between two reports' [`figures`], sorted (|B/A - 1| in percent).
fn changes(a: &HashMap<String, f64>, b: &HashMap<String, f64>) -> Vec<f64> {
    let mut out: Vec<f64> = a
        .iter()
        .filter_map(|(id, x)| Some((x / b.get(id)? - 1.0).abs() * 100.0))
        .collect();
    out.sort_by(f64::total_cmp);
    out
}

/// "lo-hi" of `values` with `decimals`.
fn span(values: &[f64], decimals: usize) -> String {
    let (lo, hi) = span_ends(values);
    format!("{lo:.decimals$}-{hi:.decimals$}")
}

/// The stability tables of `results/nvidia-h200-stability/{v3,fastest/{a,b,c,d},interval,
/// dispatch-length}/README.md` and `results/nvidia-h100-stability/{,fastest/}README.md` are what
/// their files hold: median, 90th percentile and max per-case change over each row's pairs of
/// runs, and the wall times.
#[test]
fn the_stability_tables_are_what_their_runs_hold() {
    let options: &[&str] = &["samples-60", "target-5"];
    let tables: [(&str, &[&str], &[&str]); 9] = [
        (
            "results/nvidia-h200-stability/v3",
            &["before", "after"],
            &["samples-60", "target-5", "target-40"],
        ),
        ("results/nvidia-h100-stability", &["before", "after"], &[]),
        (
            "results/nvidia-h200-stability/fastest/a",
            &["before", "after", "later"],
            options,
        ),
        (
            "results/nvidia-h200-stability/fastest/b",
            &["before", "after", "first"],
            options,
        ),
        ("results/nvidia-h200-stability/fastest/c", &["run"], &[]),
        (
            "results/nvidia-h200-stability/fastest/d",
            &["after", "later"],
            options,
        ),
        (
            "results/nvidia-h100-stability/fastest",
            &["before", "after"],
            &[],
        ),
        ("results/nvidia-h200-stability/interval", &["run"], &[]),
        (
            "results/nvidia-h200-stability/dispatch-length",
            &[
                "a-d2", "a-d8", "b-d2", "b-d4s3", "b-d4", "c-d2", "c-d1", "c-d05",
            ],
            &[],
        ),
    ];
    for (dir, groups, options) in tables {
        stability_table(dir, groups, options);
    }
}

/// Checks the README of `dir`: a row for the pairs of each group's runs (`{group}-1.json`,
/// `-2`, ... as many as there are), one for the "after" runs against each of `options`
/// (`{option}.json`), and each group's wall times from outside (`wall.txt`) and from `-v`.
fn stability_table(dir: &str, groups: &[&str], options: &[&str]) {
    let dir = root().join(dir);
    let readme = std::fs::read_to_string(dir.join("README.md")).unwrap();
    let runs = |prefix: &str| -> Vec<PathBuf> {
        (1..)
            .map(|i| dir.join(format!("{prefix}-{i}.json")))
            .take_while(|p| p.is_file())
            .collect()
    };
    let pairs_of = |files: &[PathBuf]| -> Vec<(PathBuf, PathBuf)> {
        let mut pairs = Vec::new();
        for i in 0..files.len() {
            for j in i + 1..files.len() {
                pairs.push((files[i].clone(), files[j].clone()));
            }
        }
        pairs
    };
    let options: Vec<PathBuf> = options
        .iter()
        .map(|o| dir.join(format!("{o}.json")))
        .collect();
    let against_options: Vec<(PathBuf, PathBuf)> = runs("after")
        .into_iter()
        .flat_map(|a| options.iter().map(move |o| (a.clone(), o.clone())))
        .collect();
    let mut rows: Vec<Vec<(PathBuf, PathBuf)>> =
        groups.iter().map(|g| pairs_of(&runs(g))).collect();
    rows.push(against_options);
    // Each report is read once, however many pairs it is in.
    let mut loaded: HashMap<PathBuf, HashMap<String, f64>> = HashMap::new();
    for pairs in rows.into_iter().filter(|p| !p.is_empty()) {
        let stats: Vec<Vec<f64>> = pairs
            .iter()
            .map(|(a, b)| {
                for path in [a, b] {
                    if !loaded.contains_key(path) {
                        loaded.insert(path.clone(), figures(path));
                    }
                }
                changes(&loaded[a], &loaded[b])
            })
            .collect();
        let pick = |f: &dyn Fn(&[f64]) -> f64| stats.iter().map(|c| f(c)).collect::<Vec<_>>();
        let median = pick(&|c| c[c.len() / 2]);
        let p90 = pick(&|c| c[c.len() * 9 / 10]);
        let max = pick(&|c| c[c.len() - 1]);
        let cells = format!(
            "| {} | {}% | {}% | {}% |",
            pairs.len(),
            span(&median, 4),
            span(&p90, 4),
            span(&max, 3)
        );
        assert!(
            readme.contains(&cells),
            "{}: the README lacks {cells}",
            dir.display()
        );
    }
    // Wall times: from outside the process (wall.txt) and the run's own `-v` line.
    let wall = std::fs::read_to_string(dir.join("wall.txt")).unwrap();
    for group in groups {
        let outside: Vec<f64> = wall
            .lines()
            .filter(|l| l.starts_with(&format!("{group}-")))
            .map(|l| l.rsplit_once("wall_ms=").unwrap().1.parse::<f64>().unwrap() / 1e3)
            .collect();
        let inside: Vec<f64> = runs(group)
            .iter()
            .map(|json| {
                let err = std::fs::read_to_string(json.with_extension("err")).unwrap();
                let line = err.lines().find(|l| l.contains("wall time")).unwrap();
                let ms = line
                    .split("wall time ")
                    .nth(1)
                    .unwrap()
                    .split(' ')
                    .next()
                    .unwrap();
                ms.parse::<f64>().unwrap() / 1e3
            })
            .collect();
        let cells = format!("| {} s | {} s |", span(&outside, 2), span(&inside, 2));
        assert!(
            readme.contains(&cells),
            "{}: the README lacks {cells}",
            dir.display()
        );
    }
}

/// The graphics runs' second runs are what `perftest compare` prints against the first.
#[test]
fn the_graphics_run_to_run_comparisons_are_what_compare_prints() {
    for gpu in ["h200", "h100"] {
        let a_label = format!("results/nvidia-{gpu}-graphics.json");
        let b_label = format!("results/nvidia-{gpu}-graphics/second-run.json");
        let a = load_report(&root().join(&a_label)).unwrap();
        let b = load_report(&root().join(&b_label)).unwrap();
        let made = render(&compare(&a, &b), &a_label, &b_label);
        let file = root().join(format!("results/nvidia-{gpu}-graphics/run-to-run.txt"));
        assert!(
            made == std::fs::read_to_string(&file).unwrap(),
            "{} is not what `perftest compare {a_label} {b_label}` prints today",
            file.display()
        );
    }
}

/// Per resource family of the fragment-shader cases: the medians of the compute twins' and the
/// fragment cases' Gload/s and of their ratio, and the ratio's range, on the H200; the
/// median ratio on the H100. One Markdown row per family, as the graphics chapter shows them.
fn fragment_table() -> Vec<String> {
    use perftest_cli::report::Derived;
    let median = |mut v: Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    let pairs = |gpu: &str| {
        let report =
            load_report(&root().join(format!("results/nvidia-{gpu}-graphics.json"))).unwrap();
        let rate = |id: &str| {
            let case = report.cases.iter().find(|c| c.id == id).unwrap();
            Derived::compute(case, None)
                .and_then(|d| d.loads_per_s)
                .unwrap()
        };
        let mut by_family: Vec<(String, Vec<(f64, f64)>)> = Vec::new();
        for case in &report.cases {
            let Some(twin) = case.twin.as_deref() else {
                continue;
            };
            let family = report
                .cases
                .iter()
                .find(|c| c.id == twin)
                .unwrap()
                .family
                .clone();
            let pair = (rate(twin), rate(&case.id));
            match by_family.iter_mut().find(|(f, _)| *f == family) {
                Some((_, v)) => v.push(pair),
                None => by_family.push((family, vec![pair])),
            }
        }
        by_family
    };
    let (h200, h100) = (pairs("h200"), pairs("h100"));
    h200.iter()
        .zip(&h100)
        .map(|((family, v), (_, w))| {
            let title = perftest_cases::family(family).unwrap().title();
            let ratios: Vec<f64> = v.iter().map(|(c, f)| f / c).collect();
            let lo = ratios.iter().copied().fold(f64::INFINITY, f64::min);
            let hi = ratios.iter().copied().fold(0.0, f64::max);
            format!(
                "| {title} | {:.0} | {:.1} | {:.3} | {lo:.3}-{hi:.3} | {:.3} |",
                median(v.iter().map(|p| p.0 / 1e9).collect()),
                median(v.iter().map(|p| p.1 / 1e9).collect()),
                median(ratios.clone()),
                median(w.iter().map(|(c, f)| f / c).collect()),
            )
        })
        .collect()
}

#[test]
fn the_graphics_chapter_shows_its_runs() {
    let chapter = std::fs::read_to_string(root().join("docs/src/suites/graphics.md")).unwrap();
    let rows = fragment_table();
    assert_eq!(rows.len(), 6);
    for row in &rows {
        assert!(
            chapter.contains(row.as_str()),
            "the graphics chapter lacks the row\n{row}\n(every row today:\n{})",
            rows.join("\n")
        );
    }
    // Every figure the chapter quotes in Gload/s, Gvertex/s or GB/s is in one of the runs'
    // Markdown tables.
    let tables: String = ["h200", "h100"]
        .iter()
        .map(|g| {
            std::fs::read_to_string(root().join(format!("results/nvidia-{g}-graphics.md"))).unwrap()
        })
        .collect();
    let words: Vec<&str> = chapter.split_whitespace().collect();
    let mut quoted = 0;
    for pair in words.windows(2) {
        if ["Gload/s", "Gsample/s", "Gvertex/s"]
            .contains(&pair[1].trim_end_matches(['.', ',', ';', ')']))
        {
            let number = pair[0].trim_start_matches('(');
            if number.parse::<f64>().is_ok() {
                assert!(
                    tables.contains(&format!("| {number} |")),
                    "the chapter quotes {number} {}, which no graphics table holds",
                    pair[1]
                );
                quoted += 1;
            }
        }
    }
    assert!(quoted >= 8, "only {quoted} figures quoted");
    // Every signed change it quotes is in one of the graphics comparisons.
    let comparisons: String = [
        "results/nvidia-h200-graphics/run-to-run.txt",
        "results/nvidia-h100-graphics/run-to-run.txt",
        "results/h100-vs-h200/graphics.txt",
    ]
    .iter()
    .map(|f| std::fs::read_to_string(root().join(f)).unwrap())
    .collect();
    let mut changes = 0;
    for word in chapter.split(|c: char| c.is_whitespace() || "(),`".contains(c)) {
        let number = word.trim_end_matches(['.', ';', ':']);
        if number.starts_with(['+', '-']) && number.ends_with('%') {
            assert!(
                comparisons.contains(number),
                "the chapter quotes {number}, which no graphics comparison prints"
            );
            changes += 1;
        }
    }
    assert!(changes >= 3, "only {changes} changes quoted");
}

/// What the measurement chapter says of the intervals on the H200 is what the twelve runs of
/// `results/nvidia-h200-stability/fastest/c/` give: how wide they are, and how many of the
/// changes between the runs `perftest compare` finds beyond noise, and in which cases.
#[test]
fn the_precision_section_is_what_the_twelve_runs_give() {
    use perftest_cli::report::ReportFigures;
    let chapter = std::fs::read_to_string(root().join("docs/src/measurement.md")).unwrap();
    let chapter = chapter.split_whitespace().collect::<Vec<_>>().join(" ");
    let dir = root().join("results/nvidia-h200-stability/fastest/c");
    let reports: Vec<_> = (1..=12)
        .map(|i| load_report(&dir.join(format!("run-{i}.json"))).unwrap())
        .collect();
    // How far the interval reaches from the figure, in percent of it, over every case of every
    // run.
    let mut widths: Vec<f64> = reports
        .iter()
        .flat_map(|r| r.derived_all())
        .flatten()
        .filter_map(|d| d.interval?.reach_share(d.ns_per_group))
        .map(|share| share * 100.0)
        .collect();
    widths.sort_by(f64::total_cmp);
    let n = widths.len();
    let quoted = format!(
        "{n} case figures, in `results/nvidia-h200-stability/fastest/c/`), the interval reached \
         {:.3}% from the figure in the median case and {:.3}% at the 90th percentile",
        widths[n / 2],
        widths[n * 9 / 10]
    );
    assert!(
        chapter.contains(&quoted.replace("1656", "1,656")),
        "the chapter should say: {quoted}"
    );
    // Beyond noise, over the 66 pairs of runs.
    let mut apart = 0;
    let mut judged = 0;
    let mut by_case: HashMap<String, usize> = HashMap::new();
    for (i, a) in reports.iter().enumerate() {
        for b in &reports[i + 1..] {
            for c in compare(a, b).cases {
                if let Some(beyond) = c.beyond_noise {
                    judged += 1;
                    if beyond {
                        apart += 1;
                        *by_case.entry(c.name).or_default() += 1;
                    }
                }
            }
        }
    }
    let share = format!("{:.2}%", apart as f64 / judged as f64 * 100.0);
    let quoted =
        format!("{apart} of the {judged} case changes between those twelve runs ({share})");
    assert!(
        chapter.contains(&quoted.replace("9108", "9,108")),
        "the chapter should say: {quoted}"
    );
    let mut top: Vec<(usize, String)> = by_case.into_iter().map(|(k, v)| (v, k)).collect();
    top.sort_by(|x, y| y.cmp(x));
    let three: usize = top.iter().take(3).map(|t| t.0).sum();
    assert!(chapter.contains(&format!("{three} of them in three cases")));
    // The three, named as the chapter names them: `Texture2D<A>`, `<B>` and `<C>.Sample(...)`.
    let formats: Vec<&str> = top
        .iter()
        .take(3)
        .map(|(_, name)| {
            name.strip_prefix("Texture2D")
                .and_then(|n| n.strip_suffix(".Sample(nearest) uniform"))
                .unwrap_or_else(|| panic!("{name}"))
        })
        .collect();
    let named = format!(
        "`Texture2D{}`, `{}` and `{}.Sample(nearest) uniform`",
        formats[0], formats[1], formats[2]
    );
    assert!(chapter.contains(&named), "the chapter should say: {named}");
}

/// Per process, how far the whole run sat from the others: over the cases whose figure varies by
/// under 0.03% (population standard deviation) between the processes, the median deviation of
/// each case's figure from its median over the processes, in percent (positive: slower).
fn run_shifts(files: &[PathBuf]) -> Vec<f64> {
    use perftest_cli::statistics::median;
    let runs: Vec<HashMap<String, f64>> = files.iter().map(|f| figures(f)).collect();
    let ids: Vec<&String> = runs[0]
        .keys()
        .filter(|id| runs.iter().all(|r| r.contains_key(*id)))
        .collect();
    let mut deviations: Vec<Vec<f64>> = Vec::new(); // per stable case, per process
    for id in ids {
        let values: Vec<f64> = runs.iter().map(|r| r[id]).collect();
        let center = median(&values).unwrap();
        let dev: Vec<f64> = values.iter().map(|v| (v / center - 1.0) * 100.0).collect();
        let mean = dev.iter().sum::<f64>() / dev.len() as f64;
        let sd = (dev.iter().map(|d| (d - mean).powi(2)).sum::<f64>() / dev.len() as f64).sqrt();
        if sd < 0.03 {
            deviations.push(dev);
        }
    }
    (0..files.len())
        .map(|i| median(&deviations.iter().map(|d| d[i]).collect::<Vec<_>>()).unwrap())
        .collect()
}

/// The whole-run shifts the H200 READMEs quote: per run in `interval/`, and their spread per kind
/// of process in `dispatch-length/` (the last column of each row, the row found by its wall
/// times); and each `interval/compare-I-J.txt` is what `perftest compare` prints for its pair.
#[test]
fn the_whole_run_shifts_are_what_the_runs_hold() {
    let dir = root().join("results/nvidia-h200-stability/interval");
    let files: Vec<PathBuf> = (1..=6).map(|i| dir.join(format!("run-{i}.json"))).collect();
    let readme = std::fs::read_to_string(dir.join("README.md")).unwrap();
    let readme = readme.split_whitespace().collect::<Vec<_>>().join(" ");
    let shifts: Vec<String> = run_shifts(&files)
        .iter()
        .map(|s| format!("{s:+.3}%"))
        .collect();
    let quoted = format!(
        "was {} and {} (the same in every family)",
        shifts[..5].join(", "),
        shifts[5]
    );
    assert!(readme.contains(&quoted), "the README should say: {quoted}");
    for i in 1..=6 {
        for j in i + 1..=6 {
            let (a, b) = (format!("run-{i}.json"), format!("run-{j}.json"));
            let made = render(
                &compare(
                    &load_report(&dir.join(&a)).unwrap(),
                    &load_report(&dir.join(&b)).unwrap(),
                ),
                &a,
                &b,
            );
            let file = dir.join(format!("compare-{i}-{j}.txt"));
            assert!(
                made == std::fs::read_to_string(&file).unwrap(),
                "{} is not what `perftest compare {a} {b}` prints today",
                file.display()
            );
        }
    }

    let dir = root().join("results/nvidia-h200-stability/dispatch-length");
    let readme = std::fs::read_to_string(dir.join("README.md")).unwrap();
    let wall = std::fs::read_to_string(dir.join("wall.txt")).unwrap();
    for group in [
        "a-d2", "a-d8", "b-d2", "b-d4s3", "b-d4", "c-d2", "c-d1", "c-d05",
    ] {
        let files: Vec<PathBuf> = (1..)
            .map(|i| dir.join(format!("{group}-{i}.json")))
            .take_while(|p| p.is_file())
            .collect();
        let shifts = run_shifts(&files);
        let mean = shifts.iter().sum::<f64>() / shifts.len() as f64;
        let sd =
            (shifts.iter().map(|s| (s - mean).powi(2)).sum::<f64>() / shifts.len() as f64).sqrt();
        let outside: Vec<f64> = wall
            .lines()
            .filter(|l| l.starts_with(&format!("{group}-")))
            .map(|l| l.rsplit_once("wall_ms=").unwrap().1.parse::<f64>().unwrap() / 1e3)
            .collect();
        let cells = format!("| {} s |", span(&outside, 2));
        let row = readme
            .lines()
            .find(|l| l.contains(&cells))
            .unwrap_or_else(|| panic!("no row with {cells}"));
        assert!(
            row.ends_with(&format!("| {sd:.4}% |")),
            "{group}: the row should end with {sd:.4}%: {row}"
        );
    }
}

/// The gallery of every GPU (`docs/src/gallery/collection/`) is what the collection gives:
/// every page generated again from the committed files, every page listed in the summary, no
/// page left over.
#[test]
fn the_collection_gallery_is_what_the_collection_gives() {
    let root = root();
    let pages = perftest_cli::gallery::pages(&root).unwrap();
    assert!(pages.len() >= 30, "{} pages", pages.len());
    let src = root.join("docs/src");
    for page in &pages {
        let committed = std::fs::read_to_string(src.join(&page.path)).unwrap_or_default();
        assert!(
            committed == page.text,
            "docs/src/{} is not what the collection gives; run \
             `cargo run -p perftest-cli --example generate_gallery` and commit",
            page.path
        );
    }
    let summary = std::fs::read_to_string(src.join("SUMMARY.md")).unwrap();
    assert!(
        summary.contains(&perftest_cli::gallery::summary_lines(&pages)),
        "SUMMARY.md does not list the gallery's pages; run the generator"
    );
    let folder = src.join(perftest_cli::gallery::FOLDER);
    let on_disk = std::fs::read_dir(&folder).unwrap().count();
    assert_eq!(
        on_disk,
        pages.len(),
        "pages in {} not generated",
        folder.display()
    );
}

/// Where a buffer starts in its memory block, as the offsets table writes it: `0 (main)`,
/// `48 KB`, `2 MB`, `2 MB + 16 KB`.
fn block_offset(bytes: u64) -> String {
    const KB: u64 = 1024;
    const MB: u64 = 1024 * KB;
    match (bytes / MB, bytes % MB / KB) {
        (0, 0) => "0 (main)".into(),
        (0, kb) => format!("{kb} KB"),
        (mb, 0) => format!("{mb} MB"),
        (mb, kb) => format!("{mb} MB + {kb} KB"),
    }
}

/// Each run of `results/nvidia-h200-stability/kernel-variants/DIR/` (named in its
/// `placements.txt`, `RUN: where its uniform buffer lies ... at byte B ...`): the byte its buffer
/// starts at in its block (`None` where it has an allocation of its own), its time per workgroup
/// (median sample over the dispatch's workgroups) and its CV per dispatch in percent, by run
/// name.
fn uniform_buffer_runs(dir: &str) -> Vec<(String, Option<u64>, f64, f64)> {
    use perftest_cli::statistics::median;
    let dir = root()
        .join("results/nvidia-h200-stability/kernel-variants")
        .join(dir);
    let places = std::fs::read_to_string(dir.join("placements.txt")).unwrap();
    places
        .lines()
        .map(|line| {
            let (run, place) = line.split_once(": ").unwrap();
            let byte: Option<u64> = place
                .split("at byte ")
                .nth(1)
                .map(|b| b.split(' ').next().unwrap().parse().unwrap());
            let report = load_report(&dir.join(format!("{run}.json"))).unwrap();
            let m = report.cases[0].measurement.as_ref().unwrap();
            let samples = &m.samples_ns;
            let n = samples.len() as f64;
            let mean = samples.iter().sum::<f64>() / n;
            let sd = (samples.iter().map(|s| (s - mean).powi(2)).sum::<f64>() / n).sqrt();
            let ns = median(samples).unwrap() / m.groups as f64;
            (run.to_string(), byte, ns, sd / mean * 100.0)
        })
        .collect()
}

/// The offsets table of `results/nvidia-h200-stability/kernel-variants/README.md` is what the
/// runs of `offsets/` hold: the runs fall into two speeds (split half-way between the slowest
/// and the fastest run), and each speed's row names the places of its runs, their time per
/// workgroup and their CV per dispatch. And each row of its `pvk-kernel/` table (found by its
/// runs, `` `X-N` ``) ends with what those runs hold.
#[test]
fn the_uniform_buffer_place_tables_are_what_the_runs_hold() {
    let dir = root().join("results/nvidia-h200-stability/kernel-variants");
    let readme = std::fs::read_to_string(dir.join("README.md")).unwrap();
    let runs = uniform_buffer_runs("offsets");
    assert!(runs.len() >= 20, "{} runs", runs.len());
    let ns: Vec<f64> = runs.iter().map(|r| r.2).collect();
    let (lo, hi) = span_ends(&ns);
    let split = (lo + hi) / 2.0;
    for fast in [false, true] {
        let class: Vec<_> = runs.iter().filter(|r| (r.2 < split) == fast).collect();
        let mut bytes: Vec<u64> = class.iter().map(|r| r.1.unwrap()).collect();
        bytes.sort_unstable();
        bytes.dedup();
        let names: Vec<String> = bytes.into_iter().map(block_offset).collect();
        let ns: Vec<f64> = class.iter().map(|r| r.2).collect();
        let cv: Vec<f64> = class.iter().map(|r| r.3).collect();
        let row = format!(
            "| {} | {} | {}% |",
            names.join(", "),
            span(&ns, 1),
            span(&cv, 2)
        );
        assert!(
            readme.contains(&row),
            "the README should have the row {row}"
        );
    }

    let runs = uniform_buffer_runs("pvk-kernel");
    let mut groups: Vec<&str> = runs
        .iter()
        .map(|r| r.0.rsplit_once('-').unwrap().0)
        .collect();
    groups.dedup();
    assert_eq!(groups.len(), 5, "{groups:?}");
    for group in groups {
        let class: Vec<_> = runs
            .iter()
            .filter(|r| r.0.starts_with(&format!("{group}-")))
            .collect();
        let ns: Vec<f64> = class.iter().map(|r| r.2).collect();
        let cv: Vec<f64> = class.iter().map(|r| r.3).collect();
        let marker = format!("| `{group}-N` |");
        let row = readme
            .lines()
            .find(|l| l.contains(&marker))
            .unwrap_or_else(|| panic!("no row for {marker}"));
        let cells = format!("| {} | {}% |", span(&ns, 1), span(&cv, 2));
        assert!(
            row.ends_with(&cells),
            "{group}: the row should end with {cells}: {row}"
        );
    }
}

/// The smallest and the largest of `values`.
fn span_ends(values: &[f64]) -> (f64, f64) {
    let lo = values.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    (lo, hi)
}
