#pragma once
// Analyzes one Python file: read, decode, parse, build the semantic model, run every rule,
// collect API uses, size hints and pattern evidence. Never throws; problems become diagnostics.

#include "model/FileResult.h"

#include <QByteArray>
#include <QSet>
#include <QString>

namespace cnready {

/// Limits that keep a pathological file from stalling or crashing the project.
struct AnalyzerLimits {
    /// Larger files are reported (FileDiagnostic::Kind::TooLarge), not parsed. Bytes.
    /// 20 MiB is ~30x the largest hand-written module in SciPy 1.10 (~600 KB); bigger .py
    /// files are generated tables, not array code worth assessing.
    qint64 maxFileBytes = 20 * 1024 * 1024;
    /// Deepest nesting (SyntaxTree::Survey::maxDepth: tree levels below the module node, a
    /// left-nested chain of one operator kind such as a generated 600-term sum counting as
    /// one level) that the semantic model and the rules are run on; deeper files get a
    /// diagnostic, their line count and nothing else.
    /// CPython itself refuses more than 200 nested brackets ("too many nested parentheses",
    /// MAXLEVEL in its tokenizer) and 100 indentation levels (MAXINDENT); one bracket level
    /// costs up to 2 tree levels in tree-sitter-python (a call: call + argument_list) and one
    /// indentation level 2 (block + statement), so files CPython accepts stay below ~650.
    /// The deepest files of SciPy, scikit-learn, pandas, NumPy, Matplotlib and scikit-image
    /// (Debian 12) reach 30, 30, 35, 29, 25 and 25 (36, 30, 47, 43, 26 and 27 tree levels);
    /// measure with `cnready-bench --corpus DIR --depth`. Every walk over the tree is iterative and
    /// the recursive helpers are bounded by a constant, except one that follows parentheses (R305's
    /// matrixDim): this limit bounds it. Downstream cost grows faster than linearly with nesting
    /// (300 nested calls in a loop: 0.02 s CPU, 1,000: 0.18 s), while chains stay linear
    /// (30,000-term sum of NumPy calls in a loop: 2.7 s), hence 500.
    int maxSyntaxDepth = 500;
    /// Parse-time budget per file: this fixed part plus parseMicrosPerMiB per MiB of source.
    /// tree-sitter measures it on a monotonic wall clock, so on a loaded machine a healthy
    /// file could hit a tight budget and results would depend on the load: the budget is
    /// 100x what a healthy file needs (3–10 MiB/s on one core; SciPy's largest file, 0.6 MiB,
    /// parses in ~0.1 s) and only stops pathological error recovery, e.g. 70,000 stray dots
    /// or line continuations that would otherwise run for many minutes. Microseconds.
    quint64 parseMicrosBase = 30'000'000;
    quint64 parseMicrosPerMiB = 10'000'000;
    /// Memory that the files analyzed at the same time may expect to need together
    /// (MemoryBudget::estimateForSource() per file, 90 bytes per source byte): 192 MiB, so
    /// that two large modules (over ~1.1 MB each) take turns instead of adding their peaks
    /// (two 3.5 MB modules: ~300 MB each, 565-617 MiB together), while ordinary files (a
    /// 50 kB module needs ~4.5 MB) still run side by side on every core. One file is always
    /// let through, however large. Bytes; 0: no limit.
    qint64 concurrentAnalysisBytes = qint64(192) * 1024 * 1024;
};

class MemoryBudget;

/// Reads `root/relativePath` and analyzes it. Files that do not exist (any more), are not
/// regular files (FIFO, socket, device), cannot be opened, contain NUL bytes, exceed the size
/// limit or nest too deeply yield a FileResult with a diagnostic and no findings. Undecodable
/// UTF-8 is decoded with replacement characters and reported; UTF-16/32 with a byte-order mark
/// is decoded and reported; text in the encoding its coding declaration names (PEP 263:
/// Latin-1, cp1252, big5, ...) is decoded silently, as Python would. Syntax errors, Python 2
/// statements and tab/space indentation mixes are reported and the recovered tree is still
/// assessed. Thread-safe; one parser per thread. Never blocks on a FIFO. With a `budget`, the
/// file's expected peak (MemoryBudget::estimateForSource of its size) is reserved from it
/// before reading, waiting if needed, and given back before returning.
/// `facts` (optional): what the project's summaries tell this file, see SemanticModel's
/// constructor (ProjectFacts.h: the second look at a file).
FileResult analyzeFile(const QString& root, const QString& relativePath,
                       const AnalyzerLimits& limits = {}, MemoryBudget* budget = nullptr,
                       const FileFacts* facts = nullptr);

/// Analyzes in-memory bytes as the file `relativePath` (used by tests, the fuzzer and the
/// benchmark). Same error handling as analyzeFile() from the decoding step on.
FileResult analyzeSource(const QString& relativePath, const QByteArray& bytes,
                         const AnalyzerLimits& limits = {}, const FileFacts* facts = nullptr);

/// Whether the UTF-8 bytes contain an `if __name__ == "__main__":` line (either quote style,
/// either operand order, optional parentheses) at module level.
bool hasMainGuard(const QByteArray& utf8Source);

/// Offset of the first byte that is not part of a valid UTF-8 sequence (overlong forms,
/// surrogates and code points above U+10FFFF are invalid), or -1 when all bytes are valid.
qsizetype firstInvalidUtf8(const QByteArray& bytes);

} // namespace cnready
