#pragma once
// Finds the Python files of a project: what the analysis reads, and what it skips and why.

#include "model/FileResult.h"

#include <QString>
#include <QStringList>

namespace cnready {

/// The files to analyze under one or more paths.
struct ScanResult {
    QString root;      ///< absolute directory all relative paths start from
    QStringList files; ///< relative paths ('/' separators), sorted, unique
    /// Unreadable folders, symlink loops, and (when some other path exists) a Missing one per
    /// path given that does not exist, under the path as given.
    QList<FileDiagnostic> diagnostics;
    QStringList missing; ///< paths given that do not exist (with none existing: an input error)
    /// Python-like files met in the walk that cnready does not read (isPythonLikeNotRead()):
    /// relative paths, sorted. The reports count them so a reader knows what was left out.
    QStringList notRead;
};

/// Files that hold or make Python code but are not Python source cnready parses: Cython
/// (`.pyx`, `.pxd`, `.pxi`), code templates (`.py_` as brian2's code generator uses, `.py.in`,
/// `.pyx.in`, `.pxd.in`, `.py.tmpl`, `.py.jinja`, `.py.mako`) and Windows scripts (`.pyw`).
/// Stubs (`.pyi`) hold no code that runs and are not listed.
bool isPythonLikeNotRead(const QString& fileName);

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
