#pragma once
// Where a piece of code stands with respect to the computation (RULES.md, the workload model
// item 5): on the compute path, or in plumbing around it whose findings do not count.

#include <QString>

namespace cnready {

/// The role of a line of code. Compute is the computation itself; every other role is off the
/// compute path: BLOCKS / REFACTOR findings there are notes that do not count for the verdict.
enum class PathRole : quint8 {
    Compute,      ///< works on the data arrays as part of the computation
    ErrorPath,    ///< leads only to `raise` (a guard's block, a re-raising `except`)
    InputOutput,  ///< reading or writing files and serialised data (`open`, `np.save`, json)
    Plotting,     ///< plotting and GUI (matplotlib, Qt, `plot_*` / `draw_*` / `show_*`)
    Presentation, ///< `__repr__` / `__str__`, printing and formatting of results
    Setup,        ///< one-time set-up: module level, `__main__`, argparse, `__init__`
    Test,         ///< test modules and test functions
    Demo,         ///< demo / example data generators
    /// A request that changes nothing in NumPy or cuPyNumeric (an `order=` keyword equal to
    /// NumPy's default): not a place in the flow, but a finding that needs no engineer; the
    /// port removes it.
    NoOp,
};

/// Stable lower-case name for JSON, SARIF and the CLI: "compute", "error-path", "io",
/// "plotting", "presentation", "setup", "test", "demo", "no-op".
QString pathRoleName(PathRole r);
/// Short phrase for reports: "error path", "I/O", "plotting", "presentation", "set-up",
/// "test", "demo data", "no-op keyword"; "compute path" for Compute.
QString pathRoleLabel(PathRole r);

/// Whether a folder (package) name marks example or demo material that shows a library off
/// rather than being its workload: `examples`, `example`, `_examples`, `demo*`, `tutorial(s)`
/// (case-insensitive). RULES.md, the workload model item 5: demo code is off the compute path.
bool isDemoFolderName(QStringView name);

} // namespace cnready
