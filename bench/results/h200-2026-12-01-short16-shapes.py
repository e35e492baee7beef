# Run as: python3 THIS SHAPES.so [--lib NAME=LIB.so ...] CASE... from the repository root (CASE: fp16:MxN or
# bf16:MxN, N a multiple of 8), SHAPES.so built from h200-2026-12-01-short16-shapes.cu (nvcc -arch=sm_90
# -O3 -shared -Xcompiler -fPIC). Each case: torch.compile's and cuDNN's kernels' launch shapes (grid,
# block, registers: torch.profiler); every built shape of the experiment that covers the row, checked
# against a float64 softmax and screened (one round of 30 launches), then the six fastest against
# torch.compile, cuDNN, the libraries given (with the kernel their plan launches) and a copy of x's
# bytes (three rounds of 60), every provider on buffer sets in turn (bench/kernel_timer.py).
import ctypes, json, os, statistics, sys, tempfile
sys.path.insert(0, "bench")
import torch
from hsm_ctypes import CudnnSoftmax, HipSoftmax, case_tensors, parse_case, TORCH_DTYPES
from kernel_timer import buffer_sets, in_turn, launches, rounds
from torch_anchor import OPS, for_shape

so = ctypes.CDLL(sys.argv[1])
so.fwd_launch.argtypes = [ctypes.c_int] * 5 + [ctypes.c_void_p] * 2 + [ctypes.c_int64, ctypes.c_int, ctypes.c_void_p]
args = sys.argv[2:]
libs = {}
while args and args[0] == "--lib":
    k, p = args[1].split("=", 1)
    libs[k] = HipSoftmax(p)
    args = args[2:]
cudnn = CudnnSoftmax()
# (G threads a row, NP packs a thread) as built; blocks of 32 to 256 threads (64 and up past a warp)
GNP = [(1, 10), (2, 5), (4, 3), (8, 2), (16, 1), (1, 16), (2, 8), (4, 4), (4, 8), (8, 4), (16, 2), (32, 1),
       (8, 8), (16, 4), (32, 2), (64, 1)]
SHAPES = [(g, np_, b) for g, np_ in GNP for b in (32, 64, 128, 256) if b >= max(g, 32) and (b >= 64 or g <= 32)]
# Tolerance against float64: the output's rounding (half an ulp: 2^-9 bf16, 2^-12 fp16, relative) and
# ex2.approx's 2^-22 with room: bf16 2^-8, fp16 2^-10 relative; fp16's subnormal outputs (below 2^-14)
# are rounded to an absolute 2^-25, so 2^-24 absolute beside it.
TOL = {torch.bfloat16: (2.0 ** -8, 0.0), torch.float16: (2.0 ** -10, 2.0 ** -24)}


def launch_shapes(fn):
    """name, grid, block, registers of each kernel fn launches (torch.profiler's trace)."""
    fn()
    torch.cuda.synchronize()
    with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as prof:
        fn()
        torch.cuda.synchronize()
    path = os.path.join(tempfile.mkdtemp(), "trace.json")
    prof.export_chrome_trace(path)
    out = []
    for e in json.load(open(path))["traceEvents"]:
        if e.get("cat") == "kernel":
            a = e.get("args", {})
            out.append(f"`{e['name'][:70]}` grid {a.get('grid')} block {a.get('block')} regs "
                       f"{a.get('registers per thread')} smem {a.get('shared memory')}")
    return "; ".join(out)


for case in args:
    d, m, n, _ = parse_case(case)
    dt = TORCH_DTYPES[d]
    x, y, dy, out = case_tensors(dt, m, n, "softmax")
    sets = buffer_sets((x, out), 2 * x.numel() * x.element_size())
    tc = for_shape(OPS["softmax"])
    want = torch.softmax(x.double(), -1)
    rel, ab = TOL[dt]
    print(f"\n### {case}\n\n- torch.compile: {launch_shapes(lambda: tc(x))}\n"
          f"- cuDNN: {launch_shapes(lambda: cudnn.forward(x, out))}", flush=True)
    for k, h in libs.items():
        p = h.problem(dt, m, n)
        print(f"- {k}: {launch_shapes(lambda: h.forward(p, x, out))}", flush=True)
    print()
    var = {}
    bad = 0
    for g, np_, b in SHAPES:
        for pf in (0, 1):
            def call(x, o, g=g, np_=np_, b=b, pf=pf):
                return so.fwd_launch(0 if dt == torch.float16 else 1, g, np_, b, pf, x.data_ptr(), o.data_ptr(),
                                     m, n, torch.cuda.current_stream().cuda_stream)
            o = torch.full_like(x, float("nan"))
            if g * np_ * 8 >= 2 * n or call(x, o) != 0:
                continue
            torch.cuda.synchronize()
            over = ((o.double() - want).abs() - (rel * want.abs() + ab)).max().item()
            if not over <= 0:
                print("MISMATCH", case, g, np_, b, pf, over)
                bad += 1
                continue
            var[f"G{g}N{np_}B{b}P{pf}"] = in_turn(call, sets)
    print(f"{len(var)} shapes within bf16 2^-8 / fp16 2^-10 + 2^-24 of float64, {bad} not\n")
    screen = {k: statistics.median(sum(u for _, u in r) for r in launches(f, 30)) for k, f in var.items()}
    best = sorted(screen, key=screen.get)
    prov = {k: var[k] for k in best[:6]}
    for k, h in libs.items():
        p = h.problem(dt, m, n)
        prov[k] = in_turn(lambda x, o, h=h, p=p: h.forward(p, x, o), sets)
    prov["torch.compile"] = in_turn(lambda x, o: tc(x), sets)
    prov["cuDNN"] = in_turn(lambda x, o: cudnn.forward(x, o), sets)
    prov["copy"] = in_turn(lambda x, o: o.copy_(x), sets)
    res = rounds(prov)
    us = {k: t for k, (t, _) in res.items()}
    anchor = min(us["torch.compile"], us["cuDNN"])
    print("| provider | us | best anchor / it | copy / it | kernel |\n|---|---:|---:|---:|---|")
    for k in sorted(us, key=us.get):
        print(f"| {k} | {us[k]:.2f} | {anchor / us[k]:.3f} | {us['copy'] / us[k]:.3f} | `{res[k][1][:60]}` |")
    print("\nscreened (one round of 30, us): " + ", ".join(f"{k} {screen[k]:.2f}" for k in best), flush=True)
