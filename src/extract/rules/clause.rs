//! Nothing said vanishes: every word of a request is read into a fact, kept
//! as a free-text requirement (`other` / `other_optional`), named as the
//! product itself, or dismissed as filler from the lists below; and
//! [`ClauseReading`] shows, per clause, what each part became.
//!
//! The words no rule read are cut into segments at clause ends and at the
//! words that start a condition ("with", "that", "which", "made", "for",
//! "and", "without"). A segment's words that are not filler are a
//! requirement in the person's words ("with a glass shade" → "glass shade"),
//! so a condition the parser cannot read ("no nuts (allergy!!)") is put to
//! the person instead of being dropped. The first segment that says anything
//! names the product ("some binoculars", "long sleeved pajamas"): that is
//! what the agent searches for, not a condition the guard can check, and a
//! requirement for it would ask the person about every cart; its known
//! properties and measures are still requirements (read by `requirement`).
//! Of several products ("a shop that offers both …"), every segment is a
//! requirement: the facts cannot say which product a colour belongs to.
//!
//! Filler is a closed, documented list: the words of asking ("I'm looking
//! for", "please", "can you find me"), pronouns, articles and other function
//! words, the markers other rules read ("ideally", "must be", "budget"),
//! words that only name a fact's kind ("size", "color"), whom or where the
//! item is for ("for my living room", "for adults", "for party"), and a
//! voucher's rules after a budget.

use crate::words::class::ATTACHING_WORDS;
use crate::words::class::MarkedWords;
use std::sync::LazyLock;

use super::requirement::Requirement;
use crate::facts::FactKey;
use crate::words::class::{REQUIREMENT_WORDS, phrase_list};
use crate::words::is_filler;
use crate::words::text::{Request, TokenKind};

/// Whom or where an item is for: a "for …" segment of only these is filler
/// ("for my living room", "for adults", "for party or formal wear").
static FOR_WHOM: LazyLock<MarkedWords> = LazyLock::new(|| REQUIREMENT_WORDS.marked_words("for-whom"));

/// Words that keep a condition's sense when they lead it ("no nuts",
/// "without a handle", "не древесный"): part of the requirement's text,
/// never a requirement alone.
fn is_negation(word: &str) -> bool {
    crate::words::negation::is_requirement_negation(word)
}

/// Words that compare an amount ("over 98 pesos"): with a number they are a
/// condition, never the product.
pub(super) fn is_comparison(word: &str) -> bool {
    crate::words::class::SEGMENT_WORDS.has_mark(word, "comparison")
}

/// Words that start a new segment: a condition follows them.
fn starts_segment(word: &str) -> bool {
    crate::words::class::SEGMENT_WORDS.has_mark(word, "starts-segment")
}

/// What one part of a request became.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Became {
    /// Read into this fact field (`brand`, `color_not`, `deadline_days`, …).
    Fact(FactKey),
    /// Kept as a must-have free-text requirement.
    Other,
    /// Kept as a nice-to-have.
    OtherOptional,
    /// The product asked for: what the agent searches, not a condition.
    Product,
    /// Dismissed as filler (documented in `extractors/words/fillers.txt`).
    Filler,
}

impl Became {
    /// The name shown for this outcome: a field name, `other`,
    /// `other_optional`, `product` or `filler`.
    pub fn as_str(self) -> &'static str {
        match self {
            Became::Fact(field) => field.as_str(),
            Became::Other => FactKey::Other.as_str(),
            Became::OtherOptional => FactKey::OtherOptional.as_str(),
            Became::Product => FactKey::Product.as_str(),
            Became::Filler => "filler",
        }
    }
}

/// A run of words of one clause with one outcome.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Part {
    pub text: String,
    pub became: Became,
}

/// One clause of the request and what its parts became.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClauseReading {
    pub text: String,
    pub parts: Vec<Part>,
}

/// The index of the first token of a voucher's rules ("but I have a voucher
/// with the following rules: …"), which are the terms of a discount.
pub fn voucher_start(request: &Request) -> Option<usize> {
    let at = (0..request.len()).find(|index| request.word(*index) == "voucher")?;
    let mut start = at;
    while start > 0 && request.same_clause(start - 1, at) {
        start -= 1;
    }
    Some(start)
}

/// Words that join the numbers of a dimension ("46 x 16 x 25", "50 на 70").
const DIMENSION_JOINERS: [&str; 4] = ["x", "×", "by", "на"];

/// The words of a request no rule read: `unread[i]` says no fact holds
/// token `i` and no rule read it without keeping it; `taken[i]` that another
/// requirement holds it. Nothing from a voucher's rules on is read.
struct Unread<'r> {
    request: &'r Request,
    unread: &'r [bool],
    taken: &'r [bool],
    voucher: usize,
}

