#pragma once
// Reads a file of the project into the source view: a module as it is, a notebook as its code
// cells joined (the lines its findings are on). Too large or unreadable files get a message in
// the view instead.

#include "model/Finding.h"

#include <QString>

namespace cnready::ui {

class CodeView;

/// Files larger than this are not loaded into the source view (bytes); the analyzer has its
/// own limit (AnalyzerLimits::maxFileBytes).
inline constexpr qint64 kMaxViewBytes = 20 * 1024 * 1024;

/// Shows `root/relativePath` in `view` with `findings` marked (a single-file project's root
/// is the file: its folder is used). Reads only; never writes.
void loadSourceInto(CodeView* view, const QString& root, const QString& relativePath,
                    const QList<Finding>& findings);

} // namespace cnready::ui
