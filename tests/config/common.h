#pragma once
// Helpers for the configuration and CI tests: run the CLI, write small projects.
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QString>
#include <QStringList>
#include <QTemporaryDir>

namespace test {

struct Run {
    int code = -1;
    QString out, err;
};

inline Run cli(const QStringList& args, const QString& cwd = {}) {
    QProcess p;
    if (!cwd.isEmpty())
        p.setWorkingDirectory(cwd);
    p.start(QStringLiteral(CNREADY_CLI_PATH), args);
    p.waitForFinished(120000);
    return {p.exitCode(), QString::fromUtf8(p.readAllStandardOutput()),
            QString::fromUtf8(p.readAllStandardError())};
}

inline bool writeFile(const QString& path, const QByteArray& text) {
    QDir().mkpath(path.section(QLatin1Char('/'), 0, -2));
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(text) == text.size();
}

// One element loop: an R101 BLOCKS finding on the compute path.
inline QByteArray blockerModule(const QByteArray& factor = "2.0") {
    return "import numpy as np\n"
           "\n"
           "N = 16_000_000\n"
           "\n"
           "\n"
           "def scale_each(field):\n"
           "    out = np.zeros(len(field))\n"
           "    for k in range(len(field)):\n"
           "        out[k] = field[k] * " +
           factor +
           "\n"
           "    return out\n"
           "\n"
           "\n"
           "if __name__ == \"__main__\":\n"
           "    scale_each(np.zeros(N))\n";
}

// A project folder with a `.git` (so no configuration above it is found) and one blocker.
struct Project {
    QTemporaryDir dir;
    Project() {
        QDir(dir.path()).mkdir(QStringLiteral(".git"));
        writeFile(path(QStringLiteral("main.py")), blockerModule());
    }
    QString path(const QString& rel) const { return dir.filePath(rel); }
};

} // namespace test
