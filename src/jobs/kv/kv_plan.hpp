#pragma once
// What the kv job is asked to do, fully resolved: every default already applied.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace xb {

enum class KvOp { dump, load };
// When a dump makes its blocks durable: never (a page or drive cache may still hold them), each
// block before its rename (fdatasync), or once at the end (syncfs of the store, inside the timed run).
enum class KvSync { none, block, end };
// Where a load puts the blocks: a host buffer, or device memory through a pinned bounce buffer.
enum class KvTarget { host, device };

struct KvPlan {
  KvOp op = KvOp::dump;
  std::filesystem::path store;         // --store: an existing directory
  std::uint64_t blocks = 64;           // -n: block ids 0 .. blocks-1
  std::uint64_t block_bytes = 2u << 20;  // --block
  unsigned threads = 1;                // -w: share the block list
  std::uint64_t passes = 1;            // each pass dumps (loads) every block once
  KvSync sync = KvSync::none;          // dump only
  bool buffered = false;               // default O_DIRECT
  KvTarget target = KvTarget::host;    // load only
  std::string backend = "cpu";         // load --to device: the backend and its device
  int device = 0;
  std::string engine;                  // the backend's copy engine; empty = its default
  bool verify = false;                 // load only: check every byte
  std::uint64_t seed = 0x6b76;         // the pattern's base seed; block i uses kv_block_seed(seed, i)
};

std::string_view to_string(KvOp op);
std::string_view to_string(KvSync sync);
std::string_view to_string(KvTarget target);
std::optional<KvOp> kv_op_from(std::string_view name);
std::optional<KvSync> kv_sync_from(std::string_view name);
std::optional<KvTarget> kv_target_from(std::string_view name);

}  // namespace xb
