#!/usr/bin/env python3
"""WARP's vector kernels forced on short rows: the kernel time of each (1, 2, 4 and 8 packs of 16 bytes a
lane, on the fewest lanes that hold the row: _v1, _v2, _v4, _v8) beside a device-to-device copy of x,
for choosing how many lanes a row takes (plan.c's fewer_lanes). Ops: softmax, log (the plain
log-softmax, _log kernels), scale (the forward with options at scale 1/8, _fwd kernels), bwd (the
softmax backward, _bwd kernels: y and dy read, dx written, so the copy is two thirds of its bytes).

A forced kernel is found by name at every call (plan.c scans the library's kernels before its plan
cache), host work that event timing may hold; the GPU's own start and end of each kernel (CUPTI,
through torch.profiler: bench/kernel_timer.py) do not. Each kernel runs 40 times a round after an
L2 flush, three rounds in rotating order; the table gives the median over the rounds'
medians, us.

Usage: python3 bench/sweep_warp_lanes.py LIB [DTYPE:MxN[:OP] ...]
DTYPE fp16, bf16, fp32; OP softmax (the default), log, scale, bwd; no cases: the grid below.
"""
import ctypes
import os
import statistics
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from kernel_timer import kernel_us  # noqa: E402
from hsm_ctypes import ALGO_LOG, TORCH_DTYPES, HipSoftmax, parse_case  # noqa: E402

GRID = ([("fp16", m, n, "softmax") for n in (64, 72, 80, 120, 128, 136, 192, 256)
         for m in (2048, 4096, 8192, 16384, 32768, 65536, 262144)] +
        [("bf16", m, n, "softmax") for n in (64, 80, 128, 256) for m in (8192, 32768, 131072)] +
        [("bf16", m, n, "log") for n in (80, 128, 256) for m in (4096, 16384, 65536)])
SUFFIX = {"softmax": "", "log": "_log", "scale": "_fwd", "bwd": "_bwd"}


def cases_of(args):
    if not args:
        return GRID
    return [(d, m, n, op or "softmax") for d, m, n, op in map(parse_case, args)]


def main():
    lib = HipSoftmax(sys.argv[1])
    lib.lib.hipsoftmax_set_kernel.argtypes = [ctypes.c_void_p, ctypes.c_char_p]
    print(f"Kernel time (CUPTI), us, on {torch.cuda.get_device_name()}: WARP's vector kernels forced, "
          "median of 3 rounds' medians of 40 launches\n")
    print("| dtype | op | shape | copy | v1 | v2 | v4 | v8 |")
    print("|---|---|---|---:|---:|---:|---:|---:|")
    for dt, m, n, op in cases_of(sys.argv[2:]):
        x = torch.randn(m, n, device="cuda", dtype=TORCH_DTYPES[dt])
        y = torch.empty_like(x)
        dy = torch.randn_like(x)
        fields = {"algorithm": ALGO_LOG} if op == "log" else {"scale": 0.125} if op == "scale" else {}
        p = lib.problem(TORCH_DTYPES[dt], m, n, **fields)
        pack = 16 // x.element_size()
        kernels = [v for v in ("v1", "v2", "v4", "v8") if int(v[1:]) * pack * 32 >= n]  # a warp holds the row
        res = {c: [] for c in kernels + ["copy"]}
        for r in range(3):
            order = kernels + ["copy"]
            for c in order[r % len(order):] + order[:r % len(order)]:
                if c == "copy":
                    fn = lambda: y.copy_(x)  # noqa: E731
                else:
                    name = f"hsm_warp_{dt.replace('fp', 'f')}_{c}{SUFFIX[op]}"
                    lib.check(lib.lib.hipsoftmax_set_kernel(lib.handle, name.encode()))
                    if op == "bwd":
                        fn = lambda: lib.backward(p, x, dy, y)  # noqa: E731
                    else:
                        fn = lambda: lib.forward(p, x, y)  # noqa: E731
                res[c].append(kernel_us(fn, 40)[0])
        lib.check(lib.lib.hipsoftmax_set_kernel(lib.handle, None))
        med = {c: statistics.median(v) for c, v in res.items()}
        cells = " | ".join(f"{med[v]:.2f}" if v in med else "-" for v in ("v1", "v2", "v4", "v8"))
        print(f"| {dt} | {op} | {m}x{n} | {med['copy']:.2f} | {cells} |", flush=True)


if __name__ == "__main__":
    main()