impl Unread<'_> {
    /// A word no rule read and no requirement holds, before any voucher.
    fn free(&self, index: usize) -> bool {
        index < self.voucher
            && self.request.is_word(index)
            && self.unread.get(index).copied().unwrap_or(false)
            && !self.taken.get(index).copied().unwrap_or(false)
    }

    /// A free number no rule read ("13" of "iphone 13 case").
    fn bare_number(&self, index: usize) -> bool {
        let word = self.request.word(index);
        self.free(index)
            && !self.request.is_consumed(index)
            && !word.is_empty()
            && word.chars().all(|c| c.is_ascii_digit())
    }

    /// A free word that can carry a condition. A number alone ("(1)",
    /// "`75`") is no condition; it joins one.
    fn content(&self, index: usize) -> bool {
        let word = self.request.word(index);
        self.free(index)
            && !is_filler(word)
            && !is_negation(word)
            && !word.chars().all(|c| c.is_ascii_digit())
            && crate::words::text::number_word(word).is_none()
    }
}

/// The requirements in the words no rule read, and the spans that name the
/// product. `unread[i]` says no fact holds token `i` and no rule read it
/// without keeping it; `taken[i]` that another requirement holds it.
pub fn residual(
    request: &Request,
    unread: &[bool],
    taken: &[bool],
    several: bool,
) -> (Vec<Requirement>, Vec<(usize, usize)>) {
    let voucher = voucher_start(request).unwrap_or(usize::MAX);
    let words = Unread { request, unread, taken, voucher };
    let cyrillic = request.is_cyrillic();
    let mut found: Vec<Requirement> = Vec::new();
    let mut product: Vec<(usize, usize)> = Vec::new();
    for (first, last) in segments(&words, several) {
        let content: Vec<usize> = (first..=last).filter(|index| words.content(*index)).collect();
        let (Some(&head), Some(&tail)) = (content.first(), content.last()) else { continue };
        // "for my living room", "for adults", "на подарок": whom or where,
        // not a condition.
        if content.iter().all(|index| FOR_WHOM.contains(&request.word(*index))) {
            continue;
        }
        // "above $200 is fine", "премиум не нужен", "doesn't have to be
        // fast": a tolerance or a waived wish states no condition; nor does
        // a reason or a story ("because I haven't demoed it yet", "she
        // already has one", "we're running a race on Sunday").
        if tolerated_or_waived(request, first, last) || tells_a_story(request, first) {
            continue;
        }
        let start = condition_start(&words, first, head);
        // A condition the rules read without a fact ("over 98 pesos") or a
        // negated one ("no nuts") is never the product.
        let unread_words: Vec<usize> = content.iter().copied().filter(|index| !request.is_consumed(*index)).collect();
        let names_product =
            unread_words.iter().any(|index| !is_comparison(request.word(*index))) && !is_negation(request.word(start));
        if !several && names_product && product.is_empty() && found.iter().all(|known| known.start > start) {
            read_product(&words, (first, last), &content, &unread_words, cyrillic, &mut found, &mut product);
            continue;
        }
        let end = condition_end(&words, (start, tail, last), several);
        if content.iter().any(|index| *index >= start && *index <= end) {
            found.push(Requirement { text: request.original(start, end), start, end });
        }
        // What lies past that token is read again as its own span.
        let rest: Vec<usize> = content.iter().copied().filter(|index| *index > end).collect();
        if let (Some(&again), Some(&again_tail)) = (rest.first(), rest.last()) {
            let mut stop = again;
            for index in again..=again_tail {
                if !words.free(index) && request.is_word(index) {
                    break;
                }
                stop = index;
            }
            found.push(Requirement { text: request.original(again, stop), start: again, end: stop });
        }
    }
    (found, product)
}

/// Whether the requirement from `start` to `end` names a service and then
/// lists what it offers ("LazMall benefits like guaranteed authenticity",
/// "LazMall perks such as …"): the list that follows gives examples.
fn lists_perks(request: &Request, start: usize, end: usize) -> bool {
    let words: Vec<&str> = (start..=end).map(|index| request.word(index)).collect();
    let Some((first, _)) = crate::words::service::named(&words).into_iter().next() else {
        return false;
    };
    words[first.end..].iter().any(|word| crate::words::class::SHOP_SERVICES.has_mark(word, "examples"))
}

