//! The length of every non-test function of a file.

use std::path::{Path, PathBuf};

use syn::spanned::Spanned;
use syn::visit::Visit;

use super::modules::{is_test, SourceFile};

/// One function and how long it is.
pub struct Function {
    /// `name`, `Type::name` for a method, `Trait::name` for a trait's default method.
    pub name: String,
    /// The file that holds it.
    pub file: PathBuf,
    /// The line of its signature.
    pub line: usize,
    /// Lines from the signature to the closing brace.
    pub lines: usize,
}

/// Every non-test function of `file`, nested ones included.
pub fn collect(file: &SourceFile) -> Vec<Function> {
    let mut visitor = Functions {
        file: &file.path,
        owner: None,
        found: Vec::new(),
    };
    visitor.visit_file(&file.ast);
    visitor.found
}

/// The report: the `top` longest functions, then every one over `limit` lines.
pub fn report(functions: &[Function], root: &Path, top: usize, limit: usize) -> String {
    let mut sorted: Vec<&Function> = functions.iter().collect();
    sorted.sort_by(|a, b| {
        b.lines
            .cmp(&a.lines)
            .then_with(|| (&a.file, a.line).cmp(&(&b.file, b.line)))
    });
    let line = |f: &Function| {
        format!(
            "  {:>4}  {}  {}:{}\n",
            f.lines,
            f.name,
            super::shown(&f.file, root),
            f.line
        )
    };
    let mut text = format!(
        "the {top} longest of {} non-test functions (lines, name, file:line):\n",
        functions.len()
    );
    for function in sorted.iter().take(top) {
        text.push_str(&line(function));
    }
    let long: Vec<&&Function> = sorted.iter().filter(|f| f.lines > limit).collect();
    text.push_str(&format!(
        "\nnon-test functions over {limit} lines: {}\n",
        long.len()
    ));
    for function in long {
        text.push_str(&line(function));
    }
    text
}

/// Walks one file, skipping test code.
struct Functions<'a> {
    file: &'a Path,
    /// The type or trait whose items are being read.
    owner: Option<String>,
    found: Vec<Function>,
}

impl Functions<'_> {
    fn record(&mut self, name: &syn::Ident, sig: &syn::Signature, block: &syn::Block) {
        let start = sig.span().start().line;
        let end = block.brace_token.span.close().end().line;
        let name = match &self.owner {
            Some(owner) => format!("{owner}::{name}"),
            None => name.to_string(),
        };
        self.found.push(Function {
            name,
            file: self.file.to_path_buf(),
            line: start,
            lines: end.saturating_sub(start) + 1,
        });
    }
}

/// The last segment of a type's path (`Options` for `crate::args::Options<'a>`).
fn type_name(ty: &syn::Type) -> String {
    match ty {
        syn::Type::Path(path) => path
            .path
            .segments
            .last()
            .map(|s| s.ident.to_string())
            .unwrap_or_default(),
        _ => "_".to_string(),
    }
}

impl<'ast> Visit<'ast> for Functions<'_> {
    fn visit_item_mod(&mut self, item: &'ast syn::ItemMod) {
        if !is_test(&item.attrs) {
            syn::visit::visit_item_mod(self, item);
        }
    }

    fn visit_item_fn(&mut self, item: &'ast syn::ItemFn) {
        if is_test(&item.attrs) {
            return;
        }
        self.record(&item.sig.ident, &item.sig, &item.block);
        let owner = self.owner.take();
        syn::visit::visit_item_fn(self, item);
        self.owner = owner;
    }

    fn visit_item_impl(&mut self, item: &'ast syn::ItemImpl) {
        if is_test(&item.attrs) {
            return;
        }
        let owner = self.owner.replace(type_name(&item.self_ty));
        syn::visit::visit_item_impl(self, item);
        self.owner = owner;
    }

    fn visit_impl_item_fn(&mut self, item: &'ast syn::ImplItemFn) {
        if is_test(&item.attrs) {
            return;
        }
        self.record(&item.sig.ident, &item.sig, &item.block);
        syn::visit::visit_impl_item_fn(self, item);
    }

    fn visit_item_trait(&mut self, item: &'ast syn::ItemTrait) {
        let owner = self.owner.replace(item.ident.to_string());
        syn::visit::visit_item_trait(self, item);
        self.owner = owner;
    }

    fn visit_trait_item_fn(&mut self, item: &'ast syn::TraitItemFn) {
        if let Some(block) = &item.default {
            if !is_test(&item.attrs) {
                self.record(&item.sig.ident, &item.sig, block);
            }
        }
        syn::visit::visit_trait_item_fn(self, item);
    }
}
