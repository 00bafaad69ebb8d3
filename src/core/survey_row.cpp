#include "core/survey_row.hpp"

namespace xb {

void annotate_survey_row(CaseResult& c, const SurveyRow& row) {
  if (!c.config.is_object()) c.config = nlohmann::json::object();
  c.config["survey"] = {{"path", row.path}, {"size_bytes", row.size_bytes}, {"metric", row.metric}};
}

std::optional<SurveyRow> survey_row_of(const CaseResult& c) {
  if (!c.config.is_object() || !c.config.contains("survey")) return std::nullopt;
  const auto& s = c.config["survey"];
  if (!s.is_object() || !s.contains("path") || !s["path"].is_string()) return std::nullopt;
  SurveyRow row;
  row.path = s["path"].get<std::string>();
  if (s.contains("size_bytes") && s["size_bytes"].is_number_unsigned()) row.size_bytes = s["size_bytes"].get<std::uint64_t>();
  if (s.contains("metric") && s["metric"].is_string()) row.metric = s["metric"].get<std::string>();
  return row;
}

}  // namespace xb
