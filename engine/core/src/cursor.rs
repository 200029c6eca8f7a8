//! A strict, single-pass reader of the plain JSON that well-written logs consist of, for the
//! engines' fast readings of whole logs.
//!
//! Generic JSON readers pay for their generality on every value (a visitor call, a key
//! identified through a string match behind a trait object, buffers for tagged enums): reading
//! a log typed through serde costs about three times checking that it is JSON at all. A log
//! written by Chronicle's simulator, its recorder or any plain JSON writer only uses a small part
//! of JSON, and that part can be read straight into the engine's types as fast as it can be
//! checked.
//!
//! Every read answers `Some` only for input it reads exactly as `serde_json` with the types'
//! own `Deserialize` would (same value, and valid JSON), and `None` for anything else: a string
//! with an escape, a number with a fraction or exponent, `-0`, an integer out of range, a
//! repeated member, an unexpected token. `None` is never an error: the caller then reads the
//! log the usual way, which decides (and words every error). So this reader can refuse too
//! much, but never accept differently. Ids (enum variants written as strings) are read through
//! the type's own `Deserialize`, so their spelling is defined in one place.

use serde::de::value::{BorrowedStrDeserializer, Error as ValueError};
use serde::Deserialize;

use crate::id_table::IdTable;

/// Where a strict read stands in a JSON text.
///
/// The text is either checked UTF-8 as a whole, once ([`Cursor::new`]), or taken as bytes
/// ([`Cursor::from_bytes`]) and only the strings whose text a reader takes are checked: the
/// rest of the grammar the cursor reads is ASCII (punctuation, digits, literals, and member
/// names and ids compared with plain names), so a byte outside it stops the read anyway.
pub struct Cursor<'a> {
    bytes: &'a [u8],
    /// The whole text, when it was checked as UTF-8 at the start.
    checked: Option<&'a str>,
    at: usize,
}

/// The members of one object seen so far (by their index in the reader's list of names), to
/// refuse a repeated member: `serde_json` either rejects one (derived structs) or keeps the
/// last copy (maps), and the usual reading decides which.
#[derive(Default)]
pub struct Seen(u64);

impl Seen {
    /// `Some` the first time member `index` (below 64) is met.
    #[inline]
    pub fn first(&mut self, index: u32) -> Option<()> {
        let bit = 1u64.checked_shl(index)?;
        if self.0 & bit != 0 {
            return None;
        }
        self.0 |= bit;
        Some(())
    }

    /// Whether member `index` was met.
    #[inline]
    pub fn has(&self, index: u32) -> bool {
        1u64.checked_shl(index).is_some_and(|bit| self.0 & bit != 0)
    }
}

/// A member name an object may have, made at compile time with its quoted text (`"name"`) as
/// one little-endian word and the mask of its bytes, so that the next string of a text is
/// compared with it by one load and one comparison ([`Cursor::members`]). A name must be plain
/// (no `"`, `\`, control character: as every member name of a log), which [`Key::new`] checks
/// at compile time; one longer than 14 bytes is compared byte by byte instead.
#[derive(Clone, Copy, Debug)]
pub struct Key {
    text: &'static str,
    word: u128,
    mask: u128,
}

impl Key {
    pub const fn new(text: &'static str) -> Key {
        let bytes = text.as_bytes();
        let mut i = 0;
        while i < bytes.len() {
            assert!(bytes[i] != b'"' && bytes[i] != b'\\' && bytes[i] >= 0x20, "a member name must be plain");
            i += 1;
        }
        let (mut word, mut mask) = (0u128, 0u128);
        if bytes.len() + 2 <= 16 {
            let mut k = 0;
            while k < bytes.len() + 2 {
                let byte = if k == 0 || k == bytes.len() + 1 { b'"' } else { bytes[k - 1] };
                word |= (byte as u128) << (8 * k);
                mask |= 0xff << (8 * k);
                k += 1;
            }
        }
        Key { text, word, mask }
    }

