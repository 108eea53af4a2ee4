//! Tokens of a request, and the small look-around helpers every rule uses.
//!
//! One tokeniser ([`pieces`]) with two modes: the rules' reading
//! ([`tokenize`]) and grounding's spans (`extract::ground`). They differ on
//! purpose, in what joins a word, which marks are tokens, where a clause
//! ends and how a word is folded; [`Mode`] lists each difference and why
//! grounding keeps its own.
//!
//! The rules never slice the request by byte offsets they computed
//! themselves: the tokenizer walks `char_indices`, so every token is cut at a
//! char boundary and no input can make a rule panic. Each token keeps the
//! person's spelling (`text`, for facts "in the person's words") and a folded
//! form (`folded`, for matching), plus the clause it sits in, because a marker
//! such as "ideally" or "not" only reaches as far as its clause.

use super::class::CURRENCIES;
use crate::words::class::MarkedWords;
use std::sync::LazyLock;

use super::class::{NUMBERS, ORDER_WORDS};
use crate::normalize::fold;

/// Whether a token is a word (letters and digits) or a single punctuation mark.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TokenKind {
    Word,
    Punct,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Token {
    /// The person's spelling.
    pub text: String,
    /// Folded (`fold`), `ё` as `е`, typographic apostrophe as `'`.
    pub folded: String,
    pub kind: TokenKind,
    /// Clauses end at `, . ; ! ? : ( ) —`, at a line break and before "but"/"но".
    pub clause: usize,
    /// The words of `folded` for vocabulary matching (split at everything
    /// that is not a letter or digit, "41s" as "41"), computed once here
    /// because every brand and model is matched against them.
    pub words: Vec<String>,
}

/// The words of a folded token: "dri-fit" → dri, fit; "41s" → 41.
fn token_words(folded: &str) -> Vec<String> {
    folded
        .split(|character: char| !character.is_alphanumeric())
        .filter(|word| !word.is_empty())
        .map(|word| match word.strip_suffix('s') {
            Some(digits) if !digits.is_empty() && digits.bytes().all(|byte| byte.is_ascii_digit()) => digits.to_owned(),
            _ => word.to_owned(),
        })
        .collect()
}

/// How [`pieces`] cuts a text: one loop, two readings of its characters.
///
/// Grounding keeps its own mode on purpose; folding both into one set of
/// rules would change which values grounding keeps:
/// - joins: the rules keep "t-shirt", "don't", "3/8", "No." (before a
///   number) and "A$" as one token, because their readers look a word up
///   whole; grounding splits at every hyphen and apostrophe, so "Air-Zoom"
///   and "Air Zoom" are the same tokens and a model's spelling of the
///   person's words is found either way.
/// - invisible characters ("Ni\u{200B}ke"): grounding keeps them inside its
///   word, which [`fold`] then drops, so the span still covers the person's
///   characters; the rules see them as punctuation.
/// - punctuation: the rules keep every mark as a token (their look-around
///   counts them); grounding keeps only currency signs, so a phrase's
///   tokens are consecutive whatever the marks between them.
/// - clauses: the rules break at dashes and `|` too and at every word of
///   the `opens-clause` class, grounding at `. ! ? ; , ( ) :`, a line break
///   and "but"/"но" only, which is where its soft cues reach.
/// - folding: the rules also read `ё` as `е` and `’` as `'`; grounding
///   compares [`fold`] alone.
/// - offsets: each piece has its byte offsets, which grounding reports as
///   the supporting span.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// The rules' reading ([`tokenize`]).
    Reading,
    /// Grounding's comparison of the person's words with a value's.
    Spans,
}

