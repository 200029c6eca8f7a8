//! The engine's rule tests, gathered in one binary (one link instead of ten). Each module is one
//! suite: `conversion`, `decisions` (`docs/rules/caverna-reference.md` H), `expedition`, `furnishings`
//! (`docs/rules/caverna-reference.md` E),
//! `harvest`, `placement`, `rounds`, `scoring`, `spaces`, `tiles`; `common` holds the shared
//! log builders.

mod common;
mod conversion;
mod decisions;
mod expedition;
mod furnishings;
mod harvest;
mod placement;
mod rounds;
mod scoring;
mod spaces;
mod tiles;
