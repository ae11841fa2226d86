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

/// Whether a slice bound is a shape's own number: absent, an integer literal (`1`, `-1`), or
/// read from a shape (`len(x)`, `x.shape[0]`, `n - 1` of them). A name bound to a number
/// (`w[1:p]` of a counter `p = 2` that the loop grows, an order, a tolerance) is not.
bool shapeBound(const SemanticModel& model, TSNode b) {
    if (ts_node_is_null(b))
        return true;
    const char* type = ts_node_type(b);
    if (std::strcmp(type, "integer") == 0)
        return true;
    if (std::strcmp(type, "unary_operator") == 0 || std::strcmp(type, "binary_operator") == 0 ||
        std::strcmp(type, "parenthesized_expression") == 0) {
        for (uint32_t i = 0; i < ts_node_named_child_count(b); ++i)
            if (!shapeBound(model, ts_node_named_child(b, i)))
                return false;
        return true;
    }
    const std::string_view t = model.text(b);
    return t.find(".shape") != std::string_view::npos || t.rfind("len(", 0) == 0;
}

/// Whether the shape of `n` sizes an array the site touches: not a shape tuple (`x.shape`, whose
/// extents are the rank, not a size) and not a slice bounded by a number that is not a shape's
/// (shapeBound): its array is folded on its own.
bool sizesAnArray(const SemanticModel& model, TSNode n) {
    const char* type = ts_node_type(n);
    if (std::strcmp(type, "attribute") == 0) {
        const std::string_view a = model.text(ts_node_child_by_field_name(n, "attribute", 9));
        return a != "shape" && a != "strides";
    }
    if (std::strcmp(type, "subscript") != 0)
        return true;
    for (uint32_t i = 0; i < ts_node_named_child_count(n); ++i) {
        const TSNode k = ts_node_named_child(n, i);
        if (std::strcmp(ts_node_type(k), "slice") != 0)
            continue;
        for (uint32_t j = 0; j < ts_node_named_child_count(k); ++j)
            if (!shapeBound(model, ts_node_named_child(k, j)))
                return false;
    }
    return true;
}

