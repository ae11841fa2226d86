#include "ProjectTreeModel.h"

#include "Theme.h"

#include <QApplication>
#include <QStyle>

namespace cnready::ui {

namespace {
QString parentFolder(const QString& path) {
    const int slash = path.lastIndexOf(QLatin1Char('/'));
    return slash < 0 ? QString() : path.left(slash);
}
int total(const std::array<int, 4>& c) {
    return c[0] + c[1] + c[2] + c[3];
}
} // namespace

ProjectTreeModel::ProjectTreeModel(QObject* parent)
    : QStandardItemModel(parent), m_palette(QApplication::palette()) {
    // Looked up once: a style's standardIcon() can search icon themes on every call.
    m_dirIcon = QApplication::style()->standardIcon(QStyle::SP_DirIcon);
    m_fileIcon = QApplication::style()->standardIcon(QStyle::SP_FileIcon);
    m_warningIcon = QApplication::style()->standardIcon(QStyle::SP_MessageBoxWarning);
    setColumnCount(ColumnCount);
    setHorizontalHeaderLabels({tr("Name"), tr("Findings"), tr("Worst")});
}

QStandardItem* ProjectTreeModel::folderItem(const QString& folderPath) {
    auto it = m_folders.find(folderPath);
    if (it != m_folders.end())
        return it->name;
    QStandardItem* parent = folderPath.isEmpty() ? nullptr : folderItem(parentFolder(folderPath));
    Node node;
    node.name = new QStandardItem(folderPath.section(QLatin1Char('/'), -1));
    node.name->setIcon(m_dirIcon);
    node.name->setData(QString(), PathRole);
    node.name->setData(false, IsFileRole);
    node.count = new QStandardItem;
    node.worst = new QStandardItem;
    for (QStandardItem* i : {node.name, node.count, node.worst})
        i->setEditable(false);
    node.count->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    // The root stays detached while setFiles() builds the tree: one insertion for the view.
    if (parent)
        parent->appendRow({node.name, node.count, node.worst});
    QStandardItem* item = node.name;
    m_folders.insert(folderPath, node);
    return item;
}

void ProjectTreeModel::setFiles(const QString& rootName, const QStringList& relativePaths) {
    removeRows(0, rowCount());
    m_files.clear();
    m_folders.clear();
    QStandardItem* root = folderItem(QString());
    root->setText(rootName);
    // Folders first, then files, each sorted: insert folders for every file before the files.
    QStringList sorted = relativePaths;
    std::sort(sorted.begin(), sorted.end());
    for (const QString& p : sorted)
        folderItem(parentFolder(p));
    for (const QString& p : sorted) {
        QStandardItem* parent = folderItem(parentFolder(p));
        Node node;
        node.name = new QStandardItem(p.section(QLatin1Char('/'), -1));
        node.name->setIcon(m_fileIcon);
        node.name->setData(p, PathRole);
        node.name->setData(true, IsFileRole);
        node.name->setToolTip(p);
        node.count = new QStandardItem(QStringLiteral("…"));
        node.count->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        node.worst = new QStandardItem;
        for (QStandardItem* i : {node.name, node.count, node.worst})
            i->setEditable(false);
        parent->appendRow({node.name, node.count, node.worst});
        m_files.insert(p, node);
    }
    for (auto& f : m_folders)
        refreshNode(f);
    const Node& rootNode = m_folders[QString()];
    appendRow({rootNode.name, rootNode.count, rootNode.worst});
}

void ProjectTreeModel::setFileCounts(const QString& path, const Counts& counts, bool analyzed,
                                     const QList<FileDiagnostic>& diagnostics,
                                     QSet<QString>& touchedFolders) {
    auto it = m_files.find(path);
    if (it == m_files.end())
        return;
    Node& node = *it;
    QStringList lines;
    for (const FileDiagnostic& d : diagnostics)
        lines << (d.range.line <= 0  ? d.message
                  : d.range.cell > 0 ? tr("cell %1, line %2: %3")
                                           .arg(d.range.cell)
                                           .arg(d.range.displayLine())
                                           .arg(d.message)
                                     : tr("line %1: %2").arg(d.range.line).arg(d.message));
    QString diagnosticText = lines.join(QLatin1Char('\n'));
    // The merged project repeats what streaming already showed for almost every file: leave
    // those items alone (each change is a dataChanged() the tree view has to process).
    if (node.analyzed == analyzed && node.counts == counts &&
        node.diagnostics == int(diagnostics.size()) && node.diagnosticText == diagnosticText)
        return;
    Counts delta{};
    for (int i = 0; i < 4; ++i)
        delta[size_t(i)] = counts[size_t(i)] - node.counts[size_t(i)];
    node.counts = counts;
    node.analyzed = analyzed;
    node.diagnostics = int(diagnostics.size());
    node.diagnosticText = std::move(diagnosticText);
    refreshNode(node);
    // Folders add up their files; they are redrawn once per batch by the caller.
    QString folder = parentFolder(path);
    while (true) {
        auto fit = m_folders.find(folder);
        if (fit != m_folders.end()) {
            for (int i = 0; i < 4; ++i)
                fit->counts[size_t(i)] += delta[size_t(i)];
            fit->analyzed = true;
            touchedFolders.insert(folder);
        }
        if (folder.isEmpty())
            break;
        folder = parentFolder(folder);
    }
}

void ProjectTreeModel::refreshFolders(const QSet<QString>& folders) {
    for (const QString& f : folders) {
        auto it = m_folders.find(f);
        if (it != m_folders.end())
            refreshNode(*it);
    }
}

void ProjectTreeModel::refreshNode(Node& node) {
    const int n = total(node.counts);
    int worst = -1;
    for (Category c : {Category::Scales, Category::Info, Category::Refactor, Category::Blocks})
        if (node.counts[size_t(c)] > 0)
            worst = int(c);
    const bool isFile = node.name->data(IsFileRole).toBool();
    if (!node.analyzed) {
        node.count->setText(isFile ? QStringLiteral("…") : QString());
        node.count->setToolTip(tr("Not analysed yet"));
    } else {
        node.count->setText(QString::number(n));
        QStringList parts;
        for (Category c : {Category::Blocks, Category::Refactor, Category::Info, Category::Scales})
            if (node.counts[size_t(c)] > 0)
                parts << QStringLiteral("%1 %2").arg(node.counts[size_t(c)]).arg(categoryLabel(c));
        node.count->setToolTip(parts.isEmpty() ? tr("No findings")
                                               : parts.join(QStringLiteral(", ")));
    }
    if (worst >= 0) {
        const auto c = Category(worst);
        node.worst->setText(categoryLabel(c));
        node.worst->setIcon(categoryIcon(c, m_palette));
        node.worst->setForeground(categoryColor(c, m_palette));
    } else {
        node.worst->setText(QString());
        node.worst->setIcon(QIcon());
    }
    if (isFile) {
        if (node.diagnostics > 0) {
            node.name->setIcon(m_warningIcon);
            node.name->setToolTip(node.name->data(PathRole).toString() + QLatin1Char('\n') +
                                  node.diagnosticText);
        } else {
            node.name->setIcon(m_fileIcon);
            node.name->setToolTip(node.name->data(PathRole).toString());
        }
    }
}

void ProjectTreeModel::updateFiles(const QList<FileResult>& results) {
    QSet<QString> touched;
    for (const FileResult& r : results) {
        Counts c{};
        for (const Finding& f : r.findings)
            if (f.requiresHotFunction.isEmpty())
                ++c[size_t(f.category)];
        setFileCounts(r.path, c, true, r.diagnostics, touched);
    }
    refreshFolders(touched);
}

void ProjectTreeModel::setProject(const ProjectResult& project) {
    QHash<QString, Counts> counts;
    QHash<QString, QList<FileDiagnostic>> diags;
    for (const Finding& f : project.findings)
        ++counts[f.range.path][size_t(f.category)];
    for (const FileDiagnostic& d : project.diagnostics)
        diags[d.range.path].append(d);
    // The merge resolves the conditional findings, so nearly every file's counts change at
    // once. One dataChanged() per item makes the tree view look each item up in its list of
    // visible rows (~20 ms for 5,000 files); the values change but not the structure, so the
    // views are told once, with a layout change, instead.
    const bool wasBlocked = blockSignals(true);
    QSet<QString> touched;
    for (const FileResult& r : project.files)
        setFileCounts(r.path, counts.value(r.path), true, diags.value(r.path), touched);
    refreshFolders(touched);
    blockSignals(wasBlocked);
    if (!touched.isEmpty()) {
        emit layoutAboutToBeChanged({}, QAbstractItemModel::NoLayoutChangeHint);
        emit layoutChanged({}, QAbstractItemModel::NoLayoutChangeHint);
    }
}

void ProjectTreeModel::refreshColors(const QPalette& palette) {
    m_palette = palette;
    for (auto& n : m_files)
        refreshNode(n);
    for (auto& n : m_folders)
        refreshNode(n);
}

QModelIndex ProjectTreeModel::indexForPath(const QString& relativePath) const {
    const auto it = m_files.constFind(relativePath);
    return it == m_files.constEnd() ? QModelIndex() : it->name->index();
}

} // namespace cnready::ui
