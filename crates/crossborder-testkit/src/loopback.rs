//! A listener on a free 127.0.0.1 port, for a test's own server that is
//! not an axum app ([`LocalServer`](crate::LocalServer) serves those): a
//! raw TCP server, a proxy, a hostile peer.

use std::net::SocketAddr;

use tokio::net::TcpListener;

/// Binds a free port on 127.0.0.1 and returns the listener with its
/// address; `server` names the server in a panic's message.
///
/// ```
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() {
/// let (listener, addr) = crossborder_testkit::loopback_listener("the proxy").await;
/// assert!(addr.ip().is_loopback());
/// # drop(listener);
/// # }
/// ```
///
/// # Panics
///
/// When no loopback port is free.
pub async fn loopback_listener(server: &str) -> (TcpListener, SocketAddr) {
    let listener = TcpListener::bind("127.0.0.1:0")
        .await
        .unwrap_or_else(|error| panic!("{server}: no free port on 127.0.0.1: {error}"));
    let addr = listener
        .local_addr()
        .unwrap_or_else(|error| panic!("{server}: a bound socket has no address: {error}"));
    (listener, addr)
}
