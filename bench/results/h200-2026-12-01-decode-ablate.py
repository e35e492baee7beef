# Run as: python3 THIS ABL.so LIB.so CASE... from the repository root, ABL.so built from
# h200-2026-12-01-decode-ablate.cu (nvcc -arch=sm_90 -O3 -shared -Xcompiler -fPIC), LIB.so the library,
# CASE fp32:MxN (N a multiple of 4). Kernel time of the held decode kernel (32 values a thread, blocks
# of 128) with each of the library's four differences switched on (the .cu names them: bar, coop, lb,
# onebar), against the library's plan, torch.compile and a copy of x's bytes, every provider on buffer
# sets in turn (bench/kernel_timer.py), three rounds of 60 launches, twice. Each variant's output
# checked against the float64 softmax, element by element: relative 2e-5, the library's fp32 tolerance.
import ctypes, sys
sys.path.insert(0, "bench")
import torch
from hsm_ctypes import HipSoftmax, parse_case
from kernel_timer import buffer_sets, in_turn, rounds
from torch_anchor import OPS, for_shape

abl = ctypes.CDLL(sys.argv[1])
abl.decode_launch.argtypes = [ctypes.c_int] + [ctypes.c_void_p] * 2 + [ctypes.c_int] * 2 + [ctypes.c_void_p] * 3
lib = HipSoftmax(sys.argv[2])
BITS = ("bar", "coop", "lb", "onebar")


def name(v):
    return "+".join(b for i, b in enumerate(BITS) if v >> i & 1) or "plain"


print("| case | run | provider | grid | regs | us | copy / it | lib / it |\n|---|---|---|---:|---:|---:|---:|---:|")
for case in sys.argv[3:]:
    d, m, n, _ = parse_case(case)
    torch.manual_seed(0)
    x = torch.randn(m, n, device="cuda", dtype=torch.float32)
    want = torch.softmax(x.double(), -1)
    sets = buffer_sets((x, torch.empty_like(x)), 2 * x.numel() * 4)
    tc = for_shape(OPS["softmax"])
    p = lib.problem(torch.float32, m, n)
    prov = {"tc": in_turn(lambda x, o: tc(x), sets), "lib": in_turn(lambda x, o: lib.forward(p, x, o), sets),
            "copy": in_turn(lambda x, o: o.copy_(x), sets)}
    info = {}
    for v in range(16):
        grid, regs = ctypes.c_int(0), ctypes.c_int(0)

        def call(x, o, v=v, grid=grid, regs=regs):
            return abl.decode_launch(v, x.data_ptr(), o.data_ptr(), m, n, torch.cuda.current_stream().cuda_stream,
                                     ctypes.byref(grid), ctypes.byref(regs))
        o = torch.full_like(x, float("nan"))
        if call(x, o) != 0:
            continue
        torch.cuda.synchronize()
        err = ((o.double() - want).abs() / (2e-5 * want)).max().item()
        if not err <= 1.0:
            print("MISMATCH", case, name(v), err, flush=True)
            continue
        info[name(v)] = (grid.value, regs.value)
        prov[name(v)] = in_turn(call, sets)
    for run in (1, 2):
        res = rounds(prov)
        for k, (us, kern) in sorted(res.items(), key=lambda kv: kv[1][0]):
            g, rg = info.get(k, ("", ""))
            label = k if k in info else f"{k} `{kern[:60]}`"
            print(f"| {case} | {run} | {label} | {g} | {rg} | {us:.2f} | {res['copy'][0] / us:.3f} | "
                  f"{res['lib'][0] / us:.3f} |", flush=True)
