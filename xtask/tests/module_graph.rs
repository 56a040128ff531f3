//! No crate of the workspace has modules that import each other, directly
//! or in a circle: each crate's `src` (nested module folders included) is
//! read as a graph of `crate::`, `super::` and `self::` paths, and every
//! circle is reported with its path. The sandbox's layers are checked too:
//! records and state sit below the handlers, so a handler can change
//! without touching what the state is made of.
//!
//! A path is followed to the module that defines what it names, through
//! re-exports: `crate::Transaction`, found by the root's (private) glob
//! `use types::*`, whose `types` re-exports `transaction::Transaction`, is
//! an import of `types::transaction`. A module's use of its own submodules
//! (declaring them, re-exporting them) is its structure, not an import, and
//! an item defined in the root or in another crate is no module's, so
//! neither is an edge.

mod common;

use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::path::{Path, PathBuf};

use common::{crate_sources, workspace_root};

/// A module's path inside its crate (`["http", "body"]`); the root is empty.
type ModulePath = Vec<String>;
type Graph = BTreeMap<ModulePath, BTreeSet<ModulePath>>;
/// A `use` path and the name it brings into scope (`None` for a glob).
type UsePath = (Vec<String>, Option<String>);

/// Every `.rs` file under `dir`, with its module path (`a/mod.rs` is `a`,
/// `a/b.rs` is `a::b`, `lib.rs` and `main.rs` are the root).
fn modules(src: &Path) -> BTreeMap<ModulePath, PathBuf> {
    fn walk(dir: &Path, prefix: &[String], out: &mut BTreeMap<ModulePath, PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            if path.is_dir() {
                if name == "bin" && prefix.is_empty() {
                    continue;
                }
                let mut inner = prefix.to_vec();
                inner.push(name);
                walk(&path, &inner, out);
            } else if let Some(stem) = name.strip_suffix(".rs") {
                let mut module = prefix.to_vec();
                let root_file = prefix.is_empty() && (stem == "lib" || stem == "main");
                if stem != "mod" && !root_file {
                    module.push(stem.to_owned());
                }
                out.insert(module, path);
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(src, &[], &mut out);
    out
}

/// The code of a file without its tests and comments.
fn code(text: &str) -> String {
    let text = text.split("#[cfg(test)]").next().unwrap_or_default();
    text.lines()
        .filter(|line| !line.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Every `use` tree of `code` expanded to its paths, each with the name it
/// brings into scope (`None` for a glob or `as _`): `use a::{b::C, d as
/// E, f::*}` gives `a::b::C` as `C`, `a::d` as `E` and `a::f::*`.
fn use_trees(code: &str) -> Vec<UsePath> {
    fn expand(prefix: &[String], tree: &str, out: &mut Vec<UsePath>) {
        let tree = tree.trim();
        if let Some(open) = tree.find('{') {
            let head: Vec<String> = tree[..open]
                .split("::")
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(str::to_owned)
                .collect();
            let mut base = prefix.to_vec();
            base.extend(head);
            let close = tree
                .rfind('}')
                .filter(|&close| close > open)
                .unwrap_or(tree.len());
            let inner = &tree[open + 1..close];
            let (mut depth, mut start) = (0, 0);
            for (at, c) in inner.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' => depth -= 1,
                    ',' if depth == 0 => {
                        expand(&base, &inner[start..at], out);
                        start = at + 1;
                    }
                    _ => {}
                }
            }
            expand(&base, &inner[start..], out);
        } else if !tree.is_empty() {
            let mut parts = tree.split(" as ");
            let mut path = prefix.to_vec();
            path.extend(
                parts
                    .next()
                    .unwrap_or_default()
                    .split("::")
                    .map(|s| s.trim().to_owned()),
            );
            let last = path.last().cloned().unwrap_or_default();
            let name = match parts.next().map(str::trim) {
                Some("_") => None,
                Some(alias) => Some(alias.to_owned()),
                None if last == "*" => None,
                // `a::{self}` is `a`.
                None if last == "self" => path.iter().rev().nth(1).cloned(),
                None => Some(last),
            };
            out.push((path, name));
        }
    }
    let mut out = Vec::new();
    let mut rest = code;
    // `use` trees may span lines and nest groups.
    while let Some(at) = rest.find("use ") {
        let before = rest[..at].chars().last();
        let after = &rest[at + 4..];
        let Some(end) = after.find(';') else { break };
        if before.is_none_or(|c| !c.is_alphanumeric() && c != '_') && starts_item(&rest[..at]) {
            expand(&[], &after[..end], &mut out);
        }
        rest = &after[end..];
    }
    out
}

/// Whether a `use` after `before` starts an item: on its own line, after a
/// visibility, an attribute or a block's `{`. A `use ` inside a string (an
/// error message saying "use PostgreSQL") is not an import.
fn starts_item(before: &str) -> bool {
    let line = before.rsplit('\n').next().unwrap_or_default().trim();
    line.is_empty()
        || line.ends_with('{')
        || line.ends_with(']')
        || line == "pub"
        || (line.starts_with("pub(") && line.ends_with(')'))
}

/// Every path of `use` trees and of expressions that starts with `crate`,
/// `super` or `self`, as segments (`use crate::{a::B, c::{d, e}}` gives
/// `crate::a::B`, `crate::c::d`, `crate::c::e`).
fn paths(code: &str) -> Vec<Vec<String>> {
    let mut out: Vec<Vec<String>> = use_trees(code)
        .into_iter()
        .map(|(path, _)| path)
        .filter(|path| ["crate", "super", "self"].contains(&path[0].as_str()))
        .collect();
    // Paths in expressions and types.
    for start in ["crate::", "super::", "self::"] {
        for (at, _) in code.match_indices(start) {
            let before = code[..at].chars().last();
            if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':') {
                continue;
            }
            let path: String = code[at..]
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == ':')
                .collect();
            let segments: Vec<String> = path
                .split("::")
                .filter(|s| !s.is_empty())
                .map(str::to_owned)
                .collect();
            if segments.len() > 1 {
                out.push(segments);
            }
        }
    }
    out
}

