//! `git-prism serve`: the same data as the CLI, as MCP tools over stdio (rmcp).
//!
//! - Five tools ([`tools`]): `get_change_manifest`, `get_file_snapshots`, `get_commit_history`,
//!   `get_function_context`, `review_change`, each with a description saying which git command
//!   it replaces and when to use it, and a JSON Schema of its arguments. Every tool is
//!   annotated as MCP's `ToolAnnotations` allow: a `title`, `readOnlyHint` (none changes a
//!   repository; the analysis cache is git-prism's own), `idempotentHint`, and
//!   `openWorldHint: false` (only repositories on this machine, never a fetch).
//! - Every call is confined ([`confine`]): the repository must lie under a root the client
//!   declared or a `--allow` directory.
//! - Tool failures are tool results with `isError: true` and a message the agent can act on;
//!   arguments that do not match the schema are JSON-RPC invalid-params errors. Nothing a
//!   call does can take the server down: the work runs on the blocking pool and a panic there
//!   is reported as a failed call.
//! - Async code exists only here, on the current-thread runtime `cli::serve` builds for it. The
//!   server never prints: lifecycle lines go to the [`Log`] the caller gives (stderr for the
//!   CLI); stdout carries only the protocol, through [`stdio`], which also answers lines that
//!   are not JSON with a `-32700` parse error.
//! - Error messages are bounded ([`MAX_ERROR_CHARS`]) and quote a caller's values clipped.

pub mod confine;
pub mod stdio;
pub mod tools;

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{CallToolResult, ContentBlock, Implementation, ServerCapabilities, ServerConfig};
use rmcp::service::{NotificationContext, RequestContext};
use rmcp::{
    ErrorData, Peer, RoleServer, ServerHandler, ServiceExt, tool, tool_handler, tool_router,
};

use crate::git::{Location, Repo};
use confine::Allowed;
use tools::ToolError;

/// The longest error message a tool result carries, in characters (git's own stderr can
/// quote a caller's value at any length).
pub const MAX_ERROR_CHARS: usize = 2000;

/// Where the server's lifecycle lines go.
pub type Log = Arc<dyn Fn(&str) + Send + Sync>;

/// How the server was started.
#[derive(Clone, Debug)]
pub struct Options {
    /// `--allow` directories.
    pub allow: Vec<PathBuf>,
    /// The server's working directory (the default repository, and the one allowed directory
    /// when the client has no roots and there is no `--allow`).
    pub cwd: PathBuf,
    /// The output budget of calls that give none, in tokens.
    pub max_response_tokens: usize,
}

impl Options {
    /// The options of a server started in `cwd` with `--allow` directories (relative ones from
    /// `cwd`, each checked to be a directory) and a default budget.
    pub fn new(
        cwd: PathBuf,
        allow: &[PathBuf],
        max_response_tokens: usize,
    ) -> Result<Options, confine::ConfineError> {
        let allow: Vec<PathBuf> = allow.iter().map(|d| cwd.join(d)).collect();
        if let Some(dir) = allow.iter().find(|d| !d.is_dir()) {
            return Err(confine::ConfineError::Unresolvable {
                path: dir.display().to_string(),
                reason: "--allow needs a directory".into(),
            });
        }
        Ok(Options {
            allow,
            cwd,
            max_response_tokens,
        })
    }

    /// Which directories the server may read, for its start-up line.
    pub fn allowed(&self) -> String {
        if self.allow.is_empty() {
            "the client's roots, or the current directory without them".to_owned()
        } else {
            self.allow
                .iter()
                .map(|d| d.display().to_string())
                .collect::<Vec<_>>()
                .join(", ")
                + " and the client's roots"
        }
    }
}

struct State {
    options: Options,
    log: Log,
    /// The client's roots, once asked (cleared when the client says they changed).
    roots: tokio::sync::Mutex<Option<Vec<PathBuf>>>,
    /// Tool calls running at once, at most one per core: each may hold a parse's memory, and
    /// a client sending many calls at once must not multiply it.
    running: tokio::sync::Semaphore,
}

