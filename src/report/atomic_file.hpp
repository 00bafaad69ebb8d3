#pragma once
// Writes a whole file under a temporary name in the same directory, then renames it into place,
// so a reader (or a run killed half-way) never leaves half a report behind. The same approach as
// the result documents' --output (cli/output.cpp), for text that is not a result document.
#include <string>
#include <string_view>

namespace xb {

// Throws SystemError naming the file on a failed write or rename; the temporary is removed.
void write_file_atomically(const std::string& path, std::string_view text);

}  // namespace xb
