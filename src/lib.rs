//! ncu-lint: a linter for NVIDIA Nsight Compute profiles.
//!
//! It reads `ncu --csv` exports of every form ([`ingest`]) into one model of
//! profile results ([`model`]) and prints it ([`dump`]).
//!
//! ```no_run
//! let report = ncu_lint::ingest::import(&["fixtures/lab/raw.csv.xz".into()]).unwrap();
//! assert_eq!(report.kernels.len(), 26);
//! ```
#![deny(missing_docs)]
// Errors carry the offending line for their diagnostic; they are built once,
// on the way out, so their size costs nothing on the hot path.
#![allow(clippy::result_large_err)]
// Input never reaches an unwrap or expect: every failure is a diagnostic.
#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)
)]

pub mod baseline;
pub mod config;
pub mod coverage;
pub mod cuda_source;
pub mod diff;
pub mod dump;
pub mod ingest;
pub mod lint;
pub mod model;
pub mod ncu;
pub mod report;
pub mod rules;
pub mod suppress;
pub mod value;
