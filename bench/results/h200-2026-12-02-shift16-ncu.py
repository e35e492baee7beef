# Run under Nsight Compute as: ncu --clock-control none -k regex:hsm_ --metrics ... python3 THIS LIB.so
# [LIB@KERNEL] -- CASE... from the repository root (CASE: DT:M:N:XS:YS as h200-2026-12-02-shift-stage-ab.py
# takes it). Each case: one warm-up launch and one measured launch of the library's plan (or of the
# kernel forced after @), in the order given, so the profiler's launches pair two by two with the
# cases (the kernel's name and grid are the profiler's).
import sys
sys.path.insert(0, "bench")
import torch
from hsm_ctypes import HipSoftmax

cut = sys.argv.index("--")
path, _, kern = sys.argv[1].partition("@")
lib = HipSoftmax(path)
if kern:
    lib.check(lib.lib.hipsoftmax_set_kernel(lib.handle, kern.encode()))
for case in sys.argv[cut + 1:]:
    d, m, n, xs, ys = case.split(":")
    dt = {"f32": torch.float32, "fp16": torch.float16, "bf16": torch.bfloat16}[d]
    m, n, xs, ys = int(m), int(n), int(xs), int(ys)
    torch.manual_seed(0)
    xb = torch.randn(m * xs, device="cuda", dtype=dt)
    yb = torch.empty(m * ys, device="cuda", dtype=dt)
    p = lib.problem(dt, m, n, x_row_stride=xs, y_row_stride=ys)
    for _ in range(2):
        lib.forward(p, xb, yb)
    torch.cuda.synchronize()
    print(case, flush=True)
