#!/usr/bin/env python3
"""task_hash.py — the hash of a task's folder, as the harness computes it
(cua_catalogue_task_hash in harness/catalogue/catalogue.c: SHA-256 over every regular file of
the folder, in order of relative path, each as path, NUL, contents), and the stamp that
gives such hashes to the entries of a selftest or torch file written before they carried
one.

    python3 tools/task_hash.py tasks/L1/019-relu            # prints the folder's hash
    python3 tools/task_hash.py --stamp data/selftest/NVIDIA-H200.json --at 5f67201
    python3 tools/task_hash.py --stamp baselines/torch/NVIDIA-H200.json --at 5f67201 \\
        --rekey L1/019-sgemm-tf32=X/001-sgemm-tf32 ...

--stamp FILE --at COMMIT gives every entry of FILE without a "task_hash" the hash of its
task's folder at COMMIT (the commit its measurements were made on, or any later one before
the task changed): `cuarena catalogue` shows a figure only when that hash is the task's
hash now, so a task changed since reads as not measured. --rekey OLD=NEW moves an entry to
a task that was renamed without changing what it computes, with the new folder's hash (now).
An entry whose task is not in COMMIT is left without a hash.
"""
import argparse
import hashlib
import json
import os
import subprocess
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")


def folder_hash(folder):
    """The hash of a task folder on disk."""
    files = []
    for dirpath, dirnames, filenames in os.walk(folder):
        dirnames[:] = [d for d in dirnames if not os.path.islink(os.path.join(dirpath, d))]
        for name in filenames:
            path = os.path.join(dirpath, name)
            if os.path.isfile(path) and not os.path.islink(path):
                files.append(os.path.relpath(path, folder))
    h = hashlib.sha256()
    for rel in sorted(files, key=lambda r: r.encode()):
        h.update(rel.encode() + b"\0")
        with open(os.path.join(folder, rel), "rb") as f:
            h.update(f.read())
    return h.hexdigest()


def commit_hash(commit, task_id, root=ROOT):
    """The hash of tasks/<task_id> at a commit, None if it has no such folder."""
    prefix = "tasks/%s/" % task_id
    try:
        out = subprocess.run(["git", "-C", root, "ls-tree", "-r", commit, "--", prefix],
                             capture_output=True, check=True).stdout.decode()
    except subprocess.CalledProcessError:
        return None
    blobs = []
    for line in out.splitlines():
        meta, path = line.split("\t", 1)
        mode, kind, sha = meta.split()
        if kind == "blob" and mode != "120000":
            blobs.append((path[len(prefix):], sha))
    if not blobs:
        return None
    h = hashlib.sha256()
    for rel, sha in sorted(blobs, key=lambda b: b[0].encode()):
        data = subprocess.run(["git", "-C", root, "cat-file", "blob", sha],
                              capture_output=True, check=True).stdout
        h.update(rel.encode() + b"\0" + data)
    return h.hexdigest()


def entries(doc):
    """(id, entry) of a selftest file (tasks: [{id, …}]) or a torch file (tasks: {id: …})."""
    tasks = doc.get("tasks")
    if isinstance(tasks, dict):
        return list(tasks.items())
    return [(e.get("id"), e) for e in tasks or []]


def stamp(path, commit, rekeys):
    with open(path) as f:
        doc = json.load(f)
    tasks = doc["tasks"]
    for old, new in rekeys:
        if isinstance(tasks, dict):
            if old in tasks:
                tasks[new] = tasks.pop(old)
                tasks[new]["task_hash"] = folder_hash(os.path.join(ROOT, "tasks", new))
        else:
            for e in tasks:
                if e.get("id") == old:
                    e["id"] = new
                    e["task_hash"] = folder_hash(os.path.join(ROOT, "tasks", new))
    n = 0
    for tid, e in entries(doc):
        if "task_hash" in e or not tid:
            continue
        h = commit_hash(commit, tid)
        if h:
            e["task_hash"] = h
            n += 1
    if isinstance(tasks, dict):
        doc["tasks"] = dict(sorted(tasks.items()))
    with open(path + ".tmp", "w") as f:
        json.dump(doc, f, indent=1 if isinstance(tasks, dict) else "\t",
                  sort_keys=isinstance(tasks, dict), ensure_ascii=False)
        f.write("\n")
    os.replace(path + ".tmp", path)
    print("%s: %d entries stamped at %s, %d re-keyed" % (path, n, commit, len(rekeys)))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("folder", nargs="?", help="a task folder: print its hash")
    ap.add_argument("--stamp", help="a selftest or torch JSON file to stamp")
    ap.add_argument("--at", help="with --stamp: the commit whose task folders the entries describe")
    ap.add_argument("--rekey", action="append", default=[], help="OLD=NEW task id")
    a = ap.parse_args()
    if a.stamp:
        if not a.at:
            ap.error("--stamp needs --at COMMIT")
        stamp(a.stamp, a.at, [tuple(r.split("=", 1)) for r in a.rekey])
        return 0
    if not a.folder:
        ap.error("give a task folder or --stamp")
    print(folder_hash(a.folder))
    return 0


if __name__ == "__main__":
    sys.exit(main())
