// cnready-studio: the desktop application. Wiring only: arguments, application identity, window.
#include "MainWindow.h"
#include "Versions.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QFileInfo>
#include <QScreen>
#include <QTextStream>

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("cnready"));
    QApplication::setApplicationName(QStringLiteral("cnready-studio"));
    QApplication::setApplicationDisplayName(QStringLiteral("cnready Studio"));
    QApplication::setApplicationVersion(QStringLiteral(CNREADY_VERSION));
    QApplication::setDesktopFileName(QStringLiteral("cnready-studio"));

    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Assess NumPy code for a cuPyNumeric migration, on the desktop.\n"
                       "Without PATH, the window offers the bundled example project."));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(QStringLiteral("PATH"),
                                 QStringLiteral("Project folder (or .py file) to open."),
                                 QStringLiteral("[PATH]"));
    const QCommandLineOption screenshot(
        QStringLiteral("screenshot"),
        QStringLiteral("Open PATH, wait for the analysis, save a PNG of the window to FILE and "
                       "quit."),
        QStringLiteral("FILE"));
    const QCommandLineOption examples(QStringLiteral("examples"),
                                      QStringLiteral("Open the bundled example project."));
    parser.addOption(screenshot);
    parser.addOption(examples);
    parser.process(app);

    const QStringList args = parser.positionalArguments();
    if (args.size() > 1) {
        QTextStream(stderr) << "cnready-studio: give at most one PATH\n";
        return 2;
    }
    QString path = args.value(0);
    if (path.isEmpty() && parser.isSet(examples))
        path = cnready::ui::bundledExamplesDir();
    if (!path.isEmpty() && !QFileInfo::exists(path)) {
        QTextStream(stderr) << "cnready-studio: no such file or folder: " << path << "\n";
        return 3;
    }
    if (parser.isSet(screenshot) && path.isEmpty()) {
        QTextStream(stderr) << "cnready-studio: --screenshot needs a PATH (or --examples)\n";
        return 2;
    }

    cnready::ui::MainWindow window;
    if (parser.isSet(screenshot)) {
        // Fill the screen (Xvfb has no window manager to maximise it).
        if (const QScreen* screen = QGuiApplication::primaryScreen())
            window.setGeometry(screen->availableGeometry());
        window.setScreenshotOnFinish(parser.value(screenshot));
    }
    window.show();
    if (!path.isEmpty())
        window.openProject(path);
    return app.exec();
}
