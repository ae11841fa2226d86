#include "DoctorImport.h"

#include "FindingsModel.h"
#include "MainWindow.h"

#include <QAction>
#include <QFileDialog>
#include <QMessageBox>
#include <QStatusBar>
#include <QToolButton>

namespace cnready::ui {

DoctorImport::DoctorImport(MainWindow* window, FindingsModel* model, FindingsFilterModel* filter)
    : QObject(window), m_window(window), m_model(model), m_filter(filter) {
    m_action = new QAction(tr("Import &Doctor Report…"), this);
    m_action->setObjectName(QStringLiteral("importDoctorReport"));
    m_action->setStatusTip(tr("Read cuPyNumeric Doctor's JSON report and mark the findings the "
                              "run confirmed"));
    connect(m_action, &QAction::triggered, this, [this] {
        const QString file = QFileDialog::getOpenFileName(
            m_window, tr("Import cuPyNumeric Doctor Report"), m_window->projectPath(),
            tr("Doctor reports (*.json);;All files (*)"));
        if (file.isEmpty())
            return;
        QString why;
        if (!importReport(file, &why))
            QMessageBox::warning(m_window, tr("Import Doctor Report"), why);
    });
    connect(m_window, &MainWindow::assessmentChanged, this, [this] {
        if (m_report)
            rematch();
    });
}

QToolButton* DoctorImport::filterButton(QWidget* parent) {
    m_button = new QToolButton(parent);
    m_button->setObjectName(QStringLiteral("filter_doctor"));
    m_button->setCheckable(true);
    m_button->setAutoRaise(true);
    m_button->setText(tr("Confirmed at run time"));
    m_button->setToolTip(tr("Show only the findings an imported cuPyNumeric Doctor report "
                            "confirmed (File ▸ Import Doctor Report…)"));
    m_button->setEnabled(false);
    connect(m_button, &QToolButton::toggled, m_filter, &FindingsFilterModel::setConfirmedOnly);
    return m_button;
}

bool DoctorImport::importReport(const QString& fileName, QString* error) {
    QString why;
    std::optional<DoctorReport> report = readDoctorReport(fileName, &why);
    if (!report) {
        if (error)
            *error = why;
        return false;
    }
    m_report = std::move(report);
    rematch();
    if (m_button)
        m_button->setEnabled(true);
    const qsizetype only = m_result->runtimeOnly().size();
    m_window->statusBar()->showMessage(
        tr("Doctor report: %1 finding(s) confirmed at run time, %2 run-time only%3")
            .arg(m_result->confirmed.size())
            .arg(only)
            .arg(m_result->stale() ? tr(" (stale: the code changed after the run)") : QString()));
    return true;
}

void DoctorImport::rematch() {
    m_result = matchDoctorReport(*m_report, m_window->project(), m_window->assessment().findings,
                                 m_window->assessment().entryScript);
    m_model->setConfirmed(m_result->confirmed);
}

} // namespace cnready::ui
