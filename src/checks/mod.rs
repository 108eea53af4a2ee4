//! The checks of guard.md §5: one file per rule, the effective facts an item
//! is checked against ([`Target`]), and each finding's severity. The runner
//! that applies them to a whole cart is `decision::run`; `lines` assigns
//! entries to lines with the per-pair functions here. This module imports
//! neither of them.
//!
//! Everything here is pure: no I/O, no clock, no model, no hash-map iteration.
//! A rule that fails is a [`Finding`], never an error. Each rule file has two
//! functions: `status` (cheap, no allocation, used for every candidate pair in
//! line assignment) and `detail` (the expected/actual values and the human
//! reason's [`Message`], built only for findings that are reported).

pub mod addon;
pub mod brand;
pub mod brand_excluded;
pub mod color;
pub mod color_excluded;
pub mod deadline;
pub mod explicit_max;
pub mod fees;
pub mod level;
pub mod line_other;
pub mod line_price;
pub mod mandate;
pub mod model;
pub mod other;
pub mod price;
pub mod price_floor;
pub mod product;
pub mod quantity;
pub mod recurring;
pub mod refund;
pub mod shipping;
pub mod size;
pub mod total;

use std::cell::{OnceCell, RefCell};
use std::collections::{BTreeMap, BTreeSet};

use crate::cart::{CartEntry, Item};
use crate::facts::{Facts, FieldName, FieldRef, Level, Line};
use crate::finding::{Code, Compared, Finding, Severity, cart_path};
use crate::messages::{Attribute, ItemName, Message};
use crate::normalize::{self, ColourWords, Size, SizeLabel};
use crate::words::product::{ProductMatch, ReadTitle, Wanted, lexicon};
use crate::words::reading::{self, Contradiction, PreparedTexts, ProductMaterials, Reading, Requirement};

/// Which checks run. guard.md §5 puts every free-text requirement to the
/// person; the project also reads the item's own words (issue 28), and a
/// requirement those words say is a note, not a question
/// (docs/semantics.md, "The item's words"). `Spec` keeps guard.md exactly:
/// the conformance cases run under it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum CheckPolicy {
    /// guard.md §5 exactly.
    Spec,
    /// guard.md §5, and the item's own words read (the default).
    #[default]
    Words,
}

/// Where a fact value came from: the shared facts or one line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    Shared,
    Line(usize),
}

/// A stated text fact with its folded form.
#[derive(Debug, Clone)]
pub struct Text {
    pub raw: String,
    pub folded: String,
    /// The confusable skeleton, to catch look-alikes.
    pub skeleton: String,
    /// Its words, folded, in order (a brand the item's name begins with).
    pub words: Vec<String>,
}

impl Text {
    fn new(raw: &str) -> Text {
        Text {
            raw: raw.to_owned(),
            folded: normalize::fold(raw),
            skeleton: normalize::skeleton(raw),
            words: normalize::words(raw),
        }
    }
}

/// A stated model: its words, the stated brand's words already removed.
#[derive(Debug, Clone)]
pub struct ModelWanted {
    pub raw: String,
    pub words: Vec<String>,
    pub source: Source,
}

#[derive(Debug, Clone)]
pub struct ColourWanted {
    pub raw: String,
    pub words: ColourWords,
    pub source: Source,
}

#[derive(Debug, Clone)]
pub struct SizeWanted {
    pub raw: String,
    pub size: Size,
    pub source: Source,
}

/// A price (a ceiling or a floor) said for one line's item, each.
#[derive(Debug, Clone)]
pub struct UnitMax {
    pub cents: u64,
    pub currency: Option<String>,
    pub source: Source,
}

#[derive(Debug, Clone, Copy)]
pub struct QuantityWanted {
    pub units: u64,
    pub source: Source,
}

