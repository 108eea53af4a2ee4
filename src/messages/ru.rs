//! The Russian table. The person's values and the store's names are quoted
//! as given (a colour stays as the store names it), so the words around
//! them never have to agree with them in case or gender.

use chrono::{Datelike, NaiveDate, Weekday};

use super::{
    Attribute, BriefAsk, BriefKind, BriefPart, BriefValue, Cause, Counted, EntryLine, FeeBlocks, ItemName, Message,
    MissingLine, Money, Period, Place, ScreenRule, Screened, Spoken, listed,
};
use crate::cart::ItemLevel;
use crate::facts::{FieldName, FieldRef, Level};

pub fn render(message: &Message) -> String {
    match message {
        Message::BriefSummary { parts } if parts.is_empty() => {
            "Вы просили: ничего, что я мог бы прочитать как условие; проверку пройдёт любой товар.".to_owned()
        }
        Message::BriefSummary { parts } => {
            let parts: Vec<String> = parts.iter().map(brief_part).collect();
            let joined = parts.join(", ");
            // A last part that ends with an abbreviation ("2 шт.") ends the sentence too.
            let end = if joined.ends_with('.') { "" } else { "." };
            format!("Вы просили: {joined}{end}")
        }
        Message::BriefNotRead => "Я пока не смог прочитать запрос.".to_owned(),
        Message::BriefQuestion { asks } => {
            let lines: Vec<String> = asks.iter().map(|ask| format!("\u{2013} {}", brief_ask(ask))).collect();
            format!("Прежде чем искать, подскажите, пожалуйста:\n{}", lines.join("\n"))
        }
        Message::FormAccept => "Да, всё равно купить".to_owned(),
        Message::FormDecline => "Нет, не покупать".to_owned(),
        Message::FormOwnWords => "Или скажите своими словами".to_owned(),
        Message::FormOwnWordsHint => {
            "Например: «43 тоже подойдёт» или что искать вместо этого. Никаких платёжных данных.".to_owned()
        }
        Message::Brand { wanted, actual, look_alike, item } => {
            let wanted = listed(wanted, "или");
            match (actual, look_alike) {
                (Some(actual), true) => format!(
                    "Вы просили {wanted}, а в корзине {actual} — это лишь похожее написание (буквами другого алфавита): {item}.",
                    item = name(item)
                ),
                (Some(actual), false) => {
                    format!("Вы просили {wanted}, а в корзине {actual}: {item}.", item = name(item))
                }
                (None, _) => {
                    format!("Вы просили {wanted}, а у товара в корзине бренд не указан: {item}.", item = name(item))
                }
            }
        }
        Message::BrandExcluded { excluded, actual, look_alike, item } => {
            let what = if excluded.len() == 1 { "бренд" } else { "бренды" };
            let actual = actual.as_deref().unwrap_or("товар без бренда");
            let look_alike = if *look_alike {
                " (написано похожими буквами другого алфавита)"
            } else {
                ""
            };
            format!(
                "Вы исключили {what} {}, а в корзине {actual}{look_alike}: {item}.",
                listed(excluded, "и"),
                item = name(item)
            )
        }
        Message::Model { wanted, item } => {
            format!("Вы просили модель {}, а в корзине {item}.", listed(wanted, "или"), item = name(item))
        }
        Message::ModelQuoted { quote, item } => format!("Вы просили «{quote}», а в корзине {item}.", item = name(item)),
        Message::Color { wanted, actual, item } => match actual {
            Some(actual) => {
                format!("Вы просили цвет {}, а в корзине {actual}: {item}.", colours(wanted, "или"), item = name(item))
            }
            None => format!(
                "Вы просили цвет {}, а у товара в корзине цвет не указан: {item}.",
                colours(wanted, "или"),
                item = name(item)
            ),
        },
        Message::ColorLater { wanted, actual, first, later, position, item } => format!(
            "Вы просили цвет {}, а в корзине {actual}: основной цвет — {first}, а {later} — только {} цвет: {item}.",
            colours(wanted, "или"),
            ordinal(*position),
            item = name(item)
        ),
        Message::ColorExcluded { excluded, actual, item } => {
            let what = if excluded.len() == 1 { "цвет" } else { "цвета" };
            let actual = actual.as_deref().unwrap_or("товар без цвета");
            format!("Вы исключили {what} {}, а в корзине {actual}: {item}.", colours(excluded, "и"), item = name(item))
        }
        Message::Size { wanted, actual, item } => match actual {
            Some(actual) => {
                format!("Вы просили размер {}, а в корзине {actual}: {item}.", listed(wanted, "или"), item = name(item))
            }
            None => {
                format!(
                    "Вы просили размер {}, а у товара в корзине размер не указан: {item}.",
                    listed(wanted, "или"),
                    item = name(item)
                )
            }
        },
        Message::SizeQuoted { quote, size, item } => {
            format!("Вы просили «{quote}», а в корзине {size}: {item}.", item = name(item))
        }
        Message::Level { wanted, actual, item } => {
            let has = match actual {
                Some(level) => format!("товар {}", item_level(*level)),
                None => "товар без указанного уровня".to_owned(),
            };
            format!("Вы просили товар {}, а в корзине {has}: {item}.", level(*wanted), item = name(item))
        }
        Message::Refund { item } => {
            format!(
                "Вы хотели иметь возможность вернуть товар, а он продаётся без возврата: {item}.",
                item = name(item)
            )
        }
        Message::Deadline { days: deadline, arrives, item } => match arrives {
            Some(arrives) => {
                format!(
                    "Вы просили доставку за {}, а она займёт {}: {item}.",
                    days(*deadline),
                    days(*arrives),
                    item = name(item)
                )
            }
            None => format!(
                "Вы просили доставку за {}, а срок доставки неизвестен: {item}.",
                days(*deadline),
                item = name(item)
            ),
        },
        Message::DeadlineDated { days: deadline, by, quoted, arrives, arrives_on, item } => {
            // The date names the weekday the person said, in the case the
            // sentence needs; their word itself ("пятницы", "Friday") is not
            // quoted, since its case would not fit.
            let wanted = match (deadline, quoted) {
                (0, _) => format!("сегодня, {}", on_date(*by)),
                (_, Some(_)) => by_date(*by),
                (_, None) => format!("{} (за {})", by_date(*by), days(*deadline)),
            };
            format!(
                "Вы просили доставку {wanted}, а товар придёт {} (через {}): {item}.",
                on_date(*arrives_on),
                days(*arrives),
                item = name(item)
            )
        }
        Message::Price { cheaper, cheaper_price, price, item } => format!(
            "Вы просили подешевле, а {cheaper} подходит по всем условиям и стоит {} против {}: {item}.",
            cheaper_price.show(','),
            price.show(','),
            item = name(item),
            cheaper = name(cheaper)
        ),
        Message::MandateMerchant { allowed, actual: Some(actual), item } => format!(
            "Платёжный мандат разрешает только {}, а товар в корзине от {actual}: {item}.",
            allowed.join(" или "),
            item = name(item)
        ),
        Message::MandateMerchant { allowed, actual: None, item } => format!(
            "Платёжный мандат разрешает только {}, а в корзине не сказано, кто продаёт товар: {item}.",
            allowed.join(" или "),
            item = name(item)
        ),
        Message::MandateSku { allowed, actual: Some(actual), item } => format!(
            "Платёжный мандат разрешает только товары {}, а в корзине {actual}: {item}.",
            allowed.join(", "),
            item = name(item)
        ),
        Message::MandateSku { allowed, actual: None, item } => format!(
            "Платёжный мандат разрешает только товары {}, а в корзине не сказано, что это за товар: {item}.",
            allowed.join(", "),
            item = name(item)
        ),
        Message::MandateAmount { limit, at_least: false, total: Some(total) } => {
            format!("Платёжный мандат разрешает не больше {}, а корзина на {}.", limit.show(','), total.show(','))
        }
        Message::MandateAmount { limit, at_least: true, total: Some(total) } => {
            format!("Платёжный мандат требует не меньше {}, а корзина на {}.", limit.show(','), total.show(','))
        }
        Message::MandateAmount { limit, at_least, total: None } => format!(
            "Платёжный мандат разрешает {} {}, а сумма корзины в этой валюте неизвестна.",
            if *at_least { "не меньше" } else { "не больше" },
            limit.show(',')
        ),
        Message::MandateExpired { expired_on, today } => format!(
            "Срок платёжного мандата истёк {} {} {} года, сегодня {} {}: прежде чем покупать, его нужно продлить.",
            expired_on.day(),
            MONTHS[expired_on.month0() as usize],
            expired_on.year(),
            today.day(),
            MONTHS[today.month0() as usize]
        ),
        Message::ExplicitMax { max, total, beyond } => {
            let shown = if *beyond {
                format!("больше чем на {}", total.show(','))
            } else {
                format!("на {}", total.show(','))
            };
            format!("Вы просили потратить не больше {}, а в корзине товаров {shown}.", max.show(','))
        }
        Message::Quantity { wanted, actual, entries } => {
            let contents: Vec<String> = entries.iter().map(counted).collect();
            let wanted: Vec<String> = wanted.iter().map(u64::to_string).collect();
            format!("Вы просили {} шт., а в корзине {actual} шт.: {}.", listed(&wanted, "или"), contents.join(", "))
        }
        Message::Other { text, items } => {
            format!("Вы указали «{text}»; проверить это по товару я не могу: {}.", names(items))
        }
        Message::ItemPriceOver { max, price, item } => format!(
            "Вы просили этот товар не дороже {} за штуку; «{}» стоит {}.",
            max.show(','),
            name(item),
            price.show(',')
        ),
        Message::Product { wanted, item } => {
            format!("Вы просили «{wanted}»; в корзине «{}».", name(item))
        }
        Message::OtherSaid { text, said, item } => {
            format!("«{text}»: у товара указано «{said}» ({}).", name(item))
        }
        Message::OtherListed { text, items } => {
            let says: Vec<String> =
                items.iter().map(|says| format!("«{}» ({})", says.said, name(&says.item))).collect();
            format!("«{text}»: в корзине есть каждое: {}.", says.join(", "))
        }
        Message::OtherCategory { text, items } => {
            format!("«{text}» — категория магазина, а не свойство товара; в словах товара её нет: {}.", names(items))
        }
        Message::OtherContradicted { text, items } => {
            let says: Vec<String> =
                items.iter().map(|says| format!("«{}» ({})", says.said, name(&says.item))).collect();
            let verb =
                if items.len() > 1 { "у товаров указано" } else { "у товара указано" };
            format!("Вы просили «{text}»; {verb} {}.", says.join(", "))
        }
        Message::OtherOptional { text, items } => {
            format!("Вы указали как пожелание «{text}»; проверить это по товару я не могу: {}.", names(items))
        }
        Message::Unchecked { field, attribute, item } => format!(
            "Не удалось проверить {}: магазин не указывает{}: {item}.",
            field_name(*field),
            attribute_name(*attribute),
            item = name(item)
        ),
        Message::MixedCurrencies { seen, other, item } => {
            format!(
                "Не удалось проверить бюджет: в корзине смешаны валюты {seen} и {other}: {item}.",
                item = name(item)
            )
        }
        Message::LimitInOtherCurrency { max, cart_currency, items } => format!(
            "Не удалось проверить бюджет: он указан как {}, а цены в корзине в {cart_currency}: {}.",
            max.show(','),
            names(items)
        ),
        Message::PriceBelowFloor { floor, price, item } => format!(
            "Вы просили товар не дешевле {}, а он стоит {}: {item}.",
            floor.show(','),
            price.show(','),
            item = name(item)
        ),
        Message::FloorInOtherCurrency { floor, item_currency, item } => format!(
            "Не удалось проверить нижнюю границу цены: она указана как {}, а цена товара в {item_currency}: {item}.",
            floor.show(','),
            item = name(item)
        ),
        Message::PaidAboveLimit { max, paid, items } => format!(
            "Вы просили потратить не больше {}; к оплате {}, из них {} за товары.",
            max.show(','),
            paid.show(','),
            items.show(',')
        ),
        Message::LimitCurrencyUnknown { max, paid } => format!(
            "Ваш бюджет — {}, а корзина стоит {}: курса обмена мне не дали, и я не могу сказать, укладывается ли она в бюджет.",
            max.show(','),
            paid.show(',')
        ),
        Message::ConvertedAboveLimit { max, paid, converted, rate, date: day } => format!(
            "Вы просили потратить не больше {}; корзина стоит {}, это {} по курсу {rate} на {}.",
            max.show(','),
            paid.show(','),
            converted.show(','),
            date(*day)
        ),
        Message::TotalMismatch { stated, parts } => {
            let (more, difference) = if stated.minor >= parts.minor {
                ("больше", stated.minor - parts.minor)
            } else {
                ("меньше", parts.minor - stated.minor)
            };
            format!(
                "Итог к оплате — {}, это на {} {more}, чем сумма его частей ({}): разница ничем не объяснена.",
                stated.show(','),
                Money { minor: difference, currency: stated.currency.clone() }.show(','),
                parts.show(',')
            )
        }
        Message::Fee { label, amount, blocks } => match blocks {
            FeeBlocks::No => format!("Магазин добавляет сбор: «{label}», {}.", amount.show(',')),
            FeeBlocks::NoExtraCharges => {
                format!("Вы просили без дополнительных сборов, а магазин добавляет «{label}», {}.", amount.show(','))
            }
            FeeBlocks::PastLimit { max } => format!(
                "Магазин добавляет «{label}», {}, и с ним оплата выходит за ваш бюджет {}.",
                amount.show(','),
                max.show(',')
            ),
        },
        Message::Recurring { said, trial: false, item } => {
            format!("«{}» — регулярное списание («{said}»), а вы его не просили.", name(item))
        }
        Message::Recurring { said, trial: true, item } => {
            format!(
                "«{}» — пробный период, после которого начнутся списания («{said}»), а вы его не просили.",
                name(item)
            )
        }
        Message::RecurringPeriod { wanted, found, item } => format!(
            "Вы просили {} доставку; «{}» продлевается {}.",
            period_adjective(*wanted),
            name(item),
            period_adverb(*found)
        ),
        Message::NoFeesMet { text } => format!("«{text}»: магазин не добавляет сборов."),
        Message::AddonMet { text, item } => format!("«{text}»: в корзине есть «{}».", name(item)),
        Message::Addon { item } => format!("В корзину добавлено «{}», а вы этого не просили.", name(item)),
        Message::RecurringMet { text, item } => {
            format!("«{text}»: «{}» — регулярная доставка, которую вы просили.", name(item))
        }
        Message::ShippingCharged { shipping } => {
            format!("Вы просили бесплатную доставку, а в корзине доставка стоит {}.", shipping.show(','))
        }
        Message::ShippingUnknown => {
            "Вы просили бесплатную доставку, а в корзине не сказано, сколько стоит доставка.".to_owned()
        }
        Message::Extra { item } => format!("Этого вы не просили: {item}.", item = name(item)),
        Message::TooManyLines { lines, entries, bound } => format!(
            "В заказе слишком много позиций и товаров, чтобы их сопоставить ({lines} {}, {entries} {} в корзине; предел — {bound}): проверьте заказ сами, пожалуйста.",
            plural(*lines as u64, "позиция", "позиции", "позиций"),
            plural(*entries as u64, "товар", "товара", "товаров"),
        ),
        Message::Missing(line) => format!("Вы просили {}, но в корзине для этого ничего нет.", missing(line)),
        Message::Accepted(inner) => format!("{} (вы согласились)", render(inner).trim_end_matches('.')),
        Message::Declined(inner) => format!("{} (вы отказались)", render(inner).trim_end_matches('.')),
        Message::CouldNotCheck { found: None } => "Не удалось проверить заказ по вашему запросу.".to_owned(),
        Message::CouldNotCheck { found: Some(found) } => {
            format!("Не удалось проверить заказ по вашему запросу: {}.", screened(found))
        }
        Message::CouldNotCheckQuestion { cause, entries } => {
            let cause = match cause {
                Cause::Screened(found) => screened(found),
                Cause::ReadingFailed => {
                    "не сработала часть, которая читает ваш запрос (модель не ответила или ответила в непригодном виде)"
                        .to_owned()
                }
            };
            let mut text = format!(
                "Не получилось сверить этот заказ с вашим запросом, потому что {cause}.\nВот что я собираюсь купить:"
            );
            for entry in entries {
                text.push_str("\n\u{2013} ");
                text.push_str(&entry_line(entry));
            }
            text.push_str("\nПокупать?");
            text
        }
        Message::Question { reasons } => {
            let mut text = String::from("Прежде чем покупать, проверьте, пожалуйста:");
            for reason in reasons {
                text.push_str("\n\u{2013} ");
                text.push_str(reason);
            }
            text.push_str("\nВсё равно покупать?");
            text
        }
        Message::RetryBudget { attempts } => format!(
            "Этот заказ уже проверен {} {}, больше проверок не будет: покупать ли его, решать вам.",
            attempts,
            plural(u64::from(*attempts), "раз", "раза", "раз")
        ),
        Message::Dropped { extractor, field: Spoken::Field(FieldRef::Shared(FieldName::NeedsRefundable)), .. } => {
            format!(
                "Модуль разбора запроса ({extractor}) решил, что вам нужна возможность возврата, но в запросе этого нет; не учтено"
            )
        }
        Message::Dropped { extractor, field: Spoken::Field(FieldRef::Shared(FieldName::Product)), value } => {
            format!(
                "Модуль разбора запроса ({extractor}) решил, что вы просили «{value}», но в запросе этого нет; не учтено"
            )
        }
        Message::Dropped {
            extractor,
            field: Spoken::Field(FieldRef::Line { index, field: FieldName::Product }),
            value,
        } => {
            format!(
                "Модуль разбора запроса ({extractor}) прочитал позицию {} как «{value}», но в запросе этого нет; не учтено",
                index + 1
            )
        }
        Message::Dropped { extractor, field, value } => format!(
            "Модуль разбора запроса ({extractor}) прочитал {} как «{value}», но в запросе этого нет; не учтено",
            spoken(field)
        ),
        Message::DroppedSoft { extractor, field } => format!(
            "Модуль разбора запроса ({extractor}) счёл необязательным условие «{}», но в запросе этого нет; не учтено",
            spoken(field)
        ),
    }
}

