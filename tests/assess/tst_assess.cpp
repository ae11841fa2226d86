// The assessment as a pure function: context resolution, gates, the ordered verdict list,
// rule-9 demotions, API gaps and R304 handling, on ProjectResults built in the test; plus the
// per-file evidence collection (size hints, pattern evidence, touchpoints) on small sources.
#include "analysis/FileAnalyzer.h"
#include "analysis/ProjectAnalyzer.h"
#include "assess/Assessment.h"
#include "assess/Evidence.h"
#include "parse/SyntaxTree.h"
#include "report/Report.h"
#include "semantic/SemanticModel.h"

#include <QTemporaryDir>
#include <QtTest>

using namespace cnready;

namespace {

Finding finding(const QString& code, Category cat, const QString& path, int line, bool hot,
                const QString& function = QStringLiteral("step")) {
    Finding f;
    f.code = code;
    f.category = cat;
    f.range = SourceRange{path, line, 1, line, 10};
    f.function = function;
    f.message = code + QStringLiteral(" site");
    f.hot = hot;
    return f;
}

PatternEvidence evidence(const QString& pattern, int line, int weight, bool hot = false,
                         const QString& path = QStringLiteral("sim.py")) {
    return PatternEvidence{pattern,
                           SourceRange{path, line, 1, line, 5},
                           pattern + QStringLiteral(" line"),
                           hot,
                           weight,
                           QString()};
}

SizeHint hint(qint64 n, int line, bool feeds = true, bool sizeNamed = true) {
    SizeHint h{n, QStringLiteral("np.zeros(N)"),
               SourceRange{QStringLiteral("sim.py"), line, 1, line, 9}, feeds};
    h.sizeNamed = sizeNamed;
    return h;
}

ApiUse use(const QString& name, int line, bool hot) {
    ApiUse u;
    u.name = name;
    u.range = SourceRange{QStringLiteral("sim.py"), line, 5, line, 20};
    u.hot = hot;
    return u;
}

// One file "sim.py" holding the given parts, merged into a project (no root: no disk access).
ProjectResult project(const QList<Finding>& findings, const QList<PatternEvidence>& ev = {},
                      const QList<SizeHint>& hints = {}, const QList<ApiUse>& uses = {}) {
    FileResult f;
    f.path = QStringLiteral("sim.py");
    f.moduleName = QStringLiteral("sim");
    f.lines = 100;
    f.findings = findings;
    f.patternEvidence = ev;
    f.sizeHints = hints;
    f.apiUses = uses;
    return mergeFileResults(QString(), {f});
}

// A stencil project that passes Gate 4 by default.
QList<PatternEvidence> stencilEvidence() {
    return {evidence(QStringLiteral("stencil"), 10, 3, true),
            evidence(QStringLiteral("reduction"), 12, 2)};
}

Assessment run(const ProjectResult& p, const ContextInput& in = {}) {
    return assess(p, in, Manifest::bundled(), {});
}

// A small project of our own under tests/fixtures/projects/, analyzed from disk.
Assessment runFixture(const QString& dir, const ContextInput& in = {}) {
    const QString root = QStringLiteral(CNREADY_FIXTURES_DIR "/projects/") + dir;
    return assess(analyzeProject(scanProject({root})), in, Manifest::bundled(), {});
}

const Gate& gate(const Assessment& a, int n) {
    return a.gates.at(n - 1);
}

} // namespace

class TestAssess : public QObject {
    Q_OBJECT
private slots:
    // ---- context ------------------------------------------------------------------------
    void defaultsAreStatedAsDefaults() {
        const Assessment a = run(project({}));
        const Context& c = a.context;
        QCOMPARE(c.totalElements, kDefaultElements);
        QCOMPARE(c.perGpuElements, kDefaultElements);
        QCOMPARE(c.gpus, 1);
        QCOMPARE(c.nodes, 1);
        QCOMPARE(c.sizeProvenance, Provenance::Default);
        QCOMPARE(c.rows.at(0).value, QStringLiteral("30–50 M (default)"));
        QCOMPARE(c.rows.at(1).provenance, Provenance::Default);
        QVERIFY(c.rows.at(1).evidence.contains(QStringLiteral("checked for 1 GPU")));
        QVERIFY(c.rows.at(3).evidence.contains(QStringLiteral("never assumed")));
        QCOMPARE(gate(a, 2).status, GateStatus::Uncertain);
        QCOMPARE(gate(a, 1).status, GateStatus::Uncertain);
    }
    void givenSizeSplitsOverGpus() {
        ContextInput in;
        in.elements = 400'000'000;
        in.gpus = 8;
        const Assessment a = run(project({}, stencilEvidence()), in);
        QCOMPARE(a.context.perGpuElements, 50'000'000);
        QCOMPARE(a.context.sizeProvenance, Provenance::Given);
        QCOMPARE(a.context.rows.at(0).evidence, QStringLiteral("--elements 400,000,000"));
        QCOMPARE(gate(a, 2).status, GateStatus::Pass);
        QVERIFY(gate(a, 2).reason.contains(QStringLiteral("over 8 GPUs")));
    }
    void perGpuSizeWins() {
        ContextInput in;
        in.elements = 1000;
        in.elementsPerGpu = 2'000'000;
        in.gpus = 4;
        const Context c = resolveContext(project({}), in);
        QCOMPARE(c.perGpuElements, 2'000'000);
        QCOMPARE(c.totalElements, 8'000'000);
    }
    void inferredSizeIsTheLargestFeedingHint() {
        const ProjectResult p =
            project({}, {}, {hint(8192, 3), hint(16'000'000, 7), hint(999'999'999, 9, false)});
        const Context c = resolveContext(p, {});
        QCOMPARE(c.totalElements, 16'000'000);
        QCOMPARE(c.sizeProvenance, Provenance::Inferred);
        QCOMPARE(c.sizeEvidence, QStringLiteral("`sim.py:7` np.zeros(N)"));
    }
    void sizeNamedConstantIsTheFallback() {
        const Context c = resolveContext(project({}, {}, {hint(5'000'000, 4, false)}), {});
        QCOMPARE(c.totalElements, 5'000'000);
        QVERIFY(c.rows.at(0).evidence.startsWith(QStringLiteral("size-named constant")));
    }
    void testFilesDoNotSetTheSize() {
        FileResult t;
        t.path = QStringLiteral("tests/test_sim.py");
        t.isTest = true;
        t.sizeHints = {hint(64, 3)};
        const ProjectResult p = mergeFileResults(QString(), {t});
        QCOMPARE(resolveContext(p, {}).sizeProvenance, Provenance::Default);
    }
    void gpuModelGivesComputeCapability() {
        ContextInput in;
        in.gpuModel = QStringLiteral("a100-80gb");
        const Context c = resolveContext(project({}), in);
        QCOMPARE(c.gpuModel, QStringLiteral("A100"));
        QCOMPARE(c.computeCapability, 8.0);
        in.computeCapability = 9.0; // explicit value wins
        QCOMPARE(resolveContext(project({}), in).computeCapability, 9.0);
    }