/// The effective facts one cart entry is checked against: the shared facts,
/// with a line's own fields over them when lines apply. Built once per line,
/// not per pair, so that assignment only compares prepared values.
#[derive(Debug, Clone)]
pub struct Target {
    /// The kind of thing asked for (`product`), as said.
    pub product: Option<String>,
    /// `product` as the product lexicon reads it, read the first time an
    /// item is judged against it and kept for every other item
    /// ([`Target::product_noun`]); [`Target::for_line`], which sets the
    /// line's own product, starts it anew.
    product_noun: OnceCell<Option<Wanted>>,
    /// The materials `product` names before its noun
    /// (`words::reading::ProductMaterials`), read the first time an item is
    /// weighed against them and kept for every other item, as
    /// `product_noun` is.
    product_materials: OnceCell<ProductMaterials>,
    pub brand: Option<Text>,
    /// Other accepted brands (`brand_any`): any of them fits.
    pub brand_any: Vec<Text>,
    pub brand_not: Vec<Text>,
    pub model: Option<ModelWanted>,
    /// Other candidate models (`model_any`, or a line's own).
    pub model_any: Vec<ModelWanted>,
    pub color: Option<ColourWanted>,
    /// Other accepted colours (`color_any`, or a line's own candidates).
    pub color_any: Vec<ColourWanted>,
    pub color_not: Vec<ColourWanted>,
    pub size: Option<SizeWanted>,
    /// Other accepted sizes (`size_any`, or a line's own candidates).
    pub size_any: Vec<SizeWanted>,
    pub level: Option<Level>,
    pub needs_refundable: bool,
    pub deadline_days: Option<u64>,
    pub quantity: Option<QuantityWanted>,
    /// Other candidate counts (`quantity_any`, or a line's own).
    pub quantity_any: Vec<u64>,
    /// The most the line's item may cost each (`lines[i].explicit_max_cents`).
    pub unit_max: Option<UnitMax>,
    /// The least the line's item may cost each (`lines[i].price_min_cents`).
    pub unit_min: Option<UnitMax>,
    /// The line's own requirements (`lines[i].other`), each tokenised once
    /// for every item assignment reads it against; the shared ones are
    /// checked against the whole cart (`checks::other`).
    pub other: Vec<Requirement>,
    pub line: Option<usize>,
}

impl Target {
    /// The shared facts alone.
    pub fn shared(facts: &Facts) -> Target {
        let brand = facts.brand.as_deref().map(Text::new);
        let model = facts.model.as_deref().map(|raw| model_wanted(raw, brand.as_ref(), Source::Shared));
        let model_any = facts.model_any.iter().map(|raw| model_wanted(raw, brand.as_ref(), Source::Shared)).collect();
        let colour =
            |raw: &str| ColourWanted { raw: raw.to_owned(), words: ColourWords::new(raw), source: Source::Shared };
        let size = |raw: &str| SizeWanted { raw: raw.to_owned(), size: Size::parse(raw), source: Source::Shared };
        Target {
            product: facts.product.clone(),
            product_noun: OnceCell::new(),
            product_materials: OnceCell::new(),
            brand,
            brand_any: facts.brand_any.iter().map(|raw| Text::new(raw)).collect(),
            brand_not: facts.brand_not.iter().map(|raw| Text::new(raw)).collect(),
            model_any,
            model,
            color: facts.color.as_deref().map(colour),
            color_any: facts.color_any.iter().map(|raw| colour(raw)).collect(),
            color_not: facts.color_not.iter().map(|raw| colour(raw)).collect(),
            size: facts.size_label.as_deref().map(size),
            size_any: facts.size_any.iter().map(|raw| size(raw)).collect(),
            level: facts.level,
            needs_refundable: facts.needs_refundable,
            deadline_days: facts.deadline_days,
            quantity: facts.quantity.map(|units| QuantityWanted { units, source: Source::Shared }),
            quantity_any: facts.quantity_any.clone(),
            unit_max: None,
            unit_min: None,
            other: Vec::new(),
            line: None,
        }
    }

