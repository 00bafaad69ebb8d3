#pragma once
// The CUDA backend's copy queues and events, one kind of Stream per engine:
// - ce:    cudaMemcpyAsync per copy on the device's copy engines; copy_batch is one submission;
// - batch: the same engines, but copies are held and submitted together (one cudaMemcpyBatchAsync,
//          or a replayed CUDA graph where the runtime or driver lacks it) when the stream is next
//          recorded, waited on or synchronized: "many blocks in one submission";
// - sm:    the copy kernel of cuda_sm_copy (16-byte loads by the multiprocessors); host memory
//          must be pinned or registered, which the kernel reaches through its mapped address.
#include <cuda_runtime_api.h>

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "backends/device.hpp"

namespace xb::cuda {

// The engines, default first.
const std::vector<std::string>& engine_names();

// Null when `engine` is none of engine_names().
std::unique_ptr<Stream> make_stream(int device, std::string_view engine, int sm_count);

// The CUDA stream under one of this backend's streams, and its device, with what the stream held
// back (the batch engine) sent first: work queued on the handle comes after every copy given to the
// stream before. Throws std::invalid_argument for a stream of another backend.
struct StreamHandle {
  cudaStream_t stream;
  int device;
};
StreamHandle flushed_handle(Stream& stream);

std::unique_ptr<Event> make_event(int device);
// Between two completed events of this backend, in microseconds (cudaEventElapsedTime).
double elapsed_us(Event& start, Event& end);

}  // namespace xb::cuda
