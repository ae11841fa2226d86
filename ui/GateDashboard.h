#pragma once
// The gate dashboard: the six decision gates, each with its status and one-line reason.

#include "assess/Assessment.h"

#include <QWidget>

class QLabel;

namespace cnready::ui {

class GateDashboard : public QWidget {
    Q_OBJECT
public:
    explicit GateDashboard(QWidget* parent = nullptr);
    void setGates(const QList<Gate>& gates);
    void clear();
    /// The status label text of gate `number` (1..6), e.g. "fail"; "" before an assessment.
    QString statusText(int number) const;
    QString reasonText(int number) const;

protected:
    void changeEvent(QEvent* event) override;

private:
    void paintChips();
    struct Row {
        QLabel* name = nullptr;
        QLabel* status = nullptr;
        QLabel* reason = nullptr;
        bool known = false;
        GateStatus value = GateStatus::Uncertain;
    };
    QList<Row> m_rows;
};

} // namespace cnready::ui