/// Fields as people say them, in the accusative ("проверить размер").
pub fn field_name(field: FieldName) -> &'static str {
    match field {
        FieldName::Brand => "бренд",
        FieldName::BrandNot => "исключённые бренды",
        FieldName::Model => "модель",
        FieldName::Color => "цвет",
        FieldName::ColorNot => "исключённые цвета",
        FieldName::SizeLabel => "размер",
        FieldName::Level => "уровень",
        FieldName::PricePreference => "пожелание по цене",
        FieldName::ExplicitMaxCents => "бюджет",
        FieldName::Quantity => "количество",
        FieldName::NeedsRefundable => "возможность возврата",
        FieldName::DeadlineDays => "срок доставки",
        FieldName::Lines => "состав заказа",
        FieldName::Other => "требование",
        FieldName::OtherOptional => "пожелание",
        FieldName::Product => "что это за товар",
        FieldName::PriceMinCents => "нижнюю границу цены",
        FieldName::FreeShipping => "бесплатную доставку",
    }
}

pub(super) fn spoken(field: &Spoken) -> String {
    match field {
        Spoken::Field(FieldRef::Shared(field)) => field_name(*field).to_owned(),
        Spoken::Field(FieldRef::Line { index, field }) => format!("{} для позиции {}", field_name(*field), index + 1),
        Spoken::BrandAny => "другой подходящий бренд".to_owned(),
        Spoken::ColorAny => "другой подходящий цвет".to_owned(),
        Spoken::SizeAny => "другой подходящий размер".to_owned(),
        Spoken::LimitCurrency => "валюту бюджета".to_owned(),
        Spoken::Unknown(name) => name.clone(),
    }
}