    /// Each of `names` with its index, for an object whose members are told apart by their
    /// place in a list (`const { &Key::indexed(["a", "b"]) }`).
    pub const fn indexed<const N: usize>(names: [&'static str; N]) -> [(Key, usize); N] {
        let mut keys = [(Key { text: "", word: 0, mask: 0 }, 0); N];
        let mut i = 0;
        while i < N {
            keys[i] = (Key::new(names[i]), i);
            i += 1;
        }
        keys
    }

    /// The name's text.
    pub fn text(&self) -> &'static str {
        self.text
    }

    /// Whether `rest` starts with this name, quoted.
    #[inline]
    fn starts(&self, rest: &[u8]) -> bool {
        match rest.first_chunk::<16>() {
            Some(chunk) if self.mask != 0 => u128::from_le_bytes(*chunk) & self.mask == self.word,
            _ => {
                let n = self.text.len();
                rest.len() > n + 1 && rest[0] == b'"' && rest[n + 1] == b'"' && &rest[1..=n] == self.text.as_bytes()
            }
        }
    }
}

impl<'a> Cursor<'a> {
    pub fn new(text: &'a str) -> Cursor<'a> {
        Cursor { bytes: text.as_bytes(), checked: Some(text), at: 0 }
    }

    /// A cursor over bytes not checked as UTF-8: each string whose text is taken
    /// ([`Cursor::str`], [`Cursor::value_text`]) is checked on its own. For readers that take
    /// few texts (their strings are mostly names and ids compared with plain ones), for which
    /// checking the whole input would cost more than checking those.
    pub fn from_bytes(bytes: &'a [u8]) -> Cursor<'a> {
        Cursor { bytes, checked: None, at: 0 }
    }

    /// The text between byte offsets `start` and `end` (ends of tokens), if it is UTF-8.
    #[inline]
    fn text(&self, start: usize, end: usize) -> Option<&'a str> {
        match self.checked {
            Some(text) => text.get(start..end),
            None => std::str::from_utf8(self.bytes.get(start..end)?).ok(),
        }
    }

    #[inline]
    fn bytes(&self) -> &'a [u8] {
        self.bytes
    }

    /// JSON's whitespace: space, tab, line feed, carriage return. A byte above the space is
    /// none of them: one comparison for the usual case of a log without whitespace.
    #[inline]
    fn skip_space(&mut self) {
        if self.bytes().get(self.at).is_some_and(|&b| b > b' ') {
            return;
        }
        self.skip_space_slowly();
    }

    /// [`Cursor::skip_space`] over whitespace, out of line: most logs have none.
    #[inline(never)]
    fn skip_space_slowly(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.bytes().get(self.at) {
            self.at += 1;
        }
    }

    /// The next byte after whitespace, not consumed.
    #[inline]
    pub fn peek(&mut self) -> Option<u8> {
        self.skip_space();
        self.bytes().get(self.at).copied()
    }

    /// Consumes `byte` (after whitespace) if it comes next. The byte is looked for first
    /// where the cursor is: in a log without whitespace it is there or not at all.
    #[inline]
    pub fn eat(&mut self, byte: u8) -> bool {
        if self.bytes().get(self.at) == Some(&byte) {
            self.at += 1;
            return true;
        }
        let next = self.peek() == Some(byte);
        if next {
            self.at += 1;
        }
        next
    }

    #[inline]
    fn expect(&mut self, byte: u8) -> Option<()> {
        self.eat(byte).then_some(())
    }

    /// Only whitespace is left.
    #[inline]
    pub fn end(&mut self) -> Option<()> {
        (self.peek().is_none()).then_some(())
    }

