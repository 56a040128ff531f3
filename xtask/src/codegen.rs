//! `cargo xtask codegen [--check]`: the generated client (`generated.rs`)
//! from the OpenAPI spec, then the other generators' files (see `main.rs`).

use std::path::Path;
use std::sync::{Arc, Mutex};

use anyhow::{bail, Context, Result};
use openapiv3::OpenAPI;
use progenitor::{GenerationSettings, Generator, InterfaceStyle, TagStyle, TypeImpl};

use crate::replacements::REPLACEMENTS;
use crate::{
    control_views, diff, enums, postprocess, preprocess, rust_file, sdk_records, sdk_types,
    spec_model, views, CONTROL_SPEC_PATH, SPEC_PATH,
};

/// Where the generated client lives, relative to the workspace root.
pub const GENERATED_PATH: &str = "crates/crossborder-api/src/generated.rs";

/// Every file `run` writes, relative to the workspace root, in its order.
pub const FILES: [&str; 9] = [
    GENERATED_PATH,
    views::VIEWS_PATH,
    enums::ENUMS_PATH,
    sdk_types::PAYOUT_PATH,
    sdk_types::BUSINESS_PATH,
    sdk_types::PERSON_PATH,
    sdk_types::PARTS_PATH,
    sdk_records::RECORDS_PATH,
    control_views::STATE_PATH,
];

/// The end of `cargo xtask codegen --help`: the files it writes.
pub fn files_help() -> String {
    let mut help = String::from("Writes, from openapi/crossborder.yaml:\n");
    for path in &FILES[..FILES.len() - 1] {
        help.push_str(&format!("  {path}\n"));
    }
    help.push_str(&format!(
        "and from {CONTROL_SPEC_PATH}:\n  {}",
        FILES[FILES.len() - 1]
    ));
    help
}

pub fn run(root: &Path, check: bool, spec: Option<&Path>) -> Result<()> {
    let spec_path = spec.map_or_else(|| root.join(SPEC_PATH), Path::to_path_buf);
    let spec = read(&spec_path)?;
    let control = read(&root.join(CONTROL_SPEC_PATH))?;
    let mut files = vec![
        (GENERATED_PATH, generate(spec.clone(), &spec_path)?),
        (views::VIEWS_PATH, views::generate(&spec)?),
        (enums::ENUMS_PATH, enums::generate(&spec)?),
    ];
    files.extend(sdk_types::generate(&spec)?);
    files.push((sdk_records::RECORDS_PATH, sdk_records::generate(&spec)?));
    files.push((
        control_views::STATE_PATH,
        control_views::generate(&control)?,
    ));
    let mut stale = Vec::new();
    for (path, code) in files {
        let out_path = root.join(path);
        if check {
            let current = std::fs::read_to_string(&out_path).unwrap_or_default();
            if current == code {
                println!("{path} is up to date");
            } else {
                eprint!("{}", diff::unified(&current, &code, path, "regenerated"));
                stale.push(path);
            }
        } else {
            std::fs::write(&out_path, &code)
                .with_context(|| format!("writing {}", out_path.display()))?;
            println!("codegen: wrote {path} ({} lines)", code.lines().count());
        }
    }
    if !stale.is_empty() {
        bail!(
            "{} out of date with {SPEC_PATH}; run `cargo xtask codegen`",
            stale.join(" and ")
        );
    }
    Ok(())
}

/// The OpenAPI document at `path`, read once for every generator.
fn read(path: &Path) -> Result<OpenAPI> {
    let shown = path.display();
    let text = std::fs::read_to_string(path).with_context(|| format!("reading {shown}"))?;
    spec_model::parse(&text, &shown.to_string())
}

/// The generated client from `spec` (read from `spec_path`), preprocessed;
/// returns the formatted file text.
pub fn generate(mut spec: OpenAPI, spec_path: &Path) -> Result<String> {
    let shown = spec_path.display();
    let report = preprocess::preprocess(&mut spec);
    for note in &report.notes {
        println!("codegen: {note}");
    }
    for (name, _) in REPLACEMENTS {
        let present = spec
            .components
            .as_ref()
            .is_some_and(|c| c.schemas.contains_key(*name));
        if !present {
            println!("codegen: warning: component schema `{name}` not found; no replacement applied for it");
        }
    }

    let mut settings = GenerationSettings::new();
    settings
        .with_interface(InterfaceStyle::Builder)
        .with_tag(TagStyle::Merged)
        // Put behind the generated crate's `schemars` feature by
        // `postprocess` (off by default for users).
        .with_derive("schemars::JsonSchema")
        // Per-client state (the API key, the user agent) lives in the
        // hand-written `ClientState`; the hook puts it on every request, so a
        // caller-supplied `reqwest::Client` carries the key too.
        .with_inner_type(tokens("crate::ClientState")?)
        .with_pre_hook(tokens("crate::ClientState::apply")?);
    for (name, rust) in REPLACEMENTS {
        settings.with_replacement(
            *name,
            *rust,
            [TypeImpl::Display, TypeImpl::FromStr].into_iter(),
        );
    }

    let tokens = catch_panic(|| Generator::new(&settings).generate_tokens(&spec))
        .map_err(|msg| anyhow::anyhow!("progenitor panicked while generating from {shown}: {msg}"))?
        .with_context(|| format!("progenitor failed to generate a client from {shown}"))?;

    let mut file: syn::File = syn::parse2(tokens)
        .with_context(|| format!("progenitor produced unparsable Rust from {shown}"))?;
    postprocess::postprocess(&mut file, &report.renames)?;
    Ok(format!(
        "{}{}",
        rust_file::header(SPEC_PATH),
        rust_file::blank_lines(&prettyplease::unparse(&file))
    ))
}

/// Parses a Rust path into the token stream progenitor's settings take.
fn tokens<T: std::str::FromStr>(path: &str) -> Result<T>
where
    T::Err: std::fmt::Display,
{
    path.parse()
        .map_err(|error| anyhow::anyhow!("`{path}` is not a Rust path: {error}"))
}

/// Runs `f`, turning a panic into `Err(message)` without printing the
/// default panic output.
fn catch_panic<T>(f: impl FnOnce() -> T) -> std::result::Result<T, String> {
    let captured: Arc<Mutex<Option<String>>> = Arc::default();
    let sink = Arc::clone(&captured);
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let payload = info.payload();
        let msg = payload
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "unknown panic payload".to_string());
        let at = info
            .location()
            .map(|l| format!(" (at {}:{})", l.file(), l.line()))
            .unwrap_or_default();
        if let Ok(mut slot) = sink.lock() {
            *slot = Some(format!("{msg}{at}"));
        }
    }));
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(f));
    std::panic::set_hook(previous);
    result.map_err(|_| {
        captured
            .lock()
            .ok()
            .and_then(|mut s| s.take())
            .unwrap_or_else(|| "unknown panic".to_string())
    })
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    use super::*;

    /// `cargo xtask codegen --help` names every file codegen writes.
    #[test]
    fn help_lists_every_file_written() {
        let mut cli = crate::Cli::command();
        let help = cli
            .find_subcommand_mut("codegen")
            .unwrap()
            .render_help()
            .to_string();
        assert!(
            help.starts_with("Regenerate the nine generated files"),
            "{help}"
        );
        for path in FILES {
            assert!(
                help.contains(&format!("  {path}\n")),
                "{path} not in\n{help}"
            );
        }
        assert!(help.contains(
            "from openapi/sandbox-control.yaml:\n  crates/crossborder-sandbox/src/control/state.rs"
        ));
    }
}