/// What the store does not say, right after "не указывает": an object, or
/// a clause after a comma.
fn attribute_name(attribute: Attribute) -> &'static str {
    match attribute {
        Attribute::Brand => " бренд товара",
        Attribute::Name => " название товара",
        Attribute::Colour => " цвет товара",
        Attribute::Size => " размер товара",
        Attribute::Level => " уровень товара",
        Attribute::FinalSale => ", можно ли вернуть товар",
        Attribute::DeliveryTime => " срок доставки",
        Attribute::Units => ", сколько штук в упаковке",
        Attribute::Price => " цену",
    }
}

/// A stated level after "товар".
fn level(level: Level) -> &'static str {
    match level {
        Level::Beginner => "для начинающих",
        Level::Intermediate => "среднего уровня",
        Level::Pro => "профессионального уровня",
    }
}

fn item_level(level: ItemLevel) -> &'static str {
    match level {
        ItemLevel::Beginner => "для начинающих",
        ItemLevel::Intermediate => "среднего уровня",
        ItemLevel::Pro => "профессионального уровня",
        ItemLevel::Any => "для любого уровня",
    }
}

/// The Russian plural of a count: one (1, 21, 101), few (2–4, 22–24), many
/// (0, 5–20, 11–14, 25–30, …).
pub fn plural<'a>(count: u64, one: &'a str, few: &'a str, many: &'a str) -> &'a str {
    if (11..=14).contains(&(count % 100)) {
        return many;
    }
    match count % 10 {
        1 => one,
        2..=4 => few,
        _ => many,
    }
}

