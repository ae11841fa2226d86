#pragma once
// Path globs as Ruff's `exclude` and `.gitignore` files write them.

#include <QRegularExpression>
#include <QString>

namespace cnready {

/// One glob over '/'-separated relative paths:
/// - `*` matches within one path component, `?` one character, `[abc]` / `[!a-z]` a set;
/// - `**` as a whole component matches any number of folders (`a/**/b`, `**/tests`, `src/**`);
/// - a glob without '/' (other than a trailing one) matches the last component of a path at
///   any depth (`legacy` matches `legacy`, `src/legacy`); with a '/' it is anchored at the
///   folder the glob was written for (a leading '/' is dropped);
/// - a trailing '/' matches folders only.
class PathGlob {
public:
    /// Takes the glob text as written. An unusable glob (an unclosed `[`) gives isValid() false.
    explicit PathGlob(const QString& glob);
    bool isValid() const { return m_re.isValid(); }
    const QString& text() const { return m_text; }
    /// Takes a relative path ('/' separators, no leading "./") and whether it names a folder;
    /// returns whether the glob matches it (a whole-path match, see the class comment).
    bool matches(const QString& relativePath, bool isFolder) const;

private:
    QString m_text;
    QRegularExpression m_re;
    bool m_foldersOnly = false;
};

/// Takes a relative file path and globs; returns whether the file or one of the folders it sits
/// in matches one of them (so `exclude = ["legacy"]` leaves out everything below `legacy/`).
bool pathOrParentMatches(const QString& relativeFile, const QList<PathGlob>& globs);

} // namespace cnready
