//! The `ncu-lint` command line: arguments ([`args`]), the linter and inputs
//! each subcommand sets up ([`setup`]), the subcommands ([`commands`]),
//! terminal output ([`output`]) and stderr warnings ([`warnings`]).

pub(crate) mod args;
pub(crate) mod commands;
pub(crate) mod error;
pub(crate) mod output;
pub(crate) mod setup;
pub(crate) mod warnings;