/// The names of the items a module's code defines (`struct`, `enum`, `fn`,
/// ...; methods and locals too, which no path outside names).
fn defined(code: &str) -> BTreeSet<String> {
    let words: Vec<&str> = code
        .split(|c: char| !c.is_alphanumeric() && c != '_')
        .filter(|w| !w.is_empty())
        .collect();
    words
        .windows(2)
        .filter(|pair| {
            [
                "struct",
                "enum",
                "union",
                "trait",
                "type",
                "fn",
                "const",
                "static",
                "macro_rules",
            ]
            .contains(&pair[0])
        })
        .map(|pair| pair[1].to_owned())
        .collect()
}

/// What a path names: a module, an item of a module, or something of
/// another crate.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Target {
    Module(ModulePath),
    In(ModulePath),
    Extern,
}

/// A crate's modules, the items each defines and the `use`s of each
/// (which are re-exports too: a private `use` in a module is visible to
/// its descendants, so `crate::X` reaches what the root imports).
struct Crate {
    files: BTreeMap<ModulePath, PathBuf>,
    defines: BTreeMap<ModulePath, BTreeSet<String>>,
    uses: BTreeMap<ModulePath, Vec<UsePath>>,
}

impl Crate {
    fn read(src: &Path) -> Crate {
        let files = modules(src);
        let mut defines = BTreeMap::new();
        let mut uses = BTreeMap::new();
        for (module, file) in &files {
            let code = code(&std::fs::read_to_string(file).unwrap());
            defines.insert(module.clone(), defined(&code));
            uses.insert(module.clone(), use_trees(&code));
        }
        Crate {
            files,
            defines,
            uses,
        }
    }

    /// The module a path found in `module` names, following re-exports to
    /// the module that defines the item; `None` for the root or another
    /// crate.
    fn resolve(&self, module: &ModulePath, path: &[String]) -> Option<ModulePath> {
        match self.target(module, path, &mut BTreeSet::new()) {
            Some(Target::Module(target) | Target::In(target)) if !target.is_empty() => Some(target),
            _ => None,
        }
    }

    fn target(
        &self,
        module: &ModulePath,
        path: &[String],
        seen: &mut BTreeSet<(ModulePath, String)>,
    ) -> Option<Target> {
        let mut base: ModulePath = Vec::new();
        let mut segments = path.iter().peekable();
        match segments.peek().map(|s| s.as_str()) {
            Some("crate") => {
                segments.next();
            }
            Some("self") => {
                segments.next();
                base = module.clone();
            }
            Some("super") => {
                base = module.clone();
                while segments.peek().map(|s| s.as_str()) == Some("super") {
                    segments.next();
                    base.pop();
                }
            }
            // A `use` path from the module's own scope: a submodule, or
            // another crate.
            Some(first) => {
                let mut child = module.clone();
                child.push(first.to_owned());
                if !self.files.contains_key(&child) {
                    return Some(Target::Extern);
                }
                base = module.clone();
            }
            None => return None,
        }
        for segment in segments {
            if segment == "self" || segment == "*" {
                break;
            }
            let mut child = base.clone();
            child.push(segment.clone());
            if self.files.contains_key(&child) {
                base = child;
                continue;
            }
            match self.item(&base, segment, seen) {
                // A re-exported module: go on inside it.
                Some(Target::Module(found)) => base = found,
                Some(found) => return Some(found),
                // Not found (a macro, an enum's variant): the module reached.
                None => break,
            }
        }
        Some(Target::Module(base))
    }

