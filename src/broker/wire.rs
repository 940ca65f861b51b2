//! The broker's protocol on its UNIX socket: one [`Request`] with the caller's standard
//! streams and working directory passed as descriptors, then signals the caller receives
//! ([`Message::Signal`]) one way and how the call ended ([`Reply`]) the other.
//!
//! ```text
//! client → broker   "GPB1" <u32 length> + SCM_RIGHTS [stdin, stdout, stderr, cwd]
//!                   <length bytes: kind, signal mask, ignored signals, cwd, argv, environment>
//! client → broker   'K' <i32 signal>          (zero or more, while the call runs)
//! broker → client   'E' <i32 code> | 'S' <i32 signal> | 'X' <i32 code> | 'P' 0   (once)
//! ```
//!
//! Integers are little-endian; byte strings are a `u32` length and the bytes (arguments,
//! variables and paths are bytes, never re-encoded). A request larger than [`MAX_REQUEST`] or
//! malformed in any way is refused.

use std::ffi::OsString;
use std::io::{self, Read, Write};
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::os::unix::net::UnixStream;

/// The largest request read (arguments and environment together).
pub const MAX_REQUEST: usize = 16 << 20;
/// The descriptors a request carries: stdin, stdout, stderr, the working directory.
pub const FDS: usize = 4;
const MAGIC: &[u8; 4] = b"GPB1";

/// What the broker is asked to run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A `git` call.
    Git,
    /// A `gh` call.
    Gh,
    /// `git-prism session verify`.
    Verify,
}

impl Kind {
    fn byte(self) -> u8 {
        match self {
            Kind::Git => 1,
            Kind::Gh => 2,
            Kind::Verify => 3,
        }
    }

    fn from_byte(b: u8) -> Option<Kind> {
        match b {
            1 => Some(Kind::Git),
            2 => Some(Kind::Gh),
            3 => Some(Kind::Verify),
            _ => None,
        }
    }
}

/// One call, as the sandboxed side sends it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Request {
    /// What to run.
    pub kind: Kind,
    /// The caller's blocked signals (bit `n - 1` for signal `n`).
    pub blocked: u64,
    /// The signals the caller ignores (bit `n - 1` for signal `n`).
    pub ignored: u64,
    /// The caller's working directory, as it names it.
    pub cwd: OsString,
    /// The arguments after the program's name.
    pub args: Vec<OsString>,
    /// The caller's environment, `NAME=value` each.
    pub env: Vec<OsString>,
}

/// How a brokered call ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reply {
    /// It exited with this code.
    Exited(i32),
    /// This signal ended it.
    Signaled(i32),
    /// The broker refused or failed before anything ran (it said why on the call's stderr);
    /// the call ends with this code.
    Failed(i32),
    /// The broker does not serve the caller (not one of the session's processes): it read
    /// nothing of the call.
    NotServed,
}

/// A message from the caller while its call runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Message {
    /// The caller received this signal: pass it on.
    Signal(i32),
}

