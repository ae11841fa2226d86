#pragma once
// Watch mode's part of the window: the File ▸ Watch Project action (remembered in QSettings),
// a ProjectWatcher over the files of the last scan, and what the user was looking at, kept
// (ViewState) across the re-analysis a save starts.

#include "ViewState.h"

#include <QObject>

#include <functional>
#include <optional>

class QAction;
class QTableView;

namespace cnready {
struct ScanResult;
}

namespace cnready::ui {

class CodeView;
class ProjectWatcher;

class WatchMode : public QObject {
    Q_OBJECT
public:
    WatchMode(QTableView* findings, CodeView* source, QObject* parent);

    QAction* action() const { return m_action; }
    ProjectWatcher* watcher() const { return m_watcher; }
    /// A scan finished: its files are watched from now on (while the action is on).
    void scanned(const ScanResult& scan);
    /// Another project is opened: the view kept for the last one is dropped.
    void forgetView() { m_kept.reset(); }
    /// The analysis is complete and its findings are on display: when watch mode asked for
    /// it, `reload` puts the saved text of the file on display in the source view, and the
    /// view is put back as it was.
    void analysisComplete(const std::function<void(const QString& path)>& reload);

signals:
    /// Watched files or folders changed (`paths`: absolute, as ProjectWatcher::projectChanged
    /// reports them): the project is to be brought up to date.
    void reanalysisWanted(const QStringList& paths);

private:
    void update();

    QTableView* m_findings;
    CodeView* m_source;
    QAction* m_action;
    ProjectWatcher* m_watcher;
    QString m_root;
    QStringList m_files;
    std::optional<ViewState> m_kept;
};

} // namespace cnready::ui
