#pragma once
// The cuPyNumeric Doctor hand-off: the command lines a team runs to get Doctor's report.
// Facts (upstream cuPyNumeric / Legate docs): launcher flags go before the script (anything
// after it is the script's own argv); Doctor writes no file when it finds nothing, so an old
// report is removed first; CUPYNUMERIC_DOCTOR_TRACEBACK=1 adds call stacks and
// CUPYNUMERIC_WARN=1 the fallback warnings; code still importing numpy runs under
// `lgpatch --patch numpy` with the launcher flags in LEGATE_CONFIG. Never LEGATE_GPUS (removed
// from Legate) nor --eager-alloc-percentage (removed in 25.01).

#include <QString>

namespace cnready {

/// The report file name every hand-off command writes ("doctor-report.json").
inline constexpr const char* kDoctorReportFile = "doctor-report.json";

/// The environment that turns Doctor on with JSON output, tracebacks and warnings:
/// `CUPYNUMERIC_DOCTOR=1 CUPYNUMERIC_DOCTOR_FORMAT=json
/// CUPYNUMERIC_DOCTOR_FILENAME=doctor-report.json CUPYNUMERIC_DOCTOR_TRACEBACK=1
/// CUPYNUMERIC_WARN=1`.
QString doctorEnvironment();

/// For code that imports cupynumeric: `rm -f doctor-report.json && ENV legate --gpus 1 SCRIPT`
/// (`script` "" means "main.py").
QString doctorLegateCommand(const QString& script);

/// For code not yet ported (still `import numpy`): `rm -f doctor-report.json && ENV
/// LEGATE_CONFIG="--gpus 1" lgpatch --patch numpy SCRIPT`.
QString doctorPatchCommand(const QString& script);

/// The multi-node form: `rm -f doctor-report.json && ENV legate --nodes N --ranks-per-node 1
/// --gpus G --launcher LAUNCHER SCRIPT`, G = GPUs per node = ceil(totalGpus / nodes) (at
/// least 1). `launcher` is "mpirun", "srun" or "jsrun" (Legate's --launcher values).
QString doctorMultiNodeCommand(const QString& script, int nodes, int totalGpus,
                               const QString& launcher = QStringLiteral("mpirun"));

} // namespace cnready
