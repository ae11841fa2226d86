#pragma once
// Generates realistic NumPy modules for the benchmark and the large-project tests: stencils,
// reductions, element loops, allocations in loops, imports, classes, docstrings and comments.
// Deterministic: the same seed and sizes give byte-identical files on every platform (own
// pseudo-random generator, no std:: distributions).

#include <QByteArray>
#include <QString>

namespace cnready::bench {

/// A small, portable pseudo-random generator (SplitMix64). Same sequence everywhere.
class Random {
public:
    explicit Random(quint64 seed) : m_state(seed) {}
    quint64 next();
    /// Uniform-ish integer in [lo, hi] (inclusive). Modulo bias is irrelevant here.
    int range(int lo, int hi) { return lo + int(next() % quint64(hi - lo + 1)); }
    bool chance(int percent) { return range(0, 99) < percent; }

private:
    quint64 m_state;
};

/// Sizes and seed of a corpus.
struct CorpusOptions {
    qint64 totalLines = 100'000; ///< lines over all files (the last file may overshoot a little)
    int linesPerFile = 500;      ///< average module length in lines (each file varies ±50 %)
    int filesPerPackage = 50;    ///< files per package folder (pkg000/, pkg001/, ...)
    quint64 seed = 1;
};

/// What writeCorpus() produced.
struct CorpusStats {
    int files = 0;
    qint64 lines = 0;
    qint64 bytes = 0;
};

/// One module of about `targetLines` lines (never fewer; a block may overshoot by < 40
/// lines). `moduleIndex` only varies names. Pure function of its arguments.
QByteArray generateModule(quint64 seed, int moduleIndex, int targetLines);

/// Writes a corpus under `dir` (created if needed): `pkgNNN/__init__.py` plus
/// `pkgNNN/modNNNNN.py` files. Returns the totals; files = 0 when `dir` cannot be written.
CorpusStats writeCorpus(const QString& dir, const CorpusOptions& options);

} // namespace cnready::bench
