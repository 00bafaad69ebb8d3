#pragma once
// A transport's description (TransportInfo) as it stands in a result's config: the link and xfer
// jobs write it, their dialects read it back.
#include <nlohmann/json.hpp>

#include "transport/transport.hpp"

namespace xb {

void to_json(nlohmann::json& j, const TransportInfo& t);
// A missing key throws nlohmann's out_of_range naming it.
void from_json(const nlohmann::json& j, TransportInfo& t);

}  // namespace xb
