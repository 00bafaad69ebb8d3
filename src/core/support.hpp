#pragma once
// "Supported here" or "not supported here, because …": distinct from an error (see Unavailable).
#include <string>
#include <utility>

namespace xb {

struct Support {
  bool ok = true;
  std::string reason;  // why not, when !ok

  static Support yes() { return {}; }
  static Support no(std::string why) { return {false, std::move(why)}; }
};

}  // namespace xb
