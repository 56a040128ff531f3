//! Document types, the flexible keys of the documents map, and which
//! documents a business must provide.

use serde::{Deserialize, Serialize};
use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::str::FromStr;

use crate::kyb::enums::BusinessType;
use crate::url::check_link;
use crate::views::DocumentRefFields;
use crate::violation::Collector;
use crate::wire_enum::wire_enum;

wire_enum! {
    /// A document type the service stores, by its internal name.
    ///
    /// Callers name documents with flexible keys (`cac`, `bank-statement`);
    /// [`normalise_document_key`] maps a key to its type. Parsing a
    /// `DocumentType` (`FromStr`, serde) accepts the same keys.
    ///
    /// ```
    /// use crossborder_core::kyb::DocumentType;
    ///
    /// assert_eq!("cac".parse::<DocumentType>().unwrap(), DocumentType::CertificateOfIncorporation);
    /// assert_eq!(DocumentType::BnForm1.as_str(), "BN_FORM_1");
    /// ```
    pub enum DocumentType {
        /// The certificate of incorporation (the CAC certificate).
        CertificateOfIncorporation = "CERTIFICATE_OF_INCORPORATION",
        /// A business license, accepted instead of the certificate.
        BusinessLicense = "BUSINESS_LICENSE",
        /// A six-month bank statement.
        BankStatement = "BANK_STATEMENT",
        /// An application letter.
        ApplicationLetter = "APPLICATION_LETTER",
        /// The CAC status report.
        CacStatusReport = "CAC_STATUS_REPORT",
        /// BN Form 1, the business-name registration form.
        BnForm1 = "BN_FORM_1",
        /// CAC Form 2 (statement of share capital and allotment).
        CacForm2 = "CAC_FORM_2",
        /// A combined CAC document.
        CombinedCac = "COMBINED_CAC",
        /// The memorandum and articles of association.
        MemorandumAndArticles = "MEMORANDUM_AND_ARTICLES_OF_ASSOCIATION",
        /// A proof of address.
        ProofOfAddress = "PROOF_OF_ADDRESS",
        /// A tax clearance certificate.
        TaxClearance = "TAX_CLEARANCE_CERTIFICATE",
    }
}

impl DocumentType {
    /// A short description for messages (`a six-month bank statement`).
    pub const fn description(self) -> &'static str {
        match self {
            DocumentType::CertificateOfIncorporation => "a certificate of incorporation",
            DocumentType::BusinessLicense => "a business license",
            DocumentType::BankStatement => "a six-month bank statement",
            DocumentType::ApplicationLetter => "an application letter",
            DocumentType::CacStatusReport => "a CAC status report",
            DocumentType::BnForm1 => "a BN Form 1",
            DocumentType::CacForm2 => "a CAC Form 2",
            DocumentType::CombinedCac => "a combined CAC document",
            DocumentType::MemorandumAndArticles => "a memorandum and articles of association",
            DocumentType::ProofOfAddress => "a proof of address",
            DocumentType::TaxClearance => "a tax clearance certificate",
        }
    }

    /// The key sent for this type when the caller's key is not itself one of
    /// the specification's aliases ([`canonical_document_key`]): the
    /// specification's alias for the type where it names one, else the
    /// type's name. The certificate has three aliases in the specification;
    /// `cac_document` is the one its required-set rule names ("a cac_document
    /// key counts as the certificate"), so the one sure to satisfy it.
    ///
    /// ```
    /// use crossborder_core::kyb::DocumentType;
    ///
    /// assert_eq!(DocumentType::CertificateOfIncorporation.canonical_key(), "cac_document");
    /// assert_eq!(DocumentType::BusinessLicense.canonical_key(), "BUSINESS_LICENSE");
    /// ```
    pub const fn canonical_key(self) -> &'static str {
        match self {
            DocumentType::CertificateOfIncorporation => "cac_document",
            DocumentType::BankStatement => "bank_statement",
            DocumentType::BnForm1 => "bn_form_1",
            DocumentType::CombinedCac => "combined_cac",
            DocumentType::CacForm2 => "cac_form_2",
            DocumentType::CacStatusReport => "cac_status_report",
            DocumentType::BusinessLicense
            | DocumentType::ApplicationLetter
            | DocumentType::MemorandumAndArticles
            | DocumentType::ProofOfAddress
            | DocumentType::TaxClearance => self.as_str(),
        }
    }

    /// The keys to suggest to a caller for this type, the most common first.
    /// Each of them normalises to this type.
    pub const fn common_keys(self) -> &'static [&'static str] {
        match self {
            DocumentType::CertificateOfIncorporation => {
                &["cac_document", "cac", "certificate_of_incorporation"]
            }
            DocumentType::BusinessLicense => &["business_license"],
            DocumentType::BankStatement => &["bank_statement"],
            DocumentType::ApplicationLetter => &["application_letter"],
            DocumentType::CacStatusReport => &["cac_status_report"],
            DocumentType::BnForm1 => &["bn_form_1"],
            DocumentType::CacForm2 => &["cac_form_2"],
            DocumentType::CombinedCac => &["combined_cac"],
            DocumentType::MemorandumAndArticles => &["memart"],
            DocumentType::ProofOfAddress => &["proof_of_address"],
            DocumentType::TaxClearance => &["tax_clearance_certificate"],
        }
    }
}

