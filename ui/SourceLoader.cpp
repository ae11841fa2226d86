#include "SourceLoader.h"

#include "CodeView.h"
#include "parse/Notebook.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

namespace cnready::ui {

void loadSourceInto(CodeView* view, const QString& root, const QString& relativePath,
                    const QList<Finding>& findings) {
    QFileInfo fi(root);
    // A single-file project: its root is the folder holding it.
    const QString abs = QDir(fi.isDir() ? root : fi.absolutePath()).filePath(relativePath);
    QFile file(abs);
    if (QFileInfo(abs).size() > kMaxViewBytes) {
        view->showMessage(CodeView::tr("%1 is too large to show here.").arg(relativePath));
        return;
    }
    if (!file.open(QIODevice::ReadOnly)) {
        view->showMessage(CodeView::tr("Cannot read %1: %2").arg(relativePath, file.errorString()));
        return;
    }
    QByteArray bytes = file.readAll();
    NotebookMap cells;
    if (isNotebookPath(relativePath)) {
        // The code cells joined as the analyzer read them: the marks sit on these lines.
        Notebook nb = readNotebook(bytes);
        if (!nb.error.isEmpty()) {
            view->showMessage(CodeView::tr("Cannot show %1: %2").arg(relativePath, nb.error));
            return;
        }
        bytes = std::move(nb.code);
        cells = std::move(nb.map);
    }
    view->showFile(relativePath, QString::fromUtf8(bytes), findings, cells);
}

} // namespace cnready::ui
