//! The SDK and the sandbox against `openapi/crossborder.yaml`, judged by
//! Prism (#13 items 1 and 7). One binary, so that its Prisms start at the
//! same time and share one installation.

mod mock;
mod proxy;
