// The direct path (xfer_mover.hpp's make_direct_mover): every transfer of a call queued, one flush.
#include <fmt/format.h>

#include "jobs/xfer/xfer_mover.hpp"

namespace xb {
namespace {

class DirectMover final : public XferMover {
 public:
  explicit DirectMover(const XferLink& link)
      : link_(link),
        region_(&transport_registration(link.local, link.transport, owned_)) {}

  void move(std::uint64_t block, std::uint64_t first, std::uint64_t count) override {
    for (std::uint64_t i = first; i < first + count; ++i) {
      const std::size_t offset = i * block;
      if (link_.op == XferOp::write) {
        link_.endpoint.put(*region_, offset, link_.remote, offset, block);
      } else {
        link_.endpoint.get(*region_, offset, link_.remote, offset, block);
      }
    }
    link_.endpoint.flush(link_.timeout);
  }

  nlohmann::json describe() const override {
    return {{"path", "direct"},
            {"registered", fmt::format("the client's {} memory itself ({}), {} bytes{}", to_string(link_.local.place()),
                                       link_.local.description(), link_.local.size(),
                                       owned_ ? "" : ", registered by the transport that allocated it")}};
  }

 private:
  XferLink link_;
  std::unique_ptr<LocalRegion> owned_;  // null when the memory brought its own registration
  LocalRegion* region_;
};

}  // namespace

std::unique_ptr<XferMover> make_direct_mover(const XferLink& link) { return std::make_unique<DirectMover>(link); }

}  // namespace xb
