// R109: an `order=` keyword equal to NumPy's default, removed (port/Rewrites.h).
#include "parse/SyntaxTree.h"
#include "port/Rewrites.h"
#include "port/SiteLookup.h"
#include "semantic/NumpyNames.h"
#include "semantic/SemanticModel.h"

#include <QHash>

namespace cnready {

namespace {

// The text of a plain string literal ('C', "C"), or "" for anything else (f-strings, names,
// concatenations, prefixes).
QString literalString(const SemanticModel& m, TSNode v) {
    if (!SyntaxTree::is(v, "string"))
        return {};
    const QString t = m.tree().qtext(v);
    if (t.size() < 3 || (t.front() != QLatin1Char('\'') && t.front() != QLatin1Char('"')) ||
        t.back() != t.front())
        return {};
    return t.mid(1, t.size() - 2);
}

} // namespace

std::optional<Rewrite> defaultOrderRewrite(const SemanticModel& m, const Finding& f) {
    if (f.code != QLatin1String("R109"))
        return std::nullopt;
    const TSNode call = port::nodeOfFinding(m.calls(), f);
    if (ts_node_is_null(call))
        return std::nullopt;
    const TSNode fn = SyntaxTree::field(call, "function");
    const TSNode args = SyntaxTree::field(call, "arguments");
    if (!SyntaxTree::is(args, "argument_list"))
        return std::nullopt;
    const QString name = m.callName(call);
    const QString leaf = m.calleeLeaf(call);
    // An empty name is an array method only on an attribute (R109 judged the receiver an array).
    if (name.isEmpty() && !SyntaxTree::is(fn, "attribute"))
        return std::nullopt;
    const bool method = name.isEmpty() || name.startsWith(QLatin1String("numpy.ndarray."));
    const QString def = numpy::defaultOrderOfCall(name, leaf);
    if (def.isEmpty())
        return std::nullopt;

    // The keyword among the arguments, and its neighbours.
    const uint32_t n = ts_node_child_count(args);
    int at = -1;
    for (uint32_t i = 0; i < n; ++i) {
        const TSNode c = ts_node_child(args, i);
        if (SyntaxTree::is(c, "keyword_argument") &&
            m.text(SyntaxTree::field(c, "name")) == "order")
            at = int(i);
    }
    if (at < 0)
        return std::nullopt;
    const TSNode kw = ts_node_child(args, uint32_t(at));
    const TSNode value = SyntaxTree::field(kw, "value");
    const QString v = literalString(m, value);
    const bool isDefault = v == def || (leaf == QLatin1String("asarray") && !method &&
                                        (v == QLatin1String("K") || SyntaxTree::is(value, "none")));
    if (!isDefault)
        return std::nullopt;

    // Remove the keyword with the comma before it (`a, order="C"` -> `a`), or, when it is the
    // first argument, with the comma and spaces after it (`order="C", dtype=x` -> `dtype=x`).
    uint32_t start = ts_node_start_byte(kw), end = ts_node_end_byte(kw);
    auto isComment = [](TSNode c) { return SyntaxTree::is(c, "comment"); };
    // Children of the argument list: '(' a ',' kw ',' b ')'.
    const TSNode prev = at >= 1 ? ts_node_child(args, uint32_t(at - 1)) : TSNode{};
    const TSNode next = ts_node_child(args, uint32_t(at + 1));
    if (!ts_node_is_null(prev) && SyntaxTree::type(prev) == ",") {
        const TSNode before = ts_node_child(args, uint32_t(at - 2));
        if (isComment(before))
            return std::nullopt;
        start = ts_node_end_byte(before);
    } else if (!ts_node_is_null(next) && SyntaxTree::type(next) == ",") {
        const TSNode after = ts_node_child(args, uint32_t(at + 2));
        if (ts_node_is_null(after) || isComment(after))
            return std::nullopt;
        end = SyntaxTree::type(after) == ")" ? ts_node_end_byte(next) : ts_node_start_byte(after);
    }
    // The removed text must be the keyword, commas and white space only.
    const QByteArray& src = m.tree().source();
    for (uint32_t b = start; b < end; ++b)
        if (src.at(qsizetype(b)) == '#')
            if (b < ts_node_start_byte(kw) || b >= ts_node_end_byte(kw))
                return std::nullopt;
    Rewrite r;
    r.code = f.code;
    r.startByte = start;
    r.endByte = end;
    r.line = SyntaxTree::line(kw);
    r.note = QStringLiteral("%1 removed from %2 (the default)").arg(m.tree().qtext(kw), leaf);
    return r;
}

} // namespace cnready
