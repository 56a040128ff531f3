//! The SDK's root fits on one screen: the client, its builder, the error,
//! the retry and wait options, the resource handles, `Currency`, `Decimal`
//! and `Money`, and the modules the rest lives in (CHANGELOG, "a root that
//! fits on one screen"). A name added to the root fails this test.

use std::collections::BTreeSet;

/// The public names `src/lib.rs` declares at the root: its `pub mod`s and
/// the names of its `pub use`s (comments and doc lines left out).
fn root_names() -> BTreeSet<String> {
    let lib = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/src/lib.rs")).unwrap();
    let code: String = lib
        .lines()
        .map(str::trim)
        .filter(|line| !line.starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n");
    let mut names = BTreeSet::new();
    let mut rest = code.as_str();
    while let Some(at) = rest.find("pub ") {
        // What rustdoc hides (`#[doc(hidden)]`, the `dec!` macro's
        // internals) is not on the root's page.
        let hidden = rest[..at].trim_end().ends_with("#[doc(hidden)]");
        rest = &rest[at + 4..];
        if let Some(module) = rest.strip_prefix("mod ") {
            let name: String = module
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            // An inline module's body is not the root's: skip to its end.
            let after = module[name.len()..].trim_start();
            if after.starts_with('{') {
                let mut depth = 0;
                let end = after
                    .char_indices()
                    .find(|(_, c)| {
                        depth += match c {
                            '{' => 1,
                            '}' => -1,
                            _ => 0,
                        };
                        depth == 0
                    })
                    .unwrap()
                    .0;
                rest = &after[end..];
            }
            if !hidden {
                names.insert(name);
            }
        } else if let Some(used) = rest.strip_prefix("use ") {
            let statement = &used[..used.find(';').unwrap()];
            let list = match (statement.find('{'), statement.rfind('}')) {
                (Some(open), Some(close)) => &statement[open + 1..close],
                _ => statement.rsplit("::").next().unwrap(),
            };
            for item in list
                .split(',')
                .map(str::trim)
                .filter(|item| !item.is_empty())
            {
                let name = item
                    .rsplit(" as ")
                    .next()
                    .unwrap()
                    .rsplit("::")
                    .next()
                    .unwrap();
                names.insert(name.trim().to_owned());
            }
        }
    }
    // Exported macros are shown at the root too.
    let src = concat!(env!("CARGO_MANIFEST_DIR"), "/src");
    for entry in std::fs::read_dir(src).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|ext| ext == "rs") {
            let text = std::fs::read_to_string(&path).unwrap();
            for part in text.split("#[macro_export]").skip(1) {
                if let Some(after) = part.trim_start().strip_prefix("macro_rules! ") {
                    let name: String = after
                        .chars()
                        .take_while(|c| c.is_alphanumeric() || *c == '_')
                        .collect();
                    names.insert(name);
                }
            }
        }
    }
    names
}

#[test]
fn the_root_holds_the_client_the_errors_the_handles_and_the_modules() {
    let names = root_names();
    let expected = [
        "Banks",
        "Businesses",
        "Client",
        "ClientBuilder",
        "Collections",
        "Currency",
        "Decimal",
        "Error",
        "Money",
        "Outcome",
        "Payouts",
        "Quotes",
        "Result",
        "RetryPolicy",
        "Sandbox",
        "WaitOptions",
        "Wallet",
        "Webhooks",
        "config",
        "dec",
        "error",
        "json",
        "onboard",
        "rules",
        "types",
        "webhook",
    ];
    assert_eq!(
        names,
        expected
            .iter()
            .map(|name| name.to_string())
            .collect::<BTreeSet<_>>()
    );
    assert!(names.len() <= 40);
}

/// The types that had two copies are one type each: a value of one is a
/// value of the other (this does not compile otherwise).
#[test]
fn roles_statuses_and_environments_are_one_type_each() {
    let role: crossborder::rules::kyb::PersonRole = crossborder::types::PersonRole::Ubo;
    assert_eq!(role.as_str(), "UBO");
    let status: crossborder_core::status::TransactionStatus =
        crossborder::types::TransactionStatus::Completed;
    assert!(status.is_terminal());
    let environment: crossborder_sandbox::Environment = crossborder::config::Environment::Staging;
    assert_eq!(environment.to_string(), "staging");
    assert_eq!(
        crossborder::types::Quote::DEFAULT_LIFETIME,
        crossborder_core::quote::QUOTE_LIFETIME
    );
}

/// The public types a source tree declares (`pub struct`, `enum`, `trait`,
/// `type`; test modules left out), each with the file that declares it.
fn declared_types(dir: &std::path::Path, found: &mut Vec<(String, String)>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            declared_types(&path, found);
        } else if path.extension().is_some_and(|ext| ext == "rs") {
            let text = std::fs::read_to_string(&path).unwrap();
            let before_tests = text.split("#[cfg(test)]").next().unwrap_or_default();
            for line in before_tests.lines().map(str::trim_start) {
                for kind in ["pub struct ", "pub enum ", "pub trait ", "pub type "] {
                    if let Some(rest) = line.strip_prefix(kind) {
                        let name: String = rest
                            .chars()
                            .take_while(|c| c.is_alphanumeric() || *c == '_')
                            .collect();
                        // A macro's template (`pub enum $type`) declares none.
                        if !name.is_empty() {
                            found.push((name, path.display().to_string()));
                        }
                    }
                }
            }
        }
    }
}

/// No two public types of the SDK share a name: neither two of its own
/// (in any of its public modules) nor one of its own and one of the rules
/// it re-exports from core as `crossborder::rules` (issue #22: a
/// `crossborder::PersonRole` that was not the `PersonRole` the rules take).
#[test]
fn no_two_public_types_share_a_name() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut found = Vec::new();
    declared_types(&root.join("src"), &mut found);
    let core = root.join("../crossborder-core/src");
    // The modules `crossborder::rules` re-exports.
    for module in ["collection.rs", "funding.rs", "kyb", "payout"] {
        let path = core.join(module);
        if path.is_dir() {
            declared_types(&path, &mut found);
        } else {
            let mut one = Vec::new();
            declared_types(path.parent().unwrap(), &mut one);
            let file = path.display().to_string();
            found.extend(one.into_iter().filter(|(_, at)| *at == file));
        }
    }
    assert!(found.len() > 100, "the walk found {} types", found.len());
    let mut seen = std::collections::BTreeMap::<&str, &str>::new();
    for (name, file) in &found {
        if let Some(first) = seen.insert(name, file) {
            panic!("`{name}` is declared in {first} and in {file}");
        }
    }
}
