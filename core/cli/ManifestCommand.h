#pragma once
// `cnready manifest show|check|import|refresh|reset`: the API-support manifest lifecycle on the
// command line. Only `refresh` uses the network.

#include <QStringList>
#include <QTextStream>

namespace cnready {

/// Runs `cnready manifest ...`; `args` are the words after "manifest" (subcommand first).
/// Returns an ExitCode (cli/Cli.h): 0 ok; 1 `check` found problems, or `import`/`refresh`
/// failed (nothing written); 2 usage error; 3 a file given cannot be read.
/// Output to `out`, one-line errors and the staleness warning to `err`.
int runManifestCommand(const QStringList& args, QTextStream& out, QTextStream& err);

} // namespace cnready