    /// Where `name`, as seen from `module`, is defined: the module itself,
    /// or what one of its `use`s names (a named one first, as Rust's
    /// shadowing of globs says).
    fn item(
        &self,
        module: &ModulePath,
        name: &str,
        seen: &mut BTreeSet<(ModulePath, String)>,
    ) -> Option<Target> {
        if !seen.insert((module.clone(), name.to_owned())) {
            return None;
        }
        if self.defines.get(module)?.contains(name) {
            return Some(Target::In(module.clone()));
        }
        let uses = self.uses.get(module)?;
        for (path, _) in uses
            .iter()
            .filter(|(_, alias)| alias.as_deref() == Some(name))
        {
            if let Some(found) = self.target(module, path, seen) {
                return Some(found);
            }
        }
        for (path, _) in uses
            .iter()
            .filter(|(path, _)| path.last().is_some_and(|s| s == "*"))
        {
            if let Some(Target::Module(glob)) = self.target(module, path, seen) {
                if let Some(found) = self.item(&glob, name, seen) {
                    return Some(found);
                }
            }
        }
        None
    }
}

fn graph(src: &Path) -> Graph {
    let krate = Crate::read(src);
    let mut graph = Graph::new();
    for (module, file) in &krate.files {
        if module.is_empty() {
            continue;
        }
        let text = std::fs::read_to_string(file).unwrap();
        let uses: BTreeSet<ModulePath> = paths(&code(&text))
            .iter()
            .filter_map(|path| krate.resolve(module, path))
            // Itself, or one of its own submodules: structure, not an import.
            .filter(|target| !target.starts_with(module))
            .collect();
        graph.insert(module.clone(), uses);
    }
    graph
}

fn name(module: &ModulePath) -> String {
    module.join("::")
}

/// Every circle of `graph`: one per group of modules that reach each
/// other, as a path from its first module back to it, and the group.
fn circles(graph: &Graph) -> Vec<Vec<String>> {
    circle_groups(graph)
        .into_iter()
        .map(|(cycle, _)| cycle)
        .collect()
}

fn circle_groups(graph: &Graph) -> Vec<(Vec<String>, Vec<String>)> {
    let reach = |from: &ModulePath| -> BTreeMap<ModulePath, ModulePath> {
        // Each module reached, with the module it was reached from.
        let mut seen = BTreeMap::new();
        let mut queue = VecDeque::from([from.clone()]);
        while let Some(node) = queue.pop_front() {
            for next in graph.get(&node).into_iter().flatten() {
                if !seen.contains_key(next) {
                    seen.insert(next.clone(), node.clone());
                    queue.push_back(next.clone());
                }
            }
        }
        seen
    };
    let mut placed = BTreeSet::new();
    let mut found = Vec::new();
    for node in graph.keys() {
        if placed.contains(node) {
            continue;
        }
        let from_node = reach(node);
        if !from_node.contains_key(node) {
            continue;
        }
        // The shortest way back to `node`, walked backwards.
        let mut cycle = vec![name(node)];
        let mut at = from_node[node].clone();
        while &at != node {
            cycle.push(name(&at));
            at = from_node[&at].clone();
        }
        cycle.push(name(node));
        cycle.reverse();
        let mut group = Vec::new();
        for member in from_node.keys() {
            if reach(member).contains_key(node) {
                placed.insert(member.clone());
                group.push(name(member));
            }
        }
        found.push((cycle, group));
    }
    found
}

#[test]
fn no_crate_has_modules_that_import_each_other() {
    let mut report = Vec::new();
    let mut read = 0;
    for (krate, src) in crate_sources() {
        let graph = graph(&src);
        read += graph.len();
        for (cycle, group) in circle_groups(&graph) {
            report.push(format!(
                "{krate}: {} (modules that reach each other: {})",
                cycle.join(" -> "),
                group.join(", ")
            ));
        }
    }
    assert!(read > 100, "only {read} modules read");
    assert!(
        report.is_empty(),
        "{} import circle(s):\n{}",
        report.len(),
        report.join("\n")
    );
}

fn sandbox() -> Graph {
    graph(&workspace_root().join("crates/crossborder-sandbox/src"))
}

fn under<'g>(graph: &'g Graph, folder: &'g str) -> impl Iterator<Item = &'g ModulePath> + 'g {
    graph
        .keys()
        .filter(move |module| module.len() > 1 && module[0] == folder)
}

#[test]
fn the_reader_sees_nested_imports() {
    let graph = sandbox();
    let payout = vec!["handlers".to_owned(), "payout".to_owned()];
    let records = vec!["store".to_owned(), "records".to_owned()];
    assert!(graph[&payout].contains(&records), "{:?}", graph[&payout]);
}

