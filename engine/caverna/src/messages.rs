//! Error messages in the log format's words: serde's texts about the notation rewritten for
//! players (an unknown id with the closest known one, "a cell [row, column]" instead of a Rust
//! type). Only the words change; codes stay. (Rules name players themselves, by name and
//! seat: [`crate::game::Game::seat_name`].)

/// Levenshtein distance between two short ids.
fn distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let cur = row[j + 1];
            row[j + 1] = if ca == *cb { prev } else { 1 + prev.min(row[j]).min(cur) };
            prev = cur;
        }
    }
    row[b.len()]
}

/// The known id closest to `unknown`, when it is close enough to be a typo. Ids whose length
/// differs from `unknown`'s by more than a typo's distance are not compared (the distance is at
/// least that difference), so an id of megabytes in a hostile log costs one count of its
/// characters, not a distance to every known id.
pub fn closest<'a>(unknown: &str, known: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let length = unknown.chars().count();
    let typo = (length / 3).max(2);
    let (best, d) = known
        .into_iter()
        .filter(|k| k.chars().count().abs_diff(length) <= typo)
        .map(|k| (k, distance(unknown, k)))
        .min_by_key(|(_, d)| *d)?;
    (d > 0 && d <= typo).then_some(best)
}

/// The backquoted words of a text, in order.
fn quoted(text: &str) -> Vec<&str> {
    text.split('`').skip(1).step_by(2).collect()
}

/// Rust type names serde puts in its messages, in the format's words.
const TYPE_WORDS: [(&str, &str); 4] = [
    ("tuple struct RawCoord", "a cell [row, column]"),
    ("tuple struct", "a list"),
    ("struct ", "an object "),
    ("internally tagged enum", "an object with a `type` or `do` field"),
];

/// A serde message about the notation, for players: "unknown variant `x`, expected one of …"
/// becomes "unknown id `x`; did you mean `y`?" (or lists the ids when none is close), and Rust
/// type names become the format's words.
pub fn notation(text: &str) -> String {
    if let Some(rest) =
        text.strip_prefix("unknown variant ").or_else(|| text.split_once("unknown variant ").map(|(_, r)| r))
    {
        let words = quoted(rest);
        if let Some((unknown, known)) = words.split_first() {
            let at = text.find("unknown variant ").unwrap_or(0);
            let head = &text[..at];
            return match closest(unknown, known.iter().copied()) {
                Some(best) => format!("{head}unknown id `{unknown}`; did you mean `{best}`?"),
                None => format!("{head}unknown id `{unknown}`; known ids: {}", known.join(", ")),
            };
        }
    }
    let mut out = text.to_owned();
    for (rust, format) in TYPE_WORDS {
        out = out.replace(rust, format);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_ids_get_the_closest_known_one() {
        let text = "entry: unknown variant `ore_minin`, expected one of `logging`, `ore_mining`, `ruby_mining`";
        assert_eq!(notation(text), "entry: unknown id `ore_minin`; did you mean `ore_mining`?");
        let far = "unknown variant `zzz`, expected one of `logging`, `ore_mining`";
        assert_eq!(notation(far), "unknown id `zzz`; known ids: logging, ore_mining");
    }

    #[test]
    fn an_id_far_longer_than_every_known_one_gets_no_suggestion() {
        let long = "o".repeat(1_000_000);
        assert_eq!(closest(&long, ["logging", "ore_mining"]), None);
        let text = format!("entry: unknown variant `{long}`, expected one of `logging`, `ore_mining`");
        assert_eq!(notation(&text), format!("entry: unknown id `{long}`; known ids: logging, ore_mining"));
        // Lengths within a typo's distance are still compared.
        assert_eq!(closest("ore_miningxx", ["logging", "ore_mining"]), Some("ore_mining"));
        assert_eq!(closest("ore", ["logging", "ore_mining"]), None);
    }

    #[test]
    fn rust_types_become_the_formats_words() {
        let text = "entry: invalid type: string \"a\", expected tuple struct RawCoord";
        assert_eq!(notation(text), "entry: invalid type: string \"a\", expected a cell [row, column]");
    }
}
