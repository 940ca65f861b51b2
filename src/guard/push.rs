//! Where a push goes: the branches it would update or delete on the remote, worked out as git
//! works them out (the refspecs given; else `remote.<name>.push`; else `push.default` and the
//! current branch's upstream), or why that cannot be known here ([`destinations`]); the
//! addresses git sends it to, rewritten as git rewrites them ([`addresses`]: another machine
//! needs the network, a repository on this one needs its own permission); and the
//! remote-tracking refs that tell afterwards what it sent ([`watch`]). A push whose
//! destinations cannot be known is refused (ADR 15).

use std::os::unix::ffi::OsStrExt;

use crate::git::push::PushSettings;
use crate::request::effect::Push;

/// The remote branches a push would change (short names), or why they cannot be told.
pub fn destinations(push: &Push, settings: &PushSettings) -> Result<Vec<String>, String> {
    if let Some(why) = &push.unplaceable {
        return Err(why.clone());
    }
    if push.mirror {
        return Err("--mirror updates every branch on the remote".into());
    }
    if push.all {
        return Err("--all pushes every branch".into());
    }
    if push.prune {
        return Err("--prune deletes the remote's branches that have no local counterpart".into());
    }
    let remote = remote(push, settings);
    if settings
        .get(&format!("remote.{remote}.mirror"))
        .is_some_and(truthy)
    {
        return Err(format!("remote.{remote}.mirror makes every push a mirror"));
    }
    let mut refspecs: Vec<String> = push
        .refspecs
        .iter()
        .map(|r| String::from_utf8_lossy(r.as_bytes()).into_owned())
        .collect();
    // git maps a refspec naming one ref, without a destination, through the remote's push
    // refspecs (`remote.<name>.push`): `git push origin feature` can update `main`.
    let mapped = !settings.all(&format!("remote.{remote}.push")).is_empty();
    if mapped && !push.delete && refspecs.iter().any(|r| !r.contains(':')) {
        return Err(format!(
            "remote.{remote}.push maps the refspecs given without a destination"
        ));
    }
    if refspecs.is_empty() && !push.tags {
        refspecs = settings
            .all(&format!("remote.{remote}.push"))
            .into_iter()
            .map(str::to_owned)
            .collect();
        if refspecs.is_empty() {
            return implicit(settings);
        }
    }
    let mut out = Vec::new();
    for spec in &refspecs {
        let spec = spec.strip_prefix('+').unwrap_or(spec);
        if spec.contains('*') {
            return Err(format!("the refspec `{spec}` names branches by pattern"));
        }
        let dst = if push.delete {
            spec.to_owned()
        } else {
            match spec.split_once(':') {
                Some((_, "")) => return Err(format!("the refspec `{spec}` names no destination")),
                Some(("", dst)) => dst.to_owned(), // `:dst` deletes it
                Some((_, dst)) => dst.to_owned(),
                None if spec.is_empty() => {
                    return Err("the refspec `:` pushes every matching branch".into());
                }
                None => same_name(spec, settings)?,
            }
        };
        if let Some(branch) = branch_of(&dst) {
            out.push(branch);
        }
    }
    Ok(out)
}

/// The remote (a name or an address) a push goes to: the one given, else the one a bare
/// `git push` uses.
pub fn remote(push: &Push, settings: &PushSettings) -> String {
    match &push.remote {
        Some(r) => r.to_string_lossy().into_owned(),
        None => default_remote(settings),
    }
}

/// The remote a bare `git push` uses: the current branch's `pushRemote`, `remote.pushDefault`,
/// the current branch's `remote`, else `origin`.
fn default_remote(settings: &PushSettings) -> String {
    let branch = |key: &str| {
        settings
            .head
            .as_ref()
            .and_then(|h| settings.get(&format!("branch.{h}.{key}")))
    };
    branch("pushremote")
        .or_else(|| settings.get("remote.pushdefault"))
        .or_else(|| branch("remote"))
        .unwrap_or("origin")
        .to_owned()
}

/// The refs a push is watched by for the record of its effects: the remote-tracking ref of
/// each branch it sends (when the remote is a configured one, whose tracking refs git updates),
/// and the current branch with the tracking ref of where it is pushed, when it has an upstream.
pub fn watch(
    push: &Push,
    settings: &PushSettings,
    branches: &[String],
) -> crate::guard::observe::PushWatch {
    let configured = |remote: &str| settings.get(&format!("remote.{remote}.url")).is_some();
    let remote = remote(push, settings);
    let sent = if configured(&remote) {
        branches
            .iter()
            .map(|b| (b.clone(), format!("refs/remotes/{remote}/{b}")))
            .collect()
    } else {
        Vec::new()
    };
    let current = settings.head.as_ref().and_then(|head| {
        let merge = settings.get(&format!("branch.{head}.merge"))?;
        let upstream_remote = settings.get(&format!("branch.{head}.remote"))?;
        let push_remote = default_remote(settings);
        let name = if push_remote == upstream_remote {
            branch_of(merge)?
        } else {
            head.clone()
        };
        configured(&push_remote).then(|| {
            (
                format!("refs/heads/{head}"),
                format!("refs/remotes/{push_remote}/{name}"),
            )
        })
    });
    crate::guard::observe::PushWatch { sent, current }
}

