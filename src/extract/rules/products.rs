//! Of several products, one segment of the request per product (issue 28
//! §2: a `product` per line): "Find a shop offering these items: First, a
//! men's leather belt in brown, size waist 44 … Second, a tactical belt …
//! Please show shops that sell all of these." becomes the segments "a men's
//! leather belt in brown, size waist 44 …" and "a tactical belt …", and the
//! frame ("Find a shop offering these items", "Please show shops …").
//!
//! `scope::several_products` decides whether the request lists several
//! products; this module only cuts it. Each segment is read again as a
//! request of its own (`rules::lines_of_products`), so a colour or a
//! requirement said of one product becomes that product's line.
//!
//! Precision first: a cut is made only where a list marker opens a product
//! ("First,", "(2)", a sentence or a semicolon) or where an article-led
//! phrase whose head is a product follows a list separator ("…, a bonsai
//! scissors …", "both a blouse and a crop top"). Fewer than two segments
//! with a head is no reading: the caller keeps every word as a requirement.
//! Linear in the request.

use super::chunk::is_attaching;
use crate::words::class::{ATTACHING_WORDS, FILLERS, LIST_MEMBERS, LIST_WORDS, PROPERTIES, SHOP_FRAME};
use crate::words::noun::{is_product_noun, product_stem};
use crate::words::product::lexicon;
use crate::words::text::Request;

/// One product's tokens: runs `start..=end` in request order (a later
/// sentence may be said of it: "For the blouse, …"), and its head noun if
/// found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Segment {
    pub parts: Vec<(usize, usize)>,
    pub head: Option<usize>,
    /// A member of a list of one kind ("one item …", "another …").
    pub member: bool,
    /// The head of the kind said before the unit's members ("books" of
    /// "books where one is in English, another …"): what a member that
    /// names no product of its own is.
    pub kind: Option<usize>,
}

impl Segment {
    fn new(start: usize, end: usize, head: Option<usize>) -> Segment {
        Segment { parts: vec![(start, end)], head, member: false, kind: None }
    }

    /// The segment as the person wrote it, its runs joined as sentences.
    pub fn text(&self, request: &Request) -> String {
        let runs: Vec<String> = self.parts.iter().map(|&(start, end)| request.original(start, end)).collect();
        runs.join(". ")
    }

    /// Whether token `at` is in the segment.
    pub fn holds(&self, at: usize) -> bool {
        self.parts.iter().any(|&(start, end)| (start..=end).contains(&at))
    }
}

/// A run of tokens between hard list markers, and whether a list marker
/// ("First,", "(2)") opened it.
#[derive(Debug, Clone, Copy)]
struct Unit {
    start: usize,
    end: usize,
    marked: bool,
    /// Opened by a list's colon or semicolon ("all of these: a cream …, a
    /// soil conditioner …, and a healing oil …"): its article-led phrases
    /// are the list's members, whatever their heads.
    listed: bool,
    /// Opened by an ordinal or a number ("Lastly,", "(3)", "2)"): one
    /// product, so a bare noun after a comma in it ("a phone running
    /// Android, 5000 mah battery, IPS LCD display") is a part of it.
    numbered: bool,
    /// Opened by the first of a list's markers ("First,", "(1)"): what the
    /// request says before it ("I'm looking for some women's clothing.")
    /// names the list, not one of its products.
    opens_the_list: bool,
}

/// The request's product segments, in order, and nothing else: the tokens
/// outside them are the frame. Empty unless two segments have a head.
pub fn segments(request: &Request) -> Vec<Segment> {
    let mut found: Vec<Segment> = Vec::new();
    // "My budget is only `228`, but I have a voucher with the following
    // rules: 1. …": a voucher's rules are the terms of a discount, never a
    // product ("the total price of the products exceeds …").
    let voucher = super::clause::voucher_start(request).unwrap_or(usize::MAX);
    let units: Vec<Unit> = units(request)
        .into_iter()
        .filter(|unit| unit.start < voucher)
        .map(|unit| if unit.end < voucher { unit } else { Unit { end: last_word_before(request, voucher), ..unit } })
        .collect();
    let marked_units = units.iter().filter(|unit| unit.marked).count();
    // "Looking for snacks and dried fruits. First, I want …", "I'm looking
    // for baby clothing items. For the first one, …": the sentences before
    // a list's first marker name the list's kind, unless they list
    // products themselves ("… both a polyester tape and a neck tape. For
    // the first item, …" is said of the tape).
    let list_start = units.iter().position(|unit| unit.opens_the_list || opens_nth(request, *unit, 0).is_some());
    for (position, mut unit) in units.into_iter().enumerate() {
        if !unit.marked && list_start.is_some_and(|start| position < start) && product_starts(request, unit).0.len() < 2
        {
            continue;
        }
        // "For the first product, I want black high boots …" before any
        // product: it opens the one it numbers, like "First, …".
        if !unit.marked
            && let Some(start) = opens_nth(request, unit, found.len())
        {
            unit = Unit { start, marked: true, numbered: true, ..unit };
        }
        // "The switch should …", "For the blouse, …": said of a product
        // named before, whatever nouns it holds; "Please show shops …",
        // "Show results in …": the frame.
        if !unit.marked {
            if let Some(owner) = referred(request, unit, &found) {
                found[owner].parts.push((unit.start, unit.end));
                continue;
            }
            let nth = said_of_nth(request, unit, found.len());
            if !nth.is_empty() {
                for (owner, start, end) in nth {
                    found[owner].parts.push((start, end));
                }
                continue;
            }
            if SHOP_FRAME.has_mark(request.word(unit.start), "asking")
                && !found.is_empty()
                && !asks_for_a_product(request, unit)
            {
                continue;
            }
            // "Focus on the basic categories: coasters and bowls.": the
            // shop's categories, said of the products named before; "Find a
            // shop offering multiple products in the boots or shoes
            // category.": the shop's, before any product is named.
            // The first sentence, naming the shop and a category, that lists
            // two products ("Find a shop offering both a floor lamp …,
            // categorized under chandeliers …, and a folding LED floor lamp
            // …") is read for its products.
            if (!found.is_empty() || is_frame(request, unit.start, unit.end))
                && crate::words::requirement::names_a_category(&request.original(unit.start, unit.end))
                && !(found.is_empty() && product_starts(request, unit).0.len() >= 2)
            {
                continue;
            }
        }
        let (starts, kind) = product_starts(request, unit);
        if starts.is_empty() {
            if unit.marked {
                // "Third, motorcycle brake pads …": a marked unit is a product
                // even when no head is found.
                let start = skip_frame(request, unit.start, unit.end);
                found.push(Segment::new(start, unit.end, None));
            } else if !is_frame(request, unit.start, unit.end)
                && !states_the_budget(request, unit)
                && let Some(last) = found.last_mut()
            {
                // "… priced above 3 PHP. It is waterproof.": more of the last one.
                last.parts.push((unit.start, unit.end));
            }
            continue;
        }
        let starts = if unit.numbered { &starts[..numbered_products(request, unit, &starts)] } else { &starts[..] };
        for (position, &(start, head)) in starts.iter().enumerate() {
            let end = starts.get(position + 1).map_or(unit.end, |&(next, _)| last_word_before(request, next));
            found.push(Segment { kind, ..Segment::new(start, end, head) });
        }
    }
    // Two products, one of them at least with a known head, or a list
    // marked as one ("First, … Second, …", "one … another …").
    // "…; and a third includes free shipping": a member of a later unit is
    // of the kind said before the first members.
    let mut kind = None;
    for segment in &mut found {
        segment.member = is_member(request, segment.parts[0].0);
        if segment.kind.is_some() {
            kind = segment.kind;
        } else if segment.member {
            segment.kind = kind;
        }
    }
    let members = found.iter().filter(|segment| segment.member).count();
    // "both a … and a …", "both a …, as well as a …": two, said so.
    let both = found.len() == 2
        && (0..request.len()).any(|at| request.word(at) == "both" && matches!(request.word(at + 1), "a" | "an"));
    if found.len() < 2 || (found.iter().all(|segment| segment.head.is_none()) && marked_units + members < 2 && !both) {
        return Vec::new();
    }
    found
}

/// Whether the unit states a limit on the whole order ("My budget is only
/// `228`", "$200 in total"; `words::money::Limit::budget`): the order's,
/// never more words about the product named before it.
fn states_the_budget(request: &Request, unit: Unit) -> bool {
    let mut said = Request::new(&request.original(unit.start, unit.end));
    crate::words::money::extract(&mut said).iter().any(|limit| limit.budget)
}

