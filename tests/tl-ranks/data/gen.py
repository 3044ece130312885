#!/usr/bin/python3
# Make the small traces of tests/tl-ranks (written once, kept in git):
#   meta/rankR.json  4 ranks, 2 GPUs a node: collectives with their
#                    metadata (allreduce, allgather, all_to_allv with
#                    variable splits, a broadcast), 3 process groups,
#                    a float duration, one ProfilerStep
#   steps/rankR.json 2 ranks, 2 streams each, no metadata, two
#                    ProfilerSteps (HTA drops the last)
#   kinds/rankR.json 4 ranks, 2 GPUs a node: the collective names and
#                    dtypes meta does not have, groups as JSON arrays
#                    (Python tuples, one of one rank), a group of ranks
#                    2 and 3 only (their columns come late), a
#                    cross_device_reduce kernel without a name, and
#                    ties of the two arrival rules
import json, os

def trace(rank, world, ndev, events):
    return {"schemaVersion": 1,
            "deviceProperties": [{"id": i, "name": "GPU"} for i in range(ndev)],
            "distributedInfo": {"backend": "nccl", "rank": rank, "world_size": world},
            "traceEvents": events}

class T:
    def __init__(self, rank):
        self.ev = []
        self.corr = 100 * (rank + 1)
        self.rank = rank
    def cpu(self, name, ts, dur, cat="cpu_op", **a):
        self.ev.append({"ph": "X", "cat": cat, "name": name, "pid": 1, "tid": 1,
                        "ts": ts, "dur": dur, "args": a})
    def kernel(self, name, ts, dur, stream=7, **a):
        self.corr += 1
        c = self.corr
        self.ev.append({"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel",
                        "pid": 1, "tid": 1, "ts": ts - 5, "dur": 4,
                        "args": {"correlation": c}})
        args = {"correlation": c, "stream": stream, "device": self.rank}
        args.update(a)
        self.ev.append({"ph": "X", "cat": "kernel", "name": name, "pid": 0,
                        "tid": stream, "ts": ts, "dur": dur, "args": args})

def meta():
    os.makedirs("meta", exist_ok=True)
    for r in range(4):
        t = T(r)
        t.cpu("ProfilerStep#5", 1000, 2000, cat="user_annotation")
        skew = [0, 3, 7, 1][r]
        world = {"Process Group Name": "0", "Process Group Ranks": "[0, 1, 2, 3]",
                 "Group size": 4}
        node = {"Process Group Name": "1" if r < 2 else "2",
                "Process Group Ranks": "[0, 1]" if r < 2 else "[2, 3]",
                "Group size": 2}
        t.kernel("void gemm_kernel<float>()", 1100, 50)
        ar = dict(world, **{"Collective name": "allreduce", "dtype": "Float",
                            "In msg nelems": 1048576, "Out msg nelems": 1048576,
                            "In split size": "[]", "Out split size": "[]"})
        t.kernel("ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevKernelArgsStorage<4096ul>)",
                 1200 + skew, 40 - skew + (0.5 if r == 2 else 0), **ar)
        ag = dict(world, **{"Collective name": "_allgather_base", "dtype": "BFloat16",
                            "In msg nelems": 262144, "Out msg nelems": 1048576,
                            "In split size": "[]", "Out split size": "[]"})
        t.kernel("ncclDevKernel_AllGather_RING_LL(ncclDevKernelArgsStorage<4096ul>)",
                 1300 + 2 * skew, 30, **ag)
        splits = [[1024, 2048, 0, 512], [256, 256, 256, 256],
                  [0, 0, 4096, 0], [100, 200, 300, 400]][r]
        a2 = dict(world, **{"Collective name": "all_to_allv", "dtype": "Float",
                            "In msg nelems": sum(splits), "Out msg nelems": 1024,
                            "In split size": json.dumps(splits),
                            "Out split size": "[256, 256, 256, 256]"})
        t.kernel("ncclDevKernel_SendRecv(ncclDevKernelArgsStorage<4096ul>)",
                 1400 + skew, 20 + r, **a2)
        ar2 = dict(node, **{"Collective name": "allreduce", "dtype": "Half",
                            "In msg nelems": 524288, "Out msg nelems": 524288,
                            "In split size": "[]", "Out split size": "[]"})
        t.kernel("ncclDevKernel_AllReduce_Sum_f16_RING_LL(ncclDevKernelArgsStorage<4096ul>)",
                 1500 + skew, 25, **ar2)
        bc = dict(world, **{"Collective name": "broadcast", "dtype": "Float",
                            "In msg nelems": 4, "Out msg nelems": 4,
                            "In split size": "[]", "Out split size": "[]"})
        t.kernel("ncclDevKernel_Broadcast_RING_LL(ncclDevKernelArgsStorage<4096ul>)",
                 1600, 5, **bc)
        t.kernel("void gemm_kernel<float>()", 1210, 100)
        with open("meta/rank%d.json" % r, "w") as f:
            json.dump(trace(r, 4, 2, t.ev), f, indent=1)

