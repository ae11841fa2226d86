// Reports: golden files for the bundled examples in all three formats, the Markdown structural
// contract, the JSON schema basics, the SARIF 2.1.0 required properties, determinism, and the
// `cnready assess` options that shape a report (--format, -o, --fail-on, --today).
//
// Golden files: tests/golden/examples.{md,json,sarif}. They are rendered from
// assets/examples/ with a fixed context (no flags), today = 2026-11-30 and the project root
// replaced by "/project/examples" (so the SARIF base URI does not depend on the checkout).
// To regenerate them after an intended change (e.g. when rules change the findings), run
//
//     CNREADY_UPDATE_GOLDEN=1 ./build/tests/report/tst_report
//
// and review the diff; the test then passes and reports which files it wrote.
#include "analysis/FileAnalyzer.h"
#include "analysis/ProjectAnalyzer.h"
#include "assess/Assessment.h"
#include "report/Report.h"
#include "rules/Recipes.h"
#include "rules/RuleRegistry.h"

#include <QBuffer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

using namespace cnready;

namespace {

const QString kExamples = QStringLiteral(CNREADY_SOURCE_DIR "/assets/examples");
const QString kGoldenDir = QStringLiteral(CNREADY_SOURCE_DIR "/tests/golden");
const QDate kToday(2026, 11, 30);

struct Rendered {
    ProjectResult project;
    Assessment assessment;
    Manifest manifest = Manifest::bundled();
    QByteArray render(ReportFormat f, QDate today = kToday) const {
        return renderReport(ReportInput{project, assessment, manifest, today}, f);
    }
};

Rendered examples() {
    Rendered r;
    r.project = analyzeProject(scanProject({kExamples}));
    r.assessment = assess(r.project, {}, r.manifest);
    r.project.root = QStringLiteral("/project/examples");
    return r;
}

Rendered fromParts(const QList<Finding>& findings, const QList<PatternEvidence>& ev,
                   const ContextInput& in = {}) {
    FileResult f;
    f.path = QStringLiteral("pkg/sim.py");
    f.moduleName = QStringLiteral("pkg.sim");
    f.lines = 40;
    f.findings = findings;
    f.patternEvidence = ev;
    Rendered r;
    r.project = mergeFileResults(QStringLiteral("/tmp/demo"), {f});
    r.assessment = assess(r.project, in, r.manifest, {});
    return r;
}

Finding finding(const QString& code, Category c, int line) {
    Finding f;
    f.code = code;
    f.category = c;
    f.range = SourceRange{QStringLiteral("pkg/sim.py"), line, 5, line + 1, 9};
    f.function = QStringLiteral("step");
    f.message = QStringLiteral("site of %1 | with a pipe").arg(code);
    f.hot = true;
    return f;
}

const QStringList kHeadings = {QStringLiteral("## Verdict"),
                               QStringLiteral("## What works (SCALES findings)"),
                               QStringLiteral("## What blocks (BLOCKS findings)"),
                               QStringLiteral("## What's fixable (REFACTOR findings)"),
                               QStringLiteral("## Compatibility / cost notes (INFO findings)"),
                               QStringLiteral("## API support gaps"),
                               QStringLiteral("## Decision-framework summary"),
                               QStringLiteral("## Recommended next steps")};

// The text of one section (from its heading to the next "## ").
QString section(const QString& md, const QString& heading) {
    const qsizetype at = md.indexOf(heading + QLatin1Char('\n'));
    if (at < 0)
        return {};
    const qsizetype end = md.indexOf(QStringLiteral("\n## "), at + heading.size());
    return md.mid(at, end < 0 ? -1 : end - at);
}

struct Cli {
    int code = -1;
    QByteArray out, err;
};
Cli cli(const QStringList& args) {
    QProcess p;
    p.start(QStringLiteral(CNREADY_CLI_PATH), args);
    p.waitForFinished(180000);
    return {p.exitCode(), p.readAllStandardOutput(), p.readAllStandardError()};
}

} // namespace

class TestReport : public QObject {
    Q_OBJECT
private slots:
    void golden_data() {
        QTest::addColumn<int>("format");
        QTest::addColumn<QString>("file");
        QTest::newRow("md") << int(ReportFormat::Markdown) << "examples.md";
        QTest::newRow("json") << int(ReportFormat::Json) << "examples.json";
        QTest::newRow("sarif") << int(ReportFormat::Sarif) << "examples.sarif";
    }
    void golden() {
        QFETCH(int, format);
        QFETCH(QString, file);
        const QByteArray actual = examples().render(ReportFormat(format));
        const QString path = kGoldenDir + QLatin1Char('/') + file;
        if (qEnvironmentVariableIsSet("CNREADY_UPDATE_GOLDEN")) {
            QDir().mkpath(kGoldenDir);
            QFile out(path);
            QVERIFY(out.open(QIODevice::WriteOnly | QIODevice::Truncate));
            out.write(actual);
            qInfo("wrote %s", qPrintable(path));
            return;
        }
        QFile in(path);
        QVERIFY2(in.open(QIODevice::ReadOnly),
                 qPrintable(path + QStringLiteral(" missing; run with CNREADY_UPDATE_GOLDEN=1")));
        const QByteArray expected = in.readAll();
        if (actual != expected) {
            // Point at the first differing line to make the failure readable.
            const QList<QByteArray> a = actual.split('\n'), e = expected.split('\n');
            for (qsizetype i = 0; i < std::max(a.size(), e.size()); ++i)
                if (a.value(i) != e.value(i)) {
                    qWarning("line %lld\n  expected: %s\n  actual:   %s", qint64(i + 1),
                             e.value(i).constData(), a.value(i).constData());
                    break;
                }
        }
        QVERIFY2(actual == expected,
                 "report differs from the golden file (CNREADY_UPDATE_GOLDEN=1 regenerates it)");
    }

    void deterministic() {
        const Rendered a = examples();
        const Rendered b = examples();
        for (ReportFormat f : {ReportFormat::Markdown, ReportFormat::Json, ReportFormat::Sarif})
            QCOMPARE(a.render(f), b.render(f));
    }

    // Streaming into a device gives the same bytes as rendering, also for a report of
    // several MiB (written in pieces), and a failing device is reported.
    void writtenEqualsRendered() {
        const Rendered small = examples();
        QList<Finding> many;
        for (int i = 0; i < 20000; ++i) {
            Finding f;
            f.code = QStringLiteral("R101");
            f.category = Category::Blocks;
            f.range = {QStringLiteral("pkg/sim.py"), i + 1, 1, i + 1, 20};
            f.function = QStringLiteral("step");
            f.message = QStringLiteral("loop over `range(n)` touches one array element per "
                                       "iteration (`u[%1]`)")
                            .arg(i);
            f.hot = true;
            many << f;
        }
        const Rendered big = fromParts(many, {});
        for (const Rendered* r : {&small, &big}) {
            for (ReportFormat f :
                 {ReportFormat::Markdown, ReportFormat::Json, ReportFormat::Sarif}) {
                QBuffer buffer;
                QVERIFY(buffer.open(QIODevice::WriteOnly));
                QVERIFY(writeReport(ReportInput{r->project, r->assessment, r->manifest, kToday}, f,
                                    buffer));
                QCOMPARE(buffer.data(), r->render(f));
            }
        }
        QVERIFY(big.render(ReportFormat::Markdown).size() > 2 * (1 << 20)); // several pieces

        class Refusing : public QIODevice {
        protected:
            qint64 readData(char*, qint64) override { return -1; }
            qint64 writeData(const char*, qint64) override { return -1; }
        } refusing;
        QVERIFY(refusing.open(QIODevice::WriteOnly));
        QVERIFY(!writeReport(ReportInput{big.project, big.assessment, big.manifest, kToday},
                             ReportFormat::Markdown, refusing));
    }

