// A staged server region (jobs/endpoint/staged_device_memory.hpp): the server copies a move's blocks
// between its window and its device memory within the move, so a pass ends with the data in (or
// starts it from) device memory, as on a transport that reaches it.
#include <fmt/format.h>

#include "jobs/xfer/xfer_mover.hpp"

namespace xb {
namespace {

class StagedServerMover final : public XferMover {
 public:
  StagedServerMover(std::unique_ptr<XferMover> inner, ClientSession& session, const PeerRegion& region, XferOp op)
      : inner_(std::move(inner)), session_(session), region_(region), op_(op) {}

  void move(std::uint64_t block, std::uint64_t first, std::uint64_t count) override {
    const std::uint64_t offset = first * block, bytes = count * block;
    if (op_ == XferOp::read) session_.stage(region_, StageDirection::to_window, offset, bytes);
    inner_->move(block, first, count);
    if (op_ == XferOp::write) session_.stage(region_, StageDirection::to_memory, offset, bytes);
  }

  nlohmann::json describe() const override {
    nlohmann::json d = inner_->describe();
    d["server_staging"] =
        op_ == XferOp::write
            ? "the server copies each move's blocks from its registered host window into its device memory, "
              "on a control message after the move, before the move counts as done"
            : "the server copies each move's blocks from its device memory into its registered host window, "
              "on a control message before the move";
    return d;
  }

 private:
  std::unique_ptr<XferMover> inner_;
  ClientSession& session_;
  const PeerRegion& region_;
  XferOp op_;
};

}  // namespace

std::unique_ptr<XferMover> make_staged_server_mover(std::unique_ptr<XferMover> inner, ClientSession& session,
                                                    const PeerRegion& region, XferOp op) {
  return std::make_unique<StagedServerMover>(std::move(inner), session, region, op);
}

}  // namespace xb
