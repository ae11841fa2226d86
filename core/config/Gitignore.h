#pragma once
// The `.gitignore` files of a project, as git reads them (a subset: see GitignoreRules).

#include "config/PathGlob.h"

#include <QHash>
#include <QList>
#include <QString>

namespace cnready {

/// The ignore rules of the `.gitignore` files in a project folder, in the folders below it
/// (those holding one of the given files) and in the folders above it up to the repository's
/// top (the first folder holding `.git`). Blank lines and `#` comments are skipped, `!`
/// re-includes, the last matching rule wins, a file below an ignored folder stays ignored;
/// globs follow PathGlob. Not read: `.git/info/exclude` and the user's global excludes file.
class GitignoreRules {
public:
    /// Takes the project root (absolute) and the relative paths of the files found under it;
    /// reads every `.gitignore` that can apply to them (unreadable ones are passed over).
    GitignoreRules(const QString& root, const QStringList& files);
    /// Takes a path relative to the root; returns whether git would ignore it. Not
    /// thread-safe (it caches folder answers).
    bool ignored(const QString& relativeFile) const;
    bool isEmpty() const { return m_rules.isEmpty(); }

private:
    struct Rule {
        /// Inside the project: the folder of the .gitignore relative to the root ("" or
        /// "sub/"); the rule sees paths below it. Above the project: "".
        QString base;
        /// Above the project: the root's path relative to the .gitignore's folder
        /// ("tests/fixtures/demo/"), put before the paths the rule sees. Inside: "".
        QString prefix;
        PathGlob glob;
        bool negated = false;
    };
    bool matchAt(const QString& relative, bool isFolder, bool current) const;
    bool folderIgnored(const QString& folder) const;
    QList<Rule> m_rules; ///< outermost file first, each file's lines in order
    /// Folder → ignored (itself or a parent): files share folders, so each is matched once.
    mutable QHash<QString, bool> m_folders;
};

} // namespace cnready
