#pragma once
// The verdict panel: the verdict badge, the one-sentence rationale, which rule of the verdict
// list decided it and on what evidence, and the demotions applied.

#include "assess/Assessment.h"

#include <QWidget>

class QLabel;

namespace cnready::ui {

class VerdictPanel : public QWidget {
    Q_OBJECT
public:
    explicit VerdictPanel(QWidget* parent = nullptr);
    /// Shows an assessment; `partial` adds a note that the analysis was cancelled.
    void setAssessment(const Assessment& assessment, bool partial);
    /// Back to the empty state (no project).
    void clear(const QString& message = {});
    QString verdictText() const;

    /// Short description of rule `n` (1..8) of the ordered verdict list in PRODUCT.md.
    static QString decidingRuleText(int n);
    /// The deciding rule's tooltip: the numbered verdict list (core's verdictListText()) and
    /// what would change the outcome for the deciding rule (Assessment::wouldChange).
    static QString verdictTooltip(const Assessment& a);

protected:
    void changeEvent(QEvent* event) override;

private:
    void paintBadge();
    QLabel* m_badge;
    QLabel* m_deciding;
    QLabel* m_demotions;
    QLabel* m_rationale;
    bool m_hasVerdict = false;
    Verdict m_verdict = Verdict::Ready;
};

} // namespace cnready::ui
