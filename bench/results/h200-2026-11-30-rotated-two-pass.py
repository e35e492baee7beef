# Experiment of h200-2026-11-30-rotated.md (command 7): python3 THIS LIB.so TP.so CASE... from the repository root,
# TP.so built from h200-2026-11-30-rotated-two-pass.cu (nvcc -arch=sm_90 -O3 -shared -Xcompiler -fPIC).
# The library's plan, torch.compile, a copy and the two-pass variants (.cu), every provider on buffer sets in
# turn, 3 rounds of 60 launches each after the L2 flush.
import ctypes, sys
sys.path.insert(0, "bench")
import torch
from hsm_ctypes import HipSoftmax, TORCH_DTYPES, case_tensors, parse_case
from kernel_timer import buffer_sets, in_turn, rounds
from torch_anchor import OPS, for_shape

lib = HipSoftmax(sys.argv[1])
tp = ctypes.CDLL(sys.argv[2])
tp.tp_launch.argtypes = [ctypes.c_int] * 4 + [ctypes.c_void_p] * 3 + [ctypes.c_int] * 2 + [ctypes.c_void_p]
print("| case | plan | tc | copy | variants: us (tc/it) |\n|---|---|---|---|---|")
for case in sys.argv[3:]:
    d, m, n, op = parse_case(case)
    dt = TORCH_DTYPES[d]
    x, y, dy, out = case_tensors(dt, m, n, op)
    sets = buffer_sets((x, y, dy, out), 3 * x.numel() * x.element_size())
    p = lib.problem(dt, m, n)
    tc = for_shape(OPS[op])
    want = tc(y, dy).float()
    prov = {"plan": in_turn(lambda x, y, dy, o: lib.backward(p, y, dy, o), sets),
            "tc": in_turn(lambda x, y, dy, o: tc(y, dy), sets),
            "copy": in_turn(lambda x, y, dy, o: o.copy_(x), sets)}
    for b in (512, 1024):
        for e in (4, 8):
            for h1, h2 in ((0, 0), (1, 2)):
                def call(x, y, dy, o, b=b, e=e, h1=h1, h2=h2):
                    return tp.tp_launch(b, e, h1, h2, y.data_ptr(), dy.data_ptr(), o.data_ptr(), m, n,
                                        torch.cuda.current_stream().cuda_stream)
                o = torch.empty_like(x)
                if call(x, y, dy, o) != 0:
                    print("launch failed", b, e, h1, h2)
                    continue
                torch.cuda.synchronize()
                err = (o.float() - want).abs().max().item()
                if err > 3e-2 * max(1.0, want.abs().max().item()):
                    print("MISMATCH", case, b, e, h1, h2, err)
                prov[f"B{b}E{e}H{h1}{h2}"] = in_turn(call, sets)
    res = rounds(prov)
    us = {k: t for k, (t, _) in res.items()}
    lv = sorted((k for k in us if k.startswith("B")), key=lambda k: us[k])
    print(f"| {case} | {us['plan']:.2f} ({res['plan'][1]}) | {us['tc']:.2f} | {us['copy']:.2f} | " +
          ", ".join(f"{k} {us[k]:.2f} ({us['tc'] / us[k]:.3f})" for k in lv) + " |", flush=True)
