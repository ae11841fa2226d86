// Throughput benchmark (not a test): single thread, every .py file under the given folder is
// read into memory first, then timed (process CPU time) three ways: tree-sitter parse only, parse +
// semantic model, and the full per-file analysis (parse, model, every rule, evidence, export).
// Usage: bench_model FOLDER [repeats]
#include "analysis/FileAnalyzer.h"
#include "analysis/ProjectScanner.h"
#include "parse/SyntaxTree.h"
#include "semantic/SemanticModel.h"

#include <QCoreApplication>
#include <QFile>

#include <cstdio>
#include <ctime>

using namespace cnready;

int main(int argc, char** argv) {
    QCoreApplication app(argc, argv);
    if (argc < 2) {
        std::fprintf(stderr, "usage: bench_model FOLDER [repeats]\n");
        return 2;
    }
    const int repeats = argc > 2 ? std::max(1, atoi(argv[2])) : 1;
    const QByteArray only = argc > 3 ? QByteArray(argv[3]) : QByteArray(); // "model" / "full"
    const ScanResult scan = scanProject({QString::fromLocal8Bit(argv[1])});
    QList<QPair<QString, QByteArray>> files;
    qint64 bytes = 0;
    for (const QString& rel : scan.files) {
        QFile f(scan.root + QLatin1Char('/') + rel);
        if (f.open(QIODevice::ReadOnly)) {
            files.append({rel, f.readAll()});
            bytes += files.last().second.size();
        }
    }
    auto run = [&](auto&& body) {
        // Process CPU time: the machine is shared, wall time is noisy.
        const std::clock_t start = std::clock();
        for (int r = 0; r < repeats; ++r)
            for (const auto& [rel, src] : files)
                body(rel, src);
        return double(std::clock() - start) / CLOCKS_PER_SEC / repeats;
    };
    qint64 sink = 0;
    if (!only.isEmpty()) { // for profiling one stage
        run([&](const QString& rel, const QByteArray& src) {
            if (only == "model") {
                const SyntaxTree t(src);
                const SemanticModel m(t, moduleNameForPath(rel));
                sink += qint64(m.calls().size());
            } else {
                sink += analyzeSource(rel, src, AnalyzerLimits{}).findings.size();
            }
        });
        return sink < 0 ? 1 : 0;
    }
    const double parse = run([&](const QString&, const QByteArray& src) {
        const SyntaxTree t(src);
        sink += ts_node_child_count(t.root());
    });
    const double model = run([&](const QString& rel, const QByteArray& src) {
        const SyntaxTree t(src);
        const SemanticModel m(t, moduleNameForPath(rel));
        sink += qint64(m.calls().size());
    });
    const double full = run([&](const QString& rel, const QByteArray& src) {
        sink += analyzeSource(rel, src, AnalyzerLimits{}).findings.size();
    });
    const double mb = double(bytes) / (1024.0 * 1024.0);
    std::printf("files %lld, %.1f MB\n", static_cast<long long>(files.size()), mb);
    std::printf("parse only      %.3f s  %.1f MB/s\n", parse, mb / parse);
    std::printf("parse + model   %.3f s  %.1f MB/s  (%.0f%% of parse-only)\n", model, mb / model,
                100.0 * parse / model);
    std::printf("full analysis   %.3f s  %.1f MB/s  (%.0f%% of parse-only)\n", full, mb / full,
                100.0 * parse / full);
    return sink < 0 ? 1 : 0;
}
