#pragma once
// File ▸ Import Doctor Report…: reads cuPyNumeric Doctor's JSON, marks the confirmed findings
// in the findings table and offers a "Confirmed at run time" filter. The report is matched
// again after every new assessment (a re-analysis keeps the marks).

#include "doctor/DoctorMatch.h"

#include <QObject>
#include <optional>

class QAction;
class QToolButton;
class QWidget;

namespace cnready::ui {

class FindingsFilterModel;
class FindingsModel;
class MainWindow;

class DoctorImport : public QObject {
    Q_OBJECT
public:
    DoctorImport(MainWindow* window, FindingsModel* model, FindingsFilterModel* filter);

    /// File ▸ Import Doctor Report… (objectName "importDoctorReport"): a QFileDialog, then
    /// importReport(); a bad file is reported in a message box and changes nothing.
    QAction* importAction() const { return m_action; }
    /// The checkable "Confirmed at run time" button for the filter bar (objectName
    /// "filter_doctor"); disabled until a report is imported.
    QToolButton* filterButton(QWidget* parent);
    /// Reads and matches `fileName` against the current assessment. On failure returns false,
    /// sets `error` and keeps the previous report (if any).
    bool importReport(const QString& fileName, QString* error = nullptr);
    /// The current match, or nullptr before an import.
    const DoctorResult* result() const { return m_result ? &*m_result : nullptr; }

private:
    void rematch();

    MainWindow* m_window;
    FindingsModel* m_model;
    FindingsFilterModel* m_filter;
    QAction* m_action;
    QToolButton* m_button = nullptr;
    std::optional<DoctorReport> m_report;
    std::optional<DoctorResult> m_result;
};

} // namespace cnready::ui
