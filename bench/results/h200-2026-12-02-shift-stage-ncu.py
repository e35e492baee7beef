# Run under Nsight Compute as: ncu --clock-control none -k regex:'hsm_row|stage_kernel' --metrics ... python3 THIS
# STAGE.so LIB.so, from the repository root (STAGE.so from h200-2026-12-02-shift-stage.cu). Launches, twice
# each after one warm-up: the library on fp32 4096 x 12344 dense and with x's rows 12345 apart (y dense),
# the experiment's STAGE 0 (NP 6, 544 threads) on the dense rows and STAGE 1 (NP 4, 800 threads) on the
# strided ones, the fastest of each in h200-2026-12-02-shift-stage.md.
import ctypes, sys
sys.path.insert(0, "bench")
import torch
from hsm_ctypes import HipSoftmax

so = ctypes.CDLL(sys.argv[1])
so.stage_launch.argtypes = [ctypes.c_int] * 3 + [ctypes.c_void_p] * 2 + [ctypes.c_int] * 2 + [ctypes.c_int64] * 2 + [ctypes.c_void_p]
lib = HipSoftmax(sys.argv[2])
m, n = 4096, 12344
for xs, stage, np_, b in ((n, 0, 6, 544), (n + 1, 1, 4, 800)):
    xb, yb = torch.randn(m, xs, device="cuda"), torch.empty(m, n, device="cuda")
    p = lib.problem(torch.float32, m, n, x_row_stride=xs, y_row_stride=n)
    for _ in range(3):
        lib.forward(p, xb, yb)
    for _ in range(3):
        so.stage_launch(np_, stage, b, xb.data_ptr(), yb.data_ptr(), m, n, xs, n, torch.cuda.current_stream().cuda_stream)
    torch.cuda.synchronize()
