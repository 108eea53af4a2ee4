//! The `check_order` and `brief_order` tools (and `verify_verdict`): their wire description (title, description for the
//! calling model, annotations) and the mapping of a check's result or error
//! to a tool result. Transports live beside it and never look inside.

use std::collections::BTreeSet;
use std::time::Duration;

use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::tool::{InputResponses, IntoCallToolResult, RequestState, schema_for_output};
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{
    CallToolResponse, CallToolResult, ContentBlock, Implementation, ServerCapabilities, ServerConfig, ToolAnnotations,
};
use rmcp::service::RequestContext;
use rmcp::{Json, RoleServer, ServerHandler, tool, tool_handler, tool_router};

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::Value;

use super::elicit;
use super::rounds::{RoundError, Rounds, Step};
use crate::decision::Decision;
use crate::pay::{PayError, PayRequest, PayResult, Payer};
use crate::principal::Principal;
use crate::receipt::Verification;
use crate::service::{BriefRequest, BriefResult, CheckError, CheckRequest, CheckResult, Service};

/// The tool's name on the wire.
pub const TOOL_NAME: &str = "check_order";
/// The tool's human title.
pub const TOOL_TITLE: &str = "Check the cart against the person's request before paying";
/// The server's name on the wire.
pub const SERVER_NAME: &str = "asasked";

const TOOL_DESCRIPTION: &str = "Call this BEFORE paying for any order you placed on a person's behalf. It checks \
whether the cart matches what the person asked for (brand, model, colour, size, level, returnability, delivery \
deadline, quantity, budget, price preference, stated requirements) and seals the check as evidence.\n\
Pass `request` = the person's own words, verbatim, and `cart` = what you are about to buy: a JSON list (not a \
string), each entry `{id, quantity}` for a catalog item (no other attributes beside a catalog id) or the item's \
attributes. Send every attribute you know, as each one lets a check run instead of becoming a note that it could \
not: `brand`, `name` (with the model), `color`, `size`, `level`, `price` (or `price_cents`) with `currency` (ISO \
4217, for a budget in a currency), `returnable` (false = final sale), `delivery_days` (for a deadline), `units` \
(how many of what the person counts one entry unit holds: a 3-can pack is 3; absent in a flat item = 1). Send \
the item's own words too: `description`, `category` and `attributes` (`{\"Material\": \"Denim\", \"Wattage\": \"65 W\"}`, \
every name and value the store shows): they let the guard check what the person required beyond the attributes \
above (a material, a feature, a spec); what the item's words do not say is put to the person as a question.\n\
If you hold the checkout in a commerce protocol's shape, send it as it is instead: `cart` = a UCP checkout, an ACP \
CheckoutSession or an AP2 CartMandate object; `request` = the person's words, or the AP2 IntentMandate holding \
them (or `{text, mandates}` with AP2 v0.2 open mandates), whose merchants, SKUs, amount and expiry are then checked \
too. The findings also come as ACP `messages` with `param` pointing into what you sent, under `acp`.\n\
The budget is compared with what the person pays: the checkout's stated total (a flat cart may give `shipping`, \
`tax` and `fees` per entry, `fees` as `[{name, amount}]`). A budget in another currency than the cart's is put to \
the person unless you pass `fx` = `[{from, to, rate, date}]`, an exchange rate you hold with its date.\n\
Result `decision`:\n\
- `proceed`: you may pay. Show any `notes` to the person.\n\
- `ask`: do NOT pay. Show `question` to the person exactly as given and wait for their reply. Then either fix the \
cart and call again with `previous_record_id` = this result's `record_id`, or call again with `previous_record_id` \
and `answers`: one `{finding_id, reply}` per finding the person answered, where reply is `accept` (they knowingly \
accept it), `decline`, or their own words (\"43 is fine too\"). Never answer on the person's behalf.\n\
If the request could not be checked, the one finding is `engine_error@$` and the question asks the person whether \
to buy anyway; send `accept` for it only if they said yes.\n\
The reasons, notes and question are in the request's language (English or Russian); pass `language` (`en`, `ru`) \
if the person reads another one than the request is written in.\n\
An `ask` is a normal result, not an error. After max_attempts (3) checks of one order, the person must decide.\n\
If your client supports elicitation, the person may be shown the question as a form during this call: the result \
then already includes their answer (its `attempt` is higher); act on its `decision` as above. If you called \
brief_order with the same `request` and `today`, the check reuses its facts.";