impl DocumentRefFields<'_> {
    /// Requires both parts, reporting them as `<prefix>.url` and
    /// `<prefix>.key`; the `url` must be an absolute http(s) URL
    /// (ASSUMPTIONS D44).
    pub(crate) fn check(&self, collector: &mut Collector, prefix: &str) {
        let url = collector.require(format!("{prefix}.url"), self.url);
        check_link(collector, format!("{prefix}.url"), url);
        collector.require(format!("{prefix}.key"), self.key);
    }
}

/// The aliases of the documents map, after [`normalise_document_key`] has
/// trimmed the key, lowercased it and turned `-` and spaces into `_`.
/// Keys not listed fall back to an uppercased match against the internal
/// names ([`DocumentType::as_str`]).
pub const DOCUMENT_KEY_ALIASES: &[(&str, DocumentType)] = &[
    ("cac_document", DocumentType::CertificateOfIncorporation),
    ("cac", DocumentType::CertificateOfIncorporation),
    (
        "certificate_of_incorporation",
        DocumentType::CertificateOfIncorporation,
    ),
    (
        "incorporation_certificate",
        DocumentType::CertificateOfIncorporation,
    ),
    ("business_license", DocumentType::BusinessLicense),
    ("business_licence", DocumentType::BusinessLicense),
    ("bank_statement", DocumentType::BankStatement),
    ("bn_form_1", DocumentType::BnForm1),
    ("bn_form1", DocumentType::BnForm1),
    ("bn1", DocumentType::BnForm1),
    ("combined_cac", DocumentType::CombinedCac),
    ("cac_form_2", DocumentType::CacForm2),
    ("form_2", DocumentType::CacForm2),
    ("cac_2", DocumentType::CacForm2),
    ("cac_status_report", DocumentType::CacStatusReport),
    ("status_report", DocumentType::CacStatusReport),
    ("application_letter", DocumentType::ApplicationLetter),
    ("memart", DocumentType::MemorandumAndArticles),
    ("memorandum", DocumentType::MemorandumAndArticles),
];

/// A key of the documents map that matches no document type. Its message
/// names the key as sent and, when a known key is a likely typo of it, that
/// key: `Unrecognized document key: bank_statment (did you mean
/// bank_statement?)` (ASSUMPTIONS A22).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("Unrecognized document key: {key}{}", suggestion.map(|s| format!(" (did you mean {s}?)")).unwrap_or_default())]
pub struct UnknownDocumentKey {
    /// The key as sent.
    pub key: String,
    /// The closest known key, when close enough to be a typo of it.
    pub suggestion: Option<&'static str>,
}

impl UnknownDocumentKey {
    /// The error for `key`, with the nearest known key when it is close.
    pub fn new(key: &str) -> UnknownDocumentKey {
        UnknownDocumentKey {
            key: key.to_owned(),
            suggestion: nearest_document_key(key),
        }
    }
}

/// The key closest to `key` by edit distance (Levenshtein, after the same
/// trimming and lowercasing as [`normalise_document_key`]) among the keys
/// the specification's rule accepts as written ([`described_document_key`]:
/// its aliases and the types' names), when it is within a third of the
/// key's length (at least 1, at most 3 edits); the aliases win ties, then
/// the types' names. So a suggestion is a key both the SDK and the sandbox
/// accept, and both give the same message (ASSUMPTIONS D42).
///
/// ```
/// use crossborder_core::kyb::nearest_document_key;
///
/// assert_eq!(nearest_document_key("bank_statment"), Some("bank_statement"));
/// assert_eq!(nearest_document_key("Bank Statemnt"), Some("bank_statement"));
/// assert_eq!(nearest_document_key("Bank Statement"), Some("bank_statement"));
/// assert_eq!(nearest_document_key("cac_documnet"), Some("cac_document"));
/// assert_eq!(nearest_document_key("bn_form_2"), Some("bn_form_1"));
/// assert_eq!(nearest_document_key("application-letter"), Some("APPLICATION_LETTER"));
/// assert_eq!(nearest_document_key("passport"), None);
/// assert_eq!(nearest_document_key("x"), None);
/// ```
pub fn nearest_document_key(key: &str) -> Option<&'static str> {
    // The aliases are written in lower case; a type's name is compared in
    // lower case and shown as written.
    let candidates = SPEC_DOCUMENT_KEYS
        .into_iter()
        .map(|alias| (alias, Cow::Borrowed(alias)))
        .chain(DocumentType::ALL.into_iter().map(|document| {
            (
                document.as_str(),
                Cow::Owned(document.as_str().to_ascii_lowercase()),
            )
        }));
    crate::suggest::nearest(&normalised_key(key), candidates, strsim::levenshtein)
}

