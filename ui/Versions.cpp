#include "Versions.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <ksyntaxhighlighting_version.h>
#include <tree_sitter/api.h>

namespace cnready::ui {

QString qtVersionText() {
    return QStringLiteral("Qt %1 (built with %2)")
        .arg(QString::fromLatin1(qVersion()), QStringLiteral(QT_VERSION_STR));
}

QString syntaxHighlightingVersion() {
    return QStringLiteral(SyntaxHighlighting_VERSION_STRING);
}

QString treeSitterVersion() {
    return QStringLiteral("%1 (language ABI %2–%3)")
        .arg(QStringLiteral(CNREADY_TREE_SITTER_VERSION))
        .arg(TREE_SITTER_MIN_COMPATIBLE_LANGUAGE_VERSION)
        .arg(TREE_SITTER_LANGUAGE_VERSION);
}

QString treeSitterPythonVersion() {
    return QStringLiteral(CNREADY_TREE_SITTER_PYTHON_VERSION);
}

QString bundledExamplesDir() {
    QStringList candidates;
    const QString env = qEnvironmentVariable("CNREADY_EXAMPLES_DIR");
    if (!env.isEmpty())
        candidates << env;
    const QString appDir = QCoreApplication::applicationDirPath();
    candidates << appDir + QStringLiteral("/../share/cnready/examples")
               << QStringLiteral(CNREADY_SOURCE_EXAMPLES_DIR);
    for (const QString& c : candidates) {
        const QFileInfo fi(c);
        if (fi.isDir())
            return QDir::cleanPath(fi.absoluteFilePath());
    }
    return {};
}

} // namespace cnready::ui
