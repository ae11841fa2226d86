#pragma once
// main() for the studio's GUI tests: the settings (recent folders, window state, context) and
// the imported manifest go to a temporary home, never the developer's, also when a test binary
// is run by hand outside CTest. The CLI child processes some tests start inherit the same
// environment.

#include <QApplication>
#include <QFile>
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

namespace test {
// Gives the offscreen platform one screen of `width` x `height` logical pixels (its own is
// 800x600), through a screen file in `home`. False when the file cannot be written.
inline bool useOffscreenScreen(const QTemporaryDir& home, int width, int height) {
    const QString screens = home.filePath(QStringLiteral("screens.json"));
    QFile cfg(screens);
    if (!cfg.open(QIODevice::WriteOnly))
        return false;
    cfg.write(QStringLiteral(R"({"screens": [{"name": "test", "x": 0, "y": 0, "width": %1,
                 "height": %2, "logicalDpi": 96, "logicalBaseDpi": 96, "dpr": 1}]})")
                  .arg(width)
                  .arg(height)
                  .toUtf8());
    cfg.close();
    qputenv("QT_QPA_PLATFORM", ("offscreen:configfile=" + screens).toUtf8());
    return true;
}
} // namespace test

// The same on one screen of the given size (a laptop's 1366x768, say).
#define CNREADY_STUDIO_TEST_MAIN_ON_SCREEN(TestClass, appName, width, height)                      \
    int main(int argc, char** argv) {                                                              \
        QTemporaryDir home;                                                                        \
        qputenv("XDG_CONFIG_HOME", home.filePath(QStringLiteral("config")).toUtf8());              \
        qputenv("XDG_DATA_HOME", home.filePath(QStringLiteral("data")).toUtf8());                  \
        if (!test::useOffscreenScreen(home, width, height))                                        \
            return 2;                                                                              \
        QApplication app(argc, argv);                                                              \
        QApplication::setOrganizationName(QStringLiteral("cnready-tests"));                        \
        QApplication::setApplicationName(QStringLiteral(appName));                                 \
        TestClass t;                                                                               \
        return QTest::qExec(&t, argc, argv);                                                       \
    }
