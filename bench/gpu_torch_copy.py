#!/usr/bin/env python3
"""PyTorch's own copies of the same bytes the xferbench copy job moves, for the GPU check's ratios.

H2D and D2H: pinned host tensors copied with .to('cuda', non_blocking=True) / .to('cpu',
non_blocking=True) into preallocated tensors (copy_), D2D: device tensor to device tensor (copy_);
N blocks of SIZE bytes per iteration on one stream, timed with CUDA events, after warm-up.
Prints one JSON object (to --output FILE, else stdout): {"h2d": GB/s, "d2h": GB/s, "d2d": GB/s, ...}
(decimal GB/s, mean over the timed iterations, as xferbench's bandwidth_decimal).
"""
import argparse
import json

import torch


def measure(direction, block_bytes, blocks, iterations, warmup):
    n = block_bytes // 4  # float32 elements
    if direction == "h2d":
        src = [torch.empty(n, dtype=torch.float32, pin_memory=True).fill_(1.0) for _ in range(blocks)]
        dst = [torch.empty(n, dtype=torch.float32, device="cuda") for _ in range(blocks)]
    elif direction == "d2h":
        src = [torch.ones(n, dtype=torch.float32, device="cuda") for _ in range(blocks)]
        dst = [torch.empty(n, dtype=torch.float32, pin_memory=True) for _ in range(blocks)]
    else:
        src = [torch.ones(n, dtype=torch.float32, device="cuda") for _ in range(blocks)]
        dst = [torch.empty(n, dtype=torch.float32, device="cuda") for _ in range(blocks)]
    stream = torch.cuda.Stream()
    times_ms = []
    with torch.cuda.stream(stream):
        for it in range(warmup + iterations):
            start = torch.cuda.Event(enable_timing=True)
            end = torch.cuda.Event(enable_timing=True)
            start.record(stream)
            for s, d in zip(src, dst):
                d.copy_(s, non_blocking=True)
            end.record(stream)
            end.synchronize()
            if it >= warmup:
                times_ms.append(start.elapsed_time(end))
    mean_s = sum(times_ms) / len(times_ms) / 1e3
    return block_bytes * blocks / mean_s / 1e9


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--size", type=int, default=64 << 20)
    p.add_argument("--blocks", type=int, default=16)
    p.add_argument("--iterations", type=int, default=20)
    p.add_argument("--warmup", type=int, default=3)
    p.add_argument("-o", "--output", help="write the JSON object here (else stdout)")
    a = p.parse_args()
    out = {"torch": torch.__version__, "device": torch.cuda.get_device_name(0), "block_bytes": a.size,
           "blocks": a.blocks, "iterations": a.iterations}
    for d in ("h2d", "d2h", "d2d"):
        out[d] = measure(d, a.size, a.blocks, a.iterations, a.warmup)
    if a.output:
        with open(a.output, "w") as f:
            f.write(json.dumps(out) + "\n")
    else:
        print(json.dumps(out))


if __name__ == "__main__":
    main()
