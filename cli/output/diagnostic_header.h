#pragma once
// `path:row:col: CODE [*] message`: the first line of a diagnostic, shared by
// the full and concise formats.
#include <ostream>

#include "cli/output/output_format.h"
#include "cli/output/style.h"
#include "core/line_index.h"

namespace fxlint::cli {

void write_diagnostic_header(const FileResult& file, const LineIndex& lines, const Diagnostic& d,
                             const Style& style, std::ostream& out);

}  // namespace fxlint::cli
