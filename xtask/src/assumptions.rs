//! The first check of `cargo xtask lint-spec`: `openapi/ASSUMPTIONS.md`
//! is the one place a decision is stated, so
//! - every row's id (`A14`, `B32`, `C25`...) is unique;
//! - every id the spec documents name (in an `x-assumption` or in prose)
//!   is a row, and so is every id a row names;
//! - every row names the tests that prove it: `Tests:` followed by at
//!   least one test function or test file in backticks
//!   (`funding::one_webhook_per_status_change_and_no_other`,
//!   `tests/contract/tests/sandbox_control.rs`): each function is a `fn`
//!   somewhere in the tree, each file the end of a path in it. No row is
//!   exempt: [`UNTESTED`], the rows written before this check, is empty.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use anyhow::{bail, Context, Result};

use crate::{CONTROL_SPEC_PATH, SPEC_PATH};

/// The decisions' file, relative to the workspace root.
pub const ASSUMPTIONS_PATH: &str = "openapi/ASSUMPTIONS.md";

/// Where the tests rows name live (relative to the workspace root).
const TEST_TREES: &[&str] = &["crates", "tests", "xtask"];

/// Rows that do not name their tests with `Tests:` yet: none, since every
/// row written before this check was given its tests. Nothing may be
/// added: a new row names its tests.
const UNTESTED: &[&str] = &[];

/// What rows may name as their tests.
#[derive(Debug, Default)]
struct Tree {
    /// Every `fn`'s name.
    functions: BTreeSet<String>,
    /// Every `.rs` file, relative to the root, with `/`.
    files: Vec<String>,
}

/// One row of a table of ASSUMPTIONS.md.
#[derive(Debug)]
struct Row {
    id: String,
    /// 1-based line number.
    line: usize,
    text: String,
}

/// Runs the check on the tree at `root`.
pub fn run(root: &Path) -> Result<()> {
    let read = |path: &str| {
        std::fs::read_to_string(root.join(path)).with_context(|| format!("reading {path}"))
    };
    let assumptions = read(ASSUMPTIONS_PATH)?;
    let specs = [
        (SPEC_PATH, read(SPEC_PATH)?),
        (CONTROL_SPEC_PATH, read(CONTROL_SPEC_PATH)?),
    ];
    let mut tree = Tree::default();
    for dir in TEST_TREES {
        collect(root, &root.join(dir), &mut tree)?;
    }
    let specs: Vec<(&str, &str)> = specs.iter().map(|(p, t)| (*p, t.as_str())).collect();
    let problems = check(&assumptions, &specs, &tree, UNTESTED);
    if problems.is_empty() {
        let rows = rows(&assumptions).len();
        println!(
            "{ASSUMPTIONS_PATH}: {rows} rows, ids unique, every reference a row, every row \
             names tests that are present"
        );
        return Ok(());
    }
    for problem in &problems {
        eprintln!("{problem}");
    }
    bail!("{ASSUMPTIONS_PATH}: {} problem(s) (above)", problems.len())
}

/// Every problem of `assumptions` and of the ids `specs` (path, text)
/// name, given the function names of the tree and the rows allowed to name
/// no test yet.
fn check(assumptions: &str, specs: &[(&str, &str)], tree: &Tree, untested: &[&str]) -> Vec<String> {
    let rows = rows(assumptions);
    let mut problems = Vec::new();
    let mut first: BTreeMap<&str, usize> = BTreeMap::new();
    for row in &rows {
        if let Some(line) = first.get(row.id.as_str()) {
            problems.push(format!(
                "{ASSUMPTIONS_PATH}:{}: {} is already the id of the row on line {line}: \
                 one row per id (give this one an unused id)",
                row.line, row.id
            ));
        } else {
            first.insert(&row.id, row.line);
        }
    }
    let known = |id: &str| first.contains_key(id);
    let mut sources: Vec<(&str, &str)> = specs.to_vec();
    sources.push((ASSUMPTIONS_PATH, assumptions));
    for (path, text) in sources {
        for (number, line) in text.lines().enumerate() {
            for id in references(line) {
                if !known(id) {
                    problems.push(format!(
                        "{path}:{}: refers to {id}, which is no row of {ASSUMPTIONS_PATH}",
                        number + 1
                    ));
                }
            }
        }
    }
    for row in &rows {
        let listed = untested.contains(&row.id.as_str());
        match named_tests(&row.text) {
            None if listed => {}
            None => problems.push(format!(
                "{ASSUMPTIONS_PATH}:{}: {} names no test: end its decision with `Tests:` and \
                 the test functions that prove it, in backticks",
                row.line, row.id
            )),
            Some(tests) => {
                if listed {
                    problems.push(format!(
                        "{ASSUMPTIONS_PATH}:{}: {} now names its tests: take it out of \
                         UNTESTED in xtask/src/assumptions.rs",
                        row.line, row.id
                    ));
                }
                if tests.is_empty() {
                    problems.push(format!(
                        "{ASSUMPTIONS_PATH}:{}: {}'s `Tests:` names no test function or file \
                         (in backticks: a snake_case name such as `module::a_test_name`, or a \
                         path ending in `.rs`)",
                        row.line, row.id
                    ));
                }
                for test in tests {
                    if test.ends_with(".rs") {
                        let suffix = format!("/{test}");
                        if !tree
                            .files
                            .iter()
                            .any(|f| *f == test || f.ends_with(&suffix))
                        {
                            problems.push(format!(
                                "{ASSUMPTIONS_PATH}:{}: {} names the test file `{test}`, but \
                                 no such file exists under {}",
                                row.line,
                                row.id,
                                TEST_TREES.join(", ")
                            ));
                        }
                        continue;
                    }
                    let name = test.rsplit("::").next().unwrap_or(test);
                    if !tree.functions.contains(name) {
                        problems.push(format!(
                            "{ASSUMPTIONS_PATH}:{}: {} names the test `{test}`, but no \
                             `fn {name}` exists under {}",
                            row.line,
                            row.id,
                            TEST_TREES.join(", ")
                        ));
                    }
                }
            }
        }
    }
    for id in untested {
        if !known(id) {
            problems.push(format!(
                "UNTESTED in xtask/src/assumptions.rs lists {id}, which is no row of \
                 {ASSUMPTIONS_PATH}: take it out"
            ));
        }
    }
    problems
}

