//! Rewrites of progenitor's formatted output that its settings cannot
//! express. Each rewrite matches progenitor 0.15's exact output and fails
//! code generation when it no longer finds it (a new progenitor), rather
//! than leaving the code silently unchanged.
//!
//! Both rewrites take per-call work off every operation (`cargo xtask bench`,
//! `sdk_vs_raw`; `xtask/src/bench/RESULTS.md` has the counts):
//!
//! - **No `api-version` header.** progenitor adds `info.version` as an
//!   `api-version` header to every request; the spec defines no such header
//!   (the version is the `/v1` of the base URL, ASSUMPTIONS A30). Building
//!   the header map, merging it into the request and taking the header out
//!   again cost more than a tenth of the generated client's own work.
//! - **No copy of the response headers, and a bounded body.**
//!   `ResponseValue::from_response` clones the response's header map before
//!   reading the body, and reads a body of any size;
//!   `crossborder_api::response::from_response` takes the map instead, and
//!   reads the body under the limit of the client's state (`client.inner`,
//!   a `ClientState`), with the same errors plus one for a body over it.
//!
//! A third takes a dependency off every downstream build: typify checks a
//! `pattern` with the `regress` regex engine (4 s of a user's first
//! `cargo build`, `cargo xtask bench --only build`), and the spec has one
//! pattern, the payout `sessionId`'s `^[A-Za-z0-9_-]+$` (ASSUMPTIONS B11),
//! which a byte check says exactly. Any other pattern fails generation
//! until its check is written here.

use anyhow::{bail, Result};

/// The statement that adds the header, as prettyplease prints it, trimmed
/// line by line.
const API_VERSION_APPEND: [&str; 7] = [
    "header_map",
    ".append(",
    "::reqwest::header::HeaderName::from_static(\"api-version\"),",
    "::reqwest::header::HeaderValue::from_static(",
    "super::Client::api_version(),",
    "),",
    ");",
];

const HEADER_MAP_LET: (&str, &str) = (
    "let mut header_map = ::reqwest::header::HeaderMap::with_capacity(",
    "usize);",
);

const HEADER_MAP_USE: &str = ".headers(header_map)";

const DECODE: &str = "ResponseValue::from_response(response)";
const DECODE_WITHOUT_COPY: &str = "crate::response::from_response(&client.inner, response)";

