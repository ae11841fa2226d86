#pragma once
// Small helpers shared by the BLOCKS rules (R101–R111). They read the SemanticModel only.

#include <QString>
#include <tree_sitter/api.h>

#include <string_view>

namespace cnready {

class SemanticModel;

namespace blocks {

/// Source text of `n` for a message: whitespace runs collapsed, cut to `max` characters with
/// "…". Wrapped in backticks.
QString quoted(const SemanticModel& model, TSNode n, int max = 40);

/// Whether a bare builtin (`sum`, `float`, `print`, ...) is meant at `callee`: an identifier
/// with that text that no import, def or assignment of the file rebinds.
bool isBuiltin(const SemanticModel& model, TSNode callee, std::string_view name);

/// Whether `expr` (a condition) reads a value that lives with the array runtime: a full
/// reduction of an array (`np.max(r)`, `a.any()`), an element read (`a[i]`), a name bound to
/// one of those, or np.allclose / np.array_equal on arrays. Bounded iterative walk; does not
/// look into lambdas. `what` receives the sub-expression found. With `unknownReductions`, a
/// full NumPy reduction (`np.linalg.norm(r)`, `np.max(x)`) of a value of unknown kind counts
/// too: whatever it is given, the array runtime returns a device scalar.
bool readsDeviceValue(const SemanticModel& model, TSNode expr, TSNode* what = nullptr,
                      bool unknownReductions = false);

} // namespace blocks
} // namespace cnready