/// The MCP server.
#[derive(Clone)]
pub struct Server {
    state: Arc<State>,
    tool_router: ToolRouter<Server>,
}

const INSTRUCTIONS: &str = "git-prism answers questions about git changes with structured JSON instead of diff text. Start with review_change (a branch or pull request: files, functions, callers, risk) or get_change_manifest (what changed); read content with get_file_snapshots; walk commits with get_commit_history; check callers and tests with get_function_context. Revisions are git revisions (main, HEAD~3, a SHA); omit head_ref for the working tree. Large answers are paged: pass next_cursor back.";

#[tool_router]
impl Server {
    /// A server with these options, logging to `log`.
    pub fn new(options: Options, log: Log) -> Server {
        Server {
            state: Arc::new(State {
                options,
                log,
                roots: tokio::sync::Mutex::new(None),
                running: tokio::sync::Semaphore::new(
                    std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get),
                ),
            }),
            tool_router: Self::tool_router(),
        }
    }

    #[tool(
        name = "get_change_manifest",
        title = "What changed",
        annotations(
            title = "What changed",
            read_only_hint = true,
            idempotent_hint = true,
            open_world_hint = false
        ),
        description = "What changed between two revisions, or between a revision and the working tree, with the changed code (format `compact`, the default). A change that fits one answer is git's own hunks by file, each headed by the functions it changes and how (`added Map::get`, `signature parse`, a modified function by its name), plus the files whose hunks do not say everything (renamed, binary, generated, added, deleted) and dependency bumps. A larger change leads with its complete map — every file with git's status and line counts (equal to `git diff --numstat -M`) and every changed function, with the signature (visibility included) of each added or signature-changed one — then hunks; the map continues over pages before any hunk. Replaces `git diff <base>..<head>`, `git diff --stat` and `git status`. More is on later pages when the answer says so: call again with `cursor` as `next` says. `format: full` gives the complete manifest schema (sizes, languages, line spans) without hunks, paged with `page_size` and `pagination.next_cursor`."
    )]
    async fn get_change_manifest(
        &self,
        Parameters(args): Parameters<tools::ManifestArgs>,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, ErrorData> {
        let path = args.repo_path.clone();
        self.call(
            "get_change_manifest",
            path,
            &context.peer,
            move |repo, tokens| tools::change_manifest(repo, &args, tokens),
        )
        .await
    }

    #[tool(
        name = "get_file_snapshots",
        title = "Files before and after",
        annotations(
            title = "Files before and after",
            read_only_hint = true,
            idempotent_hint = true,
            open_world_hint = false
        ),
        description = "The content of up to 20 files before and after a change (optionally only a line range), with git's own diff hunks on request; binary, missing and oversized files say why they have no content. Replaces `git show <rev>:<path>`, `cat` of a working-tree file and `git diff -- <path>`: call it after get_change_manifest to read exactly the files or lines you need."
    )]
    async fn get_file_snapshots(
        &self,
        Parameters(args): Parameters<tools::SnapshotArgs>,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, ErrorData> {
        let path = args.repo_path.clone();
        self.call(
            "get_file_snapshots",
            path,
            &context.peer,
            move |repo, tokens| tools::file_snapshots(repo, &args, tokens),
        )
        .await
    }

    #[tool(
        name = "get_commit_history",
        title = "Commit history",
        annotations(
            title = "Commit history",
            read_only_hint = true,
            idempotent_hint = true,
            open_world_hint = false
        ),
        description = "Every commit in base_ref..head_ref (merges included, compared with their first parent). The default compact form gives each commit as its short id, day, author and what it changed (files with their line counts and changed functions by name, or totals for a large commit), then its whole message; format \"full\" gives each commit's complete manifest. Replaces `git log`, `git log --stat` and a first look at each commit: call it to follow how a branch evolved commit by commit. Paged by commit: call again with the cursor the answer names."
    )]
    async fn get_commit_history(
        &self,
        Parameters(args): Parameters<tools::HistoryArgs>,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, ErrorData> {
        let path = args.repo_path.clone();
        self.call(
            "get_commit_history",
            path,
            &context.peer,
            move |repo, tokens| tools::commit_history(repo, &args, tokens),
        )
        .await
    }

    #[tool(
        name = "get_function_context",
        title = "Callers, callees and tests",
        annotations(
            title = "Callers, callees and tests",
            read_only_hint = true,
            idempotent_hint = true,
            open_world_hint = false
        ),
        description = "For each function a change touches (or each function named in function_names): its callers (file, line, calling function, whether it is a test), the calls it makes (with the defining file when resolved), the tests that exercise it, and a blast radius with a risk grade (none, low, medium, high). Rust, Python, Ruby, PHP, C# and Kotlin callers are credited through the calling file's imports, constant paths and namespaces (scoping: scoped); method calls on values of unknown type are marked candidate; other languages are matched by name (scoping: full_scan). Replaces grepping the repository for call sites and tests: call it before changing, deleting or approving a function."
    )]
    async fn get_function_context(
        &self,
        Parameters(args): Parameters<tools::ContextArgs>,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, ErrorData> {
        let path = args.repo_path.clone();
        self.call(
            "get_function_context",
            path,
            &context.peer,
            move |repo, tokens| tools::function_context(repo, &args, tokens),
        )
        .await
    }

    #[tool(
        name = "review_change",
        title = "Review a change",
        annotations(
            title = "Review a change",
            read_only_hint = true,
            idempotent_hint = true,
            open_world_hint = false
        ),
        description = "A review in one call: the change manifest (as get_change_manifest) and the function context of every changed function (as get_function_context), sharing one output budget, each part paged with its own cursor (manifest_cursor, context_cursor). Replaces `git diff main...HEAD` followed by grepping for callers and tests: call it to review a branch, a pull request or uncommitted work."
    )]
    async fn review_change(
        &self,
        Parameters(args): Parameters<tools::ReviewArgs>,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, ErrorData> {
        let path = args.repo_path.clone();
        self.call("review_change", path, &context.peer, move |repo, tokens| {
            tools::review_change(repo, &args, tokens)
        })
        .await
    }
}

