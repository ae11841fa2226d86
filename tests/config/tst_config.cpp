// Project configuration: [tool.cnready] in pyproject.toml or a cnready.toml, its globs, and the
// command line over it.
#include "common.h"

#include "config/Gitignore.h"
#include "config/PathGlob.h"
#include "config/ProjectConfig.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

using namespace cnready;
using test::cli;
using test::Project;
using test::Run;
using test::writeFile;

namespace {

// The context table row of `label` in a Markdown report.
QString contextRow(const QString& report, const QString& label) {
    for (const QString& line : report.split(QLatin1Char('\n')))
        if (line.startsWith(QStringLiteral("| ") + label + QStringLiteral(" |")))
            return line;
    return {};
}

const QStringList kToday{QStringLiteral("--today"), QStringLiteral("2026-06-01")};

} // namespace

class TestConfig : public QObject {
    Q_OBJECT
private slots:
    void globsMatchLikeRuff() {
        const PathGlob name(QStringLiteral("legacy"));
        QVERIFY(name.matches(QStringLiteral("legacy"), true));
        QVERIFY(name.matches(QStringLiteral("src/legacy"), true));
        QVERIFY(!name.matches(QStringLiteral("src/legacy2"), true));
        const PathGlob anchored(QStringLiteral("src/*.py"));
        QVERIFY(anchored.matches(QStringLiteral("src/a.py"), false));
        QVERIFY(!anchored.matches(QStringLiteral("src/sub/a.py"), false));
        QVERIFY(!anchored.matches(QStringLiteral("lib/src/a.py"), false));
        const PathGlob deep(QStringLiteral("**/gen_*.py"));
        QVERIFY(deep.matches(QStringLiteral("gen_x.py"), false));
        QVERIFY(deep.matches(QStringLiteral("a/b/gen_x.py"), false));
        const PathGlob folder(QStringLiteral("data/"));
        QVERIFY(folder.matches(QStringLiteral("x/data"), true));
        QVERIFY(!folder.matches(QStringLiteral("x/data"), false));
        const PathGlob set(QStringLiteral("[ab]?.py"));
        QVERIFY(set.matches(QStringLiteral("a1.py"), false));
        QVERIFY(!set.matches(QStringLiteral("c1.py"), false));
        QVERIFY(!PathGlob(QStringLiteral("[ab.py")).isValid());
        QVERIFY(pathOrParentMatches(QStringLiteral("legacy/old/x.py"), {name}));
        QVERIFY(!pathOrParentMatches(QStringLiteral("new/x.py"), {name}));
    }

