# Command 4 of h200-2026-11-30-branchless-packed-bwd.md: python3 THIS OCC.so LIBHIPSOFTMAX.so CASE...
# from the repository root, OCC.so built from h200-2026-11-30-packed-bwd-occupancy.cu (nvcc
# -arch=sm_90 -O3 -shared -Xcompiler -fPIC). The bisection's kernels F0 (lean) and F15 (all but the
# argument block) on a persistent grid of SMs x cap blocks (c0: a block a row), the shared memory
# carveout left to the driver (v-1) or set (v0: the most L1; v100: the most shared memory), against
# the library and torch.compile, buffer sets in turn; F100: the bisection's F0 as built there (one
# kernel: 60 registers). [n]: the blocks a SM the registers allow.
import ctypes, sys
sys.path.insert(0, "bench")
import torch
from hsm_ctypes import TORCH_DTYPES, HipSoftmax, case_tensors, parse_case
from kernel_timer import buffer_sets, in_turn, rounds
from torch_anchor import OPS, for_shape

occ = ctypes.CDLL(sys.argv[1])
occ.occ_launch.argtypes = [ctypes.c_int] * 3 + [ctypes.c_void_p] * 3 + [ctypes.c_int] * 2 + [ctypes.c_void_p] * 2
lib = HipSoftmax(sys.argv[2])
print("| case | tc | lib | copy | variants: us (tc/it) [blocks a SM] |\n|---|---|---|---|---|")
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
    blocks = {}
    for f, cap, cv in [(f, c, -1) for f in (0, 15) for c in (0, 2, 3, 4, 5, 6, 8)] + [(f, 0, v) for f in (0, 15) for v in (0, 100)] + [(100, 0, -1)]:
            def call(x, y, dy, o, f=f, cap=cap, cv=cv):
                return occ.occ_launch(f, cap, cv, y.data_ptr(), dy.data_ptr(), o.data_ptr(), m, n,
                                      torch.cuda.current_stream().cuda_stream, None)
            o = torch.empty_like(x)
            b = ctypes.c_int(0)
            if occ.occ_launch(f, cap, cv, y.data_ptr(), dy.data_ptr(), o.data_ptr(), m, n,
                              torch.cuda.current_stream().cuda_stream, ctypes.byref(b)) != 0:
                print("refused", case, f, cap, cv)
                continue
            torch.cuda.synchronize()
            err = (o.float() - want).abs().max().item()
            if err > 3e-2 * max(1.0, want.abs().max().item()):
                print("MISMATCH", case, f, cap, cv, err)
            k = f"F{f}c{cap}v{cv}"
            blocks[k] = b.value
            prov[k] = in_turn(call, sets)
    res = rounds(prov)
    us = {k: t for k, (t, _) in res.items()}
    lv = sorted((k for k in us if k not in ("tc", "copy", "lib")), key=lambda k: us[k])
    print(f"| {case} | {us['tc']:.2f} | {us['lib']:.2f} ({us['tc'] / us['lib']:.3f}) | {us['copy']:.2f} | " +
          ", ".join(f"{k} {us[k]:.2f} ({us['tc'] / us[k]:.3f}) [{blocks[k]}]" for k in lv) + " |", flush=True)
