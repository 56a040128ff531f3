//! Snapshot of the generated client surface, so a spec change that renames,
//! moves or re-types an operation shows up as a reviewable snapshot diff.
//!
//! For each operation in the spec (except multipart ones, which the
//! generator skips and the SDK hand-writes) the snapshot holds the spec's
//! operationId, method and path next to what `generated.rs` really contains,
//! found by parsing it with syn: the `Client` method, its builder, the
//! builder's setters and the `send` result type.

use crate::common;

use std::collections::BTreeMap;

use heck::ToSnakeCase;
use quote::ToTokens;
use serde::Serialize;

#[derive(Serialize)]
struct Operation {
    operation_id: String,
    http: String,
    rust_method: String,
    builder: String,
    setters: Vec<String>,
    returns: String,
}

struct ClientMethod {
    builder: String,
    doc: String,
}

fn doc_of(attrs: &[syn::Attribute]) -> String {
    attrs
        .iter()
        .filter(|a| a.path().is_ident("doc"))
        .filter_map(|a| match &a.meta {
            syn::Meta::NameValue(nv) => match &nv.value {
                syn::Expr::Lit(syn::ExprLit {
                    lit: syn::Lit::Str(s),
                    ..
                }) => Some(s.value()),
                _ => None,
            },
            _ => None,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn type_name(ty: &syn::Type) -> String {
    match ty {
        syn::Type::Path(p) => p
            .path
            .segments
            .last()
            .map(|s| s.ident.to_string())
            .unwrap_or_default(),
        _ => String::new(),
    }
}

fn tokens(ty: &impl ToTokens) -> String {
    let compact: String = ty
        .to_token_stream()
        .to_string()
        .split_whitespace()
        .collect();
    compact.replace(",>", ">").replace(',', ", ")
}

/// Builder type name -> (setter names, `send` result type).
type Builders = BTreeMap<String, (Vec<String>, String)>;

/// `Client` methods and builder impls from the parsed generated file.
fn parse_generated() -> (BTreeMap<String, ClientMethod>, Builders) {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/src/generated.rs");
    let text = std::fs::read_to_string(path).unwrap();
    let file = syn::parse_file(&text).unwrap();
    let mut client = BTreeMap::new();
    let mut builders = BTreeMap::new();
    for item in &file.items {
        match item {
            syn::Item::Impl(imp) if imp.trait_.is_none() && type_name(&imp.self_ty) == "Client" => {
                for it in &imp.items {
                    if let syn::ImplItem::Fn(f) = it {
                        if let syn::ReturnType::Type(_, ty) = &f.sig.output {
                            let ret = tokens(ty);
                            if ret.starts_with("builder::") {
                                client.insert(
                                    f.sig.ident.to_string(),
                                    ClientMethod {
                                        builder: type_name(ty),
                                        doc: doc_of(&f.attrs),
                                    },
                                );
                            }
                        }
                    }
                }
            }
            syn::Item::Mod(m) if m.ident == "builder" => {
                for it in m.content.iter().flat_map(|(_, items)| items) {
                    let syn::Item::Impl(imp) = it else { continue };
                    if imp.trait_.is_some() {
                        continue;
                    }
                    let mut setters = Vec::new();
                    let mut returns = String::new();
                    for f in imp.items.iter().filter_map(|i| match i {
                        syn::ImplItem::Fn(f) => Some(f),
                        _ => None,
                    }) {
                        let name = f.sig.ident.to_string();
                        match name.as_str() {
                            "new" => {}
                            "send" => {
                                if let syn::ReturnType::Type(_, ty) = &f.sig.output {
                                    returns = tokens(ty);
                                }
                            }
                            _ => setters.push(name),
                        }
                    }
                    builders.insert(type_name(&imp.self_ty), (setters, returns));
                }
            }
            _ => {}
        }
    }
    (client, builders)
}

#[test]
fn generated_surface() {
    let spec = common::load_spec();
    let (client, builders) = parse_generated();
    let mut ops = Vec::new();
    for (path, item) in spec["paths"].as_object().unwrap() {
        for method in common::METHODS {
            let Some(op) = item.get(method) else { continue };
            if common::is_multipart_only(op) {
                continue;
            }
            let id = op["operationId"].as_str().unwrap().to_string();
            let http = format!("{} {path}", method.to_uppercase());
            let rust_method = id.to_snake_case();
            let found = client.get(&rust_method);
            let (builder, setters, returns) = match found {
                Some(m) => {
                    let expected =
                        format!("Sends a `{}` request to `{path}`", method.to_uppercase());
                    assert!(
                        m.doc.contains(&expected),
                        "Client::{rust_method} does not say `{expected}`; its doc is:\n{}",
                        m.doc
                    );
                    let (setters, returns) = builders.get(&m.builder).cloned().unwrap_or_default();
                    (m.builder.clone(), setters, returns)
                }
                None => ("MISSING".into(), vec![], String::new()),
            };
            ops.push(Operation {
                operation_id: id,
                http,
                rust_method: if found.is_some() {
                    rust_method
                } else {
                    "MISSING".into()
                },
                builder,
                setters,
                returns,
            });
        }
    }
    assert!(ops.len() >= 10, "only {} operations found", ops.len());
    assert!(
        ops.iter().all(|o| o.rust_method != "MISSING"),
        "operations without a generated Client method (run `cargo xtask codegen`)"
    );
    assert_eq!(
        ops.len(),
        client.len(),
        "Client has methods the spec does not list"
    );
    insta::assert_yaml_snapshot!("generated_surface", ops);
}