/// Folds the shape of `n` into the site's size: Data beats Small beats Unknown; among Small
/// shapes the one with the most literal elements wins, and among Data shapes the largest
/// literal element count is kept (`dataElements`).
void foldShape(const SemanticModel& model, TSNode n, SiteWork& w) {
    if (!sizesAnArray(model, n))
        return;
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

/// Visits the nodes of `loop`'s body in document order (one pass), without entering nested
/// function, class or lambda definitions; `visit(node, type)` returns false to stop.
template <typename Visit> void walkPass(const LoopInfo& loop, Visit visit) {
    TSTreeCursor cursor = ts_tree_cursor_new(loop.body);
    for (bool more = true; more;) {
        const TSNode n = ts_tree_cursor_current_node(&cursor);
        const char* type = ts_node_type(n);
        const bool nested = std::strcmp(type, "function_definition") == 0 ||
                            std::strcmp(type, "class_definition") == 0 ||
                            std::strcmp(type, "lambda") == 0;
        if (!visit(n, type))
            break;
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
}

/// Whether `loop` ends by a `break` of its own (not of a loop nested in it): a convergence
/// loop, whose count is a cap on its passes.
bool endsByBreak(const SemanticModel& model, const LoopInfo& loop) {
    if (loop.kind == LoopKind::Comprehension || ts_node_is_null(loop.body) ||
        model.text(loop.body).find("break") == std::string_view::npos)
        return false;
    bool found = false;
    walkPass(loop, [&](TSNode n, const char* type) {
        if (std::strcmp(type, "break_statement") == 0) {
            const LoopInfo* owner = model.enclosingLoop(n);
            found = owner && owner->index == loop.index;
        }
        return !found;
    });
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

/// A loop's header as written, without its colon (`while True`, `for it in range(max_iter)`),
/// cut at 60 characters, for the cost model's assumption.
QString headerTextOf(const SemanticModel& model, const LoopInfo& loop) {
    if (loop.kind == LoopKind::While)
        return tripTextOf(model, loop);
    const TSNode left = ts_node_child_by_field_name(loop.node, "left", 4);
    const TSNode right = ts_node_child_by_field_name(loop.node, "right", 5);
    if (ts_node_is_null(left) || ts_node_is_null(right))
        return {};
    const std::string_view l = model.text(left);
    const std::string_view r = model.text(right);
    const QString t = QStringLiteral("for %1 in %2")
                          .arg(QString::fromUtf8(l.data(), qsizetype(l.size())),
                               QString::fromUtf8(r.data(), qsizetype(r.size())));
    return t.size() > 60 ? t.left(60) + QStringLiteral("…") : t;
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
        if (w.texts->piece.isEmpty()) {
            const std::string_view t = model.text(p);
            QString piece = QString::fromUtf8(t.data(), qsizetype(std::min<size_t>(t.size(), 40)));
            if (t.size() > 40)
                piece += QStringLiteral("…");
            w.texts.set(&SiteTexts::piece, piece);
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

/// Whether `node` is an assignment that only rebinds names: both sides are names or
/// attributes (`a, b = b, a`, `self.u, self.v = self.v, self.u`), no call, subscript or
/// arithmetic. Rebinding moves no element and launches no runtime task.
bool onlyRebinds(const SemanticModel& model, TSNode node) {
    if (ts_node_is_null(node) || std::strcmp(ts_node_type(node), "assignment") != 0)
        return false;
    auto names = [](TSNode side) {
        if (ts_node_is_null(side))
            return false;
        const char* t = ts_node_type(side);
        auto plain = [](TSNode n) {
            const char* k = ts_node_type(n);
            return std::strcmp(k, "identifier") == 0 || std::strcmp(k, "attribute") == 0;
        };
        if (plain(side))
            return true;
        if (std::strcmp(t, "pattern_list") != 0 && std::strcmp(t, "expression_list") != 0 &&
            std::strcmp(t, "tuple") != 0 && std::strcmp(t, "tuple_pattern") != 0)
            return false;
        const uint32_t n = ts_node_named_child_count(side);
        for (uint32_t i = 0; i < n; ++i)
            if (!plain(ts_node_named_child(side, i)))
                return false;
        return n > 0;
    };
    Q_UNUSED(model);
    return names(ts_node_child_by_field_name(node, "left", 4)) &&
           names(ts_node_child_by_field_name(node, "right", 5));
}

/// Whether `n` is the bare name of one of `loop`'s variables.
bool isLoopName(const SemanticModel& model, TSNode n, const LoopInfo& loop) {
    if (ts_node_is_null(n) || std::strcmp(ts_node_type(n), "identifier") != 0)
        return false;
    const std::string_view t = model.text(n);
    return loop.variables.contains(QString::fromUtf8(t.data(), qsizetype(t.size())));
}

/// The array a loop over rows walks: its iterable, or the array handed to `enumerate`,
/// `reversed` or `zip` (the first one, as Loops.cpp picks it).
TSNode iteratedArray(const SemanticModel& model, const LoopInfo& loop) {
    const TSNode it = loop.iterable;
    if (ts_node_is_null(it) || std::strcmp(ts_node_type(it), "call") != 0)
        return it;
    const std::string_view fn = model.text(ts_node_child_by_field_name(it, "function", 8));
    if (fn != "enumerate" && fn != "reversed" && fn != "zip")
        return it;
    for (int i = 0; i < SemanticModel::positionalCount(it); ++i)
        if (model.isArray(SemanticModel::argument(it, i)))
            return SemanticModel::argument(it, i);
    return it;
}

/// The elements per row of the array `loop` iterates when every extent but the first is a
/// literal (1 for a 1-D array), 0 when not known.
qint64 rowLength(const SemanticModel& model, const LoopInfo& loop) {
    const Shape s = model.shapeOf(iteratedArray(model, loop));
    if (!s.known() || s.rank < 1)
        return 0;
    qint64 per = 1;
    for (int k = 1; k < s.rank && per > 0; ++k) {
        const Extent e = s.axis(k);
        per = e.isLiteral() && e.value >= 0 ? per * e.value : 0;
    }
    return per;
}

/// `call`'s text, cut at 40 characters.
QString callText(const SemanticModel& model, TSNode call) {
    const std::string_view t = model.text(call);
    return QString::fromUtf8(t.data(), qsizetype(std::min<size_t>(t.size(), 40)));
}

/// With `loop` a loop over the rows of an array (`for row in grid`): what one pass does with
/// the row (builtins walking it element by element, whole-row operations) and the row's
/// length when the array's shape gives it, into `w`.
void probeRows(const SemanticModel& model, const LoopInfo& loop, SiteWork& w) {
    w.rowLoop = true;
    w.rowElements = rowLength(model, loop);
    if (ts_node_is_null(loop.body))
        return;
    walkPass(loop, [&](TSNode n, const char* type) {
        if (std::strcmp(type, "call") == 0) {
            const TSNode fn = ts_node_child_by_field_name(n, "function", 8);
            if (rowWalkedByBuiltin(model, n) == &loop) {
                ++w.rowWalks;
                if (w.texts->rowWalk.isEmpty())
                    w.texts.set(&SiteTexts::rowWalk, callText(model, n));
            } else {
                // `row.max()`, `np.sum(row)`: one whole-row task.
                bool onRow = std::strcmp(ts_node_type(fn), "attribute") == 0 &&
                             isLoopName(model, ts_node_child_by_field_name(fn, "object", 6), loop);
                for (int i = 0; !onRow && i < SemanticModel::positionalCount(n); ++i)
                    onRow = isLoopName(model, SemanticModel::argument(n, i), loop);
                if (onRow)
                    ++w.rowOps;
            }
        } else if (std::strcmp(type, "binary_operator") == 0 ||
                   std::strcmp(type, "augmented_assignment") == 0) {
            const TSNode l = ts_node_child_by_field_name(n, "left", 4);
            const TSNode r = ts_node_child_by_field_name(n, "right", 5);
            if (isLoopName(model, l, loop) || isLoopName(model, r, loop))
                ++w.rowOps;
        }
        return true;
    });
}

/// With `cond` an `if` condition: the divisor k of an every-k-th-pass test
/// (`(step + 1) % k == 0`, `step % k == 0`, `0 == i % k`, `not i % k`), or a null node.
TSNode moduloDivisor(const SemanticModel& model, TSNode cond) {
    while (!ts_node_is_null(cond) &&
           std::strcmp(ts_node_type(cond), "parenthesized_expression") == 0)
        cond = ts_node_named_child(cond, 0);
    if (ts_node_is_null(cond))
        return {};
    auto divisorOf = [&model](TSNode e) -> TSNode {
        while (!ts_node_is_null(e) && std::strcmp(ts_node_type(e), "parenthesized_expression") == 0)
            e = ts_node_named_child(e, 0);
        if (ts_node_is_null(e) || std::strcmp(ts_node_type(e), "binary_operator") != 0)
            return {};
        const TSNode op = ts_node_child_by_field_name(e, "operator", 8);
        if (ts_node_is_null(op) || model.text(op) != "%")
            return {};
        return ts_node_child_by_field_name(e, "right", 5);
    };
    const char* type = ts_node_type(cond);
    if (std::strcmp(type, "not_operator") == 0)
        return divisorOf(ts_node_child_by_field_name(cond, "argument", 8));
    if (std::strcmp(type, "comparison_operator") != 0 || ts_node_named_child_count(cond) != 2)
        return {};
    // One `==` between the remainder and a literal 0.
    const TSNode a = ts_node_named_child(cond, 0);
    const TSNode b = ts_node_named_child(cond, 1);
    const std::string_view whole = model.text(cond);
    if (whole.find("==") == std::string_view::npos)
        return {};
    if (model.text(b) == "0")
        return divisorOf(a);
    if (model.text(a) == "0")
        return divisorOf(b);
    return {};
}

/// The every-k-th-pass guard around `n` inside its innermost loop (an `if` whose body holds
/// `n` and whose condition is a remainder test), or a null node: the divisor k.
TSNode guardDivisor(const SemanticModel& model, TSNode n, const LoopInfo& loop) {
    TSNode child = n;
    for (TSNode p = ts_node_parent(n); !ts_node_is_null(p) && !ts_node_eq(p, loop.node);
         child = p, p = ts_node_parent(p)) {
        if (std::strcmp(ts_node_type(p), "if_statement") != 0)
            continue;
        const TSNode body = ts_node_child_by_field_name(p, "consequence", 11);
        if (ts_node_is_null(body) || !ts_node_eq(body, child))
            continue;
        const TSNode k = moduloDivisor(model, ts_node_child_by_field_name(p, "condition", 9));
        if (!ts_node_is_null(k))
            return k;
    }
    return {};
}

/// k of a guard's divisor: a literal or constant (extentOf), else the literal integer default
/// of a parameter of the function around the guard (`check_every=100`); 0 when neither.
/// `byDefault` tells which.
qint64 divisorValue(const SemanticModel& model, TSNode k, bool& byDefault) {
    byDefault = false;
    const Extent e = model.extentOf(k);
    if (e.isLiteral() && e.value > 0)
        return e.value;
    if (std::strcmp(ts_node_type(k), "identifier") != 0)
        return 0;
    const FunctionRegion* f = model.enclosingFunctionRegion(k);
    if (!f)
        return 0;
    const TSNode params = ts_node_child_by_field_name(f->node, "parameters", 10);
    for (uint32_t i = 0; !ts_node_is_null(params) && i < ts_node_named_child_count(params); ++i) {
        const TSNode p = ts_node_named_child(params, i);
        if (std::strcmp(ts_node_type(p), "default_parameter") != 0 &&
            std::strcmp(ts_node_type(p), "typed_default_parameter") != 0)
            continue;
        const TSNode name = ts_node_child_by_field_name(p, "name", 4);
        const TSNode value = ts_node_child_by_field_name(p, "value", 5);
        if (ts_node_is_null(name) || ts_node_is_null(value) || model.text(name) != model.text(k))
            continue;
        if (std::strcmp(ts_node_type(value), "integer") != 0)
            return 0;
        const std::string_view t = model.text(value);
        bool ok = false;
        const qint64 v = QString::fromUtf8(t.data(), qsizetype(t.size()))
                             .remove(QLatin1Char('_'))
                             .toLongLong(&ok);
        byDefault = ok && v > 0;
        return byDefault ? v : 0;
    }
    return 0;
}

/// Records the guard with divisor `k` (null: none) as one of the site's guards: the smallest
/// known k wins (the most frequent run bounds the cost from below); an unguarded run
/// clears it.
struct Guards {
    bool any = false;       ///< some run was seen
    bool unguarded = false; ///< some run has no guard
    qint64 k = 0;           ///< smallest known k
    bool unknownK = false;  ///< some guard's k is not known
    QString text;
};
void addGuard(const SemanticModel& model, TSNode k, Guards& g) {
    g.any = true;
    if (ts_node_is_null(k)) {
        g.unguarded = true;
        return;
    }
    bool byDefault = false;
    const qint64 v = divisorValue(model, k, byDefault);
    const std::string_view t = model.text(k);
    const QString name = QString::fromUtf8(t.data(), qsizetype(std::min<size_t>(t.size(), 40)));
    if (v <= 0) {
        g.unknownK = true;
        if (g.text.isEmpty())
            g.text = QStringLiteral("`%1`").arg(name);
        return;
    }
    if (g.k == 0 || v < g.k) {
        g.k = v;
        g.text = byDefault || name != QString::number(v)
                     ? QStringLiteral("`%1` = %2%3")
                           .arg(name)
                           .arg(v)
                           .arg(byDefault ? QStringLiteral(", its default") : QString())
                     : QString::number(v);
    }
}

/// Whether `n` (in `loop`, or in a function every loop-borne call of which is guarded) runs
/// only every k-th pass: fills `w.everyKth` / `everyK` / `texts->every`.
void probeEveryKth(const SemanticModel& model, TSNode n, const LoopInfo* loop, SiteWork& w) {
    Guards g;
    if (loop) {
        addGuard(model, guardDivisor(model, n, *loop), g);
    } else {
        const FunctionRegion* f = model.enclosingFunctionRegion(n);
        if (!f || !f->locallyHot)
            return;
        for (int ci : model.callsTo(f->index)) {
            const TSNode c = model.calls()[size_t(ci)];
            if (!model.inManyPassLoop(c))
                continue;
            const LoopInfo* around = model.enclosingLoop(c);
            if (!around)
                continue;
            addGuard(model, guardDivisor(model, c, *around), g);
            if (g.unguarded)
                return;
        }
    }
    if (!g.any || g.unguarded)
        return;
    w.everyKth = true;
    w.everyK = g.unknownK ? 0 : g.k;
    w.texts.set(&SiteTexts::every, g.text);
}

/// Whether some call of the function around `n` in this file lies inside a step loop (a loop of
/// TripClass::Steps around the call, in the caller's function).
bool calledInStepLoop(const SemanticModel& model, TSNode n) {
    const FunctionRegion* f = model.enclosingFunctionRegion(n);
    if (!f)
        return false;
    for (int ci : model.callsTo(f->index)) {
        const TSNode c = model.calls()[size_t(ci)];
        for (const LoopInfo* l = model.enclosingLoop(c); l;
             l = l->parent >= 0 ? &model.loops()[size_t(l->parent)] : nullptr)
            if (l->literalCount <= 0 && model.loopWork(*l).trip == TripClass::Steps)
                return true;
    }
    return false;
}

/// Whether the index of subscript `sub` (all but its value) mentions one of `vars`.
bool indexedBy(const SemanticModel& model, TSNode sub, const QStringList& vars) {
    const TSNode value = ts_node_child_by_field_name(sub, "value", 5);
    std::vector<TSNode> todo;
    for (uint32_t i = 0; i < ts_node_named_child_count(sub); ++i)
        if (!ts_node_eq(ts_node_named_child(sub, i), value))
            todo.push_back(ts_node_named_child(sub, i));
    while (!todo.empty()) {
        const TSNode n = todo.back();
        todo.pop_back();
        if (std::strcmp(ts_node_type(n), "identifier") == 0) {
            const std::string_view t = model.text(n);
            if (vars.contains(QString::fromUtf8(t.data(), qsizetype(t.size()))))
                return true;
            continue;
        }
        for (uint32_t i = 0; i < ts_node_named_child_count(n); ++i)
            todo.push_back(ts_node_named_child(n, i));
    }
    return false;
}

/// Whether a call is one of Python's builtins or a NumPy / math function: its own cost is an
/// element access or an array operation, counted elsewhere, not a call into other code.
bool ownCall(const SemanticModel& model, TSNode call) {
    const TSNode fn = ts_node_child_by_field_name(call, "function", 8);
    if (ts_node_is_null(fn))
        return true;
    const QString name = model.callName(call);
    if (name.startsWith(QLatin1String("numpy.")) || name.startsWith(QLatin1String("math.")) ||
        name.startsWith(QLatin1String("cmath.")))
        return true;
    if (std::strcmp(ts_node_type(fn), "identifier") != 0)
        return false;
    static const char* const builtins[] = {
        "abs",  "all",    "any",  "bool",     "complex", "divmod", "enumerate",  "float",
        "int",  "len",    "list", "max",      "min",     "print",  "range",      "round",
        "set",  "sorted", "str",  "sum",      "tuple",   "zip",    "isinstance", "pow",
        "dict", "iter",   "next", "reversed", "map",     "filter", "repr",       "format"};
    const std::string_view t = model.text(fn);
    return std::any_of(std::begin(builtins), std::end(builtins),
                       [t](const char* b) { return t == b; });
}

/// What one pass of `loop` does with the items its variables (and those of the loops nested in
/// it) pick: `rows`, the subscripts (outermost of a chain) that take a row or slab (their shape
/// has rank >= 1: `p[i]` of a 2-D `p`, `fxy[i][j]` of a 3-D `fxy`); `calls`, the calls into other
/// code (not builtins, NumPy or math: `mlab.csd(ts[j], ts[i])`, a project function) handed such
/// an item: at least one task each after the port, whatever the callee does.
void passItems(const SemanticModel& model, const LoopInfo& loop, qsizetype& rows,
               qsizetype& calls) {
    rows = calls = 0;
    if (loop.kind == LoopKind::Comprehension || ts_node_is_null(loop.body))
        return;
    QStringList vars = loop.variables;
    std::vector<TSNode> todo{loop.body};
    int visited = 0;
    while (!todo.empty() && ++visited < 4096) {
        const TSNode n = todo.back();
        todo.pop_back();
        const char* type = ts_node_type(n);
        if (std::strcmp(type, "function_definition") == 0 ||
            std::strcmp(type, "class_definition") == 0 || std::strcmp(type, "lambda") == 0)
            continue;
        if (std::strcmp(type, "for_statement") == 0) {
            const TSNode left = ts_node_child_by_field_name(n, "left", 4);
            std::vector<TSNode> ids{left};
            while (!ids.empty()) {
                const TSNode id = ids.back();
                ids.pop_back();
                if (ts_node_is_null(id))
                    continue;
                if (std::strcmp(ts_node_type(id), "identifier") == 0) {
                    const std::string_view t = model.text(id);
                    vars << QString::fromUtf8(t.data(), qsizetype(t.size()));
                }
                for (uint32_t i = 0; i < ts_node_named_child_count(id); ++i)
                    ids.push_back(ts_node_named_child(id, i));
            }
        } else if (std::strcmp(type, "subscript") == 0) {
            const TSNode parent = ts_node_parent(n);
            const bool chained = std::strcmp(ts_node_type(parent), "subscript") == 0 &&
                                 ts_node_eq(ts_node_child_by_field_name(parent, "value", 5), n);
            if (!chained && indexedBy(model, n, vars)) {
                const Shape sh = model.shapeOf(n);
                rows += sh.known() && sh.rank >= 1 ? 1 : 0;
            }
        } else if (std::strcmp(type, "call") == 0 && !ownCall(model, n)) {
            for (int i = 0; i < SemanticModel::positionalCount(n); ++i) {
                TSNode a = SemanticModel::argument(n, i);
                while (!ts_node_is_null(a) && std::strcmp(ts_node_type(a), "subscript") == 0 &&
                       !indexedBy(model, a, vars))
                    a = ts_node_child_by_field_name(a, "value", 5);
                if (!ts_node_is_null(a) && std::strcmp(ts_node_type(a), "subscript") == 0) {
                    ++calls;
                    break;
                }
            }
        }
        // Children in reverse, so that a nested loop's header is seen before its body.
        for (uint32_t i = ts_node_named_child_count(n); i > 0; --i)
            todo.push_back(ts_node_named_child(n, i - 1));
    }
}

/// The first loop nested in `loop` (not a comprehension) without a literal count whose trip
/// class is a data extent or unknown, or nullptr: the loop whose passes a pass of `loop` runs.
const LoopInfo* nestedUnknownLoop(const SemanticModel& model, const LoopInfo& loop) {
    for (const LoopInfo& l : model.loops()) {
        if (l.parent != loop.index || l.kind == LoopKind::Comprehension || l.literalCount > 0)
            continue;
        const TripClass t = model.loopWork(l).trip;
        if (t == TripClass::Data || t == TripClass::Unknown)
            return &l;
    }
    return nullptr;
}

/// NumPy calls that make no task of their own: views and metadata (`reshape`, `.T`, `asarray` of
/// an array), host reads (`.item()`, `.tolist()`: a sync, costed by R104/R105) and `empty`
/// (allocates, writes nothing).
bool taskFreeCall(const QString& name) {
    static const char* const leaves[] = {"reshape",     "transpose",    "swapaxes",   "squeeze",
                                         "expand_dims", "view",         "asarray",    "item",
                                         "tolist",      "empty",        "empty_like", "shape",
                                         "ndim",        "broadcast_to", "atleast_1d", "atleast_2d",
                                         "atleast_3d",  "moveaxis",     "newaxis"};
    const qsizetype dot = name.lastIndexOf(QLatin1Char('.'));
    const QStringView leaf = QStringView(name).mid(dot + 1);
    return std::any_of(std::begin(leaves), std::end(leaves),
                       [leaf](const char* l) { return leaf == QLatin1String(l); });
}

/// NumPy constructors that fill a new array (`zeros`, `ones_like`, `arange`): one task writing
/// it, reading no array.
bool fillingConstructor(const QString& name) {
    static const char* const names[] = {
        "numpy.zeros",     "numpy.ones",   "numpy.full",     "numpy.zeros_like", "numpy.ones_like",
        "numpy.full_like", "numpy.arange", "numpy.linspace", "numpy.eye",        "numpy.identity"};
    return std::any_of(std::begin(names), std::end(names),
                       [&name](const char* n) { return name == QLatin1String(n); });
}

/// Counts the array operations of an expression or simple statement (not entering nested
/// definitions): without fusion every operator on an array is its own runtime task, reading
/// its array inputs and writing a temporary the size of its result (gpu-stack.md §1, "L2
/// cache": `c = a*x + b*y` is three tasks and three trips through device memory). `ops` gets
/// one per such operator, `passes` one per array it reads or writes. Only operands known to be
/// arrays are counted, and a reduction's one-number result and a comparison's flags are not,
/// so both stay lower bounds.
void countArrayOps(const SemanticModel& model, TSNode root, quint32& ops, quint32& passes) {
    if (ts_node_is_null(root))
        return;
    auto arr = [&model](TSNode n) { return !ts_node_is_null(n) && model.isArray(n); };
    TSTreeCursor cursor = ts_tree_cursor_new(root);
    int visited = 0;
    for (bool more = true; more && visited < 4096;) {
        const TSNode n = ts_tree_cursor_current_node(&cursor);
        ++visited;
        const char* type = ts_node_type(n);
        const bool nested = std::strcmp(type, "function_definition") == 0 ||
                            std::strcmp(type, "class_definition") == 0 ||
                            std::strcmp(type, "lambda") == 0;
        if (std::strcmp(type, "binary_operator") == 0 || std::strcmp(type, "unary_operator") == 0) {
            if (arr(n)) {
                ++ops;
                passes += 1; // its temporary
                for (const char* side : {"left", "right", "argument"})
                    passes += arr(ts_node_child_by_field_name(n, side, uint32_t(std::strlen(side))))
                                  ? 1
                                  : 0;
            }
        } else if (std::strcmp(type, "comparison_operator") == 0) {
            bool any = false;
            for (uint32_t i = 0; i < ts_node_named_child_count(n); ++i)
                if (arr(ts_node_named_child(n, i))) {
                    any = true;
                    ++passes;
                }
            ops += any ? 1 : 0;
        } else if (std::strcmp(type, "augmented_assignment") == 0) {
            const TSNode l = ts_node_child_by_field_name(n, "left", 4);
            const TSNode r = ts_node_child_by_field_name(n, "right", 5);
            if (arr(l)) {
                ++ops;
                passes += 2 + (arr(r) ? 1 : 0); // reads the target (and the value), writes it
            }
        } else if (std::strcmp(type, "assignment") == 0) {
            const TSNode l = ts_node_child_by_field_name(n, "left", 4);
            const TSNode r = ts_node_child_by_field_name(n, "right", 5);
            if (!ts_node_is_null(l) && std::strcmp(ts_node_type(l), "subscript") == 0 && arr(l)) {
                ++ops; // the copy (or fill) into the slice
                passes += 1 + (arr(r) ? 1 : 0);
            }
        } else if (std::strcmp(type, "call") == 0) {
            const QString name = model.callName(n);
            if (name.startsWith(QLatin1String("numpy.")) && !taskFreeCall(name)) {
                if (fillingConstructor(name)) {
                    ++ops;
                    ++passes;
                } else {
                    quint32 reads = 0;
                    const TSNode fn = ts_node_child_by_field_name(n, "function", 8);
                    if (!ts_node_is_null(fn) && std::strcmp(ts_node_type(fn), "attribute") == 0 &&
                        arr(ts_node_child_by_field_name(fn, "object", 6)))
                        ++reads;
                    for (int i = 0; i < SemanticModel::positionalCount(n); ++i)
                        reads += arr(SemanticModel::argument(n, i)) ? 1 : 0;
                    if (reads > 0) {
                        ++ops;
                        passes += reads + (arr(n) ? 1 : 0);
                    }
                }
            }
        }
        if (!nested && ts_tree_cursor_goto_first_child(&cursor))
            continue;
        while (!ts_tree_cursor_goto_next_sibling(&cursor)) {
            if (!ts_tree_cursor_goto_parent(&cursor) ||
                ts_node_eq(ts_tree_cursor_current_node(&cursor), root)) {
                more = false;
                break;
            }
        }
    }
    ts_tree_cursor_delete(&cursor);
}

/// The part of a statement that runs whenever it does: a compound statement's header (an
/// `if` or `while` condition, a `for` iterable), a simple statement whole; null for the rest
/// (`try`, definitions).
TSNode unconditionalPart(TSNode stmt) {
    const char* type = ts_node_type(stmt);
    if (std::strcmp(type, "if_statement") == 0 || std::strcmp(type, "while_statement") == 0)
        return ts_node_child_by_field_name(stmt, "condition", 9);
    if (std::strcmp(type, "for_statement") == 0)
        return ts_node_child_by_field_name(stmt, "right", 5);
    if (std::strcmp(type, "with_statement") == 0 || std::strcmp(type, "try_statement") == 0 ||
        std::strcmp(type, "function_definition") == 0 ||
        std::strcmp(type, "class_definition") == 0 ||
        std::strcmp(type, "decorated_definition") == 0)
        return {};
    return stmt;
}

/// The array operations one pass of `loop` runs for sure: its `while` condition and the
/// statements of its body outside branches and nested loops (their headers only), `with`
/// bodies included. A lower bound on the tasks of a pass, whatever the arrays' sizes.
void countPassOps(const SemanticModel& model, const LoopInfo& loop, quint32& ops, quint32& passes) {
    if (loop.kind == LoopKind::Comprehension || ts_node_is_null(loop.body))
        return;
    if (loop.kind == LoopKind::While)
        countArrayOps(model, loop.condition, ops, passes);
    std::vector<TSNode> blocks{loop.body};
    while (!blocks.empty()) {
        const TSNode block = blocks.back();
        blocks.pop_back();
        for (uint32_t i = 0; i < ts_node_named_child_count(block); ++i) {
            const TSNode stmt = ts_node_named_child(block, i);
            if (std::strcmp(ts_node_type(stmt), "with_statement") == 0) {
                const TSNode body = ts_node_child_by_field_name(stmt, "body", 4);
                if (!ts_node_is_null(body))
                    blocks.push_back(body);
                continue;
            }
            countArrayOps(model, unconditionalPart(stmt), ops, passes);
        }
    }
}

/// The statement `node` belongs to (the child of a block, or of the module), and of it the
/// part that runs whenever it does (unconditionalPart); `node` itself for a loop.
TSNode statementOf(const SemanticModel& model, TSNode node) {
    if (model.loopOf(node))
        return {};
    TSNode s = node;
    for (TSNode p = ts_node_parent(s); !ts_node_is_null(p); s = p, p = ts_node_parent(p)) {
        const char* t = ts_node_type(p);
        if (std::strcmp(t, "block") == 0 || std::strcmp(t, "module") == 0)
            break;
    }
    return unconditionalPart(s);
}

} // namespace

const LoopInfo* rowWalkedByBuiltin(const SemanticModel& model, TSNode call) {
    if (ts_node_is_null(call) || std::strcmp(ts_node_type(call), "call") != 0)
        return nullptr;
    const TSNode fn = ts_node_child_by_field_name(call, "function", 8);
    if (ts_node_is_null(fn) || std::strcmp(ts_node_type(fn), "identifier") != 0)
        return nullptr;
    static const char* const names[] = {"max",    "min",  "sum",   "any",      "all",
                                        "sorted", "list", "tuple", "reversed", "iter"};
    const std::string_view name = model.text(fn);
    if (std::none_of(std::begin(names), std::end(names),
                     [name](const char* n) { return name == n; }))
        return nullptr;
    // One walked argument: `sum(row, start)` still walks `row`; `max(a, b)` compares two
    // values and `iter(f, sentinel)` calls `f`.
    const int positional = SemanticModel::positionalCount(call);
    if (positional != 1 && !(positional == 2 && name == "sum"))
        return nullptr;
    if (!model.canonicalName(fn).isEmpty() ||
        model.isNameBound(QString::fromUtf8(name.data(), qsizetype(name.size())), fn))
        return nullptr;
    const TSNode a = SemanticModel::argument(call, 0);
    if (ts_node_is_null(a) || std::strcmp(ts_node_type(a), "identifier") != 0)
        return nullptr;
    for (const LoopInfo* l = model.enclosingLoop(call); l;
         l = l->parent >= 0 ? &model.loops()[size_t(l->parent)] : nullptr) {
        if (!isLoopName(model, a, *l))
            continue;
        // The item, not an index: the whole target of `for row in grid`, the second name of
        // `for i, row in enumerate(grid)`.
        TSNode left{};
        if (l->kind == LoopKind::For) {
            left = ts_node_child_by_field_name(l->node, "left", 4);
        } else if (l->kind == LoopKind::Comprehension) {
            // `[max(r) for r in grid]`: the first `for` clause walks the iterable.
            for (uint32_t i = 0; i < ts_node_named_child_count(l->node); ++i) {
                const TSNode c = ts_node_named_child(l->node, i);
                if (std::strcmp(ts_node_type(c), "for_in_clause") == 0) {
                    left = ts_node_child_by_field_name(c, "left", 4);
                    break;
                }
            }
        }
        if (ts_node_is_null(left))
            return nullptr;
        if (l->source == LoopSource::Array)
            return std::strcmp(ts_node_type(left), "identifier") == 0 ? l : nullptr;
        if (l->source == LoopSource::EnumerateArray)
            return ts_node_named_child_count(left) == 2 &&
                           model.text(ts_node_named_child(left, 1)) == model.text(a)
                       ? l
                       : nullptr;
        return nullptr;
    }
    return nullptr;
}

SiteWork probeSiteWork(const SemanticModel& model, TSNode node) {
    SiteWork w;
    w.known = true;
    if (ts_node_is_null(node))
        return w;
    const LoopInfo* loop = model.loopOf(node);
    if (!loop)
        loop = model.enclosingLoop(node);
    // The loops around, innermost first, with what decides how they count: a literal count
    // (`items`), a count the shapes give, or a step loop of unknown count; and whether each
    // ends by `break` (a convergence loop).
    struct Around {
        const LoopInfo* loop;
        qint64 items;      ///< literal count or items, 0 when none
        qint64 fromShapes; ///< count from the shapes (not for step loops), 0 when none
        bool ends;         ///< ends by its own `break`
        bool step;         ///< a step loop (unknown count) or a counted loop that ends by break
    };
    std::vector<Around> around;
    for (const LoopInfo* l = loop; l;
         l = l->parent >= 0 ? &model.loops()[size_t(l->parent)] : nullptr) {
        const LoopWork& lw = model.loopWork(*l);
        const qint64 items = l->literalCount > 0          ? l->literalCount
                             : l->kind == LoopKind::While ? 0
                                                          : literalItems(l->iterable);
        const qint64 fromShapes =
            items > 0 || lw.trip == TripClass::Steps ? 0 : tripFromShapes(model, *l);
        const bool counted = items > 0 || fromShapes > 0;
        // A loop that ends by `break` runs until it converges: its count is a cap. (Asked
        // only of counted loops and step loops, whose passes it changes.)
        // A `range()` whose bound the model cannot class (`range(params['max_num_iter'])`)
        // and whose variable picks no data is a step loop too when it ends by `break`.
        const bool picksNoData =
            lw.work == PassWork::Unknown || (lw.work == PassWork::Slab && lw.wholeOperationsOnly);
        const bool openRange = !counted && lw.trip == TripClass::Unknown &&
                               l->source == LoopSource::Range && picksNoData;
        const bool ends =
            (counted || lw.trip == TripClass::Steps || openRange) && endsByBreak(model, *l);
        const bool unknownStep = !counted && (lw.trip == TripClass::Steps || (openRange && ends));
        // A counted loop that breaks is a convergence loop unless its variable walks data: a
        // search over an axis (`if x[i] > t: break`) is not a step loop. (`range(10_000)` is
        // a data-class trip; its sweeps index nothing with `sweep`.)
        const bool walksData = lw.trip == TripClass::Data && !picksNoData;
        around.push_back(
            {l, items, fromShapes, ends, unknownStep || (counted && ends && !walksData)});
    }
    // The outermost step loop: when it ends by `break` it is the loop the steps are the passes
    // of, run until it converges (the number of steps not known); a loop that ends by `break`
    // inside it is a convergence loop per step (its passes per step not known).
    const Around* outerStep = nullptr;
    for (const Around& a : around)
        if (a.step)
            outerStep = &a;
    if (outerStep && outerStep->ends) {
        w.untilConverged = true;
        w.convergeCap = outerStep->items > 0 ? outerStep->items : outerStep->fromShapes;
        w.texts.set(&SiteTexts::converge, headerTextOf(model, *outerStep->loop));
    } else {
        outerStep = nullptr;
    }
    bool innermost = true;
    const LoopInfo* innerUnknown = nullptr; // the innermost and outermost loops of unknown trip
    const LoopInfo* outerUnknown = nullptr;
    // A step is one pass of the outermost step loop: the loops around it (trials, files) repeat
    // whole runs, so their passes are not multiplied into the site's per-step figures.
    const Around* stepsFrom = nullptr;
    for (const Around& a : around)
        if (a.step)
            stepsFrom = &a;
    for (const Around& a : around) {
        const LoopInfo* l = a.loop;
        const LoopWork& lw = model.loopWork(*l);
        const bool literal = a.items > 0;
        const bool outsideSteps = stepsFrom && &a > stepsFrom;
        if (&a == outerStep || outsideSteps) {
            // Its passes are the steps: none is multiplied in, its cap is convergeCap.
        } else if (a.ends) {
            w.breaks = true;
            const qint64 cap = literal ? a.items : a.fromShapes;
            w.breakCap = cap > 0 ? std::min<qint64>(qint64(1) << 62, w.breakCap * cap) : 0;
        } else if (literal) {
            w.smallPasses = qint32(std::min<qint64>(std::numeric_limits<qint32>::max(),
                                                    qint64(w.smallPasses) * a.items));
        } else if (a.fromShapes > 0) {
            w.shapeTrips = std::min<qint64>(qint64(1) << 62, w.shapeTrips * a.fromShapes);
        } else if (lw.trip == TripClass::Data || lw.trip == TripClass::Unknown) {
            w.unknownTrips = quint8(std::min(255, w.unknownTrips + 1));
            if (lw.trip == TripClass::Data)
                w.unknownDataTrips = quint8(std::min(255, w.unknownDataTrips + 1));
            if (w.texts->trip.isEmpty())
                w.texts.set(&SiteTexts::trip, tripTextOf(model, *l));
            if (w.unknownTrips == 1)
                innerUnknown = l;
            outerUnknown = l;
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
            qsizetype rows = 0, calls = 0;
            passItems(model, *l, rows, calls);
            w.rowPicks = quint16(std::min<qsizetype>(65535, rows));
            w.passCalls = quint16(std::min<qsizetype>(
                65535, std::max<qsizetype>(calls, qsizetype(lw.elementCalls.size()))));
            innermost = false;
        }
    }
    // A finding on a loop whose pass runs a nested loop of unknown count: the accesses are per
    // pass of the nested loop, and the finding's loop multiplies them.
    if (const LoopInfo* own = model.loopOf(node); own && w.unknownTrips >= 1 && outerUnknown) {
        if (const LoopInfo* nested = nestedUnknownLoop(model, *own))
            innerUnknown = nested;
    }
    if (innerUnknown && outerUnknown && innerUnknown != outerUnknown) {
        w.texts.set(&SiteTexts::innerLoop, headerTextOf(model, *innerUnknown));
        w.texts.set(&SiteTexts::outerLoop, headerTextOf(model, *outerUnknown));
    }
    // The statement's operators (one task each, no fusion) and the array operations one pass
    // of the innermost loop around runs for sure.
    {
        quint32 ops = 0, passes = 0;
        countArrayOps(model, statementOf(model, node), ops, passes);
        w.statementOps = quint16(std::min<quint32>(65535, ops));
        w.statementPasses = quint16(std::min<quint32>(65535, passes));
        if (loop) {
            quint32 pops = 0, ppasses = 0;
            countPassOps(model, *loop, pops, ppasses);
            w.passOps = quint16(std::min<quint32>(65535, pops));
        }
    }
    // What a growing stack appends per pass (R203 reports on the accumulator).
    probeAppended(model, node, model.enclosingLoop(node), w);
    w.rebinding = onlyRebinds(model, node);
    if (const LoopInfo* own = model.loopOf(node);
        own && (own->source == LoopSource::Array || own->source == LoopSource::EnumerateArray))
        probeRows(model, *own, w);
    if (const LoopInfo* rows = rowWalkedByBuiltin(model, node)) {
        // A builtin walking the row of a loop over an array (R110 on `max(row)`): one pass
        // reads one row element by element; the iterated array sizes it.
        w.rowLoop = true;
        w.rowWalks = 1;
        w.rowElements = rowLength(model, *rows);
        w.texts.set(&SiteTexts::rowWalk, callText(model, node));
        foldShape(model, iteratedArray(model, *rows), w);
    }
    probeEveryKth(model, node, model.enclosingLoop(node), w);
    w.calledInStep = w.stepLoops == 0 && !w.untilConverged && calledInStepLoop(model, node);
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
