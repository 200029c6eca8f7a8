//! Bearer tokens: how they are made, how they are kept (only their SHA-256), how a request
//! presents one, and the per-token rate limit.

use std::num::NonZeroU32;

use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};
use sha2::{Digest, Sha256};

/// Every token starts with this, so that a leaked one is recognisable in logs and scanners.
pub const TOKEN_PREFIX: &str = "chr_";

/// A new random token: the prefix and 32 random bytes in hex (256 bits from the OS).
pub fn new_token() -> Result<String, String> {
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes).map_err(|e| format!("no randomness from the OS: {e}"))?;
    Ok(format!("{TOKEN_PREFIX}{}", hex(&bytes)))
}

/// What is stored of a token: lower-case hex SHA-256.
pub fn token_hash(token: &str) -> String {
    hex(&Sha256::digest(token.as_bytes()))
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Why an `Authorization` header is refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HeaderError {
    /// Not `Bearer <token>`.
    Malformed,
}

/// The token of an `Authorization: Bearer <token>` header; `Ok(None)` without a header.
pub fn bearer_token(header: Option<&[u8]>) -> Result<Option<&str>, HeaderError> {
    let Some(raw) = header else { return Ok(None) };
    let text = std::str::from_utf8(raw).map_err(|_| HeaderError::Malformed)?;
    let (scheme, token) = text.trim().split_once(' ').ok_or(HeaderError::Malformed)?;
    let token = token.trim();
    if !scheme.eq_ignore_ascii_case("bearer") || token.is_empty() {
        return Err(HeaderError::Malformed);
    }
    Ok(Some(token))
}

/// Requests per minute per token; a token may spend its whole minute's allowance at once.
pub struct RateLimit {
    limiter: DefaultKeyedRateLimiter<String>,
}

impl RateLimit {
    pub fn per_minute(n: NonZeroU32) -> RateLimit {
        RateLimit { limiter: RateLimiter::keyed(Quota::per_minute(n)) }
    }

    /// Counts one request of the token with this hash; false when it is over its limit.
    pub fn allow(&self, token_hash: &str) -> bool {
        self.limiter.check_key(&token_hash.to_owned()).is_ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_random_prefixed_and_hashed() {
        let a = new_token().unwrap();
        let b = new_token().unwrap();
        assert_ne!(a, b);
        assert!(a.starts_with(TOKEN_PREFIX) && a.len() == TOKEN_PREFIX.len() + 64);
        assert_eq!(token_hash(&a).len(), 64);
        assert_ne!(token_hash(&a), token_hash(&b));
    }

    #[test]
    fn authorization_header_forms() {
        assert_eq!(bearer_token(None), Ok(None));
        assert_eq!(bearer_token(Some(b"Bearer abc")), Ok(Some("abc")));
        assert_eq!(bearer_token(Some(b"bearer  abc ")), Ok(Some("abc")));
        assert_eq!(bearer_token(Some(b"Basic abc")), Err(HeaderError::Malformed));
        assert_eq!(bearer_token(Some(b"Bearer")), Err(HeaderError::Malformed));
        assert_eq!(bearer_token(Some(b"Bearer ")), Err(HeaderError::Malformed));
        assert_eq!(bearer_token(Some(&[0xff, 0xfe])), Err(HeaderError::Malformed));
    }

    #[test]
    fn rate_limit_counts_per_token() {
        let limit = RateLimit::per_minute(NonZeroU32::new(2).unwrap());
        assert!(limit.allow("a"));
        assert!(limit.allow("a"));
        assert!(!limit.allow("a"));
        assert!(limit.allow("b"));
    }
}
