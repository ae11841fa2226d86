#pragma once
// What a project configuration changes in a scan and in its findings.

#include "analysis/ProjectScanner.h"
#include "config/ProjectConfig.h"
#include "model/ProjectResult.h"

namespace cnready {

/// Which files a run leaves out.
struct FileFilter {
    QList<PathGlob> configExclude; ///< relative to `configDir`
    QString configDir;             ///< absolute; "" when there is no configuration file
    QList<PathGlob> cliExclude;    ///< `--exclude`, relative to the scan root
    bool respectGitignore = true;
    QStringList explicitFiles; ///< files named on the command line: always kept (absolute)
};

/// Takes a scan and a filter; removes the files the filter excludes (config globs, CLI globs,
/// `.gitignore`) from `scan.files` and returns how many were removed. Files given by name are
/// kept whatever the globs say.
int filterScan(ScanResult& scan, const FileFilter& filter);

/// Takes a merged project and its configuration; moves every finding whose code `select`
/// leaves out, `ignore` names or a matching `per-file-ignores` entry names (globs relative to
/// the configuration's folder) from `findings` and `offComputePath` to `leftOutByConfig`, kept
/// sorted, so the reports count it; sets `configFile`. Returns the number moved.
int applyRuleSelection(ProjectResult& project, const ProjectConfig& config);

} // namespace cnready
