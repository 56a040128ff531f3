//! The webhook module's files import one another one way only: no two of
//! them import each other, directly or around a circle.

use std::collections::BTreeMap;
use std::path::Path;

/// Each module of `src/webhook` with the sibling modules it imports
/// (`use super::name...`).
fn imports() -> BTreeMap<String, Vec<String>> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/webhook");
    let mut graph = BTreeMap::new();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let file = entry.unwrap().path();
        let name = file.file_stem().unwrap().to_str().unwrap().to_owned();
        if name == "mod" {
            continue;
        }
        let source = std::fs::read_to_string(&file).unwrap();
        let mut used: Vec<String> = source
            .lines()
            .filter_map(|line| line.trim().strip_prefix("use super::"))
            .map(|rest| {
                rest.split(|c: char| !(c.is_alphanumeric() || c == '_'))
                    .next()
                    .unwrap_or_default()
                    .to_owned()
            })
            .filter(|module| module != &name)
            .collect();
        used.sort();
        used.dedup();
        graph.insert(name, used);
    }
    graph
}

/// A circle through `from`, if any, as the path that closes it.
fn circle(
    graph: &BTreeMap<String, Vec<String>>,
    from: &str,
    path: &mut Vec<String>,
) -> Option<Vec<String>> {
    if let Some(start) = path.iter().position(|seen| seen == from) {
        let mut found = path[start..].to_vec();
        found.push(from.to_owned());
        return Some(found);
    }
    path.push(from.to_owned());
    for next in graph.get(from).into_iter().flatten() {
        if let Some(found) = circle(graph, next, path) {
            return Some(found);
        }
    }
    path.pop();
    None
}

#[test]
fn no_webhook_modules_import_each_other() {
    let graph = imports();
    // The files this test knows of, so a rename cannot make it vacuous.
    for module in ["classify", "event", "parse", "verify", "verdict", "words"] {
        assert!(graph.contains_key(module), "{module} missing: {graph:?}");
    }
    assert!(graph["classify"].contains(&"event".to_owned()), "{graph:?}");
    assert!(
        graph["event"].is_empty(),
        "event imports {:?}",
        graph["event"]
    );
    for module in graph.keys() {
        if let Some(found) = circle(&graph, module, &mut Vec::new()) {
            panic!("import circle: {}", found.join(" -> "));
        }
    }
}

#[test]
fn the_circle_finder_finds_a_circle() {
    let graph = BTreeMap::from([
        ("a".to_owned(), vec!["b".to_owned()]),
        ("b".to_owned(), vec!["c".to_owned()]),
        ("c".to_owned(), vec!["a".to_owned()]),
    ]);
    assert_eq!(
        circle(&graph, "a", &mut Vec::new()),
        Some(vec!["a".into(), "b".into(), "c".into(), "a".into()])
    );
}
