#!/usr/bin/env python3
"""Kernel time of two hipsoftmax libraries side by side, and cuDNN's, for launches too short for event
timing: WARP's rows (2048-65536 rows of up to 512 columns, 1-134 MB; on 16 bytes, and dense rows off
them), softmax and log-softmax.
do_bench's events around a 4-10 us launch move by up to 10% from round to round (bench/ab_small.py);
the GPU's own start and end of each kernel (CUPTI, through torch.profiler) move by about 1%.

Each provider runs 60 times a round, after a 256 MB write that flushes L2 (as do_bench does), three
rounds with the providers in turn; the table gives the median kernel time over the rounds' medians,
and that of a device-to-device copy of the same bytes (x to y) timed the same way.

Usage: python3 bench/ab_kernel_time.py OLD_LIB NEW_LIB [DTYPE:MxN ...]
DTYPE fp32, bf16 or fp16; shapes given replace the list below.
"""
import os
import statistics
import sys

import torch
from torch.profiler import ProfilerActivity, profile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from hsm_ctypes import ALGO_LOG, CudnnSoftmax, HipSoftmax  # noqa: E402

F32, BF16, F16 = torch.float32, torch.bfloat16, torch.float16
SHAPES = [(F32, 4096, 64), (F32, 4096, 128), (F32, 4096, 200), (F32, 4096, 256), (F32, 4096, 512),
          (F32, 2048, 256), (F32, 8192, 256), (F32, 16384, 128), (F32, 65536, 128), (F32, 65536, 512),
          (BF16, 4096, 128), (BF16, 4096, 256), (BF16, 4096, 512), (BF16, 65536, 128), (BF16, 65536, 512),
          (F16, 4096, 256), (F16, 65536, 512),
          # dense rows off 16 bytes: WARP's scalar and staged kernels
          (F32, 4096, 127), (F32, 4096, 511), (BF16, 4096, 77), (BF16, 16384, 127), (F16, 65536, 77),
          (F32, 16384, 33), (F32, 65536, 127), (F32, 16384, 255), (F32, 65536, 511), (BF16, 4096, 127),
          (F16, 4096, 255)]
FLUSH = torch.empty(int(256e6 // 4), dtype=torch.int, device="cuda")


def kernel_us(fn, n=60):
    """Median GPU time of fn's kernel (fn launches one), each launch after an L2 flush."""
    fn()
    torch.cuda.synchronize()
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        for _ in range(n):
            FLUSH.zero_()
            fn()
        torch.cuda.synchronize()
    ks = [e for e in prof.events() if e.device_type == torch.autograd.DeviceType.CUDA
          and not any(t in e.name.lower() for t in ("fill", "elementwise", "zero"))]
    return statistics.median(e.time_range.elapsed_us() for e in ks), ks[0].name


def shapes_of(args):
    """DTYPE:MxN arguments, or SHAPES where there are none."""
    if not args:
        return SHAPES
    dts = {"fp32": F32, "bf16": BF16, "fp16": F16}
    out = []
    for a in args:
        dt, mn = a.split(":")
        m, n = mn.split("x")
        out.append((dts[dt], int(m), int(n)))
    return out


def main():
    libs = {"old": HipSoftmax(sys.argv[1]), "new": HipSoftmax(sys.argv[2])}
    shapes = shapes_of(sys.argv[3:])
    cudnn = CudnnSoftmax()
    print(f"Kernel time (CUPTI), us, on {torch.cuda.get_device_name()}: median of 3 rounds' medians of 60 launches\n")
    print("| dtype | op | shape | old kernel | new kernel | old us | new us | cuDNN us | copy us | new/old | "
          "cuDNN/new | copy/new |")
    print("|---|---|---|---|---|---:|---:|---:|---:|---:|---:|---:|")
    for log in (False, True):
        for dt, m, n in shapes:
            x = torch.randn(m, n, device="cuda", dtype=dt)
            y = torch.empty_like(x)
            prov = {}
            for tag, h in libs.items():
                p = h.problem(dt, m, n, algorithm=ALGO_LOG) if log else h.problem(dt, m, n)
                prov[tag] = (lambda h=h, p=p: h.forward(p, x, y))
            prov["cuDNN"] = lambda: cudnn.forward(x, y, log=log)
            prov["copy"] = lambda: y.copy_(x)
            res = {k: [] for k in prov}
            for _ in range(3):
                for k, fn in prov.items():
                    res[k].append(kernel_us(fn))
            us = {k: statistics.median(t for t, _ in v) for k, v in res.items()}
            name = {k: v[0][1] for k, v in res.items()}
            print(f"| {str(dt)[6:]} | {'log' if log else 'softmax'} | {m}x{n} | {name['old']} | {name['new']} | "
                  f"{us['old']:.2f} | {us['new']:.2f} | {us['cuDNN']:.2f} | {us['copy']:.2f} | {us['old'] / us['new']:.3f} | "
                  f"{us['cuDNN'] / us['new']:.3f} | {us['copy'] / us['new']:.3f} |", flush=True)


if __name__ == "__main__":
    main()