/// typify's check of the session id's pattern, as prettyplease prints it.
const SESSION_ID_PATTERN: &str = r#"            static PATTERN: ::std::sync::LazyLock<::regress::Regex> = ::std::sync::LazyLock::new(||
            { ::regress::Regex::new("^[A-Za-z0-9_-]+$").unwrap() });
            if PATTERN.find(value).is_none() {"#;

/// The same check without a regex engine: one or more ASCII letters,
/// digits, `_` or `-`, and nothing else.
const SESSION_ID_CHECK: &str = r#"            if value.is_empty()
                || !value.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
            {"#;

/// Applies every rewrite to the generated file's text.
pub fn postprocess(code: &str) -> Result<String> {
    let code = replace_patterns(code)?;
    let code = remove_api_version(&code)?;
    if !code.contains(DECODE) {
        bail!("codegen: progenitor's output has no `{DECODE}` left to replace; update xtask/src/postprocess.rs for this progenitor");
    }
    Ok(code.replace(DECODE, DECODE_WITHOUT_COPY))
}

/// Replaces typify's regex check of each known `pattern` by a byte check,
/// and refuses a pattern it does not know.
fn replace_patterns(code: &str) -> Result<String> {
    let code = code.replace(SESSION_ID_PATTERN, SESSION_ID_CHECK);
    if code.contains("::regress::") {
        bail!("codegen: progenitor's output checks a `pattern` xtask/src/postprocess.rs has no byte check for (only the sessionId's `^[A-Za-z0-9_-]+$`); write its check there, or the generated crate needs `regress` again");
    }
    Ok(code)
}

/// Removes the `api-version` statement from every operation, and the then
/// empty header map with its use when the operation sends no header of its
/// own; otherwise the map's capacity shrinks by one.
fn remove_api_version(code: &str) -> Result<String> {
    let lines: Vec<&str> = code.lines().collect();
    let mut out: Vec<String> = Vec::with_capacity(lines.len());
    let mut removed = 0;
    // An emptied map's `.headers(header_map)` is still to come.
    let mut drop_use = false;
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        let appends_version = lines.len() - i >= API_VERSION_APPEND.len()
            && API_VERSION_APPEND
                .iter()
                .zip(&lines[i..])
                .all(|(want, got)| got.trim() == *want);
        if appends_version {
            let Some(capacity) = out.last().and_then(|l| header_map_capacity(l)) else {
                bail!("codegen: the `api-version` statement at line {} of progenitor's output does not follow the header map's creation; update xtask/src/postprocess.rs", i + 1);
            };
            if capacity <= 1 {
                out.pop();
                drop_use = true;
            } else if let Some(last) = out.last_mut() {
                *last = last.replace(
                    &format!("{capacity}usize"),
                    &format!("{}usize", capacity - 1),
                );
            }
            removed += 1;
            i += API_VERSION_APPEND.len();
            continue;
        }
        if drop_use && line.trim() == HEADER_MAP_USE {
            drop_use = false;
            i += 1;
            continue;
        }
        if drop_use && header_map_capacity(line).is_some() {
            bail!("codegen: an operation's emptied header map is never used (line {}); update xtask/src/postprocess.rs", i + 1);
        }
        out.push(line.to_owned());
        i += 1;
    }
    if drop_use {
        bail!("codegen: the last operation's emptied header map is never used; update xtask/src/postprocess.rs");
    }
    if removed == 0 || out.iter().any(|l| l.contains("\"api-version\"")) {
        bail!("codegen: progenitor's `api-version` header is not where xtask/src/postprocess.rs looks for it; update it for this progenitor");
    }
    let mut text = out.join("\n");
    if code.ends_with('\n') {
        text.push('\n');
    }
    Ok(text)
}

/// `N` of `let mut header_map = ...::with_capacity(Nusize);`.
fn header_map_capacity(line: &str) -> Option<usize> {
    line.trim()
        .strip_prefix(HEADER_MAP_LET.0)?
        .strip_suffix(HEADER_MAP_LET.1)?
        .parse()
        .ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An operation as progenitor 0.15 prints it, with `extra` header
    /// statements after the `api-version` one.
    fn operation(capacity: usize, extra: &str) -> String {
        format!(
            r#"        pub async fn send(self) -> Result<ResponseValue<types::Thing>, Error<()>> {{
            let mut header_map = ::reqwest::header::HeaderMap::with_capacity({capacity}usize);
            header_map
                .append(
                    ::reqwest::header::HeaderName::from_static("api-version"),
                    ::reqwest::header::HeaderValue::from_static(
                        super::Client::api_version(),
                    ),
                );
{extra}            let request = client
                .client
                .get(url)
                .headers(header_map)
                .build()?;
            match response.status().as_u16() {{
                200u16 => ResponseValue::from_response(response).await,
                _ => Err(Error::UnexpectedResponse(response)),
            }}
        }}
"#
        )
    }

    #[test]
    fn an_operation_without_headers_loses_its_header_map() {
        let out = postprocess(&operation(1, "")).unwrap();
        assert_eq!(
            out,
            r#"        pub async fn send(self) -> Result<ResponseValue<types::Thing>, Error<()>> {
            let request = client
                .client
                .get(url)
                .build()?;
            match response.status().as_u16() {
                200u16 => crate::response::from_response(&client.inner, response).await,
                _ => Err(Error::UnexpectedResponse(response)),
            }
        }
"#
        );
    }

    #[test]
    fn an_operation_with_headers_keeps_them_in_a_smaller_map() {
        let extra = "            header_map.append(\"x-thing\", thing.to_string().try_into()?);\n";
        let out = postprocess(&operation(2, extra)).unwrap();
        assert!(
            out.contains(
                "HeaderMap::with_capacity(1usize);\n            header_map.append(\"x-thing\""
            ),
            "{out}"
        );
        assert!(out.contains(".headers(header_map)"), "{out}");
        assert!(!out.contains("api-version"), "{out}");
    }

    #[test]
    fn every_operation_is_rewritten() {
        let two = format!("{}{}", operation(1, ""), operation(1, ""));
        let out = postprocess(&two).unwrap();
        assert!(!out.contains("header_map"), "{out}");
        assert_eq!(out.matches(DECODE_WITHOUT_COPY).count(), 2);
    }

    #[test]
    fn the_session_id_pattern_becomes_a_byte_check_and_others_fail() {
        let typify = format!("{}\n{}", operation(1, ""), SESSION_ID_PATTERN);
        let out = postprocess(&typify).unwrap();
        assert!(out.ends_with(SESSION_ID_CHECK), "{out}");
        assert!(!out.contains("regress"), "{out}");
        let other = typify.replace("^[A-Za-z0-9_-]+$", "^[a-z]+$");
        let error = postprocess(&other).unwrap_err().to_string();
        assert!(
            error.starts_with("codegen: progenitor's output checks a `pattern`"),
            "{error}"
        );
    }

    #[test]
    fn output_of_another_shape_fails_instead_of_passing_through() {
        let moved = operation(1, "").replace("\"api-version\"", "\"x-api-version\"");
        let error = postprocess(&moved).unwrap_err().to_string();
        assert_eq!(error, "codegen: progenitor's `api-version` header is not where xtask/src/postprocess.rs looks for it; update it for this progenitor");
        let no_decode = operation(1, "").replace(DECODE, "ResponseValue::decode(response)");
        let error = postprocess(&no_decode).unwrap_err().to_string();
        assert_eq!(error, "codegen: progenitor's output has no `ResponseValue::from_response(response)` left to replace; update xtask/src/postprocess.rs for this progenitor");
    }
}