/// Drops the members of a perk list that name no service of their own:
/// in "with LazMall benefits like guaranteed authenticity, easy returns,
/// fast shipping, and also support cash on delivery", "fast shipping"
/// describes what LazMall offers, as "easy returns" does, and asks
/// nothing the service does not; a member that names a service stays a
/// requirement, and "also" opens a wish of its own, which ends the list.
///
/// The musts and the nice-to-haves are read together (each sorted by its
/// first token): "preferably with LazMall perks like authenticity
/// guarantee, fast shipping" opens the list as a nice-to-have and its
/// members follow as musts.
///
/// So too the words that only dress a service, cut from it by "for" or
/// "and" ("available on LazFlash for special deals", "LazMall and LazFlash
/// services for extra perks and deals"): a requirement right after one
/// that names a service, made of perk words and "for" alone, is that
/// service's, which the item's words are asked for already.
pub fn drop_perk_examples(request: &Request, musts: &mut Vec<Requirement>, optional: &mut Vec<Requirement>) {
    let mut all: Vec<(Requirement, bool)> =
        musts.drain(..).map(|must| (must, false)).chain(optional.drain(..).map(|wish| (wish, true))).collect();
    all.sort_by_key(|(requirement, _)| requirement.start);
    let mut list_end: Option<usize> = None;
    let mut service_end: Option<usize> = None;
    for (requirement, is_optional) in all {
        let next_to = |end: Option<usize>| {
            end.is_some_and(|end| {
                (end + 1..requirement.start).all(|index| matches!(request.word(index), "," | "and" | "&"))
            })
        };
        let member =
            next_to(list_end) && request.word(requirement.start) != "also" && requirement.end - requirement.start < 4;
        let words: Vec<&str> = (requirement.start..=requirement.end).map(|index| request.word(index)).collect();
        let names_service = !crate::words::service::named(&words).is_empty();
        if next_to(service_end) && dresses_a_service(&words) {
            service_end = Some(requirement.end);
            continue;
        }
        service_end = names_service.then_some(requirement.end);
        if member && !names_service {
            list_end = Some(requirement.end);
            continue;
        }
        list_end = if member || lists_perks(request, requirement.start, requirement.end) {
            Some(requirement.end)
        } else {
            None
        };
        if is_optional { optional.push(requirement) } else { musts.push(requirement) }
    }
}

/// Whether a requirement's words only dress a service: perk words
/// ("special deals", "extra perks", "discounts"), with "for" or "and"
/// between, and nothing else.
fn dresses_a_service(words: &[&str]) -> bool {
    words.iter().any(|word| crate::words::service::is_perk(word))
        && words.iter().all(|word| crate::words::service::is_perk(word) || matches!(*word, "for" | "and" | "&" | ","))
}

/// Whether the rest of the clause after `index` ("and" or "и") is an
/// add-on ("and a protection plan", issue 29): it is then no part of the
/// product before it, as after "with".
///
/// `next_addon_word` (filled on first use, once per request) holds, for
/// each token, the first word at or after it that could begin an add-on
/// (`charges::may_begin_addon`): a rest of clause without one is no add-on,
/// so a long clause of "and"s is not read again for each.
fn addon_follows(request: &Request, index: usize, next_addon_word: &mut Option<Vec<usize>>) -> bool {
    let next = next_addon_word.get_or_insert_with(|| {
        let mut next = vec![request.len(); request.len() + 1];
        for at in (0..request.len()).rev() {
            let begins = request.is_word(at) && crate::words::charges::may_begin_addon(request.word(at));
            next[at] = if begins { at } else { next[at + 1] };
        }
        next
    });
    let first = next.get(index + 1).copied().unwrap_or(request.len());
    if first >= request.len() || !request.same_clause(index, first) {
        return false;
    }
    let rest: Vec<&str> = (index + 1..request.len())
        .take_while(|at| request.same_clause(index, *at))
        .filter(|at| request.is_word(*at))
        .map(|at| request.word(at))
        .skip_while(|word| is_filler(word))
        .collect();
    !rest.is_empty() && crate::words::charges::addon(&rest.join(" ")).is_some()
}

/// The request cut into segments, each a run of one clause up to a
/// connector ("with", "but", …), before any voucher.
fn segments(words: &Unread<'_>, several: bool) -> Vec<(usize, usize)> {
    let request = words.request;
    let mut segments: Vec<(usize, usize)> = Vec::new();
    let mut start: Option<usize> = None;
    // Until a connector other than "and" closes it, the first thing said is
    // one product ("sweatpants and short pants").
    let mut product_open = true;
    let mut seen_content = false;
    let mut next_addon_word: Option<Vec<usize>> = None;
    for index in 0..request.len().min(words.voucher) {
        let word = request.word(index);
        let new_clause = start.is_some_and(|first| !request.same_clause(first, index));
        // Of several products, each clause is one product's conditions:
        // splitting it would part a condition from its product.
        // "free from animal testing" is one condition, started by "free".
        let free_from = word == "free" && request.word(index + 1) == "from";
        let after_free = word == "from" && request.word_before(index, 1) == "free";
        let connector = !several
            && request.is_word(index)
            && (starts_segment(word) || free_from)
            && !crate::words::service::within_a_service(request, index)
            && !after_free
            && !(word == "and" && product_open && !addon_follows(request, index, &mut next_addon_word))
            && !(matches!(word, "and" | "in") && request.word(index + 1).starts_with(|c: char| c.is_ascii_digit()));
        if new_clause || connector {
            if seen_content {
                product_open = false;
            }
            if let Some(first) = start.take() {
                segments.push((first, index - 1));
            }
        }
        if words.content(index) {
            seen_content = true;
        }
        if request.is_word(index) && start.is_none() {
            start = Some(index);
        }
    }
    if let Some(first) = start {
        segments.push((first, request.len().min(words.voucher).saturating_sub(1)));
    }
    segments
}

