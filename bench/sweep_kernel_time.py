#!/usr/bin/env python3
"""Every library kernel forced on one problem (hipsoftmax_set_kernel), by kernel time, beside the plan's
own choice and torch.compile's kernel for that shape alone (dynamic=False): which of the library's
kernels, if any, would close a gap to an anchor by a change of plan alone.

A kernel is tried where its name has the dtype's tag and the op's kind: the plain forward's kernels
(no suffix), the plain log-softmax's (_log), the backward's (_bwd); a kernel that cannot serve the
problem returns NOT_SUPPORTED and is left out. Two rounds, 60 launches each after an L2 flush
(bench/kernel_timer.py), every provider on buffer sets in turn (kernel_timer.buffer_sets; one set
before bench/results/h200-2026-11-30-rotated.md); the median of the rounds' medians. Correctness is the tests' (every kernel
forced on every shape it serves).

Usage: python3 bench/sweep_kernel_time.py [--only REGEX] [--no-anchor] LIB DTYPE:MxN[sS]:OP ...   (OP softmax, log, bwd;
DTYPE fp32, bf16, fp16; sS: the forward's x and y rows S elements apart, each tensor allocated to its last row's
end; torch.compile then runs the dense M x N; --only: the kernels whose names REGEX finds, beside the plan and
torch.compile; --no-anchor: without torch.compile, as where one command sweeps two builds of the library)
"""
import ctypes
import os
import re
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from hsm_ctypes import ALGO_LOG, TORCH_DTYPES, HipSoftmax, parse_case  # noqa: E402
from kernel_timer import buffer_sets, in_turn, rounds  # noqa: E402
from torch_anchor import OPS, for_shape  # noqa: E402

TAGS = {"fp32": "_f32_", "bf16": "_bf16_", "fp16": "_f16_"}  # the dtype's tag in kernel names


class KernelInfo(ctypes.Structure):
    _fields_ = [("struct_size", ctypes.c_size_t), ("name", ctypes.c_char * 64), ("function", ctypes.c_void_p),
                ("family", ctypes.c_int), ("regs", ctypes.c_int), ("static_smem", ctypes.c_int),
                ("metadata_from_code_object", ctypes.c_int), ("min_block", ctypes.c_int), ("max_block", ctypes.c_int),
                ("block_step", ctypes.c_int)]


def kernel_names(h):
    n = ctypes.c_size_t()
    h.check(h.lib.hipsoftmax_kernel_count(h.handle, ctypes.byref(n)))
    names = []
    for i in range(n.value):
        info = KernelInfo()
        info.struct_size = ctypes.sizeof(info)
        h.check(h.lib.hipsoftmax_get_kernel_info(h.handle, ctypes.c_size_t(i), ctypes.byref(info)))
        names.append(info.name.decode())
    return names


def of_op(name, tag, op):
    if tag not in name:
        return False
    kind = "bwd" if name.endswith("_bwd") else "log" if name.endswith("_log") else \
        "fwd" if name.endswith("_fwd") else "softmax"
    return kind == op


def main():
    args = sys.argv[1:]
    only = None
    if args[:1] == ["--only"]:
        only, args = re.compile(args[1]), args[2:]
    anchor = args[:1] != ["--no-anchor"]
    if not anchor:
        args = args[1:]
    h = HipSoftmax(args[0])
    h.lib.hipsoftmax_set_kernel.argtypes = [ctypes.c_void_p, ctypes.c_char_p]
    h.lib.hipsoftmax_get_kernel_info.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_void_p]
    names = kernel_names(h)
    print(f"Kernel time (CUPTI), us, on {torch.cuda.get_device_name()}: median of 2 rounds' medians of 60 launches\n")
    for case in args[1:]:
        f = case.split(":")
        f[1], _, stride = f[1].partition("s")
        d, m, n, op = parse_case(":".join(f))
        dt, tag = TORCH_DTYPES[d], TAGS[d]
        x = torch.randn(m, n, device="cuda", dtype=dt)
        y = torch.empty_like(x)
        dy = torch.randn_like(x)
        yv = torch.softmax(x.float(), -1).to(dt)
        fields = {"algorithm": ALGO_LOG} if op == "log" else {}
        if stride:  # padded rows: the tensors are their flat storage (buffer_sets clones them as they are)
            st = int(stride)
            x = torch.randn((m - 1) * st + n, device="cuda", dtype=dt)
            y = torch.empty_like(x)
            fields = dict(fields, x_row_stride=st, y_row_stride=st)
        p = h.problem(dt, m, n, **fields)
        sets = buffer_sets((x, y, dy, yv), (3 if op == "bwd" else 2) * x.numel() * x.element_size())

        def call(x, y, dy, yv):
            if op == "bwd":
                h.backward(p, yv, dy, y)
            else:
                h.forward(p, x, y)

        def forced(k, *st):  # k None: the plan's own choice
            h.check(h.lib.hipsoftmax_set_kernel(h.handle, k.encode() if k else None))
            call(*st)

        prov = {"plan": in_turn(lambda *st: forced(None, *st), sets)}
        for k in names:
            if not of_op(k, tag, op) or (only is not None and not only.search(k)):
                continue
            try:
                forced(k, *sets[0])
                prov[k] = in_turn(lambda *st, k=k: forced(k, *st), sets)
            except RuntimeError:  # NOT_SUPPORTED: the kernel cannot serve the problem
                pass
        if anchor:
            static = for_shape(OPS[op])
            prov["torch.compile"] = in_turn((lambda x, y, dy, yv: static(yv, dy)) if op == "bwd" else
                                            (lambda x, y, dy, yv: static(x if not stride else yv)), sets)
        res = rounds(prov, 2)
        print(f"### {d} {op} {m}x{n}" + (f" stride {stride}" if stride else "") +
              "\n\n| provider | us | kernel |\n|---|---:|---|")
        for k, (t, nm) in sorted(res.items(), key=lambda kv: kv[1][0]):
            print(f"| {k} | {t:.2f} | `{nm}` |")
        print(flush=True)


if __name__ == "__main__":
    main()
