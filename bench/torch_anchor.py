"""torch.compile as an anchor: the kernels Inductor makes for one shape.

A function compiled once and called on several shapes is recompiled with symbolic sizes from the
second shape on (automatic dynamic shapes); those kernels ran 1.0-2.8x slower than the ones compiled
for the shape, bf16 softmax 4096 x 1024 15.4 against 5.5 us on an H200
(bench/results/h200-2026-11-29-anchor-kernel-time.md). dynamo keeps compiled code per code object,
so each anchor compiles a copy of the function with a code object of its own."""
import itertools
import types

import torch

_serial = itertools.count()

# The ops over the last dimension as torch code, for torch.compile to fuse: forward f(x), backward
# f(y, dy) (y the forward's output).
OPS = {"softmax": lambda t: torch.softmax(t, dim=-1), "log": lambda t: torch.log_softmax(t, dim=-1),
       "bwd": lambda y, dy: y * (dy - (dy * y).sum(-1, keepdim=True)),
       "logbwd": lambda y, dy: dy - torch.exp(y) * dy.sum(-1, keepdim=True)}


def for_shape(fn):
    """torch.compile(fn, dynamic=False) on a copy of fn with its own code object (its closure and
    defaults kept): call the result on one shape and dtype."""
    code = fn.__code__.replace(co_name=f"anchor_{next(_serial)}")
    own = types.FunctionType(code, fn.__globals__, code.co_name, fn.__defaults__, fn.__closure__)
    return torch.compile(own, dynamic=False)