impl Mode {
    /// Whether the character at `position` continues (or starts) the word
    /// `current`, and whether it is the `$` that closes a country's dollar
    /// ("A$"), a word of its own.
    fn in_word(self, characters: &[(usize, char)], position: usize, current: &str) -> (bool, bool) {
        let character = characters[position].1;
        let previous = if position > 0 { characters.get(position - 1).map(|(_, c)| *c) } else { None };
        let next = characters.get(position + 1).map(|(_, c)| *c);
        let joins_digits = previous.is_some_and(|c| c.is_ascii_digit()) && next.is_some_and(|c| c.is_ascii_digit());
        match self {
            Mode::Reading => {
                let joins_digits = matches!(character, '.' | ',' | '/') && joins_digits;
                let joins_letters = matches!(character, '-' | '\'' | '’') && next.is_some_and(char::is_alphanumeric);
                let number_sign = character == '.' && fold(current) == "no" && number_follows(characters, position + 1);
                // "A$150", "C$20", "NZ$40": the dollar of a country, one token
                // (written apart, "a $150 budget" keeps its article).
                let country_dollar = character == '$' && CURRENCIES.has_mark(fold(current).as_str(), "country-dollar");
                let in_word = character.is_alphanumeric()
                    || (!current.is_empty() && (joins_digits || joins_letters))
                    || number_sign;
                (in_word, country_dollar)
            }
            Mode::Spans => {
                let joins_digits = matches!(character, '.' | ',') && joins_digits;
                let in_word =
                    character.is_alphanumeric() || (!current.is_empty() && (joins_digits || is_invisible(character)));
                (in_word, false)
            }
        }
    }
}

/// One token as [`pieces`] cuts it: where it is (byte offsets into the
/// text), what kind, its folded form and its clause.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Piece {
    pub start: usize,
    pub end: usize,
    pub kind: TokenKind,
    pub folded: String,
    pub clause: usize,
}

/// Punctuation that ends a clause (reading).
fn ends_clause(character: char) -> bool {
    matches!(character, ',' | '.' | ';' | '!' | '?' | ':' | '(' | ')' | '—' | '–' | '\n' | '|')
}

/// Punctuation that ends a clause (spans).
fn breaks_span_clause(character: char) -> bool {
    matches!(character, '.' | '!' | '?' | ';' | '\n' | ',' | '(' | ')' | ':')
}

/// Zero-width and direction characters inside a word ("Ni\u{200B}ke") stay
/// in a span's token; [`fold`] removes them.
fn is_invisible(character: char) -> bool {
    // Printable ASCII never folds away; only the rest needs the fold.
    (!character.is_ascii() || character.is_ascii_control())
        && !character.is_whitespace()
        && fold(&character.to_string()).is_empty()
}

/// A currency sign: a token of its own in both modes, and a number beside
/// it is a price.
pub fn is_currency_sign(character: char) -> bool {
    matches!(character, '$' | '€' | '₽' | '£' | '₱' | '¥' | '₹' | '₴' | '₸')
}

/// Words that start a new clause: "black ideally but pink works" is two.
static CLAUSE_WORDS: LazyLock<MarkedWords> = LazyLock::new(|| ORDER_WORDS.marked_words("opens-clause"));

/// Splits a request into tokens. Digits joined by `.`, `,` or `/` stay one
/// token ("42,5", "3/8", "1,200"); so do letters joined by `-` or an
/// apostrophe ("t-shirt", "don't"); "No." before a number keeps its point.
pub fn tokenize(text: &str) -> Vec<Token> {
    pieces(text, Mode::Reading, 0)
        .0
        .into_iter()
        .map(|piece| {
            let words = if piece.kind == TokenKind::Word { token_words(&piece.folded) } else { Vec::new() };
            Token {
                text: text[piece.start..piece.end].to_owned(),
                folded: piece.folded,
                kind: piece.kind,
                clause: piece.clause,
                words,
            }
        })
        .collect()
}

