# Command 5 of h200-2026-11-30-packed-bwd-stores.md: python3 THIS BIS.so LIBHIPSOFTMAX.so CASE... from the
# repository root, BIS.so built from h200-2026-11-30-packed-bwd-bisect.cu (nvcc -arch=sm_90 -O3 -shared
# -Xcompiler -fPIC).
import ctypes, sys
sys.path.insert(0, "bench")
import torch
from hsm_ctypes import TORCH_DTYPES, HipSoftmax, case_tensors, parse_case
from kernel_timer import buffer_sets, in_turn, rounds
from torch_anchor import OPS, for_shape

bis = ctypes.CDLL(sys.argv[1])
bis.bis_launch.argtypes = [ctypes.c_int] + [ctypes.c_void_p] * 3 + [ctypes.c_int] * 2 + [ctypes.c_void_p]
lib = HipSoftmax(sys.argv[2])
print("| case | tc | lib | copy | variants: us (tc/it) |\n|---|---|---|---|---|")
for case in sys.argv[3:]:
    d, m, n, op = parse_case(case)
    dt = TORCH_DTYPES[d]
    x, y, dy, out = case_tensors(dt, m, n, op)
    sets = buffer_sets((x, y, dy, out), 3 * x.numel() * x.element_size())
    tc = for_shape(OPS[op])
    want = tc(y, dy).float()
    p = lib.problem(dt, m, n)
    prov = {"tc": in_turn(lambda x, y, dy, o: tc(y, dy), sets), "copy": in_turn(lambda x, y, dy, o: o.copy_(x), sets),
            "lib": in_turn(lambda x, y, dy, o: lib.backward(p, y, dy, o), sets)}
    for f in (0, 1, 2, 4, 8, 16, 15, 31):
        def call(x, y, dy, o, f=f):
            return bis.bis_launch(f, y.data_ptr(), dy.data_ptr(), o.data_ptr(), m, n, torch.cuda.current_stream().cuda_stream)
        o = torch.empty_like(x)
        if call(x, y, dy, o) != 0:
            print("refused", case, f)
            continue
        torch.cuda.synchronize()
        err = (o.float() - want).abs().max().item()
        if err > 3e-2 * max(1.0, want.abs().max().item()):
            print("MISMATCH", case, f, err)
        prov[f"F{f}"] = in_turn(call, sets)
    res = rounds(prov)
    us = {k: t for k, (t, _) in res.items()}
    lv = sorted((k for k in us if k not in ("tc", "copy", "lib")), key=lambda k: us[k])
    print(f"| {case} | {us['tc']:.2f} | {us['lib']:.2f} ({us['tc'] / us['lib']:.3f}) | {us['copy']:.2f} | " +
          ", ".join(f"{k} {us[k]:.2f} ({us['tc'] / us[k]:.3f})" for k in lv) + " |", flush=True)
