#include "doctor/HandOff.h"

#include <algorithm>

namespace cnready {

namespace {

QString scriptOr(const QString& script) {
    return script.isEmpty() ? QStringLiteral("main.py") : script;
}

QString clean() {
    return QStringLiteral("rm -f %1 && ").arg(QLatin1String(kDoctorReportFile));
}

} // namespace

QString doctorEnvironment() {
    return QStringLiteral("CUPYNUMERIC_DOCTOR=1 CUPYNUMERIC_DOCTOR_FORMAT=json "
                          "CUPYNUMERIC_DOCTOR_FILENAME=%1 CUPYNUMERIC_DOCTOR_TRACEBACK=1 "
                          "CUPYNUMERIC_WARN=1")
        .arg(QLatin1String(kDoctorReportFile));
}

QString doctorLegateCommand(const QString& script) {
    return clean() + doctorEnvironment() + QStringLiteral(" legate --gpus 1 ") + scriptOr(script);
}

QString doctorPatchCommand(const QString& script) {
    return clean() + doctorEnvironment() +
           QStringLiteral(" LEGATE_CONFIG=\"--gpus 1\" lgpatch --patch numpy ") + scriptOr(script);
}

QString doctorMultiNodeCommand(const QString& script, int nodes, int totalGpus,
                               const QString& launcher) {
    nodes = std::max(1, nodes);
    const int perNode = std::max(1, (totalGpus + nodes - 1) / nodes);
    return clean() + doctorEnvironment() +
           QStringLiteral(" legate --nodes %1 --ranks-per-node 1 --gpus %2 --launcher %3 %4")
               .arg(nodes)
               .arg(perNode)
               .arg(launcher, scriptOr(script));
}

} // namespace cnready
