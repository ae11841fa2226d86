#pragma once
// `cnready port PATH [--diff]`: the preview of the mechanical port (core/port/PortPlan.h).

#include <QStringList>
#include <QTextStream>

namespace cnready {

/// Runs `cnready port` with `args` (args[0] is the program name, then the command's own
/// arguments). Prints the rewrites (a list, or with --diff a unified diff `git apply` takes
/// from the project root) to `out`; errors as one line to `err`. Never writes to the analysed
/// tree. Returns the exit code: 0 (also when there is nothing to rewrite), 2 usage error,
/// 3 input error (missing path, nothing to assess, unusable manifest, output not written), as
/// `cnready assess` does.
int runPortCommand(const QStringList& args, QTextStream& out, QTextStream& err);

} // namespace cnready