/// Where the condition whose first content word is `head` starts, no
/// earlier than `first`, the segment's start.
fn condition_start(words: &Unread<'_>, first: usize, head: usize) -> usize {
    let request = words.request;
    // A leading negation stays with its condition ("no nuts"), and so
    // does the word that says how it relates ("from LazMall", "for my
    // blu ray player", "made of cotton").
    let mut start = head;
    loop {
        if start > first
            && words.free(start - 1)
            && (is_negation(request.word(start - 1))
                || ATTACHING_WORDS.has_mark(request.word(start - 1), "before-condition"))
        {
            start -= 1;
        } else if start > first + 1
            && words.free(start - 1)
            && words.free(start - 2)
            && is_filler(request.word(start - 1))
            && is_negation(request.word(start - 2))
        {
            // "without a frame": past the article, the negation still
            // says the condition is an absence.
            start -= 2;
        } else {
            break;
        }
    }
    if matches!(request.word(start), "of" | "an") {
        start += 1;
    }
    // "50 bucks", "$25": the amount before its word stays with it.
    while start > first
        && words.free(start - 1)
        && request.word(start - 1).starts_with(|character: char| character.is_ascii_digit())
    {
        start -= 1;
    }
    start
}

/// The first thing said names the product: its words are the product's
/// span, and what the rules read without a fact ("a $25 gift card") or, in
/// Russian, the adjectives after its noun stay requirements.
fn read_product(
    words: &Unread<'_>,
    (first, last): (usize, usize),
    content: &[usize],
    unread_words: &[usize],
    cyrillic: bool,
    found: &mut Vec<Requirement>,
    product: &mut Vec<(usize, usize)>,
) {
    let request = words.request;
    // In Russian, adjectives after its noun describe it ("пуховик женский",
    // "самокат детский трехколесный"): those are requirements.
    let noun = content.iter().copied().find(|index| !is_russian_adjective(request.word(*index)));
    let describing: Vec<usize> = match noun {
        Some(noun) if cyrillic => content
            .iter()
            .copied()
            .filter(|index| *index > noun && is_russian_adjective(request.word(*index)))
            .collect(),
        _ => Vec::new(),
    };
    let mut product_words: Vec<usize> =
        unread_words.iter().copied().filter(|index| !describing.contains(index)).collect();
    // "iphone 13 case", "Toyota Corolla 2015 floor mats", "nike air max 90":
    // a number no rule read, right after one of the product's words, is
    // part of its name (a model, a generation, a year). Left out, it parts
    // the noun from the words before it, and the product read is "iphone".
    // A number before them all ("500 bubble mailers") may be a count no rule
    // took, and a measure ("кабель 2 метра", "ребенку 5 лет"), a dimension
    // ("46 x 16 x 25 vanities", "подушки 50 на 70") or an amount compared
    // ("a tent under 200") is said of the product, not its name: they stay
    // out.
    let between: Vec<usize> = (first + 1..=last)
        .filter(|at| {
            let (before, next) = (request.word(at - 1), request.word(at + 1));
            let measure = crate::words::count::is_not_counted(next) && !next.is_empty() && !is_filler(next);
            let dimension = DIMENSION_JOINERS.contains(&before) || DIMENSION_JOINERS.contains(&next);
            // "nike air max 90": a comparison word that ends names too.
            let compared = is_comparison(before) && !crate::words::class::SEGMENT_WORDS.has_mark(before, "in-names");
            words.bare_number(*at) && product_words.contains(&(at - 1)) && !measure && !dimension && !compared
        })
        .collect();
    product_words.extend(between);
    product_words.sort_unstable();
    // Words a rule read without a fact stay requirements ("a $25 gift card").
    let read_words: Vec<usize> =
        (first..=last).filter(|index| words.free(*index) && request.is_consumed(*index)).collect();
    for (run_start, run_end) in runs(&read_words) {
        let sign = run_start > 0 && crate::words::money::currency_of(request.word(run_start - 1)).is_some();
        let run_start = if sign { run_start - 1 } else { run_start };
        found.push(Requirement { text: request.original(run_start, run_end), start: run_start, end: run_end });
    }
    // "an alloy chain ring sized 38t", "a backpack that's not
    // water-resistant": the product's words come first; a later run of them
    // is said of it, a requirement in the person's words with the negation
    // before it, not lost for want of one product phrase.
    // Of several runs, the product is the first that holds a product noun
    // ("a plastic waterproof toothbrush holder": not "plastic"; "a hair
    // clip or pin": the clip, as the segment's other words are said of it).
    let product_runs = joined_over_whom(request, runs(&product_words));
    let names_a_product = |(start, end): (usize, usize)| {
        (start..=end).any(|at| {
            let word = request.word(at);
            crate::words::noun::is_product_noun(word) || crate::words::product::lexicon().is_product_word(word)
        })
    };
    // Where no run names a product ("… please (after the junk)"), which of
    // them is the product is not read: all stay the product's words, and
    // several name no one product, as before.
    // "sized 38t", "that's not water-resistant": a run with a number, or
    // negated, states a property.
    let negated_from = |start: usize| (first..start).rev().take_while(|at| is_negation(request.word(*at))).last();
    let states_a_property = |(start, end): (usize, usize)| {
        negated_from(start).is_some()
            || (start..=end).any(|at| request.word(at).chars().any(|character| character.is_ascii_digit()))
    };
    let named = product_runs.iter().position(|run| names_a_product(*run));
    // Where no run names a product, the first is the product only if each
    // later one states a property ("an alloy chain ring sized 38t"); else
    // ("… please (after the junk)") which is the product is not read: all
    // stay the product's words, and several name no one product, as before.
    // A run that names a product is never a requirement of another.
    let chosen = named.or_else(|| product_runs.iter().skip(1).all(|run| states_a_property(*run)).then_some(0));
    // "a full version of the Noli Me Tangere novel": runs parted only by
    // "of" ("of the") or by a filler written with a capital inside a name
    // ("Me") are one phrase, the product; read as several, no one of them
    // was, and the name was lost.
    let joins_a_name = |gap: std::ops::Range<usize>| {
        let words: Vec<&str> = gap.clone().map(|at| request.word(at)).collect();
        let of = matches!(words.as_slice(), ["of"] | ["of", "the"]);
        let capitalised = gap.clone().all(|at| {
            request.is_word(at)
                && is_filler(request.word(at))
                && request.original(at, at).starts_with(|character: char| character.is_uppercase())
        });
        !words.is_empty() && (of || capitalised)
    };
    let one_name = product_runs.len() > 1 && product_runs.windows(2).all(|pair| joins_a_name(pair[0].1 + 1..pair[1].0));
    match chosen {
        None if one_name => {
            let (start, end) = (product_runs[0].0, product_runs[product_runs.len() - 1].1);
            product.push((start, end));
        }
        None => product.extend(product_runs),
        Some(chosen) => {
            product.push(product_runs[chosen]);
            // Runs before the product ("my sister", "yo u", a name's first
            // words) are seldom said of it, and a later run that states no
            // property ("… rn", "… (after the junk)", "… breakfast cereal")
            // may be anything: both stay unread, as before.
            for &(start, end) in
                product_runs.iter().skip(chosen + 1).filter(|run| states_a_property(**run) && !names_a_product(**run))
            {
                let start = negated_from(start).unwrap_or(start);
                found.push(Requirement { text: request.original(start, end), start, end });
            }
        }
    }
    for run in runs(&describing) {
        found.push(Requirement { text: request.original(run.0, run.1), start: run.0, end: run.1 });
    }
}