    /// The shared target with line `index`'s own fields over it.
    pub fn for_line(&self, index: usize, line: &Line) -> Target {
        let source = Source::Line(index);
        let mut target = self.clone();
        target.line = Some(index);
        // Of several products, the line's kind and requirements are its own.
        if line.product.is_some() {
            target.product = line.product.clone();
        }
        target.product_noun = OnceCell::new();
        target.product_materials = OnceCell::new();
        target.other = line.other.iter().map(|text| Requirement::new(text)).collect();
        target.unit_max = line.explicit_max_cents.map(|cents| UnitMax {
            cents,
            currency: line.explicit_max_currency.clone(),
            source,
        });
        target.unit_min =
            line.price_min_cents.map(|cents| UnitMax { cents, currency: line.price_min_currency.clone(), source });
        // A line's own model, colour, size or quantity replaces the shared
        // one, and with it the shared one's alternatives: the line's own
        // candidates (a grounded merge's) take their place.
        let brand = self.brand.as_ref();
        if let Some(raw) = &line.model {
            target.model = Some(model_wanted(raw, brand, source));
            target.model_any = line.model_any.iter().map(|raw| model_wanted(raw, brand, source)).collect();
        }
        let colour = |raw: &String| ColourWanted { raw: raw.clone(), words: ColourWords::new(raw), source };
        if let Some(raw) = &line.color {
            target.color = Some(colour(raw));
            target.color_any = line.color_any.iter().map(colour).collect();
        }
        let size = |raw: &String| SizeWanted { raw: raw.clone(), size: Size::parse(raw), source };
        if let Some(raw) = &line.size_label {
            target.size = Some(size(raw));
            target.size_any = line.size_any.iter().map(size).collect();
        }
        if let Some(units) = line.quantity {
            target.quantity = Some(QuantityWanted { units, source });
            target.quantity_any = line.quantity_any.clone();
        }
        target
    }

    /// The asked product's noun as the product lexicon reads it
    /// (`Lexicon::wanted`), read once per target; `None` when no product is
    /// asked or its words name none.
    pub fn product_noun(&self) -> Option<&Wanted> {
        self.product_noun.get_or_init(|| self.product.as_deref().and_then(|product| lexicon().wanted(product))).as_ref()
    }

    /// The materials the asked product's phrase names before its noun,
    /// read once per target; none when no product is asked.
    pub fn product_materials(&self) -> &ProductMaterials {
        self.product_materials.get_or_init(|| self.product.as_deref().map(ProductMaterials::of).unwrap_or_default())
    }

    /// Whether `units` is the stated quantity or one of its candidates.
    pub fn quantity_fits(&self, units: u64) -> bool {
        self.quantity.is_some_and(|wanted| wanted.units == units) || self.quantity_any.contains(&units)
    }

    /// The stated quantity and its candidates, the stated one first.
    pub fn quantities(&self) -> Vec<u64> {
        self.quantity.iter().map(|wanted| wanted.units).chain(self.quantity_any.iter().copied()).collect()
    }

    /// The severity of a quantity finding: as for any field with
    /// alternatives ([`SeverityRules::severity_of`]), a count that is none
    /// of the candidates is not relaxed by `soft`.
    pub fn quantity_severity(&self, rules: &SeverityRules) -> Severity {
        let source = self.quantity.map_or(Source::Shared, |wanted| wanted.source);
        rules.severity_of(FieldName::Quantity, source, !self.quantity_any.is_empty())
    }

    /// Only the facts that apply to every item whatever line it is for; used
    /// for cart entries that no line claims.
    pub fn shared_only(&self) -> Target {
        Target {
            model: None,
            model_any: Vec::new(),
            color: None,
            color_any: Vec::new(),
            size: None,
            size_any: Vec::new(),
            quantity: None,
            quantity_any: Vec::new(),
            unit_max: None,
            unit_min: None,
            other: Vec::new(),
            line: None,
            ..self.clone()
        }
    }
}

fn model_wanted(raw: &str, brand: Option<&Text>, source: Source) -> ModelWanted {
    let brand_words = brand.map(|brand| normalize::words(&brand.raw)).unwrap_or_default();
    let words = normalize::words(raw).into_iter().filter(|word| !brand_words.contains(word)).collect();
    ModelWanted { raw: raw.to_owned(), words, source }
}

