#include "model/PathRole.h"

namespace cnready {

QString pathRoleName(PathRole r) {
    switch (r) {
    case PathRole::Compute:
        return QStringLiteral("compute");
    case PathRole::ErrorPath:
        return QStringLiteral("error-path");
    case PathRole::InputOutput:
        return QStringLiteral("io");
    case PathRole::Plotting:
        return QStringLiteral("plotting");
    case PathRole::Presentation:
        return QStringLiteral("presentation");
    case PathRole::Setup:
        return QStringLiteral("setup");
    case PathRole::Test:
        return QStringLiteral("test");
    case PathRole::Demo:
        return QStringLiteral("demo");
    case PathRole::NoOp:
        return QStringLiteral("no-op");
    }
    return {};
}

QString pathRoleLabel(PathRole r) {
    switch (r) {
    case PathRole::Compute:
        return QStringLiteral("compute path");
    case PathRole::ErrorPath:
        return QStringLiteral("error path");
    case PathRole::InputOutput:
        return QStringLiteral("I/O");
    case PathRole::Plotting:
        return QStringLiteral("plotting");
    case PathRole::Presentation:
        return QStringLiteral("presentation");
    case PathRole::Setup:
        return QStringLiteral("set-up");
    case PathRole::Test:
        return QStringLiteral("test");
    case PathRole::Demo:
        return QStringLiteral("demo data");
    case PathRole::NoOp:
        return QStringLiteral("no-op keyword");
    }
    return {};
}

bool isDemoFolderName(QStringView name) {
    const QString d = name.toString().toLower();
    return d == QLatin1String("examples") || d == QLatin1String("_examples") ||
           d == QLatin1String("example") || d.startsWith(QLatin1String("demo")) ||
           d == QLatin1String("tutorial") || d == QLatin1String("tutorials");
}

} // namespace cnready
