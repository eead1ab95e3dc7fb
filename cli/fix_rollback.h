#pragma once
// `fix --verify` keeps what verifies: when the fixed code makes a verify target
// worse, find the files whose fixes do it (halving the set of fixed files), and
// within each file the rules (leaving out one rule's fixes at a time), so that
// only those fixes are rolled back.
#include <functional>
#include <set>
#include <string>
#include <vector>

namespace fxlint::cli {

// Whether some target ends up worse than before the fixes, when only the files
// in `files` keep their fixes and, in every file, the rules in `blocked[file]`
// are left unfixed.
using RegressionTest =
    std::function<bool(const std::vector<size_t>& files, const std::vector<std::set<std::string>>& blocked)>;

// `applied[file]`: the rules whose fixes the file got (empty: not fixed).
// Returns, per file, the rules to roll back; a file whose fixes harm only
// together with another's, or whose rules do not separate, loses all its fixes.
std::vector<std::set<std::string>> find_rollback(const std::vector<std::set<std::string>>& applied,
                                                 const RegressionTest& regresses);

}  // namespace fxlint::cli
