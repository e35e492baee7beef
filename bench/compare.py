#!/usr/bin/env python3
"""Side-by-side softmax bandwidth on one NVIDIA GPU: hipsoftmax (through ctypes, on torch's current
stream), torch.softmax, torch.compile(torch.softmax) compiled for each shape, cuDNN's legacy softmax
(ACCURATE, INSTANCE) and the Triton fused-softmax tutorial's persistent kernel (re-implemented here from
the tutorial's description), all timed the same way in one process. bench/compare_ops.py does the other
ops.

Timing: the GPU's kernel time of each call (CUPTI, bench/kernel_timer.py: 60 calls, each after an L2
flush; a call of several kernels summed), median; until 2026-11-30 do_bench's CUDA events, which held
host time on short launches. Every provider takes buffer sets in turn (kernel_timer.buffer_sets: the
flush does not evict lines read evict_last, as Inductor's kernels read theirs); one set before
bench/results/h200-2026-11-30-rotated.md. GB/s = 2*M*N*bytes/t.
The ceiling is a device-to-device copy of 1 GiB (torch copy_) measured by the same method.

Usage: python3 bench/compare.py LIBHIPSOFTMAX.so OUT_DIR [SHAPES]
SHAPES (optional) replaces the fixed list: comma-separated DTYPE:MxN, DTYPE one of fp32, bf16, fp16
(e.g. fp16:65536x77,bf16:16384x127: issue 14's odd short rows).
Writes OUT_DIR/compare-<device>-<date>.md and .csv, and a .png plot per dtype if matplotlib is there.
"""
import datetime
import os
import sys

import torch
import triton
import triton.language as tl
from triton.runtime import driver

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from hsm_ctypes import TORCH_DTYPES, CudnnSoftmax, HipSoftmax, parse_case  # noqa: E402
from kernel_timer import bench_ms, buffer_sets, in_turn  # noqa: E402
from torch_anchor import OPS, for_shape  # noqa: E402


@triton.jit
def _tutorial_softmax(y_ptr, x_ptr, x_stride, y_stride, n_rows, n_cols, BLOCK: tl.constexpr,
                      STAGES: tl.constexpr):
    # Persistent programs: each takes rows pid, pid + nprog, ... and holds one row in SRAM.
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    for row in tl.range(pid, n_rows, nprog, num_stages=STAGES):
        cols = tl.arange(0, BLOCK)
        inside = cols < n_cols
        v = tl.load(x_ptr + row * x_stride + cols, mask=inside, other=-float("inf")).to(tl.float32)
        e = tl.exp(v - tl.max(v, axis=0))
        out = e / tl.sum(e, axis=0)
        tl.store(y_ptr + row * y_stride + cols, out.to(y_ptr.dtype.element_ty), mask=inside)


