#include "runtime/runtime.hpp"

#include <fmt/format.h>

#include <charconv>
#include <stdexcept>
#include <system_error>

#include "core/plan_error.hpp"

namespace xb {
namespace {

void check_root(const Runtime& rt, int root, const char* call) {
  if (root < 0 || root >= rt.size()) {
    throw std::invalid_argument(fmt::format("Runtime::{}: root {} is not a rank of {}", call, root, rt.size()));
  }
}

}  // namespace

std::vector<std::string> Runtime::gather(const std::string& mine, int root) {
  check_root(*this, root, "gather");
  std::vector<std::string> all = allgather(mine);
  if (rank() != root) all.clear();
  return all;
}

std::string Runtime::broadcast(const std::string& text, int root) {
  check_root(*this, root, "broadcast");
  // Only the root's bytes travel in full; the others send nothing.
  std::vector<std::string> all = allgather(rank() == root ? text : std::string());
  return std::move(all.at(static_cast<std::size_t>(root)));
}

double Runtime::max(double mine) {
  // The exact bits of each double cross as text (hexadecimal, to_chars and from_chars agree on the
  // form): no rounding on the way.
  char buffer[64];
  const auto written = std::to_chars(buffer, buffer + sizeof buffer, mine, std::chars_format::hex);
  const std::vector<std::string> all = allgather(std::string(buffer, written.ptr));
  double largest = mine;
  for (const std::string& text : all) {
    double v = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v, std::chars_format::hex);
    if (ec != std::errc() || end != text.data() + text.size()) {
      throw std::runtime_error(fmt::format("Runtime::max: a rank sent \"{}\", not a number", text));
    }
    if (v > largest) largest = v;
  }
  return largest;
}

void require_ranks_agree(Runtime& group, const std::string& terms, const std::string& hint) {
  const std::vector<std::string> all = group.allgather(terms);
  for (std::size_t r = 1; r < all.size(); ++r) {
    if (all[r] != all[0]) {
      throw PlanMismatch(fmt::format("the ranks disagree: rank 0 runs with {}, rank {} with {}{}", all[0], r, all[r],
                                     hint.empty() ? "" : " (" + hint + ")"));
    }
  }
}

}  // namespace xb
