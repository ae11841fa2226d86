#pragma once
// Small helpers shared by the BLOCKS rules (R101–R111). They read the SemanticModel only.

#include <QString>
#include <tree_sitter/api.h>

#include <cstdint>
#include <string_view>
#include <utility>
#include <vector>

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

/// Whether `expr` is built only from host-side facts: number/bool literals, `x.shape` /
/// `x.ndim` / `x.size` / `len(x)`, names the model knows to be host scalars, tuples and lists
/// of those, arithmetic and comparisons on them, and np.asarray / np.array / np.array_equal /
/// np.any / np.all ... of such. An array made from a shape (`np.asarray(a.shape) - w`) depends
/// on no queued device work, so reading it does not drain the pipeline. Bounded walk.
bool hostMetadataOnly(const SemanticModel& model, TSNode expr);

/// The blocks of the `if` statements whose condition is a verbosity or debug switch
/// (`if verbose:`, `if self.verbose > 1:`, `if debug and it % 10 == 0:`, `if disp:`,
/// `if not quiet:`): diagnostic output that users turn off. Byte spans [start, end) sorted by
/// start; computed once per file (asking per finding was quadratic on big files).
std::vector<std::pair<uint32_t, uint32_t>> verbositySpans(const SemanticModel& model);
/// Code that runs only every N-th pass of a loop, the RR-converge way of checking convergence:
/// the block of an `if` whose condition is an every-N test (`it % 50 == 0`,
/// `(k + 1) % check_every == 0`, `not it % 10`, also as one operand of an `and` chain), and
/// in an `if` / `elif` condition the `and` operands after such a test
/// (`it % 50 == 0 and float(np.linalg.norm(r)) <= tol`): a host read there costs one sync per N
/// passes, not per pass. Byte spans [start, end) sorted by start, for insideAny().
std::vector<std::pair<uint32_t, uint32_t>> everyNthPassSpans(const SemanticModel& model);
/// Whether node `n` lies wholly inside one of `spans` (sorted by start, e.g. verbositySpans()).
bool insideAny(const std::vector<std::pair<uint32_t, uint32_t>>& spans, TSNode n);

/// Byte ranges [start, end) of functions compiled by Numba (`@numba.njit`, `@jit(...)`,
/// `@nb.vectorize`, `@numba.cuda.jit`, any decorator resolving into `numba.`), in document
/// order. Empty when the file does not import numba. Their bodies are compiled machine code
/// working on host NumPy arrays; cuPyNumeric never runs them.
std::vector<std::pair<uint32_t, uint32_t>> compiledKernelSpans(const SemanticModel& model);

/// Whether `call` creates an object-dtype array: a NumPy constructor or `np.dtype` with
/// `dtype=object` / `"O"` / `np.object_` (keyword or the usual positional slot), or
/// `.astype(object)` on an array or a value of unknown kind. R107's sites.
bool createsObjectArray(const SemanticModel& model, TSNode call);

/// A name bound to an object-dtype array (`axes = np.empty(n, dtype=object)`) and the byte
/// range of the scope it is bound in (its function, or the whole file at module level).
struct ObjectArrayBinding {
    QString name;
    uint32_t scopeStart = 0, scopeEnd = 0;
    uint32_t at = 0; ///< start byte of the assignment
};
/// Every plain `name = <object-array creation>` of the file, in document order. Cheap when
/// the file never mentions an object dtype (a text check per call's arguments).
std::vector<ObjectArrayBinding> objectArrayBindings(const SemanticModel& model);
/// Whether `expr` walks or indexes one of `bindings`' object arrays: its root name (through
/// `.flat`, `.ravel()`, `x[...]`, `enumerate(x)`, `np.nditer(x)`, ...) is bound to an
/// object-dtype array in a scope that contains `expr`, and that binding is the last plain
/// assignment to the name before `expr` (`out = a.astype(str)` after it is not an object
/// array; `if big: L = np.empty(n, dtype=object) else: L = np.zeros(n)` is not either). Such an
/// array is a host array of Python objects whatever library holds it: R107 reports the root cause.
bool isObjectArray(const SemanticModel& model, const std::vector<ObjectArrayBinding>& bindings,
                   TSNode expr);

/// Whether identifier `name` (a use) holds a host value here although its scope also binds it
/// to an array: the last plain assignment to it before the use, in the same function, is a
/// statement of a block around the use, runs in the same loop iteration as the use (same
/// innermost loop, or no loop), no other assignment or loop header binds it in between, and its
/// value is not an array or device scalar (`ours = getattr(self, p)` while an `except` handler
/// after the use rebinds `ours = np.asarray(ours)`). Conservative: false whenever unsure.
bool hostBindingReaches(const SemanticModel& model, TSNode name);

/// Whether identifier `name` (a use) holds a value computed from array metadata only: the
/// same reaching assignment as hostBindingReaches, whose value is shapes, sizes and literals
/// (`zerodims = np.sum(np.array(a.shape) == 0)`, see hostMetadataOnly). Such a value never
/// waits for device work, though the model calls it a device scalar. False whenever unsure.
bool metadataBindingReaches(const SemanticModel& model, TSNode name);

} // namespace blocks
} // namespace cnready
