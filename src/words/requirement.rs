//! Whether an item's own words say what a free-text requirement asks for
//! (issue 28 §4, the *met* half): "made of denim" against "… High Waist
//! Straight Denim …", "65W" against "USB-C charger 65 W". `super::reading`
//! joins it with the *contradicted* half (`super::contradiction`).
//!
//! Met means every content word of the requirement is among the words of one
//! item (its name, category, description, options and attributes together),
//! insensitive to case, hyphens, a plural's ending and the space between a
//! number and its unit. A requirement that negates ("no sugar", "without
//! parabens", "paraben-free", "без сахара") is met only where the item says
//! the whole phrase itself, so the thing negated is never read as the thing
//! asked for. Met is read first: an item that says the asked value anywhere
//! is never read as contradicting it.

use std::cell::OnceCell;
use std::collections::BTreeSet;
use std::ops::Range;
use std::sync::{LazyLock, OnceLock};

use crate::normalize::fold;

const REQUIREMENT_WORDS: &str = include_str!("../../extractors/lexicon/requirement-words.txt");

/// The words of `requirement-words.txt`, by section.
#[derive(Debug, Default)]
pub(super) struct RequirementWords {
    /// Words that carry no requirement of their own ("made of", "in")
    /// beyond the word layer's fillers.
    filler: BTreeSet<String>,
    /// Words that may stand beside a material in a requirement that asks
    /// only what the item is made of ("made of genuine leather").
    pub(super) beside_material: BTreeSet<String>,
    /// Words that make a requirement's numbers bounds, ranges or another
    /// thing's measure ("up to", "between", "for").
    pub(super) not_a_value: BTreeSet<String>,
    /// Words that make a requirement a shop's category ("bags category").
    category: BTreeSet<String>,
    /// Words before "of" and a count that ask only for the count ("set of
    /// 4", "pack of 100").
    before_a_count: BTreeSet<String>,
    /// Words that name a property or introduce a value without stating one
    /// ("simple *pattern*", "*featuring* a plain look").
    descriptor: BTreeSet<String>,
    /// Words that name a property an item's attribute may name in another
    /// word ("fragrance" for "Scent: comfort"): they ask nothing of the
    /// item's words, yet beside a negation they are the requirement
    /// ("fragrance-free"), so a requirement of them is no fragment.
    property_name: BTreeSet<String>,
}

impl RequirementWords {
    /// Whether a word carries no requirement of its own.
    pub(super) fn is_filler(&self, word: &str) -> bool {
        self.filler.contains(word)
            || self.category.contains(word)
            || self.descriptor.contains(word)
            || self.property_name.contains(word)
            || super::is_filler(word)
    }
}

/// The parsed `requirement-words.txt`.
pub(super) fn requirement_words() -> &'static RequirementWords {
    &WORDS
}

/// Whether a word makes a requirement a negative one where an item's words
/// are read for it (`@item` in extractors/words/negations.txt).
pub(super) fn is_negation(word: &str) -> bool {
    super::class::NEGATIONS.has_mark(word, "item")
}

static WORDS: LazyLock<RequirementWords> = LazyLock::new(|| {
    // Embedded and parsed by this module's tests, so a failure here is a
    // build that never passed them.
    parse(REQUIREMENT_WORDS).unwrap_or_else(|line| panic!("requirement-words.txt line {line}: not a word in a section"))
});

/// One item's words as a requirement is read against them: the texts that
/// stand alone (name, brand, colour, size, description, category, tags)
/// and the named values (options and attributes), each value kept with its
/// name so a reading can tell "Material: canvas" from "canvas" in a title.
#[derive(Debug, Clone, Default)]
pub struct ItemTexts<'a> {
    pub free: Vec<&'a str>,
    pub named: Vec<(&'a str, &'a str)>,
}

impl<'a> ItemTexts<'a> {
    /// Every text, names of attributes included, as *met* reads them.
    pub fn all(&self) -> Vec<&'a str> {
        self.free.iter().copied().chain(self.named.iter().flat_map(|(name, value)| [*name, *value])).collect()
    }

    /// Every text that states a value, each with its attribute's name if it
    /// has one.
    pub(super) fn values(&self) -> impl Iterator<Item = (Option<&'a str>, &'a str)> + '_ {
        self.free.iter().map(|text| (None, *text)).chain(self.named.iter().map(|(name, value)| (Some(*name), *value)))
    }
}

/// Where an item says what a requirement asks: the item's own words for
/// each content word of the requirement, as the item spells them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Said {
    pub quote: String,
}

/// One item's words tokenised once, for every requirement read against it.
///
/// Why: reading a requirement used to tokenise every one of the item's
/// texts again, once for *met* and once more for *contradicted*, and once
/// per requirement, item and pair read (line assignment reads every pair):
/// the item check spent most of its time cutting the same title into the
/// same words (issue 28's ≤ 50 µs per item). Built once per item, these
/// are the very tokens `tokens` gives each text, so every reading reads
/// what it read before.
#[derive(Debug, Clone)]
pub struct PreparedTexts<'a> {
    texts: ItemTexts<'a>,
    /// The tokens of every text of [`ItemTexts::all`], in that order.
    tokens: Vec<Token>,
    /// Where each text's tokens are in `tokens`, in the order of `all`.
    spans: Vec<Range<usize>>,
    /// Which tokens the item says it is not: a word after a negation in its
    /// text ("Expandable: not expandable", "No battery required"), and an
    /// attribute's name whose value opens with a negation ("Waterproof: no",
    /// "Expandable: not expandable").
    /// Such a word never meets a requirement that asks for it.
    negated: Vec<bool>,
    /// Each token's synsets as an adjective (`super::adjective`), looked up
    /// the first time a requirement's adjective is compared with the item's
    /// words: *met* compares every such word of every requirement with every
    /// word of the item, and hashing the item's word again for each was a
    /// twentieth of the item check (issue 28, docs/benchmarks.md).
    synsets: OnceCell<Vec<Option<&'static [u32]>>>,
}

impl<'a> PreparedTexts<'a> {
    pub fn new(texts: ItemTexts<'a>) -> PreparedTexts<'a> {
        let mut tokens = Vec::new();
        let mut spans = Vec::new();
        for text in texts.all() {
            let start = tokens.len();
            tokens.extend(self::tokens(text));
            spans.push(start..tokens.len());
        }
        let mut negated = vec![false; tokens.len()];
        for span in &spans {
            for at in span.start + 1..span.end {
                negated[at] = negates_the_next(&tokens[at - 1].folded) && !is_number_sign(&tokens[at - 1..]);
            }
        }
        let free = texts.free.len();
        for pair in 0..texts.named.len() {
            let (name, value) = (spans[free + 2 * pair].clone(), spans[free + 2 * pair + 1].clone());
            let value = &tokens[value];
            if value.first().is_some_and(|token| negates_the_next(&token.folded)) && !is_number_sign(value) {
                negated[name].fill(true);
            }
        }
        PreparedTexts { texts, tokens, spans, negated, synsets: OnceCell::new() }
    }

    /// Each token's synsets as an adjective, in the order of
    /// [`PreparedTexts::all_tokens`], looked up once.
    pub(super) fn synsets(&self) -> &[Option<&'static [u32]>] {
        self.synsets
            .get_or_init(|| self.tokens.iter().map(|token| super::adjective::synsets_of(&token.folded)).collect())
    }

    /// Whether the item says it is not what token `at` of
    /// [`PreparedTexts::all_tokens`] names.
    pub(super) fn is_negated(&self, at: usize) -> bool {
        self.negated[at]
    }

    /// The first word the item affirms (not one it says it is not) that
    /// `matches`, as the item spells it: where a reading of *met* quotes it.
    fn affirmed_word(&self, matches: impl Fn(&Token) -> bool) -> Option<String> {
        self.tokens
            .iter()
            .enumerate()
            .find(|(at, candidate)| !self.is_negated(*at) && matches(candidate))
            .map(|(_, candidate)| candidate.original.clone())
    }

    /// The texts themselves.
    pub fn texts(&self) -> &ItemTexts<'a> {
        &self.texts
    }

