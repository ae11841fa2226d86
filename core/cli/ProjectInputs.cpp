#include "cli/ProjectInputs.h"

#include "config/PathGlob.h"

#include <QDir>
#include <QFileInfo>

namespace cnready {

bool readProjectInputsConfig(const QString& firstPath, const QString& configFile, bool noConfig,
                             ProjectConfig& config, QString* why) {
    config = ProjectConfig{};
    if (noConfig)
        return true;
    QString path = configFile;
    if (path.isEmpty()) {
        const QFileInfo first(firstPath);
        path = findProjectConfig(first.isDir() ? first.absoluteFilePath() : first.absolutePath());
    } else if (!QFileInfo(path).isFile()) {
        *why = QStringLiteral("--config %1: no such file").arg(path);
        return false;
    }
    if (path.isEmpty())
        return true;
    QString problem;
    config = loadProjectConfig(path, &problem);
    if (!problem.isEmpty()) {
        config = ProjectConfig{};
        *why = problem;
        return false;
    }
    return true;
}

bool buildFileFilter(const ProjectConfig& config, const QStringList& excludes, bool noGitignore,
                     const QStringList& paths, FileFilter& filter, QString* why) {
    filter = FileFilter{config.exclude, config.dir, {}, true, {}};
    for (const QString& g : excludes) {
        const PathGlob glob(g);
        if (!glob.isValid()) {
            *why = QStringLiteral("--exclude '%1' is not a usable glob").arg(g);
            return false;
        }
        filter.cliExclude << glob;
    }
    filter.respectGitignore = !noGitignore && config.respectGitignore.value_or(true);
    for (const QString& path : paths)
        if (QFileInfo(path).isFile())
            filter.explicitFiles << QDir::cleanPath(QFileInfo(path).absoluteFilePath());
    return true;
}

} // namespace cnready
