#!/usr/bin/env python3
"""Where a forward softmax's time goes on rows that one launch's groups hold whole (issue 14's decode
rows, 16-bit M = 4096 rows of 256K): the library's kernel time beside the two halves a softmax that
must read a row before writing any of it is made of, each timed alone by kernel time (CUPTI).

  softmax   the call itself: read x, reduce, the group's exchange, write y;
  stats     hipsoftmax_forward_stats: the read, reduce and exchange, no y written (its plan may take
            another kernel than the call's: the kernels column names them);
  given     hipsoftmax_forward with stats_in (the rows' statistics given): read x and write y, no
            reduction across blocks and no exchange;
  read      torch.amax over the rows: x read once, a few bytes written (torch's reduction);
  write     y filled with a constant: y written once, nothing read;
  copy      a device-to-device copy of x's bytes into y (the bound the targets are stated against).

Each provider runs 60 times a round, each launch after an L2 flush (bench/kernel_timer.py), three
rounds with the providers in turn; the table gives the median kernel time over the rounds' medians.
read + write is what the two halves cost when each runs alone at its own speed.

Usage: python3 bench/decode_phases.py LIB [DTYPE:MxN ...]   (DTYPE fp32, bf16 or fp16)
"""
import ctypes
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from hsm_ctypes import TORCH_DTYPES, HipSoftmax, parse_case  # noqa: E402
from kernel_timer import rounds  # noqa: E402

CASES = ["fp32:8x262144", "fp32:4x262144", "fp32:1x524288", "fp32:64x131072", "bf16:64x128256",
         "bf16:8x262144", "fp32:128x32768", "bf16:4096x262144", "fp32:4096x262144"]


def main():
    h = HipSoftmax(sys.argv[1])
    h.lib.hipsoftmax_forward_stats.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p]
    print(f"Kernel time (CUPTI), us, on {torch.cuda.get_device_name()}: median of 3 rounds' medians of 60 launches\n")
    print("| dtype | shape | softmax us | stats us | given us | read us | write us | read+write us | copy us | "
          "copy/softmax | copy/(read+write) | kernels (softmax, stats, given) |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|")
    for case in sys.argv[2:] or CASES:
        d, m, n, _ = parse_case(case)
        dt = TORCH_DTYPES[d]
        x = torch.randn(m, n, device="cuda", dtype=dt)
        y = torch.empty_like(x)
        stats = torch.empty(m, 4, device="cuda", dtype=torch.float32)
        ps = h.problem(dt, m, n, stats=stats.data_ptr())
        pg = h.problem(dt, m, n, stats_in=stats.data_ptr(), stats_in_shards=1)
        p = h.problem(dt, m, n)

        def stats_call():
            h._stream()
            h.check(h.lib.hipsoftmax_forward_stats(h.handle, ctypes.byref(ps), x.data_ptr()))

        prov = {"softmax": lambda: h.forward(p, x, y), "stats": stats_call, "given": lambda: h.forward(pg, x, y),
                "read": lambda: torch.amax(x, dim=-1), "write": lambda: y.fill_(0.5), "copy": lambda: y.copy_(x)}
        stats_call()  # the given statistics are the rows' own
        torch.cuda.synchronize()
        res = rounds(prov)
        us = {k: t for k, (t, _) in res.items()}
        name = {k: nm for k, (_, nm) in res.items()}
        rw = us["read"] + us["write"]
        print(f"| {d} | {m}x{n} | {us['softmax']:.2f} | {us['stats']:.2f} | {us['given']:.2f} | {us['read']:.2f} | "
              f"{us['write']:.2f} | {rw:.2f} | {us['copy']:.2f} | {us['copy'] / us['softmax']:.3f} | "
              f"{us['copy'] / rw:.3f} | `{name['softmax']}`, `{name['stats']}`, `{name['given']}` |", flush=True)


if __name__ == "__main__":
    main()
