#include "VerdictPanel.h"

#include "Theme.h"

#include <QEvent>
#include <QLabel>
#include <QVBoxLayout>

namespace cnready::ui {

VerdictPanel::VerdictPanel(QWidget* parent) : QWidget(parent) {
    auto* lay = new QVBoxLayout(this);
    m_badge = new QLabel(this);
    m_badge->setObjectName(QStringLiteral("verdictBadge"));
    m_badge->setAlignment(Qt::AlignCenter);
    m_badge->setMinimumHeight(40);
    QFont f = m_badge->font();
    f.setPointSizeF(f.pointSizeF() * 1.5);
    f.setBold(true);
    m_badge->setFont(f);
    m_deciding = new QLabel(this);
    m_deciding->setObjectName(QStringLiteral("decidingRule"));
    m_reason = new QLabel(this);
    m_reason->setObjectName(QStringLiteral("decidingReason"));
    m_demotions = new QLabel(this);
    m_demotions->setObjectName(QStringLiteral("demotions"));
    m_rationale = new QLabel(this);
    m_rationale->setObjectName(QStringLiteral("rationale"));
    for (QLabel* l : {m_deciding, m_reason, m_demotions, m_rationale}) {
        l->setWordWrap(true);
        l->setTextInteractionFlags(Qt::TextSelectableByMouse);
        l->setTextFormat(Qt::RichText);
    }
    lay->addWidget(m_badge);
    lay->addWidget(m_deciding);
    lay->addWidget(m_reason);
    lay->addWidget(m_demotions);
    lay->addWidget(m_rationale);
    lay->addStretch(1);
    clear();
}

QString VerdictPanel::decidingRuleText(int n) {
    switch (n) {
    case 1:
        return tr("the hardware gate (1) fails");
    case 2:
        return tr("the compute-pattern gate (4) fails");
    case 3:
        return tr("the problem-size gate (2) fails: too few elements per GPU");
    case 4:
        return tr("mpi4py moves array data (R108)");
    case 5:
        return tr("several BLOCKS findings on hot paths");
    case 6:
        return tr("one or two BLOCKS findings that a recipe fixes");
    case 7:
        return tr("only REFACTOR findings");
    case 8:
        return tr("no BLOCKS or REFACTOR findings");
    }
    return {};
}

void VerdictPanel::clear(const QString& message) {
    m_hasVerdict = false;
    m_badge->setText(QStringLiteral("—"));
    m_deciding->setText(message.isEmpty() ? tr("Open a project folder to see its verdict.")
                                          : message.toHtmlEscaped());
    m_reason->clear();
    m_demotions->clear();
    m_demotions->hide();
    m_rationale->clear();
    paintBadge();
}

QString VerdictPanel::verdictText() const {
    return m_hasVerdict ? verdictLabel(m_verdict) : QString();
}

void VerdictPanel::setAssessment(const Assessment& a, bool partial) {
    m_hasVerdict = true;
    m_verdict = a.verdict;
    m_badge->setText(verdictLabel(a.verdict));
    m_deciding->setText(tr("<b>Decided by rule %1</b> of the verdict list: %2.")
                            .arg(a.decidingRule)
                            .arg(decidingRuleText(a.decidingRule).toHtmlEscaped()));
    QString reason = a.decidingReason.toHtmlEscaped();
    if (a.verdictOnVolta)
        reason += (reason.isEmpty() ? QString() : QStringLiteral("<br>")) +
                  tr("On a Volta or newer GPU (compute capability 7.0+) the verdict would be "
                     "<b>%1</b>.")
                      .arg(verdictLabel(*a.verdictOnVolta));
    m_reason->setText(reason);
    m_reason->setVisible(!reason.isEmpty());
    if (a.demotions.isEmpty()) {
        m_demotions->hide();
    } else {
        QString s = tr("<b>Demoted</b> from %1:").arg(verdictLabel(a.verdictBeforeDemotion));
        s += QStringLiteral("<ul style='margin:0'>");
        for (const QString& d : a.demotions)
            s += QStringLiteral("<li>%1</li>").arg(d.toHtmlEscaped());
        s += QStringLiteral("</ul>");
        m_demotions->setText(s);
        m_demotions->show();
    }
    QString rationale = a.rationale.toHtmlEscaped();
    if (partial)
        rationale += QStringLiteral("<br><i>%1</i>")
                         .arg(tr("Partial result: the analysis was cancelled before every "
                                 "file was read."));
    m_rationale->setText(rationale);
    paintBadge();
}

void VerdictPanel::paintBadge() {
    const QPalette pal = palette();
    const QColor bg = m_hasVerdict ? verdictColor(m_verdict, pal) : pal.color(QPalette::Button);
    const QColor fg = m_hasVerdict ? textColorOn(bg) : pal.color(QPalette::ButtonText);
    m_badge->setStyleSheet(QStringLiteral("QLabel#verdictBadge { background: %1; color: %2; "
                                          "border-radius: 6px; padding: 6px 12px; }")
                               .arg(bg.name(), fg.name()));
}

void VerdictPanel::changeEvent(QEvent* event) {
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange)
        paintBadge();
}

} // namespace cnready::ui
