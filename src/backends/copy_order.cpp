#include "backends/copy_order.hpp"

#include <algorithm>
#include <iterator>

namespace xb {

namespace {
bool overlap(const void* a, std::size_t a_bytes, const void* b, std::size_t b_bytes) {
  const auto x = reinterpret_cast<std::uintptr_t>(a);
  const auto y = reinterpret_cast<std::uintptr_t>(b);
  return a_bytes != 0 && b_bytes != 0 && x < y + b_bytes && y < x + a_bytes;
}
}  // namespace

bool copies_depend(const CopyOp& earlier, const CopyOp& later) {
  return overlap(earlier.dst, earlier.bytes, later.src, later.bytes) ||  // read after write
         overlap(earlier.dst, earlier.bytes, later.dst, later.bytes) ||  // write after write
         overlap(earlier.src, earlier.bytes, later.dst, later.bytes);    // write after read
}

bool CopyFootprint::overlaps(const Intervals& set, const void* p, std::size_t bytes) {
  if (bytes == 0 || set.empty()) return false;
  const auto a = reinterpret_cast<std::uintptr_t>(p);
  const std::uintptr_t b = a + bytes;
  auto it = set.upper_bound(a);  // the first interval starting after a
  if (it != set.begin() && std::prev(it)->second > a) return true;
  return it != set.end() && it->first < b;
}

void CopyFootprint::insert(Intervals& set, const void* p, std::size_t bytes) {
  if (bytes == 0) return;
  std::uintptr_t a = reinterpret_cast<std::uintptr_t>(p);
  std::uintptr_t b = a + bytes;
  auto it = set.upper_bound(a);
  if (it != set.begin() && std::prev(it)->second >= a) --it;
  while (it != set.end() && it->first <= b) {
    a = std::min(a, it->first);
    b = std::max(b, it->second);
    it = set.erase(it);
  }
  set.emplace(a, b);
}

bool CopyFootprint::conflicts(const CopyOp& later) const {
  if (later.bytes == 0) return false;
  return overlaps(writes_, later.src, later.bytes) ||  // read after write
         overlaps(writes_, later.dst, later.bytes) ||  // write after write
         overlaps(reads_, later.dst, later.bytes);     // write after read
}

void CopyFootprint::add(const CopyOp& op) {
  if (op.bytes == 0) return;
  insert(reads_, op.src, op.bytes);
  insert(writes_, op.dst, op.bytes);
}

void CopyFootprint::clear() {
  reads_.clear();
  writes_.clear();
}


std::vector<CopyRun> independent_runs(std::span<const CopyOp> ops) {
  std::vector<CopyRun> runs;
  CopyFootprint footprint;
  std::size_t begin = 0;
  for (std::size_t i = 0; i < ops.size(); ++i) {
    if (footprint.conflicts(ops[i])) {
      runs.push_back({begin, i});
      begin = i;
      footprint.clear();
    }
    footprint.add(ops[i]);
  }
  if (begin < ops.size()) runs.push_back({begin, ops.size()});
  return runs;
}

}  // namespace xb
