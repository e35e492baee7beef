"""Kernel time of one provider's launch, from the GPU's own start and end of each kernel (CUPTI, through
torch.profiler), each launch after a pass over 256 MB that flushes L2 (as do_bench's write does).
do_bench's events around a 4-10 us launch move by up to 10% from round to round (bench/ab_small.py);
kernel time moves by about 1%. The flush does not evict lines a kernel read with L2 priority
evict_last: timed on one set of tensors, such a kernel, and any kernel timed after it on the same
tensors, finds part of its inputs in L2 when they fit (bf16 4096 x 1024 backward: 11% faster; H200,
bench/results/h200-2026-11-30-packed-bwd-lean.md). The compare scripts therefore give every provider
buffer sets in turn (buffer_sets, in_turn): no launch reads what the launch before it left in L2,
whatever priority it left it with."""
import itertools
import math
import statistics

import torch
from torch.profiler import ProfilerActivity, profile

FLUSH = torch.empty(int(256e6 // 4), dtype=torch.int, device="cuda")
L2_BYTES = torch.cuda.get_device_properties(torch.cuda.current_device()).L2_cache_size


def buffer_sets(first, set_bytes, count=0):
    """first (a tuple of a call's arguments) and copies of it (tensors cloned, other values shared), so
    many that between two launches on one set the others read and write four times L2's bytes: lines
    kept evict_last by one launch are pushed out by the evict_last lines of the launches after it
    (the flush alone does not) before their set comes round again. At least 2 sets, at most 64;
    count, where not 0, says how many."""
    n = count or max(2, min(64, 1 + math.ceil(4 * L2_BYTES / max(1, set_bytes))))
    return [first] + [tuple(t.clone() if isinstance(t, torch.Tensor) else t for t in first) for _ in range(n - 1)]


def in_turn(fn, sets):
    """A call without arguments that runs fn(*set) on each of sets in turn."""
    turn = itertools.cycle(sets)
    return lambda: fn(*next(turn))


def launches(fn, n=60):
    """The kernels of each of n launches of fn, each after the flush: a list of n lists of (name, us).
    The flush adds to FLUSH, a kernel no provider launches (a zeroing flush would share its name with a
    provider's fill), and the kernels after each flush, up to the next, are that launch's."""
    fn()
    torch.cuda.synchronize()
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        for _ in range(n):
            FLUSH.add_(1)
            fn()
        torch.cuda.synchronize()
    ev = sorted((e for e in prof.events() if e.device_type == torch.autograd.DeviceType.CUDA),
                key=lambda e: e.time_range.start)
    flush = ev[0].name
    runs = []
    for e in ev:
        if e.name == flush:
            runs.append([])
        elif runs:
            runs[-1].append((e.name, e.time_range.elapsed_us()))
    if len(runs) != n:
        raise RuntimeError(f"{len(runs)} flushes seen for {n}")
    return runs


def kernel_us(fn, n=60):
    """(median over n launches of fn's GPU time, its kernels' names joined by " + "): a launch's time is
    the sum of its kernels' (torch.compile's code may launch several; launches() says which)."""
    runs = launches(fn, n)
    names = []
    for run in runs:
        for name, _ in run:
            if name not in names:
                names.append(name)
    return statistics.median(sum(us for _, us in run) for run in runs), " + ".join(names)


def bench_ms(fn):
    """fn's median kernel time in ms (kernel_us): the compare scripts' timing. Their earlier do_bench
    timed calls with CUDA events, which on launches of 16 MB or less held the caller's host time:
    torch.compile's per-shape anchor measured 539-1211 GB/s there (H200, fp32 4096 x 1024 softmax,
    log-softmax, log-softmax backward) where its kernels run at 3400-3700 (bench/results/
    h200-2026-11-30-stream-backward.md)."""
    return kernel_us(fn)[0] / 1000


def rounds(prov, n_rounds=3):
    """{provider: (median over rounds of its round medians, kernel names)}, the providers in turn."""
    res = {k: [] for k in prov}
    for _ in range(n_rounds):
        for k, fn in prov.items():
            res[k].append(kernel_us(fn))
    return {k: (statistics.median(t for t, _ in v), v[0][1]) for k, v in res.items()}