    void markdownStructure() {
        const QString md = QString::fromUtf8(examples().render(ReportFormat::Markdown));
        QVERIFY(md.startsWith(QStringLiteral("# cuPyNumeric readiness: examples\n")));
        // The context table comes before the first section.
        const qsizetype table =
            md.indexOf(QStringLiteral("| Context | Value | Source | Evidence |"));
        QVERIFY(table > 0);
        qsizetype pos = table;
        for (const QString& h : kHeadings) {
            const qsizetype at = md.indexOf(QStringLiteral("\n") + h + QStringLiteral("\n"), pos);
            QVERIFY2(at > pos, qPrintable(h));
            pos = at;
        }
        QCOMPARE(md.count(QStringLiteral("\n## ")), kHeadings.size());
        QVERIFY(md.contains(QStringLiteral("fetched 2026-05-22, 192 days before 2026-11-30")));
        QVERIFY(md.contains(QStringLiteral(
            "> **Warning:** the API-support manifest (bundled) was fetched 2026-05-22")));
        QVERIFY(md.contains(QStringLiteral("legate --gpus 1 run_simulation.py")));
        QVERIFY(md.contains(QStringLiteral("| 3. Workload shape |")));
    }

    void noWarningForFreshManifest() {
        const QString md =
            QString::fromUtf8(examples().render(ReportFormat::Markdown, QDate(2026, 6, 1)));
        QVERIFY(md.contains(QStringLiteral("10 days before 2026-06-01")));
        QVERIFY(!md.contains(QStringLiteral("**Warning:**")));
    }

    void emptySectionsSayNone() {
        const Rendered r =
            fromParts({}, {PatternEvidence{QStringLiteral("stencil"),
                                           SourceRange{QStringLiteral("pkg/sim.py"), 3, 1, 3, 9},
                                           QStringLiteral("shifted slices"),
                                           true,
                                           3,
                                           {}}});
        const QString md = QString::fromUtf8(r.render(ReportFormat::Markdown));
        QVERIFY(md.contains(QStringLiteral("**READY** — ")));
        for (int i = 1; i <= 4; ++i)
            QVERIFY2(section(md, kHeadings[i]).contains(QStringLiteral("None for this code")),
                     qPrintable(kHeadings[i]));
        QVERIFY(section(md, kHeadings[5]).contains(QStringLiteral("None for this code")));
        QVERIFY(md.contains(QStringLiteral("legate --gpus 1 main.py")));
        QVERIFY(md.contains(QStringLiteral("no entry script found")));
    }

    void notRecommendedSectionsSayNa() {
        const Rendered r =
            fromParts({}, {PatternEvidence{QStringLiteral("graph"),
                                           SourceRange{QStringLiteral("pkg/sim.py"), 7, 1, 7, 9},
                                           QStringLiteral("BFS frontier"),
                                           true,
                                           6,
                                           {}}});
        const QString md = QString::fromUtf8(r.render(ReportFormat::Markdown));
        QVERIFY(md.contains(QStringLiteral("**NOT RECOMMENDED** — ")));
        QVERIFY(md.contains(QStringLiteral("Decided by rule 2 of the verdict list")));
        for (int i = 1; i <= 5; ++i)
            QVERIFY2(section(md, kHeadings[i]).contains(QStringLiteral("n/a — see verdict")),
                     qPrintable(kHeadings[i]));
        QVERIFY(section(md, kHeadings[7]).contains(QStringLiteral("Do not port")));
        QVERIFY(md.contains(QStringLiteral("`pkg/sim.py:7` BFS frontier")));
    }

    void findingsCiteLocationsAndRecipes() {
        const Rendered r =
            fromParts({finding(QStringLiteral("R104"), Category::Blocks, 10),
                       finding(QStringLiteral("R201"), Category::Refactor, 20),
                       finding(QStringLiteral("R201"), Category::Refactor, 30),
                       finding(QStringLiteral("R202"), Category::Refactor, 31)},
                      {PatternEvidence{QStringLiteral("stencil"),
                                       SourceRange{QStringLiteral("pkg/sim.py"), 3, 1, 3, 9},
                                       QStringLiteral("shifted slices"),
                                       true,
                                       3,
                                       {}}});
        const QString md = QString::fromUtf8(r.render(ReportFormat::Markdown));
        const QString blocks = section(md, kHeadings[2]);
        QVERIFY(blocks.contains(QStringLiteral("| `pkg/sim.py:10-11` | R104 |")));
        QVERIFY(blocks.contains(QStringLiteral("RR-sync")));
        QVERIFY(blocks.contains(QStringLiteral("\\| with a pipe"))); // escaped in the table
        const QString fix = section(md, kHeadings[3]);
        QVERIFY(fix.contains(QStringLiteral("### RR-alloc: ")));
        QVERIFY(fix.contains(QStringLiteral("(2 sites)")));
        QVERIFY(fix.contains(QStringLiteral("- `pkg/sim.py:30-31` R201 in `step`")));
        // Next steps in recipe priority order: RR-sync (R104) before RR-alloc before RR-inplace.
        const QString next = section(md, kHeadings[7]);
        const qsizetype sync = next.indexOf(QStringLiteral("**RR-sync**"));
        const qsizetype alloc = next.indexOf(QStringLiteral("**RR-alloc**"));
        const qsizetype inplace = next.indexOf(QStringLiteral("**RR-inplace**"));
        QVERIFY(sync > 0 && alloc > sync && inplace > alloc);
        QVERIFY(next.contains(QStringLiteral("Pilot module")) == false); // no SCALES: no pilot
    }