class TritonTutorial:
    """The tutorial's launch: 8 warps, grid = min(SMs * occupancy, rows), occupancy from the compiled
    kernel's registers and shared memory by the tutorial's NVIDIA formula."""

    def __init__(self):
        props = driver.active.utils.get_device_properties(torch.cuda.current_device())
        self.sms = props["multiprocessor_count"]
        self.regs = props["max_num_regs"]
        self.smem = props["max_shared_mem"]
        self.warp = props.get("warpSize", 32)
        self.cache = {}

    def __call__(self, x, y):
        m, n = x.shape
        if n > 65536:  # a whole row in one program's SRAM: the tutorial's own limit, well before this
            raise RuntimeError("row longer than the tutorial kernel can hold")
        block = triton.next_power_of_2(n)
        stages = 4 if self.smem > 200000 else 2
        key = (block, x.dtype)
        if key not in self.cache:
            k = _tutorial_softmax.warmup(y, x, x.stride(0), y.stride(0), m, n, BLOCK=block, STAGES=stages,
                                         num_warps=8, grid=(1,))
            k._init_handles()
            occ = self.regs // (k.n_regs * self.warp * 8)
            if k.metadata.shared:
                occ = min(occ, self.smem // k.metadata.shared)
            self.cache[key] = (k, max(occ, 0))
        k, occ = self.cache[key]
        if occ == 0:
            raise RuntimeError("tutorial kernel cannot launch (occupancy 0)")
        k[(min(self.sms * occ, m), 1, 1)](y, x, x.stride(0), y.stride(0), m, n, block, stages)
        return y


def main():
    lib_path, out_dir = sys.argv[1], sys.argv[2]
    os.makedirs(out_dir, exist_ok=True)
    dev = torch.cuda.get_device_name()
    date = datetime.date.today().isoformat()
    hs = HipSoftmax(lib_path)
    tut = TritonTutorial()
    providers = {
        "hipsoftmax": lambda x, y: hs(x, y),
        "torch.softmax": lambda x, y: torch.softmax(x, dim=-1),
        "torch.compile": None,  # compiled for each shape below (bench/torch_anchor.py says why)
        "triton tutorial": lambda x, y: tut(x, y),
    }
    try:
        cudnn = CudnnSoftmax()
        providers["cuDNN"] = lambda x, y: cudnn.forward(x, y)
    except Exception as e:  # noqa: BLE001 - any failure to load means: no cuDNN column
        print(f"cuDNN not available: {e}", file=sys.stderr)
    big = torch.empty(1 << 28, dtype=torch.float32, device="cuda")
    big2 = torch.empty_like(big)
    copy_gbs = 2 * big.numel() * 4 / (bench_ms(lambda: big2.copy_(big)) * 1e6)
    del big, big2

    shapes = []
    for n in [128, 256, 512, 1024, 2048, 4096, 8192, 16384, 32768, 65536, 131072, 262144]:
        shapes.append((torch.float32, 4096, n))
    for n in [512, 1024, 2048, 4096, 8192, 16384, 32768, 65536, 131072, 262144]:
        shapes.append((torch.bfloat16, 4096, n))
    for n in [1024, 4096, 16384, 65536]:
        shapes.append((torch.float16, 4096, n))
    for n in (128, 256, 512, 1024):
        shapes.append((torch.float32, 1024, n))
    shapes += [(torch.float32, 32, 1 << 20), (torch.float32, 4, 1 << 23)]
    if len(sys.argv) > 3:
        shapes = [(TORCH_DTYPES[d], m, n) for d, m, n, _ in map(parse_case, sys.argv[3].split(","))]

    rows = []
    for dt, m, n in shapes:
        torch.manual_seed(0)
        x = torch.randn(m, n, device="cuda", dtype=dt)
        y = torch.empty_like(x)
        ref = torch.softmax(x.float(), dim=-1)
        hs(x, y)
        torch.cuda.synchronize()
        err = (y.float() - ref).abs().max().item()
        res = {}
        providers["torch.compile"] = lambda x, y, c=for_shape(OPS["softmax"]): c(x)
        sets = buffer_sets((x, y), 2 * m * n * x.element_size())
        for name, fn in providers.items():
            try:
                res[name] = 2 * m * n * x.element_size() / (bench_ms(in_turn(fn, sets)) * 1e6)
            except Exception as e:  # the tutorial kernel runs out of shared memory on long rows
                res[name] = None
                print(f"{name} {m}x{n} {dt}: {type(e).__name__}: {str(e)[:80]}", file=sys.stderr)
        rows.append((str(dt).replace("torch.", ""), m, n, err, res))
        line = " ".join(f"{k}={v:.0f}" if v else f"{k}=fail" for k, v in res.items())
        print(f"{rows[-1][0]} {m}x{n} maxerr={err:.2e} {line}", flush=True)
        del x, y, ref, sets
        torch.cuda.empty_cache()

    base = os.path.join(out_dir, f"compare-{dev.replace(' ', '_')}-{date}")
    names = list(providers)
    with open(base + ".csv", "w") as f:
        f.write("device,dtype,rows,cols,max_abs_err_hipsoftmax,copy_gbs," + ",".join(names) + "\n")
        for dt, m, n, err, res in rows:
            f.write(f"{dev},{dt},{m},{n},{err:.3e},{copy_gbs:.0f}," +
                    ",".join("" if res[k] is None else f"{res[k]:.1f}" for k in names) + "\n")
    with open(base + ".md", "w") as f:
        f.write(f"# Softmax bandwidth on {dev}, {date}\n\n")
        f.write(f"GB/s (2*M*N*bytes / median kernel time, L2 flushed, buffer sets in turn) and share of the device-to-device copy "
                f"bandwidth measured in the same process ({copy_gbs:.0f} GB/s). Bold: fastest. "
                f"max err: hipsoftmax against torch.softmax in fp32.\n\n")
        f.write("| dtype | M | N | max err | " + " | ".join(names) + " |\n")
        f.write("|---|---:|---:|---:|" + "---:|" * len(names) + "\n")
        for dt, m, n, err, res in rows:
            best = max((v for v in res.values() if v), default=None)
            cells = []
            for k in names:
                v = res[k]
                c = "fail" if v is None else f"{v:.0f} ({100 * v / copy_gbs:.0f}%)"
                cells.append(f"**{c}**" if v is not None and v == best else c)
            f.write(f"| {dt} | {m} | {n} | {err:.1e} | " + " | ".join(cells) + " |\n")
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        for dtn in ("float32", "bfloat16", "float16"):
            pts = [(n, res) for dt, m, n, err, res in rows if dt == dtn and m == 4096]
            if len(pts) < 2:  # a curve needs points (a SHAPES list may have none at M = 4096)
                continue
            fig, ax = plt.subplots(figsize=(8, 5))
            for k in names:
                xs = [n for n, r in pts if r[k]]
                ax.plot(xs, [r[k] for n, r in pts if r[k]], marker="o", label=k)
            ax.axhline(copy_gbs, color="gray", linestyle="--", label="D2D copy")
            ax.set_xscale("log", base=2)
            ax.set_xlabel("N (columns), M = 4096")
            ax.set_ylabel("GB/s")
            ax.set_title(f"softmax {dtn}, {dev}, {date}")
            ax.legend()
            fig.savefig(f"{base}-{dtn}.png", dpi=110, bbox_inches="tight")
    except ImportError:
        print("matplotlib not available: no plot", file=sys.stderr)
    print("wrote", base + ".md")


if __name__ == "__main__":
    main()
