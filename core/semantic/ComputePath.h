#pragma once
// The compute path (RULES.md, the workload model item 5): which code is the computation and
// which is its plumbing (error paths, I/O, plotting, presentation, set-up, tests, demo data).
// Roles are decided once per function (by its name, its class, its parameters) and, inside
// compute functions, per statement (a guard's block that ends in `raise`, a statement that
// calls a reader or writer, a plotting call). Read through SemanticModel::pathRole().

#include "model/PathRole.h"

#include <QString>
#include <tree_sitter/api.h>

#include <cstdint>
#include <vector>

namespace cnready {

class SemanticModel;

/// Path roles of one file's functions and statements, computed on first use and cached.
/// Reads the model's public queries only; not for concurrent use from two threads.
class ComputePathEngine {
public:
    explicit ComputePathEngine(const SemanticModel& model);
    /// See SemanticModel::pathRole(); with `byFunction` false, SemanticModel::statementRole().
    PathRole roleOf(TSNode n, bool byFunction = true) const;
    /// The role of function `index` of SemanticModel::functions() as a whole: from its name,
    /// its class, a plotting parameter (`ax`, `fig`), or the function it is nested in.
    PathRole functionRole(int index) const { return m_functionRoles[size_t(index)]; }
    /// Whether function `index` is one-time set-up only because of how this file calls it:
    /// an `__init__` not called per pass here, or a private helper whose every call is in
    /// set-up code. A loop elsewhere in the project that reaches it makes it compute again
    /// (Finding::promoteIfHot).
    bool setupUnlessHot(int index) const { return m_setupUnlessHot[size_t(index)]; }
    /// Whether the module is a test module by its dotted name (`tests.test_io`,
    /// `pkg.tests.helpers`, `conftest`, `pkg.io_test`).
    static bool isTestModuleName(const QString& moduleName);
    /// Whether the module belongs to a test-support package (`pkg._testing`, `numpy.testing`):
    /// its helpers build test data, so its lines have the role Test too, but the project does
    /// not treat it as a test module (its findings go to the off-path notes).
    static bool isTestSupportModuleName(const QString& moduleName);
    /// The role a module's dotted name gives all of its code: InputOutput for readers,
    /// writers and serialisers (`pkg.io.envi`, `pkg.iolib.summary`, `pkg.jsonutils`,
    /// `pkg.serialization`), Plotting for graphics and GUI packages (`pkg.graphics.ndwindow`,
    /// `pkg.plotting`, `pkg.viz`), Setup for command-line front-ends (`pkg.cmdline.diff`,
    /// `pkg.cli`, `pkg.scripts`), Demo for benchmark drivers (`pkg.benchmarks.bench_fit`,
    /// `pkg.bench_fit`), Compute otherwise.
    static PathRole moduleRoleOfName(const QString& moduleName);

private:
    /// A statement-level stretch of code off the compute path, [start, end) in bytes.
    struct Span {
        uint32_t start = 0, end = 0;
        PathRole role = PathRole::Compute;
        /// A set-up span that stays set-up inside a loop (a check of input items one by
        /// one); other set-up spans in a loop are the loop's work.
        bool inLoopsToo = false;
    };
    void buildFunctionRoles();
    void buildSpans();
    /// Whether every loop around `guard` walks the items of a Python container (a list of
    /// input objects, a dict's entries, files; items of unknown kind), not positions, steps
    /// or an array: a check there validates the inputs one by one before any computation.
    bool checksInputItems(TSNode guard) const;
    void inheritCallerRoles();
    void addErrorSpans();
    void addCallSpans();
    /// The statement `call` belongs to, as the span it makes off the path: the whole
    /// `with` / `for` statement when the call opens it, else the simple statement around it.
    void addStatementOf(TSNode call, PathRole role);

    const SemanticModel& m;
    bool m_test = false;
    PathRole m_moduleRole = PathRole::Compute;
    std::vector<PathRole> m_functionRoles;
    std::vector<bool> m_setupUnlessHot;
    std::vector<Span> m_spans; ///< sorted by start
};

} // namespace cnready
