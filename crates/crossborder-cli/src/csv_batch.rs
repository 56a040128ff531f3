//! A payout batch written as CSV (a spreadsheet's export): the header row
//! names the API's wire fields (`amount,fromCurrency,toCurrency,...`), and
//! each later row is one payout. The rows become the same JSON array a
//! `.json` batch is, so every rule after this point is the JSON path's.
//!
//! Every payout field of the spec is a string (the amount a decimal
//! string), so each cell becomes a JSON string exactly as written: an
//! amount's text is never read as a number and never rounded. An empty
//! cell leaves its field out, as a JSON body would (a CSV cannot tell an
//! absent value from an empty one).

use std::io::Read;
use std::path::Path;

use crossborder::rules::payout::PayoutFields;
use serde_json::{Map, Value};

use crate::failure::Failure;

/// Whether `path` is read as CSV: with `--csv`, or when its name ends in
/// `.csv` (any case).
pub fn wanted(path: &Path, forced: bool) -> bool {
    forced
        || path
            .extension()
            .is_some_and(|extension| extension.eq_ignore_ascii_case("csv"))
}

/// Reads `path` (`-` is stdin) as a CSV batch: a JSON array of payouts.
pub fn read(path: &Path) -> Result<Value, Failure> {
    let stdin = path == Path::new("-");
    let name = if stdin {
        "stdin".to_owned()
    } else {
        path.display().to_string()
    };
    let mut bytes = Vec::new();
    let read = if stdin {
        std::io::stdin().read_to_end(&mut bytes).map(drop)
    } else {
        std::fs::read(path).map(|read| bytes = read)
    };
    read.map_err(|e| Failure::usage(format!("cannot read {name}: {e}")))?;
    parse(&bytes, &name)
}

/// The payouts of CSV `text` (from `name`, for the errors), as JSON.
pub fn parse(text: &[u8], name: &str) -> Result<Value, Failure> {
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(true)
        .from_reader(text);
    let bad = |error: csv::Error| Failure::usage(format!("{name} is not CSV: {}", why(&error)));
    let header: Vec<String> = reader
        .headers()
        .map_err(bad)?
        .iter()
        .map(str::to_owned)
        .collect();
    check_header(&header, name)?;
    let mut payouts = Vec::new();
    for row in reader.records() {
        let row = row.map_err(bad)?;
        let mut payout = Map::new();
        for (field, cell) in header.iter().zip(row.iter()) {
            if !cell.is_empty() {
                payout.insert(field.clone(), Value::String(cell.to_owned()));
            }
        }
        payouts.push(Value::Object(payout));
    }
    if payouts.is_empty() {
        return Err(Failure::usage(format!(
            "{name} has no payouts: after its header row, each row is one payout"
        )));
    }
    Ok(Value::Array(payouts))
}

/// Every column must name a payout field, once.
fn check_header(header: &[String], name: &str) -> Result<(), Failure> {
    for (index, column) in header.iter().enumerate() {
        let position = index + 1;
        if !PayoutFields::WIRE_NAMES.contains(&column.as_str()) {
            return Err(Failure::usage(format!(
                "{name}: column {position} ({column:?}) is not a payout field; the header row \
                 names the API's wire fields: {}",
                PayoutFields::WIRE_NAMES.join(", ")
            )));
        }
        if header[..index].contains(column) {
            return Err(Failure::usage(format!(
                "{name}: column {position} repeats {column:?}"
            )));
        }
    }
    Ok(())
}

/// The csv crate's error, told by line.
fn why(error: &csv::Error) -> String {
    match error.kind() {
        csv::ErrorKind::UnequalLengths {
            pos,
            expected_len,
            len,
        } => format!(
            "line {} has {len} cell{} where the header row has {expected_len}",
            pos.as_ref().map_or(0, csv::Position::line),
            if *len == 1 { "" } else { "s" }
        ),
        csv::ErrorKind::Utf8 { pos, .. } => format!(
            "line {} is not UTF-8 text",
            pos.as_ref().map_or(0, csv::Position::line)
        ),
        _ => error.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn message(result: Result<Value, Failure>) -> String {
        result.unwrap_err().lines.join("\n")
    }

    #[test]
    fn each_row_is_a_payout_of_strings_and_empty_cells_are_left_out() {
        let text = "\u{feff}amount,fromCurrency,toCurrency,sessionId,narration\n\
                    2500.10,NGN,NGN,pay-1,\"Rent, March\"\n\
                    0.000001,USDT,USDT,,\n";
        assert_eq!(
            parse(text.as_bytes(), "batch.csv").unwrap(),
            json!([
                {"amount": "2500.10", "fromCurrency": "NGN", "toCurrency": "NGN",
                 "sessionId": "pay-1", "narration": "Rent, March"},
                {"amount": "0.000001", "fromCurrency": "USDT", "toCurrency": "USDT"},
            ])
        );
    }

    #[test]
    fn a_bad_header_or_row_is_refused_naming_the_column_or_line() {
        assert_eq!(
            message(parse(b"amount,amont\n1,2\n", "b.csv")),
            "error: b.csv: column 2 (\"amont\") is not a payout field; the header row names \
             the API's wire fields: amount, fromCurrency, toCurrency, narration, sessionId, \
             rateKey, accountNumber, accountName, bankName, bankCode, address, network, \
             fromNetwork, toNetwork, transitNumber, institutionNumber, sortCode, swiftCode, \
             recipientName"
        );
        for (text, refused) in [
            (
                &b"amount,sessionId,amount\n"[..],
                "column 3 repeats \"amount\"",
            ),
            (
                b"amount,sessionId\n1,a\n2\n",
                "is not CSV: line 3 has 1 cell where the header row has 2",
            ),
            (
                b"amount,sessionId\n",
                "has no payouts: after its header row, each row is one payout",
            ),
            (b"amount\n\xff\n", "is not CSV: line 2 is not UTF-8 text"),
        ] {
            let separator = if refused.starts_with("column") {
                ":"
            } else {
                ""
            };
            assert_eq!(
                message(parse(text, "b.csv")),
                format!("error: b.csv{separator} {refused}")
            );
        }
    }

    #[test]
    fn csv_is_chosen_by_the_flag_or_the_extension() {
        assert!(wanted(Path::new("batch.CSV"), false));
        assert!(wanted(Path::new("-"), true));
        assert!(!wanted(Path::new("batch.json"), false));
        assert!(!wanted(Path::new("csv"), false));
    }
}
