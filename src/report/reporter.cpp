#include "report/reporter.hpp"

#include <sstream>

#include "core/atomic_file.hpp"

namespace xb {

void StreamReporter::finish(const ResultDocument& doc) { render(doc, format_, out_); }

void FileReporter::finish(const ResultDocument& doc) {
  std::ostringstream text;
  render(doc, format_, text);
  write_file_atomically(path_.string(), text.str());
}

void Reporters::finish(const ResultDocument& doc) {
  for (const auto& r : all_) r->finish(doc);
}

std::optional<OutputFormat> output_format_of_file(const std::filesystem::path& path) {
  const std::string ext = path.extension().string();
  if (ext == ".json") return OutputFormat::json;
  if (ext == ".csv") return OutputFormat::csv;
  return std::nullopt;
}

}  // namespace xb
