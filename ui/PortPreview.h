#pragma once
// The studio's Port Preview (View ▸ Port Preview): the diff `cnready port PATH --diff` prints,
// for the whole project or for the file shown in the source view, read-only, with diff
// highlighting. The plan is computed by core (port/PortPlan.h) off the GUI thread.

#include "manifest/Manifest.h"
#include "model/ProjectResult.h"

#include <QDialog>
#include <QFutureWatcher>

class QComboBox;
class QPlainTextEdit;

namespace cnready::ui {

class PortPreview : public QDialog {
    Q_OBJECT
public:
    /// `currentFile` (relative, may be empty): the file the "Current file" scope shows.
    PortPreview(const ProjectResult& project, const Manifest& manifest, const QString& currentFile,
                QWidget* parent = nullptr);
    /// The diff shown, or the note that there is nothing to rewrite.
    QString text() const;
    /// Whether a plan is still being computed.
    bool isBuilding() const { return m_watcher.isRunning(); }
    /// Shows the whole project (true) or only the current file (false).
    void setWholeProject(bool whole);

private:
    void rebuild();

    ProjectResult m_project;
    Manifest m_manifest;
    QString m_currentFile;
    QComboBox* m_scope = nullptr;
    QPlainTextEdit* m_view = nullptr;
    QFutureWatcher<QByteArray> m_watcher;
};

} // namespace cnready::ui
