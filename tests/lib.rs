//! Shared helpers for the integration tests live in the test files themselves.
