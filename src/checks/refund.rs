//! `refund`: the person wants to be able to return it and the item is final sale.

use super::{Detail, PreparedItem, Status, Target};
use crate::finding::Compared;
use crate::messages::{ItemName, Message};

pub fn status(target: &Target, item: &PreparedItem) -> Status {
    if !target.needs_refundable {
        return Status::Pass;
    }
    match item.item.final_sale {
        None => Status::Unknown,
        Some(true) => Status::Fail,
        Some(false) => Status::Pass,
    }
}

pub fn detail(_target: &Target, item: &PreparedItem) -> Detail {
    Detail {
        expected: Compared::FinalSale { final_sale: Some(false) },
        actual: Compared::FinalSale { final_sale: item.item.final_sale },
        message: Message::Refund { item: ItemName::of(item.item) },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cart::Item;
    use crate::facts::Facts;

    fn check(needs_refundable: bool, final_sale: Option<bool>) -> Status {
        let target = Target::shared(&Facts { needs_refundable, ..Facts::default() });
        let item = Item { final_sale, ..Item::default() };
        status(&target, &PreparedItem::new(&item))
    }

    #[test]
    fn final_sale_fails_only_when_refundability_was_asked() {
        assert_eq!(check(true, Some(true)), Status::Fail);
        assert_eq!(check(true, Some(false)), Status::Pass);
        assert_eq!(check(true, None), Status::Unknown);
        assert_eq!(check(false, Some(true)), Status::Pass);
        assert_eq!(check(false, None), Status::Pass);
    }
}
