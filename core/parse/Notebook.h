#pragma once
// Jupyter notebooks (.ipynb, nbformat 4) as Python: the code cells joined into one module, and
// the map from a line of that module back to its cell, its line in the cell and its line in
// the notebook's JSON text. Every consumer (analyzer, reports, studio) goes through this unit.

#include <QByteArray>
#include <QList>
#include <QString>

namespace cnready {

struct SourceRange;

/// Where one line of the joined module comes from.
struct NotebookLine {
    int cell = 0;     ///< 1-based index among all cells (markdown and raw cells count)
    int cellLine = 0; ///< 1-based line within that cell's source
    int jsonLine = 0; ///< 1-based line of the notebook file holding the source string
    friend bool operator==(const NotebookLine&, const NotebookLine&) = default;
};

/// The line map of one notebook; empty for a plain .py file.
struct NotebookMap {
    QList<NotebookLine> lines; ///< entry i describes line i + 1 of the joined module

    bool isEmpty() const { return lines.isEmpty(); }
    /// The origin of joined line `line` (1-based); a default entry when out of range.
    NotebookLine at(int line) const;
    /// Sets `range.cell` and `range.cellLineOffset` from the range's start line, so that
    /// SourceRange::toString() prints "nb.ipynb:cell 3:12". Lines stay those of the joined
    /// module (the studio shows that text). Ranges of line 0 (the whole file) are left alone.
    void annotate(SourceRange& range) const;
    friend bool operator==(const NotebookMap&, const NotebookMap&) = default;
};

/// A notebook read as Python.
struct Notebook {
    QByteArray code; ///< UTF-8 Python: the code cells in order, magics and shell lines blanked
    NotebookMap map; ///< one entry per line of `code`
    /// Non-empty when the notebook cannot be assessed (not JSON, nbformat 3, another
    /// kernel language); one sentence naming why and what to do.
    QString error;
    int cells = 0;     ///< all cells
    int codeCells = 0; ///< code cells read
};

/// Reads notebook JSON. Code cells are joined in order, each ending with a newline; markdown
/// and raw cells add no lines. Lines IPython would not hand to Python become blank (or `pass`
/// when indented, so the block stays valid) without moving any other line: a line magic
/// (`%matplotlib inline`), a shell escape (`!pip install x`), `x = !ls` / `t = %timeit -o f()`,
/// help (`np.zeros?`). A cell magic whose body is Python (`%%time`, `%%timeit`, `%%capture`,
/// `%%prun`) loses only its first line; any other cell magic (`%%bash`, `%%html`,
/// `%%writefile`, ...) blanks the whole cell. Lines inside brackets, strings or after a
/// backslash continue a statement and are never taken for magics.
Notebook readNotebook(const QByteArray& json);

/// Whether a path names a notebook (suffix `.ipynb`).
bool isNotebookPath(const QString& path);

} // namespace cnready
