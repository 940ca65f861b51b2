//! The kernel layer of the session guard (ADR 16): a [`Confinement`] the shim puts on itself
//! with Landlock just before it execs the real git (or, for a write whose effects are recorded,
//! on the child it forks, just before that execs git: [`prepare`] builds the rules where
//! allocating is safe, [`Prepared::restrict_self`] puts them in force), so git and everything
//! git starts (aliases, hooks, external diffs, pagers, credential helpers, programs its
//! configuration names) can write only where the call's permission allows and connect to no
//! TCP port unless the guard judged the call needs the network ([`Network`]: none, only given
//! ports, or any).
//!
//! Landlock only narrows: a confined process can add a narrower layer (the hook wrapper does,
//! `src/guard/hook.rs`) but never widen its own. Reads and execution are not restricted; of the
//! file-system rights only those that change something are handled (writing, truncating,
//! creating, removing, renaming, linking), so an ioctl on an inherited terminal still works.
//! From ABI 6, a confined process also cannot signal processes outside its domain nor, without
//! the network, reach an abstract UNIX socket outside it.
//!
//! [`support`] says what the running kernel can hold: nothing (no Landlock, or not Linux),
//! file-system writes only (Landlock ABI 1 to 3), or writes and TCP connections (ABI 4 and
//! later). Nothing here decides what to allow: the guard computes the confinement.

pub mod sandbox;

use std::os::fd::AsFd;
use std::path::{Path, PathBuf};

use landlock::{
    ABI, AccessFs, AccessNet, BitFlags, CompatLevel, Compatible, NetPort, PathBeneath, PathFd,
    Ruleset, RulesetAttr, RulesetCreatedAttr, RulesetStatus, Scope,
};

/// Where a confined process may write and connect.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Confinement {
    /// Directories in which everything may be written (each with everything beneath it).
    pub dirs: Vec<PathBuf>,
    /// Files that may be opened for writing (and truncated), and nothing else at their place:
    /// `/dev/null`, the terminal, an output file created for the call.
    pub files: Vec<PathBuf>,
    /// Outbound TCP.
    pub network: Network,
}

/// Which TCP connections a confined process may open.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Network {
    /// None.
    #[default]
    None,
    /// Only to these ports (`send-email`'s SMTP server).
    Ports(Vec<u16>),
    /// Any (a fetch, a clone, a push: git's transports).
    Any,
}

impl std::fmt::Display for Network {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Network::None => f.write_str("no TCP"),
            Network::Any => f.write_str("TCP to any port"),
            Network::Ports(ports) => {
                f.write_str("TCP to ports ")?;
                for (i, p) in ports.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{p}")?;
                }
                Ok(())
            }
        }
    }
}

/// What the running kernel can hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Support {
    /// No Landlock (not Linux, not built in, or disabled at boot): only the command-line layer
    /// holds.
    None,
    /// Landlock without TCP rules (ABI 1 to 3): file-system writes are held, connections are
    /// not.
    WritesOnly {
        /// The Landlock ABI version.
        abi: i32,
    },
    /// File-system writes and TCP connections (ABI 4 and later).
    Full {
        /// The Landlock ABI version.
        abi: i32,
    },
}

impl Support {
    /// The one line `git-prism session` and `session check` print about the kernel layer.
    pub fn line(self) -> String {
        match self {
            Support::Full { abi } => format!(
                "kernel: Landlock ABI {abi}: git and every program it starts write only where the call's permission allows and open no TCP connection unless the call needs the network"
            ),
            Support::WritesOnly { abi } => format!(
                "kernel: Landlock ABI {abi} holds file-system writes but not the network (TCP rules need ABI 4): a program git starts can still connect out; only the command-line layer holds pushes"
            ),
            Support::None => "kernel: no Landlock on this system: only the command-line layer holds; git and the programs it starts are not confined".to_owned(),
        }
    }

    /// Whether the kernel holds anything.
    pub fn any(self) -> bool {
        self != Support::None
    }
}

/// The error returned by [`apply`].
#[derive(Debug, thiserror::Error)]
pub enum ConfineError {
    /// The kernel refused the ruleset.
    #[error("cannot confine git with Landlock")]
    Landlock(#[from] landlock::RulesetError),
    /// The kernel supports Landlock but did not enforce the ruleset.
    #[error("cannot confine git with Landlock: the kernel did not enforce the rules")]
    NotEnforced,
}

/// Whether the rule `rule` of the session's sandbox or guard is switched off for a test
/// (`GIT_PRISM_TEST_RULE_OFF=<rule>[,<rule>...]`): read only in debug builds, so that each
/// rule is shown to hold alone; a release build contains no code that reads it.
pub fn test_rule_off(rule: &str) -> bool {
    #[cfg(debug_assertions)]
    {
        std::env::var("GIT_PRISM_TEST_RULE_OFF")
            .is_ok_and(|v| v.split(',').any(|r| r.trim() == rule))
    }
    #[cfg(not(debug_assertions))]
    {
        let _ = rule;
        false
    }
}

/// What the running kernel supports (one system call).
pub fn support() -> Support {
    #[cfg(debug_assertions)]
    if let Some(abi) = std::env::var_os("GIT_PRISM_TEST_LANDLOCK_ABI") {
        // Tests of the messages for older kernels; never in a release build.
        return from_abi(abi.to_str().and_then(|v| v.parse().ok()).unwrap_or(0));
    }
    from_abi(kernel_abi())
}

fn from_abi(abi: i32) -> Support {
    match abi {
        n if n <= 0 => Support::None,
        1..=3 => Support::WritesOnly { abi },
        _ => Support::Full { abi },
    }
}

#[cfg(target_os = "linux")]
#[allow(
    unsafe_code,
    reason = "the Landlock version query has no wrapper in the landlock crate"
)]
fn kernel_abi() -> i32 {
    const LANDLOCK_CREATE_RULESET_VERSION: libc::c_uint = 1;
    // SAFETY: with a null attribute pointer and size 0 the call only returns the ABI version
    // (or -1 with errno); it reads and writes no memory.
    let v = unsafe {
        libc::syscall(
            libc::SYS_landlock_create_ruleset,
            std::ptr::null::<libc::c_void>(),
            0usize,
            LANDLOCK_CREATE_RULESET_VERSION,
        )
    };
    i32::try_from(v).unwrap_or(0).max(0)
}

