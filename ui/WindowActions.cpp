#include "WindowActions.h"

#include <QAction>
#include <QDir>
#include <QDockWidget>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>

namespace cnready::ui {

WindowActions::WindowActions(QMainWindow* window) : QObject(window), m_window(window) {
    auto make = [window](const QString& name, const QString& text, const QKeySequence& key = {}) {
        auto* a = new QAction(text, window);
        a->setObjectName(name);
        if (!key.isEmpty())
            a->setShortcut(key);
        window->addAction(a);
        return a;
    };
    open = make(QStringLiteral("openFolder"), tr("&Open Folder…"), QKeySequence::Open);
    open->setStatusTip(tr("Choose a folder of Python code to assess"));
    openExample = make(QStringLiteral("openExample"), tr("Open &Example Project"));
    openExample->setStatusTip(tr("Assess the small example project that ships with cnready"));
    reanalyze = make(QStringLiteral("reanalyze"), tr("&Re-analyze"), QKeySequence(Qt::Key_F5));
    cancel = make(QStringLiteral("cancelAnalysis"), tr("&Cancel Analysis"),
                  QKeySequence(Qt::Key_Escape));
    exportReport = make(QStringLiteral("exportReport"), tr("&Export Report…"),
                        QKeySequence(Qt::CTRL | Qt::Key_E));
    exportReport->setStatusTip(tr("Save the report as Markdown, JSON or SARIF"));
    quit = make(QStringLiteral("quit"), tr("&Quit"), QKeySequence::Quit);
    next = make(QStringLiteral("nextFinding"), tr("&Next Finding"), QKeySequence(Qt::Key_F8));
    previous = make(QStringLiteral("previousFinding"), tr("&Previous Finding"),
                    QKeySequence(Qt::SHIFT | Qt::Key_F8));
    showSource =
        make(QStringLiteral("showSource"), tr("&Source"), QKeySequence(Qt::CTRL | Qt::Key_1));
    showReport = make(QStringLiteral("showReport"), tr("Report &Preview"),
                      QKeySequence(Qt::CTRL | Qt::Key_2));
    portPreview = make(QStringLiteral("portPreview"), tr("Port Pre&view…"));
    portPreview->setStatusTip(
        tr("The mechanical rewrites of the port as a diff (nothing is written)"));
    rules = make(QStringLiteral("rules"), tr("&Rules"), QKeySequence(Qt::Key_F1));
    rules->setStatusTip(tr("Every rule code: what it finds, why it matters and how to fix it"));
    about = make(QStringLiteral("about"), tr("&About cnready Studio"));
    aboutQt = make(QStringLiteral("aboutQt"), tr("About &Qt"));
}

void WindowActions::buildMenus(QAction* watch, const QList<QAction*>& imports,
                               const QList<QDockWidget*>& docks) {
    QMenuBar* bar = m_window->menuBar();
    QMenu* file = bar->addMenu(tr("&File"));
    file->addAction(open);
    m_recentMenu = file->addMenu(tr("Open &Recent"));
    file->addAction(openExample);
    file->addSeparator();
    file->addAction(reanalyze);
    file->addAction(cancel);
    file->addAction(watch);
    file->addSeparator();
    file->addAction(exportReport);
    for (QAction* a : imports)
        file->addAction(a);
    file->addSeparator();
    file->addAction(quit);

    QMenu* view = bar->addMenu(tr("&View"));
    view->addAction(showSource);
    view->addAction(showReport);
    view->addAction(portPreview);
    view->addSeparator();
    view->addAction(next);
    view->addAction(previous);
    view->addSeparator();
    for (QDockWidget* d : docks)
        view->addAction(d->toggleViewAction());

    QMenu* help = bar->addMenu(tr("&Help"));
    help->addAction(rules);
    help->addSeparator();
    help->addAction(about);
    help->addAction(aboutQt);
}

void WindowActions::setRecent(const QStringList& list) {
    if (!m_recentMenu)
        return;
    m_recentMenu->clear();
    for (const QString& p : list) {
        QAction* a = m_recentMenu->addAction(QDir::toNativeSeparators(p));
        connect(a, &QAction::triggered, this, [this, p] { emit recentChosen(p); });
    }
    if (!list.isEmpty()) {
        m_recentMenu->addSeparator();
        m_recentMenu->addAction(tr("Clear List"), this, [this] { emit recentCleared(); });
    }
    m_recentMenu->setEnabled(!list.isEmpty());
}

} // namespace cnready::ui
