#pragma once
// A transport's description (TransportInfo) as it stands in a result's config: the link and xfer
// jobs write it, their dialects read it back. Its keys are its field names, so nlohmann's macro
// writes both directions (a missing key throws nlohmann's out_of_range naming it).
#include <nlohmann/json.hpp>

#include "transport/transport.hpp"

namespace xb {

NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(TransportInfo, name, version, lanes, settings)

}  // namespace xb