/// `1 день`, `3 дня`, `8 дней` (the accusative is the nominative here).
fn days(count: u64) -> String {
    format!("{count} {}", plural(count, "день", "дня", "дней"))
}

/// «чёрный» или «синий».
fn quoted(values: &[String], last: &str) -> String {
    let quoted: Vec<String> = values.iter().map(|value| format!("«{value}»")).collect();
    listed(&quoted, last)
}

/// The person's colours in Russian: an extractor may give the English
/// colour word for "чёрные" (the rules extractor always does), which reads
/// oddly in a Russian sentence. A value that is exactly one common colour
/// word is named in Russian (masculine, as after "цвет"); anything else, and
/// every colour of an item, stays as given.
fn colours(values: &[String], last: &str) -> String {
    let named: Vec<String> = values.iter().map(|value| colour(value).unwrap_or(value).to_owned()).collect();
    quoted(&named, last)
}

fn colour(value: &str) -> Option<&'static str> {
    Some(match value.trim().to_lowercase().as_str() {
        "black" => "чёрный",
        "white" => "белый",
        "red" => "красный",
        "blue" => "синий",
        "navy" | "navy blue" | "dark blue" => "тёмно-синий",
        "light blue" => "голубой",
        "green" => "зелёный",
        "yellow" => "жёлтый",
        "silver" => "серебристый",
        "grey" | "gray" => "серый",
        "pink" => "розовый",
        "purple" => "фиолетовый",
        "orange" => "оранжевый",
        "brown" => "коричневый",
        "beige" => "бежевый",
        "gold" => "золотой",
        "turquoise" => "бирюзовый",
        "burgundy" => "бордовый",
        "khaki" => "хаки",
        "lime" => "салатовый",
        _ => return None,
    })
}