    /// A string without escapes or control characters: its text is its value.
    #[inline]
    pub fn str(&mut self) -> Option<&'a str> {
        self.expect(b'"')?;
        let start = self.at;
        let rest = self.bytes().get(start..)?;
        let len = string_end(rest)?;
        if rest[len] != b'"' {
            return None;
        }
        self.at = start + len + 1;
        self.text(start, start + len)
    }

    /// The digits of a non-negative integer: `0` or no leading zero, no fraction or exponent.
    #[inline]
    fn digits(&mut self) -> Option<u64> {
        let bytes = self.bytes();
        let start = self.at;
        let mut value: u64 = 0;
        while let Some(&b) = bytes.get(self.at).filter(|b| b.is_ascii_digit()) {
            value = value.checked_mul(10)?.checked_add(u64::from(b - b'0'))?;
            self.at += 1;
        }
        let len = self.at - start;
        let leading_zero = len > 1 && bytes[start] == b'0';
        let fraction = matches!(bytes.get(self.at), Some(b'.' | b'e' | b'E'));
        (len > 0 && !leading_zero && !fraction).then_some(value)
    }

    #[inline]
    pub fn u64(&mut self) -> Option<u64> {
        self.skip_space();
        self.digits()
    }

    #[inline]
    pub fn u32(&mut self) -> Option<u32> {
        u32::try_from(self.u64()?).ok()
    }

    /// A signed integer; `-0` is refused (`serde_json` reads it as a float).
    #[inline]
    pub fn i64(&mut self) -> Option<i64> {
        if self.eat(b'-') {
            let magnitude = i64::try_from(self.digits()?).ok()?;
            return (magnitude != 0).then_some(-magnitude);
        }
        i64::try_from(self.u64()?).ok()
    }

    #[inline]
    pub fn bool(&mut self) -> Option<bool> {
        if self.word("true") {
            Some(true)
        } else if self.word("false") {
            Some(false)
        } else {
            None
        }
    }

    /// Consumes the literal `word` if it comes next.
    #[inline]
    fn word(&mut self, word: &str) -> bool {
        self.skip_space();
        let next = self.bytes().get(self.at..).is_some_and(|rest| rest.starts_with(word.as_bytes()));
        if next {
            self.at += word.len();
        }
        next
    }

    /// `null` (an absent `Option`), else the value `read` reads.
    pub fn nullable<T>(&mut self, read: impl FnOnce(&mut Self) -> Option<T>) -> Option<Option<T>> {
        if self.word("null") {
            return Some(None);
        }
        read(self).map(Some)
    }

    /// An id: a string read into `T` by `T`'s own `Deserialize` (a unit variant's name).
    #[inline]
    pub fn id<T: Deserialize<'a>>(&mut self) -> Option<T> {
        id_of(self.str()?)
    }

    /// An id found in `table` by its quoted text ([`IdTable`]); `None` for a string that is no
    /// id of the table (or has an escape) and for anything else.
    #[inline(always)]
    pub fn id_in<T: Copy, const S: usize>(&mut self, table: &IdTable<T, S>) -> Option<T> {
        self.skip_space();
        let rest = self.bytes().get(self.at..)?;
        if rest.first() != Some(&b'"') {
            return None;
        }
        let len = string_end(rest.get(1..)?)?;
        if rest.get(1 + len) != Some(&b'"') {
            return None;
        }
        let value = table.find(rest, len + 2)?;
        self.at += len + 2;
        Some(value)
    }

    /// An object: `member` is called with each member's name, the cursor before its value,
    /// and must read that value.
    pub fn object(&mut self, mut member: impl FnMut(&mut Self, &'a str) -> Option<()>) -> Option<()> {
        self.expect(b'{')?;
        if self.eat(b'}') {
            return Some(());
        }
        loop {
            let name = self.str()?;
            self.expect(b':')?;
            member(self, name)?;
            if !self.eat(b',') {
                return self.expect(b'}');
            }
        }
    }

    /// An object whose member names are ids of `table` (a map keyed by an id): `member` is
    /// called with each name's value, the cursor before its value, and must read that value.
    pub fn id_object<K: Copy, const S: usize>(
        &mut self,
        table: &IdTable<K, S>,
        mut member: impl FnMut(&mut Self, K) -> Option<()>,
    ) -> Option<()> {
        self.expect(b'{')?;
        if self.eat(b'}') {
            return Some(());
        }
        loop {
            let name = self.id_in(table)?;
            self.expect(b':')?;
            member(self, name)?;
            if !self.eat(b',') {
                return self.expect(b'}');
            }
        }
    }

    /// An object whose first member is `tag`, an id (`K`): then `member` is called with the
    /// id for each other member, as [`Cursor::object`]'s. Returns the id.
    pub fn tagged<K: Copy + Deserialize<'a>>(
        &mut self,
        tag: &str,
        mut member: impl FnMut(&mut Self, K, &'a str) -> Option<()>,
    ) -> Option<K> {
        let mut id = None;
        self.object(|c, name| match id {
            Some(k) => member(c, k, name),
            None if name == tag => {
                id = Some(c.id()?);
                Some(())
            }
            None => None,
        })?;
        id
    }

    /// An object whose members are all among `names`, each at most once: `member` is called
    /// with what the member's name stands for (`T`), the cursor before its value, and must read
    /// that value. An unknown or repeated member gives `None`.
    ///
    /// `names` lists the members in the order writers put them: each member is expected to be
    /// the one after the previous in the list, and that guess is checked first, against the
    /// text itself (one comparison, no scan for the string's end); then the names after it
    /// (members left out), then those before.
    pub fn members<T: Copy>(
        &mut self,
        names: &[(Key, T)],
        member: impl FnMut(&mut Self, T) -> Option<()>,
    ) -> Option<()> {
        self.expect(b'{')?;
        if self.eat(b'}') {
            return Some(());
        }
        self.members_from(names, 0, member)
    }

    /// An object whose first member is `tag`, read by `kind` (its kind `K`); its other members
    /// are among `names(K)`, read as [`Cursor::members`] reads them. Returns the kind.
    pub fn tagged_members<'n, K: Copy, T: Copy + 'n>(
        &mut self,
        tag: Key,
        kind: impl FnOnce(&mut Self) -> Option<K>,
        names: impl FnOnce(K) -> &'n [(Key, T)],
        mut member: impl FnMut(&mut Self, K, T) -> Option<()>,
    ) -> Option<K> {
        (self.eat(b'{') && self.key(&tag) && self.eat(b':')).then_some(())?;
        let k = kind(self)?;
        self.members_after_first(names(k), |c, t| member(c, k, t))?;
        Some(k)
    }

    /// Consumes the string `key` (quoted) if it comes next, after whitespace.
    #[inline]
    pub fn key(&mut self, key: &Key) -> bool {
        self.skip_space();
        self.plain_name(key)
    }

    /// The members of an object after its first one (a tag read by the caller), to its `}`:
    /// all among `names`, read as [`Cursor::members`] reads them.
    pub fn members_after_first<T: Copy>(
        &mut self,
        names: &[(Key, T)],
        member: impl FnMut(&mut Self, T) -> Option<()>,
    ) -> Option<()> {
        if self.eat(b'}') {
            return Some(());
        }
        self.expect(b',')?;
        self.members_from(names, 0, member)
    }

    /// The members of an object from its next name on, to its `}`, the first expected to be
    /// `names[next]`.
    fn members_from<T: Copy>(
        &mut self,
        names: &[(Key, T)],
        mut next: usize,
        mut member: impl FnMut(&mut Self, T) -> Option<()>,
    ) -> Option<()> {
        let mut seen = Seen::default();
        loop {
            let index = self.name_among(names, next)?;
            seen.first(u32::try_from(index).ok()?)?;
            self.expect(b':')?;
            member(self, names[index].1)?;
            next = index + 1;
            if !self.eat(b',') {
                return self.expect(b'}');
            }
        }
    }

    /// The index in `names` of the next string, checked first against `names[guess]`, then
    /// against the names after it, then those before. Each check compares the text with a
    /// quoted name: names are plain, so a string is one of them exactly when its text is, and a
    /// string that is none of them (unknown, or with an escape) gives `None`.
    #[inline(always)]
    fn name_among<T>(&mut self, names: &[(Key, T)], guess: usize) -> Option<usize> {
        self.skip_space();
        if let Some((name, _)) = names.get(guess) {
            if self.plain_name(name) {
                return Some(guess);
            }
        }
        self.name_among_others(names, guess)
    }

    /// [`Cursor::name_among`] when the guess is wrong: the names after it, then those before.
    #[inline(never)]
    fn name_among_others<T>(&mut self, names: &[(Key, T)], guess: usize) -> Option<usize> {
        let guess = guess.min(names.len());
        let (before, after) = names.split_at(guess);
        if let Some(i) = after.iter().position(|(name, _)| self.plain_name(name)) {
            return Some(guess + i);
        }
        before.iter().position(|(name, _)| self.plain_name(name))
    }

    /// Consumes the string `name` (quoted) if it comes next; no whitespace before it is skipped.
    #[inline]
    fn plain_name(&mut self, name: &Key) -> bool {
        let next = self.bytes().get(self.at..).is_some_and(|rest| name.starts(rest));
        if next {
            self.at += name.text.len() + 2;
        }
        next
    }

    /// An array, each item read by `item`.
    pub fn array(&mut self, mut item: impl FnMut(&mut Self) -> Option<()>) -> Option<()> {
        self.expect(b'[')?;
        if self.eat(b']') {
            return Some(());
        }
        loop {
            item(self)?;
            if !self.eat(b',') {
                return self.expect(b']');
            }
        }
    }

    /// An array read into a `Vec`.
    pub fn list<T>(&mut self, mut item: impl FnMut(&mut Self) -> Option<T>) -> Option<Vec<T>> {
        let mut items = Vec::new();
        self.array(|c| {
            items.push(item(c)?);
            Some(())
        })?;
        Some(items)
    }

    /// An array of exactly `N` items (`N` ≥ 1).
    pub fn exactly<T: Copy, const N: usize>(&mut self, mut item: impl FnMut(&mut Self) -> Option<T>) -> Option<[T; N]> {
        let mut items = [None; N];
        let mut n = 0;
        self.array(|c| {
            *items.get_mut(n)? = Some(item(c)?);
            n += 1;
            Some(())
        })?;
        let mut all = [(*items.first()?)?; N];
        for (slot, item) in all.iter_mut().zip(items) {
            *slot = item?;
        }
        Some(all)
    }

    /// The next value read by `T`'s own `Deserialize` from its text ([`Cursor::value_text`]):
    /// for parts read once per log, where a reading of their own is not worth it.
    pub fn deserialized<T: Deserialize<'a>>(&mut self) -> Option<T> {
        serde_json::from_str(self.value_text()?).ok()
    }

    /// The text of the next value, for a part read by `serde_json` instead (a part read once
    /// per log). Only strings and brackets are followed: whether the text is one JSON value is
    /// left to the reading of it, which refuses anything else.
    pub fn value_text(&mut self) -> Option<&'a str> {
        self.skip_space();
        let bytes = self.bytes();
        let start = self.at;
        let mut depth = 0usize;
        let mut in_string = false;
        while let Some(&b) = bytes.get(self.at) {
            if in_string {
                match b {
                    b'\\' => self.at += 1,
                    b'"' => in_string = false,
                    _ => {}
                }
                self.at += 1;
                if !in_string && depth == 0 {
                    break;
                }
                continue;
            }
            match b {
                b'"' => in_string = true,
                b'{' | b'[' => depth += 1,
                b'}' | b']' if depth == 0 => break,
                b'}' | b']' => depth -= 1,
                b',' if depth == 0 => break,
                _ => {}
            }
            self.at += 1;
            if depth == 0 && matches!(b, b'}' | b']') {
                break;
            }
        }
        self.text(start, self.at.min(bytes.len()))
    }
}

