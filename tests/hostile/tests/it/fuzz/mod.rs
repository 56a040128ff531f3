//! The fuzz targets of issue #13 (item 6), as proptest properties with
//! committed regression seeds (`proptest-regressions/`) and seed corpora
//! (`corpus/`) replayed on every run. See `crossborder_hostile_tests::fuzz`
//! for why proptest and how to run more cases (`PROPTEST_CASES`).

mod document_keys;
mod payout;
mod sandbox_bodies;
mod webhook;
