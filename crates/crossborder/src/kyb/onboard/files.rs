//! The application's files: the `file:<name>` references that stand for
//! them in document URLs, the stand-ins the rules see before upload, and the
//! links that replace them after.

use std::collections::BTreeMap;

use crossborder_core::kyb::{BusinessFields, PersonFields};

use crate::types::{CreateBusinessRequest, DocumentLink, PersonRequest};

/// The prefix of a URL that names a file of the application.
pub const FILE_URL_PREFIX: &str = "file:";

/// The URL that stands for the application's file `name` until it is
/// uploaded: `file:<name>`.
pub fn file_url(name: &str) -> String {
    format!("{FILE_URL_PREFIX}{name}")
}

// The document URL fields, listed for each form the application is seen
// in: business_urls and person_urls (the requests, to name the files),
// resolved_business and resolved_person (to replace references by links),
// and stand_in_business_files and stand_in_person_files (the JSON as the
// rules read it).

/// The document URLs of a business, by their wire path (a document by its
/// key as given: `documents.bank_statement.url`).
pub(super) fn business_urls(business: &CreateBusinessRequest) -> Vec<(String, &str)> {
    let mut urls = vec![(
        "proofOfAddress.url".to_owned(),
        business.proof_of_address.url.as_str(),
    )];
    urls.extend(
        business
            .documents
            .iter()
            .map(|(key, link)| (format!("documents.{key}.url"), link.url.as_str())),
    );
    if let Some(url) = business
        .details
        .source_of_fund
        .as_ref()
        .and_then(|s| s.url.as_deref())
    {
        urls.push(("sourceOfFund.url".to_owned(), url));
    }
    urls
}

/// The document URLs of a person, by their wire path.
pub(super) fn person_urls(person: &PersonRequest) -> Vec<(String, &str)> {
    let mut urls = vec![
        ("idDocumentUrl".to_owned(), person.id_document_url.as_str()),
        ("document.url".to_owned(), person.document.url.as_str()),
    ];
    if let Some(link) = &person.details.additional_document {
        urls.push(("additionalDocument.url".to_owned(), link.url.as_str()));
    }
    urls
}

/// What the rules see in place of a file reference in the JSON: only the
/// reference is judged, by [`Application::validate`], once the files are
/// there.
const STAND_IN_URL: &str = "https://upload.invalid/file";

fn stand_in_file(url: &mut Option<&str>) {
    if url.is_some_and(|url| url.starts_with(FILE_URL_PREFIX)) {
        *url = Some(STAND_IN_URL);
    }
}

pub(super) fn stand_in_business_files(fields: &mut BusinessFields<'_>) {
    stand_in_file(&mut fields.proof_of_address.url);
    for (_, document) in &mut fields.documents {
        stand_in_file(&mut document.url);
    }
    if let Some(source) = &mut fields.source_of_fund {
        stand_in_file(&mut source.url);
    }
}

pub(super) fn stand_in_person_files(fields: &mut PersonFields<'_>) {
    stand_in_file(&mut fields.id_document_url);
    stand_in_file(&mut fields.document.url);
    if let Some(document) = &mut fields.additional_document {
        stand_in_file(&mut document.url);
    }
}

/// `url` with a `file:` reference replaced by its link.
fn resolve(url: &mut String, links: &BTreeMap<String, String>) {
    if let Some(link) = url
        .strip_prefix(FILE_URL_PREFIX)
        .and_then(|name| links.get(name))
    {
        *url = link.clone();
    }
}

fn resolve_link(link: &mut DocumentLink, links: &BTreeMap<String, String>) {
    resolve(&mut link.url, links);
}

pub(super) fn resolved_business(
    business: &CreateBusinessRequest,
    links: &BTreeMap<String, String>,
) -> CreateBusinessRequest {
    let mut business = business.clone();
    resolve(&mut business.proof_of_address.url, links);
    business
        .documents
        .values_mut()
        .for_each(|link| resolve_link(link, links));
    if let Some(url) = business
        .details
        .source_of_fund
        .as_mut()
        .and_then(|s| s.url.as_mut())
    {
        resolve(url, links);
    }
    business
}

pub(super) fn resolved_person(
    person: &PersonRequest,
    links: &BTreeMap<String, String>,
) -> PersonRequest {
    let mut person = person.clone();
    resolve(&mut person.id_document_url, links);
    resolve_link(&mut person.document, links);
    if let Some(link) = person.details.additional_document.as_mut() {
        resolve_link(link, links);
    }
    person
}
