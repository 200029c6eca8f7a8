//! The canonical text of a *plain* log, read without building a tree of values.
//!
//! Nearly every log is plain: strings without escapes, integers of at most 18 digits, nesting
//! of a few levels. For such a document the canonical text is a rearrangement of slices of the
//! log: each string and integer is written back exactly as it stands (which is what
//! `serde_json` writes for them), and each object's members are sorted by their keys' bytes,
//! of a repeated key the last. This reader records the document's tokens in one flat list
//! (no allocation per value) and writes the text from it.
//!
//! It reads nothing it could read differently from `serde_json`: it declines (`None`) every
//! document beyond the plain subset — an escape in a string, a number with a fraction or an
//! exponent, more than 18 digits, `-0`, nesting deeper than [`MAX_DEPTH`] — and every document
//! `serde_json` would refuse, for which the caller uses the tree (and its answer) instead.

/// Deepest nesting read here; deeper documents go to the tree (whose parser stops at 128).
pub const MAX_DEPTH: usize = 64;

/// Longest integer read here: every integer of up to 18 digits fits `u64` and `i64`, which
/// `serde_json` writes back digit for digit.
const MAX_DIGITS: usize = 18;

/// Where a string's or an integer's text stands in the log.
#[derive(Clone, Copy)]
struct Span {
    start: usize,
    end: usize,
}

/// One value of the document, in reading order: a container is followed by its contents.
#[derive(Clone, Copy)]
enum Token {
    Null,
    True,
    False,
    /// A string without escapes: the text between its quotes.
    String(Span),
    /// An integer: its text.
    Integer(Span),
    /// `next`: the index of the first token after the array's contents.
    Array {
        next: usize,
    },
    /// Members as key, value, key, value…; `next` as for arrays.
    Object {
        next: usize,
    },
}

/// The canonical text of `text` and its top-level `format` string, when the document is plain.
pub fn canonical(text: &[u8]) -> Option<(Vec<u8>, Option<&str>)> {
    // Valid UTF-8 throughout: `serde_json` refuses invalid UTF-8 in strings, and outside
    // strings it is not JSON at all. The string slices below are therefore `str`s.
    let text = std::str::from_utf8(text).ok()?;
    let mut reader = Reader { text: text.as_bytes(), at: 0, tokens: Vec::with_capacity(text.len() / 6) };
    reader.value(0)?;
    reader.skip_space();
    if reader.at != text.len() {
        return None;
    }
    let tokens = reader.tokens;
    let mut out = Vec::with_capacity(text.len());
    Writer { text, tokens: &tokens, members: Vec::new(), out: &mut out }.value(0);
    Some((out, format(text, &tokens)))
}

/// The last `format` member of a top-level object, when it is a string.
fn format<'a>(text: &'a str, tokens: &[Token]) -> Option<&'a str> {
    let Some(&Token::Object { next: end }) = tokens.first() else { return None };
    let mut last = None;
    let mut i = 1;
    while i < end {
        if let Token::String(key) = tokens[i] {
            if &text[key.start..key.end] == "format" {
                last = Some(tokens[i + 1]);
            }
        }
        i = after(tokens, i + 1);
    }
    match last? {
        Token::String(v) => Some(&text[v.start..v.end]),
        _ => None,
    }
}

/// The index of the token after the value at `i` (and after all of its contents).
fn after(tokens: &[Token], i: usize) -> usize {
    match tokens[i] {
        Token::Array { next } | Token::Object { next } => next,
        _ => i + 1,
    }
}

struct Reader<'a> {
    text: &'a [u8],
    at: usize,
    tokens: Vec<Token>,
}

