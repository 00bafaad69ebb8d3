#pragma once
// The flags of a command whose ranks meet over a transport (p2p --mpi, fleet): --transport, --hip,
// --token and --wait, checked in one place so every such command words their rules alike.
#include <chrono>
#include <string>

namespace xb {

struct TransportFlags {
  std::string transport;  // "" = the first of transport_names()
  std::string host;       // --hip; "" = the command's default address
  std::string token;      // "" = default_session_token()
  std::string token_file;  // --token-file: read into `token` after parsing (cli/token_flags.hpp)
  std::string wait = "20";  // seconds
};

struct TransportChoice {
  std::string transport;
  std::string host;
  std::string token;
  std::chrono::milliseconds wait{20000};
};

// UsageError naming the flag and the rule: a transport this build lacks, a malformed --hip, a
// --wait outside 1 s to a day.
TransportChoice parse_transport_flags(const TransportFlags& flags);

}  // namespace xb
