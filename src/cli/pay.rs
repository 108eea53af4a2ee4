//! `asasked pay`: the guarded payment from the command line. Checks the cart
//! as `check --request` does, then pays at most once through the payment
//! service's Agentic Action Profile (`crate::pay`), with the payment ledger
//! in the data folder beside the evidence. `--reconcile REQUEST_ID` only
//! reads a payment's status. The result is printed as JSON; the person
//! running it named the profile, so any origin is approved.

use std::io::Write;

use super::args::PayArguments;
use super::{CommandError, InputError, Outcome, build_service, read_flag_json, runtime};
use crate::pay::ledger::PayLedger;
use crate::pay::{AmountField, AmountUnit, Approval, PayError, PayRequest, Payer, Payment, PaymentState};
use crate::service::{Answer, CheckError, CheckRequest};

/// Runs `asasked pay`; clear only when the payment succeeded.
pub fn pay(
    arguments: &PayArguments,
    env: &dyn Fn(&str) -> Option<String>,
    out: &mut impl Write,
) -> Result<Outcome, CommandError> {
    let options = arguments.service.options();
    let service = build_service(&options, env)?;
    let payer = Payer::new(PayLedger::open(&options.data_dir)?, Approval::Any)?;
    let result = match &arguments.reconcile {
        Some(request_id) => runtime()?.block_on(payer.reconcile(&service, request_id))?,
        None => {
            let request = pay_request(arguments)?;
            runtime()?.block_on(payer.pay(&service, request)).map_err(|error| match error {
                PayError::Check(error @ CheckError::InvalidArgument { .. }) => CommandError::InvalidArgument(error),
                PayError::Check(error) => CommandError::Check(error),
                other => CommandError::Pay(other),
            })?
        }
    };
    if let Some(request_id) = &result.request_id {
        eprintln!("asasked: payment request {request_id} recorded in {}", payer.ledger().path().display());
    }
    serde_json::to_writer_pretty(&mut *out, &result)?;
    writeln!(out)?;
    Ok(if result.payment == PaymentState::Succeeded { Outcome::Clear } else { Outcome::Flagged })
}

/// The tool's arguments from the flags (clap requires each flag read here
/// unless --reconcile is given).
fn pay_request(arguments: &PayArguments) -> Result<PayRequest, CommandError> {
    let required = |flag: Option<&std::path::PathBuf>, name: &'static str| {
        flag.cloned().ok_or(InputError::Invalid { path: name.into(), message: "required".into() })
    };
    let cart = read_flag_json("--cart", &required(arguments.cart.as_ref(), "--cart")?)?;
    let input = read_flag_json("--input", &required(arguments.input.as_ref(), "--input")?)?;
    let request = match arguments.request.as_deref().unwrap_or_default() {
        text if text.starts_with("@@") => serde_json::Value::String(text[1..].to_owned()),
        text if text.starts_with('@') => read_flag_json("--request", std::path::Path::new(&text[1..]))?,
        text => serde_json::Value::String(text.to_owned()),
    };
    let answers: Vec<Answer> = match &arguments.answers {
        Some(path) => read_flag_json("--answers", path)?,
        None => Vec::new(),
    };
    let allowed_items = match &arguments.allowed {
        Some(path) => Some(read_flag_json("--allowed", path)?),
        None => None,
    };
    let check = CheckRequest {
        request,
        cart,
        answers,
        today: arguments.today.clone(),
        allowed_items,
        previous_record_id: arguments.previous_record_id.clone(),
        format: None,
        language: arguments.language,
        fx: Vec::new(),
    };
    let payment = Payment {
        profile: arguments.profile.clone().unwrap_or_default(),
        action: arguments.action.clone().unwrap_or_default(),
        input,
        amount: AmountField {
            pointer: arguments.amount_pointer.clone(),
            unit: if arguments.amount_unit == "minor" { AmountUnit::Minor } else { AmountUnit::Decimal },
            currency_pointer: arguments.currency_pointer.clone(),
        },
    };
    Ok(PayRequest { check, payment })
}
