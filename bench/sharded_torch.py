#!/usr/bin/env python3
"""The sharded softmax as frameworks write it by hand, with torch.distributed: the baseline of
examples/sharded_softmax --bench.

Each of the P ranks (one process per GPU, spawned with torch.multiprocessing; NCCL backend) holds a
slice of every row's columns and computes its slice of the softmax over the whole rows with the
three-pass recipe of Megatron-LM's vocab-parallel cross-entropy:
  1. local max of each row                      (reads x)
  2. all_reduce MAX of the maxima
  3. y = exp(x - max), in place; local row sums  (reads x, writes y; reads y)
  4. all_reduce SUM of the sums (fp32)
  5. y /= sum, in place                          (reads y, writes y)
With 16-bit logits every step stores in the logits' dtype, as eager PyTorch does without an upcast
(x - max is rounded to bf16 before the exp: up to |x - max| * 2^-9 of error in the exponent).
--upcast times Megatron's own form instead, which takes the logits to fp32 first (output.float()) and
so moves more bytes: the cast is in the time, the output is fp32.
Timed with CUDA events on each rank, per iteration the slowest rank, median over the iterations; the
collective time is the two all_reduces (their wait for the slower rank included). Inputs rotate over
enough buffers (>= 512 MiB together) that no iteration finds its input in L2 from the one before.

GB/s counts the bytes a sharded softmax must move per GPU, the same as examples/sharded_softmax: its
slice read once and written once, over the total time. A line "RESULT torch <rows>x<cols> <dtype> ..."
per shape is for bench/run-sharded.sh.

Usage: bench/sharded_torch.py [--gpus 2] [--iters 50] [--port 29531] [--upcast]
"""
import argparse
import statistics
import sys

import torch
import torch.distributed as dist
import torch.multiprocessing as mp

SHAPES = [(4096, 128256, "bf16"), (8192, 151936, "bf16"), (64, 262144, "f32")]
DTYPES = {"f32": torch.float32, "f16": torch.float16, "bf16": torch.bfloat16}
ROTATE_BYTES = 512 << 20
MAX_SETS = 16


def shard_col(cols, s, n):
    """The first column of shard s of n: a multiple of 8 where that keeps every shard non-empty
    (the split examples/sharded_softmax.c uses). Shard n "starts" at cols: the last shard takes the
    columns past the last multiple of 8."""
    if s >= n:
        return cols
    c = cols * s // n
    c8 = c // 8 * 8
    return c8 if cols >= 8 * n and c8 > 0 else c


def recipe(x, y):
    """y = the local slice of softmax over the whole rows; returns nothing (y written in place)."""
    m = torch.amax(x, dim=-1, keepdim=True)
    dist.all_reduce(m, op=dist.ReduceOp.MAX)
    torch.sub(x, m, out=y)
    y.exp_()
    s = torch.sum(y, dim=-1, keepdim=True, dtype=torch.float32)
    dist.all_reduce(s, op=dist.ReduceOp.SUM)
    y.div_(s)


def timed_recipe(x, y, ev, upcast):
    """recipe() with events around the two collectives: ev = 6 events, total is ev[0] -> ev[5].
    upcast: x is taken to fp32 first (y is fp32), inside the time."""
    ev[0].record()
    if upcast:
        x = x.float()
    m = torch.amax(x, dim=-1, keepdim=True)
    ev[1].record()
    dist.all_reduce(m, op=dist.ReduceOp.MAX)
    ev[2].record()
    torch.sub(x, m, out=y)
    y.exp_()
    s = torch.sum(y, dim=-1, keepdim=True, dtype=torch.float32)
    ev[3].record()
    dist.all_reduce(s, op=dist.ReduceOp.SUM)
    ev[4].record()
    y.div_(s)
    ev[5].record()


def check(rank, world, dev):
    """The recipe against torch.softmax over the whole rows on a small problem (every rank makes the
    same matrix from the same seed, and compares its slice)."""
    torch.manual_seed(1234)
    rows, cols = 37, 5003
    for name, dt in DTYPES.items():
        full = (torch.randn(rows, cols, device=dev) * 4).to(dt)
        c0, c1 = shard_col(cols, rank, world), shard_col(cols, rank + 1, world)
        x = full[:, c0:c1].contiguous()
        y = torch.empty_like(x)
        recipe(x, y)
        want = torch.softmax(full.float(), dim=-1)[:, c0:c1]
        # exp(x - max) is rounded to the storage dtype before the sum (f16 flushes the smallest
        # ones to subnormals): relative tolerance per dtype, plus f16's subnormal step.
        # x - max rounded to the dtype: |x - max| <= 32 here, so up to 32 * 2^-11 (f16) or 32 * 2^-8
        # (bf16) of error in the exponent.
        rtol, atol = {"f32": (1e-5, 1e-30), "f16": (3e-2, 1e-7), "bf16": (1.5e-1, 1e-30)}[name]
        err = ((y.float() - want).abs() / (rtol * want.abs() + atol)).max().item()
        if not err <= 1.0:
            print(f"rank {rank}: the recipe's {name} result is off by {err:.3g} tolerances", file=sys.stderr)
            return False
    return True


