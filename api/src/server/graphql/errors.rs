//! GraphQL errors with a stable `extensions.code`. An illegal log is never an error (it is a
//! result with status `INVALID`); errors are about the request itself.

use async_graphql::{Error, ErrorExtensions, Response};

use chronicle_service::ServiceError;

pub const UNAUTHENTICATED: &str = "UNAUTHENTICATED";
pub const BAD_USER_INPUT: &str = "BAD_USER_INPUT";
pub const RATE_LIMITED: &str = "RATE_LIMITED";
pub const BODY_TOO_LARGE: &str = "BODY_TOO_LARGE";
pub const BAD_REQUEST: &str = "BAD_REQUEST";
pub const QUERY_TOO_DEEP: &str = "QUERY_TOO_DEEP";
pub const QUERY_TOO_COMPLEX: &str = "QUERY_TOO_COMPLEX";
pub const GRAPHQL_PARSE_FAILED: &str = "GRAPHQL_PARSE_FAILED";
pub const GRAPHQL_VALIDATION_FAILED: &str = "GRAPHQL_VALIDATION_FAILED";
pub const QUERY_TOO_LARGE: &str = "QUERY_TOO_LARGE";
pub const TOO_MANY_ERRORS: &str = "TOO_MANY_ERRORS";
pub const UNSUPPORTED_MEDIA_TYPE: &str = "UNSUPPORTED_MEDIA_TYPE";
pub const BUSY: &str = "BUSY";
/// `entrySteps`: the draft is malformed or illegal so far (the message says which part).
pub const ILLEGAL_DRAFT: &str = "ILLEGAL_DRAFT";
pub const BUDGET_EXCEEDED: &str = "BUDGET_EXCEEDED";
pub const INTERNAL_SERVER_ERROR: &str = "INTERNAL_SERVER_ERROR";

/// Most errors in one response: a document with thousands of mistakes gets the first ones and
/// a count of the rest.
pub const MAX_ERRORS: usize = 20;

/// An error with a code.
pub fn coded(code: &'static str, message: impl Into<String>) -> Error {
    Error::new(message).extend_with(|_, e| e.set("code", code))
}

/// A service error for the caller. The server's own failures are logged with a reference the
/// caller gets instead of their text (which may name tables, files or addresses).
pub fn service(e: ServiceError) -> Error {
    let (code, message) = public(e);
    coded(code, message)
}

/// The code and the text a caller may see of a service error (see [`service`]).
pub fn public(e: ServiceError) -> (&'static str, String) {
    if !e.is_server_side() {
        return (e.code(), e.message().to_owned());
    }
    let reference = reference();
    crate::server::metrics::get().service_error(e.code());
    tracing::error!(code = e.code(), reference = reference.as_str(), error = e.message(), "request failed");
    (e.code(), format!("{} (reference {reference})", e.public_message()))
}

/// A short random reference that ties a caller's error to the server's log line.
pub fn reference() -> String {
    let mut bytes = [0u8; 6];
    if getrandom::fill(&mut bytes).is_err() {
        return "unknown".into();
    }
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

pub fn bad_input(message: impl Into<String>) -> Error {
    coded(BAD_USER_INPUT, message)
}

/// Keeps the first [`MAX_ERRORS`] errors of a response and says how many more there were.
pub fn cap_errors(response: &mut Response) {
    if response.errors.len() <= MAX_ERRORS {
        return;
    }
    let more = response.errors.len() - MAX_ERRORS;
    response.errors.truncate(MAX_ERRORS);
    let mut note = async_graphql::ServerError::new(format!("{more} more errors were left out"), None);
    note.extensions.get_or_insert_with(Default::default).set("code", TOO_MANY_ERRORS);
    response.errors.push(note);
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
    if message.contains("nested too deep") || message.contains("recursion depth") {
        QUERY_TOO_DEEP
    } else if message.contains("too complex") {
        QUERY_TOO_COMPLEX
    } else if message.starts_with(" --> ") || message.contains("expected ") && !located {
        GRAPHQL_PARSE_FAILED
    } else {
        GRAPHQL_VALIDATION_FAILED
    }
}
