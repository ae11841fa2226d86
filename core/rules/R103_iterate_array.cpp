#include "rules/R103_iterate_array.h"

#include "parse/SyntaxTree.h"
#include "rules/BlocksSupport.h"
#include "rules/RuleSupport.h"
#include "semantic/LoopWork.h"
#include "semantic/SemanticModel.h"

#include <optional>
#include <vector>

#include <algorithm>
#include <iterator>

namespace cnready {

using namespace rules;

namespace {
// Whether the pass treats the loop's items as text (`edge.split("_")`, `name.startswith("x")`):
// an array of labels or keys walked to look things up, not numeric data.
bool itemsAreStrings(const SemanticModel& m, const LoopInfo& L) {
    static constexpr std::string_view textMethods[] = {
        "split",  "rsplit", "startswith", "endswith", "lower",  "upper",    "strip",
        "lstrip", "rstrip", "replace",    "encode",   "decode", "casefold", "isdigit"};
    for (const TSNode c : SemanticModel::within(m.calls(), L.hotStart, L.hotEnd)) {
        const TSNode fn = SyntaxTree::field(c, fields().function);
        if (!SyntaxTree::is(fn, "attribute"))
            continue;
        const TSNode obj = SyntaxTree::field(fn, fields().object);
        if (!SyntaxTree::is(obj, "identifier"))
            continue;
        const std::string_view o = m.text(obj);
        if (!L.variables.contains(QString::fromUtf8(o.data(), qsizetype(o.size()))))
            continue;
        const std::string_view meth = m.text(SyntaxTree::field(fn, fields().attribute));
        if (std::find(std::begin(textMethods), std::end(textMethods), meth) !=
            std::end(textMethods))
            return true;
    }
    return false;
}

// Whether the loop calls one of its items (`for norm, model in zip(norms, models): model(x)`)
// or a method no ndarray has on one (`component.containment_fraction(r)`): what it walks
// holds callables or objects (models, kernels, components) on the host; each pass runs one of
// them, not one step of a numeric walk.
bool itemsAreCalled(const SemanticModel& m, const LoopInfo& L) {
    static constexpr std::string_view arrayMethods[] = {
        "all",      "any",       "argmax",   "argmin",       "argpartition", "argsort",   "astype",
        "byteswap", "choose",    "clip",     "compress",     "conj",         "conjugate", "copy",
        "cumprod",  "cumsum",    "diagonal", "dot",          "dump",         "dumps",     "fill",
        "flatten",  "getfield",  "item",     "itemset",      "max",          "mean",      "min",
        "nonzero",  "partition", "prod",     "ptp",          "put",          "ravel",     "repeat",
        "reshape",  "resize",    "round",    "searchsorted", "setfield",     "setflags",  "sort",
        "squeeze",  "std",       "sum",      "swapaxes",     "take",         "tobytes",   "tofile",
        "tolist",   "tostring",  "trace",    "transpose",    "var",          "view",
    };
    const auto isItem = [&](TSNode n) {
        if (!SyntaxTree::is(n, "identifier"))
            return false;
        const std::string_view f = m.text(n);
        return L.variables.contains(QString::fromUtf8(f.data(), qsizetype(f.size())));
    };
    for (const TSNode c : SemanticModel::within(m.calls(), L.hotStart, L.hotEnd)) {
        const TSNode fn = SyntaxTree::field(c, fields().function);
        if (isItem(fn))
            return true;
        if (SyntaxTree::is(fn, "attribute") && isItem(SyntaxTree::field(fn, fields().object))) {
            const std::string_view meth = m.text(SyntaxTree::field(fn, fields().attribute));
            if (meth.substr(0, 2) != "__" &&
                std::find(std::begin(arrayMethods), std::end(arrayMethods), meth) ==
                    std::end(arrayMethods))
                return true;
        }
    }
    return false;
}
} // namespace

const RuleInfo& R103IterateArray::info() const {
    static const RuleInfo i{
        QStringLiteral("R103"),
        Category::Blocks,
        QStringLiteral("iterate-array"),
        QStringLiteral("Python iteration over an ndarray"),
        QStringLiteral("RR-loop"),
        QStringLiteral(
            "Finds `for x in a`, `enumerate(a)` / `zip(a, ...)`, comprehensions and "
            "generator expressions over an array, and `np.nditer` / `np.ndenumerate` "
            "loops. Iterating lists, dicts, ranges, strings or file names is fine, and so "
            "is iterating an object-dtype array (`np.empty(n, dtype=object)`): it "
            "holds Python objects on the host, and R107 reports its creation."),
        QStringLiteral("Python iteration asks the array for one row or element at a time. On "
                       "cuPyNumeric each step waits for the data and copies it to the host, so "
                       "the loop is serial, host-bound and pays a synchronisation per item."),
        QStringLiteral("norms = [np.sqrt(np.dot(r, r)) for r in points]"),
        QStringLiteral("norms = np.sqrt(np.einsum('ij,ij->i', points, points))"),
        false};
    return i;
}

namespace {

// Whether `e`, the element expression of a comprehension over an array, only turns each item
// into a Python value: the item itself, a builtin conversion of it (`int(v)`, `str(v)`), a
// tuple or list of those, or a dictionary entry made of them. There is no array work to
// vectorise in such a comprehension; one `.tolist()` does it (RR-tolist).
bool onlyConvertsItems(const SemanticModel& m, TSNode e, const QStringList& vars) {
    if (ts_node_is_null(e))
        return false;
    if (SyntaxTree::is(e, "identifier"))
        return vars.contains(QString::fromUtf8(m.text(e).data(), qsizetype(m.text(e).size())));
    if (SyntaxTree::is(e, "parenthesized_expression") || SyntaxTree::is(e, "tuple") ||
        SyntaxTree::is(e, "list") || SyntaxTree::is(e, "pair")) {
        bool any = false;
        for (uint32_t k = 0; k < ts_node_named_child_count(e); ++k) {
            const TSNode c = ts_node_named_child(e, k);
            if (SyntaxTree::is(c, "comment"))
                continue;
            if (!onlyConvertsItems(m, c, vars))
                return false;
            any = true;
        }
        return any;
    }
    if (SyntaxTree::is(e, "call")) {
        static const char* const conversions[] = {"int",  "float", "str",  "bool", "complex",
                                                  "repr", "tuple", "list", "hex",  "oct"};
        const TSNode fn = SyntaxTree::field(e, fields().function);
        if (!SyntaxTree::is(fn, "identifier"))
            return false;
        const std::string_view name = m.text(fn);
        bool conversion = false;
        for (const char* c : conversions)
            conversion = conversion || name == c;
        if (!conversion || !blocks::isBuiltin(m, fn, name))
            return false;
        const auto args = positionalArguments(e);
        return args.size() == 1 && onlyConvertsItems(m, args.front(), vars);
    }
    return false;
}

} // namespace

void R103IterateArray::check(const RuleContext& ctx, FindingSink& out) const {
    const SemanticModel& m = ctx.model;
    // An object-dtype array (R107) holds Python objects on the host whatever library made
    // it: walking it (`for ax in axes.flat`) costs no device traffic, and the fix is R107's.
    std::optional<std::vector<blocks::ObjectArrayBinding>> objects;
    // Pass 1: the loops this rule is about. Pass 2 reports each nest of them once, at its
    // outermost loop (RULES.md, the workload model item 7: a blocker is one site).
    struct Hit {
        QString msg;
        bool conversion = false;
    };
    std::vector<std::optional<Hit>> hits(m.loops().size());
    for (const LoopInfo& L : m.loops()) {
        QString how;
        switch (L.source) {
        case LoopSource::Array:
            how = QStringLiteral("iterates the array");
            break;
        case LoopSource::EnumerateArray:
            how = QStringLiteral("iterates the array");
            break;
        case LoopSource::NdIter:
            how = QStringLiteral("walks the array with np.nditer");
            break;
        case LoopSource::NdEnumerate:
            how = QStringLiteral("walks the array with np.ndenumerate");
            break;
        default:
            continue;
        }
        // Judged by one pass: walking a bookkeeping array (a handful of items), or a loop
        // whose every pass does whole-array work on a data-sized slab (a basis table whose
        // rows each fill a whole column), is not the host walk this rule is about.
        const LoopWork& work = m.loopWork(L);
        if (work.trip == TripClass::Small || work.work == PassWork::Slab)
            continue;
        if (!objects)
            objects = blocks::objectArrayBindings(m);
        if (blocks::isObjectArray(m, *objects, L.iterable) || itemsAreStrings(m, L) ||
            itemsAreCalled(m, L))
            continue;
        const QString what = blocks::quoted(m, L.iterable, 48);
        const QString msg =
            L.kind == LoopKind::Comprehension
                ? QStringLiteral("comprehension over %1 %2 on the host, one item per step")
                      .arg(what, how)
                : QStringLiteral("loop over %1 %2 on the host, one item per step").arg(what, how);
        if (out.aboutNoDataArray(L.iterable))
            continue;
        // A filter (`if np.any(col)`, `if g in fold`) is work on the items: not a conversion.
        hits[size_t(L.index)] =
            Hit{msg, L.kind == LoopKind::Comprehension && !rules::hasFilter(L.node) &&
                         onlyConvertsItems(m, L.body, L.variables)};
    }
    // The outermost reported loop of each loop's nest (-1: none), in document order, where
    // an enclosing loop always comes before the loops inside it.
    const auto& loops = m.loops();
    std::vector<int> top(loops.size(), -1), nested(loops.size(), 0);
    for (const LoopInfo& L : loops) {
        const int up = L.parent >= 0 ? top[size_t(L.parent)] : -1;
        top[size_t(L.index)] = up >= 0 ? up : (hits[size_t(L.index)] ? L.index : -1);
        if (up >= 0 && hits[size_t(L.index)])
            ++nested[size_t(up)];
    }
    for (const LoopInfo& L : loops) {
        const std::optional<Hit>& h = hits[size_t(L.index)];
        if (!h || top[size_t(L.index)] != L.index)
            continue;
        QString msg = h->msg;
        if (const int n = nested[size_t(L.index)]; n > 0)
            msg += QStringLiteral(", with %1 more array walk%2 nested inside")
                       .arg(n)
                       .arg(n > 1 ? QStringLiteral("s") : QString());
        if (h->conversion)
            out.report(L.node, msg, 1);
        else
            out.report(L.node, msg);
    }
}

} // namespace cnready
