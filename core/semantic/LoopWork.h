#pragma once
// Loops judged by one pass (RULES.md, the workload model, item 4): how many times a loop runs
// (its trip class) and how much work one of its passes does (its pass work). An expert does not
// flag `a[i]` in a loop; they ask whether the loop runs a handful of times or once per datum,
// and whether a pass touches a number or a whole slab. The loop rules (R101, R103, R105) and
// Gate 4's "sequential recurrence" stand on these two answers.
//
// Computed lazily by the SemanticModel (SemanticModel::loopWork()): the pass work of every loop
// of the file in one walk over the file's subscripts on the first question, the trip class per
// loop when asked. Sizes come from the model's shapes (SemanticModel::shapeOf / extentClass).

#include <QString>
#include <QtGlobal>
#include <tree_sitter/api.h>

#include <memory>
#include <vector>

namespace cnready {

class SemanticModel;
struct LoopInfo;

/// How many times a loop runs, as a class.
enum class TripClass : quint8 {
    Unknown, ///< cannot tell (a name nothing sizes, an unknown iterable, files)
    Small,   ///< a handful of passes: a literal range up to kSmallLiteral, the axes of an array
             ///< (`range(x.ndim)`), a function or method returning a small literal
             ///< (`range(self.ncoords())`), a literal tuple or a bookkeeping array
    Steps,   ///< a step / epoch / iteration count (`range(n_steps)`, `while err > tol`)
    Data,    ///< a data extent: `range(len(x))` / `range(x.shape[0])` / `np.ndindex(x.shape)`
             ///< of a data array, a runtime size, iterating a data array
};

/// How much work one pass of a loop does.
enum class PassWork : quint8 {
    Unknown, ///< the pass indexes no array with the loop's variable and does no data-sized
             ///< slab work the model can see
    Scalar,  ///< element reads / writes with the loop variable (`a[i]`, `out[i, j]`, `m[ijk]`),
             ///< Python arithmetic on them, a call per element, small rows (`p[i, :]` of an
             ///< `(n, 3)` array), one slab filled with one number (`paths[i, :, 0] = s`)
    Slab,    ///< whole-array work on a data-sized slab: the loop variable picks a slab
             ///< (`u[c]` of a 3-D `u`, `v[..., k]`, `x[:, j]`), a row handed to a whole-array
             ///< operation (`np.sort(a[i])`, `w[i] @ x`, `a[i].sum()`), or the pass writes a
             ///< data-sized slab with an array value (`mat[:, col] = r * a`)
};

/// What the model knows about one loop's trip count and pass work, with the evidence.
struct LoopWork {
    TripClass trip = TripClass::Unknown;
    PassWork work = PassWork::Unknown;
    /// The expression that decided the trip class (the range bound, the iterable); may be null.
    TSNode tripEvidence{};
    /// Slab: the first slab access or slab write that decided; Scalar: the first element
    /// access (see `elements`); null for Unknown.
    TSNode workEvidence{};
    /// Why, in a few words ("literal range", "axes of an array", "len() of a data array",
    /// "the variable picks a slab", ...): for messages and tests. Static strings.
    const char* tripReason = "";
    const char* workReason = "";
    /// Every subscript of the pass that reads or writes one element (or a small row) with the
    /// loop's variable, in document order, including those of nested loops. Rules filter them
    /// (R101 leaves object-dtype arrays to R107).
    std::vector<TSNode> elements;
    /// The calls of the pass that hand an item the loop's variable picks to a function of the
    /// project or a callable parameter (`fit_one(data[ijk])`), in document order: per-element
    /// work that is an opaque call, which rewriting the loop's arithmetic does not remove.
    std::vector<TSNode> elementCalls;
    /// Slab only through NumPy operations on whole data arrays that the loop's variable does
    /// not pick from (a sweep of `for sweep in range(n)`): the variable itself reads no data.
    bool wholeOperationsOnly = false;
};

/// Lower-case names for messages and tests: "unknown", "small", "steps", "data".
QString tripClassName(TripClass c);
/// "unknown", "scalar", "slab".
QString passWorkName(PassWork w);

/// The lazily filled per-file cache behind SemanticModel::loopWork() (owned by the model).
/// Not thread-safe for concurrent queries on one model (a model is used from one worker
/// thread at a time).
class LoopWorkEngine {
public:
    explicit LoopWorkEngine(const SemanticModel& model);
    ~LoopWorkEngine();
    LoopWorkEngine(const LoopWorkEngine&) = delete;
    LoopWorkEngine& operator=(const LoopWorkEngine&) = delete;
    /// See SemanticModel::loopWork().
    const LoopWork& of(const LoopInfo& loop);
    /// The trip class of `loop` alone, without the walk that decides pass work (cheap: used
    /// for every call when the model decides which functions are hot).
    TripClass tripOf(const LoopInfo& loop);
    /// See SemanticModel::isElementAccess().
    bool isElementAccess(TSNode subscript, const LoopInfo& loop) const;

private:
    struct Impl;
    std::unique_ptr<Impl> p;
};

} // namespace cnready
