#include "semantic/SiteWorkProbe.h"

#include "semantic/LoopWork.h"
#include "semantic/Loops.h"
#include "semantic/SemanticModel.h"
#include "semantic/Shapes.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <vector>

namespace cnready {

namespace {

/// Whether a node kind can stand for an array value (the shapes worth asking about).
bool valueKind(const char* type) {
    static const char* const kinds[] = {"identifier", "attribute", "subscript", "call",
                                        "binary_operator"};
    return std::any_of(std::begin(kinds), std::end(kinds),
                       [type](const char* k) { return std::strcmp(type, k) == 0; });
}

/// Folds the shape of `n` into the site's size: Data beats Small beats Unknown; among Small
/// shapes the one with the most literal elements wins, and among Data shapes the largest
/// literal element count is kept (`dataElements`).
void foldShape(const SemanticModel& model, TSNode n, SiteWork& w) {
    const Shape s = model.shapeOf(n);
    if (!s.known() && s.unknownRankClass != SizeClass::Data)
        return;
    const SizeClass c = s.sizeClass();
    if (c == SizeClass::Data) {
        // The largest data array of literal extents the expression mentions (`u` of
        // `u[1:-1, 1:-1]`, not its slice).
        w.size = SiteWork::Size::Data;
        const Extent e = s.known() ? s.size() : Extent::unknown();
        if (e.isLiteral() && e.value > w.dataElements)
            w.dataElements = e.value;
        return;
    }
    if (c != SizeClass::Small || w.size == SiteWork::Size::Data || s.rank == 0)
        return;
    const Extent e = s.size();
    const qint64 count = e.isLiteral() ? e.value : 0;
    if (w.size == SiteWork::Size::Unknown || count > w.smallElements) {
        w.size = SiteWork::Size::Small;
        w.smallElements = count;
    }
}

/// The number of items of a literal tuple or list iterable (`("u", "v")`, `[0.1, 0.2]`), or
/// 0 when `it` is not one or unpacks something (`(*a, b)`).
qint64 literalItems(TSNode it) {
    while (!ts_node_is_null(it) && std::strcmp(ts_node_type(it), "parenthesized_expression") == 0)
        it = ts_node_named_child(it, 0);
    if (ts_node_is_null(it) ||
        (std::strcmp(ts_node_type(it), "tuple") != 0 && std::strcmp(ts_node_type(it), "list") != 0))
        return 0;
    const uint32_t n = ts_node_named_child_count(it);
    for (uint32_t i = 0; i < n; ++i)
        if (std::strcmp(ts_node_type(ts_node_named_child(it, i)), "list_splat") == 0)
            return 0;
    return qint64(n);
}

/// Whether `node` is a call that turns a whole array into Python objects on the host:
/// `x.tolist()`, or the builtins `list(x)` / `tuple(x)` of an array.
bool convertsWholeArray(const SemanticModel& model, TSNode node) {
    if (std::strcmp(ts_node_type(node), "call") != 0)
        return false;
    const TSNode fn = ts_node_child_by_field_name(node, "function", 8);
    if (ts_node_is_null(fn))
        return false;
    if (std::strcmp(ts_node_type(fn), "attribute") == 0) {
        const TSNode attr = ts_node_child_by_field_name(fn, "attribute", 9);
        return !ts_node_is_null(attr) && model.text(attr) == "tolist" &&
               SemanticModel::positionalCount(node) == 0;
    }
    if (std::strcmp(ts_node_type(fn), "identifier") != 0 || !model.canonicalName(fn).isEmpty())
        return false;
    const std::string_view name = model.text(fn);
    if (name != "list" && name != "tuple")
        return false;
    const TSNode a = SemanticModel::argument(node, 0);
    return !ts_node_is_null(a) && model.valueKind(a) == ValueKind::Array;
}

/// Whether `loop` ends by a `break` of its own (not of a loop nested in it): a convergence
/// loop, whose count is a cap on its passes.
bool endsByBreak(const SemanticModel& model, const LoopInfo& loop) {
    if (loop.kind == LoopKind::Comprehension || ts_node_is_null(loop.body))
        return false;
    bool found = false;
    TSTreeCursor cursor = ts_tree_cursor_new(loop.body);
    for (bool more = true; more && !found;) {
        const TSNode n = ts_tree_cursor_current_node(&cursor);
        const char* type = ts_node_type(n);
        const bool nested = std::strcmp(type, "function_definition") == 0 ||
                            std::strcmp(type, "class_definition") == 0 ||
                            std::strcmp(type, "lambda") == 0;
        if (std::strcmp(type, "break_statement") == 0) {
            const LoopInfo* owner = model.enclosingLoop(n);
            found = owner && owner->index == loop.index;
        }
        if (!nested && ts_tree_cursor_goto_first_child(&cursor))
            continue;
        while (!ts_tree_cursor_goto_next_sibling(&cursor)) {
            if (!ts_tree_cursor_goto_parent(&cursor) ||
                ts_node_eq(ts_tree_cursor_current_node(&cursor), loop.body)) {
                more = false;
                break;
            }
        }
    }
    ts_tree_cursor_delete(&cursor);
    return found;
}

/// The text of what decides a loop's trip: the bound of `range(...)` (`len(signal) - 1`), the
/// iterable (`grid`), or the `while` condition, for the cost model's assumption.
QString tripTextOf(const SemanticModel& model, const LoopInfo& loop) {
    if (loop.kind == LoopKind::While)
        return QStringLiteral("while %1")
            .arg(QString::fromUtf8(model.text(loop.condition).data(),
                                   qsizetype(model.text(loop.condition).size())));
    TSNode it = loop.iterable;
    if (ts_node_is_null(it))
        return {};
    if (std::strcmp(ts_node_type(it), "call") == 0 &&
        model.text(ts_node_child_by_field_name(it, "function", 8)) == "range") {
        const TSNode args = ts_node_child_by_field_name(it, "arguments", 9);
        const uint32_t n = ts_node_is_null(args) ? 0 : ts_node_named_child_count(args);
        if (n == 1 || n == 2)
            it = ts_node_named_child(args, n - 1);
    }
    const std::string_view t = model.text(it);
    QString out = QString::fromUtf8(t.data(), qsizetype(std::min<size_t>(t.size(), 60)));
    return t.size() > 60 ? out + QStringLiteral("…") : out;
}

/// The trip count of a loop without a literal count when the shapes give it: `range(stop)` /
/// `range(start, stop)` whose bounds are literal extents (`len(x)` of a literal-shaped `x`, a
/// constant `N`), or iterating an array whose first extent is literal. 0 when not known.
qint64 tripFromShapes(const SemanticModel& model, const LoopInfo& loop) {
    TSNode it = loop.iterable;
    if (loop.kind == LoopKind::While || ts_node_is_null(it))
        return 0;
    if (std::strcmp(ts_node_type(it), "call") == 0) {
        const TSNode fn = ts_node_child_by_field_name(it, "function", 8);
        if (model.text(fn) != "range")
            return 0;
        const TSNode args = ts_node_child_by_field_name(it, "arguments", 9);
        const uint32_t n = ts_node_is_null(args) ? 0 : ts_node_named_child_count(args);
        if (n != 1 && n != 2)
            return 0;
        const Extent stop = model.extentOf(ts_node_named_child(args, n - 1));
        const Extent start =
            n == 2 ? model.extentOf(ts_node_named_child(args, 0)) : Extent::literal(0);
        if (!stop.isLiteral() || !start.isLiteral())
            return 0;
        return std::max<qint64>(0, stop.value - start.value);
    }
    if (loop.source != LoopSource::Array)
        return 0;
    const Shape s = model.shapeOf(it);
    const Extent e = s.axis(0);
    return s.known() && s.rank > 0 && e.isLiteral() ? std::max<qint64>(0, e.value) : 0;
}

/// The names NumPy grows an accumulator with (R203's stackers).
bool stackerName(const QString& name) {
    static const char* const names[] = {"numpy.concatenate",  "numpy.hstack",   "numpy.vstack",
                                        "numpy.stack",        "numpy.append",   "numpy.dstack",
                                        "numpy.column_stack", "numpy.row_stack"};
    return std::any_of(std::begin(names), std::end(names),
                       [&name](const char* n) { return name == QLatin1String(n); });
}

/// Whether `n` is one element picked by the loop's variable: an element access (`a[i]`,
/// `m[i, j]`), or `x[i]` of an `x` not known to have more than one axis.
bool elementOf(const SemanticModel& model, TSNode n, const LoopInfo& loop) {
    if (std::strcmp(ts_node_type(n), "subscript") != 0)
        return false;
    if (model.isElementAccess(n, loop))
        return true;
    const TSNode index = ts_node_child_by_field_name(n, "subscript", 9);
    if (ts_node_is_null(index) || std::strcmp(ts_node_type(index), "identifier") != 0 ||
        !loop.variables.contains(
            QString::fromUtf8(model.text(index).data(), qsizetype(model.text(index).size()))))
        return false;
    const Shape s = model.shapeOf(ts_node_child_by_field_name(n, "value", 5));
    return !s.known() || s.rank == 1;
}

/// With `call` the stacking of `acc = np.vstack([acc, piece])` (or `np.append(acc, piece)`):
/// the elements one pass appends, when the pieces' shapes give them (a number or an element
/// `x[i]` of the loop counts 1), into `w.pieceKnown` / `w.pieceElements`.
void probeAppended(const SemanticModel& model, TSNode call, const LoopInfo* loop, SiteWork& w) {
    if (std::strcmp(ts_node_type(call), "call") != 0 || !stackerName(model.callName(call)))
        return;
    const TSNode assign = ts_node_parent(call);
    if (ts_node_is_null(assign) || std::strcmp(ts_node_type(assign), "assignment") != 0)
        return;
    const TSNode target = ts_node_child_by_field_name(assign, "left", 4);
    if (ts_node_is_null(target))
        return;
    const std::string_view acc = model.text(target);
    std::vector<TSNode> pieces;
    const bool append = model.callName(call) == QLatin1String("numpy.append");
    if (append) {
        pieces.push_back(SemanticModel::argument(call, 1));
    } else {
        const TSNode seq = SemanticModel::argument(call, 0);
        if (ts_node_is_null(seq) || (std::strcmp(ts_node_type(seq), "list") != 0 &&
                                     std::strcmp(ts_node_type(seq), "tuple") != 0))
            return;
        for (uint32_t i = 0; i < ts_node_named_child_count(seq); ++i)
            pieces.push_back(ts_node_named_child(seq, i));
    }
    qint64 total = 0;
    for (TSNode p : pieces) {
        if (ts_node_is_null(p))
            return;
        if (model.text(p) == acc)
            continue;
        if (w.pieceText.isEmpty()) {
            const std::string_view t = model.text(p);
            w.pieceText = QString::fromUtf8(t.data(), qsizetype(std::min<size_t>(t.size(), 40)));
            if (t.size() > 40)
                w.pieceText += QStringLiteral("…");
        }
        const char* type = ts_node_type(p);
        if (std::strcmp(type, "integer") == 0 || std::strcmp(type, "float") == 0) {
            total += 1;
            continue;
        }
        if (loop && elementOf(model, p, *loop)) {
            total += 1;
            continue;
        }
        const Shape s = model.shapeOf(p);
        const Extent e = s.known() ? s.size() : Extent::unknown();
        if (!e.isLiteral() || e.value < 0) {
            // `x[i] * 2.0`: arithmetic on one element is one element.
            bool element = false;
            if (loop && std::strcmp(type, "binary_operator") == 0) {
                element = true;
                for (const char* side : {"left", "right"}) {
                    const TSNode o =
                        ts_node_child_by_field_name(p, side, uint32_t(std::strlen(side)));
                    const char* ot = ts_node_type(o);
                    element =
                        element && (std::strcmp(ot, "integer") == 0 ||
                                    std::strcmp(ot, "float") == 0 || elementOf(model, o, *loop));
                }
            }
            if (!element)
                return;
            total += 1;
            continue;
        }
        total += e.value;
    }
    if (total > 0) {
        w.pieceKnown = true;
        w.pieceElements = total;
    }
}

} // namespace

SiteWork probeSiteWork(const SemanticModel& model, TSNode node) {
    SiteWork w;
    w.known = true;
    if (ts_node_is_null(node))
        return w;
    const LoopInfo* loop = model.loopOf(node);
    if (!loop)
        loop = model.enclosingLoop(node);
    bool innermost = true;
    while (loop) {
        const LoopWork& lw = model.loopWork(*loop);
        const qint64 items = loop->literalCount > 0          ? loop->literalCount
                             : loop->kind == LoopKind::While ? 0
                                                             : literalItems(loop->iterable);
        const bool literal = items > 0;
        // A loop that ends by `break` runs until it converges: its count is a cap. (Asked
        // only where a count would otherwise multiply the passes.)
        const qint64 fromShapes = literal ? 0 : tripFromShapes(model, *loop);
        const bool breaks = (literal || (fromShapes > 0 && lw.trip != TripClass::Steps)) &&
                            endsByBreak(model, *loop);
        if (breaks) {
            w.breaks = true;
            const qint64 cap = literal ? items : fromShapes;
            w.breakCap = cap > 0 ? std::min<qint64>(qint64(1) << 62, w.breakCap * cap) : 0;
        } else if (literal) {
            w.smallPasses = qint32(std::min<qint64>(std::numeric_limits<qint32>::max(),
                                                    qint64(w.smallPasses) * items));
        } else if (fromShapes > 0 && lw.trip != TripClass::Steps) {
            w.shapeTrips = std::min<qint64>(qint64(1) << 62, w.shapeTrips * fromShapes);
        } else if (lw.trip == TripClass::Data || lw.trip == TripClass::Unknown) {
            w.unknownTrips = quint8(std::min(255, w.unknownTrips + 1));
            if (lw.trip == TripClass::Data)
                w.unknownDataTrips = quint8(std::min(255, w.unknownDataTrips + 1));
            if (w.tripText.isEmpty())
                w.tripText = tripTextOf(model, *loop);
        }
        if (!literal) {
            switch (lw.trip) {
            case TripClass::Data:
                w.dataLoops = quint8(std::min(255, w.dataLoops + 1));
                break;
            case TripClass::Steps:
                w.stepLoops = quint8(std::min(255, w.stepLoops + 1));
                break;
            case TripClass::Small:
            case TripClass::Unknown:
                w.otherLoops = quint8(std::min(255, w.otherLoops + 1));
                break;
            }
        }
        if (innermost) {
            w.innermostData = lw.trip == TripClass::Data && !literal;
            w.innermostSlab = lw.work == PassWork::Slab;
            w.innermostSmall = lw.trip == TripClass::Small;
            w.elementAccesses = quint16(std::min<size_t>(65535, lw.elements.size()));
            innermost = false;
        }
        loop = loop->parent >= 0 ? &model.loops()[size_t(loop->parent)] : nullptr;
    }
    // What a growing stack appends per pass (R203 reports on the accumulator).
    probeAppended(model, node, model.enclosingLoop(node), w);
    // The site's own value, then the arrays its expression mentions (a finding on a loop
    // reads the loop's iterable and body alike).
    const Shape own = model.shapeOf(node);
    // Not known to be an array: one number (`x.item()`, `float(x.max())`), the least it moves.
    w.wholeToHost = convertsWholeArray(model, node);
    w.scalarValue = !w.wholeToHost && !(own.known() && own.rank > 0);
    if (model.elementKind(node) == ElementKind::Bool)
        w.bytesPerElement = 1;
    TSTreeCursor cursor = ts_tree_cursor_new(node);
    int visited = 0;
    for (bool more = true; more && visited < 512;) {
        const TSNode n = ts_tree_cursor_current_node(&cursor);
        ++visited;
        if (ts_node_is_named(n) && valueKind(ts_node_type(n)))
            foldShape(model, n, w);
        if (ts_tree_cursor_goto_first_child(&cursor))
            continue;
        while (!ts_tree_cursor_goto_next_sibling(&cursor)) {
            if (!ts_tree_cursor_goto_parent(&cursor) ||
                ts_node_eq(ts_tree_cursor_current_node(&cursor), node)) {
                more = false;
                break;
            }
        }
    }
    ts_tree_cursor_delete(&cursor);
    return w;
}

} // namespace cnready
