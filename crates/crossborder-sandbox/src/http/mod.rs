//! The HTTP layer: the router, authentication, request bodies and
//! parameters, the API's error shape and the request log. Below it,
//! [`crate::handlers`] answer each operation.

pub(crate) mod auth;
pub(crate) mod body;
pub(crate) mod error;
pub(crate) mod error_shape;
pub(crate) mod fault_injection;
pub(crate) mod params;
pub(crate) mod request_log;
pub(crate) mod routes;
