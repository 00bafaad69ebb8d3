#pragma once
// The CUDA backend's gate (Device::create_gate, docs/cuda.md "The gate"): each held stream gets a
// one-thread wait kernel (cuda_gate_kernel.hpp) that polls a word of pinned, mapped host memory, so
// all the stream's later work waits until the host publishes the window's generation. A spin
// kernel rather than cuStreamWaitValue32: it needs no driver option for stream memory operations
// and no driver API, and it is what nvbandwidth relies on. The host must not give a held stream
// copies the runtime enqueues synchronously (pageable host memory): they would wait for the gate.
#include <chrono>
#include <memory>

#include "backends/device.hpp"

namespace xb::cuda {

// How long a held stream waits for open() before it goes on by itself (confirm_held then throws):
// far above a window's enqueuing (milliseconds), short enough that a lost open() is a clear error
// rather than a hang.
inline constexpr std::chrono::milliseconds kGateBound{10'000};

// A closed gate for streams of `device` (or of any device: its word is portable pinned memory).
// The streams a generation held must have drained before the gate is destroyed, except the last
// generation's, which the destructor opens and waits for.
std::unique_ptr<Gate> make_gate(int device, std::chrono::nanoseconds bound = kGateBound);

}  // namespace xb::cuda
