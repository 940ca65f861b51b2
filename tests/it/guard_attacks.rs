//! The attack of issue 26 on the session guard, class by class, in two forms: refused by the
//! command-line layer with one line; and with that layer switched off (a switch for tests
//! only, honoured by debug builds alone), the kernel layer alone lets nothing change — the
//! remote's protected `main` unmoved, the read repository's refs, index and files
//! byte-identical.
//!
//! Every attack runs `evil.sh` if it can: a program git starts (through an alias, a hook, its
//! configuration or the environment) that uses the real git by its path to push `main` to the
//! remote and to change the read repository, and writes into it directly.
//!
//! Run with `GIT_PRISM_TEST_KERNEL_LAYER=off` in the test process's environment, the kernel
//! tests must fail: that is how the closing note shows each of them depends on the kernel
//! layer alone.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::guard::{Session, allowed, refused};

/// One attack: where it runs, its arguments and its environment.
struct Attack {
    class: &'static str,
    dir: PathBuf,
    args: Vec<String>,
    vars: Vec<(String, String)>,
    /// Whether the kernel layer is expected to hold it alone (see [`NOT_KERNEL`]).
    kernel: bool,
}

/// The classes the kernel layer cannot hold by itself, and why (docs/security.md says so too).
const NOT_KERNEL: &[(&str, &str)] = &[
    (
        "gh",
        "gh's effects are HTTPS requests to the forge, which the kernel cannot read",
    ),
    (
        "scope file",
        "the guard's own input: the first layer must not hang or fill memory reading it",
    ),
];

/// A session with the files the attacks use.
struct Field {
    s: Session,
    root: PathBuf,
    evil: String,
}

impl Field {
    fn new() -> Field {
        let s = Session::new("write-push");
        s.commit_on_app();
        let root = s.env.root();
        // `other` (read): a second commit to diff, and a file only it tracks.
        let other = s.env.repo_at(&s.other);
        other
            .write("only-in-other", "mine\n")
            .write("README", "other, changed\n");
        other.git(&["add", "."]);
        other.git(&["commit", "-q", "-m", "two"]);
        let real = s.env.real_git.display().to_string();
        let evil = s.env.script(
            &root,
            "evil.sh",
            &format!(
                "#!/bin/sh\nunset GIT_DIR GIT_WORK_TREE GIT_INDEX_FILE GIT_COMMON_DIR GIT_PREFIX GIT_OBJECT_DIRECTORY\n{real} -C {app} push -q -f origin main:main 2>/dev/null\n{real} -C {other} branch evil-branch 2>/dev/null\n{real} -C {other} update-ref refs/heads/main HEAD~1 2>/dev/null\necho evil > {other}/evil-file 2>/dev/null\necho evil > {other}/README 2>/dev/null\ncat >/dev/null\nexit 0\n",
                app = s.app.display(),
                other = s.other.display(),
            ),
        );
        let evil = evil.display().to_string();
        // Hooks and templates that run it.
        s.env.script(
            &root.join("hooks"),
            "post-checkout",
            &format!("#!/bin/sh\nexec {evil}\n"),
        );
        s.env.script(
            &root.join("tpl/hooks"),
            "post-checkout",
            &format!("#!/bin/sh\nexec {evil}\n"),
        );
        // Configuration files that name it.
        let cfg = format!("[diff]\n\texternal = {evil}\n[core]\n\tpager = {evil}\n");
        std::fs::write(root.join("ext.cfg"), &cfg).unwrap();
        std::fs::create_dir_all(root.join("evilhome")).unwrap();
        std::fs::write(root.join("evilhome/.gitconfig"), &cfg).unwrap();
        // A `.git` in lib's work tree whose HEAD is a dangling symbolic link and whose
        // `commondir` is other's: git takes it for a repository that shares other's refs.
        let sub = s.lib.join("sub/.git");
        std::fs::create_dir_all(&sub).unwrap();
        std::os::unix::fs::symlink("refs/heads/main", sub.join("HEAD")).unwrap();
        std::fs::write(sub.join("commondir"), "../../../other/.git\n").unwrap();
        // app: a tag that is a symbolic ref to main; a patch to mail.
        s.env
            .repo_at(&s.app)
            .git(&["symbolic-ref", "refs/tags/rel", "refs/heads/main"]);
        s.env.repo_at(&s.app).git(&[
            "format-patch",
            "-q",
            "-1",
            "-o",
            root.join("patches").to_str().unwrap(),
        ]);
        Field { s, root, evil }
    }

