#pragma once
// The loop model: every for / while / comprehension of a file, what it iterates over, its
// iteration variables, nesting, and the names it (re)binds. Built by SemanticModel.

#include <QString>
#include <QStringList>
#include <tree_sitter/api.h>

#include <cstdint>

namespace cnready {

/// The syntactic kind of a loop.
enum class LoopKind {
    For,           ///< `for x in it:`
    While,         ///< `while cond:`
    Comprehension, ///< list / set / dict comprehension or generator expression (one per
                   ///< comprehension node; nested `for` clauses belong to the same LoopInfo)
};

/// What a `for` loop or comprehension ranges over (classified from its first iterable).
enum class LoopSource {
    Unknown,           ///< anything not recognised below (a call to an unknown function, ...)
    None,              ///< `while` loops: no iterable
    Range,             ///< `range(n)` / `range(a, b[, step])` with a non-literal or large bound
    SmallLiteralRange, ///< `range(k)` with a literal k <= 8 (e.g. the 3 axes of a vector field)
    RangeLen,          ///< `range(len(a))` (a is any value; see iteratedArray / iteratesArrayAxis)
    RangeShape,  ///< `range(a.shape[k])` / `range(a.size)` / `range(n)` with n bound from a.shape
    Product,     ///< `itertools.product(range(...), ...)`
    NdIndex,     ///< `np.ndindex(...)`
    NdIter,      ///< `np.nditer(a)`
    NdEnumerate, ///< `np.ndenumerate(a)`
    Array,       ///< an array value itself (`for row in a`)
    EnumerateArray, ///< `enumerate(a)` / `zip(a, ...)` where an argument is an array
    Collection,     ///< a list / tuple / dict / set literal, a name bound to one, `.items()`,
                    ///< `.keys()`, `.values()`, `enumerate`/`zip` of non-arrays, strings
    Files,          ///< file names or lines: `os.listdir`, `glob.glob`, `Path.iterdir`, an
                    ///< open file object
};

/// One loop. Positions are byte offsets into the file's UTF-8 source.
struct LoopInfo {
    int index = -1; ///< position in SemanticModel::loops() (document order)
    LoopKind kind = LoopKind::For;
    LoopSource source = LoopSource::Unknown;
    TSNode node{};      ///< the for_statement / while_statement / comprehension node
    TSNode iterable{};  ///< the (first) iterable expression; null for `while`
    TSNode condition{}; ///< the `while` condition; null otherwise
    TSNode body{};      ///< the body block (for/while) or the element expression (comprehension)
    /// Names bound by the loop header (`i`, `i, j`, `k, v`, ...); for comprehensions, the
    /// variables of every `for` clause.
    QStringList variables;
    // The names (re)bound anywhere inside the loop are SemanticModel::boundInLoop() (one sorted
    // set of views into the source per loop; a QSet<QString> here cost ~9 MB on a 100k-line file).
    /// For RangeLen / RangeShape / Array / EnumerateArray / NdIter / NdEnumerate: the source
    /// text of the array whose axis or elements are walked ("a", "self.u"); else empty.
    QString iteratedArray;
    /// For Range / SmallLiteralRange / RangeLen / RangeShape: the literal iteration count when
    /// it is a literal (`range(3)` → 3, `range(1, 4)` → 3); -1 otherwise.
    int literalCount = -1;
    int depth = 1;     ///< 1 for a loop not nested in another loop of the same function
    int parent = -1;   ///< index of the enclosing loop in the same function, -1 if none
    int function = -1; ///< index of the enclosing function in SemanticModel::functions(), -1 at
                       ///< module level
    uint32_t startByte = 0, endByte = 0; ///< span of `node`
    /// The part that runs once per iteration: body (and condition for `while`). For a
    /// comprehension: the element expression and everything after the first iterable.
    uint32_t hotStart = 0, hotEnd = 0;
    uint32_t hotStart2 = 0, hotEnd2 = 0; ///< second hot interval (comprehensions), empty if equal

    /// Whether the byte offset lies in the part that runs once per iteration.
    bool hotContains(uint32_t byte) const {
        return (byte >= hotStart && byte < hotEnd) || (byte >= hotStart2 && byte < hotEnd2);
    }
    /// True for the sources that walk an index over array elements (R101's candidates).
    bool isIndexLoop() const {
        return source == LoopSource::Range || source == LoopSource::RangeLen ||
               source == LoopSource::RangeShape || source == LoopSource::Product ||
               source == LoopSource::NdIndex;
    }
};

/// Short lower-case name of a loop source for messages and tests ("range", "range-len", ...).
QString loopSourceName(LoopSource s);

} // namespace cnready
