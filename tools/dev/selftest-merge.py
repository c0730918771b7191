#!/usr/bin/env python3
"""selftest-merge.py — folds `cuarena selftest --out` files into data/selftest/<GPU>.json.

    tools/dev/selftest-merge.py [--into FILE] [--note TEXT] RUN.json...

Each task of the runs replaces its entry in FILE (default data/selftest/NVIDIA-H200.json),
a later run's over an earlier's (the runs are taken in the order given); the other
entries stay as they are. Each run is appended to "parts" (date, catalogue hash, how many
tasks, seconds); the file's catalogue hash, version and date become the newest run's,
and --note's text is appended to its "note". Entries stay sorted by id. A run that is
not a selftest file (no "tasks" list of objects with an "id") is refused, naming it,
and nothing is written.
"""
import argparse
import json
import os
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[1])
    ap.add_argument("--into", default=os.path.join(ROOT, "data", "selftest", "NVIDIA-H200.json"))
    ap.add_argument("--note", default="")
    ap.add_argument("runs", nargs="+")
    a = ap.parse_args()
    with open(a.into) as f:
        doc = json.load(f)
    by_id = {t["id"]: t for t in doc.get("tasks", [])}
    parts = doc.setdefault("parts", [])
    newest = None
    for path in a.runs:
        try:
            with open(path) as f:
                run = json.load(f)
        except (OSError, ValueError) as e:
            sys.exit("selftest-merge: %s: %s" % (path, e))
        tasks = run.get("tasks") if isinstance(run, dict) else None
        if not isinstance(tasks, list) or not all(isinstance(t, dict) and isinstance(
                t.get("id"), str) for t in tasks):
            sys.exit("selftest-merge: %s: not a selftest file (no \"tasks\" list of "
                     "entries with an \"id\")" % path)
        for t in tasks:
            by_id[t["id"]] = t
        parts.append({"date": run.get("date"), "catalogue_hash": run.get("catalogue_hash"),
                      "tasks": len(tasks), "seconds": run.get("seconds")})
        if newest is None or str(run.get("date", "")) >= str(newest.get("date", "")):
            newest = run
    for key in ("catalogue_hash", "catalogue_version", "date"):
        if newest.get(key) is not None:
            doc[key] = newest[key]
    if a.note:
        doc["note"] = (doc.get("note", "") + " " + a.note).strip()
    doc["tasks"] = [by_id[k] for k in sorted(by_id)]
    tmp = a.into + ".tmp"
    with open(tmp, "w") as f:
        json.dump(doc, f, indent="\t", ensure_ascii=False)
        f.write("\n")
    os.replace(tmp, a.into)
    ok = sum(1 for t in doc["tasks"] if t.get("ok"))
    print("selftest-merge: %s: %d tasks, %d passing" % (a.into, len(doc["tasks"]), ok))


if __name__ == "__main__":
    main()