/// The brief tool's name on the wire.
pub const BRIEF_TOOL_NAME: &str = "brief_order";
/// The brief tool's human title.
pub const BRIEF_TOOL_TITLE: &str = "Read the person's request into a shopping brief before shopping";

const BRIEF_DESCRIPTION: &str = "Call this when you START shopping for a person, before you search: it reads their \
request once and returns a brief to shop by, so the check before paying is instant. Pass `request` = the person's \
own words, verbatim (and `today` if you know it).\n\
Result: `summary` (what they asked for in plain words: shop for this), `facts` (the same facts check_order will \
compare the cart with), `unclear` (fields the extractors disagreed on, or values a model read that the words do \
not say) and, when something is unclear, `question`: show it to the person verbatim now and shop by their reply \
(if they restate what they want, their new words are the request). If your client supports elicitation, the \
person may be asked directly during this call; the brief then already holds their reply, and its `request` has \
their words added. Later call check_order with the brief's `request` and `today`. The summary and question are in the request's language (English or Russian); pass `language` (`en`, `ru`) to choose. A brief decides nothing and is not evidence: only check_order's `proceed` allows paying.";

/// The receipt tool's name on the wire.
pub const VERIFY_TOOL_NAME: &str = "verify_verdict";

const VERIFY_DESCRIPTION: &str = "For a merchant or payment gateway about to take a payment: is this `receipt` \
(from a `proceed` of check_order) signed by this server, unexpired, and for exactly this cart? Pass `token` = the \
receipt and `cart` = the cart being paid, in any shape check_order accepts. `result` is `valid` (take the payment), \
`expired`, `cart_changed`, `unknown_key`, `bad_signature` or `malformed` (refuse it). Single use is yours: remember \
each accepted `claims.nonce` until `claims.exp`. Offline verifiers use the public keys at /.well-known/jwks.json.";

/// The arguments of `verify_verdict`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct VerifyRequest {
    /// The receipt, as check_order returned it.
    pub token: String,
    /// The cart about to be paid; without it only the signature and expiry are checked.
    #[serde(default)]
    pub cart: Option<Value>,
    /// The `today` the check was made with, when one was given (a UCP or
    /// ACP checkout's delivery days count from it). Default: the server's date.
    #[serde(default)]
    pub today: Option<String>,
}

/// The payment tool's name on the wire.
pub const PAY_TOOL_NAME: &str = "pay_order";
/// The payment tool's human title.
pub const PAY_TOOL_TITLE: &str = "Check the cart, then pay at most once";

const PAY_DESCRIPTION: &str = "Pay for an order through the payment service's Agentic Action Profile, guarded: \
this tool first runs check_order on `check` (the very same arguments: `request` = the person's own words \
verbatim, `cart`, and `today`, `answers`, `previous_record_id`, `language`, `fx` as needed), and pays only on \
`proceed`.\n\
`payment` = {`profile`: the URL of the service's agentic.json, `action`: the id of its payment action, `input`: the \
exact JSON object to submit (whatever the service's OpenAPI asks for), `amount` (optional): where the amount is in \
`input` (`pointer`, default `/amount`), how it is written (`unit`: `decimal` as \"139.99\", the default, or \
`minor` as 13999) and where its currency is (`currency_pointer`, default `/currency` when present)}. The amount \
must equal the checked cart's total (what the person pays) and the currency the cart's, or nothing is paid and the \
error names both amounts. Only origins this server approves can be paid.\n\
Result: `decision` and `payment`.\n\
- `ask` / `not_submitted`: nothing was paid or sent. Show `question` to the person verbatim; continue as after a \
check_order `ask` (answers in `check.answers` with `check.previous_record_id` = this `record_id`, then call this \
tool again).\n\
- `succeeded`: paid once and verified; keep `receipt` (its `request_id` is the Idempotency-Key sent).\n\
- `failed`: the service says the payment did not happen.\n\
- `pending` or `unknown`: the payment may or may not have happened. NEVER pay again by any other means. Call this \
tool again later with exactly the same arguments: it never submits twice (`submitted` stays false) and only reads \
the service's status, or tell the person it needs checking by hand.\n\
Calling again with the same arguments after any outcome is always safe: it returns the recorded receipt or reads \
the status. A profile that changed since the payment was created, a redirect and an oversized answer are refused.";

