# Run as: python3 THIS HW.so LIB.so CASE... from the repository root, HW.so built from
# h200-2026-12-01-held-wide-bwd.cu (nvcc -arch=sm_90 -O3 -shared -Xcompiler -fPIC), LIB.so the library.
# Kernel time of the held-layout softmax backward variants (NP packs a thread x B threads / MINB
# blocks a SM) against the library's plan, torch.compile and a copy of x's bytes, buffer sets in turn
# (bench/kernel_timer.py), two runs of three rounds; each output checked against torch.compile's.
import ctypes, sys
sys.path.insert(0, "bench")
import torch
from hsm_ctypes import TORCH_DTYPES, HipSoftmax, case_tensors, parse_case
from kernel_timer import buffer_sets, in_turn, rounds
from torch_anchor import OPS, for_shape

hw = ctypes.CDLL(sys.argv[1])
hw.hw_launch.argtypes = [ctypes.c_int] * 2 + [ctypes.c_void_p] * 3 + [ctypes.c_int] * 2 + [ctypes.c_void_p]
lib = HipSoftmax(sys.argv[2])
NAMES = {i: s for i, s in enumerate("1x1024/2 2x1024/2 2x1024/1 4x512/3 4x512/2 8x256/4 4x1024/1 1x512/4 2x512/4 "
                                     "2x512/3 2x256/4 2x256/5 4x256/4 4x256/3 8x512/2 1x256/8 1x256/6 16x256/2".split())}
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
            return hw.hw_launch(code, v, y.data_ptr(), dy.data_ptr(), o.data_ptr(), m, n,
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
