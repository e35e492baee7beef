#!/usr/bin/env python3
"""Where event timing's time around a small launch goes, on the GPU's own clock: for hipsoftmax (through
bench/hsm_ctypes.py, and `hsm_lean`: the same C call with its arguments bound once and the stream set
once, no Python per call beyond ctypes), cuDNN's legacy softmax and torch.softmax, on small problems:
- event us: median of CUDA events around one call, each call after a 256 MB write that flushes L2
  (do_bench's loop, written out);
- kernel us: the call's kernel on the GPU (CUPTI, torch.profiler), the same loop;
- flush end -> kernel start: the GPU's gap between the flush kernel's end and the call's kernel start
  (the start event, the launch's arrival and the kernel's start-up).
Each provider three rounds in turn, medians of the rounds' medians.
Usage: python3 bench/launch_gap.py LIBHIPSOFTMAX.so
"""
import os
import statistics
import sys

import torch
from torch.profiler import ProfilerActivity, profile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from hsm_ctypes import DTYPES, CudnnSoftmax, HipSoftmax  # noqa: E402

FLUSH = torch.empty(int(256e6 // 4), dtype=torch.int, device="cuda")
F32, BF16 = torch.float32, torch.bfloat16
SHAPES = [(F32, 1, 32), (F32, 4096, 128), (F32, 4096, 256), (F32, 4096, 512), (F32, 1024, 256), (BF16, 4096, 512),
          (F32, 16384, 128)]


def ev_us(fn, n=100):
    s = [torch.cuda.Event(enable_timing=True) for _ in range(n)]
    e = [torch.cuda.Event(enable_timing=True) for _ in range(n)]
    for i in range(n):
        FLUSH.zero_()
        s[i].record()
        fn()
        e[i].record()
    torch.cuda.synchronize()
    return statistics.median(a.elapsed_time(b) * 1000 for a, b in zip(s, e))


def prof_us(fn, n=60):
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        for _ in range(n):
            FLUSH.zero_()
            fn()
        torch.cuda.synchronize()
    evs = [e for e in prof.profiler.kineto_results.events() if e.device_type() == torch.autograd.DeviceType.CUDA]
    evs.sort(key=lambda e: e.start_ns())
    gaps, durs, name = [], [], ""
    prev_flush = None
    for e in evs:
        nm = e.name().lower()
        if "fill" in nm or "elementwise" in nm or "zero" in nm:
            prev_flush = e
            continue
        if prev_flush is not None:
            gaps.append((e.start_ns() - (prev_flush.start_ns() + prev_flush.duration_ns())) / 1000)
            durs.append(e.duration_ns() / 1000)
            name = e.name()
            prev_flush = None
    return statistics.median(gaps), statistics.median(durs), name[:60]


def main():
    """One table row per shape and provider."""
    hs = HipSoftmax(sys.argv[1])
    cud = CudnnSoftmax()
    lib = hs.lib
    lib.hipsoftmax_set_stream(hs.handle, torch.cuda.current_stream().cuda_stream)
    print(f"device {torch.cuda.get_device_name()}")
    print("| shape | provider | event us | kernel us | event - kernel | flush end -> kernel start | kernel |")
    print("|---|---|---:|---:|---:|---:|---|")
    for dt, m, n in SHAPES:
        x = torch.randn(m, n, device="cuda", dtype=dt)
        y = torch.empty_like(x)
        args = (hs.handle, DTYPES[dt], m, n, x.data_ptr(), n, y.data_ptr(), n)
        f = lib.hipsoftmax_softmax
        prov = {"hsm": lambda: hs(x, y), "hsm_lean": lambda: f(*args), "cudnn": lambda: cud.forward(x, y),
                "torch": lambda: torch.softmax(x, dim=-1)}
        res = {k: [] for k in prov}
        for fn in prov.values():
            fn()
        torch.cuda.synchronize()
        for r in range(3):
            for k, fn in prov.items():
                ev = ev_us(fn)
                g, d, nm = prof_us(fn)
                res[k].append((ev, d, g, nm))
        for k, v in res.items():
            ev = statistics.median(a[0] for a in v)
            d = statistics.median(a[1] for a in v)
            g = statistics.median(a[2] for a in v)
            print(f"| {str(dt)[6:]} {m}x{n} | {k} | {ev:.2f} | {d:.2f} | {ev - d:.2f} | {g:.2f} | {v[0][3]} |")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
