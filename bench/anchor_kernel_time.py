#!/usr/bin/env python3
"""Kernel time of hipsoftmax against the anchors of the family issue, on the shapes where do_bench
(bench/compare_ops.py) had an anchor ahead or within a few percent: torch eager, torch.compile (its
code's kernels, summed), cuDNN's legacy softmax, and a device-to-device copy of the op's bytes.

torch.compile twice: compiled for each shape alone (bench/torch_anchor.py: the kernel Inductor makes
for those sizes, the anchor counted), and as bench/compare_ops.py called it until 2026-11-29, one compiled
function over every shape, which recompiles with symbolic sizes once a second shape comes (dynamic
shapes: the kernel a model with varying lengths gets).

do_bench times a call with CUDA events; on 20-60 us kernels its medians carry a few percent of the
host's and the launch's time, which differ between providers
(bench/results/h200-2026-11-29-small-launch.md). This takes the GPU's own kernel times instead
(bench/kernel_timer.py): three rounds, the providers in turn, 60 launches each after an L2 flush;
the median of the rounds' medians.

GB/s counts the bytes an op must move (forward: x read, y written; backward: y and dy read, dx
written); "% copy" is that over a copy's GB/s of the op's bytes (half read, half written) timed the
same way.

Usage: python3 bench/anchor_kernel_time.py LIB [DTYPE:MxN:OP ...]
OP: softmax, log (forward), bwd, logbwd (backward); DTYPE fp32, bf16 or fp16.
"""
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from hsm_ctypes import ALGO_LOG, TORCH_DTYPES, CudnnSoftmax, HipSoftmax, parse_case  # noqa: E402
from kernel_timer import rounds  # noqa: E402
from torch_anchor import OPS, for_shape  # noqa: E402

torch._dynamo.config.cache_size_limit = 256
# the family issue's anchor table: log-softmax forward, softmax and log-softmax backward, fp32 and bf16,
# 4096 x 1K..64K; and the plain forward at 1K and 4K
CASES = [f"{d}:4096x{n}:{op}" for op in ("log", "bwd", "logbwd") for d in ("fp32", "bf16")
         for n in (1024, 4096, 16384, 65536)] + [f"{d}:4096x{n}:softmax" for d in ("fp32", "bf16") for n in (1024, 4096)]


def main():
    h = HipSoftmax(sys.argv[1])
    cudnn = CudnnSoftmax()
    shared = {k: torch.compile(f) for k, f in OPS.items()}  # one over every shape: dynamic from the second
    print(f"Kernel time (CUPTI), us, on {torch.cuda.get_device_name()}: median of 3 rounds' medians of 60 launches\n")
    print("| dtype | op | shape | hipsoftmax us (% copy) | torch us | torch.compile us | torch.compile dynamic us | "
          "cuDNN us | copy us | best anchor / hipsoftmax | hipsoftmax kernel | torch.compile kernels |")
    print("|---|---|---|---:|---:|---:|---:|---:|---:|---:|---|---|")
    for case in sys.argv[2:] or CASES:
        d, m, n, op = parse_case(case)
        dt = TORCH_DTYPES[d]
        x = torch.randn(m, n, device="cuda", dtype=dt)
        y = torch.empty_like(x)
        fwd = op in ("softmax", "log")
        log = op in ("log", "logbwd")
        p = h.problem(dt, m, n, **({"algorithm": ALGO_LOG} if log else {}))
        static = for_shape(OPS[op])
        if fwd:
            prov = {"hipsoftmax": lambda: h.forward(p, x, y),
                    "torch": (lambda: torch.log_softmax(x, -1)) if log else (lambda: torch.softmax(x, -1)),
                    "torch.compile": lambda: static(x), "torch.compile dynamic": lambda: shared[op](x),
                    "cuDNN": lambda: cudnn.forward(x, y, log=log)}
            src, dst = x, y
        else:
            yv = torch.log_softmax(x.float(), -1).to(dt) if log else torch.softmax(x.float(), -1).to(dt)
            dy = torch.randn_like(x)
            dx = torch.empty_like(x)
            eager = torch._log_softmax_backward_data if log else torch._softmax_backward_data
            prov = {"hipsoftmax": lambda: h.backward(p, yv, dy, dx),
                    "torch": lambda: eager(dy, yv, -1, dt),
                    "torch.compile": lambda: static(yv, dy), "torch.compile dynamic": lambda: shared[op](yv, dy),
                    "cuDNN": lambda: cudnn.backward(yv, dy, dx, log=log)}
            # a copy of the op's bytes: 1.5 tensors read, 1.5 written (y and dy in, dx out: 3 tensors)
            src = torch.empty(m * n * 3 // 2, device="cuda", dtype=dt)
            dst = torch.empty_like(src)
        prov["copy"] = lambda: dst.copy_(src)
        res = rounds(prov)
        us = {k: t for k, (t, _) in res.items()}
        share = us["copy"] / us["hipsoftmax"] * 100
        best = min(us[k] for k in ("torch", "torch.compile", "torch.compile dynamic", "cuDNN"))
        print(f"| {d} | {op} | {m}x{n} | {us['hipsoftmax']:.2f} ({share:.1f}%) | {us['torch']:.2f} | "
              f"{us['torch.compile']:.2f} | {us['torch.compile dynamic']:.2f} | {us['cuDNN']:.2f} | {us['copy']:.2f} | "
              f"{best / us['hipsoftmax']:.3f} | "
              f"`{res['hipsoftmax'][1]}` | `{res['torch.compile'][1]}` |", flush=True)


if __name__ == "__main__":
    main()
