//! No crate of the workspace has modules that import each other, directly
//! or in a circle: each crate's `src` (nested module folders included) is
//! read as a graph of `crate::`, `super::` and `self::` paths, and every
//! circle is reported with its path. The sandbox's layers are checked too:
//! records and state sit below the handlers, so a handler can change
//! without touching what the state is made of.
//!
//! A module's use of its own submodules (declaring them, re-exporting
//! them) is its structure, not an import, and a path to the crate's root
//! (`crate::Item`, re-exported by `lib.rs`) names no module, so neither is
//! an edge.

use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::path::{Path, PathBuf};

/// A module's path inside its crate (`["http", "body"]`); the root is empty.
type ModulePath = Vec<String>;
type Graph = BTreeMap<ModulePath, BTreeSet<ModulePath>>;

fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask sits in the workspace")
        .to_path_buf()
}

/// The `src` folder of every member crate that has one.
fn crate_sources() -> Vec<(String, PathBuf)> {
    let root = workspace_root();
    let mut sources = vec![("xtask".to_owned(), root.join("xtask/src"))];
    for parent in ["crates", "tests"] {
        let mut members: Vec<PathBuf> = std::fs::read_dir(root.join(parent))
            .unwrap()
            .map(|entry| entry.unwrap().path())
            .filter(|path| path.join("Cargo.toml").is_file() && path.join("src").is_dir())
            .collect();
        members.sort();
        for member in members {
            let name = format!("{parent}/{}", member.file_name().unwrap().to_string_lossy());
            sources.push((name, member.join("src")));
        }
    }
    sources
}

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

/// Every path of `use` trees and of expressions that starts with `crate`,
/// `super` or `self`, as segments (`use crate::{a::B, c::{d, e}}` gives
/// `crate::a::B`, `crate::c::d`, `crate::c::e`).
fn paths(code: &str) -> Vec<Vec<String>> {
    fn expand(prefix: &[String], tree: &str, out: &mut Vec<Vec<String>>) {
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
            let close = tree.rfind('}').unwrap_or(tree.len());
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
            let mut path = prefix.to_vec();
            let tree = tree.split(" as ").next().unwrap_or_default();
            path.extend(tree.split("::").map(|s| s.trim().to_owned()));
            out.push(path);
        }
    }
    let mut out = Vec::new();
    let mut rest = code;
    // `use` trees (which may span lines and nest groups).
    while let Some(at) = rest.find("use ") {
        let before = rest[..at].chars().last();
        let after = &rest[at + 4..];
        let Some(end) = after.find(';') else { break };
        if before.is_none_or(|c| !c.is_alphanumeric() && c != '_') {
            let tree = &after[..end];
            if ["crate", "super", "self"]
                .iter()
                .any(|start| tree.trim_start().starts_with(start))
            {
                expand(&[], tree, &mut out);
            }
        }
        rest = &after[end..];
    }
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

/// The module `path` names from `module` (the longest module prefix), or
/// `None` for the root.
fn resolve(
    module: &ModulePath,
    path: &[String],
    modules: &BTreeMap<ModulePath, PathBuf>,
) -> Option<ModulePath> {
    let mut base: ModulePath = Vec::new();
    let mut segments = path.iter().peekable();
    match segments.next().map(String::as_str) {
        Some("crate") => {}
        Some("self") => base = module.clone(),
        Some("super") => {
            base = module.clone();
            base.pop();
            while segments.peek().map(|s| s.as_str()) == Some("super") {
                segments.next();
                base.pop();
            }
        }
        _ => return None,
    }
    for segment in segments {
        let mut next = base.clone();
        next.push(segment.clone());
        if !modules.contains_key(&next) {
            break;
        }
        base = next;
    }
    (!base.is_empty()).then_some(base)
}

fn graph(src: &Path) -> Graph {
    let modules = modules(src);
    let mut graph = Graph::new();
    for (module, file) in &modules {
        if module.is_empty() {
            continue;
        }
        let text = std::fs::read_to_string(file).unwrap();
        let uses: BTreeSet<ModulePath> = paths(&code(&text))
            .iter()
            .filter_map(|path| resolve(module, path, &modules))
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

#[test]
fn a_circle_is_found_and_named() {
    let m = |s: &str| vec![s.to_owned()];
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
