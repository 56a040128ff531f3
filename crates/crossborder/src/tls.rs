//! The TLS configuration of the HTTP client the SDK builds.
//!
//! With the `rustls` feature (the default) the SDK builds rustls's client
//! configuration itself, with the *ring* crypto provider (or aws-lc-rs with
//! the `aws-lc` feature) and the platform's certificate verifier, and hands
//! it to reqwest (`rustls-no-provider`): reqwest's own `rustls` feature
//! would compile aws-lc-sys, the longest build step of a downstream crate,
//! and no process-wide provider is installed, so an application's own
//! choice is never overridden. With `native-tls`, reqwest's native stack is
//! used as it is.

use crate::error::Error;

/// A `reqwest::ClientBuilder` with the SDK's TLS configuration, trusting
/// the platform's roots and `extra_roots` (PEM certificates), that follows
/// no redirect: reqwest's default follows up to ten, to any host, and keeps
/// custom headers such as `x-api-key` on the way (it strips only
/// `Authorization`, `Cookie` and `Proxy-Authorization`). A 3xx answer is
/// [`Error::Redirect`] instead (ASSUMPTIONS D40).
pub(crate) fn http_client_builder(
    extra_roots: &[Vec<u8>],
) -> Result<reqwest::ClientBuilder, Error> {
    let builder = reqwest::Client::builder().redirect(reqwest::redirect::Policy::none());
    #[cfg(feature = "native-tls")]
    {
        let mut builder = builder.tls_backend_native();
        for pem in extra_roots {
            let certificates = reqwest::Certificate::from_pem_bundle(pem)
                .map_err(|error| Error::Config(format!("invalid root certificate: {error}")))?;
            for certificate in certificates {
                builder = builder.add_root_certificate(certificate);
            }
        }
        Ok(builder)
    }
    #[cfg(all(feature = "__rustls", not(feature = "native-tls")))]
    {
        Ok(builder.tls_backend_preconfigured(rustls_config(extra_roots)?))
    }
    #[cfg(not(any(feature = "__rustls", feature = "native-tls")))]
    {
        if extra_roots.is_empty() {
            Ok(builder)
        } else {
            Err(Error::Config(
                "root certificates need a TLS feature of the crate (`rustls`, `aws-lc` or `native-tls`)"
                    .to_owned(),
            ))
        }
    }
}

/// rustls's client configuration: the SDK's provider, the platform's
/// verifier (as reqwest's own `rustls` feature uses) with `extra_roots`,
/// HTTP/1.1 by ALPN (the SDK's reqwest has no HTTP/2).
#[cfg(all(feature = "__rustls", not(feature = "native-tls")))]
fn rustls_config(extra_roots: &[Vec<u8>]) -> Result<rustls::ClientConfig, Error> {
    use std::sync::Arc;

    use rustls::pki_types::pem::PemObject;
    use rustls::pki_types::CertificateDer;
    use rustls_platform_verifier::Verifier;

    let config_error = |error: &dyn std::fmt::Display| {
        Error::Config(format!("the TLS configuration could not be built: {error}"))
    };
    let provider = Arc::new(provider());
    let verifier = if extra_roots.is_empty() {
        Verifier::new(Arc::clone(&provider))
    } else {
        let mut roots = Vec::new();
        for pem in extra_roots {
            for certificate in CertificateDer::pem_slice_iter(pem) {
                roots.push(certificate.map_err(|error| {
                    Error::Config(format!("invalid root certificate: {error}"))
                })?);
            }
        }
        if roots.is_empty() {
            return Err(Error::Config(
                "invalid root certificate: no PEM certificate found".to_owned(),
            ));
        }
        Verifier::new_with_extra_roots(roots, Arc::clone(&provider))
    }
    .map_err(|error| config_error(&error))?;
    let mut config = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|error| config_error(&error))?
        .dangerous()
        .with_custom_certificate_verifier(Arc::new(verifier))
        .with_no_client_auth();
    config.alpn_protocols = vec![b"http/1.1".to_vec()];
    Ok(config)
}

/// aws-lc-rs when the `aws-lc` feature asks for it, *ring* otherwise.
#[cfg(all(feature = "__rustls", not(feature = "native-tls")))]
fn provider() -> rustls::crypto::CryptoProvider {
    #[cfg(feature = "aws-lc")]
    {
        rustls::crypto::aws_lc_rs::default_provider()
    }
    #[cfg(not(feature = "aws-lc"))]
    {
        rustls::crypto::ring::default_provider()
    }
}
