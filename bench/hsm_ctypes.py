"""ctypes bindings shared by the comparison scripts: hipsoftmax's C API with the whole problem
descriptor, and cuDNN's legacy softmax (cudnnSoftmaxForward/Backward), both on torch's current stream."""
import ctypes
import glob
import os

import torch

F32, F16, BF16 = 150, 151, 152
DTYPES = {torch.float32: F32, torch.float16: F16, torch.bfloat16: BF16}
ALGO_SOFTMAX, ALGO_LOG = 200, 201
MODE_ROW, MODE_CHANNEL = 250, 251
MASK_NONE, MASK_ADDITIVE, MASK_CAUSAL, MASK_BOOL = 300, 301, 302, 303
FLAG_SAFE_ROWS = 1
# The dtypes as the scripts' DTYPE:MxN[:OP] arguments name them.
TORCH_DTYPES = {"fp32": torch.float32, "bf16": torch.bfloat16, "fp16": torch.float16}


def parse_case(arg):
    """(DTYPE name, rows, cols, OP or None) of a DTYPE:MxN[:OP] argument."""
    f = arg.split(":")
    m, n = f[1].split("x")
    return f[0], int(m), int(n), f[2] if len(f) > 2 else None


def case_tensors(dt, m, n, op):
    """x, y, dy and an output for an m x n case of op (seed 0): x and dy normal, y the softmax of x
    (log-softmax for log and logbwd) in dt, as a backward takes it."""
    torch.manual_seed(0)
    x = torch.randn(m, n, device="cuda", dtype=dt)
    y = (torch.log_softmax if op in ("log", "logbwd") else torch.softmax)(x.float(), -1).to(dt)
    return x, y, torch.randn_like(x), torch.empty_like(x)


class Problem(ctypes.Structure):
    """hipsoftmax_problem as of 0.2, statistics in included (fields are only ever appended: struct_size tells
    the library)."""
    _fields_ = [("struct_size", ctypes.c_size_t), ("algorithm", ctypes.c_int), ("mode", ctypes.c_int),
                ("x_dtype", ctypes.c_int), ("y_dtype", ctypes.c_int), ("rows", ctypes.c_int64),
                ("cols", ctypes.c_int64), ("x_row_stride", ctypes.c_int64), ("y_row_stride", ctypes.c_int64),
                ("inner", ctypes.c_int64), ("scale", ctypes.c_float), ("alpha", ctypes.c_float),
                ("beta", ctypes.c_float), ("mask", ctypes.c_int), ("mask_dtype", ctypes.c_int),
                ("mask_ptr", ctypes.c_void_p), ("mask_row_stride", ctypes.c_int64),
                ("causal_offset", ctypes.c_int64), ("flags", ctypes.c_uint), ("dy_dtype", ctypes.c_int),
                ("dy_row_stride", ctypes.c_int64), ("heads", ctypes.c_int64), ("queries", ctypes.c_int64),
                ("mask_batches", ctypes.c_int64), ("mask_rows", ctypes.c_int64),
                ("mask_batch_stride", ctypes.c_int64), ("stats", ctypes.c_void_p), ("stats_in", ctypes.c_void_p),
                ("stats_in_shards", ctypes.c_int64), ("stats_in_shard_stride", ctypes.c_int64)]


class HipSoftmax:
    """The C API; one handle, bound to torch's current stream at each call."""

    def __init__(self, path):
        self.lib = ctypes.CDLL(path)
        self.lib.hipsoftmax_status_string.restype = ctypes.c_char_p
        self.lib.hipsoftmax_problem_init_sized.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int,
                                                           ctypes.c_int64, ctypes.c_int64]
        self.lib.hipsoftmax_forward.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p]
        self.lib.hipsoftmax_backward.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p,
                                                 ctypes.c_void_p, ctypes.c_void_p]
        self.lib.hipsoftmax_softmax.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_int64, ctypes.c_int64,
                                                ctypes.c_void_p, ctypes.c_int64, ctypes.c_void_p, ctypes.c_int64]
        self.lib.hipsoftmax_set_stream.argtypes = [ctypes.c_void_p, ctypes.c_void_p]
        self.handle = ctypes.c_void_p()
        self.check(self.lib.hipsoftmax_create(ctypes.byref(self.handle)))

    def check(self, status):
        if status != 0:
            raise RuntimeError("hipsoftmax: " + self.lib.hipsoftmax_status_string(status).decode())

    def problem(self, dtype, rows, cols, **fields):
        p = Problem()
        self.check(self.lib.hipsoftmax_problem_init_sized(ctypes.byref(p), ctypes.sizeof(p), DTYPES[dtype], rows, cols))
        names = {f for f, _ in Problem._fields_}
        for k, v in fields.items():
            if k not in names:  # setattr would keep it on the Python object, unseen by the library
                raise AttributeError(f"hipsoftmax_problem has no field {k}")
            setattr(p, k, v)
        return p

    def _stream(self):
        self.check(self.lib.hipsoftmax_set_stream(self.handle, torch.cuda.current_stream().cuda_stream))

    def forward(self, p, x, y):
        self._stream()
        self.check(self.lib.hipsoftmax_forward(self.handle, ctypes.byref(p), x.data_ptr(), y.data_ptr()))
        return y

    def backward(self, p, y, dy, dx):
        self._stream()
        self.check(self.lib.hipsoftmax_backward(self.handle, ctypes.byref(p), y.data_ptr(), dy.data_ptr(),
                                                dx.data_ptr()))
        return dx

    def __call__(self, x, y):
        """The 0.1 shorthand: softmax over rows of a 2-D tensor."""
        self._stream()
        m, n = x.shape
        self.check(self.lib.hipsoftmax_softmax(self.handle, DTYPES[x.dtype], m, n, x.data_ptr(), x.stride(0),
                                               y.data_ptr(), y.stride(0)))
        return y


