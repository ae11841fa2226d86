#include "semantic/SiteWorkProbe.h"

#include "semantic/LoopWork.h"
#include "semantic/Loops.h"
#include "semantic/SemanticModel.h"
#include "semantic/Shapes.h"

#include <algorithm>
#include <cstring>
#include <limits>

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
/// shapes the one with the most literal elements wins.
void foldShape(const SemanticModel& model, TSNode n, SiteWork& w) {
    const Shape s = model.shapeOf(n);
    if (!s.known() && s.unknownRankClass != SizeClass::Data)
        return;
    const SizeClass c = s.sizeClass();
    if (c == SizeClass::Data) {
        w.size = SiteWork::Size::Data;
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
        if (literal) {
            w.smallPasses = qint32(std::min<qint64>(std::numeric_limits<qint32>::max(),
                                                    qint64(w.smallPasses) * items));
        } else {
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
    for (bool more = true; more && visited < 512 && w.size != SiteWork::Size::Data;) {
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
