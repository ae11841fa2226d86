#include "cli/ProjectInputs.h"

#include "cli/Cli.h"
#include "config/PathGlob.h"

#include <QDir>
#include <QFileInfo>
#include <QRegularExpression>

namespace cnready {

int readProjectInputsConfig(const QString& firstPath, const QString& configFile, bool noConfig,
                            ProjectConfig& config, QString* why) {
    config = ProjectConfig{};
    if (noConfig)
        return ExitOk;
    QString path = configFile;
    if (path.isEmpty()) {
        const QFileInfo first(firstPath);
        path = findProjectConfig(first.isDir() ? first.absoluteFilePath() : first.absolutePath());
    } else if (!QFileInfo(path).isFile()) {
        *why = QStringLiteral("--config %1: no such file").arg(path);
        return ExitInput;
    }
    if (path.isEmpty())
        return ExitOk;
    QString problem;
    config = loadProjectConfig(path, &problem);
    if (!problem.isEmpty()) {
        config = ProjectConfig{};
        *why = problem;
        return ExitUsage;
    }
    return ExitOk;
}

QString parserErrorLine(const QCommandLineParser& parser, const QString& command) {
    const QString help = QStringLiteral(" (see '%1 --help')").arg(command);
    const auto flag = [](const QString& name) {
        return (name.size() == 1 ? QStringLiteral("-") : QStringLiteral("--")) + name;
    };
    const QStringList unknown = parser.unknownOptionNames();
    if (!unknown.isEmpty()) {
        QStringList flags;
        for (const QString& n : unknown)
            flags << flag(n);
        return QStringLiteral("unknown option%1 %2")
                   .arg(flags.size() == 1 ? QString() : QStringLiteral("s"),
                        flags.join(QStringLiteral(", "))) +
               help;
    }
    // Qt words a flag given without its value "Missing value after '--gpus'."
    static const QRegularExpression missingValue(QStringLiteral("^Missing value after '([^']+)'"));
    if (const QRegularExpressionMatch m = missingValue.match(parser.errorText()); m.hasMatch()) {
        const QString name = m.captured(1);
        return (name.startsWith(QLatin1Char('-')) ? name : flag(name)) +
               QStringLiteral(" needs a value") + help;
    }
    QString text = parser.errorText().trimmed();
    if (text.endsWith(QLatin1Char('.')))
        text.chop(1);
    if (!text.isEmpty())
        text[0] = text[0].toLower();
    return text + help;
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