    void offComputePathFindingsAreNotesInEveryFormat() {
        FileResult f;
        f.path = QStringLiteral("pkg/sim.py");
        f.moduleName = QStringLiteral("pkg.sim");
        f.lines = 40;
        f.findings = {finding(QStringLiteral("R201"), Category::Refactor, 20)};
        Finding plot = finding(QStringLiteral("R101"), Category::Blocks, 30);
        plot.pathRole = PathRole::Plotting;
        plot.function = QStringLiteral("plot_field");
        Finding io = finding(QStringLiteral("R104"), Category::Blocks, 35);
        io.pathRole = PathRole::InputOutput;
        f.offComputePath = {plot, io};
        Rendered r;
        r.project = mergeFileResults(QStringLiteral("/tmp/demo"), {f});
        r.assessment = assess(r.project, {}, r.manifest, {});
        // Only the REFACTOR finding counts: rule 7, not rule 6.
        QCOMPARE(r.assessment.decidingRule, 7);
        const QString md = QString::fromUtf8(r.render(ReportFormat::Markdown));
        QVERIFY(!section(md, kHeadings[2]).contains(QStringLiteral("R101")));
        const QString notes = section(md, kHeadings[4]);
        QVERIFY2(notes.contains(QStringLiteral("Off the compute path (not counted): 2 "
                                               "BLOCKS/REFACTOR findings")),
                 qPrintable(notes));
        QVERIFY(notes.contains(QStringLiteral("| `pkg/sim.py:30-31` | R101 | plotting |")));
        QVERIFY(notes.contains(QStringLiteral("| `pkg/sim.py:35-36` | R104 | I/O |")));
        const QJsonObject o = QJsonDocument::fromJson(r.render(ReportFormat::Json)).object();
        QCOMPARE(o.value(QStringLiteral("findings")).toArray().size(), 1);
        QCOMPARE(o.value(QStringLiteral("findings"))
                     .toArray()[0]
                     .toObject()
                     .value(QStringLiteral("pathRole")),
                 QJsonValue(QStringLiteral("compute")));
        const QJsonArray off = o.value(QStringLiteral("offComputePath")).toArray();
        QCOMPARE(off.size(), 2);
        QCOMPARE(off[0].toObject().value(QStringLiteral("pathRole")).toString(),
                 QStringLiteral("plotting"));
        QCOMPARE(off[0].toObject().value(QStringLiteral("category")).toString(),
                 QStringLiteral("info"));
        QCOMPARE(
            o.value(QStringLiteral("counts")).toObject().value(QStringLiteral("blocks")).toInt(),
            0);
        const QJsonArray results = QJsonDocument::fromJson(r.render(ReportFormat::Sarif))
                                       .object()[QStringLiteral("runs")]
                                       .toArray()[0]
                                       .toObject()[QStringLiteral("results")]
                                       .toArray();
        int notesSeen = 0;
        for (const QJsonValue v : results) {
            const QJsonObject res = v.toObject();
            const QJsonObject props = res[QStringLiteral("properties")].toObject();
            if (props[QStringLiteral("pathRole")].toString() == QLatin1String("compute"))
                continue;
            ++notesSeen;
            QCOMPARE(res[QStringLiteral("level")].toString(), QStringLiteral("note"));
            QCOMPARE(props[QStringLiteral("counted")].toBool(), false);
        }
        QCOMPARE(notesSeen, 2);
    }

    void findingsInTestModulesAreListedApart() {
        FileResult work;
        work.path = QStringLiteral("pkg/sim.py");
        work.moduleName = QStringLiteral("pkg.sim");
        work.lines = 40;
        work.findings = {finding(QStringLiteral("R101"), Category::Blocks, 10),
                         finding(QStringLiteral("R201"), Category::Refactor, 20)};
        FileResult test;
        test.path = QStringLiteral("tests/test_sim.py");
        test.moduleName = QStringLiteral("tests.test_sim");
        test.lines = 40;
        test.isTest = true;
        for (const int line : {5, 7, 9}) {
            Finding f = finding(QStringLiteral("R104"), Category::Blocks, line);
            f.range.path = test.path;
            test.findings << f;
        }
        Finding alloc = finding(QStringLiteral("R201"), Category::Refactor, 30);
        alloc.range.path = test.path;
        test.findings << alloc;
        Rendered r;
        r.project = mergeFileResults(QStringLiteral("/tmp/demo"), {work, test});
        r.assessment = assess(r.project, {}, r.manifest, {});
        const QString md = QString::fromUtf8(r.render(ReportFormat::Markdown));
        // The verdict counts one hot BLOCKS site (the test module's three are left out).
        QVERIFY(section(md, kHeadings[0]).contains(QStringLiteral("1 BLOCKS site on hot paths")));
        const QString blocks = section(md, kHeadings[2]);
        const qsizetype apart = blocks.indexOf(
            QStringLiteral("### In test modules: 3 BLOCKS findings, not counted by the verdict"));
        QVERIFY(apart > 0);
        const qsizetype workRow = blocks.indexOf(QStringLiteral("| `pkg/sim.py:10-11` | R101 |"));
        QVERIFY(workRow > 0 && workRow < apart);
        for (const char* row :
             {"| `tests/test_sim.py:5-6` | R104 |", "| `tests/test_sim.py:7-8` | R104 |",
              "| `tests/test_sim.py:9-10` | R104 |"})
            QVERIFY2(blocks.indexOf(QLatin1String(row)) > apart, row);
        const QString fix = section(md, kHeadings[3]);
        const qsizetype fixApart = fix.indexOf(
            QStringLiteral("### In test modules: 1 REFACTOR finding, not counted by the verdict"));
        QVERIFY(fixApart > 0);
        QVERIFY(fix.indexOf(QStringLiteral("### RR-alloc: ")) < fixApart);
        QVERIFY(fix.indexOf(QStringLiteral("#### RR-alloc: ")) > fixApart);
        QVERIFY(fix.indexOf(QStringLiteral("- `tests/test_sim.py:30-31` R201")) > fixApart);

        // Next steps count the workload's sites; the test modules' four get their own step.
        const QList<NextStep> steps =
            recommendedSteps(ReportInput{r.project, r.assessment, r.manifest, QDate(2026, 6, 1)});
        QStringList recipeSites, testSteps;
        for (const NextStep& st : steps) {
            if (st.kind == QLatin1String("recipe"))
                for (const SourceRange& at : st.locations)
                    recipeSites << at.toString();
            if (st.kind == QLatin1String("tests"))
                testSteps << st.text;
        }
        recipeSites.sort();
        QCOMPARE(recipeSites, (QStringList{QStringLiteral("pkg/sim.py:10-11"),
                                           QStringLiteral("pkg/sim.py:20-21")}));
        QCOMPARE(testSteps.size(), 1);
        QVERIFY2(testSteps[0].startsWith(
                     QStringLiteral("Test modules hold 4 more BLOCKS/REFACTOR sites.")),
                 qPrintable(testSteps[0]));

        // Only test findings: the workload part says so.
        Rendered onlyTests;
        onlyTests.project = mergeFileResults(QStringLiteral("/tmp/demo"), {test});
        onlyTests.assessment = assess(onlyTests.project, {}, onlyTests.manifest, {});
        const QString md2 = QString::fromUtf8(onlyTests.render(ReportFormat::Markdown));
        QVERIFY(section(md2, kHeadings[2])
                    .startsWith(QStringLiteral(
                        "## What blocks (BLOCKS findings)\n\nNone outside test modules.\n")));
    }

