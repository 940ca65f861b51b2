//! Table-driven tests of the classifier: argv in, decision out.

use super::*;
use std::os::unix::ffi::OsStringExt;

fn argv(line: &str) -> Vec<OsString> {
    line.split_whitespace().map(OsString::from).collect()
}

/// A one-line summary of a decision: `S <command>` or `P <reason kind>`.
fn summary(d: &Verdict) -> String {
    match d {
        Verdict::Structured(r) => match &r.command {
            Command::Diff(_) => "S diff".into(),
            Command::Log(l) if l.pickaxe.is_some() => "S pickaxe".into(),
            Command::Log(l) if !l.line_ranges.is_empty() => "S line log".into(),
            Command::Log(_) => "S log".into(),
            Command::Show(_) => "S show".into(),
            Command::Blame(_) => "S blame".into(),
        },
        Verdict::Passthrough(reason) => match reason {
            Reason::NoSubcommand => "P none".into(),
            Reason::Informational(_) => "P info".into(),
            Reason::GlobalOption(_) => "P global".into(),
            Reason::NotWatched(_) => "P unwatched".into(),
            Reason::MachineFormat(_) => "P machine".into(),
            Reason::UnknownOption(_) => "P unknown".into(),
            Reason::MissingValue(_) => "P missing".into(),
            Reason::Unsupported(_) => "P unsupported".into(),
        },
    }
}

