#!/usr/bin/env python3
# Make the small XPlane files of tests/data/xplane/ and the seed corpus of
# tests/fuzz/corpus/xplane/: XSpace messages written with the protobuf wire
# format by hand (no protobuf module), each built to show one case of
# tl-parse's XPlane reader (good layouts, and each kind of bad input).
#
#	python3 tests/lib/xplane.py DIR
import os
import struct
import sys


def varint(v):
    v &= (1 << 64) - 1
    out = bytearray()
    while True:
        b = v & 0x7F
        v >>= 7
        if v:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def key(num, wire):
    return varint(num << 3 | wire)


def vi(num, v):
    return key(num, 0) + varint(v)


def ln(num, data):
    if isinstance(data, str):
        data = data.encode()
    return key(num, 2) + varint(len(data)) + data


def dbl(num, v):
    return key(num, 1) + struct.pack("<d", v)


def stat(mid, kind, v):
    body = vi(1, mid)
    if kind == "i":
        body += vi(4, v)
    elif kind == "u":
        body += vi(3, v)
    elif kind == "d":
        body += dbl(2, v)
    elif kind == "s":
        body += ln(5, v)
    elif kind == "b":
        body += ln(6, v)
    elif kind == "r":
        body += vi(7, v)
    elif kind == "?":         # a value field of a type tl does not know
        body += vi(9, v)
    return body


def event(mid, off, dur, stats=()):
    b = vi(1, mid) + vi(2, off) + vi(3, dur)
    for s in stats:
        b += ln(4, s)
    return b


def line(lid, name, ts_ns, events, display_name=None):
    b = vi(1, lid) + ln(2, name) + vi(3, ts_ns)
    for e in events:
        b += ln(4, e)
    if display_name:
        b += ln(11, display_name)
    return b


def emeta(mid, name, stats=(), display=None):
    b = vi(1, mid) + ln(2, name)
    if display:
        b += ln(4, display)
    for s in stats:
        b += ln(5, s)
    return ln(4, vi(1, mid) + ln(2, b))


def smeta(mid, name):
    return ln(5, vi(1, mid) + ln(2, vi(1, mid) + ln(2, name)))


def plane(pid, name, lines=(), em=(), sm=()):
    b = vi(1, pid) + ln(2, name)
    for l in lines:
        b += ln(3, l)
    for e in em:
        b += e
    for s in sm:
        b += s
    return b


def space(planes, host="testhost"):
    b = b""
    for p in planes:
        b += ln(1, p)
    return b + ln(4, host)


# HLO: a module with a custom-call conv (2 operands) and a fusion.
def shape(ty, dims, layout=None):
    b = vi(2, ty) + ln(3, b"".join(varint(d) for d in dims))
    if layout is not None:
        b += ln(5, ln(1, b"".join(varint(d) for d in layout)))
    return b


def tshape(*elems):
    b = vi(2, 13)
    for e in elems:
        b += ln(4, e)
    return b


def inst(name, opcode, shp, iid, operands=(), meta=None, cct=None,
         bcfg=None):
    b = ln(1, name) + ln(2, opcode) + ln(3, shp)
    if meta:
        m = b""
        if "op_type" in meta:
            m += ln(1, meta["op_type"])
        if "op_name" in meta:
            m += ln(2, meta["op_name"])
        if "source_file" in meta:
            m += ln(3, meta["source_file"])
        if "source_line" in meta:
            m += vi(4, meta["source_line"])
        b += ln(7, m)
    if cct:
        b += ln(28, cct)
    b += vi(35, iid)
    if operands:
        b += ln(36, b"".join(varint(o) for o in operands))
    if bcfg:
        b += ln(43, bcfg)
    return b


def hlo_module(name, convname="cudnn-conv.1"):
    bf16 = 16
    p0 = inst("p0", "parameter", shape(bf16, [1, 16, 8, 8], [3, 2, 1, 0]), 1)
    p1 = inst("p1", "parameter", shape(bf16, [32, 16, 3, 3], [3, 2, 1, 0]), 2)
    conv = inst(convname, "custom-call",
                tshape(shape(bf16, [1, 32, 6, 6], [3, 2, 1, 0]),
                       shape(6, [1024], [0])), 3, [1, 2],
                meta={"op_name": "jit(f)/conv_general_dilated",
                      "source_file": "/x/f.py", "source_line": 7},
                cct="__cudnn$convForward", bcfg='{"a":1}')
    gte = inst("get-tuple-element.1", "get-tuple-element",
               shape(bf16, [1, 32, 6, 6], [3, 2, 1, 0]), 4, [3])
    fus = inst("loop_add_fusion", "fusion",
               shape(bf16, [1, 32, 6, 6], [3, 2, 1, 0]), 5, [4, 4],
               meta={"op_name": "jit(f)/add"})
    root = inst("copy.9", "copy", shape(bf16, [1, 32, 6, 6], [3, 2, 1, 0]),
                6, [5])
    comp = ln(1, "main") + b"".join(ln(2, i) for i in
                                    (p0, p1, conv, gte, fus, root)) + \
        vi(5, 1) + vi(6, 6)
    mod = ln(1, name) + ln(2, "main") + ln(3, comp) + vi(6, 1)
    return ln(1, mod)


