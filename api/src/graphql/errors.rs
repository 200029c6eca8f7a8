//! GraphQL errors with a stable `extensions.code`. An illegal log is never an error (it is a
//! result with status `INVALID`); errors are about the request itself.

use async_graphql::{Error, ErrorExtensions, Response};

use crate::service::ServiceError;

pub const UNAUTHENTICATED: &str = "UNAUTHENTICATED";
pub const BAD_USER_INPUT: &str = "BAD_USER_INPUT";
pub const RATE_LIMITED: &str = "RATE_LIMITED";
pub const BODY_TOO_LARGE: &str = "BODY_TOO_LARGE";
pub const BAD_REQUEST: &str = "BAD_REQUEST";
pub const QUERY_TOO_DEEP: &str = "QUERY_TOO_DEEP";
pub const QUERY_TOO_COMPLEX: &str = "QUERY_TOO_COMPLEX";
pub const GRAPHQL_PARSE_FAILED: &str = "GRAPHQL_PARSE_FAILED";
pub const GRAPHQL_VALIDATION_FAILED: &str = "GRAPHQL_VALIDATION_FAILED";

/// An error with a code.
pub fn coded(code: &'static str, message: impl Into<String>) -> Error {
    Error::new(message).extend_with(|_, e| e.set("code", code))
}

pub fn service(e: ServiceError) -> Error {
    coded(e.code(), e.message())
}

pub fn bad_input(message: impl Into<String>) -> Error {
    coded(BAD_USER_INPUT, message)
}

/// Gives every error of a response a code: the executor's own errors (parsing, validation,
/// limits) come without one.
pub fn add_codes(response: &mut Response) {
    for error in &mut response.errors {
        let has_code = error.extensions.as_ref().is_some_and(|x| x.get("code").is_some());
        if has_code {
            continue;
        }
        let code = executor_code(&error.message, !error.locations.is_empty() || !error.path.is_empty());
        error.extensions.get_or_insert_with(Default::default).set("code", code);
    }
}

/// The code of an error the GraphQL executor raised before running resolvers.
fn executor_code(message: &str, located: bool) -> &'static str {
    if message.contains("nested too deep") {
        QUERY_TOO_DEEP
    } else if message.contains("too complex") {
        QUERY_TOO_COMPLEX
    } else if message.starts_with(" --> ") || message.contains("expected ") && !located {
        GRAPHQL_PARSE_FAILED
    } else {
        GRAPHQL_VALIDATION_FAILED
    }
}
