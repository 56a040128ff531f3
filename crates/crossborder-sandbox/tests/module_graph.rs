//! The sandbox's modules import each other without a loop: records and
//! state sit below the handlers, so a handler can change without touching
//! what the state is made of.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// `crate::<module>` references of each module's code (comments and tests
/// left out).
fn graph() -> BTreeMap<String, BTreeSet<String>> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let modules: BTreeSet<String> = std::fs::read_dir(&src)
        .unwrap()
        .filter_map(|entry| {
            let name = entry.unwrap().file_name().into_string().unwrap();
            name.strip_suffix(".rs").map(str::to_owned)
        })
        .collect();
    let mut graph = BTreeMap::new();
    for module in &modules {
        let text = std::fs::read_to_string(src.join(format!("{module}.rs"))).unwrap();
        let code = text.split("#[cfg(test)]").next().unwrap_or_default();
        let mut uses = BTreeSet::new();
        let mut in_group = false;
        for line in code.lines().map(str::trim) {
            if line.starts_with("//") {
                continue;
            }
            if in_group || line.starts_with("use crate::{") {
                in_group = !line.contains('}');
                let list = line.trim_start_matches("use crate::{");
                for item in list.split(',') {
                    let name = item.trim().split("::").next().unwrap_or_default();
                    uses.insert(name.trim_end_matches(['}', ';']).to_owned());
                }
                continue;
            }
            for part in line.split("crate::").skip(1) {
                let name: String = part
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                uses.insert(name);
            }
        }
        uses.retain(|name| modules.contains(name) && name != module);
        graph.insert(module.clone(), uses);
    }
    graph
}

/// A module that imports itself through others, with the path, if any.
fn find_cycle(graph: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    fn visit(
        node: &str,
        graph: &BTreeMap<String, BTreeSet<String>>,
        path: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) -> Option<Vec<String>> {
        if let Some(at) = path.iter().position(|seen| seen == node) {
            let mut cycle = path[at..].to_vec();
            cycle.push(node.to_owned());
            return Some(cycle);
        }
        if done.contains(node) {
            return None;
        }
        path.push(node.to_owned());
        for next in graph.get(node).into_iter().flatten() {
            if let Some(cycle) = visit(next, graph, path, done) {
                return Some(cycle);
            }
        }
        path.pop();
        done.insert(node.to_owned());
        None
    }
    let mut done = BTreeSet::new();
    graph
        .keys()
        .find_map(|node| visit(node, graph, &mut Vec::new(), &mut done))
}

#[test]
fn modules_import_each_other_without_a_loop() {
    let graph = graph();
    assert!(
        graph["payout"].contains("records"),
        "the reader sees imports"
    );
    assert_eq!(find_cycle(&graph), None);
    for lower in [
        "state",
        "account",
        "records",
        "business_record",
        "bank_directory",
        "document_store",
        "webhook_sender",
        "error",
    ] {
        for handler in HANDLERS {
            assert!(
                !graph[lower].contains(handler),
                "{lower} imports the handler {handler}"
            );
        }
    }
}

/// The modules that answer operations; only the router imports them.
const HANDLERS: [&str; 9] = [
    "balance",
    "banks",
    "business",
    "collection",
    "documents",
    "funding",
    "payout",
    "quote",
    "webhook",
];

#[test]
fn handlers_do_not_import_each_other() {
    let graph = graph();
    for handler in HANDLERS {
        for other in HANDLERS {
            assert!(
                !graph[handler].contains(other),
                "the handler {handler} imports the handler {other}: move what they share below both"
            );
        }
    }
}

#[test]
fn a_loop_is_found() {
    let mut graph = BTreeMap::new();
    graph.insert("a".to_owned(), BTreeSet::from(["b".to_owned()]));
    graph.insert("b".to_owned(), BTreeSet::from(["a".to_owned()]));
    assert_eq!(
        find_cycle(&graph),
        Some(vec!["a".into(), "b".into(), "a".into()])
    );
}
