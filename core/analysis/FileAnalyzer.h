#pragma once
// Analyzes one Python file: read, decode, parse, build the semantic model, run every rule,
// collect API uses, size hints and pattern evidence. Never throws; problems become diagnostics.

#include "model/FileResult.h"

#include <QByteArray>
#include <QString>

namespace cnready {

/// Limits that keep a pathological file from stalling the project.
struct AnalyzerLimits {
    qint64 maxFileBytes = 20 * 1024 * 1024; ///< larger files are reported, not parsed (bytes)
};

/// Reads `root/relativePath` and analyzes it. Unreadable, binary (NUL bytes), oversized files
/// yield a FileResult with one diagnostic and no findings. Undecodable UTF-8 is decoded with
/// replacement characters and reported. Thread-safe; one parser per thread.
FileResult analyzeFile(const QString& root, const QString& relativePath,
                       const AnalyzerLimits& limits = {});

/// Analyzes in-memory bytes as the file `relativePath` (used by tests, the fuzzer and the
/// benchmark). Same error handling as analyzeFile().
FileResult analyzeSource(const QString& relativePath, const QByteArray& bytes,
                         const AnalyzerLimits& limits = {});

} // namespace cnready