    fn attacks(&self) -> Vec<Attack> {
        let s = &self.s;
        let root = &self.root;
        let evil = &self.evil;
        let p = |p: &Path| p.display().to_string();
        let (lib, other, remote) = (p(&s.lib), p(&s.other), p(&s.remote));
        let a = |class: &'static str, dir: &Path, args: &[&str], vars: &[(&str, &str)]| Attack {
            class,
            dir: dir.to_owned(),
            args: args.iter().map(|x| (*x).to_owned()).collect(),
            vars: vars
                .iter()
                .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
                .collect(),
            kernel: !NOT_KERNEL.iter().any(|(c, _)| *c == class),
        };
        let patch = std::fs::read_dir(root.join("patches"))
            .unwrap()
            .next()
            .unwrap()
            .unwrap()
            .path();
        vec![
            a(
                "-c inside an alias value",
                &s.other,
                &[
                    "-c",
                    &format!("alias.dd=-c diff.external={evil} diff HEAD~1 HEAD"),
                    "dd",
                ],
                &[],
            ),
            a(
                "alias words split unlike git",
                &s.other,
                &["-c", "alias.b=branch x\u{a0}--list", "b"],
                &[],
            ),
            a(
                "clone's own settings",
                root,
                &[
                    "clone",
                    "-q",
                    "-b",
                    "main",
                    "-c",
                    &format!("core.hooksPath={}", p(&root.join("hooks"))),
                    &remote,
                    &p(&root.join("c1")),
                ],
                &[],
            ),
            a(
                "clone's own settings",
                root,
                &[
                    "clone",
                    "-q",
                    "-b",
                    "main",
                    &format!("--template={}", p(&root.join("tpl"))),
                    &remote,
                    &p(&root.join("c2")),
                ],
                &[],
            ),
            a(
                "clone's own settings",
                root,
                &["clone", "-q", "-b", "main", &remote, &p(&root.join("c3"))],
                &[("GIT_TEMPLATE_DIR", &p(&root.join("tpl")))],
            ),
            a(
                "another repo's git dir from inside a read one",
                &s.other,
                &["clean", "-fdx"],
                &[("GIT_DIR", &format!("{lib}/.git"))],
            ),
            a(
                "an option value that swallows --list",
                &s.other,
                &["branch", "--format", "--list", "x6"],
                &[],
            ),
            a(
                "an option value that swallows --list",
                &s.other,
                &["tag", "--format", "--list", "y6"],
                &[],
            ),
            a(
                "symbolic refs outside refs/heads",
                &s.app,
                &["push", "-q", "origin", "rel"],
                &[],
            ),
            a(
                "a local repository as push destination",
                &s.app,
                &["push", "-q", &other, "feature:refs/heads/p"],
                &[],
            ),
            a(
                "programs send-email runs",
                &s.app,
                &[
                    "send-email",
                    &format!("--sendmail-cmd={evil}"),
                    "--to=a@example.com",
                    "--confirm=never",
                    "--quiet",
                    &p(&patch),
                ],
                &[],
            ),
            a(
                "file-writing options",
                &s.lib,
                &[
                    "log",
                    "-1",
                    &format!("--output={other}/.git/refs/heads/x10"),
                ],
                &[],
            ),
            a(
                "file-writing options",
                &s.lib,
                &[
                    "read-tree",
                    &format!("--index-output={other}/.git/index"),
                    "HEAD",
                ],
                &[],
            ),
            a(
                "file-writing options",
                &s.lib,
                &["checkout-index", "-a", "-f", &format!("--prefix={other}/")],
                &[],
            ),
            a(
                "discovery unlike git's",
                &s.lib.join("sub"),
                &["commit", "-q", "--allow-empty", "-m", "evil"],
                &[],
            ),
            a(
                "init/clone into another repo's .git",
                root,
                &[
                    "init",
                    "-q",
                    "--bare",
                    &format!("{other}/.git/refs/heads/n12"),
                ],
                &[],
            ),
            a(
                "init/clone into another repo's .git",
                root,
                &[
                    "clone",
                    "-q",
                    &remote,
                    &format!("{other}/.git/refs/heads/m12"),
                ],
                &[],
            ),
            a(
                "the environment of one call",
                &s.other,
                &["diff", "HEAD~1", "HEAD"],
                &[("GIT_CONFIG_GLOBAL", &p(&root.join("ext.cfg")))],
            ),
            a(
                "the environment of one call",
                &s.other,
                &["diff", "HEAD~1", "HEAD"],
                &[("HOME", &p(&root.join("evilhome")))],
            ),
            a(
                "the environment of one call",
                &s.other,
                &["-p", "log", "-1"],
                &[("PAGER", evil), ("GIT_PRISM_SESSION_PAGER", evil)],
            ),
            a(
                "the environment of one call",
                &s.other,
                &["-p", "log", "-1"],
                &[("GIT_PAGER", evil)],
            ),
            a(
                "the environment of one call",
                &s.other,
                &["diff", "HEAD~1", "HEAD"],
                &[("GIT_EXTERNAL_DIFF", evil)],
            ),
            // A write in app that another program could turn into a push of main.
            a(
                "the environment of one call",
                &s.app,
                &["commit", "-q", "--allow-empty", "-m", "x"],
                &[("GIT_EDITOR", evil), ("EDITOR", evil)],
            ),
            a(
                "a ! alias",
                &s.other,
                &["-c", &format!("alias.x=!{evil}"), "x"],
                &[],
            ),
            a(
                "a ! alias",
                &s.app,
                &["-c", &format!("alias.x=!{evil}"), "x"],
                &[],
            ),
            // Last: it may empty the write-local repository it names, which its permission
            // allows.
            a(
                "a work tree that contains repositories",
                root,
                &["--git-dir=lib/.git", "--work-tree=.", "clean", "-ffdx"],
                &[],
            ),
        ]
    }

    /// Every file under the read repository, with its content (the index, the refs, the
    /// objects, the work tree).
    fn other_state(&self) -> BTreeMap<PathBuf, Vec<u8>> {
        let mut out = BTreeMap::new();
        let mut stack = vec![self.s.other.clone()];
        while let Some(dir) = stack.pop() {
            for e in std::fs::read_dir(&dir).unwrap() {
                let e = e.unwrap();
                let t = e.file_type().unwrap();
                if t.is_dir() {
                    stack.push(e.path());
                } else if t.is_symlink() {
                    out.insert(
                        e.path(),
                        std::fs::read_link(e.path())
                            .unwrap()
                            .into_os_string()
                            .into_encoded_bytes(),
                    );
                } else {
                    out.insert(e.path(), std::fs::read(e.path()).unwrap());
                }
            }
        }
        out
    }

    fn run(&self, attack: &Attack, extra: &[(&str, &str)]) -> std::process::Output {
        let mut vars: Vec<(&str, &str)> = attack
            .vars
            .iter()
            .map(|(k, v)| (k.as_str(), v.as_str()))
            .collect();
        vars.extend_from_slice(extra);
        let args: Vec<&str> = attack.args.iter().map(String::as_str).collect();
        let out = self.s.git_with(&attack.dir, &args, &vars);
        // The temporary directory may have been cleaned by the attack; the session needs it.
        std::fs::create_dir_all(&self.s.tmp).unwrap();
        out
    }
}

