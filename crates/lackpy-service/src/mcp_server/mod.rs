//! `lackpy mcp serve`: lackpy as an MCP server, a thin layer over
//! [`LackpyService`] like the command line.
//!
//! One service is built per process and shared by every session and call
//! ([`McpServer`]); runs are admitted up to `[server] max_concurrent_runs`
//! plus a bounded queue (`admission`), and each runs under a cancel token
//! that the client's `notifications/cancelled`, the session's end and the
//! server's shutdown all reach (`run`; `resume` for `resume_run`). A gated
//! call asks the client's user when the client can be asked
//! (`elicitation`); otherwise the run pauses. `transport` serves it over stdio or
//! streamable HTTP (`http_guard` checks HTTP requests first: their target,
//! body and JSON-RPC shape, and the bound on sessions, `session_cap`;
//! `one_piece` lets a quick answer leave in one write).

mod admin;
mod admission;
mod answer;
#[cfg(test)]
mod argument_tests;
mod arguments;
mod elicitation;
mod follow;
mod health;
mod http_guard;
mod listener;
mod one_piece;
mod request_body;
mod request_stream;
mod request_target;
mod resources;
mod response;
mod resume;
mod run;
#[cfg(test)]
mod schema_tests;
mod scrape;
mod session_cap;
mod sessions;
mod shared;
mod tools;
pub mod transport;

use std::sync::Arc;

use rmcp::handler::server::ServerHandler;
#[allow(deprecated)] // `logging/setLevel`: see `impl ServerHandler`
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, ErrorData, Implementation, ListResourcesResult,
    ListToolsResult, PaginatedRequestParams, ReadResourceRequestParams, ReadResourceResponse,
    ReadResourceResult, ServerCapabilities, ServerConfig, SetLevelRequestParams,
    SubscriptionFilter,
};
use rmcp::service::{NotificationContext, RequestContext, RoleServer, SubscriptionContext};
use tokio_util::sync::CancellationToken;

pub use admission::{DEFAULT_MAX_CONCURRENT_RUNS, DEFAULT_MAX_QUEUED_RUNS};
pub use session_cap::DEFAULT_MAX_SESSIONS;
pub use transport::{DEFAULT_HEADER_TIMEOUT, HttpOptions, ServeOptions, serve};

use crate::service::{LackpyService, LiveService};
use admission::Admission;
use answer::{json_result, request_error};
use arguments::{
    DelegateArgs, GenerateArgs, ListToolsArgs, NoArgs, ResumeRunArgs, RunProgramArgs, ValidateArgs,
};
use shared::Shared;

/// The MCP handler: one per session, all sharing one [`LiveService`].
#[derive(Clone)]
pub struct McpServer {
    shared: Arc<Shared>,
    /// Cancelled when this session's client goes away (stdin closed, HTTP
    /// session deleted or expired): its runs stop.
    session: CancellationToken,
}

impl McpServer {
    /// A server over `service`, whose inventory stays as it is.
    pub fn new(service: LackpyService) -> McpServer {
        McpServer::live(LiveService::new(service))
    }

    /// A server over a live service: each call uses the inventory current
    /// at its start, and sessions hear `notifications/tools/list_changed`
    /// when the tool list changes. Call inside a tokio runtime.
    pub fn live(live: Arc<LiveService>) -> McpServer {
        let service = live.current();
        let server = &service.config().server;
        let admission = Admission::new(
            server
                .max_concurrent_runs
                .unwrap_or(DEFAULT_MAX_CONCURRENT_RUNS),
            server.max_queued_runs.unwrap_or(DEFAULT_MAX_QUEUED_RUNS),
        );
        let listing = follow::Listing::new(&service);
        let metrics = crate::metrics::Metrics::for_service(&service);
        let shared = Arc::new(Shared {
            live,
            admission,
            listing,
            stop_runs: CancellationToken::new(),
            http_sessions: sessions::HttpSessions::default(),
            draining: health::Draining::default(),
            metrics,
        });
        shared::follow(&shared);
        McpServer {
            shared,
            session: CancellationToken::new(),
        }
    }

    /// A handler for a new session: the same service, its own session token.
    pub(crate) fn for_session(&self, session: CancellationToken) -> McpServer {
        McpServer {
            shared: Arc::clone(&self.shared),
            session,
        }
    }

    /// The service every session shares, at its current version.
    pub fn service(&self) -> LackpyService {
        self.shared.live.current()
    }

    /// How many runs are running or queued now.
    pub fn runs_in_flight(&self) -> usize {
        self.shared.admission.in_flight()
    }

    /// Refuses new runs (`Busy`) and, over HTTP, new sessions (503, and
    /// `/readyz` answers 503) from now on: the server is shutting down.
    pub fn begin_drain(&self) {
        self.shared.draining.begin();
    }

    /// Stops every run of every session (the end of a shutdown's grace).
    pub fn stop_all_runs(&self) {
        self.shared.stop_runs.cancel();
    }
}

