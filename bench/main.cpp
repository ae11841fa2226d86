// cnready-bench: throughput of the full assessment against tree-sitter parsing alone on the
// same corpus, plus peak memory. See docs/benchmarks.md for how to read the figures.
//
//   cnready-bench [--lines N] [--lines-per-file N] [--seed S] [--threads T] [--repeat R]
//                 [--corpus DIR] [--keep DIR] [--only full|parse] [--watch]
//
// Without --corpus a corpus is generated into a temporary folder (or into --keep DIR, left in
// place). Each phase runs R times; the best wall time is reported (the machine is shared).

#include "CorpusGenerator.h"

#include "analysis/IncrementalProject.h"
#include "analysis/ProjectAnalyzer.h"
#include "assess/Assessment.h"
#include "assess/Evidence.h"
#include "manifest/Manifest.h"
#include "parse/SyntaxTree.h"
#include "report/Report.h"
#include "rules/RuleRegistry.h"
#include "semantic/SemanticModel.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDate>
#include <QElapsedTimer>
#include <QFile>
#include <QIODevice>
#include <QMap>
#include <QTemporaryDir>
#include <QThreadPool>
#include <QtConcurrent/QtConcurrentMap>

#include <sys/resource.h>
#include <time.h>

#include <algorithm>
#include <atomic>
#include <cstdio>

using namespace cnready;

