#pragma once
// Reading result documents back from files for `report` and `compare`. A file that cannot be read,
// is not JSON, is another kind of document or has a schema version this build does not read is bad
// input: a UsageError whose one line names the file and the problem.
#include <string>

#include "core/result.hpp"

namespace xb {

struct LoadedResult {
  std::string path;  // as the user gave it
  ResultDocument doc;
};

LoadedResult load_result_file(const std::string& path);

}  // namespace xb