    void configFileIsRead() {
        QTemporaryDir d;
        const QString file = d.filePath(QStringLiteral("pyproject.toml"));
        QVERIFY(writeFile(file, "[project]\nname = \"demo\"\n\n"
                                "[tool.cnready]\n"
                                "exclude = [\"legacy\"]\n"
                                "extend-exclude = [\"gen_*.py\"]\n"
                                "select = [\"R1\", \"r2\"]\n"
                                "ignore = [\"R106\"]\n"
                                "gpus = 4\n"
                                "elements-per-gpu = \"16M\"\n"
                                "compute-capability = 8.0\n"
                                "gpu = \"A100\"\n"
                                "respect-gitignore = false\n"
                                "colour = \"blue\"\n"
                                "\n"
                                "[tool.cnready.per-file-ignores]\n"
                                "\"tests/*\" = [\"R101\"]\n"));
        QString error;
        const ProjectConfig c = loadProjectConfig(file, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QCOMPARE(c.fileName, QStringLiteral("pyproject.toml"));
        QCOMPARE(c.exclude.size(), 2);
        QCOMPARE(c.select, (QStringList{QStringLiteral("R1"), QStringLiteral("R2")}));
        QCOMPARE(c.ignore, QStringList{QStringLiteral("R106")});
        QCOMPARE(c.options.value(QStringLiteral("gpus")).text, QStringLiteral("4"));
        QCOMPARE(c.options.value(QStringLiteral("gpus")).line, 9);
        QCOMPARE(c.options.value(QStringLiteral("elements-per-gpu")).text, QStringLiteral("16M"));
        QCOMPARE(c.options.value(QStringLiteral("compute-capability")).text, QStringLiteral("8.0"));
        QCOMPARE(c.respectGitignore, std::optional<bool>(false));
        QCOMPARE(c.perFileIgnores.size(), 1);
        QCOMPARE(c.perFileIgnores.first().codes, QStringList{QStringLiteral("R101")});
        QCOMPARE(c.warnings, QStringList{QStringLiteral(
                                 "pyproject.toml:14: unknown key 'colour' in [tool.cnready]; "
                                 "ignored")});
        QVERIFY(codeSelected(QStringLiteral("R104"), c.select));
        QVERIFY(!codeSelected(QStringLiteral("R301"), c.select));
    }

    void badConfigNamesFileAndLine_data() {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QString>("error");
        QTest::newRow("not toml") << QByteArray("[tool.cnready]\ngpus = 4\nnodes = \n")
                                  << QStringLiteral("pyproject.toml:3: not valid TOML: ");
        QTest::newRow("wrong type")
            << QByteArray("[tool.cnready]\n\ngpus = \"four\"\nexclude = \"legacy\"\n")
            << QStringLiteral("pyproject.toml:4: 'exclude' must be an array of strings, not a "
                              "string");
        QTest::newRow("float gpus") << QByteArray("[tool.cnready]\ngpus = 2.5\n")
                                    << QStringLiteral("pyproject.toml:2: 'gpus' must be an "
                                                      "integer or a string such as \"16M\", not "
                                                      "a float");
        QTest::newRow("unknown code")
            << QByteArray("[tool.cnready]\nignore = [\"R101\", \"E501\"]\n")
            << QStringLiteral("pyproject.toml:2: 'ignore' holds 'E501', which is no rule code or "
                              "code prefix (see 'cnready rules')");
        QTest::newRow("bad glob") << QByteArray("[tool.cnready]\nexclude = [\"[ab\"]\n")
                                  << QStringLiteral("pyproject.toml:2: 'exclude' holds the "
                                                    "unusable glob '[ab'");
        QTest::newRow("cuda float") << QByteArray("[tool.cnready]\ncuda = 12.4\n")
                                    << QStringLiteral("pyproject.toml:2: 'cuda' must be a string, "
                                                      "not a float");
        QTest::newRow("not a table") << QByteArray("[tool]\ncnready = 3\n")
                                     << QStringLiteral("pyproject.toml:2: [tool.cnready] must be "
                                                       "a table, not an integer");
    }
    void badConfigNamesFileAndLine() {
        QFETCH(QByteArray, text);
        QFETCH(QString, error);
        QTemporaryDir d;
        const QString file = d.filePath(QStringLiteral("pyproject.toml"));
        QVERIFY(writeFile(file, text + "# tool.cnready\n"));
        QString why;
        const ProjectConfig c = loadProjectConfig(file, &why);
        QVERIFY2(why.startsWith(error), qPrintable(why));
        QVERIFY(c.isEmpty());
    }

    void nearestConfigIsFound() {
        QTemporaryDir d;
        QDir(d.path()).mkpath(QStringLiteral("repo/.git"));
        QDir(d.path()).mkpath(QStringLiteral("repo/src/pkg"));
        const QString repo = d.filePath(QStringLiteral("repo"));
        // Above the repository's top: never read.
        QVERIFY(writeFile(d.filePath(QStringLiteral("cnready.toml")), "gpus = 2\n"));
        QCOMPARE(findProjectConfig(repo + QStringLiteral("/src/pkg")), QString());
        // A pyproject.toml about other tools is passed over.
        QVERIFY(writeFile(repo + QStringLiteral("/src/pyproject.toml"), "[tool.ruff]\n"));
        QCOMPARE(findProjectConfig(repo + QStringLiteral("/src/pkg")), QString());
        QVERIFY(writeFile(repo + QStringLiteral("/pyproject.toml"), "[tool.cnready]\ngpus = 2\n"));
        QCOMPARE(findProjectConfig(repo + QStringLiteral("/src/pkg")),
                 repo + QStringLiteral("/pyproject.toml"));
        // In one folder, cnready.toml wins.
        QVERIFY(writeFile(repo + QStringLiteral("/cnready.toml"), "gpus = 3\n"));
        QCOMPARE(findProjectConfig(repo + QStringLiteral("/src/pkg")),
                 repo + QStringLiteral("/cnready.toml"));
        QString error;
        QCOMPARE(loadProjectConfig(repo + QStringLiteral("/cnready.toml"), &error)
                     .options.value(QStringLiteral("gpus"))
                     .text,
                 QStringLiteral("3"));
    }

    void cliFlagsWinAndTheReportNamesTheSource() {
        Project p;
        QVERIFY(writeFile(p.path(QStringLiteral("pyproject.toml")),
                          "[tool.cnready]\ngpus = 4\ngpu = \"H100\"\npattern = \"stencil\"\n"));
        const Run fromFile = cli(QStringList{QStringLiteral("assess"), p.dir.path()} + kToday);
        QCOMPARE(fromFile.code, 0);
        QCOMPARE(contextRow(fromFile.out, QStringLiteral("GPUs")),
                 QStringLiteral("| GPUs | 4 | given | gpus = 4 (from pyproject.toml) |"));
        QVERIFY2(contextRow(fromFile.out, QStringLiteral("GPU model"))
                     .endsWith(QStringLiteral("| given | gpu = H100 (from pyproject.toml) |")),
                 qPrintable(contextRow(fromFile.out, QStringLiteral("GPU model"))));
        QVERIFY(
            contextRow(fromFile.out, QStringLiteral("Dominant compute pattern"))
                .endsWith(QStringLiteral("| given | pattern = stencil (from pyproject.toml) |")));
        const Run flag = cli(QStringList{QStringLiteral("assess"), p.dir.path(),
                                         QStringLiteral("--gpus"), QStringLiteral("2")} +
                             kToday);
        QCOMPARE(flag.code, 0);
        QCOMPARE(contextRow(flag.out, QStringLiteral("GPUs")),
                 QStringLiteral("| GPUs | 2 | given | --gpus 2 |"));
        // The other values still come from the file.
        QVERIFY(contextRow(flag.out, QStringLiteral("GPU model"))
                    .endsWith(QStringLiteral("(from pyproject.toml) |")));
        // --no-config: the defaults.
        const Run none =
            cli(QStringList{QStringLiteral("assess"), p.dir.path(), QStringLiteral("--no-config")} +
                kToday);
        QVERIFY(contextRow(none.out, QStringLiteral("GPUs")).contains(QStringLiteral("default")));
    }

    void configFailOnAndEntry() {
        Project p;
        QVERIFY(writeFile(p.path(QStringLiteral("cnready.toml")),
                          "fail-on = \"light\"\nentry = \"main.py\"\n"));
        const Run r = cli(QStringList{QStringLiteral("assess"), p.dir.path()} + kToday);
        QCOMPARE(r.code, 1); // LIGHT REFACTOR, at --fail-on light from the file
        QVERIFY(r.out.contains(QStringLiteral("legate --gpus 1 main.py")));
        const Run looser =
            cli(QStringList{QStringLiteral("assess"), p.dir.path(), QStringLiteral("--fail-on"),
                            QStringLiteral("significant")} +
                kToday);
        QCOMPARE(looser.code, 0);
    }

    void badConfigStopsWithExit2() {
        Project p;
        QVERIFY(writeFile(p.path(QStringLiteral("pyproject.toml")), "[tool.cnready]\ngpus = [\n"));
        const Run r = cli(QStringList{QStringLiteral("assess"), p.dir.path()} + kToday);
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.startsWith(QStringLiteral("cnready: pyproject.toml:")) &&
                     r.err.contains(QStringLiteral("not valid TOML")),
                 qPrintable(r.err));
        QCOMPARE(r.err.count(QLatin1Char('\n')), 1);
        QVERIFY(r.out.isEmpty());
        // A value the option would not take names the file, line and key.
        QVERIFY(writeFile(p.path(QStringLiteral("pyproject.toml")),
                          "[tool.cnready]\n\nos = \"amiga\"\n"));
        const Run v = cli(QStringList{QStringLiteral("assess"), p.dir.path()} + kToday);
        QCOMPARE(v.code, 2);
        QCOMPARE(v.err, QStringLiteral("cnready: unknown os 'amiga' (pyproject.toml:3: os; linux, "
                                       "wsl2, macos, windows)\n"));
        // An unknown key: a warning, and the run goes on.
        QVERIFY(writeFile(p.path(QStringLiteral("pyproject.toml")),
                          "[tool.cnready]\ngpus = 2\nfrobnicate = true\n"));
        const Run w = cli(QStringList{QStringLiteral("assess"), p.dir.path()} + kToday);
        QCOMPARE(w.code, 0);
        QVERIFY2(w.err.contains(QStringLiteral("cnready: warning: pyproject.toml:3: unknown key "
                                               "'frobnicate' in [tool.cnready]; ignored")),
                 qPrintable(w.err));
        // --config names a file that is not there: an input error (3), as a missing
        // --manifest is; only a file that is there and malformed is a usage error (2).
        const Run missing =
            cli(QStringList{QStringLiteral("assess"), p.dir.path(), QStringLiteral("--config"),
                            p.path(QStringLiteral("nope.toml"))});
        QCOMPARE(missing.code, 3);
    }