#[cfg(not(target_os = "linux"))]
fn kernel_abi() -> i32 {
    0
}

/// The ABI the `landlock` crate builds rules for, from the kernel's version (the crate knows
/// every version up to a newer one than this code was tested with; anything newer is used as
/// the newest one it knows).
fn abi_of(version: i32) -> ABI {
    ABI::from(version)
}

/// The file-system rights that change something (ioctl on devices is left alone: an inherited
/// terminal must keep working).
fn write_access(abi: ABI) -> BitFlags<AccessFs> {
    AccessFs::from_write(abi) & !BitFlags::from(AccessFs::IoctlDev)
}

/// Confines this thread (and so the program it execs, and every process that program starts)
/// to `confinement`. Paths that do not exist are skipped (nothing is granted at them). On a
/// kernel without Landlock this does nothing and returns `Ok(false)`; `Ok(true)` when the rules
/// are in force.
pub fn apply(confinement: &Confinement) -> Result<bool, ConfineError> {
    prepare(confinement)?.restrict_self()
}

/// A ruleset built and ready, not yet in force: built where allocating is safe (before a
/// `fork`), put in force with [`Prepared::restrict_self`] where it is not (in the child, which
/// then only makes two system calls).
pub struct Prepared(Option<landlock::RulesetCreated>);

impl Prepared {
    /// Puts the rules in force on this thread (see [`apply`]); `Ok(false)` without Landlock.
    pub fn restrict_self(self) -> Result<bool, ConfineError> {
        let Some(created) = self.0 else {
            return Ok(false);
        };
        let status = created.restrict_self()?;
        if status.ruleset == RulesetStatus::NotEnforced {
            return Err(ConfineError::NotEnforced);
        }
        Ok(true)
    }
}

/// Builds the ruleset for `confinement` without putting it in force.
pub fn prepare(confinement: &Confinement) -> Result<Prepared, ConfineError> {
    let version = match support() {
        Support::None => return Ok(Prepared(None)),
        Support::WritesOnly { abi } | Support::Full { abi } => abi,
    };
    let abi = abi_of(version);
    let writes = write_access(abi);
    let mut ruleset = Ruleset::default()
        .set_compatibility(CompatLevel::BestEffort)
        .handle_access(writes)?;
    let tcp = version >= 4 && confinement.network != Network::Any;
    if tcp {
        ruleset = ruleset.handle_access(AccessNet::ConnectTcp)?;
    }
    if version >= 6 {
        // No signal to a process outside the domain (the agent, other sessions); no abstract
        // UNIX socket outside it unless the call needs the network (a credential helper may).
        let mut scopes = BitFlags::from(Scope::Signal);
        if confinement.network == Network::None {
            scopes |= Scope::AbstractUnixSocket;
        }
        ruleset = ruleset.scope(scopes)?;
    }
    let mut created = ruleset.create()?;
    // Device nodes are handled but never granted: a device file made in a writable directory
    // (a disk, a terminal) would reach past every other rule.
    let granted = writes & !(AccessFs::MakeChar | AccessFs::MakeBlock);
    for dir in &confinement.dirs {
        if let Some(fd) = open(dir) {
            created = created.add_rule(PathBeneath::new(fd.as_fd(), granted))?;
        }
    }
    let file_rights = granted & AccessFs::from_file(abi);
    for file in &confinement.files {
        if let Some(fd) = open(file) {
            created = created.add_rule(PathBeneath::new(fd.as_fd(), file_rights))?;
        }
    }
    if tcp {
        if let Network::Ports(ports) = &confinement.network {
            for port in ports {
                created = created.add_rule(NetPort::new(*port, AccessNet::ConnectTcp))?;
            }
        }
    }
    Ok(Prepared(Some(created)))
}

/// Opens a path for a rule (`O_PATH`), following links as git would; `None` when it does not
/// exist.
fn open(path: &Path) -> Option<PathFd> {
    PathFd::new(path).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn support_follows_the_abi() {
        assert_eq!(from_abi(0), Support::None);
        assert_eq!(from_abi(-1), Support::None);
        assert_eq!(from_abi(3), Support::WritesOnly { abi: 3 });
        assert_eq!(from_abi(4), Support::Full { abi: 4 });
        assert!(Support::None.line().contains("only the command-line layer"));
        assert!(
            Support::WritesOnly { abi: 3 }
                .line()
                .contains("not the network")
        );
        assert_eq!(Support::Full { abi: 7 }.line().lines().count(), 1);
    }

    #[test]
    fn ioctl_is_never_handled() {
        for v in 1..=10 {
            assert!(!write_access(abi_of(v)).contains(AccessFs::IoctlDev));
            assert!(write_access(abi_of(v)).contains(AccessFs::WriteFile));
        }
    }
}
