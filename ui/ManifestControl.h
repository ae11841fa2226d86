#pragma once
// The API-support manifest the studio assesses with: the user's imported one or the bundled
// snapshot, its date on the status bar (a warning when older than 90 days), File ▸ Refresh
// Manifest (the only network access, after asking), File ▸ Import Manifest… and the manifest
// lines of the About box.

#include "manifest/Manifest.h"

#include <QObject>

class QAction;
class QMainWindow;
class QToolButton;

namespace cnready {
class ManifestRefresher;
}

namespace cnready::ui {

class ManifestControl : public QObject {
    Q_OBJECT
public:
    /// Loads the active manifest (local files only) and creates the actions, added to `window`
    /// (its status bar and dialogs are used too).
    explicit ManifestControl(QMainWindow* window);

    const Manifest& manifest() const { return m_manifest; }
    /// File ▸ Refresh Manifest… (objectName "refreshManifest").
    QAction* refreshAction() const { return m_refreshAct; }
    /// File ▸ Import Manifest… (objectName "importManifest").
    QAction* importAction() const { return m_importAct; }
    /// The status-bar button with the manifest's date (objectName "manifestStatus"); a click
    /// refreshes. Created on the first call, parented by the status bar that adds it.
    QToolButton* statusButton();
    /// Re-reads the date and the palette into the status-bar button.
    void updateStatus();
    /// Installs a saved comparison page (.html) or a Markdown manifest as the user's manifest
    /// (what `cnready manifest import FILE` does); manifestChanged() follows. On failure returns
    /// false and sets `error`.
    bool importManifest(const QString& fileName, QString* error = nullptr);
    /// The About box's versions and manifest lines (HTML).
    QString aboutText() const;

signals:
    /// A refreshed or imported manifest is in use: API gaps and the report follow it (no
    /// re-analysis needed).
    void manifestChanged();

private:
    void refreshInteractive();
    void importInteractive();
    void reload();

    QMainWindow* m_window;
    Manifest m_manifest;
    QString m_note;
    ManifestRefresher* m_refresher = nullptr;
    QAction* m_refreshAct;
    QAction* m_importAct;
    QToolButton* m_status = nullptr;
};

} // namespace cnready::ui
