#pragma once
// Host memory kinds. Each is an RAII buffer: freed, unlocked, unmapped and unlinked by its destructor.
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace xb {

enum class HostMemoryKind {
  pageable,  // ordinary process memory
  pinned,    // locked in RAM (mlock): the kind a device copies from fastest
  shm,       // a POSIX shared-memory segment, mapped by every forked process
  odirect,   // aligned memory loaded from a backing file read with O_DIRECT
  hugepage,  // backed by reserved huge pages (MAP_HUGETLB)
};

std::string_view to_string(HostMemoryKind kind);
std::optional<HostMemoryKind> host_memory_kind_from(std::string_view name);
std::vector<std::string> host_memory_kind_names();

class HostBuffer {
 public:
  virtual ~HostBuffer() = default;
  std::byte* data() const { return data_; }
  std::size_t size() const { return size_; }
  std::span<std::byte> bytes() const { return {data_, size_}; }
  HostMemoryKind kind() const { return kind_; }

 protected:
  HostBuffer(HostMemoryKind kind, std::byte* data, std::size_t size) : data_(data), size_(size), kind_(kind) {}
  std::byte* data_;
  std::size_t size_;
  HostMemoryKind kind_;
};

struct HostBufferOptions {
  // odirect: directory for the backing file (must support O_DIRECT; tmpfs may not).
  std::filesystem::path odirect_dir = "/var/tmp";
  // odirect: the backing file is written with the verification pattern of this seed, so the
  // buffer's content after loading is known.
  std::uint64_t odirect_seed = 0;
};

// Allocates `bytes` of the given kind, every page touched. Throws SystemError on failure,
// Unavailable where the machine lacks the kind (no huge pages reserved).
std::unique_ptr<HostBuffer> make_host_buffer(HostMemoryKind kind, std::size_t bytes,
                                             const HostBufferOptions& options = {});

// The alignment O_DIRECT and the backends need of every buffer.
inline constexpr std::size_t kHostAlignment = 4096;

}  // namespace xb