impl Reader<'_> {
    /// JSON's whitespace (exactly `serde_json`'s four bytes).
    fn skip_space(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.text.get(self.at) {
            self.at += 1;
        }
    }

    fn peek(&mut self) -> Option<u8> {
        self.skip_space();
        self.text.get(self.at).copied()
    }

    fn value(&mut self, depth: usize) -> Option<()> {
        match self.peek()? {
            b'{' => self.object(depth + 1),
            b'[' => self.array(depth + 1),
            b'"' => self.string(),
            b'-' | b'0'..=b'9' => self.integer(),
            b't' => self.literal(b"true", Token::True),
            b'f' => self.literal(b"false", Token::False),
            b'n' => self.literal(b"null", Token::Null),
            _ => None,
        }
    }

    fn literal(&mut self, word: &[u8], token: Token) -> Option<()> {
        let end = self.at + word.len();
        (self.text.get(self.at..end)? == word).then_some(())?;
        self.tokens.push(token);
        self.at = end;
        Some(())
    }

    /// A string without escapes or control characters (the tree reads the others).
    fn string(&mut self) -> Option<()> {
        let start = self.at + 1;
        let length = self.text.get(start..)?.iter().position(|&b| b == b'"' || b == b'\\' || b < 0x20)?;
        let end = start + length;
        (self.text[end] == b'"').then_some(())?;
        self.tokens.push(Token::String(Span { start, end }));
        self.at = end + 1;
        Some(())
    }

    /// An integer of at most [`MAX_DIGITS`] digits without a leading zero, not `-0`, not
    /// followed by a fraction or an exponent.
    fn integer(&mut self) -> Option<()> {
        let start = self.at;
        let sign = usize::from(self.text[start] == b'-');
        let digits = self.text.get(start + sign..)?.iter().take_while(|b| b.is_ascii_digit()).count();
        let end = start + sign + digits;
        let first = self.text.get(start + sign).copied();
        let plain = (1..=MAX_DIGITS).contains(&digits)
            && (first != Some(b'0') || digits == 1 && sign == 0)
            && !matches!(self.text.get(end), Some(b'.' | b'e' | b'E'));
        plain.then_some(())?;
        self.tokens.push(Token::Integer(Span { start, end }));
        self.at = end;
        Some(())
    }

    fn array(&mut self, depth: usize) -> Option<()> {
        self.container(depth, b']', Self::value)
    }

    fn object(&mut self, depth: usize) -> Option<()> {
        self.container(depth, b'}', Self::member)
    }

    /// `"key": value` in an object.
    fn member(&mut self, depth: usize) -> Option<()> {
        (self.peek()? == b'"').then_some(())?;
        self.string()?;
        (self.peek()? == b':').then_some(())?;
        self.at += 1;
        self.value(depth)
    }

    /// An array (`close` is `]`, each item a value) or an object (`}`, each item a member):
    /// its token, then its items' tokens; the token learns where its contents end.
    fn container(&mut self, depth: usize, close: u8, item: fn(&mut Self, usize) -> Option<()>) -> Option<()> {
        (depth <= MAX_DEPTH).then_some(())?;
        let index = self.tokens.len();
        let open = if close == b']' { Token::Array { next: 0 } } else { Token::Object { next: 0 } };
        self.tokens.push(open);
        self.at += 1;
        if self.peek()? == close {
            self.at += 1;
        } else {
            loop {
                item(self, depth)?;
                match self.peek()? {
                    b',' => self.at += 1,
                    b if b == close => {
                        self.at += 1;
                        break;
                    }
                    _ => return None,
                }
            }
        }
        let next = self.tokens.len();
        self.tokens[index] = if close == b']' { Token::Array { next } } else { Token::Object { next } };
        Some(())
    }
}

struct Writer<'a, 'o> {
    text: &'a str,
    tokens: &'a [Token],
    /// Scratch for sorting members: `(key, value index)`; each object uses the part above
    /// where its enclosing objects' members end, and gives it back when written.
    members: Vec<(&'a [u8], usize)>,
    out: &'o mut Vec<u8>,
}

impl Writer<'_, '_> {
    fn value(&mut self, i: usize) {
        let text = self.text.as_bytes();
        match self.tokens[i] {
            Token::Null => self.out.extend_from_slice(b"null"),
            Token::True => self.out.extend_from_slice(b"true"),
            Token::False => self.out.extend_from_slice(b"false"),
            Token::Integer(span) => self.out.extend_from_slice(&text[span.start..span.end]),
            Token::String(span) => {
                self.out.push(b'"');
                self.out.extend_from_slice(&text[span.start..span.end]);
                self.out.push(b'"');
            }
            Token::Array { next } => {
                self.out.push(b'[');
                let mut j = i + 1;
                while j < next {
                    if j > i + 1 {
                        self.out.push(b',');
                    }
                    self.value(j);
                    j = after(self.tokens, j);
                }
                self.out.push(b']');
            }
            Token::Object { next } => self.object(i, next),
        }
    }

    /// Members sorted by their keys' bytes; of a repeated key, the last.
    fn object(&mut self, i: usize, end: usize) {
        let base = self.members.len();
        let mut j = i + 1;
        while j < end {
            if let Token::String(key) = self.tokens[j] {
                self.members.push((&self.text.as_bytes()[key.start..key.end], j + 1));
            }
            j = after(self.tokens, j + 1);
        }
        // Stable: equal keys keep their input order, so the last of a run is the last written.
        self.members[base..].sort_by(|a, b| a.0.cmp(b.0));
        self.out.push(b'{');
        let mut first = true;
        for m in base..self.members.len() {
            let (key, value) = self.members[m];
            if self.members.get(m + 1).is_some_and(|next| next.0 == key) {
                continue;
            }
            if !first {
                self.out.push(b',');
            }
            first = false;
            self.out.push(b'"');
            self.out.extend_from_slice(key);
            self.out.extend_from_slice(b"\":");
            self.value(value);
        }
        self.out.push(b'}');
        self.members.truncate(base);
    }
}
