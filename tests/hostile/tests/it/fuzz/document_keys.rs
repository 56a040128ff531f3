//! Fuzz target: document-key normalisation (`crossborder_core::kyb`).
//!
//! Known keys written every which way (case, `-` and spaces for `_`,
//! surrounding whitespace, typos) and arbitrary text. Normalising,
//! canonicalising and suggesting never panic; the canonical key of a key
//! re-normalises to itself and to the key's type (idempotent); a key that
//! is refused is named in its error, and a suggestion is itself a known
//! key; a known key written differently still names its type; a whole
//! documents map accounts for every key once (a type, a duplicate or an
//! unknown key). The description's rule (the sandbox's) accepts no key
//! the SDK's loose reading refuses, names the same type, refuses with the
//! same error, and accepts every key the SDK sends (ASSUMPTIONS D42).

use std::collections::BTreeSet;

use crossborder_core::kyb::{
    canonical_document_key, described_document_key, nearest_document_key, normalise_document_key,
    normalise_documents, DocumentKeyError, DocumentType, DOCUMENT_KEY_ALIASES, SPEC_DOCUMENT_KEYS,
};
use crossborder_hostile_tests::fuzz;
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;

/// Cases per run (see `crossborder_hostile_tests::fuzz`).
const CASES: u32 = 4000;

/// Every key this crate knows: the spec's, the aliases, the type names.
fn known_keys() -> Vec<String> {
    SPEC_DOCUMENT_KEYS
        .iter()
        .map(|key| (*key).to_owned())
        .chain(
            DOCUMENT_KEY_ALIASES
                .iter()
                .map(|(key, _)| (*key).to_owned()),
        )
        .chain(DocumentType::ALL.iter().map(|t| t.as_str().to_owned()))
        .collect()
}

/// `key` rewritten: each letter's case, each `_` as `_`, `-` or a space,
/// whitespace around it.
fn rewrite(key: String) -> impl Strategy<Value = String> {
    let around = proptest::sample::select(vec!["", " ", "  ", "\t", "\u{a0}", "\n", " \u{3000}"]);
    (
        proptest::collection::vec(0..3u8, 64),
        around.clone(),
        around,
    )
        .prop_map(move |(choices, before, after)| {
            let body: String = key
                .chars()
                .zip(choices.iter().cycle())
                .map(|(c, choice)| match (c, choice) {
                    ('_', 1) => '-',
                    ('_', 2) => ' ',
                    (c, 1) => c.to_ascii_uppercase(),
                    (c, 2) => c.to_ascii_lowercase(),
                    (c, _) => c,
                })
                .collect();
            format!("{before}{body}{after}")
        })
}

/// A known key and that key rewritten.
fn rewritten() -> impl Strategy<Value = (String, String)> {
    proptest::sample::select(known_keys()).prop_flat_map(|key| (Just(key.clone()), rewrite(key)))
}

/// A known key with one typo: a character inserted, deleted or replaced.
fn typo() -> impl Strategy<Value = String> {
    (
        proptest::sample::select(known_keys()),
        any::<prop::sample::Index>(),
        any::<char>(),
        0..3u8,
    )
        .prop_map(|(key, at, c, kind)| {
            let mut chars: Vec<char> = key.chars().collect();
            let at = at.index(chars.len());
            match kind {
                0 => chars.insert(at, c),
                1 => {
                    chars.remove(at);
                }
                _ => chars[at] = c,
            }
            chars.into_iter().collect()
        })
}

fn key() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => rewritten().prop_map(|(_, written)| written),
        2 => typo(),
        1 => "\\PC{0,30}",
        1 => ".{0,60}",
        1 => "[a-zA-Z_ -]{0,40}",
    ]
}

