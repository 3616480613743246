//! Strongly connected components of a directed graph (Tarjan's algorithm, iterative).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// The components of the graph `edges` (node `i` points at `edges[i]`), each as its nodes in
/// ascending order, largest first.
pub fn strongly_connected(edges: &[BTreeSet<usize>]) -> Vec<Vec<usize>> {
    let mut state = Tarjan {
        edges,
        index: vec![None; edges.len()],
        low: vec![0; edges.len()],
        on_stack: vec![false; edges.len()],
        stack: Vec::new(),
        next: 0,
        components: Vec::new(),
    };
    for node in 0..edges.len() {
        if state.index[node].is_none() {
            state.visit(node);
        }
    }
    let mut components = state.components;
    for component in &mut components {
        component.sort_unstable();
    }
    components.sort_by(|a, b| b.len().cmp(&a.len()).then_with(|| a.cmp(b)));
    components
}

struct Tarjan<'a> {
    edges: &'a [BTreeSet<usize>],
    index: Vec<Option<usize>>,
    low: Vec<usize>,
    on_stack: Vec<bool>,
    stack: Vec<usize>,
    next: usize,
    components: Vec<Vec<usize>>,
}

impl Tarjan<'_> {
    /// Depth-first from `start` with an explicit stack of (node, its successors left).
    fn visit(&mut self, start: usize) {
        let mut work: Vec<(usize, Vec<usize>)> = vec![(start, self.open(start))];
        while let Some((node, successors)) = work.last_mut() {
            let node = *node;
            match successors.pop() {
                Some(next) if self.index[next].is_none() => {
                    let opened = self.open(next);
                    work.push((next, opened));
                }
                Some(next) => {
                    if self.on_stack[next] {
                        self.low[node] = self.low[node].min(self.index[next].unwrap_or(0));
                    }
                }
                None => {
                    work.pop();
                    if let Some((parent, _)) = work.last() {
                        self.low[*parent] = self.low[*parent].min(self.low[node]);
                    }
                    self.close(node);
                }
            }
        }
    }

    /// Numbers `node`, pushes it and returns its successors.
    fn open(&mut self, node: usize) -> Vec<usize> {
        self.index[node] = Some(self.next);
        self.low[node] = self.next;
        self.next += 1;
        self.stack.push(node);
        self.on_stack[node] = true;
        self.edges[node].iter().rev().copied().collect()
    }

    /// Pops the component `node` roots, if it roots one.
    fn close(&mut self, node: usize) {
        if Some(self.low[node]) != self.index[node] {
            return;
        }
        let mut component = Vec::new();
        while let Some(member) = self.stack.pop() {
            self.on_stack[member] = false;
            component.push(member);
            if member == node {
                break;
            }
        }
        self.components.push(component);
    }
}

/// One package's line: its largest cycle with its size and files, and how many other cycles
/// it has; with `edges`, each file's imports within the cycle.
pub fn report(
    package: &str,
    components: &[Vec<usize>],
    files: &[PathBuf],
    edges: Option<&[BTreeSet<usize>]>,
    root: &Path,
) -> String {
    let cycles: Vec<&Vec<usize>> = components.iter().filter(|c| c.len() > 1).collect();
    let Some(largest) = cycles.first() else {
        return format!("  {package}: no cycle ({} files)", files.len());
    };
    let mut text = format!(
        "  {package}: {} files ({} files in the package, {} cycles in all{})\n",
        largest.len(),
        files.len(),
        cycles.len(),
        others(&cycles[1..])
    );
    for &file in largest.iter() {
        text.push_str(&format!("    {}\n", super::shown(&files[file], root)));
        if let Some(edges) = edges {
            for &to in edges[file].iter().filter(|to| largest.contains(to)) {
                text.push_str(&format!("      -> {}\n", super::shown(&files[to], root)));
            }
        }
    }
    text.pop();
    text
}

/// ", the others of N, M files" for the cycles after the largest.
fn others(rest: &[&Vec<usize>]) -> String {
    if rest.is_empty() {
        return String::new();
    }
    let sizes: Vec<String> = rest.iter().map(|c| c.len().to_string()).collect();
    format!("; the others: {} files", sizes.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn graph(edges: &[(usize, usize)], nodes: usize) -> Vec<BTreeSet<usize>> {
        let mut graph = vec![BTreeSet::new(); nodes];
        for &(from, to) in edges {
            graph[from].insert(to);
        }
        graph
    }

    #[test]
    fn components_are_found_largest_first() {
        // 0 -> 1 -> 2 -> 0 is a cycle; 3 <-> 4 another; 5 alone, pointing into the first.
        let edges = graph(&[(0, 1), (1, 2), (2, 0), (3, 4), (4, 3), (5, 0), (2, 3)], 6);
        let components = strongly_connected(&edges);
        assert_eq!(components, vec![vec![0, 1, 2], vec![3, 4], vec![5]]);
    }

    #[test]
    fn a_graph_without_cycles_has_only_single_nodes() {
        let edges = graph(&[(0, 1), (1, 2), (0, 2)], 3);
        let components = strongly_connected(&edges);
        assert!(components.iter().all(|c| c.len() == 1));
        assert_eq!(components.len(), 3);
    }
}
