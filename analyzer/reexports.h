#pragma once
// Names of other libraries a file imports through a project module:
// `from pkg.common import *` binds `nn` when pkg.common did `import torch.nn as nn`,
// and `from pkg.common import nn` means torch.nn, not a name of pkg.common. Indexing
// sees one file at a time, so these are resolved once the project's files are known.
// Only names that end outside the project are bound so: the project's own functions
// and classes resolve through their modules as before.
#include <span>
#include <vector>

#include "analyzer/file_model.h"

namespace fxlint {

// For each file, the module-level names whose meaning other project modules give
// (empty for most files): to index the file again with (index_file's `through`).
// Names the file binds itself win over those of star imports.
std::vector<ImportMap> reexported_names(std::span<const FileModel* const> files);

}  // namespace fxlint
