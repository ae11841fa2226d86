#include "AppIcon.h"

#include <QPainter>
#include <QPainterPath>
#include <QPixmap>

namespace cnready::ui {

namespace {
QPixmap drawIcon(int size) {
    QPixmap pm(size, size);
    pm.fill(Qt::transparent);
    QPainter p(&pm);
    p.setRenderHint(QPainter::Antialiasing);
    const qreal s = size;
    QPainterPath frame;
    frame.addRoundedRect(QRectF(s * 0.04, s * 0.04, s * 0.92, s * 0.92), s * 0.18, s * 0.18);
    p.fillPath(frame, QColor(0x26, 0x32, 0x38));
    const QColor tiles[4] = {QColor(0x76, 0xb9, 0x00), QColor(0x76, 0xb9, 0x00),
                             QColor(0x76, 0xb9, 0x00), QColor(0xff, 0xb3, 0x00)};
    const qreal m = s * 0.2, gap = s * 0.06, t = (s - 2 * m - gap) / 2;
    for (int i = 0; i < 4; ++i) {
        const QRectF r(m + (i % 2) * (t + gap), m + (i / 2) * (t + gap), t, t);
        QPainterPath tile;
        tile.addRoundedRect(r, s * 0.05, s * 0.05);
        p.fillPath(tile, tiles[i]);
    }
    return pm;
}
} // namespace

QIcon appIcon() {
    QIcon icon;
    for (int size : {16, 24, 32, 48, 64, 128, 256})
        icon.addPixmap(drawIcon(size));
    return icon;
}

} // namespace cnready::ui
