// The probe's wire format (see cuda_probe.hpp): no CUDA here, so tests/cuda runs it anywhere.
#include <fmt/format.h>

#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "backends/cuda/cuda_probe.hpp"
#include "core/split.hpp"

namespace xb::cuda {

namespace {
// Names come from the driver; keep the line's separators out of them.
std::string clean(std::string s) {
  for (char& c : s) {
    if (c == '\t' || c == '\n') c = ' ';
  }
  return s;
}

// Inside the links field ',' and ';' separate too.
std::string clean_link_part(std::string s) {
  s = clean(std::move(s));
  for (char& c : s) {
    if (c == ';' || c == ',') c = ' ';
  }
  return s;
}

std::string encode_links(const std::vector<PeerLink>& links) {
  std::string out;
  for (const auto& l : links) {
    if (!out.empty()) out += ';';
    out += fmt::format("{},{},{},{},{}", clean_link_part(l.technology), clean_link_part(l.peer_pci_address),
                       l.through_switch ? 1 : 0, l.links,
                       l.bytes_per_second_each);
  }
  return out;
}

// Throws (std::invalid_argument and kin) on a malformed entry; the caller words it.
std::vector<PeerLink> decode_links(const std::string& text) {
  std::vector<PeerLink> links;
  if (text.empty()) return links;  // a device without peer links
  for (const std::string_view entry : split_on(text, ';')) {
    const auto f = split_on(entry, ',');
    if (f.size() != 5 || (f[2] != "0" && f[2] != "1")) throw std::invalid_argument(std::string(entry));
    links.push_back(PeerLink{std::string(f[0]), std::string(f[1]), f[2] == "1", std::stoi(std::string(f[3])),
                             std::stod(std::string(f[4]))});
  }
  return links;
}
}  // namespace

std::string encode_probe(const Probe& p) {
  if (!p.support.ok) return "no\n" + clean(p.support.reason) + "\n";
  std::string out = "ok\n";
  for (const auto& d : p.devices) {
    out += fmt::format("{}\t{}\t{}\t{}\t{}\t{}\t{}\n", clean(d.name), d.memory_bytes, clean(d.pci_address), d.sm_count,
                       d.peer_links_down, encode_links(d.peer_links), clean(d.peer_links_note));
  }
  return out;
}

Probe decode_probe(const std::string& text) {
  std::istringstream in(text);
  std::string status;
  if (!std::getline(in, status)) return {Support::no("the CUDA probe process sent nothing"), {}};
  if (status == "no") {
    std::string reason;
    std::getline(in, reason);
    return {Support::no(reason.empty() ? "the CUDA probe gave no reason" : reason), {}};
  }
  if (status != "ok") return {Support::no(fmt::format("the CUDA probe sent an unreadable answer '{}'", status)), {}};
  Probe p;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    std::istringstream fields(line);
    ProbedDevice d;
    std::string memory, sms, down, links;
    if (!std::getline(fields, d.name, '\t') || !std::getline(fields, memory, '\t') ||
        !std::getline(fields, d.pci_address, '\t') || !std::getline(fields, sms, '\t') ||
        !std::getline(fields, down, '\t') || !std::getline(fields, links, '\t')) {
      return {Support::no(fmt::format("the CUDA probe sent an unreadable device line '{}'", line)), {}};
    }
    std::getline(fields, d.peer_links_note, '\t');  // the last field: empty where there is no note
    try {
      d.memory_bytes = std::stoull(memory);
      d.sm_count = std::stoi(sms);
      d.peer_links_down = std::stoi(down);
      d.peer_links = decode_links(links);
    } catch (const std::exception&) {
      return {Support::no(fmt::format("the CUDA probe sent an unreadable device line '{}'", line)), {}};
    }
    p.devices.push_back(std::move(d));
  }
  if (p.devices.empty()) return {Support::no("the CUDA driver reports no devices"), {}};
  return p;
}

}  // namespace xb::cuda
