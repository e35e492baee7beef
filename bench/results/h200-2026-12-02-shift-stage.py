# Run as: python3 THIS STAGE.so [--lib NAME=LIB.so ...] CASE... from the repository root (CASE: M:N:XS:YS, an
# fp32 M x N softmax with x's rows XS elements apart and y's YS), STAGE.so built from
# h200-2026-12-02-shift-stage.cu (nvcc -arch=sm_90 -O3 -shared -Xcompiler -fPIC). Each case: every variant
# of the experiment (NP packs a thread, the fewest threads that hold the row, STAGE 0, 1 or 2) checked
# against a float64 softmax and screened (one round of 30 launches), the fastest three and the fastest of
# each STAGE then against the libraries given (with the kernel their plan launches) and a copy of an M x N
# fp32 tensor (three rounds of 60), every provider on buffer sets in turn, each launch after the L2 flush
# (bench/kernel_timer.py).
import ctypes, statistics, sys
sys.path.insert(0, "bench")
import torch
from hsm_ctypes import HipSoftmax
from kernel_timer import buffer_sets, in_turn, launches, rounds

so = ctypes.CDLL(sys.argv[1])
so.stage_launch.argtypes = [ctypes.c_int] * 3 + [ctypes.c_void_p] * 2 + [ctypes.c_int] * 2 + [ctypes.c_int64] * 2 + [ctypes.c_void_p]
args = sys.argv[2:]
libs = {}
while args and args[0] == "--lib":
    k, p = args[1].split("=", 1)
    libs[k] = HipSoftmax(p)
    args = args[2:]
# fp32 against float64: ex2.approx (2^-22 relative), the sum's rounding over N terms and the product's;
# 2^-16 relative with 2^-30 absolute beside it leaves room for all three.
REL, ABS = 2.0 ** -16, 2.0 ** -30

for case in args:
    m, n, xs, ys = (int(f) for f in case.split(":"))
    torch.manual_seed(0)
    xb, yb = torch.randn(m, xs, device="cuda"), torch.empty(m, ys, device="cuda")
    want = torch.softmax(xb[:, :n].double(), -1)
    sets = buffer_sets((xb, yb), 8 * m * n)
    print(f"\n### fp32 {m} x {n}, x stride {xs}, y stride {ys}\n", flush=True)
    var, bad = {}, 0
    for np_ in (2, 3, 4, 6, 8):
        b = -(-(n + 3) // (4 * np_ * 32)) * 32
        if b > 1024 or b < 64:
            continue
        for stage in (0, 1, 2):
            def call(xb, yb, np_=np_, stage=stage, b=b):
                return so.stage_launch(np_, stage, b, xb.data_ptr(), yb.data_ptr(), m, n, xs, ys,
                                       torch.cuda.current_stream().cuda_stream)
            o = torch.full_like(yb, float("nan"))
            if call(xb, o) != 0:
                print("launch failed", np_, stage, b)
                continue
            torch.cuda.synchronize()
            over = ((o[:, :n].double() - want).abs() - (REL * want.abs() + ABS)).max().item()
            if not over <= 0 or (ys > n and not o[:, n:].isnan().all().item()):
                print("MISMATCH", case, np_, stage, b, over)
                bad += 1
                continue
            var[f"S{stage}N{np_}B{b}"] = in_turn(call, sets)
    print(f"{len(var)} variants within 2^-16 relative + 2^-30 of float64 (y's padding untouched), {bad} not\n")
    screen = {k: statistics.median(sum(u for _, u in r) for r in launches(f, 30)) for k, f in var.items()}
    best = sorted(screen, key=screen.get)
    keep = best[:3] + [next(k for k in best if k.startswith(s)) for s in ("S0", "S1", "S2") if any(k.startswith(s) for k in best)]
    prov = {k: var[k] for k in dict.fromkeys(keep)}
    for k, h in libs.items():
        p = h.problem(torch.float32, m, n, x_row_stride=xs, y_row_stride=ys)
        prov[k] = in_turn(lambda xb, yb, h=h, p=p: h.forward(p, xb, yb), sets)
    dense = buffer_sets((torch.randn(m, n, device="cuda"), torch.empty(m, n, device="cuda")), 8 * m * n)
    prov["copy"] = in_turn(lambda a, o: o.copy_(a), dense)
    res = rounds(prov)
    us = {k: t for k, (t, _) in res.items()}
    lib = min((us[k] for k in libs), default=float("nan"))
    print("| provider | us | library / it | copy / it | kernel |\n|---|---:|---:|---:|---|")
    for k in sorted(us, key=us.get):
        print(f"| {k} | {us[k]:.2f} | {lib / us[k]:.3f} | {us['copy'] / us[k]:.3f} | `{res[k][1][:60]}` |")
    print("\nscreened (one round of 30, us): " + ", ".join(f"{k} {screen[k]:.2f}" for k in best), flush=True)