/// `text` read whole by `read`: `None` unless only whitespace follows what it reads.
pub fn whole<'a, T>(text: &'a str, read: impl FnOnce(&mut Cursor<'a>) -> Option<T>) -> Option<T> {
    let mut c = Cursor::new(text);
    let value = read(&mut c)?;
    c.end().map(|()| value)
}

/// The index of the first byte that ends a string's plain text: `"`, `\` or a control
/// character. Eight bytes at a time: strings are most of a log's bytes.
#[inline]
fn string_end(text: &[u8]) -> Option<usize> {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    // A byte of `v` below `n` sets its high bit in `below(v, n)`; bytes after the first such
    // byte may be set wrongly (a borrow), so only the lowest set byte is trusted.
    let below = |v: u64, n: u8| v.wrapping_sub(ONES * u64::from(n)) & !v & HIGH;
    let mut chunks = text.chunks_exact(8);
    let mut offset = 0;
    for chunk in chunks.by_ref() {
        let mut word = [0u8; 8];
        word.copy_from_slice(chunk);
        let v = u64::from_le_bytes(word);
        let stops = below(v ^ (ONES * u64::from(b'"')), 1) | below(v ^ (ONES * u64::from(b'\\')), 1) | below(v, 0x20);
        if stops != 0 {
            return Some(offset + (stops.trailing_zeros() / 8) as usize);
        }
        offset += 8;
    }
    let tail = chunks.remainder();
    tail.iter().position(|&b| b == b'"' || b == b'\\' || b < 0x20).map(|i| offset + i)
}

