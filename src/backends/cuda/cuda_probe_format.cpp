// The probe's wire format (see cuda_probe.hpp): no CUDA here, so tests/cuda runs it anywhere.
#include <fmt/format.h>

#include <sstream>
#include <stdexcept>

#include "backends/cuda/cuda_probe.hpp"

namespace xb::cuda {

namespace {
// Names come from the driver; keep the separators out of them.
std::string clean(std::string s) {
  for (char& c : s) {
    if (c == '\t' || c == '\n') c = ' ';
  }
  return s;
}
}  // namespace

std::string encode_probe(const Probe& p) {
  if (!p.support.ok) return "no\n" + clean(p.support.reason) + "\n";
  std::string out = "ok\n";
  for (const auto& d : p.devices) {
    out += fmt::format("{}\t{}\t{}\t{}\n", clean(d.name), d.memory_bytes, clean(d.pci_address), d.sm_count);
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
    std::string memory, sms;
    if (!std::getline(fields, d.name, '\t') || !std::getline(fields, memory, '\t') ||
        !std::getline(fields, d.pci_address, '\t') || !std::getline(fields, sms, '\t')) {
      return {Support::no(fmt::format("the CUDA probe sent an unreadable device line '{}'", line)), {}};
    }
    try {
      d.memory_bytes = std::stoull(memory);
      d.sm_count = std::stoi(sms);
    } catch (const std::exception&) {
      return {Support::no(fmt::format("the CUDA probe sent an unreadable device line '{}'", line)), {}};
    }
    p.devices.push_back(std::move(d));
  }
  if (p.devices.empty()) return {Support::no("the CUDA driver reports no devices"), {}};
  return p;
}

}  // namespace xb::cuda
