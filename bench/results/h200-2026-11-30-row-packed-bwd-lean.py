# Command 8 of h200-2026-11-30-row-packed-bwd.md: python3 THIS LEAN.so CASE... from the repository root,
# LEAN.so built from h200-2026-11-30-row-packed-bwd-lean.cu (nvcc -arch=sm_90 -O3 -shared -Xcompiler -fPIC).
import ctypes, sys
sys.path.insert(0, "bench")
import torch
from hsm_ctypes import TORCH_DTYPES, case_tensors, parse_case
from kernel_timer import buffer_sets, in_turn, rounds
from torch_anchor import OPS, for_shape

lean = ctypes.CDLL(sys.argv[1])
lean.lean_launch.argtypes = [ctypes.c_int] * 4 + [ctypes.c_void_p] * 3 + [ctypes.c_int] * 2 + [ctypes.c_void_p]
print("| case | tc | copy | variants: us (tc/it) |\n|---|---|---|---|")
for case in sys.argv[2:]:
    d, m, n, op = parse_case(case)
    dt = TORCH_DTYPES[d]
    bf = 1 if dt == torch.bfloat16 else 0
    x, y, dy, out = case_tensors(dt, m, n, op)
    sets = buffer_sets((x, y, dy, out), 3 * x.numel() * x.element_size())
    tc = for_shape(OPS[op])
    want = tc(y, dy).float()
    prov = {"tc": in_turn(lambda x, y, dy, o: tc(y, dy), sets), "copy": in_turn(lambda x, y, dy, o: o.copy_(x), sets)}
    for np_, h, s in [(0, 0, 0)] + [(k, h, s) for k in (1, 2, 4, 8) for h, s in ((1, 1), (1, 0), (0, 0))]:
        def call(x, y, dy, o, np_=np_, h=h, s=s):
            return lean.lean_launch(bf, np_, h, s, y.data_ptr(), dy.data_ptr(), o.data_ptr(), m, n,
                                    torch.cuda.current_stream().cuda_stream)
        o = torch.empty_like(x)
        if call(x, y, dy, o) != 0:
            continue
        torch.cuda.synchronize()
        err = (o.float() - want).abs().max().item()
        if err > (3e-2 if bf else 1e-4) * max(1.0, want.abs().max().item()):
            print("MISMATCH", case, np_, h, s, err)
        prov["tp512" if np_ == 0 else f"NP{np_}H{h}S{s}"] = in_turn(call, sets)
    res = rounds(prov)
    us = {k: t for k, (t, _) in res.items()}
    lv = sorted((k for k in us if k not in ("tc", "copy")), key=lambda k: us[k])
    print(f"| {case} | {us['tc']:.2f} | {us['copy']:.2f} | " +
          ", ".join(f"{k} {us[k]:.2f} ({us['tc'] / us[k]:.3f})" for k in lv) + " |", flush=True)
