"""Steps for the session guard: a bare remote, scope files, a second repository."""

from behave import given, then

from world import git_ok, real_git


@given('a bare remote "{name}" that has the main branch')
def step_bare_remote(context, name):
    remote = context.tmp / f"{name}.git"
    git_ok(context, "init", "-q", "--bare", str(remote))
    git_ok(context, "remote", "add", name, str(remote))
    git_ok(context, "push", "-q", name, "main")
    context.first_main = git_ok(context, "rev-parse", "main").strip()


@given('the scope file "{file}" gives the repository "{permission}"')
def step_scope(context, file, permission):
    (context.tmp / file).write_text(
        f'[[repo]]\npath = "{context.repo}"\npermission = "{permission}"\n'
    )


@given('the scope "{file}" lists the repository as "{permission}" and the remote "{remote}" as "{remote_permission}"')
def step_scope_with_remote(context, file, permission, remote, remote_permission):
    # A push into a repository on this machine writes it: the scope says it may.
    (context.tmp / file).write_text(
        f'[[repo]]\npath = "{context.repo}"\npermission = "{permission}"\n\n'
        f'[[repo]]\npath = "{context.tmp / (remote + ".git")}"\npermission = "{remote_permission}"\n'
    )


@given('a second repository "{name}"')
def step_second_repo(context, name):
    other = context.tmp / name
    other.mkdir()
    real_git(context, "-C", str(other), "init", "-q")
    real_git(context, "-C", str(other), "commit", "-q", "--allow-empty", "-m", "init")


@then('the remote "{name}" still has its first main')
def step_remote_main(context, name):
    got = real_git(context, "--git-dir", str(context.tmp / f"{name}.git"), "rev-parse", "main")
    assert got.stdout.decode().strip() == context.first_main, got


@then('the remote "{name}" has the branch "{branch}"')
def step_remote_branch(context, name, branch):
    got = real_git(context, "--git-dir", str(context.tmp / f"{name}.git"), "rev-parse", "--verify", branch)
    assert got.returncode == 0, got
