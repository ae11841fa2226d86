#pragma once
// Finds the Python files of a project: what the analysis reads, and what it skips and why.

#include "model/FileResult.h"

#include <QString>
#include <QStringList>

namespace cnready {

/// The files to analyze under one or more paths.
struct ScanResult {
    QString root;                      ///< absolute directory all relative paths start from
    QStringList files;                 ///< relative paths ('/' separators), sorted, unique
    QList<FileDiagnostic> diagnostics; ///< unreadable folders, symlink loops, missing paths
    QStringList missing;               ///< paths given that do not exist (input error for the CLI)
};

/// Scans `paths` (folders, single .py files or notebooks). Folders are walked recursively for
/// `.py` files and `.ipynb` notebooks (parse/Notebook.h; `.ipynb_checkpoints` is hidden); `.git`,
/// hidden folders, virtualenvs (any folder holding `pyvenv.cfg`, and `venv`, `.venv`, `env`),
/// `build`, `_build`, `dist`, `node_modules`, `__pycache__`, `site-packages` are skipped
/// silently. Symlinked folders are not followed (no loops possible, no file read twice) and
/// get a Skipped diagnostic; broken or looping `.py` links get an Unreadable one; symlinked
/// files are read. Unreadable folders get a diagnostic and the walk goes on. The walk is
/// iterative (any depth). The root is the single folder given, or the common parent of several
/// paths. `.pyi` stubs are skipped. Non-regular `.py` entries (FIFOs) are listed; the analyzer
/// reports them without opening them.
ScanResult scanProject(const QStringList& paths);

/// Dotted module name for a relative path: "pkg/sub/mod.py" → "pkg.sub.mod",
/// "pkg/__init__.py" → "pkg", "notes/demo.ipynb" → "notes.demo".
QString moduleNameForPath(const QString& relativePath);

} // namespace cnready
