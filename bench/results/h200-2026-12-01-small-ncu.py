# Run as: ncu --profile-from-start off ... python3 THIS LIB.so CASE... from the repository root (CASE:
# DTYPE:MxN, DTYPE fp32, fp16 or bf16). For each case, one launch of the library's plan and one of
# torch.compile's kernel for the shape (each warmed up first), between cudaProfilerStart and Stop, for
# Nsight Compute to profile side by side (issue 14's small problems and the shapes level with an
# anchor).
import sys
sys.path.insert(0, "bench")
import torch
from hsm_ctypes import HipSoftmax, TORCH_DTYPES, case_tensors, parse_case
from torch_anchor import OPS, for_shape

lib = HipSoftmax(sys.argv[1])
work = []
for case in sys.argv[2:]:
    d, m, n, _ = parse_case(case)
    dt = TORCH_DTYPES[d]
    x, _, _, out = case_tensors(dt, m, n, "softmax")
    p = lib.problem(dt, m, n)
    tc = for_shape(OPS["softmax"])
    for _ in range(3):
        lib.forward(p, x, out)
        tc(x)
    work.append((p, x, out, tc))
torch.cuda.synchronize()
torch.cuda.profiler.start()
for p, x, out, tc in work:
    lib.forward(p, x, out)
    tc(x)
torch.cuda.synchronize()
torch.cuda.profiler.stop()
