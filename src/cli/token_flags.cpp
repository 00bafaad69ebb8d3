#include "cli/token_flags.hpp"

#include "core/error.hpp"
#include "transport/token_file.hpp"

namespace xb {

void add_token_file_flag(CLI::App& app, std::string& token_file) {
  app.add_option("--token-file", token_file,
                 "the shared token from this file's first line (a file of this user, mode 0600); not with --token");
}

void resolve_token_file(std::string& token, const std::string& token_file) {
  if (token_file.empty()) return;
  if (!token.empty()) throw UsageError("--token-file: not with --token (give the token one way)");
  token = read_token_file(token_file, "--token-file");
}

}  // namespace xb