/// Maps a key of the documents map to its document type.
///
/// The key is trimmed, lowercased, and `-` and spaces become `_`; it is then
/// looked up in [`DOCUMENT_KEY_ALIASES`], and otherwise uppercased and matched
/// against the internal names (`tax_clearance_certificate` becomes
/// `TAX_CLEARANCE_CERTIFICATE`).
///
/// ```
/// use crossborder_core::kyb::{normalise_document_key, DocumentType};
///
/// assert_eq!(normalise_document_key(" Bank-Statement ").unwrap(), DocumentType::BankStatement);
/// assert_eq!(normalise_document_key("business_license").unwrap(), DocumentType::BusinessLicense);
/// assert_eq!(
///     normalise_document_key("passport").unwrap_err().to_string(),
///     "Unrecognized document key: passport"
/// );
/// ```
pub fn normalise_document_key(key: &str) -> Result<DocumentType, UnknownDocumentKey> {
    let normalised = normalised_key(key);
    if let Some((_, document)) = DOCUMENT_KEY_ALIASES
        .iter()
        .find(|(alias, _)| *alias == normalised)
    {
        return Ok(*document);
    }
    let upper = normalised.to_ascii_uppercase();
    DocumentType::ALL
        .into_iter()
        .find(|document| document.as_str() == upper)
        .ok_or_else(|| UnknownDocumentKey::new(key))
}

/// Maps a key of the documents map to its document type by the
/// specification's rule, as the service applies it and the sandbox does
/// (ASSUMPTIONS D42): one of the aliases the specification names
/// ([`SPEC_DOCUMENT_KEYS`]) exactly as written, or else a key whose
/// uppercase (ASCII) is a supported type's name
/// (`business_license` becomes `BUSINESS_LICENSE`). Nothing is trimmed,
/// and `-` and spaces stay as they are: every other key is refused, with
/// the message of [`UnknownDocumentKey`]. The SDK reads keys more loosely
/// ([`normalise_document_key`]) and sends each as
/// [`canonical_document_key`] gives it, which this rule accepts.
///
/// ```
/// use crossborder_core::kyb::{described_document_key, DocumentType};
///
/// assert_eq!(described_document_key("cac").unwrap(), DocumentType::CertificateOfIncorporation);
/// assert_eq!(described_document_key("business_license").unwrap(), DocumentType::BusinessLicense);
/// assert_eq!(described_document_key("Bank_Statement").unwrap(), DocumentType::BankStatement);
/// assert_eq!(
///     described_document_key("Bank Statement").unwrap_err().to_string(),
///     "Unrecognized document key: Bank Statement (did you mean bank_statement?)"
/// );
/// assert_eq!(described_document_key("bn1").unwrap_err().to_string(), "Unrecognized document key: bn1");
/// ```
pub fn described_document_key(key: &str) -> Result<DocumentType, UnknownDocumentKey> {
    if SPEC_DOCUMENT_KEYS.contains(&key) {
        return normalise_document_key(key);
    }
    let upper = key.to_ascii_uppercase();
    DocumentType::ALL
        .into_iter()
        .find(|document| document.as_str() == upper)
        .ok_or_else(|| UnknownDocumentKey::new(key))
}

/// How the keys of a documents map are read: by the specification's rule
/// (the service, and the sandbox that stands in for it) or loosely (the
/// SDK, which then sends the canonical key). ASSUMPTIONS D42.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DocumentKeyRule {
    /// [`described_document_key`]: the specification's aliases as written,
    /// or an uppercased match against the types' names; nothing else.
    Described,
    /// [`normalise_document_key`]: also any case, `-` and spaces for `_`,
    /// surrounding whitespace, and this crate's own aliases
    /// ([`DOCUMENT_KEY_ALIASES`]).
    Tolerant,
}

impl DocumentKeyRule {
    /// The document type `key` names under this rule.
    ///
    /// ```
    /// use crossborder_core::kyb::{DocumentKeyRule, DocumentType};
    ///
    /// assert_eq!(DocumentKeyRule::Tolerant.document_type("bn1"), Ok(DocumentType::BnForm1));
    /// assert!(DocumentKeyRule::Described.document_type("bn1").is_err());
    /// ```
    pub fn document_type(self, key: &str) -> Result<DocumentType, UnknownDocumentKey> {
        match self {
            DocumentKeyRule::Described => described_document_key(key),
            DocumentKeyRule::Tolerant => normalise_document_key(key),
        }
    }
}