/// An item with its attributes normalised once for all comparisons.
#[derive(Debug, Clone)]
pub struct PreparedItem<'a> {
    pub item: &'a Item,
    pub brand: Option<String>,
    pub brand_skeleton: Option<String>,
    pub brand_words: Vec<String>,
    /// Sorted, deduplicated words of the name.
    pub name_words: Option<Vec<String>>,
    /// The words of the name in order, folded (the brand it begins with).
    pub name_sequence: Vec<String>,
    pub first_colour: Option<ColourWords>,
    pub size: Option<SizeLabel>,
    /// The item's words for the free-text requirements, tokenised the first
    /// time a requirement is read against it (`other::item_texts`), and the
    /// reading of each requirement read so far. Line assignment reads every
    /// line's requirements against every item, and the assigned pairs again
    /// for their findings: each item is tokenised once and each pair read
    /// once, instead of every text once per requirement and reading (the
    /// item check of issue 28, docs/benchmarks.md). A reading depends only
    /// on the requirement's text and the item, so a kept one is the one a
    /// second reading would give.
    texts: OnceCell<PreparedTexts<'a>>,
    readings: RefCell<BTreeMap<String, Reading>>,
    /// The item's name read once by the product lexicon, for the same
    /// reason: assignment judges every item against every line's product.
    /// `None` inside: the item has no name.
    title: OnceCell<Option<ReadTitle>>,
    /// Its category, tags and attributes read once the same way, and only
    /// when a judgment needs them: most names settle the product alone.
    other_titles: OnceCell<Vec<ReadTitle>>,
    /// Whether the product check read the item as another kind of thing,
    /// per product asked and the other words the person used for it: the
    /// assigned pairs are judged again for their findings, and a judgment
    /// depends only on these and the item.
    other_kind: RefCell<BTreeMap<(String, Vec<String>), bool>>,
    /// Whether the item's name or category names each product asked, for
    /// line assignment (`names_kind`), judged once per product.
    named_kind: RefCell<BTreeMap<String, bool>>,
    /// The item's own brand as words ([`PreparedItem::own_brand_words`]),
    /// gathered once: every product judged against the item reads them.
    own_brand: OnceCell<Vec<String>>,
    /// What the item's material attribute says against a material each
    /// line's product phrase names (`words::reading::product_material`),
    /// read once per product: assignment weighs it for every (line, item)
    /// pair, and the assigned pairs again for their findings, and it
    /// depends only on the phrase and the item.
    product_materials: RefCell<BTreeMap<String, Option<Contradiction>>>,
}

