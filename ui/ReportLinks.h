#pragma once
// Source locations in the report preview as links: a `path.py:12`, `path.py:12-14` or
// `notebook.ipynb:cell 3:5` code span of the rendered report becomes a link the preview hands
// to the source view.

#include <QString>

namespace cnready {
struct ProjectResult;
}

namespace cnready::ui {

/// One location a link points at. `cell` is 0 for a module; `line` counts within the cell in
/// a notebook (as the report prints it).
struct SourceLink {
    QString path;
    int cell = 0;
    int line = 0;
};

/// Wraps each location code span of report HTML (cmark-gfm's `<code>…</code>`) in a link.
QString linkSourceLocations(const QString& html);
/// The location of a link made by linkSourceLocations(); `path` is empty when `href` is not one.
SourceLink parseSourceLink(const QString& href);
/// The line of the source view `link` points at: in a notebook, the line of its joined code
/// that is the link's line of its cell (0 when the project has no such cell: the file opens
/// at its top).
int sourceViewLine(const ProjectResult& project, const SourceLink& link);

} // namespace cnready::ui