// `logging/setLevel` is deprecated by SEP-2577, but clients of the
// protocol generations served here still send it.
#[allow(deprecated)]
impl ServerHandler for McpServer {
    fn get_info(&self) -> ServerConfig {
        let capabilities = ServerCapabilities::builder()
            .enable_tools()
            .enable_tool_list_changed()
            .enable_resources()
            .enable_logging()
            .build();
        let mut info = Implementation::default();
        info.name = "lackpy".into();
        info.title = Some("lackpy".into());
        info.version = env!("CARGO_PKG_VERSION").into();
        ServerConfig::new(capabilities)
            .with_server_info(info)
            .with_instructions(
                "Hand lackpy a whole tool composition as one program (run_program) instead of \
                 calling tools one by one. run_program's description lists the tools and the \
                 language's restrictions; validate checks a program without running it. \
                 delegate writes the program from a description (templates, rules, the \
                 configured model) and runs it; generate only writes it. A call that needs \
                 approval asks the user (elicitation) when the client can be asked; otherwise \
                 the run pauses (error_type ApprovalRequired): resume_run continues it once \
                 decided, list_runs lists such runs.",
            )
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let tools = self.shared.listing.tools(&self.shared.live.current());
        Ok(ListToolsResult::with_all_items(tools.as_ref().clone()))
    }

    async fn on_initialized(&self, context: NotificationContext<RoleServer>) {
        self.shared.listing.add_peer(context.peer);
    }

    fn accepted_subscription_filter(
        &self,
        _requested: &SubscriptionFilter,
    ) -> Option<SubscriptionFilter> {
        Some(SubscriptionFilter::builder().tools_list_changed().build())
    }

    async fn listen(&self, context: SubscriptionContext) -> Result<(), ErrorData> {
        self.shared.listing.listen(context).await;
        Ok(())
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let args = request.arguments.unwrap_or_default();
        // The version current now serves this whole call.
        let service = &self.shared.live.current();
        let answer = match request.name.as_ref() {
            tools::RUN_PROGRAM => {
                return match arguments::read(args).and_then(RunProgramArgs::into_request) {
                    Ok(mut run) => {
                        run.approver = elicitation::approver_for(&context);
                        run::run_program(&self.shared, &self.session, run, context)
                            .await
                            .map(CallToolResponse::Complete)
                    }
                    Err(message) => Ok(CallToolResponse::Complete(request_error(message))),
                };
            }
            tools::DELEGATE => {
                return match arguments::read(args).and_then(DelegateArgs::into_request) {
                    Ok(mut d) => {
                        d.approver = elicitation::approver_for(&context);
                        run::delegate(&self.shared, &self.session, d, context)
                            .await
                            .map(CallToolResponse::Complete)
                    }
                    Err(message) => Ok(CallToolResponse::Complete(request_error(message))),
                };
            }
            tools::GENERATE => {
                return match arguments::read(args).and_then(GenerateArgs::into_request) {
                    Ok(d) => run::generate(&self.shared, &self.session, d, context)
                        .await
                        .map(CallToolResponse::Complete),
                    Err(message) => Ok(CallToolResponse::Complete(request_error(message))),
                };
            }
            tools::RESUME_RUN => {
                return match arguments::read(args).and_then(ResumeRunArgs::into_request) {
                    Ok(mut r) => {
                        r.approver = elicitation::approver_for(&context);
                        resume::resume_run(&self.shared, &self.session, r, context)
                            .await
                            .map(CallToolResponse::Complete)
                    }
                    Err(message) => Ok(CallToolResponse::Complete(request_error(message))),
                };
            }
            tools::LIST_RUNS => match arguments::read::<NoArgs>(args) {
                // Listing reads the store (files, or PostgreSQL): off the runtime.
                Ok(NoArgs {}) => {
                    let listing = service.clone();
                    tokio::task::spawn_blocking(move || listing.runs())
                        .await
                        .map_err(|e| e.to_string())
                        .and_then(|runs| tools::to_json(&tools::list_runs(runs)))
                }
                Err(e) => Err(e),
            },
            tools::STATUS => match arguments::read::<NoArgs>(args) {
                Ok(NoArgs {}) => tools::to_json(&service.status_probed().await),
                Err(e) => Err(e),
            },
            tools::VALIDATE => arguments::read(args)
                .and_then(|a: ValidateArgs| tools::validate(service, a))
                .and_then(|v| tools::to_json(&v)),
            tools::LIST_TOOLS => arguments::read(args)
                .and_then(|a: ListToolsArgs| tools::list_tools(service, a))
                .and_then(|l| tools::to_json(&l)),
            tools::LANGUAGE_SPEC => arguments::read::<NoArgs>(args)
                .and_then(|NoArgs {}| tools::to_json(&tools::language_spec(service))),
            other => {
                return Err(ErrorData::invalid_params(
                    format!("unknown tool '{other}'"),
                    None,
                ));
            }
        };
        Ok(CallToolResponse::Complete(match answer {
            Ok(value) => json_result(value),
            Err(message) => request_error(message),
        }))
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        Ok(ListResourcesResult::with_all_items(resources::all()))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        match resources::read(&self.shared.live.current(), &request.uri) {
            Some(contents) => Ok(ReadResourceResponse::Complete(ReadResourceResult::new(
                vec![contents],
            ))),
            None => Err(ErrorData::resource_not_found(
                format!("no resource '{}'", request.uri),
                None,
            )),
        }
    }

    async fn set_level(
        &self,
        _request: SetLevelRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        // Accepted: the server sends no log messages to clients; its logs
        // go to stderr.
        Ok(())
    }
}
