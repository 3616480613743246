//! `cargo xtask structure`: the workspace's largest import cycles. (Function length is
//! clippy's `too_many_lines`, denied in the workspace's lints.)
//!
//! Every non-test source file of the workspace's packages is parsed with `syn` (the module tree
//! of each library, binary, example and build script, from its root file through its `mod`
//! declarations; `#[cfg(test)]` modules, `#[test]` functions and the `tests/` targets are left
//! out). It prints, per package, the largest import cycle between its files: the strongly
//! connected components of the graph in which a file points at every other file of the same
//! crate it names through `crate::`, `super::`, `self::` or a child module's name, in `use`
//! items, paths and macro arguments alike.
//!
//! `--edges` adds, under each file of a largest cycle, the files of the cycle it imports. It
//! reports only: the exit code is 0 whatever it finds.

mod cycles;
mod modules;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::workspace;

/// One build target of a package, as `cargo metadata` describes it.
struct Target {
    package: String,
    root: PathBuf,
}

/// `cargo xtask structure [--edges]`: prints the report; with `--edges`, each file of a
/// largest cycle is followed by the files of the cycle it imports.
pub fn command(args: &[String]) -> Result<(), String> {
    let edges = match args {
        [] => false,
        [flag] if flag == "--edges" => true,
        _ => {
            return Err(format!(
                "usage: cargo xtask structure [--edges]; unexpected: {}",
                args.join(" ")
            ))
        }
    };
    let root = workspace::root();
    let targets = targets()?;
    let mut packages: BTreeMap<String, Vec<modules::SourceFile>> = BTreeMap::new();
    for target in &targets {
        let files = modules::load_tree(&target.root)?;
        packages
            .entry(target.package.clone())
            .or_default()
            .extend(files);
    }
    println!("largest import cycle per package (files that import each other, directly or not):");
    for (package, files) in &packages {
        let graph = modules::import_graph(files);
        let components = cycles::strongly_connected(&graph.edges);
        let shown_edges = edges.then_some(graph.edges.as_slice());
        println!(
            "{}",
            cycles::report(package, &components, &graph.files, shown_edges, &root)
        );
    }
    Ok(())
}

/// The root files of every library, binary, example and build script of the workspace's
/// packages (`cargo metadata --no-deps`); test and bench targets are left out.
fn targets() -> Result<Vec<Target>, String> {
    let metadata = workspace::metadata()?;
    let mut targets = Vec::new();
    for package in metadata["packages"].as_array().into_iter().flatten() {
        let name = package["name"].as_str().unwrap_or_default();
        for target in package["targets"].as_array().into_iter().flatten() {
            let kinds: Vec<&str> = target["kind"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|k| k.as_str())
                .collect();
            let measured = kinds.iter().any(|k| {
                matches!(
                    *k,
                    "lib" | "rlib" | "bin" | "example" | "custom-build" | "proc-macro"
                )
            });
            if let (true, Some(src)) = (measured, target["src_path"].as_str()) {
                targets.push(Target {
                    package: name.to_string(),
                    root: PathBuf::from(src),
                });
            }
        }
    }
    targets.sort_by(|a, b| (&a.package, &a.root).cmp(&(&b.package, &b.root)));
    Ok(targets)
}

/// `path` relative to the workspace root, with `/` separators, for printing.
pub fn shown(path: &Path, root: &Path) -> String {
    let relative = path.strip_prefix(root).unwrap_or(path);
    relative
        .components()
        .map(|c| c.as_os_str().to_string_lossy())
        .collect::<Vec<_>>()
        .join("/")
}
