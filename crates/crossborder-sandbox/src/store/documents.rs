//! The in-memory store of uploaded documents: each belongs to the business
//! that uploaded it, under an unpredictable id, and each business keeps up
//! to 512 MiB, dropping its own oldest beyond that.

use std::collections::{HashMap, VecDeque};
use std::sync::Mutex;

use axum::body::Bytes;
use crossborder_core::kyb::DocumentKind;

use crate::ids::IdGenerator;
use crate::store::account::BusinessId;
use crate::sync::lock;

/// How many bytes of documents each business keeps; its oldest are dropped
/// beyond it.
const STORE_CAPACITY_BYTES: usize = 512 * 1024 * 1024;

/// Hexadecimal digits of a document id: 128 bits.
const ID_HEX_DIGITS: usize = 32;

struct Document {
    owner: BusinessId,
    kind: DocumentKind,
    bytes: Bytes,
}

/// One business's documents, oldest first, and their size.
#[derive(Default)]
struct Shelf {
    order: VecDeque<String>,
    total_bytes: usize,
}

#[derive(Default)]
struct Store {
    /// Every document by id (ids are unique across businesses, so a bare
    /// link finds its document).
    documents: HashMap<String, Document>,
    shelves: HashMap<BusinessId, Shelf>,
}

/// Uploaded documents, each owned by one business.
pub(crate) struct DocumentStore {
    pub(crate) max_file_bytes: usize,
    capacity_bytes: usize,
    store: Mutex<Store>,
}

impl DocumentStore {
    /// An empty store accepting files of at most `max_file_bytes`.
    pub(crate) fn new(max_file_bytes: usize) -> DocumentStore {
        DocumentStore::with_capacity(max_file_bytes, STORE_CAPACITY_BYTES)
    }

    /// An empty store keeping at most `capacity_bytes` per business.
    fn with_capacity(max_file_bytes: usize, capacity_bytes: usize) -> DocumentStore {
        DocumentStore {
            max_file_bytes,
            capacity_bytes,
            store: Mutex::new(Store::default()),
        }
    }

    /// Stores a document of `owner` under a fresh unpredictable id
    /// (`doc_<hex>.<ext>`) and returns the id; the owner's oldest documents
    /// are dropped while its shelf is over capacity.
    pub(crate) fn insert(
        &self,
        ids: &IdGenerator,
        owner: BusinessId,
        kind: DocumentKind,
        bytes: Bytes,
    ) -> String {
        let mut guard = lock(&self.store);
        let store = &mut *guard;
        let id = loop {
            let candidate = format!("doc_{}.{}", ids.hex(ID_HEX_DIGITS), kind.extension());
            if !store.documents.contains_key(&candidate) {
                break candidate;
            }
        };
        let shelf = store.shelves.entry(owner).or_default();
        shelf.total_bytes += bytes.len();
        shelf.order.push_back(id.clone());
        store
            .documents
            .insert(id.clone(), Document { owner, kind, bytes });
        while shelf.total_bytes > self.capacity_bytes {
            let Some(oldest) = shelf.order.pop_front() else {
                break;
            };
            if let Some(removed) = store.documents.remove(&oldest) {
                shelf.total_bytes -= removed.bytes.len();
            }
        }
        id
    }

    /// Forgets every document of `owner` (a reset of its business).
    pub(crate) fn forget(&self, owner: BusinessId) {
        let mut guard = lock(&self.store);
        let store = &mut *guard;
        store.shelves.remove(&owner);
        store
            .documents
            .retain(|_, document| document.owner != owner);
    }

    /// The document `id`, only for the business that owns it.
    pub(crate) fn get(&self, id: &str, viewer: BusinessId) -> Option<(DocumentKind, Bytes)> {
        let store = lock(&self.store);
        store
            .documents
            .get(id)
            .filter(|document| document.owner == viewer)
            .map(|document| (document.kind, document.bytes.clone()))
    }

    /// The document a link names, when the link is one this sandbox gave
    /// (`<base_url>/documents/<id>`) and `owner` uploaded it: how the
    /// sandbox resolves the links a business sends in its KYB bodies.
    pub(crate) fn resolve(
        &self,
        base_url: &str,
        link: &str,
        owner: BusinessId,
    ) -> Option<(DocumentKind, Bytes)> {
        let id = link.strip_prefix(base_url)?.strip_prefix("/documents/")?;
        self.get(id, owner)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pdf(len: usize) -> Bytes {
        let mut bytes = b"%PDF".to_vec();
        bytes.resize(len, b'0');
        Bytes::from(bytes)
    }

    #[test]
    fn documents_are_owned_and_each_business_has_its_own_room() {
        let ids = IdGenerator::default();
        let (first, second) = (BusinessId::new(0), BusinessId::new(1));
        let store = DocumentStore::with_capacity(100, 100);
        let oldest = store.insert(&ids, first, DocumentKind::Pdf, pdf(40));
        let theirs = store.insert(&ids, second, DocumentKind::Pdf, pdf(90));
        let middle = store.insert(&ids, first, DocumentKind::Pdf, pdf(40));
        assert!(
            oldest.starts_with("doc_") && oldest.ends_with(".pdf"),
            "{oldest}"
        );
        assert_eq!(oldest.len(), "doc_".len() + ID_HEX_DIGITS + ".pdf".len());

        // The owner finds it; another business does not.
        assert!(store.get(&oldest, first).is_some());
        assert!(store.get(&oldest, second).is_none());
        assert!(store.get(&theirs, first).is_none());
        // A link resolves for its owner, and only a link this sandbox gave.
        let link = format!("http://x/v1/documents/{oldest}");
        assert!(store.resolve("http://x/v1", &link, first).is_some());
        assert!(store.resolve("http://x/v1", &link, second).is_none());
        assert!(store.resolve("http://y/v1", &link, first).is_none());

        // The first business going over its room drops its own oldest
        // document, never the other business's.
        let newest = store.insert(&ids, first, DocumentKind::Pdf, pdf(40));
        assert!(store.get(&oldest, first).is_none());
        for kept in [&middle, &newest] {
            assert!(store.get(kept, first).is_some());
        }
        assert!(store.get(&theirs, second).is_some());
    }
}
