#pragma once
// The `cnready` command line: assess, rules, explain, manifest. Kept in core so tests can run
// it in-process; app/cli/main.cpp only forwards argv.

#include <QStringList>
#include <QTextStream>

namespace cnready {

/// Exit codes of the CLI (PRODUCT.md).
enum ExitCode {
    ExitOk = 0,     ///< success, or verdict better than --fail-on
    ExitFailOn = 1, ///< verdict is the --fail-on one or worse; `manifest check` found errors
    ExitUsage = 2,  ///< bad arguments
    ExitInput = 3,  ///< a path is missing or unreadable
};

/// Runs the CLI with `args` (args[0] is the program name). Normal output goes to `out`,
/// errors to `err` as one clear line. Returns the process exit code.
int runCli(const QStringList& args, QTextStream& out, QTextStream& err);

} // namespace cnready
