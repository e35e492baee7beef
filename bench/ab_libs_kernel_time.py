#!/usr/bin/env python3
"""Kernel time of several hipsoftmax libraries side by side (builds of one change's variants, or a
change and the library before it), with torch.compile compiled for each shape and a copy of x's
bytes, in one process. Each provider runs 60 times a round, each launch after the timer's L2 flush
(bench/kernel_timer.py), three rounds in turn; the table gives the median of the rounds' medians.

Every provider (each library, torch.compile, the copy) takes buffer sets in turn, so no line a call
leaves in L2 is one the next call reads: the timer's flush does not evict lines read with L2 priority
evict_last, which hipsoftmax's backward and Inductor's kernels use. By default as many sets as
kernel_timer.buffer_sets gives; --rotate=N takes N (--rotate=1: one set, the method of the figures
before bench/results/h200-2026-11-30-rotated.md, which hold that reuse). Each library's output is checked against
torch.compile's first.

Usage: python3 bench/ab_libs_kernel_time.py [--rotate=N] NAME=LIB.so ... -- DTYPE:MxN:OP ...
OP: softmax, log (forward), bwd, logbwd (backward of softmax, log-softmax). Columns: each library's
us, torch.compile's, the copy's, each library's speed over the first's (time ratio), the fastest
library's speed over torch.compile's, and its GB/s (bytes the op must move) over the copy's.
"""
import sys

import torch

from hsm_ctypes import ALGO_LOG, HipSoftmax, TORCH_DTYPES, case_tensors, parse_case
from kernel_timer import buffer_sets, in_turn, rounds
from torch_anchor import OPS, for_shape

BWD = ("bwd", "logbwd")


def library_call(h, dt, m, n, op):
    """One library's launch on the buffer set it is given."""
    p = h.problem(dt, m, n, **({"algorithm": ALGO_LOG} if op in ("log", "logbwd") else {}))
    return lambda x, y, dy, out: h.backward(p, y, dy, out) if op in BWD else h.forward(p, x, out)


def run_case(libs, case, rot):
    d, m, n, op = parse_case(case)
    dt = TORCH_DTYPES[d]
    x, y, dy, out = case_tensors(dt, m, n, op)
    moved = (3 if op in BWD else 2) * x.numel() * x.element_size()
    sets = buffer_sets((x, y, dy, out), moved, rot)
    tc = for_shape(OPS[op])
    tc_call = (lambda x, y, dy, out: tc(y, dy)) if op in BWD else (lambda x, y, dy, out: tc(x))
    want = tc_call(*sets[0]).float()
    tol = (1e-4 if dt == torch.float32 else 2e-2) * max(1.0, want.abs().max().item())
    prov = {}
    for k, h in libs.items():
        call = library_call(h, dt, m, n, op)
        call(*sets[0])
        err = (out.float() - want).abs().max().item()
        if err > tol:
            print(f"MISMATCH {k} {case}: max err {err}")
        prov[k] = in_turn(call, sets)
    # torch.compile after the libraries, each round: with one set (--rotate=1) its kernels find part of
    # y and dy in L2 there (lines a library read evict_last; bf16 4096 x 1024 backward 6.99 us against
    # 8.10 with four sets), as the library's own next launch does (7.23 against 8.00)
    # (bench/results/h200-2026-11-30-packed-bwd-lean.md, commands 8-9).
    prov["tc"] = in_turn(tc_call, sets)
    prov["copy"] = in_turn(lambda x, y, dy, out: out.copy_(x), sets)
    res = rounds(prov)
    us = {k: t for k, (t, _) in res.items()}
    names = list(libs)
    best = min(names, key=lambda k: us[k])
    copy_gbs = 2 * x.numel() * x.element_size() / us["copy"]
    print(f"| {case} | " + " | ".join(f"{us[k]:.2f}" for k in names) + f" | {us['tc']:.2f} | {us['copy']:.2f} | " +
          " | ".join(f"{us[names[0]] / us[k]:.3f}" for k in names[1:]) +
          f" | {best} {us['tc'] / us[best]:.3f} | {100 * moved / us[best] / copy_gbs:.1f} | {len(sets)} | "
          f"{res[names[0]][1]} |", flush=True)


def main():
    args = sys.argv[1:]
    rot = int(args.pop(0).split("=")[1]) if args and args[0].startswith("--rotate=") else 0
    sep = args.index("--")
    libs = {a.split("=", 1)[0]: HipSoftmax(a.split("=", 1)[1]) for a in args[:sep]}
    names = list(libs)
    print(f"Kernel time (CUPTI) us on {torch.cuda.get_device_name()}; 3 rounds x 60 launches, each after an L2 "
          f"flush; buffer sets in turn ({rot or 'kernel_timer.buffer_sets'})")
    print("| case | " + " | ".join(names) + " | torch.compile | copy | " +
          " | ".join(f"{k}/{names[0]}" for k in names[1:]) + " | fastest library: torch.compile/it | "
          "its GB/s over the copy's (%) | sets | kernel |")
    print("|---" * (len(names) * 2 + 6) + "|")
    for case in args[sep + 1:]:
        run_case(libs, case, rot)


if __name__ == "__main__":
    main()