/// A key trimmed, lowercased, with `-` and spaces turned into `_`.
fn normalised_key(key: &str) -> String {
    key.trim()
        .chars()
        .map(|c| match c {
            '-' | ' ' => '_',
            other => other.to_ascii_lowercase(),
        })
        .collect()
}

/// The aliases the specification itself names for the documents map; a
/// service that follows it knows these.
pub const SPEC_DOCUMENT_KEYS: [&str; 8] = [
    "cac_document",
    "cac",
    "certificate_of_incorporation",
    "bank_statement",
    "bn_form_1",
    "combined_cac",
    "cac_form_2",
    "cac_status_report",
];

/// The key to send for a key of the documents map (ASSUMPTIONS B10): a key
/// that is one of the specification's own aliases, however it was written,
/// goes out as the specification writes it (`Bank-Statement` becomes
/// `bank_statement`, `CAC` stays `cac`); any other known key goes out as its
/// type's [`DocumentType::canonical_key`]: the specification's alias for that
/// type where it names one (`bn1` becomes `bn_form_1`,
/// `incorporation_certificate` becomes `cac_document`), and otherwise the
/// type's name (`memart` becomes `MEMORANDUM_AND_ARTICLES_OF_ASSOCIATION`),
/// which the service's uppercased fallback matches. So every key reaches the
/// service in a form the specification promises it knows, and no name that
/// comes only from this crate's own list of types (B15) is sent where the
/// specification names an alias.
///
/// ```
/// use crossborder_core::kyb::canonical_document_key;
///
/// assert_eq!(canonical_document_key(" Bank-Statement ").unwrap(), "bank_statement");
/// assert_eq!(canonical_document_key("CAC").unwrap(), "cac");
/// assert_eq!(canonical_document_key("incorporation_certificate").unwrap(), "cac_document");
/// assert_eq!(canonical_document_key("bn1").unwrap(), "bn_form_1");
/// assert_eq!(canonical_document_key("memart").unwrap(), "MEMORANDUM_AND_ARTICLES_OF_ASSOCIATION");
/// assert_eq!(canonical_document_key("application_letter").unwrap(), "APPLICATION_LETTER");
/// assert!(canonical_document_key("selfie").is_err());
/// ```
pub fn canonical_document_key(key: &str) -> Result<&'static str, UnknownDocumentKey> {
    let document = normalise_document_key(key)?;
    let normalised = normalised_key(key);
    Ok(SPEC_DOCUMENT_KEYS
        .into_iter()
        .find(|alias| *alias == normalised)
        .unwrap_or(document.canonical_key()))
}

impl FromStr for DocumentType {
    type Err = UnknownDocumentKey;

    /// The same as [`normalise_document_key`].
    fn from_str(key: &str) -> Result<Self, Self::Err> {
        normalise_document_key(key)
    }
}

/// Why a set of document keys cannot be normalised.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DocumentKeyError {
    /// A key matches no document type.
    #[error(transparent)]
    Unrecognized(#[from] UnknownDocumentKey),
    /// Two keys name the same document type.
    #[error("Duplicate document: {first} and {second} both map to {document}")]
    Duplicate {
        /// The key seen first, which is kept.
        first: String,
        /// The later key naming the same type.
        second: String,
        /// The type both keys name.
        document: DocumentType,
    },
}

impl DocumentKeyError {
    /// The key the error is about (for a duplicate, the later key).
    pub fn key(&self) -> &str {
        match self {
            DocumentKeyError::Unrecognized(UnknownDocumentKey { key, .. }) => key,
            DocumentKeyError::Duplicate { second, .. } => second,
        }
    }
}

/// Normalises every key of a documents map, reporting every unknown key and
/// every duplicate at once, in the order of `keys`.
///
/// On success, maps each document type to the key it was sent under.
///
/// ```
/// use crossborder_core::kyb::{normalise_documents, DocumentType};
///
/// let documents = normalise_documents(["cac", "bank_statement"]).unwrap();
/// assert_eq!(documents[&DocumentType::CertificateOfIncorporation], "cac");
///
/// let errors = normalise_documents(["cac", "cac_document", "selfie"]).unwrap_err();
/// assert_eq!(errors[0].to_string(), "Duplicate document: cac and cac_document both map to CERTIFICATE_OF_INCORPORATION");
/// assert_eq!(errors[1].to_string(), "Unrecognized document key: selfie");
/// ```
pub fn normalise_documents<'a>(
    keys: impl IntoIterator<Item = &'a str>,
) -> Result<BTreeMap<DocumentType, &'a str>, Vec<DocumentKeyError>> {
    let mut documents: BTreeMap<DocumentType, &'a str> = BTreeMap::new();
    let mut errors = Vec::new();
    for key in keys {
        match normalise_document_key(key) {
            Err(unknown) => errors.push(DocumentKeyError::Unrecognized(unknown)),
            Ok(document) => match documents.get(&document) {
                Some(first) => errors.push(DocumentKeyError::Duplicate {
                    first: (*first).to_owned(),
                    second: key.to_owned(),
                    document,
                }),
                None => {
                    documents.insert(document, key);
                }
            },
        }
    }
    if errors.is_empty() {
        Ok(documents)
    } else {
        Err(errors)
    }
}

