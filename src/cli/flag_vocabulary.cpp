#include "cli/flag_vocabulary.hpp"

#include <algorithm>
#include <iterator>
#include <string>

namespace xb {
namespace {

struct ValueName {
  std::string_view command;  // empty: every native command
  std::string_view option;   // the long name without dashes, or the positional's name
  std::string_view value;
};

// Command-specific entries first: the first match wins.
constexpr ValueName kVocabulary[] = {
    // Swept flags (core/sweep.hpp): one value, a list A,B,C or a range MIN:MAX[:FACTOR].
    {"link", "size", "SIZES"},
    {"xfer", "block", "SIZES"},
    {"copy", "size", "SIZES"},
    {"p2p", "size", "SIZES"},
    {"io", "io-size", "SIZES"},
    {"io", "qd", "DEPTHS"},
    {"kv", "block", "SIZES"},
    {"compare", "threshold", "RATIO"},
    {"fleet", "threshold", "FRACTION"},
    {"compare", "BASE", "FILES"},  // a file, or repetitions a.json,b.json
    {"compare", "NEW", "FILES"},
    {"report", "RESULTS", "FILE"},
    {"kv", "op", "dump|load"},
    {"xfer", "role", "server|client"},
    // Sizes and counts.
    {"", "size", "SIZE"},
    {"", "block", "SIZE"},
    {"", "io-size", "SIZE"},
    {"", "offset", "SIZE"},
    {"", "total", "SIZE"},
    {"", "pool-chunk", "SIZE"},
    {"", "max-exposed", "SIZE"},
    {"", "blocks", "N"},
    {"", "iterations", "N"},
    {"", "iters", "N"},
    {"", "times", "N"},
    {"", "warmup", "N"},
    {"", "passes", "N"},
    {"", "repetitions", "N"},
    {"", "streams", "N"},
    {"", "fragments", "N"},
    {"", "threads", "N"},
    {"", "qd", "N"},
    {"", "devices", "N"},
    {"", "device", "INDEX"},
    {"", "src", "INDEX"},
    {"", "dst", "INDEX"},
    {"", "clients", "N"},
    {"", "max-regions", "N"},
    {"", "max-pairs", "N"},
    {"", "matrix-max-ranks", "N"},
    {"", "step", "FACTOR"},
    {"", "alpha", "LEVEL"},
    // Time.
    {"", "wait", "SECONDS"},
    {"", "window", "SECONDS"},
    {"", "time", "SECONDS"},
    // Files, directories, addresses.
    {"", "output", "FILE"},
    {"", "expect", "FILE"},
    {"", "token-file", "FILE"},
    {"", "ready-file", "FILE"},
    {"", "rounds", "FILE"},
    {"", "locations", "FILE"},
    {"", "file", "FILE"},
    {"", "json", "FILE"},
    {"", "dir", "DIR"},
    {"", "store", "DIR"},
    {"", "odirect-dir", "DIR"},
    {"", "shared-dir", "DIR"},
    {"", "listen", "HOST[:PORT]"},
    {"", "peer", "HOST:PORT"},
    {"", "peer-ip", "IP"},
    {"", "host-ip", "IP"},
    {"", "data-port", "PORT"},
    // Words from a set, and free words.
    {"", "format", "table|json|csv"},
    {"", "units", "binary|decimal"},
    {"", "backend", "NAME"},
    {"", "engine", "NAME"},
    {"", "transport", "ucx|tcp"},
    {"", "from", "KIND"},
    {"", "to", "KIND"},
    {"", "mem", "SRC[:DST]"},
    {"", "topology", "per-device|shared"},
    {"", "rw", "MODE"},
    {"", "xfer", "TYPE"},
    {"", "sync", "none|block|end"},
    {"", "direction", "uni|bi|both"},
    {"", "mode", "MODE"},
    {"", "op", "write|read"},
    {"", "schedule", "NAME"},
    {"", "lines", "host|file"},
    {"", "token", "TOKEN"},
    {"", "expect-rule", "RULE"},
};

std::string_view value_name(std::string_view command, const CLI::Option& o) {
  for (const auto& v : kVocabulary) {
    if (!v.command.empty() && v.command != command) continue;
    for (const auto& name : o.get_lnames()) {
      if (name == v.option) return v.value;
    }
    if (o.get_lnames().empty() && o.get_name() == v.option) return v.value;  // a positional
  }
  return {};
}

}  // namespace

void name_option_values(CLI::App& app, std::string_view command) {
  static constexpr std::string_view kNative[] = {"copy", "io",    "kv",      "p2p",    "link",   "xfer",
                                                 "fleet", "survey", "devices", "report", "compare"};
  if (std::find(std::begin(kNative), std::end(kNative), command) == std::end(kNative)) return;  // a dialect
  for (CLI::Option* o : app.get_options()) {
    if (o->get_type_size() == 0 || o->get_type_name() != "TEXT") continue;  // a flag, or named already
    if (const std::string_view name = value_name(command, *o); !name.empty()) o->type_name(std::string(name));
  }
}

}  // namespace xb