/// The property for one key.
fn check_key(key: &str) -> Result<(), TestCaseError> {
    let document = normalise_document_key(key);
    let canonical = canonical_document_key(key);
    let suggestion = nearest_document_key(key);
    if let Some(suggestion) = suggestion {
        prop_assert!(
            known_keys().iter().any(|known| known == suggestion),
            "{:?} suggests {:?}, not a known key",
            key,
            suggestion
        );
        prop_assert!(canonical_document_key(suggestion).is_ok());
        // A suggestion is a key the sandbox accepts as written (D42).
        prop_assert!(described_document_key(suggestion).is_ok());
    }
    match described_document_key(key) {
        Ok(described) => prop_assert_eq!(&document, &Ok(described), "{:?}", key),
        Err(refused) => {
            if let Err(error) = &document {
                prop_assert_eq!(error, &refused);
            }
        }
    }
    match (&document, &canonical) {
        (Ok(document), Ok(canonical)) => {
            prop_assert_eq!(described_document_key(canonical), Ok(*document));
            prop_assert_eq!(canonical_document_key(canonical), Ok(*canonical));
            prop_assert_eq!(normalise_document_key(canonical), Ok(*document));
            prop_assert_eq!(canonical.parse::<DocumentType>(), Ok(*document));
        }
        (Err(error), Err(same)) => {
            prop_assert_eq!(error, same);
            prop_assert_eq!(&error.key, key);
            let expected = format!("Unrecognized document key: {key}");
            prop_assert!(error.to_string().starts_with(&expected), "{}", error);
            prop_assert_eq!(error.suggestion, suggestion);
        }
        _ => {
            return Err(TestCaseError::fail(format!(
                "{key:?}: normalise says {document:?}, canonical says {canonical:?}"
            )))
        }
    }
    Ok(())
}

/// The property for a whole documents map.
fn check_map(keys: &[String]) -> Result<(), TestCaseError> {
    let types: Vec<_> = keys.iter().map(|key| normalise_document_key(key)).collect();
    match normalise_documents(keys.iter().map(String::as_str)) {
        Ok(map) => {
            prop_assert_eq!(map.len(), keys.len());
            for (document, key) in &map {
                prop_assert_eq!(normalise_document_key(key), Ok(*document));
            }
        }
        Err(errors) => {
            let distinct: BTreeSet<_> = types.iter().filter_map(|t| t.as_ref().ok()).collect();
            prop_assert_eq!(distinct.len() + errors.len(), keys.len(), "{:?}", errors);
            for error in &errors {
                match error {
                    DocumentKeyError::Unrecognized(unknown) => {
                        prop_assert!(normalise_document_key(&unknown.key).is_err());
                    }
                    DocumentKeyError::Duplicate {
                        first,
                        second,
                        document,
                    } => {
                        prop_assert_eq!(normalise_document_key(first), Ok(*document));
                        prop_assert_eq!(normalise_document_key(second), Ok(*document));
                    }
                }
            }
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(fuzz::config(CASES, "proptest-regressions/document_keys.txt"))]

    #[test]
    fn document_key_normalisation(key in key()) {
        check_key(&key)?;
    }

    #[test]
    fn a_known_key_written_differently_names_its_type((key, written) in rewritten()) {
        let document = normalise_document_key(&key);
        prop_assert!(document.is_ok(), "{:?}", key);
        prop_assert_eq!(normalise_document_key(&written), document);
    }

    #[test]
    fn documents_maps(keys in proptest::collection::vec(key(), 0..8)) {
        check_map(&keys)?;
    }
}

/// Replays `corpus/document_keys/*.json`: each an array of keys, checked
/// one by one and as one documents map.
#[test]
fn document_keys_corpus() {
    for (name, bytes) in fuzz::corpus("document_keys") {
        let keys: Vec<String> =
            serde_json::from_slice(&bytes).unwrap_or_else(|error| panic!("{name}: {error}"));
        assert!(!keys.is_empty(), "{name}");
        for key in &keys {
            check_key(key).unwrap_or_else(|error| panic!("{name}: {key:?}: {error}"));
        }
        check_map(&keys).unwrap_or_else(|error| panic!("{name}: {error}"));
    }
}