impl<'a> PreparedItem<'a> {
    pub fn new(item: &'a Item) -> PreparedItem<'a> {
        let name_words = item.name.as_deref().map(|name| {
            let mut words = normalize::words(name);
            words.sort();
            words.dedup();
            words
        });
        PreparedItem {
            item,
            brand: item.brand.as_deref().map(normalize::fold),
            brand_skeleton: item.brand.as_deref().map(normalize::skeleton),
            brand_words: item.brand.as_deref().map(normalize::words).unwrap_or_default(),
            name_words,
            name_sequence: item.name.as_deref().map(normalize::words).unwrap_or_default(),
            first_colour: item
                .color
                .as_deref()
                .and_then(|colour| normalize::item_colours(colour).first().map(|first| ColourWords::new(first))),
            size: item.size.as_deref().map(SizeLabel::parse),
            texts: OnceCell::new(),
            readings: RefCell::new(BTreeMap::new()),
            title: OnceCell::new(),
            other_titles: OnceCell::new(),
            other_kind: RefCell::new(BTreeMap::new()),
            named_kind: RefCell::new(BTreeMap::new()),
            own_brand: OnceCell::new(),
            product_materials: RefCell::new(BTreeMap::new()),
        }
    }

    /// The item's name and its category as the product check reads them,
    /// read once; `None` when the item has no name.
    pub fn titles(&self) -> Option<(&ReadTitle, &[ReadTitle])> {
        self.title().map(|name| (name, self.other_titles()))
    }

    /// The item's name as the product check reads it, read once; `None`
    /// when the item has no name.
    pub fn title(&self) -> Option<&ReadTitle> {
        self.title.get_or_init(|| self.item.name.as_deref().map(|name| lexicon().read_title(name))).as_ref()
    }

    /// The item's other texts as the product check reads them, read once,
    /// the first time a judgment needs them.
    pub fn other_titles(&self) -> &[ReadTitle] {
        self.other_titles.get_or_init(|| {
            // The category, the catalog's tags and each attribute's name and
            // value may name the item's kind ("Belt material", "Home
            // fragrance type: incense burners"); they are read only for a
            // match, never to find another kind.
            let words = &self.item.words;
            words
                .category
                .iter()
                .chain(&words.tags)
                .map(String::as_str)
                .chain(
                    words.attributes.iter().flat_map(|attribute| [attribute.name.as_str(), attribute.value.as_str()]),
                )
                .map(|text| lexicon().read_title(text))
                .collect()
        })
    }

    /// The item's own brand, as words: its brand field and any attribute
    /// the lexicon reads as the brand ("Brand: HEM"). A title word among
    /// them names the maker, never the item's kind.
    fn own_brand_words(&self) -> &[String] {
        self.own_brand.get_or_init(|| {
            let lexicon = lexicon();
            let attributes = self
                .item
                .words
                .attributes
                .iter()
                .filter(|attribute| lexicon.is_brand_attribute(&attribute.name))
                .flat_map(|attribute| normalize::words(&attribute.value));
            self.brand_words.iter().cloned().chain(attributes).collect()
        })
    }

    /// Whether the product lexicon reads the item as plainly another kind
    /// of thing than `wanted` (`noun`: the lexicon's reading of it,
    /// [`Target::product_noun`]; `named`: the person's other words for it),
    /// judged once per product; `false` when the item has no name.
    pub fn is_other_kind(&self, wanted: &str, noun: Option<&Wanted>, named: &[String]) -> bool {
        let key = (wanted.to_owned(), named.to_vec());
        if let Some(known) = self.other_kind.borrow().get(&key) {
            return *known;
        }
        let mut words = named.to_vec();
        words.extend_from_slice(self.own_brand_words());
        let other = self.title().is_some_and(|name| {
            matches!(
                lexicon().judge_wanted_with(noun, name, || self.other_titles(), &words),
                ProductMatch::Other { .. }
            )
        });
        self.other_kind.borrow_mut().insert(key, other);
        other
    }

    /// Whether the product lexicon reads the item's name or category as
    /// naming `wanted` itself or a narrower kind of it (`ProductMatch::Named`:
    /// "Running Shoes" for "running shoes"), judged once per product;
    /// `false` when the item has no name or leaves its kind open. Read only
    /// by line assignment (`lines`), which the person's other words for the
    /// product do not change: they decide only what is another kind.
    /// `noun` is the lexicon's reading of `wanted` ([`Target::product_noun`]),
    /// read once per line rather than once per (line, item) pair.
    /// The words of the item's name that name the kind asked for, if they
    /// do (`names_kind`, with what it read).
    pub fn kind_said(&self, noun: Option<&Wanted>) -> Option<String> {
        self.title().and_then(|name| match lexicon().judge_wanted_with(noun, name, || self.other_titles(), &[]) {
            ProductMatch::Named { said } => Some(said),
            _ => None,
        })
    }

    pub fn names_kind(&self, wanted: &str, noun: Option<&Wanted>) -> bool {
        if let Some(known) = self.named_kind.borrow().get(wanted) {
            return *known;
        }
        let named = self.title().is_some_and(|name| {
            matches!(lexicon().judge_wanted_with(noun, name, || self.other_titles(), &[]), ProductMatch::Named { .. })
        });
        self.named_kind.borrow_mut().insert(wanted.to_owned(), named);
        named
    }

    /// The item's words as requirements read them, tokenised once.
    pub fn texts(&self) -> &PreparedTexts<'a> {
        self.texts.get_or_init(|| PreparedTexts::new(other::item_texts(self.item)))
    }

    /// What the item's words say of a free-text requirement
    /// (`words::reading::read`), read once per requirement.
    pub fn read(&self, requirement: &Requirement) -> Reading {
        self.read_with(requirement, Reading::clone)
    }

    /// [`PreparedItem::read`], lent to `look` rather than copied: line
    /// assignment only asks which way each pair reads, for every pair.
    pub fn read_with<R>(&self, requirement: &Requirement, look: impl FnOnce(&Reading) -> R) -> R {
        if let Some(known) = self.readings.borrow().get(requirement.text()) {
            return look(known);
        }
        let read = reading::read_prepared(requirement, self.texts());
        let answer = look(&read);
        self.readings.borrow_mut().insert(requirement.text().to_owned(), read);
        answer
    }