    // Issue 16 item 8, both ways: test-module findings leave "What works" (a count remains),
    // JSON marks them `"testModule": true` and keeps them out of `counts`, SARIF makes them
    // notes; the workload's findings keep their table rows, `false` and their level.
    void testModuleFindingsAreMarkedInEveryFormat() {
        FileResult work;
        work.path = QStringLiteral("pkg/sim.py");
        work.moduleName = QStringLiteral("pkg.sim");
        work.lines = 40;
        work.findings = {finding(QStringLiteral("R001"), Category::Scales, 4),
                         finding(QStringLiteral("R101"), Category::Blocks, 10)};
        FileResult test;
        test.path = QStringLiteral("tests/test_sim.py");
        test.moduleName = QStringLiteral("tests.test_sim");
        test.lines = 40;
        test.isTest = true;
        for (const auto& [code, cat, line] :
             {std::tuple{QStringLiteral("R001"), Category::Scales, 3},
              std::tuple{QStringLiteral("R002"), Category::Scales, 5},
              std::tuple{QStringLiteral("R104"), Category::Blocks, 7}}) {
            Finding f = finding(code, cat, line);
            f.range.path = test.path;
            test.findings << f;
        }
        Rendered r;
        r.project = mergeFileResults(QStringLiteral("/tmp/demo"), {work, test});
        r.assessment = assess(r.project, {}, r.manifest, {});
        const QString works =
            section(QString::fromUtf8(r.render(ReportFormat::Markdown)), kHeadings[1]);
        QVERIFY2(works.contains(QStringLiteral("| `pkg/sim.py:4-5` | R001 |")), qPrintable(works));
        QVERIFY2(!works.contains(QStringLiteral("tests/test_sim.py")), qPrintable(works));
        QVERIFY2(works.contains(QStringLiteral("2 SCALES findings in test modules, not listed")),
                 qPrintable(works));

        const QJsonObject json = QJsonDocument::fromJson(r.render(ReportFormat::Json)).object();
        for (const QJsonValue& f : json[QStringLiteral("findings")].toArray()) {
            const bool inTests =
                f[QStringLiteral("location")].toString().startsWith(QStringLiteral("tests/"));
            QCOMPARE(f[QStringLiteral("testModule")].toBool(), inTests);
        }
        const QJsonObject counts = json[QStringLiteral("counts")].toObject();
        QCOMPARE(counts[QStringLiteral("scales")].toInt(), 1);
        QCOMPARE(counts[QStringLiteral("blocks")].toInt(), 1);
        QCOMPARE(counts[QStringLiteral("testModules")].toInt(), 3);

        const QJsonArray results =
            QJsonDocument::fromJson(r.render(ReportFormat::Sarif))[QStringLiteral("runs")]
                .toArray()
                .at(0)[QStringLiteral("results")]
                .toArray();
        int notes = 0, errors = 0;
        for (const QJsonValue& res : results) {
            const bool inTests =
                res[QStringLiteral("properties")][QStringLiteral("testModule")].toBool();
            const QString level = res[QStringLiteral("level")].toString();
            if (inTests)
                QCOMPARE(level, QStringLiteral("note"));
            if (res[QStringLiteral("ruleId")].toString() == QLatin1String("R104"))
                notes += inTests && level == QLatin1String("note");
            if (res[QStringLiteral("ruleId")].toString() == QLatin1String("R101"))
                errors += !inTests && level == QLatin1String("error");
        }
        QCOMPARE(notes, 1);
        QCOMPARE(errors, 1);
    }

    void reversalFindingsPointToTheirOwnRecipe() {
        Finding rev = finding(QStringLiteral("R106"), Category::Blocks, 12);
        rev.recipeVariant = 1;
        const Finding stride = finding(QStringLiteral("R106"), Category::Blocks, 14);
        QCOMPARE(recipeFor(rev), QStringLiteral("RR-flip"));
        QCOMPARE(recipeFor(stride), QStringLiteral("RR-mask"));
        // A variant a rule does not define falls back to the rule's own recipe.
        Finding other = finding(QStringLiteral("R104"), Category::Blocks, 16);
        other.recipeVariant = 1;
        QCOMPARE(recipeFor(other), QStringLiteral("RR-sync"));
        const Rendered r = fromParts({rev, stride}, {});
        const QString blocks =
            section(QString::fromUtf8(r.render(ReportFormat::Markdown)), kHeadings[2]);
        QVERIFY(blocks.contains(QStringLiteral("| `pkg/sim.py:12-13` | R106 |")));
        QVERIFY(blocks.contains(QStringLiteral("RR-flip: Reverse with np.flip")));
        QVERIFY(blocks.contains(QStringLiteral("RR-mask: Index with the boolean mask")));
        const QJsonArray fs =
            QJsonDocument::fromJson(r.render(ReportFormat::Json))[QStringLiteral("findings")]
                .toArray();
        QStringList recipes;
        for (const QJsonValue& f : fs)
            recipes << f[QStringLiteral("recipe")].toString();
        QCOMPARE(recipes, QStringList({QStringLiteral("RR-flip"), QStringLiteral("RR-mask")}));
    }

    void branchFindingsThatAreNotStoppingTestsPointToRRBranch() {
        Finding choice = finding(QStringLiteral("R105"), Category::Blocks, 20);
        choice.recipeVariant = 1;
        const Finding stop = finding(QStringLiteral("R105"), Category::Blocks, 22);
        QCOMPARE(recipeFor(choice), QStringLiteral("RR-branch"));
        QCOMPARE(recipeFor(stop), QStringLiteral("RR-converge"));
        QCOMPARE(siteRecipes(QStringLiteral("R105")), QStringList{QStringLiteral("RR-branch")});
        QCOMPARE(siteRecipes(QStringLiteral("R106")), QStringList{QStringLiteral("RR-flip")});
        QVERIFY(siteRecipes(QStringLiteral("R104")).isEmpty());
        const Recipe* r = findRecipe(QStringLiteral("RR-branch"));
        QVERIFY(r);
        QCOMPARE(r->addresses, QStringList{QStringLiteral("R105")});
        const Rendered out = fromParts({choice, stop}, {});
        const QString blocks =
            section(QString::fromUtf8(out.render(ReportFormat::Markdown)), kHeadings[2]);
        QVERIFY(blocks.contains(QStringLiteral("RR-branch: Take data-dependent branches")));
        QVERIFY(blocks.contains(QStringLiteral("RR-converge: Test convergence")));
    }

