#!/usr/bin/env python3
"""Side-by-side bandwidth of the softmax family on one NVIDIA GPU, in one process: hipsoftmax (ctypes,
bench/hsm_ctypes.py) against torch eager, torch.compile and cuDNN's legacy softmax where it has the op,
for the shapes of the family issue's anchor table: log-softmax forward, softmax and log-softmax
backward (4096 x 1K..64K, fp32 and bf16), scale + additive mask over attention scores [B, H, S, S]
with a [B, 1, S, S] mask, and causal softmax (against the plain forward of the same shape too).

torch.compile is compiled for each shape (bench/torch_anchor.py; until 2026-11-29 one compiled function
served every shape, dynamic-shape kernels from the second shape on, which ran up to 2.8x slower).

Timing: the GPU's kernel time of each call (CUPTI, bench/kernel_timer.py: 60 calls, each after an L2
flush; a call of several kernels summed), median; until 2026-11-30 do_bench's CUDA events, which held
host time on short launches. Every provider takes buffer sets in turn (kernel_timer.buffer_sets: the
flush does not evict lines read evict_last, which hipsoftmax's backward and Inductor's kernels use);
before bench/results/h200-2026-11-30-rotated.md one set, on which such a kernel, and the next
provider on the same tensors, found part of their inputs in L2. GB/s counts the bytes an op must
move at least: forward x read + y written, backward y and dy read + dx written, a mask read
once; causal rows count whole (so skipping the masked half shows as speed). The ceiling is a
device-to-device copy of 1 GiB (torch copy_) measured by the same method.

Usage: python3 bench/compare_ops.py LIBHIPSOFTMAX.so OUT_DIR [op ...]   (ops: log bwd logbwd mask causal)
       HSM_OPS_COLS=128,256,512 python3 bench/compare_ops.py ...   (other N for the 4096 x N ops)
Writes OUT_DIR/compare-ops-<device>-<date>.md and .csv, and a .png per op and dtype if matplotlib is there.
"""
import datetime
import math
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from hsm_ctypes import (ALGO_LOG, MASK_ADDITIVE, MASK_CAUSAL, DTYPES, CudnnSoftmax, HipSoftmax)  # noqa: E402
from kernel_timer import bench_ms, buffer_sets, in_turn  # noqa: E402
from torch_anchor import OPS, for_shape  # noqa: E402

torch._dynamo.config.cache_size_limit = 256


