#include "ProjectWatcher.h"

#include <QDir>
#include <QFileInfo>

namespace cnready::ui {

ProjectWatcher::ProjectWatcher(QObject* parent) : QObject(parent) {
    m_settle.setSingleShot(true);
    m_settle.setInterval(kSettleMs);
    connect(&m_watcher, &QFileSystemWatcher::fileChanged, this, &ProjectWatcher::onFileChanged);
    connect(&m_watcher, &QFileSystemWatcher::directoryChanged, this,
            &ProjectWatcher::onFolderChanged);
    connect(&m_settle, &QTimer::timeout, this, [this] {
        // A file saved by rename is a new inode the watcher no longer follows: watch it again.
        const QSet<QString> watched = watchedSet();
        for (const QString& f : std::as_const(m_files))
            if (!watched.contains(f) && QFileInfo::exists(f))
                m_watcher.addPath(f);
        emit projectChanged(std::exchange(m_changed, {}));
    });
}

void ProjectWatcher::watch(const QString& root, const QStringList& relativePaths) {
    stop();
    if (root.isEmpty())
        return;
    m_root = root;
    const QFileInfo rootInfo(root);
    // A one-file project: its root is the folder holding it.
    const QDir dir(rootInfo.isDir() ? root : rootInfo.absolutePath());
    QSet<QString> folders{dir.absolutePath()};
    QStringList files;
    for (const QString& rel : relativePaths) {
        const QString abs = dir.filePath(rel);
        m_files.insert(abs);
        files << abs;
        folders.insert(QFileInfo(abs).absolutePath());
    }
    if (!files.isEmpty())
        m_watcher.addPaths(files);
    for (const QString& f : std::as_const(folders))
        m_sources.insert(f, sources(f));
    m_watcher.addPaths(QStringList(folders.cbegin(), folders.cend()));
}

QStringList ProjectWatcher::sources(const QString& folder) {
    return QDir(folder).entryList({QStringLiteral("*.py"), QStringLiteral("*.ipynb")}, QDir::Files,
                                  QDir::Name);
}

void ProjectWatcher::stop() {
    m_settle.stop();
    m_changed.clear();
    m_files.clear();
    m_sources.clear();
    m_root.clear();
    if (!m_watcher.files().isEmpty())
        m_watcher.removePaths(m_watcher.files());
    if (!m_watcher.directories().isEmpty())
        m_watcher.removePaths(m_watcher.directories());
}

void ProjectWatcher::onFileChanged(const QString& path) {
    note(path);
}

void ProjectWatcher::onFolderChanged(const QString& path) {
    QStringList now = sources(path);
    bool renamedOver = false; // a watched file replaced by another: the watcher lost it
    const QSet<QString> watched = watchedSet();
    for (const QString& f : std::as_const(m_files))
        if (!watched.contains(f) && QFileInfo(f).absolutePath() == path)
            renamedOver = true;
    if (now == m_sources.value(path) && !renamedOver)
        return;
    m_sources.insert(path, std::move(now));
    note(path);
}

QSet<QString> ProjectWatcher::watchedSet() const {
    const QStringList files = m_watcher.files();
    return QSet<QString>(files.cbegin(), files.cend());
}

void ProjectWatcher::note(const QString& path) {
    if (!m_changed.contains(path))
        m_changed << path;
    m_settle.start(); // restarted by each change of the burst
}

} // namespace cnready::ui