    // Issue 16 item 7: `cnready rules`, `cnready explain`, SARIF's rule help and the reports
    // name the same recipe for every code and for each of its site variants (R105 once
    // disagreed: the catalogue said RR-converge while the report's rows said RR-branch).
    void everyCodeHasOneRecipeInTheCatalogueAndTheReports() {
        const Cli rulesJson =
            cli({QStringLiteral("rules"), QStringLiteral("--format"), QStringLiteral("json")});
        QCOMPARE(rulesJson.code, 0);
        QHash<QString, QJsonObject> catalogue;
        for (const QJsonValue& v :
             QJsonDocument::fromJson(rulesJson.out)[QStringLiteral("rules")].toArray())
            catalogue.insert(v[QStringLiteral("code")].toString(), v.toObject());
        QHash<QString, QString> rulesLine;
        for (const QByteArray& l : cli({QStringLiteral("rules")}).out.split('\n'))
            rulesLine.insert(QString::fromUtf8(l.left(4)), QString::fromUtf8(l));
        const QJsonArray sarifRules =
            QJsonDocument::fromJson(examples().render(ReportFormat::Sarif))[QStringLiteral("runs")]
                .toArray()
                .at(0)[QStringLiteral("tool")][QStringLiteral("driver")][QStringLiteral("rules")]
                .toArray();
        QHash<QString, QString> sarifHelp;
        for (const QJsonValue& r : sarifRules)
            sarifHelp.insert(r[QStringLiteral("id")].toString(),
                             r[QStringLiteral("help")][QStringLiteral("text")].toString());
        int checked = 0;
        for (const auto& rule : RuleRegistry::instance().rules()) {
            const RuleInfo& i = rule->info();
            const QString own = recipeForCode(i.code);
            const QStringList alternatives = siteRecipes(i.code);
            const QJsonObject entry = catalogue.value(i.code);
            QCOMPARE(entry[QStringLiteral("recipe")].toString(), own);
            QStringList listed;
            for (const QJsonValue& v : entry[QStringLiteral("siteRecipes")].toArray())
                listed << v.toString();
            QCOMPARE(listed, alternatives);
            const QString explain = QString::fromUtf8(cli({QStringLiteral("explain"), i.code}).out);
            for (int variant = 0; variant <= alternatives.size(); ++variant) {
                Finding f = finding(i.code, i.category, 12);
                f.recipeVariant = quint8(variant);
                const QString anchor = recipeFor(f);
                const QString tag = QStringLiteral("%1 variant %2").arg(i.code).arg(variant);
                QCOMPARE(anchor, variant == 0 ? own : alternatives.at(variant - 1));
                if (anchor.isEmpty())
                    continue; // SCALES and R304: no recipe anywhere
                const Recipe* r = findRecipe(anchor);
                QVERIFY2(r, qPrintable(tag));
                const QString named = QStringLiteral("%1: %2").arg(r->anchor, r->title);
                QVERIFY2(rulesLine.value(i.code).contains(anchor), qPrintable(tag));
                QVERIFY2(explain.contains(QStringLiteral("ecipe ") + named), qPrintable(tag));
                QVERIFY2(sarifHelp.value(i.code).contains(
                             QStringLiteral("(%1, %2): %3").arg(r->anchor, r->title, r->summary)),
                         qPrintable(tag));
                const Rendered out = fromParts({f}, {});
                const QJsonArray fs = QJsonDocument::fromJson(out.render(
                    ReportFormat::Json))[QStringLiteral("findings")]
                                          .toArray();
                QCOMPARE(fs.size(), 1);
                QCOMPARE(fs.at(0)[QStringLiteral("recipe")].toString(), anchor);
                const QString md = QString::fromUtf8(out.render(ReportFormat::Markdown));
                if (i.category == Category::Blocks || i.category == Category::Refactor) {
                    const QString body =
                        section(md, i.category == Category::Blocks ? kHeadings[2] : kHeadings[3]);
                    QVERIFY2(body.contains(named), qPrintable(tag + QLatin1Char('\n') + body));
                    QVERIFY2(
                        section(md, kHeadings[7])
                            .contains(QStringLiteral("Apply **%1** (%2)").arg(r->anchor, r->title)),
                        qPrintable(tag));
                }
                ++checked;
            }
        }
        QVERIFY(checked > 20);
    }

    // Issue 16 item 7: where the code only turns an array into Python values there is nothing
    // to vectorise, so those sites get RR-tolist, never the element-loop recipe.
    void conversionsToPythonValuesAreNotOfferedTheLoopRecipe() {
        const QByteArray src = "import numpy as np\n"
                               "\n"
                               "\n"
                               "def corner(grid: np.ndarray, ids: np.ndarray):\n"
                               "    lo = tuple(grid)\n"                               // 5: R110
                               "    names = [str(v) for v in ids]\n"                  // 6: R103
                               "    pairs = {int(k): i for i, k in enumerate(ids)}\n" // 7
                               "    total = sum(grid)\n"                              // 8: R110
                               "    norms = [np.sqrt(np.dot(p, p)) for p in grid]\n"  // 9
                               "    items = list(ids)\n"                              // 10: R110
                               "    return lo, names, pairs, total, norms, items\n"
                               "\n"
                               "\n"
                               "def pieces(off: np.ndarray, n: int):\n"
                               "    cuts = [slice(off[d], off[d + 1]) for d in range(n)]\n" // 15
                               "    gaps = [off[d + 1] - off[d] for d in range(n)]\n"       // 16
                               "    return cuts, gaps\n"
                               "\n"
                               "\n"
                               "def first_live(cols: np.ndarray):\n"
                               "    return [c for c in cols if np.any(c > 0)]\n"; // 21
        FileResult f = analyzeSource(QStringLiteral("pkg/shapes.py"), src);
        QHash<int, QString> byLine;
        for (const Finding& x : f.findings)
            if (x.category == Category::Blocks)
                byLine.insert(x.range.line, x.code + QLatin1Char('/') + recipeFor(x));
        QCOMPARE(byLine.value(5), QStringLiteral("R110/RR-tolist"));
        QCOMPARE(byLine.value(6), QStringLiteral("R103/RR-tolist"));
        QCOMPARE(byLine.value(7), QStringLiteral("R103/RR-tolist"));
        QCOMPARE(byLine.value(8), QStringLiteral("R110/RR-loop"));
        QCOMPARE(byLine.value(9), QStringLiteral("R103/RR-loop"));
        QCOMPARE(byLine.value(10), QStringLiteral("R110/RR-tolist"));
        // An element loop that only packs elements into slices (pywt's coefficient slices),
        // and one that computes with them (np.diff would do it).
        QCOMPARE(byLine.value(15), QStringLiteral("R101/RR-tolist"));
        QCOMPARE(byLine.value(16), QStringLiteral("R101/RR-loop"));
        // A filter is work on the items (sklearn's `next(col for col in Y.T if np.any(...))`).
        QCOMPARE(byLine.value(21), QStringLiteral("R103/RR-loop"));
        // The report's rows and next steps follow the finding's own recipe.
        Rendered r;
        r.project = mergeFileResults(QStringLiteral("/tmp/shapes"), {f});
        r.assessment = assess(r.project, {}, r.manifest, {});
        const QString md = QString::fromUtf8(r.render(ReportFormat::Markdown));
        const QString blocks = section(md, kHeadings[2]);
        for (const QString& row : blocks.split(QLatin1Char('\n'))) {
            if (row.contains(QStringLiteral("`pkg/shapes.py:5`")) ||
                row.contains(QStringLiteral("`pkg/shapes.py:6`")) ||
                row.contains(QStringLiteral("`pkg/shapes.py:10`")))
                QVERIFY2(row.contains(QStringLiteral("RR-tolist: Convert to Python values")) &&
                             !row.contains(QStringLiteral("RR-loop")),
                         qPrintable(row));
        }
        const QString steps = section(md, kHeadings[7]);
        QVERIFY2(steps.contains(QStringLiteral("Apply **RR-tolist** (Convert to Python values "
                                               "in one transfer) at 5 sites")),
                 qPrintable(steps));
        QVERIFY2(steps.contains(QStringLiteral("Apply **RR-loop** (Replace the element loop by "
                                               "whole-array operations) at 4 sites")),
                 qPrintable(steps));
    }

    // Issue 16 item 8: identical rows for one site are one row in every table of the report.
    void identicalRowsForOneSiteAreMerged() {
        Finding a = finding(QStringLiteral("R101"), Category::Blocks, 12);
        Finding b = a;
        b.range.column = 20; // a second read in the same loop: one site
        a.siteLine = b.siteLine = 11;
        a.siteEndLine = b.siteEndLine = 14;
        Finding s1 = finding(QStringLiteral("R001"), Category::Scales, 20);
        Finding s2 = s1;
        s2.range.column = 30; // same line, code and note: the same row
        Finding r1 = finding(QStringLiteral("R201"), Category::Refactor, 24);
        Finding r2 = r1;
        r2.range.column = 30;
        Finding i1 = finding(QStringLiteral("R303"), Category::Info, 28);
        Finding i2 = i1;
        i2.range.column = 30;
        const Rendered out = fromParts({a, b, s1, s2, r1, r2, i1, i2}, {});
        const QString md = QString::fromUtf8(out.render(ReportFormat::Markdown));
        auto rowsWith = [&](const QString& heading, const QString& needle) {
            return section(md, heading).count(needle);
        };
        QCOMPARE(rowsWith(kHeadings[2], QStringLiteral("| R101 |")), 1);
        QVERIFY2(section(md, kHeadings[2])
                     .contains(QStringLiteral("| `pkg/sim.py:11-14` | R101 | 2 findings at one "
                                              "site (line 12)")),
                 qPrintable(section(md, kHeadings[2])));
        QCOMPARE(rowsWith(kHeadings[1], QStringLiteral("`pkg/sim.py:20-21` | R001")), 1);
        QCOMPARE(rowsWith(kHeadings[3], QStringLiteral("`pkg/sim.py:24-25` R201")), 1);
        QCOMPARE(rowsWith(kHeadings[4], QStringLiteral("`pkg/sim.py:28-29` | R303")), 1);
        // Different sites stay apart.
        Finding c = a;
        c.range.line = 40;
        c.siteLine = c.siteEndLine = 40;
        const Rendered two = fromParts({a, c}, {});
        QCOMPARE(section(QString::fromUtf8(two.render(ReportFormat::Markdown)), kHeadings[2])
                     .count(QStringLiteral("| R101 |")),
                 2);
    }