/// How many of a numbered unit's product starts are products: the first
/// only ("Lastly, a phone running Android, 5000 mah battery, …"), unless
/// the unit is opened by a word that only adds to the list (`@adds` in
/// shop-frame.txt: "Also, I want a blue car sticker decal, a cotton
/// t-shirt, and a nylon strap"); then every article-led start before the
/// first phrase of parts ("Also, a smartphone with GPS, a 6.5 inch screen,
/// and a 5000 mah battery" is one; so is "Also, I need white culottes in
/// 4XL, plain pattern, cotton material, …").
fn numbered_products(request: &Request, unit: Unit, starts: &[(usize, Option<usize>)]) -> usize {
    let adds = unit.start >= 2
        && SHOP_FRAME.has_mark(request.word(unit.start - 2), "adds")
        && matches!(request.word(unit.start - 1), "," | ":");
    let Some(&(first, _)) = starts.first() else { return 0 };
    if !adds {
        return 1;
    }
    1 + starts[1..]
        .iter()
        .take_while(|&&(start, _)| {
            matches!(request.word(start), "a" | "an")
                && !(first..start).any(|at| ATTACHING_WORDS.has_mark(request.word(at), "parts"))
        })
        .count()
}

/// Hard units: cut at sentence ends and semicolons, after a colon, and
/// before a list marker ("First,", "(2)", "2)").
fn units(request: &Request) -> Vec<Unit> {
    let mut units = Vec::new();
    let mut start = 0;
    let mut marked = false;
    let mut index = 0;
    let close = |units: &mut Vec<Unit>, start: usize, end: usize, (marked, listed, numbered, first): Opened| {
        if let Some(end) = (start..end).rev().find(|at| request.is_word(*at)) {
            units.push(Unit { start, end, marked, listed, numbered, opens_the_list: first });
        }
    };
    let mut first = false;
    let mut numbered = false;
    let mut listed = false;
    let mut depth = 0usize;
    while index < request.len() {
        let word = request.word(index);
        match word {
            "(" => depth += 1,
            ")" => depth = depth.saturating_sub(1),
            _ => {}
        }
        // A colon ends a unit only after the frame ("these items:") or
        // before a marker: "size us:6" is one size, "(component type:
        // dispensers)" one property.
        let colon_cut = word == ":"
            && depth == 0
            && (is_frame_word(request.word_before(index, 1)) || marker_at(request, index + 1).is_some());
        // "a NEW OLYMPIA ES-570ES PLUS 2nd Gen. in TRANSPARENT Casing": a
        // period after a short capitalised word and before a word in lower
        // case ends an abbreviation, not a sentence ("… machine washable. i
        // also need …", all in lower case, is two sentences).
        let abbreviation = word == "."
            && request.is_word(index + 1)
            && request.original(index + 1, index + 1).starts_with(|character: char| character.is_lowercase())
            && index.checked_sub(1).is_some_and(|before| {
                let before = request.original(before, before);
                before.chars().count() <= 4 && before.starts_with(|character: char| character.is_uppercase())
            });
        if (matches!(word, "." | "!" | "?" | ";") && !abbreviation) || colon_cut {
            close(&mut units, start, index, (marked, listed, numbered, first));
            numbered = false;
            first = false;
            start = index + 1;
            // "these items: a cat food …; a dog food …; and an oil …": after
            // a list's colon or semicolon, an article opens a list member,
            // whether or not its head is a word the lexicon knows.
            let next = if request.word(start) == "and" { start + 1 } else { start };
            listed = matches!(word, ";" | ":") && matches!(request.word(next), "a" | "an");
            // "…; food grade diatomaceous earth, …": a member of a list whose
            // members so far were marked.
            marked = listed || (word == ";" && units.last().is_some_and(|unit: &Unit| unit.marked));
            index += 1;
            continue;
        }
        if let Some(length) = marker_at(request, index) {
            close(&mut units, start, index, (marked, listed, numbered, first));
            // "First,", "(1)", "1)": the list's first marker.
            first = (index..index + length).any(|at| {
                let word = request.word(at);
                word == "1" || (LIST_MEMBERS.has_mark(word, "nth") && LIST_MEMBERS.value(word) == Some("1"))
            });
            start = index + length;
            marked = true;
            listed = false;
            numbered = true;
            index += length;
            continue;
        }
        index += 1;
    }
    close(&mut units, start, request.len(), (marked, listed, numbered, first));
    units
}

/// How a unit was opened: by a list marker, after a list's colon or
/// semicolon, by a number or ordinal, by the list's first marker.
type Opened = (bool, bool, bool, bool);

/// The length of a list marker at `index`: an ordinal before a comma or a
/// colon ("First,", "Lastly:"), "(2)" or "2)" at the start of a unit.
fn marker_at(request: &Request, index: usize) -> Option<usize> {
    let word = request.word(index);
    let at_start = index == 0 || matches!(request.word_before(index, 1), "." | "!" | "?" | ";" | ":" | ",");
    if SHOP_FRAME.has_mark(word, "ordinal") && matches!(request.word(index + 1), "," | ":") && at_start {
        return Some(2);
    }
    let digit = |at: usize| request.word(at).len() == 1 && request.word(at).chars().all(|c| c.is_ascii_digit());
    if word == "(" && digit(index + 1) && request.word(index + 2) == ")" {
        return Some(3);
    }
    if digit(index) && request.word(index + 1) == ")" && at_start {
        return Some(2);
    }
    None
}