def steps():
    os.makedirs("steps", exist_ok=True)
    for r in range(2):
        t = T(r)
        for s, base in ((1, 1000), (2, 3000)):
            t.cpu("ProfilerStep#%d" % s, base, 1800, cat="user_annotation")
            t.kernel("void elementwise_kernel()", base + 100, 200, stream=7)
            t.kernel("ncclKernel_AllReduce_RING_LL_Sum_float(ncclDevComm*)",
                     base + 400 + 30 * r * s, 300 - 30 * r * s, stream=7)
            t.kernel("ncclKernel_SendRecv_RING_SIMPLE(ncclDevComm*)",
                     base + 800 + 10 * r, 100 + 50 * r, stream=9)
            t.kernel("void elementwise_kernel()", base + 850, 100, stream=9)
        with open("steps/rank%d.json" % r, "w") as f:
            json.dump(trace(r, 2, 8, t.ev), f, indent=1)

def kinds():
    os.makedirs("kinds", exist_ok=True)
    for r in range(4):
        t = T(r)
        t.cpu("ProfilerStep#3", 900, 1000, cat="user_annotation")
        t.kernel("void gemm_kernel<float>()", 950, 400)
        w = {"Process Group Name": "0", "Process Group Ranks": "[0, 1, 2, 3]",
             "Group size": 4, "In split size": "[]", "Out split size": "[]"}
        if r < 2:
            t.kernel("ncclDevKernel_ReduceScatter_Sum_i64_RING_LL(x)",
                     1000 + [0, 4][r], 20 - [0, 4][r],
                     **{"Process Group Name": "1", "Process Group Ranks": [0, 1],
                        "Group size": 2, "Collective name":
                        "reduce_scatter_tensor_coalesced", "dtype": "Long",
                        "In msg nelems": 1024, "Out msg nelems": 512,
                        "In split size": [], "Out split size": []})
        else:
            t.kernel("ncclDevKernel_SendRecv(x)", 1000, 16,
                     **{"Process Group Name": "2", "Process Group Ranks": [2, 3],
                        "Group size": 2, "Collective name": "all_to_all",
                        "dtype": "Double", "In msg nelems": 2048,
                        "Out msg nelems": 2048, "In split size": [],
                        "Out split size": []})
        t.kernel("ncclDevKernel_AllGather_RING_LL(x)", 1100 + [5, 0, 5, 2][r],
                 30 - [5, 0, 5, 2][r],
                 **dict(w, **{"Collective name": "all_gather_into_tensor_coalesced",
                              "dtype": "Short", "In msg nelems": 4096,
                              "Out msg nelems": 16384}))
        t.kernel("void vllm::cross_device_reduce_1stage<float, 8>(x)",
                 1200 + [1, 1, 0, 0][r], 10,
                 **dict(w, **{"dtype": "Int", "In msg nelems": 256,
                              "Out msg nelems": 256}))
        t.kernel("ncclDevKernel_AllReduce_Sum_u8_RING_LL(x)", 1300 + r, 12 - r,
                 **dict(w, **{"Collective name": "allreduce_coalesced",
                              "dtype": "Bool", "In msg nelems": 100,
                              "Out msg nelems": 100}))
        t.kernel("ncclDevKernel_AllReduce_Sum_c64_RING_LL(x)", 1400, 8,
                 **dict(w, **{"Collective name": "allreduce",
                              "dtype": "ComplexFloat", "In msg nelems": 64,
                              "Out msg nelems": 64}))
        t.kernel("ncclDevKernel_Gather_RING_LL(x)", 1500, 6,
                 **dict(w, **{"Collective name": "gather", "dtype": "Byte",
                              "In msg nelems": 3145728, "Out msg nelems": 0}))
        if r == 0:
            t.kernel("ncclDevKernel_AllReduce_Sum_f32_RING_LL(x)", 1600, 4,
                     **{"Process Group Name": "3", "Process Group Ranks": [0],
                        "Group size": 1, "Collective name": "allreduce",
                        "dtype": "Float", "In msg nelems": 262144,
                        "Out msg nelems": 262144, "In split size": [],
                        "Out split size": []})
        with open("kinds/rank%d.json" % r, "w") as f:
            json.dump(trace(r, 4, 2, t.ev), f, indent=1)

meta()
steps()
kinds()
