#include "rules/R107_object_dtype.h"

#include "parse/SyntaxTree.h"
#include "rules/BlocksSupport.h"
#include "semantic/SemanticModel.h"

namespace cnready {

namespace {

// Whether the object array holds text: names, labels, identifiers read from a file
// (`np.array(atomnames, dtype=object)`, `np.array([str(r) for r in rows], dtype=object)`).
// Such an array is metadata that stays in host NumPy; there is no numeric data to distribute,
// so the structure-of-arrays recipe has nothing to do (RULES.md: scaling rules are about data
// arrays).
bool textItem(const SemanticModel& m, TSNode body) {
    if (SyntaxTree::is(body, "string"))
        return true;
    if (!SyntaxTree::is(body, "call"))
        return false;
    const std::string_view f = m.text(SyntaxTree::field(body, "function"));
    return f == "str" || f.ends_with(".strip") || f.ends_with(".decode") || f.ends_with(".upper") ||
           f.ends_with(".lower");
}

// Whether `name` is bound, in the function of `use` and before it, to a list comprehension
// whose items are text.
bool comprehensionOfText(const SemanticModel& m, TSNode name, TSNode use) {
    const FunctionRegion* f = m.enclosingFunctionRegion(use);
    if (!f)
        return false;
    for (const TSNode a : SemanticModel::within(m.assignments(), ts_node_start_byte(f->node),
                                                ts_node_start_byte(use))) {
        const TSNode left = SyntaxTree::field(a, "left");
        const TSNode right = SyntaxTree::field(a, "right");
        if (SyntaxTree::is(left, "identifier") && m.text(left) == m.text(name) &&
            SyntaxTree::is(right, "list_comprehension") &&
            textItem(m, SyntaxTree::field(right, "body")))
            return true;
    }
    return false;
}

// `np.dtype(object)` makes a type, not an array. It counts where an array gets it: passed to
// a NumPy call, an `astype` or a function of the project (`np.empty(n, dtype=np.dtype("O"))`),
// or bound to a name that is then passed so (`OBJ = np.dtype(object)` ... `dtype=OBJ`). Kept
// as metadata (`self.dtype = np.dtype("O")` for a variable-length string column) or handed to
// `getattr` as a default, it builds nothing.
bool dtypeReachesAnArray(const SemanticModel& m, TSNode c) {
    const auto takesDtype = [&m](TSNode call) {
        if (!SyntaxTree::is(call, "call"))
            return false;
        const TSNode fn = SyntaxTree::field(call, "function");
        if (SyntaxTree::is(fn, "attribute") &&
            m.text(SyntaxTree::field(fn, "attribute")) == std::string_view("astype"))
            return true;
        if (m.callName(call).startsWith(QLatin1String("numpy.")))
            return true;
        return SyntaxTree::is(fn, "identifier") && m.callName(call).isEmpty() &&
               m.isNameBound(m.tree().qtext(fn), fn);
    };
    const auto passed = [&](TSNode v) {
        TSNode p = ts_node_parent(v);
        if (SyntaxTree::is(p, "keyword_argument"))
            p = ts_node_parent(p);
        return SyntaxTree::is(p, "argument_list") && takesDtype(ts_node_parent(p));
    };
    const TSNode p = ts_node_parent(c);
    if (!SyntaxTree::is(p, "assignment"))
        return passed(c);
    const TSNode left = SyntaxTree::field(p, "left");
    if (!SyntaxTree::is(left, "identifier"))
        return false;
    const FunctionRegion* f = m.enclosingFunctionRegion(c);
    const uint32_t end = f ? ts_node_end_byte(f->node) : ts_node_end_byte(m.tree().root());
    for (const TSNode k : SemanticModel::within(m.keywordArguments(), ts_node_end_byte(p), end)) {
        const TSNode v = SyntaxTree::field(k, "value");
        if (SyntaxTree::is(v, "identifier") && m.text(v) == m.text(left) && passed(v))
            return true;
    }
    for (const TSNode call : SemanticModel::within(m.calls(), ts_node_end_byte(p), end)) {
        const TSNode args = SyntaxTree::field(call, "arguments");
        for (uint32_t i = 0; i < ts_node_named_child_count(args); ++i) {
            const TSNode v = ts_node_named_child(args, i);
            if (SyntaxTree::is(v, "identifier") && m.text(v) == m.text(left) && takesDtype(call))
                return true;
        }
    }
    return false;
}

// Whether the object array is built from arrays: a list (or comprehension) of array values,
// the ragged case the structure-of-arrays recipe is for.
bool builtFromArrays(const SemanticModel& m, TSNode c) {
    const TSNode a = SemanticModel::argument(c, 0);
    if (ts_node_is_null(a))
        return false;
    if (SyntaxTree::is(a, "list_comprehension"))
        return m.isArray(SyntaxTree::field(a, "body"));
    if (SyntaxTree::is(a, "list") && ts_node_named_child_count(a) > 0)
        return m.isArray(ts_node_named_child(a, 0));
    return m.isArray(a);
}

bool holdsText(const SemanticModel& m, TSNode c) {
    // Only the calls that take their content: a constructor's first argument is a shape, a
    // dtype's is the type code.
    TSNode a{}; // null unless the call takes content
    const TSNode fn = SyntaxTree::field(c, "function");
    const QString cn = m.callName(c);
    if (SyntaxTree::is(fn, "attribute") && m.text(SyntaxTree::field(fn, "attribute")) == "astype")
        a = SyntaxTree::field(fn, "object");
    else if (cn == QLatin1String("numpy.array") || cn == QLatin1String("numpy.asarray") ||
             cn == QLatin1String("numpy.asanyarray"))
        a = SemanticModel::argument(c, 0);
    else if (cn == QLatin1String("numpy.full") || cn == QLatin1String("numpy.full_like")) {
        // `np.full(n, "", dtype=object)`: a column of text to fill in.
        const TSNode fill = SemanticModel::argument(c, 1);
        if (SyntaxTree::is(fill, "string"))
            return true;
    }
    // `names = np.zeros(n, dtype=object)`, `self.filenames = np.empty(...)`: named for text.
    const TSNode parent = ts_node_parent(c);
    if (SyntaxTree::is(parent, "assignment")) {
        TSNode left = SyntaxTree::field(parent, "left");
        if (SyntaxTree::is(left, "attribute"))
            left = SyntaxTree::field(left, "attribute");
        if (SyntaxTree::is(left, "identifier") && SemanticModel::isTextArrayName(m.text(left)))
            return true;
    }
    if (ts_node_is_null(a))
        return false;
    // `np.array(self._slices + [None], dtype=object)`: a box of Python objects (slices,
    // `None`) to index with; no numbers in it.
    // `np.array(['ATOM'] * n, dtype=object)`, `np.array([None] * len(res), dtype=object)`: a
    // column of one text or of empty slots to fill with Python objects.
    if (SyntaxTree::is(a, "binary_operator")) {
        const auto oneTextOrNone = [](TSNode side) {
            if (!SyntaxTree::is(side, "list") || ts_node_named_child_count(side) != 1)
                return false;
            const TSNode item = ts_node_named_child(side, 0);
            return SyntaxTree::is(item, "none") || SyntaxTree::is(item, "string");
        };
        const TSNode l = SyntaxTree::field(a, "left");
        const TSNode r = SyntaxTree::field(a, "right");
        if (oneTextOrNone(r) || oneTextOrNone(l))
            return true;
    }
    if (m.elementKind(a) == ElementKind::String)
        return true;
    if (SyntaxTree::is(a, "list_comprehension") || SyntaxTree::is(a, "list")) {
        const TSNode body = SyntaxTree::is(a, "list_comprehension") ? SyntaxTree::field(a, "body")
                                                                    : ts_node_named_child(a, 0);
        return textItem(m, body);
    }
    // `decoded = [x.decode(enc) for x in raw]` then `np.array(decoded, dtype=object)`: the
    // name holds the list of text the comprehension built.
    if (SyntaxTree::is(a, "identifier") && comprehensionOfText(m, a, c))
        return true;
    if (SyntaxTree::is(a, "attribute"))
        a = SyntaxTree::field(a, "attribute");
    // A name the model reads as text (`atomnames`, `chainids`, `col_labels`).
    return SyntaxTree::is(a, "identifier") && SemanticModel::isTextArrayName(m.text(a));
}

} // namespace

const RuleInfo& R107ObjectDtype::info() const {
    static const RuleInfo i{
        QStringLiteral("R107"),
        Category::Blocks,
        QStringLiteral("object-dtype"),
        QStringLiteral("Object dtype"),
        QStringLiteral("RR-dtype"),
        QStringLiteral("Finds `dtype=object`, `dtype=\"O\"` / `\"object\"`, `np.object_` and "
                       "`.astype(object)` on NumPy calls and array methods. Silent on object "
                       "arrays of text (names, labels, identifiers): metadata that stays in "
                       "host NumPy. A `np.dtype(object)` counts where an array gets it (a "
                       "NumPy call, `astype`, a project function), not kept as metadata. "
                       "Made while reading a file, it is a note of the reader unless it "
                       "gathers arrays."),
        QStringLiteral("An object array holds pointers to Python objects. cuPyNumeric only "
                       "distributes numeric dtypes, so such arrays stay on the host (or are "
                       "refused) and every operation on them runs in the interpreter."),
        QStringLiteral("ragged = np.array([np.arange(k) for k in sizes], dtype=object)"),
        QStringLiteral("flat = np.concatenate([np.arange(k) for k in sizes])\n"
                       "offsets = np.cumsum([0] + list(sizes))   # numeric structure-of-arrays"),
        false,
        true};
    return i;
}

void R107ObjectDtype::check(const RuleContext& ctx, FindingSink& out) const {
    const SemanticModel& m = ctx.model;
    if (!m.importsNumpy())
        return;
    for (const TSNode c : m.calls()) {
        if (!blocks::createsObjectArray(m, c) || holdsText(m, c) ||
            (m.callName(c) == QLatin1String("numpy.dtype") && !dtypeReachesAnArray(m, c)))
            continue;
        const QString message = QStringLiteral("%1 creates an object-dtype array, which "
                                               "cuPyNumeric cannot distribute")
                                    .arg(blocks::quoted(m, c, 48));
        // A reader's object array holds the fields of the file it decodes (codes, tokens,
        // values still to convert): a note where it is made, unless it gathers arrays.
        if (m.pathRole(c) == PathRole::InputOutput && !builtFromArrays(m, c))
            out.reportAboutAtSite(c, c, message);
        else
            out.reportAbout(c, c, message);
    }
}

} // namespace cnready