/// `второй`, `третий`, else `5-й`.
fn ordinal(position: usize) -> String {
    match position {
        2 => "второй".to_owned(),
        3 => "третий".to_owned(),
        4 => "четвёртый".to_owned(),
        _ => format!("{position}-й"),
    }
}

const MONTHS: [&str; 12] = [
    "января",
    "февраля",
    "марта",
    "апреля",
    "мая",
    "июня",
    "июля",
    "августа",
    "сентября",
    "октября",
    "ноября",
    "декабря",
];

/// `к пятнице, 6 ноября`, `ко вторнику, 3 ноября`.
fn by_date(day: NaiveDate) -> String {
    let weekday = match day.weekday() {
        Weekday::Mon => "к понедельнику",
        Weekday::Tue => "ко вторнику",
        Weekday::Wed => "к среде",
        Weekday::Thu => "к четвергу",
        Weekday::Fri => "к пятнице",
        Weekday::Sat => "к субботе",
        Weekday::Sun => "к воскресенью",
    };
    format!("{weekday}, {} {}", day.day(), MONTHS[day.month0() as usize])
}

/// `во вторник, 10 ноября`.
fn on_date(day: NaiveDate) -> String {
    let weekday = match day.weekday() {
        Weekday::Mon => "в понедельник",
        Weekday::Tue => "во вторник",
        Weekday::Wed => "в среду",
        Weekday::Thu => "в четверг",
        Weekday::Fri => "в пятницу",
        Weekday::Sat => "в субботу",
        Weekday::Sun => "в воскресенье",
    };
    format!("{weekday}, {} {}", day.day(), MONTHS[day.month0() as usize])
}

