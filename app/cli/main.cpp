// cnready: the command line over the analyzer core. Wiring only; see core/cli/Cli.h.
#include "cli/Cli.h"

#include <QCoreApplication>
#include <cstdio>

int main(int argc, char** argv) {
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("cnready"));
    QCoreApplication::setOrganizationName(QStringLiteral("cnready"));
    QCoreApplication::setApplicationVersion(QStringLiteral(CNREADY_VERSION));
    QTextStream out(stdout);
    QTextStream err(stderr);
    return cnready::runCli(QCoreApplication::arguments(), out, err);
}