namespace {

struct Times {
    double wall = 0; ///< seconds
    double cpu = 0;  ///< user + system seconds of the whole process
};

double cpuSeconds() {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return double(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
           double(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

/// Peak resident set size of this process so far, in MiB (Linux reports ru_maxrss in KiB).
double peakRssMiB() {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return double(u.ru_maxrss) / 1024.0;
}

template <typename F> Times timed(F&& f) {
    QElapsedTimer t;
    const double c0 = cpuSeconds();
    t.start();
    f();
    return {double(t.nsecsElapsed()) / 1e9, cpuSeconds() - c0};
}

// Parse-only floor: read each file and let tree-sitter parse it; nothing else.
// One TSParser per worker thread, like the analyzer.
// A write-only device that only counts what it is given (the report's size).
class ByteCounter : public QIODevice {
public:
    qint64 bytes = 0;

protected:
    qint64 readData(char*, qint64) override { return -1; }
    qint64 writeData(const char*, qint64 len) override {
        bytes += len;
        return len;
    }
};

struct ParseOnly {
    QString root;
    std::atomic<qint64> nodes{0};
    void run(const QStringList& files) {
        QtConcurrent::blockingMap(files, [this](const QString& rel) {
            QFile f(root + QLatin1Char('/') + rel);
            if (!f.open(QIODevice::ReadOnly))
                return;
            const SyntaxTree tree(f.readAll());
            nodes += ts_node_child_count(tree.root());
        });
    }
};

void line(const char* label, const QString& text) {
    std::printf("%-14s %s\n", label, qPrintable(text));
    std::fflush(stdout);
}

} // namespace

int main(int argc, char** argv) {
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("cnready-bench"));
    QCommandLineParser p;
    p.setApplicationDescription(
        QStringLiteral("Full cnready assessment vs tree-sitter parsing alone on one corpus."));
    p.addHelpOption();
    const QCommandLineOption lines(QStringLiteral("lines"), QStringLiteral("Corpus lines."),
                                   QStringLiteral("N"), QStringLiteral("100000"));
    const QCommandLineOption perFile(QStringLiteral("lines-per-file"),
                                     QStringLiteral("Average lines per module."),
                                     QStringLiteral("N"), QStringLiteral("500"));
    const QCommandLineOption seed(QStringLiteral("seed"), QStringLiteral("Generator seed."),
                                  QStringLiteral("S"), QStringLiteral("1"));
    const QCommandLineOption threads(QStringLiteral("threads"),
                                     QStringLiteral("Worker threads (default: all cores)."),
                                     QStringLiteral("T"));
    const QCommandLineOption repeat(QStringLiteral("repeat"),
                                    QStringLiteral("Runs per phase; the best is reported."),
                                    QStringLiteral("R"), QStringLiteral("3"));
    const QCommandLineOption corpus(QStringLiteral("corpus"),
                                    QStringLiteral("Measure this folder instead of generating."),
                                    QStringLiteral("DIR"));
    const QCommandLineOption keep(QStringLiteral("keep"),
                                  QStringLiteral("Generate into DIR and leave it there."),
                                  QStringLiteral("DIR"));
    const QCommandLineOption only(QStringLiteral("only"),
                                  QStringLiteral("Run one phase only: full or parse."),
                                  QStringLiteral("PHASE"));
    const QCommandLineOption depth(
        QStringLiteral("depth"), QStringLiteral("Print the deepest syntax trees of the corpus "
                                                "(for AnalyzerLimits::maxSyntaxDepth) and exit."));
    const QCommandLineOption phases(
        QStringLiteral("phases"),
        QStringLiteral("Single-threaded CPU time per analysis step (read, parse, survey, model, "
                       "each rule, evidence, export) over the corpus, and exit."));
    const QCommandLineOption watch(
        QStringLiteral("watch"),
        QStringLiteral("Watch mode's update on a generated corpus: one module is written, then "
                       "analysed alone with the project facts re-solved from kept summaries "
                       "and the project assessed; prints each step's best wall time, and exit."));
    p.addOptions({lines, perFile, seed, threads, repeat, corpus, keep, only, depth, phases, watch});
    p.process(app);

    if (p.isSet(threads))
        QThreadPool::globalInstance()->setMaxThreadCount(qMax(1, p.value(threads).toInt()));
    const int workers = QThreadPool::globalInstance()->maxThreadCount();
    const int runs = qMax(1, p.value(repeat).toInt());
    const QString phase = p.value(only);

    QTemporaryDir tmp;
    QString dir = p.value(corpus);
    if (dir.isEmpty()) {
        dir = p.isSet(keep) ? p.value(keep) : tmp.path() + QStringLiteral("/corpus");
        bench::CorpusOptions o;
        o.totalLines = p.value(lines).toLongLong();
        o.linesPerFile = qMax(20, p.value(perFile).toInt());
        o.seed = p.value(seed).toULongLong();
        QElapsedTimer g;
        g.start();
        const bench::CorpusStats s = bench::writeCorpus(dir, o);
        if (s.files == 0) {
            std::fprintf(stderr, "cnready-bench: cannot write the corpus to %s\n", qPrintable(dir));
            return 1;
        }
        line("generated:", QStringLiteral("%1 files, %2 lines, %3 bytes in %4 s (seed %5)")
                               .arg(s.files)
                               .arg(s.lines)
                               .arg(s.bytes)
                               .arg(double(g.elapsed()) / 1000.0, 0, 'f', 2)
                               .arg(o.seed));
    }

    const ScanResult scan = scanProject({dir});
    if (!scan.missing.isEmpty() || scan.files.isEmpty()) {
        std::fprintf(stderr, "cnready-bench: no Python files under %s\n", qPrintable(dir));
        return 1;
    }
    line("corpus:", QStringLiteral("%1 (%2 files), %3 worker threads, best of %4")
                        .arg(dir)
                        .arg(scan.files.size())
                        .arg(workers)
                        .arg(runs));

    if (p.isSet(depth)) {
        QList<QPair<int, QString>> depths;
        for (const QString& rel : scan.files) {
            QFile f(scan.root + QLatin1Char('/') + rel);
            if (f.open(QIODevice::ReadOnly))
                depths.append({SyntaxTree(f.readAll()).survey().maxDepth, rel});
        }
        std::sort(depths.begin(), depths.end(), std::greater<>());
        for (qsizetype i = 0; i < qMin<qsizetype>(5, depths.size()); ++i)
            line("depth:", QStringLiteral("%1 %2").arg(depths[i].first).arg(depths[i].second));
        return 0;
    }

    if (p.isSet(watch)) {
        if (p.isSet(corpus)) {
            std::fprintf(stderr, "cnready-bench: --watch writes a module; it runs on a generated "
                                 "corpus only (never on --corpus)\n");
            return 1;
        }
        const Manifest manifest = Manifest::bundled();
        IncrementalProject kept;
        QElapsedTimer t;
        t.start();
        kept.analyzeAll(scan);
        const qint64 fullMs = t.elapsed();
        QString module;
        for (const QString& f : scan.files)
            if (module.isEmpty() && !f.endsWith(QLatin1String("__init__.py")))
                module = f;
        qint64 best[5] = {-1, -1, -1, -1, -1}; // analyse, facts, merge, assess, total
        const QList<ReadinessHint> scripts = scanLaunchScripts(scan.root);
        for (int r = 0; r < runs; ++r) {
            QFile f(scan.root + QLatin1Char('/') + module);
            if (!f.open(QIODevice::Append))
                return 1;
            f.write(QByteArrayLiteral("\nlate_%1 = np.vectorize(abs)\n")
                        .replace("%1", QByteArray::number(r)));
            f.close();
            t.restart();
            IncrementalProject::UpdateStats st;
            const ProjectResult project = kept.update(scan, {module}, &st);
            QElapsedTimer a;
            a.start();
            const Assessment assessment = assess(project, ContextInput{}, manifest, scripts);
            const qint64 steps[5] = {st.analyseMs, st.factsMs, st.mergeMs, a.elapsed(),
                                     t.elapsed()};
            for (int i = 0; i < 5; ++i)
                best[i] = best[i] < 0 ? steps[i] : qMin(best[i], steps[i]);
            (void)assessment;
        }
        line("watch full:", QStringLiteral("%1 ms (first run, keeps the summaries)").arg(fullMs));
        line("watch update:", QStringLiteral("%1 ms: analyse %2, facts %3, merge %4, assess %5 "
                                             "(one module of %6 written; best of %7)")
                                  .arg(best[4])
                                  .arg(best[0])
                                  .arg(best[1])
                                  .arg(best[2])
                                  .arg(best[3])
                                  .arg(scan.files.size())
                                  .arg(runs));
        return 0;
    }

    if (p.isSet(phases)) {
        // Re-runs analyzeSource()'s steps one by one with a thread-CPU clock around each.
        QMap<QString, qint64> ns;
        auto clock = [] {
            timespec t{};
            clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
            return qint64(t.tv_sec) * 1'000'000'000 + t.tv_nsec;
        };
        qint64 allLines = 0;
        for (const QString& rel : scan.files) {
            qint64 t0 = clock();
            QFile f(scan.root + QLatin1Char('/') + rel);
            if (!f.open(QIODevice::ReadOnly))
                continue;
            const QByteArray bytes = f.readAll();
            allLines += bytes.count('\n');
            qint64 t1 = clock();
            ns[QStringLiteral("0 read")] += t1 - t0;
            const SyntaxTree tree(bytes);
            qint64 t2 = clock();
            ns[QStringLiteral("1 parse")] += t2 - t1;
            (void)tree.survey();
            qint64 t3 = clock();
            ns[QStringLiteral("2 survey")] += t3 - t2;
            const QString module = moduleNameForPath(rel);
            const SemanticModel model(tree, module, rel.endsWith(QLatin1String("__init__.py")));
            qint64 t4 = clock();
            ns[QStringLiteral("3 model")] += t4 - t3;
            FileResult r;
            const RuleContext ctx{tree, model, rel, module};
            for (const auto& rule : RuleRegistry::instance().rules()) {
                const qint64 a = clock();
                FindingSink sink(rule->info(), ctx, r.findings, &r.offComputePath);
                rule->check(ctx, sink);
                ns[QStringLiteral("4 rule ") + rule->info().code] += clock() - a;
            }
            qint64 t5 = clock();
            model.exportTo(r);
            qint64 t6 = clock();
            ns[QStringLiteral("5 model.exportTo")] += t6 - t5;
            collectEvidence(tree, model, r);
            qint64 t7 = clock();
            ns[QStringLiteral("6 evidence")] += t7 - t6;
        }
        qint64 total = 0;
        for (qint64 v : ns)
            total += v;
        for (auto it = ns.cbegin(); it != ns.cend(); ++it)
            line("phase:", QStringLiteral("%1 %2 ms cpu (%3 %, %4 lines/s)")
                               .arg(it.key().mid(2), -18)
                               .arg(double(it.value()) / 1e6, 9, 'f', 1)
                               .arg(100.0 * double(it.value()) / double(total), 5, 'f', 1)
                               .arg(qint64(double(allLines) / (double(it.value()) / 1e9))));
        line("phase:", QStringLiteral("%1 %2 ms cpu")
                           .arg(QStringLiteral("total"), -18)
                           .arg(double(total) / 1e6, 9, 'f', 1));
        return 0;
    }

    // Lines are counted by the analyzer itself (physical lines), once.
    qint64 totalLines = 0;
    Times bestParse{1e300, 0}, bestFull{1e300, 0};
    int findings = 0, assessed = 0; // in the project; counted by the assessment (as reported)
    qsizetype apiUses = 0, calls = 0;
    QString verdict;
    QString fullSteps; // wall time of each step of the best full run
    if (phase != QLatin1String("parse")) {
        const Manifest manifest = Manifest::bundled();
        for (int r = 0; r < runs; ++r) {
            qsizetype reportBytes = 0;
            double steps[4] = {};
            double peaks[3] = {}; // peak RSS (MiB) after analyze, assess, report
            const Times t = timed([&] {
                QElapsedTimer clock;
                clock.start();
                const ScanResult s = scanProject({dir});
                steps[0] = double(clock.nsecsElapsed()) / 1e9;
                const ProjectResult project = analyzeProject(s);
                steps[1] = double(clock.nsecsElapsed()) / 1e9;
                peaks[0] = peakRssMiB();
                const Assessment a = assess(project, ContextInput{}, manifest);
                steps[2] = double(clock.nsecsElapsed()) / 1e9;
                peaks[1] = peakRssMiB();
                // Streamed and counted, as `cnready assess -o FILE` writes it.
                ByteCounter counter;
                counter.open(QIODevice::WriteOnly);
                writeReport(ReportInput{project, a, manifest, QDate(2026, 6, 1)},
                            ReportFormat::Markdown, counter);
                reportBytes = counter.bytes;
                steps[3] = double(clock.nsecsElapsed()) / 1e9;
                peaks[2] = peakRssMiB();
                totalLines = project.totalLines;
                findings = int(project.findings.size());
                assessed = int(a.findings.size());
                apiUses = 0;
                calls = 0;
                for (const FileResult& f : project.files)
                    calls += f.calls.size();
                apiUses = project.apiUses.size();
                verdict = verdictLabel(a.verdict);
            });
            if (t.wall < bestFull.wall) {
                bestFull = t;
                fullSteps = QStringLiteral("scan %1 s, analyze %2 s, assess %3 s, report %4 s")
                                .arg(steps[0], 0, 'f', 3)
                                .arg(steps[1] - steps[0], 0, 'f', 3)
                                .arg(steps[2] - steps[1], 0, 'f', 3)
                                .arg(steps[3] - steps[2], 0, 'f', 3) +
                            QStringLiteral(" (wall); peak RSS after each %1 / %2 / %3 MiB")
                                .arg(peaks[0], 0, 'f', 1)
                                .arg(peaks[1], 0, 'f', 1)
                                .arg(peaks[2], 0, 'f', 1);
            }
            if (reportBytes <= 0)
                return 1;
        }
    }
    const double rssAfterFull = peakRssMiB();
    if (phase != QLatin1String("full")) {
        ParseOnly po{scan.root};
        for (int r = 0; r < runs; ++r) {
            const Times t = timed([&] { po.run(scan.files); });
            if (t.wall < bestParse.wall)
                bestParse = t;
        }
        if (totalLines == 0) {
            for (const QString& rel : scan.files) {
                QFile f(scan.root + QLatin1Char('/') + rel);
                if (f.open(QIODevice::ReadOnly)) {
                    const QByteArray b = f.readAll();
                    totalLines += b.count('\n') + ((b.isEmpty() || b.endsWith('\n')) ? 0 : 1);
                }
            }
        }
    }

    auto rate = [&](const Times& t) {
        return QStringLiteral("%1 lines/s (%2 lines in %3 s wall, %4 s cpu)")
            .arg(qint64(double(totalLines) / t.wall))
            .arg(totalLines)
            .arg(t.wall, 0, 'f', 3)
            .arg(t.cpu, 0, 'f', 3);
    };
    if (phase != QLatin1String("parse")) {
        line("full:", rate(bestFull));
        line("full steps:", fullSteps);
        line("findings:", QStringLiteral("%1 (%2 in the report), verdict %3 (API uses %4, call "
                                         "sites %5)")
                              .arg(findings)
                              .arg(assessed)
                              .arg(verdict)
                              .arg(apiUses)
                              .arg(calls));
    }
    if (phase != QLatin1String("full"))
        line("parse-only:", rate(bestParse));
    if (phase.isEmpty())
        line("ratio:", QStringLiteral("%1 (full / parse-only throughput, same threads)")
                           .arg(bestParse.wall / bestFull.wall, 0, 'f', 3));
    line("peak-rss:", QStringLiteral("%1 MiB (after full: %2 MiB)")
                          .arg(peakRssMiB(), 0, 'f', 1)
                          .arg(rssAfterFull, 0, 'f', 1));
    return 0;
}
