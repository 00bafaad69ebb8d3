// Host memory on reserved huge pages (MAP_HUGETLB, the default huge page size). Where none are
// reserved (vm.nr_hugepages = 0) the kind is unavailable here, which is a waiver, not an error.
#include <fmt/format.h>
#include <sys/mman.h>

#include <fstream>

#include "core/error.hpp"
#include "core/size.hpp"
#include "memory/kinds.hpp"

namespace xb {
namespace {

std::size_t huge_page_size() {
  std::ifstream in("/proc/meminfo");
  std::string key;
  std::size_t kib = 0;
  std::string unit;
  while (in >> key >> kib >> unit) {
    if (key == "Hugepagesize:") return kib * 1024;
  }
  return 2u << 20;
}

class HugepageBuffer final : public HostBuffer {
 public:
  explicit HugepageBuffer(std::size_t bytes)
      : HostBuffer(HostMemoryKind::hugepage, nullptr, bytes), mapped_(round_up(bytes == 0 ? 1 : bytes, huge_page_size())) {
    void* p = mmap(nullptr, mapped_, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB | MAP_POPULATE, -1, 0);
    if (p == MAP_FAILED) {
      throw Unavailable(fmt::format("huge pages: cannot map {} on huge pages ({}); reserve them with "
                                    "`sysctl vm.nr_hugepages=N`",
                                    format_bytes_human(mapped_), std::strerror(errno)));
    }
    data_ = static_cast<std::byte*>(p);
  }
  ~HugepageBuffer() override { munmap(data_, mapped_); }

 private:
  std::size_t mapped_;
};

}  // namespace

std::unique_ptr<HostBuffer> make_hugepage_buffer(std::size_t bytes) {
  return std::make_unique<HugepageBuffer>(bytes);
}

}  // namespace xb
