//! Ids — enum variants written as strings — found by their quoted text in a table hashed at
//! compile time, for the strict cursor ([`crate::cursor::Cursor::id_in`]).
//!
//! Most strings of a log are ids. Read through serde, each one is a visitor call and a `match`
//! on the string (a jump on its length, then comparisons), whose jumps are hard to predict
//! because the ids of a log follow no order. Here the first 16 bytes of the quoted text — the
//! whole of most ids — pick one slot of a small table and one comparison decides; a longer id
//! also compares its remaining bytes. A text that is no id of the table gives `None`, which the
//! cursor's callers treat as "read it the usual way", so a table may leave ids out but must not
//! name one differently: each engine tests its tables against its types' own reading.

/// One id of a table: the first 16 bytes of its quoted text (`"name"`, zero bytes after a
/// shorter one), its text and its value.
#[derive(Clone, Copy, Debug)]
pub struct Slot<T> {
    prefix: u128,
    text: &'static str,
    value: T,
}

/// The ids of one type, in `S` slots (a power of two, more than the ids), made by
/// [`IdTable::new`] in a `const`.
#[derive(Debug)]
pub struct IdTable<T: 'static, const S: usize> {
    slots: [Option<Slot<T>>; S],
}

/// The first `n` (at most 16) bytes of `bytes` as one little-endian word.
const fn first_bytes(bytes: &[u8], n: usize) -> u128 {
    let mut word = 0u128;
    let mut k = 0;
    while k < n && k < 16 && k < bytes.len() {
        word |= (bytes[k] as u128) << (8 * k);
        k += 1;
    }
    word
}

/// The mask of the first `n` bytes of a word, for each `n` up to 16.
const MASKS: [u128; 17] = {
    let mut masks = [0u128; 17];
    let mut n = 1;
    while n <= 16 {
        masks[n] = u128::MAX >> (8 * (16 - n));
        n += 1;
    }
    masks
};

/// The slot where the search for `prefix` starts, among `S` (a power of two).
#[inline(always)]
const fn start<const S: usize>(prefix: u128) -> usize {
    prefix_slot(prefix, S)
}

/// The slot where the search for a 16-byte prefix starts in an open-addressed table of `slots`
/// slots (a power of two, at least 2): the prefix's two halves mixed and multiplied (Fibonacci
/// hashing), and the product's top bits kept, the only ones that every bit of the prefix
/// reaches (middle bits miss its high bytes, so that ids alike in their first 8 bytes would
/// share a slot). Shared by the tables made at compile time here and those engines build at
/// run time (Above and Below's catalogue).
#[inline(always)]
pub const fn prefix_slot(prefix: u128, slots: usize) -> usize {
    let mixed = (prefix as u64) ^ ((prefix >> 64) as u64).rotate_left(23);
    let hash = mixed.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    (hash >> (64 - slots.trailing_zeros())) as usize
}

const fn same_text(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut k = 0;
    while k < a.len() {
        if a[k] != b[k] {
            return false;
        }
        k += 1;
    }
    true
}

impl<T: Copy, const S: usize> IdTable<T, S> {
    /// The table of `ids` (text, value). Each text must be plain (no `"`, `\`, control
    /// character), as ids are, and appear once; `S` must be a power of two above `ids.len()`.
    /// Checked at compile time when made in a `const`.
    pub const fn new(ids: &[(&'static str, T)]) -> IdTable<T, S> {
        assert!(S.is_power_of_two() && S > ids.len() && S >= 2, "an id table needs a free slot");
        let mut slots: [Option<Slot<T>>; S] = [None; S];
        let mut i = 0;
        while i < ids.len() {
            let (text, value) = ids[i];
            let bytes = text.as_bytes();
            let mut k = 0;
            while k < bytes.len() {
                assert!(bytes[k] != b'"' && bytes[k] != b'\\' && bytes[k] >= 0x20, "an id must be plain");
                k += 1;
            }
            let prefix = (b'"' as u128) | (first_bytes(bytes, 15) << 8) | Self::closing_quote(bytes.len());
            let mut at = start::<S>(prefix);
            while let Some(taken) = slots[at] {
                assert!(!same_text(taken.text, text), "an id appears twice");
                at = (at + 1) % S;
            }
            slots[at] = Some(Slot { prefix, text, value });
            i += 1;
        }
        IdTable { slots }
    }

    /// The closing quote of a text of `len` bytes, where it falls in the first 16 bytes.
    const fn closing_quote(len: usize) -> u128 {
        if len + 2 <= 16 {
            (b'"' as u128) << (8 * (len + 1))
        } else {
            0
        }
    }

    /// The value of the id whose quoted text is `quoted`, the first bytes of `rest` (which
    /// holds at least `quoted` bytes); `None` when it is none of the table's.
    #[inline(always)]
    pub(crate) fn find(&self, rest: &[u8], quoted: usize) -> Option<T> {
        let word = match rest.first_chunk::<16>() {
            Some(chunk) => u128::from_le_bytes(*chunk),
            None => first_bytes(rest, 16),
        };
        let prefix = word & MASKS[quoted.min(16)];
        let mut at = start::<S>(prefix);
        loop {
            let slot = self.slots[at].as_ref()?;
            if slot.prefix == prefix
                && slot.text.len() + 2 == quoted
                && (quoted <= 16 || rest.get(1..quoted - 1) == Some(slot.text.as_bytes()))
            {
                return Some(slot.value);
            }
            at = (at + 1) % S;
        }
    }

    /// Every id of the table with its value, for tests against the type's own reading.
    pub fn ids(&self) -> impl Iterator<Item = (&'static str, T)> + '_ {
        self.slots.iter().flatten().map(|slot| (slot.text, slot.value))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cursor::Cursor;

    const NAMES: IdTable<u8, 8> =
        IdTable::new(&[("a", 0), ("ore", 1), ("fourteen_bytes", 2), ("fifteen__bytes_", 3), ("a_much_longer_id", 4)]);

    /// The id `text` starts with, and whether the cursor then stands just after it.
    fn read(text: &str) -> Option<(u8, bool)> {
        let mut c = Cursor::new(text);
        let value = c.id_in(&NAMES)?;
        Some((value, c.eat(b',') && c.u64() == Some(1) && c.end().is_some()))
    }

    #[test]
    fn ids_of_any_length_are_found_by_their_whole_text() {
        for (text, value) in NAMES.ids() {
            assert_eq!(read(&format!("\"{text}\",1")), Some((value, true)), "{text}");
            assert_eq!(read(&format!(" \"{text}\" ,1")), Some((value, true)), "{text}");
        }
    }

    #[test]
    fn a_text_that_is_no_id_of_the_table_or_not_plain_is_refused() {
        for text in [
            "\"\"",
            "\"b\"",
            "\"or\"",
            "\"ores\"",
            "\"Ore\"",
            "\"a_much_longer_iD\"",
            "\"a_much_longer_id_\"",
            "\"fourteen_bytes_\"",
            "\"\\u0061\"",
            "\"a",
            "\"a_much_longer",
            "a",
            "1",
            "",
        ] {
            assert_eq!(read(text), None, "{text}");
        }
    }
}
