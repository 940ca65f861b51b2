//! The stdio transport: newline-delimited JSON-RPC on stdin/stdout, with parse errors
//! answered.
//!
//! rmcp drops a line that is not JSON without a word (so that a peer echoing answers back
//! cannot start a storm). JSON-RPC 2.0 says the server answers it with error `-32700`
//! ("Parse error") and `id: null`, and a client that sent a broken line otherwise waits
//! forever for its answer. So this module stands between the process's stdio and rmcp:
//!
//! - a reader task takes stdin line by line (at most [`MAX_LINE`] bytes are held; a longer
//!   line is discarded as it arrives and answered as a parse error), passes every line that
//!   parses as JSON to rmcp unchanged, and answers every other non-blank line itself;
//! - a writer task is the only writer of stdout: it takes rmcp's output line by line and the
//!   parse-error answers from one queue, so two messages are never interleaved.
//!
//! When stdin ends, rmcp's input ends too and the server stops as before. When reading it
//! fails (a thread for the blocking read cannot be started under an address-space or thread
//! limit), rmcp's input ends the same way and [`Tasks::failure`] says why; so it does when
//! writing stdout fails.

use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, DuplexStream};
use tokio::sync::mpsc;

/// The longest line held in memory (rmcp's own limit for one message).
pub const MAX_LINE: usize = 16 * 1024 * 1024;

/// Bytes buffered between the tasks and rmcp in each direction.
const PIPE: usize = 64 * 1024;

/// rmcp's ends of the transport, and the tasks that read the input and write the output.
pub struct Transport {
    /// What rmcp reads.
    pub reads: DuplexStream,
    /// What rmcp writes.
    pub writes: DuplexStream,
    /// The tasks that move the bytes.
    pub tasks: Tasks,
}

/// The reader and the writer task: `Err` (or a panic) when reading the input or writing the
/// output failed rather than ended.
pub struct Tasks {
    reader: tokio::task::JoinHandle<std::io::Result<()>>,
    writer: tokio::task::JoinHandle<std::io::Result<()>>,
}

impl Tasks {
    /// Why the transport failed, if it did rather than reaching the end of its input (the
    /// protocol sees only a closed connection). Waits briefly for the tasks that are ending.
    pub async fn failure(&mut self) -> Option<String> {
        let wait = std::time::Duration::from_secs(1);
        if let Some(why) = failed(&mut self.writer, wait).await {
            return Some(format!("cannot write the answers to stdout: {why}"));
        }
        let why = failed(&mut self.reader, wait).await?;
        Some(format!(
            "cannot read the client's messages from stdin: {why}"
        ))
    }
}

/// Why `task` failed, if it ends within `wait` with an error or a panic.
async fn failed(
    task: &mut tokio::task::JoinHandle<std::io::Result<()>>,
    wait: std::time::Duration,
) -> Option<String> {
    match tokio::time::timeout(wait, task).await.ok()? {
        Ok(Ok(())) => None,
        Ok(Err(e)) => Some(crate::text::chain(&e)),
        Err(e) if e.is_panic() => Some(crate::unwind::message(e.into_panic().as_ref())),
        Err(e) => Some(e.to_string()),
    }
}

/// Starts the tasks on the current runtime over stdin and stdout.
pub fn transport() -> Transport {
    transport_over(tokio::io::stdin(), tokio::io::stdout())
}

/// [`transport`] over any pair of streams (tests use in-memory pipes).
pub fn transport_over<R, W>(input: R, output: W) -> Transport
where
    R: tokio::io::AsyncRead + Unpin + Send + 'static,
    W: tokio::io::AsyncWrite + Unpin + Send + 'static,
{
    let (rmcp_reads, feed) = tokio::io::duplex(PIPE);
    let (rmcp_writes, drain) = tokio::io::duplex(PIPE);
    let (queue, lines) = mpsc::channel::<Vec<u8>>(64);
    let writer = tokio::spawn(write_lines(lines, output));
    tokio::spawn(forward_output(drain, queue.clone()));
    let reader = tokio::spawn(read_input(input, feed, queue));
    Transport {
        reads: rmcp_reads,
        writes: rmcp_writes,
        tasks: Tasks { reader, writer },
    }
}

/// The answer to a line that is not JSON.
fn parse_error(detail: &str) -> Vec<u8> {
    let answer = serde_json::json!({
        "jsonrpc": "2.0",
        "id": null,
        "error": {"code": -32700, "message": format!("Parse error: {detail}")},
    });
    let mut line = answer.to_string().into_bytes();
    line.push(b'\n');
    line
}

