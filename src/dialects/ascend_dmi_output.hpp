#pragma once
// What ascend-dmi prints besides the seed's Peer to Peer blocks (dialects/ascend_dmi.hpp): the host
// and device bandwidth tables (-t h2d|d2h|d2d), the all-devices p2p matrices, and --fmt json. The
// real tool's exact layouts for these are not published; what is known comes from the scripts
// that parse them (docs/p2p.md, "ascend-dmi's other outputs"): a table whose first row is line 6
// with the bandwidth its 4th field, matrices found by their titles with rows the source and
// columns the destination, and JSON of {"bandwidths": [...]} with values as strings with units.
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

#include "core/result.hpp"
#include "jobs/copy/copy_plan.hpp"

namespace xb {

// One size of a host/device copy test, as printed.
struct AscendDmiCopyRow {
  std::uint64_t size = 0;
  std::uint64_t times = 0;       // executions
  double bandwidth_gbps = 0;     // decimal GB/s: size * times / elapsed
  double elapsed_us = 0;         // every execution together (the tool's "total elapsed time")
};

// The row of one copy job case (one copy of `block_bytes`, `iterations` times).
AscendDmiCopyRow ascend_dmi_copy_row(const CaseResult& copy_case);

// "Host to Device Bandwidth Test", "Device to Host …", "Device to Device …".
std::string ascend_dmi_copy_title(CopyDirection direction);

// The title, "Device id: N", the dashed rules around the column header
// "  ID  Size(Bytes)  Execute Times  Bandwidth(GB/s)  Elapsed Time(us)".
std::string render_ascend_dmi_copy_header(CopyDirection direction, int device);
// "   0    536870912         50        58.125000    461900.00": the device, then the figures.
std::string render_ascend_dmi_copy_row(int device, const AscendDmiCopyRow& row);
// The closing rule and a blank line.
std::string render_ascend_dmi_copy_footer();

// The all-devices matrix of a p2p matrix case: its title ("Unidirectional Peer to Peer Test"), a
// line of the destination ids, then one line per source id with a cell per destination (GB/s, 2
// decimals; 0 on the diagonal and where a pair was not measured), and a blank line.
std::string render_ascend_dmi_matrix(const CaseResult& matrix_case);

// --fmt json: the tests' entries gathered, printed at the end as one document.
class AscendDmiJson {
 public:
  void add_copy(CopyDirection direction, int device, const AscendDmiCopyRow& row);
  // A p2p case (one block): its type, the source and target device ids and pods, one result.
  // `size_bytes`: the plan's size, which a waived case (no configuration: it never ran) reports.
  void add_p2p(const CaseResult& p2p_case, std::uint64_t size_bytes, const std::string& from_pod, int from_id,
               const std::string& to_pod, int to_id);
  std::string dump() const;  // {"bandwidths": [...]}, indented, and a newline

 private:
  nlohmann::json entries_ = nlohmann::json::array();
  nlohmann::json& entry(const nlohmann::json& key);
};

}  // namespace xb
