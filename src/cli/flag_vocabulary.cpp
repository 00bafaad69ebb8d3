#include "cli/flag_vocabulary.hpp"

#include <algorithm>
#include <iterator>
#include <string>

#include "core/split.hpp"

namespace xb {
namespace {

struct ValueName {
  std::string_view command;  // empty: every native command
  std::string_view value;
  std::string_view options;  // the long names without dashes, or the positionals' names, space-separated
};

// Command-specific entries first: the first match wins.
constexpr ValueName kVocabulary[] = {
    // Swept flags (core/sweep.hpp): one value, a list A,B,C or a range MIN:MAX[:FACTOR].
    {"link", "SIZES", "size"},
    {"xfer", "SIZES", "block"},
    {"copy", "SIZES", "size"},
    {"p2p", "SIZES", "size"},
    {"io", "SIZES", "io-size"},
    {"io", "DEPTHS", "qd"},
    {"kv", "SIZES", "block"},
    {"compare", "RATIO", "threshold"},
    {"fleet", "FRACTION", "threshold"},
    {"compare", "FILES", "BASE NEW"},  // a file, or repetitions a.json,b.json
    {"report", "FILE", "RESULTS"},
    {"kv", "dump|load", "op"},
    {"xfer", "server|client", "role"},
    // Sizes and counts.
    {"", "SIZE", "size block io-size offset total pool-chunk max-exposed"},
    {"", "N", "blocks iterations iters times warmup passes repetitions streams fragments threads qd devices clients "
              "max-regions max-pairs matrix-max-ranks"},
    {"", "INDEX", "device src dst"},
    {"", "FACTOR", "step"},
    {"", "LEVEL", "alpha"},
    // Time.
    {"", "SECONDS", "wait window time"},
    // Files, directories, addresses.
    {"", "FILE", "output expect token-file ready-file rounds locations file json"},
    {"", "DIR", "dir store odirect-dir shared-dir"},
    {"", "HOST[:PORT]", "listen"},
    {"", "HOST:PORT", "peer"},
    {"", "IP", "peer-ip host-ip"},
    {"", "PORT", "data-port"},
    // Words from a set, and free words.
    {"", "table|json|csv", "format"},
    {"", "binary|decimal", "units"},
    {"", "NAME", "backend engine schedule"},
    {"", "ucx|tcp", "transport"},
    {"", "KIND", "from to"},
    {"", "SRC[:DST]", "mem"},
    {"", "per-device|shared", "topology"},
    {"", "MODE", "rw mode"},
    {"", "TYPE", "xfer"},
    {"", "none|block|end", "sync"},
    {"", "uni|bi|both", "direction"},
    {"", "write|read", "op"},
    {"", "host|file", "lines"},
    {"", "TOKEN", "token"},
    {"", "RULE", "expect-rule"},
};

std::string_view value_name(std::string_view command, const CLI::Option& o) {
  for (const auto& v : kVocabulary) {
    if (!v.command.empty() && v.command != command) continue;
    for (const std::string_view option : split_on(v.options, ' ')) {
      for (const auto& name : o.get_lnames()) {
        if (name == option) return v.value;
      }
      if (o.get_lnames().empty() && o.get_name() == option) return v.value;  // a positional
    }
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
