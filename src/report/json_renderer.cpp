#include "report/renderer.hpp"

namespace xb {

void render_json(const ResultDocument& doc, std::ostream& out) { out << to_json(doc).dump(2) << '\n'; }

}  // namespace xb