const INSTRUCTIONS: &str = "asasked is a pre-checkout guard. When you start shopping for a person, call brief_order \
with their verbatim request and shop by its summary. Before paying, call check_order with the same request and the \
cart. Pay only on decision `proceed`; on `ask`, show the question \
to the person and never pay until a re-check proceeds.";

/// The tool handler, shared by both transports.
#[derive(Clone)]
pub struct CheckServer {
    service: Service,
    /// The 2026-07-28 elicitation rounds; without them those clients get
    /// the plain `ask`.
    rounds: Option<Rounds>,
    /// How long a 2025-11-25 form may wait for the person.
    form_timeout: Duration,
    /// Pays for `pay_order`; without it the tool is not offered.
    payer: Option<Payer>,
    tool_router: ToolRouter<CheckServer>,
}

impl std::fmt::Debug for CheckServer {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter.debug_struct("CheckServer").field("service", &self.service).finish()
    }
}

#[tool_router]
impl CheckServer {
    /// `open_world`: a hosted extractor sends the request to a third party,
    /// which the `openWorldHint` annotation must disclose.
    pub fn new(service: Service, open_world: bool) -> CheckServer {
        let mut tool_router = Self::tool_router() + Self::brief_router() + Self::verify_router();
        if let Some(route) = tool_router.map.get_mut(TOOL_NAME) {
            route.attr.annotations = Some(
                ToolAnnotations::with_title(TOOL_TITLE)
                    .read_only(true)
                    .destructive(false)
                    .idempotent(true)
                    .open_world(open_world),
            );
        }
        if let Some(route) = tool_router.map.get_mut(BRIEF_TOOL_NAME) {
            route.attr.annotations = Some(
                ToolAnnotations::with_title(BRIEF_TOOL_TITLE)
                    .read_only(true)
                    .destructive(false)
                    .idempotent(true)
                    .open_world(open_world),
            );
        }
        if let Some(route) = tool_router.map.get_mut(VERIFY_TOOL_NAME) {
            route.attr.annotations = Some(
                ToolAnnotations::with_title("Verify a receipt before taking a payment")
                    .read_only(true)
                    .destructive(false)
                    .idempotent(true)
                    .open_world(false),
            );
        }
        CheckServer { service, rounds: None, form_timeout: elicit::ELICITATION_TIMEOUT, payer: None, tool_router }
    }

    /// Offers `pay_order`, paying through `payer` (whose approval names the
    /// origins an agent may pay).
    pub fn with_payer(self, payer: Payer) -> CheckServer {
        let mut tool_router = self.tool_router + Self::pay_router();
        if let Some(route) = tool_router.map.get_mut(PAY_TOOL_NAME) {
            route.attr.annotations = Some(
                ToolAnnotations::with_title(PAY_TOOL_TITLE)
                    .read_only(false)
                    .destructive(false)
                    // The same arguments are the same payment request: never a second payment.
                    .idempotent(true)
                    .open_world(true),
            );
        }
        CheckServer { payer: Some(payer), tool_router, ..self }
    }

    /// Waits at most `timeout` for the person to answer a form sent during
    /// a call (HTTP sessions set it below their idle expiry).
    pub fn with_form_timeout(self, timeout: Duration) -> CheckServer {
        CheckServer { form_timeout: timeout, ..self }
    }

