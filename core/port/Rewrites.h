#pragma once
// The rewrites of the port preview that are safe by construction, one function per rule.
// Each reads the parsed file (its semantic model) at the site of a finding the project
// analysis reported, checks what makes the edit meaning-preserving, and returns the edit or
// nothing. None of them ever looks at text with a regular expression.

#include "model/Finding.h"
#include "port/Rewrite.h"

#include <QString>

#include <optional>

namespace cnready {

class SemanticModel;

/// The local name of the file's NumPy module (`np` for `import numpy as np` or
/// `import cupynumeric as np`) when a module-level `import numpy as NAME` /
/// `import cupynumeric as NAME` binds it and nothing else in the file rebinds NAME; else "".
QString numpyAlias(const SemanticModel& model);

/// R110: the builtin reduction of the finding at `f` (`sum(a)`, `max(a)`, `min(a)`, `any(a)`,
/// `all(a)`, one positional argument, no keyword) called as the NumPy function through
/// `alias`. `max`/`min`/`any`/`all` only on a 1-D array (on more axes the builtin compares
/// rows, which NumPy's full reduction does not); `sum` on an array of unknown or higher rank
/// becomes `np.sum(a, axis=0)`, which adds the rows exactly as the builtin does. Nothing for
/// `sorted`, `list`, `tuple`, `reversed`, `iter`, or when `alias` is empty.
std::optional<Rewrite> builtinReductionRewrite(const SemanticModel& model, const Finding& f,
                                               const QString& alias);

/// R109: removes an `order=` keyword whose value is the function's documented default in
/// NumPy, so the call means the same: 'C' for `reshape`, `ravel`, `flatten`, the array method
/// `copy`, `zeros`, `ones`, `empty`, `full`, `ravel_multi_index`, `unravel_index`; 'K' for
/// `array`, `np.copy`, `astype` and the `*_like` constructors; 'K' or None for `asarray`.
/// The keyword goes with its comma; nothing when a comment sits in the removed text.
std::optional<Rewrite> defaultOrderRewrite(const SemanticModel& model, const Finding& f);

/// R202: `x = x + y` -> `x += y` (also `-`, `*`, `/`; `x` the left operand of the top
/// operator) at the finding's assignment, when `x` is a plain name that is no parameter of the
/// function around it, that is never aliased (every other binding of `x` in its scope is a
/// fresh floating-point array or arithmetic, and every read of `x` only feeds arithmetic,
/// comparisons, NumPy functions that return new arrays, attribute queries or writes into
/// `x`), and whose float dtype is known (a NumPy constructor without an integer or boolean
/// dtype), so the in-place form cannot fail on a cast.
std::optional<Rewrite> inPlaceUpdateRewrite(const SemanticModel& model, const Finding& f);

/// The import swap: each module-level `import numpy as NAME` becomes
/// `import cupynumeric as NAME`. Empty when the file has another NumPy import form
/// (`import numpy`, `from numpy import …`, `import numpy.linalg as la`), which the swap would
/// leave behind on host NumPy.
QList<Rewrite> importSwapRewrites(const SemanticModel& model);

} // namespace cnready
