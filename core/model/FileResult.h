#pragma once
// Everything the per-file analysis learns about one Python file, as plain values.
// Parse trees never leave the worker thread that built them.

#include "model/Finding.h"
#include "model/FunctionSummary.h"
#include "parse/Notebook.h"

#include <QList>
#include <QString>

namespace cnready {

/// A NumPy / cuPyNumeric API the code calls, resolved to its canonical name.
struct ApiUse {
    QString name; ///< canonical, e.g. "numpy.linalg.norm" or "numpy.ndarray.item"
    SourceRange range;
    QString function; ///< enclosing function or ""
    /// See Finding::requiresHotFunction (hot if that one is); empty in most uses.
    CompactString requiresHotFunction;
    bool hot = false; ///< in a loop locally (beside pathRole: no padding)
    /// Where the call stands: an unimplemented API on the compute path demotes the verdict
    /// wherever it sits (rule 9); elsewhere it is listed with the fix.
    PathRole pathRole = PathRole::Compute;
    friend bool operator==(const ApiUse&, const ApiUse&) = default;
};

/// A problem reading or parsing one file. The rest of the project is still assessed.
struct FileDiagnostic {
    /// Suppression: a `# cnready: ignore[...]` / `# noqa:` comment names a code cnready does
    /// not have, or cannot be read (a warning; the file is assessed).
    /// Missing: a PATH given on the command line that does not exist (the others are assessed).
    enum class Kind {
        Unreadable,
        Binary,
        Encoding,
        Syntax,
        TooLarge,
        Skipped,
        Suppression,
        Missing
    };
    Kind kind = Kind::Syntax;
    SourceRange range; ///< line 0 when the problem concerns the whole file
    QString message;   ///< one clear sentence
    friend bool operator==(const FileDiagnostic&, const FileDiagnostic&) = default;
};
QString diagnosticKindName(FileDiagnostic::Kind k);

/// An array size the code states (module constant, default parameter, literal shape).
struct SizeHint {
    qint64 elements = 0; ///< total elements of the array this hint sizes
    QString expression;  ///< what was read, e.g. "N_SAMPLES = 16_000_000" or "(16384, 16384)"
    SourceRange range;
    bool feedsArray = false; ///< the value reaches an array constructor's shape/size argument
    /// The size is written only as literals at the call (`np.zeros(3)`), no named constant or
    /// parameter default behind it. Small literal sizes are scratch arrays, not the hot path.
    bool literal = false;
    /// A size-like name (N, SIZE, SAMPLES, FRAME, GRID, ...) supplied the value: the code states
    /// its data size here on purpose (`FRAME_SIZE = 8192`), unlike an incidental default such as
    /// a bin count. Only such hints can fail Gate 2 on their own.
    bool sizeNamed = false;
    /// The script's own entry code (its module level, its `if __name__ == "__main__":` block,
    /// or a function that module level calls) builds this array and hands it to a function of
    /// the project, and reads no data from files: the size the script runs at, stated on
    /// purpose like a size-named constant, so it can fail Gate 2 even as a bare literal. It
    /// counts only from a script outside any package (Context: a package module's `__main__`
    /// block is a self-test, not the workload).
    bool entryStated = false;
    /// With entryStated: the callee it is handed to when imported ("pkg.sim.smooth"), checked
    /// against the project's modules; "" when the callee is defined in the same file.
    QString handedTo = {};
    friend bool operator==(const SizeHint&, const SizeHint&) = default;
};

/// A line that hints at the dominant compute pattern (Gate 4).
struct PatternEvidence {
    QString pattern; ///< "stencil", "gemm", "reduction", "elementwise", "monte-carlo", "fft",
                     ///< "sparse", "graph", "ml", "string", "sequential", "scipy-mixed"
    SourceRange range;
    QString note; ///< short reason, e.g. "scipy.sparse.csr_matrix"
    bool hot = false;
    /// How much this line says about the whole program: 1 an import, 2 a call or operator,
    /// 3 a stencil expression, 6 a whole-algorithm shape (a recurrence loop, a BFS frontier loop).
    /// See Evidence.h.
    int weight = 1;
    QString function; ///< enclosing function ("func", "Class.method") or "" at module level
    friend bool operator==(const PatternEvidence&, const PatternEvidence&) = default;
};

/// A place where array data meets the host (Gate 5: boundary cost).
struct HostTouchpoint {
    QString kind; ///< "pandas", "h5py", "io", "scipy", "sklearn", "plotting", "logging", ...
    SourceRange range;
    QString note;     ///< what was seen, e.g. "pandas.read_csv" or "print in a loop"
    QString function; ///< enclosing function or "" at module level
    bool hot = false; ///< inside a loop locally (the assessment adds project-wide hot functions)
    friend bool operator==(const HostTouchpoint&, const HostTouchpoint&) = default;
};

/// A sign of operational readiness (Gate 6) seen in the tree.
struct ReadinessHint {
    QString kind; ///< "golden-test", "benchmark", "launch-script", "legate", "mpi-launcher"
    SourceRange range;
    QString note; ///< e.g. "numpy.testing.assert_allclose" or "srun in run.sbatch"
    friend bool operator==(const ReadinessHint&, const ReadinessHint&) = default;
};

/// A function defined in the file (for project-wide hot-path resolution).
struct FunctionInfo {
    QString qualifiedName; ///< "pkg.mod.func" or "pkg.mod.Class.method"
    SourceRange range;
    bool returnsArray = false;
    friend bool operator==(const FunctionInfo&, const FunctionInfo&) = default;
};

/// A call from one place in the file to a name that may be a project function.
struct CallSite {
    QString caller;      ///< qualified name of the enclosing function, "" at module level
    QString callee;      ///< best resolution: "pkg.mod.func", "mod.func" or a bare "func"
    bool inLoop = false; ///< the call itself sits inside a loop (locally)
    int line = 0;
    friend bool operator==(const CallSite&, const CallSite&) = default;
};

/// The result of analyzing one file.
struct FileResult {
    QString path;       ///< relative to the project root, '/' separators
    QString moduleName; ///< dotted module name derived from the path ("pkg.sub.mod")
    int lines = 0;      ///< physical lines read
    qint64 bytes = 0;
    QList<Finding> findings;
    /// BLOCKS / REFACTOR findings at sites off the compute path (Finding::pathRole says where):
    /// notes at most, never counted for the verdict, kept apart so no consumer counts them.
    QList<Finding> offComputePath;
    /// Findings a suppression comment names (analysis/Suppressions.h): kept out of `findings`
    /// and of the verdict, counted by the reports. Moved to ProjectResult::suppressed on merge.
    QList<Finding> suppressed;
    QList<ApiUse> apiUses;
    QList<SizeHint> sizeHints;
    QList<PatternEvidence> patternEvidence;
    QList<HostTouchpoint> touchpoints; ///< Gate 5 (added by the assessment work)
    QList<ReadinessHint> readiness;    ///< Gate 6 (added by the assessment work)
    QList<FileDiagnostic> diagnostics;
    QList<FunctionInfo> functions;
    QList<CallSite> calls;
    /// Per function (and one for module-level code): parameters, calls and returns, for the
    /// project's facts (ProjectFacts.h). Used by that pass and then dropped (empty in a
    /// merged ProjectResult).
    QList<FunctionSummary> summaries;
    /// Names this module binds at module level by importing them (`from .core import energy`
    /// in pkg/__init__.py): "pkg.energy" → "pkg.core.energy", in pairs. Dropped like
    /// summaries.
    QList<std::pair<QString, QString>> reexports;
    /// Names handed to a call as values (`minimize(f, x0)`, `pool.map(relax, grids)`) that
    /// resolve to a function of this file or through an import: such a function has callers
    /// the project does not see. Dropped like summaries.
    QStringList passedFunctions;
    QStringList imports; ///< canonical top-level modules imported ("numpy", "scipy.sparse", ...)
    bool isTest = false; ///< looks like a test module (test_*.py, *_test.py, tests/)
    bool isEntryScript = false; ///< has an `if __name__ == "__main__":` block
    /// Its array work only makes demo or test data (every SCALES finding in a demo / test-role
    /// function, or a benchmark driver by name): never the pilot module or Doctor's script.
    bool isDemoData = false;
    /// For a notebook: where each line of the joined code comes from (empty for .py files).
    NotebookMap notebook;
};

/// Whether the file was not assessed at all: unreadable, binary, over the size limit or
/// skipped (too deep, parse budget), i.e. it has a whole-file diagnostic of those kinds.
/// Such a file is listed with its reason but contributes no findings.
bool wasSkipped(const FileResult& file);

} // namespace cnready
