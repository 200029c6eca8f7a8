//! From log bytes to stored games, for every game: which engine verifies a log ([`games`], the
//! registry, chosen by the log's format), the record stored about it ([`facts`]), its dedupe key
//! ([`canonical`]), and the import and reverify pipelines ([`pipeline`]) over log files read in
//! batches ([`inputs`]). No HTTP, no command line, no statistics: the service and the
//! command-line tool build on this, and the store's contract tests use it to make real records.

pub mod canonical;
pub mod facts;
pub mod games;
pub mod inputs;
pub mod pipeline;
