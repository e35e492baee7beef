# Run as: python3 bench/results/h200-2026-11-30-warp-packed-bwd-probe.py (from the repository root)
"""Why torch.compile's bf16 4096 x 1024 backward kernel reads 6.8 us in one script and 8.2 in another:
the same compiled kernel timed with its inputs and output at other addresses, after idling, and its
input values."""
import sys, time
sys.path.insert(0, "bench")
import torch
from kernel_timer import kernel_us
from torch_anchor import OPS, for_shape

dt = torch.bfloat16
m, n = 4096, 1024


def mk(seed, kind="softmax"):
    torch.manual_seed(seed)
    x = torch.randn(m, n, device="cuda", dtype=dt)
    y = torch.softmax(x.float(), -1).to(dt) if kind == "softmax" else torch.rand_like(x)
    return x, y, torch.randn_like(x)


x, y, dy = mk(0)
tc = for_shape(OPS["bwd"])
tc(y, dy)


def t(label, yy, dd):
    out = tc(yy, dd)
    us = kernel_us(lambda: tc(yy, dd))[0]
    print(f"{label:28s} {us:7.2f} us  y%4096={yy.data_ptr() % 4096:5d} y>>20={yy.data_ptr() >> 20:8d} "
          f"dy>>20={dd.data_ptr() >> 20:8d} out>>20={out.data_ptr() >> 20:8d} out%2M={out.data_ptr() % (1 << 21)}",
          flush=True)


for i in range(3):
    t(f"base {i}", y, dy)
for pad in (1, 2, 3, 5, 8, 13):
    d = torch.empty(pad << 20, dtype=torch.uint8, device="cuda")
    t(f"out after a {pad} MB block", y, dy)
    del d
for s in range(4):
    _, y2, dy2 = mk(s + 1)
    t(f"new inputs {s}", y2, dy2)
_, y3, dy3 = mk(9, "rand")
t("y uniform [0,1)", y3, dy3)
time.sleep(2)
t("after 2 s idle", y, dy)
big = torch.empty(1 << 28, dtype=torch.float32, device="cuda")
big2 = torch.empty_like(big)
print("copy 1 GiB us", kernel_us(lambda: big2.copy_(big))[0])
for i in range(2):
    t(f"base again {i}", y, dy)