    /// Every text's tokens, one after another (what *met* reads).
    pub(super) fn all_tokens(&self) -> &[Token] {
        &self.tokens
    }

    /// Each text of [`ItemTexts::all`] with its tokens.
    pub(super) fn each(&self) -> impl Iterator<Item = TextTokens<'a, '_>> + '_ {
        self.texts.all().into_iter().zip(&self.spans).map(|(text, span)| (text, &self.tokens[span.clone()]))
    }

    /// The named values with the tokens of their names and of their values.
    pub(super) fn named(&self) -> impl Iterator<Item = (TextTokens<'a, '_>, TextTokens<'a, '_>)> + '_ {
        let free = self.texts.free.len();
        self.texts.named.iter().enumerate().map(move |(at, (name, value))| {
            let name_span = self.spans[free + 2 * at].clone();
            let value_span = self.spans[free + 2 * at + 1].clone();
            ((*name, &self.tokens[name_span]), (*value, &self.tokens[value_span]))
        })
    }
}

/// Whether a word before another says the item is not it ("not
/// expandable", "no battery", "non-slip", "anti slip", "без сахара"):
/// a negation, but not "free", which before a word says it costs nothing
/// ("free shipping").
fn negates_the_next(word: &str) -> bool {
    is_negation(word) && !matches!(word, "free" | "zero")
}

/// Whether a requirement only names the product again: without its
/// fillers, its words are the product phrase's last words, head included
/// ("the pet treat" of "jar-form pet treat", said to give it a price).
/// "for cats" of "cat food" names no head: a requirement of its own.
pub fn restates_product(requirement: &str, product: &str) -> bool {
    let words = |text: &str| -> Vec<Token> {
        tokens(text)
            .into_iter()
            .filter(|token| !WORDS.is_filler(&token.folded) && token.folded.chars().any(char::is_alphanumeric))
            .collect()
    };
    let (said, named) = (words(requirement), words(product));
    !said.is_empty()
        && said.len() <= named.len()
        && said.iter().zip(&named[named.len() - said.len()..]).all(|(said, named)| same_token(named, said))
}

/// Whether the first of `tokens` is "no" as a number's sign ("no.1",
/// "No. 5": a colour family's name), not a negation.
fn is_number_sign(tokens: &[Token]) -> bool {
    tokens.first().is_some_and(|token| token.folded == "no") && tokens.get(1).is_some_and(|next| next.has_digit)
}

/// One of an item's texts and its tokens.
pub(super) type TextTokens<'a, 't> = (&'a str, &'t [Token]);

/// A free-text requirement tokenised once, for every item it is read
/// against.
///
/// Why: line assignment reads each line's requirements against every item,
/// and each reading of one pair (met, contradicted, a shop's category, how
/// many of its words an item says) cut the requirement into tokens again,
/// so the requirement's few words cost as much as the item's many (issue
/// 28's ≤ 50 µs per item, docs/benchmarks.md). Built once per fact set
/// (`checks::Target` for a line's, once per must for the shared ones),
/// these are the very tokens `tokens` gives the text, so every reading
/// reads what it read before.
#[derive(Debug, Clone)]
pub struct Requirement {
    text: String,
    tokens: Vec<Token>,
}

impl Requirement {
    pub fn new(text: &str) -> Requirement {
        Requirement { text: text.to_owned(), tokens: tokens(text) }
    }

    /// The requirement as the person's facts state it.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// Its tokens, as [`tokens`] cuts its text.
    pub(super) fn tokens(&self) -> &[Token] {
        &self.tokens
    }

    /// [`names_a_category`], on the tokens already cut.
    pub fn names_a_category(&self) -> bool {
        self.tokens.iter().any(|token| WORDS.category.contains(&token.folded))
    }
}

/// Whether the item whose texts are `texts` says what `requirement` asks.
/// `None` when it does not, or when the requirement has no content word.
pub fn said(requirement: &str, texts: &[&str]) -> Option<Said> {
    said_in(requirement, &PreparedTexts::new(ItemTexts { free: texts.to_vec(), named: Vec::new() }))
}

/// [`said`], on an item's texts tokenised once ([`PreparedTexts`]).
pub fn said_in(requirement: &str, item: &PreparedTexts) -> Option<Said> {
    said_prepared(&Requirement::new(requirement), item)
}

/// [`said`], the requirement and the item's texts each tokenised once
/// ([`Requirement`], [`PreparedTexts`]): what the checks call.
pub fn said_prepared(requirement: &Requirement, item: &PreparedTexts) -> Option<Said> {
    let wanted = requirement.tokens();
    let words = &*WORDS;
    if (0..wanted.len()).any(|at| is_negation(&wanted[at].folded) && !is_number_sign(&wanted[at..])) {
        // "without a frame" is said as "no frame": an article or other
        // filler asks nothing of the item's words.
        let said: Vec<Token> = wanted
            .iter()
            .filter(|token| is_negation(&token.folded) || !words.is_filler(&token.folded))
            .cloned()
            .collect();
        let said = if said.iter().all(|token| is_negation(&token.folded)) { wanted } else { said.as_slice() };
        // "no brand xx" (a brand's name, its attribute "Brand: no brand xx"):
        // the whole phrase as the person wrote it is said too.
        let texts = item.texts.all();
        return said_whole(said, &texts).or_else(|| said_whole(wanted, &texts));
    }
    let mut quoted: Vec<String> = Vec::new();
    // "no.1" is said only as "no" and the same number, side by side.
    for at in (0..wanted.len()).filter(|at| is_number_sign(&wanted[*at..])) {
        let pair =
            item.all_tokens().windows(2).find(|pair| is_number_sign(pair) && same_token(&pair[1], &wanted[at + 1]))?;
        quoted.push(format!("{} {}", pair[0].original, pair[1].original));
    }
    // "with LazMall perks": each service named must be the item's, and the
    // words that only dress one ask nothing more.
    let services = named_services(wanted);
    if !services.is_empty() {
        let offered = named_services(item.all_tokens());
        for (_, service) in &services {
            let (range, _) = offered.iter().find(|(_, offered)| offered == service)?;
            let said: Vec<&str> =
                item.all_tokens()[range.clone()].iter().map(|token| token.original.as_str()).collect();
            let said = said.join(" ");
            if !quoted.contains(&said) {
                quoted.push(said);
            }
        }
    }
    let in_service = |index: usize| services.iter().any(|(range, _)| range.contains(&index));
    // "LazMall perks like fast shipping": what follows "like" or "such as"
    // after a service lists what the service offers, and asks nothing more.
    let examples_from = services.first().and_then(|(range, _)| {
        (range.end..wanted.len()).find(|at| super::class::SHOP_SERVICES.has_mark(&wanted[*at].folded, "examples"))
    });
    let an_example = |index: usize| examples_from.is_some_and(|from| index > from && !in_service(index));
    // "set of 4", "pack of 100": the count is what is asked, as "4Pcs" says it.
    let counted = |index: usize| {
        WORDS.before_a_count.contains(&wanted[index].folded)
            && wanted.get(index + 1).is_some_and(|token| token.folded == "of")
            && wanted.get(index + 2).is_some_and(|token| {
                token.folded.chars().all(|character| character.is_ascii_digit()) || count_of(token).is_some()
            })
    };
    // "1000ml" said as "1 Liter" or "Volume: 1000": a measure is met as
    // one, before its number and unit are looked for word by word.
    let mut measured: Vec<usize> = Vec::new();
    let bounded = wanted.iter().any(|token| words.not_a_value.contains(&token.folded));
    for at in 0..wanted.len().saturating_sub(1) {
        let Some(measure) = super::measure::measure(&wanted[at].folded, &wanted[at + 1].folded) else { continue };
        // "300 meters long", "16GB RAM": what the measure is of asks nothing
        // more, whether the item says the measure as one ("Length: 300") or
        // word by word ("16+512GB").
        let next = wanted.get(at + 3).map_or("", |token| token.folded.as_str());
        if wanted.get(at + 2).is_some_and(|token| super::measure::of_measure(&token.folded, next)) {
            measured.push(at + 2);
        }
        if let Some(said) = measure_said(measure, item, bounded) {
            measured.extend([at, at + 1]);
            if !quoted.contains(&said) {
                quoted.push(said);
            }
        }
    }
    let content: Vec<usize> = (0..wanted.len())
        .filter(|&index| {
            let token = &wanted[index];
            // "up to", "smaller than", "between": a bound is met where the
            // item states the very measure ("under 25 mm" for "a dial smaller
            // than 25mm"); another number is never met, and never read here
            // as contradicted either (`super::contradiction`).
            !words.is_filler(&token.folded)
                && !words.not_a_value.contains(&token.folded)
                && !measured.contains(&index)
                && !counted(index)
                && !(!services.is_empty() && (in_service(index) || super::service::is_perk(&token.folded)))
                && !an_example(index)
        })
        .collect();
    if content.is_empty() && services.is_empty() && measured.is_empty() {
        return None;
    }
    let item_tokens = item.all_tokens();
    // The same word first; an adjective WordNet says is alike ("simple" for
    // "plain") only where the item does not say the word itself.
    // A word the item says it is not ("not expandable") never meets it.
    let affirmed = || item_tokens.iter().enumerate().filter(|(at, _)| !item.is_negated(*at));
    let found = |token: &Token| {
        affirmed()
            .map(|(_, candidate)| candidate)
            .find(|candidate| same_token(candidate, token))
            .map(|candidate| candidate.original.clone())
            .or_else(|| {
                let adjective = super::adjective::Adjective::of(&token.folded);
                adjective.is_known().then(|| {
                    let synsets = item.synsets();
                    affirmed()
                        .find(|(at, candidate)| adjective.alike_of(&candidate.folded, synsets[*at]))
                        .map(|(_, candidate)| candidate.original.clone())
                })?
            })
            .or_else(|| derived_said(token, item))
            .or_else(|| synonym_said(token, item))
            .or_else(|| count_said(token, item))
            .or_else(|| compound_said(token, item))
    };
    let alternatives = alternatives(wanted, &content);
    for &index in &content {
        // "textured or embroidered pattern": either word will do.
        let partner = alternatives.iter().find_map(|&(left, right)| match index {
            _ if index == left => Some(right),
            _ if index == right => Some(left),
            _ => None,
        });
        let said = found(&wanted[index])
            .or_else(|| partner.and_then(|partner| found(&wanted[partner])))
            .or_else(|| spelled_together(wanted, &content, index, item));
        let said = match said {
            Some(said) => said,
            // The attribute holds every other word: it is the whole quote.
            None if content.last() == Some(&index) => {
                return property_said(wanted, &content, &measured, item).map(|quote| Said { quote });
            }
            None => return None,
        };
        if !quoted.contains(&said) {
            quoted.push(said);
        }
    }
    Some(Said { quote: quoted.join(" ") })
}

