// Pinned host memory on the CPU: a mapping locked into RAM, so no copy ever waits for a page fault
// or a swap-in. (A device backend pins with its own runtime instead: cudaHostAlloc, aclrtMallocHost.)
#include <fmt/format.h>
#include <sys/mman.h>

#include "core/error.hpp"
#include "core/size.hpp"
#include "memory/kinds.hpp"

namespace xb {
namespace {

class PinnedBuffer final : public MappedBuffer {
 public:
  explicit PinnedBuffer(std::size_t bytes) : MappedBuffer(HostMemoryKind::pinned, bytes) {
    if (mlock(data(), size()) != 0) {
      throw_errno(fmt::format("mlock of {} pinned host memory (raise `ulimit -l` or run as root)",
                              format_bytes_human(size())));
    }
  }
  ~PinnedBuffer() override { munlock(data(), size()); }
};

}  // namespace

std::unique_ptr<HostBuffer> make_pinned_buffer(std::size_t bytes) {
  return std::make_unique<PinnedBuffer>(bytes);
}

}  // namespace xb
