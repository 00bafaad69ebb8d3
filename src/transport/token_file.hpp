#pragma once
// A session token kept in a file (--token-file PATH, or $XFERBENCH_TOKEN_FILE): the third way to
// give a token besides the flag and the environment, for scripts that must not put it on a command
// line (ps shows it to every user) or in their environment. Trusted as OpenSSH trusts a private
// key: a regular file (not followed through a link) of this user that no one else may read or
// write (mode 0600 or stricter). The token is its first line, at most 1024 bytes, not empty.
#include <string>
#include <string_view>

namespace xb {

// The token in `path`. UsageError naming `what` (the flag or the variable) and the rule otherwise:
// "--token-file /etc/xb.token: mode 0644, open to others (chmod 600 it)".
std::string read_token_file(const std::string& path, std::string_view what);

}  // namespace xb