/// Cuts `text` into pieces as `mode` reads it, the clauses counted from
/// `clause`; also the clause count after the text. See [`Mode`] for how
/// the two modes differ.
pub fn pieces(text: &str, mode: Mode, mut clause: usize) -> (Vec<Piece>, usize) {
    let characters: Vec<(usize, char)> = text.char_indices().collect();
    let mut pieces: Vec<Piece> = Vec::new();
    // The char position the current word starts at, if one is open.
    let mut from: Option<usize> = None;
    let byte_at = |position: usize| characters.get(position).map_or(text.len(), |(offset, _)| *offset);
    let push_word = |from: &mut Option<usize>, to: usize, pieces: &mut Vec<Piece>, clause: &mut usize| {
        let Some(start) = from.take().map(byte_at) else {
            return;
        };
        let end = byte_at(to);
        let folded = match mode {
            Mode::Reading => {
                // Replaced only where they occur: `replace` allocates a
                // new string, and every word of every request comes here.
                let mut folded = fold(&text[start..end]);
                if folded.contains('ё') {
                    folded = folded.replace('ё', "е");
                }
                if folded.contains('’') {
                    folded = folded.replace('’', "'");
                }
                if CLAUSE_WORDS.contains(&folded.as_str()) && pieces.last().is_some_and(|last| last.clause == *clause) {
                    *clause += 1;
                }
                folded
            }
            Mode::Spans => {
                let folded = fold(&text[start..end]);
                if folded == "but" || folded == "но" {
                    *clause += 1;
                }
                folded
            }
        };
        pieces.push(Piece { start, end, kind: TokenKind::Word, folded, clause: *clause });
    };
    let mut position = 0usize;
    while let Some(&(offset, character)) = characters.get(position) {
        let current = from.map_or("", |from| &text[byte_at(from)..offset]);
        let (in_word, country_dollar) = mode.in_word(&characters, position, current);
        if country_dollar {
            push_word(&mut from, position + 1, &mut pieces, &mut clause);
        } else if in_word {
            from.get_or_insert(position);
        } else {
            push_word(&mut from, position, &mut pieces, &mut clause);
            let mark = |clause: usize| Piece {
                start: offset,
                end: offset + character.len_utf8(),
                kind: TokenKind::Punct,
                folded: character.to_string(),
                clause,
            };
            match mode {
                Mode::Reading if character == '\n' => clause += 1,
                Mode::Reading if !character.is_whitespace() => {
                    pieces.push(mark(clause));
                    if ends_clause(character) {
                        clause += 1;
                    }
                }
                Mode::Spans if is_currency_sign(character) => pieces.push(mark(clause)),
                Mode::Spans if breaks_span_clause(character) => clause += 1,
                _ => {}
            }
        }
        position += 1;
    }
    push_word(&mut from, characters.len(), &mut pieces, &mut clause);
    (pieces, clause)
}

fn number_follows(characters: &[(usize, char)], from: usize) -> bool {
    characters
        .iter()
        .skip(from)
        .map(|(_, character)| *character)
        .find(|character| !character.is_whitespace())
        .is_some_and(|character| character.is_ascii_digit())
}

/// A tokenized request and which tokens a rule has already claimed, so that
/// the "41" of "Pegasus 41" or the "120" of "$120" is never read as a count.
#[derive(Debug, Clone)]
pub struct Request {
    pub tokens: Vec<Token>,
    pub consumed: Vec<bool>,
}

impl Request {
    pub fn new(text: &str) -> Request {
        let tokens = tokenize(text);
        let consumed = vec![false; tokens.len()];
        Request { tokens, consumed }
    }

    /// Whether the request is written in Russian: two or more Cyrillic
    /// words (a Russian request may quote long English titles).
    pub fn is_cyrillic(&self) -> bool {
        self.tokens
            .iter()
            .filter(|token| {
                token.folded.chars().next().is_some_and(|character| ('\u{0400}'..='\u{04FF}').contains(&character))
            })
            .take(2)
            .count()
            >= 2
    }

    pub fn len(&self) -> usize {
        self.tokens.len()
    }

    pub fn is_empty(&self) -> bool {
        self.tokens.is_empty()
    }

    /// The words of the token at `index` (see [`Token::words`]); none past either end.
    pub fn words(&self, index: usize) -> &[String] {
        self.tokens.get(index).map_or(&[], |token| token.words.as_slice())
    }