/// A requirement's last word that names the property the words before it
/// give the value of ("OLED display" by "Screen type: oled", "Android OS"
/// by "Operating system: android", "single camera setup" by "Number of
/// camera: single"): the item's attribute, quoted whole, when every other
/// word of the requirement (content or measure) is one of that attribute's
/// own words, name or value, so the attribute states the value asked for
/// and its name says of what. Not a word whose commonest sense is a thing
/// ("fast charger" by "Charging: fast" asks for a charger), nor a value in
/// its own right: a material, a colour or an adjective ("made of knitted
/// cotton" is not met by "Material: knitted polyester"), nor one with a
/// digit; and never a requirement of one word.
fn property_said(wanted: &[Token], content: &[usize], measured: &[usize], item: &PreparedTexts) -> Option<String> {
    let (&head, others) = content.split_last()?;
    let head_word = &wanted[head];
    // Every other word of the requirement, content or measure: what the
    // attribute must hold (read per item, so not collected).
    let values = || others.iter().chain(measured).copied().filter(move |at| *at != head);
    if values().next().is_none()
        || head_word.has_digit
        || !head_word.folded.chars().all(char::is_alphabetic)
        || super::product::lexicon().is_product_word(&head_word.folded)
        || super::class::MATERIALS.value(&head_word.folded).is_some()
        || super::colour::is_colour(&head_word.folded)
        || super::adjective::is_adjective(&head_word.folded)
    {
        return None;
    }
    item.named().find_map(|((name, name_tokens), (value, value_tokens))| {
        let own = |token: &Token| name_tokens.iter().chain(value_tokens).any(|candidate| same_token(candidate, token));
        // The value must be what is asked, not only its name: "Screen type"
        // alone says nothing of OLED.
        let gives_the_value =
            values().any(|at| value_tokens.iter().any(|candidate| same_token(candidate, &wanted[at])));
        (gives_the_value && values().all(|at| own(&wanted[at]))).then(|| format!("{name}: {value}"))
    })
}

/// Two side-by-side content words of a requirement that the item spells as
/// one ("life stages" by "Lifestage", "back pack" by "Backpack"): the word at
/// `index` with the one after it, or the one before it. Words of letters
/// only, seven letters or more together, as [`compound_said`] asks.
fn spelled_together(wanted: &[Token], content: &[usize], index: usize, item: &PreparedTexts) -> Option<String> {
    const SHORTEST: usize = 7;
    let pairs = [index.checked_sub(1).map(|before| (before, index)), Some((index, index + 1))];
    pairs.into_iter().flatten().find_map(|(first, second)| {
        if !content.contains(&first) || !content.contains(&second) {
            return None;
        }
        let joined = format!("{}{}", wanted[first].folded, wanted[second].folded);
        if joined.len() < SHORTEST || !joined.chars().all(char::is_alphabetic) {
            return None;
        }
        item.affirmed_word(|candidate| same_word(&candidate.folded, &joined))
    })
}

/// A count said in words, two or more ("two", "пять"; `@count` in
/// extractors/words/numbers.txt): "one" and "a" stand for too much else.
fn count_of(token: &Token) -> Option<u64> {
    if token.has_digit {
        return None;
    }
    super::text::number_word(&token.folded).filter(|count| *count >= 2)
}

/// A count said in words that the item says in digits ("set of two" by
/// "2Pcs", "two pockets" by "2 Pockets"): an affirmed word of the item that
/// is the count's number, whole.
fn count_said(wanted: &Token, item: &PreparedTexts) -> Option<String> {
    let digits = count_of(wanted)?.to_string();
    item.affirmed_word(|candidate| candidate.folded == digits)
}

/// A thing's name said by another of its names ("for honda bikes" by
/// "Motorcycle make: honda", "for gas stoves" by "gas range"): an affirmed
/// word of the item that a WordNet synset of the product lexicon holds with
/// the wanted word (`super::product::Lexicon::kinds_of_word`). Words of
/// letters only, four or more, and never a material, on either side: WordNet
/// calls jeans "denim" too, and "made of denim" asks what they are made of.
fn synonym_said(wanted: &Token, item: &PreparedTexts) -> Option<String> {
    let word = wanted.folded.as_str();
    let material = |word: &str| super::class::MATERIALS.value(word).is_some();
    if word.len() < 4 || !word.chars().all(char::is_alphabetic) || material(word) {
        return None;
    }
    let lexicon = super::product::lexicon();
    // Most words of a requirement name no thing: nothing more is looked up.
    let kinds = lexicon.kinds_of_word(word);
    if kinds.is_empty() {
        return None;
    }
    item.affirmed_word(|candidate| {
        candidate.folded.len() >= 4
            && !candidate.has_digit
            && !material(&candidate.folded)
            && lexicon.kinds_of_word(&candidate.folded).iter().any(|kind| kinds.contains(kind))
    })
}

