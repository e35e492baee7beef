# Experiment: ROW's backward kernels with the blocks a SM capped by dynamic shared memory in a small
# shared-memory carveout (most of the SM's 256 KB left to L1). python3 THIS OLD.so NEW.so CASE... (H200 command: bench/results/h200-2026-11-30-bwd-carveout.md)
# from the repository root; NEW built with h200-2026-11-30-bwd-carveout.patch (HSM_X_KERN / HSM_X_CV / HSM_X_SMEM
# read at each launch of a matching ROW kernel). Variants: name -> (carveout %, extra dynamic bytes).
import os, sys
sys.path.insert(0, "bench")
import torch
from hsm_ctypes import ALGO_LOG, TORCH_DTYPES, HipSoftmax, case_tensors, parse_case
from kernel_timer import buffer_sets, in_turn, rounds
from torch_anchor import OPS, for_shape

VARIANTS = {"n": (-1, 0), "cv0": (0, 0), "c8k4": (3, 896), "c8k3": (3, 1408), "c16k4": (7, 2944),
            "c32k4": (14, 7040), "c16b2k": (7, 896), "c16b2.5k": (7, 1408)}
old, new = HipSoftmax(sys.argv[1]), HipSoftmax(sys.argv[2])
os.environ["HSM_X_KERN"] = "_bwd"
hdr = ["tc", "copy", "old"] + list(VARIANTS)
print("| case | " + " | ".join(hdr) + " | best/old | tc/best |\n|" + "---|" * (len(hdr) + 3))
for case in sys.argv[3:]:
    d, m, n, op = parse_case(case)
    dt = TORCH_DTYPES[d]
    x, y, dy, out = case_tensors(dt, m, n, op)
    sets = buffer_sets((x, y, dy, out), 3 * x.numel() * x.element_size())
    tc = for_shape(OPS[op])
    fields = {"algorithm": ALGO_LOG} if op == "logbwd" else {}
    po, pn = old.problem(dt, m, n, **fields), new.problem(dt, m, n, **fields)
    ref = old.backward(po, y, dy, torch.empty_like(x)).clone()
    prov = {"tc": in_turn(lambda x, y, dy, o: tc(y, dy), sets),
            "copy": in_turn(lambda x, y, dy, o: o.copy_(x), sets),
            "old": in_turn(lambda x, y, dy, o: old.backward(po, y, dy, o), sets)}
    for k, (cv, sm) in VARIANTS.items():
        def call(x, y, dy, o, cv=cv, sm=sm):
            os.environ["HSM_X_CV"], os.environ["HSM_X_SMEM"] = str(cv), str(sm)
            new.backward(pn, y, dy, o)
        o = torch.empty_like(x)
        call(x, y, dy, o)
        torch.cuda.synchronize()
        if not torch.equal(o, ref):
            print("MISMATCH", case, k)
        prov[k] = in_turn(call, sets)
    res = rounds(prov)
    us = {k: t for k, (t, _) in res.items()}
    best = min(VARIANTS, key=lambda k: us[k])
    print(f"| {case} | " + " | ".join(f"{us[k]:.2f}" for k in hdr) +
          f" | {best} {us['old'] / us[best]:.3f} | {us['tc'] / us[best]:.3f} |", flush=True)