/// The command-line form: every attack of `class` is refused with one line, and nothing
/// changes.
fn refused_by_the_command_line(class: &str) {
    let f = Field::new();
    let before = (f.s.remote_main(), f.other_state());
    let attacks: Vec<Attack> = f
        .attacks()
        .into_iter()
        .filter(|a| a.class == class)
        .collect();
    assert!(!attacks.is_empty(), "no attack of class {class}");
    for attack in attacks {
        let out = f.run(&attack, &[]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            !out.status.success() && stderr.starts_with("git-prism guard: refused"),
            "{class}: {:?} passed: {stderr}",
            attack.args
        );
        refused(&out);
    }
    assert_eq!(
        f.s.remote_main(),
        before.0,
        "{class}: the remote's main moved"
    );
    assert!(
        f.other_state() == before.1,
        "{class}: the read repository changed"
    );
}

/// The kernel form: with the command-line layer switched off, every attack of `class` runs,
/// and still changes nothing.
fn held_by_the_kernel_alone(class: &str) {
    let f = Field::new();
    let before_main = f.s.remote_main();
    let before = f.other_state();
    let attacks: Vec<Attack> = f
        .attacks()
        .into_iter()
        .filter(|a| a.class == class)
        .collect();
    assert!(!attacks.is_empty() && attacks.iter().all(|a| a.kernel));
    for attack in attacks {
        f.run(&attack, &[("GIT_PRISM_TEST_ARGV_LAYER", "off")]);
        assert_eq!(
            f.s.remote_main(),
            before_main,
            "{class}: {:?}: the remote's main moved",
            attack.args
        );
        let state = f.other_state();
        let changed: Vec<String> = state
            .iter()
            .filter(|(k, v)| before.get(*k) != Some(v))
            .map(|(k, _)| k.display().to_string())
            .chain(
                before
                    .keys()
                    .filter(|k| !state.contains_key(*k))
                    .map(|k| format!("{} (removed)", k.display())),
            )
            .collect();
        assert!(
            changed.is_empty(),
            "{class}: {:?}: the read repository changed: {changed:?}",
            attack.args
        );
    }
}

