# Run as: python3 bench/results/h200-2026-11-30-tc-bwd-launch.py (from the repository root).
"""torch.compile's softmax backward kernels for the rows of issue 11's last gap: each launch's grid,
block, registers a thread and shared memory, as the CUDA profiler records them (torch.profiler's
trace), and the blocks of it a SM can hold by registers and threads (H200: 65536 registers, 2048
threads, allocated in 256-register warp units)."""
import json, os, sys, tempfile
sys.path.insert(0, "bench")
import torch
from torch_anchor import OPS, for_shape

for dt, m, n in [(torch.bfloat16, 4096, 4096), (torch.float16, 4096, 4096), (torch.bfloat16, 16384, 4096),
                 (torch.bfloat16, 4096, 2048), (torch.bfloat16, 4096, 16384), (torch.float32, 4096, 4096)]:
    torch.manual_seed(0)
    y = torch.softmax(torch.randn(m, n, device="cuda", dtype=torch.float32), -1).to(dt)
    dy = torch.randn_like(y)
    tc = for_shape(OPS["bwd"])
    for _ in range(3):
        tc(y, dy)
    torch.cuda.synchronize()
    with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as prof:
        tc(y, dy)
        torch.cuda.synchronize()
    path = os.path.join(tempfile.mkdtemp(), "trace.json")
    prof.export_chrome_trace(path)
    for e in json.load(open(path))["traceEvents"]:
        if e.get("cat") != "kernel":
            continue
        a = e.get("args", {})
        block = a.get("block", [0, 0, 0])
        threads = block[0] * block[1] * block[2]
        regs = a.get("registers per thread", 0)
        warps = (threads + 31) // 32
        by_regs = 65536 // (warps * ((regs * 32 + 255) // 256 * 256)) if regs and warps else 0
        by_threads = 2048 // threads if threads else 0
        print(f"{str(dt)[6:]:9s} {m}x{n}: {e['name'][:60]:60s} grid {a.get('grid')} block {block} "
              f"regs {regs} smem {a.get('shared memory')} blocks/SM {min(by_regs, by_threads)} "
              f"({e.get('dur')} us)", flush=True)
