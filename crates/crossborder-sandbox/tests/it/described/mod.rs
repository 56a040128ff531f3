//! The sandbox as strict as the API description, through the running
//! server (issue #25): the wallet a funding credits, one webhook per status
//! change, the remaining amount as the description defines it, private KYB
//! documents, and the sandbox's own rules that ASSUMPTIONS.md records.

mod documents;
mod funding;
mod rules;
mod support;