fn counted(entry: &Counted) -> String {
    match entry.units {
        Some(units) if units != 1 => {
            format!("{} \u{d7} {} (по {units} шт. в упаковке)", entry.quantity, name(&entry.name))
        }
        _ => format!("{} \u{d7} {}", entry.quantity, name(&entry.name)),
    }
}

fn missing(line: &MissingLine) -> String {
    let mut parts = Vec::new();
    let counts: Vec<String> = line.quantity.iter().map(u64::to_string).collect();
    parts.extend(line.product.clone());
    parts.extend((!line.model.is_empty()).then(|| listed(&line.model, "или")));
    parts.extend((!line.colour.is_empty()).then(|| format!("цвет {}", colours(&line.colour, "или"))));
    parts.extend((!line.size.is_empty()).then(|| format!("размер {}", listed(&line.size, "или"))));
    parts.extend((!counts.is_empty()).then(|| format!("{} шт.", listed(&counts, "или"))));
    if parts.is_empty() { format!("позицию {}", line.index + 1) } else { parts.join(", ") }
}

/// `2 × Nike Pegasus 41 (White/Black, EU 44), 159,99 USD за штуку`.
fn entry_line(entry: &EntryLine) -> String {
    let mut text = format!("{} \u{d7} {}", entry.quantity, name(&entry.name));
    if !entry.details.is_empty() {
        text.push_str(&format!(" ({})", entry.details.join(", ")));
    }
    if let Some(price) = &entry.price {
        text.push_str(&format!(", {}", price.show(',')));
        if entry.quantity > 1 {
            text.push_str(" за штуку");
        }
    }
    text
}