/// The error returned when a request or reply cannot be read.
#[derive(Debug, thiserror::Error)]
pub enum WireError {
    /// The socket failed.
    #[error("the broker's socket failed")]
    Io(#[from] io::Error),
    /// What was read is not the protocol.
    #[error("not a broker request: {0}")]
    Malformed(&'static str),
}

fn put(buf: &mut Vec<u8>, bytes: &[u8]) {
    buf.extend_from_slice(&(bytes.len() as u32).to_le_bytes());
    buf.extend_from_slice(bytes);
}

impl Request {
    /// The request's bytes after the header.
    pub fn encode(&self) -> Vec<u8> {
        let mut buf = Vec::with_capacity(4096);
        buf.push(self.kind.byte());
        buf.extend_from_slice(&self.blocked.to_le_bytes());
        buf.extend_from_slice(&self.ignored.to_le_bytes());
        put(&mut buf, self.cwd.as_bytes());
        buf.extend_from_slice(&(self.args.len() as u32).to_le_bytes());
        for a in &self.args {
            put(&mut buf, a.as_bytes());
        }
        buf.extend_from_slice(&(self.env.len() as u32).to_le_bytes());
        for e in &self.env {
            put(&mut buf, e.as_bytes());
        }
        buf
    }

    /// Reads a request from its bytes.
    pub fn decode(bytes: &[u8]) -> Result<Request, WireError> {
        let mut r = Reader { bytes, at: 0 };
        let kind = Kind::from_byte(r.take(1)?[0]).ok_or(WireError::Malformed("unknown kind"))?;
        let blocked = r.u64()?;
        let ignored = r.u64()?;
        let cwd = OsString::from_vec(r.string()?.to_vec());
        let argc = r.u32()? as usize;
        let mut args = Vec::with_capacity(argc.min(4096));
        for _ in 0..argc {
            args.push(OsString::from_vec(r.string()?.to_vec()));
        }
        let envc = r.u32()? as usize;
        let mut env = Vec::with_capacity(envc.min(4096));
        for _ in 0..envc {
            env.push(OsString::from_vec(r.string()?.to_vec()));
        }
        if r.at != bytes.len() {
            return Err(WireError::Malformed("trailing bytes"));
        }
        Ok(Request {
            kind,
            blocked,
            ignored,
            cwd,
            args,
            env,
        })
    }
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], WireError> {
        let end = self
            .at
            .checked_add(n)
            .filter(|e| *e <= self.bytes.len())
            .ok_or(WireError::Malformed("truncated"))?;
        let out = &self.bytes[self.at..end];
        self.at = end;
        Ok(out)
    }

    fn u32(&mut self) -> Result<u32, WireError> {
        let b = self.take(4)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }

    fn u64(&mut self) -> Result<u64, WireError> {
        let b = self.take(8)?;
        let mut a = [0u8; 8];
        a.copy_from_slice(b);
        Ok(u64::from_le_bytes(a))
    }

    fn string(&mut self) -> Result<&'a [u8], WireError> {
        let n = self.u32()? as usize;
        self.take(n)
    }
}

/// Sends `request` with the descriptors `fds` (stdin, stdout, stderr, the working directory).
pub fn send(stream: &mut UnixStream, request: &Request, fds: [RawFd; FDS]) -> io::Result<()> {
    let payload = request.encode();
    let mut header = Vec::with_capacity(8);
    header.extend_from_slice(MAGIC);
    header.extend_from_slice(&(payload.len() as u32).to_le_bytes());
    send_with_fds(stream, &header, &fds)?;
    stream.write_all(&payload)
}

/// Receives a request and its descriptors.
pub fn receive(stream: &mut UnixStream) -> Result<(Request, Vec<OwnedFd>), WireError> {
    let mut header = [0u8; 8];
    let fds = recv_with_fds(stream, &mut header)?;
    if &header[..4] != MAGIC {
        return Err(WireError::Malformed("bad header"));
    }
    let len = u32::from_le_bytes([header[4], header[5], header[6], header[7]]) as usize;
    if len > MAX_REQUEST {
        return Err(WireError::Malformed("too large"));
    }
    if fds.len() != FDS {
        return Err(WireError::Malformed("wrong number of descriptors"));
    }
    let mut payload = vec![0u8; len];
    stream.read_exact(&mut payload)?;
    Ok((Request::decode(&payload)?, fds))
}

/// Writes a reply.
pub fn reply(stream: &mut UnixStream, reply: Reply) -> io::Result<()> {
    let (tag, v) = match reply {
        Reply::Exited(c) => (b'E', c),
        Reply::Signaled(s) => (b'S', s),
        Reply::Failed(c) => (b'X', c),
        Reply::NotServed => (b'P', 0),
    };
    let mut buf = [0u8; 5];
    buf[0] = tag;
    buf[1..].copy_from_slice(&v.to_le_bytes());
    stream.write_all(&buf)
}

/// Reads one 5-byte frame: a reply (from the broker) or a message (from the caller). `None` at
/// the end of the stream.
fn frame(stream: &mut UnixStream) -> Result<Option<(u8, i32)>, WireError> {
    let mut buf = [0u8; 5];
    let mut got = 0;
    while got < buf.len() {
        match stream.read(&mut buf[got..]) {
            Ok(0) if got == 0 => return Ok(None),
            Ok(0) => return Err(WireError::Malformed("truncated frame")),
            Ok(n) => got += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e.into()),
        }
    }
    Ok(Some((
        buf[0],
        i32::from_le_bytes([buf[1], buf[2], buf[3], buf[4]]),
    )))
}

