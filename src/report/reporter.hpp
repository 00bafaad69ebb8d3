#pragma once
// Reporters over the one result model, as google/benchmark's display and file reporters: each
// receives the whole document when the run finishes, and several run at once (`--format table
// --output r.json`: the table on the terminal and the JSON in the file). The table, JSON and CSV
// need the whole document (column widths, one JSON object, one header); what is shown case by case
// as a run goes (a dialect's rows, progress) comes from the job's CaseSink (core/case_sink.hpp).
#include <filesystem>
#include <memory>
#include <ostream>
#include <vector>

#include "core/result.hpp"
#include "report/renderer.hpp"

namespace xb {

class Reporter {
 public:
  virtual ~Reporter() = default;
  virtual void finish(const ResultDocument& doc) = 0;
};

// Renders the document to a stream (the display: stdout).
class StreamReporter final : public Reporter {
 public:
  StreamReporter(OutputFormat format, std::ostream& out) : format_(format), out_(out) {}
  void finish(const ResultDocument& doc) override;

 private:
  OutputFormat format_;
  std::ostream& out_;
};

// Renders the document to a file, written whole under a temporary name and renamed (a reader
// never sees half a file; a link planted at the name is replaced, not written through).
class FileReporter final : public Reporter {
 public:
  FileReporter(OutputFormat format, std::filesystem::path path) : format_(format), path_(std::move(path)) {}
  void finish(const ResultDocument& doc) override;

 private:
  OutputFormat format_;
  std::filesystem::path path_;
};

// Every reporter of a run at once.
class Reporters final : public Reporter {
 public:
  void add(std::unique_ptr<Reporter> r) { all_.push_back(std::move(r)); }
  void finish(const ResultDocument& doc) override;

 private:
  std::vector<std::unique_ptr<Reporter>> all_;
};

// The format a file's name asks for: .json, .csv; none for any other name.
std::optional<OutputFormat> output_format_of_file(const std::filesystem::path& path);

}  // namespace xb