    void excludeGitignoreAndCliExclude() {
        Project p;
        QVERIFY(writeFile(p.path(QStringLiteral("legacy/old.py")), test::blockerModule("3.0")));
        QVERIFY(writeFile(p.path(QStringLiteral("scratch/try.py")), test::blockerModule("4.0")));
        QVERIFY(writeFile(p.path(QStringLiteral("gen/made.py")), test::blockerModule("5.0")));
        QVERIFY(writeFile(p.path(QStringLiteral(".gitignore")), "# scratch work\nscratch/\n"));
        const QStringList base = QStringList{QStringLiteral("assess"), p.dir.path(),
                                             QStringLiteral("--format"), QStringLiteral("json")} +
                                 kToday;
        const auto files = [](const Run& r) {
            QStringList out;
            const QJsonArray arr = QJsonDocument::fromJson(r.out.toUtf8())
                                       .object()
                                       .value(QStringLiteral("findings"))
                                       .toArray();
            for (const QJsonValue& v : arr) {
                const QString path = v.toObject()
                                         .value(QStringLiteral("range"))
                                         .toObject()
                                         .value(QStringLiteral("path"))
                                         .toString();
                if (v.toObject().value(QStringLiteral("code")).toString() ==
                        QLatin1String("R101") &&
                    !out.contains(path))
                    out << path;
            }
            out.sort();
            return out;
        };
        QCOMPARE(files(cli(base)),
                 (QStringList{QStringLiteral("gen/made.py"), QStringLiteral("legacy/old.py"),
                              QStringLiteral("main.py")}));
        QCOMPARE(files(cli(base + QStringList{QStringLiteral("--no-respect-gitignore")})),
                 (QStringList{QStringLiteral("gen/made.py"), QStringLiteral("legacy/old.py"),
                              QStringLiteral("main.py"), QStringLiteral("scratch/try.py")}));
        QVERIFY(writeFile(p.path(QStringLiteral("pyproject.toml")),
                          "[tool.cnready]\nexclude = [\"legacy\"]\n"));
        QCOMPARE(files(cli(base)),
                 (QStringList{QStringLiteral("gen/made.py"), QStringLiteral("main.py")}));
        QCOMPARE(
            files(cli(base + QStringList{QStringLiteral("--exclude"), QStringLiteral("gen/*.py")})),
            QStringList{QStringLiteral("main.py")});
        // A file named on the command line is assessed whatever the globs say.
        const Run direct =
            cli(QStringList{QStringLiteral("assess"), p.path(QStringLiteral("legacy/old.py")),
                            QStringLiteral("--format"), QStringLiteral("json")} +
                kToday);
        QCOMPARE(files(direct), QStringList{QStringLiteral("old.py")});
    }

