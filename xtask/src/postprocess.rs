//! Edits of progenitor's output that its settings cannot express, made on
//! the parsed file (syn), not on its text. Each edit fails code generation
//! when it finds nothing to edit (a new progenitor), rather than leaving
//! the code silently unchanged.
//!
//! Both rewrites take per-call work off every operation (`cargo xtask bench`,
//! `sdk_vs_raw`; `bench/RESULTS.md` has the counts):
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
//!
//! Another takes `schemars` off every downstream build by default: the
//! `#[derive(schemars::JsonSchema)]` progenitor adds to every type (the
//! settings' `with_derive`) becomes
//! `#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]`, and a
//! `#[schemars(...)]` helper attribute likewise, so the generated crate's
//! `schemars` feature turns the impls on (schemars' derive brings a second
//! `syn` into the build: `cargo xtask bench --only build`). Any other use
//! of schemars fails generation.
//!
//! The last gives back the wire names that preprocessing renamed so typify
//! would not give two properties one field (`TIN` generated as
//! `TIN_UPPERCASE`, [`crate::preprocess::WireRename`]): every string
//! literal spelling a sentinel, in code or in an attribute, spells the wire
//! name again.

use anyhow::{bail, Result};
use proc_macro2::{Literal, TokenStream, TokenTree};
use quote::{quote, ToTokens};
use syn::punctuated::Punctuated;
use syn::visit_mut::{self, VisitMut};
use syn::{Expr, Stmt, Token};

use crate::preprocess::WireRename;

/// The one `pattern` the spec has, checked without a regex engine.
const SESSION_ID_PATTERN: &str = "^[A-Za-z0-9_-]+$";

/// Applies every edit to the generated file.
pub fn postprocess(file: &mut syn::File, renames: &[WireRename]) -> Result<()> {
    let mut edits = Edits {
        renames,
        ..Edits::default()
    };
    edits.visit_file_mut(file);
    if let Some(error) = edits.error {
        bail!(error);
    }
    if edits.api_versions == 0 || mentions(file, "\"api-version\"") {
        bail!("codegen: progenitor's `api-version` header is not where xtask/src/postprocess.rs looks for it; update it for this progenitor");
    }
    if edits.decodes == 0 {
        bail!("codegen: progenitor's output has no `ResponseValue::from_response(response)` left to replace; update xtask/src/postprocess.rs for this progenitor");
    }
    if count(file, "schemars ::") != edits.schemars_derives {
        bail!("codegen: progenitor's output uses schemars outside a derive; gate it behind the `schemars` feature in xtask/src/postprocess.rs");
    }
    if mentions(file, "regress") {
        bail!("codegen: progenitor's output checks a `pattern` xtask/src/postprocess.rs has no byte check for (only the sessionId's `{SESSION_ID_PATTERN}`); write its check there, or the generated crate needs `regress` again");
    }
    Ok(())
}

/// Whether `text` appears in the file's tokens.
fn mentions(file: &syn::File, text: &str) -> bool {
    count(file, text) > 0
}

/// How many times `text` appears in the file's tokens.
fn count(file: &syn::File, text: &str) -> usize {
    file.to_token_stream().to_string().matches(text).count()
}

#[derive(Default)]
struct Edits<'r> {
    renames: &'r [WireRename],
    api_versions: usize,
    decodes: usize,
    /// The `schemars::...` derives put behind the `schemars` feature.
    schemars_derives: usize,
    error: Option<String>,
}

