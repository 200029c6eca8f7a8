//! The error machinery every engine shares: its enum of stable error codes is declared with
//! [`error_codes!`](crate::error_codes) (each engine lists its own codes; the envelope's are the
//! shared ones of [`crate::envelope::codes`]), and a broken rule is a [`RuleError`] of that enum
//! with a message for people, returned through [`fail`] and [`ensure`]. The replay adds where
//! it happened (the entry and the player).

use std::fmt;

/// Declares an engine's `ErrorCode` enum from `Variant = "code",` lines (doc comments allowed):
/// `ALL` in the order written, `as_str` (the stable code: codes are only ever added, never
/// renamed), `Display` and `Serialize` as that code.
#[macro_export]
macro_rules! error_codes {
    ($( $(#[$doc:meta])* $variant:ident = $code:literal, )*) => {
        /// A stable error code. Its string form (`as_str`) is part of the public contract:
        /// codes are only ever added, never renamed.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum ErrorCode {
            $( $(#[$doc])* $variant, )*
        }

        impl ErrorCode {
            /// Every code, in the order written.
            pub const ALL: &'static [ErrorCode] = &[$(ErrorCode::$variant,)*];

            /// The stable code.
            pub const fn as_str(self) -> &'static str {
                match self {
                    $( ErrorCode::$variant => $code, )*
                }
            }
        }

        impl $crate::__serde::Serialize for ErrorCode {
            fn serialize<S: $crate::__serde::Serializer>(&self, s: S) -> ::std::result::Result<S::Ok, S::Error> {
                s.serialize_str(self.as_str())
            }
        }

        impl ::std::fmt::Display for ErrorCode {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl ErrorCode {
            /// The variant whose code is `code`, found at compile time.
            const fn spelled(code: &str) -> Option<ErrorCode> {
                let mut i = 0;
                while i < ErrorCode::ALL.len() {
                    if $crate::error::same_text(ErrorCode::ALL[i].as_str(), code) {
                        return Some(ErrorCode::ALL[i]);
                    }
                    i += 1;
                }
                None
            }
        }

        /// The engine's code of an envelope fault: the variant spelled as the shared code
        /// (`chronicle_game::envelope::codes`). An engine that lacks one does not compile.
        impl From<$crate::envelope::Code> for ErrorCode {
            fn from(code: $crate::envelope::Code) -> ErrorCode {
                const SHARED: [ErrorCode; 5] = {
                    let mut out = [ErrorCode::ALL[0]; 5];
                    let mut i = 0;
                    while i < 5 {
                        out[i] = match ErrorCode::spelled($crate::envelope::Code::ALL[i].as_str()) {
                            Some(c) => c,
                            None => panic!("an engine's error codes lack one of the envelope's shared codes"),
                        };
                        i += 1;
                    }
                    out
                };
                let at = $crate::envelope::Code::ALL.iter().position(|c| *c == code);
                SHARED[at.unwrap_or(0)]
            }
        }
    };
}

/// Whether two texts are the same, in a `const` context (for [`error_codes!`]).
#[doc(hidden)]
pub const fn same_text(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// A broken rule: an engine's code (`C`, its `ErrorCode`) and a message for people.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RuleError<C> {
    pub code: C,
    pub message: String,
}

impl<C> RuleError<C> {
    pub fn new(code: C, message: impl Into<String>) -> RuleError<C> {
        RuleError { code, message: message.into() }
    }
}

impl<C: fmt::Display> fmt::Display for RuleError<C> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.code, self.message)
    }
}

impl<C: fmt::Debug + fmt::Display> std::error::Error for RuleError<C> {}

/// What a rule returns.
pub type RuleResult<T, C> = Result<T, RuleError<C>>;

/// Fails with `code` and `message`.
pub fn fail<T, C>(code: C, message: impl Into<String>) -> RuleResult<T, C> {
    Err(RuleError::new(code, message))
}

/// Fails with `code` unless `cond` holds (the message is only built on failure).
pub fn ensure<C>(cond: bool, code: C, message: impl FnOnce() -> String) -> RuleResult<(), C> {
    if cond {
        Ok(())
    } else {
        Err(RuleError::new(code, message()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    crate::error_codes! {
        /// A first code.
        First = "first",
        Second = "E_SECOND",
        TooLarge = "log_too_large",
        NotJson = "malformed_json",
        Shape = "malformed",
        Format = "bad_format",
        Unknown = "unknown_field",
    }

    /// An envelope fault becomes the engine's variant spelled as the shared code, whatever the
    /// engine names it.
    #[test]
    fn an_envelope_fault_has_the_engines_variant_of_its_shared_code() {
        use crate::envelope::Code;
        let mapped: Vec<&str> = Code::ALL.iter().map(|c| ErrorCode::from(*c).as_str()).collect();
        let shared: Vec<&str> = Code::ALL.iter().map(|c| c.as_str()).collect();
        assert_eq!(mapped, shared);
        assert_eq!(ErrorCode::from(Code::UnknownField), ErrorCode::Unknown);
    }

    #[test]
    fn declared_codes_read_and_print_as_written() {
        assert_eq!(&ErrorCode::ALL[..2], &[ErrorCode::First, ErrorCode::Second]);
        assert_eq!((ErrorCode::Second.as_str(), ErrorCode::First.to_string()), ("E_SECOND", "first".to_owned()));
        assert_eq!(serde_json::to_string(&ErrorCode::Second).ok().as_deref(), Some("\"E_SECOND\""));
        let e: RuleResult<(), ErrorCode> = ensure(1 > 2, ErrorCode::First, || "one is not above two".into());
        assert_eq!(e.err().map(|e| e.to_string()).as_deref(), Some("first: one is not above two"));
        assert_eq!(fail::<(), _>(ErrorCode::Second, "no"), Err(RuleError::new(ErrorCode::Second, "no")));
    }
}