def te_module(name):
    bf16 = 16
    qs = [2, 128, 16, 64]
    L = [3, 2, 1, 0]
    q = inst("q", "parameter", shape(bf16, qs, L), 1)
    k = inst("k", "parameter", shape(bf16, qs, L), 2)
    v = inst("v", "parameter", shape(bf16, qs, L), 3)
    bias = inst("bias", "parameter", shape(bf16, [0], [0]), 4)
    fwd = inst("te_fused_attn_forward_ffi.1", "custom-call",
               tshape(shape(bf16, qs, L), shape(11, [2, 16, 128, 1],
                                                   [3, 2, 1, 0])),
               5, [1, 2, 3, 4], meta={"op_name": "jit(g)/te_fwd"},
               cct="te_fused_attn_forward_ffi")
    bwd = inst("te_fused_attn_backward_ffi.12", "custom-call",
               tshape(shape(bf16, qs, L), shape(bf16, qs, L),
                      shape(bf16, qs, L)),
               6, [1, 2, 3, 4, 1], meta={"op_name": "jit(g)/te_bwd"},
               cct="te_fused_attn_backward_ffi")
    a = inst("a", "parameter", shape(bf16, [256, 512], [1, 0]), 7)
    b = inst("b", "parameter", shape(bf16, [512, 1024], [1, 0]), 8)
    mm = inst("custom-call.3", "custom-call",
              tshape(shape(bf16, [256, 1024], [1, 0]),
                     shape(6, [4096], [0])), 9, [7, 8],
              meta={"op_name": "jit(g)/dot_general"},
              cct="__cublas$lt$matmul",
              bcfg='{"gemm_backend_config":{"alpha_real":1,"beta":0,'
                   '"dot_dimension_numbers":{"lhs_contracting_dimensions":'
                   '["1"],"rhs_contracting_dimensions":["0"]}}}')
    root = inst("tuple.1", "tuple", tshape(), 10, [5, 6])
    comp = ln(1, "main") + b"".join(ln(2, i) for i in
                                    (q, k, v, bias, fwd, bwd, a, b, mm,
                                     root)) + vi(5, 1) + vi(6, 10)
    return ln(1, ln(1, name) + ln(2, "main") + ln(3, comp) + vi(6, 1))


def te():
    # Transformer Engine fused attention and a cuBLAS GEMM, one GPU
    sm = [smeta(1, "correlation_id"), smeta(2, "hlo_op"),
          smeta(3, "hlo_module"), smeta(5, "program_id")]
    names = ["void ck_tile::kentry<ck_tile::FmhaFwdKernel<x>>",
             "transformer_engine::fused_attn_rocm::populate_rng_state_kernel",
             "void ck_tile::kentry<ck_tile::FmhaBwdDQDKDVKernel<x>>",
             "__amd_rocclr_fillBufferAligned.kd",
             "Cijk_Alik_Bljk_BBS_BH_MT128x128x64",
             "loop_convert_fusion.2.kd"]
    ops = ["te_fused_attn_forward_ffi.1", "te_fused_attn_forward_ffi.1",
           "te_fused_attn_backward_ffi.12", "te_fused_attn_backward_ffi.12",
           "custom-call.3", "loop_convert_fusion.2"]
    em = [emeta(i + 1, n) for i, n in enumerate(names)]
    evs = []
    for r in range(2):
        for i in range(len(names)):
            c = 10 + r * 10 + i
            evs.append(event(i + 1, r * 50000000 + i * 3000000,
                             1000000 + i * 250000 + r * 1000,
                             [stat(1, "i", c), stat(2, "s", ops[i]),
                              stat(3, "s", "jit_g"), stat(5, "i", 5)]))
    gpu = plane(0, "/device:GPU:0", [line(2, "Stream #2", 500, evs)], em,
                sm)
    hsm = [smeta(1, "correlation_id"), smeta(2, "device_id")]
    hev = []
    for r in range(2):
        for i in range(len(names)):
            c = 10 + r * 10 + i
            hev.append(event(1, r * 50000000 + i * 3000000, 2000,
                             [stat(1, "i", c), stat(2, "i", 0)]))
    host = plane(0, "/host:CPU", [line(3, "Host Threads/3", 400, hev)],
                 [emeta(1, "hipModuleLaunchKernel")], hsm)
    return space([metaplane([("jit_g(5)", te_module("jit_g"))]), gpu,
                  host])


def metaplane(mods):
    em = []
    for i, (n, proto) in enumerate(mods):
        em.append(emeta(i + 1, n, [stat(1, "b", proto)]))
    return plane(0, "/host:metadata", em=em, sm=[smeta(1, "Hlo Proto")])


