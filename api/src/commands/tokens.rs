//! `chronicle token create|list|revoke`: API tokens on the server's machine. A token is printed
//! once, when it is created; the store keeps only its SHA-256. Revoking keeps the row (a
//! tournament names the token that created it) and a running server refuses the token from its
//! next request on (tokens are looked up at every request).

use std::io::Write;

use serde_json::json;

use chronicle_store::{self as store, Revoked, Store, TokenRow};

use crate::commands::{CommandError, Outcome};

/// Longest expiry: ten years.
const MAX_SECONDS: i64 = 10 * 366 * 24 * 3600;

/// `90d`, `12h`, `30m`, `45s` → seconds (1 second to ten years).
pub fn parse_duration(text: &str) -> Result<i64, String> {
    let text = text.trim();
    let split = text.find(|c: char| !c.is_ascii_digit()).unwrap_or(text.len());
    let (digits, unit) = text.split_at(split);
    let n: i64 = digits.parse().map_err(|_| format!("`{text}` is not a duration such as 90d, 12h, 30m or 45s"))?;
    let scale = match unit {
        "s" => 1,
        "m" => 60,
        "h" => 3600,
        "d" => 86_400,
        _ => return Err(format!("`{text}`: the unit is s, m, h or d (90d, 12h, 30m, 45s)")),
    };
    match n.checked_mul(scale) {
        Some(seconds) if (1..=MAX_SECONDS).contains(&seconds) => Ok(seconds),
        _ => Err(format!("`{text}`: a token expires 1 second to 10 years after it is created")),
    }
}

/// Runs `f` on the store `database_url` names, then closes it.
pub(crate) fn with_store<T>(
    database_url: Option<String>,
    f: impl AsyncFnOnce(&store::Backend) -> Result<T, store::StoreError>,
) -> Result<T, CommandError> {
    let url = crate::commands::import::database_url(database_url);
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
    rt.block_on(async {
        let store = store::open(&url).await.map_err(|e| CommandError::Store(e.to_string()))?;
        let result = f(&store).await;
        store.close().await;
        result.map_err(|e| CommandError::Store(e.to_string()))
    })
}

/// `chronicle token create`: a new API token, printed once.
pub fn create(name: &str, expires_in: Option<i64>, database_url: Option<String>, out: &mut dyn Write) -> Outcome {
    let name = name.trim();
    if name.is_empty() {
        return Err(CommandError::Usage("a token needs a non-empty --name".into()));
    }
    let token = chronicle_service::auth::new_token().map_err(CommandError::Io)?;
    let hash = chronicle_service::auth::token_hash(&token);
    with_store(database_url, async |store| store.create_token(name, &hash, expires_in).await)?;
    writeln!(out, "{token}")?;
    Ok(crate::commands::Done::Success)
}

/// A token's state now: `active`, `expired` or `revoked`.
fn state(t: &TokenRow) -> &'static str {
    if t.revoked_at.is_some() {
        "revoked"
    } else if t.expired {
        "expired"
    } else {
        "active"
    }
}

/// `chronicle token list`: a table (or JSON lines) of every API token.
pub fn list(as_json: bool, database_url: Option<String>, out: &mut dyn Write) -> Outcome {
    let tokens = with_store(database_url, async |store| store.tokens().await)?;
    let mut text = String::new();
    if as_json {
        for t in &tokens {
            let line = json!({
                "id": t.id, "name": t.name, "created_at": t.created_at, "expires_at": t.expires_at,
                "revoked_at": t.revoked_at, "state": state(t),
            });
            text.push_str(&format!("{line}\n"));
        }
    } else {
        text.push_str(&format!("{:>5}  {:<8}  {:<27}  {:<27}  NAME\n", "ID", "STATE", "CREATED", "EXPIRES"));
        for t in &tokens {
            let expires = t.expires_at.as_deref().unwrap_or("never");
            text.push_str(&format!(
                "{:>5}  {:<8}  {:<27}  {:<27}  {}\n",
                t.id,
                state(t),
                t.created_at,
                expires,
                t.name
            ));
        }
    }
    out.write_all(text.as_bytes())?;
    Ok(crate::commands::Done::Success)
}

/// `chronicle token revoke ID`.
pub fn revoke(id: i64, database_url: Option<String>, out: &mut dyn Write) -> Outcome {
    match with_store(database_url, async |store| store.revoke_token(id).await)? {
        Revoked::Now => writeln!(out, "token {id} revoked")?,
        Revoked::Already => writeln!(out, "token {id} was revoked already")?,
        Revoked::NoSuchToken => return Err(CommandError::Store(format!("no token {id} (see `chronicle token list`)"))),
    }
    Ok(crate::commands::Done::Success)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations() {
        assert_eq!(parse_duration("90d"), Ok(90 * 86_400));
        assert_eq!(parse_duration("12h"), Ok(12 * 3600));
        assert_eq!(parse_duration("30m"), Ok(1800));
        assert_eq!(parse_duration("45s"), Ok(45));
        for bad in ["", "d", "0s", "5", "5w", "-5d", "99999999999999999999d", "4000d"] {
            assert!(parse_duration(bad).is_err(), "{bad}");
        }
    }
}
