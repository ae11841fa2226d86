#pragma once
// The start page shown before a project is open: what the studio does, Open Folder, the
// bundled example project and the recent folders.

#include <QWidget>

class QListWidget;
class QPushButton;

namespace cnready::ui {

class WelcomePage : public QWidget {
    Q_OBJECT
public:
    explicit WelcomePage(QWidget* parent = nullptr);

    /// Lists `paths` (most recent first) as "name — path" items; "(none yet)" when empty.
    void setRecent(const QStringList& paths);
    /// Enables the example button (disabled when the example project was not found).
    void setExampleAvailable(bool available);

signals:
    void openFolderRequested();
    void openExampleRequested();
    /// A recent folder was clicked or activated.
    void projectChosen(const QString& path);

private:
    QListWidget* m_recent = nullptr;
    QPushButton* m_example = nullptr;
};

} // namespace cnready::ui
