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
from torch.profiler import ProfilerActivity, profile

from hsm_ctypes import HipSoftmax
from kernel_timer import FLUSH
from torch_anchor import OPS, for_shape

M = N = 4096


def step_of(k, libs, tc, y, dy, dx, A):
    p = libs[k].problem(torch.bfloat16, M, N) if k in libs else None

    def step():
        FLUSH.add_(1)
        if p is not None:
            libs[k].backward(p, y, dy, dx)
        elif k == "tc":
            tc(y, dy)
        A.neg_()
        A.sum()
    return step


def medians(step, n=40):
    """Median kernel time of the backward, A.neg_ and A.sum over n steps (kernels after each flush)."""
    step()
    torch.cuda.synchronize()
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        for _ in range(n):
            step()
        torch.cuda.synchronize()
    ev = sorted((e for e in prof.events() if e.device_type == torch.autograd.DeviceType.CUDA),
                key=lambda e: e.time_range.start)
    t = {"neg": [], "sum": [], "bwd": []}
    flush = ev[0].name
    for e in ev[1:]:
        if e.name == flush:
            continue
        q = "bwd" if "hsm_" in e.name or "triton" in e.name else "sum" if "reduce" in e.name else "neg"
        t[q].append(e.time_range.elapsed_us())
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
