#pragma once
// The configuration of one coll case, typed: the coll job writes it and the sharp_coll_test dialect
// reads it back (`case.config.get<CollConfig>()`), so the keys are spelled once, here.
#include <cstdint>
#include <optional>
#include <string>

#include "core/json_record.hpp"

namespace xb {

struct CollConfig {
  std::string collective;         // "allreduce", "barrier", …
  std::uint64_t size = 0;         // the bytes the size row names (coll_row_bytes)
  std::uint64_t block_bytes = 0;  // each rank's block
  std::uint64_t count = 0;        // elements per block
  std::string datatype;           // "int32", …
  int ranks = 0;                  // the group's size
  std::string group;              // how the ranks were grouped
  std::uint64_t iterations = 0;
  std::uint64_t warmup = 0;
  bool line_up = false;            // an untimed barrier before each timed iteration
  std::string path = "MPI";        // what ran the collectives
  std::optional<unsigned> outstanding;  // iallreduce only
  std::optional<int> root;              // reduce and bcast only
  std::optional<bool> checked;          // whether the result was checked (set once the case ran)
  std::optional<std::string> net_device;  // the network device named for the run (-d), where one was
};

XB_JSON_RECORD(CollConfig, collective, size, block_bytes, count, datatype, ranks, group, iterations, warmup, line_up,
               path, outstanding, root, checked, net_device)

}  // namespace xb