fn screened(found: &Screened) -> String {
    let place = match &found.place {
        Place::Request => "в запросе".to_owned(),
        Place::Answer(number) => format!("в ответе {number}"),
        Place::Other(name) => format!("в поле {name}"),
    };
    format!(
        "{place} есть текст, обращённый к проверке, а не описание покупки ({}: «{}»)",
        screen_rule(found.rule),
        found.excerpt
    )
}

fn screen_rule(rule: ScreenRule) -> &'static str {
    match rule {
        ScreenRule::RoleLabel => "метка роли, обращённая к модели",
        ScreenRule::ChatMarkup => "разметка чата",
        ScreenRule::Delimiter => "собственные разделители проверки",
        ScreenRule::FactsBlock => "блок полей и значений",
        ScreenRule::Override => "указание игнорировать правила",
        ScreenRule::Command => "команда о результате проверки",
        ScreenRule::FieldVocabulary => "поля, объявленные необязательными",
        ScreenRule::ThirdPartyApproval => "согласие, заявленное от имени покупателя",
        ScreenRule::ModeSwitch => "указание сменить режим или роль",
        ScreenRule::Encoded => "закодированное указание",
    }
}

/// An item as a reason names it.
fn name(item: &ItemName) -> &str {
    item.0.as_deref().unwrap_or("товар без названия")
}

