//! A fuzzing harness for the replay path of every game (log bytes → the engine its format
//! names → the JSON report), built on the stable toolchain alone: no nightly, no sanitizers, no coverage
//! feedback. What makes it effective is the input: real and simulated logs ([`corpus`]),
//! mutated with knowledge of the JSON structure and of the ids the format uses ([`mutate`]),
//! plus byte-level damage so the JSON parser is exercised too.
//!
//! Every case is a pure function of `(seed, case index)`, so any failure is reproduced from
//! those two numbers, whatever the number of threads the campaign ran on ([`campaign`]).
//! [`harness`] runs one case under `catch_unwind` and times it; [`minimize`] shrinks a
//! failing log before it is kept as a regression.

pub mod campaign;
pub mod corpus;
pub mod harness;
pub mod minimize;
pub mod mutate;

pub use campaign::{run, run_on, Config, Failure, FailureKind, Summary};
pub use corpus::Corpus;
pub use harness::{check, report_json, Checked, Outcome, PanicReport, GAMES};
pub use mutate::{generate, Case, Operator};
