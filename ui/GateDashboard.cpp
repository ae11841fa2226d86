#include "GateDashboard.h"

#include "FindingsModel.h"
#include "Theme.h"

#include <QEvent>
#include <QGridLayout>
#include <QLabel>

namespace cnready::ui {

namespace {
// Gate names as PRODUCT.md lists them; the assessment's own names replace them once known.
const char* const kGateNames[6] = {"Hardware",        "Problem size",  "Workload shape",
                                   "Compute pattern", "Boundary cost", "Operational readiness"};
} // namespace

GateDashboard::GateDashboard(QWidget* parent) : QWidget(parent) {
    auto* grid = new QGridLayout(this);
    grid->setColumnStretch(2, 1);
    grid->setHorizontalSpacing(8);
    for (int i = 0; i < 6; ++i) {
        Row r;
        r.name =
            new QLabel(QStringLiteral("<b>%1</b>&nbsp;%2").arg(i + 1).arg(tr(kGateNames[i])), this);
        r.name->setObjectName(QStringLiteral("gateName%1").arg(i + 1));
        r.status = new QLabel(this);
        r.status->setObjectName(QStringLiteral("gateStatus%1").arg(i + 1));
        r.status->setAlignment(Qt::AlignCenter);
        r.status->setMinimumWidth(
            r.status->fontMetrics().horizontalAdvance(QStringLiteral("uncertain")) + 16);
        r.reason = new QLabel(this);
        r.reason->setObjectName(QStringLiteral("gateReason%1").arg(i + 1));
        r.reason->setWordWrap(true);
        r.reason->setTextFormat(Qt::RichText);
        r.reason->setTextInteractionFlags(Qt::TextSelectableByMouse);
        grid->addWidget(r.name, i, 0, Qt::AlignTop);
        grid->addWidget(r.status, i, 1, Qt::AlignTop);
        grid->addWidget(r.reason, i, 2, Qt::AlignTop);
        m_rows.append(r);
    }
    grid->setRowStretch(6, 1);
    clear();
}

void GateDashboard::clear() {
    for (Row& r : m_rows) {
        r.known = false;
        r.status->setText(QStringLiteral("—"));
        r.reason->setText(QString());
        r.reason->setToolTip(QString());
    }
    paintChips();
}

void GateDashboard::setGates(const QList<Gate>& gates) {
    clear();
    for (const Gate& g : gates) {
        if (g.number < 1 || g.number > 6)
            continue;
        Row& r = m_rows[g.number - 1];
        r.known = true;
        r.value = g.status;
        if (!g.name.isEmpty())
            r.name->setText(
                QStringLiteral("<b>%1</b>&nbsp;%2").arg(g.number).arg(g.name.toHtmlEscaped()));
        r.status->setText(gateStatusLabel(g.status));
        r.reason->setText(FindingsModel::htmlMessage(g.reason));
        QString tip = FindingsModel::htmlMessage(g.reason);
        if (!g.evidence.isEmpty()) {
            tip += QStringLiteral("<ul>");
            for (int i = 0; i < g.evidence.size() && i < 20; ++i)
                tip += QStringLiteral("<li>%1</li>").arg(FindingsModel::htmlMessage(g.evidence[i]));
            if (g.evidence.size() > 20)
                tip +=
                    QStringLiteral("<li>%1</li>").arg(tr("… %1 more").arg(g.evidence.size() - 20));
            tip += QStringLiteral("</ul>");
        }
        r.reason->setToolTip(tip);
        r.status->setToolTip(tip);
    }
    paintChips();
}

QString GateDashboard::statusText(int number) const {
    if (number < 1 || number > 6 || !m_rows[number - 1].known)
        return {};
    return m_rows[number - 1].status->text();
}

QString GateDashboard::reasonText(int number) const {
    if (number < 1 || number > 6)
        return {};
    return m_rows[number - 1].reason->text();
}

void GateDashboard::paintChips() {
    const QPalette pal = palette();
    for (Row& r : m_rows) {
        const QColor bg = r.known ? gateStatusColor(r.value, pal) : pal.color(QPalette::Button);
        const QColor fg = r.known ? textColorOn(bg) : pal.color(QPalette::ButtonText);
        r.status->setStyleSheet(QStringLiteral("QLabel { background: %1; color: %2; border-radius: "
                                               "4px; padding: 1px 6px; font-weight: bold; }")
                                    .arg(bg.name(), fg.name()));
    }
}

void GateDashboard::changeEvent(QEvent* event) {
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange)
        paintChips();
}

} // namespace cnready::ui