/// Where the condition from `start` ends: at a token another rule read, so
/// one requirement does not swallow a fact or another requirement; a number
/// or an amount right after stays with it ("style 2", "over 98 pesos").
fn condition_end(words: &Unread<'_>, (start, tail, last): (usize, usize, usize), several: bool) -> usize {
    let request = words.request;
    let mut end = start;
    for index in start..=tail {
        if !words.free(index) && request.is_word(index) {
            break;
        }
        end = index;
    }
    while end < last
        && words.free(end + 1)
        && (request.word(end + 1).starts_with(|c: char| c.is_ascii_digit())
            || crate::words::money::currency_of(request.word(end + 1)).is_some())
    {
        end += 1;
    }
    if end < last && !request.is_word(end + 1) && crate::words::money::currency_of(request.word(end + 1)).is_some() {
        end += 1;
        while end < last && words.free(end + 1) && request.word(end + 1).starts_with(|c: char| c.is_ascii_digit()) {
            end += 1;
        }
    }
    // Of several products, a size or a count said last stays with its
    // product ("black jeans size 32", "перчатки 7 размера"): nothing a
    // dropped fact held may vanish.
    if several {
        let mut at = end + 1;
        while at <= last && words.free(at) {
            let word = request.word(at);
            if word.starts_with(|c: char| c.is_ascii_digit()) || is_size_or_colour_cue(word) {
                end = at;
            }
            at += 1;
        }
    }
    end
}

