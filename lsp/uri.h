#pragma once
// `file://` URIs <-> filesystem paths (RFC 8089 as editors send them:
// percent-encoded, with an empty authority). Other schemes (untitled:, ...)
// have no path; their documents are linted with the default settings.
#include <optional>
#include <string>
#include <string_view>

namespace fxlint::lsp {

// "file:///home/a%20b/x.py" -> "/home/a b/x.py"; nullopt for other schemes
// or a malformed escape.
std::optional<std::string> uri_to_path(std::string_view uri);

// "/home/a b/x.py" -> "file:///home/a%20b/x.py".
std::string path_to_uri(std::string_view path);

}  // namespace fxlint::lsp
