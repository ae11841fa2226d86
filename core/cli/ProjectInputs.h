#pragma once
// What `assess` and `port` both read before the analysis: the project's configuration file
// and the filter that picks the files to read. One place, so the two commands cannot drift.

#include "config/ApplyConfig.h"
#include "config/ProjectConfig.h"

#include <QCommandLineParser>
#include <QString>
#include <QStringList>

namespace cnready {

/// Reads the project's configuration: `configFile` when given, else the nearest cnready.toml /
/// pyproject.toml above `firstPath`; nothing with `noConfig`. Returns ExitOk, or with `why`
/// set: ExitInput when `configFile` does not exist (a missing file named on the command line
/// is an input error, like a missing --manifest or PATH), ExitUsage when the file is not valid
/// TOML or holds a value of the wrong type (a bad setting, like a bad flag). `config` then
/// holds nothing. Warnings of a file that was read stay in `config.warnings`.
int readProjectInputsConfig(const QString& firstPath, const QString& configFile, bool noConfig,
                            ProjectConfig& config, QString* why);

/// One stderr line for a QCommandLineParser error of `command` ("cnready assess"), worded as
/// the CLI's other messages: "unknown option --x (see 'cnready assess --help')", "--gpus needs
/// a value (see ...)". Qt's own text ("Unknown option 'x'.") otherwise.
QString parserErrorLine(const QCommandLineParser& parser, const QString& command);

/// The file filter of a run: the configuration's excludes, `--exclude` globs, the .gitignore
/// switch (off with `noGitignore` or the configuration's `respect-gitignore = false`) and the
/// PATHs given as files (always read). Returns false with `why` set when a glob is unusable.
bool buildFileFilter(const ProjectConfig& config, const QStringList& excludes, bool noGitignore,
                     const QStringList& paths, FileFilter& filter, QString* why);

} // namespace cnready