/// Words that say a size or a colour after its value ("size 32", "7
/// размера", "black colour").
fn is_size_or_colour_cue(word: &str) -> bool {
    crate::words::class::SEGMENT_WORDS.has_mark(word, "size-or-colour-cue") || crate::words::colour::is_colour(word)
}

/// Whether the segment `first..=last` is only tolerated ("is fine", "ok")
/// or waived ("не нужен", "not required", "doesn't have to be").
fn tolerated_or_waived(request: &Request, first: usize, last: usize) -> bool {
    static MARKS: LazyLock<Vec<&[&str]>> = phrase_list!(REQUIREMENT_WORDS, "tolerated");
    let waived =
        (first..=last).any(|index| super::requirement::is_waived(request, index) && request.word(index) == "have");
    waived || (first..=last + 2).any(|index| MARKS.iter().any(|mark| request.phrase_at(index, mark)))
}

/// Whether the clause of `index` gives a reason or tells what happens
/// rather than what the item must be: it opens with "because", "since", "as",
/// "потому что", "так как", or with a person as subject and a verb that is not
/// one of asking or having ("we're running a race", "she already has one"
/// is kept out by "has": "i have wide feet" may be a condition).
fn tells_a_story(request: &Request, index: usize) -> bool {
    let mut start = index;
    while start > 0 && request.same_clause(start - 1, index) {
        start -= 1;
    }
    while start < request.len() && !request.is_word(start) {
        start += 1;
    }
    let first = request.word(start);
    let second = request.word(start + 1);
    if crate::words::class::SEGMENT_WORDS.has_mark(first, "reason")
        || request.phrase_at(start, &["потому", "что"])
        || request.phrase_at(start, &["in", "case"])
    {
        return true;
    }
    if request.phrase_at(start, &["так", "как"]) {
        return true;
    }
    let subject = crate::words::class::SEGMENT_WORDS.has_mark(first, "subject");
    let asking_or_having = crate::words::class::SEGMENT_WORDS.has_mark(second, "asking-or-having")
        || second.starts_with("look")
        || second.starts_with("search");
    subject && !asking_or_having
}

/// A Russian adjective in its long form ("женский", "трехколесный").
fn is_russian_adjective(word: &str) -> bool {
    word.chars().next().is_some_and(|character| ('\u{0400}'..='\u{04FF}').contains(&character))
        && word.chars().count() > 3
        && ["ый", "ий", "ой", "ая", "яя", "ое", "ее", "ые", "ие", "ую", "юю", "ого", "его", "ых", "их"]
            .iter()
            .any(|ending| word.ends_with(ending))
}

/// Joins product runs parted only by words that say whom the product is
/// for ("an animal-themed kids outfit", "a leather men's belt") or by one
/// "of", "&" or "and" ("a small book of recipes", "a diffuser & sticks"):
/// one phrase names one product, and a product read as two runs would name
/// none (of several products, the segments were cut before this).
fn joined_over_whom(request: &Request, runs: Vec<(usize, usize)>) -> Vec<(usize, usize)> {
    let mut joined: Vec<(usize, usize)> = Vec::with_capacity(runs.len());
    for (start, end) in runs {
        let of = |last_end: usize| start == last_end + 2 && matches!(request.word(last_end + 1), "of" | "&" | "and");
        match joined.last_mut() {
            Some((_, last_end))
                if of(*last_end)
                    || (*last_end + 1..start).all(|at| {
                        request.same_clause(*last_end, at)
                            && crate::words::class::FILLERS.has_mark(request.word(at), "whom")
                    }) =>
            {
                *last_end = end;
            }
            _ => joined.push((start, end)),
        }
    }
    joined
}

/// Consecutive runs in a sorted list of token indices.
fn runs(indices: &[usize]) -> Vec<(usize, usize)> {
    let mut found: Vec<(usize, usize)> = Vec::new();
    for &index in indices {
        match found.last_mut() {
            Some((_, end)) if *end + 1 == index => *end = index,
            _ => found.push((index, index)),
        }
    }
    found
}