def main():
    lib_path, out_dir = sys.argv[1], sys.argv[2]
    want = set(sys.argv[3:]) or {"log", "bwd", "logbwd", "mask", "causal"}
    os.makedirs(out_dir, exist_ok=True)
    dev = torch.cuda.get_device_name()
    date = datetime.date.today().isoformat()
    hs = HipSoftmax(lib_path)
    try:
        cudnn = CudnnSoftmax()
    except Exception as e:  # noqa: BLE001 - any failure to load means: no cuDNN column
        print(f"cuDNN not available: {e}", file=sys.stderr)
        cudnn = None
    big = torch.empty(1 << 28, dtype=torch.float32, device="cuda")
    big2 = torch.empty_like(big)
    copy_gbs = 2 * big.numel() * 4 / (bench_ms(lambda: big2.copy_(big)) * 1e6)
    del big, big2

    rows = []  # (op, dtype, shape, err, {provider: GB/s or None})

    def record(op, dt, shape, err, res):
        rows.append((op, str(dt).replace("torch.", ""), shape, err, res))
        line = " ".join(f"{k}={v:.0f}" if v else f"{k}=fail" for k, v in res.items())
        print(f"{op} {rows[-1][1]} {shape} err={err:.2e} {line}", flush=True)

    def measure(providers, nbytes, sets):
        """GB/s of each provider, fn(*set) on the buffer sets in turn (kernel_timer.buffer_sets)."""
        res = {}
        for name, fn in providers.items():
            try:
                res[name] = nbytes / (bench_ms(in_turn(fn, sets)) * 1e6)
            except Exception as e:  # noqa: BLE001 - a provider that cannot run this shape is reported
                res[name] = None
                print(f"  {name}: {type(e).__name__}: {str(e)[:100]}", file=sys.stderr)
        return res

    # HSM_OPS_COLS: other row lengths than the (a comma list, e.g. WARP's 128,256,512).
    ns = [int(c) for c in os.environ.get("HSM_OPS_COLS", "1024,4096,16384,65536").split(",")]
    for dt in (torch.float32, torch.bfloat16):
        es = torch.tensor([], dtype=dt).element_size()
        for n in ns:
            m = 4096
            torch.manual_seed(0)
            x = torch.randn(m, n, device="cuda", dtype=dt)
            y = torch.empty_like(x)
            if "log" in want:
                p = hs.problem(dt, m, n, algorithm=ALGO_LOG)
                hs.forward(p, x, y)
                err = (y.float() - torch.log_softmax(x.float(), -1)).abs().max().item()
                prov = {"hipsoftmax": lambda x, y: hs.forward(p, x, y),
                        "hipsoftmax softmax": lambda x, y: hs(x, y),
                        "torch": lambda x, y: torch.log_softmax(x, -1),
                        "torch.compile": lambda x, y, c=for_shape(OPS["log"]): c(x)}
                if cudnn:
                    prov["cuDNN"] = lambda x, y: cudnn.forward(x, y, log=True)
                sets = buffer_sets((x, y), 2 * m * n * es)
                record("log_softmax fwd", dt, f"{m}x{n}", err, measure(prov, 2 * m * n * es, sets))
                del sets
            for kind in ("bwd", "logbwd"):
                if kind not in want:
                    continue
                lg = kind == "logbwd"
                yv = torch.log_softmax(x.float(), -1).to(dt) if lg else torch.softmax(x.float(), -1).to(dt)
                dy = torch.randn_like(x)
                dx = torch.empty_like(x)
                p = hs.problem(dt, m, n, algorithm=ALGO_LOG if lg else 200)
                hs.backward(p, yv, dy, dx)
                yf, dyf = yv.float(), dy.float()
                ref = dyf - torch.exp(yf) * dyf.sum(-1, keepdim=True) if lg else yf * (dyf - (dyf * yf).sum(-1, keepdim=True))
                err = (dx.float() - ref).abs().max().item()
                if lg:
                    prov = {"hipsoftmax": lambda yv, dy, dx: hs.backward(p, yv, dy, dx),
                            "torch": lambda yv, dy, dx: torch._log_softmax_backward_data(dy, yv, -1, dt),
                            "torch.compile": lambda yv, dy, dx, c=for_shape(OPS["logbwd"]): c(yv, dy)}
                else:
                    prov = {"hipsoftmax": lambda yv, dy, dx: hs.backward(p, yv, dy, dx),
                            "torch": lambda yv, dy, dx: torch._softmax_backward_data(dy, yv, -1, dt),
                            "torch.compile": lambda yv, dy, dx, c=for_shape(OPS["bwd"]): c(yv, dy)}
                if cudnn:
                    prov["cuDNN"] = lambda yv, dy, dx: cudnn.backward(yv, dy, dx, log=lg)
                sets = buffer_sets((yv, dy, dx), 3 * m * n * es)
                record("log_softmax bwd" if lg else "softmax bwd", dt, f"{m}x{n}", err,
                       measure(prov, 3 * m * n * es, sets))
                del yv, dy, dx, sets
            del x, y
            torch.cuda.empty_cache()

    # Attention: scores [B, H, S, S], scale 1/8; a [B, 1, S, S] additive mask, or causal.
    for dt, b, h, s in ((torch.bfloat16, 8, 16, 1024), (torch.float16, 4, 32, 2048)):
        es = torch.tensor([], dtype=dt).element_size()
        scale = 0.125
        torch.manual_seed(0)
        x = torch.randn(b, h, s, s, device="cuda", dtype=dt)
        y = torch.empty_like(x)
        rows_n = b * h * s
        shape = f"{b}x{h}x{s}x{s}"
        if "mask" in want:
            mask = torch.where(torch.rand(b, 1, s, s, device="cuda") < 0.9, 0.0, float("-inf")).to(dt)
            keep = torch.isfinite(mask)

            def masked_problem(mk):
                return hs.problem(dt, rows_n, s, scale=scale, mask=MASK_ADDITIVE, mask_dtype=DTYPES[dt],
                                  mask_ptr=mk.data_ptr(), mask_row_stride=s, heads=h, queries=s, mask_batches=b,
                                  mask_rows=s, mask_batch_stride=s * s)
            nbytes = 2 * x.numel() * es + mask.numel() * es
            # the mask is read too, so each set has its own (and a problem that points at it)
            sets = [st + (masked_problem(st[2]),) for st in buffer_sets((x, y, mask, keep), nbytes)]
            hs.forward(sets[0][4], x, y)
            err = (y.float() - torch.softmax(x.float() * scale + mask.float(), -1)).abs().max().item()
            masked = for_shape(lambda t, mm: torch.softmax(t * scale + mm, -1))
            prov = {"hipsoftmax": lambda x, y, mk, kp, p: hs.forward(p, x, y),
                    "torch": lambda x, y, mk, kp, p: torch.softmax(x * scale + mk, -1),
                    "torch.compile": lambda x, y, mk, kp, p: masked(x, mk),
                    "torch._masked_softmax": lambda x, y, mk, kp, p: torch._masked_softmax(
                        x * scale, ~kp.expand(b, h, s, s), -1, 0)}
            record("scale + mask fwd", dt, shape, err, measure(prov, nbytes, sets))
            del mask, keep, sets
        if "causal" in want:
            p = hs.problem(dt, rows_n, s, scale=scale, mask=MASK_CAUSAL, queries=s)
            hs.forward(p, x, y)
            tri = torch.ones(s, s, device="cuda", dtype=torch.bool).triu(1)
            err = (y.float() - torch.softmax((x.float() * scale).masked_fill(tri, float("-inf")), -1)).abs().max().item()
            causal = for_shape(lambda t: torch.softmax((t * scale).masked_fill(tri, float("-inf")), -1))
            plain = hs.problem(dt, rows_n, s, scale=scale)
            prov = {"hipsoftmax": lambda x, y: hs.forward(p, x, y),
                    "hipsoftmax plain": lambda x, y: hs.forward(plain, x, y),
                    "torch": lambda x, y: torch.softmax((x * scale).masked_fill(tri, float("-inf")), -1),
                    "torch.compile": lambda x, y: causal(x)}
            sets = buffer_sets((x, y), 2 * x.numel() * es)
            record("scale + causal fwd", dt, shape, err, measure(prov, 2 * x.numel() * es, sets))
            del sets
        del x, y
        torch.cuda.empty_cache()

    base = os.path.join(out_dir, f"compare-ops-{dev.replace(' ', '_')}-{date}")
    names = []
    for r in rows:
        for k in r[4]:
            if k not in names:
                names.append(k)
    with open(base + ".csv", "w") as f:
        f.write("device,op,dtype,shape,max_abs_err_hipsoftmax,copy_gbs," + ",".join(names) + "\n")
        for op, dt, shape, err, res in rows:
            f.write(f"{dev},{op},{dt},{shape},{err:.3e},{copy_gbs:.0f}," +
                    ",".join("" if res.get(k) is None else f"{res[k]:.1f}" for k in names) + "\n")
    with open(base + ".md", "w") as f:
        f.write(f"# Softmax family bandwidth on {dev}, {date}\n\n")
        f.write(f"GB/s (bytes the op must move / median kernel time, L2 flushed, buffer sets in turn) and share of the "
                f"device-to-device copy bandwidth measured in the same process ({copy_gbs:.0f} GB/s). "
                f"Bold: fastest of the anchors and hipsoftmax. ratio: hipsoftmax over the best anchor. "
                f"err: hipsoftmax's max abs error against an fp32 torch reference.\n\n")
        f.write("| op | dtype | shape | err | " + " | ".join(names) + " | ratio |\n")
        f.write("|---|---|---|---:|" + "---:|" * len(names) + "---:|\n")
        for op, dt, shape, err, res in rows:
            anchors = [v for k, v in res.items() if v and not k.startswith("hipsoftmax")]
            best = max([v for k, v in res.items() if v and (k == "hipsoftmax" or not k.startswith("hipsoftmax"))],
                       default=None)
            cells = []
            for k in names:
                v = res.get(k)
                c = "" if k not in res else "fail" if v is None else f"{v:.0f} ({100 * v / copy_gbs:.0f}%)"
                cells.append(f"**{c}**" if v is not None and v == best else c)
            ratio = res.get("hipsoftmax", 0) / max(anchors) if anchors and res.get("hipsoftmax") else math.nan
            f.write(f"| {op} | {dt} | {shape} | {err:.1e} | " + " | ".join(cells) + f" | {ratio:.2f} |\n")
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        for op in ("log_softmax fwd", "softmax bwd", "log_softmax bwd"):
            for dtn in ("float32", "bfloat16"):
                pts = [(int(shape.split("x")[1]), res) for o, dt, shape, err, res in rows if o == op and dt == dtn]
                if not pts:
                    continue
                fig, ax = plt.subplots(figsize=(8, 5))
                for k in names:
                    xs = [n for n, r in pts if r.get(k)]
                    if xs:
                        ax.plot(xs, [r[k] for n, r in pts if r.get(k)], marker="o", label=k)
                ax.axhline(copy_gbs, color="gray", linestyle="--", label="D2D copy")
                ax.set_xscale("log", base=2)
                ax.set_xlabel("N (columns), M = 4096")
                ax.set_ylabel("GB/s")
                ax.set_title(f"{op} {dtn}, {dev}, {date}")
                ax.legend()
                fig.savefig(f"{base}-{op.replace(' ', '_')}-{dtn}.png", dpi=110, bbox_inches="tight")
                plt.close(fig)
    except ImportError:
        print("matplotlib not available: no plot", file=sys.stderr)
    print("wrote", base + ".md")


if __name__ == "__main__":
    main()
