# Command 2 of h200-2026-11-30-warp-packed-bwd.md: python3 THIS LIB.so EXPERIMENT.so CASE... from the repository root,
# EXPERIMENT.so built from h200-2026-11-30-warp-packed-bwd-experiment.cu (nvcc -arch=sm_90 -O3 -shared -Xcompiler -fPIC).
# As run, with its inputs since built by bench/hsm_ctypes.py's case_tensors (the same tensors).
"""Kernel time: the library's plan, torch.compile, a copy, and the lean warp-a-row backward variants
(h200-2026-11-30-warp-packed-bwd-experiment.cu) on the same buffers, one process, 3 rounds in turn."""
import ctypes, sys
sys.path.insert(0, "bench")
import torch
from hsm_ctypes import ALGO_LOG, HipSoftmax, TORCH_DTYPES, case_tensors, parse_case
from kernel_timer import rounds
from torch_anchor import OPS, for_shape

lib = HipSoftmax(sys.argv[1])
lean = ctypes.CDLL(sys.argv[2])
lean.lean_launch.argtypes = [ctypes.c_int] * 3 + [ctypes.c_void_p] * 3 + [ctypes.c_int] * 4 + [ctypes.c_void_p]
print("| case | plan | tc | copy | " + " | ".join(["variant: us, tc/it"]) + " |")
for case in sys.argv[3:]:
    d, m, n, op = parse_case(case)
    dt = TORCH_DTYPES[d]
    x, y, dy, out = case_tensors(dt, m, n, op)
    p = lib.problem(dt, m, n, **({"algorithm": ALGO_LOG} if op == "logbwd" else {}))
    tc = for_shape(OPS[op])
    want = tc(y, dy).float()
    prov = {"plan": lambda: lib.backward(p, y, dy, out), "tc": lambda: tc(y, dy), "copy": lambda: out.copy_(x)}
    e = 8 if dt == torch.bfloat16 else 4
    np_ = n // (32 * e)
    log = 1 if op == "logbwd" else 0
    for r in (1, 2, 4, 8):
        for hint in (0, 2):
            for cs in (0, 4):
                var = log | hint | cs
                o = torch.empty_like(x)

                def call(r=r, var=var, o=o):
                    return lean.lean_launch(0 if dt == torch.float32 else 2, np_, r, y.data_ptr(), dy.data_ptr(),
                                            o.data_ptr(), m, n, n, var, torch.cuda.current_stream().cuda_stream)
                if call() != 0:
                    continue
                torch.cuda.synchronize()
                err = (o.float() - want).abs().max().item()
                tol = (1e-4 if dt == torch.float32 else 3e-2) * max(1.0, want.abs().max().item())
                name = f"R{r}{'_last' if hint else ''}{'_cs' if cs else ''}"
                if err > tol:
                    print("MISMATCH", case, name, err)
                prov[name] = call
    res = rounds(prov)
    us = {k: t for k, (t, _) in res.items()}
    lv = sorted((k for k in us if k.startswith("R")), key=lambda k: us[k])
    print(f"| {case} | {us['plan']:.2f} ({res['plan'][1]}) | {us['tc']:.2f} | {us['copy']:.2f} | " +
          ", ".join(f"{k} {us[k]:.2f} ({us['tc'] / us[k]:.3f})" for k in lv) + " |", flush=True)
