#include "ProjectSettings.h"

#include "ContextForm.h"

#include <QCryptographicHash>
#include <QSettings>

#include <optional>

namespace cnready::ui::settings {

QString projectGroup(const QString& path) {
    return QStringLiteral("projects/") +
           QString::fromLatin1(
               QCryptographicHash::hash(path.toUtf8(), QCryptographicHash::Sha1).toHex().left(20));
}

ContextInput loadContext(const QString& path) {
    QSettings s;
    s.beginGroup(projectGroup(path) + QStringLiteral("/context"));
    ContextInput in;
    auto count = [&s](const char* key) -> std::optional<qint64> {
        const QVariant v = s.value(QLatin1String(key));
        if (!v.isValid())
            return std::nullopt;
        bool ok = false;
        const qint64 n = v.toLongLong(&ok);
        return ok ? std::optional<qint64>(n) : std::nullopt;
    };
    auto text = [&s](const char* key) -> std::optional<QString> {
        const QString v = s.value(QLatin1String(key)).toString();
        return v.isEmpty() ? std::nullopt : std::optional<QString>(v);
    };
    in.elements = count("elements");
    in.elementsPerGpu = count("elementsPerGpu");
    if (const auto g = count("gpus"); g && *g > 0)
        in.gpus = int(*g);
    if (const auto n = count("nodes"); n && *n > 0)
        in.nodes = int(*n);
    in.gpuModel = text("gpuModel");
    if (const auto cc = text("computeCapability"))
        in.computeCapability = ContextForm::parseComputeCapability(*cc);
    in.cuda = text("cuda");
    in.os = text("os");
    in.pattern = text("pattern");
    s.endGroup();
    return in;
}

void saveContext(const QString& path, const ContextInput& in) {
    QSettings s;
    const QString group = projectGroup(path);
    s.setValue(group + QStringLiteral("/path"), path);
    s.remove(group + QStringLiteral("/context"));
    s.beginGroup(group + QStringLiteral("/context"));
    if (in.elements)
        s.setValue(QStringLiteral("elements"), *in.elements);
    if (in.elementsPerGpu)
        s.setValue(QStringLiteral("elementsPerGpu"), *in.elementsPerGpu);
    if (in.gpus)
        s.setValue(QStringLiteral("gpus"), *in.gpus);
    if (in.nodes)
        s.setValue(QStringLiteral("nodes"), *in.nodes);
    if (in.gpuModel)
        s.setValue(QStringLiteral("gpuModel"), *in.gpuModel);
    if (in.computeCapability)
        s.setValue(QStringLiteral("computeCapability"),
                   QString::number(*in.computeCapability, 'f', 1));
    if (in.cuda)
        s.setValue(QStringLiteral("cuda"), *in.cuda);
    if (in.os)
        s.setValue(QStringLiteral("os"), *in.os);
    if (in.pattern)
        s.setValue(QStringLiteral("pattern"), *in.pattern);
    s.endGroup();
}

QString exportDir(const QString& projectPath) {
    return QSettings().value(projectGroup(projectPath) + QStringLiteral("/exportDir")).toString();
}

void setExportDir(const QString& projectPath, const QString& dir) {
    QSettings().setValue(projectGroup(projectPath) + QStringLiteral("/exportDir"), dir);
}

QStringList recentProjects() {
    return QSettings().value(QStringLiteral("recentProjects")).toStringList();
}

void addRecent(const QString& path) {
    QStringList list = recentProjects();
    list.removeAll(path);
    list.prepend(path);
    while (list.size() > kMaxRecent)
        list.removeLast();
    QSettings().setValue(QStringLiteral("recentProjects"), list);
}

void clearRecent() {
    QSettings().remove(QStringLiteral("recentProjects"));
}

} // namespace cnready::ui::settings