    /// The folded token at `index`, or "" past either end.
    pub fn word(&self, index: usize) -> &str {
        self.tokens.get(index).map_or("", |token| token.folded.as_str())
    }

    /// The folded token `offset` before `index`, or "" before the start.
    pub fn word_before(&self, index: usize, offset: usize) -> &str {
        index.checked_sub(offset).map_or("", |at| self.word(at))
    }

    pub fn is_word(&self, index: usize) -> bool {
        self.tokens.get(index).is_some_and(|token| token.kind == TokenKind::Word)
    }

    pub fn clause(&self, index: usize) -> Option<usize> {
        self.tokens.get(index).map(|token| token.clause)
    }

    pub fn same_clause(&self, first: usize, second: usize) -> bool {
        matches!((self.clause(first), self.clause(second)), (Some(a), Some(b)) if a == b)
    }

    pub fn is_consumed(&self, index: usize) -> bool {
        self.consumed.get(index).copied().unwrap_or(true)
    }

    pub fn consume(&mut self, from: usize, to_inclusive: usize) {
        for index in from..=to_inclusive {
            if let Some(slot) = self.consumed.get_mut(index) {
                *slot = true;
            }
        }
    }

    /// Whether `phrase` (folded words) starts at `index`.
    pub fn phrase_at(&self, index: usize, phrase: &[&str]) -> bool {
        self.starts_phrase(index, phrase)
    }

    /// As [`Request::phrase_at`], for a phrase of any string type (a word
    /// class's phrases are `String`s).
    pub fn starts_phrase<S: AsRef<str>>(&self, index: usize, phrase: &[S]) -> bool {
        !phrase.is_empty() && phrase.iter().enumerate().all(|(offset, word)| self.word(index + offset) == word.as_ref())
    }

    /// Whether one of `phrases` starts anywhere in the request.
    pub fn phrase_at_any(&self, phrases: &[&[&str]]) -> bool {
        (0..self.len()).any(|index| phrases.iter().any(|phrase| self.phrase_at(index, phrase)))
    }

    /// Whether one of `phrases` ends within `window` tokens before `index`,
    /// inside the clause of `index`.
    pub fn preceded_by(&self, index: usize, window: usize, phrases: &[&[&str]]) -> bool {
        self.preceded_by_within(index, window, phrases, true)
    }

    /// As [`Request::preceded_by`], optionally crossing clause boundaries
    /// ("anything but Wilson" crosses the "but").
    pub fn preceded_by_within<P: AsRef<[S]>, S: AsRef<str>>(
        &self,
        index: usize,
        window: usize,
        phrases: &[P],
        same_clause: bool,
    ) -> bool {
        let earliest = index.saturating_sub(window);
        for start in earliest..index {
            if same_clause && !self.same_clause(start, index) {
                continue;
            }
            for phrase in phrases.iter().map(AsRef::as_ref) {
                if start + phrase.len() <= index && self.starts_phrase(start, phrase) {
                    return true;
                }
            }
        }
        false
    }

    /// Whether one of `phrases` starts within `window` tokens after `index`,
    /// inside the clause of `index`.
    pub fn followed_by(&self, index: usize, window: usize, phrases: &[&[&str]]) -> bool {
        for start in index + 1..=index + window {
            if !self.same_clause(start, index) {
                break;
            }
            if phrases.iter().any(|phrase| self.phrase_at(start, phrase)) {
                return true;
            }
        }
        false
    }

    /// The person's words from `from` to `to_inclusive`, joined by single
    /// spaces, without a space before closing punctuation.
    pub fn original(&self, from: usize, to_inclusive: usize) -> String {
        let mut out = String::new();
        let mut after_sign = false;
        for token in self.tokens.iter().skip(from).take(to_inclusive.saturating_add(1).saturating_sub(from)) {
            // A closing curly quote or an inch mark closes too ("50” x60”").
            let glue = token.kind == TokenKind::Punct
                && matches!(token.text.as_str(), "," | "." | "!" | "?" | ")" | "”" | "″");
            if !out.is_empty() && !glue && !after_sign {
                out.push(' ');
            }
            out.push_str(&token.text);
            // "$25", "#109", "(20 pieces": no space after an opening sign.
            after_sign = token.kind == TokenKind::Punct
                && matches!(token.text.as_str(), "$" | "€" | "£" | "₱" | "¥" | "₹" | "#" | "(");
        }
        out
    }
}