impl VisitMut for Edits<'_> {
    fn visit_block_mut(&mut self, block: &mut syn::Block) {
        visit_mut::visit_block_mut(self, block);
        self.remove_api_version(block);
        self.replace_pattern(block);
    }

    fn visit_expr_mut(&mut self, expr: &mut Expr) {
        visit_mut::visit_expr_mut(self, expr);
        if let Expr::Call(call) = expr {
            if is_path(&call.func, "ResponseValue :: from_response") && call.args.len() == 1 {
                let response = &call.args[0];
                *expr = syn::parse_quote!(crate::response::from_response(&client.inner, #response));
                self.decodes += 1;
            }
        }
    }

    fn visit_lit_str_mut(&mut self, lit: &mut syn::LitStr) {
        if let Some(rename) = self.renames.iter().find(|r| lit.value() == r.sentinel) {
            *lit = syn::LitStr::new(&rename.wire, lit.span());
        }
    }

    fn visit_item_struct_mut(&mut self, item: &mut syn::ItemStruct) {
        self.gate_schemars(&mut item.attrs);
        visit_mut::visit_item_struct_mut(self, item);
    }

    fn visit_item_enum_mut(&mut self, item: &mut syn::ItemEnum) {
        self.gate_schemars(&mut item.attrs);
        visit_mut::visit_item_enum_mut(self, item);
    }

    fn visit_field_mut(&mut self, field: &mut syn::Field) {
        self.gate_schemars(&mut field.attrs);
        visit_mut::visit_field_mut(self, field);
    }

    fn visit_variant_mut(&mut self, variant: &mut syn::Variant) {
        self.gate_schemars(&mut variant.attrs);
        visit_mut::visit_variant_mut(self, variant);
    }

    fn visit_attribute_mut(&mut self, attr: &mut syn::Attribute) {
        visit_mut::visit_attribute_mut(self, attr);
        if let syn::Meta::List(list) = &mut attr.meta {
            list.tokens = self.rename_tokens(std::mem::take(&mut list.tokens));
        }
    }
}

impl Edits<'_> {
    /// Puts the `schemars::...` paths of each `#[derive(...)]` in `attrs`
    /// into a `#[cfg_attr(feature = "schemars", derive(...))]` after it,
    /// and a `#[schemars(...)]` attribute into a `cfg_attr` of its own.
    fn gate_schemars(&mut self, attrs: &mut Vec<syn::Attribute>) {
        let mut edited = Vec::with_capacity(attrs.len() + 1);
        for attr in attrs.drain(..) {
            if attr.path().is_ident("schemars") {
                let meta = &attr.meta;
                edited.push(syn::parse_quote!(#[cfg_attr(feature = "schemars", #meta)]));
                continue;
            }
            let paths = attr.path().is_ident("derive").then(|| {
                attr.parse_args_with(Punctuated::<syn::Path, Token![,]>::parse_terminated)
            });
            let Some(Ok(paths)) = paths else {
                edited.push(attr);
                continue;
            };
            let (gated, kept): (Vec<syn::Path>, Vec<syn::Path>) = paths
                .into_iter()
                .partition(|path| path.segments.first().is_some_and(|s| s.ident == "schemars"));
            if gated.is_empty() {
                edited.push(attr);
                continue;
            }
            self.schemars_derives += gated.len();
            if !kept.is_empty() {
                edited.push(syn::parse_quote!(#[derive(#(#kept),*)]));
            }
            edited.push(syn::parse_quote!(#[cfg_attr(feature = "schemars", derive(#(#gated),*))]));
        }
        *attrs = edited;
    }

    /// The tokens of an attribute (`#[serde(rename = "TIN_UPPERCASE")]`)
    /// with each sentinel's literal spelling its wire name.
    fn rename_tokens(&self, tokens: TokenStream) -> TokenStream {
        tokens
            .into_iter()
            .map(|token| match token {
                TokenTree::Literal(literal) => {
                    let text = literal.to_string();
                    match self
                        .renames
                        .iter()
                        .find(|r| text == format!("{:?}", r.sentinel))
                    {
                        Some(rename) => TokenTree::Literal(Literal::string(&rename.wire)),
                        None => TokenTree::Literal(literal),
                    }
                }
                TokenTree::Group(group) => {
                    let mut renamed = proc_macro2::Group::new(
                        group.delimiter(),
                        self.rename_tokens(group.stream()),
                    );
                    renamed.set_span(group.span());
                    TokenTree::Group(renamed)
                }
                other => other,
            })
            .collect()
    }

    /// Removes `header_map.append(HeaderName::from_static("api-version"),
    /// ...);` from `block`, and the then empty header map with its use when
    /// the operation sends no header of its own; otherwise the map's
    /// capacity shrinks by one.
    fn remove_api_version(&mut self, block: &mut syn::Block) {
        let before = block.stmts.len();
        block.stmts.retain(|stmt| !appends_api_version(stmt));
        if block.stmts.len() == before {
            return;
        }
        self.api_versions += before - block.stmts.len();
        let Some(at) = block
            .stmts
            .iter()
            .position(|s| header_map_capacity(s).is_some())
        else {
            self.error = Some("codegen: an `api-version` statement of progenitor's output does not follow the header map's creation; update xtask/src/postprocess.rs".into());
            return;
        };
        let capacity = header_map_capacity(&block.stmts[at]).unwrap_or_default();
        if capacity > 1 {
            let smaller = capacity - 1;
            block.stmts[at] = syn::parse_quote! {
                let mut header_map = ::reqwest::header::HeaderMap::with_capacity(#smaller);
            };
            return;
        }
        block.stmts.remove(at);
        let mut unused = DropHeaders::default();
        for stmt in &mut block.stmts {
            unused.visit_stmt_mut(stmt);
        }
        if unused.dropped == 0 {
            self.error = Some("codegen: an operation's emptied header map is never used; update xtask/src/postprocess.rs".into());
        }
    }

    /// Replaces typify's regex check of the session id's pattern (a
    /// `static PATTERN` and `if PATTERN.find(value).is_none()`) by a byte
    /// check; another pattern is left, and refused by [`postprocess`].
    fn replace_pattern(&mut self, block: &mut syn::Block) {
        let Some(at) = block.stmts.iter().position(|stmt| {
            matches!(stmt, Stmt::Item(syn::Item::Static(s))
                if s.ident == "PATTERN" && regex_of(&s.expr).as_deref() == Some(SESSION_ID_PATTERN))
        }) else {
            return;
        };
        let Some(Stmt::Expr(Expr::If(check), _)) = block.stmts.get_mut(at + 1) else {
            self.error = Some("codegen: typify's `static PATTERN` is not followed by its check; update xtask/src/postprocess.rs".into());
            return;
        };
        *check.cond = syn::parse_quote! {
            value.is_empty()
                || !value.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
        };
        block.stmts.remove(at);
    }
}

/// Takes `.headers(header_map)` out of a request builder's chain.
#[derive(Default)]
struct DropHeaders {
    dropped: usize,
}

impl VisitMut for DropHeaders {
    fn visit_expr_mut(&mut self, expr: &mut Expr) {
        visit_mut::visit_expr_mut(self, expr);
        if let Expr::MethodCall(call) = expr {
            let arg = call.args.to_token_stream().to_string();
            if call.method == "headers" && arg == "header_map" {
                *expr = (*call.receiver).clone();
                self.dropped += 1;
            }
        }
    }
}

/// Whether `expr` is the path `path` (tokens separated by spaces).
fn is_path(expr: &Expr, path: &str) -> bool {
    matches!(expr, Expr::Path(p) if p.to_token_stream().to_string() == path)
}

fn appends_api_version(stmt: &Stmt) -> bool {
    let Stmt::Expr(Expr::MethodCall(call), Some(_)) = stmt else {
        return false;
    };
    call.method == "append"
        && call.receiver.to_token_stream().to_string() == "header_map"
        && call.args.first().is_some_and(|name| {
            name.to_token_stream().to_string()
                == quote!(::reqwest::header::HeaderName::from_static("api-version")).to_string()
        })
}

/// `N` of `let mut header_map = ...::with_capacity(Nusize);`.
fn header_map_capacity(stmt: &Stmt) -> Option<usize> {
    let Stmt::Local(local) = stmt else {
        return None;
    };
    if local.pat.to_token_stream().to_string() != "mut header_map" {
        return None;
    }
    let Expr::Call(call) = &*local.init.as_ref()?.expr else {
        return None;
    };
    if !call
        .func
        .to_token_stream()
        .to_string()
        .ends_with("HeaderMap :: with_capacity")
    {
        return None;
    }
    match call.args.first()? {
        Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Int(n),
            ..
        }) => n.base10_parse().ok(),
        _ => None,
    }
}

/// The regex of `LazyLock::new(|| { Regex::new("...").unwrap() })`.
fn regex_of(expr: &Expr) -> Option<String> {
    struct Find(Option<String>);
    impl<'a> syn::visit::Visit<'a> for Find {
        fn visit_expr_call(&mut self, call: &'a syn::ExprCall) {
            syn::visit::visit_expr_call(self, call);
            if call
                .func
                .to_token_stream()
                .to_string()
                .ends_with("Regex :: new")
            {
                if let Some(Expr::Lit(syn::ExprLit {
                    lit: syn::Lit::Str(s),
                    ..
                })) = call.args.first()
                {
                    self.0 = Some(s.value());
                }
            }
        }
    }
    let mut find = Find(None);
    syn::visit::Visit::visit_expr(&mut find, expr);
    find.0
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An operation as progenitor 0.15 writes it, with `extra` header
    /// statements after the `api-version` one.
    fn operation(capacity: usize, extra: TokenStream) -> TokenStream {
        quote! {
            impl Send {
                pub async fn send(self) -> Result<ResponseValue<types::Thing>, Error<()>> {
                    let mut header_map = ::reqwest::header::HeaderMap::with_capacity(#capacity);
                    header_map
                        .append(
                            ::reqwest::header::HeaderName::from_static("api-version"),
                            ::reqwest::header::HeaderValue::from_static(
                                super::Client::api_version(),
                            ),
                        );
                    #extra
                    let request = client.client.get(url).headers(header_map).build()?;
                    match response.status().as_u16() {
                        200u16 => ResponseValue::from_response(response).await,
                        _ => Err(Error::UnexpectedResponse(response)),
                    }
                }
            }
        }
    }

    fn edited(tokens: TokenStream, renames: &[WireRename]) -> Result<String> {
        let mut file: syn::File = syn::parse2(tokens).unwrap();
        postprocess(&mut file, renames)?;
        Ok(prettyplease::unparse(&file))
    }

    #[test]
    fn an_operation_without_headers_loses_its_header_map() {
        let out = edited(operation(1, quote!()), &[]).unwrap();
        assert_eq!(
            out,
            "impl Send {
    pub async fn send(self) -> Result<ResponseValue<types::Thing>, Error<()>> {
        let request = client.client.get(url).build()?;
        match response.status().as_u16() {
            200u16 => crate::response::from_response(&client.inner, response).await,
            _ => Err(Error::UnexpectedResponse(response)),
        }
    }
}
"
        );
    }

    #[test]
    fn an_operation_with_headers_keeps_them_in_a_smaller_map() {
        let extra = quote!(header_map.append("x-thing", thing.to_string().try_into()?););
        let out = edited(operation(2, extra), &[]).unwrap();
        assert!(
            out.contains(
                "HeaderMap::with_capacity(1usize);\n        header_map.append(\"x-thing\""
            ),
            "{out}"
        );
        assert!(out.contains(".headers(header_map)"), "{out}");
        assert!(!out.contains("api-version"), "{out}");
    }

    #[test]
    fn every_operation_is_rewritten() {
        let (a, b) = (operation(1, quote!()), operation(1, quote!()));
        let two = quote!(mod a { #a } mod b { #b });
        let out = edited(two, &[]).unwrap();
        assert!(!out.contains("header_map"), "{out}");
        assert_eq!(out.matches("crate::response::from_response").count(), 2);
    }

    /// typify's check of a pattern, as progenitor 0.15 writes it.
    fn pattern_check(pattern: &str) -> TokenStream {
        quote! {
            impl ::std::str::FromStr for SessionId {
                type Err = self::error::ConversionError;
                fn from_str(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
                    static PATTERN: ::std::sync::LazyLock<::regress::Regex> = ::std::sync::LazyLock::new(||
                    { ::regress::Regex::new(#pattern).unwrap() });
                    if PATTERN.find(value).is_none() {
                        return Err("doesn't match pattern".into());
                    }
                    Ok(Self(value.to_string()))
                }
            }
        }
    }

    #[test]
    fn the_session_id_pattern_becomes_a_byte_check_and_others_fail() {
        let operation = operation(1, quote!());
        let check = pattern_check(SESSION_ID_PATTERN);
        let out = edited(quote!(#operation #check), &[]).unwrap();
        assert!(
            out.contains(
                "        if value.is_empty()
            || !value
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
        {
            return Err(\"doesn't match pattern\".into());
        }
        Ok(Self(value.to_string()))"
            ),
            "{out}"
        );
        assert!(!out.contains("regress"), "{out}");
        let other = pattern_check("^[a-z]+$");
        let error = edited(quote!(#operation #other), &[])
            .unwrap_err()
            .to_string();
        assert!(
            error.starts_with("codegen: progenitor's output checks a `pattern`"),
            "{error}"
        );
    }

    #[test]
    fn output_of_another_shape_fails_instead_of_passing_through() {
        let moved: TokenStream = operation(1, quote!())
            .to_string()
            .replace("\"api-version\"", "\"x-api-version\"")
            .parse()
            .unwrap();
        let error = edited(moved, &[]).unwrap_err().to_string();
        assert_eq!(error, "codegen: progenitor's `api-version` header is not where xtask/src/postprocess.rs looks for it; update it for this progenitor");
        let no_decode: TokenStream = operation(1, quote!())
            .to_string()
            .replace("ResponseValue :: from_response", "ResponseValue :: decode")
            .parse()
            .unwrap();
        let error = edited(no_decode, &[]).unwrap_err().to_string();
        assert_eq!(error, "codegen: progenitor's output has no `ResponseValue::from_response(response)` left to replace; update xtask/src/postprocess.rs for this progenitor");
    }

    /// progenitor's `schemars::JsonSchema` derive (and a helper
    /// attribute) are put behind the generated crate's `schemars` feature;
    /// a use of schemars elsewhere fails generation.
    #[test]
    fn schemars_derives_are_behind_the_feature() {
        let operation = operation(1, quote!());
        let out = edited(
            quote! {
                #operation
                #[derive(::serde::Deserialize, Clone, schemars::JsonSchema)]
                #[serde(transparent)]
                pub struct Thing {
                    #[schemars(with = "String")]
                    pub amount: Amount,
                }
                #[derive(schemars::JsonSchema)]
                pub enum Kind { A }
            },
            &[],
        )
        .unwrap();
        assert!(
            out.contains(
                "#[derive(::serde::Deserialize, Clone)]
#[cfg_attr(feature = \"schemars\", derive(schemars::JsonSchema))]
#[serde(transparent)]
pub struct Thing {
    #[cfg_attr(feature = \"schemars\", schemars(with = \"String\"))]
    pub amount: Amount,
}
#[cfg_attr(feature = \"schemars\", derive(schemars::JsonSchema))]
pub enum Kind {"
            ),
            "{out}"
        );
        let error = edited(
            quote! {
                #operation
                impl schemars::JsonSchema for Thing {}
            },
            &[],
        )
        .unwrap_err()
        .to_string();
        assert_eq!(error, "codegen: progenitor's output uses schemars outside a derive; gate it behind the `schemars` feature in xtask/src/postprocess.rs");
    }

    /// A property renamed for typify (`TIN` as `TIN_UPPERCASE`) is sent
    /// and read under its wire name again, in serde's attribute and in
    /// code.
    #[test]
    fn renamed_properties_get_their_wire_names_back() {
        let operation = operation(1, quote!());
        let out = edited(
            quote! {
                #operation
                pub struct Business {
                    #[serde(rename = "TIN_UPPERCASE", default)]
                    pub tin_uppercase: Option<String>,
                }
                const NAME: &str = "TIN_UPPERCASE";
            },
            &[WireRename {
                sentinel: "TIN_UPPERCASE".into(),
                wire: "TIN".into(),
            }],
        )
        .unwrap();
        assert!(
            out.contains("#[serde(rename = \"TIN\", default)]\n    pub tin_uppercase"),
            "{out}"
        );
        assert!(out.contains("const NAME: &str = \"TIN\";"), "{out}");
        assert!(!out.contains("TIN_UPPERCASE"), "{out}");
    }
}
