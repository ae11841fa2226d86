#pragma once
// main() for the studio's GUI tests: the settings (recent folders, window state, context) and
// the imported manifest go to a temporary home, never the developer's, also when a test binary
// is run by hand outside CTest. The CLI child processes some tests start inherit the same
// environment.

#include <QApplication>
#include <QTemporaryDir>
#include <QtTest>

#define CNREADY_STUDIO_TEST_MAIN(TestClass, appName)                                               \
    int main(int argc, char** argv) {                                                              \
        QTemporaryDir home;                                                                        \
        qputenv("XDG_CONFIG_HOME", home.filePath(QStringLiteral("config")).toUtf8());              \
        qputenv("XDG_DATA_HOME", home.filePath(QStringLiteral("data")).toUtf8());                  \
        QApplication app(argc, argv);                                                              \
        QApplication::setOrganizationName(QStringLiteral("cnready-tests"));                        \
        QApplication::setApplicationName(QStringLiteral(appName));                                 \
        TestClass t;                                                                               \
        return QTest::qExec(&t, argc, argv);                                                       \
    }
