#pragma once
// What `assess` and `port` both read before the analysis: the project's configuration file
// and the filter that picks the files to read. One place, so the two commands cannot drift.

#include "config/ApplyConfig.h"
#include "config/ProjectConfig.h"

#include <QString>
#include <QStringList>

namespace cnready {

/// Reads the project's configuration: `configFile` when given (a usage error when it does not
/// exist), else the nearest cnready.toml / pyproject.toml above `firstPath`; nothing with
/// `noConfig`. Returns false with `why` set on a usage error (a missing or malformed file);
/// `config` then holds nothing. Warnings of a file that was read stay in `config.warnings`.
bool readProjectInputsConfig(const QString& firstPath, const QString& configFile, bool noConfig,
                             ProjectConfig& config, QString* why);

/// The file filter of a run: the configuration's excludes, `--exclude` globs, the .gitignore
/// switch (off with `noGitignore` or the configuration's `respect-gitignore = false`) and the
/// PATHs given as files (always read). Returns false with `why` set when a glob is unusable.
bool buildFileFilter(const ProjectConfig& config, const QStringList& excludes, bool noGitignore,
                     const QStringList& paths, FileFilter& filter, QString* why);

} // namespace cnready
