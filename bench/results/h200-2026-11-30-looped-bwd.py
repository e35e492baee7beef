# Run as: python3 THIS LP.so CASE... from the repository root, LP.so built from
# h200-2026-11-30-looped-bwd.cu (nvcc -arch=sm_90 -O3 -shared -Xcompiler -fPIC). Kernel time of the
# looped and held bf16 backward kernels against torch.compile and a copy of x's bytes, buffer sets in
# turn (bench/kernel_timer.py), each output checked against torch.compile's.
import ctypes, sys
sys.path.insert(0, "bench")
import torch
from hsm_ctypes import TORCH_DTYPES, case_tensors, parse_case
from kernel_timer import buffer_sets, in_turn, rounds
from torch_anchor import OPS, for_shape

lp = ctypes.CDLL(sys.argv[1])
lp.lp_launch.argtypes = [ctypes.c_int] + [ctypes.c_void_p] * 3 + [ctypes.c_int] * 2 + [ctypes.c_void_p]
NAMES = {0: "held", 1: "looped256", 2: "looped512", 3: "looped1024", 4: "looped256p", 5: "looped512p",
         6: "looped1024p"}
print("| case | tc | copy | variants: us (tc/it) |\n|---|---|---|---|")
for case in sys.argv[2:]:
    d, m, n, op = parse_case(case)
    dt = TORCH_DTYPES[d]
    x, y, dy, out = case_tensors(dt, m, n, op)
    sets = buffer_sets((x, y, dy, out), 3 * x.numel() * x.element_size())
    tc = for_shape(OPS[op])
    want = tc(y, dy).float()
    prov = {"tc": in_turn(lambda x, y, dy, o: tc(y, dy), sets), "copy": in_turn(lambda x, y, dy, o: o.copy_(x), sets)}
    for v, name in NAMES.items():
        def call(x, y, dy, o, v=v):
            return lp.lp_launch(v, y.data_ptr(), dy.data_ptr(), o.data_ptr(), m, n, torch.cuda.current_stream().cuda_stream)
        o = torch.empty_like(x)
        if call(x, y, dy, o) != 0:
            continue
        torch.cuda.synchronize()
        err = (o.float() - want).abs().max().item()
        if err > 3e-2 * max(1.0, want.abs().max().item()):
            print("MISMATCH", case, name, err)
        prov[name] = in_turn(call, sets)
    us = {k: t for k, (t, _) in rounds(prov).items()}
    lv = sorted((k for k in us if k not in ("tc", "copy")), key=lambda k: us[k])
    print(f"| {case} | {us['tc']:.2f} | {us['copy']:.2f} | " +
          ", ".join(f"{k} {us[k]:.2f} ({us['tc'] / us[k]:.3f})" for k in lv) + " |", flush=True)
