#include "WindowLayout.h"

#include <QDockWidget>
#include <QGuiApplication>
#include <QMainWindow>
#include <QScreen>
#include <QSettings>
#include <QSplitter>

namespace cnready::ui {

void restoreWindowLayout(QMainWindow* window) {
    QSettings s;
    if (!window->restoreGeometry(s.value(QStringLiteral("window/geometry")).toByteArray()))
        fitToScreen(window);
    else if (const QScreen* sc = window->screen();
             sc && !sc->availableGeometry().contains(window->frameGeometry()))
        fitToScreen(window); // saved on a larger screen
    window->restoreState(s.value(QStringLiteral("window/state")).toByteArray());
    // The table/detail split is inside the findings dock, outside saveState().
    if (auto* split = window->findChild<QSplitter*>(QStringLiteral("findingsSplitter")))
        split->restoreState(s.value(QStringLiteral("window/findingsSplitter")).toByteArray());
}

void saveWindowLayout(const QMainWindow* window) {
    QSettings s;
    s.setValue(QStringLiteral("window/geometry"), window->saveGeometry());
    s.setValue(QStringLiteral("window/state"), window->saveState());
    if (auto* split = window->findChild<QSplitter*>(QStringLiteral("findingsSplitter")))
        s.setValue(QStringLiteral("window/findingsSplitter"), split->saveState());
}

void fitToScreen(QMainWindow* window) {
    const QScreen* sc = window->screen() ? window->screen() : QGuiApplication::primaryScreen();
    const QRect avail = sc ? sc->availableGeometry() : QRect(0, 0, 1500, 950);
    // The frame (title bar, borders) is not known before the window is shown: leave room.
    const int frameW = 16, frameH = 40;
    const QSize size(qMin(1500, avail.width() - frameW), qMin(950, avail.height() - frameH));
    window->resize(size);
    window->move(avail.x() + (avail.width() - size.width() - frameW) / 2,
                 avail.y() + (avail.height() - size.height() - frameH) / 2);
    // Docks in proportion: the centre keeps at least ~40 % of the width, the findings table
    // a third of the height.
    QDockWidget* project = window->findChild<QDockWidget*>(QStringLiteral("projectDock"));
    QDockWidget* verdict = window->findChild<QDockWidget*>(QStringLiteral("verdictDock"));
    QDockWidget* gates = window->findChild<QDockWidget*>(QStringLiteral("gatesDock"));
    QDockWidget* context = window->findChild<QDockWidget*>(QStringLiteral("contextDock"));
    QDockWidget* findings = window->findChild<QDockWidget*>(QStringLiteral("findingsDock"));
    const int w = size.width(), h = size.height();
    window->resizeDocks({project, verdict}, {qMin(340, w * 24 / 100), qMin(520, w * 32 / 100)},
                        Qt::Horizontal);
    window->resizeDocks({findings}, {qMax(170, h * 30 / 100)}, Qt::Vertical);
    // The verdict (badge, rationale, deciding rule: ~200 px at 1366x768) without scrolling;
    // the gates and the long context form scroll.
    window->resizeDocks({verdict, gates, context}, {h * 30 / 100, h * 38 / 100, h * 32 / 100},
                        Qt::Vertical);
}

} // namespace cnready::ui
