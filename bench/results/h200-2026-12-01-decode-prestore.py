# Run as: python3 THIS DEC.so LIB.so CASE... from the repository root, DEC.so built from
# h200-2026-12-01-decode-prestore.cu (nvcc -arch=sm_90 -O3 -shared -Xcompiler -fPIC), LIB.so the
# library, CASE fp32:MxN (N a multiple of 4). Kernel time of the held decode kernel with and without
# y's lines taken early (PRE, the .cu says how), NPK packs of 16 bytes a thread, T threads a block,
# against the library's plan, torch.compile and a copy of x's bytes, every provider on buffer sets in
# turn (bench/kernel_timer.py), three rounds of 60 launches, twice. Each variant's output checked
# against the float64 softmax, element by element: relative 2e-5, the library's fp32 tolerance.
import ctypes, sys
sys.path.insert(0, "bench")
import torch
from hsm_ctypes import HipSoftmax, parse_case
from kernel_timer import buffer_sets, in_turn, rounds
from torch_anchor import OPS, for_shape

dec = ctypes.CDLL(sys.argv[1])
dec.decode_launch.argtypes = [ctypes.c_int] * 3 + [ctypes.c_void_p] * 2 + [ctypes.c_int] * 2 + [ctypes.c_void_p] * 3
lib = HipSoftmax(sys.argv[2])
VARIANTS = [(n, t, pre) for n, t in ((8, 128), (4, 256)) for pre in range(5)]

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
    for npk, t, pre in VARIANTS:
        grid, regs = ctypes.c_int(0), ctypes.c_int(0)

        def call(x, o, npk=npk, t=t, pre=pre, grid=grid, regs=regs):
            return dec.decode_launch(npk, t, pre, x.data_ptr(), o.data_ptr(), m, n,
                                     torch.cuda.current_stream().cuda_stream, ctypes.byref(grid), ctypes.byref(regs))
        o = torch.full_like(x, float("nan"))
        if call(x, o) != 0:
            continue
        torch.cuda.synchronize()
        err = ((o.double() - want).abs() / (2e-5 * want)).max().item()
        name = f"N{npk}T{t}P{pre}"
        if not err <= 1.0:
            print("MISMATCH", case, name, err, flush=True)
            continue
        info[name] = (grid.value, regs.value)
        prov[name] = in_turn(call, sets)
    for run in (1, 2):
        res = rounds(prov)
        for k, (us, kern) in sorted(res.items(), key=lambda kv: kv[1][0]):
            g, rg = info.get(k, ("", ""))
            label = k if k in info else f"{k} `{kern[:60]}`"
            print(f"| {case} | {run} | {label} | {g} | {rg} | {us:.2f} | {res['copy'][0] / us:.3f} | "
                  f"{res['lib'][0] / us:.3f} |", flush=True)