impl Server {
    fn log(&self, line: &str) {
        (self.state.log)(line);
    }

    /// The client's roots, asked for once per session (or after they changed).
    #[allow(
        deprecated,
        reason = "MCP roots are deprecated by SEP-2577, but clients of this generation declare their workspaces with them"
    )]
    async fn roots(&self, peer: &Peer<RoleServer>) -> Option<Vec<PathBuf>> {
        let supports = peer
            .peer_info()
            .is_some_and(|info| info.capabilities.roots.is_some());
        if !supports {
            return None;
        }
        let mut cache = self.state.roots.lock().await;
        if let Some(roots) = cache.as_ref() {
            return Some(roots.clone());
        }
        let listed = peer.list_roots().await;
        let roots: Vec<PathBuf> = match listed {
            Ok(result) => result
                .roots
                .iter()
                .filter_map(|r| confine::root_path(&r.uri))
                .collect(),
            Err(e) => {
                self.log(&format!(
                    "cannot list the client's roots: {}",
                    crate::text::chain(&e)
                ));
                Vec::new()
            }
        };
        self.log(&format!(
            "client roots: {}",
            if roots.is_empty() {
                "none".to_owned()
            } else {
                roots
                    .iter()
                    .map(|r| r.display().to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            }
        ));
        *cache = Some(roots.clone());
        Some(roots)
    }

    /// The allowed directories for a call.
    async fn allowed(&self, peer: &Peer<RoleServer>) -> Allowed {
        let roots = self.roots(peer).await;
        let options = &self.state.options;
        let mut dirs = options.allow.clone();
        let client_has_roots = roots.is_some();
        dirs.extend(roots.unwrap_or_default());
        if dirs.is_empty() && !client_has_roots {
            dirs.push(options.cwd.clone());
        }
        Allowed::new(dirs)
    }

    /// Runs one tool call on the blocking pool: confine, open, answer.
    async fn call<F>(
        &self,
        tool: &'static str,
        repo_path: Option<String>,
        peer: &Peer<RoleServer>,
        answer: F,
    ) -> Result<CallToolResult, ErrorData>
    where
        F: FnOnce(&Repo, usize) -> Result<String, ToolError> + Send + 'static,
    {
        let allowed = self.allowed(peer).await;
        let options = self.state.options.clone();
        // Waits while as many calls as there are cores run; closed only if the server is
        // going away, when the call fails like any other.
        let _turn = self.state.running.acquire().await;
        let started = Instant::now();
        let work = tokio::task::spawn_blocking(move || -> Result<String, ToolError> {
            let asked = match repo_path {
                Some(p) => options.cwd.join(p),
                None if allowed.check(&options.cwd).is_ok() => options.cwd.clone(),
                None => allowed
                    .dirs()
                    .first()
                    .cloned()
                    .unwrap_or_else(|| options.cwd.clone()),
            };
            let resolved = allowed.check(&asked)?;
            let repo = Repo::open(&Location::at(&resolved)?)?;
            // git's discovery walks upwards and a `.git` file or an alternates file can name
            // directories anywhere: everything the repository is read from must be allowed.
            allowed.check_repository(&repo)?;
            answer(&repo, options.max_response_tokens)
        })
        .await;
        let elapsed = started.elapsed().as_secs_f64() * 1e3;
        match work {
            Ok(Ok(json)) => {
                self.log(&format!("{tool}: {} bytes in {elapsed:.0} ms", json.len()));
                Ok(CallToolResult::success(vec![ContentBlock::text(json)]))
            }
            Ok(Err(e)) => {
                let e = crate::text::chain(&e);
                let e = crate::text::clip(&e, MAX_ERROR_CHARS);
                self.log(&format!("{tool}: error in {elapsed:.0} ms: {e}"));
                Ok(CallToolResult::error(vec![ContentBlock::text(format!(
                    "{tool} failed: {e}"
                ))]))
            }
            Err(e) => {
                self.log(&format!("{tool}: internal failure: {e}"));
                Ok(CallToolResult::error(vec![ContentBlock::text(format!(
                    "{tool} failed inside git-prism ({e}); the server is still running"
                ))]))
            }
        }
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Server {
    fn get_info(&self) -> ServerConfig {
        let mut info = Implementation::from_build_env();
        info.name = "git-prism".into();
        info.title = Some("git-prism".into());
        info.version = crate::version::semver();
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(info)
            .with_instructions(INSTRUCTIONS)
    }

    async fn on_initialized(&self, context: NotificationContext<RoleServer>) {
        let client = context
            .peer
            .peer_info()
            .map(|i| {
                format!(
                    "{} {} (protocol {})",
                    i.client_info.name, i.client_info.version, i.protocol_version
                )
            })
            .unwrap_or_else(|| "unknown client".into());
        self.log(&format!("initialized by {client}"));
    }

    async fn on_roots_list_changed(&self, _context: NotificationContext<RoleServer>) {
        *self.state.roots.lock().await = None;
        self.log("client roots changed");
    }
}

/// Why the server stopped.
#[derive(Debug)]
pub enum Stopped {
    /// The client closed the connection (stdin reached its end).
    Closed,
    /// The protocol could not start or failed.
    Failed(String),
}

/// Serves MCP on stdin/stdout until the client closes the connection.
pub async fn serve(options: Options, log: Log) -> Stopped {
    let server = Server::new(options, log.clone());
    let stdio::Transport {
        reads,
        writes,
        mut tasks,
    } = stdio::transport();
    let running = match server.serve((reads, writes)).await {
        Ok(r) => r,
        Err(e) => {
            return Stopped::Failed(match tasks.failure().await {
                Some(why) => why,
                None => format!("initialization failed: {}", crate::text::chain(&e)),
            });
        }
    };
    let stopped = running.waiting().await;
    if let Some(why) = tasks.failure().await {
        return Stopped::Failed(why);
    }
    match stopped {
        Ok(_) => Stopped::Closed,
        Err(e) => Stopped::Failed(crate::text::chain(&e)),
    }
}
