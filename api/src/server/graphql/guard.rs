//! Checks a GraphQL document before anything else looks at it, in time linear in its size, so
//! that no document can make the server walk more than it allows:
//!
//! 1. its text is at most `max_query_bytes` long (`QUERY_TOO_LARGE`);
//! 2. its brackets nest at most [`MAX_NESTING`] deep (`QUERY_TOO_DEEP`), found by one scan of
//!    the text, so that the recursive-descent parser cannot run out of stack;
//! 3. it parses (`GRAPHQL_PARSE_FAILED`);
//! 4. every operation, with its fragments expanded, selects at most `max_selections` fields,
//!    `__typename`, fragment spreads, arguments and directives included (`QUERY_TOO_COMPLEX`),
//!    and nests at most
//!    `max_depth` fields deep (`QUERY_TOO_DEEP`). Each fragment's expanded size and depth are
//!    computed once (memoised), so a fragment spread twice at each of 30 levels costs 30 steps
//!    here, not 2^30; a fragment that spreads itself is refused (`GRAPHQL_VALIDATION_FAILED`).
//!
//! The executor's own checks (complexity, depth, validation) run only on documents that
//! passed, whose expanded size is then bounded.

use std::collections::HashMap;

use async_graphql::parser::types::{ExecutableDocument, Selection, SelectionSet};
use async_graphql::parser::Positioned;
use async_graphql::Name;

use crate::server::graphql::errors;

/// Deepest nesting of `{`, `(` and `[` in a document's text.
pub const MAX_NESTING: usize = 64;
/// Fragments spreading fragments, at most this deep.
const MAX_FRAGMENT_CHAIN: usize = 64;

/// What a document may ask.
#[derive(Clone, Copy, Debug)]
pub struct DocumentLimits {
    pub max_query_bytes: usize,
    pub max_selections: u64,
    pub max_depth: usize,
}

/// Why a document was refused: a stable code and a message for the caller.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refusal {
    pub code: &'static str,
    pub message: String,
}

fn refuse(code: &'static str, message: impl Into<String>) -> Refusal {
    Refusal { code, message: message.into() }
}

/// Checks and parses a document (see the module documentation).
pub fn check(query: &str, limits: &DocumentLimits) -> Result<ExecutableDocument, Refusal> {
    if query.len() > limits.max_query_bytes {
        let message = format!("the query is {} bytes; at most {} are accepted", query.len(), limits.max_query_bytes);
        return Err(refuse(errors::QUERY_TOO_LARGE, message));
    }
    let nesting = nesting(query);
    if nesting > MAX_NESTING {
        let message = format!("brackets nest {nesting} deep; at most {MAX_NESTING} are accepted");
        return Err(refuse(errors::QUERY_TOO_DEEP, message));
    }
    let doc =
        async_graphql::parser::parse_query(query).map_err(|e| refuse(errors::GRAPHQL_PARSE_FAILED, e.to_string()))?;
    let mut sizes = Sizes { doc: &doc, memo: HashMap::new() };
    for (_, operation) in doc.operations.iter() {
        let size = sizes.of_set(&operation.node.selection_set, 0)?;
        if size.selections > limits.max_selections {
            let message = format!(
                "the operation has {} fields, arguments and directives with its fragments expanded; at most {} are accepted",
                size.selections, limits.max_selections
            );
            return Err(refuse(errors::QUERY_TOO_COMPLEX, message));
        }
        let max_depth = if introspection_only(&operation.node.selection_set.node) {
            limits.max_depth.max(INTROSPECTION_DEPTH)
        } else {
            limits.max_depth
        };
        if size.depth > max_depth {
            let message = format!("the operation nests {} fields deep; at most {max_depth} are accepted", size.depth);
            return Err(refuse(errors::QUERY_TOO_DEEP, message));
        }
    }
    Ok(doc)
}

/// How deep an operation that only reads the schema (`__schema`, `__type`, `__typename` at its
/// root) may nest: the introspection query of GraphiQL and other tools nests `ofType` nine deep,
/// about 15 fields in all. Such an operation reads the static schema only, and its size is
/// bounded by `max_selections` like any other.
pub const INTROSPECTION_DEPTH: usize = 24;

/// Whether every root field of a selection set is an introspection field.
fn introspection_only(set: &async_graphql::parser::types::SelectionSet) -> bool {
    use async_graphql::parser::types::Selection;
    !set.items.is_empty()
        && set.items.iter().all(|item| match &item.node {
            Selection::Field(f) => f.node.name.node.starts_with("__"),
            _ => false,
        })
}