/// A number written in digits, with a decimal point or comma ("18", "8.5",
/// "1,200"), and nothing else.
pub fn is_numeral(word: &str) -> bool {
    word.chars().next().is_some_and(|character| character.is_ascii_digit())
        && word.chars().all(|character| character.is_ascii_digit() || matches!(character, '.' | ','))
}

/// An inch mark or a closing quote after a number ("50”x60”", "14\" x 14\"").
pub fn is_inch_mark(word: &str) -> bool {
    matches!(word, "\"" | "”" | "″" | "''" | "'")
}

/// A count said in words: "two", "две", "dozen" (`numbers.txt`, `@count`).
pub fn number_word(word: &str) -> Option<u64> {
    number_marked(word, "count")
}

/// The value of one number word for amounts: units, teens, tens and
/// hundreds in English and Russian ("twenty", "пятьсот"; `numbers.txt`,
/// `@amount`); `None` for the multipliers, which [`number_words_at`] handles.
fn amount_word(word: &str) -> Option<u64> {
    number_marked(word, "amount")
}

/// The value of a number word that the reader `mark` takes.
fn number_marked(word: &str, mark: &str) -> Option<u64> {
    NUMBERS.has_mark(word, mark).then(|| NUMBERS.value(word)).flatten()?.parse().ok()
}

/// A number said in words starting at `index` ("twenty", "twenty-five",
/// "a hundred and fifty", "two thousand", "пять тысяч", "тысячу"), and the
/// token it ends at. At most eight words are read.
pub fn number_words_at(request: &Request, index: usize) -> Option<(u64, usize)> {
    let mut total: u64 = 0;
    let mut current: u64 = 0;
    let mut end: Option<usize> = None;
    let mut at = index;
    while at < index + 8 {
        let word = request.word(at);
        let parts: Vec<&str> = word.split('-').collect();
        let hyphenated = parts.len() == 2 && parts.iter().all(|part| amount_word(part).is_some());
        if hyphenated {
            current = current.saturating_add(parts.iter().filter_map(|part| amount_word(part)).sum::<u64>());
        } else if let Some(value) = amount_word(word) {
            current = current.saturating_add(value);
        } else if word == "a" && at == index && matches!(request.word(at + 1), "hundred" | "thousand") {
            current = 1;
        } else if word == "hundred" && end.is_some() {
            current = current.saturating_mul(100);
        } else if NUMBERS.has_mark(word, "thousand-word") {
            // "тысячу рублей" alone is a thousand.
            total = total.saturating_add(current.max(1).saturating_mul(1000));
            current = 0;
        } else if word == "and" && end.is_some() && amount_word(request.word(at + 1)).is_some() {
            at += 1;
            continue;
        } else {
            break;
        }
        end = Some(at);
        at += 1;
    }
    let value = total.saturating_add(current);
    end.filter(|_| value > 0).map(|end| (value, end))
}

/// A whole number written in digits, at most nine of them (nobody orders a
/// billion of anything; the bound also keeps arithmetic far from overflow).
pub fn whole_number(word: &str) -> Option<u64> {
    if word.is_empty() || word.len() > 9 || !word.bytes().all(|byte| byte.is_ascii_digit()) {
        return None;
    }
    word.parse().ok()
}

/// A digit count or a number word.
pub fn count(word: &str) -> Option<u64> {
    whole_number(word).or_else(|| number_word(word))
}

