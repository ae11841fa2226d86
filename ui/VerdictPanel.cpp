#include "VerdictPanel.h"

#include "Theme.h"

#include "assess/VerdictList.h"

#include <QEvent>
#include <QLabel>
#include <QVBoxLayout>

namespace cnready::ui {

namespace {
// Demotions and reasons name APIs and file paths ("numpy.linalg.eigvalsh at
// solvers/spectral/kernels.py:123"): words far wider than a narrow dock, which a word-wrapped
// label cannot break and would push out of view. A zero-width space after each separator (and
// every 16 characters of a run without one) lets the text wrap there; nothing visible changes.
QString softBreaks(const QString& text) {
    static const QString separators = QStringLiteral("/._:,;=");
    QString out;
    out.reserve(text.size() + text.size() / 8);
    int run = 0;
    for (qsizetype i = 0; i < text.size(); ++i) {
        const QChar c = text.at(i);
        out += c;
        run = c.isSpace() ? 0 : run + 1;
        const bool more = i + 1 < text.size() && !text.at(i + 1).isSpace();
        if (more && (separators.contains(c) || run >= 16)) {
            out += QChar(0x200B);
            run = 0;
        }
    }
    return out;
}

QString htmlWithBreaks(const QString& text) {
    return softBreaks(text).toHtmlEscaped();
}

// Core's demotion notes start "Rule 9: "; under a heading that names rule 9 that is said twice.
QString withoutRulePrefix(const QString& demotion) {
    static const QString prefix = QStringLiteral("Rule 9: ");
    return demotion.startsWith(prefix) ? demotion.mid(prefix.size()) : demotion;
}
} // namespace

VerdictPanel::VerdictPanel(QWidget* parent) : QWidget(parent) {
    auto* lay = new QVBoxLayout(this);
    m_badge = new QLabel(this);
    m_badge->setObjectName(QStringLiteral("verdictBadge"));
    m_badge->setAlignment(Qt::AlignCenter);
    m_badge->setMinimumHeight(40);
    // "SIGNIFICANT REFACTOR" in the large bold font is wider than a narrow dock: two lines.
    m_badge->setWordWrap(true);
    QFont f = m_badge->font();
    f.setPointSizeF(f.pointSizeF() * 1.5);
    f.setBold(true);
    m_badge->setFont(f);
    // Read at a glance: the badge, then the one-sentence why, then which rule decided it and on
    // what evidence. Each says something the others do not (see setAssessment).
    m_rationale = new QLabel(this);
    m_rationale->setObjectName(QStringLiteral("rationale"));
    m_deciding = new QLabel(this);
    m_deciding->setObjectName(QStringLiteral("decidingRule"));
    m_demotions = new QLabel(this);
    m_demotions->setObjectName(QStringLiteral("demotions"));
    for (QLabel* l : {m_rationale, m_deciding, m_demotions}) {
        l->setWordWrap(true);
        l->setTextInteractionFlags(Qt::TextSelectableByMouse);
        l->setTextFormat(Qt::RichText);
    }
    lay->addWidget(m_badge);
    lay->addWidget(m_rationale);
    lay->addWidget(m_deciding);
    lay->addWidget(m_demotions);
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
        return tr("BLOCKS at several sites or of several kinds on hot paths");
    case 6:
        return tr("BLOCKS at one or two sites that a recipe fixes");
    case 7:
        return tr("only REFACTOR findings");
    case 8:
        return tr("no BLOCKS or REFACTOR findings");
    }
    return {};
}

QString VerdictPanel::verdictTooltip(const Assessment& a) {
    QString s = verdictListText().trimmed();
    if (!a.wouldChange.isEmpty())
        s += tr("\n\nWhat would change rule %1's outcome: %2")
                 .arg(a.decidingRule)
                 .arg(a.wouldChange);
    return s;
}

void VerdictPanel::clear(const QString& message) {
    m_hasVerdict = false;
    m_deciding->setToolTip(QString());
    m_badge->setText(QStringLiteral("—"));
    m_deciding->setText(message.isEmpty() ? tr("Open a project folder to see its verdict.")
                                          : message.toHtmlEscaped());
    m_demotions->clear();
    m_demotions->hide();
    m_rationale->clear();
    m_rationale->hide();
    paintBadge();
}

QString VerdictPanel::verdictText() const {
    return m_hasVerdict ? verdictLabel(m_verdict) : QString();
}

void VerdictPanel::setAssessment(const Assessment& a, bool partial) {
    m_hasVerdict = true;
    m_verdict = a.verdict;
    m_badge->setText(verdictLabel(a.verdict));
    // The rationale is the headline. The deciding line names the rule and its evidence, not
    // the rule's wording, which the rationale already paraphrases ("BLOCKS at several sites or
    // of several kinds ..." said twice); the wording is in the tooltip's verdict list. A gate
    // rule's evidence is the gate's reason, which the Gates dock shows and the rationale
    // quotes: here the rule's short text stands for it. The Volta verdict of rule 1 is in the
    // rationale too.
    const bool gateRule = a.decidingRule >= 1 && a.decidingRule <= 3;
    const QString evidence = gateRule || a.decidingReason.isEmpty()
                                 ? decidingRuleText(a.decidingRule).toHtmlEscaped()
                                 : htmlWithBreaks(a.decidingReason);
    m_deciding->setText(
        tr("<b>Decided by rule %1</b> of the verdict list: %2.").arg(a.decidingRule).arg(evidence));
    // The verdict list itself and what would change the deciding rule's outcome, both from
    // core (the same text as `cnready explain verdict` and the report).
    m_deciding->setToolTip(verdictTooltip(a));
    // Rule 9 also leaves a note when the verdict is already at its floor ("never demoted
    // further"): "Demoted from" only when the tier really moved.
    const bool demoted = a.verdict != a.verdictBeforeDemotion;
    const QString heading =
        demoted ? tr("Demoted from %1 by rule 9:").arg(verdictLabel(a.verdictBeforeDemotion))
                : tr("Not demoted (rule 9):");
    if (a.demotions.isEmpty()) {
        m_demotions->hide();
        m_demotions->setToolTip(QString());
    } else {
        QString s =
            demoted
                ? tr("<b>Demoted</b> from %1 by rule 9:").arg(verdictLabel(a.verdictBeforeDemotion))
                : tr("<b>Not demoted</b> (rule 9):");
        s += QStringLiteral("<ul style='margin:0'>");
        for (const QString& d : a.demotions)
            s += QStringLiteral("<li>%1</li>").arg(htmlWithBreaks(withoutRulePrefix(d)));
        s += QStringLiteral("</ul>");
        m_demotions->setText(s);
        // The unbroken text, for reading (and copying) names and paths whole.
        QString tip = heading;
        for (const QString& d : a.demotions)
            tip += QStringLiteral("\n• ") + withoutRulePrefix(d);
        m_demotions->setToolTip(tip);
        m_demotions->show();
    }
    QString rationale = htmlWithBreaks(a.rationale);
    if (partial)
        rationale += QStringLiteral("<br><i>%1</i>")
                         .arg(tr("Partial result: the analysis was cancelled before every "
                                 "file was read."));
    m_rationale->setText(rationale);
    m_rationale->setVisible(!rationale.isEmpty());
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