/// Groups token outcomes into clauses and parts. Punctuation is skipped;
/// every word has an outcome.
pub fn report(request: &Request, outcomes: &[Became]) -> Vec<ClauseReading> {
    let mut clauses: Vec<ClauseReading> = Vec::new();
    let mut clause_tokens: Vec<usize> = Vec::new();
    let flush = |clause_tokens: &mut Vec<usize>, clauses: &mut Vec<ClauseReading>| {
        let (Some(&first), Some(&last)) = (clause_tokens.first(), clause_tokens.last()) else { return };
        let mut parts: Vec<Part> = Vec::new();
        let mut run: Option<(usize, usize, Became)> = None;
        for &index in clause_tokens.iter() {
            let became = outcomes.get(index).copied().unwrap_or(Became::Filler);
            match run {
                Some((start, _, current)) if current == became => run = Some((start, index, current)),
                Some((start, end, current)) => {
                    parts.push(Part { text: request.original(start, end), became: current });
                    run = Some((index, index, became));
                }
                None => run = Some((index, index, became)),
            }
        }
        if let Some((start, end, current)) = run {
            parts.push(Part { text: request.original(start, end), became: current });
        }
        clauses.push(ClauseReading { text: request.original(first, last), parts });
        clause_tokens.clear();
    };
    for (index, token) in request.tokens.iter().enumerate() {
        if token.kind != TokenKind::Word {
            continue;
        }
        if clause_tokens.first().is_some_and(|first| !request.same_clause(*first, index)) {
            flush(&mut clause_tokens, &mut clauses);
        }
        clause_tokens.push(index);
    }
    flush(&mut clause_tokens, &mut clauses);
    clauses
}

#[cfg(test)]
mod tests {
    use super::*;

    fn requirements(text: &str, several: bool) -> (Vec<String>, Vec<String>) {
        let request = Request::new(text);
        let unread = vec![true; request.len()];
        let taken = vec![false; request.len()];
        let (mut found, product) = residual(&request, &unread, &taken, several);
        drop_perk_examples(&request, &mut found, &mut Vec::new());
        (
            found.into_iter().map(|requirement| requirement.text).collect(),
            product.into_iter().map(|(start, end)| request.original(start, end)).collect(),
        )
    }

    #[test]
    fn conditions_after_the_product_are_requirements() {
        let (other, product) = requirements("i would like a bronze floor lamp with a glass shade", false);
        assert_eq!((other, product), (vec!["glass shade".to_owned()], vec!["bronze floor lamp".to_owned()]));
        let (other, _) = requirements("a knit sweater. i want one that is fleece lined and water resistant", false);
        assert_eq!(other, ["fleece lined", "water resistant"]);
        let (other, _) = requirements("шоколад горький 70% 5 плиток. без орехов, аллергия!!", false);
        assert!(other.contains(&"без орехов".to_owned()), "{other:?}");
        let (other, _) = requirements("a snack mix, no nuts (allergy!!)", false);
        assert!(other.contains(&"no nuts".to_owned()), "{other:?}");
        let (other, _) = requirements("a canvas wall art in 40x50cm without a frame", false);
        assert!(other.contains(&"without a frame".to_owned()), "{other:?}");
    }

    #[test]
    fn whom_it_is_for_inside_the_product_keeps_it_one_phrase() {
        let (_, product) = requirements("an animal-themed kids outfit for 18-24m", false);
        assert_eq!(product, ["animal-themed kids outfit"]);
        let (_, product) = requirements("a small book of electrical engineering formulas", false);
        assert_eq!(product, ["small book of electrical engineering formulas"], "sbbudget-114");
        let (_, product) = requirements("a diffuser & sticks with white sage aroma", false);
        assert_eq!(product, ["diffuser & sticks"], "sbmulti-134");
    }

    #[test]
    fn a_later_run_of_the_products_words_is_a_requirement_with_its_negation() {
        let (other, product) = requirements("an alloy chain ring sized 38t", false);
        assert_eq!((other, product), (vec!["38t".to_owned()], vec!["alloy chain ring".to_owned()]), "sbbudget-116");
        let (other, product) = requirements("a polyester backpack that's not water-resistant", false);
        assert_eq!(product, ["polyester backpack"]);
        assert_eq!(other, ["not water-resistant"], "sbbudget-133: the negation stays with it");
        let (other, product) = requirements("size 42 please (after the junk)", false);
        assert!(other.is_empty() && product.len() == 2, "no run names a product: {other:?} {product:?}");
        // sbbudget-023: a name parted by fillers is one product phrase.
        let (other, product) = requirements("a full version of the Noli Me Tangere novel for students", false);
        assert_eq!(product, ["full version of the Noli Me Tangere novel"]);
        assert_eq!(other, ["for students"]);
        // sbbudget-147: "waterproof" read by a rule parts the product's words;
        // the product is the run with the product noun, not "plastic".
        let request = Request::new("a plastic waterproof toothbrush holder");
        let mut unread = vec![true; request.len()];
        unread[2] = false;
        let (found, product) = residual(&request, &unread, &vec![false; request.len()], false);
        let texts = |spans: &[(usize, usize)]| {
            spans.iter().map(|(start, end)| request.original(*start, *end)).collect::<Vec<_>>()
        };
        assert_eq!(texts(&product), ["toothbrush holder"]);
        assert!(found.is_empty(), "a run before the product is no requirement: {found:?}");
    }