/// An amount in hundredths: "120" → 12000, "12.50" → 1250, "42,5" → 4250,
/// "1,200" → 120000 (a comma before exactly three digits groups thousands).
pub fn hundredths(word: &str) -> Option<u64> {
    let normalised: String = match word.split_once(',') {
        Some((whole, rest)) if rest.len() == 3 && !rest.contains([',', '.']) => format!("{whole}{rest}"),
        Some((whole, rest)) if !rest.contains([',', '.']) => format!("{whole}.{rest}"),
        Some(_) => word.replace(',', ""),
        None => word.to_owned(),
    };
    let (whole, fraction) = normalised.split_once('.').unwrap_or((normalised.as_str(), ""));
    let whole = whole_number(whole)?;
    let fraction_value = match fraction.len() {
        0 => 0,
        1 => whole_number(fraction)? * 10,
        2 => whole_number(fraction)?,
        _ => return None,
    };
    whole.checked_mul(100)?.checked_add(fraction_value)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn folded(text: &str) -> Vec<String> {
        tokenize(text).into_iter().map(|token| token.folded).collect()
    }

    #[test]
    fn digits_with_separators_stay_one_token() {
        assert_eq!(folded("EU 42,5, $1,200 and 4 3/8"), ["eu", "42,5", ",", "$", "1,200", "and", "4", "3/8"]);
        assert_eq!(folded("Spaghetti No. 5"), ["spaghetti", "no.", "5"]);
        assert_eq!(folded("a t-shirt, don't"), ["a", "t-shirt", ",", "don't"]);
    }

    #[test]
    fn clauses_break_at_punctuation_and_but() {
        let tokens = tokenize("black ideally, white is fine but pink");
        let clauses: Vec<usize> = tokens.iter().map(|token| token.clause).collect();
        assert_eq!(clauses, [0, 0, 0, 1, 1, 1, 2, 2]);
    }

    #[test]
    fn spans_split_at_hyphens_and_keep_byte_offsets() {
        let text = "Air-Zoom, but Ni\u{200B}ke $5 don't";
        let (pieces, clauses) = pieces(text, Mode::Spans, 1);
        let cut: Vec<(&str, &str, usize)> =
            pieces.iter().map(|piece| (&text[piece.start..piece.end], piece.folded.as_str(), piece.clause)).collect();
        assert_eq!(
            cut,
            [
                ("Air", "air", 1),
                ("Zoom", "zoom", 1),
                ("but", "but", 3),
                ("Ni\u{200B}ke", "nike", 3),
                ("$", "$", 3),
                ("5", "5", 3),
                ("don", "don", 3),
                ("t", "t", 3)
            ]
        );
        assert_eq!(clauses, 3);
        let folded: Vec<String> = tokenize(text).into_iter().map(|token| token.folded).collect();
        assert_eq!(folded, ["air-zoom", ",", "but", "ni", "\u{200B}", "ke", "$", "5", "don't"]);
    }

    #[test]
    fn amounts_read_decimal_and_grouping_commas() {
        assert_eq!(hundredths("120"), Some(12000));
        assert_eq!(hundredths("12.50"), Some(1250));
        assert_eq!(hundredths("42,5"), Some(4250));
        assert_eq!(hundredths("1,200"), Some(120000));
        assert_eq!(hundredths("99999999999999999999"), None);
    }

    #[test]
    fn numbers_in_words() {
        let value = |text: &str| number_words_at(&Request::new(text), 0).map(|(value, _)| value);
        assert_eq!(value("twenty dollars"), Some(20));
        assert_eq!(value("twenty-five bucks"), Some(25));
        assert_eq!(value("a hundred and fifty euros"), Some(150));
        assert_eq!(value("two thousand"), Some(2000));
        assert_eq!(value("пять тысяч рублей"), Some(5000));
        assert_eq!(value("тысячу рублей"), Some(1000));
        assert_eq!(value("триста рублей"), Some(300));
        assert_eq!(value("and so on"), None);
    }

    #[test]
    fn odd_input_never_panics() {
        for text in ["", "...", "-", "'", "no.", "№ 5", "１２,５", "\u{200B}", "a-", "5/", ",5"] {
            let _ = tokenize(text);
        }
    }
}
