//! The module tree of a target (files reached through `mod` declarations) and the imports
//! between its files.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

use std::rc::Rc;

use proc_macro2::{TokenStream, TokenTree};
use syn::visit::Visit;

/// One parsed source file and the module it is.
pub struct SourceFile {
    /// Where the file is.
    pub path: PathBuf,
    /// The module path of the file within its crate (empty for the root file).
    pub module: Vec<String>,
    /// The modules and imports of the file's crate, shared by the files of one target.
    pub names: Rc<Names>,
    /// The parsed file.
    pub ast: syn::File,
}

/// True when `attrs` mark test-only code: `#[test]` (or `#[something::test]`) or a `cfg`
/// that needs `test` (`cfg(test)`, `cfg(all(test, unix))`, not `cfg(not(test))`).
pub fn is_test(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|attr| {
        let path = attr.path();
        if path.segments.last().is_some_and(|s| s.ident == "test") {
            return true;
        }
        if !path.is_ident("cfg") {
            return false;
        }
        let tokens = match &attr.meta {
            syn::Meta::List(list) => list.tokens.to_string(),
            _ => return false,
        };
        let words: Vec<&str> = tokens
            .split(|c: char| !(c.is_alphanumeric() || c == '_'))
            .collect();
        words.contains(&"test") && !words.contains(&"not")
    })
}

/// The modules of one crate and the names each imports, to follow a path to the file that
/// defines what it names.
pub struct Names {
    /// Every module: module path to the file that holds it (inline modules included).
    modules: BTreeMap<Vec<String>, PathBuf>,
    /// For each module, the names its `use` items bring in and the paths from the crate root
    /// they stand for (`Context` -> `context::Context` for `pub use context::Context`), or
    /// `None` for a name from another crate (`pub use perftest_report::schema as report`).
    imports: BTreeMap<Vec<String>, BTreeMap<String, Option<Vec<String>>>>,
}

impl Names {
    /// The path from the crate root that `segments`, written in module `current`, names, when
    /// it names this crate.
    fn absolute(&self, current: &[String], segments: &[String]) -> Option<Vec<String>> {
        let first = segments.first()?;
        let mut base = current.to_vec();
        let rest = match first.as_str() {
            "crate" => {
                base.clear();
                &segments[1..]
            }
            "self" => &segments[1..],
            "super" => {
                let supers = segments.iter().take_while(|s| *s == "super").count();
                for _ in 0..supers {
                    base.pop()?;
                }
                &segments[supers..]
            }
            _ if segments.len() > 1 => {
                let mut child = base.clone();
                child.push(first.clone());
                if !self.modules.contains_key(&child) {
                    return None;
                }
                segments
            }
            _ => return None,
        };
        base.extend(rest.iter().cloned());
        Some(base)
    }

    /// The file that defines what the crate path `path` names: the longest prefix that is a
    /// module, unless the next name is one that module imports, which is followed instead (a
    /// re-export names the file it comes from).
    fn file_of(&self, mut path: Vec<String>) -> Option<PathBuf> {
        // Re-exports can chain; a bound keeps a `use` cycle from looping.
        for _ in 0..16 {
            let len = (0..=path.len())
                .rev()
                .find(|&len| self.modules.contains_key(&path[..len]))?;
            let imported = path.get(len).and_then(|name| {
                self.imports
                    .get(&path[..len])
                    .and_then(|names| names.get(name))
            });
            match imported {
                Some(None) => return None,
                Some(Some(target)) => {
                    let mut next = target.clone();
                    next.extend(path[len + 1..].iter().cloned());
                    path = next;
                }
                None => return self.modules.get(&path[..len]).cloned(),
            }
        }
        None
    }

    /// Records the imports of the non-test `use` items among `items` of `module` (inline
    /// modules included) that name this crate.
    fn record_imports(&mut self, module: &[String], items: &[syn::Item]) {
        for item in items {
            match item {
                syn::Item::Use(used) if !is_test(&used.attrs) => {
                    let mut leaves = Vec::new();
                    use_leaves(&mut Vec::new(), &used.tree, &mut leaves);
                    for (name, segments) in leaves {
                        let target = self.absolute(module, &segments);
                        self.imports
                            .entry(module.to_vec())
                            .or_default()
                            .insert(name, target);
                    }
                }
                syn::Item::Mod(inner) if !is_test(&inner.attrs) => {
                    if let Some((_, inner_items)) = &inner.content {
                        let mut nested = module.to_vec();
                        nested.push(inner.ident.to_string());
                        self.record_imports(&nested, inner_items);
                    }
                }
                _ => {}
            }
        }
    }
}