/// Where product phrases start in `unit`, with their heads: the first
/// phrase after the unit's frame ("Find shops offering a …", "I need a …"),
/// then each article-led phrase after a list separator ("," "and" "both"
/// "offering"), or a bare one after a comma ("…, dog shampoos for …").
/// A phrase said of products already listed ("all these types of belts")
/// opens none. The head is `None` only where the list is explicit: the
/// second of "both a … and a …".
fn product_starts(request: &Request, unit: Unit) -> (Vec<(usize, Option<usize>)>, Option<usize>) {
    let mut starts: Vec<(usize, Option<usize>)> = Vec::new();
    let mut index = skip_frame(request, unit.start, unit.end + 1);
    // "Find a shop that sells both basketball shoes …": the phrase after
    // the shop's opener is a product, whether or not its head is known.
    let opened = past_the_shop(request, index, (index + 6).min(unit.end));
    let past_shop = opened > index && opened <= unit.end;
    if past_shop {
        index = opened;
    }
    let after_opener = past_shop || (index > unit.start && opens_before(request, index));
    // "Show me pellet fish food …, and also water conditioner …", "I'm
    // looking for blush press-on nails …": what the unit opens by asking
    // for is a product, whatever its head.
    let asked = asks_for(request, unit.start, index);
    // "a sticker with a drip design and a satin finish": inside a "with"
    // phrase a plain "and" joins the product's parts, not products.
    let mut in_with = false;
    // Whether that phrase has had its "and" ("with a fruity scent and red
    // color, and a pocket-sized book": the parts ended before ", and a").
    let mut with_ands = 0usize;
    let mut depth = 0usize;
    let mut members = 0usize;
    let mut both = false;
    let mut first = true;
    // A list with articles ("a vacuum bag …, a bento box …") has its
    // products article-led; a bare phrase after a comma there is a property
    // ("…, US plug, …"). After a comma, bare phrases open products only in
    // a list without articles ("cat supplements …, dog shampoos …"); after
    // "and" in any ("a red hoodie and black jeans").
    let with_articles = matches!(request.word(index), "a" | "an");
    while index <= unit.end {
        let word = request.word(index);
        let previous = request.word_before(index, 1);
        let article = matches!(word, "a" | "an");
        // "(1 piece, spray paint type, …)": a list inside parentheses is
        // the product's own.
        match word {
            "(" => depth += 1,
            ")" => depth = depth.saturating_sub(1),
            _ => {}
        }
        // "…, and also water conditioner", "…, and also a helmet".
        let after_also = previous == "also" && matches!(request.word_before(index, 2), "and" | ",");
        let joins_parts = in_with && !both && !article && previous == "and" && request.word_before(index, 2) != ",";
        if ATTACHING_WORDS.has_mark(word, "parts") && depth == 0 && !starts.is_empty() {
            in_with = true;
        }
        // "…, and an anti-bacterial feature" ends the phrase's parts: the
        // first ", and" in it is its last part.
        if in_with && word == "and" {
            with_ands += 1;
        }
        let last_part = in_with && with_ands == 1 && previous == "and";
        // "a Fujifilm Instax Mini 12 and two packs of film": a count of
        // packs after "and" opens the product it counts.
        let counted = depth == 0 && previous == "and" && crate::words::count::counts_packs_of(request, index);
        let separated = depth == 0
            && !joins_parts
            && (first
                || (article
                    && (matches!(previous, "," | "and" | "&" | "plus")
                        // "…, and also a lightweight bike helmet"
                        || after_also
                        || as_well_as(request, index)
                        || opens_before(request, index)))
                || (!article
                && (matches!(previous, "и" | "and")
                    && !closes_a_set(request, index, unit.end)
                    // "dog food, 300g lamb and chicken flavor", "a weekly and
                    // monthly planner": after a phrase of no known head,
                    // "and" joins its words.
                    && (request.word_before(index, 2) == "," || starts.last().is_none_or(|(_, head)| head.is_some()))
                    || after_also
                    // "…, short length, …": a property named with its
                    // value is no product, as in a list with articles.
                    || (!with_articles
                        && matches!(previous, "," | ":")
                        && !ends_in_a_property(request, index, unit.end))
                    // "a universal brand motorcycle badge, Stans Flow rim
                    // decals priced above 374 PHP, and …": a phrase with its
                    // own price is a product of the list.
                    // "a green, BPA-free baby plate priced …" is one: the
                    // phrase before must have named its product.
                    || (with_articles
                        && previous == ","
                        && starts.last().is_some_and(|(_, head)| head.is_some())
                        && states_a_price(request, index, unit.end))
                    // "…, a 4-ply 100g Indophil yarn, silver tassel drop
                    // earrings for women …, and a set of …": so is a phrase
                    // headed by a plural product noun, in a list closed by
                    // ", and", outside a "with" phrase's parts, after a
                    // phrase that ended in a noun ("a 4-ply 100g Indophil
                    // yarn", not "a green, …").
                    || (with_articles
                        && previous == ","
                        && !in_with
                        && !starts.is_empty()
                        && !crate::words::adjective::is_adjective(request.word_before(index, 2))
                        && closed_by_comma_and(request, index, unit.end)
                        && phrase_head(request, index, unit.end).is_some_and(|head| ends_in_plural_kind(request, head)))
                    // "…, as well as stores selling wholesale earrings": the
                    // shop's verb after "as well as" opens a product.
                    || (opens_before(request, index) && as_well_as_before(request, index)))
                && request.is_word(index)
                // "…, and also comes with free shipping", "…, available in
                // red": a verb or a filler goes on about the product before;
                // not who a product is for before its head ("…, and women's
                // sandals in size 37").
                && (!crate::words::is_filler(word) || opens_a_phrase_for_whom(request, index, unit.end))
                // "…, 10 cup": a measure of the product before, not another.
                && !word.starts_with(|character: char| character.is_ascii_digit())
                && !(word == "as" && request.word(index + 1) == "well"))
                // "a Fujifilm Instax Mini 12 and two packs of film": a
                // count of packs opens the product it counts.
                || counted);
        let refers_back = (index.saturating_sub(3).max(unit.start)..index)
            .any(|at| matches!(request.word(at), "these" | "those" | "all"));
        // "where one item has …, and another item is …": a member of a
        // list of one kind, whatever its head.
        if depth == 0 && is_member(request, index) {
            starts.push((index, None));
            members += 1;
            first = false;
            index += 1;
            continue;
        }
        // Within a list of members, only a member opens another product.
        // A frame word may count ("at least two products"), except in a count
        // of packs ("and two packs of film").
        if separated && members == 0 && request.is_word(index) && !refers_back && (!is_frame_word(word) || counted) {
            let from = if article { index + 1 } else { index };
            let head = phrase_head(request, from, unit.end);
            // "offering multiple hair care products": the list, not one of
            // it; "an automotive product" is one product.
            let names_the_list =
                (from..=unit.end).take_while(|at| request.is_word(*at) && !is_attaching(request.word(*at))).any(|at| {
                    // "a NEW OLYMPIA … PLUS 2nd Gen": an ordinal names no list.
                    is_frame_word(request.word(at))
                        && !SHOP_FRAME.has_mark(request.word(at), "ordinal")
                        && !(article && SHOP_FRAME.has_mark(request.word(at), "one"))
                });
            // An article-led phrase is a product whatever its head where the
            // list says so: "both a … and a …", after the shop's verb ("and
            // also offers a blue garland"), a member of a list after its
            // colon ("all of these: a cream …, a soil conditioner …").
            let explicit = counted
                || (article && both && (previous == "and" || as_well_as(request, index)))
                || (first && after_opener && !names_the_list)
                || (article && !names_the_list && opens_before(request, index) && !first)
                || (article && !names_the_list && unit.listed && (first || matches!(previous, "," | "and")))
                // "I'm looking for blush press-on nails …", "Show me pellet
                // fish food …": the phrase asked for.
                || (first && asked && !names_the_list)
                // "…, and also water conditioner for aquarium use".
                || (after_also && request.word_before(index, 2) == "and" && !names_the_list)
                // "an a13 color phone strap, a Honda CBR150-R fuel pump
                // filter, and an HP ink bottle": in a list with articles, an
                // article after a comma opens the next product.
                || (article
                    && with_articles
                    && !last_part
                    && !names_the_list
                    // "…, a video games pattern": a property, not a product.
                    && !ends_in_a_property(request, index + 1, unit.end)
                    && (previous == "," || (previous == "and" && request.word_before(index, 2) == ",")));
            // "offering luggage items that match these preferences:",
            // "welding helmets that meet these criteria": the kind of the
            // list that follows, not a product of it.
            let introduces_a_list = first
                && after_opener
                && head.is_some_and(|head| {
                    (head + 1..=unit.end).any(|at| matches!(request.word(at), "these" | "following"))
                });
            // "a dress with short sleeves and a collar made from …": after
            // "with", "and" and an article before a part of a product
            // (`@part` in properties.txt) join the product's parts.
            let a_part = in_with
                && article
                && previous == "and"
                && head.is_some_and(|head| {
                    let word = request.word(head);
                    [word, word.strip_suffix('s').unwrap_or(word)].iter().any(|form| PROPERTIES.has_mark(form, "part"))
                });
            if (head.is_some() || explicit) && !introduces_a_list && !a_part {
                // "a shop offering both a waterproof switch": the phrase
                // read from "a" names the shop first; the product starts
                // after the frame.
                let start = head.map_or(index, |head| past_the_shop(request, index, head));
                starts.push((start, head));
                in_with = false;
                with_ands = 0;
                both = previous == "both" || (both && !explicit);
                index = head.map_or(index + 1, |head| head + 1);
                first = false;
                continue;
            }
        }
        if word == "both" {
            both = true;
        }
        first = false;
        index += 1;
    }
    // "power tools where one item …, and another …": the kind before the
    // members is said of them all, not a product of its own; "both super
    // glue … and another pack of glue": two products, said so.
    let said_both = (unit.start..=unit.end).any(|at| request.word(at) == "both");
    if members > 0
        && !(said_both && members == 1 && starts.len() == 2)
        && let Some(first_member) = starts.iter().position(|(at, _)| is_member(request, *at))
    {
        // "books where one …": a kind whose head the lexicon does not know
        // is the phrase's first word.
        let kind = starts
            .drain(..first_member)
            .filter_map(|(at, head)| {
                head.or_else(|| (request.is_word(at) && !is_frame_word(request.word(at))).then_some(at))
            })
            .next_back();
        return (starts, kind);
    }
    (starts, None)
}

/// A member segment past its opening words ("another item is", "one",
/// "a third"), and whether those words say what the member is ("another
/// item is a cordless drill from DEWALT": a product of its own, where
/// "another has LazFlash" only states a property of the list's kind).
pub fn past_the_member(request: &Request, segment: &Segment) -> (Segment, bool) {
    let Some(&(start, end)) = segment.parts.first() else { return (segment.clone(), false) };
    let mut at = start;
    if matches!(request.word(at), "a" | "an") && LIST_MEMBERS.has_mark(request.word(at + 1), "nth") {
        at += 2;
    } else if LIST_MEMBERS.has_mark(request.word(at), "member") {
        at += 1;
    }
    while matches!(request.word(at), "item" | "product") {
        at += 1;
    }
    let names = request.word(at) == "is" && matches!(request.word(at + 1), "a" | "an");
    if names {
        at += 1;
    }
    if at > end {
        return (segment.clone(), false);
    }
    let mut past = segment.clone();
    past.parts[0].0 = at;
    (past, names)
}

/// Whether a list member opens at `index`: "one" before a word that makes
/// it one ("one item", "one is", "one in red"; not "one size"), "another",
/// or an article before an ordinal ("a third with …").
fn is_member(request: &Request, index: usize) -> bool {
    let word = request.word(index);
    let next = request.word(index + 1);
    match word {
        "one" => LIST_MEMBERS.has_mark(next, "after-one") && request.word_before(index, 1) != "the",
        "another" => LIST_MEMBERS.has_mark(word, "member"),
        "a" | "an" => LIST_MEMBERS.has_mark(next, "nth") && LIST_MEMBERS.value(next) != Some("1"),
        _ => false,
    }
}

/// "The first is a dress set, and the second is a t-shirt …": the pieces
/// of a unit that opens with "the" and an ordinal, each with the earlier
/// segment its ordinal names. Empty when the unit does not open so, or an
/// ordinal names no segment found.
fn said_of_nth(request: &Request, unit: Unit, found: usize) -> Vec<(usize, usize, usize)> {
    let nth = |at: usize| -> Option<usize> {
        if request.word(at) != "the" || !LIST_MEMBERS.has_mark(request.word(at + 1), "nth") {
            return None;
        }
        match LIST_MEMBERS.value(request.word(at + 1))? {
            "last" => found.checked_sub(1),
            place => place.parse::<usize>().ok()?.checked_sub(1).filter(|owner| *owner < found),
        }
    };
    // "For the first item, look for white color …": the same, said with "for".
    let first = if request.word(unit.start) == "for" { unit.start + 1 } else { unit.start };
    if nth(first).is_none() {
        return Vec::new();
    }
    let opens: Vec<usize> = (first..=unit.end).filter(|at| nth(*at).is_some()).collect();
    let mut pieces = Vec::new();
    for (position, &start) in opens.iter().enumerate() {
        let end = opens.get(position + 1).map_or(unit.end, |&next| last_word_before(request, next));
        match nth(start) {
            Some(owner) => pieces.push((owner, start, end)),
            None => return Vec::new(),
        }
    }
    pieces
}

