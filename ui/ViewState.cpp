#include "ViewState.h"

#include "CodeView.h"
#include "FindingsModel.h"

#include <QScrollBar>
#include <QTableView>
#include <QTextBlock>

#include <cstdlib>

namespace cnready::ui {

ViewState ViewState::capture(const QTableView* findings, const CodeView* source) {
    ViewState s;
    const QModelIndex cur = findings->currentIndex();
    if (cur.isValid()) {
        s.findingPath = cur.data(FindingsModel::PathRole).toString();
        s.findingCode = cur.data(FindingsModel::CodeRole).toString();
        s.findingLine = cur.data(FindingsModel::LineRole).toInt();
        s.findingRow = cur.row();
    }
    s.tableScroll = findings->verticalScrollBar()->value();
    s.sourcePath = source->currentPath();
    s.sourceLine = source->currentLine();
    s.sourceScroll = source->verticalScrollBar()->value();
    s.sourceHScroll = source->horizontalScrollBar()->value();
    return s;
}

void ViewState::restore(QTableView* findings, CodeView* source) const {
    const QAbstractItemModel* m = findings->model();
    if (!findingPath.isEmpty() && m->rowCount() > 0) {
        int best = -1, bestDistance = 0;
        for (int r = 0; r < m->rowCount(); ++r) {
            const QModelIndex idx = m->index(r, 0);
            if (idx.data(FindingsModel::PathRole).toString() != findingPath ||
                idx.data(FindingsModel::CodeRole).toString() != findingCode)
                continue;
            const int d = std::abs(idx.data(FindingsModel::LineRole).toInt() - findingLine);
            if (best < 0 || d < bestDistance) {
                best = r;
                bestDistance = d;
            }
        }
        // The finding is gone (fixed): the row that took its place.
        if (best < 0)
            best = qBound(0, findingRow, m->rowCount() - 1);
        findings->setCurrentIndex(m->index(best, 0));
    }
    findings->verticalScrollBar()->setValue(tableScroll);
    if (!sourcePath.isEmpty() && source->currentPath() == sourcePath) {
        // The cursor without goToLine(): that centres the line, and the view stays where it was.
        const QTextBlock block = source->document()->findBlockByNumber(qMax(0, sourceLine - 1));
        if (block.isValid())
            source->setTextCursor(QTextCursor(block));
        source->verticalScrollBar()->setValue(sourceScroll);
        source->horizontalScrollBar()->setValue(sourceHScroll);
    }
}

} // namespace cnready::ui
