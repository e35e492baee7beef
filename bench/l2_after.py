#!/usr/bin/env python3
"""What a backward leaves in L2 for the kernels after it. Per iteration: the timer's flush
(bench/kernel_timer.py), one provider's bf16 4096 x 4096 softmax backward (none, torch.compile's, or
each library's), then A.neg_() (A's lines into L2) and A.sum(), which runs from L2 where A stayed
there. Kernel times (CUPTI), medians of 40 iterations, for A of 16-40 MB.

Usage: python3 bench/l2_after.py NAME=LIB.so ...
"""
import statistics
import sys

import torch

from hsm_ctypes import HipSoftmax
from kernel_timer import launches
from torch_anchor import OPS, for_shape

M = N = 4096


def step_of(k, libs, tc, y, dy, dx, A):
    """One iteration after the flush: provider k's backward (none for "none"), A.neg_(), A.sum()."""
    p = libs[k].problem(torch.bfloat16, M, N) if k in libs else None

    def step():
        if p is not None:
            libs[k].backward(p, y, dy, dx)
        elif k == "tc":
            tc(y, dy)
        A.neg_()
        A.sum()
    return step


def medians(step, n=40):
    """Median kernel time of the backward, A.neg_ and A.sum over n steps, each after the flush."""
    t = {"neg": [], "sum": [], "bwd": []}
    for run in launches(step, n):
        for name, us in run:
            t["bwd" if "hsm_" in name or "triton" in name else "sum" if "reduce" in name else "neg"].append(us)
    return {q: (statistics.median(v) if v else float("nan")) for q, v in t.items()}


def main():
    libs = {a.split("=", 1)[0]: HipSoftmax(a.split("=", 1)[1]) for a in sys.argv[1:]}
    y = torch.softmax(torch.randn(M, N, device="cuda"), -1).bfloat16()
    dy = torch.randn_like(y)
    dx = torch.empty_like(y)
    print(f"{torch.cuda.get_device_name()}: kernel time (us), medians of 40 iterations")
    print("| before A | A MB | A.neg_ us | A.sum us | backward us |")
    print("|---|---:|---:|---:|---:|")
    for mb in (16, 24, 32, 40):
        A = torch.ones(mb * 2**20 // 4, device="cuda")
        tc = for_shape(OPS["bwd"])
        for k in ["none", "tc"] + list(libs):
            med = medians(step_of(k, libs, tc, y, dy, dx, A))
            print(f"| {k} | {mb} | {med['neg']:.2f} | {med['sum']:.2f} | {med['bwd']:.2f} |", flush=True)


if __name__ == "__main__":
    main()
