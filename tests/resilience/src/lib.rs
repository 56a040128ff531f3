//! Exactly-once payouts through a fault-injecting proxy, load with reconciliation, and the API key kept secret across both.
