# A stand-in for the part of PyTorch that tl-replay's replay.py uses, so
# that its tests run where PyTorch is not installed: tensors with a
# shape, strides, a dtype and a device but no data; ops that return a
# tensor like their first tensor argument (or a 1-d one when they have
# none). FAKETORCH_FAIL="aten::a,aten::b" makes those ops raise; op
# names that begin with "nosuch" do not exist.
import builtins as _b
import os as _os

__version__ = "0.0+fake"


class dtype:
    def __init__(self, name, floating):
        self.name = name
        self.is_floating_point = floating

    def __repr__(self):
        return "torch." + self.name

    __str__ = __repr__


_DT = {n: dtype(n, f) for n, f in (
    ("bool", False), ("int32", False), ("int64", False),
    ("float64", True), ("float32", True), ("float16", True),
    ("bfloat16", True))}
globals().update(_DT)


class Tensor:
    def __init__(self, shape, strides, dt, device):
        self.shape = tuple(shape)
        self._strides = tuple(strides)
        self.dtype = dt
        self.device = device

    def stride(self):
        return self._strides

    def is_floating_point(self):
        return self.dtype.is_floating_point

    def is_complex(self):
        return False

    def as_strided(self, size, stride):
        return Tensor(size, stride, self.dtype, self.device)

    def __getitem__(self, sl):
        n = len(range(*sl.indices(self.shape[0])))
        return Tensor((n,), (1,), self.dtype, self.device)

    def view(self, *shape):
        return Tensor(shape, (shape[1], 1), self.dtype, self.device)

    def expand(self, *shape):
        return Tensor(shape, (0, 1), self.dtype, self.device)

    def copy_(self, src):
        return self

    def normal_(self):
        if not self.dtype.is_floating_point:
            raise RuntimeError('"normal_kernel_cpu" not implemented for '
                               "'%s'" % self.dtype.name)
        return self


def empty_strided(size, stride, dtype=None, device=None):
    if len(size) != len(stride):
        raise RuntimeError("mismatch in length of strides and shape")
    if not isinstance(dtype, globals()["dtype"]):
        raise TypeError("empty_strided(): dtype must be torch.dtype")
    return Tensor(size, stride, dtype, device)


class cuda:
    @staticmethod
    def is_available():
        return False

    @staticmethod
    def synchronize(device=None):
        raise RuntimeError("Found no NVIDIA driver on your system.")


class _Packet:
    def __init__(self, name):
        self.name = name

    def __call__(self, *args, **kwargs):
        fail = _os.environ.get("FAKETORCH_FAIL", "").split(",")
        if self.name in fail:
            raise RuntimeError("%s: fake failure\nsecond line" % self.name)
        ts = [a for a in _b.list(args) + _b.list(kwargs.values())
              if isinstance(a, Tensor)]
        if not ts:
            return Tensor((2,), (1,), _DT["float32"], "cpu")
        t = ts[0]
        return Tensor(t.shape, t.stride(), t.dtype, t.device)


class _Namespace:
    def __init__(self, ns):
        self.ns = ns

    def __getattr__(self, op):
        if op.startswith("nosuch"):
            raise AttributeError("No such operator %s::%s" % (self.ns, op))
        return _Packet(self.ns + "::" + op)


class _Ops:
    def __getattr__(self, ns):
        return _Namespace(ns)


ops = _Ops()


class _C:
    @staticmethod
    def _jit_get_operation(name):
        raise RuntimeError("No such operator " + name)
