#pragma once
// What a coll case's bandwidth is, for judging: path kind coll, the size its row
// names, and the ceiling of the network device the run was pinned to (sharp_coll_test -d: an RDMA
// port's rate, or an interface's speed) times what the collective lets one port carry:
//   allreduce, iallreduce, reduce, bcast: the port's rate. The best any algorithm does is each
//     rank's data crossing its port once (in-network reduction, SHARP; a pipelined tree for
//     bcast and reduce); a host-based ring sends 2(n-1)/n of it each way, so it reaches about half.
//   allgather, reduce_scatter: n/(n-1) x the rate. The row names n blocks, and a rank's own block
//     never crosses its port.
// No device named: unknown, said so (the ranks' traffic goes where MPI routes it). The barrier has
// no bandwidth: unjudged. The rank judging is rank 0; its port is read, not the others'.
#include <filesystem>
#include <string>

#include "core/result.hpp"
#include "judge/verdict.hpp"

namespace xb {

JudgedFigure coll_figure(const CaseResult& c, const std::filesystem::path& sysfs, const std::string& server);

}  // namespace xb