/// A word said in a form WordNet derives from it or it from ("trendy" by
/// "Trend", "floral" by "Flower"; `super::derivation`): an affirmed
/// word of the item whose stem is related to the wanted word's.
fn derived_said(wanted: &Token, item: &PreparedTexts) -> Option<String> {
    let related = super::derivation::related(wanted.stem()?);
    if related.is_empty() {
        return None;
    }
    item.affirmed_word(|candidate| {
        candidate.stem().is_some_and(|stem| related.binary_search_by(|one| one.as_str().cmp(stem)).is_ok())
    })
}

/// A compound word said as two ("freshwater" by "Fresh Water", "backpack"
/// by "Back Pack"): two side-by-side affirmed words of the item, spelled
/// together, are the wanted word. Words of letters only, and a compound of
/// seven letters or more, so short words never meet by chance ("in"+"to").
fn compound_said(wanted: &Token, item: &PreparedTexts) -> Option<String> {
    const SHORTEST: usize = 7;
    let word = wanted.folded.as_str();
    if word.len() < SHORTEST || !word.chars().all(char::is_alphabetic) {
        return None;
    }
    // Within one text: the last word of a title and the first of its
    // description are no compound.
    let tokens = item.all_tokens();
    item.spans.iter().flat_map(|span| span.start..span.end.saturating_sub(1)).find_map(|at| {
        let (first, second) = (tokens[at].folded.as_str(), tokens[at + 1].folded.as_str());
        let joined = !first.is_empty()
            && first.len() + second.len() == word.len()
            && word.starts_with(first)
            && word.ends_with(second);
        (joined && !item.is_negated(at) && !item.is_negated(at + 1))
            .then(|| format!("{} {}", tokens[at].original, tokens[at + 1].original))
    })
}

/// The content words an "or" offers as alternatives ("textured or
/// embroidered", "slip-on or pull-on"): the nearest content word before
/// each "or"/"или" and the nearest after it, as indices into `wanted`.
/// One word each side: in "textured or embroidered pattern" the pattern is
/// asked either way.
fn alternatives(wanted: &[Token], content: &[usize]) -> Vec<(usize, usize)> {
    wanted
        .iter()
        .enumerate()
        .filter(|(_, token)| super::class::LIST_WORDS.has_mark(&token.folded, "alternative"))
        .filter_map(|(at, _)| {
            let left = content.iter().rev().find(|&&index| index < at)?;
            let right = content.iter().find(|&&index| index > at)?;
            Some((*left, *right))
        })
        .collect()
}

/// Where an item states a measure: the same amount in another metric unit
/// of its dimension, or a bare number under an attribute that names what
/// it measures (`super::measure`); where the requirement states it as a
/// value, not a bound (`bounded`: "over 400 W" is not met by "1-500"), a
/// range the item states that holds it. The item's words, as it spells
/// them.
fn measure_said(wanted: super::measure::Measure, item: &PreparedTexts, bounded: bool) -> Option<String> {
    let tokens = item.all_tokens();
    for at in 0..tokens.len().saturating_sub(1) {
        if super::measure::measure(&tokens[at].folded, &tokens[at + 1].folded)
            .is_some_and(|found| super::measure::same(found, wanted))
        {
            return Some(format!("{} {}", tokens[at].original, tokens[at + 1].original));
        }
    }
    let named = item.named().find_map(|((name, name_tokens), (value, value_tokens))| {
        let name_words: Vec<&str> = name_tokens.iter().map(|token| token.folded.as_str()).collect();
        let value_words: Vec<&str> = value_tokens.iter().map(|token| token.folded.as_str()).collect();
        (super::measure::named(wanted, &name_words, &value_words)
            || (!bounded && super::measure::named_range(wanted, &name_words, value)))
        .then(|| format!("{name}: {value}"))
    });
    // "6months-4yrs old" for "2 year old", "100-240V" for "220V": a range
    // the item states holds the measure.
    if named.is_some() || bounded {
        return named;
    }
    item.texts.all().into_iter().find_map(|text| {
        super::measure::ranges(text)
            .into_iter()
            .find(|range| super::measure::within(wanted, range.low, range.high))
            .map(|range| range.said)
    })
}

/// Whether a requirement is a fragment of a clause rather than a
/// requirement a person would recognise (issue 28 §6): it holds no number
/// and no word beyond fillers, negations, bounds and words that name a
/// property without its value ("featuring a", "weighing up", "capability",
/// "no specific").
pub fn is_fragment(requirement: &str) -> bool {
    let words = &*WORDS;
    tokens(requirement).iter().all(|token| {
        let word = token.folded.as_str();
        !word.chars().any(|character| character.is_ascii_digit())
            && !words.property_name.contains(word)
            && (words.is_filler(word) || words.not_a_value.contains(word) || is_negation(word))
    })
}

/// Whether a requirement names a shop's category ("in the flashlight
/// category", "categorized under water pumps").
pub fn names_a_category(requirement: &str) -> bool {
    Requirement::new(requirement).names_a_category()
}

/// The services a run of tokens names (`super::service`).
fn named_services(tokens: &[Token]) -> Vec<(std::ops::Range<usize>, &'static str)> {
    let words: Vec<&str> = tokens.iter().map(|token| token.folded.as_str()).collect();
    super::service::named(&words)
}

/// How many of a requirement's words, other than fillers and numbers, one
/// item's words say: which item of a cart a requirement speaks of ("pack of
/// 500pcs address label stickers" of "A6 waybill sticker … Stationery label
/// type: address label" rather than of a label printer), as `Facts::other`
/// names no line.
pub fn named_words(requirement: &str, item: &ItemTexts) -> usize {
    named_words_in(requirement, &PreparedTexts::new(item.clone()))
}

/// [`named_words`], on an item's texts tokenised once ([`PreparedTexts`]).
pub fn named_words_in(requirement: &str, item: &PreparedTexts) -> usize {
    named_words_prepared(&Requirement::new(requirement), item)
}

/// [`named_words`], the requirement and the item's texts each tokenised
/// once ([`Requirement`], [`PreparedTexts`]).
pub fn named_words_prepared(requirement: &Requirement, item: &PreparedTexts) -> usize {
    let words = &*WORDS;
    let item_words = item.all_tokens();
    let mut wanted: Vec<&Token> = requirement
        .tokens()
        .iter()
        .filter(|token| !words.is_filler(&token.folded) && !is_negation(&token.folded))
        .filter(|token| !token.folded.chars().any(|character| character.is_ascii_digit()))
        .collect();
    wanted.dedup_by(|first, second| first.folded == second.folded);
    wanted.iter().filter(|token| item_words.iter().any(|candidate| same_token(candidate, token))).count()
}

/// A negating requirement is met only by the same words in the same order
/// in one clause of one text ("paraben-free" in "Paraben-Free Shampoo",
/// not in "contains parabens, free shipping").
fn said_whole(wanted: &[Token], texts: &[&str]) -> Option<Said> {
    let clauses = texts.iter().flat_map(|text| text.split([',', ';', ':', '.', '|', '(', ')', '[', ']', '/']));
    clauses.into_iter().find_map(|text| {
        let item = tokens(text);
        (0..item.len().checked_sub(wanted.len())? + 1).find_map(|start| {
            let run = &item[start..start + wanted.len()];
            run.iter()
                .zip(wanted)
                .all(|(candidate, token)| {
                    // "non-sticky" is said as "non-adhesive": an adjective
                    // WordNet says is alike stands for the word.
                    same_token(candidate, token)
                        || both_negate(candidate, token)
                        || super::adjective::Adjective::of(&token.folded)
                            .alike_of(&candidate.folded, super::adjective::synsets_of(&candidate.folded))
                })
                .then(|| Said { quote: run.iter().map(|token| token.original.as_str()).collect::<Vec<_>>().join(" ") })
        })
    })
}

