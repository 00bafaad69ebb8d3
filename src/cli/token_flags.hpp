#pragma once
// --token-file PATH beside --token (xfer, link, p2p, fleet): the token read from a file this user
// alone may read (transport/token_file.hpp), so it appears on no command line. One of the two.
#include <CLI/CLI.hpp>
#include <string>

namespace xb {

void add_token_file_flag(CLI::App& app, std::string& token_file);
// After parsing: `token` becomes the file's token when --token-file was given. UsageError when
// both were given, or the file is not to be trusted.
void resolve_token_file(std::string& token, const std::string& token_file);

}  // namespace xb