    /// What the item's material attribute says against a material the
    /// product phrase `product` names (`words::reading::product_material`;
    /// `materials`: those the phrase names, [`Target::product_materials`]),
    /// read once per product.
    pub fn product_material(&self, product: &str, materials: &ProductMaterials) -> Option<Contradiction> {
        if let Some(known) = self.product_materials.borrow().get(product) {
            return known.clone();
        }
        let read = materials.against(self.texts());
        self.product_materials.borrow_mut().insert(product.to_owned(), read.clone());
        read
    }
}

/// The result of one rule on one item, before anything is allocated.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// The fact is not stated, or the item fits it.
    Pass,
    /// The item does not fit the stated fact.
    Fail,
    /// The fact is stated but the item lacks the attribute the rule needs.
    Unknown,
}

/// What a failing or unknown rule reports: the values compared and what
/// the reason says about them (rendered in the person's language later).
#[derive(Debug, Clone)]
pub struct Detail {
    pub expected: Compared,
    pub actual: Compared,
    pub message: Message,
}

/// The rules that compare one item with the target, in report order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ItemRule {
    Product,
    Brand,
    BrandExcluded,
    Model,
    Color,
    ColorExcluded,
    Size,
    Level,
    Refund,
    Deadline,
    LinePrice,
    LineFloor,
}

impl ItemRule {
    pub const ALL: [ItemRule; 12] = [
        ItemRule::Product,
        ItemRule::Brand,
        ItemRule::BrandExcluded,
        ItemRule::Model,
        ItemRule::Color,
        ItemRule::ColorExcluded,
        ItemRule::Size,
        ItemRule::Level,
        ItemRule::Refund,
        ItemRule::Deadline,
        ItemRule::LinePrice,
        ItemRule::LineFloor,
    ];

    pub fn code(self) -> Code {
        match self {
            ItemRule::Product => Code::Product,
            ItemRule::Brand => Code::Brand,
            ItemRule::BrandExcluded => Code::BrandExcluded,
            ItemRule::Model => Code::Model,
            ItemRule::Color => Code::Color,
            ItemRule::ColorExcluded => Code::ColorExcluded,
            ItemRule::Size => Code::Size,
            ItemRule::Level => Code::Level,
            ItemRule::Refund => Code::Refund,
            ItemRule::Deadline => Code::Deadline,
            ItemRule::LinePrice => Code::ExplicitMax,
            ItemRule::LineFloor => Code::PriceBelowFloor,
        }
    }

    pub fn field(self) -> FieldName {
        match self {
            ItemRule::Product => FieldName::Product,
            ItemRule::Brand => FieldName::Brand,
            ItemRule::BrandExcluded => FieldName::BrandNot,
            ItemRule::Model => FieldName::Model,
            ItemRule::Color => FieldName::Color,
            ItemRule::ColorExcluded => FieldName::ColorNot,
            ItemRule::Size => FieldName::SizeLabel,
            ItemRule::Level => FieldName::Level,
            ItemRule::Refund => FieldName::NeedsRefundable,
            ItemRule::Deadline => FieldName::DeadlineDays,
            ItemRule::LinePrice => FieldName::ExplicitMaxCents,
            ItemRule::LineFloor => FieldName::PriceMinCents,
        }
    }

    /// Where the target's value for this rule came from.
    pub fn source(self, target: &Target) -> Source {
        match self {
            ItemRule::Model => target.model.as_ref().map_or(Source::Shared, |wanted| wanted.source),
            ItemRule::Color => target.color.as_ref().map_or(Source::Shared, |wanted| wanted.source),
            ItemRule::Size => target.size.as_ref().map_or(Source::Shared, |wanted| wanted.source),
            ItemRule::LinePrice => target.unit_max.as_ref().map_or(Source::Shared, |max| max.source),
            ItemRule::LineFloor => target.unit_min.as_ref().map_or(Source::Shared, |min| min.source),
            _ => Source::Shared,
        }
    }

    pub fn status(self, target: &Target, item: &PreparedItem) -> Status {
        match self {
            ItemRule::Product => product::status(target, item),
            ItemRule::Brand => brand::status(target, item),
            ItemRule::BrandExcluded => brand_excluded::status(target, item),
            ItemRule::Model => model::status(target, item),
            ItemRule::Color => color::status(target, item),
            ItemRule::ColorExcluded => color_excluded::status(target, item),
            ItemRule::Size => size::status(target, item),
            ItemRule::Level => level::status(target, item),
            ItemRule::Refund => refund::status(target, item),
            ItemRule::Deadline => deadline::status(target, item),
            ItemRule::LinePrice => line_price::status(target, item),
            ItemRule::LineFloor => line_price::floor(target, item),
        }
    }

