#include "report/renderer.hpp"

#include <fmt/format.h>

namespace xb {

std::optional<OutputFormat> output_format_from(std::string_view name) {
  if (name == "table") return OutputFormat::table;
  if (name == "json") return OutputFormat::json;
  if (name == "csv") return OutputFormat::csv;
  return std::nullopt;
}

void render(const ResultDocument& doc, OutputFormat format, std::ostream& out) {
  switch (format) {
    case OutputFormat::table: render_table(doc, out); break;
    case OutputFormat::json: render_json(doc, out); break;
    case OutputFormat::csv: render_csv(doc, out); break;
  }
}

std::string format_number(double value) {
  if (value >= 1000 || value <= -1000) return fmt::format("{:.0f}", value);
  if (value >= 100 || value <= -100) return fmt::format("{:.1f}", value);
  return fmt::format("{:.3f}", value);
}

}  // namespace xb