/// One document requirement of the required set, satisfied by any one of
/// [`Requirement::any_of`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Requirement {
    /// A certificate of incorporation or a business license (every business).
    CertificateOrLicense,
    /// A six-month bank statement (every business).
    BankStatement,
    /// An application letter.
    ApplicationLetter,
    /// A CAC status report or a BN Form 1 (BN Form 1 alone satisfies it).
    StatusReportOrBnForm1,
}

impl Requirement {
    /// The document types any one of which satisfies the requirement.
    pub const fn any_of(self) -> &'static [DocumentType] {
        match self {
            Requirement::CertificateOrLicense => &[
                DocumentType::CertificateOfIncorporation,
                DocumentType::BusinessLicense,
            ],
            Requirement::BankStatement => &[DocumentType::BankStatement],
            Requirement::ApplicationLetter => &[DocumentType::ApplicationLetter],
            Requirement::StatusReportOrBnForm1 => {
                &[DocumentType::CacStatusReport, DocumentType::BnForm1]
            }
        }
    }

    /// True when `present` holds one of the accepted types.
    pub fn is_satisfied_by(self, present: &BTreeSet<DocumentType>) -> bool {
        self.any_of()
            .iter()
            .any(|document| present.contains(document))
    }
}

impl fmt::Display for Requirement {
    /// Names each accepted document with its common keys, joined by `or`:
    /// `a six-month bank statement (bank_statement)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (index, document) in self.any_of().iter().enumerate() {
            if index > 0 {
                f.write_str(" or ")?;
            }
            let keys = document.common_keys().join(", ");
            write!(f, "{} ({keys})", document.description())?;
        }
        Ok(())
    }
}

/// The documents a business of `business_type` must provide.
///
/// Every business needs a certificate of incorporation or a business license,
/// and a six-month bank statement. The specification says the further
/// requirements differ by type but shows only one set: an application letter,
/// plus a CAC status report or a BN Form 1. LLP needs the same documents as
/// LLC, and this crate applies the same set to SoleProprietorship too, until
/// the API documents its own.
pub const fn required_documents(business_type: BusinessType) -> &'static [Requirement] {
    const SHOWN_SET: &[Requirement] = &[
        Requirement::CertificateOrLicense,
        Requirement::BankStatement,
        Requirement::ApplicationLetter,
        Requirement::StatusReportOrBnForm1,
    ];
    match business_type {
        BusinessType::Llc | BusinessType::Llp | BusinessType::SoleProprietorship => SHOWN_SET,
    }
}