/// Whether two words both negate what stands after them ("without" and
/// "no", "non" and "anti"): one stands for the other in a negated
/// requirement. "free" and "zero" stand only for themselves ("paraben-free"
/// negates what is before it).
fn both_negate(item: &Token, wanted: &Token) -> bool {
    let before = |token: &Token| is_negation(&token.folded) && !matches!(token.folded.as_str(), "free" | "zero");
    before(item) && before(wanted)
}

/// Two folded words are the same word: equal, or one the other's plural
/// ("shoes", "boxes", "batteries"), read as the product lexicon reads
/// plurals. Other scripts compare as written.
pub(super) fn same_word(item: &str, wanted: &str) -> bool {
    // A number is compared as written ("65" is not "65s"), so a count or
    // a measure never matches another by a plural ending.
    let has_digit = |word: &str| word.chars().any(|character| character.is_ascii_digit());
    // "20 pieces" is "20PCS", "5 litres" is "5L": a unit by its one spelling.
    let same_unit = super::class::UNITS.value(item).is_some_and(|unit| super::class::UNITS.value(wanted) == Some(unit));
    item == wanted || same_unit || (!has_digit(item) && !has_digit(wanted) && super::product::same_noun(item, wanted))
}

/// Two tokens are the same word: [`same_word`], or one inflection of the
/// other ("Wall Mounted" for "wall mount", "кожи" for "кожа"): the same
/// Snowball stem, for words of four letters or more that hold no digit.
/// Why Snowball: it is the maintained stemmer for English and Russian, so
/// verb and adjective endings need no hand-written rules; short words are
/// left out because their stems collide ("us", "use").
pub(super) fn same_token(item: &Token, wanted: &Token) -> bool {
    // [`same_word`] on the unit and digits each token read once.
    let same_word = item.folded == wanted.folded
        || item.unit.is_some_and(|unit| wanted.unit == Some(unit))
        || (!item.has_digit && !wanted.has_digit && super::product::same_noun(&item.folded, &wanted.folded));
    same_word || wanted.stem().is_some_and(|stem| item.stem() == Some(stem))
}

/// One word of a text: folded for comparison, and as the text spells it.
#[derive(Debug, Clone)]
pub(super) struct Token {
    pub(super) folded: String,
    pub(super) original: String,
    /// The Snowball stem of a word of four letters or more without digits
    /// (English, or Russian for a Cyrillic word; `super::stem`); `None` otherwise. Taken
    /// on first use ([`Token::stem`]): most tokens are never compared by
    /// stem (a requirement tested for a fragment, a category), and the
    /// stemmer was most of their cost (issue 27's speed).
    stem: OnceLock<Option<String>>,
    /// The unit the folded word spells (`units.txt`), and whether it holds
    /// a digit: what [`same_word`] asks of both words of every comparison,
    /// read once per token instead (the item check compares every word of
    /// a requirement with every word of an item, issue 28's speed target).
    unit: Option<&'static str>,
    has_digit: bool,
}

/// The words of a text, split on everything that is not a letter or a
/// digit (a decimal point stays in its number), and between a number and
/// the letters after it ("65W" is "65" and "W", as "65 W" is), `ё` read
/// as `е`.
pub(super) fn tokens(text: &str) -> Vec<Token> {
    let mut out = Vec::new();
    // A decimal point or comma between digits belongs to the number: "1.5L"
    // is 1.5 litres, not 1 and 5 L.
    let characters: Vec<char> = text.chars().collect();
    let joins = |index: usize| {
        matches!(characters[index], '.' | ',')
            && index > 0
            && characters[index - 1].is_ascii_digit()
            && characters.get(index + 1).is_some_and(char::is_ascii_digit)
    };
    // "Father's Day": the possessive's "s" is no word of its own, so
    // "Fathers day" says it. `26"` and `26”` are 26 inches, as titles write
    // them: the mark is read as the word "inch".
    let possessive = |index: usize| {
        matches!(characters[index], '\'' | '’')
            && characters.get(index + 1).is_some_and(|next| matches!(next, 's' | 'S'))
            && characters.get(index + 2).is_none_or(|next| !next.is_alphanumeric())
            && index > 0
            && characters[index - 1].is_alphabetic()
    };
    let inch_mark = |index: usize| {
        matches!(characters[index], '"' | '”' | '″') && index > 0 && characters[index - 1].is_ascii_digit()
    };
    // "120x200", "120*200CM", "120×200", "120х200": a dimension's sides
    // are one word however they are typed (an "x" between them), so that a
    // dimension is met only by the same dimension, and each side is a word
    // too (below), so that "200 cm" is still met by "120x200cm".
    let parts_sides = |index: usize| {
        matches!(characters[index], 'x' | 'X' | 'х' | 'Х' | '*' | '×')
            && index > 0
            && characters[index - 1].is_ascii_digit()
            && characters.get(index + 1).is_some_and(char::is_ascii_digit)
    };
    let mut pieces: Vec<String> = vec![String::new()];
    let mut skip = 0;
    for (index, character) in characters.iter().enumerate() {
        if skip > 0 {
            skip -= 1;
            continue;
        }
        if parts_sides(index) {
            if let Some(last) = pieces.last_mut() {
                last.push('x');
            }
            continue;
        }
        if possessive(index) {
            skip = 1;
            pieces.push(String::new());
            continue;
        }
        if inch_mark(index) {
            pieces.push("inch".to_owned());
            pieces.push(String::new());
            continue;
        }
        if character.is_alphanumeric() || joins(index) {
            if let Some(last) = pieces.last_mut() {
                last.push(if *character == ',' { '.' } else { *character });
            }
        } else if pieces.last().is_some_and(|last| !last.is_empty()) {
            pieces.push(String::new());
        }
    }
    for piece in pieces.iter().filter(|piece| !piece.is_empty()) {
        let mut start = 0;
        let characters: Vec<(usize, char)> = piece.char_indices().collect();
        for window in characters.windows(2) {
            let ((_, before), (at, after)) = (window[0], window[1]);
            let sides = after == 'x' && piece[at + 1..].starts_with(|next: char| next.is_ascii_digit());
            if before.is_ascii_digit() && after.is_alphabetic() && !sides {
                out.push(token(&piece[start..at]));
                start = at;
            }
        }
        out.push(token(&piece[start..]));
    }
    dimensions(out)
}

/// A dimension's sides as one word ("120x200") followed by each side
/// ("120", "200"), all quoting it as written; a spaced "120 x 200" too.
fn dimensions(tokens: Vec<Token>) -> Vec<Token> {
    let number =
        |word: &str| !word.is_empty() && word.chars().all(|character| character.is_ascii_digit() || character == '.');
    let is_dimension = |word: &str| {
        let sides: Vec<&str> = word.split('x').collect();
        sides.len() > 1 && sides.iter().all(|side| number(side))
    };
    if !tokens.iter().any(|token| token.has_digit) {
        return tokens;
    }
    let mut out: Vec<Token> = Vec::with_capacity(tokens.len());
    let mut at = 0;
    while at < tokens.len() {
        let spaced = matches!(tokens[at].folded.as_str(), "x" | "х")
            && out.last().is_some_and(|before: &Token| number(&before.folded))
            && tokens.get(at + 1).is_some_and(|after| number(&after.folded));
        if spaced && let Some(before) = out.pop() {
            let after = &tokens[at + 1];
            let original = format!("{} {} {}", before.original, tokens[at].original, after.original);
            let mut whole = token(&format!("{}x{}", before.folded, after.folded));
            whole.original.clone_from(&original);
            out.push(whole);
            for side in [before.folded.as_str(), after.folded.as_str()] {
                let mut side = token(side);
                side.original.clone_from(&original);
                out.push(side);
            }
            at += 2;
            continue;
        }
        let token_here = tokens[at].clone();
        if is_dimension(&token_here.folded) {
            let sides: Vec<Token> = token_here
                .folded
                .split('x')
                .map(|side| {
                    let mut side = token(side);
                    side.original.clone_from(&token_here.original);
                    side
                })
                .collect();
            out.push(token_here);
            out.extend(sides);
        } else {
            out.push(token_here);
        }
        at += 1;
    }
    out
}