/// The names a `use` tree brings in, each with the path it stands for (globs left out).
fn use_leaves(prefix: &mut Vec<String>, tree: &syn::UseTree, out: &mut Vec<(String, Vec<String>)>) {
    let leaf = |prefix: &[String], ident: &syn::Ident| {
        let mut path = prefix.to_vec();
        if ident != "self" {
            path.push(ident.to_string());
        }
        path
    };
    match tree {
        syn::UseTree::Path(path) => {
            prefix.push(path.ident.to_string());
            use_leaves(prefix, &path.tree, out);
            prefix.pop();
        }
        syn::UseTree::Name(name) => {
            let path = leaf(prefix, &name.ident);
            if let Some(last) = path.last() {
                out.push((last.clone(), path.clone()));
            }
        }
        syn::UseTree::Rename(rename) => {
            out.push((rename.rename.to_string(), leaf(prefix, &rename.ident)));
        }
        syn::UseTree::Glob(_) => {}
        syn::UseTree::Group(group) => {
            for item in &group.items {
                use_leaves(prefix, item, out);
            }
        }
    }
}

/// A module found while walking: its path, where its file is, and where its children live.
struct Pending {
    module: Vec<String>,
    file: PathBuf,
    child_dir: PathBuf,
}

/// Parses the root file `root` and every file its non-test `mod` declarations reach.
pub fn load_tree(root: &Path) -> Result<Vec<SourceFile>, String> {
    let mut parsed: Vec<(PathBuf, Vec<String>, syn::File)> = Vec::new();
    let mut modules = BTreeMap::new();
    let mut queue = vec![Pending {
        module: Vec::new(),
        file: root.to_path_buf(),
        child_dir: root.parent().unwrap_or(Path::new(".")).to_path_buf(),
    }];
    while let Some(pending) = queue.pop() {
        let text = fs::read_to_string(&pending.file)
            .map_err(|e| format!("cannot read {}: {e}", pending.file.display()))?;
        let ast = syn::parse_file(&text)
            .map_err(|e| format!("cannot parse {}: {e}", pending.file.display()))?;
        modules.insert(pending.module.clone(), pending.file.clone());
        declared_modules(&ast.items, &pending, &mut modules, &mut queue);
        parsed.push((pending.file, pending.module, ast));
    }
    let mut names = Names {
        modules,
        imports: BTreeMap::new(),
    };
    for (_, module, ast) in &parsed {
        names.record_imports(module, &ast.items);
    }
    let names = Rc::new(names);
    Ok(parsed
        .into_iter()
        .map(|(path, module, ast)| SourceFile {
            path,
            module,
            names: names.clone(),
            ast,
        })
        .collect())
}

/// Records the non-test modules `items` declare: inline ones as part of `at`'s file (their own
/// declarations followed), file ones queued.
fn declared_modules(
    items: &[syn::Item],
    at: &Pending,
    modules: &mut BTreeMap<Vec<String>, PathBuf>,
    queue: &mut Vec<Pending>,
) {
    for item in items {
        let syn::Item::Mod(declared) = item else {
            continue;
        };
        if is_test(&declared.attrs) {
            continue;
        }
        let name = declared.ident.to_string();
        let mut module = at.module.clone();
        module.push(name.clone());
        match &declared.content {
            Some((_, inner)) => {
                modules.insert(module.clone(), at.file.clone());
                let nested = Pending {
                    module,
                    file: at.file.clone(),
                    child_dir: at.child_dir.join(&name),
                };
                declared_modules(inner, &nested, modules, queue);
            }
            None => {
                if let Some(file) = module_file(&at.child_dir, &name, &declared.attrs) {
                    let child_dir = match file.file_name().and_then(|n| n.to_str()) {
                        Some("mod.rs") => file.parent().unwrap_or(Path::new(".")).to_path_buf(),
                        _ => at.child_dir.join(&name),
                    };
                    queue.push(Pending {
                        module,
                        file,
                        child_dir,
                    });
                }
            }
        }
    }
}

/// The file of `mod name;` declared with children in `dir`: a `#[path]` attribute's file, or
/// `dir/name.rs`, or `dir/name/mod.rs`.
fn module_file(dir: &Path, name: &str, attrs: &[syn::Attribute]) -> Option<PathBuf> {
    for attr in attrs {
        if let syn::Meta::NameValue(pair) = &attr.meta {
            if pair.path.is_ident("path") {
                if let syn::Expr::Lit(syn::ExprLit {
                    lit: syn::Lit::Str(text),
                    ..
                }) = &pair.value
                {
                    return Some(dir.join(text.value()));
                }
            }
        }
    }
    [
        dir.join(format!("{name}.rs")),
        dir.join(name).join("mod.rs"),
    ]
    .into_iter()
    .find(|candidate| candidate.is_file())
}

/// The files of a package and which of them import which (indices into `files`).
pub struct Graph {
    /// Every file, once.
    pub files: Vec<PathBuf>,
    /// For each file, the files it imports.
    pub edges: Vec<BTreeSet<usize>>,
}

