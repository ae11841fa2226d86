#include "Theme.h"

#include <QHash>
#include <QPainter>
#include <QPixmap>
#include <QPolygonF>

namespace cnready::ui {

bool isDarkPalette(const QPalette& palette) {
    return palette.color(QPalette::Window).lightness() < 128;
}

QColor categoryColor(Category c, const QPalette& palette) {
    const bool dark = isDarkPalette(palette);
    switch (c) {
    case Category::Scales:
        return dark ? QColor(0x6c, 0xd0, 0x7a) : QColor(0x1e, 0x7d, 0x32);
    case Category::Blocks:
        return dark ? QColor(0xff, 0x6b, 0x6b) : QColor(0xc6, 0x28, 0x28);
    case Category::Refactor:
        return dark ? QColor(0xff, 0xb3, 0x47) : QColor(0xb2, 0x5e, 0x00);
    case Category::Info:
        return dark ? QColor(0x6e, 0xb6, 0xff) : QColor(0x15, 0x65, 0xc0);
    }
    return palette.color(QPalette::Text);
}

QColor categoryBackground(Category c, const QPalette& palette) {
    QColor col = categoryColor(c, palette);
    col.setAlpha(isDarkPalette(palette) ? 60 : 40);
    return col;
}

QIcon categoryIcon(Category c, const QPalette& palette) {
    // Drawn once per colour: views ask for it on every paint.
    static QHash<QRgb, QIcon> cache;
    const QColor color = categoryColor(c, palette);
    if (const auto it = cache.constFind(color.rgba()); it != cache.constEnd())
        return *it;
    QPixmap pm(12, 12);
    pm.fill(Qt::transparent);
    QPainter p(&pm);
    p.setRenderHint(QPainter::Antialiasing);
    p.setPen(Qt::NoPen);
    p.setBrush(color);
    p.drawEllipse(QRectF(1.5, 1.5, 9, 9));
    p.end();
    return *cache.insert(color.rgba(), QIcon(pm));
}

QIcon confirmedIcon(const QPalette& palette) {
    static QHash<QRgb, QIcon> cache;
    const QColor color = categoryColor(Category::Scales, palette);
    if (const auto it = cache.constFind(color.rgba()); it != cache.constEnd())
        return *it;
    QPixmap pm(12, 12);
    pm.fill(Qt::transparent);
    QPainter p(&pm);
    p.setRenderHint(QPainter::Antialiasing);
    p.setPen(QPen(color, 2.0));
    p.drawPolyline(QPolygonF{QPointF(2, 6.5), QPointF(5, 9.5), QPointF(10, 2.5)});
    p.end();
    return *cache.insert(color.rgba(), QIcon(pm));
}

int categorySeverity(Category c) {
    switch (c) {
    case Category::Scales:
        return 0;
    case Category::Info:
        return 1;
    case Category::Refactor:
        return 2;
    case Category::Blocks:
        return 3;
    }
    return 0;
}

QColor gateStatusColor(GateStatus s, const QPalette& palette) {
    const bool dark = isDarkPalette(palette);
    switch (s) {
    case GateStatus::Pass:
        return dark ? QColor(0x2e, 0x7d, 0x32) : QColor(0x43, 0xa0, 0x47);
    case GateStatus::Fail:
        return dark ? QColor(0xc6, 0x28, 0x28) : QColor(0xe5, 0x39, 0x35);
    case GateStatus::Uncertain:
        return dark ? QColor(0xb2, 0x6a, 0x00) : QColor(0xf9, 0xa8, 0x25);
    case GateStatus::NotApplicable:
        return dark ? QColor(0x61, 0x61, 0x61) : QColor(0xbd, 0xbd, 0xbd);
    }
    return palette.color(QPalette::Mid);
}

QColor verdictColor(Verdict v, const QPalette& palette) {
    const bool dark = isDarkPalette(palette);
    switch (v) {
    case Verdict::Ready:
        return dark ? QColor(0x2e, 0x7d, 0x32) : QColor(0x38, 0x8e, 0x3c);
    case Verdict::LightRefactor:
        return dark ? QColor(0x9e, 0x9d, 0x24) : QColor(0xc0, 0xca, 0x33);
    case Verdict::SignificantRefactor:
        return dark ? QColor(0xe6, 0x51, 0x00) : QColor(0xfb, 0x8c, 0x00);
    case Verdict::NotRecommended:
        return dark ? QColor(0xc6, 0x28, 0x28) : QColor(0xd3, 0x2f, 0x2f);
    }
    return palette.color(QPalette::Mid);
}

QColor textColorOn(const QColor& background) {
    // Relative luminance (ITU-R BT.709 weights) decides black or white text.
    const double l =
        0.2126 * background.redF() + 0.7152 * background.greenF() + 0.0722 * background.blueF();
    return l > 0.55 ? QColor(Qt::black) : QColor(Qt::white);
}

} // namespace cnready::ui
