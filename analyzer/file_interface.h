#pragma once
// What other files' analysis can see of a file: its names, imports, functions
// and classes with their facts, parameters and the values it exports, as one
// fingerprint. Two versions of a file with the same fingerprint give every
// other file the same compile regions and the same facts, so what the other
// files' walks recorded can be kept (an edit inside a function body changes
// only that file's own walk).
#include <cstdint>

#include "analyzer/file_model.h"

namespace fxlint {

uint64_t interface_fingerprint(const FileModel& model);

}  // namespace fxlint