/// Reads the broker's reply.
pub fn read_reply(stream: &mut UnixStream) -> Result<Reply, WireError> {
    match frame(stream)? {
        Some((b'E', c)) => Ok(Reply::Exited(c)),
        Some((b'S', s)) => Ok(Reply::Signaled(s)),
        Some((b'X', c)) => Ok(Reply::Failed(c)),
        Some((b'P', _)) => Ok(Reply::NotServed),
        Some(_) => Err(WireError::Malformed("unknown reply")),
        None => Err(WireError::Malformed("the broker closed the connection")),
    }
}

/// Reads a message from the caller; `None` when it has gone.
pub fn read_message(stream: &mut UnixStream) -> Result<Option<Message>, WireError> {
    match frame(stream)? {
        Some((b'K', s)) if (1..64).contains(&s) => Ok(Some(Message::Signal(s))),
        Some(_) => Err(WireError::Malformed("unknown message")),
        None => Ok(None),
    }
}

/// The bytes of a signal message (written from a signal handler: no allocation).
pub fn signal_message(sig: i32) -> [u8; 5] {
    let mut buf = [0u8; 5];
    buf[0] = b'K';
    buf[1..].copy_from_slice(&sig.to_le_bytes());
    buf
}

#[allow(
    unsafe_code,
    reason = "sendmsg with SCM_RIGHTS has no wrapper in the dependencies used"
)]
fn send_with_fds(stream: &UnixStream, bytes: &[u8], fds: &[RawFd]) -> io::Result<()> {
    let fd_bytes = std::mem::size_of_val(fds);
    // SAFETY: CMSG_SPACE computes a size from an integer.
    let space = unsafe { libc::CMSG_SPACE(fd_bytes as u32) } as usize;
    let mut control = vec![0u8; space];
    let mut iov = libc::iovec {
        iov_base: bytes.as_ptr() as *mut libc::c_void,
        iov_len: bytes.len(),
    };
    // SAFETY: a zeroed msghdr is valid; every pointer set below points into live buffers of
    // the given lengths, and the control message is written within `control`.
    unsafe {
        let mut msg: libc::msghdr = std::mem::zeroed();
        msg.msg_iov = &mut iov;
        msg.msg_iovlen = 1;
        msg.msg_control = control.as_mut_ptr().cast();
        msg.msg_controllen = space as _;
        let cmsg = libc::CMSG_FIRSTHDR(&msg);
        (*cmsg).cmsg_level = libc::SOL_SOCKET;
        (*cmsg).cmsg_type = libc::SCM_RIGHTS;
        (*cmsg).cmsg_len = libc::CMSG_LEN(fd_bytes as u32) as _;
        std::ptr::copy_nonoverlapping(fds.as_ptr().cast::<u8>(), libc::CMSG_DATA(cmsg), fd_bytes);
        loop {
            let sent = libc::sendmsg(stream.as_raw_fd(), &msg, libc::MSG_NOSIGNAL);
            if sent >= 0 {
                if sent as usize != bytes.len() {
                    return Err(io::Error::new(io::ErrorKind::WriteZero, "short send"));
                }
                return Ok(());
            }
            let err = io::Error::last_os_error();
            if err.kind() != io::ErrorKind::Interrupted {
                return Err(err);
            }
        }
    }
}