/// Where a push without refspecs goes, by `push.default` (`simple` when unset).
fn implicit(settings: &PushSettings) -> Result<Vec<String>, String> {
    let mode = settings.get("push.default").unwrap_or("simple");
    let head = settings
        .head
        .clone()
        .ok_or_else(|| "HEAD is detached: where a bare push goes is unknown".to_owned())?;
    match mode {
        "simple" | "current" => Ok(vec![head]),
        "upstream" | "tracking" => {
            let merge = settings
                .get(&format!("branch.{head}.merge"))
                .ok_or_else(|| format!("push.default is {mode} and {head} has no upstream"))?;
            Ok(branch_of(merge).into_iter().collect())
        }
        "nothing" => Ok(Vec::new()),
        other => Err(format!(
            "push.default is `{other}`: a bare push updates branches this guard does not work out"
        )),
    }
}

/// The destination of a refspec without one: git resolves the source as `dwim_ref` does
/// (`<src>`, `refs/<src>`, `refs/tags/<src>`, `refs/heads/<src>`, `refs/remotes/<src>`,
/// `refs/remotes/<src>/HEAD`), follows it through symbolic refs, and pushes to the name it
/// ends at: a tag that is a symbolic ref to `refs/heads/main` updates `main`.
fn same_name(src: &str, settings: &PushSettings) -> Result<String, String> {
    if src == "HEAD" || src == "@" {
        return settings
            .head
            .as_ref()
            .map(|h| format!("refs/heads/{h}"))
            .ok_or_else(|| "HEAD is detached: where `HEAD` goes is unknown".to_owned());
    }
    let exists = |name: &str| settings.refs.iter().find(|(n, _)| n == name);
    let candidates = [
        src.to_owned(),
        format!("refs/{src}"),
        format!("refs/tags/{src}"),
        format!("refs/heads/{src}"),
        format!("refs/remotes/{src}"),
        format!("refs/remotes/{src}/HEAD"),
    ];
    let Some(mut found) = candidates.iter().find_map(|c| exists(c)) else {
        // A commit or something git will refuse: its own name is where it would go.
        return Ok(src.to_owned());
    };
    // Symbolic refs, followed as git follows them (at most five deep).
    for _ in 0..5 {
        match &found.1 {
            Some(target) => match exists(target) {
                Some(next) => found = next,
                None => return Ok(target.clone()),
            },
            None => return Ok(found.0.clone()),
        }
    }
    Err(format!(
        "`{src}` is a chain of symbolic refs too deep to follow"
    ))
}

/// Where a push goes: the addresses git sends it to (the remote's `pushurl`s, else its
/// `url`s, each rewritten by `url.<base>.pushInsteadOf`/`insteadOf` as git rewrites them; a
/// repository given as an address is its own address).
pub fn addresses(push: &Push, settings: &PushSettings) -> Vec<String> {
    let remote = match &push.remote {
        Some(r) => r.to_string_lossy().into_owned(),
        None => default_remote(settings),
    };
    let pushurls = settings.all(&format!("remote.{remote}.pushurl"));
    let urls = settings.all(&format!("remote.{remote}.url"));
    if !pushurls.is_empty() {
        return pushurls
            .iter()
            .map(|u| rewrite(u, settings, "insteadof"))
            .collect();
    }
    let list: Vec<&str> = if urls.is_empty() {
        vec![remote.as_str()]
    } else {
        urls
    };
    list.iter()
        .map(|u| {
            let pushed = rewrite(u, settings, "pushinsteadof");
            if pushed != *u {
                pushed
            } else {
                rewrite(u, settings, "insteadof")
            }
        })
        .collect()
}

/// `url` rewritten by the longest `url.<base>.<key>` prefix that matches it.
fn rewrite(url: &str, settings: &PushSettings, key: &str) -> String {
    let mut best: Option<(&str, &str)> = None;
    for (k, v) in &settings.config {
        let Some(base) = k
            .strip_prefix("url.")
            .and_then(|r| r.strip_suffix(&format!(".{key}")))
        else {
            continue;
        };
        if url.starts_with(v.as_str()) && best.is_none_or(|(_, p)| v.len() > p.len()) {
            best = Some((base, v.as_str()));
        }
    }
    match best {
        Some((base, prefix)) => format!("{base}{}", &url[prefix.len()..]),
        None => url.to_owned(),
    }
}