/// Where the product opens in a unit that numbers the next product ("For
/// the first product, I want …", "For the second, look for …" when one was
/// named before): past the comma after the ordinal, or at the article
/// after "is" ("The second item is a poultry medicine, …"). `None` for any other
/// unit, and for an ordinal of a product already named (`said_of_nth`).
fn opens_nth(request: &Request, unit: Unit, found: usize) -> Option<usize> {
    let first = if request.word(unit.start) == "for" { unit.start + 1 } else { unit.start };
    if request.word(first) != "the" || !LIST_MEMBERS.has_mark(request.word(first + 1), "nth") {
        return None;
    }
    let place = LIST_MEMBERS.value(request.word(first + 1))?.parse::<usize>().ok()?;
    if place != found + 1 {
        return None;
    }
    // "The second item is a poultry medicine, …", "The third is a …":
    // the product opens at the article.
    let mut at = first + 2;
    while LIST_MEMBERS.has_mark(request.word(at), "member-noun") {
        at += 1;
    }
    if request.word(at) == "is" && matches!(request.word(at + 1), "a" | "an") && at + 1 < unit.end {
        return Some(at + 1);
    }
    let comma = (first + 2..=unit.end.min(first + 4)).find(|at| request.word(*at) == ",")?;
    (comma < unit.end).then_some(comma + 1)
}

/// Where the product's phrase starts in `start..head` when it first names
/// the shop ("a shop offering both a switch", "shop selling contact
/// lenses"): past the last frame word after the shop's name. `start` when
/// no shop is named.
fn past_the_shop(request: &Request, start: usize, head: usize) -> usize {
    let Some(shop) = (start..head).find(|at| SHOP_FRAME.has_mark(request.word(*at), "shop")) else {
        return start;
    };
    let mut at = shop + 1;
    while at < head && (is_frame_word(request.word(at)) || matches!(request.word(at), "that" | "which" | "who")) {
        at += 1;
    }
    // "The shop should have …" opens nothing; "shops offering these items"
    // names no product yet.
    let opens = (shop + 1..at).any(|index| SHOP_FRAME.has_mark(request.word(index), "opens"));
    if !opens || (shop..at).any(|index| matches!(request.word(index), "these" | "those" | "all" | "following")) {
        return start;
    }
    at
}

/// Whether the word before `index` opens a product phrase ("offering a
/// …"); "has", "have" only where the shop has it ("a shop that has a …"),
/// not a product ("a tray that … has an oem model").
fn opens_before(request: &Request, index: usize) -> bool {
    let Some(verb) = index.checked_sub(1) else { return false };
    let word = request.word(verb);
    SHOP_FRAME.has_mark(word, "opens")
        && (!SHOP_FRAME.has_mark(word, "owned")
            || (verb.saturating_sub(4)..verb).any(|at| SHOP_FRAME.has_mark(request.word(at), "shop")))
}

/// The head of the noun phrase starting at `from`: the last product word
/// before an attaching word ("with", "for", "priced"), a separator or the
/// unit's end. "A set of …", "a pair of …": the phrase goes on past "of"
/// while it has no head.
fn phrase_head(request: &Request, from: usize, end: usize) -> Option<usize> {
    let mut head = None;
    for at in from..=end {
        let word = request.word(at);
        if !request.is_word(at) {
            // "t-shirt", "bath & body": a hyphen, slash or ampersand inside a
            // phrase does not end it; a comma does.
            if matches!(word, "-" | "/" | "'" | "&") {
                continue;
            }
            break;
        }
        // "a set of …", "a body or foot powder", "a Honda CBR150-R or
        // CRF150 fuel pump filter", "a garlic and herb seasoning": the
        // phrase goes on while it has no head ("… and a …" ends it).
        let joined = matches!(word, "and" | "и") && !matches!(request.word(at + 1), "a" | "an");
        if (matches!(word, "of" | "or" | "или") || joined) && head.is_none() {
            continue;
        }
        // "press-on nails", "a ride-on toy": a word after a hyphen is part
        // of a compound, not a preposition.
        let compound = request.word_before(at, 1) == "-";
        if (is_attaching(word) && !compound) || matches!(word, "and" | "or" | "и" | "или") {
            break;
        }
        if is_head_word(word) || ends_a_joined_kind(request, at) {
            head = Some(at);
        }
    }
    head
}

/// Whether the phrase from `from` ends, before a comma or an attaching
/// word, in a word that names a property ("a video games pattern", "a
/// simple design", "short length").
fn ends_in_a_property(request: &Request, from: usize, end: usize) -> bool {
    let last = (from..=end)
        .take_while(|at| request.is_word(*at) && !is_attaching(request.word(*at)) && request.word(*at) != "and")
        .last();
    // "a full version of the Noli Me Tangere novel": the phrase goes on
    // past "of" to what it is a version of.
    last.is_some_and(|at| {
        (crate::words::requirement::is_fragment(request.word(at))
            || crate::words::measure::names_a_measure(request.word(at)))
            && request.word(at + 1) != "of"
    })
}

/// Whether a folded word can be a product phrase's head.
pub(super) fn is_head_word(word: &str) -> bool {
    !SHOP_FRAME.contains(word) && (is_product_noun(word) || lexicon().is_product_word(word))
}

fn is_frame_word(word: &str) -> bool {
    SHOP_FRAME.contains(word) && !SHOP_FRAME.has_mark(word, "reference")
}

/// The first token of a marked unit past its frame ("I want a pink
/// notebook" → "a pink notebook"): the frame and filler words before
/// `start` are skipped.
fn skip_frame(request: &Request, from: usize, start: usize) -> usize {
    let mut at = from;
    while at < start {
        let word = request.word(at);
        // "…: one for pregnant pets …": a member opens here.
        if is_member(request, at) {
            break;
        }
        let frame = is_frame_word(word) || (FILLERS.contains(word) && !matches!(word, "a" | "an" | "for" | "the"));
        // "looking for a …", "searching for …": "for" of the asking.
        let asking_for = word == "for" && at > from;
        if !(frame || asking_for || !request.is_word(at)) {
            break;
        }
        at += 1;
    }
    at
}

/// Whether the filler at `index` says whom the phrase it opens is for
/// (`@whom` in fillers.txt: "women's", "kids") and a product noun heads
/// that phrase ("women's sandals in size 37"): a product, not more words
/// about the one before ("…, and women who like it" has no head).
fn opens_a_phrase_for_whom(request: &Request, index: usize, end: usize) -> bool {
    FILLERS.has_mark(request.word(index), "whom") && phrase_head(request, index, end).is_some()
}

/// Whether the bare phrase after "and" at `index` ends in a word that makes
/// "X and Y …" one product ("a baby spoon and fork set", "a shirt and wide
/// leg shorts set", `@one-product-after` in list-words.txt).
fn closes_a_set(request: &Request, index: usize, end: usize) -> bool {
    // "…, and RUSI sprocket sets": after a comma, "and" ends a list.
    if request.word_before(index, 2) == "," {
        return false;
    }
    (index..=end.min(index + 4))
        .take_while(|at| request.is_word(*at) && !is_attaching(request.word(*at)))
        .any(|at| LIST_WORDS.has_mark(request.word(at), "one-product-after"))
}

/// Whether the unit from `start` opens by asking for what is at `index`
/// ("I'm looking for …", "Also, show me …", "Need an …"): only words of
/// asking and the pronouns and politeness before them come first, so "It
/// should have a plain pattern" asks for nothing.
fn asks_for(request: &Request, start: usize, index: usize) -> bool {
    let mut asking = false;
    for at in start..index {
        let word = request.word(at);
        if !request.is_word(at) || LIST_WORDS.has_mark(word, "after-also") || LIST_WORDS.has_mark(word, "also") {
            continue;
        }
        if LIST_WORDS.has_mark(word, "asking") && !SHOP_FRAME.has_mark(word, "owned") {
            asking = true;
            continue;
        }
        // "looking for", "show me", "interested in": the rest of the asking.
        if asking && (is_frame_word(word) || crate::words::is_filler(word) || word == "in") {
            continue;
        }
        return false;
    }
    asking
}

/// Whether a unit that opens by asking ("Show me …", "Please find …")
/// asks for one more product rather than for the search: "Show me a
/// cleansing foam from the brand Derma Natufian." after other products: an
/// article after the asking words opens a phrase that is neither the
/// frame's nor a filler's, whatever its head, and no word names the shop ("Please show me a shop that sells all of
/// these" is the frame).
fn asks_for_a_product(request: &Request, unit: Unit) -> bool {
    let index = skip_frame(request, unit.start, unit.end + 1);
    index <= unit.end
        && matches!(request.word(index), "a" | "an")
        && asks_for(request, unit.start, index)
        && request.is_word(index + 1)
        && !is_frame_word(request.word(index + 1))
        && !FILLERS.contains(request.word(index + 1))
        && !(unit.start..=unit.end).any(|at| SHOP_FRAME.has_mark(request.word(at), "shop"))
}

