#pragma once
// The main window's own actions (objectName, text, shortcut, status tip; added to the window so
// their shortcuts work everywhere) and its File, View and Help menus with Open Recent. What an
// action does is connected by the window.

#include <QObject>
#include <QStringList>

class QAction;
class QDockWidget;
class QMainWindow;
class QMenu;

namespace cnready::ui {

class WindowActions : public QObject {
    Q_OBJECT
public:
    explicit WindowActions(QMainWindow* window);

    /// Builds the menus on `window`'s menu bar. `watch` goes under File after Cancel Analysis,
    /// `imports` (refresh and import the manifest, import a Doctor report) after Export Report,
    /// and each of `docks` gets its show/hide entry under View.
    void buildMenus(QAction* watch, const QList<QAction*>& imports,
                    const QList<QDockWidget*>& docks);
    /// Lists `paths` under File ▸ Open Recent, with Clear List (disabled when empty).
    void setRecent(const QStringList& paths);

    QAction* open = nullptr;         ///< "openFolder", Ctrl+O
    QAction* openExample = nullptr;  ///< "openExample"
    QAction* reanalyze = nullptr;    ///< "reanalyze", F5
    QAction* cancel = nullptr;       ///< "cancelAnalysis", Esc
    QAction* exportReport = nullptr; ///< "exportReport", Ctrl+E
    QAction* quit = nullptr;         ///< "quit", Ctrl+Q
    QAction* next = nullptr;         ///< "nextFinding", F8
    QAction* previous = nullptr;     ///< "previousFinding", Shift+F8
    QAction* showSource = nullptr;   ///< "showSource", Ctrl+1
    QAction* showReport = nullptr;   ///< "showReport", Ctrl+2
    QAction* portPreview = nullptr;  ///< "portPreview"
    QAction* rules = nullptr;        ///< "rules", F1
    QAction* about = nullptr;        ///< "about"
    QAction* aboutQt = nullptr;      ///< "aboutQt"

signals:
    /// An entry of Open Recent was chosen.
    void recentChosen(const QString& path);
    /// Open Recent ▸ Clear List.
    void recentCleared();

private:
    QMainWindow* m_window;
    QMenu* m_recentMenu = nullptr;
};

} // namespace cnready::ui