/// Only the router imports the handlers; they do not import each other,
/// and nothing below them (the store, the background tasks) imports one.
#[test]
fn sandbox_handlers_sit_above_the_store() {
    let graph = sandbox();
    let handlers: Vec<&ModulePath> = under(&graph, "handlers").collect();
    assert!(handlers.len() >= 9, "{handlers:?}");
    for (module, uses) in &graph {
        for handler in &handlers {
            if !uses.contains(*handler) {
                continue;
            }
            assert!(
                module == &["http", "routes"],
                "{} imports the handler {}: move what they share into store/",
                name(module),
                name(handler)
            );
        }
    }
}

/// The top-level module `name`.
fn m(name: &str) -> ModulePath {
    vec![name.to_owned()]
}

#[test]
fn a_circle_is_found_and_named() {
    let mut graph = Graph::new();
    graph.insert(m("a"), BTreeSet::from([m("b")]));
    graph.insert(m("b"), BTreeSet::from([m("c")]));
    graph.insert(m("c"), BTreeSet::from([m("a")]));
    graph.insert(m("d"), BTreeSet::from([m("a")]));
    graph.insert(m("e"), BTreeSet::from([m("e"), m("d")]));
    assert_eq!(
        circles(&graph),
        vec![vec!["a", "b", "c", "a"], vec!["e", "e"]]
    );
}

#[test]
fn a_use_inside_a_string_is_not_an_import() {
    let code = "#[error(\"stop it, or use PostgreSQL for several)\", .path.display())]\n\
                Busy,\n#[error(\"cannot open {url}: {reason}\")]\nUrl;\nuse crate::a::B;";
    let imports: Vec<Vec<String>> = use_trees(code).into_iter().map(|(path, _)| path).collect();
    assert_eq!(imports, vec![vec!["crate", "a", "B"]]);
}

#[test]
fn paths_are_read_through_groups_and_relative_starts() {
    let found =
        paths("use crate::{a::B, c::{self, d::E}};\nuse super::f::G;\nfn x() { crate::h::i(); }");
    let texts: BTreeSet<String> = found.iter().map(|p| p.join("::")).collect();
    assert_eq!(
        texts,
        BTreeSet::from(
            [
                "crate::a::B",
                "crate::c::self",
                "crate::c::d::E",
                "super::f::G",
                "crate::h::i"
            ]
            .map(str::to_owned)
        )
    );
}

/// Writes a crate's `src` from `(file, code)` pairs under this test
/// binary's scratch folder and returns its graph.
fn graph_of(name: &str, files: &[(&str, &str)]) -> Graph {
    let src = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(name)
        .join("src");
    let _ = std::fs::remove_dir_all(&src);
    for (file, code) in files {
        let path = src.join(file);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, code).unwrap();
    }
    graph(&src)
}

/// The SDK's shape before the fix: `error` names `crate::Business`, which
/// the root finds by a private glob of `types`, which re-exports it from
/// `kyb`, which names `crate::Error`, the root's re-export of
/// `error::Error`. The circle error -> kyb -> error goes through no path
/// that names a module.
#[test]
fn a_circle_through_root_globs_and_reexport_chains_is_found() {
    let graph = graph_of(
        "glob_circle",
        &[
            (
                "lib.rs",
                "mod error;\nmod kyb;\npub mod types;\npub use error::Error;\n#[allow(unused_imports)]\nuse types::*;\n",
            ),
            ("error.rs", "use crate::Business;\npub enum Error { Stuck(Business) }\n"),
            (
                "types/mod.rs",
                "mod quote;\npub use quote::Quote;\npub use crate::kyb::{Business as Business};\n",
            ),
            ("types/quote.rs", "pub struct Quote;\n"),
            ("kyb.rs", "pub struct Business;\nfn check() -> Result<(), crate::Error> { Ok(()) }\n"),
        ],
    );
    assert_eq!(graph[&m("error")], BTreeSet::from([m("kyb")]));
    assert_eq!(circles(&graph), vec![vec!["error", "kyb", "error"]]);
}

/// A name the root imports from another crate, or defines itself, is no
/// module's: `crate::Decimal` and `crate::VERSION` make no edge, and a
/// re-exported module is gone into (`crate::models::Quote` is `quote`'s).
#[test]
fn outside_names_make_no_edge_and_reexported_modules_are_entered() {
    let graph = graph_of(
        "outside_names",
        &[
            (
                "lib.rs",
                "mod a;\nmod quote;\npub use rust_decimal::Decimal;\npub use quote as models;\npub const VERSION: u8 = 1;\n",
            ),
            ("a.rs", "use crate::{Decimal, VERSION};\nfn f(_: crate::models::Quote) {}\n"),
            ("quote.rs", "pub struct Quote;\n"),
        ],
    );
    assert_eq!(graph[&m("a")], BTreeSet::from([m("quote")]));
}
