#!/usr/bin/env python3
"""backfill-flops-bytes.py — adds each task's flops and bytes to the baselines.jsonl of a
run written before runs recorded them (before 2026-12-01), from the task files the run
itself was measured with: the catalogue of the git commit whose tasks/ hashes to the
run's catalogue_hash, so `cuarena plot` reads them from the run as it does for new runs.

    make build/cuarena && tools/backfill-flops-bytes.py RUN [--commit C] [--dry-run]

1. finds the commit (or checks --commit C): the catalogue hash is SHA-256, over every
   regular file under tasks/ in order of path, of the path, a NUL and the contents
   (harness/catalogue/task.c);
2. exports that tasks/ and asks build/cuarena for it (`cuarena list --json`: flops and
   bytes at each task's timed shape), refusing unless cuarena's hash is the run's too;
3. adds "flops" and "bytes" to every line of a task that lacks them, as text: the rest
   of each line stays byte for byte (each edited line is checked to parse to the old
   object plus the two fields). Lines that have them, or whose task the catalogue
   lacks, are left as they are.
Nothing else of the run is touched; say in the run's NOTE.md that it was done.
"""
import argparse
import hashlib
import json
import os
import subprocess
import sys
import tempfile


def git(root, *args, data=None):
    return subprocess.run(["git", "-C", root, *args], input=data, capture_output=True,
                          check=True).stdout


def catalogue_hash(root, commit, cache):
    """The catalogue hash of tasks/ at commit, or None when it has no tasks/."""
    try:
        tree = git(root, "rev-parse", "%s:tasks" % commit).strip()
    except subprocess.CalledProcessError:
        return None
    if tree in cache:
        return cache[tree]
    listing = git(root, "ls-tree", "-r", "-z", tree)
    files = []
    for entry in listing.split(b"\0"):
        if not entry:
            continue
        meta, path = entry.split(b"\t", 1)
        mode, kind, sha = meta.split()
        if kind == b"blob" and mode in (b"100644", b"100755"):   # symlinks are not hashed
            files.append((path, sha))
    files.sort()
    blobs = git(root, "cat-file", "--batch", data=b"".join(s + b"\n" for _, s in files))
    h = hashlib.sha256()
    pos = 0
    for path, sha in files:
        header_end = blobs.index(b"\n", pos)
        size = int(blobs[pos:header_end].split()[2])
        body = blobs[header_end + 1:header_end + 1 + size]
        pos = header_end + 1 + size + 1
        h.update(path + b"\0" + body)
    cache[tree] = h.hexdigest()
    return cache[tree]


def find_commit(root, want, commit):
    cache = {}
    if commit:
        got = catalogue_hash(root, commit, cache)
        if got != want:
            sys.exit("backfill: tasks/ at %s hashes to %s, not the run's %s" % (commit, got, want))
        return commit
    for c in git(root, "rev-list", "--all").decode().split():
        if catalogue_hash(root, c, cache) == want:
            return c
    sys.exit("backfill: no commit's tasks/ hashes to the run's catalogue %s" % want)


def task_work(root, cuarena, commit, want):
    """{task id: (flops, bytes)} of the catalogue at commit, from cuarena itself."""
    with tempfile.TemporaryDirectory(prefix="cuarena-backfill-") as tmp:
        tar = git(root, "archive", commit, "tasks")
        subprocess.run(["tar", "-x", "-C", tmp], input=tar, check=True)
        out = subprocess.run([cuarena, "--root", tmp, "list", "--json"], capture_output=True,
                             check=True).stdout
    cat = json.loads(out)
    if cat["catalogue_hash"] != want:
        sys.exit("backfill: cuarena hashes tasks/ at %s to %s, not the run's %s"
                 % (commit, cat["catalogue_hash"], want))
    if cat["errors"]:
        print("backfill: tasks that do not load today (left without): %s" % cat["errors"],
              file=sys.stderr)
    return {t["id"]: (t["flops"], t["bytes"]) for t in cat["tasks"]
            if t.get("flops") is not None and t.get("bytes") is not None}


def backfill(path, work):
    lines = open(path, "rb").read().split(b"\n")
    out, added, tasks = [], 0, set()
    for n, raw in enumerate(lines, 1):
        if not raw.strip():
            out.append(raw)
            continue
        old = json.loads(raw)
        w = work.get(old.get("task"))
        if w is None or "flops" in old or "bytes" in old:
            out.append(raw)
            continue
        text = raw.rstrip()
        if not text.endswith(b"}"):
            sys.exit("backfill: %s: line %d does not end in '}'" % (path, n))
        new = text[:-1] + b',"flops":%d,"bytes":%d}' % w
        if json.loads(new) != dict(old, flops=w[0], bytes=w[1]):
            sys.exit("backfill: %s: line %d would change beyond the two fields" % (path, n))
        out.append(new)
        added += 1
        tasks.add(old["task"])
    return b"\n".join(out), added, len(tasks)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("run")
    ap.add_argument("--commit", help="the commit whose tasks/ the run was measured with")
    ap.add_argument("--dry-run", action="store_true")
    a = ap.parse_args()
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    cuarena = os.path.join(root, "build", "cuarena")
    run = json.load(open(os.path.join(a.run, "run.json")))
    want = run.get("catalogue_hash") or sys.exit("backfill: run.json has no catalogue_hash")
    commit = find_commit(root, want, a.commit)
    work = task_work(root, cuarena, commit, want)
    path = os.path.join(a.run, "baselines.jsonl")
    text, added, tasks = backfill(path, work)
    if not a.dry_run and added:
        with open(path + ".tmp", "wb") as f:
            f.write(text)
        os.replace(path + ".tmp", path)
    print("backfill: %s: %d line(s) of %d task(s) given flops and bytes from tasks/ at %s "
          "(catalogue %s…)%s" % (path, added, tasks, commit[:7], want[:16],
                                 " (dry run: nothing written)" if a.dry_run else ""))


if __name__ == "__main__":
    main()