/// The id `text` names, read by `T`'s own `Deserialize` (a member name that is an id, say).
#[inline]
pub fn id_of<'a, T: Deserialize<'a>>(text: &'a str) -> Option<T> {
    T::deserialize(BorrowedStrDeserializer::<ValueError>::new(text)).ok()
}

/// `text` with `bytes` put just after the first `after` in it, for the engines' tests of their
/// single passes on logs that are not UTF-8 (`after` ending inside a string).
pub fn inserted_after(text: &str, after: &str, bytes: &[u8]) -> Vec<u8> {
    let at = text.find(after).map_or(text.len(), |i| i + after.len());
    [&text.as_bytes()[..at], bytes, &text.as_bytes()[at..]].concat()
}

/// Edits of a JSON text token by token, for the engines' tests of their plain readers against
/// serde's reading: each number replaced by each of `numbers`, each string by each of `strings`
/// and removed, and `space` put before every other byte. Strings are followed to their first
/// `"`, so `text` must have no escapes (as a writer's plain JSON).
pub fn token_edits(text: &str, numbers: &[&str], strings: &[&str], space: &str) -> Vec<String> {
    let mut out = Vec::new();
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let start = i;
        let edit = |with: &str, end: usize| format!("{}{with}{}", &text[..start], &text[end..]);
        if bytes[i].is_ascii_digit() || bytes[i] == b'-' {
            while i < bytes.len() && (bytes[i].is_ascii_digit() || bytes[i] == b'-') {
                i += 1;
            }
            out.extend(numbers.iter().map(|n| edit(n, i)));
        } else if bytes[i] == b'"' {
            i = text[i + 1..].find('"').map_or(bytes.len(), |len| i + len + 2);
            out.extend(strings.iter().map(|s| edit(s, i)));
            out.push(edit("", i));
        } else {
            i += 1;
            out.push(format!("{}{space}{}", &text[..start], &text[start..]));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn each<T: PartialEq + std::fmt::Debug>(
        read: impl Fn(&mut Cursor<'static>) -> Option<T>,
        cases: &[(&'static str, Option<T>)],
    ) {
        for (text, want) in cases {
            let mut c = Cursor::new(text);
            let got = read(&mut c).filter(|_| c.end().is_some());
            assert_eq!(&got, want, "{text}");
        }
    }

    #[test]
    fn integers_are_read_only_as_serde_json_reads_them() {
        each(Cursor::u32, &[("0", Some(0)), (" 42 ", Some(42)), ("4294967295", Some(u32::MAX))]);
        each(Cursor::u32, &[("4294967296", None), ("-1", None), ("01", None), ("1.0", None), ("1e2", None)]);
        each(Cursor::u32, &[("", None), ("-", None), ("\"1\"", None), ("1E2", None)]);
        each(
            Cursor::i64,
            &[("-7", Some(-7)), ("7", Some(7)), ("-0", None), ("-01", None), ("9223372036854775808", None)],
        );
        each(Cursor::u64, &[("18446744073709551615", Some(u64::MAX)), ("18446744073709551616", None)]);
        for (text, _) in [("-7", ()), ("0", ()), ("123", ())] {
            let serde: i64 = serde_json::from_str(text).unwrap();
            assert_eq!(Cursor::new(text).i64(), Some(serde));
        }
        assert!(serde_json::from_str::<i64>("-0").is_err(), "serde_json reads -0 as a float");
    }

    /// JSON's four whitespace bytes are skipped before a token, whatever their number, and
    /// nothing else is: not another byte below the space, not the token itself.
    #[test]
    fn only_json_whitespace_is_skipped_before_a_token() {
        for space in ["", " ", "\t", "\n", "\r", " \t\n\r ", "\n\n\n\n\n\n\n\n\n"] {
            let text = format!("{space}[{space}1{space},{space}2{space}]{space}");
            let mut c = Cursor::new(&text);
            let mut items = Vec::new();
            assert_eq!(c.array(|c| c.u32().map(|n| items.push(n))), Some(()), "{text:?}");
            assert_eq!((items, c.end()), (vec![1, 2], Some(())), "{text:?}");
            let mut c = Cursor::new(&text);
            assert!(!c.eat(b']') && c.peek() == Some(b'[') && c.eat(b'[') && !c.eat(b'['), "{text:?}");
        }
        for other in ["\u{0}", "\u{b}", "\u{c}", "\u{1f}", "\u{a0}"] {
            let text = format!("{other}[1]");
            let mut c = Cursor::new(&text);
            assert!(!c.eat(b'[') && c.peek() != Some(b'['), "{text:?}");
        }
    }

    #[test]
    fn strings_with_escapes_or_control_characters_are_left_to_the_usual_reading() {
        each(Cursor::str, &[(r#""abc""#, Some("abc")), (r#""é ü""#, Some("é ü")), (r#""""#, Some(""))]);
        each(Cursor::str, &[(r#""a\"b""#, None), (r#""a\u0062""#, None), ("\"a\tb\"", None), (r#""abc"#, None)]);
    }

    #[test]
    fn the_end_of_plain_text_is_the_first_quote_backslash_or_control_character() {
        let plain = |t: &[u8]| t.iter().position(|&b| b == b'"' || b == b'\\' || b < 0x20);
        let mut texts: Vec<Vec<u8>> = vec![b"".to_vec(), b"abc".to_vec(), "é\"".as_bytes().to_vec()];
        for len in 0..20 {
            for stop in [b'"', b'\\', 0, 0x1f, b'\n'] {
                for at in 0..=len {
                    let mut t: Vec<u8> = (0..len).map(|i| b'a' + (i % 26) as u8).collect();
                    t.insert(at, stop);
                    t.extend_from_slice(b"x\"y\\\x01");
                    texts.push(t);
                }
            }
        }
        texts.push((0u8..=255).rev().collect());
        for t in texts {
            assert_eq!(string_end(&t), plain(&t), "{t:?}");
        }
    }

    #[test]
    fn objects_and_arrays_follow_json_punctuation() {
        let read = |c: &mut Cursor| {
            let mut seen = Seen::default();
            let mut sum = 0;
            c.object(|c, name| {
                seen.first(u32::from(name != "a"))?;
                c.array(|c| {
                    sum += c.u32()?;
                    Some(())
                })
            })?;
            Some(sum)
        };
        each(read, &[(r#"{"a": [1, 2], "b": []}"#, Some(3)), ("{}", Some(0)), (" { \"a\" : [ ] } ", Some(0))]);
        each(
            read,
            &[(r#"{"a": [1,], "b": []}"#, None), (r#"{"a": [1] "b": []}"#, None), (r#"{"a": [1], "a": []}"#, None)],
        );
        each(read, &[(r#"{"a": [1],}"#, None), (r#"{"a": [1]"#, None), (r#"{"a": [1]} x"#, None)]);
        each(|c| c.exactly::<u32, 2>(Cursor::u32), &[("[1, 2]", Some([1, 2])), ("[1]", None), ("[1, 2, 3]", None)]);
    }

    /// What `members` and `tagged_members` read: the members' values in the order met, by the
    /// index of their names in the list.
    fn members_read(c: &mut Cursor) -> Option<Vec<(usize, u32)>> {
        const NAMES: [(Key, usize); 4] = [
            (Key::new("a"), 0),
            (Key::new("bb"), 1),
            (Key::new("fourteen_bytes"), 2),
            (Key::new("fifteen_bytes_x"), 3),
        ];
        let mut read = Vec::new();
        c.members(&NAMES, |c, i| {
            read.push((i, c.u32()?));
            Some(())
        })?;
        Some(read)
    }

    #[test]
    fn members_are_found_in_any_order_and_refused_when_unknown_repeated_or_escaped() {
        let v = |pairs: &[(usize, u32)]| Some(pairs.to_vec());
        each(
            members_read,
            &[
                (r#"{"a":1,"bb":2}"#, v(&[(0, 1), (1, 2)])),
                (r#"{"bb":2,"a":1}"#, v(&[(1, 2), (0, 1)])),
                (r#" { "bb" : 2 , "fourteen_bytes" : 3 } "#, v(&[(1, 2), (2, 3)])),
                (r#"{"fifteen_bytes_x":4,"a":1}"#, v(&[(3, 4), (0, 1)])),
                (r#"{"a":1,"fifteen_bytes_x":4}"#, v(&[(0, 1), (3, 4)])),
                ("{}", v(&[])),
                (r#"{"a":1}"#, v(&[(0, 1)])),
            ],
        );
        each(
            members_read,
            &[
                (r#"{"a":1,"a":2}"#, None),
                (r#"{"c":1}"#, None),
                (r#"{"\u0061":1}"#, None),
                (r#"{"b\u0062":1}"#, None),
                (r#"{"ab":1}"#, None),
                (r#"{"ab":1,"fourteen_bytes":3}"#, None),
                (r#"{"bb":2,"fourteen_bytes_":3}"#, None),
                (r#"{"bb\":1}"#, None),
                (r#"{"fifteen_bytes_":4}"#, None),
                (r#"{"a":1,}"#, None),
                (r#"{"a" 1}"#, None),
                (r#"{"a":1"#, None),
                (r#"{"a"#, None),
            ],
        );
    }

    #[test]
    fn a_tagged_object_has_its_tag_first_then_the_members_of_its_kind() {
        const TAG: Key = Key::new("t");
        let read = |c: &mut Cursor| {
            let mut sum = 0;
            let kind = c.tagged_members(
                TAG,
                Cursor::u32,
                |k| if k == 1 { const { &[(Key::new("x"), 10)] } } else { &[] },
                |c, k, m| {
                    sum += k * m * c.u32()?;
                    Some(())
                },
            )?;
            Some((kind, sum))
        };
        each(
            read,
            &[(r#"{"t":1,"x":2}"#, Some((1, 20))), (r#"{"t":2}"#, Some((2, 0))), (r#"{ "t" : 1 }"#, Some((1, 0)))],
        );
        each(read, &[(r#"{"x":2,"t":1}"#, None), (r#"{"t":2,"x":2}"#, None), (r#"{"t":1,"t":1}"#, None), ("{}", None)]);
    }

    #[test]
    #[should_panic(expected = "a member name must be plain")]
    fn a_member_name_with_a_quote_is_refused() {
        Key::new("a\"b");
    }

    #[test]
    fn ids_are_read_by_the_types_own_names() {
        #[derive(Deserialize, Debug, PartialEq)]
        #[serde(rename_all = "snake_case")]
        enum Kind {
            HarvestChoice,
        }
        each(Cursor::id::<Kind>, &[(r#""harvest_choice""#, Some(Kind::HarvestChoice)), (r#""HarvestChoice""#, None)]);
        each(|c| c.nullable(Cursor::u32), &[("null", Some(None)), ("3", Some(Some(3))), ("nul", None)]);
    }

    #[test]
    fn value_text_spans_one_value_for_serde_to_judge() {
        let mut c = Cursor::new(r#"{"a": {"b": "}\"", "c": [1, {}]}, "d": 2}"#);
        let mut texts = Vec::new();
        c.object(|c, _| {
            texts.push(c.value_text()?);
            Some(())
        })
        .unwrap();
        assert_eq!(texts, [r#"{"b": "}\"", "c": [1, {}]}"#, "2"]);
    }

    #[test]
    fn token_edits_replace_each_token_in_turn() {
        let edits = token_edits(r#"{"a":12}"#, &["0"], &["null"], " ");
        let want = [r#" {"a":12}"#, r#"{null:12}"#, r#"{:12}"#, r#"{"a" :12}"#, r#"{"a":0}"#, r#"{"a":12 }"#];
        assert_eq!(edits, want);
    }
}