    #[test]
    fn a_perk_list_opened_as_a_nice_to_have_drops_its_examples_among_the_musts() {
        // sbbudget-209: "preferably with LazMall perks like …, fast shipping, and cash on delivery".
        let request =
            Request::new("water drinkers, preferably with LazMall perks like authenticity, fast shipping, and COD");
        let at = |word: &str| (0..request.len()).find(|at| request.word(*at) == word).expect(word);
        let span = |start: usize, end: usize| Requirement { text: request.original(start, end), start, end };
        let mut optional = vec![span(at("with"), at("authenticity"))];
        let mut musts = vec![span(at("fast"), at("shipping")), span(at("cod"), at("cod"))];
        drop_perk_examples(&request, &mut musts, &mut optional);
        let texts = |list: &[Requirement]| list.iter().map(|requirement| requirement.text.clone()).collect::<Vec<_>>();
        assert_eq!(texts(&musts), ["COD"], "a member naming a service stays");
        assert_eq!(texts(&optional), ["with LazMall perks like authenticity"]);
    }

    #[test]
    fn words_that_only_dress_a_service_go_with_it() {
        // sbbudget-145, -188: "for special deals", "for extra perks", "deals".
        let (other, _) = requirements("a food container, available on LazFlash for special deals", false);
        assert_eq!(other, ["LazFlash"]);
        let (other, _) =
            requirements("reflective gloves with both LazMall and LazFlash services for extra perks and deals", false);
        assert_eq!(other, ["LazMall", "LazFlash services"]);
        // Not after a service, or with a word of their own: still asked.
        let (other, _) = requirements("a food container for special deals", false);
        assert_eq!(other, ["for special deals"]);
        let (other, _) = requirements("a dress with LazFlash deals for special occasions", false);
        assert!(other.contains(&"for special occasions".to_owned()), "{other:?}");
    }

    #[test]
    fn a_property_said_not_to_matter_is_no_requirement() {
        let (other, _) = requirements("dental fiber kits where the color family isn't specified", false);
        assert!(other.iter().all(|text| !text.contains("specified")), "sbbudget-074: {other:?}");
    }

    #[test]
    fn a_perk_lists_examples_and_a_service_or_also_stays_its_own() {
        let text = "a ram with LazMall benefits like guaranteed authenticity, easy returns, fast shipping, and also \
                    fast delivery";
        let (other, _) = requirements(text, false);
        assert_eq!(other, ["LazMall benefits like guaranteed authenticity", "easy returns", "fast delivery"]);
        let (other, _) = requirements("a ram with LazMall benefits, fast shipping", false);
        assert!(other.contains(&"fast shipping".to_owned()), "no list of examples: {other:?}");
    }

    #[test]
    fn issue_29_an_add_on_after_and_is_no_part_of_the_product() {
        let (other, product) = requirements("a game console and a protection plan", false);
        assert_eq!((other, product), (vec!["protection plan".to_owned()], vec!["game console".to_owned()]));
    }

    #[test]
    fn whom_and_where_are_filler() {
        let (other, product) = requirements("i would like a bronze wall lamp for my living room", false);
        assert!(other.is_empty(), "{other:?}");
        assert_eq!(product, ["bronze wall lamp"]);
        let (other, _) = requirements("i need some binoculars for bird watching", false);
        assert_eq!(other, ["for bird watching"]);
    }

    #[test]
    fn several_products_are_all_requirements() {
        let (other, product) = requirements("a shop offering both a blue car spray handle, and a set of gaskets", true);
        assert!(product.is_empty());
        assert_eq!(other, ["shop offering both a blue car spray handle", "set of gaskets"]);
    }

    #[test]
    fn reasons_and_stories_are_filler() {
        for text in [
            "Ember mug, in case she already has one",
            "a racket, because I haven't demoed it yet",
            "Pegasus 41s, we're running a race on Sunday",
        ] {
            let (other, _) = requirements(text, false);
            assert!(other.is_empty(), "{text}: {other:?}");
        }
    }

    #[test]
    fn voucher_rules_are_filler() {
        let (other, _) = requirements(
            "Show me caliper tools. I have a voucher with the following rules:\n1. The voucher applies to all products.",
            false,
        );
        assert!(other.is_empty(), "{other:?}");
    }
}