/// The branch a destination names (`refs/heads/x`, `heads/x`, or a short name, which git
/// takes for a branch when the remote has no tag of that name); `None` for other refs.
fn branch_of(dst: &str) -> Option<String> {
    if let Some(b) = dst.strip_prefix("refs/heads/") {
        return Some(b.to_owned());
    }
    if dst.starts_with("refs/") {
        return None;
    }
    Some(dst.strip_prefix("heads/").unwrap_or(dst).to_owned())
}

fn truthy(v: &str) -> bool {
    matches!(
        v.to_ascii_lowercase().as_str(),
        "true" | "yes" | "on" | "1" | ""
    )
}

/// Why a push configured as `settings` says would push other repositories too
/// (`push.recurseSubmodules=on-demand|only`, or `submodule.recurse=true`, which git reads as
/// `on-demand` for a push), if it would.
pub fn recursion(settings: &crate::git::push::PushSettings) -> Option<String> {
    if let Some(v) = settings.get("push.recursesubmodules") {
        return (!matches!(v.to_ascii_lowercase().as_str(), "no" | "check" | "false")).then(|| {
            format!("push.recurseSubmodules={v} in the configuration pushes other repositories")
        });
    }
    let v = settings.get("submodule.recurse")?;
    matches!(v.to_ascii_lowercase().as_str(), "true" | "yes" | "on" | "1")
        .then(|| format!("submodule.recurse={v} in the configuration pushes other repositories"))
}

#[cfg(test)]
mod tests {
    use std::ffi::OsString;

    use super::*;

    fn settings(head: Option<&str>, config: &[(&str, &str)]) -> PushSettings {
        PushSettings {
            config: config
                .iter()
                .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
                .collect(),
            head: head.map(str::to_owned),
            refs: vec![
                ("refs/heads/main".into(), None),
                ("refs/heads/feature".into(), None),
                ("refs/heads/foo".into(), Some("refs/heads/main".into())),
                ("refs/tags/rel".into(), Some("refs/heads/main".into())),
                ("refs/tags/v1".into(), None),
            ],
        }
    }

    fn push(line: &str) -> Push {
        let args: Vec<OsString> = line.split_whitespace().map(OsString::from).collect();
        match crate::request::effect::git(&args).effect {
            crate::request::effect::Effect::Push(p) => p,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn every_spelling_names_its_branch() {
        let s = settings(Some("feature"), &[]);
        for (line, want) in [
            ("push", vec!["feature"]),
            ("push origin", vec!["feature"]),
            ("push origin main", vec!["main"]),
            ("push origin feature:main", vec!["main"]),
            ("push origin +feature:refs/heads/main", vec!["main"]),
            ("push origin HEAD:heads/main", vec!["main"]),
            ("push origin :main", vec!["main"]),
            ("push origin --delete main", vec!["main"]),
            ("push origin HEAD", vec!["feature"]),
            ("push origin v1.0:refs/tags/v1.0", vec![]),
            ("push --tags", vec![]),
            // A symbolic ref is pushed to what it names, in any namespace.
            ("push origin foo", vec!["main"]),
            ("push origin rel", vec!["main"]),
            ("push origin refs/tags/rel", vec!["main"]),
        ] {
            assert_eq!(destinations(&push(line), &s).unwrap(), want, "{line}");
        }
        for line in [
            "push --all",
            "push --mirror",
            "push --prune origin feature",
            "push origin refs/heads/*:refs/heads/*",
            "push origin :",
        ] {
            assert!(destinations(&push(line), &s).is_err(), "{line}");
        }
    }

    #[test]
    fn a_bare_push_follows_the_configuration() {
        let upstream = settings(
            Some("feature"),
            &[
                ("push.default", "upstream"),
                ("branch.feature.merge", "refs/heads/main"),
            ],
        );
        assert_eq!(destinations(&push("push"), &upstream).unwrap(), ["main"]);
        let matching = settings(Some("feature"), &[("push.default", "matching")]);
        assert!(destinations(&push("push"), &matching).is_err());
        let configured = settings(
            Some("feature"),
            &[("remote.origin.push", "refs/heads/feature:refs/heads/main")],
        );
        assert_eq!(destinations(&push("push"), &configured).unwrap(), ["main"]);
        // A refspec without a destination goes through the mapping too.
        assert!(destinations(&push("push origin feature"), &configured).is_err());
        let mirror = settings(Some("feature"), &[("remote.origin.mirror", "true")]);
        assert!(destinations(&push("push"), &mirror).is_err());
        let detached = settings(None, &[]);
        assert!(destinations(&push("push"), &detached).is_err());
        let elsewhere = settings(
            Some("feature"),
            &[
                ("branch.feature.pushremote", "fork"),
                ("remote.fork.push", "HEAD:main"),
            ],
        );
        assert_eq!(destinations(&push("push"), &elsewhere).unwrap(), ["main"]);
    }
}