/// The deepest nesting of brackets outside strings and comments.
fn nesting(query: &str) -> usize {
    let bytes = query.as_bytes();
    let (mut depth, mut deepest, mut i) = (0usize, 0usize, 0usize);
    while i < bytes.len() {
        match bytes[i] {
            b'#' => {
                while i < bytes.len() && bytes[i] != b'\n' && bytes[i] != b'\r' {
                    i += 1;
                }
            }
            b'"' if bytes[i..].starts_with(b"\"\"\"") => {
                i += 3;
                while i < bytes.len() && !bytes[i..].starts_with(b"\"\"\"") {
                    i += if bytes[i..].starts_with(b"\\\"\"\"") { 4 } else { 1 };
                }
                i += 2;
            }
            b'"' => {
                i += 1;
                while i < bytes.len() && bytes[i] != b'"' && bytes[i] != b'\n' {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
            }
            b'{' | b'(' | b'[' => {
                depth += 1;
                deepest = deepest.max(depth);
            }
            b'}' | b')' | b']' => depth = depth.saturating_sub(1),
            _ => {}
        }
        i += 1;
    }
    deepest
}

/// A selection set's size with its fragments expanded.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Size {
    /// Fields (`__typename` too), their arguments and directives, and fragment spreads.
    selections: u64,
    /// Fields nested in fields, this set's own fields counting 1.
    depth: usize,
}

enum Memo {
    /// Being expanded: meeting it again means it spreads itself.
    Expanding,
    Done(Size),
}

struct Sizes<'a> {
    doc: &'a ExecutableDocument,
    memo: HashMap<Name, Memo>,
}