fn token(original: &str) -> Token {
    // Replaced only where it occurs: every word of every item text comes
    // through here, and `replace` allocates a second string for each.
    let folded = fold(original);
    let folded = if folded.contains('ё') { folded.replace('ё', "е") } else { folded };
    let unit = super::class::UNITS.value(&folded);
    let has_digit = folded.chars().any(|character| character.is_ascii_digit());
    Token { folded, original: original.to_owned(), stem: OnceLock::new(), unit, has_digit }
}

impl Token {
    /// The word's Snowball stem ([`stem`]), taken the first time it is asked.
    pub(super) fn stem(&self) -> Option<&str> {
        self.stem.get_or_init(|| super::stem::of(&self.folded)).as_deref()
    }
}

/// Parses `requirement-words.txt`: `[filler]`, `[beside-material]` and
/// `[not-a-value]` sections, one word a line, `#` comments. Returns the
/// line of the first bad one.
fn parse(text: &str) -> Result<RequirementWords, usize> {
    let mut words = RequirementWords::default();
    let mut section: Option<&mut BTreeSet<String>> = None;
    for (index, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or_default().trim();
        if line.is_empty() {
            continue;
        }
        match line {
            "[filler]" => section = Some(&mut words.filler),
            "[beside-material]" => section = Some(&mut words.beside_material),
            "[not-a-value]" => section = Some(&mut words.not_a_value),
            "[category]" => section = Some(&mut words.category),
            "[before-a-count]" => section = Some(&mut words.before_a_count),
            "[descriptor]" => section = Some(&mut words.descriptor),
            "[property-name]" => section = Some(&mut words.property_name),
            _ => {
                let Some(set) = section.as_deref_mut() else { return Err(index + 1) };
                if line.contains(' ') || !set.insert(fold(line)) {
                    return Err(index + 1);
                }
            }
        }
    }
    Ok(words)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn met(requirement: &str, texts: &[&str]) -> Option<String> {
        said(requirement, texts).map(|said| said.quote)
    }

    #[test]
    fn the_embedded_word_list_parses() {
        let words = parse(REQUIREMENT_WORDS).expect("requirement-words.txt parses");
        assert!(words.filler.contains("made") && is_negation("without") && is_negation("free"));
        assert!(words.category.contains("category") && names_a_category("in the bags category"));
        assert_eq!(parse("word\n").unwrap_err(), 1);
        assert_eq!(parse("[filler]\nmade\nmade\n").unwrap_err(), 3);
    }

    #[test]
    fn every_content_word_said_by_the_item_meets_the_requirement() {
        assert_eq!(met("made of denim", &["Women's High Waist Straight Denim Jeans"]).as_deref(), Some("Denim"));
        assert_eq!(met("65W", &["USB-C charger 65 W"]).as_deref(), Some("65 W"));
        assert_eq!(met("50 ml", &["Eau de Parfum 50ml"]).as_deref(), Some("50 ml"));
        assert_eq!(met("waist 44", &["MEN LEATHER BELT", "waist:44"]).as_deref(), Some("waist 44"));
        assert!(met("leather business casual belts", &["MEN LEATHER BUSINESS CASUAL BELT"]).is_some());
        assert!(met("из натуральной кожи", &["Ремень из натуральной кожи"]).is_some());
        assert_eq!(met("20 pieces", &["Honda Drain Gasket 20PCS"]).as_deref(), Some("20 PCS"));
        assert_eq!(met("set of 4", &["4Pcs Car Door Edge Guards"]).as_deref(), Some("4"));
        assert_eq!(met("for Toyota vehicles", &["Alternator Pulley For Toyota Previa"]).as_deref(), Some("Toyota"));
        assert_eq!(met("using LED bulbs", &["Tactical Light", "Light bulb type", "led"]).as_deref(), Some("led bulb"));
        assert_eq!(met("set of 4", &["2Pcs Car Door Edge Guards"]), None);
        // Another inflection of the same word, by its Snowball stem.
        assert_eq!(met("with a wall mount", &["Toilet Brush Wall Mounted"]).as_deref(), Some("Wall Mounted"));
        assert_eq!(met("textured pattern", &["Pattern", "texture / embroide"]).as_deref(), Some("texture"));
        assert_eq!(met("из натуральной кожи", &["Ремень, натуральная кожа"]).as_deref(), Some("натуральная кожа"));
        assert_eq!(met("use", &["User manual"]), None, "short words are compared whole");
        // What a measure is of asks nothing the measure does not.
        assert_eq!(met("300 meters long", &["Nylon Fishing Line 300M Orange"]).as_deref(), Some("300 M"));
        assert_eq!(met("512GB storage", &["Nubia Phone 16GB+512GB"]).as_deref(), Some("512 GB"));
        assert_eq!(met("300 meters long", &["Nylon Fishing Line 100M Orange"]), None);
        assert_eq!(met("16GB RAM", &["Nubia Z70 Ultra 12+256GB/16+512GB/24+1TB"]).as_deref(), Some("16 GB"));
    }

    fn met_named(requirement: &str, free: &[&str], named: &[(&str, &str)]) -> Option<String> {
        let texts = ItemTexts { free: free.to_vec(), named: named.to_vec() };
        said_in(requirement, &PreparedTexts::new(texts)).map(|said| said.quote)
    }

    #[test]
    fn a_last_word_naming_the_property_an_attribute_gives_the_value_of_is_met_by_it() {
        let phone = ["Realme 14 Pro Plus 5G 12gb 512gb"];
        assert_eq!(met_named("OLED display", &phone, &[("Screen type", "oled")]).as_deref(), Some("Screen type: oled"));
        assert_eq!(
            met_named("IPS LCD display", &phone, &[("Screen type", "ips lcd")]).as_deref(),
            Some("Screen type: ips lcd")
        );
        assert_eq!(
            met_named("Android OS", &phone, &[("Operating system", "android")]).as_deref(),
            Some("Operating system: android")
        );
        assert_eq!(
            met_named("260 ppi pixel density", &phone, &[("Pixel ppi", "260 ppi")]).as_deref(),
            Some("Pixel ppi: 260 ppi")
        );
        // Another value, or the value said elsewhere than in the attribute:
        // still asked.
        assert_eq!(met_named("OLED display", &phone, &[("Screen type", "amoled")]), None);
        assert_eq!(met_named("OLED display", &["OLED TV"], &[("Panel", "flat")]), None);
        // A word for a thing asks for the thing ("a fast charger"), and a
        // word of the requirement the attribute does not hold is asked.
        assert_eq!(met_named("fast charger", &phone, &[("Charging", "fast")]), None);
        assert_eq!(met_named("leather strap", &["Men Watch"], &[("Material", "leather")]), None);
        assert_eq!(met_named("curved OLED display", &phone, &[("Screen type", "oled")]), None);
        // A last word that is a value of its own is asked for, not named.
        let suit = ["Baby Terno"];
        assert_eq!(met_named("made of knitted cotton", &suit, &[("Baby material", "knitted polyester")]), None);
        assert_eq!(met_named("from cotton spandex", &suit, &[("Clothing material", "cotton polyester")]), None);
        assert_eq!(met_named("glossy black", &suit, &[("Finish", "glossy")]), None);
        // One word alone is never its own property.
        assert_eq!(met_named("display", &phone, &[("Screen type", "oled")]), None);
    }

    #[test]
    fn either_word_of_an_or_will_do_and_the_rest_is_still_asked() {
        let plate = ["Ceramic Square Plate", "Pattern", "texture / embroidery"];
        // Both are said: "embroidered" by the noun it derives from.
        assert_eq!(met("textured or embroidered pattern", &plate).as_deref(), Some("texture embroidery"));
        assert_eq!(met("slip-on or pull-on closure", &["Boots", "Closure type", "pull on"]).as_deref(), Some("pull"));
        // "closure" names the property, which "pull on" states.
        assert_eq!(met("slip-on or pull-on closure", &["Boots", "pull on"]).as_deref(), Some("pull"));
        assert_eq!(met("slip-on or pull-on closure", &["Boots", "Closure type", "zipper"]), None);
        assert_eq!(met("red or blue handle", &["Green Mug"]), None);
        assert_eq!(met("кожаный или замшевый", &["Ремень замшевый"]).as_deref(), Some("замшевый"));
    }

    #[test]
    fn two_words_the_item_spells_as_one_are_said() {
        assert_eq!(met("for all life stages", &["Aviapro Plus", "Lifestage", "all"]).as_deref(), Some("Lifestage"));
        assert_eq!(met("a roomy back pack", &["Roomy Backpack 30L"]).as_deref(), Some("Roomy Backpack"));
        // Both words, side by side, and long enough together.
        assert_eq!(met("life stage", &["Lifestyle stage"]), None);
        assert_eq!(met("in to", &["Into the wild"]), None);
        assert_eq!(met("non stick", &["Pan", "not nonstick"]), None);
    }

    #[test]
    fn a_thing_is_said_by_another_of_its_names() {
        let seal = ["Honda genuine TORQUE DRIVE oil seal", "Motorcycle make", "honda"];
        assert_eq!(met("for honda bikes", &seal).as_deref(), Some("Honda Motorcycle"));
        assert_eq!(
            met("for gas stoves", &["Cookware Set", "Cookware compatibility", "gas range"]).as_deref(),
            Some("gas range")
        );
        assert_eq!(met("for gas stoves", &["Cookware Set", "Cookware compatibility", "induction"]), None);
        assert_eq!(met("for honda bikes", &["Oil seal for Honda cars"]), None);
        assert_eq!(met("made of denim", &["Women's High Waist Straight Jeans"]), None, "a material is no thing's name");
    }

    #[test]
    fn a_count_in_words_is_met_by_its_digits() {
        assert_eq!(met("set of two", &["2Pcs Bright Crystal Hair Claws Clips"]).as_deref(), Some("2"));
        assert_eq!(met("two pockets", &["Cargo Shorts with 2 Pockets"]).as_deref(), Some("2 Pockets"));
        assert_eq!(met("set of two", &["12Pcs Hair Clips"]), None);
        assert_eq!(met("two pockets", &["Cargo Shorts with 4 Pockets"]), None);
        assert_eq!(met("пять штук", &["Набор 5 шт"]).as_deref(), Some("5"));
    }

    #[test]
    fn a_word_is_said_in_a_form_derived_from_it() {
        assert_eq!(met("floral design", &["Blush Press on Nails with Flower Printed"]).as_deref(), Some("Flower"));
        // A product's name asks for the thing itself.
        assert_eq!(met("comes with a charger", &["Phone", "Fast Charge"]), None);
    }

    #[test]
    fn a_possessive_s_and_an_inch_mark_are_read_as_titles_write_them() {
        assert_eq!(met("for Father's Day", &["Fathers day gift garland"]).as_deref(), Some("Fathers day"));
        assert_eq!(met("80 inches", &["TV Wall Mount Bracket For 26\"-80\" Retractable"]).as_deref(), Some("80 inch"));
        assert_eq!(met("for TVs between 26", &["TV Bracket For 26”-80”"]).as_deref(), Some("TV 26"));
        assert_eq!(met("40 inches", &["TV Bracket For 26\"-80\""]), None);
        assert_eq!(met("kid's bike", &["Kids Bike 16 inch"]).as_deref(), Some("Bike"), "no lone s asked");
    }

    #[test]
    fn a_dimension_is_met_however_its_sides_are_typed() {
        // lookalikes3-addon-11's words (datasets/fees): a ShoppingBench title.
        let curtain = ["Dormitory bunk beds bed curtain single blackout shading 120*200CM Complimentary"];
        assert_eq!(met("120x200", &curtain).as_deref(), Some("120x200"));
        assert_eq!(met("120 x 200", &curtain).as_deref(), Some("120x200"));
        assert_eq!(met("120х200", &["Curtain 120 x 200 cm"]).as_deref(), Some("120 x 200"));
        assert_eq!(met("120×200", &["Curtain 120x200cm"]).as_deref(), Some("120x200"));
        assert_eq!(met("120x200", &["Curtain 200x150 cm, 120 hooks"]), None, "its sides elsewhere are no dimension");
        assert_eq!(met("200x120", &curtain), None, "the sides in another order");
        assert_eq!(met("200 cm", &curtain).as_deref(), Some("120x200 CM"), "a side is still a word");
    }

    #[test]
    fn a_term_is_met_in_another_language_by_its_unit() {
        let pajama = ["Carter’s 4-Piece Pajama Set - Anchors & Crabs (12 months)"];
        assert_eq!(met("на 12 месяцев", &pajama).as_deref(), Some("12 months"));
        assert_eq!(met("12 month", &pajama).as_deref(), Some("12 months"));
        assert_eq!(met("на 18 месяцев", &pajama), None);
        assert_eq!(met("2 года", &["Extended Warranty - 2 Years"]).as_deref(), Some("2 Years"));
        assert_eq!(met("на 60 страниц", &["Notebook, 60 pages"]).as_deref(), Some("60 pages"));
    }

    #[test]
    fn a_bound_is_met_where_the_item_states_the_very_measure() {
        let watch = ["Women's Watch", "Watch dial size", "under 25 mm", "Water resistant", "3 m"];
        assert_eq!(met("dial smaller than 25mm", &watch).as_deref(), Some("25 mm dial"));
        assert_eq!(met("water resistance up to 3 meters", &watch).as_deref(), Some("3 m Water resistant"));
        assert_eq!(met("dial smaller than 20mm", &watch), None);
        let curtain = ["Shower Curtain", "Curtain length", "160cm - 300cm"];
        assert_eq!(met("length between 160cm and 300cm", &curtain).as_deref(), Some("160 cm 300 cm length"));
    }

    #[test]
    fn a_range_the_item_states_holds_a_measure_asked_as_a_value() {
        let dress = ["Halloween costume dress 6months-4yrs old"];
        assert_eq!(met("2 year old", &dress).as_deref(), Some("6months-4yrs"));
        assert_eq!(met("5 year old", &dress), None);
        let adapter = PreparedTexts::new(ItemTexts {
            free: vec!["Lamp Bulb Adapter"],
            named: vec![("Power consumption", "1-500")],
        });
        let quote = |requirement: &str| said_in(requirement, &adapter).map(|said| said.quote);
        assert_eq!(quote("500 watts").as_deref(), Some("Power consumption: 1-500"));
        // A bound is not a value: "over 400 W" may be any of the range.
        assert_eq!(quote("over 400 watts"), None);
        assert_eq!(met("at least 2 years", &dress), None);
    }

    #[test]
    fn an_adjective_word_net_says_is_alike_meets_it() {
        assert_eq!(met("simple pattern", &["Leather Belt", "Pattern", "plain"]).as_deref(), Some("plain"));
        assert_eq!(met("with a simple design", &["Short Wallet", "Pattern", "plain"]).as_deref(), Some("plain"));
        assert_eq!(met("simple pattern", &["Leather Belt", "Pattern", "floral"]), None);
    }

    #[test]
    fn a_word_that_names_the_property_asks_only_its_value() {
        assert_eq!(
            met("with a comfort fragrance", &["Fabric Conditioner", "Scent", "comfort"]).as_deref(),
            Some("comfort")
        );
        assert_eq!(met("cream formula", &["Body Lotion", "Formulation", "cream"]).as_deref(), Some("cream"));
        assert_eq!(
            met("in capsule form", &["Booster", "Formulation supplement", "capsules"]).as_deref(),
            Some("capsules")
        );
        assert_eq!(met("slip-on closure", &["Flat Sandals", "Shoes closuretype", "slip-on"]).as_deref(), Some("slip"));
        assert_eq!(met("lavender scent", &["Fabric Conditioner", "Scent", "comfort"]), None);
        assert_eq!(
            met("made from geena fabric", &["Floral Midi Dress", "Clothing material", "geena"]).as_deref(),
            Some("geena")
        );
        assert_eq!(met("формат A4", &["Customized Workbook A4 size"]).as_deref(), Some("A4"));
        assert_eq!(
            met("quad core processor", &["Fire HD 8 Kids Tablet, Quad-Core, 32 GB"]).as_deref(),
            Some("Quad Core")
        );
        assert_eq!(met("made from denim fabric", &["Straight Jeans", "Material", "cotton"]), None);
    }

    #[test]
    fn a_requirement_of_no_content_word_and_no_number_is_a_fragment() {
        for fragment in [
            "weighing up",
            "featuring a",
            "capability",
            "no specific",
            "shade",
            "fits all",
            "up",
            "another",
            "stored",
            "capacity",
        ] {
            assert!(is_fragment(fragment), "{fragment}");
        }
        for requirement in ["simple pattern", "27 cm", "no sugar", "waterproof capability", "без сахара", "large"]
        {
            assert!(!is_fragment(requirement), "{requirement}");
        }
        assert_eq!(met("featuring a plain look", &["Belt", "Pattern", "plain"]).as_deref(), Some("plain"));
        let serum = ["Retinol Serum", "Skin concern", "post-acne marks", "Fragrance", "white sage"];
        assert_eq!(met("targets post-acne marks", &serum).as_deref(), Some("post acne marks"));
        assert_eq!(met("white sage aroma", &serum).as_deref(), Some("white sage"));
        assert!(!is_fragment("fragrance-free"), "a scent's own words stay content words");
    }

    #[test]
    fn a_service_is_met_only_by_the_same_service_in_the_item() {
        let offer = ["Speed Wooden Sword Stand", "Shop services", "LazMall, Cash on Delivery"];
        assert_eq!(met("available through LazMall", &offer).as_deref(), Some("LazMall"));
        assert_eq!(met("supports COD", &offer).as_deref(), Some("Cash on Delivery"));
        assert_eq!(met("LazMall perks like guaranteed authenticity", &offer).as_deref(), Some("LazMall"));
        assert_eq!(met("LazFlash deals", &offer), None, "another service");
        assert_eq!(met("LazMall benefits and a wooden frame", &offer), None, "a word of its own the item lacks");
        assert_eq!(met("cash on delivery", &["Cash Register on Delivery Truck"]), None);
        assert_eq!(met("LazMall perks like fast shipping", &offer).as_deref(), Some("LazMall"), "an example of a perk");
        assert_eq!(met("LazMall perks like fast shipping", &["Speed Wooden Sword Stand"]), None, "the service still");
        // What a promotion is called beside its name asks nothing more.
        let flash = ["Pet Bed Red", "Shop services", "LazFlash"];
        assert_eq!(met("LazFlash limited-time deals", &flash).as_deref(), Some("LazFlash"));
        assert_eq!(met("currently on a special LazFlash deal", &flash).as_deref(), Some("LazFlash"));
        assert_eq!(met("payment by cash upon delivery", &offer).as_deref(), Some("Cash on Delivery"));
        assert_eq!(met("LazFlash limited-time deals", &offer), None, "another service");
    }

    #[test]
    fn a_word_the_item_says_it_is_not_never_meets_it() {
        let read = |requirement: &str, named: &[(&str, &str)]| {
            said_in(requirement, &PreparedTexts::new(ItemTexts { free: vec!["Luggage Set"], named: named.to_vec() }))
        };
        assert_eq!(read("expandable", &[("Expandable", "not expandable")]), None);
        assert!(read("without a frame", &[("Size", "40x50cm no frame")]).is_some(), "the article asks nothing");
        assert_eq!(read("without a frame", &[("Size", "40x50cm with frame")]), None);
        assert!(read("no brand xx", &[("Brand", "no brand xx")]).is_some(), "a name said whole (sbmulti-080)");
        assert!(restates_product("the pet treats", "jar-form pet treat"));
        assert!(!restates_product("for cats", "cat food") && !restates_product("jar", "jar-form pet treat"));
        // sbmulti-107: "in the 'no.1' color family".
        assert!(read("no.1 ' color family", &[("Color family", "no.1")]).is_some(), "a number's sign");
        assert_eq!(read("no.1 ' color family", &[("Color family", "1pc")]), None);
        assert_eq!(read("no.1", &[("Pack", "1")]), None);
        assert_eq!(read("no brand xx", &[("Brand", "xx")]), None);
        assert!(read("non-sticky type", &[("Glue", "non-adhesive")]).is_some(), "an adjective alike");
        assert_eq!(read("non-sticky type", &[("Glue", "adhesive")]), None);
        assert_eq!(read("waterproof", &[("Waterproof", "no")]), None);
        assert!(read("waterproof", &[("Waterproof", "yes")]).is_some());
        assert!(read("free shipping", &[("Shop services", "Free Shipping")]).is_some());
        assert_eq!(met("battery", &["Solar welding mask, no battery required"]), None);
        assert_eq!(met("slip", &["Anti slip mat"]), None);
    }

    #[test]
    fn a_compound_is_met_by_its_two_words_side_by_side() {
        assert_eq!(
            met("freshwater fish", &["fish food for goldfish and all fresh water fish"]).as_deref(),
            Some("fresh water fish"),
            "sbbudget-063"
        );
        assert_eq!(met("freshwater", &["fresh", "water"]), None, "not across two texts");
        assert_eq!(met("freshwater", &["not fresh water"]), None, "not where the item says it is not");
        assert_eq!(met("into", &["in to"]), None, "a short word never meets by chance");
    }

    #[test]
    fn a_word_the_item_does_not_say_leaves_it_unmet() {
        assert_eq!(met("made of denim", &["Women's High Waist Straight Jeans"]), None);
        assert_eq!(met("65W", &["USB-C charger 45W"]), None);
        assert_eq!(met("5L", &["Water bottle 1.5L"]), None);
        assert_eq!(met("1,5 л", &["Бутылка 1.5 л"]).as_deref(), Some("1.5 л"));
        assert_eq!(met("4 литра", &["Масло моторное 5W-30 синтетическое 4 л"]).as_deref(), Some("4 л"));
        assert_eq!(met("500 grams", &["Coffee beans 500g"]).as_deref(), Some("500 g"));
        assert_eq!(met("4 литра", &["Масло моторное 5W-30 1 л"]), None);
        assert_eq!(met("of", &["Bag of chips"]), None, "no content word: nothing to meet");
    }

    #[test]
    fn a_negation_is_never_read_as_the_thing_itself() {
        assert_eq!(met("no sugar", &["Sugar Cookies"]), None);
        assert_eq!(met("without parabens", &["Shampoo with parabens"]), None);
        assert_eq!(met("paraben-free", &["Shampoo, contains parabens, free shipping"]), None);
        assert_eq!(met("paraben-free", &["Paraben-Free Shampoo"]).as_deref(), Some("Paraben Free"));
        assert_eq!(met("без сахара", &["Печенье с сахаром"]), None);
        assert_eq!(met("без сахара", &["Печенье без сахара"]).as_deref(), Some("без сахара"));
        // One negation before the words stands for another.
        assert_eq!(met("without stones", &["Hair Brush", "Main stone", "no stones"]).as_deref(), Some("no stones"));
        assert_eq!(met("non-slip", &["Badminton Grip Anti-slip Sweat-absorbent"]).as_deref(), Some("Anti slip"));
        assert_eq!(met("without stones", &["Hair Brush with stones"]), None);
        assert_eq!(met("sugar-free", &["Cookies, no sugar"]), None, "free stands only for itself");
    }
}