/// The rows of the file's tables: lines `| <id> | ...` whose first cell
/// is an id.
fn rows(text: &str) -> Vec<Row> {
    text.lines()
        .enumerate()
        .filter_map(|(number, line)| {
            let rest = line.strip_prefix('|')?;
            let (cell, _) = rest.split_once('|')?;
            let id = cell.trim();
            is_id(id).then(|| Row {
                id: id.to_owned(),
                line: number + 1,
                text: line.to_owned(),
            })
        })
        .collect()
}

/// Whether `word` is a row id: a letter A to F and one to three digits.
fn is_id(word: &str) -> bool {
    let mut chars = word.chars();
    matches!(chars.next(), Some('A'..='F'))
        && (2..=4).contains(&word.len())
        && chars.all(|c| c.is_ascii_digit())
}

/// The ids a line names: whole words that are ids (`B9`, `A14`) outside
/// backticks (code such as `FF D8 FF` is not a reference), the first cell
/// of a row of ASSUMPTIONS.md included (always known).
fn references(line: &str) -> Vec<&str> {
    line.split('`')
        .step_by(2)
        .flat_map(|prose| prose.split(|c: char| !c.is_ascii_alphanumeric()))
        .filter(|word| is_id(word))
        .collect()
}

/// The tests a row names after `Tests:` (up to the end of its cell), or
/// `None` when it has no `Tests:`. A test is a backticked snake_case name,
/// with a module path or not (`funding::a_test`), or a backticked path
/// ending in `.rs`; other backticked words (`tests/described`, a crate's
/// name) say where a test is.
fn named_tests(row: &str) -> Option<Vec<&str>> {
    let (_, after) = row.split_once("Tests:")?;
    let cell = after.split('|').next().unwrap_or(after);
    Some(
        cell.split('`')
            .skip(1)
            .step_by(2)
            .filter(|word| {
                if word.ends_with(".rs") {
                    return true;
                }
                let last = word.rsplit("::").next().unwrap_or(word);
                word.chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_' || c == ':')
                    && last.contains('_')
            })
            .collect(),
    )
}

/// Adds every `.rs` file under `dir` (skipping `target`) and the name of
/// every `fn` in it to `out`.
fn collect(root: &Path, dir: &Path, out: &mut Tree) -> Result<()> {
    let entries = std::fs::read_dir(dir).with_context(|| format!("reading {}", dir.display()))?;
    for entry in entries {
        let entry = entry.with_context(|| format!("reading {}", dir.display()))?;
        let path = entry.path();
        let kind = entry
            .file_type()
            .with_context(|| format!("reading {}", path.display()))?;
        if kind.is_dir() {
            if entry.file_name() != "target" && entry.file_name() != "node_modules" {
                collect(root, &path, out)?;
            }
        } else if path.extension().is_some_and(|e| e == "rs") {
            let text = std::fs::read_to_string(&path)
                .with_context(|| format!("reading {}", path.display()))?;
            out.functions.extend(function_names(&text));
            if let Ok(relative) = path.strip_prefix(root) {
                out.files
                    .push(relative.to_string_lossy().replace('\\', "/"));
            }
        }
    }
    Ok(())
}