def bench_shape(rank, world, dev, rows, cols, dname, iters, upcast):
    dt = DTYPES[dname]
    es = torch.tensor([], dtype=dt).element_size()
    widths = [shard_col(cols, r + 1, world) - shard_col(cols, r, world) for r in range(world)]
    width = widths[rank]
    sets = max(1, min(MAX_SETS, -(-ROTATE_BYTES // (2 * rows * max(widths) * es))))
    g = torch.Generator(device=dev)
    g.manual_seed(1000 + rank)
    xs = [(torch.rand(rows, width, device=dev, generator=g) * 16 - 8).to(dt) for _ in range(sets)]
    ys = [torch.empty_like(xs[0], dtype=torch.float32 if upcast else dt) for _ in range(sets)]
    warm = 3
    evs = [[torch.cuda.Event(enable_timing=True) for _ in range(6)] for _ in range(warm + iters)]
    for i in range(warm + iters):
        timed_recipe(xs[i % sets], ys[i % sets], evs[i], upcast)
    torch.cuda.synchronize(dev)
    per_iter = [[e[0].elapsed_time(e[5]), e[1].elapsed_time(e[2]) + e[3].elapsed_time(e[4])]
                for e in evs[warm:]]
    rec = torch.tensor(per_iter, dtype=torch.float64, device=dev)
    dist.all_reduce(rec, op=dist.ReduceOp.MAX)  # per iteration the slowest rank
    total = statistics.median(rec[:, 0].tolist())
    coll = statistics.median(rec[:, 1].tolist())

    # A device-to-device copy of the slice, rotating likewise: read + write bytes.
    ys = [torch.empty_like(xs[0]) for _ in range(sets)]
    cev = [torch.cuda.Event(enable_timing=True) for _ in range(iters + 1)]
    for i in range(3):
        ys[i % sets].copy_(xs[i % sets])
    cev[0].record()
    for i in range(iters):
        ys[i % sets].copy_(xs[i % sets])
        cev[i + 1].record()
    torch.cuda.synchronize(dev)
    copy_ms = statistics.median([cev[i].elapsed_time(cev[i + 1]) for i in range(iters)])
    slice_bytes = rows * width * es
    copy_gbs = 2 * slice_bytes / (copy_ms * 1e6)
    gbs = 2 * rows * max(widths) * es / (total * 1e6)
    if rank == 0:
        print(f"| {rows}x{cols} | {dname} | {world} | {total:.3f} | {coll:.3f} | {100 * coll / total:.1f}% | "
              f"{gbs:.0f} | {copy_gbs:.0f} | {100 * gbs / copy_gbs:.1f}% |")
        tag = "torch-upcast" if upcast else "torch"
        print(f"RESULT {tag} {rows}x{cols} {dname} gpus={world} total_ms={total:.4f} collective_ms={coll:.4f} "
              f"gbs={gbs:.1f} copy_gbs={copy_gbs:.1f}", flush=True)
    del xs, ys
    torch.cuda.empty_cache()


def worker(rank, world, port, iters, upcast, result):
    dev = torch.device("cuda", rank)
    torch.cuda.set_device(dev)
    dist.init_process_group("nccl", init_method=f"tcp://127.0.0.1:{port}", rank=rank, world_size=world)
    ok = check(rank, world, dev)
    flag = torch.tensor([0 if ok else 1], device=dev)
    dist.all_reduce(flag)
    if flag.item() != 0:
        result[rank] = 1
        dist.destroy_process_group()
        return
    if rank == 0:
        ver = torch.cuda.nccl.version()
        ver = ".".join(map(str, ver)) if isinstance(ver, tuple) else str(ver)
        print(f"torch {torch.__version__}, NCCL {ver}, {world} GPU(s): {torch.cuda.get_device_name(dev)}")
        form = "in fp32 (the logits cast first, output fp32)" if upcast else "in the logits' dtype"
        print(f"\nthree-pass recipe (max, all_reduce MAX, exp and sum, all_reduce SUM, divide) {form} over {world} GPU(s); "
              f"median of {iters} iterations, per iteration the slowest rank. GB/s: per GPU, its slice read once "
              "and written once, over the total; copy: a device-to-device copy of the slice.\n")
        print("| shape | dtype | GPUs | total ms | collective ms | collective share | GB/s per GPU | copy GB/s "
              "| share of copy |")
        print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |", flush=True)
    for rows, cols, dname in SHAPES:
        bench_shape(rank, world, dev, rows, cols, dname, iters, upcast)
    dist.destroy_process_group()
    result[rank] = 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--gpus", type=int, default=2)
    ap.add_argument("--iters", type=int, default=50)
    ap.add_argument("--port", type=int, default=29531)
    ap.add_argument("--upcast", action="store_true", help="Megatron's form: logits to fp32 first, output fp32")
    args = ap.parse_args()
    if not torch.cuda.is_available() or torch.cuda.device_count() < args.gpus:
        print(f"sharded_torch: {args.gpus} GPU(s) needed, {torch.cuda.device_count()} visible: skipped")
        return 77
    result = mp.get_context("spawn").Array("i", [1] * args.gpus)
    mp.spawn(worker, args=(args.gpus, args.port, args.iters, args.upcast, result), nprocs=args.gpus, join=True)
    if any(result[:]):
        print("sharded_torch: the recipe's check failed", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