/// Whether "as well as" ends just before `index` ("…, as well as a vinyl
/// mat"): a list's separator.
fn as_well_as(request: &Request, index: usize) -> bool {
    index >= 3
        && request.word(index - 3) == "as"
        && request.word(index - 2) == "well"
        && request.word(index - 1) == "as"
}

/// Whether the phrase from `from` states a price of its own before the
/// next separator (`@own-price` in list-words.txt).
fn states_a_price(request: &Request, from: usize, end: usize) -> bool {
    (from..=end)
        .take_while(|at| !matches!(request.word(*at), "," | ";" | ":"))
        .any(|at| LIST_WORDS.has_mark(request.word(at), "own-price"))
}

/// Whether a list goes on from `from` to a ", and" before the unit's end.
fn closed_by_comma_and(request: &Request, from: usize, end: usize) -> bool {
    (from..end).any(|at| request.word(at) == "," && request.word(at + 1) == "and")
}

/// Whether the word at `head` is a plural product noun that ends its noun
/// phrase ("silver tassel drop earrings for women", "waterproof handlebar
/// grips for bicycles"), and no part of a product ("…, short sleeves, …";
/// `@part` in properties.txt).
fn ends_in_plural_kind(request: &Request, head: usize) -> bool {
    let word = request.word(head);
    let singular = word.strip_suffix('s').unwrap_or(word);
    super::chunk::has_plural_ending(word)
        && !PROPERTIES.has_mark(singular, "part")
        && !PROPERTIES.has_mark(word, "part")
        && (!request.is_word(head + 1) || is_attaching(request.word(head + 1)))
}

/// Whether "as well as" comes within the few words before `index`, the
/// shop and its verb between ("…, as well as stores selling earrings").
fn as_well_as_before(request: &Request, index: usize) -> bool {
    (index.saturating_sub(4)..index).any(|at| as_well_as(request, at + 1))
        && (index.saturating_sub(3)..index).any(|at| SHOP_FRAME.has_mark(request.word(at), "shop"))
}

/// The last word before `index` (skipping the separators between products).
fn last_word_before(request: &Request, index: usize) -> usize {
    let mut at = index.saturating_sub(1);
    if as_well_as(request, index) {
        at = index - 4;
    }
    while at > 0
        && (!request.is_word(at) || matches!(request.word(at), "and" | "both") || is_frame_word(request.word(at)))
    {
        at -= 1;
        // "…, as well as stores selling …": the separator before the shop.
        if at >= 3 && as_well_as(request, at + 1) {
            at -= 3;
        }
    }
    at
}

/// The earlier segment a unit is said of: "For the blouse, …", "The switch
/// should …" name its head.
fn referred(request: &Request, unit: Unit, found: &[Segment]) -> Option<usize> {
    let mut at = unit.start;
    if request.word(at) == "for" {
        at += 1;
    }
    if request.word(at) != "the" {
        return None;
    }
    let named = (at + 1..=unit.end.min(at + 3)).rfind(|index| is_head_word(request.word(*index)))?;
    let stem = product_stem(request.word(named));
    let same_head = |segment: &Segment| segment.head.is_some_and(|head| product_stem(request.word(head)) == stem);
    // "For the cadet hat, …" after "both a cadet hat and a bucket hat": the
    // one whose words before its head are these too.
    let modifiers: Vec<&str> = (at + 1..named).map(|index| request.word(index)).collect();
    let said_alike = |segment: &Segment| {
        let head = segment.head.unwrap_or(0);
        let start = segment.parts[0].0;
        modifiers.iter().all(|word| (start..head).any(|index| request.word(index) == *word))
    };
    found
        .iter()
        .rposition(|segment| same_head(segment) && said_alike(segment))
        .or_else(|| found.iter().rposition(same_head))
}

/// Whether `start..=end` is said of the shop or the search, not of one
/// product: it names the shop ("The shop should have all these items"),
/// opens with a word of asking ("Please show shops …", "Can you help …"),
/// or holds only frame words and fillers.
pub fn is_frame(request: &Request, start: usize, end: usize) -> bool {
    let words: Vec<&str> = (start..=end).filter(|at| request.is_word(*at)).map(|at| request.word(at)).collect();
    let names_the_shop = words.iter().any(|word| SHOP_FRAME.has_mark(word, "shop"));
    let asks = words.first().is_some_and(|word| SHOP_FRAME.has_mark(word, "asking"));
    let only_frame = words.iter().any(|word| SHOP_FRAME.contains(word))
        && words.iter().all(|word| SHOP_FRAME.contains(word) || FILLERS.contains(word));
    names_the_shop || asks || only_frame || names_the_listed(request, start, end)
}

/// Whether the words from `start` to `end` only name again the products
/// listed ("Can you help me find these books?", "I'm looking for these
/// motorcycle parts."): "these" or "those", and otherwise words of the
/// frame, fillers, product nouns and nouns too general to name a kind
/// ("parts"). Not where they name a shop: "shops that have all these
/// products" asks for one shop.
pub fn names_the_listed(request: &Request, start: usize, end: usize) -> bool {
    let words: Vec<&str> = (start..=end).filter(|at| request.is_word(*at)).map(|at| request.word(at)).collect();
    words.iter().any(|word| matches!(*word, "these" | "those"))
        && !words.iter().any(|word| SHOP_FRAME.has_mark(word, "shop"))
        && words.iter().all(|word| {
            SHOP_FRAME.contains(word) || FILLERS.contains(word) || is_head_word(word) || lexicon().is_generic(word)
        })
}

/// The article that opens the phrase ending right before `and` ("a" of "a
/// glass shade and …"), when nothing attaches that phrase to an earlier
/// word ("with a glass shade and a satin finish", "for a phone and …") and
/// nothing inside it ties it to what came before.
pub(super) fn free_standing_article(request: &Request, and: usize) -> Option<usize> {
    let article = (and.saturating_sub(8)..and).rev().find(|index| matches!(request.word(*index), "a" | "an"))?;
    let before = request.word_before(article, 1);
    let asking = LIST_WORDS.has_mark(request.word_before(article, 2), "looking");
    let attached_before = ATTACHING_WORDS.has_mark(before, "scope-before") || (before == "for" && !asking);
    let attached = (article + 1..and).any(|index| {
        request.word(index) == ","
            || ATTACHING_WORDS.has_mark(request.word(index), "scope-between")
            || !request.same_clause(index, and)
    });
    (!attached_before && !attached).then_some(article)
}

/// Whether "and a" at `and` joins two article-led phrases that each end in a
/// word naming a kind of thing (`names_a_kind`), two different kinds: "a
/// mouse and a keyboard", "a Logitech MX Master 3S mouse and an MX Keys S
/// keyboard". The second phrase ends where a word attaches more to it ("a
/// keyboard with backlight"). "a black and a white shirt" names one kind.
pub(super) fn two_kinds_joined(request: &Request, and: usize) -> bool {
    if free_standing_article(request, and).is_none_or(|article| article + 1 == and) {
        return false;
    }
    let first = request.word(and - 1);
    second_phrase_end(request, and).is_some_and(|second| {
        let second = request.word(second);
        names_a_kind(first) && names_a_kind(second) && product_stem(first) != product_stem(second)
    })
}

/// The last word of the phrase after "and a" at `and`, before a word that
/// attaches more to it.
fn second_phrase_end(request: &Request, and: usize) -> Option<usize> {
    (and + 2..request.len())
        .take_while(|at| request.is_word(*at) && request.same_clause(*at, and) && !is_attaching(request.word(*at)))
        .last()
}

/// Whether the word at `at` ends one of the two phrases `two_kinds_joined`
/// reads ("mouse" of "a mouse and a keyboard"): the head of its product,
/// though its commonest sense is no product.
pub(super) fn ends_a_joined_kind(request: &Request, at: usize) -> bool {
    let first = request.word(at + 1) == "and"
        && matches!(request.word(at + 2), "a" | "an")
        && two_kinds_joined(request, at + 1);
    first
        || (at.saturating_sub(8)..at)
            .rev()
            .find(|and| request.word(*and) == "and" && matches!(request.word(and + 1), "a" | "an"))
            .is_some_and(|and| second_phrase_end(request, and) == Some(at) && two_kinds_joined(request, and))
}

