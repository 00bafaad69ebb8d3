#include "transport/ucx/ucx_lanes.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fmt/format.h>
#include <sstream>

#include "core/error.hpp"

namespace xb::ucx {
namespace {

std::string_view strip_suffix_index(std::string_view text, char separator) {
  const auto pos = text.rfind(separator);
  if (pos == std::string_view::npos || pos + 1 == text.size()) return text;
  for (char c : text.substr(pos + 1)) {
    if (c < '0' || c > '9') return text;
  }
  return text.substr(0, pos);
}

// "1:tcp/lo.0" -> {tcp, lo}; false for tokens that are not a resource.
bool parse_resource(std::string_view token, Lane& lane) {
  const auto colon = token.find(':');
  const auto slash = token.find('/');
  if (colon == std::string_view::npos || slash == std::string_view::npos || slash < colon) return false;
  for (char c : token.substr(0, colon)) {
    if (c < '0' || c > '9') return false;
  }
  lane.transport = std::string(token.substr(colon + 1, slash - colon - 1));
  lane.device = std::string(strip_suffix_index(token.substr(slash + 1), '.'));
  return !lane.transport.empty();
}

}  // namespace

const char* to_string(Protocol protocol) { return protocol == Protocol::rma ? "rma" : "am"; }

std::vector<Lane> parse_lanes(std::string_view print_info) {
  std::vector<Lane> lanes;
  std::istringstream in{std::string(print_info)};
  std::string line;
  std::vector<int> rma_lanes;
  while (std::getline(in, line)) {
    for (const char* op : {"put[", "get["}) {
      const auto at = line.find(op);
      if (at != std::string::npos && line.find("]:", at) != std::string::npos) {
        rma_lanes.push_back(std::atoi(line.c_str() + at + 4));
      }
    }
    const auto at = line.find("lane[");
    if (at == std::string::npos) continue;
    const auto colon = line.find("]:", at);
    if (colon == std::string::npos) continue;
    std::istringstream words(line.substr(colon + 2));
    std::string word;
    Lane lane;
    lane.index = std::atoi(line.c_str() + at + 5);
    if (!(words >> word) || !parse_resource(word, lane)) continue;  // "cm rdmacm": the connection manager
    bool after_arrow = false;
    bool remote_skipped = false;
    while (words >> word) {
      if (word == "->") {
        after_arrow = true;
      } else if (after_arrow && !remote_skipped) {
        remote_skipped = true;  // the remote md/transport
      } else if (after_arrow) {
        lane.roles.emplace_back(strip_suffix_index(word, '#'));
      }
    }
    lanes.push_back(std::move(lane));
  }
  for (auto& lane : lanes) {
    if (std::find(rma_lanes.begin(), rma_lanes.end(), lane.index) != rma_lanes.end()) lane.roles.emplace_back("rma");
  }
  return lanes;
}

std::vector<Lane> endpoint_lanes(ucp_ep_h ep) {
  char* buffer = nullptr;
  std::size_t size = 0;
  FILE* stream = open_memstream(&buffer, &size);
  if (stream == nullptr) throw_errno("open_memstream(ucp_ep_print_info)");
  ucp_ep_print_info(ep, stream);
  std::fclose(stream);
  std::string text(buffer, size);
  std::free(buffer);
  return parse_lanes(text);
}

bool rma_is_native(const std::vector<Lane>& lanes) {
  for (const auto& lane : lanes) {
    if (lane.transport == "tcp") continue;
    for (const auto& role : lane.roles) {
      if (role == "rma" || role == "rma_bw") return true;
    }
  }
  return false;
}

Protocol choose_protocol(const std::vector<Lane>& lanes, std::optional<Protocol> forced) {
  if (forced) return *forced;
  return rma_is_native(lanes) ? Protocol::rma : Protocol::am;
}

std::string describe_lanes(const std::vector<Lane>& lanes) {
  std::vector<std::string> seen;
  for (const auto& lane : lanes) {
    std::string name = lane.transport + "/" + lane.device;
    if (std::find(seen.begin(), seen.end(), name) == seen.end()) seen.push_back(std::move(name));
  }
  return fmt::format("{}", fmt::join(seen, ", "));
}

std::optional<Protocol> protocol_from_environment() {
  const char* value = std::getenv("XFERBENCH_UCX_PROTOCOL");
  if (value == nullptr || *value == '\0') return std::nullopt;
  const std::string_view text(value);
  if (text == "rma") return Protocol::rma;
  if (text == "am") return Protocol::am;
  throw UsageError(fmt::format("XFERBENCH_UCX_PROTOCOL: '{}' is not rma or am (or unset for automatic)", text));
}

}  // namespace xb::ucx
