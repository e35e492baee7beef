# Run as: python3 THIS BB.so LIB.so CASE... from the repository root, BB.so built from
# h200-2026-12-01-bulk-bwd.cu (nvcc -arch=sm_90 -O3 -shared -Xcompiler -fPIC), LIB.so the library.
# Kernel time of the bulk-copy softmax backward variants against the library's plan, torch.compile and
# a copy of x's bytes, buffer sets in turn (bench/kernel_timer.py), two runs of three rounds; each
# output checked against torch.compile's.
import ctypes, sys
sys.path.insert(0, "bench")
import torch
from hsm_ctypes import TORCH_DTYPES, HipSoftmax, case_tensors, parse_case
from kernel_timer import buffer_sets, in_turn, rounds
from torch_anchor import OPS, for_shape

bb = ctypes.CDLL(sys.argv[1])
bb.bb_launch.argtypes = [ctypes.c_int] * 2 + [ctypes.c_void_p] * 3 + [ctypes.c_int] * 2 + [ctypes.c_void_p]
lib = HipSoftmax(sys.argv[2])
NAMES = {0: "one128", 1: "one256", 2: "one512", 3: "one1024", 4: "oneS256", 5: "oneS512", 6: "ring256x2",
         7: "ring256x3", 8: "ring512x2", 9: "ring512x3", 10: "ring1024x2", 11: "ring128x3"}
print("| case | run | tc | lib | copy | lib: tc/it | variants: us (tc/it), fastest first |\n|---|---|---|---|---|---|---|")
for case in sys.argv[3:]:
    d, m, n, op = parse_case(case)
    dt = TORCH_DTYPES[d]
    x, y, dy, out = case_tensors(dt, m, n, op)
    sets = buffer_sets((x, y, dy, out), 3 * x.numel() * x.element_size())
    tc = for_shape(OPS[op])
    want = tc(y, dy).float()
    p = lib.problem(dt, m, n)
    prov = {"tc": in_turn(lambda x, y, dy, o: tc(y, dy), sets),
            "lib": in_turn(lambda x, y, dy, o: lib.backward(p, y, dy, o), sets),
            "copy": in_turn(lambda x, y, dy, o: o.copy_(x), sets)}
    code = 0 if dt == torch.float32 else 2
    for v, name in NAMES.items():
        def call(x, y, dy, o, v=v):
            return bb.bb_launch(code, v, y.data_ptr(), dy.data_ptr(), o.data_ptr(), m, n,
                                torch.cuda.current_stream().cuda_stream)
        o = torch.full_like(x, float("nan"))
        if call(x, y, dy, o) != 0:
            continue
        torch.cuda.synchronize()
        err = (o.float() - want).abs().max().item()
        if not err <= 3e-2 * max(1.0, want.abs().max().item()):
            print("MISMATCH", case, name, err, flush=True)
            continue
        prov[name] = in_turn(call, sets)
    for run in (1, 2):
        us = {k: t for k, (t, _) in rounds(prov).items()}
        lv = sorted((k for k in us if k not in ("tc", "copy", "lib")), key=lambda k: us[k])
        print(f"| {case} | {run} | {us['tc']:.2f} | {us['lib']:.2f} | {us['copy']:.2f} | {us['tc'] / us['lib']:.3f} | " +
              ", ".join(f"{k} {us[k]:.2f} ({us['tc'] / us[k]:.3f})" for k in lv) + " |", flush=True)
