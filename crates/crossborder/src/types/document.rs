//! Uploaded documents and references to them.

use crossborder_api::types as wire;
use crossborder_core::kyb::DocumentRefFields;

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
    /// logged (`tracing`, target `crossborder`), and the document counts for
    /// no required document. Its `url` and `key` are still required.
    ///
    /// ```
    /// use crossborder::{DocumentLink, Documents};
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

    /// The view the core rules check.
    pub(crate) fn fields(&self) -> DocumentRefFields<'_> {
        DocumentRefFields {
            url: Some(&self.url),
            key: Some(&self.key),
        }
    }

    pub(crate) fn to_wire(&self) -> wire::DocumentLink {
        wire::DocumentLink {
            url: self.url.clone(),
            key: self.key.clone(),
        }
    }
}