    // ---- gates ----------------------------------------------------------------------------
    void sizeTiers_data() {
        QTest::addColumn<qint64>("perGpu");
        QTest::addColumn<int>("status");
        QTest::addColumn<QString>("words");
        QTest::newRow("floor") << qint64(65'535) << int(GateStatus::Fail) << "floor";
        QTest::newRow("at floor") << qint64(65'536) << int(GateStatus::Uncertain) << "slower";
        QTest::newRow("break-even")
            << qint64(1'000'000) << int(GateStatus::Uncertain) << "break-even";
        QTest::newRow("single GPU win")
            << qint64(10'000'000) << int(GateStatus::Pass) << "single GPU";
        QTest::newRow("multi-GPU") << qint64(100'000'000) << int(GateStatus::Pass) << "more GPUs";
        QTest::newRow("multi-node")
            << qint64(1'000'000'000) << int(GateStatus::Pass) << "multi-node";
    }
    void sizeTiers() {
        QFETCH(qint64, perGpu);
        QFETCH(int, status);
        QFETCH(QString, words);
        ContextInput in;
        in.elementsPerGpu = perGpu;
        const Assessment a = run(project({}, stencilEvidence()), in);
        QCOMPARE(int(gate(a, 2).status), status);
        QVERIFY2(gate(a, 2).reason.contains(words), qPrintable(gate(a, 2).reason));
    }
    void hardwareGate_data() {
        QTest::addColumn<QString>("gpu");
        QTest::addColumn<QString>("cuda");
        QTest::addColumn<QString>("os");
        QTest::addColumn<int>("status");
        QTest::newRow("P100") << "P100"
                              << ""
                              << "" << int(GateStatus::Fail);
        QTest::newRow("GTX 1080") << "NVIDIA GeForce GTX 1080"
                                  << "12.4"
                                  << "linux" << int(GateStatus::Fail);
        QTest::newRow("RTX 4090") << "RTX 4090"
                                  << "12.4"
                                  << "linux" << int(GateStatus::Pass);
        QTest::newRow("V100") << "V100"
                              << "12.4"
                              << "linux" << int(GateStatus::Pass);
        QTest::newRow("CUDA 11") << "H100"
                                 << "11.8"
                                 << "linux" << int(GateStatus::Fail);
        QTest::newRow("CUDA 13") << "B200"
                                 << "13.0"
                                 << "wsl2" << int(GateStatus::Pass);
        QTest::newRow("macOS") << "A100"
                               << "12.2"
                               << "macos" << int(GateStatus::Fail);
        QTest::newRow("windows") << "A100"
                                 << ""
                                 << "windows" << int(GateStatus::Fail);
        // A known Volta+ GPU passes; what is not given is stated as assumed.
        QTest::newRow("A100 alone") << "A100"
                                    << ""
                                    << "" << int(GateStatus::Pass);
        QTest::newRow("A100 without OS") << "A100"
                                         << "12.4"
                                         << "" << int(GateStatus::Pass);
        QTest::newRow("A100 without CUDA") << "A100"
                                           << ""
                                           << "linux" << int(GateStatus::Pass);
        QTest::newRow("unknown model, nothing else") << "Quadro X9"
                                                     << ""
                                                     << "" << int(GateStatus::Uncertain);
        QTest::newRow("nothing known") << ""
                                       << ""
                                       << "" << int(GateStatus::Uncertain);
        QTest::newRow("unknown gpu") << ""
                                     << "12.4"
                                     << "linux" << int(GateStatus::Uncertain);
    }
    void hardwareGate() {
        QFETCH(QString, gpu);
        QFETCH(QString, cuda);
        QFETCH(QString, os);
        QFETCH(int, status);
        ContextInput in;
        if (!gpu.isEmpty())
            in.gpuModel = gpu;
        if (!cuda.isEmpty())
            in.cuda = cuda;
        if (!os.isEmpty())
            in.os = os;
        const Gate g = gate(run(project({}), in), 1);
        QCOMPARE(int(g.status), status);
        // An uncertain gate names what is missing.
        if (status == int(GateStatus::Uncertain) && cuda.isEmpty())
            QVERIFY2(g.reason.contains(QStringLiteral("CUDA not given (needs 12.x or 13.x)")),
                     qPrintable(g.reason));
        if (status == int(GateStatus::Uncertain) && os.isEmpty())
            QVERIFY2(g.reason.contains(QStringLiteral("OS not given (needs Linux or WSL2)")),
                     qPrintable(g.reason));
        // A pass with a value not given says what it assumed, there and in the context table.
        const Assessment a = run(project({}), in);
        auto row = [&a](const char* key) {
            for (const ContextValue& r : a.context.rows)
                if (r.key == QLatin1String(key))
                    return r;
            return ContextValue{};
        };
        if (status == int(GateStatus::Pass)) {
            QCOMPARE(g.reason.contains(QStringLiteral("CUDA 12.x assumed (not given)")),
                     cuda.isEmpty());
            QCOMPARE(g.reason.contains(QStringLiteral("Linux assumed (not given)")), os.isEmpty());
            QCOMPARE(row("cuda").value == QLatin1String("12.x (assumed)"), cuda.isEmpty());
            QCOMPARE(row("os").value == QLatin1String("Linux (assumed)"), os.isEmpty());
            QCOMPARE(row("cuda").provenance,
                     cuda.isEmpty() ? Provenance::Default : Provenance::Given);
        }
        if (status != int(GateStatus::Pass))
            QVERIFY2(!g.reason.contains(QStringLiteral("assumed")), qPrintable(g.reason));
    }

    // ---- the ordered verdict list ------------------------------------------------------------
    void rule1HardwareStopSaysWhatVoltaWouldGive() {
        ContextInput in;
        in.gpuModel = QStringLiteral("P100");
        const Assessment a = run(project({finding(QStringLiteral("R201"), Category::Refactor,
                                                  QStringLiteral("sim.py"), 5, true)},
                                         stencilEvidence()),
                                 in);
        QCOMPARE(a.verdict, Verdict::NotRecommended);
        QCOMPARE(a.decidingRule, 1);
        QVERIFY(a.verdictOnVolta.has_value());
        QCOMPARE(*a.verdictOnVolta, Verdict::LightRefactor);
        QVERIFY(a.rationale.contains(QStringLiteral("LIGHT REFACTOR")));
        QVERIFY(gate(a, 1).reason.contains(QStringLiteral("6.0")));
    }
    void rule2WrongPattern() {
        const Assessment a = run(project({}, {evidence(QStringLiteral("sparse"), 1, 1),
                                              evidence(QStringLiteral("sparse"), 9, 2, true),
                                              evidence(QStringLiteral("reduction"), 12, 2)}));
        QCOMPARE(a.context.pattern, QStringLiteral("sparse"));
        QCOMPARE(gate(a, 4).status, GateStatus::Fail);
        QCOMPARE(a.verdict, Verdict::NotRecommended);
        QCOMPARE(a.decidingRule, 2);
        QVERIFY(!a.verdictOnVolta.has_value());
    }
    void rule2BeatsRule3() {
        ContextInput in;
        in.elements = 1000;
        const Assessment a = run(project({}, {evidence(QStringLiteral("graph"), 4, 6, true)}), in);
        QCOMPARE(a.decidingRule, 2);
    }
    void rule3SizeFloorSuggestsBatching() {
        const Assessment a = run(project({}, stencilEvidence(), {hint(8192, 3)}));
        QCOMPARE(a.verdict, Verdict::NotRecommended);
        QCOMPARE(a.decidingRule, 3);
        QVERIFY2(a.rationale.contains(QStringLiteral("(128, 8192)")), qPrintable(a.rationale));
    }
    void smallIncidentalSizeIsOnlyUncertain() {
        // A bin count in a library (`def hist(x, bins=512): np.zeros(bins)`) does not state
        // the data size: Gate 2 asks for --elements instead of failing.
        const Assessment a = run(project({}, stencilEvidence(), {hint(512, 3, true, false)}));
        QCOMPARE(gate(a, 2).status, GateStatus::Uncertain);
        QVERIFY(gate(a, 2).reason.contains(QStringLiteral("--elements")));
        QVERIFY(a.decidingRule != 3);
    }
    void weakSizeHintIsOnlyUncertain() {
        // `N = 4096` used only in `h2 = 1.0 / (N * N)`: a size-named constant that sizes no
        // array and names none. It is no evidence: the size is assumed and Gate 2 uncertain,
        // never failed by a grid edge read as an element count.
        const FileResult r =
            analyzeSource(QStringLiteral("solver.py"),
                          QByteArrayLiteral("import numpy as np\n"
                                            "N = 4096\n"
                                            "h2 = 1.0 / (N * N)\n"
                                            "def step(u):\n"
                                            "    return u[1:-1, 1:-1] * h2 + u[2:, 1:-1]\n"));
        QVERIFY(r.sizeHints.isEmpty());
        const Assessment a = run(mergeFileResults(QString(), {r}), ContextInput{});
        QCOMPARE(a.context.sizeProvenance, Provenance::Default);
        QCOMPARE(gate(a, 2).status, GateStatus::Uncertain);
        QVERIFY2(gate(a, 2).reason.contains(QStringLiteral("the size is assumed")),
                 qPrintable(gate(a, 2).reason));
        QVERIFY(a.decidingRule != 3);
        QVERIFY(a.verdict != Verdict::NotRecommended);
        // A weak hint handed in (a constant not seen sizing an array) is reported, never
        // trusted to fail.
        const Assessment weak = run(project({}, stencilEvidence(), {hint(4096, 3, false, true)}));
        QCOMPARE(gate(weak, 2).status, GateStatus::Uncertain);
        QVERIFY2(gate(weak, 2).reason.contains(QStringLiteral("weak hint")),
                 qPrintable(gate(weak, 2).reason));
        // The same constant sizing an array is the data size and still fails.
        const Assessment fed = run(project({}, stencilEvidence(), {hint(4096, 3, true, true)}));
        QCOMPARE(gate(fed, 2).status, GateStatus::Fail);
        QCOMPARE(fed.decidingRule, 3);
        // A large weak hint keeps its tier but says it is unconfirmed.
        const Assessment big = run(project({}, stencilEvidence(), {hint(20'000'000, 3, false)}));
        QCOMPARE(gate(big, 2).status, GateStatus::Pass);
        QVERIFY(gate(big, 2).reason.endsWith(QStringLiteral("confirm with --elements)")));
    }
    void perGpuArrayMustFitTheCard() {
        ContextInput in;
        in.gpuModel = QStringLiteral("RTX 4090");
        in.elementsPerGpu = 10'000'000'000;
        const Assessment a = run(project({}, stencilEvidence()), in);
        QCOMPARE(a.context.gpuMemoryGiB, 24);
        QCOMPARE(gate(a, 2).status, GateStatus::Uncertain);
        const QString& why = gate(a, 2).reason;
        QVERIFY2(why.contains(QStringLiteral("10,000,000,000 elements needs 74.5 GiB per GPU, "
                                             "more than the RTX 4090's 24 GiB")),
                 qPrintable(why));
        QVERIFY2(why.contains(QStringLiteral("at least 4 GPUs")), qPrintable(why));
        QVERIFY(a.decidingRule != 3); // too big is not the small-size stop
        // Over 4 GPUs a total of 1e10 is 2.5e9 per GPU, 18.6 GiB: fits.
        ContextInput four;
        four.gpuModel = QStringLiteral("RTX 4090");
        four.elements = 10'000'000'000;
        four.gpus = 4;
        QCOMPARE(gate(run(project({}, stencilEvidence()), four), 2).status, GateStatus::Pass);
        // An 80 GiB A100 holds 74.5 GiB.
        in.gpuModel = QStringLiteral("A100");
        QCOMPARE(gate(run(project({}, stencilEvidence()), in), 2).status, GateStatus::Pass);
        // Without a known card there is nothing to check.
        in.gpuModel = QStringLiteral("Radeon VII");
        QCOMPARE(gate(run(project({}, stencilEvidence()), in), 2).status, GateStatus::Pass);
    }
    void rule3NotFromDefaults() {
        // Without any size information Gate 2 never fails.
        QVERIFY(run(project({}, stencilEvidence())).decidingRule != 3);
    }
    void rule4Mpi4pyFloor() {
        const Assessment a = run(project(
            {finding(QStringLiteral("R108"), Category::Blocks, QStringLiteral("sim.py"), 2, false)},
            stencilEvidence()));
        QCOMPARE(a.verdict, Verdict::SignificantRefactor);
        QCOMPARE(a.decidingRule, 4);
    }
    void rule5ThreeHotBlocks() {
        const Assessment a = run(project(
            {finding(QStringLiteral("R104"), Category::Blocks, QStringLiteral("sim.py"), 5, true),
             finding(QStringLiteral("R105"), Category::Blocks, QStringLiteral("sim.py"), 6, true),
             finding(QStringLiteral("R110"), Category::Blocks, QStringLiteral("sim.py"), 9, true,
                     QStringLiteral("other"))},
            stencilEvidence()));
        QCOMPARE(a.verdict, Verdict::SignificantRefactor);
        QCOMPARE(a.decidingRule, 5);
        QCOMPARE(gate(a, 3).status, GateStatus::Uncertain);
    }
    void rule6TwoHotBlocksPlusBoundary() {
        const Assessment a = run(project(
            {finding(QStringLiteral("R104"), Category::Blocks, QStringLiteral("sim.py"), 5, true),
             finding(QStringLiteral("R101"), Category::Blocks, QStringLiteral("sim.py"), 7, false),
             finding(QStringLiteral("R109"), Category::Blocks, QStringLiteral("sim.py"), 30, false),
             finding(QStringLiteral("R106"), Category::Blocks, QStringLiteral("sim.py"), 31,
                     false)},
            stencilEvidence()));
        // R101 is hot by nature: 2 hot BLOCKS sites (R101, R104) and 2 at the boundary; the
        // strided slice and the order= keyword at the boundary do not weigh as kinds.
        QCOMPARE(a.verdict, Verdict::LightRefactor);
        QCOMPARE(a.decidingRule, 6);
        QVERIFY2(a.decidingReason.contains(QStringLiteral("2 BLOCKS sites on hot paths and 2 at "
                                                          "the boundary")),
                 qPrintable(a.decidingReason));
        QCOMPARE(a.blockerKinds, (QStringList{"R101", "R104"}));
    }
    // Per site, not per call (RULES.md, the workload model item 7).
    void manyCallsInOneLoopAreOneSite() {
        QList<Finding> fs;
        for (int line : {11, 12, 14, 15})
            fs << finding(QStringLiteral("R111"), Category::Blocks, QStringLiteral("sim.py"), line,
                          true);
        QList<Finding> oneLoop = fs;
        for (Finding& f : oneLoop) {
            f.siteLine = 10;
            f.siteEndLine = 16;
        }
        const Assessment one = run(project(oneLoop, stencilEvidence()));
        QCOMPARE(one.decidingRule, 6);
        QCOMPARE(one.verdict, Verdict::LightRefactor);
        QCOMPARE(one.hotBlockerSites, 1);
        QVERIFY2(one.decidingReason.contains(QStringLiteral("1 BLOCKS site on hot paths (R111; 4 "
                                                            "findings)")),
                 qPrintable(one.decidingReason));
        // The same calls in four statements of their own are four sites.
        const Assessment four = run(project(fs, stencilEvidence()));
        QCOMPARE(four.decidingRule, 5);
        QCOMPARE(four.hotBlockerSites, 4);
    }
    void threeKindsWeighEvenWithAOneTimeAllocation() {
        const Assessment a = run(project(
            {finding(QStringLiteral("R107"), Category::Blocks, QStringLiteral("sim.py"), 3, false),
             finding(QStringLiteral("R103"), Category::Blocks, QStringLiteral("sim.py"), 8, false),
             finding(QStringLiteral("R101"), Category::Blocks, QStringLiteral("sim.py"), 12,
                     false)},
            stencilEvidence()));
        QCOMPARE(a.decidingRule, 5);
        QVERIFY2(a.decidingReason.startsWith(QStringLiteral("3 kinds of BLOCKS (R101, R103, R107) "
                                                            "at 3 sites, 2 on hot paths")),
                 qPrintable(a.decidingReason));
        // Without the object array: two kinds at two sites.
        const Assessment b = run(project(
            {finding(QStringLiteral("R103"), Category::Blocks, QStringLiteral("sim.py"), 8, false),
             finding(QStringLiteral("R101"), Category::Blocks, QStringLiteral("sim.py"), 12,
                     false)},
            stencilEvidence()));
        QCOMPARE(b.decidingRule, 6);
    }
    void verdictSaysWhatWouldChangeIt() {
        const Assessment a = run(project(
            {finding(QStringLiteral("R104"), Category::Blocks, QStringLiteral("sim.py"), 5, true)},
            stencilEvidence()));
        QCOMPARE(a.decidingRule, 6);
        QVERIFY2(a.wouldChange.contains(QStringLiteral("gives READY (rule 8)")),
                 qPrintable(a.wouldChange));
        const Assessment r = run(project({finding(QStringLiteral("R201"), Category::Refactor,
                                                  QStringLiteral("sim.py"), 5, true)},
                                         stencilEvidence()));
        QVERIFY2(r.wouldChange.startsWith(QStringLiteral("Applying the recipes at the 1 REFACTOR "
                                                         "site gives READY")),
                 qPrintable(r.wouldChange));
    }
    void unreadCodeMakesTheVerdictProvisional_data() {
        QTest::addColumn<int>("kind");
        QTest::addColumn<QString>("path");
        QTest::addColumn<int>("line");
        QTest::addColumn<QString>("message");
        QTest::addColumn<bool>("provisional");
        QTest::newRow("syntax error")
            << int(FileDiagnostic::Kind::Syntax) << "sim.py" << 7 << "unbalanced bracket" << true;
        QTest::newRow("syntax error in a test module")
            << int(FileDiagnostic::Kind::Syntax) << "tests/test_sim.py" << 7 << "unbalanced bracket"
            << false;
        QTest::newRow("unreadable file")
            << int(FileDiagnostic::Kind::Unreadable) << "sim.py" << 0 << "cannot be read" << true;
        QTest::newRow("too large")
            << int(FileDiagnostic::Kind::TooLarge) << "sim.py" << 0 << "over the limit" << true;
        QTest::newRow("parse budget") << int(FileDiagnostic::Kind::Skipped) << "sim.py" << 0
                                      << "parsing took longer than 2 s; skipped" << true;
        QTest::newRow("empty file")
            << int(FileDiagnostic::Kind::Skipped) << "sim.py" << 0
            << "file is empty (valid Python, nothing in it to assess)" << false;
        // s11 trial: a binary `.py` could not be read as Python, so it is named in the
        // provisional sentence as in the opening count; a missing PATH likewise.
        QTest::newRow("binary") << int(FileDiagnostic::Kind::Binary) << "sim.py" << 0
                                << "file contains NUL bytes" << true;
        QTest::newRow("missing path") << int(FileDiagnostic::Kind::Missing) << "sim.py" << 0
                                      << "no such file or folder; not assessed" << true;
        QTest::newRow("encoding") << int(FileDiagnostic::Kind::Encoding) << "sim.py" << 3
                                  << "decoded and assessed" << false;
    }
    void unreadCodeMakesTheVerdictProvisional() {
        QFETCH(int, kind);
        QFETCH(QString, path);
        QFETCH(int, line);
        QFETCH(QString, message);
        QFETCH(bool, provisional);
        FileResult f;
        f.path = QStringLiteral("sim.py");
        f.moduleName = QStringLiteral("sim");
        f.lines = 40;
        f.findings = {finding(QStringLiteral("R005"), Category::Scales, f.path, 6, true)};
        f.patternEvidence = stencilEvidence();
        FileResult t;
        t.path = QStringLiteral("tests/test_sim.py");
        t.moduleName = QStringLiteral("tests.test_sim");
        t.lines = 20;
        t.isTest = true;
        const FileDiagnostic d{FileDiagnostic::Kind(kind), SourceRange{path, line, 1, line, 1},
                               message};
        (path == f.path ? f : t).diagnostics << d;
        const Assessment a = run(mergeFileResults(QString(), {f, t}));
        QCOMPARE(a.provisional(), provisional);
        QCOMPARE(a.rationale.startsWith(QStringLiteral("Provisional: ")), provisional);
        QCOMPARE(a.rationale.contains(QStringLiteral("`sim.py`")), provisional);
        QCOMPARE(a.verdict, Verdict::Ready); // provisional does not change the tier
    }
    void pilotAndEntryScriptComeFromTheWorkload() {
        auto file = [](const QString& path, int scales, bool entry) {
            FileResult f;
            f.path = path;
            f.moduleName = QString(path).chopped(3).replace(QLatin1Char('/'), QLatin1Char('.'));
            f.lines = 50;
            f.isEntryScript = entry;
            for (int i = 0; i < scales; ++i)
                f.findings << finding(QStringLiteral("R001"), Category::Scales, path, 10 + i, true);
            return f;
        };
        FileResult demo = file(QStringLiteral("examples/show_grid.py"), 9, true);
        FileResult gen = file(QStringLiteral("demo_data.py"), 7, true);
        FileResult solver = file(QStringLiteral("solver.py"), 2, false);
        FileResult cli = file(QStringLiteral("cli.py"), 0, true);
        cli.imports = {QStringLiteral("solver")}; // it runs the solver: it reaches the workload
        const Assessment a = run(mergeFileResults(QString(), {demo, gen, solver, cli}));
        QCOMPARE(a.pilotModule, QStringLiteral("solver.py"));
        QCOMPARE(a.entryScript, QStringLiteral("cli.py"));
        // Only demo material: no pilot and no entry script rather than a demo.
        const Assessment d = run(mergeFileResults(QString(), {demo, gen}));
        QVERIFY(d.pilotModule.isEmpty());
        QVERIFY(d.entryScript.isEmpty());
    }
    // s11 trial: brian2's pilot core/variables.py calls numpy.asanyarray (✗) at 29 sites, so
    // swapping its import fails at once. A module without ✗ calls is the pilot, even with
    // fewer SCALES findings; when every candidate has some, the one with the fewest is, and
    // the step names them.
    void pilotPrefersModulesWithoutUnimplementedApis() {
        auto file = [](const QString& path, int scales, const QList<ApiUse>& uses) {
            FileResult f;
            f.path = path;
            f.moduleName = QString(path).chopped(3);
            f.lines = 50;
            for (int i = 0; i < scales; ++i)
                f.findings << finding(QStringLiteral("R001"), Category::Scales, path, 10 + i, true);
            for (ApiUse u : uses) {
                u.range.path = path;
                u.pathRole = PathRole::Compute;
                f.apiUses << u;
            }
            return f;
        };
        const QList<ApiUse> twoMissing = {use(QStringLiteral("numpy.asanyarray"), 30, false),
                                          use(QStringLiteral("numpy.asanyarray"), 31, false)};
        const FileResult variables = file(QStringLiteral("variables.py"), 26, twoMissing);
        const FileResult clean = file(QStringLiteral("stepper.py"), 4, {});
        const Assessment a = run(mergeFileResults(QString(), {variables, clean}));
        QCOMPARE(a.pilotModule, QStringLiteral("stepper.py"));
        QVERIFY2(!a.pilotReason.contains(QStringLiteral("✗")), qPrintable(a.pilotReason));
        // Both call ✗ APIs: the fewest sites wins, and the reason says which APIs they are.
        const FileResult oneMissing = file(QStringLiteral("stepper.py"), 4,
                                           {use(QStringLiteral("numpy.asanyarray"), 8, false)});
        const Assessment b = run(mergeFileResults(QString(), {variables, oneMissing}));
        QCOMPARE(b.pilotModule, QStringLiteral("stepper.py"));
        QVERIFY2(b.pilotReason.contains(QStringLiteral("(✗): `numpy.asanyarray` at 1 site")),
                 qPrintable(b.pilotReason));
        QVERIFY2(b.pilotReason.contains(QStringLiteral("np.asarray(x)")),
                 qPrintable(b.pilotReason));
        QVERIFY2(b.pilotReason.contains(QStringLiteral("before the swap")),
                 qPrintable(b.pilotReason));
    }
    // Issue 16 item 7: a module that only makes test or demo data is neither the pilot nor
    // Doctor's script, whether its functions say so (make_test_data.py: synthetic_field,
    // make_fake_series) or its file name does (generate_data.py); nor is a script that
    // downloads the inputs (download_inputs.py, like scipy's datasets/_download_all.py) or a
    // module of a datasets/ package (astroML's datasets/tools/sdss_fits.py was the pilot), and
    // the pilot is no plotting module either (astroML's plotting/regression.py came next).
    void pilotAndEntryScriptSkipDataGenerators() {
        const QString root = QStringLiteral(CNREADY_FIXTURES_DIR "/projects/demo_data_generator");
        const ProjectResult p = analyzeProject(scanProject({root}));
        QHash<QString, const FileResult*> files;
        for (const FileResult& f : p.files)
            files.insert(f.path, &f);
        QVERIFY(files.value(QStringLiteral("make_test_data.py")));
        QVERIFY(files.value(QStringLiteral("make_test_data.py"))->isDemoData);
        QVERIFY(files.value(QStringLiteral("make_test_data.py"))->isEntryScript);
        QVERIFY(!files.value(QStringLiteral("generate_data.py"))->isDemoData); // only its name
        QVERIFY(files.value(QStringLiteral("generate_data.py"))->isEntryScript);
        QVERIFY(!files.value(QStringLiteral("solver.py"))->isDemoData);
        QVERIFY(files.value(QStringLiteral("download_inputs.py"))->isEntryScript);
        // cli.py ranks before solver.py by name, but it reaches neither NumPy nor the project.
        QVERIFY(files.value(QStringLiteral("cli.py"))->isEntryScript);
        // The generators hold more SCALES findings than the solver: by counts alone one of
        // them would be the pilot, and download_inputs.py sorts first among the entry scripts.
        int generatorScales = 0, solverScales = 0;
        for (const Finding& f : p.findings)
            if (f.category == Category::Scales)
                ++(f.range.path == QLatin1String("solver.py") ? solverScales : generatorScales);
        QVERIFY2(generatorScales > solverScales && solverScales > 0,
                 qPrintable(QStringLiteral("%1 %2").arg(generatorScales).arg(solverScales)));
        const Assessment a = assess(p, {}, Manifest::bundled(), {});
        QCOMPARE(a.pilotModule, QStringLiteral("solver.py"));
        QCOMPARE(a.entryScript, QStringLiteral("solver.py"));
        // Only the generators: no pilot and no entry script rather than a generator.
        const ProjectResult gens = analyzeProject(
            scanProject({root + QStringLiteral("/make_test_data.py"),
                         root + QStringLiteral("/generate_data.py"),
                         root + QStringLiteral("/download_inputs.py"),
                         root + QStringLiteral("/datasets"), root + QStringLiteral("/plotting"),
                         root + QStringLiteral("/data"), root + QStringLiteral("/cli.py")}));
        const Assessment g = assess(gens, {}, Manifest::bundled(), {});
        QVERIFY2(g.pilotModule.isEmpty(), qPrintable(g.pilotModule));
        QVERIFY2(g.entryScript.isEmpty(), qPrintable(g.entryScript));
    }
    void readyIsNotPromisedWhileAGateIsOpen() {
        const ProjectResult p = project({finding(QStringLiteral("R201"), Category::Refactor,
                                                 QStringLiteral("sim.py"), 5, true)},
                                        stencilEvidence());
        const Assessment open = run(p);
        QCOMPARE(gate(open, 1).status, GateStatus::Uncertain);
        const Manifest& m = Manifest::bundled();
        QString text;
        for (const NextStep& s : recommendedSteps(ReportInput{p, open, m, QDate()}))
            if (s.kind == QLatin1String("reassess"))
                text = s.text;
        QVERIFY2(text.contains(QStringLiteral("code-level verdict (Gate 3) reaches READY")) &&
                     text.contains(QStringLiteral("Gate 1 (hardware) is uncertain, `--gpu`")),
                 qPrintable(text));
        ContextInput in;
        in.gpuModel = QStringLiteral("A100");
        in.elements = 16'000'000;
        const Assessment settled = run(p, in);
        text.clear();
        for (const NextStep& s : recommendedSteps(ReportInput{p, settled, m, QDate()}))
            if (s.kind == QLatin1String("reassess"))
                text = s.text;
        QCOMPARE(text, QStringLiteral("Run `cnready assess` again after the rewrites and confirm "
                                      "the verdict reaches READY."));
    }
    void elementLoopsCountAsHot() {
        const Assessment a = run(project(
            {finding(QStringLiteral("R101"), Category::Blocks, QStringLiteral("sim.py"), 5, false),
             finding(QStringLiteral("R102"), Category::Blocks, QStringLiteral("sim.py"), 6, false),
             finding(QStringLiteral("R103"), Category::Blocks, QStringLiteral("sim.py"), 9, false)},
            stencilEvidence()));
        QCOMPARE(a.decidingRule, 5);
    }
    void rule7RefactorOnly() {
        const Assessment a = run(project(
            {finding(QStringLiteral("R201"), Category::Refactor, QStringLiteral("sim.py"), 5, true),
             finding(QStringLiteral("R001"), Category::Scales, QStringLiteral("sim.py"), 6, true)},
            stencilEvidence()));
        QCOMPARE(a.verdict, Verdict::LightRefactor);
        QCOMPARE(a.decidingRule, 7);
    }
    void rule8Ready() {
        const Assessment a = run(project(
            {finding(QStringLiteral("R005"), Category::Scales, QStringLiteral("sim.py"), 6, true),
             finding(QStringLiteral("R301"), Category::Info, QStringLiteral("sim.py"), 2, false)},
            stencilEvidence()));
        QCOMPARE(a.verdict, Verdict::Ready);
        QCOMPARE(a.decidingRule, 8);
        QVERIFY(a.demotions.isEmpty());
    }

    // ---- rule 9 and API gaps ----------------------------------------------------------------
    void missingApiOnHotPathDemotes() {
        const Assessment a =
            run(project({}, stencilEvidence(), {}, {use(QStringLiteral("numpy.std"), 8, true)}));
        QCOMPARE(a.verdictBeforeDemotion, Verdict::Ready);
        QCOMPARE(a.verdict, Verdict::LightRefactor);
        QCOMPARE(a.decidingRule, 8);
        QCOMPARE(a.demotions.size(), 1);
        QCOMPARE(a.apiGaps.size(), 1);
        QCOMPARE(a.apiGaps[0].support, Support::Missing);
        QVERIFY(a.apiGaps[0].material);
        QCOMPARE(a.apiGaps[0].rewrite, QStringLiteral("np.sqrt(np.var(x, axis=...))"));
    }
    void missingApiOnComputePathDemotesOutsideLoops() {
        // Issue 16 item 3: since cuPyNumeric 26.06 a ✗ API raises AttributeError, so a call on
        // the compute path stops the port wherever it sits, loop or not.
        const Assessment a =
            run(project({}, stencilEvidence(), {}, {use(QStringLiteral("numpy.std"), 8, false)}));
        QCOMPARE(a.apiGaps.size(), 1);
        QVERIFY(!a.apiGaps[0].onHotPath);
        QVERIFY(a.apiGaps[0].onComputePath);
        QVERIFY(a.apiGaps[0].material);
        QCOMPARE(a.verdict, Verdict::LightRefactor);
        QVERIFY2(a.demotions.value(0).contains(QStringLiteral("compute path")),
                 qPrintable(a.demotions.value(0)));
    }
    void missingApiOffComputePathIsListedOnly() {
        // The same API in a plotting helper, in a loop: listed with the fix, no demotion.
        ApiUse u = use(QStringLiteral("numpy.std"), 8, true);
        u.pathRole = PathRole::Plotting;
        const Assessment a = run(project({}, stencilEvidence(), {}, {u}));
        QCOMPARE(a.apiGaps.size(), 1);
        QVERIFY(!a.apiGaps[0].onComputePath);
        QVERIFY(!a.apiGaps[0].onHotPath);
        QVERIFY(!a.apiGaps[0].material);
        QCOMPARE(a.verdict, Verdict::Ready);
        QVERIFY(a.demotions.isEmpty());
    }
    void nonComputeApisDoNotDemote() {
        // np.result_type and np.errstate on a hot path are ✗ in the manifest but do no array
        // work: listed, not material, no demotion.
        const Assessment a = run(project({}, stencilEvidence(), {},
                                         {use(QStringLiteral("numpy.result_type"), 5, true),
                                          use(QStringLiteral("numpy.errstate"), 6, true),
                                          use(QStringLiteral("numpy.intc"), 7, true)}));
        QCOMPARE(a.apiGaps.size(), 3);
        for (const ApiGap& g : a.apiGaps) {
            QCOMPARE(g.support, Support::Missing);
            QVERIFY(g.onHotPath);
            QVERIFY2(!g.material, qPrintable(g.name));
        }
        QCOMPARE(a.apiGaps[0].name, QStringLiteral("numpy.errstate"));
        QCOMPARE(a.apiGaps[0].nonCompute, QStringLiteral("an interpreter setting"));
        QCOMPARE(a.apiGaps[1].nonCompute, QStringLiteral("a dtype name"));
        QCOMPARE(a.apiGaps[2].nonCompute, QStringLiteral("a dtype query"));
        QCOMPARE(a.verdict, Verdict::Ready);
        QVERIFY(a.demotions.isEmpty());
        // Real gaps still demote: extended precision is not a mere alias, and a ✗ compute API
        // next to the exempt ones decides.
        const Assessment b = run(project({}, stencilEvidence(), {},
                                         {use(QStringLiteral("numpy.result_type"), 5, true),
                                          use(QStringLiteral("numpy.longdouble"), 6, true)}));
        QCOMPARE(b.verdict, Verdict::LightRefactor);
        QCOMPARE(b.demotions.size(), 1);
        QVERIFY2(b.demotions[0].contains(QStringLiteral("numpy.longdouble")) &&
                     !b.demotions[0].contains(QStringLiteral("result_type")),
                 qPrintable(b.demotions[0]));
    }
    void nonComputeNamesAreMissingInTheManifest() {
        // Every exempt name must be one the bundled manifest marks ✗; a name it lists as
        // supported or drops entirely would make the exemption list stale.
        const Manifest& m = Manifest::bundled();
        const QStringList names = {
            QStringLiteral("numpy.result_type"),     QStringLiteral("numpy.errstate"),
            QStringLiteral("numpy.seterr"),          QStringLiteral("numpy.printoptions"),
            QStringLiteral("numpy.issubdtype"),      QStringLiteral("numpy.promote_types"),
            QStringLiteral("numpy.can_cast"),        QStringLiteral("numpy.get_printoptions"),
            QStringLiteral("numpy.min_scalar_type"), QStringLiteral("numpy.intc")};
        for (const QString& n : names) {
            QCOMPARE(m.lookup(n), Support::Missing);
            const Assessment a = run(project({}, stencilEvidence(), {}, {use(n, 5, true)}));
            QCOMPARE(a.apiGaps.size(), 1);
            QVERIFY2(!a.apiGaps[0].nonCompute.isEmpty() && !a.apiGaps[0].material, qPrintable(n));
        }
    }
    void missingApiAtBoundaryIsListedOnly() {
        // A writer's call is off the compute path (the model gives np.savetxt the I/O role).
        ApiUse u = use(QStringLiteral("numpy.savetxt"), 40, false);
        u.pathRole = PathRole::InputOutput;
        const Assessment a = run(project({}, stencilEvidence(), {}, {u}));
        QCOMPARE(a.verdict, Verdict::Ready);
        QCOMPARE(a.apiGaps.size(), 1);
        QVERIFY(!a.apiGaps[0].material);
    }
    void demotionStopsAtSignificant() {
        const Assessment a = run(project(
            {finding(QStringLiteral("R108"), Category::Blocks, QStringLiteral("sim.py"), 2, false)},
            stencilEvidence(), {}, {use(QStringLiteral("numpy.std"), 8, true)}));
        QCOMPARE(a.verdict, Verdict::SignificantRefactor);
        QCOMPARE(a.demotions.size(), 1);
        QVERIFY(a.demotions[0].contains(QStringLiteral("never demoted further")));
    }
    void unlistedApiIsSilent() {
        const Assessment a =
            run(project({}, stencilEvidence(), {},
                        {use(QStringLiteral("numpy.lib.stride_tricks.as_strided"), 8, true),
                         use(QStringLiteral("numpy.sum"), 9, true)}));
        QVERIFY(a.apiGaps.isEmpty());
        QCOMPARE(a.verdict, Verdict::Ready);
    }
    void singleGpuApiMattersOnlyMultiNode() {
        const ProjectResult p =
            project({}, stencilEvidence(), {}, {use(QStringLiteral("numpy.linalg.inv"), 8, true)});
        const Assessment one = run(p);
        QCOMPARE(one.apiGaps.size(), 1);
        QCOMPARE(one.apiGaps[0].support, Support::Single);
        QVERIFY(!one.apiGaps[0].material);
        QCOMPARE(one.verdict, Verdict::Ready);
        ContextInput in;
        in.nodes = 2;
        const Assessment two = run(p, in);
        QVERIFY(two.apiGaps[0].material);
        QCOMPARE(two.verdict, Verdict::LightRefactor);
    }
    void cupynumericNamesAreNormalized() {
        const Assessment a = run(
            project({}, stencilEvidence(), {}, {use(QStringLiteral("cupynumeric.std"), 8, true)}));
        QCOMPARE(a.apiGaps.value(0).name, QStringLiteral("numpy.std"));
    }
    void partialApiIsListedWithNote() {
        const Assessment a = run(
            project({}, stencilEvidence(), {}, {use(QStringLiteral("numpy.fft.fft"), 8, true)}));
        QCOMPARE(a.apiGaps.size(), 1);
        QCOMPARE(a.apiGaps[0].support, Support::Partial);
        QVERIFY(!a.apiGaps[0].note.isEmpty());
        QCOMPARE(a.verdict, Verdict::Ready);
    }

    // ---- R304 ---------------------------------------------------------------------------------
    void rngNotesOnlyForMultiGpu() {
        const ProjectResult p = project(
            {finding(QStringLiteral("R304"), Category::Info, QStringLiteral("sim.py"), 3, false)},
            stencilEvidence());
        const Assessment one = run(p);
        QCOMPARE(one.findings.size(), 0);
        QCOMPARE(one.droppedRngFindings, 1);
        ContextInput in;
        in.gpus = 2;
        const Assessment two = run(p, in);
        QCOMPARE(two.findings.size(), 1);
        QCOMPARE(two.droppedRngFindings, 0);
        ContextInput nodes;
        nodes.nodes = 2;
        QCOMPARE(run(p, nodes).findings.size(), 1);
    }

    // ---- pattern inference ----------------------------------------------------------------------
    void oneSparseImportDoesNotDominate() {
        const ProjectResult p = project({}, {evidence(QStringLiteral("sparse"), 1, 1),
                                             evidence(QStringLiteral("stencil"), 10, 3, true),
                                             evidence(QStringLiteral("stencil"), 20, 3, true),
                                             evidence(QStringLiteral("reduction"), 22, 2)});
        QCOMPARE(inferPattern(p), QStringLiteral("stencil"));
    }
    void oneIncidentalFailingLineDoesNotDecide() {
        // numexpr: one `re.match` in a loop of cpuinfo.py (string, hot: 2 x 2 = 4) against one
        // elementwise call (2). The lone string line outscores the array line but says nothing
        // about the workload.
        const ProjectResult p = project(
            {}, {evidence(QStringLiteral("string"), 562, 2, true, QStringLiteral("cpuinfo.py")),
                 evidence(QStringLiteral("elementwise"), 40, 2)});
        QString why;
        QCOMPARE(inferPattern(p, nullptr, &why), QStringLiteral("elementwise"));
        QVERIFY2(why.contains(QStringLiteral("string processing / NLP rests on one line of 2 "
                                             "(`cpuinfo.py:562` string line, in a loop)")),
                 qPrintable(why));
        const Assessment a = run(p);
        QCOMPARE(gate(a, 4).status, GateStatus::Pass);
        QVERIFY2(gate(a, 4).reason.contains(QStringLiteral("set aside")),
                 qPrintable(gate(a, 4).reason));
        QVERIFY(a.verdict != Verdict::NotRecommended);
        // Two such lines are a pattern, not an accident: string still wins and fails the gate.
        const ProjectResult two = project({}, {evidence(QStringLiteral("string"), 562, 2, true),
                                               evidence(QStringLiteral("string"), 570, 2, true),
                                               evidence(QStringLiteral("elementwise"), 40, 2)});
        QString none;
        QCOMPARE(inferPattern(two, nullptr, &none), QStringLiteral("string"));
        QVERIFY(none.isEmpty());
        QCOMPARE(gate(run(two), 4).status, GateStatus::Fail);
        // One whole-algorithm shape (a recurrence loop) is enough on its own.
        const ProjectResult rec = project({}, {evidence(QStringLiteral("sequential"), 9, 6),
                                               evidence(QStringLiteral("elementwise"), 40, 2)});
        QCOMPARE(inferPattern(rec), QStringLiteral("sequential"));
        // Setting thin evidence aside that would not have changed the answer is not mentioned.
        QString quiet;
        inferPattern(project({}, {evidence(QStringLiteral("string"), 5, 2),
                                  evidence(QStringLiteral("stencil"), 10, 3, true)}),
                     nullptr, &quiet);
        QVERIFY(quiet.isEmpty());
    }
    void incidentalRegexFromSource() {
        // The numexpr shape from source: a regex over text lines in a loop next to array math.
        const FileResult r =
            analyzeSource(QStringLiteral("cpuinfo.py"),
                          QByteArrayLiteral("import re\n"
                                            "import numpy as np\n"
                                            "def flags(lines):\n"
                                            "    out = []\n"
                                            "    for line in lines:\n"
                                            "        m = re.match(r'(\\w+)\\s*:\\s*(.*)', line)\n"
                                            "        out.append(m)\n"
                                            "    return out\n"
                                            "def scale(x):\n"
                                            "    return np.exp(x) * 2.0\n"));
        QStringList patterns;
        for (const PatternEvidence& e : r.patternEvidence)
            patterns << e.pattern;
        QVERIFY2(patterns.contains(QStringLiteral("string")), qPrintable(patterns.join(',')));
        const Assessment a = run(mergeFileResults(QString(), {r}));
        QVERIFY2(a.context.pattern != QLatin1String("string"), qPrintable(a.context.pattern));
        QVERIFY(gate(a, 4).status != GateStatus::Fail);
    }
    void configParserBesideArrayCodeIsNotTheWorkload() {
        // The new user's repro: a vectorised stencil solver plus a regex config parser in a
        // file that never imports NumPy. The parser's regex loop is off the array path.
        const QByteArray config("import re\n"
                                "def parse(text):\n"
                                "    out = {}\n"
                                "    for line in text.splitlines():\n"
                                "        if re.match(r'\\s*#', line):\n"
                                "            continue\n"
                                "        for tok in re.findall(r'\\$\\{(\\w+)\\}', line):\n"
                                "            out.setdefault(tok, None)\n"
                                "        line = re.sub(r'\\s+', ' ', line)\n"
                                "        parts = re.split(',', line)\n"
                                "    return out\n");
        const QByteArray solver("import numpy as np\n"
                                "def step(u, a):\n"
                                "    lap = u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] - 4 * "
                                "u[1:-1, 1:-1]\n"
                                "    u[1:-1, 1:-1] += a * lap\n"
                                "    return u\n"
                                "def stats(x):\n"
                                "    return (x - x.mean()) / x.std()\n"
                                "def total(x):\n"
                                "    return float(x.sum())\n"
                                "def gemm(a, b):\n"
                                "    return a @ b\n");
        const FileResult c = analyzeSource(QStringLiteral("config.py"), config);
        const FileResult s = analyzeSource(QStringLiteral("solver.py"), solver);
        QString why;
        const ProjectResult p = mergeFileResults(QString(), {c, s});
        const QString chosen = inferPattern(p, nullptr, &why);
        QVERIFY2(chosen != QLatin1String("string") && chosen != QLatin1String("scipy-mixed"),
                 qPrintable(chosen));
        QVERIFY2(why.contains(QStringLiteral("comes only from files that never import NumPy "
                                             "(`config.py:5` re.match; score 8 against array "
                                             "work")),
                 qPrintable(why));
        QCOMPARE(gate(run(p), 4).status, GateStatus::Pass);
        // The same parser inside the NumPy module is text work of the array program: it counts
        // (doubled in its loop) and fails the gate, as before.
        const FileResult both = analyzeSource(QStringLiteral("solver.py"), solver + config);
        QCOMPARE(inferPattern(mergeFileResults(QString(), {both})), QStringLiteral("string"));
        // A tokenizer without NumPy feeding a few small NumPy steps: the text work outweighs
        // the array work, so it still names the workload.
        const FileResult feats = analyzeSource(QStringLiteral("features.py"),
                                               QByteArrayLiteral("import numpy as np\n"
                                                                 "def weights(counts):\n"
                                                                 "    return np.log(counts)\n"));
        // Text work in a NumPy file as well (pythran's spec.py beside its regex passes): the
        // files without NumPy are part of the same text workload and count (8 + 8 >= 16).
        const FileResult spec = analyzeSource(
            QStringLiteral("spec.py"), QByteArrayLiteral("import re\n"
                                                         "import numpy\n"
                                                         "def read(lines):\n"
                                                         "    for l in lines:\n"
                                                         "        if re.match('#', l):\n"
                                                         "            l = re.sub('#', '', l)\n"));
        QString none;
        QCOMPARE(inferPattern(mergeFileResults(QString(), {c, s, spec}), nullptr, &none),
                 QStringLiteral("string"));
        QVERIFY2(none.isEmpty(), qPrintable(none));
        const Assessment nlp = run(mergeFileResults(QString(), {c, feats}));
        QCOMPARE(nlp.context.pattern, QStringLiteral("string"));
        QCOMPARE(gate(nlp, 4).status, GateStatus::Fail);
    }
    void numpyOnPythonNumbersIsNoArrayWork() {
        // imageio's _tifffile.unpack_rgb: numpy.sum over a tuple of bit counts (5, 6, 5).
        const FileResult r =
            analyzeSource(QStringLiteral("tif.py"),
                          QByteArrayLiteral("import numpy\n"
                                            "def unpack(data, bps=(5, 6, 5)):\n"
                                            "    bits = int(numpy.sum(bps))\n"
                                            "    for i, b in enumerate(bps):\n"
                                            "        t = data >> int(numpy.sum(bps[i+1:]))\n"
                                            "    return numpy.sum((1, -2, 3.0)) + bits\n"
                                            "def widths():\n"
                                            "    w = [8, 8, 8]\n"
                                            "    return numpy.max(w)\n"
                                            "def total(x):\n"
                                            "    return numpy.sum(x)\n"
                                            "def both(a, b):\n"
                                            "    return numpy.sum([a, b], axis=0)\n"
                                            "def rebound(x):\n"
                                            "    s = (1, 2)\n"
                                            "    s = x * 2\n"
                                            "    return numpy.sum(s)\n"
                                            "def given(s=(1, 2)):\n"
                                            "    s = numpy.asarray(s)\n"
                                            "    return numpy.mean(s)\n"));
        QList<int> lines;
        for (const PatternEvidence& e : r.patternEvidence)
            if (e.pattern == QLatin1String("reduction"))
                lines << e.range.line;
        // Counted: an unknown parameter, a list of arrays, a name rebound to an array.
        QCOMPARE(lines, (QList<int>{11, 13, 17, 20}));
    }
    void hotPathLabelSaysWhyAFindingIsHot() {
        // A module-level np.vectorize (R102) is hot by nature; its API-gap call site is not.
        Finding vec = finding(QStringLiteral("R102"), Category::Blocks, QStringLiteral("p.py"), 21,
                              false, QString());
        QCOMPARE(hotPathLabel(vec), QStringLiteral("yes (per element)"));
        vec.hot = true;
        QCOMPARE(hotPathLabel(vec), QStringLiteral("yes"));
        QCOMPARE(hotPathLabel(finding(QStringLiteral("R104"), Category::Blocks,
                                      QStringLiteral("p.py"), 3, false)),
                 QStringLiteral("no"));
    }
    void mixedWhenScipyIsHeavy() {
        const ProjectResult p = project({}, {evidence(QStringLiteral("scipy-mixed"), 1, 2, true),
                                             evidence(QStringLiteral("scipy-mixed"), 2, 2),
                                             evidence(QStringLiteral("reduction"), 22, 2, true)});
        QCOMPARE(inferPattern(p), QStringLiteral("scipy-mixed"));
        QCOMPARE(gate(run(p), 4).status, GateStatus::Uncertain);
    }
    void noEvidenceNoPattern() {
        QCOMPARE(inferPattern(project({})), QString());
        QCOMPARE(gate(run(project({})), 4).status, GateStatus::Uncertain);
    }
    void givenPatternWins() {
        ContextInput in;
        in.pattern = QStringLiteral("graph");
        const Assessment a = run(project({}, stencilEvidence()), in);
        QCOMPARE(a.context.patternProvenance, Provenance::Given);
        QCOMPARE(a.decidingRule, 2);
    }

    // ---- evidence from source
    // ----------------------------------------------------------------------
    void sizeFromModuleConstantThroughDefault() {
        const FileResult r = analyzeSource(QStringLiteral("sig.py"),
                                           QByteArrayLiteral("import numpy as np\n"
                                                             "N_SAMPLES = 16_000_000\n"
                                                             "def make(n=N_SAMPLES):\n"
                                                             "    return np.linspace(0, 1, n)\n"));
        QCOMPARE(r.sizeHints.size(), 1);
        QCOMPARE(r.sizeHints[0].elements, 16'000'000);
        QVERIFY(r.sizeHints[0].feedsArray);
        QCOMPARE(r.sizeHints[0].range.line, 4);
        QVERIFY2(
            r.sizeHints[0].expression.contains(QStringLiteral("N_SAMPLES = 16_000_000 (line 2)")),
            qPrintable(r.sizeHints[0].expression));
    }
    void sizeFromCallSiteAndGrid() {
        const FileResult r =
            analyzeSource(QStringLiteral("grid.py"),
                          QByteArrayLiteral("import numpy as np\n"
                                            "EDGE = 1 << 14\n"
                                            "def field(n):\n"
                                            "    return np.zeros((n, n), dtype=np.float32)\n"
                                            "u = field(EDGE)\n"
                                            "v = np.random.rand(int(1e6))\n"
                                            "def run():\n"
                                            "    return np.random.rand(int(1e6)) + u\n"));
        // The module-level draw is one-time set-up: no evidence; the same draw in run() is.
        QList<qint64> sizes;
        for (const SizeHint& h : r.sizeHints)
            sizes << h.elements;
        std::sort(sizes.begin(), sizes.end());
        QCOMPARE(sizes, (QList<qint64>{1'000'000, 16384LL * 16384}));
        for (const SizeHint& h : r.sizeHints)
            QVERIFY(h.range.line != 6);
    }
    void sizeOriginsKeepTheirOrderAcrossFunctions() {
        // `q` comes from the caller's environment, which an earlier NumPy call (`np.sum` in
        // X, called from G) already needed; `m` is F's own default. The expression lists the
        // definitions in the order the collector first met them, whichever environment it
        // builds first now.
        const FileResult r = analyzeSource(QStringLiteral("order.py"),
                                           QByteArrayLiteral("import numpy as np\n"
                                                             "def X(a):\n"
                                                             "    return np.sum(a)\n"
                                                             "def G():\n"
                                                             "    q = 300\n"
                                                             "    X(q)\n"
                                                             "    F(n=q)\n"
                                                             "def F(m=5, *, n):\n"
                                                             "    return np.zeros((m, n))\n"));
        QCOMPARE(r.sizeHints.size(), 1);
        QCOMPARE(r.sizeHints[0].elements, 1500);
        QCOMPARE(r.sizeHints[0].expression,
                 QStringLiteral("np.zeros((m, n)) with q = 300 (line 5); m=5 (line 8)"));
    }
    void frameConstant() {
        const FileResult r =
            analyzeSource(QStringLiteral("frames.py"),
                          QByteArrayLiteral("import numpy as np\n"
                                            "FRAME_SIZE = 8192\n"
                                            "rng = np.random.default_rng(0)\n"
                                            "def frame():\n"
                                            "    return rng.standard_normal(FRAME_SIZE)\n"));
        QCOMPARE(r.sizeHints.size(), 1);
        QCOMPARE(r.sizeHints[0].elements, 8192);
        QVERIFY(r.sizeHints[0].sizeNamed);
        const FileResult bins = analyzeSource(QStringLiteral("hist.py"),
                                              QByteArrayLiteral("import numpy as np\n"
                                                                "def hist(x, bins=512):\n"
                                                                "    return np.zeros(bins)\n"));
        QCOMPARE(bins.sizeHints.size(), 1);
        QVERIFY(!bins.sizeHints[0].sizeNamed);
        // A size-like parameter default is a library knob (pandas' plotting `samples: int =
        // 200` once sank the whole package in Gate 2), unlike a local size-named constant.
        const FileResult knob =
            analyzeSource(QStringLiteral("curves.py"),
                          QByteArrayLiteral("import numpy as np\n"
                                            "def curve(frame, samples: int = 200):\n"
                                            "    t = np.linspace(-np.pi, np.pi, samples)\n"
                                            "    return t\n"
                                            "def main():\n"
                                            "    n_samples = 200\n"
                                            "    return np.zeros(n_samples)\n"));
        QCOMPARE(knob.sizeHints.size(), 2);
        QCOMPARE(knob.sizeHints[0].range.line, 3);
        QVERIFY(!knob.sizeHints[0].sizeNamed);
        QCOMPARE(knob.sizeHints[1].range.line, 7);
        QVERIFY(knob.sizeHints[1].sizeNamed);
    }
    // ---- Gate 2 size evidence: data arrays on the compute path only ---------------------
    void demoPlotMainAndTestSizesAreNoEvidence() {
        // Every size in the project is a demo generator's, a plot's, the `__main__` block's or
        // a test's; the library itself works on whatever its callers pass.
        const Assessment a = runFixture(QStringLiteral("size_demo_only"));
        QCOMPARE(a.context.sizeProvenance, Provenance::Default);
        QCOMPARE(a.context.totalElements, kDefaultElements);
        QCOMPARE(gate(a, 2).status, GateStatus::Uncertain);
        QVERIFY2(gate(a, 2).reason.contains(QStringLiteral("the size is assumed")),
                 qPrintable(gate(a, 2).reason));
        QVERIFY2(a.context.rows.at(0).evidence.startsWith(QStringLiteral("assumed:")),
                 qPrintable(a.context.rows.at(0).evidence));
    }
    void constantNamedAfterAnArrayParameterSizesIt() {
        // BLOCK_LEN sizes no constructor, but names `block`, which block_power() hands to
        // NumPy; the bigger constant only sizes a demo recording.
        const Assessment a = runFixture(QStringLiteral("size_block_by_name"));
        QCOMPARE(a.context.sizeProvenance, Provenance::Inferred);
        QCOMPARE(a.context.totalElements, 16'777'216);
        QVERIFY(a.context.sizeFeedsArray);
        QCOMPARE(a.context.sizeEvidence,
                 QStringLiteral("`blocks.py:4` BLOCK_LEN = 1 << 24, which sizes parameter "
                                "`block` of `block_power`"));
        QCOMPARE(gate(a, 2).status, GateStatus::Pass);
        QCOMPARE(gate(a, 2).reason,
                 QStringLiteral("16,777,216 elements per GPU: 10M–100M beats NumPy on a single "
                                "GPU"));
    }
    void meshgridOfTwoVectorsIsTheirProduct() {
        const Assessment a = runFixture(QStringLiteral("size_meshgrid_grid"));
        QCOMPARE(a.context.sizeProvenance, Provenance::Inferred);
        QCOMPARE(a.context.totalElements, 4096LL * 4096);
        QVERIFY2(a.context.sizeEvidence.contains(
                     QStringLiteral("np.meshgrid(x, y) with NX = 4096 (line 4); NY = 4096 "
                                    "(line 5)")),
                 qPrintable(a.context.sizeEvidence));
        QCOMPARE(gate(a, 2).status, GateStatus::Pass);
    }
    void computeArraySizedByAConstantStillFailsTheFloor() {
        const Assessment a = runFixture(QStringLiteral("size_floor_frames"));
        QCOMPARE(a.context.totalElements, 8192);
        QCOMPARE(gate(a, 2).status, GateStatus::Fail);
    }
    void rowsOfThreeAreThreeTimesTheRows() {
        const FileResult r = analyzeSource(QStringLiteral("bodies.py"),
                                           QByteArrayLiteral("import numpy as np\n"
                                                             "N_BODIES = 100_000\n"
                                                             "def advance(dt):\n"
                                                             "    pos = np.zeros((N_BODIES, 3))\n"
                                                             "    return pos + dt\n"));
        QCOMPARE(r.sizeHints.size(), 1);
        QCOMPARE(r.sizeHints[0].elements, 300'000);
        QVERIFY(r.sizeHints[0].sizeNamed);
    }
    void unlinkedSizeNamedConstantIsNoEvidence() {
        // A size-named constant nothing is sized by (`N_STEPS` counts steps) gives no hint.
        const FileResult r = analyzeSource(QStringLiteral("run.py"),
                                           QByteArrayLiteral("import numpy as np\n"
                                                             "N_STEPS = 100_000\n"
                                                             "def run(u):\n"
                                                             "    for _ in range(N_STEPS):\n"
                                                             "        u = u * 0.5\n"
                                                             "    return np.sum(u)\n"));
        QVERIFY(r.sizeHints.isEmpty());
    }
    void unevaluableSizesAreSkipped() {
        const FileResult r =
            analyzeSource(QStringLiteral("x.py"), QByteArrayLiteral("import numpy as np\n"
                                                                    "def f(a):\n"
                                                                    "    n = a.shape[0]\n"
                                                                    "    return np.zeros(n)\n"));
        QVERIFY(r.sizeHints.isEmpty());
    }
    void patternEvidenceKinds() {
        const FileResult r = analyzeSource(
            QStringLiteral("mix.py"), QByteArrayLiteral("import numpy as np\n"
                                                        "import scipy.sparse as sp\n"
                                                        "from collections import deque\n"
                                                        "def bfs(adj, start):\n"
                                                        "    seen = {start}\n"
                                                        "    q = deque([start])\n"
                                                        "    while q:\n"
                                                        "        node = q.popleft()\n"
                                                        "        for nb in adj[node]:\n"
                                                        "            if nb not in seen:\n"
                                                        "                seen.add(nb)\n"
                                                        "                q.append(nb)\n"
                                                        "def iir(x, a, b):\n"
                                                        "    y = np.zeros_like(x)\n"
                                                        "    for n in range(1, len(x)):\n"
                                                        "        y[n] = b * x[n] - a * y[n - 1]\n"
                                                        "    return y\n"
                                                        "def running(x):\n"
                                                        "    c = np.zeros_like(x)\n"
                                                        "    for i in range(1, len(x)):\n"
                                                        "        c[i] = c[i - 1] + x[i]\n"
                                                        "    return c\n"
                                                        "m = sp.csr_matrix((3, 3))\n"));
        QMap<QString, int> byPattern;
        for (const PatternEvidence& e : r.patternEvidence)
            byPattern[e.pattern] += 1;
        QCOMPARE(byPattern.value(QStringLiteral("graph")), 1);
        QCOMPARE(byPattern.value(QStringLiteral("sequential")), 1);
        QCOMPARE(byPattern.value(QStringLiteral("sparse")), 2);     // import + call
        QVERIFY(byPattern.value(QStringLiteral("reduction")) >= 1); // the running sum is a scan
        for (const PatternEvidence& e : r.patternEvidence)
            if (e.pattern == QLatin1String("sequential")) {
                QCOMPARE(e.range.line, 16);
                QCOMPARE(e.weight, 6);
                QVERIFY(e.hot);
            }
    }
    void recurrenceNeedsScalarSteps() {
        // Gate 4 judges a recurrence by one step: a step over whole slabs (a recurrent cell over
        // the columns of a state matrix) is a vectorized time loop, not a sequential one; an
        // element loop whose passes are independent is elementwise work.
        const FileResult r =
            analyzeSource(QStringLiteral("steps.py"),
                          QByteArrayLiteral("import numpy as np\n"
                                            "def cell(h, w, steps):\n"
                                            "    for t in range(1, steps):\n"
                                            "        h[:, t] = np.tanh(w @ h[:, t - 1])\n"
                                            "    return h\n"
                                            "def scale(x: np.ndarray, y: np.ndarray):\n"
                                            "    for i in range(len(x)):\n"
                                            "        y[i] = 3.0 * x[i]\n"
                                            "    return y\n"
                                            "def decay(x: np.ndarray, a: float):\n"
                                            "    y = np.zeros_like(x)\n"
                                            "    for n in range(1, len(x)):\n"
                                            "        y[n] = x[n] - a * y[n - 1]\n"
                                            "    return y\n"));
        QStringList sequential, elementwise;
        for (const PatternEvidence& e : r.patternEvidence) {
            if (e.pattern == QLatin1String("sequential"))
                sequential << QString::number(e.range.line);
            if (e.pattern == QLatin1String("elementwise") &&
                e.note.contains(QLatin1String("element loop")))
                elementwise << QString::number(e.range.line);
        }
        QCOMPARE(sequential, QStringList{QStringLiteral("13")});
        QCOMPARE(elementwise, QStringList{QStringLiteral("8")});
    }
    void sklearnEstimatorIsMl() {
        const FileResult r =
            analyzeSource(QStringLiteral("ml.py"),
                          QByteArrayLiteral("from sklearn.linear_model import LogisticRegression\n"
                                            "from sklearn.preprocessing import StandardScaler\n"
                                            "clf = LogisticRegression()\n"
                                            "clf.fit(X, y)\n"));
        QStringList ml, mixed;
        for (const PatternEvidence& e : r.patternEvidence)
            (e.pattern == QLatin1String("ml") ? ml : mixed) << QString::number(e.range.line);
        QCOMPARE(ml, (QStringList{"1", "3", "4"}));
        QCOMPARE(mixed, (QStringList{"2"}));
    }
    void metadataAttributesAreNoTouchpoints() {
        // numba/__init__.py:158 reads SciPy's version string: no boundary crossing, no SciPy
        // workload. A real SciPy call beside it still counts for both gates.
        const FileResult r = analyzeSource(
            QStringLiteral("deps.py"),
            QByteArrayLiteral("import scipy\n"
                              "import scipy.linalg\n"
                              "import numpy as np\n"
                              "def check():\n"
                              "    v = tuple(map(int, scipy.__version__.split('.')[:2]))\n"
                              "    here = np.__file__.rsplit('/', 1)\n"
                              "    return v, here\n"
                              "def solve(a, b):\n"
                              "    return scipy.linalg.solve(a, b)\n"));
        QStringList touch, ev;
        for (const HostTouchpoint& t : r.touchpoints)
            touch << QStringLiteral("%1:%2").arg(t.kind).arg(t.range.line);
        for (const PatternEvidence& e : r.patternEvidence)
            if (e.range.line > 3)
                ev << QStringLiteral("%1:%2").arg(e.pattern).arg(e.range.line);
        QCOMPARE(touch, QStringList{QStringLiteral("scipy:9")});
        QCOMPARE(ev, QStringList{QStringLiteral("scipy-mixed:9")});
    }
    void touchpointsAndReadiness() {
        const FileResult r = analyzeSource(QStringLiteral("io.py"),
                                           QByteArrayLiteral("import numpy as np\n"
                                                             "import pandas as pd\n"
                                                             "df = pd.read_csv('x.csv')\n"
                                                             "for k in range(3):\n"
                                                             "    print(k)\n"
                                                             "np.save('out.npy', df.values)\n"));
        QStringList kinds;
        for (const HostTouchpoint& t : r.touchpoints)
            kinds << QStringLiteral("%1@%2%3").arg(t.kind).arg(t.range.line).arg(t.hot ? "h" : "");
        QCOMPARE(kinds, (QStringList{"pandas@3", "logging@5h", "io@6"}));
        const FileResult t = analyzeSource(
            QStringLiteral("tests/test_io.py"),
            QByteArrayLiteral("import numpy as np\n"
                              "def test_x():\n"
                              "    np.testing.assert_allclose(np.ones(3), np.ones(3))\n"));
        QCOMPARE(t.readiness.size(), 1);
        QCOMPARE(t.readiness[0].kind, QStringLiteral("golden-test"));
        QVERIFY(t.touchpoints.isEmpty());
        QVERIFY(t.patternEvidence.isEmpty());
    }
    void touchpointHotThroughCallers() {
        QTemporaryDir tmp;
        auto write = [&](const QString& name, const QByteArray& text) {
            QFile f(tmp.filePath(name));
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(text);
        };
        write(QStringLiteral("io_helpers.py"), "import pandas as pd\n"
                                               "def load(path):\n"
                                               "    return pd.read_csv(path).to_numpy()\n"
                                               "def load_once(path):\n"
                                               "    return pd.read_parquet(path)\n");
        write(QStringLiteral("main.py"), "import numpy as np\n"
                                         "from io_helpers import load, load_once\n"
                                         "def main(paths):\n"
                                         "    meta = load_once(paths[0])\n"
                                         "    for p in paths:\n"
                                         "        x = load(p)\n"
                                         "        print(np.sum(x))\n"
                                         "if __name__ == '__main__':\n"
                                         "    main(['a.csv'])\n");
        write(QStringLiteral("run.sbatch"), "#!/bin/bash\n#SBATCH --nodes=2\n"
                                            "srun legate --gpus 4 main.py\n");
        const ProjectResult p = analyzeProject(scanProject({tmp.path()}));
        const Assessment a = assess(p, {}, Manifest::bundled());
        QStringList seen;
        for (const ResolvedTouchpoint& t : a.touchpoints)
            seen << QStringLiteral("%1 %2:%3%4")
                        .arg(t.touchpoint.kind, t.touchpoint.range.path)
                        .arg(t.touchpoint.range.line)
                        .arg(t.hot ? QStringLiteral(" hot") : QString());
        QCOMPARE(seen, (QStringList{"logging main.py:7 hot", "pandas io_helpers.py:3 hot",
                                    "pandas io_helpers.py:5"}));
        QCOMPARE(gate(a, 5).status, GateStatus::Uncertain);
        QVERIFY(gate(a, 5).reason.startsWith(QStringLiteral("3 host touchpoints")));
        QCOMPARE(a.entryScript, QStringLiteral("main.py"));
        // Gate 6 reads the batch script: a launch line, legate and an MPI launcher.
        QStringList kinds;
        for (const ReadinessHint& h : a.readiness)
            if (h.range.path == QLatin1String("run.sbatch"))
                kinds << h.kind + QLatin1Char('@') + QString::number(h.range.line);
        QCOMPARE(kinds, (QStringList{"launch-script@3", "legate@3", "mpi-launcher@3"}));
        ContextInput twoNodes;
        twoNodes.nodes = 2;
        QVERIFY(gate(assess(p, twoNodes, Manifest::bundled()), 6)
                    .reason.contains(QStringLiteral("an MPI launcher (mpirun/srun)")));
    }
    void deepNestingDoesNotCrash() {
        QByteArray src = "import numpy as np\nN = ";
        for (int i = 0; i < 5000; ++i)
            src += "(";
        src += "1";
        for (int i = 0; i < 5000; ++i)
            src += ")";
        src += "\nx = np.zeros(N)\ny = 1";
        for (int i = 0; i < 20000; ++i)
            src += " + 1";
        src += "\n";
        // The evidence walk alone (the rules have their own robustness tests).
        const SyntaxTree tree(src);
        const SemanticModel model(tree, QStringLiteral("deep"));
        FileResult r;
        r.path = QStringLiteral("deep.py");
        QElapsedTimer timer;
        timer.start();
        collectEvidence(tree, model, r);
        QVERIFY2(timer.elapsed() < 5000, "evidence walk must stay linear in the tree size");
        // The parenthesised constant is too deep to evaluate (bounded recursion): no hint.
        QVERIFY(r.sizeHints.isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestAssess)
#include "tst_assess.moc"