impl Sizes<'_> {
    fn of_set(&mut self, set: &Positioned<SelectionSet>, chain: usize) -> Result<Size, Refusal> {
        let mut total = Size::default();
        for selection in &set.node.items {
            let size = match &selection.node {
                Selection::Field(field) => {
                    let inner = self.of_set(&field.node.selection_set, chain)?;
                    // Each argument and directive is work for validation too.
                    let own = 1 + field.node.arguments.len() + field.node.directives.len();
                    Size { selections: inner.selections.saturating_add(own as u64), depth: inner.depth + 1 }
                }
                Selection::InlineFragment(inline) => self.of_set(&inline.node.selection_set, chain)?,
                Selection::FragmentSpread(spread) => {
                    let inner = self.of_fragment(&spread.node.fragment_name.node, chain + 1)?;
                    Size { selections: inner.selections.saturating_add(1), depth: inner.depth }
                }
            };
            total.selections = total.selections.saturating_add(size.selections);
            total.depth = total.depth.max(size.depth);
        }
        Ok(total)
    }

    fn of_fragment(&mut self, name: &Name, chain: usize) -> Result<Size, Refusal> {
        match self.memo.get(name) {
            Some(Memo::Done(size)) => return Ok(*size),
            Some(Memo::Expanding) => {
                return Err(refuse(errors::GRAPHQL_VALIDATION_FAILED, format!("fragment `{name}` spreads itself")))
            }
            None => {}
        }
        // An unknown fragment adds nothing here; validation reports it.
        let Some(fragment) = self.doc.fragments.get(name) else { return Ok(Size::default()) };
        if chain > MAX_FRAGMENT_CHAIN {
            let message = format!("fragments spread fragments more than {MAX_FRAGMENT_CHAIN} deep");
            return Err(refuse(errors::QUERY_TOO_COMPLEX, message));
        }
        self.memo.insert(name.clone(), Memo::Expanding);
        let size = self.of_set(&fragment.node.selection_set, chain)?;
        self.memo.insert(name.clone(), Memo::Done(size));
        Ok(size)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const LIMITS: DocumentLimits = DocumentLimits { max_query_bytes: 100_000, max_selections: 1000, max_depth: 12 };

    /// `levels` fragments, each spreading the previous one twice: 2^levels expanded fields.
    pub fn fragment_bomb(levels: usize, leaf: &str) -> String {
        let mut doc = format!("query {{ ...F{levels} }}\nfragment F0 on Query {{ {leaf} }}\n");
        for i in 1..=levels {
            doc.push_str(&format!("fragment F{i} on Query {{ ...F{p} ...F{p} }}\n", p = i - 1));
        }
        doc
    }

    #[test]
    fn fragment_bomb_is_refused_in_linear_time() {
        // 2^60 expanded selections: only memoisation makes this answer at once.
        let start = std::time::Instant::now();
        let refused = check(&fragment_bomb(60, "__typename"), &LIMITS).unwrap_err();
        assert_eq!(refused.code, errors::QUERY_TOO_COMPLEX);
        assert!(start.elapsed() < std::time::Duration::from_secs(1));
        // A small one passes.
        assert!(check(&fragment_bomb(5, "__typename"), &LIMITS).is_ok());
    }

    #[test]
    fn arguments_are_counted() {
        let args: Vec<String> = (0..1000).map(|i| format!("a{i}: 1")).collect();
        let many = format!("{{ games({}) }}", args.join(", "));
        assert_eq!(check(&many, &LIMITS).unwrap_err().code, errors::QUERY_TOO_COMPLEX);
    }

    #[test]
    fn typename_and_spreads_are_counted() {
        let many = format!("{{ {} }}", "__typename ".repeat(1001));
        assert_eq!(check(&many, &LIMITS).unwrap_err().code, errors::QUERY_TOO_COMPLEX);
        let fine = format!("{{ {} }}", "__typename ".repeat(1000));
        assert!(check(&fine, &LIMITS).is_ok());
    }

    #[test]
    fn depth_counts_fields_through_fragments() {
        let deep = "{ a { b { c { d { e { f { g { h { i { j { k { l { m } } } } } } } } } } } } }";
        assert_eq!(check(deep, &LIMITS).unwrap_err().code, errors::QUERY_TOO_DEEP);
        let via_fragment =
            "{ a { ...F } } fragment F on X { b { c { d { e { f { g { h { i { j { k { l { m } } } } } } } } } } } }";
        assert_eq!(check(via_fragment, &LIMITS).unwrap_err().code, errors::QUERY_TOO_DEEP);
        assert!(check("{ a { b { c } } }", &LIMITS).is_ok());
    }

    #[test]
    fn introspection_may_nest_deeper_but_nothing_else() {
        let of_type = |n: usize| format!("{}kind{}", "ofType { ".repeat(n), " }".repeat(n));
        let introspection = format!("{{ __schema {{ types {{ fields {{ type {{ {} }} }} }} }} }}", of_type(12));
        assert!(check(&introspection, &LIMITS).is_ok(), "16 deep, introspection only");
        let too_deep = format!("{{ __schema {{ types {{ fields {{ type {{ {} }} }} }} }} }}", of_type(22));
        assert_eq!(check(&too_deep, &LIMITS).unwrap_err().code, errors::QUERY_TOO_DEEP);
        let mixed = format!("{{ games {{ id }} __schema {{ types {{ fields {{ type {{ {} }} }} }} }} }}", of_type(12));
        assert_eq!(check(&mixed, &LIMITS).unwrap_err().code, errors::QUERY_TOO_DEEP, "a mixed root keeps max_depth");
    }

    #[test]
    fn bracket_nesting_is_refused_before_parsing() {
        let nested = format!("{{ a(x: {}1{}) }}", "[".repeat(40_000), "]".repeat(40_000));
        assert_eq!(check(&nested, &LIMITS).unwrap_err().code, errors::QUERY_TOO_DEEP);
        // Brackets inside strings, block strings and comments do not count.
        let quoted = format!("{{ a(x: \"{0}\", y: \"\"\"{0}\"\"\") # {0}\n }}", "{".repeat(200));
        assert!(check(&quoted, &LIMITS).is_ok());
    }

    #[test]
    fn self_spreading_fragments_and_long_chains_are_refused() {
        let cycle = "{ ...A } fragment A on Query { ...B } fragment B on Query { ...A }";
        assert_eq!(check(cycle, &LIMITS).unwrap_err().code, errors::GRAPHQL_VALIDATION_FAILED);
        let mut chain = String::from("{ ...F0 }\n");
        for i in 0..100 {
            chain.push_str(&format!("fragment F{i} on Query {{ ...F{} }}\n", i + 1));
        }
        chain.push_str("fragment F100 on Query { __typename }\n");
        assert_eq!(check(&chain, &LIMITS).unwrap_err().code, errors::QUERY_TOO_COMPLEX);
    }

    #[test]
    fn oversized_and_malformed_documents() {
        let big = format!("{{ a(x: \"{}\") }}", "x".repeat(100_001));
        assert_eq!(check(&big, &LIMITS).unwrap_err().code, errors::QUERY_TOO_LARGE);
        assert_eq!(check("{ a ", &LIMITS).unwrap_err().code, errors::GRAPHQL_PARSE_FAILED);
    }
}
