//! Uploads as raw multipart bodies, for tests of the upload route itself
//! (a wrong field name, an empty or oversized file).

use reqwest::Body;

use crate::reply::Reply;
use crate::sandbox::TestSandbox;

/// The boundary of every [`multipart`] body.
pub const BOUNDARY: &str = "crossborder-testkit-boundary";

/// A `multipart/form-data` body (boundary [`BOUNDARY`]) with one part named
/// `field`: the file `filename` holding `bytes`.
pub fn multipart(field: &str, filename: &str, bytes: &[u8]) -> Vec<u8> {
    let mut body = format!(
        "--{BOUNDARY}\r\nContent-Disposition: form-data; name=\"{field}\"; filename=\"{filename}\"\r\n\
         Content-Type: application/octet-stream\r\n\r\n"
    )
    .into_bytes();
    body.extend_from_slice(bytes);
    body.extend_from_slice(format!("\r\n--{BOUNDARY}--\r\n").as_bytes());
    body
}

impl TestSandbox {
    /// `POST /api/upload-document` of `body` (a [`multipart`] body) with
    /// `key`, whatever the answer.
    ///
    /// # Panics
    ///
    /// When the sandbox does not answer.
    pub async fn upload(&self, key: &str, body: impl Into<Body>) -> Reply {
        let request = self
            .http
            .post(self.url("/api/upload-document"))
            .header("x-api-key", key)
            .header(
                "content-type",
                format!("multipart/form-data; boundary={BOUNDARY}"),
            )
            .body(body);
        self.answer(request).await
    }

    /// A GET of `link` (a document's link, a full URL) with `key`, if any.
    ///
    /// # Panics
    ///
    /// When the sandbox does not answer.
    pub async fn fetch(&self, link: &str, key: Option<&str>) -> Reply {
        let mut request = self.http.get(link);
        if let Some(key) = key {
            request = request.header("x-api-key", key);
        }
        self.answer(request).await
    }

    /// Uploads `bytes` as the business of `key` and returns the document's
    /// link.
    ///
    /// # Panics
    ///
    /// When the upload is refused.
    pub async fn upload_link(&self, key: &str, bytes: &[u8]) -> String {
        let stored = self.upload(key, multipart("file", "doc", bytes)).await;
        assert_eq!(stored.status, 200, "{}", stored.text);
        match stored.body["data"]["link"].as_str() {
            Some(link) => link.to_owned(),
            None => panic!("no link in {}", stored.text),
        }
    }
}