/// One module per class, each with its two tests.
macro_rules! classes {
    ($($name:ident => $class:literal,)*) => {
        $(
            mod $name {
                #[test]
                fn refused_by_the_command_line() {
                    super::refused_by_the_command_line($class);
                }

                #[test]
                fn held_by_the_kernel_alone() {
                    super::held_by_the_kernel_alone($class);
                }
            }
        )*
    };
}

classes! {
    c_inside_an_alias => "-c inside an alias value",
    alias_words_split_unlike_git => "alias words split unlike git",
    clone_s_own_settings => "clone's own settings",
    a_work_tree_that_contains_repositories => "a work tree that contains repositories",
    another_repo_s_git_dir => "another repo's git dir from inside a read one",
    an_option_value_that_swallows_list => "an option value that swallows --list",
    symbolic_refs_outside_refs_heads => "symbolic refs outside refs/heads",
    a_local_repository_as_push_destination => "a local repository as push destination",
    programs_send_email_runs => "programs send-email runs",
    file_writing_options => "file-writing options",
    discovery_unlike_git_s => "discovery unlike git's",
    init_or_clone_into_a_git_dir => "init/clone into another repo's .git",
    the_environment_of_one_call => "the environment of one call",
    a_shell_alias => "a ! alias",
}

#[test]
fn the_argv_layer_holds_gh_and_the_scope_file_alone() {
    // The classes the kernel layer cannot hold (NOT_KERNEL): the command line refuses them.
    let s = Session::new("write-push");
    let bin_dir = s.env.root().join("fake-gh");
    let record = s.env.root().join("gh-calls");
    let fake = s.env.script(
        &bin_dir,
        "gh",
        &format!("#!/bin/sh\necho \"$*\" >> {}\n", record.display()),
    );
    for args in [
        &["repo", "delete", "o/r", "--yes"][..],
        &["repo", "delete", "--yes"],
        &["repo", "archive", "o/r", "--yes"],
        &["repo", "rename", "x", "--yes"],
        &["api", "graphql?x=/issues", "-f", "query=mutation{x}"],
        &[
            "api",
            "https://api.github.com/graphql",
            "-f",
            "query=mutation{x}",
        ],
        &["repo", "frobnicate"],
        &["pr", "frobnicate"],
    ] {
        // From the write-local repository: a forge write needs write-push.
        let mut gh = s.env.command(s.env.shim_dir.join("gh"), &s.env.shim_path());
        gh.args(args)
            .current_dir(&s.lib)
            .env("GIT_PRISM_REAL_GH", &fake);
        s.hold(&mut gh);
        refused(&gh.output().unwrap());
    }
    assert!(!record.exists(), "a refused gh call reached gh");
    // A scope that is a FIFO or a device: refused at once, not a hang or a memory fill.
    let fifo = s.env.root().join("fifo.toml");
    assert!(
        std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success()
    );
    for scope in [fifo.as_path(), Path::new("/dev/zero")] {
        let started = std::time::Instant::now();
        let out = s
            .env
            .shim_git(&["commit", "--allow-empty", "-m", "x"])
            .current_dir(&s.app)
            .env("GIT_PRISM_SCOPE", scope)
            .output()
            .unwrap();
        let line = refused(&out);
        assert!(line.contains("not a regular file"), "{line}");
        assert!(started.elapsed().as_secs() < 10);
    }
}