    pub fn detail(self, target: &Target, item: &PreparedItem) -> Detail {
        match self {
            ItemRule::Product => product::detail(target, item),
            ItemRule::Brand => brand::detail(target, item),
            ItemRule::BrandExcluded => brand_excluded::detail(target, item),
            ItemRule::Model => model::detail(target, item),
            ItemRule::Color => color::detail(target, item),
            ItemRule::ColorExcluded => color_excluded::detail(target, item),
            ItemRule::Size => size::detail(target, item),
            ItemRule::Level => level::detail(target, item),
            ItemRule::Refund => refund::detail(target, item),
            ItemRule::Deadline => deadline::detail(target, item),
            ItemRule::LinePrice => line_price::detail(target, item),
            ItemRule::LineFloor => line_price::floor_detail(target, item),
        }
    }

    /// Whether the field of this rule has several accepted values
    /// (`brand_any`, `model_any`, `color_any`, `size_any`).
    pub fn has_alternatives(self, target: &Target) -> bool {
        match self {
            ItemRule::Brand => !target.brand_any.is_empty(),
            ItemRule::Model => !target.model_any.is_empty(),
            ItemRule::Color => !target.color_any.is_empty(),
            ItemRule::Size => !target.size_any.is_empty(),
            _ => false,
        }
    }

    /// The severity of this rule's failure on `target`.
    pub fn severity(self, target: &Target, rules: &SeverityRules) -> Severity {
        rules.severity_of(self.field(), self.source(target), self.has_alternatives(target))
    }

    /// What an unknown attribute report says: which attribute is missing.
    pub fn attribute(self) -> Attribute {
        match self {
            ItemRule::Brand | ItemRule::BrandExcluded => Attribute::Brand,
            ItemRule::Model | ItemRule::Product => Attribute::Name,
            ItemRule::Color | ItemRule::ColorExcluded => Attribute::Colour,
            ItemRule::Size => Attribute::Size,
            ItemRule::Level => Attribute::Level,
            ItemRule::Refund => Attribute::FinalSale,
            ItemRule::Deadline => Attribute::DeliveryTime,
            ItemRule::LinePrice | ItemRule::LineFloor => Attribute::Price,
        }
    }
}

/// Decides severity (guard.md §5 "Severity"): a finding is `warn` if its
/// field is in `soft` or `disputed`. A value taken from line `i` is judged by
/// `lines[i].FIELD`, and by `lines` in `disputed` (the extractors disagreed on
/// how many items were asked for).
#[derive(Debug, Clone)]
pub struct SeverityRules {
    soft: BTreeSet<FieldRef>,
    disputed: BTreeSet<FieldRef>,
}

impl SeverityRules {
    pub fn new(facts: &Facts) -> SeverityRules {
        SeverityRules { soft: facts.soft.clone(), disputed: facts.disputed.clone() }
    }

    pub fn severity(&self, field: FieldName, source: Source) -> Severity {
        let relaxed = match source {
            Source::Shared => {
                let reference = FieldRef::Shared(field);
                self.soft.contains(&reference) || self.disputed.contains(&reference)
            }
            Source::Line(index) => {
                let reference = FieldRef::Line { index, field };
                self.soft.contains(&reference)
                    || self.disputed.contains(&reference)
                    || self.disputed.contains(&FieldRef::Shared(FieldName::Lines))
            }
        };
        if relaxed { Severity::Warn } else { Severity::Block }
    }

    /// Like [`SeverityRules::severity`], for a field with several accepted
    /// values: an item that matches none of them fails every value the
    /// person named, so `soft` does not relax it; only a dispute does.
    pub fn severity_of(&self, field: FieldName, source: Source, alternatives: bool) -> Severity {
        if !alternatives {
            return self.severity(field, source);
        }
        let disputed = match source {
            Source::Shared => self.disputed.contains(&FieldRef::Shared(field)),
            Source::Line(index) => {
                self.disputed.contains(&FieldRef::Line { index, field })
                    || self.disputed.contains(&FieldRef::Shared(FieldName::Lines))
            }
        };
        if disputed { Severity::Warn } else { Severity::Block }
    }

