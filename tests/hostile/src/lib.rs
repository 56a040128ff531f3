//! Helpers shared by the hostile-input tests of the `crossborder` SDK and
//! the `crossborder-sandbox`:
//!
//! * [`raw`]: HTTP/1.1 written byte by byte over a TCP socket, so a test can
//!   send what no well-behaved client would (a body shorter than its
//!   `Content-Length`, invalid UTF-8, a 500 kB header);
//! * [`http1`]: reading an HTTP/1.1 head and body off a socket, shared by
//!   the raw client and the hostile server;
//! * [`sandbox`]: an in-process sandbox on 127.0.0.1, the operations it
//!   serves, a check of the API's error shape and a snapshot of its state;
//! * [`sdk`]: every SDK operation as a call with valid arguments, checked
//!   against the SDK's source so none is missed;
//! * [`server`]: a hostile HTTP server on 127.0.0.1 that answers every
//!   request the same bad way (HTML, random bytes, partial JSON, a slow
//!   drip, a reset);
//! * [`garbage`]: deterministic random bytes and other bodies no one should
//!   send;
//! * [`fuzz`]: the proptest configuration of the fuzz targets and their
//!   committed seed corpora.
//!
//! Everything listens on or connects to 127.0.0.1 only, and every wait is
//! bounded.

pub mod fuzz;
pub mod garbage;
pub mod http1;
pub mod raw;
pub mod sandbox;
pub mod sdk;
pub mod server;
