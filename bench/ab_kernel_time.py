#!/usr/bin/env python3
"""Kernel time of two hipsoftmax libraries side by side, and cuDNN's, for launches too short for event
timing: WARP's rows (2048-65536 rows of up to 512 columns, 1-134 MB; on 16 bytes, and dense rows off
them), softmax and log-softmax.
do_bench's events around a 4-10 us launch move by up to 10% from round to round (bench/ab_small.py);
the GPU's own start and end of each kernel (CUPTI, through torch.profiler) move by about 1%.

Each provider runs 60 times a round, each launch after an L2 flush (bench/kernel_timer.py), three
rounds with the providers in turn; the table gives the median kernel time over the rounds' medians,
and that of a device-to-device copy of the same bytes (x to y) timed the same way.

Usage: python3 bench/ab_kernel_time.py OLD_LIB NEW_LIB [DTYPE:MxN[sS[d]][:OP] ...]
DTYPE fp32, bf16 or fp16; cases given replace the list below. sS: x's and y's rows S elements apart
(padded rows, S > N; each tensor allocated to its last row's end, no more; cuDNN, which takes dense
rows, is left out, and the copy is of dense tensors of the same M x N); sSd: x's rows S apart, y
dense. OP: softmax, log, scale (the forward at scale 1/8), mask (scale 1/8 and an additive mask of
x's dtype, a row per row), causal (scale 1/8, causal rows, the square's rows row mod cols), bwd (the
softmax backward: y and dy read, dx written); none: softmax and log. cuDNN has no fused scale or
mask: "-" for those.
"""
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from hsm_ctypes import (ALGO_LOG, DTYPES, MASK_ADDITIVE, MASK_CAUSAL, TORCH_DTYPES, CudnnSoftmax, HipSoftmax,  # noqa: E402
                        parse_case)
from kernel_timer import rounds  # noqa: E402

F32, BF16, F16 = torch.float32, torch.bfloat16, torch.float16
SHAPES = [(F32, 4096, 64), (F32, 4096, 128), (F32, 4096, 200), (F32, 4096, 256), (F32, 4096, 512),
          (F32, 2048, 256), (F32, 8192, 256), (F32, 16384, 128), (F32, 65536, 128), (F32, 65536, 512),
          (BF16, 4096, 128), (BF16, 4096, 256), (BF16, 4096, 512), (BF16, 65536, 128), (BF16, 65536, 512),
          (F16, 4096, 256), (F16, 65536, 512),
          # dense rows off 16 bytes: WARP's scalar and staged kernels
          (F32, 4096, 127), (F32, 4096, 511), (BF16, 4096, 77), (BF16, 16384, 127), (F16, 65536, 77),
          (F32, 16384, 33), (F32, 65536, 127), (F32, 16384, 255), (F32, 65536, 511), (BF16, 4096, 127),
          (F16, 4096, 255)]


def cases_of(args):
    """(dtype, rows, cols, op, (x's, y's row stride) or None) from DTYPE:MxN[sS[d]][:OP] arguments, or
    SHAPES' softmax and log-softmax."""
    if not args:
        return [(dt, m, n, op, None) for op in ("softmax", "log") for dt, m, n in SHAPES]
    first, logs = [], []  # a case without an op: its softmax in order, its log-softmax after all cases
    for a in args:
        f = a.split(":")
        shape, _, stride = f[1].partition("s")
        f[1] = shape
        d, m, n, op = parse_case(":".join(f))
        st = None if not stride else (int(stride[:-1]), n) if stride.endswith("d") else (int(stride), int(stride))
        first.append((TORCH_DTYPES[d], m, n, op or "softmax", st))
        if op is None:
            logs.append((TORCH_DTYPES[d], m, n, "log", st))
    return first + logs


def padded(m, n, stride, dt):
    """An m x n tensor whose rows lie `stride` elements apart, allocated to its last row's end."""
    return torch.randn((m - 1) * stride + n, device="cuda", dtype=dt).as_strided((m, n), (stride, 1))


def providers(libs, cudnn, dt, m, n, op, stride=None):
    """Each provider's launch for one case, the copy of x's bytes among them."""
    x = torch.randn(m, n, device="cuda", dtype=dt) if stride is None else padded(m, n, stride[0], dt)
    y = torch.empty_like(x) if stride is None else padded(m, n, stride[1], dt)
    dy = torch.randn_like(x)
    mask = torch.where(torch.rand(m, n, device="cuda") < 0.9, 0.0, float("-inf")).to(dt) if op == "mask" else None
    fields = {"softmax": {}, "log": {"algorithm": ALGO_LOG}, "bwd": {}, "scale": {"scale": 0.125},
              "mask": {"scale": 0.125, "mask": MASK_ADDITIVE, "mask_dtype": DTYPES[dt],
                       "mask_ptr": mask.data_ptr() if mask is not None else None, "mask_row_stride": n},
              "causal": {"scale": 0.125, "mask": MASK_CAUSAL, "queries": n}}[op]
    if stride is not None:
        fields = dict(fields, x_row_stride=stride[0], y_row_stride=stride[1])
    prov = {}
    for tag, h in libs.items():
        p = h.problem(dt, m, n, **fields)
        if op == "bwd":
            prov[tag] = (lambda h=h, p=p: h.backward(p, x, dy, y))
        else:
            prov[tag] = (lambda h=h, p=p: h.forward(p, x, y))
    if stride is not None:
        xd, yd = torch.randn(m, n, device="cuda", dtype=dt), torch.empty(m, n, device="cuda", dtype=dt)
        prov["copy"] = lambda: yd.copy_(xd)
        return prov, (x, y, dy, mask, xd, yd)
    if op in ("softmax", "log"):
        prov["cuDNN"] = lambda: cudnn.forward(x, y, log=op == "log")
    elif op == "bwd":
        prov["cuDNN"] = lambda: cudnn.backward(x, dy, y)
    prov["copy"] = lambda: y.copy_(x)
    return prov, (x, y, dy, mask)


def main():
    libs = {"old": HipSoftmax(sys.argv[1]), "new": HipSoftmax(sys.argv[2])}
    cudnn = CudnnSoftmax()
    print(f"Kernel time (CUPTI), us, on {torch.cuda.get_device_name()}: median of 3 rounds' medians of 60 launches\n")
    print("| dtype | op | shape | old kernel | new kernel | old us | new us | cuDNN us | copy us | new/old | "
          "cuDNN/new | copy/new |")
    print("|---|---|---|---|---|---:|---:|---:|---:|---:|---:|---:|")
    for dt, m, n, op, stride in cases_of(sys.argv[3:]):
        prov, keep = providers(libs, cudnn, dt, m, n, op, stride)
        res = rounds(prov)
        us = {k: t for k, (t, _) in res.items()}
        name = {k: nm for k, (_, nm) in res.items()}
        cud = f"{us['cuDNN']:.2f}" if "cuDNN" in us else "-"
        cud_ratio = f"{us['cuDNN'] / us['new']:.3f}" if "cuDNN" in us else "-"
        shape = f"{m}x{n}" + ("" if stride is None else f" stride {stride[0]}" if stride[0] == stride[1]
                              else f" x stride {stride[0]}, y {stride[1]}")
        print(f"| {str(dt)[6:]} | {op} | {shape} | {name['old']} | {name['new']} | "
              f"{us['old']:.2f} | {us['new']:.2f} | {cud} | {us['copy']:.2f} | {us['old'] / us['new']:.3f} | "
              f"{cud_ratio} | {us['copy'] / us['new']:.3f} |", flush=True)
        del keep


if __name__ == "__main__":
    main()