/// The names after `fn ` in `text`.
fn function_names(text: &str) -> impl Iterator<Item = String> + '_ {
    text.split("fn ").skip(1).filter_map(|rest| {
        let name: String = rest
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        (!name.is_empty()).then_some(name)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const HEADER: &str = "| # | Topic | Decision | Tolerance |\n|---|---|---|---|\n";

    fn tree() -> Tree {
        Tree {
            functions: ["one_test", "another_test"]
                .into_iter()
                .map(String::from)
                .collect(),
            files: vec!["tests/contract/tests/sandbox_control.rs".into()],
        }
    }

    fn problems(rows: &str, spec: &str, untested: &[&str]) -> Vec<String> {
        let assumptions = format!("{HEADER}{rows}");
        check(
            &assumptions,
            &[("openapi/crossborder.yaml", spec)],
            &tree(),
            untested,
        )
    }

    #[test]
    fn a_clean_file_has_no_problem() {
        let rows = "| A1 | x | Decided (B2). Tests: `tests/sandbox` `module::one_test` | — |\n\
                    | B2 | y | Also (`FF D8 FF`). Tests: `another_test`, `sandbox_control.rs` | — |\n";
        let spec = "      x-assumption: A1, B2\n      description: see B2.\n";
        assert_eq!(problems(rows, spec, &[]), Vec::<String>::new());
    }

    #[test]
    fn a_duplicate_id_fails_naming_both_lines() {
        let rows =
            "| B3 | x | One. Tests: `one_test` | — |\n| B3 | x | Two. Tests: `one_test` | — |\n";
        assert_eq!(
            problems(rows, "", &[]),
            [
                "openapi/ASSUMPTIONS.md:4: B3 is already the id of the row on line 3: one row \
                 per id (give this one an unused id)"
            ]
        );
    }

    #[test]
    fn a_dangling_reference_fails_naming_the_file_and_line() {
        let rows = "| A14 | x | One. Tests: `one_test` | — |\n";
        let spec = "info:\n  x-assumption: A14, A99\n";
        assert_eq!(
            problems(rows, spec, &[]),
            ["openapi/crossborder.yaml:2: refers to A99, which is no row of openapi/ASSUMPTIONS.md"]
        );
        // A reference inside ASSUMPTIONS.md too.
        let rows = "| A14 | x | As C3. Tests: `one_test` | — |\n";
        assert_eq!(
            problems(rows, "", &[]),
            ["openapi/ASSUMPTIONS.md:3: refers to C3, which is no row of openapi/ASSUMPTIONS.md"]
        );
    }

    #[test]
    fn a_row_without_a_test_fails() {
        let rows = "| C25 | x | Https only (`crates/x`) | — |\n";
        assert_eq!(
            problems(rows, "", &[]),
            [
                "openapi/ASSUMPTIONS.md:3: C25 names no test: end its decision with `Tests:` \
                 and the test functions that prove it, in backticks"
            ]
        );
        let rows = "| C25 | x | Https only. Tests: `crates/x` | — |\n";
        assert_eq!(
            problems(rows, "", &[]),
            [
                "openapi/ASSUMPTIONS.md:3: C25's `Tests:` names no test function or file (in \
                 backticks: a snake_case name such as `module::a_test_name`, or a path ending \
                 in `.rs`)"
            ]
        );
    }

    #[test]
    fn a_named_test_that_does_not_exist_fails() {
        let rows = "| C25 | x | Https only. Tests: `webhooks::no_such_test`, `one_test`, \
                    `tests/webhooks.rs` | — |\n";
        assert_eq!(
            problems(rows, "", &[]),
            [
                "openapi/ASSUMPTIONS.md:3: C25 names the test `webhooks::no_such_test`, but no \
                 `fn no_such_test` exists under crates, tests, xtask",
                "openapi/ASSUMPTIONS.md:3: C25 names the test file `tests/webhooks.rs`, but no \
                 such file exists under crates, tests, xtask",
            ]
        );
    }

    #[test]
    fn the_untested_list_only_shrinks() {
        let rows = "| A1 | x | Old | — |\n| A2 | x | Now tested. Tests: `one_test` | — |\n";
        assert_eq!(
            problems(rows, "", &["A1", "A2", "A3"]),
            [
                "openapi/ASSUMPTIONS.md:4: A2 now names its tests: take it out of UNTESTED in \
                 xtask/src/assumptions.rs",
                "UNTESTED in xtask/src/assumptions.rs lists A3, which is no row of \
                 openapi/ASSUMPTIONS.md: take it out",
            ]
        );
    }

    #[test]
    fn ids_are_whole_words() {
        assert_eq!(
            references("see B9, A14 and (C25); E.164, B2B, AB12, A1234, `FF D8 FF` D40"),
            ["B9", "A14", "C25", "D40"]
        );
        assert_eq!(
            function_names("fn a_b() {}\npub(crate) async fn c_d<T>() {}\nfn() -> u8")
                .collect::<Vec<_>>(),
            ["a_b", "c_d"]
        );
    }

    /// The real file and specs pass (what CI runs, without the linters).
    #[test]
    fn the_tree_passes() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        run(&root).unwrap();
    }
}
