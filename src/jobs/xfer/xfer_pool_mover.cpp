// The staging pool (--pool, HIXL's buffer pool; xfer_mover.hpp's make_pool_mover): double buffered,
// the device stream's copy of one chunk overlapping the transfer of the other.
#include <fmt/format.h>

#include <algorithm>
#include <array>

#include "jobs/xfer/xfer_mover.hpp"

namespace xb {
namespace {

static_assert(kXferPoolSlots == 2, "the pipeline below alternates between two slots");

class PoolMover final : public XferMover {
 public:
  PoolMover(const XferLink& link, Device& device, std::string_view engine, std::uint64_t chunk,
            std::uint64_t largest_block, bool transport_pool)
      : link_(link),
        slot_bytes_(std::min(chunk, largest_block)),
        allocated_(transport_pool ? link.transport.allocate_memory(kXferPoolSlots * slot_bytes_) : nullptr),
        pool_(allocated_ ? nullptr : device.allocate_host(kXferPoolSlots * slot_bytes_, true)),
        registered_(allocated_ ? nullptr : link.transport.register_memory(pool_->data(), pool_->size())),
        region_(allocated_ ? allocated_.get() : registered_.get()),
        pool_data_(region_->data()),
        stream_(device.create_stream(engine)),
        engine_(engine) {
    for (auto& e : events_) e = device.create_event();
  }

  void move(std::uint64_t block, std::uint64_t first, std::uint64_t count) override {
    const Chunks chunks{block, first, std::min(slot_bytes_, block), (block + slot_bytes_ - 1) / slot_bytes_};
    const std::uint64_t n = count * chunks.per_block;
    if (link_.op == XferOp::write) {
      write(chunks, n);
    } else {
      read(chunks, n);
    }
  }

  nlohmann::json describe() const override {
    return {{"path", "staging pool"},
            {"slots", kXferPoolSlots},
            {"slot_bytes", slot_bytes_},
            {"registered", fmt::format("{} x {} bytes of {}; the client's {} memory is not registered", kXferPoolSlots,
                                       slot_bytes_,
                                       allocated_ ? fmt::format("host memory allocated by the transport ({})",
                                                                allocated_->origin())
                                                  : std::string("pinned host memory"),
                                       to_string(link_.local.place()))},
            {"copy_engine", engine_},
            {"pipeline", link_.op == XferOp::write
                             ? "copy chunk k+1 into one slot (device stream) while chunk k is put from the other"
                             : "get chunk k+1 into one slot while chunk k is copied out of the other (device stream)"}};
  }

 private:
  // The chunks of blocks [first, ...): chunk c is part c % per_block of block first + c / per_block.
  struct Chunks {
    std::uint64_t block, first, bytes, per_block;
    std::uint64_t offset(std::uint64_t c) const { return (first + c / per_block) * block + (c % per_block) * bytes; }
    std::uint64_t length(std::uint64_t c) const { return std::min(bytes, block - (c % per_block) * bytes); }
  };

  std::byte* slot(std::uint64_t c) const { return static_cast<std::byte*>(pool_data_) + (c % 2) * slot_bytes_; }
  std::size_t slot_offset(std::uint64_t c) const { return (c % 2) * slot_bytes_; }
  std::byte* local(std::uint64_t offset) const { return static_cast<std::byte*>(link_.local.data()) + offset; }

  // Client memory → slot of chunk c, queued on the stream; the slot's event marks the end.
  void stage(const Chunks& ch, std::uint64_t c) {
    stream_->copy({slot(c), local(ch.offset(c)), ch.length(c)});
    stream_->record(*events_[c % 2]);
  }

  void write(const Chunks& ch, std::uint64_t n) {
    stage(ch, 0);
    for (std::uint64_t c = 0; c < n; ++c) {
      events_[c % 2]->synchronize();
      link_.endpoint.put(*region_, slot_offset(c), link_.remote, ch.offset(c), ch.length(c));
      // The other slot is free: its put (chunk c-1) completed in the previous flush.
      if (c + 1 < n) stage(ch, c + 1);
      link_.endpoint.flush(link_.timeout);
    }
  }

  void read(const Chunks& ch, std::uint64_t n) {
    link_.endpoint.get(*region_, slot_offset(0), link_.remote, ch.offset(0), ch.length(0));
    link_.endpoint.flush(link_.timeout);
    for (std::uint64_t c = 0; c < n; ++c) {
      // The other slot is free: its copy-out (chunk c-1) was synchronized at the end of the last round.
      if (c + 1 < n) link_.endpoint.get(*region_, slot_offset(c + 1), link_.remote, ch.offset(c + 1), ch.length(c + 1));
      stream_->copy({local(ch.offset(c)), slot(c), ch.length(c)});
      stream_->record(*events_[c % 2]);
      if (c + 1 < n) link_.endpoint.flush(link_.timeout);
      events_[c % 2]->synchronize();
    }
  }

  XferLink link_;
  std::uint64_t slot_bytes_;
  std::unique_ptr<LocalRegion> allocated_;  // the pool, allocated by the transport, or
  std::unique_ptr<Allocation> pool_;         // pinned by the device and
  std::unique_ptr<LocalRegion> registered_;  // registered (released before the pool)
  LocalRegion* region_;
  void* pool_data_;
  std::unique_ptr<Stream> stream_;
  std::array<std::unique_ptr<Event>, kXferPoolSlots> events_;
  std::string engine_;
};

}  // namespace

std::unique_ptr<XferMover> make_pool_mover(const XferLink& link, Device& device, std::string_view engine,
                                           std::uint64_t chunk, std::uint64_t largest_block, bool transport_pool) {
  return std::make_unique<PoolMover>(link, device, engine, chunk, largest_block, transport_pool);
}

}  // namespace xb