/// Why a line is not passed on: `None` when it is JSON (or blank, which rmcp skips).
fn reject(line: &[u8]) -> Option<String> {
    const BOM: &[u8] = b"\xEF\xBB\xBF";
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    let line = line.strip_prefix(BOM).unwrap_or(line);
    if line.iter().all(u8::is_ascii_whitespace) {
        return None;
    }
    match serde_json::from_slice::<serde::de::IgnoredAny>(line) {
        Ok(_) => None,
        Err(e) => Some(e.to_string()),
    }
}

/// One line of input, as [`next_line`] found it.
enum Line {
    /// A whole line is in the buffer (without its newline).
    Whole,
    /// The line was longer than [`MAX_LINE`]; it was discarded.
    TooLong,
}

/// Reads the next line into `buf` holding at most [`MAX_LINE`] bytes; `None` at the end of
/// input (an unterminated last line is dropped, as rmcp drops it).
async fn next_line<R: tokio::io::AsyncBufRead + Unpin>(
    reader: &mut R,
    buf: &mut Vec<u8>,
) -> std::io::Result<Option<Line>> {
    buf.clear();
    let mut too_long = false;
    loop {
        let available = reader.fill_buf().await?;
        if available.is_empty() {
            return Ok(None);
        }
        let (take, done) = match available.iter().position(|b| *b == b'\n') {
            Some(i) => (i, true),
            None => (available.len(), false),
        };
        if !too_long {
            if buf.len() + take > MAX_LINE {
                too_long = true;
                buf.clear();
                buf.shrink_to_fit();
            } else {
                buf.extend_from_slice(&available[..take]);
            }
        }
        reader.consume(take + usize::from(done));
        if done {
            return Ok(Some(if too_long { Line::TooLong } else { Line::Whole }));
        }
    }
}

async fn read_input<R>(
    input: R,
    mut feed: DuplexStream,
    queue: mpsc::Sender<Vec<u8>>,
) -> std::io::Result<()>
where
    R: tokio::io::AsyncRead + Unpin,
{
    let mut reader = BufReader::new(input);
    let mut buf = Vec::new();
    let ended = loop {
        let line = match next_line(&mut reader, &mut buf).await {
            Ok(Some(line)) => line,
            Ok(None) => break Ok(()),
            Err(e) => break Err(e),
        };
        let answer = match line {
            Line::TooLong => Some(parse_error(&format!(
                "message longer than {MAX_LINE} bytes"
            ))),
            Line::Whole => reject(&buf).map(|detail| parse_error(&detail)),
        };
        let passed = match answer {
            Some(answer) => queue.send(answer).await.is_ok(),
            None => {
                buf.push(b'\n');
                feed.write_all(&buf).await.is_ok()
            }
        };
        if !passed {
            break Ok(());
        }
    };
    // Dropping `feed` ends rmcp's input: the server stops as when stdin closes.
    let _ = feed.shutdown().await;
    ended
}

async fn forward_output(drain: DuplexStream, queue: mpsc::Sender<Vec<u8>>) {
    let mut reader = BufReader::new(drain);
    loop {
        let mut line = Vec::new();
        match reader.read_until(b'\n', &mut line).await {
            Ok(0) | Err(_) => break,
            Ok(_) => {
                if queue.send(line).await.is_err() {
                    break;
                }
            }
        }
    }
}