    /// `extra` is judged by the line count: warn when it was disputed.
    pub fn extra_severity(&self) -> Severity {
        let lines = FieldRef::Shared(FieldName::Lines);
        if self.disputed.contains(&lines) || self.soft.contains(&lines) { Severity::Warn } else { Severity::Block }
    }
}

/// Builds the finding of rule `rule` on entry `index`, or `None` if it passes.
pub fn item_finding(
    rule: ItemRule,
    target: &Target,
    item: &PreparedItem,
    index: usize,
    rules: &SeverityRules,
) -> Option<Finding> {
    let status = rule.status(target, item);
    let source = rule.source(target);
    let line = match source {
        Source::Line(line_index) => Some(line_index),
        Source::Shared => target.line,
    };
    match status {
        Status::Pass => None,
        Status::Fail => {
            // Formatted only for a finding: most rules pass for most items.
            let path = cart_path(Some(index));
            let detail = rule.detail(target, item);
            Some(
                Finding {
                    id: format!("{}@{path}", rule.code()),
                    code: rule.code(),
                    severity: rule.severity(target, rules),
                    field: rule.field(),
                    line,
                    path,
                    entry: Some(index),
                    expected: detail.expected,
                    actual: detail.actual,
                    reason: String::new(),
                    message: None,
                }
                .say(detail.message),
            )
        }
        Status::Unknown => {
            let detail = rule.detail(target, item);
            Some(unchecked(rule.field(), rule.attribute(), detail.expected, ItemName::of(item.item), index, line))
        }
    }
}

/// An `unchecked` finding: a stated fact the item has no attribute for.
/// Always `warn`, so the person sees what could not be checked.
pub fn unchecked(
    field: FieldName,
    attribute: Attribute,
    expected: Compared,
    item: ItemName,
    entry: usize,
    line: Option<usize>,
) -> Finding {
    let path = cart_path(Some(entry));
    Finding {
        id: format!("unchecked.{field}@{path}"),
        code: Code::Unchecked,
        severity: Severity::Warn,
        field,
        line,
        path,
        entry: Some(entry),
        expected,
        actual: Compared::Nothing,
        reason: String::new(),
        message: None,
    }
    .say(Message::Unchecked { field, attribute, item })
}

/// Counts of a pair's findings, for line assignment.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PairCost {
    pub blocks: u32,
    pub warns: u32,
    /// 1 when the item's words name another line's product and not this
    /// line's (`lines::findings`): weighed as a block in the assignment,
    /// and never a finding.
    pub strays: u32,
}

/// The cost of pairing `target` (a line) with one cart entry.
pub fn pair_cost(target: &Target, item: &PreparedItem, quantity: u64, rules: &SeverityRules) -> PairCost {
    let mut cost = PairCost::default();
    let mut count = |severity: Severity| match severity {
        Severity::Block => cost.blocks += 1,
        Severity::Warn => cost.warns += 1,
    };
    for rule in ItemRule::ALL {
        match rule.status(target, item) {
            Status::Pass => {}
            Status::Fail => count(rule.severity(target, rules)),
            Status::Unknown => count(Severity::Warn),
        }
    }
    if target.quantity.is_some() {
        match quantity::entry_units(item.item, quantity) {
            None => count(Severity::Warn),
            Some(units) if !target.quantity_fits(units) => count(target.quantity_severity(rules)),
            Some(_) => {}
        }
    }
    let own = line_other::cost(target, item, rules);
    cost.blocks += own.blocks;
    cost.warns += own.warns;
    cost
}

/// The effective item rules and quantity of one entry against one target,
/// as reported findings (used for assigned pairs).
pub fn pair_findings(
    target: &Target,
    item: &PreparedItem,
    entry: &CartEntry,
    index: usize,
    rules: &SeverityRules,
) -> Vec<Finding> {
    let mut findings: Vec<Finding> =
        ItemRule::ALL.into_iter().filter_map(|rule| item_finding(rule, target, item, index, rules)).collect();
    findings.extend(quantity::entry_finding(target, entry, index, rules));
    findings.extend(line_other::findings(target, item, index, rules));
    findings
}
