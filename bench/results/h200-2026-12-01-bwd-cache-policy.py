# Run as: python3 THIS CP.so LIB.so CASE... from the repository root, CP.so built from
# h200-2026-12-01-bwd-cache-policy.cu (nvcc -arch=sm_90 -O3 -shared -Xcompiler -fPIC), LIB.so the
# library. Kernel time of the held softmax backward under each load policy (L = last: L2 evict_last,
# the library's; p: plain; f: L2 evict_first; n: L1 no_allocate + L2 evict_last) and store policy
# (p: plain, the library's; cs: streaming; L: L2 evict_last; f: L2 evict_first; n: L1 no_allocate),
# against the library's plan, torch.compile and a copy of x's bytes, buffer sets in turn
# (bench/kernel_timer.py), two runs of three rounds; each output checked against torch.compile's.
import ctypes, sys
sys.path.insert(0, "bench")
import torch
from hsm_ctypes import TORCH_DTYPES, HipSoftmax, case_tensors, parse_case
from kernel_timer import buffer_sets, in_turn, rounds
from torch_anchor import OPS, for_shape

cp = ctypes.CDLL(sys.argv[1])
cp.cp_launch.argtypes = [ctypes.c_int] * 2 + [ctypes.c_void_p] * 3 + [ctypes.c_int] * 2 + [ctypes.c_void_p]
lib = HipSoftmax(sys.argv[2])
NAMES = {5 * lp + sp: f"ld{l}/st{s}" for lp, l in enumerate("L p f n".split())
         for sp, s in enumerate("p cs L f n".split())}
print("| case | run | tc | lib | copy | lib: tc/it | ldL/stp (the library's policies): tc/it | variants: us (tc/it), fastest first |\n"
      "|---|---|---|---|---|---|---|---|")
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
            return cp.cp_launch(code, v, y.data_ptr(), dy.data_ptr(), o.data_ptr(), m, n,
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
        print(f"| {case} | {run} | {us['tc']:.2f} | {us['lib']:.2f} | {us['copy']:.2f} | {us['tc'] / us['lib']:.3f} | "
              f"{us['tc'] / us['ldL/stp']:.3f} | " +
              ", ".join(f"{k} {us[k]:.2f} ({us['tc'] / us[k]:.3f})" for k in lv) + " |", flush=True)