async fn write_lines<W>(mut lines: mpsc::Receiver<Vec<u8>>, mut output: W) -> std::io::Result<()>
where
    W: tokio::io::AsyncWrite + Unpin,
{
    while let Some(line) = lines.recv().await {
        match output.write_all(&line).await {
            Ok(()) => output.flush().await?,
            // The client went away: an end, not a failure.
            Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => break,
            Err(e) => return Err(e),
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_that_are_not_json_are_rejected() {
        assert_eq!(reject(br#"{"jsonrpc":"2.0","method":"ping","id":1}"#), None);
        assert_eq!(reject(b"\xEF\xBB\xBF{}\r"), None);
        assert_eq!(reject(b"   "), None);
        assert_eq!(reject(b"[1,2]"), None);
        for bad in [&b"{"[..], b"not json", b"{\"a\":}", b"\xff\xfe", b"{} {}"] {
            assert!(reject(bad).is_some(), "{:?}", String::from_utf8_lossy(bad));
        }
        let answer: serde_json::Value = serde_json::from_slice(&parse_error("x")).unwrap();
        assert_eq!(answer["error"]["code"], -32700);
        assert!(answer["id"].is_null());
    }

    /// Input whose every read fails (stdin's blocking read could not start its thread).
    struct Broken;

    impl tokio::io::AsyncRead for Broken {
        fn poll_read(
            self: std::pin::Pin<&mut Self>,
            _: &mut std::task::Context<'_>,
            _: &mut tokio::io::ReadBuf<'_>,
        ) -> std::task::Poll<std::io::Result<()>> {
            std::task::Poll::Ready(Err(std::io::Error::other("no thread for the read")))
        }
    }

    // Issue 29: under an address-space limit the server stopped with only "initialization
    // failed: connection closed: initialize request".
    #[test]
    fn a_failed_read_says_why_the_input_ended() {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        runtime.block_on(async {
            let (server_out, _client_out) = tokio::io::duplex(1024);
            let Transport {
                mut reads,
                mut tasks,
                ..
            } = transport_over(Broken, server_out);
            let mut passed = Vec::new();
            tokio::io::AsyncReadExt::read_to_end(&mut reads, &mut passed)
                .await
                .unwrap();
            assert!(passed.is_empty());
            assert_eq!(
                tasks.failure().await.as_deref(),
                Some("cannot read the client's messages from stdin: no thread for the read")
            );
        });
        runtime.block_on(async {
            let (client_in, server_in) = tokio::io::duplex(1024);
            let (server_out, _client_out) = tokio::io::duplex(1024);
            let Transport { mut tasks, .. } = transport_over(server_in, server_out);
            drop(client_in);
            assert_eq!(tasks.failure().await, None);
        });
    }

    #[test]
    fn an_oversized_line_is_discarded_and_answered() {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        runtime.block_on(async {
            let (mut client_in, server_in) = tokio::io::duplex(64 * 1024);
            let (server_out, client_out) = tokio::io::duplex(1024);
            let Transport {
                reads: mut rmcp_reads,
                ..
            } = transport_over(server_in, server_out);
            tokio::spawn(async move {
                let chunk = vec![b'x'; 1024 * 1024];
                for _ in 0..=MAX_LINE / chunk.len() {
                    client_in.write_all(&chunk).await.unwrap();
                }
                client_in.write_all(b"\n{\"ok\":1}\n").await.unwrap();
            });
            let mut out = BufReader::new(client_out);
            let mut first = String::new();
            out.read_line(&mut first).await.unwrap();
            let first: serde_json::Value = serde_json::from_str(&first).unwrap();
            assert_eq!(first["error"]["code"], -32700);
            let mut passed = vec![0u8; 9];
            tokio::io::AsyncReadExt::read_exact(&mut rmcp_reads, &mut passed)
                .await
                .unwrap();
            assert_eq!(passed, b"{\"ok\":1}\n");
        });
    }

    #[test]
    fn invalid_json_is_answered_and_valid_json_passes_through() {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        runtime.block_on(async {
            let (mut client_in, server_in) = tokio::io::duplex(1024);
            let (server_out, client_out) = tokio::io::duplex(1024);
            let Transport {
                reads: mut rmcp_reads,
                writes: mut rmcp_writes,
                ..
            } = transport_over(server_in, server_out);
            client_in
                .write_all(b"garbage\n{\"jsonrpc\":\"2.0\",\"method\":\"ping\",\"id\":1}\n")
                .await
                .unwrap();
            drop(client_in);
            let mut passed = Vec::new();
            tokio::io::AsyncReadExt::read_to_end(&mut rmcp_reads, &mut passed)
                .await
                .unwrap();
            assert_eq!(
                passed,
                b"{\"jsonrpc\":\"2.0\",\"method\":\"ping\",\"id\":1}\n"
            );
            rmcp_writes.write_all(b"{\"answer\":1}\n").await.unwrap();
            drop(rmcp_writes);
            let mut out = BufReader::new(client_out);
            let mut first = String::new();
            out.read_line(&mut first).await.unwrap();
            let first: serde_json::Value = serde_json::from_str(&first).unwrap();
            assert_eq!(first["error"]["code"], -32700);
            let mut second = String::new();
            out.read_line(&mut second).await.unwrap();
            assert_eq!(second, "{\"answer\":1}\n");
        });
    }
}
