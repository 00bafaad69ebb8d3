#pragma once
// The addresses of two nodes started by hand (`xferbench p2p --ip PEER --hip SELF`, ascend-dmi's
// `--sp 0/1 --ip --hip`): checked, and the native command's rank derived from them (the dialect is
// told it by --sp). The two meet through cli/two_node_runtime and run p2p_remote.hpp's job.
#include <string>

namespace xb {

// PlanError "FLAG VALUE: not a valid IP address" unless `value` is a literal IPv4 or IPv6 address;
// `flag_name` is the caller's flag as its users type it, or a field marked with flag().
void check_p2p_ip(const std::string& value, const std::string& flag_name);

// The native command's rank rule: the lower address (byte by byte) is rank 0, the same answer on
// both nodes, so neither needs a role flag. check_p2p_address_pair: PlanError naming p2p.peer_ip or
// p2p.host_ip unless both are literal, of one family and different (else both could take one rank);
// p2p_rank_by_address expects a checked pair (std::invalid_argument otherwise).
void check_p2p_address_pair(const std::string& peer, const std::string& self);
int p2p_rank_by_address(const std::string& self, const std::string& peer);

}  // namespace xb
