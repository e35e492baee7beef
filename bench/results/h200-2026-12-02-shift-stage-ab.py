# Run as: python3 THIS NAME=LIB.so[@KERNEL] NAME=LIB.so ... -- CASE... from the repository root (CASE:
# [DT:]M:N:XS:YS[:log], an M x N softmax of dtype DT (f32, fp16 or bf16; f32 where not given) with x's
# rows XS elements apart and y's YS, a log-softmax with `:log` (since 12-02's stage16 commands); a
# provider that cannot serve a case prints nan there). Each case:
# every library given (the kernel its plan launches) and a copy of an M x N tensor of the dtype,
# kernel time (bench/kernel_timer.py: three rounds of 60 launches, each after the L2 flush, every
# provider on buffer sets in turn); the first library's time over each other's, and the copy's time
# over each provider's.
import sys
sys.path.insert(0, "bench")
import torch
from hsm_ctypes import HipSoftmax
from kernel_timer import buffer_sets, in_turn, rounds

cut = sys.argv.index("--")
libs = {}
for a in sys.argv[1:cut]:
    k, p = a.split("=", 1)
    p, _, kern = p.partition("@")
    libs[k] = HipSoftmax(p)
    if kern:  # LIB@KERNEL: that library with the kernel forced (hipsoftmax_set_kernel)
        libs[k].check(libs[k].lib.hipsoftmax_set_kernel(libs[k].handle, kern.encode()))
first = next(iter(libs))
print(f"| case | {' | '.join(libs)} | copy | {' | '.join(f'{first} / {k}' for k in list(libs)[1:])} | "
      f"copy / {' | copy / '.join(libs)} | kernels |")
print("|---|" + "---:|" * (2 * len(libs) + len(libs)) + "---|")
for case in sys.argv[cut + 1:]:
    f = case.split(":")
    log = f[-1] == "log"
    f = f[:-1] if log else f
    d, m, n, xs, ys = f if len(f) == 5 else ["f32"] + f
    dt = {"f32": torch.float32, "fp16": torch.float16, "f16": torch.float16, "bf16": torch.bfloat16}[d]
    m, n, xs, ys = int(m), int(n), int(xs), int(ys)
    es = torch.tensor([], dtype=dt).element_size()
    torch.manual_seed(0)
    sets = buffer_sets((torch.randn(m, xs, device="cuda", dtype=dt), torch.empty(m, ys, device="cuda", dtype=dt)), 2 * es * m * n)
    prov = {}
    for k, h in libs.items():
        p = h.problem(dt, m, n, x_row_stride=xs, y_row_stride=ys, algorithm=201 if log else 200)
        try:
            h.forward(p, *sets[0])
        except RuntimeError:
            continue
        prov[k] = in_turn(lambda xb, yb, h=h, p=p: h.forward(p, xb, yb), sets)
    dense = buffer_sets((torch.randn(m, n, device="cuda", dtype=dt), torch.empty(m, n, device="cuda", dtype=dt)), 2 * es * m * n)
    prov["copy"] = in_turn(lambda a, o: o.copy_(a), dense)
    res = rounds(prov)
    us = {k: t for k, (t, _) in res.items()}
    for k in libs:
        if k not in us:
            us[k] = float("nan")
            res[k] = (float("nan"), "-")
    print(f"| {'' if len(f) == 4 else d + ' '}{m}x{n} xs {xs} ys {ys}{' log' if log else ''} | " + " | ".join(f"{us[k]:.2f}" for k in libs) + f" | {us['copy']:.2f} | " +
          " | ".join(f"{us[first] / us[k]:.3f}" for k in list(libs)[1:]) + " | " +
          " | ".join(f"{us['copy'] / us[k]:.3f}" for k in libs) + " | " +
          ", ".join(f"`{res[k][1][:40]}`" for k in libs) + " |", flush=True)