    // Issue 16 item 3: the API-gap table's effect column says what an unimplemented API does
    // on the compute path (AttributeError since cuPyNumeric 26.06, no NumPy fallback) and,
    // off it, gives the fix (call host NumPy there).
    void apiGapEffectSaysWhatAnUnimplementedApiDoes() {
        FileResult f;
        f.path = QStringLiteral("pkg/sim.py");
        f.moduleName = QStringLiteral("pkg.sim");
        f.lines = 40;
        f.findings = {finding(QStringLiteral("R001"), Category::Scales, 5)};
        ApiUse onPath;
        onPath.name = QStringLiteral("numpy.vectorize");
        onPath.range = SourceRange{f.path, 8, 5, 8, 20};
        onPath.function = QStringLiteral("step");
        ApiUse offPath = onPath;
        offPath.range = SourceRange{f.path, 30, 5, 30, 20};
        offPath.function = QStringLiteral("plot_result");
        offPath.pathRole = PathRole::Plotting;
        auto effect = [](const QList<ApiUse>& uses, const FileResult& base) {
            FileResult g = base;
            g.apiUses = uses;
            Rendered r;
            r.project = mergeFileResults(QStringLiteral("/tmp/gaps"), {g});
            r.assessment = assess(r.project, {}, r.manifest, {});
            const QString gaps =
                section(QString::fromUtf8(r.render(ReportFormat::Markdown)), kHeadings[5]);
            for (const QString& row : gaps.split(QLatin1Char('\n')))
                if (row.startsWith(QStringLiteral("| `numpy.vectorize` |")))
                    return std::make_pair(row, r.assessment.demotions.size());
            return std::make_pair(gaps, qsizetype(-1));
        };
        const auto [on, onDemotions] = effect({onPath}, f);
        QVERIFY2(on.contains(QStringLiteral("on the compute path (loop or not): cuPyNumeric "
                                            "26.06+ raises AttributeError there, no NumPy "
                                            "fallback; demotes the verdict one tier")),
                 qPrintable(on));
        QCOMPARE(onDemotions, 1);
        const auto [off, offDemotions] = effect({offPath}, f);
        QVERIFY2(off.contains(QStringLiteral("off the compute path: listed, no demotion; call "
                                             "host NumPy explicitly there (cuPyNumeric 26.06+ "
                                             "raises AttributeError)")),
                 qPrintable(off));
        QCOMPARE(offDemotions, 0);
    }

    // The summary's rule-9 line lists whole API names and says how many it leaves out; it
    // used to cut the list at 400 characters, inside a name ("numpy.corrco…").
    void summaryRuleNineListsWholeNames() {
        const QStringList names = {QStringLiteral("numpy.apply_along_axis"),
                                   QStringLiteral("numpy.apply_over_axes"),
                                   QStringLiteral("numpy.around"),
                                   QStringLiteral("numpy.asanyarray"),
                                   QStringLiteral("numpy.ascontiguousarray"),
                                   QStringLiteral("numpy.asfortranarray"),
                                   QStringLiteral("numpy.bmat"),
                                   QStringLiteral("numpy.corrcoef"),
                                   QStringLiteral("numpy.fix"),
                                   QStringLiteral("numpy.vectorize"),
                                   QStringLiteral("numpy.piecewise"),
                                   QStringLiteral("numpy.select"),
                                   QStringLiteral("numpy.nan_to_num"),
                                   QStringLiteral("numpy.trapz"),
                                   QStringLiteral("numpy.polyfit"),
                                   QStringLiteral("numpy.unwrap")};
        FileResult f;
        f.path = QStringLiteral("pkg/very_long_module_name_for_the_solver.py");
        f.moduleName = QStringLiteral("pkg.very_long_module_name_for_the_solver");
        f.lines = 400;
        f.findings = {finding(QStringLiteral("R001"), Category::Scales, 5)};
        for (int i = 0; i < names.size(); ++i) {
            ApiUse u;
            u.name = names[i];
            u.range = SourceRange{f.path, 100 + i, 5, 100 + i, 20};
            u.function = QStringLiteral("step");
            f.apiUses << u;
        }
        Rendered r;
        r.project = mergeFileResults(QStringLiteral("/tmp/gaps"), {f});
        r.assessment = assess(r.project, {}, r.manifest, {});
        QCOMPARE(r.assessment.demotions.size(), 1);
        qsizetype material = 0;
        for (const ApiGap& g : r.assessment.apiGaps)
            material += g.material ? 1 : 0;
        QVERIFY2(material >= 10, "the manifest must mark most of these names ✗");
        // The full line (Markdown, JSON) keeps every name.
        QVERIFY(!r.assessment.demotions.first().contains(QStringLiteral(" more")));
        const QString summary = QString::fromUtf8(
            renderSummary(ReportInput{r.project, r.assessment, r.manifest, kToday}));
        QString line;
        for (const QString& l : summary.split(QLatin1Char('\n')))
            if (l.startsWith(QStringLiteral("Rule 9:")))
                line = l;
        QVERIFY2(!line.isEmpty(), qPrintable(summary));
        QVERIFY2(!line.contains(QStringLiteral("…")), qPrintable(line));
        QVERIFY2(line.size() <= 420, qPrintable(line));
        static const QRegularExpression entry(QStringLiteral(R"((numpy\.[a-z_0-9]+) \(✗\) at `)"));
        qsizetype listed = 0;
        for (auto it = entry.globalMatch(line); it.hasNext(); ++listed)
            QVERIFY2(names.contains(it.next().captured(1)), qPrintable(line));
        static const QRegularExpression more(QStringLiteral(R"(; and (\d+) more\.$)"));
        const QRegularExpressionMatch m = more.match(line);
        QVERIFY2(m.hasMatch(), qPrintable(line));
        QVERIFY(listed >= 1);
        QCOMPARE(listed + m.captured(1).toInt(), material);
    }