#[allow(
    unsafe_code,
    reason = "recvmsg with SCM_RIGHTS has no wrapper in the dependencies used"
)]
fn recv_with_fds(stream: &UnixStream, buf: &mut [u8]) -> Result<Vec<OwnedFd>, WireError> {
    const MAX_FDS: usize = 16;
    // SAFETY: CMSG_SPACE computes a size from an integer.
    let space =
        unsafe { libc::CMSG_SPACE((MAX_FDS * std::mem::size_of::<RawFd>()) as u32) } as usize;
    let mut control = vec![0u8; space];
    let mut fds = Vec::new();
    let mut got = 0;
    while got < buf.len() {
        let mut iov = libc::iovec {
            iov_base: buf[got..].as_mut_ptr().cast(),
            iov_len: buf.len() - got,
        };
        // SAFETY: a zeroed msghdr is valid; its pointers point into live buffers of the given
        // lengths; received descriptors are taken into `OwnedFd`s at once (CMSG_CLOEXEC).
        let n = unsafe {
            let mut msg: libc::msghdr = std::mem::zeroed();
            msg.msg_iov = &mut iov;
            msg.msg_iovlen = 1;
            msg.msg_control = control.as_mut_ptr().cast();
            msg.msg_controllen = space as _;
            let n = libc::recvmsg(stream.as_raw_fd(), &mut msg, libc::MSG_CMSG_CLOEXEC);
            if n > 0 {
                let mut cmsg = libc::CMSG_FIRSTHDR(&msg);
                while !cmsg.is_null() {
                    if (*cmsg).cmsg_level == libc::SOL_SOCKET
                        && (*cmsg).cmsg_type == libc::SCM_RIGHTS
                    {
                        let data = libc::CMSG_DATA(cmsg);
                        let len = (*cmsg).cmsg_len as usize - libc::CMSG_LEN(0) as usize;
                        for i in 0..len / std::mem::size_of::<RawFd>() {
                            let fd = std::ptr::read_unaligned(
                                data.add(i * std::mem::size_of::<RawFd>()).cast::<RawFd>(),
                            );
                            fds.push(OwnedFd::from_raw_fd(fd));
                        }
                    }
                    cmsg = libc::CMSG_NXTHDR(&msg, cmsg);
                }
                if msg.msg_flags & libc::MSG_CTRUNC != 0 {
                    return Err(WireError::Malformed("too many descriptors"));
                }
            }
            n
        };
        if n == 0 {
            return Err(WireError::Malformed("truncated header"));
        }
        if n < 0 {
            let err = io::Error::last_os_error();
            if err.kind() == io::ErrorKind::Interrupted {
                continue;
            }
            return Err(err.into());
        }
        got += n as usize;
    }
    Ok(fds)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requests_round_trip_whatever_bytes_they_carry() {
        let r = Request {
            kind: Kind::Git,
            blocked: 1 << 1,
            ignored: 1 << 12,
            cwd: OsString::from_vec(b"/r/\xff".to_vec()),
            args: vec!["commit".into(), OsString::from_vec(b"-m\n\x00x".to_vec())],
            env: vec!["A=1".into(), OsString::from_vec(b"B=\xfe".to_vec())],
        };
        assert_eq!(Request::decode(&r.encode()).unwrap(), r);
        let bytes = r.encode();
        for cut in 0..bytes.len() {
            assert!(Request::decode(&bytes[..cut]).is_err(), "{cut}");
        }
        let mut long = bytes.clone();
        long.push(0);
        assert!(Request::decode(&long).is_err());
    }

    #[test]
    fn descriptors_travel_with_the_request() {
        let (mut a, mut b) = UnixStream::pair().unwrap();
        let r = Request {
            kind: Kind::Gh,
            blocked: 0,
            ignored: 0,
            cwd: "/".into(),
            args: vec!["pr".into()],
            env: Vec::new(),
        };
        let devnull = std::fs::File::open("/dev/null").unwrap();
        let fd = devnull.as_raw_fd();
        send(&mut a, &r, [fd, fd, fd, fd]).unwrap();
        let (got, fds) = receive(&mut b).unwrap();
        assert_eq!(got, r);
        assert_eq!(fds.len(), FDS);
        reply(&mut b, Reply::Signaled(13)).unwrap();
        assert_eq!(read_reply(&mut a).unwrap(), Reply::Signaled(13));
        a.write_all(&signal_message(2)).unwrap();
        assert_eq!(read_message(&mut b).unwrap(), Some(Message::Signal(2)));
        drop(a);
        assert_eq!(read_message(&mut b).unwrap(), None);
    }
}
