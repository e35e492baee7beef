# Run as: ncu ... python3 THIS ABL.so LIB.so CASE... from the repository root (ABL.so built from
# h200-2026-12-01-decode-ablate.cu): for each fp32:MxN case, one launch of the library's plan (the held
# kernel, hsm_split_f32_held) and one of each ablation variant named in VARIANTS, for Nsight Compute to
# profile side by side (its kernel filter picks them; each launch warmed up once before).
import ctypes, sys
sys.path.insert(0, "bench")
import torch
from hsm_ctypes import HipSoftmax, parse_case

abl = ctypes.CDLL(sys.argv[1])
abl.decode_launch.argtypes = [ctypes.c_int] + [ctypes.c_void_p] * 2 + [ctypes.c_int] * 2 + [ctypes.c_void_p] * 3
lib = HipSoftmax(sys.argv[2])
VARIANTS = (0, 3, 15)  # plain, bar+coop, bar+coop+lb+onebar
for case in sys.argv[3:]:
    _, m, n, _ = parse_case(case)
    torch.manual_seed(0)
    x = torch.randn(m, n, device="cuda", dtype=torch.float32)
    y = torch.empty_like(x)
    p = lib.problem(torch.float32, m, n)
    g, r = ctypes.c_int(0), ctypes.c_int(0)
    for _ in range(2):
        lib.forward(p, x, y)
        for v in VARIANTS:
            abl.decode_launch(v, x.data_ptr(), y.data_ptr(), m, n, torch.cuda.current_stream().cuda_stream,
                              ctypes.byref(g), ctypes.byref(r))
    torch.cuda.synchronize()
