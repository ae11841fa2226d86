#pragma once
// What the user was looking at, kept across a re-analysis (watch mode): the selected finding,
// where the findings table and the source view were scrolled, the source view's line. A
// re-analysis replaces the table and the file's text; restore() finds the same finding again
// (same file and rule, the nearest line: an edit above it moves it) and puts the scroll
// positions back.

#include <QString>

class QTableView;

namespace cnready::ui {

class CodeView;

struct ViewState {
    QString findingPath; ///< the selected finding, empty when none was selected
    QString findingCode;
    int findingLine = 0;
    int findingRow = -1;
    int tableScroll = 0;
    QString sourcePath; ///< the file in the source view
    int sourceLine = 0;
    int sourceScroll = 0;
    int sourceHScroll = 0;

    static ViewState capture(const QTableView* findings, const CodeView* source);
    /// Selects the finding again in `findings` (a view over FindingsModel) and restores the
    /// scroll positions; `source` must already show the file's new text.
    void restore(QTableView* findings, CodeView* source) const;
};

} // namespace cnready::ui
