#pragma once
// Counts of the analysis's elementary steps on the calling thread: how many field lookups,
// hash probes, shape queries and list entries handed to the rules one file's analysis took.
// A count, not a clock: the same input gives the same numbers on every machine, so a test can
// tell whether the work grows with the file (linear) or faster (a quadratic step).

#include <QtGlobal>

namespace cnready {

/// The steps counted; every field only grows (reset by assigning WorkCounters{}).
struct WorkCounters {
    quint64 fieldLookups = 0; ///< SyntaxTree::field() calls on a node
    quint64 fieldProbes = 0;  ///< slots visited in the walk's field table by those calls
    quint64 memoProbes = 0;   ///< slots visited in the model's per-node memo tables
    quint64 shapeQueries = 0; ///< shape computations asked of the shape engine (memo hits too)
    quint64 withinNodes = 0;  ///< nodes of the indexed lists handed out by SemanticModel::within()
    /// Loops looked at to place a site: lines filled by the per-line innermost-loop index
    /// (SiteFolding.cpp) and loops checked between an assignment and its use (BlocksSupport).
    quint64 loopVisits = 0;

    /// All counts added up.
    quint64 total() const {
        return fieldLookups + fieldProbes + memoProbes + shapeQueries + withinNodes + loopVisits;
    }
};

/// The calling thread's counters. Plain increments (one add each, no atomics): read them on
/// the thread that ran the analysis (analyzeSource() runs on the caller's thread).
inline thread_local WorkCounters t_workCounters;

} // namespace cnready
