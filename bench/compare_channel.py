#!/usr/bin/env python3
"""CHANNEL mode side by side on one NVIDIA GPU, in one process: hipsoftmax (ctypes, bench/hsm_ctypes.py,
MODE_CHANNEL over [N, C, H*W]) against torch.softmax(x, dim=1), torch.compile of it (for each shape:
bench/torch_anchor.py) and cuDNN's CHANNEL softmax (NCHW), forward and backward
(torch._softmax_backward_data(dy, y, 1, dtype)), on the issue's shapes: 16x150x128x128 fp32 and bf16,
64x21x64x64 fp32, 256x1000x1x4 fp32, and a tensor of at least 64 MB with inner >= 64 for the share of
the copy bandwidth.

Timing: the GPU's kernel time of each call (CUPTI, bench/kernel_timer.py: 60 calls, each after an L2
flush; a call of several kernels summed), median; until 2026-11-30 do_bench's CUDA events, which held
host time on short launches. Every provider takes buffer sets in turn (kernel_timer.buffer_sets: the
flush does not evict lines read evict_last, as Inductor's kernels read theirs); one set before
bench/results/h200-2026-11-30-rotated.md. GB/s counts the bytes an op must move: forward x read + y written, backward y and dy read + dx written. The ceiling is a 1 GiB
device-to-device copy (torch copy_) measured the same way; "% copy" is hipsoftmax's share of it.

Usage: python3 bench/compare_channel.py LIBHIPSOFTMAX.so OUT_DIR
Writes OUT_DIR/compare-channel-<device>-<date>.md and .csv.
"""
import datetime
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from hsm_ctypes import MODE_CHANNEL, HipSoftmax, copy_ceiling_gbs, cudnn_or_none  # noqa: E402
from kernel_timer import bench_ms, buffer_sets, in_turn  # noqa: E402
from torch_anchor import for_shape  # noqa: E402

SHAPES = [((16, 150, 128, 128), torch.float32), ((16, 150, 128, 128), torch.bfloat16),
          ((64, 21, 64, 64), torch.float32), ((256, 1000, 1, 4), torch.float32),
          ((32, 64, 128, 128), torch.float32), ((32, 64, 128, 128), torch.bfloat16)]


def main():
    lib_path, out_dir = sys.argv[1], sys.argv[2]
    os.makedirs(out_dir, exist_ok=True)
    dev = torch.cuda.get_device_name()
    date = datetime.date.today().isoformat()
    hs = HipSoftmax(lib_path)
    cudnn = cudnn_or_none()
    copy_gbs = copy_ceiling_gbs(bench_ms)
    # torch.compile compiled for each shape (bench/torch_anchor.py says why)
    def fwd_c(t):
        return torch.softmax(t, dim=1)

    def bwd_c(y, dy):
        return y * (dy - (dy * y).sum(1, keepdim=True))

    rows = []
    for shape, dt in SHAPES:
        n, c, h, w = shape
        es = torch.tensor([], dtype=dt).element_size()
        torch.manual_seed(0)
        x = torch.randn(*shape, device="cuda", dtype=dt)
        y = torch.empty_like(x)
        inner = h * w
        p = hs.problem(dt, n, c, mode=MODE_CHANNEL, inner=inner, x_row_stride=c * inner, y_row_stride=c * inner)
        hs.forward(p, x, y)
        ref = torch.softmax(x.float(), 1)
        err = (y.float() - ref).abs().max().item()
        dy = torch.randn_like(x)
        yv = ref.to(dt)
        dx = torch.empty_like(x)
        hs.backward(p, yv, dy, dx)
        yf, dyf = yv.float(), dy.float()
        berr = (dx.float() - yf * (dyf - (dyf * yf).sum(1, keepdim=True))).abs().max().item()
        # every provider on buffer sets in turn (kernel_timer.buffer_sets): a set is (x, y, yv, dy, dx)
        sets = buffer_sets((x, y, yv, dy, dx), 3 * x.numel() * es)
        for op, nbytes, prov, e in (
                ("fwd", 2 * x.numel() * es,
                 {"hipsoftmax": lambda x, y, yv, dy, dx: hs.forward(p, x, y),
                  "torch": lambda x, y, yv, dy, dx: torch.softmax(x, 1),
                  "torch.compile": lambda x, y, yv, dy, dx, c=for_shape(fwd_c): c(x),
                  "cuDNN": (lambda x, y, yv, dy, dx: cudnn.forward(x, y, shape=shape, channel=True)) if cudnn else None},
                 err),
                ("bwd", 3 * x.numel() * es,
                 {"hipsoftmax": lambda x, y, yv, dy, dx: hs.backward(p, yv, dy, dx),
                  "torch": lambda x, y, yv, dy, dx: torch._softmax_backward_data(dy, yv, 1, dt),
                  "torch.compile": lambda x, y, yv, dy, dx, c=for_shape(bwd_c): c(yv, dy),
                  "cuDNN": (lambda x, y, yv, dy, dx: cudnn.backward(yv, dy, dx, shape=shape, channel=True))
                  if cudnn else None}, berr)):
            res = {}
            for name, fn in prov.items():
                try:
                    res[name] = nbytes / (bench_ms(in_turn(fn, sets)) * 1e6) if fn else None
                except Exception as ex:  # noqa: BLE001 - a provider that cannot run this shape is reported
                    res[name] = None
                    print(f"  {name}: {type(ex).__name__}: {str(ex)[:100]}", file=sys.stderr)
            rows.append((op, str(dt).replace("torch.", ""), "x".join(map(str, shape)), nbytes, e, res))
            line = " ".join(f"{k}={v:.0f}" if v else f"{k}=n/a" for k, v in res.items())
            print(f"{op} {rows[-1][1]} {rows[-1][2]} err={e:.2e} {line}", flush=True)
        del x, y, dy, yv, dx, ref, sets
        torch.cuda.empty_cache()

    names = ["hipsoftmax", "torch", "torch.compile", "cuDNN"]
    stem = os.path.join(out_dir, f"compare-channel-{dev.replace(' ', '_')}-{date}")
    with open(stem + ".md", "w") as f:
        f.write(f"# CHANNEL softmax, {dev}, {date}\n\ncopy ceiling {copy_gbs:.0f} GB/s (1 GiB copy_); GB/s per provider\n\n")
        f.write("| op | dtype | NxCxHxW | MB | max err | " + " | ".join(names) + " | % copy | fastest |\n")
        f.write("|---|---|---|---:|---:|" + "---:|" * len(names) + "---:|---|\n")
        for op, dt, sh, nb, e, res in rows:
            best = max((v, k) for k, v in res.items() if v)[1] if any(res.values()) else "-"
            cells = " | ".join(f"{res[k]:.0f}" if res.get(k) else "n/a" for k in names)
            hsv = res.get("hipsoftmax") or 0.0
            f.write(f"| {op} | {dt} | {sh} | {nb / 1e6:.0f} | {e:.1e} | {cells} | {100 * hsv / copy_gbs:.1f} | {best} |\n")
    with open(stem + ".csv", "w") as f:
        f.write("op,dtype,shape,bytes,max_err," + ",".join(names) + ",copy_gbs\n")
        for op, dt, sh, nb, e, res in rows:
            f.write(f"{op},{dt},{sh},{nb},{e}," + ",".join(f"{res[k]:.1f}" if res.get(k) else "" for k in names) +
                    f",{copy_gbs:.1f}\n")
    print(f"wrote {stem}.md and .csv")


if __name__ == "__main__":
    main()
