#pragma once
// The CPU's copy engines, as plain functions a stream worker calls.
#include <cstddef>
#include <string_view>

namespace xb::cpu {

using CopyKernel = void (*)(void* dst, const void* src, std::size_t bytes);

// "memcpy": the C library's memcpy (whatever the libc picks for this CPU).
void copy_memcpy(void* dst, const void* src, std::size_t bytes);
// "nt": non-temporal (streaming) stores that bypass the cache, the pattern a DMA engine's writes
// follow; falls back to memcpy where the CPU has no streaming stores.
void copy_nontemporal(void* dst, const void* src, std::size_t bytes);

// The kernel for an engine name, or nullptr.
CopyKernel find_copy_kernel(std::string_view engine);
// Whether "nt" really streams on this build (x86-64 with SSE2).
bool nontemporal_available();

}  // namespace xb::cpu
