#!/usr/bin/env python3
"""Compare two snapshot folders (bench/corpus/snapshot.sh): BLOCKS+REFACTOR counts per corpus
and code outside test modules, the verdict of each, and the findings added or removed.

usage: bench/corpus/compare.py BEFORE AFTER [--sample N --seed S] [--codes]
With --sample, N added and N removed findings are drawn (fixed seed) for reading at the line."""
import argparse, json, os, random

def load(d):
    out = {}
    for f in sorted(os.listdir(d)):
        if f.endswith(".json"):
            try:
                out[f[:-5]] = json.load(open(os.path.join(d, f)))
            except json.JSONDecodeError:
                pass
    return out

def is_test(f):
    if f.get("testModule") is not None:
        return bool(f["testModule"])
    parts = f["range"]["path"].split("/")
    return any(p in ("tests", "test", "testing") for p in parts[:-1]) or parts[-1].startswith("test_")

def keyed(rep):
    ks = {}
    for f in rep.get("findings", []):
        if f["category"] in ("blocks", "refactor") and not is_test(f):
            ks[(f["range"]["path"], f["range"]["line"], f["code"])] = f
    return ks

def verdict(rep):
    v = rep.get("verdict")
    return v.get("label", v.get("verdict")) if isinstance(v, dict) else v

p = argparse.ArgumentParser()
p.add_argument("before"); p.add_argument("after")
p.add_argument("--sample", type=int, default=0); p.add_argument("--seed", type=int, default=1)
p.add_argument("--codes", action="store_true")
a = p.parse_args()
A, B = load(a.before), load(a.after)
added, removed = [], []
print(f"{'corpus':12} {'before':>7} {'after':>7}  verdict")
for name in sorted(set(A) & set(B)):
    ka, kb = keyed(A[name]), keyed(B[name])
    va, vb = verdict(A[name]), verdict(B[name])
    print(f"{name:12} {len(ka):7} {len(kb):7}  {va}" + ("" if va == vb else f" -> {vb}"))
    added += [(name, k) for k in kb if k not in ka]
    removed += [(name, k) for k in ka if k not in kb]
    if a.codes:
        codes = sorted({k[2] for k in ka} | {k[2] for k in kb})
        for c in codes:
            na = sum(1 for k in ka if k[2] == c); nb = sum(1 for k in kb if k[2] == c)
            if na != nb:
                print(f"   {c} {na} -> {nb}")
print(f"added {len(added)}, removed {len(removed)}")
if a.sample:
    rng = random.Random(a.seed)
    for title, xs in (("ADDED", added), ("REMOVED", removed)):
        for name, (path, line, code) in rng.sample(xs, min(a.sample, len(xs))):
            print(f"{title} {name} {path}:{line} {code}")