    /// Puts an `ask` to a 2026-07-28 client that declared form elicitation
    /// as `input_required` rounds, their state sealed by `rounds`.
    pub fn with_rounds(self, rounds: Rounds) -> CheckServer {
        CheckServer { rounds: Some(rounds), ..self }
    }

    pub fn service(&self) -> &Service {
        &self.service
    }

    /// The service acting for the caller of one request: the principal the
    /// HTTP layer admitted it as (`http::router` puts it in the request's
    /// extensions), or this server's own (the local principal, over stdio).
    fn service_for(&self, context: &RequestContext<RoleServer>) -> Service {
        let admitted = context
            .extensions
            .get::<axum::http::request::Parts>()
            .and_then(|parts| parts.extensions.get::<Principal>());
        match admitted {
            Some(principal) => self.service.as_principal(principal.clone()),
            None => self.service.clone(),
        }
    }

    #[tool(
        name = "check_order",
        title = "Check the cart against the person's request before paying",
        description = TOOL_DESCRIPTION,
        output_schema = schema_for_output::<CheckResult>()
    )]
    async fn check_order(
        &self,
        Parameters(arguments): Parameters<CheckRequest>,
        RequestState(state): RequestState,
        InputResponses(responses): InputResponses,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, CallToolResult> {
        let service = self.service_for(&context);
        if let Some(state) = state {
            // A retry of a 2026-07-28 round, carrying the person's reply.
            return match self.rounds()?.resume(&service, &arguments, &state, responses.as_ref()).await {
                Ok(Step::Ask(round)) => Ok(round.into()),
                Ok(Step::Done(result)) => complete(*result),
                Err(error) => Err(round_error(error)),
            };
        }
        let result = service.check_order(arguments.clone()).await.map_err(tool_error)?;
        if result.decision == Decision::Ask {
            if let Some(rounds) = &self.rounds
                && Rounds::apply_to(&context)
                && let Some(round) = rounds.ask(&arguments, &result, BTreeSet::new())
            {
                return Ok(round.into());
            }
            if elicit::can_elicit(&context.peer, context.protocol_version().as_ref()) {
                return complete(
                    elicit::ask_the_person(&service, &context.peer, &arguments, result, self.form_timeout).await,
                );
            }
        }
        complete(result)
    }
}

/// A result as a complete tool result (structured content and its JSON
/// text), as `Json<T>` gives it.
fn complete<T: serde::Serialize + JsonSchema + 'static>(result: T) -> Result<CallToolResponse, CallToolResult> {
    Json(result).into_call_tool_result().map_err(|error| {
        tracing::error!(%error, "a tool's result could not be serialised");
        CallToolResult::error(vec![ContentBlock::text(
            "the result could not be sent: do not pay; try again later".to_owned(),
        )])
    })
}

impl CheckServer {
    /// The rounds a retry's `requestState` belongs to; a server without
    /// them never sent one.
    fn rounds(&self) -> Result<&Rounds, CallToolResult> {
        self.rounds.as_ref().ok_or_else(|| invalid_argument("requestState: this server put no question in rounds"))
    }
}

/// A retry that could not be resumed: a check's error as any check's, a
/// refused state as the invalid argument it is.
fn round_error(error: RoundError) -> CallToolResult {
    match error {
        RoundError::Check(error) => tool_error(error),
        error => invalid_argument(&error.to_string()),
    }
}

/// A refused argument as a tool error naming it.
fn invalid_argument(message: &str) -> CallToolResult {
    CallToolResult::error(vec![ContentBlock::text(format!("invalid argument {message}"))])
}

/// A check's or brief's error as a tool error: an invalid argument names its
/// field; anything else is logged, and the caller learns only that no result
/// may be relied on.
fn tool_error(error: CheckError) -> CallToolResult {
    match error {
        CheckError::InvalidArgument { field, message } => {
            CallToolResult::error(vec![ContentBlock::text(format!("invalid argument {field}: {message}"))])
        }
        error => {
            tracing::error!(%error, "check failed");
            CallToolResult::error(vec![ContentBlock::text(
                "the check could not be sealed as evidence: do not pay; try again later".to_owned(),
            )])
        }
    }
}

