#pragma once
// The Findings dock's content: the category buttons (with counts) and the filter box above a
// sortable findings table, and beside it the selected finding in full (message, recipe,
// before/after). F8 / Shift+F8 walk the table through stepFinding().

#include "model/Finding.h"

#include <QWidget>

#include <array>

class QHBoxLayout;
class QLineEdit;
class QModelIndex;
class QTableView;
class QTextBrowser;
class QToolButton;

namespace cnready::ui {

class FindingsFilterModel;
class FindingsModel;

class FindingsPane : public QWidget {
    Q_OBJECT
public:
    explicit FindingsPane(QWidget* parent = nullptr);

    FindingsModel* model() const { return m_findings; }
    /// The sorting and filtering proxy the table shows.
    FindingsFilterModel* filter() const { return m_filter; }
    QTableView* view() const { return m_view; }
    QTextBrowser* detail() const { return m_detail; }
    /// Adds a button at the end of the filter bar (the Doctor import's "Confirmed at run time").
    void addFilterButton(QToolButton* button);

    /// The table's findings of file `path` (relative), in table-model order.
    QList<Finding> findingsForFile(const QString& path) const;
    /// Selects the row `delta` rows after (before, when negative) the current one of the
    /// filtered, sorted table, wrapping around, and emits findingActivated().
    void stepFinding(int delta);
    /// Recounts the findings per category (after the table was replaced) and shows the counts.
    void updateCategoryButtons();
    /// Adds a streamed batch to the counts (recounting the whole table per batch grows with
    /// the project).
    void countFindings(const QList<Finding>& added);
    /// The category icons and table colours follow a new palette.
    void refreshColors(const QPalette& palette);

signals:
    /// A row was clicked, activated (Enter) or stepped to; `proxyIndex` is of filter().
    void findingActivated(const QModelIndex& proxyIndex);
    /// "Explain rule" from a row's context menu.
    void ruleRequested(const QString& code);

private:
    /// Shows the selected finding (full message, recipe, before/after) in the detail pane.
    void showFindingDetail(const QModelIndex& proxyIndex);
    void showCategoryCounts();

    QHBoxLayout* m_bar = nullptr;
    FindingsModel* m_findings = nullptr;
    FindingsFilterModel* m_filter = nullptr;
    QTableView* m_view = nullptr;
    QTextBrowser* m_detail = nullptr;
    QLineEdit* m_filterEdit = nullptr;
    QList<QToolButton*> m_categoryButtons;
    std::array<int, 4> m_categoryCounts{}; ///< findings in the table, by Category
};

} // namespace cnready::ui
