#include "jobs/io/io_layout.hpp"

#include "core/splitmix.hpp"

namespace xb {
namespace {

// Distinct streams of draws from one seed: sizes, offsets, reads or writes.
constexpr std::uint64_t kSizes = 0x51, kOffsets = 0x0f, kOps = 0x09;

std::uint64_t draw(std::uint64_t seed, std::uint64_t stream, std::uint64_t pass, std::uint64_t k) {
  return splitmix64(splitmix64(splitmix64(seed ^ (stream << 56)) + pass) + k);
}

bool variable_sizes(const IoPlan& plan) { return plan.io_min_bytes != 0 && plan.io_min_bytes < plan.io_bytes; }

}  // namespace

std::uint64_t io_pieces(const IoPlan& plan, std::uint64_t region_bytes) {
  // Drawn sizes are at least the minimum: the cut has at most region / MIN pieces.
  if (variable_sizes(plan)) return (region_bytes + plan.io_min_bytes - 1) / plan.io_min_bytes;
  return region_bytes / plan.io_bytes;
}

IoLayout::IoLayout(const IoPlan& plan, std::uint64_t region_bytes, std::uint64_t seed)
    : region_(region_bytes),
      max_(plan.io_bytes),
      min_(variable_sizes(plan) ? plan.io_min_bytes : plan.io_bytes),
      step_(variable_sizes(plan) ? std::max<std::uint64_t>(plan.io_step_bytes, 1) : 0),
      alignment_(is_random(plan.pattern) ? plan.random_alignment : 0),
      seed_(seed),
      random_(is_random(plan.pattern)),
      write_(is_write(plan.pattern)),
      read_percent_(plan.read_percent) {
  if (min_ == max_) {
    ios_ = region_ / max_;
    return;
  }
  // The cut is the same in every pass: a time-based run goes over the same pieces again.
  starts_.reserve(io_pieces(plan, region_bytes) + 1);
  std::uint64_t at = 0;
  for (std::uint64_t i = 0; at < region_; ++i) {
    starts_.push_back(at);
    at += std::min(draw_length(i), region_ - at);
  }
  starts_.push_back(region_);
  ios_ = starts_.size() - 1;
}

std::uint64_t IoLayout::draw_length(std::uint64_t index) const {
  const std::uint64_t choices = (max_ - min_) / step_ + 1;
  return min_ + step_ * (draw(seed_, kSizes, 0, index) % choices);
}

IoExtent IoLayout::at(std::uint64_t pass, std::uint64_t k) {
  IoExtent e;
  e.read = read_percent_ ? draw(seed_, kOps, pass, k) % 100 < *read_percent_ : !write_;
  if (alignment_ != 0) {
    // Independent offsets: the size of the k-th piece, anywhere in the region on the alignment.
    e.length = starts_.empty() ? max_ : starts_[k + 1] - starts_[k];
    const std::uint64_t slots = (region_ - e.length) / alignment_ + 1;
    e.offset = alignment_ * (draw(seed_, kOffsets, pass, k) % slots);
    return e;
  }
  std::uint64_t piece = k;
  if (random_) {
    // Each pass is a new permutation of the pieces (the first one's seed is the thread's own).
    if (!order_ || order_pass_ != pass) {
      order_.emplace(ios_, true, seed_ + pass * 0x9e3779b97f4a7c15ull);
      order_pass_ = pass;
    }
    piece = order_->at(k);
  }
  e.offset = starts_.empty() ? piece * max_ : starts_[piece];
  e.length = starts_.empty() ? max_ : starts_[piece + 1] - starts_[piece];
  return e;
}

}  // namespace xb
