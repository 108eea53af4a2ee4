//! `deadline`: the item arrives after the stated deadline (equal is in time).

use super::{Detail, PreparedItem, Status, Target};
use crate::finding::Compared;
use crate::messages::{ItemName, Message};

pub fn status(target: &Target, item: &PreparedItem) -> Status {
    let Some(deadline) = target.deadline_days else { return Status::Pass };
    match item.item.delivery_days {
        None => Status::Unknown,
        Some(days) if days > deadline => Status::Fail,
        Some(_) => Status::Pass,
    }
}

pub fn detail(target: &Target, item: &PreparedItem) -> Detail {
    let deadline = target.deadline_days.unwrap_or_default();
    let days = item.item.delivery_days;
    Detail {
        expected: Compared::DeliveryWithin { delivery_days_at_most: deadline },
        actual: Compared::Delivery { delivery_days: days },
        message: Message::Deadline { days: deadline, arrives: days, item: ItemName::of(item.item) },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cart::Item;
    use crate::facts::Facts;

    fn check(deadline: u64, delivery: Option<u64>) -> Status {
        let target = Target::shared(&Facts { deadline_days: Some(deadline), ..Facts::default() });
        let item = Item { delivery_days: delivery, ..Item::default() };
        status(&target, &PreparedItem::new(&item))
    }

    #[test]
    fn later_than_the_deadline_fails_and_equal_passes() {
        assert_eq!(check(3, Some(4)), Status::Fail);
        assert_eq!(check(3, Some(3)), Status::Pass);
        assert_eq!(check(0, Some(0)), Status::Pass);
        assert_eq!(check(3, None), Status::Unknown);
    }
}
