#include "dialects/ascend_dmi_output.hpp"

#include <fmt/format.h>

#include <numeric>
#include <stdexcept>

#include "core/matrix.hpp"
#include "jobs/copy/copy_config.hpp"
#include "jobs/p2p/p2p_config.hpp"

namespace xb {
namespace {

const std::string kRule(66, '-');

double metric_of(const CaseResult& c, std::string_view name) {
  const Metric* m = c.find_metric(name);
  if (m == nullptr) throw std::logic_error(fmt::format("ascend-dmi: the case has no metric {}", name));
  return m->value;
}

std::string bytes_text(std::uint64_t n) { return fmt::format("{} Bytes", n); }
std::string gbps_text(double v) { return fmt::format("{:.6f} GB/s", v); }
std::string us_text(double v) { return fmt::format("{:.2f} us", v); }

}  // namespace

AscendDmiCopyRow ascend_dmi_copy_row(const CaseResult& c) {
  const Series* copy = c.find_series("copy");
  if (copy == nullptr) throw std::logic_error("ascend-dmi: the copy case has no copy series");
  AscendDmiCopyRow r;
  const CopyConfig config = c.config.get<CopyConfig>();
  r.size = config.block_bytes * config.blocks;
  r.times = copy->samples.size();
  r.elapsed_us = std::accumulate(copy->samples.begin(), copy->samples.end(), 0.0);
  r.bandwidth_gbps = r.elapsed_us > 0 ? static_cast<double>(r.size) * static_cast<double>(r.times) / r.elapsed_us / 1e3 : 0;
  return r;
}

std::string ascend_dmi_copy_title(CopyDirection d) {
  switch (d) {
    case CopyDirection::h2d: return "Host to Device Bandwidth Test";
    case CopyDirection::d2h: return "Device to Host Bandwidth Test";
    case CopyDirection::d2d: return "Device to Device Bandwidth Test";
    case CopyDirection::h2h: break;
  }
  throw std::logic_error("ascend-dmi: no host to host test");
}

std::string render_ascend_dmi_copy_header(CopyDirection d, int device) {
  return fmt::format("{}\nDevice id: {}\n{}\n  ID  Size(Bytes)  Execute Times  Bandwidth(GB/s)  Elapsed Time(us)\n{}\n",
                     ascend_dmi_copy_title(d), device, kRule, kRule);
}

std::string render_ascend_dmi_copy_row(int device, const AscendDmiCopyRow& r) {
  return fmt::format("{:>4}{:>13}{:>15}{:>17.6f}{:>18.2f}\n", device, r.size, r.times, r.bandwidth_gbps, r.elapsed_us);
}

std::string render_ascend_dmi_copy_footer() { return kRule + "\n\n"; }

std::string render_ascend_dmi_matrix(const CaseResult& c) {
  const auto m = case_matrix(c);
  if (!m) throw std::logic_error("ascend-dmi: the p2p matrix case has no matrix");
  const bool bidirectional = c.label("direction") == "bidirectional";
  std::string out = bidirectional ? "Bidirectional Peer to Peer Test\n" : "Unidirectional Peer to Peer Test\n";
  const std::size_t n = m->cols.size();
  std::string header(7, ' ');
  for (std::size_t j = 0; j < n; ++j) header += fmt::format("{:<10}", j);
  while (!header.empty() && header.back() == ' ') header.pop_back();
  out += header + "\n";
  for (std::size_t i = 0; i < m->rows.size(); ++i) {
    std::string line = fmt::format("{:<7}", i);
    for (std::size_t j = 0; j < n; ++j) {
      const auto& v = m->values.at(i).at(j);
      line += fmt::format("{:<10}", v && i != j ? fmt::format("{:.2f}", *v) : std::string("0"));
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out += line + "\n";
  }
  return out + "\n";
}

nlohmann::json& AscendDmiJson::entry(const nlohmann::json& key) {
  for (auto& e : entries_) {
    bool same = true;
    for (const auto& [k, v] : key.items()) same = same && e.contains(k) && e.at(k) == v;
    if (same) return e;
  }
  nlohmann::json e = key;
  e["results"] = nlohmann::json::array();
  entries_.push_back(std::move(e));
  return entries_.back();
}

void AscendDmiJson::add_copy(CopyDirection d, int device, const AscendDmiCopyRow& r) {
  entry({{"type", ascend_dmi_copy_title(d)}, {"device_id", device}})["results"].push_back(
      {{"size", bytes_text(r.size)},
       {"execute_times", r.times},
       {"bandwidth", gbps_text(r.bandwidth_gbps)},
       {"elapsed_time", us_text(r.elapsed_us)}});
}

void AscendDmiJson::add_p2p(const CaseResult& c, std::uint64_t size_bytes, const std::string& from_pod, int from_id,
                            const std::string& to_pod, int to_id) {
  const bool bidirectional = c.label("direction") == "bidirectional";
  nlohmann::json& e = entry({{"type", bidirectional ? "Bidirectional Peer to Peer Test" : "Unidirectional Peer to Peer Test"},
                             {"source_pod", from_pod},
                             {"source_device_id", from_id},
                             {"target_pod", to_pod},
                             {"target_device_id", to_id}});
  if (c.status != CaseStatus::ok) {
    e["results"].push_back({{"size", bytes_text(size_bytes)},
                            {"status", to_string(c.status)},
                            {"reason", c.status_reason}});
    return;
  }
  e["results"].push_back({{"size", bytes_text(c.config.get<P2pConfig>().size_bytes)},
                          {"execute_times", static_cast<std::uint64_t>(metric_of(c, "executions"))},
                          {"bandwidth", gbps_text(metric_of(c, "bandwidth"))},
                          {"elapsed_time", us_text(metric_of(c, "elapsed_avg"))}});
}

std::string AscendDmiJson::dump() const { return nlohmann::json{{"bandwidths", entries_}}.dump(4) + "\n"; }

}  // namespace xb