/// The import graph between the files of `sources`.
pub fn import_graph(sources: &[SourceFile]) -> Graph {
    let files: Vec<PathBuf> = sources
        .iter()
        .map(|s| s.path.clone())
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    let index = |path: &Path| files.iter().position(|f| f == path);
    let mut edges = vec![BTreeSet::new(); files.len()];
    for source in sources {
        let Some(from) = index(&source.path) else {
            continue;
        };
        let mut visitor = Imports {
            source,
            current: source.module.clone(),
            found: BTreeSet::new(),
        };
        visitor.visit_file(&source.ast);
        for target in visitor.found {
            if let Some(to) = index(&target) {
                if to != from {
                    edges[from].insert(to);
                }
            }
        }
    }
    Graph { files, edges }
}

/// Collects the files of its crate that one file's non-test code names.
struct Imports<'a> {
    source: &'a SourceFile,
    /// The module being read (the file's own, or an inline module within it).
    current: Vec<String>,
    found: BTreeSet<PathBuf>,
}

impl Imports<'_> {
    /// Records the file of the module `segments` (a path as written) names, if any.
    fn name(&mut self, segments: &[String]) {
        let names = &self.source.names;
        if let Some(file) = names
            .absolute(&self.current, segments)
            .and_then(|path| names.file_of(path))
        {
            self.found.insert(file);
        }
    }

    /// The paths a `use` tree names, each as its segments.
    fn use_tree(&mut self, prefix: &mut Vec<String>, tree: &syn::UseTree) {
        match tree {
            syn::UseTree::Path(path) => {
                prefix.push(path.ident.to_string());
                self.use_tree(prefix, &path.tree);
                prefix.pop();
            }
            syn::UseTree::Name(name) => self.use_leaf(prefix, &name.ident),
            syn::UseTree::Rename(rename) => self.use_leaf(prefix, &rename.ident),
            syn::UseTree::Glob(_) => {
                let named = prefix.clone();
                self.name(&named);
            }
            syn::UseTree::Group(group) => {
                for item in &group.items {
                    self.use_tree(prefix, item);
                }
            }
        }
    }

    fn use_leaf(&mut self, prefix: &[String], ident: &syn::Ident) {
        let mut named = prefix.to_vec();
        if ident != "self" {
            named.push(ident.to_string());
        }
        self.name(&named);
    }

    /// Paths written inside a macro's arguments: each `crate`/`super`/`self` or identifier
    /// followed by `::` segments.
    fn tokens(&mut self, tokens: TokenStream) {
        let mut path: Vec<String> = Vec::new();
        let mut colons = 0;
        for token in tokens {
            match token {
                TokenTree::Ident(ident) if path.is_empty() || colons == 2 => {
                    path.push(ident.to_string());
                    colons = 0;
                }
                TokenTree::Punct(p) if p.as_char() == ':' && !path.is_empty() && colons < 2 => {
                    colons += 1;
                }
                other => {
                    self.name_path(&mut path);
                    colons = 0;
                    match other {
                        TokenTree::Group(group) => self.tokens(group.stream()),
                        TokenTree::Ident(ident) => path.push(ident.to_string()),
                        _ => {}
                    }
                }
            }
        }
        self.name_path(&mut path);
    }

    fn name_path(&mut self, path: &mut Vec<String>) {
        if path.len() > 1 {
            let named = std::mem::take(path);
            self.name(&named);
        }
        path.clear();
    }
}

impl<'ast> Visit<'ast> for Imports<'_> {
    fn visit_item_mod(&mut self, item: &'ast syn::ItemMod) {
        if is_test(&item.attrs) {
            return;
        }
        if let Some((_, items)) = &item.content {
            self.current.push(item.ident.to_string());
            for inner in items {
                self.visit_item(inner);
            }
            self.current.pop();
        }
    }

    fn visit_item_fn(&mut self, item: &'ast syn::ItemFn) {
        if !is_test(&item.attrs) {
            syn::visit::visit_item_fn(self, item);
        }
    }

    fn visit_item_impl(&mut self, item: &'ast syn::ItemImpl) {
        if !is_test(&item.attrs) {
            syn::visit::visit_item_impl(self, item);
        }
    }

    fn visit_item_use(&mut self, item: &'ast syn::ItemUse) {
        if !is_test(&item.attrs) {
            self.use_tree(&mut Vec::new(), &item.tree);
        }
    }

    // `pub(crate)` and `pub(super)` name a module, but import nothing.
    fn visit_visibility(&mut self, _: &'ast syn::Visibility) {}

    fn visit_path(&mut self, path: &'ast syn::Path) {
        let segments: Vec<String> = path.segments.iter().map(|s| s.ident.to_string()).collect();
        self.name(&segments);
        syn::visit::visit_path(self, path);
    }

    fn visit_macro(&mut self, mac: &'ast syn::Macro) {
        self.tokens(mac.tokens.clone());
        syn::visit::visit_macro(self, mac);
    }
}
