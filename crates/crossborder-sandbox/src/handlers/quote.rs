//! Quotes: `GET /api/qoutes/{fromCurrency}/{toCurrency}/{amount}` (the path
//! segment is spelled `qoutes`, as the service spells it).
//!
//! The figures come from [`crate::rates`]; the quote's rateKey
//! (`rk_` + 16 hex digits, unpredictable) is remembered by the caller's
//! account and accepted on a converting collection or payout of the same
//! currency pair until `expiresAt`
//! ([`SandboxConfig::quote_ttl`](crate::SandboxConfig::quote_ttl), 300 s by
//! default). A rateKey may be used any number of times before it expires;
//! it fixes the rate, not the amount.
//!
//! The answer's `Date` header is the sandbox's own clock, the clock
//! `expiresAt` is on, so that a client measuring the quote's lifetime as
//! `expiresAt` minus `Date` (as the SDK does) gets the configured lifetime
//! even when the sandbox runs on a manual clock far from the real time.

use std::time::{SystemTime, UNIX_EPOCH};

use axum::extract::State;
use axum::http::{header, HeaderValue};
use axum::response::{IntoResponse, Response};
use axum::Json;
use crossborder_api::types::{Quote, QuoteResponse};
use crossborder_core::{validate_amount, AmountWire, Rail};

use crate::amount::check_max_amount;
use crate::http::auth::Caller;
use crate::http::error::ApiError;
use crate::http::params::{currency_param, PathParams, QueryParams};
use crate::rates::{convert, rounded_rate, QuoteRecord};
use crate::store::state::AppState;
use crate::timestamp::rfc3339;
use crate::wire;

/// `GET /api/qoutes/{fromCurrency}/{toCurrency}/{amount}?rail=`.
pub(crate) async fn get_quote(
    State(state): State<AppState>,
    caller: Caller,
    PathParams((from, to, amount)): PathParams<(String, String, String)>,
    QueryParams(query): QueryParams<Vec<(String, String)>>,
) -> Result<Response, ApiError> {
    let from = currency_param(&from)?;
    let to = currency_param(&to)?;
    let amount = validate_amount(
        "amount",
        Some(&amount),
        Some(from),
        AmountWire::UnsignedString,
    )
    .and_then(|amount| check_max_amount("amount", amount))
    .map_err(ApiError::violation)?;
    // A repeated `rail` is refused, as a repeated key of a body is
    // (ASSUMPTIONS B40): which one counts is up to each parser.
    let mut rails = query.iter().filter(|(name, _)| name == "rail");
    let rail = match (rails.next(), rails.next()) {
        (Some(_), Some(_)) => return Err(ApiError::repeated("rail")),
        (rail, _) => rail
            .map(|(_, rail)| rail.parse::<Rail>())
            .transpose()
            .map_err(|error| ApiError::bad_request(error.to_string()))?,
    };
    let conversion = convert(amount, from, to)
        .ok_or_else(|| ApiError::bad_request("amount: is too large to convert"))?;

    let now = state.now();
    let expires_at = now + state.config().quote_ttl;
    let mut account = caller.account();
    let rate_key = loop {
        let candidate = format!("rk_{}", state.ids().hex(16));
        if !account.has_quote(&candidate) {
            break candidate;
        }
    };
    account.add_quote(
        QuoteRecord {
            rate_key: rate_key.clone(),
            from,
            to,
            amount,
            rail,
            conversion,
            expires_at,
        },
        now,
    );
    drop(account);

    let mut response = Json(QuoteResponse {
        message: "Quote retrieved successfully".to_owned(),
        data: Quote {
            rate: wire::amount(conversion.rate),
            rounded_rate: Some(wire::amount(rounded_rate(conversion.rate))),
            rate_key,
            from_currency: from,
            to_currency: to,
            fee: Some(wire::amount(conversion.fee)),
            to_amount: Some(wire::amount(conversion.to_amount)),
            total_amount: Some(wire::amount(conversion.total_amount)),
            expires_at: Some(rfc3339(expires_at)),
        },
        error: Some(false),
    })
    .into_response();
    if let Some(date) = http_date(now) {
        response.headers_mut().insert(header::DATE, date);
    }
    Ok(response)
}

/// `at` as an HTTP date, when it is one (1970 to 9999; outside, the server
/// writes its real time, as for every other answer).
fn http_date(at: SystemTime) -> Option<HeaderValue> {
    let seconds = at.duration_since(UNIX_EPOCH).ok()?.as_secs();
    if seconds >= LAST_HTTP_DATE {
        return None;
    }
    HeaderValue::from_str(&httpdate::fmt_http_date(at)).ok()
}

/// 10000-01-01T00:00:00Z, the first instant an HTTP date cannot write.
const LAST_HTTP_DATE: u64 = 253_402_300_800;

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    #[test]
    fn the_date_header_is_written_only_where_http_dates_exist() {
        let at = UNIX_EPOCH + Duration::from_secs(1_795_262_400);
        assert_eq!(
            http_date(at).unwrap(),
            HeaderValue::from_static("Sat, 21 Nov 2026 12:00:00 GMT")
        );
        assert_eq!(
            http_date(UNIX_EPOCH + Duration::from_secs(LAST_HTTP_DATE - 1)).unwrap(),
            HeaderValue::from_static("Fri, 31 Dec 9999 23:59:59 GMT")
        );
        assert_eq!(
            http_date(UNIX_EPOCH + Duration::from_secs(LAST_HTTP_DATE)),
            None
        );
        assert_eq!(http_date(UNIX_EPOCH - Duration::from_secs(1)), None);
    }
}
