//! `chronicle players merge|unmerge|aliases`: the administrator's way to say that two
//! identities are one player (a name written two ways, a player who later got an id). Ratings,
//! the ratings table and the player pages count merged identities as one once a server's models
//! task computed the stored ratings again (it notices the change at the next ratings query, or
//! within seconds: service/src/models.rs).

use std::io::Write;

use serde_json::json;

use chronicle_store::Store;

use crate::commands::tokens::with_store;
use crate::commands::{CommandError, Done, Outcome};

/// An identity key from the command line: `id:…` and `name:…` are keys as the ratings table
/// shows them; anything else is a player's name.
pub fn key_of(text: &str) -> Result<String, String> {
    chronicle_service::stats_corpus::key_of(text).ok_or_else(|| format!("`{}` names no player", text.trim()))
}

/// `chronicle players merge INTO ALIAS…`.
pub fn merge(into: &str, aliases: &[String], database_url: Option<String>, out: &mut dyn Write) -> Outcome {
    let into = key_of(into).map_err(CommandError::Usage)?;
    let aliases: Vec<String> =
        aliases.iter().map(|a| key_of(a)).collect::<Result<_, _>>().map_err(CommandError::Usage)?;
    if aliases.is_empty() {
        return Err(CommandError::Usage("name at least one identity to merge".into()));
    }
    let canonical = with_store(database_url, async |store| store.merge_players(&into, &aliases).await)?;
    for alias in &aliases {
        writeln!(out, "{alias} -> {canonical}")?;
    }
    Ok(Done::Success)
}

/// `chronicle players unmerge ALIAS`.
pub fn unmerge(alias: &str, database_url: Option<String>, out: &mut dyn Write) -> Outcome {
    let alias = key_of(alias).map_err(CommandError::Usage)?;
    if with_store(database_url, async |store| store.unmerge_player(&alias).await)? {
        writeln!(out, "{alias} is its own player again")?;
        Ok(Done::Success)
    } else {
        Err(CommandError::Store(format!(
            "{alias} was not merged into another player (see `chronicle players aliases`)"
        )))
    }
}

/// `chronicle players aliases`: every merged identity and the player it is.
pub fn aliases(as_json: bool, database_url: Option<String>, out: &mut dyn Write) -> Outcome {
    let rows = with_store(database_url, async |store| store.player_aliases().await)?;
    let mut text = String::new();
    for (alias, canonical) in &rows {
        if as_json {
            text.push_str(&format!("{}\n", json!({ "alias": alias, "player": canonical })));
        } else {
            text.push_str(&format!("{alias} -> {canonical}\n"));
        }
    }
    out.write_all(text.as_bytes())?;
    Ok(Done::Success)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn command_line_identities_are_keys_or_names() {
        assert_eq!(key_of("id:bgg-ana").as_deref(), Ok("id:bgg-ana"));
        assert_eq!(key_of("name:ana maria").as_deref(), Ok("name:ana maria"));
        assert_eq!(key_of("  Ana   MARIA ").as_deref(), Ok("name:ana maria"));
        assert!(key_of("   ").is_err());
        assert!(key_of("id:").is_err());
    }
}
