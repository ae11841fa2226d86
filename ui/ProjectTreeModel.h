#pragma once
// The project tree: folders and Python files with their finding counts and worst category.
// Files appear as soon as the scan lists them and fill in while results stream in.

#include "model/ProjectResult.h"

#include <QHash>
#include <QPalette>
#include <QSet>
#include <QStandardItemModel>

#include <array>

namespace cnready::ui {

class ProjectTreeModel : public QStandardItemModel {
    Q_OBJECT
public:
    enum Column { NameColumn, CountColumn, WorstColumn, ColumnCount };
    enum Role {
        PathRole = Qt::UserRole + 1, ///< relative path of a file ('/' separators), "" for folders
        IsFileRole,
    };

    explicit ProjectTreeModel(QObject* parent = nullptr);

    /// Lists every file of the scan as "pending"; clears previous counts.
    void setFiles(const QString& rootName, const QStringList& relativePaths);
    /// Updates the files of one batch (conditional findings are not counted until the merge).
    void updateFiles(const QList<FileResult>& results);
    /// Final counts from the merged project.
    void setProject(const ProjectResult& project);
    /// Re-colours the icons after a palette change.
    void refreshColors(const QPalette& palette);
    /// The item index of a file, or an invalid index.
    QModelIndex indexForPath(const QString& relativePath) const;

private:
    using Counts = std::array<int, 4>; // by Category
    struct Node {
        QStandardItem* name = nullptr;
        QStandardItem* count = nullptr;
        QStandardItem* worst = nullptr;
        Counts counts{};
        bool analyzed = false;
        int diagnostics = 0;
        QString diagnosticText;
    };
    QStandardItem* folderItem(const QString& folderPath);
    void setFileCounts(const QString& path, const Counts& counts, bool analyzed,
                       const QList<FileDiagnostic>& diagnostics, QSet<QString>& touchedFolders);
    void refreshFolders(const QSet<QString>& folders);
    void refreshNode(Node& node);

    QPalette m_palette;
    QIcon m_dirIcon, m_fileIcon, m_warningIcon;
    QHash<QString, Node> m_files;   ///< by relative path
    QHash<QString, Node> m_folders; ///< by relative folder path ("" = root)
};

} // namespace cnready::ui