#[test]
fn decisions() {
    let table = [
        // No subcommand, informational, unwatched.
        ("", "P none"),
        ("-C sub", "P none"),
        ("--version", "P info"),
        ("-v", "P info"),
        ("--help", "P info"),
        ("-h", "P info"),
        ("--exec-path", "P info"),
        ("--exec-path=/x", "P info"),
        ("--list-cmds=main", "P info"),
        ("status", "P unwatched"),
        ("status --short", "P unwatched"),
        ("rev-parse HEAD", "P unwatched"),
        ("commit -m x", "P unwatched"),
        ("apply x.patch", "P unwatched"),
        ("diff-tree -r HEAD", "P unwatched"),
        ("-c alias.d=diff d A..B", "P unwatched"),
        ("--namespace=foo diff", "P global"),
        ("--no-replace-objects diff", "P global"),
        ("--frobnicate diff", "P global"),
        ("-c", "P missing"),
        ("-C", "P missing"),
        ("--git-dir", "P missing"),
        // Diff: every range form.
        ("diff", "S diff"),
        ("diff A..B", "S diff"),
        ("diff A...B", "S diff"),
        ("diff A B", "S diff"),
        ("diff A^!", "S diff"),
        ("diff A", "S diff"),
        ("diff --cached", "S diff"),
        ("diff --staged", "S diff"),
        ("diff --cached A", "S diff"),
        ("diff --merge-base A", "S diff"),
        ("diff ^A B", "S diff"),
        ("diff HEAD -- ../a.txt", "S diff"),
        ("diff main..HEAD -- src lib", "S diff"),
        ("diff --end-of-options -weird..B", "S diff"),
        // Diff: global options.
        ("-C sub diff A..B", "S diff"),
        ("-C a -C b diff", "S diff"),
        ("-c color.ui=never diff A..B", "S diff"),
        ("--no-pager diff A..B", "S diff"),
        ("-p diff A..B", "S diff"),
        ("-P diff", "S diff"),
        ("--paginate diff", "S diff"),
        ("--git-dir=.git diff A..B", "S diff"),
        ("--git-dir .git --work-tree . diff A..B", "S diff"),
        ("--work-tree=/x diff", "S diff"),
        ("--bare diff A B", "S diff"),
        ("--literal-pathspecs diff A..B", "S diff"),
        ("--no-lazy-fetch --no-advice diff", "S diff"),
        // Diff: fact options are understood.
        ("diff -M A..B", "S diff"),
        ("diff -M50% A..B", "S diff"),
        ("diff --find-renames=40 A..B", "S diff"),
        ("diff -C A..B", "S diff"),
        ("diff --no-renames A..B", "S diff"),
        ("diff -w A..B", "S diff"),
        ("diff --ignore-all-space A..B", "S diff"),
        ("diff -R A..B", "S diff"),
        ("diff --diff-filter=AM A..B", "S diff"),
        ("diff --diff-filter AM A..B", "S diff"),
        ("diff --histogram A..B", "S diff"),
        ("diff --diff-algorithm=patience A..B", "S diff"),
        ("diff --diff-algorithm patience A..B", "S diff"),
        ("diff -I ^# A..B", "S diff"),
        ("diff --color A..B", "S diff"),
        ("diff --color=always A..B", "S diff"),
        ("diff --no-color A..B", "S diff"),
        ("diff --no-ext-diff A..B", "S diff"),
        ("diff --relative A..B", "S diff"),
        ("diff --relative=sub A..B", "S diff"),
        // Diff: machine formats pass through.
        ("diff --name-only A..B", "P machine"),
        ("diff --name-status A..B", "P machine"),
        ("diff --numstat A..B", "P machine"),
        ("diff --shortstat A..B", "P machine"),
        ("diff --stat A..B", "P machine"),
        ("diff --stat=100 A..B", "P machine"),
        ("diff --raw A..B", "P machine"),
        ("diff -p A..B", "P machine"),
        ("diff --patch A..B", "P machine"),
        ("diff -U5 A..B", "S diff"),
        ("diff -U A..B", "S diff"),
        ("diff -U0 A..B", "S diff"),
        ("diff --unified=1 A..B", "S diff"),
        ("diff --unified 1 A..B", "S diff"),
        ("diff -W A..B", "S diff"),
        ("diff --function-context A..B", "S diff"),
        ("diff --inter-hunk-context=4 A..B", "S diff"),
        ("diff -U1 A..B -- f", "S diff"),
        ("diff -z A..B", "P machine"),
        ("diff --quiet A..B", "P machine"),
        ("diff --exit-code A..B", "P machine"),
        ("diff --check", "P machine"),
        ("diff --output=x.patch A..B", "P machine"),
        ("diff --binary A..B", "P machine"),
        ("diff --word-diff A..B", "P machine"),
        ("diff --color-words A..B", "P machine"),
        ("diff --no-prefix A..B", "S diff"),
        ("show --first-parent M", "S show"),
        ("diff -U2147483648 A..B", "P unsupported"),
        ("diff --unified=5 A..B", "S diff"),
        ("show -m M", "P machine"),
        (
            "diff --src-prefix=x/ --dst-prefix=y/ --full-index A..B",
            "S diff",
        ),
        ("diff --ext-diff A..B", "P machine"),
        ("diff -s A..B", "P machine"),
        ("diff A..B --stat", "P machine"),
        ("-c core.pager=cat diff --name-only", "P machine"),
        // Diff: outside the grammar.
        ("diff --no-index a b", "P unsupported"),
        ("diff --textconv A..B", "P unsupported"),
        ("diff --theirs", "P unsupported"),
        ("diff -wb A..B", "P unknown"),
        ("diff --cach A..B", "P unknown"),
        ("diff --frob A..B", "P unknown"),
        ("diff --cached=yes", "P unknown"),
        ("diff -5", "P unknown"),
        ("diff --diff-filter", "P missing"),
        ("diff -h", "P info"),
        ("diff A B C --", "P unsupported"),
        // Log.
        ("log", "S log"),
        ("log A..B", "S log"),
        ("log ^A B", "S log"),
        ("log B --not A", "S log"),
        ("log -n 5", "S log"),
        ("log -n5", "S log"),
        ("log -5", "S log"),
        ("log --max-count=5 main", "S log"),
        ("log --max-count 5 main", "S log"),
        ("log --author x", "S log"),
        ("log --author=x --since=2.weeks", "S log"),
        ("log --since 2024-01-01 --until 2024-02-01", "S log"),
        ("log --all --no-merges", "S log"),
        ("log --first-parent main", "S log"),
        ("log -- x..y", "S log"),
        ("log main -- src", "S log"),
        ("log --follow -- a.txt", "S log"),
        ("log --decorate --abbrev-commit", "S log"),
        ("log -M --stat", "P machine"),
        ("log --oneline", "P machine"),
        ("log --oneline -5", "P machine"),
        ("log --format=%H", "P machine"),
        ("log --pretty=oneline", "P machine"),
        ("log --pretty", "P machine"),
        ("log -p", "P machine"),
        ("log --patch -3", "P machine"),
        ("log --graph", "P machine"),
        ("log --name-only", "P machine"),
        ("log --name-status", "P machine"),
        ("log --numstat", "P machine"),
        ("log -z", "P machine"),
        ("log --raw", "P machine"),
        ("log --parents", "P machine"),
        ("log -m", "P machine"),
        ("log --cc", "P machine"),
        // A line range's history: the two forms the grammar reads, and no other.
        ("log -L 1,5:a.rs", "S line log"),
        ("log -L1,5:a.rs", "S line log"),
        (
            "log -L 10,+5:src/a.rs -L :main:b.rs -n 3 main",
            "S line log",
        ),
        (
            "log -L :main:a.rs --author x --since 2024-01-01",
            "S line log",
        ),
        ("log -L 5,-2:dir/a:b.rs", "S line log"),
        ("log -L /start/,/end/:a.rs", "P unsupported"),
        ("log -L :/regex/:a.rs", "S line log"),
        ("log -L ^:main:a.rs", "P unsupported"),
        ("log -L 5:a.rs", "P unsupported"),
        ("log -L 0,5:a.rs", "P unsupported"),
        ("log -L 1,5:", "P unsupported"),
        ("log -L ::a.rs", "P unsupported"),
        ("log -L 1,x:a.rs", "P unsupported"),
        ("log -L 1,5:a.rs -- a.rs", "P unsupported"),
        ("log -L 1,5:a.rs -S term", "P unsupported"),
        ("log -L 1,5:a.rs -p", "P machine"),
        ("log -L 1,5:a.rs --oneline", "P machine"),
        ("log -L", "P missing"),
        ("show -L 1,5:a.rs", "P unknown"),
        ("log -g", "P unsupported"),
        ("log --walk-reflogs", "P unsupported"),
        ("log -n", "P missing"),
        ("log --author", "P missing"),
        ("log --frob", "P unknown"),
        // Pickaxe.
        ("log -S term", "S pickaxe"),
        ("log -Sterm", "S pickaxe"),
        ("log -G regex", "S pickaxe"),
        ("log -Gfn\\s+main", "S pickaxe"),
        ("log -S term A..B", "S pickaxe"),
        ("log -S term --pickaxe-all", "S pickaxe"),
        ("log -G x --pickaxe-regex main -- src", "S pickaxe"),
        ("log -S a -G b", "P unsupported"),
        ("log -S", "P missing"),
        ("log -S term -p", "P machine"),
        ("log -S term --oneline", "P machine"),
        // Show.
        ("show", "S show"),
        ("show HEAD", "S show"),
        ("show abc123", "S show"),
        ("show v1.0", "S show"),
        ("show HEAD~2", "S show"),
        ("show --color HEAD", "S show"),
        ("show -M HEAD", "S show"),
        ("show HEAD:README.md", "P unsupported"),
        ("show :README.md", "P unsupported"),
        ("show A..B", "P unsupported"),
        ("show A B", "P unsupported"),
        ("show A^!", "P unsupported"),
        ("show HEAD -- src", "S show"),
        ("show HEAD -- src lib.rs", "S show"),
        ("show --stat", "P machine"),
        ("show --name-only HEAD", "P machine"),
        ("show --format=%H -s", "P machine"),
        ("show --oneline", "P machine"),
        ("show -s", "S show"),
        ("show --no-patch HEAD", "S show"),
        ("show X --format= -U4", "S show"),
        ("show --pretty= HEAD", "S show"),
        ("show --pretty HEAD", "S show"),
        ("show --pretty=fuller HEAD", "S show"),
        ("show --format=medium -W HEAD", "S show"),
        ("show --unified=0 HEAD", "S show"),
        ("show --pretty=oneline HEAD", "P machine"),
        ("show --format=%H%n%s HEAD", "P machine"),
        ("show --pretty=format:%h HEAD", "P machine"),
        ("show --pretty=email HEAD", "P machine"),
        ("show -p HEAD", "P machine"),
        // Blame.
        ("blame a.rs", "S blame"),
        ("blame -- a.rs", "S blame"),
        ("blame HEAD a.rs", "S blame"),
        ("blame HEAD -- a.rs", "S blame"),
        ("blame -L 1,5 a.rs", "S blame"),
        ("blame -L1,5 -L 10,12 HEAD -- a.rs", "S blame"),
        ("blame -L :main src/main.rs", "S blame"),
        ("blame -w -M -C a.rs", "S blame"),
        ("blame -C -C a.rs", "S blame"),
        ("blame -e -s a.rs", "S blame"),
        ("blame --porcelain a.rs", "P machine"),
        ("blame -p a.rs", "P machine"),
        ("blame --line-porcelain a.rs", "P machine"),
        ("blame --incremental a.rs", "P machine"),
        ("blame", "P unsupported"),
        ("blame a b c", "P unsupported"),
        ("blame --reverse A..B a.rs", "P unsupported"),
        ("blame -L", "P missing"),
        ("blame -L 1,5", "P unsupported"),
    ];
    let mut failures = Vec::new();
    for (line, want) in table {
        let got = summary(&classify(&argv(line)));
        if got != want {
            failures.push(format!("git {line:?}: want {want}, got {got}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

fn structured(line: &str) -> Request {
    match classify(&argv(line)) {
        Verdict::Structured(r) => *r,
        Verdict::Passthrough(r) => panic!("{line}: passthrough: {r}"),
    }
}

fn os(v: &[&str]) -> Vec<OsString> {
    v.iter().map(OsString::from).collect()
}

#[test]
fn diff_keeps_positionals_paths_and_forwarded_options() {
    let r = structured("-C sub -c a.b=c diff -M --color -w main..HEAD -- src ../x..y");
    assert_eq!(r.globals.chdir, os(&["sub"]));
    assert_eq!(r.globals.args, os(&["-C", "sub", "-c", "a.b=c"]));
    let Command::Diff(d) = &r.command else {
        panic!("not a diff")
    };
    assert_eq!(d.positional, os(&["main..HEAD"]));
    assert_eq!(d.paths, os(&["src", "../x..y"]));
    assert!(d.separator);
    assert_eq!(
        d.options,
        os(&["-M", "-w"]),
        "presentation options are dropped"
    );
    assert_eq!(r.argv[0], "diff");
    assert_eq!(
        r.to_string(),
        "diff -M --color -w main..HEAD -- src ../x..y"
    );
}

#[test]
fn diff_cached_and_merge_base() {
    let Command::Diff(d) = structured("diff --staged HEAD~1").command else {
        panic!()
    };
    assert!(d.cached && !d.merge_base);
    assert_eq!(d.positional, os(&["HEAD~1"]));
    let Command::Diff(d) = structured("diff --merge-base main").command else {
        panic!()
    };
    assert!(d.merge_base);
}

#[test]
fn values_are_taken_from_the_next_argument_only_where_git_does() {
    // `--diff-filter AM` takes `AM` as its value; `-M` never takes a separate one.
    let Command::Diff(d) = structured("diff --diff-filter AM -M HEAD").command else {
        panic!()
    };
    assert_eq!(d.options, os(&["--diff-filter", "AM", "-M"]));
    assert_eq!(d.positional, os(&["HEAD"]));
    let Command::Diff(d) = structured("diff -M 50 HEAD").command else {
        panic!()
    };
    assert_eq!(d.positional, os(&["50", "HEAD"]));
}

#[test]
fn log_forwards_selection_in_order() {
    let Command::Log(l) = structured("log -n 5 B --not A --author x -- p..q").command else {
        panic!()
    };
    assert_eq!(l.args, os(&["-n", "5", "B", "--not", "A", "--author", "x"]));
    assert_eq!(l.paths, os(&["p..q"]));
    assert!(l.pickaxe.is_none());
}

#[test]
fn pickaxe_term_is_kept() {
    for (line, kind, term) in [
        ("log -S needle", PickaxeKind::Occurrences, "needle"),
        ("log -Sneedle main", PickaxeKind::Occurrences, "needle"),
        ("log -G ^fn main..HEAD", PickaxeKind::Regex, "^fn"),
    ] {
        let Command::Log(l) = structured(line).command else {
            panic!()
        };
        let p = l.pickaxe.expect("pickaxe");
        assert_eq!((p.kind, p.term.to_str().unwrap()), (kind, term), "{line}");
    }
    // `-S` takes the next argument even when it looks like an option.
    let Command::Log(l) = structured("log -S --frob").command else {
        panic!()
    };
    assert_eq!(l.pickaxe.unwrap().term, "--frob");
}

#[test]
fn blame_splits_rev_and_path() {
    let cases = [
        ("blame a.rs", None, "a.rs", vec![]),
        ("blame HEAD a.rs", Some("HEAD"), "a.rs", vec![]),
        (
            "blame -L 1,5 HEAD -- a.rs",
            Some("HEAD"),
            "a.rs",
            vec!["1,5"],
        ),
        (
            "blame -L1,5 -L 8,9 -- a.rs",
            None,
            "a.rs",
            vec!["1,5", "8,9"],
        ),
    ];
    for (line, rev, path, ranges) in cases {
        let Command::Blame(b) = structured(line).command else {
            panic!()
        };
        assert_eq!(b.rev.as_deref(), rev.map(OsStr::new), "{line}");
        assert_eq!(b.path, path, "{line}");
        assert_eq!(b.line_ranges, os(&ranges), "{line}");
    }
}

#[test]
fn show_takes_one_commit() {
    let Command::Show(s) = structured("show --decorate HEAD~1").command else {
        panic!()
    };
    assert_eq!(s.rev.as_deref(), Some(OsStr::new("HEAD~1")));
    let Command::Show(s) = structured("show").command else {
        panic!()
    };
    assert_eq!(s.rev, None);
}

#[test]
fn non_utf8_arguments_are_carried_byte_for_byte() {
    let weird = OsString::from_vec(b"\xff.txt".to_vec());
    let args = vec![OsString::from("diff"), OsString::from("--"), weird.clone()];
    let Command::Diff(d) = structured_args(&args).command else {
        panic!()
    };
    assert_eq!(d.paths, vec![weird.clone()]);
    let args = vec![OsString::from("status"), weird];
    assert_eq!(summary(&classify(&args)), "P unwatched");
}

fn structured_args(args: &[OsString]) -> Request {
    match classify(args) {
        Verdict::Structured(r) => *r,
        Verdict::Passthrough(r) => panic!("passthrough: {r}"),
    }
}

#[test]
fn reasons_read_well() {
    let reason = |line: &str| match classify(&argv(line)) {
        Verdict::Passthrough(r) => r.to_string(),
        Verdict::Structured(_) => String::new(),
    };
    assert_eq!(reason("status"), "`status` is not on the watch list");
    assert_eq!(
        reason("diff --stat"),
        "`--stat` asks for git's own output format"
    );
    assert_eq!(reason("diff --frob"), "option `--frob` is not understood");
    assert_eq!(reason(""), "no subcommand");
}

/// Options from every table, so random command lines reach deep into the grammar.
fn known_options() -> Vec<&'static str> {
    let mut all: Vec<&'static str> = ["diff", "log", "show", "blame"]
        .iter()
        .filter_map(|c| table::command(c))
        .flat_map(|c| c.options.iter().flat_map(|g| g.iter()))
        .flat_map(|(_, text)| table::spelled(text).map(|(name, _)| name))
        .collect();
    all.extend([
        "--",
        "--end-of-options",
        "-C",
        "-c",
        "--git-dir",
        "--work-tree",
        "--bare",
        "-p",
        "-P",
        "--no-pager",
        "diff",
        "log",
        "show",
        "blame",
        "HEAD",
        "A..B",
        "A...B",
        "^A",
        "-5",
        "HEAD:x",
        "x^!",
    ]);
    all
}

// Property: the classifier never panics, whatever the command line, and a structured request
// keeps the caller's arguments byte for byte.
#[test]
fn random_command_lines_never_panic_and_keep_their_bytes() {
    let options = known_options();
    for seed in 0..20_000u64 {
        let mut rng = crate::fuzz::Rng::new(seed);
        let mut args: Vec<OsString> = Vec::new();
        if rng.one_in(4) {
            args.push(rng.pick(&["-C", "-c", "--git-dir", "-p"]).into());
            args.push(rng.arg());
        }
        args.push(rng.pick(&["diff", "log", "show", "blame", "status"]).into());
        for _ in 0..rng.below(8) {
            if rng.one_in(3) {
                args.push(rng.arg());
            } else {
                let mut opt = OsString::from(*rng.pick(&options));
                if rng.one_in(4) {
                    opt.push("=");
                    opt.push(rng.arg());
                }
                args.push(opt);
            }
        }
        let decision = crate::unwind::catch(|| classify(&args))
            .unwrap_or_else(|panic| panic!("seed {seed}: {args:?}: {panic}"));
        if let Verdict::Structured(request) = decision {
            let tail = &args[args.len() - request.argv.len()..];
            assert_eq!(request.argv, tail, "seed {seed}");
        }
    }
}

#[test]
fn extreme_command_lines_are_classified() {
    let huge = OsString::from("x".repeat(1 << 20));
    let many: Vec<OsString> = std::iter::once(OsString::from("log"))
        .chain(std::iter::once("--".into()))
        .chain((0..100_000).map(|i| OsString::from(format!("p{i}"))))
        .collect();
    assert!(matches!(classify(&many), Verdict::Structured(_)));
    let args = vec![OsString::from("diff"), "--".into(), huge.clone()];
    assert!(matches!(classify(&args), Verdict::Structured(_)));
    let args = vec![OsString::from("log"), "-S".into(), huge];
    assert!(matches!(classify(&args), Verdict::Structured(_)));
    let args = vec![OsString::from_vec(vec![0xff; 4096])];
    assert!(matches!(classify(&args), Verdict::Passthrough(_)));
}

#[test]
fn patch_and_header_options_are_kept_for_the_answer() {
    let Verdict::Structured(r) = classify(&argv("diff -U0 --inter-hunk-context 2 -w A..B")) else {
        panic!("structured")
    };
    let Command::Diff(d) = r.command else {
        panic!("diff")
    };
    assert_eq!(d.patch, argv("-U0 --inter-hunk-context 2"));
    assert_eq!(d.options, argv("-w"));
    let Verdict::Structured(r) = classify(&argv("show X --format= -s --unified=4")) else {
        panic!("structured")
    };
    let Command::Show(s) = r.command else {
        panic!("show")
    };
    assert!(s.no_header && s.no_patch);
    assert_eq!(s.patch, argv("--unified=4"));
    let Verdict::Structured(r) = classify(&argv("show --pretty=fuller")) else {
        panic!("structured")
    };
    let Command::Show(s) = r.command else {
        panic!("show")
    };
    assert!(!s.no_header && !s.no_patch);
}

#[test]
fn line_ranges_name_their_lines_and_file() {
    let log = parse_log(&argv("-L :main:src/a.rs -L 10,+5:b:c.rs HEAD")).unwrap();
    assert_eq!(
        log.line_ranges,
        [
            LineRange {
                spec: ":main:src/a.rs".into(),
                lines: Lines::Function("main".into()),
                file: "src/a.rs".into(),
            },
            LineRange {
                spec: "10,+5:b:c.rs".into(),
                lines: Lines::Numbers("10,+5".into()),
                file: "b:c.rs".into(),
            },
        ]
    );
    // The tokens go to git as given.
    assert_eq!(log.args, argv("-L :main:src/a.rs -L 10,+5:b:c.rs HEAD"));
}