    void fileDiagnosticsAreListedInTheContextPart() {
        QTemporaryDir tmp;
        QFile good(tmp.filePath(QStringLiteral("ok.py")));
        QVERIFY(good.open(QIODevice::WriteOnly));
        good.write("import numpy as np\nx = np.zeros((4096, 4096))\ny = np.sum(x)\n");
        good.close();
        QFile bin(tmp.filePath(QStringLiteral("blob.py")));
        QVERIFY(bin.open(QIODevice::WriteOnly));
        bin.write(QByteArray("\x00\x01\x02binary", 9));
        bin.close();
        QFile broken(tmp.filePath(QStringLiteral("broken.py")));
        QVERIFY(broken.open(QIODevice::WriteOnly));
        broken.write("import numpy as np\n\ndef f(:\n    return np.ones(3\n");
        broken.close();
        Rendered r;
        r.project = analyzeProject(scanProject({tmp.path()}));
        r.assessment = assess(r.project, {}, r.manifest);
        const QString md = QString::fromUtf8(r.render(ReportFormat::Markdown));
        const qsizetype diag = md.indexOf(QStringLiteral("Files not fully read:"));
        QVERIFY(diag > 0);
        QVERIFY(diag < md.indexOf(QStringLiteral("## Verdict")));
        QVERIFY(md.contains(QStringLiteral("- `blob.py` (binary): ")));
        QVERIFY(md.contains(QStringLiteral("- `broken.py:3` (syntax): ")));
        // The binary file and the syntax error are both code the verdict could not read: the
        // opening line counts the same two files the provisional sentence names.
        QVERIFY2(md.contains(QStringLiteral("read 3 Python files (7 lines) statically; paths below "
                                            "are relative to the project root. 2 files could not "
                                            "be assessed fully (listed under \"Files not fully "
                                            "read\"), so the verdict is provisional.")),
                 qPrintable(md.left(800)));
        QVERIFY2(md.contains(QStringLiteral("2 files were not read fully (`blob.py`: binary; "
                                            "`broken.py`: syntax error at line 3)")),
                 qPrintable(md.left(3000)));
        const QJsonObject o = QJsonDocument::fromJson(r.render(ReportFormat::Json)).object();
        // One entry per diagnostic of the project, in the same order as the Markdown list.
        const QJsonArray diags = o.value(QStringLiteral("project"))
                                     .toObject()
                                     .value(QStringLiteral("diagnostics"))
                                     .toArray();
        QCOMPARE(diags.size(), r.project.diagnostics.size());
        QVERIFY(diags.size() >= 2);
        QCOMPARE(diags[0].toObject().value(QStringLiteral("kind")).toString(),
                 QStringLiteral("binary"));
        // SARIF carries the same list as the run's tool-execution notifications.
        const QJsonObject run = QJsonDocument::fromJson(r.render(ReportFormat::Sarif))
                                    .object()
                                    .value(QStringLiteral("runs"))
                                    .toArray()[0]
                                    .toObject();
        const QJsonArray notes = run.value(QStringLiteral("invocations"))
                                     .toArray()[0]
                                     .toObject()
                                     .value(QStringLiteral("toolExecutionNotifications"))
                                     .toArray();
        QCOMPARE(notes.size(), diags.size());
        QStringList ids, uris;
        for (const QJsonValue& n : notes) {
            ids << n[QStringLiteral("descriptor")][QStringLiteral("id")].toString();
            uris << n[QStringLiteral("locations")][0][QStringLiteral("physicalLocation")]
                     [QStringLiteral("artifactLocation")][QStringLiteral("uri")]
                         .toString();
            QVERIFY(!n[QStringLiteral("message")][QStringLiteral("text")].toString().isEmpty());
        }
        QCOMPARE(ids.first(), QStringLiteral("binary"));
        QVERIFY(ids.contains(QStringLiteral("syntax")));
        QVERIFY(uris.contains(QStringLiteral("blob.py")) &&
                uris.contains(QStringLiteral("broken.py")));
    }

    void hardwareStopInReport() {
        ContextInput in;
        in.gpuModel = QStringLiteral("P100");
        const Rendered r =
            fromParts({finding(QStringLiteral("R201"), Category::Refactor, 20)},
                      {PatternEvidence{QStringLiteral("stencil"),
                                       SourceRange{QStringLiteral("pkg/sim.py"), 3, 1, 3, 9},
                                       QStringLiteral("shifted slices"),
                                       true,
                                       3,
                                       {}}},
                      in);
        const QString md = QString::fromUtf8(r.render(ReportFormat::Markdown));
        QVERIFY(md.contains(QStringLiteral("**NOT RECOMMENDED** — ")));
        QVERIFY(md.contains(QStringLiteral("the code itself would get **LIGHT REFACTOR**")));
        QVERIFY(md.contains(QStringLiteral("| GPU model | P100 (Pascal, 16 GiB) | given |")));
    }

    void jsonSchemaBasics() {
        const QJsonDocument doc = QJsonDocument::fromJson(examples().render(ReportFormat::Json));
        QVERIFY(doc.isObject());
        const QJsonObject o = doc.object();
        QCOMPARE(o.value(QStringLiteral("schema")).toString(), QStringLiteral("cnready-report"));
        QCOMPARE(o.value(QStringLiteral("schemaVersion")).toInt(), kReportSchemaVersion);
        for (const char* key : {"tool", "project", "manifest", "context", "verdict", "gates",
                                "counts", "findings", "apiGaps", "nextSteps", "doctorCommand"})
            QVERIFY2(o.contains(QLatin1String(key)), key);
        QCOMPARE(o.value(QStringLiteral("gates")).toArray().size(), 6);
        const QJsonObject v = o.value(QStringLiteral("verdict")).toObject();
        QVERIFY(QStringList({"ready", "light", "significant", "not-recommended"})
                    .contains(v.value(QStringLiteral("key")).toString()));
        QVERIFY(v.value(QStringLiteral("decidingRule")).toInt() >= 1);
        for (const QJsonValue f : o.value(QStringLiteral("findings")).toArray()) {
            const QJsonObject fo = f.toObject();
            QVERIFY(!fo.value(QStringLiteral("code")).toString().isEmpty());
            QVERIFY(fo.value(QStringLiteral("range"))
                        .toObject()
                        .value(QStringLiteral("line"))
                        .toInt() >= 1);
            QVERIFY(!fo.value(QStringLiteral("range"))
                         .toObject()
                         .value(QStringLiteral("path"))
                         .toString()
                         .startsWith(QLatin1Char('/')));
        }
        QCOMPARE(o.value(QStringLiteral("entryScript")).toString(),
                 QStringLiteral("run_simulation.py"));
    }