// Issue 26, item 4: reads that the guard refused, or that failed under it.
#[test]
fn the_reads_that_were_refused_pass_in_a_read_repository() {
    let s = Session::new("write-push");
    let other = s.env.repo_at(&s.other);
    other.git(&["tag", "v1"]);
    other.git(&["tag", "-a", "-m", "annotated", "v2"]);
    other.write("README", "changed\n");
    std::fs::write(s.env.root().join("p.diff"), "").unwrap();
    other.git(&[
        "diff",
        "--output",
        s.env.root().join("p.diff").to_str().unwrap(),
    ]);
    let index = std::fs::read(s.other.join(".git/index")).unwrap();
    let patch = s.env.root().join("p.diff").display().to_string();
    for (args, vars) in [
        (&["branch", "--show-current"][..], &[][..]),
        (&["branch", "--contains", "HEAD"], &[]),
        (&["branch", "--merged", "HEAD"], &[]),
        (&["branch", "--points-at", "HEAD"], &[]),
        (&["tag", "--contains", "HEAD"], &[]),
        (&["tag", "--merged", "HEAD"], &[]),
        (&["tag", "--points-at", "HEAD"], &[]),
        (&["tag", "-n5"], &[]),
        (&["reflog", "-5"], &[]),
        (&["reflog", "main"], &[]),
        (&["apply", "--check", "-R", &patch], &[]),
        (&["commit", "--dry-run", "-a"], &[]),
        (&["log", "-1"], &[("GIT_PAGER", "cat")]),
        (&["log", "-1"], &[("GIT_EDITOR", "true")]),
        (&["-c", "commit.gpgsign=false", "log", "-1"], &[]),
        (&["-c", "core.hooksPath=/dev/null", "status"], &[]),
    ] {
        let out = s.git_with(&s.other, args, vars);
        // `commit --dry-run` exits 1 when there is nothing it would commit; anything but a
        // refusal or a failure to lock the index is git's own answer.
        let stderr = String::from_utf8_lossy(&out.stderr);
        if args[0] == "commit" {
            assert!(
                !stderr.contains("git-prism guard") && !stderr.contains("index.lock"),
                "{args:?}: {stderr}"
            );
            continue;
        }
        allowed(&out);
    }
    assert_eq!(
        std::fs::read(s.other.join(".git/index")).unwrap(),
        index,
        "the index is what it was"
    );
}

#[test]
fn session_and_check_say_what_the_kernel_holds_in_one_line() {
    let s = Session::new("write-local");
    for (abi, want) in [
        (
            "7",
            "kernel: Landlock ABI 7: git and every program it starts",
        ),
        (
            "3",
            "kernel: Landlock ABI 3 holds file-system writes but not the network",
        ),
        (
            "0",
            "kernel: no Landlock on this system: only the command-line layer holds",
        ),
    ] {
        let out = s
            .env
            .command(crate::common::bin(), &s.env.plain_path())
            .args(["session", "check"])
            .current_dir(&s.app)
            .env("GIT_PRISM_SCOPE", &s.scope)
            .env("GIT_PRISM_TEST_LANDLOCK_ABI", abi)
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        assert_eq!(
            text.lines().filter(|l| l.starts_with("kernel:")).count(),
            1,
            "{text}"
        );
        assert!(text.contains(want), "{abi}: {text}");
    }
    // A repository inside the temporary directory: the kernel cannot hold it, and says so.
    let out = s
        .env
        .command(crate::common::bin(), &s.env.plain_path())
        .args(["session", "check"])
        .current_dir(&s.app)
        .env("GIT_PRISM_SCOPE", &s.source)
        .env("TMPDIR", s.env.root())
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("overlap: the kernel layer lets every call write there"),
        "{text}"
    );
}

/// A `git daemon` serving the session's root, with pushes enabled; killed when dropped.
struct Daemon {
    child: std::process::Child,
    port: u16,
}