/// The requirements of [`required_documents`] that `present` does not meet,
/// in order.
///
/// ```
/// use std::collections::BTreeSet;
/// use crossborder_core::kyb::{missing_documents, BusinessType, DocumentType};
///
/// let present = BTreeSet::from([DocumentType::CertificateOfIncorporation, DocumentType::BnForm1]);
/// let missing: Vec<String> = missing_documents(BusinessType::Llc, &present)
///     .iter()
///     .map(ToString::to_string)
///     .collect();
/// assert_eq!(missing, ["a six-month bank statement (bank_statement)", "an application letter (application_letter)"]);
/// ```
pub fn missing_documents(
    business_type: BusinessType,
    present: &BTreeSet<DocumentType>,
) -> Vec<Requirement> {
    required_documents(business_type)
        .iter()
        .copied()
        .filter(|requirement| !requirement.is_satisfied_by(present))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use DocumentType::*;

    fn set(documents: &[DocumentType]) -> BTreeSet<DocumentType> {
        documents.iter().copied().collect()
    }

    fn keys_to_set(keys: &[&str]) -> BTreeSet<DocumentType> {
        normalise_documents(keys.iter().copied())
            .unwrap()
            .into_keys()
            .collect()
    }

    #[test]
    fn internal_names_are_exact() {
        let names = [
            "CERTIFICATE_OF_INCORPORATION",
            "BUSINESS_LICENSE",
            "BANK_STATEMENT",
            "APPLICATION_LETTER",
            "CAC_STATUS_REPORT",
            "BN_FORM_1",
            "CAC_FORM_2",
            "COMBINED_CAC",
            "MEMORANDUM_AND_ARTICLES_OF_ASSOCIATION",
            "PROOF_OF_ADDRESS",
            "TAX_CLEARANCE_CERTIFICATE",
        ];
        assert_eq!(DocumentType::ALL.map(DocumentType::as_str), names);
        for document in DocumentType::ALL {
            assert_eq!(normalise_document_key(document.as_str()), Ok(document));
            let json = serde_json::to_string(&document).unwrap();
            assert_eq!(json, format!("\"{document}\""));
            assert_eq!(
                serde_json::from_str::<DocumentType>(&json).unwrap(),
                document
            );
        }
    }

    #[test]
    fn aliases_map_to_their_types() {
        let table = [
            ("cac_document", CertificateOfIncorporation),
            ("cac", CertificateOfIncorporation),
            ("certificate_of_incorporation", CertificateOfIncorporation),
            ("incorporation_certificate", CertificateOfIncorporation),
            ("business_license", BusinessLicense),
            ("business_licence", BusinessLicense),
            ("bank_statement", BankStatement),
            ("bn_form_1", BnForm1),
            ("bn_form1", BnForm1),
            ("bn1", BnForm1),
            ("combined_cac", CombinedCac),
            ("cac_form_2", CacForm2),
            ("form_2", CacForm2),
            ("cac_2", CacForm2),
            ("cac_status_report", CacStatusReport),
            ("status_report", CacStatusReport),
            ("application_letter", ApplicationLetter),
            ("memart", MemorandumAndArticles),
            ("memorandum", MemorandumAndArticles),
            // Case, `-`, spaces and surrounding whitespace do not matter.
            ("CAC", CertificateOfIncorporation),
            ("Bank-Statement", BankStatement),
            ("  bn form 1 ", BnForm1),
            ("Cac_Status-Report", CacStatusReport),
            // The uppercased fallback against internal names.
            ("tax_clearance_certificate", TaxClearance),
            ("proof_of_address", ProofOfAddress),
            (
                "memorandum_and_articles_of_association",
                MemorandumAndArticles,
            ),
            ("Tax-Clearance-Certificate", TaxClearance),
        ];
        for (key, document) in table {
            assert_eq!(normalise_document_key(key), Ok(document), "{key}");
        }
        for (alias, document) in DOCUMENT_KEY_ALIASES {
            assert_eq!(normalise_document_key(alias), Ok(*document), "{alias}");
        }
        for document in DocumentType::ALL {
            for key in document.common_keys() {
                assert_eq!(normalise_document_key(key), Ok(document), "{key}");
            }
        }
    }

    #[test]
    fn unknown_keys_are_rejected_with_the_key_as_sent_and_the_nearest_key() {
        let table = [
            ("", None),
            ("  ", None),
            ("passport", None),
            ("ID_CARD", None),
            ("selfie", None),
            ("cac document x", Some("cac_document")),
            ("bn_form_2", Some("bn_form_1")),
            ("cäc", Some("cac")),
            ("bank_statment", Some("bank_statement")),
            ("Bank-Statemnt", Some("bank_statement")),
            ("aplication_letter", Some("APPLICATION_LETTER")),
            (
                "tax_clearence_certificate",
                Some("TAX_CLEARANCE_CERTIFICATE"),
            ),
            ("cac_status_reprot", Some("cac_status_report")),
        ];
        for (key, suggestion) in table {
            let error = normalise_document_key(key).unwrap_err();
            assert_eq!(error.key, key);
            assert_eq!(error.suggestion, suggestion, "{key}");
            let expected = match suggestion {
                Some(near) => format!("Unrecognized document key: {key} (did you mean {near}?)"),
                None => format!("Unrecognized document key: {key}"),
            };
            assert_eq!(error.to_string(), expected);
        }
    }

    /// ASSUMPTIONS D42: the specification's rule accepts its aliases as
    /// written and an uppercased match against the types' names, and
    /// refuses every other key with the same message as the SDK's.
    #[test]
    fn the_described_rule_accepts_the_aliases_and_the_uppercased_names_only() {
        let accepted = [
            ("cac_document", CertificateOfIncorporation),
            ("cac", CertificateOfIncorporation),
            ("certificate_of_incorporation", CertificateOfIncorporation),
            ("bank_statement", BankStatement),
            ("bn_form_1", BnForm1),
            ("combined_cac", CombinedCac),
            ("cac_form_2", CacForm2),
            ("cac_status_report", CacStatusReport),
            ("business_license", BusinessLicense),
            ("BUSINESS_LICENSE", BusinessLicense),
            ("Application_Letter", ApplicationLetter),
            ("APPLICATION_LETTER", ApplicationLetter),
            ("BANK_STATEMENT", BankStatement),
            (
                "memorandum_and_articles_of_association",
                MemorandumAndArticles,
            ),
            ("tax_clearance_certificate", TaxClearance),
            ("proof_of_address", ProofOfAddress),
        ];
        for (key, document) in accepted {
            assert_eq!(described_document_key(key), Ok(document), "{key}");
            assert_eq!(DocumentKeyRule::Described.document_type(key), Ok(document));
        }
        let refused = [
            ("Bank Statement", Some("bank_statement")),
            ("application-letter", Some("APPLICATION_LETTER")),
            ("BN-Form-1", Some("bn_form_1")),
            (" bank_statement", Some("bank_statement")),
            ("CAC", Some("cac")),
            ("bn1", None),
            ("bn_form1", Some("bn_form_1")),
            ("memart", None),
            ("form_2", None),
            ("cac_2", None),
            ("incorporation_certificate", None),
            ("business_licence", Some("BUSINESS_LICENSE")),
            ("status_report", None),
            ("memorandum", None),
            ("passport", None),
        ];
        for (key, suggestion) in refused {
            let error = described_document_key(key).unwrap_err();
            assert_eq!(error, UnknownDocumentKey::new(key), "{key}");
            assert_eq!(error.suggestion, suggestion, "{key}");
            let expected = match suggestion {
                Some(near) => format!("Unrecognized document key: {key} (did you mean {near}?)"),
                None => format!("Unrecognized document key: {key}"),
            };
            assert_eq!(error.to_string(), expected);
            // The SDK reads each loosely, and sends a key the rule accepts.
            if let Ok(sent) = canonical_document_key(key) {
                assert_eq!(
                    described_document_key(sent),
                    normalise_document_key(key),
                    "{key}"
                );
            }
        }
        // Every key the SDK knows goes out as a key the rule accepts, naming
        // the same type.
        for (alias, document) in DOCUMENT_KEY_ALIASES {
            let sent = canonical_document_key(alias).unwrap();
            assert_eq!(described_document_key(sent), Ok(*document), "{alias}");
        }
    }

    #[test]
    fn normalise_documents_reports_every_problem() {
        let errors = normalise_documents(["selfie", "cac", "bank_statement", "cac_document", "x"])
            .unwrap_err();
        let messages: Vec<String> = errors.iter().map(ToString::to_string).collect();
        assert_eq!(
            messages,
            [
                "Unrecognized document key: selfie",
                "Duplicate document: cac and cac_document both map to CERTIFICATE_OF_INCORPORATION",
                "Unrecognized document key: x",
            ]
        );
        assert_eq!(
            errors.iter().map(DocumentKeyError::key).collect::<Vec<_>>(),
            ["selfie", "cac_document", "x"]
        );

        let documents = normalise_documents(["BANK-STATEMENT", "memart"]).unwrap();
        assert_eq!(
            documents.into_iter().collect::<Vec<_>>(),
            [
                (BankStatement, "BANK-STATEMENT"),
                (MemorandumAndArticles, "memart")
            ]
        );
    }

    #[test]
    fn requirement_sentences() {
        assert_eq!(
            Requirement::CertificateOrLicense.to_string(),
            "a certificate of incorporation (cac_document, cac, certificate_of_incorporation) \
             or a business license (business_license)"
        );
        assert_eq!(
            Requirement::BankStatement.to_string(),
            "a six-month bank statement (bank_statement)"
        );
        assert_eq!(
            Requirement::ApplicationLetter.to_string(),
            "an application letter (application_letter)"
        );
        assert_eq!(
            Requirement::StatusReportOrBnForm1.to_string(),
            "a CAC status report (cac_status_report) or a BN Form 1 (bn_form_1)"
        );
    }

    /// Spec: "Every business: a certificate of incorporation or a business
    /// license, and a six-month bank statement."
    #[test]
    fn every_business_needs_a_certificate_or_license_and_a_bank_statement() {
        for business_type in BusinessType::ALL {
            let others = [ApplicationLetter, CacStatusReport];
            let missing = missing_documents(business_type, &set(&others));
            assert_eq!(
                missing,
                [
                    Requirement::CertificateOrLicense,
                    Requirement::BankStatement
                ]
            );
            for proof in [CertificateOfIncorporation, BusinessLicense] {
                let present = set(&[proof, BankStatement, ApplicationLetter, CacStatusReport]);
                assert_eq!(missing_documents(business_type, &present), []);
            }
        }
    }

    /// Spec: "an application letter is also required, plus either a
    /// cac_status_report or a bn_form_1 (BN Form 1). bn_form_1 alone
    /// satisfies that either-or rule."
    #[test]
    fn application_letter_and_status_report_or_bn_form_1() {
        for business_type in BusinessType::ALL {
            let base = [CertificateOfIncorporation, BankStatement];
            assert_eq!(
                missing_documents(business_type, &set(&base)),
                [
                    Requirement::ApplicationLetter,
                    Requirement::StatusReportOrBnForm1
                ]
            );
            let with_bn_form_1 =
                keys_to_set(&["cac", "bank_statement", "application_letter", "bn_form_1"]);
            assert_eq!(missing_documents(business_type, &with_bn_form_1), []);
            let with_status_report = keys_to_set(&[
                "cac",
                "bank_statement",
                "application_letter",
                "cac_status_report",
            ]);
            assert_eq!(missing_documents(business_type, &with_status_report), []);
        }
    }

    /// Spec: "A cac_document key counts as the certificate; cac is not also
    /// needed."
    #[test]
    fn cac_document_counts_as_the_certificate() {
        let present = keys_to_set(&[
            "cac_document",
            "bank_statement",
            "application_letter",
            "bn_form_1",
        ]);
        assert_eq!(missing_documents(BusinessType::Llc, &present), []);
    }

    /// Spec: "LLP needs the same documents as LLC."
    #[test]
    fn llp_needs_the_same_documents_as_llc() {
        assert_eq!(
            required_documents(BusinessType::Llp),
            required_documents(BusinessType::Llc)
        );
        assert_eq!(
            required_documents(BusinessType::SoleProprietorship),
            required_documents(BusinessType::Llc)
        );
        assert_eq!(
            missing_documents(BusinessType::Llc, &BTreeSet::new()).len(),
            4
        );
    }

    #[test]
    fn every_spec_alias_is_an_alias_and_canonical_keys_round_trip() {
        for alias in SPEC_DOCUMENT_KEYS {
            assert!(DOCUMENT_KEY_ALIASES
                .iter()
                .any(|(known, _)| *known == alias));
            assert_eq!(canonical_document_key(alias).unwrap(), alias);
        }
        for (alias, document) in DOCUMENT_KEY_ALIASES {
            let canonical = canonical_document_key(alias).unwrap();
            assert_eq!(
                normalise_document_key(canonical).unwrap(),
                *document,
                "{alias}"
            );
            // A canonical key is its own canonical key (found by
            // tests/hostile's fuzzing: `form_2` went out as `CAC_FORM_2`,
            // whose canonical key is `cac_form_2`).
            assert_eq!(
                canonical_document_key(canonical).unwrap(),
                canonical,
                "{alias}"
            );
        }
        for (alias, canonical) in [
            ("form_2", "cac_form_2"),
            ("cac_2", "cac_form_2"),
            ("incorporation_certificate", "cac_document"),
            ("bn1", "bn_form_1"),
            ("status_report", "cac_status_report"),
            ("business_licence", "BUSINESS_LICENSE"),
        ] {
            assert_eq!(canonical_document_key(alias).unwrap(), canonical);
        }
        for document in DocumentType::ALL {
            let canonical = document.canonical_key();
            assert_eq!(normalise_document_key(canonical), Ok(document));
            assert_eq!(canonical_document_key(canonical), Ok(canonical));
        }
    }

    /// ASSUMPTIONS B10: every key this crate knows, and the key it sends.
    /// A spec alias is sent as the spec writes it; any other key as the
    /// spec's alias for its type, or the type's name where the spec names
    /// no alias.
    #[test]
    fn the_key_sent_for_every_known_key() {
        let table = [
            // The spec's own aliases, however written.
            ("cac_document", "cac_document"),
            ("cac", "cac"),
            ("CAC", "cac"),
            (
                "certificate_of_incorporation",
                "certificate_of_incorporation",
            ),
            (
                "CERTIFICATE_OF_INCORPORATION",
                "certificate_of_incorporation",
            ),
            ("bank_statement", "bank_statement"),
            (" Bank-Statement ", "bank_statement"),
            ("bn_form_1", "bn_form_1"),
            ("bn form 1", "bn_form_1"),
            ("combined_cac", "combined_cac"),
            ("cac_form_2", "cac_form_2"),
            ("cac_status_report", "cac_status_report"),
            ("Cac_Status-Report", "cac_status_report"),
            // This crate's own aliases: the spec's alias for the type.
            ("incorporation_certificate", "cac_document"),
            ("bn_form1", "bn_form_1"),
            ("bn1", "bn_form_1"),
            ("BN_FORM_1", "bn_form_1"),
            ("form_2", "cac_form_2"),
            ("cac_2", "cac_form_2"),
            ("status_report", "cac_status_report"),
            ("COMBINED_CAC", "combined_cac"),
            // Types the spec names no alias for: their names.
            ("business_license", "BUSINESS_LICENSE"),
            ("business_licence", "BUSINESS_LICENSE"),
            ("application_letter", "APPLICATION_LETTER"),
            ("memart", "MEMORANDUM_AND_ARTICLES_OF_ASSOCIATION"),
            ("memorandum", "MEMORANDUM_AND_ARTICLES_OF_ASSOCIATION"),
            ("proof_of_address", "PROOF_OF_ADDRESS"),
            ("tax_clearance_certificate", "TAX_CLEARANCE_CERTIFICATE"),
        ];
        for (key, sent) in table {
            assert_eq!(canonical_document_key(key), Ok(sent), "{key}");
        }
        // The table covers every alias and every type.
        for (alias, _) in DOCUMENT_KEY_ALIASES {
            assert!(table.iter().any(|(key, _)| key == alias), "{alias}");
        }
        for document in DocumentType::ALL {
            assert!(table
                .iter()
                .any(|(_, sent)| *sent == document.canonical_key()));
        }
    }
}
