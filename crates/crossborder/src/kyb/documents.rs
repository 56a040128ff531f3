//! Uploaded documents and references to them.

use std::collections::{BTreeMap, HashMap};

use crossborder_api::types as wire;
use crossborder_core::kyb::{canonical_document_key, normalise_document_key};
use serde::Serialize;

use super::convert::Wire;
use crate::error::Violation;
use crate::types::DocumentType;

/// `documents`: document key (`cac_document`, `bank_statement`, ...) to
/// uploaded document. Keys are checked with
/// [`crossborder_core::kyb::normalise_document_key`] before sending, and
/// sent in the form [`crossborder_core::kyb::canonical_document_key`] gives
/// (the specification's alias, or the document type's name), so a key
/// written loosely (`Bank-Statement`, `bn1`) reaches the service as it knows
/// it; [`CreateBusinessRequest::document_keys`](crate::types::CreateBusinessRequest::document_keys)
/// shows the key each one is sent as.
pub type Documents = BTreeMap<String, DocumentLink>;

/// A document stored by `upload_document`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UploadedDocument {
    /// The link to pass as `url` wherever the document is referenced.
    pub link: String,
}

impl UploadedDocument {
    /// A reference to this document under the caller's own `key` (the
    /// service stores the key as sent).
    pub fn reference(&self, key: impl Into<String>) -> DocumentLink {
        DocumentLink::new(self.link.clone(), key)
    }
}

/// A reference to an uploaded document: `{ url, key }`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DocumentLink {
    /// The upload's link.
    pub url: String,
    /// The caller's identifier for the document.
    pub key: String,
    /// In a documents map: send the map's key as given even though this SDK
    /// does not know it (ASSUMPTIONS B15). See [`DocumentLink::unlisted`].
    pub unlisted: bool,
}

impl DocumentLink {
    /// A reference to the document at `url`, kept under `key`.
    pub fn new(url: impl Into<String>, key: impl Into<String>) -> DocumentLink {
        DocumentLink {
            url: url.into(),
            key: key.into(),
            unlisted: false,
        }
    }

    /// Marks a document of the documents map whose key this SDK does not
    /// know (the service may support more types than the SDK lists): the
    /// key is sent exactly as given instead of being refused, a warning is
    /// logged once per request sent (`tracing`, target `crossborder`), and
    /// the document counts for no required document. Its `url` and `key` are
    /// still required.
    ///
    /// A key the SDK knows is not unlisted, marked or not: it is checked and
    /// sent in its canonical form like any other (so `bank_statement` marked
    /// unlisted can never go out next to, and collide with, a
    /// `Bank-Statement` that is also sent as `bank_statement`).
    ///
    /// ```
    /// use crossborder::{types::{DocumentLink, Documents}};
    ///
    /// let mut documents = Documents::new();
    /// documents.insert(
    ///     "SCUML_CERTIFICATE".into(),
    ///     DocumentLink::new("https://files.example/scuml.pdf", "scuml").unlisted(),
    /// );
    /// # let _ = documents;
    /// ```
    pub fn unlisted(mut self) -> DocumentLink {
        self.unlisted = true;
        self
    }
}

impl Wire for DocumentLink {
    type Wire = wire::DocumentLink;

    fn to_wire(&self) -> wire::DocumentLink {
        wire::DocumentLink {
            url: self.url.clone(),
            key: self.key.clone(),
        }
    }

    /// A reference as the API's JSON gives it (never unlisted: the JSON
    /// checks refuse a key the SDK does not know).
    fn from_wire(wire: wire::DocumentLink, _: &'static str) -> Result<Self, Violation> {
        let wire::DocumentLink { key, url } = wire;
        Ok(DocumentLink::new(url, key))
    }
}

impl Wire for Documents {
    type Wire = wire::Documents;

    /// The documents map as sent: each key in the form the service knows
    /// ([`DocumentKeyMapping`]: `Bank-Statement` is sent as
    /// `bank_statement`, `memart` as `MEMORANDUM_AND_ARTICLES_OF_ASSOCIATION`).
    /// Validation has refused unknown keys already, except the unlisted ones
    /// ([`DocumentLink::unlisted`]), which are sent as given. Logs nothing:
    /// the request's sender does, once (`log_document_keys`).
    fn to_wire(&self) -> wire::Documents {
        wire::Documents(
            self.iter()
                .map(|(key, link)| {
                    let sent = DocumentKeyMapping::of(key, link.unlisted)
                        .sent
                        .unwrap_or_else(|| key.clone());
                    (sent, link.to_wire())
                })
                .collect::<HashMap<_, _>>(),
        )
    }

    fn from_wire(wire: wire::Documents, field: &'static str) -> Result<Self, Violation> {
        wire.0
            .into_iter()
            .map(|(key, document)| Ok((key, DocumentLink::from_wire(document, field)?)))
            .collect()
    }
}

/// How one key of a documents map goes out: the key as given, the key sent
/// ([`canonical_document_key`], ASSUMPTIONS B10) and the document type it
/// names. Serialised as `{"given", "sent", "type"}`.
///
/// ```
/// use crossborder::{types::{DocumentKeyMapping, DocumentLink, Documents, DocumentType}};
///
/// let mut documents = Documents::new();
/// documents.insert("Bank-Statement".into(), DocumentLink::new("https://f.example/s.pdf", "s"));
/// assert_eq!(
///     crossborder::types::document_keys(&documents),
///     [DocumentKeyMapping {
///         given: "Bank-Statement".into(),
///         sent: Some("bank_statement".into()),
///         document_type: Some(DocumentType::BankStatement),
///     }]
/// );
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DocumentKeyMapping {
    /// The key as given.
    pub given: String,
    /// The key sent: the canonical key, or for an unlisted key
    /// ([`DocumentLink::unlisted`]) the key as given; `None` for an unknown
    /// key, which is refused and not sent.
    pub sent: Option<String>,
    /// The document type the key names; `None` for an unknown or unlisted
    /// key.
    #[serde(rename = "type")]
    pub document_type: Option<DocumentType>,
}

impl DocumentKeyMapping {
    /// The mapping of `key`, marked unlisted or not.
    pub(crate) fn of(key: &str, unlisted: bool) -> DocumentKeyMapping {
        let (sent, document_type) = match (canonical_document_key(key), normalise_document_key(key))
        {
            (Ok(sent), Ok(document)) => (Some(sent.to_owned()), Some(document)),
            _ if unlisted => (Some(key.to_owned()), None),
            _ => (None, None),
        };
        DocumentKeyMapping {
            given: key.to_owned(),
            sent,
            document_type,
        }
    }

    /// True for a key sent as given because the SDK does not know it.
    pub(crate) fn is_unlisted(&self) -> bool {
        self.sent.is_some() && self.document_type.is_none()
    }
}

/// How each key of `documents` goes out, in the map's order: what
/// `businesses().create` and `update` send (see [`DocumentKeyMapping`]).
pub fn document_keys(documents: &Documents) -> Vec<DocumentKeyMapping> {
    documents
        .iter()
        .map(|(key, link)| DocumentKeyMapping::of(key, link.unlisted))
        .collect()
}