#[tool_router(router = brief_router)]
impl CheckServer {
    #[tool(
        name = "brief_order",
        title = "Read the person's request into a shopping brief before shopping",
        description = BRIEF_DESCRIPTION,
        output_schema = schema_for_output::<BriefResult>()
    )]
    async fn brief_order(
        &self,
        Parameters(arguments): Parameters<BriefRequest>,
        RequestState(state): RequestState,
        InputResponses(responses): InputResponses,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, CallToolResult> {
        let service = self.service_for(&context);
        if let Some(state) = state {
            return match self.rounds()?.resume_brief(&service, &arguments, &state, responses.as_ref()).await {
                Ok(brief) => complete(brief),
                Err(error) => Err(round_error(error)),
            };
        }
        let brief = service.brief_order(arguments.clone()).await.map_err(tool_error)?;
        if brief.question.is_some() {
            if let Some(rounds) = &self.rounds
                && Rounds::apply_to(&context)
                && let Some(round) = rounds.ask_brief(&arguments, &brief)
            {
                return Ok(round.into());
            }
            if elicit::can_elicit(&context.peer, context.protocol_version().as_ref()) {
                return complete(
                    elicit::settle_the_brief(&service, &context.peer, &arguments, brief, self.form_timeout).await,
                );
            }
        }
        complete(brief)
    }
}

#[tool_router(router = verify_router)]
impl CheckServer {
    #[tool(name = "verify_verdict", title = "Verify a receipt before taking a payment", description = VERIFY_DESCRIPTION)]
    async fn verify_verdict(
        &self,
        Parameters(arguments): Parameters<VerifyRequest>,
    ) -> Result<Json<Verification>, CallToolResult> {
        match self.service.verify_receipt(&arguments.token, arguments.cart.as_ref(), arguments.today.as_deref()) {
            Ok(verification) => Ok(Json(verification)),
            Err(error) => Err(CallToolResult::error(vec![ContentBlock::text(format!("invalid argument {error}"))])),
        }
    }
}

#[tool_router(router = pay_router)]
impl CheckServer {
    #[tool(
        name = "pay_order",
        title = "Check the cart, then pay at most once",
        description = PAY_DESCRIPTION,
        output_schema = schema_for_output::<PayResult>()
    )]
    async fn pay_order(
        &self,
        Parameters(arguments): Parameters<PayRequest>,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, CallToolResult> {
        let Some(payer) = &self.payer else {
            return Err(invalid_argument("pay_order: this server pays nothing (serve --pay-origin)"));
        };
        let service = self.service_for(&context);
        match payer.pay(&service, arguments).await {
            Ok(result) => complete(result),
            Err(error) => Err(pay_error(error)),
        }
    }
}

/// A payment's error as a tool error: what the caller can act on is said;
/// a failure of the ledger or the check is logged, and the caller is told
/// not to pay by other means.
fn pay_error(error: PayError) -> CallToolResult {
    match error {
        PayError::Check(CheckError::InvalidArgument { field, message }) => {
            invalid_argument(&format!("$.check{}: {message}", field.strip_prefix('$').unwrap_or(&field)))
        }
        PayError::InvalidArgument { field, message } => invalid_argument(&format!("{field}: {message}")),
        error @ (PayError::Profile(_)
        | PayError::OriginNotApproved(_)
        | PayError::ProfileChanged { .. }
        | PayError::NotFound(_)
        | PayError::NeverSubmitted(_)) => CallToolResult::error(vec![ContentBlock::text(error.to_string())]),
        error => {
            tracing::error!(%error, "a payment could not be run");
            CallToolResult::error(vec![ContentBlock::text(
                "the payment could not be recorded: do not pay by other means; call pay_order again later with the same arguments"
                    .to_owned(),
            )])
        }
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for CheckServer {
    fn get_info(&self) -> ServerConfig {
        let mut implementation = Implementation::new(SERVER_NAME, env!("CARGO_PKG_VERSION"));
        implementation.title = Some("asasked pre-checkout guard".to_owned());
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(implementation)
            .with_instructions(INSTRUCTIONS)
    }
}
