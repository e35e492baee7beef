#!/usr/bin/env python3
"""Where a call's time goes, outside the kernel: hipsoftmax (ctypes, bench/hsm_ctypes.py), cuDNN's legacy
softmax and torch eager, log-softmax at 4096 x 4096, 4096 x 1024 and 1 x 16, fp32 and bf16, each timed
four ways in one process: triton's do_bench (L2 flushed, median), calls back to back (CUDA events around
200 calls: the GPU's time per call where the host keeps up, else the host's), do_bench of a CUDA graph
of one call (no host launch work), and the host's time per call (perf_counter over 2000 calls of the
1 x 16 problem, before one synchronize).
Usage: python3 bench/call_overhead.py LIBHIPSOFTMAX.so
"""
import os
import sys
import time

import torch
import triton

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from hsm_ctypes import ALGO_LOG, CudnnSoftmax, HipSoftmax  # noqa: E402


def per_call_events(fn, n=200):
    for _ in range(10):
        fn()
    s = torch.cuda.Event(enable_timing=True)
    e = torch.cuda.Event(enable_timing=True)
    torch.cuda.synchronize()
    s.record()
    for _ in range(n):
        fn()
    e.record()
    torch.cuda.synchronize()
    return s.elapsed_time(e) * 1000 / n


def host_us(fn, n=2000):
    torch.cuda.synchronize()
    t = time.perf_counter()
    for _ in range(n):
        fn()
    h = (time.perf_counter() - t) * 1e6 / n
    torch.cuda.synchronize()
    return h


def graph_us(fn):
    g = torch.cuda.CUDAGraph()
    fn()
    torch.cuda.synchronize()
    with torch.cuda.graph(g):
        fn()
    return triton.testing.do_bench(g.replay, warmup=25, rep=100, return_mode="median") * 1000


def main():
    hs = HipSoftmax(sys.argv[1])
    cd = CudnnSoftmax()
    for dt in (torch.float32, torch.bfloat16):
        for m, n in ((4096, 4096), (4096, 1024), (1, 16)):
            x = torch.randn(m, n, device="cuda", dtype=dt)
            y = torch.empty_like(x)
            p = hs.problem(dt, m, n, algorithm=ALGO_LOG)
            calls = {"hipsoftmax": lambda: hs.forward(p, x, y), "cudnn": lambda: cd.forward(x, y, log=True),
                     "torch": lambda: torch.log_softmax(x, -1)}
            for name, fn in calls.items():
                db = triton.testing.do_bench(fn, warmup=25, rep=100, return_mode="median") * 1000
                ev = per_call_events(fn)
                hu = host_us(fn) if (m, n) == (1, 16) else float("nan")
                try:
                    g = graph_us(fn)
                except Exception as ex:  # noqa: BLE001 - a call that cannot be captured: no graph column
                    g = float("nan")
                    print(f"graph {name}: {ex}", file=sys.stderr)
                print(f"{str(dt)[6:]} {m}x{n} {name:10s} do_bench {db:7.1f} us  back-to-back {ev:7.1f} us  "
                      f"graph do_bench {g:7.1f} us  host {hu:6.1f} us", flush=True)


if __name__ == "__main__":
    main()