    void sarifRequiredProperties() {
        const QJsonDocument doc = QJsonDocument::fromJson(examples().render(ReportFormat::Sarif));
        const QJsonObject o = doc.object();
        QCOMPARE(o.value(QStringLiteral("version")).toString(), QStringLiteral("2.1.0"));
        QVERIFY(
            o.value(QStringLiteral("$schema")).toString().contains(QStringLiteral("sarif-2.1.0")));
        const QJsonArray runs = o.value(QStringLiteral("runs")).toArray();
        QCOMPARE(runs.size(), 1);
        const QJsonObject run = runs[0].toObject();
        const QJsonObject driver =
            run.value(QStringLiteral("tool")).toObject().value(QStringLiteral("driver")).toObject();
        QCOMPARE(driver.value(QStringLiteral("name")).toString(), QStringLiteral("cnready"));
        const QJsonArray rules = driver.value(QStringLiteral("rules")).toArray();
        QVERIFY(!rules.isEmpty());
        QStringList ids;
        for (const QJsonValue r : rules) {
            const QJsonObject ro = r.toObject();
            ids << ro.value(QStringLiteral("id")).toString();
            QVERIFY(!ro.value(QStringLiteral("shortDescription"))
                         .toObject()
                         .value(QStringLiteral("text"))
                         .toString()
                         .isEmpty());
            QVERIFY(!ro.value(QStringLiteral("help"))
                         .toObject()
                         .value(QStringLiteral("text"))
                         .toString()
                         .isEmpty());
        }
        QVERIFY(ids.contains(QStringLiteral("R102")));
        const QJsonObject base = run.value(QStringLiteral("originalUriBaseIds"))
                                     .toObject()
                                     .value(QStringLiteral("%SRCROOT%"))
                                     .toObject();
        QCOMPARE(base.value(QStringLiteral("uri")).toString(),
                 QStringLiteral("file:///project/examples/"));
        const QJsonArray results = run.value(QStringLiteral("results")).toArray();
        QVERIFY(!results.isEmpty());
        const QStringList levels = {"none", "note", "warning", "error"};
        QSet<QString> fingerprints;
        for (const QJsonValue r : results) {
            const QJsonObject ro = r.toObject();
            const QString id = ro.value(QStringLiteral("ruleId")).toString();
            QVERIFY(ids.contains(id));
            QCOMPARE(ids.at(ro.value(QStringLiteral("ruleIndex")).toInt()), id);
            QVERIFY(levels.contains(ro.value(QStringLiteral("level")).toString()));
            QVERIFY(!ro.value(QStringLiteral("message"))
                         .toObject()
                         .value(QStringLiteral("text"))
                         .toString()
                         .isEmpty());
            const QJsonArray locs = ro.value(QStringLiteral("locations")).toArray();
            QCOMPARE(locs.size(), 1);
            const QJsonObject phys =
                locs[0].toObject().value(QStringLiteral("physicalLocation")).toObject();
            const QJsonObject art = phys.value(QStringLiteral("artifactLocation")).toObject();
            QVERIFY(!art.value(QStringLiteral("uri")).toString().isEmpty());
            QVERIFY(!art.value(QStringLiteral("uri")).toString().startsWith(QLatin1Char('/')));
            QCOMPARE(art.value(QStringLiteral("uriBaseId")).toString(),
                     QStringLiteral("%SRCROOT%"));
            QVERIFY(phys.value(QStringLiteral("region"))
                        .toObject()
                        .value(QStringLiteral("startLine"))
                        .toInt() >= 1);
            // A line-independent fingerprint on every result, distinct per result; no
            // baselineState without --baseline.
            const QString fp = ro.value(QStringLiteral("partialFingerprints"))
                                   .toObject()
                                   .value(QStringLiteral("cnready/v1"))
                                   .toString();
            QVERIFY(QRegularExpression(QStringLiteral("^[0-9a-f]{32}$")).match(fp).hasMatch());
            QVERIFY2(!fingerprints.contains(fp), qPrintable(fp));
            fingerprints.insert(fp);
            QVERIFY(!ro.contains(QStringLiteral("baselineState")));
            // kind "pass" (SCALES) must carry level "none" (SARIF §3.27.9).
            if (ro.value(QStringLiteral("kind")).toString() == QLatin1String("pass"))
                QCOMPARE(ro.value(QStringLiteral("level")).toString(), QStringLiteral("none"));
        }
    }

    // ---- the CLI ----------------------------------------------------------------------------
    void cliFormatsMatchTheLibrary() {
        const Cli md = cli({QStringLiteral("assess"), kExamples, QStringLiteral("--today"),
                            QStringLiteral("2026-06-01")});
        QCOMPARE(md.code, 0);
        QVERIFY(md.out.startsWith("# cuPyNumeric readiness: examples\n"));
        QVERIFY(md.err.isEmpty()); // manifest fresh on that day: no warning
        const Cli json =
            cli({QStringLiteral("assess"), kExamples, QStringLiteral("--format"),
                 QStringLiteral("json"), QStringLiteral("--today"), QStringLiteral("2026-06-01")});
        QCOMPARE(json.code, 0);
        QCOMPARE(QJsonDocument::fromJson(json.out)
                     .object()
                     .value(QStringLiteral("schemaVersion"))
                     .toInt(),
                 kReportSchemaVersion);
        const Cli sarif = cli({QStringLiteral("assess"), kExamples, QStringLiteral("--format"),
                               QStringLiteral("sarif")});
        QCOMPARE(sarif.code, 0);
        QCOMPARE(
            QJsonDocument::fromJson(sarif.out).object().value(QStringLiteral("version")).toString(),
            QStringLiteral("2.1.0"));
        QVERIFY(sarif.err.contains("warning: the API-support manifest")); // stale today
        QCOMPARE(cli({QStringLiteral("assess"), kExamples, QStringLiteral("--format"),
                      QStringLiteral("xml")})
                     .code,
                 2);
        QCOMPARE(cli({QStringLiteral("assess"), kExamples, QStringLiteral("--today"),
                      QStringLiteral("yesterday")})
                     .code,
                 2);
    }
    void cliOutputFileIsAtomicAndIdentical() {
        QTemporaryDir tmp;
        const QString file = tmp.filePath(QStringLiteral("r.sarif"));
        const QStringList args = {QStringLiteral("assess"),   kExamples,
                                  QStringLiteral("--format"), QStringLiteral("sarif"),
                                  QStringLiteral("--today"),  QStringLiteral("2026-06-01")};
        const Cli toFile = cli(args + QStringList{QStringLiteral("-o"), file});
        QCOMPARE(toFile.code, 0);
        QVERIFY(toFile.out.isEmpty());
        QFile f(file);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readAll(), cli(args).out);
        QCOMPARE(QDir(tmp.path()).entryList(QDir::Files), QStringList{QStringLiteral("r.sarif")});
        const Cli bad =
            cli(args + QStringList{QStringLiteral("-o"), QStringLiteral("/no/such/dir/r.sarif")});
        QCOMPARE(bad.code, 3);
        QVERIFY(bad.err.contains("cannot write"));
    }
    void cliFailOn_data() {
        QTest::addColumn<QString>("project");
        QTest::addColumn<QString>("failOn");
        QTest::addColumn<int>("code");
        const QString clean = QStringLiteral("clean");
        const QString graph = QStringLiteral("graph_bfs");
        QTest::newRow("ready vs significant") << clean << "significant" << 0;
        QTest::newRow("ready vs light") << clean << "light" << 0;
        QTest::newRow("ready vs ready") << clean << "ready" << 1;
        QTest::newRow("not-recommended vs light") << graph << "light" << 1;
        QTest::newRow("not-recommended vs not-recommended") << graph << "not-recommended" << 1;
        QTest::newRow("unknown") << clean << "bad" << 2;
    }
    void cliFailOn() {
        QFETCH(QString, project);
        QFETCH(QString, failOn);
        QFETCH(int, code);
        const Cli r = cli({QStringLiteral("assess"),
                           QStringLiteral(CNREADY_FIXTURES_DIR "/projects/") + project,
                           QStringLiteral("--fail-on"), failOn, QStringLiteral("--today"),
                           QStringLiteral("2026-06-01")});
        QCOMPARE(r.code, code);
        if (code == 2)
            QCOMPARE(r.err.count('\n'), 1);
    }
};

QTEST_GUILESS_MAIN(TestReport)
#include "tst_report.moc"
