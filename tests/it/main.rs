//! One integration-test binary: each file below was its own binary, and linking
//! thirteen binaries against the crate cost more than running them on 2 cores.

mod brief;
mod charges;
mod conformance;
mod distribution;
mod elicitation;
mod extraction_accuracy;
mod faults;
mod fees_devset;
mod hostile;
mod language;
mod local_model;
mod mcp_server;
mod pay;
mod person;
mod pg;
mod principals;
mod properties;
mod protocols;
mod providers;
mod python_client;
mod receipt;
mod redemption;
mod sandbox_cli;
mod screen;
mod serve_e2e;
mod service;
mod tidy;