    void ignoreAndPerFileIgnoresLeaveFindingsOut() {
        Project p;
        QVERIFY(writeFile(p.path(QStringLiteral("tools/helper.py")), test::blockerModule("3.0")));
        QVERIFY(writeFile(p.path(QStringLiteral("pyproject.toml")),
                          "[tool.cnready.per-file-ignores]\n\"tools/*\" = [\"R101\"]\n"));
        const QStringList args = QStringList{QStringLiteral("assess"), p.dir.path(),
                                             QStringLiteral("--format"), QStringLiteral("json")} +
                                 kToday;
        const QJsonObject doc = QJsonDocument::fromJson(cli(args).out.toUtf8()).object();
        QCOMPARE(doc.value(QStringLiteral("counts"))
                     .toObject()
                     .value(QStringLiteral("leftOutByConfig"))
                     .toInt(),
                 1);
        for (const QJsonValue& v : doc.value(QStringLiteral("findings")).toArray())
            QVERIFY(!v.toObject()
                         .value(QStringLiteral("range"))
                         .toObject()
                         .value(QStringLiteral("path"))
                         .toString()
                         .startsWith(QStringLiteral("tools/")));
        // `ignore` everywhere: no blocker left, so the verdict is READY, and the report says
        // what was left out.
        QVERIFY(writeFile(p.path(QStringLiteral("pyproject.toml")),
                          "[tool.cnready]\nignore = [\"R101\"]\n"));
        const Run md = cli(QStringList{QStringLiteral("assess"), p.dir.path()} + kToday);
        QVERIFY2(md.out.contains(QStringLiteral("2 findings left out by the `select`, `ignore` "
                                                "and `per-file-ignores` settings of "
                                                "`pyproject.toml` and out of the verdict: R101 "
                                                "×2.")),
                 qPrintable(md.out));
        QVERIFY(md.out.contains(QStringLiteral("**READY**")));
    }

    void gitignoreRules() {
        QTemporaryDir d;
        QDir(d.path()).mkpath(QStringLiteral(".git"));
        QVERIFY(writeFile(d.filePath(QStringLiteral(".gitignore")),
                          "/build*/\n*.gen.py\n!keep.gen.py\n"));
        QVERIFY(writeFile(d.filePath(QStringLiteral("proj/sub/.gitignore")), "local.py\n"));
        const QString root = d.filePath(QStringLiteral("proj"));
        const GitignoreRules rules(root,
                                   {QStringLiteral("build1/a.py"), QStringLiteral("sub/local.py")});
        // "/build*/" is anchored at the repository's top, not at the project.
        QVERIFY(!rules.ignored(QStringLiteral("build1/a.py")));
        QVERIFY(rules.ignored(QStringLiteral("x/y.gen.py")));
        QVERIFY(!rules.ignored(QStringLiteral("x/keep.gen.py")));
        QVERIFY(rules.ignored(QStringLiteral("sub/local.py")));
        QVERIFY(!rules.ignored(QStringLiteral("local.py")));
    }
};

QTEST_GUILESS_MAIN(TestConfig)
#include "tst_config.moc"
