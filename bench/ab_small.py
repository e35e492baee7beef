#!/usr/bin/env python3
"""Small problems (issue 14: 2-64 MB, WARP's rows of up to 512 columns) for two hipsoftmax libraries
side by side and the anchors, in one process: the library before a change and after it (ctypes,
bench/hsm_ctypes.py), torch eager, torch.compile and cuDNN's legacy softmax, softmax or log-softmax.

Timing: triton.testing.do_bench (CUDA events, L2 flushed between runs), median, three rounds with
every provider once a round in turn (launches of 4-30 us differ by up to 10% from round to round);
the table gives the median of the three. GB/s counts x read and y written once.

Usage: python3 bench/ab_small.py OLD_LIB NEW_LIB [log] [odd]
log: log-softmax; odd: dense rows off 16 bytes (WARP's scalar and staged kernels) instead.
Prints a markdown table: us and GB/s per provider, new/old and new over the best anchor.
"""
import os
import statistics
import sys

import torch
import triton

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from hsm_ctypes import ALGO_LOG, CudnnSoftmax, HipSoftmax  # noqa: E402

SHAPES = [(torch.float32, 4096, 128), (torch.float32, 4096, 200), (torch.float32, 4096, 256),
          (torch.float32, 4096, 512), (torch.float32, 2048, 256), (torch.float32, 8192, 256),
          (torch.float32, 16384, 128), (torch.float32, 65536, 128), (torch.bfloat16, 4096, 256),
          (torch.bfloat16, 4096, 512), (torch.bfloat16, 16384, 127), (torch.bfloat16, 16384, 128)]
ODD_SHAPES = [(torch.float32, 4096, 127), (torch.float32, 16384, 127), (torch.float32, 65536, 127),
              (torch.float32, 4096, 77), (torch.float32, 16384, 33), (torch.float32, 16384, 255),
              (torch.float32, 4096, 511), (torch.bfloat16, 4096, 77), (torch.bfloat16, 4096, 127),
              (torch.float16, 1823, 301), (torch.bfloat16, 16384, 127), (torch.float16, 65536, 77)]
ANCHORS = ("torch", "torch.compile", "cuDNN")


def main():
    old_lib, new_lib = sys.argv[1], sys.argv[2]
    log, odd = "log" in sys.argv[3:], "odd" in sys.argv[3:]
    libs = {"old": HipSoftmax(old_lib), "new": HipSoftmax(new_lib)}
    cudnn = CudnnSoftmax()
    op = torch.log_softmax if log else torch.softmax
    compiled = torch.compile(lambda t: op(t, dim=-1))
    print(f"{'log-softmax' if log else 'softmax'} forward on {torch.cuda.get_device_name()}; us (GB/s), "
          "median of 3 rounds of do_bench medians\n")
    print("| dtype | shape | old | new | torch | torch.compile | cuDNN | new/old | new/best anchor |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|")
    for dt, m, n in ODD_SHAPES if odd else SHAPES:
        x = torch.randn(m, n, device="cuda", dtype=dt)
        y = torch.empty_like(x)
        nbytes = 2 * x.numel() * x.element_size()
        prov = {}
        for tag, h in libs.items():
            p = h.problem(dt, m, n, algorithm=ALGO_LOG) if log else h.problem(dt, m, n)
            prov[tag] = (lambda h=h, p=p: h.forward(p, x, y))
        prov["torch"] = lambda: op(x, -1)
        prov["torch.compile"] = lambda: compiled(x)
        prov["cuDNN"] = lambda: cudnn.forward(x, y, log=log)
        times = {k: [] for k in prov}
        for _ in range(3):
            for k, fn in prov.items():
                times[k].append(triton.testing.do_bench(fn, warmup=25, rep=200, return_mode="median"))
        us = {k: statistics.median(v) * 1e3 for k, v in times.items()}
        best = min(us[a] for a in ANCHORS)
        cells = " | ".join(f"{us[k]:.2f} ({nbytes / us[k] / 1e3:.0f})" for k in prov)
        shape = f"{m}x{n}"
        print(f"| {str(dt)[6:]} | {shape} | {cells} | {us['old'] / us['new']:.3f} | {best / us['new']:.3f} |",
              flush=True)


if __name__ == "__main__":
    main()
