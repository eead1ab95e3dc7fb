#include "cli/output/output_format.h"

namespace fxlint::cli {

std::optional<OutputFormat> parse_output_format(std::string_view name) {
  if (name == "full") return OutputFormat::Full;
  if (name == "concise") return OutputFormat::Concise;
  if (name == "json") return OutputFormat::Json;
  if (name == "sarif") return OutputFormat::Sarif;
  if (name == "github") return OutputFormat::Github;
  return std::nullopt;
}

void write_diagnostics(OutputFormat format, std::span<const FileResult> files,
                       const OutputOptions& options, std::ostream& out) {
  switch (format) {
    case OutputFormat::Full:
      write_full(files, options, out);
      if (options.summary) write_summary(files, out);
      break;
    case OutputFormat::Concise:
      write_concise(files, options, out);
      if (options.summary) write_summary(files, out);
      break;
    case OutputFormat::Json: write_json(files, out); break;
    case OutputFormat::Sarif: write_sarif(files, out); break;
    case OutputFormat::Github: write_github(files, out); break;
  }
}

}  // namespace fxlint::cli