class CudnnSoftmax:
    """cuDNN's legacy softmax (ACCURATE or LOG; INSTANCE over each row, or CHANNEL over C of NCHW), the
    library torch ships (nvidia.cudnn). Raises OSError where there is none."""
    CUDNN_DT = {torch.float32: 0, torch.float16: 2, torch.bfloat16: 9}

    def __init__(self):
        import nvidia.cudnn
        libdir = os.path.join(list(nvidia.cudnn.__path__)[0], "lib")
        cands = sorted(glob.glob(os.path.join(libdir, "libcudnn.so*")))
        if not cands:
            raise OSError("no libcudnn in " + libdir)
        self.lib = ctypes.CDLL(cands[0])
        self.handle = ctypes.c_void_p()
        self._ok(self.lib.cudnnCreate(ctypes.byref(self.handle)), "cudnnCreate")
        self.descs = {}
        self.one, self.zero = ctypes.c_float(1.0), ctypes.c_float(0.0)

    def _ok(self, st, what):
        if st != 0:
            raise RuntimeError(f"{what}: cuDNN status {st}")

    def _desc(self, dtype, n, c, h, w):
        key = (dtype, n, c, h, w)
        if key not in self.descs:
            d = ctypes.c_void_p()
            self._ok(self.lib.cudnnCreateTensorDescriptor(ctypes.byref(d)), "cudnnCreateTensorDescriptor")
            self._ok(self.lib.cudnnSetTensor4dDescriptor(d, 0, self.CUDNN_DT[dtype], n, c, h, w),
                     "cudnnSetTensor4dDescriptor")
            self.descs[key] = d
        return self.descs[key]

    def forward(self, x, y, log=False, shape=None, channel=False):
        n, c, h, w = shape if shape else (x.shape[0], x.shape[1], 1, 1)
        self._ok(self.lib.cudnnSetStream(self.handle, ctypes.c_void_p(torch.cuda.current_stream().cuda_stream)),
                 "cudnnSetStream")
        d = self._desc(x.dtype, n, c, h, w)
        self._ok(self.lib.cudnnSoftmaxForward(self.handle, 2 if log else 1, 1 if channel else 0,
                                              ctypes.byref(self.one), d, ctypes.c_void_p(x.data_ptr()),
                                              ctypes.byref(self.zero), d, ctypes.c_void_p(y.data_ptr())),
                 "cudnnSoftmaxForward")
        return y

    def backward(self, y, dy, dx, log=False, shape=None, channel=False):
        n, c, h, w = shape if shape else (y.shape[0], y.shape[1], 1, 1)
        self._ok(self.lib.cudnnSetStream(self.handle, ctypes.c_void_p(torch.cuda.current_stream().cuda_stream)),
                 "cudnnSetStream")
        d = self._desc(y.dtype, n, c, h, w)
        self._ok(self.lib.cudnnSoftmaxBackward(self.handle, 2 if log else 1, 1 if channel else 0,
                                               ctypes.byref(self.one), d, ctypes.c_void_p(y.data_ptr()), d,
                                               ctypes.c_void_p(dy.data_ptr()), ctypes.byref(self.zero), d,
                                               ctypes.c_void_p(dx.data_ptr())),
                 "cudnnSoftmaxBackward")
        return dx


def cudnn_or_none():
    """CudnnSoftmax, or None (with the reason on stderr) where cuDNN cannot be loaded."""
    import sys
    try:
        return CudnnSoftmax()
    except Exception as e:  # noqa: BLE001 - any failure to load means: no cuDNN column
        print(f"cuDNN not available: {e}", file=sys.stderr)
        return None


def copy_ceiling_gbs(bench_ms):
    """GB/s (read + write) of a 1 GiB device-to-device torch copy_, timed by bench_ms(fn) -> ms."""
    big = torch.empty(1 << 28, dtype=torch.float32, device="cuda")
    big2 = torch.empty_like(big)
    return 2 * big.numel() * 4 / (bench_ms(lambda: big2.copy_(big)) * 1e6)