def gpu_plane(gid, legacy=True, corr0=100, kd=True):
    # stat ids: 1 correlation_id, 2 hlo_op, 3 hlo_module, 4 kernel_details,
    # 5 program_id, 6 name, 7 "XlaModule:" (ref value), 8 tf_op
    sm = [smeta(1, "correlation_id"), smeta(2, "hlo_op"),
          smeta(3, "hlo_module"), smeta(4, "kernel_details"),
          smeta(5, "program_id"), smeta(6, "name"),
          smeta(7, "XlaModule:"), smeta(8, "tf_op")]
    kname = "Im2Col" if legacy else "Im2Col.kd"
    em = [emeta(1, kname), emeta(2, "Cijk_Ailk_Bljk_gemm"),
          emeta(3, "loop_add_fusion"), emeta(4, "CopyDeviceToDevice")]
    op = "cudnn-conv.1.0" if legacy else "cudnn-conv.1"

    def kst(c, hop):
        s = [stat(1, "i", c), stat(8, "r", 7), stat(6, "s", "jit(f)/x"),
             stat(2, "s", hop), stat(3, "s", "jit_f"), stat(5, "i", 3)]
        if kd:
            s.insert(1, stat(4, "s", "grid:1,1,1 block:256,1,1"))
        return s
    evs = []
    for r in range(2):
        base = r * 100000000
        evs.append(event(1, base + 5000000, 2000000, kst(corr0 + 3 * r, op)))
        evs.append(event(2, base + 7000000, 9000000,
                         kst(corr0 + 3 * r + 1, op)))
        evs.append(event(3, base + 16000000, 1000000,
                         kst(corr0 + 3 * r + 2, "loop_add_fusion")))
    lines = [line(1, "Stream #1(Kernel)" if legacy else "Stream #1",
                  1000, evs)]
    lines.append(line(7, "Stream #7(MemcpyD2D)", 1000,
                      [event(4, 1000000, 500000, [stat(1, "i", 9000)])]))
    return plane(gid, "/device:GPU:%d" % gid, lines, em, sm)


def host_plane(gpus, legacy=True, corr0=100):
    sm = [smeta(1, "correlation_id"), smeta(2, "device_id"),
          smeta(3, "hlo_op")]
    em = [emeta(1, "Im2Col" if legacy else "hipModuleLaunchKernel"),
          emeta(2, "$f.py:7 f"), emeta(3, "MemoryAllocation")]
    evs = [event(2, 0, 50000000), event(3, 10, 5)]
    for g in gpus:
        for r in range(2):
            for k in range(3):
                c = corr0 + 3 * r + k
                evs.append(event(1, r * 100000000 + 2000000 + k * 1000000 +
                                 g * 10000, 1000,
                                 [stat(1, "i", c), stat(2, "i", g)]))
    lines = [line(-5, "py_xla_execute/123" if legacy else "Host Threads/5",
                  1000, evs)]
    return plane(0, "/host:CPU", lines, em, sm)


def legacy():
    return space([metaplane([("jit_f(3)", hlo_module("jit_f",
                                                       "cudnn-conv.1.0"))]),
                  gpu_plane(0), plane(1, "/device:GPU:1"),
                  host_plane([0]),
                  plane(0, "Task Environment")])


def jax08():
    # two GPUs, correlation ids restarting per GPU, JAX 0.8 names
    return space([metaplane([("jit_f(3)", hlo_module("jit_f"))]),
                  gpu_plane(0, legacy=False), gpu_plane(1, legacy=False),
                  plane(0, "/device:CUSTOM:Megascale Trace"),
                  host_plane([0, 1], legacy=False)])


def main():
    d = sys.argv[1]
    os.makedirs(d, exist_ok=True)
    good = {"legacy": legacy(), "jax08": jax08(), "te": te()}
    bad = {}
    b = good["legacy"]
    bad["truncated"] = b[:len(b) // 2]
    # a length past the end: the first plane's length made huge
    n, i = 0, 1
    while b[i] & 0x80:
        i += 1
    bad["pastend"] = b[:1] + varint(len(b) * 4) + b[i + 1:]
    # wire type mismatch: an event's duration_ps (field 3) as bytes
    bad["wiretype"] = space([plane(0, "/device:GPU:0", [line(
        1, "Stream #1", 0, [vi(1, 1) + vi(2, 0) + ln(3, "x")])],
        [emeta(1, "k")])])
    # metadata ids with no entry (event and stat), an unknown value type,
    # a ref_value with no entry
    bad["nometa"] = space([plane(0, "/device:GPU:0", [line(
        1, "Stream #1", 0, [event(9, 0, 1000, [stat(1, "i", 1)]),
                            event(1, 5, 1000, [stat(42, "i", 1),
                                               stat(1, "?", 3),
                                               stat(1, "r", 77)])])],
        [emeta(1, "k")], [smeta(1, "correlation_id")])])
    # an HLO proto that does not parse
    bad["badhlo"] = space([metaplane([("jit_f(3)", b"\x0a\xff\xff")]),
                           gpu_plane(0)])
    # planes with no lines only, and a CPU-only run
    bad["nolines"] = space([plane(0, "/device:GPU:0"),
                            plane(0, "Task Environment")])
    bad["cpuonly"] = space([host_plane([0])])
    for n, v in list(good.items()) + list(bad.items()):
        with open(os.path.join(d, n + ".xplane.pb"), "wb") as f:
            f.write(v)


main()
