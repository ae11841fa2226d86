// SemanticModel: the loop model, the provenance passes that classify loops and names together
// (a loop's source needs the kinds of names, a for-target's kind needs its loop), and the
// loop queries (enclosing loop, depth, invariance).

#include "semantic/Literals.h"
#include "semantic/ModelInternals.h"

#include "semantic/NumpyNames.h"

namespace cnready {

namespace {
// A container annotation (`list[np.ndarray]`, `Sequence[NDArray]`, `dict[str, ndarray]`):
// the value is the container, whatever its items are.
bool containerAnnotation(std::string_view ann) {
    // `tuple[int, ...] | np.ndarray`, `Union[list, ndarray]`: either, so not only a container.
    if (ann.find('|') != std::string_view::npos || ann.find("Union[") != std::string_view::npos ||
        ann.find("Optional[") != std::string_view::npos)
        return false;
    if (ann.starts_with("typing."))
        ann.remove_prefix(7);
    const size_t open = ann.find('[');
    if (open == std::string_view::npos)
        return false;
    const std::string_view head = ann.substr(0, open);
    static constexpr std::string_view containers[] = {
        "list",     "List",      "tuple",      "Tuple",     "Sequence", "MutableSequence",
        "Iterable", "Iterator",  "dict",       "Dict",      "Mapping",  "set",
        "Set",      "frozenset", "Collection", "Generator", "deque"};
    for (const std::string_view c : containers)
        if (head == c || head.ends_with(std::string(".") + std::string(c)))
            return true;
    return false;
}
} // namespace

QString loopSourceName(LoopSource s) {
    switch (s) {
    case LoopSource::Unknown:
        return QStringLiteral("unknown");
    case LoopSource::None:
        return QStringLiteral("none");
    case LoopSource::Range:
        return QStringLiteral("range");
    case LoopSource::SmallLiteralRange:
        return QStringLiteral("small-range");
    case LoopSource::RangeLen:
        return QStringLiteral("range-len");
    case LoopSource::RangeShape:
        return QStringLiteral("range-shape");
    case LoopSource::Product:
        return QStringLiteral("product");
    case LoopSource::NdIndex:
        return QStringLiteral("ndindex");
    case LoopSource::NdIter:
        return QStringLiteral("nditer");
    case LoopSource::NdEnumerate:
        return QStringLiteral("ndenumerate");
    case LoopSource::Array:
        return QStringLiteral("array");
    case LoopSource::EnumerateArray:
        return QStringLiteral("enumerate-array");
    case LoopSource::Collection:
        return QStringLiteral("collection");
    case LoopSource::Files:
        return QStringLiteral("files");
    }
    return {};
}

// Whether `ret` (a return statement of the function `def`) returns the name `value` from the
// block of an `if not isinstance(value, <...ndarray...>):`: there the name is not an array,
// whatever its other bindings are (`if not isinstance(chunkmap, np.ndarray): return

static bool returnedUnderNonArrayTest(const SyntaxTree& tree, TSNode def, TSNode ret,
                                      TSNode value) {
    if (!SyntaxTree::is(value, "identifier"))
        return false;
    const uint32_t at = ts_node_start_byte(ret);
    const std::string_view name = tree.text(value);
    TSNode cur = def;
    for (int guard = 0; guard < 512 && !ts_node_eq(cur, ret); ++guard) {
        const TSNode next = ts_node_first_named_child_for_byte(cur, at);
        if (ts_node_is_null(next) || ts_node_start_byte(next) > at)
            return false;
        if (SyntaxTree::is(cur, "if_statement")) {
            const TSNode body = SyntaxTree::field(cur, "consequence");
            const TSNode cond = SyntaxTree::field(cur, "condition");
            if (ts_node_eq(next, body) && SyntaxTree::is(cond, "not_operator")) {
                const TSNode call = SyntaxTree::field(cond, "argument");
                const TSNode args = SyntaxTree::field(call, "arguments");
                if (SyntaxTree::is(call, "call") &&
                    tree.text(SyntaxTree::field(call, "function")) == "isinstance" &&
                    ts_node_named_child_count(args) == 2 &&
                    tree.text(ts_node_named_child(args, 0)) == name &&
                    tree.text(ts_node_named_child(args, 1)).find("ndarray") !=
                        std::string_view::npos) {
                    // Unless the block converts it first (`x = np.asarray(x); return x`).
                    const uint32_t k = ts_node_named_child_count(body);
                    for (uint32_t i = 0; i < k; ++i) {
                        const TSNode st = ts_node_named_child(body, i);
                        if (ts_node_start_byte(st) >= at)
                            break;
                        const TSNode a = ts_node_named_child(st, 0);
                        if (SyntaxTree::is(st, "expression_statement") &&
                            SyntaxTree::is(a, "assignment") &&
                            tree.text(SyntaxTree::field(a, "left")) == name)
                            return false;
                    }
                    return true;
                }
            }
        }
        cur = next;
    }
    return false;
}

// ---- Loops --------------------------------------------------------------------------------

void SemanticModel::buildLoops() {
    std::vector<TSNode> all;
    all.reserve(m_fors.size() + m_whiles.size() + m_comprehensions.size());
    all.insert(all.end(), m_fors.begin(), m_fors.end());
    all.insert(all.end(), m_whiles.begin(), m_whiles.end());
    all.insert(all.end(), m_comprehensions.begin(), m_comprehensions.end());
    std::sort(all.begin(), all.end(), [](TSNode a, TSNode b) {
        return startOf(a) != startOf(b) ? startOf(a) < startOf(b) : endOf(a) > endOf(b);
    });
    m_loops.reserve(all.size());
    std::vector<int> stack;
    std::vector<std::pair<TSNode, int>> names;
    std::vector<std::pair<int, TSNode>> clauses; // (loop, for_in_clause) of comprehensions
    for (TSNode n : all) {
        LoopInfo L;
        L.index = int(m_loops.size());
        L.node = n;
        L.startByte = startOf(n);
        L.endByte = endOf(n);
        L.function = functionIndexAt(L.startByte, L.endByte);
        if (is(n, Sym::for_statement)) {
            L.kind = LoopKind::For;
            L.iterable = field(n, F().right);
            L.body = field(n, F().body);
            L.hotStart = ts_node_is_null(L.body) ? L.endByte : startOf(L.body);
            L.hotEnd = ts_node_is_null(L.body) ? L.endByte : endOf(L.body);
            names.clear();
            targetNames(field(n, F().left), names);
            for (const auto& [id, pos] : names) {
                L.variables.append(m_tree.qtext(id));
                d->variableViews.resize(m_loops.size() + 1);
                Data::insert(d->variableViews.back(), text(id));
            }
        } else if (is(n, Sym::while_statement)) {
            L.kind = LoopKind::While;
            L.source = LoopSource::None;
            L.condition = field(n, F().condition);
            L.body = field(n, F().body);
            L.hotStart = ts_node_is_null(L.condition) ? L.startByte : startOf(L.condition);
            L.hotEnd = ts_node_is_null(L.body) ? L.endByte : endOf(L.body);
        } else {
            L.kind = LoopKind::Comprehension;
            L.body = field(n, F().body);
            if (ts_node_is_null(L.body))
                L.body = ts_node_named_child(n, 0);
            const uint32_t k = ts_node_named_child_count(n);
            bool first = true;
            for (uint32_t i = 0; i < k; ++i) {
                const TSNode cl = ts_node_named_child(n, i);
                if (!is(cl, Sym::for_in_clause))
                    continue;
                clauses.emplace_back(L.index, cl); // for the target bindings below
                names.clear();
                targetNames(field(cl, F().left), names);
                for (const auto& [id, pos] : names) {
                    L.variables.append(m_tree.qtext(id));
                    d->variableViews.resize(m_loops.size() + 1);
                    Data::insert(d->variableViews.back(), text(id));
                }
                if (first) {
                    L.iterable = field(cl, F().right);
                    first = false;
                }
            }
            L.hotStart = ts_node_is_null(L.body) ? L.startByte : startOf(L.body);
            L.hotEnd = ts_node_is_null(L.body) ? L.startByte : endOf(L.body);
            L.hotStart2 = ts_node_is_null(L.iterable) ? L.endByte : endOf(L.iterable);
            L.hotEnd2 = L.endByte;
        }
        while (!stack.empty() && m_loops[size_t(stack.back())].endByte <= L.startByte)
            stack.pop_back();
        d->loopSpanParent.push_back(stack.empty() ? -1 : stack.back());
        for (auto it = stack.rbegin(); it != stack.rend(); ++it) {
            const LoopInfo& P = m_loops[size_t(*it)];
            if (P.function != L.function)
                break;
            if (P.hotContains(L.startByte)) {
                L.parent = P.index;
                L.depth = P.depth + 1;
                break;
            }
        }
        stack.push_back(L.index);
        m_loops.push_back(L);
    }
    // Bucket index for enclosingLoop(): loops starting at or before each 256-byte bucket.
    if (!m_loops.empty()) {
        d->loopsBefore.resize((m_loops.back().startByte >> 8) + 1);
        size_t i = 0;
        for (size_t b = 0; b < d->loopsBefore.size(); ++b) {
            while (i < m_loops.size() && m_loops[i].startByte <= (b << 8))
                ++i;
            d->loopsBefore[b] = uint32_t(i);
        }
    }
    // Names bound in each loop (same function), plus header variables.
    d->variableViews.resize(m_loops.size());
    d->boundViews.resize(m_loops.size());
    for (const LoopInfo& L : m_loops) {
        Data::NameSet& views = d->boundViews[size_t(L.index)];
        views = d->variableViews[size_t(L.index)];
        auto lo = std::lower_bound(d->bindings.begin(), d->bindings.end(), L.startByte,
                                   [](const Data::Binding& b, uint32_t x) { return b.at < x; });
        for (auto it = lo; it != d->bindings.end() && it->at < L.endByte; ++it) {
            if (it->kind == Data::BindKind::Param || it->kind == Data::BindKind::Def ||
                it->scope < 0)
                continue;
            if (d->scopes[size_t(it->scope)].function != L.function)
                continue;
            Data::insert(views, it->name);
        }
    }
    // For-target bindings (after loops exist, so their kinds can use the loop source).
    for (const LoopInfo& L : m_loops) {
        if (L.kind == LoopKind::While)
            continue;
        auto addTargets = [&](TSNode pattern, TSNode iterable) {
            names.clear();
            targetNames(pattern, names);
            const int scope = scopeIndexAt(L.startByte);
            for (const auto& [id, pos] : names) {
                Data::Binding b;
                b.scope = scope;
                b.name = text(id);
                b.kind = Data::BindKind::ForTarget;
                b.value = iterable;
                b.target = id;
                b.position = pos;
                b.loop = L.index;
                b.at = startOf(id);
                d->bindings.push_back(std::move(b));
            }
        };
        if (L.kind == LoopKind::For) {
            addTargets(field(L.node, F().left), L.iterable);
        } else {
            // The loop's for_in_clause children, in order, as collected above.
            const auto from = std::lower_bound(
                clauses.begin(), clauses.end(), L.index,
                [](const std::pair<int, TSNode>& c, int loop) { return c.first < loop; });
            for (auto it = from; it != clauses.end() && it->first == L.index; ++it)
                addTargets(field(it->second, F().left), field(it->second, F().right));
        }
    }
    d->sortBindings();

    // Provenance fixpoint: a few passes so that names defined later in the text are seen.
    // One facts slot per (scope, name), so that the passes below index a flat vector.
    // The slots are counted first, so that the facts (and their per-pass copies) are
    // allocated at their exact size, not up to twice it as by emplace_back().
    int slotCount = int(d->facts.size());
    for (Data::Binding& b : d->bindings) {
        b.slot = d->slotTable.insert(b.scope, b.name, slotCount);
        if (b.slot == slotCount)
            ++slotCount;
    }
    d->facts.resize(size_t(slotCount));
    // Import aliases are known before any pass, so that the first pass already resolves `np.*`.
    for (const Data::Binding& b : d->bindings) {
        Data::Facts& f = d->facts[size_t(b.slot)];
        ++f.bindings;
        if (b.kind != Data::BindKind::Import || f.aliasConflict)
            continue;
        f.bits |= B_Object;
        f.type = QStringLiteral("module");
        if (f.alias.isEmpty())
            f.alias = b.alias;
        else if (f.alias != b.alias) {
            f.alias.clear();
            f.aliasConflict = true;
        }
    }
    for (Data::Facts& f : d->facts)
        f.bindings = 0; // counted again by every pass
    // `np.where(c)[0]`, `np.nonzero(c)[k]`, `c.nonzero()[k]`, or a name whose last binding is
    // one: the positions where a condition holds.
    auto indexPositions = [&](TSNode e) {
        e = unparen(e);
        if (is(e, Sym::identifier)) {
            const int slot = d->lookup(text(e), scopeIndexAt(startOf(e)));
            if (slot < 0 || d->lastBinding[size_t(slot)] < 0)
                return false;
            const Data::Binding& b = d->bindings[size_t(d->lastBinding[size_t(slot)])];
            if (b.kind != Data::BindKind::Assign || b.position != -1)
                return false;
            e = unparen(b.value);
        }
        if (!is(e, Sym::subscript) || ts_node_named_child_count(e) != 2 ||
            !is(ts_node_named_child(e, 1), Sym::integer))
            return false;
        const TSNode call = unparen(field(e, F().value));
        if (!is(call, Sym::call))
            return false;
        const QString cn = callName(call);
        return cn == QLatin1String("numpy.nonzero") ||
               cn == QLatin1String("numpy.ndarray.nonzero") ||
               (cn == QLatin1String("numpy.where") && argCount(call) == 1);
    };
    // Whether a pass of `L` does element work on an array with its variable: indexes an array
    // with it (`h[i]`, `x[i + 1]`, `a[i, j]`) or hands it to a NumPy call
    // (`np.searchsorted(edges, i)`). Walking index positions is a host walk over the data only
    // then; positions only printed, warned about, looked up in lists or dictionaries, or passed
    // to a project function are bookkeeping.
    auto elementWorkWith = [&](const LoopInfo& L) {
        auto isVariable = [&](TSNode e) {
            e = unparen(e);
            if (is(e, Sym::binary_operator)) {
                const TSNode l = unparen(field(e, F().left)), r = unparen(field(e, F().right));
                e = is(l, Sym::identifier) ? l : r;
            }
            if (!is(e, Sym::identifier))
                return false;
            const std::string_view t = text(e);
            return L.variables.contains(QString::fromUtf8(t.data(), qsizetype(t.size())));
        };
        for (const TSNode sub : within(m_subscripts, L.startByte, L.endByte)) {
            if (!L.hotContains(startOf(sub)))
                continue;
            bool uses = false;
            forEachIndexItem(sub, [&](TSNode ix) {
                uses = isVariable(ix);
                return !uses;
            });
            if (uses && isArray(field(sub, F().value)))
                return true;
        }
        for (const TSNode c : within(m_calls, L.startByte, L.endByte)) {
            if (!L.hotContains(startOf(c)) || !callName(c).startsWith(QLatin1String("numpy.")))
                continue;
            const int n = argCount(c);
            for (int i = 0; i < n; ++i)
                if (isVariable(arg(c, i)))
                    return true;
        }
        return false;
    };
    // What a for-loop or comprehension ranges over (uses the facts read so far).
    auto classify = [&](LoopInfo& L) {
        if (L.kind == LoopKind::While) {
            // `it = np.nditer(a); while not it.finished: ...; it.iternext()` walks the array
            // element by element as `for x in np.nditer(a)` does.
            const TSNode c = unparen(L.condition);
            const TSNode fin =
                is(c, Sym::not_operator) ? unparen(field(c, F().argument)) : TSNode{};
            if (!is(fin, Sym::attribute) || text(field(fin, F().attribute)) != "finished" ||
                !is(field(fin, F().object), Sym::identifier))
                return;
            const TSNode name = field(fin, F().object);
            const int slot = d->lookup(text(name), scopeIndexAt(startOf(name)));
            if (slot < 0 || d->lastBinding[size_t(slot)] < 0)
                return;
            const Data::Binding& b = d->bindings[size_t(d->lastBinding[size_t(slot)])];
            const TSNode call =
                b.kind == Data::BindKind::Assign && b.position == -1 ? unparen(b.value) : TSNode{};
            if (is(call, Sym::call) && callName(call) == QLatin1String("numpy.nditer")) {
                L.source = LoopSource::NdIter;
                L.iterable = call;
                L.iteratedArray = m_tree.qtext(arg(call, 0));
            }
            return;
        }
        // classification below
        TSNode it = unparen(L.iterable);
        // `elements = zip(self._offsets, self._lengths)` ... `for o, l in elements:`: a name
        // bound once to a zip or an enumerate walks what that call walks.
        if (is(it, Sym::identifier)) {
            const int slot = d->lookup(text(it), scopeIndexAt(startOf(it)));
            if (slot >= 0 && d->lastBinding[size_t(slot)] >= 0) {
                const Data::Binding& b = d->bindings[size_t(d->lastBinding[size_t(slot)])];
                const TSNode call = b.kind == Data::BindKind::Assign && b.position == -1
                                        ? unparen(b.value)
                                        : TSNode{};
                const std::string_view callee =
                    is(call, Sym::call) ? text(field(call, F().function)) : std::string_view();
                if ((callee == "zip" || callee == "enumerate") && startOf(call) < startOf(L.node) &&
                    canonicalName(field(call, F().function)).isEmpty())
                    it = call;
            }
        }
        L.iteratedArray.clear();
        L.literalCount = -1;
        L.source = LoopSource::Unknown;
        if (ts_node_is_null(it)) {
            // nothing
        } else if (is(it, Sym::call)) {
            const TSNode fn = field(it, F().function);
            const QString cn = canonicalName(fn);
            const std::string_view ft = text(fn);
            const bool builtin = cn.isEmpty() && is(fn, Sym::identifier);
            if (builtin && ft == "range") {
                const int n = argCount(it);
                auto lit = [&](TSNode x, long long& v) {
                    x = unparen(x);
                    bool neg = false;
                    if (is(x, Sym::unary_operator) && text(x).starts_with("-")) {
                        neg = true;
                        x = field(x, F().argument);
                    }
                    if (is(x, Sym::identifier)) {
                        // A name bound once to an integer literal (`nt = 2`).
                        const int slot = d->lookup(text(x), scopeIndexAt(startOf(x)));
                        if (slot < 0)
                            return false;
                        const Data::Facts* f = &d->read(slot);
                        if (!f->hasInt)
                            return false;
                        v = neg ? -f->intValue : f->intValue;
                        return true;
                    }
                    if (!is(x, Sym::integer))
                        return false;
                    const std::optional<qint64> value = integerLiteralValue(text(x));
                    if (!value)
                        return false;
                    v = neg ? -*value : *value;
                    return true;
                };
                long long a = 0, bnd = 0, step = 1;
                bool literal = false;
                if (n == 1)
                    literal = lit(arg(it, 0), bnd);
                else if (n >= 2)
                    literal = lit(arg(it, 0), a) && lit(arg(it, 1), bnd) &&
                              (n < 3 || lit(arg(it, 2), step));
                if (literal && step != 0) {
                    const long long cnt = step > 0 ? (bnd > a ? (bnd - a + step - 1) / step : 0)
                                                   : (a > bnd ? (a - bnd - step - 1) / -step : 0);
                    L.literalCount = int(std::min<long long>(cnt, 1 << 30));
                    L.source = cnt <= 8 ? LoopSource::SmallLiteralRange : LoopSource::Range;
                } else {
                    L.source = LoopSource::Range;
                    const TSNode bound = arg(it, n >= 2 ? 1 : 0);
                    // Look for len(X), X.shape, X.size or a name bound from X.shape.
                    walkSubtree(bound, [&](TSNode x) {
                        if (L.source != LoopSource::Range)
                            return false;
                        if (is(x, Sym::call) && text(field(x, F().function)) == "len") {
                            L.source = LoopSource::RangeLen;
                            L.iteratedArray = m_tree.qtext(unparen(arg(x, 0)));
                            return false;
                        }
                        if (is(x, Sym::attribute)) {
                            const std::string_view a2 = text(field(x, F().attribute));
                            if (a2 == "shape" || a2 == "size") {
                                L.source = LoopSource::RangeShape;
                                L.iteratedArray = m_tree.qtext(field(x, F().object));
                                return false;
                            }
                        }
                        if (is(x, Sym::identifier)) {
                            const int slot = d->lookup(text(x), scopeIndexAt(startOf(x)));
                            if (slot >= 0) {
                                const Data::Facts* f = &d->read(slot);
                                if (!f->shapeOf.isEmpty()) {
                                    L.source = LoopSource::RangeShape;
                                    L.iteratedArray = f->shapeOf;
                                }
                            }
                        }
                        return true;
                    });
                }
            } else if (cn == QLatin1String("itertools.product")) {
                L.source = LoopSource::Product;
            } else if (cn == QLatin1String("numpy.ndindex")) {
                L.source = LoopSource::NdIndex;
            } else if (cn == QLatin1String("numpy.nditer")) {
                L.source = LoopSource::NdIter;
                L.iteratedArray = m_tree.qtext(arg(it, 0));
            } else if (cn == QLatin1String("numpy.ndenumerate")) {
                L.source = LoopSource::NdEnumerate;
                L.iteratedArray = m_tree.qtext(arg(it, 0));
            } else if (builtin && (ft == "enumerate" || ft == "zip" || ft == "reversed")) {
                L.source = LoopSource::Collection;
                const int n = argCount(it);
                for (int i = 0; i < n; ++i) {
                    const TSNode a = arg(it, i);
                    if (isArray(a)) {
                        L.source =
                            ft == "reversed" ? LoopSource::Array : LoopSource::EnumerateArray;
                        L.iteratedArray = m_tree.qtext(unparen(a));
                        break;
                    }
                    if (ft == "enumerate" || ft == "reversed") {
                        const TSNode ua = unparen(a);
                        if (is(ua, Sym::call) && text(field(ua, F().function)) == "range")
                            L.source = LoopSource::Range;
                        break;
                    }
                }
            } else if (cn == QLatin1String("os.listdir") || cn == QLatin1String("os.scandir") ||
                       cn == QLatin1String("os.walk") || cn == QLatin1String("glob.glob") ||
                       cn == QLatin1String("glob.iglob") || (builtin && ft == "open") ||
                       (is(fn, Sym::attribute) &&
                        (text(field(fn, F().attribute)) == "glob" ||
                         text(field(fn, F().attribute)) == "rglob" ||
                         text(field(fn, F().attribute)) == "iterdir" ||
                         text(field(fn, F().attribute)) == "readlines"))) {
                L.source = LoopSource::Files;
            } else if ((builtin &&
                        (ft == "sorted" || ft == "list" || ft == "set" || ft == "tuple" ||
                         ft == "dict" || ft == "map" || ft == "filter")) ||
                       (is(fn, Sym::attribute) &&
                        (text(field(fn, F().attribute)) == "items" ||
                         text(field(fn, F().attribute)) == "keys" ||
                         text(field(fn, F().attribute)) == "values" ||
                         text(field(fn, F().attribute)) == "split" ||
                         text(field(fn, F().attribute)) == "splitlines"))) {
                L.source = LoopSource::Collection;
            } else if (isArray(it)) {
                L.source = LoopSource::Array;
                L.iteratedArray = m_tree.qtext(it);
            } else if (yieldsNdIndex(it)) {
                L.source = LoopSource::NdIndex;
            }
        } else {
            ValueKind k = valueKind(it);
            // `x = np.array([f(v) for v in x])`: the comprehension reads the value `x` had
            // before this conversion; trust it as an array only if every binding is one.
            if (k == ValueKind::Array && is(it, Sym::identifier)) {
                TSNode p = ts_node_parent(L.node);
                for (int up = 0; up < 6 && !ts_node_is_null(p); ++up, p = ts_node_parent(p)) {
                    if (!is(p, Sym::assignment))
                        continue;
                    if (text(field(p, F().left)) == text(it) &&
                        lookupBits(text(it), scopeIndexAt(startOf(it))) != B_Array)
                        k = ValueKind::Unknown;
                    break;
                }
            }
            // The positions where a condition holds are an array to walk only when each pass
            // does element work on an array with them (see elementWorkWith).
            if (k == ValueKind::Array || (indexPositions(it) && elementWorkWith(L))) {
                L.source = LoopSource::Array;
                L.iteratedArray = m_tree.qtext(it);
            } else if (k == ValueKind::Sequence || k == ValueKind::String || is(it, Sym::list) ||
                       is(it, Sym::tuple) || is(it, Sym::dictionary) || is(it, Sym::set)) {
                L.source = LoopSource::Collection;
            } else if (k == ValueKind::Object && typeName(it) == QLatin1String("file")) {
                L.source = LoopSource::Files;
            }
        }
    };
    // Provenance passes. Bindings are evaluated in document order, updating the facts in
    // place; a name read before all its bindings are evaluated sees the previous pass's facts,
    // and the pass is repeated only when such an early read turns out different from the
    // final facts (or a function was found to return an array after a caller asked).
    findArrayModuleNames();
    collectParameterHints();
    d->lastBinding.assign(d->facts.size(), -1);
    for (size_t bi = 0; bi < d->bindings.size(); ++bi)
        d->lastBinding[size_t(d->bindings[bi].slot)] = int(bi);
    d->returnsRead.assign(m_functions.size(), 0);
    // What a pass carries into the next besides the facts: the loops' classification (read
    // by for-target bindings before their loop is classified again) and which functions
    // return arrays. When a pass leaves all of it and the facts as it found them, another
    // pass would compute exactly the same again: the fixpoint is reached.
    struct LoopState {
        LoopSource source;
        int literalCount;
        QString iteratedArray;
        bool operator==(const LoopState&) const = default;
    };
    auto loopStates = [this] {
        std::vector<LoopState> v;
        v.reserve(m_loops.size());
        for (const LoopInfo& L : m_loops)
            v.push_back({L.source, L.literalCount, L.iteratedArray});
        return v;
    };
    auto returningFunctions = [this] {
        std::vector<char> v;
        v.reserve(m_functions.size());
        for (const FunctionRegion& f : m_functions)
            v.push_back(f.returnsArray ? 1 : 0);
        return v;
    };
    std::vector<TSNode> returnValues(m_returns.size()); // unparen(value) per return statement
    std::vector<char> returnKnown(m_returns.size(), 0);
    for (int pass = 0; pass < 5; ++pass) {
        d->prevFacts = d->facts;
        const std::vector<LoopState> loopsBefore = loopStates();
        const std::vector<char> returnsBefore = returningFunctions();
        for (Data::Facts& f : d->facts)
            f = Data::Facts{};
        d->snaps.assign(d->facts.size(), Data::Snap{});
        d->snapConflict = false;
        std::fill(d->returnsRead.begin(), d->returnsRead.end(), 0);
        std::vector<char> classified(m_loops.size(), 0);
        for (size_t bi = 0; bi < d->bindings.size(); ++bi) {
            const Data::Binding& b = d->bindings[bi];
            d->evalIndex = int(bi);
            if (b.kind == Data::BindKind::ForTarget && !classified[size_t(b.loop)]) {
                classified[size_t(b.loop)] = 1;
                classify(m_loops[size_t(b.loop)]);
            }
            Data::Facts& f = d->facts[size_t(b.slot)];
            ++f.bindings;
            QString type;
            ValueKind k = ValueKind::Unknown;
            QString alias;
            switch (b.kind) {
            case Data::BindKind::Import:
                k = ValueKind::Object;
                type = QStringLiteral("module");
                alias = b.alias;
                break;
            case Data::BindKind::Def:
                k = ValueKind::Object;
                type = b.alias;
                break;
            case Data::BindKind::Param: {
                const std::string_view ann = text(b.annotation);
                bool inferable = b.alias.isEmpty() && !b.splat;
                if (b.splat) {
                    k = ValueKind::Sequence;
                } else if (!b.alias.isEmpty()) {
                    k = ValueKind::Object;
                    type = b.alias;
                } else if (containerAnnotation(ann)) {
                    k = ValueKind::Sequence; // `list[np.ndarray]`: a list of arrays
                } else if (ann.find("ndarray") != std::string_view::npos ||
                           ann.find("NDArray") != std::string_view::npos) {
                    k = ValueKind::Array;
                } else if (ann == "int" || ann == "float" || ann == "bool" || ann == "complex") {
                    k = ValueKind::HostScalar;
                } else if (ann == "str") {
                    k = ValueKind::String;
                } else if (!ts_node_is_null(b.value)) {
                    const ValueKind dk = kindOf(b.value, 0, &type);
                    // Defaults say little about the value passed in, except its family.
                    k = (dk == ValueKind::None || dk == ValueKind::Array) ? ValueKind::Unknown : dk;
                    if (dk == ValueKind::Array)
                        k = ValueKind::Array;
                }
                // An annotation other than an ndarray one names what the author meant
                // (`pd.Series`, `ArrayLike`, `list[float]`): nothing is inferred against it.
                if (k == ValueKind::Unknown && inferable && ts_node_is_null(b.annotation))
                    k = inferParameterKind(int(bi));
                break;
            }
            case Data::BindKind::Assign:
            case Data::BindKind::Walrus: {
                const std::string_view ann = text(b.annotation);
                if (!containerAnnotation(ann) && (ann.find("ndarray") != std::string_view::npos ||
                                                  ann.find("NDArray") != std::string_view::npos)) {
                    k = ValueKind::Array;
                    break;
                }
                TSNode v = unparen(b.value);
                if (b.position >= 0 && (is(v, Sym::expression_list) || is(v, Sym::tuple) ||
                                        is(v, Sym::list) || is(v, Sym::pattern_list))) {
                    const TSNode e = ts_node_named_child(v, uint32_t(b.position));
                    k = ts_node_is_null(e) ? ValueKind::Unknown : kindOf(e, 0, &type);
                    if (is(unparen(e), Sym::attribute) || is(unparen(e), Sym::identifier)) {
                        const QString c = canonicalName(e);
                        if (!c.isEmpty())
                            alias = c;
                    }
                } else if (b.position != -1) {
                    // Unpacking a single value: shapes give host ints, numpy calls arrays.
                    if (is(v, Sym::attribute) && text(field(v, F().attribute)) == "shape") {
                        k = ValueKind::HostScalar;
                        f.shapeOf = m_tree.qtext(field(v, F().object));
                    } else if (is(v, Sym::call)) {
                        const QString cn = callName(v);
                        QString t;
                        const ValueKind ck = kindOf(v, 0, &t);
                        if (ck == ValueKind::Array ||
                            (ck == ValueKind::Sequence && cn.startsWith(QLatin1String("numpy."))))
                            k = ValueKind::Array;
                        else if (numpy::returnsArrayTuple(cn))
                            k = ValueKind::Array;
                    }
                } else {
                    k = kindOf(v, 0, &type);
                    if (is(v, Sym::integer) && f.bindings == 1) {
                        const std::optional<qint64> iv = integerLiteralValue(text(v));
                        f.hasInt = iv.has_value();
                        f.intValue = iv.value_or(0);
                    } else {
                        f.hasInt = false;
                    }
                    if (is(v, Sym::attribute) && text(field(v, F().attribute)) == "shape")
                        f.shapeOf = m_tree.qtext(field(v, F().object));
                    if (is(v, Sym::subscript)) {
                        const TSNode base = unparen(field(v, F().value));
                        if (is(base, Sym::attribute) && text(field(base, F().attribute)) == "shape")
                            f.shapeOf = m_tree.qtext(field(base, F().object));
                    }
                    if (is(v, Sym::attribute) || is(v, Sym::identifier)) {
                        const QString c = canonicalName(v);
                        if (!c.isEmpty())
                            alias = c;
                    }
                }
                break;
            }
            case Data::BindKind::Augment: {
                const ValueKind vk = kindOf(b.value, 0, &type);
                k = (vk == ValueKind::Array || vk == ValueKind::DeviceScalar) ? vk
                                                                              : ValueKind::Unknown;
                if (vk == ValueKind::HostScalar || vk == ValueKind::String ||
                    vk == ValueKind::Sequence)
                    k = vk;
                break;
            }
            case Data::BindKind::ForTarget: {
                const LoopInfo& L = m_loops[size_t(b.loop)];
                const bool header = ts_node_eq(b.value, L.iterable);
                const LoopSource src = header ? L.source : LoopSource::Unknown;
                switch (src) {
                case LoopSource::Range:
                case LoopSource::SmallLiteralRange:
                case LoopSource::RangeLen:
                case LoopSource::RangeShape:
                    k = ValueKind::HostScalar;
                    break;
                case LoopSource::Product:
                case LoopSource::NdIndex:
                    k = b.position == -1 ? ValueKind::Sequence : ValueKind::HostScalar;
                    break;
                case LoopSource::EnumerateArray:
                case LoopSource::NdEnumerate:
                    k = b.position == 0 ? ValueKind::HostScalar : ValueKind::Unknown;
                    break;
                case LoopSource::Files:
                    k = ValueKind::String;
                    break;
                default:
                    k = ValueKind::Unknown;
                    break;
                }
                break;
            }
            case Data::BindKind::WithAs: {
                const TSNode v = unparen(b.value);
                if (is(v, Sym::call) && text(field(v, F().function)) == "open") {
                    k = ValueKind::Object;
                    type = QStringLiteral("file");
                }
                break;
            }
            }
            // The array module by name (`def run(np, n)`, `xp = array_namespace(x)`).
            if ((k == ValueKind::Unknown || k == ValueKind::Object) &&
                (b.kind == Data::BindKind::Param || b.kind == Data::BindKind::Assign ||
                 b.kind == Data::BindKind::Walrus)) {
                QString m = moduleBinding(int(bi), k, alias);
                if (!m.isEmpty()) {
                    k = ValueKind::Object;
                    type = QStringLiteral("module");
                    alias = std::move(m);
                }
            }
            if (f.bindings > 1)
                f.hasInt = false;
            f.bits |= bitOf(k);
            if (k == ValueKind::Object && !type.isEmpty()) {
                if (f.type.isEmpty())
                    f.type = type;
                else if (f.type != type)
                    f.type = QStringLiteral("?");
            }
            // A name is an alias only when every binding binds the same imported object
            // (`try: import cupynumeric as np / except: import numpy as np`); a fallback
            // `np = None` is neutral.
            const bool neutral =
                b.kind == Data::BindKind::Assign && is(unparen(b.value), Sym::none);
            if (!neutral) {
                if (alias.isEmpty()) {
                    f.aliasConflict = true;
                    f.alias.clear();
                } else if (!f.aliasConflict) {
                    if (f.alias.isEmpty())
                        f.alias = alias;
                    else if (f.alias != alias) {
                        f.alias.clear();
                        f.aliasConflict = true;
                    }
                }
            }
        }
        d->evalIndex = INT_MAX;
        for (LoopInfo& L : m_loops)
            if (!classified[size_t(L.index)])
                classify(L);
        // Functions of this file that return arrays.
        // Repeated until nothing changes: `def a(): return b()` before `def b(): return
        // np.ones(3)` learns about b only on a second round.
        bool dirty = d->snapConflict;
        for (bool grew = true; grew;) {
            grew = false;
            for (size_t ri = 0; ri < m_returns.size(); ++ri) {
                const TSNode r = m_returns[ri];
                const int fn = functionIndexAt(startOf(r), endOf(r));
                if (fn < 0 || m_functions[size_t(fn)].returnsArray)
                    continue;
                // A return's value, read once for every round and pass.
                if (!returnKnown[ri]) {
                    returnValues[ri] = unparen(ts_node_named_child(r, 0));
                    returnKnown[ri] = 1;
                }
                const TSNode v = returnValues[ri];
                if (ts_node_is_null(v) || is(v, Sym::expression_list) || is(v, Sym::tuple))
                    continue; // a tuple of arrays is a tuple
                if (kindOf(v, 0, nullptr) == ValueKind::Array &&
                    !returnedUnderNonArrayTest(m_tree, m_functions[size_t(fn)].node, r, v)) {
                    m_functions[size_t(fn)].returnsArray = true;
                    grew = true;
                    if (d->returnsRead[size_t(fn)])
                        dirty = true;
                }
            }
            if (grew) { // kinds and call names cached this round may rest on a stale return
                d->kindCache.clear();
                d->callNameCache.clear();
            }
        }
        for (size_t k = 0; k < d->snaps.size() && !dirty; ++k) {
            const Data::Snap& sn = d->snaps[k];
            const Data::Facts& f = d->facts[k];
            dirty = sn.set &&
                    (sn.kind != kindOfBits(f.bits) || sn.alias != f.alias || sn.type != f.type);
        }
        d->kindCache.clear();
        d->callNameCache.clear();
        d->canonicalCache.clear();
        // An early read that can never agree with the final facts (a name read while its own
        // last binding is evaluated, `p = np.asarray(p)`) keeps `dirty` set on every pass;
        // stop anyway once nothing a pass depends on has changed.
        if (dirty && d->facts == d->prevFacts && loopStates() == loopsBefore &&
            returningFunctions() == returnsBefore)
            dirty = false;
        if (!dirty)
            break;
    }
    // The passes' bookkeeping is not read again (Data::read() answers from `facts` once
    // evalIndex is INT_MAX): a slot's previous facts and snapshot are ~130 bytes, ~12 MB on a
    // generated 100,000-line module.
    std::vector<Data::Facts>().swap(d->prevFacts);
    std::vector<Data::Snap>().swap(d->snaps);

    // Names derived from loop variables inside each loop (k = i + 1).
    // Each assigned value is walked once for the identifiers it mentions (attribute and
    // keyword names included), however many loops nest around it.
    d->derivedLoopVars.resize(m_loops.size());
    std::vector<std::pair<uint32_t, uint32_t>> mentionSpan(d->bindings.size(), {0, UINT32_MAX});
    std::vector<std::string_view> mentions;
    auto mentionsOf = [&](size_t bi) {
        auto& span = mentionSpan[bi];
        if (span.second == UINT32_MAX) {
            span.first = uint32_t(mentions.size());
            walkSubtree(d->bindings[bi].value, [&](TSNode x) {
                if (is(x, Sym::identifier))
                    mentions.push_back(text(x));
                return true;
            });
            span.second = uint32_t(mentions.size());
        }
        return span;
    };
    for (const LoopInfo& L : m_loops) {
        Data::NameSet vars = d->variableViews[size_t(L.index)];
        const auto lo =
            std::lower_bound(d->bindings.begin(), d->bindings.end(), L.startByte,
                             [](const Data::Binding& b, uint32_t x) { return b.at < x; });
        for (int pass = 0; pass < 2; ++pass)
            for (auto it = lo; it != d->bindings.end() && it->at < L.endByte; ++it) {
                if ((it->kind != Data::BindKind::Assign && it->kind != Data::BindKind::Walrus) ||
                    Data::contains(vars, it->name) || ts_node_is_null(it->value))
                    continue;
                // An identifier of the value is a piece of its text: most values mention no
                // variable of the set even as a substring and need no walk.
                const std::string_view valueText = m_tree.text(it->value);
                if (std::none_of(vars.begin(), vars.end(), [&](std::string_view v) {
                        return valueText.find(v) != std::string_view::npos;
                    }))
                    continue;
                const auto [from, to] = mentionsOf(size_t(it - d->bindings.begin()));
                for (uint32_t k = from; k < to; ++k)
                    if (Data::contains(vars, mentions[k])) {
                        Data::insert(vars, it->name);
                        break;
                    }
            }
        d->derivedLoopVars[size_t(L.index)] = std::move(vars);
    }
}

// ---- Loops queries ------------------------------------------------------------------------

const LoopInfo* SemanticModel::enclosingLoop(TSNode n) const {
    if (ts_node_is_null(n) || m_loops.empty())
        return nullptr;
    const uint32_t b = startOf(n);
    const int fn = functionIndexAt(b, endOf(n));
    // The number of loops starting at or before b: from the 256-byte bucket index on.
    size_t count = 0;
    if (d->loopsBefore.empty()) {
        count =
            size_t(std::upper_bound(m_loops.begin(), m_loops.end(), b,
                                    [](uint32_t x, const LoopInfo& L) { return x < L.startByte; }) -
                   m_loops.begin());
    } else {
        const size_t bucket = b >> 8;
        count = bucket < d->loopsBefore.size() ? d->loopsBefore[bucket] : m_loops.size();
        while (count < m_loops.size() && m_loops[count].startByte <= b)
            ++count;
    }
    if (count == 0)
        return nullptr;
    // The last loop starting at or before b; the loops containing b are it or its ancestors
    // by span (loops nest properly), so climb the span-parent chain: O(nesting depth).
    int i = int(count) - 1;
    while (i >= 0 && !(b >= m_loops[size_t(i)].startByte && b < m_loops[size_t(i)].endByte))
        i = d->loopSpanParent[size_t(i)];
    for (; i >= 0; i = d->loopSpanParent[size_t(i)]) {
        const LoopInfo& L = m_loops[size_t(i)];
        if (L.function != fn)
            return nullptr; // b is inside a def nested in that loop: a boundary
        if (L.hotContains(b))
            return &L;
    }
    return nullptr;
}

const LoopInfo* SemanticModel::loopOf(TSNode loopNode) const {
    const uint32_t b = startOf(loopNode);
    auto it = std::lower_bound(m_loops.begin(), m_loops.end(), b,
                               [](const LoopInfo& L, uint32_t x) { return L.startByte < x; });
    for (; it != m_loops.end() && it->startByte == b; ++it)
        if (ts_node_eq(it->node, loopNode))
            return &*it;
    return nullptr;
}

bool SemanticModel::inLoop(TSNode n) const {
    return enclosingLoop(n) != nullptr;
}

int SemanticModel::loopDepth(TSNode n) const {
    const LoopInfo* L = enclosingLoop(n);
    return L ? L->depth : 0;
}

namespace {
// Whether some name of `names` occurs in `text` as a substring: an identifier inside an
// expression is a piece of its text, so when this is false no identifier can match.
bool mentionsAnyText(std::string_view text, const std::vector<std::string_view>& names) {
    return std::any_of(names.begin(), names.end(),
                       [&](std::string_view n) { return text.find(n) != std::string_view::npos; });
}

// Identifiers read by an expression: skips attribute names and keyword names. Explicit
// stack (no recursion, no ts_node_parent()). Stops as soon as `f` returns true.
template <class Fn> void forEachName(const SyntaxTree& tree, TSNode expr, Fn&& f) {
    if (ts_node_is_null(expr))
        return;
    std::vector<TSNode> stack{expr};
    while (!stack.empty()) {
        const TSNode x = stack.back();
        stack.pop_back();
        if (is(x, Sym::identifier)) {
            if (f(tree.text(x)))
                return;
            continue;
        }
        if (is(x, Sym::attribute)) {
            stack.push_back(field(x, F().object));
            continue;
        }
        if (is(x, Sym::keyword_argument)) {
            stack.push_back(field(x, F().value));
            continue;
        }
        const uint32_t n = ts_node_named_child_count(x);
        for (uint32_t k = n; k > 0; --k)
            stack.push_back(ts_node_named_child(x, k - 1));
    }
}
} // namespace

bool SemanticModel::isLoopInvariant(TSNode expr, const LoopInfo& loop) const {
    const Data::NameSet& bound = d->boundViews[size_t(loop.index)];
    if (!mentionsAnyText(text(expr), bound))
        return true; // no name of the set occurs in the text at all: no walk needed
    bool inv = true;
    forEachName(m_tree, expr, [&](std::string_view nm) {
        if (Data::contains(bound, nm))
            inv = false;
        return !inv;
    });
    return inv;
}

bool SemanticModel::boundInLoop(const LoopInfo& loop, std::string_view name) const {
    return Data::contains(d->boundViews[size_t(loop.index)], name);
}

bool SemanticModel::usesLoopVariable(TSNode expr, const LoopInfo& loop) const {
    const Data::NameSet& vars = d->derivedLoopVars[size_t(loop.index)];
    if (!mentionsAnyText(text(expr), vars))
        return false; // no name of the set occurs in the text at all: no walk needed
    bool uses = false;
    forEachName(m_tree, expr, [&](std::string_view nm) {
        if (Data::contains(vars, nm))
            uses = true;
        return uses;
    });
    return uses;
}

bool SemanticModel::yieldsNdIndex(TSNode call) const {
    const int f = localCallee(call, nullptr);
    if (f < 0)
        return false;
    const FunctionRegion& fn = m_functions[size_t(f)];
    for (const TSNode s : within(m_fors, fn.startByte, fn.endByte)) {
        if (functionIndexAt(startOf(s), endOf(s)) != f)
            continue;
        const TSNode it = unparen(field(s, F().right));
        if (!is(it, Sym::call) ||
            canonicalName(field(it, F().function)) != QLatin1String("numpy.ndindex"))
            continue;
        const TSNode target = field(s, F().left);
        if (!is(target, Sym::identifier))
            continue;
        bool yields = false;
        walkSubtree(field(s, F().body), [&](TSNode n) {
            if (yields || is(n, Sym::function_definition) || SyntaxTree::is(n, "lambda"))
                return false;
            if (SyntaxTree::is(n, "yield") && ts_node_named_child_count(n) == 1 &&
                text(ts_node_named_child(n, 0)) == text(target))
                yields = true;
            return !yields;
        });
        if (yields)
            return true;
    }
    return false;
}

} // namespace cnready
