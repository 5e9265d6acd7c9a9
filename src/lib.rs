//! ncu-lint: a linter for NVIDIA Nsight Compute profiles.
//!
//! One path from exports to output:
//!
//! ```text
//! ingest::Input ──▶ model::Report ──▶ rules (packs as data) ──▶ lint::Linter ──▶ report::Emitter
//!  files or          kernels, metrics,   findings, skips,         ncu rules,        human, JSON,
//!  ncu -i commands   source views        measures                 ignores,          SARIF, GitHub,
//!                                                                 suppressions      JUnit, Markdown
//! ```
//!
//! [`ingest`] reads `ncu --csv` exports of every form, and `.ncu-rep`
//! reports natively, into one [`model`] report; [`rules`] evaluates TOML
//! rule packs over it, with causes from the [`memory_model`] and estimates
//! of what each fix is worth; a [`lint::Linter`] runs the whole lint,
//! [`triage`] ranks the places, and a [`report::Emitter`] writes it.
//!
//! ```no_run
//! use ncu_lint::lint::Linter;
//! let linter = Linter::builtin(Default::default()).unwrap();
//! let linted = linter.lint_files(&["fixtures/lab/raw.csv.xz".into()]).unwrap();
//! assert_eq!(linted.report.kernels.len(), 26);
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
pub mod inductor;
pub mod ingest;
pub mod lint;
pub mod memory_model;
pub mod model;
pub mod ncu;
pub mod report;
pub mod rules;
pub mod suppress;
pub mod timing;
pub mod triage;
pub mod value;
pub mod vocab;