/// Whether a folded word names a kind of thing a shop sells: a head word
/// (`products::is_head_word`), or a noun some sense of which the product
/// lexicon knows ("mouse", whose commonest sense is the animal) that is no
/// adjective or colour ("black" is also black clothing) and holds no digit.
fn names_a_kind(word: &str) -> bool {
    is_head_word(word)
        || (!crate::words::product::lexicon().kinds_of_word(word).is_empty()
            && !crate::words::adjective::is_adjective(word)
            && !crate::words::colour::is_colour(word)
            && !word.chars().any(|character| character.is_ascii_digit()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cut(text: &str) -> Vec<String> {
        let request = Request::new(text);
        segments(&request).iter().map(|segment| segment.text(&request)).collect()
    }

    #[test]
    fn for_the_nth_product_opens_it_and_a_category_before_any_product_is_the_frame() {
        assert_eq!(
            cut("Find a shop offering multiple products in the boots or shoes category. For the first product, I \
                 want black high boots in size EU 44. For the second, look for army green boots in size EU 44. The \
                 third item should be grey walking shoes."),
            vec![
                "black high boots in size EU 44",
                "army green boots in size EU 44",
                "The third item should be grey walking shoes"
            ]
        );
    }

    #[test]
    fn and_also_an_article_opens_another_product() {
        assert_eq!(cut("I want a red hoodie with a hood, and also a cap."), vec!["a red hoodie with a hood", "a cap"]);
    }

    #[test]
    fn both_a_product_and_another_are_two_and_members_are_of_the_kind_said_before() {
        assert_eq!(
            cut(
                "Find a shop selling both super glue from the Philippines brand and another pack of glue with LazMall."
            ),
            vec!["super glue from the Philippines brand", "another pack of glue with LazMall"]
        );
        let request = Request::new(
            "Find shops offering books where one is in English, with LazFlash; another has LazFlash; and a third \
             includes free shipping.",
        );
        let kinds: Vec<Option<&str>> =
            segments(&request).iter().map(|segment| segment.kind.map(|head| request.word(head))).collect();
        assert_eq!(kinds, vec![Some("books"); 3]);
    }

    #[test]
    fn ordinals_cut_one_product_each_and_the_frame_is_left_out() {
        assert_eq!(
            cut("Looking for a shop that offers these items: First, a men's leather belt in brown, size waist 44. \
                 Second, a tactical belt for men, in army green. Lastly, I'm searching for a spiral notebook that \
                 comes with LazMall service. Please show shops that sell all these types of belts."),
            vec![
                "a men's leather belt in brown, size waist 44",
                "a tactical belt for men, in army green",
                "a spiral notebook that comes with LazMall service"
            ]
        );
        assert_eq!(
            cut(
                "Find shops offering these items: (1) a car sun shade sized 150*70cm, priced above 224 PHP; (2) a set \
                 of 4 white car door guards for Nissan; (3) a red gear shift sleeve for Hyundai, with free shipping."
            ),
            vec![
                "a car sun shade sized 150 * 70cm, priced above 224 PHP",
                "a set of 4 white car door guards for Nissan",
                "a red gear shift sleeve for Hyundai, with free shipping"
            ]
        );
    }

    #[test]
    fn article_led_products_after_separators_are_cut() {
        assert_eq!(
            cut("Find shops offering a swimming pool water toy balloon, a writing notebook with 80 pages priced \
                 above 16 PHP, and a set of baby socks with food-themed designs, weighing up to 5kg."),
            vec![
                "a swimming pool water toy balloon",
                "a writing notebook with 80 pages priced above 16 PHP",
                "a set of baby socks with food-themed designs, weighing up to 5kg"
            ]
        );
    }

    #[test]
    fn an_article_led_phrase_is_a_product_where_the_list_says_so_whatever_its_head() {
        assert_eq!(
            cut("Find shops offering all of these: a cream priced from 6 to 397 PHP, a soil conditioner over 32 \
                 PHP, and a healing oil above 215 PHP."),
            vec!["a cream priced from 6 to 397 PHP", "a soil conditioner over 32 PHP", "a healing oil above 215 PHP"]
        );
        assert_eq!(
            cut("Looking for a shop that has a black men's bracelet with LazFlash deals, and also offers a blue \
                 garland for Father's Day with free delivery, priced between 23 and 198 pesos."),
            vec![
                "a black men's bracelet with LazFlash deals",
                "a blue garland for Father's Day with free delivery, priced between 23 and 198 pesos"
            ]
        );
        assert_eq!(
            cut("Find a shop offering both an automotive product in the aquamarine color family priced above 817 \
                 PHP, and a car accessory available with cash on delivery for more than 83 PHP."),
            vec![
                "an automotive product in the aquamarine color family priced above 817 PHP",
                "a car accessory available with cash on delivery for more than 83 PHP"
            ]
        );
    }

    #[test]
    fn a_category_an_abbreviation_or_the_shop_after_as_well_as_leave_two_products() {
        // sbmulti-129: the first sentence names a category between them.
        assert_eq!(
            cut("Find a shop offering both a black metal floor lamp with a swing arm, categorized under chandeliers \
                 and priced above 76 PHP, and a folding LED floor lamp for living rooms."),
            vec![
                "a black metal floor lamp with a swing arm, categorized under chandeliers and priced above 76 PHP",
                "a folding LED floor lamp for living rooms"
            ]
        );
        // sbmulti-141: "Gen." before a word in lower case ends no sentence,
        // and "PLUS" (an ordinal) names no list.
        assert_eq!(
            cut("Find shops offering both a NEW OLYMPIA ES-570ES PLUS 2nd Gen. in TRANSPARENT Casing and an \
                 OLYMPIA ELECTRONIC CASH REGISTER w/ FREE 4 PAPER ROLLS."),
            vec![
                "a NEW OLYMPIA ES-570ES PLUS 2nd Gen. in TRANSPARENT Casing",
                "an OLYMPIA ELECTRONIC CASH REGISTER w / FREE 4 PAPER ROLLS"
            ]
        );
        // sbmulti-051: a bare phrase with its own price, in a list of articles.
        assert_eq!(
            cut("Find a shop offering a universal brand motorcycle badge, Stans Flow rim decals priced above 374 \
                 PHP, and Honda TMX 155 decals in a customized color option."),
            vec![
                "a universal brand motorcycle badge",
                "Stans Flow rim decals priced above 374 PHP",
                "Honda TMX 155 decals in a customized color option"
            ]
        );
        assert_eq!(cut("I need a phone charger, US plug, priced under 20 dollars").len(), 0, "a property");
        // sbbudget-139, -116: a bare phrase headed by a plural product noun,
        // in a list closed by ", and".
        assert_eq!(
            cut("Find a remote control for Skyworth Android TV with LazFlash deal, a 4-ply 100g Indophil yarn, \
                 silver tassel drop earrings for women in color 03 with zircon stones, and a set of two white \
                 crystal hair clips."),
            vec![
                "a remote control for Skyworth Android TV with LazFlash deal",
                "a 4-ply 100g Indophil yarn",
                "silver tassel drop earrings for women in color 03 with zircon stones",
                "a set of two white crystal hair clips"
            ]
        );
        // sbmulti-151: an adjective before the comma names no product yet.
        assert_eq!(
            cut("Find shops offering a green, BPA-free baby plate priced between 148 and 311 pesos, and a pink \
                 baby spoon costing more than 59 pesos."),
            vec![
                "a green, BPA-free baby plate priced between 148 and 311 pesos",
                "a pink baby spoon costing more than 59 pesos"
            ]
        );
        // All in lower case, a period ends a sentence.
        assert_eq!(
            cut("i am looking for a high performance gaming computer with 64gb ram. also look for 2tb hdd"),
            vec!["a high performance gaming computer with 64gb ram", "2tb hdd"]
        );
        // sbmulti-161.
        assert_eq!(
            cut("Looking for a shop offering silver stainless steel rings in size 10, as well as stores selling \
                 wholesale mixed style earrings."),
            vec!["silver stainless steel rings in size 10", "wholesale mixed style earrings"]
        );
    }

    #[test]
    fn a_sentence_naming_the_shop_s_categories_is_no_product() {
        assert_eq!(
            cut("Find a shop offering both a set of wooden coffee coasters priced from 79 to 346 PHP and a set of \
                 calabash wooden bowls with lids. Focus on the basic categories: coasters and bowls."),
            vec![
                "a set of wooden coffee coasters priced from 79 to 346 PHP",
                "a set of calabash wooden bowls with lids"
            ]
        );
    }

    #[test]
    fn both_a_and_as_well_as_a_are_two_products_whatever_their_heads() {
        assert_eq!(
            cut("Find a shop offering both a moisturizing cream for all skin types, priced above 497 PHP, as well \
                 as a white perfumed powder with a gorgeous scent."),
            vec![
                "a moisturizing cream for all skin types, priced above 497 PHP",
                "a white perfumed powder with a gorgeous scent"
            ]
        );
    }

    #[test]
    fn and_also_before_a_verb_goes_on_about_the_product_before() {
        assert_eq!(
            cut(
                "Find a shop offering both a skincare set, as well as a cooking oil that costs over 111 PHP, and also \
                 comes with free shipping."
            ),
            vec!["a skincare set", "a cooking oil that costs over 111 PHP, and also comes with free shipping"]
        );
    }

    #[test]
    fn a_numbered_unit_is_one_product_with_its_parts() {
        assert_eq!(
            cut("First, a smartphone with GPS, priced above 10 PHP. Lastly, the shop should have a phone running \
                 Android, 5000 mah battery, IPS LCD display, and priced over 5123 PHP."),
            vec![
                "a smartphone with GPS, priced above 10 PHP",
                "a phone running Android, 5000 mah battery, IPS LCD display, and priced over 5123 PHP"
            ]
        );
    }

    #[test]
    fn a_later_sentence_asking_for_a_product_is_one_not_the_frame() {
        assert_eq!(
            cut("Find a women's watch with a quartz movement. Also, look for black leather shoes in size EU 27. \
                 Show me a cleansing foam from the brand Derma Natufian."),
            vec![
                "a women's watch with a quartz movement",
                "black leather shoes in size EU 27",
                "a cleansing foam from the brand Derma Natufian"
            ]
        );
        assert_eq!(
            cut("I want a ceramic mug and a bamboo tray. Please show me a shop that sells all of these."),
            vec!["a ceramic mug", "a bamboo tray"]
        );
    }

    #[test]
    fn whom_a_bare_product_is_for_opens_it() {
        assert_eq!(
            cut("I'm looking for a car antenna in the 9 inch size, a pair of women's sunglasses with brown lenses, \
                 and women's sandals in size 37."),
            vec![
                "a car antenna in the 9 inch size",
                "a pair of women's sunglasses with brown lenses",
                "women's sandals in size 37"
            ]
        );
        assert_eq!(
            cut("Find a phone case for iPhone 15, a t-shirt for men and women, and a bag."),
            vec!["a phone case for iPhone 15", "a t-shirt for men and women", "a bag"]
        );
    }

    #[test]
    fn the_nth_item_is_a_product_opens_it() {
        assert_eq!(
            cut("I need some poultry care products. For the first one, it should be a vitamin for birds. The second \
                 item is a poultry medicine, 1 litre size. The third is a poultry acidifier for birds. Lastly, I need \
                 a liquid poultry tonic."),
            vec![
                "a vitamin for birds",
                "a poultry medicine, 1 litre size",
                "a poultry acidifier for birds",
                "a liquid poultry tonic"
            ]
        );
    }

    #[test]
    fn a_part_after_with_and_an_article_is_the_products() {
        assert_eq!(
            cut(
                "I'm looking for a 50 meter bubble wrap, a floral midi dress with short sleeves and a collar made from \
                 geena fabric, and a blue canvas shoulder bag."
            ),
            vec![
                "a 50 meter bubble wrap",
                "a floral midi dress with short sleeves and a collar made from geena fabric",
                "a blue canvas shoulder bag"
            ]
        );
    }

    #[test]
    fn a_unit_opened_by_also_lists_products_as_an_unmarked_one() {
        assert_eq!(
            cut("I want a stainless steel food container with free shipping. Also, I want a blue car sticker decal, \
                 a women's cotton t-shirt in small size, and a nylon smartwatch strap for Aolon Curve 2."),
            vec![
                "a stainless steel food container with free shipping",
                "a blue car sticker decal",
                "a women's cotton t-shirt in small size",
                "a nylon smartwatch strap for Aolon Curve 2"
            ]
        );
        // Its parts stay its own, as in any unit.
        assert_eq!(
            cut("First, a pink notebook with lined pages. Also, a smartphone with GPS, a 6.5 inch screen, and a \
                 5000 mah battery."),
            vec![
                "a pink notebook with lined pages",
                "a smartphone with GPS, a 6.5 inch screen, and a 5000 mah battery"
            ]
        );
        assert_eq!(
            cut("First, a pink notebook with lined pages. Also, I need white cropped culottes in 4XL, plain pattern, \
                 elastic waist, cotton material."),
            vec![
                "a pink notebook with lined pages",
                "white cropped culottes in 4XL, plain pattern, elastic waist, cotton material"
            ]
        );
    }

    #[test]
    fn what_a_product_has_is_no_product_and_the_one_referred_to_is_named_alike() {
        assert_eq!(
            cut(
                "Find shops offering a ring box with cash on delivery, a seedling tray that is free form in shape and \
                 has an oem model, and a set of snapback straps priced above 2 PHP."
            ),
            vec![
                "a ring box with cash on delivery",
                "a seedling tray that is free form in shape and has an oem model",
                "a set of snapback straps priced above 2 PHP"
            ]
        );
        assert_eq!(
            cut("Find a shop offering both a cadet hat and a bucket hat. For the cadet hat, I want one size. For the \
                 bucket hat, it should have a plain pattern."),
            vec![
                "a cadet hat. For the cadet hat, I want one size",
                "a bucket hat. For the bucket hat, it should have a plain pattern"
            ]
        );
    }

    #[test]
    fn one_another_and_a_third_are_members() {
        assert_eq!(
            cut(
                "Find shops offering at least three items: one for pregnant pets in the vitamins category priced above \
                 32 PHP, another in pet soap that's a moisturizing type and costs more than 41 PHP, and a third milk \
                 enhancer or vitamin for dogs or cats that comes with complimentary shipping."
            ),
            vec![
                "one for pregnant pets in the vitamins category priced above 32 PHP",
                "another in pet soap that's a moisturizing type and costs more than 41 PHP",
                "a third milk enhancer or vitamin for dogs or cats that comes with complimentary shipping"
            ]
        );
    }

    #[test]
    fn a_member_that_is_a_product_names_it() {
        let text = "Find shops offering power tools where one item has an LED light feature, and another item is a \
                    cordless drill from DEWALT.";
        let request = Request::new(text);
        let found = segments(&request);
        let read: Vec<(String, bool)> = found
            .iter()
            .map(|segment| {
                let (past, names) = past_the_member(&request, segment);
                (past.text(&request), names)
            })
            .collect();
        assert_eq!(
            read,
            vec![("has an LED light feature".to_owned(), false), ("a cordless drill from DEWALT".to_owned(), true)]
        );
    }

    #[test]
    fn for_the_first_item_is_said_of_the_first_product() {
        assert_eq!(
            cut("Find a shop offering both a polyester tape and a neck tape. For the first item, look for white \
                 color and priced above 15 pesos. For the second, search for pink color."),
            vec![
                "a polyester tape. the first item, look for white color and priced above 15 pesos",
                "a neck tape. the second, search for pink color"
            ]
        );
    }

    #[test]
    fn a_voucher_s_rules_and_the_order_s_budget_are_no_product_s_words() {
        let text = "Find a stainless steel sponge holder for the kitchen, a bamboo capsule filter, and a green water \
                    bottle. My budget is only `295`, but I have a voucher with the following rules: 1. The voucher \
                    only applies to the products from the same shop. 2. It is valid only when the total price of \
                    the products exceeds `100`.";
        // Before, the voucher's "total price" was a product, and the budget
        // more words of the bottle's.
        let cut = cut(text);
        assert_eq!(
            cut,
            ["a stainless steel sponge holder for the kitchen", "a bamboo capsule filter", "a green water bottle"]
        );
    }

    #[test]
    fn x_and_y_set_is_one_product() {
        assert_eq!(
            cut("Find shops offering a green baby plate priced between 148 and 311 pesos, and a pink baby spoon \
                 and fork set costing more than 59 pesos."),
            vec![
                "a green baby plate priced between 148 and 311 pesos",
                "a pink baby spoon and fork set costing more than 59 pesos"
            ]
        );
    }

    #[test]
    fn a_sentence_about_a_product_named_before_is_that_product_s() {
        assert_eq!(
            cut(
                "I'm looking for a shop that offers both a maroon plus size women's blouse and a royal blue semi crop \
                 top. For the blouse, it should be cotton. For the crop top, I want a regular size."
            ),
            vec![
                "a maroon plus size women's blouse. For the blouse, it should be cotton",
                "a royal blue semi crop top. For the crop top, I want a regular size"
            ]
        );
    }

    #[test]
    fn a_list_after_a_colon_or_semicolons_is_one_product_a_member_whatever_its_head() {
        assert_eq!(
            cut("Find a shop offering these items: a natural dry cat food in 1kg repacked size, priced above 473 \
                 PHP; a grain-free soft dog food for adult dogs, over 437 PHP; food grade diatomaceous earth, more \
                 than 648 PHP; and a 250ml extra virgin coconut oil for pets. All products should be available from \
                 the same seller."),
            vec![
                "a natural dry cat food in 1kg repacked size, priced above 473 PHP",
                "a grain-free soft dog food for adult dogs, over 437 PHP",
                "food grade diatomaceous earth, more than 648 PHP",
                "a 250ml extra virgin coconut oil for pets"
            ]
        );
        assert_eq!(
            cut("Looking for a shop offering these items: First, a hair care product for color protection. Second, \
                 a cream hair dye from Bremod. Third, a permanent hair color set."),
            vec![
                "a hair care product for color protection",
                "a cream hair dye from Bremod",
                "a permanent hair color set"
            ]
        );
    }

    #[test]
    fn words_that_name_the_listed_products_again_are_the_frame() {
        let listed = |text: &str| {
            let request = Request::new(text);
            names_the_listed(&request, 0, request.len() - 1)
        };
        assert!(listed("Can you help me find these books?"), "sbbudget-136");
        assert!(listed("I'm looking for these motorcycle parts."), "sbbudget-029");
        assert!(!listed("Find shops that have all these products"), "one shop for all is asked");
        assert!(!listed("these books must be in English"));
        assert!(!listed("Can you help me find books?"));
    }

    #[test]
    fn the_shop_s_frame_is_not_part_of_the_first_product() {
        assert_eq!(
            cut("Find a shop offering both a waterproof POE network switch with gigabit ethernet and a server memory \
                 RAM compatible with X99 motherboards."),
            vec![
                "a waterproof POE network switch with gigabit ethernet",
                "a server memory RAM compatible with X99 motherboards"
            ]
        );
        assert_eq!(
            cut("Find a shop that sells both basketball shoes made in China with EU size 42, and also basketball \
                 shoes in EU size 44, yellow color."),
            vec!["basketball shoes made in China with EU size 42", "basketball shoes in EU size 44, yellow color"]
        );
        // The first phrase after the shop's opener is a product even when
        // its head is no word the lexicon knows as one.
        assert!(
            cut("Find a shop offering multiple hair care products. I want a conditioner for damaged hair. Also, I \
                 need a shampoo for frizzy hair.")
                == vec!["a conditioner for damaged hair", "a shampoo for frizzy hair"]
        );
        assert_eq!(
            cut("Find shops offering luggage items that match these preferences: First, a dark brown small \
                 suitcase. Second, an orange rubber luggage."),
            vec!["a dark brown small suitcase", "an orange rubber luggage"]
        );
        assert_eq!(
            cut("Find shops offering a carpenter square with a price above 318 PHP, a bonsai scissors, and an \
                 aluminum pool pole."),
            vec!["a carpenter square with a price above 318 PHP", "a bonsai scissors", "an aluminum pool pole"]
        );
        assert!(
            cut("Find a shop offering both vinyl tiles with a thickness of 0.3mm, and spray paint in silver color (1 \
                 piece, spray paint type, available for cash on delivery), as well as a vinyl mat in color 229. The \
                 shop should have all these items in their selection.")
                == vec![
                    "vinyl tiles with a thickness of 0.3mm",
                    "spray paint in silver color (1 piece, spray paint type, available for cash on delivery",
                    "a vinyl mat in color 229"
                ]
        );
    }

    #[test]
    fn members_of_one_kind_and_ordinals_that_refer_back() {
        assert_eq!(
            cut("Find a shop selling contact lenses where one product has a black color option and costs between \
                 12 and 50 pesos, and another product has both black and soft color options."),
            vec![
                "one product has a black color option and costs between 12 and 50 pesos",
                "another product has both black and soft color options"
            ]
        );
        assert_eq!(
            cut("Find a shop that offers both a nature-themed baby clothing set for 18-24 months, and an \
                 animal-themed kids outfit for 18-24m. The first is a dress set, and the second is a t-shirt and \
                 shorts combo."),
            vec![
                "a nature-themed baby clothing set for 18-24 months. The first is a dress set",
                "an animal-themed kids outfit for 18-24m. the second is a t-shirt and shorts combo"
            ]
        );
        // "one size" is a size, not a member.
        assert_eq!(
            cut("Find shops offering a tactical belt for men, one size for everyone, and a leather wallet in brown."),
            vec!["a tactical belt for men, one size for everyone", "a leather wallet in brown"]
        );
    }

    #[test]
    fn the_sentence_before_a_list_s_first_marker_names_the_list() {
        assert_eq!(
            cut("Looking for snacks and dried fruits. First, I want cheese-flavored crackers in a refill pouch. \
                 Next, I need halal dates in a single refill pouch."),
            vec!["cheese-flavored crackers in a refill pouch", "halal dates in a single refill pouch"]
        );
        assert_eq!(
            cut("I'm looking for some cookware items. First, a 4-piece non-stick set from boreine. Next, a 30cm \
                 deep frying pan. Lastly, a 16cm saucepan with a glass lid."),
            vec!["a 4-piece non-stick set from boreine", "a 30cm deep frying pan", "a 16cm saucepan with a glass lid"]
        );
    }

    #[test]
    fn what_the_request_asks_for_is_a_product_whatever_its_head() {
        assert_eq!(
            cut("Show me pellet fish food for goldfish and freshwater fish, and also water conditioner for aquarium \
                 or pond use."),
            vec!["pellet fish food for goldfish and freshwater fish", "water conditioner for aquarium or pond use"]
        );
        assert_eq!(
            cut("I'm looking for blush press-on nails with a floral design, and also a lightweight bike helmet in \
                 large size. Can you help me find these products?"),
            vec!["blush press-on nails with a floral design", "a lightweight bike helmet in large size"]
        );
        // "It should have …" asks for nothing: more of the product before.
        assert_eq!(
            cut("I'm looking for a ginseng product in a bag. It should also have a plain label. Additionally, I'm \
                 interested in a pickleball paddle."),
            vec!["a ginseng product in a bag. It should also have a plain label", "a pickleball paddle"]
        );
    }

    #[test]
    fn in_a_list_with_articles_an_article_after_a_comma_opens_the_next_product() {
        assert_eq!(
            cut("I'm looking for an a13 color OEM brand phone strap, a Honda CBR150-R or CRF150 fuel pump filter, \
                 and an HP brand black ink bottle."),
            vec![
                "an a13 color OEM brand phone strap",
                "a Honda CBR150-R or CRF150 fuel pump filter",
                "an HP brand black ink bottle"
            ]
        );
        // Inside a "with" phrase, articles list the product's parts.
        assert_eq!(
            cut("I'm looking for a fabric conditioner with a comfort fragrance, antibacterial properties, and an \
                 anti-bacterial feature. Also, I need a fabric spray in a bottle."),
            vec![
                "a fabric conditioner with a comfort fragrance, antibacterial properties, and an anti-bacterial \
                 feature",
                "a fabric spray in a bottle"
            ]
        );
    }

    #[test]
    fn what_is_no_product_stays_with_the_product_before() {
        // An article-led part after "and" inside a "with" phrase is still
        // a product where its head is one.
        assert_eq!(
            cut("Show me shops offering a toilet brush with a wall mount and a men's striped cotton five-toe sock \
                 for sports."),
            vec!["a toilet brush with a wall mount", "a men's striped cotton five-toe sock for sports"]
        );
        // A property after a comma, a price after ", also".
        assert_eq!(
            cut("I'm looking for a shop that offers both an access control card reader, and a large rubber table \
                 mat with a black and green variation, a video games pattern, and costing more than 550 PHP."),
            vec![
                "an access control card reader",
                "a large rubber table mat with a black and green variation, a video games pattern, and costing more \
                 than 550 PHP"
            ]
        );
        assert_eq!(
            cut("Looking for a shop offering a black spare tire kit, priced above 254 PHP, plus a red right-side \
                 taillight for Toyota cars, also over 254 PHP."),
            vec![
                "a black spare tire kit, priced above 254 PHP",
                "a red right-side taillight for Toyota cars, also over 254 PHP"
            ]
        );
        let request = Request::new("Find a shop offering a garlic and herb seasoning, and a Brita water filter.");
        let heads: Vec<Option<&str>> =
            segments(&request).iter().map(|segment| segment.head.map(|at| request.word(at))).collect();
        assert_eq!(heads, vec![Some("seasoning"), Some("filter")]);
    }

    #[test]
    fn a_plain_and_inside_a_with_phrase_joins_parts() {
        assert_eq!(
            cut("I'm looking for men's sandals in orange, made of plastic, with a plain design and sporty street \
                 style. Also, I want men's black running sneakers in size 43."),
            vec![
                "sandals in orange, made of plastic, with a plain design and sporty street style",
                "black running sneakers in size 43"
            ]
        );
        // After a comma, "and" ends the list: "RUSI sprocket sets" is no
        // "X and Y set".
        assert_eq!(
            cut("Find sprocket sets for the sniper150 model, GY6 linear grooved bell, custom sprocket sets for \
                 yamaha fz16, and RUSI sprocket sets."),
            vec![
                "sprocket sets for the sniper150 model",
                "GY6 linear grooved bell",
                "custom sprocket sets for yamaha fz16",
                "RUSI sprocket sets"
            ]
        );
    }

    #[test]
    fn one_product_with_properties_is_no_list() {
        assert!(cut("a Brita water filter pitcher, 10 cup").is_empty());
        assert!(cut("a leather belt suitable for both men and women, size waist 33, in coffee brown").is_empty());
        assert!(cut("black Nike running shoes size 42 under 100 dollars").is_empty());
        assert!(cut("a lamp with a glass shade and a satin nickel finish").is_empty());
        assert_eq!(
            cut("I want a scuba diving regulator octopus, and a full version of the Noli Me Tangere novel"),
            vec!["a scuba diving regulator octopus", "a full version of the Noli Me Tangere novel"],
            "sbbudget-023"
        );
    }
}