impl Drop for Daemon {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn daemon(s: &Session) -> Option<Daemon> {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .ok()?
        .local_addr()
        .ok()?
        .port();
    let root = s.env.root();
    let child = s
        .env
        .command(&s.env.real_git, &s.env.plain_path())
        .args([
            "daemon",
            "--reuseaddr",
            "--listen=127.0.0.1",
            &format!("--port={port}"),
            &format!("--base-path={}", root.display()),
            "--export-all",
            "--enable=receive-pack",
            &root.display().to_string(),
        ])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .ok()?;
    let daemon = Daemon { child, port };
    for _ in 0..100 {
        if std::net::TcpStream::connect(("127.0.0.1", port)).is_ok() {
            return Some(daemon);
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    None
}

// The network: a push over TCP works, its pre-push hook cannot connect anywhere nor push
// `main` itself, and a read's external diff cannot connect either (with the command-line layer
// switched off, so only the kernel stands in the way).
#[test]
fn only_the_transport_of_a_network_call_reaches_the_network() {
    let s = Session::new("write-push");
    s.commit_on_app();
    let before = s.remote_main();
    let Some(d) = daemon(&s) else {
        eprintln!("no git daemon: the network test is skipped");
        return;
    };
    let canary = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    canary.set_nonblocking(true).unwrap();
    let canary_port = canary.local_addr().unwrap().port();
    let url = format!("git://127.0.0.1:{}/remote.git", d.port);
    let real = s.env.real_git.display().to_string();
    let marker = s.tmp.join("hook-ran");
    let connect = format!(
        "python3 -c 'import socket; socket.create_connection((\"127.0.0.1\", {canary_port}), 2)' 2>/dev/null && echo connected >> {m} || echo refused >> {m}",
        m = marker.display()
    );
    s.env.script(
        &s.app.join(".git/hooks"),
        "pre-push",
        &format!(
            "#!/bin/sh\ncat >/dev/null\n{connect}\nunset GIT_DIR\n{real} -C {app} push -q -f {url} main:main 2>/dev/null\nexit 0\n",
            app = s.app.display()
        ),
    );
    allowed(&s.git(
        &s.app,
        &["push", "-q", &url, "feature:refs/heads/net-feature"],
    ));
    assert!(
        std::fs::read_to_string(&marker)
            .unwrap()
            .contains("refused"),
        "the hook ran and could not connect"
    );
    // The push itself reached the remote; the hook's own push of main did not.
    let has = s
        .env
        .command(&s.env.real_git, &s.env.plain_path())
        .args([
            "--git-dir",
            s.remote.to_str().unwrap(),
            "rev-parse",
            "--verify",
            "-q",
            "net-feature",
        ])
        .output()
        .unwrap();
    assert!(has.status.success(), "the push went out");
    assert_eq!(s.remote_main(), before, "the hook pushed main");
    // A read's external diff: no network at all.
    let diff = s
        .env
        .script(&s.env.root(), "diff.sh", &format!("#!/bin/sh\n{connect}\n"));
    s.env.repo_at(&s.other).write("README", "changed\n");
    s.git_with(
        &s.other,
        &["-c", &format!("diff.external={}", diff.display()), "diff"],
        &[("GIT_PRISM_TEST_ARGV_LAYER", "off")],
    );
    let ran = std::fs::read_to_string(&marker).unwrap();
    assert_eq!(ran.lines().count(), 2, "{ran}");
    assert!(!ran.contains("connected"), "{ran}");
    assert!(canary.accept().is_err(), "nothing connected to the canary");
}

// The one directory every call may write outside repositories must not be one inside a
// repository: `TMPDIR=<other>/.git` with a scope set by hand (no record) grants nothing there.
#[test]
fn a_temporary_directory_inside_a_repository_is_not_granted() {
    let s = Session::new("write-push");
    let writer = s.env.script(
        &s.env.root(),
        "writer.sh",
        "#!/bin/sh\necho evil > \"$TMPDIR/planted\" 2>/dev/null\nexit 0\n",
    );
    s.env.repo_at(&s.other).write("README", "changed\n");
    let tmpdir = s.other.join(".git").display().to_string();
    let out = s
        .env
        .shim_git(&["-c", &format!("diff.external={}", writer.display()), "diff"])
        .current_dir(&s.other)
        .env("GIT_PRISM_SCOPE", &s.source)
        .env("GIT_PRISM_STATE_DIR", &s.state)
        .env("TMPDIR", &tmpdir)
        .env("GIT_PRISM_TEST_ARGV_LAYER", "off")
        .envs(
            std::env::var_os("GIT_PRISM_TEST_KERNEL_LAYER")
                .map(|v| ("GIT_PRISM_TEST_KERNEL_LAYER", v)),
        )
        .output()
        .unwrap();
    assert!(
        !s.other.join(".git/planted").exists(),
        "a program wrote into the repository through TMPDIR: {out:?}"
    );
}