fn names(items: &[ItemName]) -> String {
    items.iter().map(name).collect::<Vec<_>>().join(", ")
}

fn brief_part(part: &BriefPart) -> String {
    let text = match &part.kind {
        BriefKind::Product(product) => product.clone(),
        BriefKind::Colours(values) => colours(values, "или"),
        BriefKind::Sizes(sizes) => format!("размер {}", sizes.join(" или ")),
        BriefKind::Level(wanted) => level(*wanted).to_owned(),
        BriefKind::Quantity(counts) => {
            let counts: Vec<String> = counts.iter().map(u64::to_string).collect();
            format!("{} шт.", listed(&counts, "или"))
        }
        BriefKind::Line { index, quantity, words, size } => {
            let mut all: Vec<String> = quantity.iter().map(|quantity| format!("{quantity} ×")).collect();
            all.extend(words.iter().cloned());
            all.extend(size.iter().map(|size| format!("размер {size}")));
            format!("позиция {}: {}", index + 1, all.join(" "))
        }
        BriefKind::Cheap => "как можно дешевле".to_owned(),
        BriefKind::Premium => "премиального класса".to_owned(),
        BriefKind::Limit(max) => format!("не дороже {}", max.show(',')),
        BriefKind::Returnable => "с возможностью возврата".to_owned(),
        BriefKind::Deadline { days: count, by: Some(by) } => {
            format!("с доставкой за {} ({})", days(*count), by_date(*by))
        }
        BriefKind::Deadline { days: count, by: None } => format!("с доставкой за {}", days(*count)),
        BriefKind::NotBrands(brands) => {
            let brands: Vec<String> = brands.iter().map(|brand| format!("не {brand}")).collect();
            brands.join(", ")
        }
        BriefKind::NotColours(values) => format!("цвет — не {}", colours(values, "и не")),
        BriefKind::MustBe(requirements) => format!("обязательно: {}", requirements.join("; ")),
        BriefKind::NiceToHave(wishes) => format!("желательно: {}", wishes.join("; ")),
    };
    if part.optional { format!("{text} (необязательно)") } else { text }
}

fn brief_value(value: &BriefValue) -> String {
    match value {
        BriefValue::Nothing => "ничего".to_owned(),
        BriefValue::Yes => "да".to_owned(),
        BriefValue::No => "нет".to_owned(),
        BriefValue::Amount(amount) => amount.show(','),
        BriefValue::Number(number) => number.to_string(),
        BriefValue::Words(words) => format!("«{words}»"),
    }
}

fn brief_ask(ask: &BriefAsk) -> String {
    match ask {
        BriefAsk::Which { field, values } => {
            let values: Vec<String> = values.iter().map(brief_value).collect();
            format!("Что вы имели в виду — {}: {}?", spoken(field), values.join(" или "))
        }
        BriefAsk::Optional { field } => {
            format!("Условие «{}» для вас необязательное? В ваших словах этого нет.", spoken(field))
        }
        BriefAsk::Confirm { field, value } => {
            format!("Нужно ли условие «{}»: «{value}»? В ваших словах этого нет.", spoken(field))
        }
        BriefAsk::Unreadable => "Я не смог прочитать ваш запрос. Что купить — в двух словах?".to_owned(),
    }
}

fn period_adjective(period: Period) -> &'static str {
    match period {
        Period::Week => "еженедельную",
        Period::Month => "ежемесячную",
        Period::Quarter => "ежеквартальную",
        Period::Year => "ежегодную",
    }
}

fn period_adverb(period: Period) -> &'static str {
    match period {
        Period::Week => "каждую неделю",
        Period::Month => "каждый месяц",
        Period::Quarter => "каждый квартал",
        Period::Year => "каждый год",
    }
}

/// `1 ноября 2026`.
fn date(day: NaiveDate) -> String {
    format!("{} {} {}", day.day(), MONTHS[day.month0() as usize], day.year())
}
