#pragma once
// Pass two: a flow-sensitive walk of one compiled function in evaluation
// order. It skips escape hatches, tells the semantic model what each step
// binds and holds, and emits CodeVisitor events.
#include <optional>
#include <utility>
#include <vector>

#include "analyzer/argument_types.h"
#include "analyzer/code_visitor.h"
#include "analyzer/project_model.h"

namespace fxlint {

// Walks function `function` of file `file`. `visitor` receives the events.
// `known`: argument types from callers, for unannotated parameters (may be null).
// `record`: where to record what this function passes to project functions (may be null).
// `consulted`: gets the project functions (file, function) whose returns the walk read from
// `known`, once per call (may be null).
// `target`: what the walk knows of the compiler its findings are for.
void walk_function(const ProjectModel& project, int file, int function, CodeVisitor& visitor,
                   const ArgumentTypes* known = nullptr, ArgumentTypes* record = nullptr,
                   std::vector<std::pair<int, int>>* consulted = nullptr, TraceTarget target = {});

}  // namespace fxlint
