#include "assess/evidence/Collector.h"

#include "semantic/LoopWork.h"

namespace cnready::evidence {

bool isIdentChar(QChar c) {
    return c.isLetterOrNumber() || c == QLatin1Char('_');
}

// Positions where `word` occurs in `text` as a whole identifier.
QList<qsizetype> wordPositions(const QString& text, const QString& word) {
    QList<qsizetype> at;
    for (qsizetype i = text.indexOf(word); i >= 0; i = text.indexOf(word, i + 1)) {
        const qsizetype end = i + word.size();
        if ((i == 0 || !isIdentChar(text[i - 1])) &&
            (end >= text.size() || !isIdentChar(text[end])))
            at << i;
    }
    return at;
}

bool containsWord(const QString& text, const QString& word) {
    return !wordPositions(text, word).isEmpty();
}

// `text` contains `word - <digits>` (e.g. "[n - 1]"), the index of an earlier element.
bool hasBackOffset(const QString& text, const QString& word) {
    for (qsizetype i : wordPositions(text, word)) {
        qsizetype j = i + word.size();
        while (j < text.size() && text[j].isSpace())
            ++j;
        if (j >= text.size() || text[j] != QLatin1Char('-'))
            continue;
        ++j;
        while (j < text.size() && text[j].isSpace())
            ++j;
        const qsizetype digits = j;
        while (j < text.size() && text[j].isDigit())
            ++j;
        if (j > digits && (j >= text.size() || !isIdentChar(text[j])))
            return true;
    }
    return false;
}

void Collector::addEvidence(const QString& pattern, TSNode n, const Where& w, const QString& note,
                            int weight) {
    out.patternEvidence.append(
        PatternEvidence{pattern, rangeOf(n), note, w.inLoop, weight, scopeName(w.scope)});
}

TSNode Collector::firstArgument(TSNode call) {
    const TSNode args = field(call, F().arguments);
    if (ts_node_is_null(args) || ts_node_named_child_count(args) == 0)
        return TSNode{};
    const TSNode a = ts_node_named_child(args, 0);
    const auto ty = typeOf(a);
    return ty == "keyword_argument" || ty == "list_splat" || ty == "dictionary_splat" ? TSNode{}
                                                                                      : a;
}

bool Collector::numberDisplay(TSNode n) {
    const auto ty = typeOf(n);
    if (ty != "tuple" && ty != "list")
        return false;
    std::vector<std::pair<TSNode, int>> stack{{n, 0}};
    int seen = 0;
    while (!stack.empty()) {
        const auto [x, depth] = stack.back();
        stack.pop_back();
        if (++seen > 256 || depth > 8)
            return false;
        for (uint32_t i = 0, k = ts_node_named_child_count(x); i < k; ++i) {
            TSNode c = ts_node_named_child(x, i);
            if (ST::is(c, "unary_operator"))
                c = field(c, F().argument);
            const auto ct = typeOf(c);
            if (ct == "tuple" || ct == "list")
                stack.emplace_back(c, depth + 1);
            else if (ct != "integer" && ct != "float")
                return false;
        }
    }
    return true;
}

bool Collector::numbersOnly(TSNode arg, const Where& w) {
    if (ts_node_is_null(arg))
        return false;
    if (ST::is(arg, "subscript"))
        arg = field(arg, F().value);
    if (numberDisplay(arg))
        return true;
    if (!ST::is(arg, "identifier"))
        return false;
    const std::string_view name = t.text(arg);
    bool bound = false;
    if (w.function >= 0)
        for (const auto& [p, def] : parameters(w.function))
            if (p == name) {
                if (ts_node_is_null(def) || !numberDisplay(field(def, F().value)))
                    return false;
                bound = true;
            }
    for (int i : assignmentsNamed(name)) {
        if (m_assignmentWhere[size_t(i)].function != w.function)
            continue;
        const TSNode a = m_assignments[size_t(i)];
        if (!ST::is(a, "assignment") || !numberDisplay(field(a, F().right)))
            return false;
        bound = true;
    }
    return bound;
}

QString Collector::methodPattern(std::string_view method) const {
    if (m_numpyFile && (method == "sum" || method == "mean" || method == "max" || method == "min" ||
                        method == "prod" || method == "var" || method == "std"))
        return QStringLiteral("reduction");
    if (m_numpyFile && method == "dot")
        return QStringLiteral("gemm");
    if (m_mlFile &&
        (method == "fit" || method == "predict" || method == "fit_transform" ||
         method == "predict_proba" || method == "partial_fit" || method == "fit_predict"))
        return QStringLiteral("ml");
    if (m_mlFile && (method == "backward" || method == "zero_grad"))
        return QStringLiteral("ml");
    return {};
}

void Collector::onBinary(size_t index) {
    if (out.isTest)
        return;
    const TSNode op = m_binaryOps[index];
    const Where& w = m_binaryWhere[index];
    if (t.text(field(op, F().op)) == "@") {
        addEvidence(QStringLiteral("gemm"), op, w, QStringLiteral("@ operator"), 2);
        return;
    }
    // Stencils: only the outermost arithmetic expression is examined. The parent's type
    // comes from the tree's walk (ts_node_parent() costs O(depth) per call: quadratic on
    // a sum of thousands of terms).
    const auto parent = t.parentType(SyntaxTree::NodeList::BinaryOp, index);
    if (parent == "binary_operator" || parent == "parenthesized_expression" ||
        parent == "unary_operator")
        return;
    if (!maySlice(op))
        return;
    QHash<QString, QSet<QString>> slicesByBase;
    std::vector<TSNode> stack{op};
    int visited = 0;
    while (!stack.empty() && visited < 4096) {
        const TSNode n = stack.back();
        stack.pop_back();
        ++visited;
        if (ST::is(n, "subscript")) {
            const TSNode base = field(n, F().value);
            const QString text = t.qtext(n);
            if (ST::is(base, "identifier") && text.contains(QLatin1Char(':')))
                slicesByBase[t.qtext(base)].insert(text.mid(t.qtext(base).size()));
            continue;
        }
        const uint32_t k = ts_node_named_child_count(n);
        for (uint32_t i = 0; i < k; ++i)
            stack.push_back(ts_node_named_child(n, i));
    }
    QStringList bases;
    for (auto it = slicesByBase.cbegin(); it != slicesByBase.cend(); ++it)
        if (it.value().size() >= 2)
            bases << it.key();
    if (bases.isEmpty())
        return;
    bases.sort();
    addEvidence(QStringLiteral("stencil"), op, w,
                QStringLiteral("shifted slices of %1").arg(bases.join(QStringLiteral(", "))), 3);
}

bool Collector::maySlice(TSNode op) const {
    std::vector<std::pair<std::string_view, std::string_view>> slices; // base, rest
    const auto subscripts = SemanticModel::within(m.subscripts(), op);
    if (subscripts.size() > 4096)
        return true; // as many as the walk may visit: let it decide
    for (TSNode s : subscripts) {
        const std::string_view text = t.text(s);
        if (text.find(':') == std::string_view::npos)
            continue;
        const TSNode base = field(s, F().value);
        if (!ST::is(base, "identifier"))
            continue;
        const std::string_view name = t.text(base);
        if (text.size() < name.size())
            continue;
        slices.emplace_back(name, text.substr(name.size()));
    }
    if (slices.size() < 2)
        return false;
    std::sort(slices.begin(), slices.end());
    for (size_t i = 1; i < slices.size(); ++i)
        if (slices[i].first == slices[i - 1].first && slices[i].second != slices[i - 1].second)
            return true;
    return false;
}

const LoopInfo* Collector::loopBinding(TSNode n, const QString& var) const {
    for (const LoopInfo* L = m.enclosingLoop(n); L;
         L = L->parent >= 0 ? &m.loops()[size_t(L->parent)] : nullptr)
        if (L->variables.contains(var))
            return L;
    return nullptr;
}

void Collector::noteElementStore(size_t index, TSNode left) {
    const TSNode a = m_assignments[index];
    for (const LoopInfo* L = m.enclosingLoop(a); L;
         L = L->parent >= 0 ? &m.loops()[size_t(L->parent)] : nullptr) {
        if (!m.isElementAccess(left, *L))
            continue;
        const LoopWork& work = m.loopWork(*L);
        if (work.work == PassWork::Scalar && work.trip != TripClass::Small)
            m_elementStores.try_emplace(L->index, index);
    }
}

void Collector::finishElementLoops() {
    std::vector<std::pair<int, size_t>> loops(m_elementStores.begin(), m_elementStores.end());
    std::sort(loops.begin(), loops.end());
    for (const auto& [loop, index] : loops) {
        if (m_recurrentLoops.count(loop))
            continue;
        const LoopInfo& L = m.loops()[size_t(loop)];
        // Report the outermost loop of a nest only.
        bool outer = true;
        for (int p = L.parent; p >= 0 && outer; p = m.loops()[size_t(p)].parent)
            outer = !m_elementStores.count(p) || m_recurrentLoops.count(p);
        if (!outer)
            continue;
        addEvidence(QStringLiteral("elementwise"), m_assignments[index], m_assignmentWhere[index],
                    QStringLiteral("element loop over %1 with independent passes")
                        .arg(t.qtext(L.iterable).left(48)),
                    2);
    }
}

void Collector::onAssignment(size_t index) {
    if (out.isTest)
        return;
    const TSNode a = m_assignments[index];
    const Where& w = m_assignmentWhere[index];
    if (w.forVars < 0)
        return;
    const TSNode left = field(a, F().left);
    const TSNode right = field(a, F().right);
    if (!ST::is(left, "subscript") || ts_node_is_null(right))
        return;
    const TSNode base = field(left, F().value);
    if (!ST::is(base, "identifier"))
        return;
    noteElementStore(index, left);
    // The earlier element is a subscript of the same name inside the right side.
    if (t.text(right).find(t.text(base)) == std::string_view::npos)
        return;
    const QString baseName = t.qtext(base);
    QStringList vars;
    for (int v = w.forVars; v >= 0 && vars.size() < 64; v = m_forVars[size_t(v)].prev)
        vars << t.qtext(m_forVars[size_t(v)].name);
    if (vars.isEmpty())
        return;
    const QString leftIndex = t.qtext(left).mid(baseName.size());
    for (const QString& v : vars) {
        if (!containsWord(leftIndex, v))
            continue;
        // Find y[... v - k ...] on the right.
        std::vector<TSNode> stack{right};
        TSNode hit{};
        int visited = 0;
        while (!stack.empty() && visited < 4096 && ts_node_is_null(hit)) {
            const TSNode n = stack.back();
            stack.pop_back();
            ++visited;
            if (ST::is(n, "subscript") && t.qtext(field(n, F().value)) == baseName &&
                hasBackOffset(t.qtext(n).mid(baseName.size()), v)) {
                hit = n;
                break;
            }
            const uint32_t k = ts_node_named_child_count(n);
            for (uint32_t i = 0; i < k; ++i)
                stack.push_back(ts_node_named_child(n, i));
        }
        if (ts_node_is_null(hit))
            continue;
        const bool scan =
            ST::is(right, "binary_operator") &&
            (t.text(field(right, F().op)) == "+" || t.text(field(right, F().op)) == "*") &&
            (ts_node_eq(field(right, F().left), hit) || ts_node_eq(field(right, F().right), hit)) &&
            ST::is(a, "assignment");
        const LoopInfo* L = loopBinding(a, v);
        if (L)
            m_recurrentLoops.insert(L->index);
        if (scan)
            addEvidence(QStringLiteral("reduction"), a, w,
                        QStringLiteral("running scan of %1 (cumsum/cumprod)").arg(baseName), 2);
        else if (!L || m.loopWork(*L).work != PassWork::Slab)
            addEvidence(QStringLiteral("sequential"), a, w,
                        QStringLiteral("%1[%2] computed from %3").arg(baseName, v, t.qtext(hit)),
                        6);
        return;
    }
}

void Collector::patternOfCall(const CallSite& c) {
    const TSNode call = c.call;
    const Where& w = c.w;
    const QString& canonical = c.canonical;
    const CanonInfo& info = c.info;
    const bool loop = c.loop;
    const bool attribute = c.attribute;
    const bool generator = c.generator;
    const std::string_view method = c.method;
    // Compute-pattern evidence (tests do not set the pattern of the project).
    if (!out.isTest) {
        QString pattern = info.pattern;
        if (pattern.isEmpty() && generator && generatorSpec(method))
            pattern = QStringLiteral("monte-carlo");
        if (pattern.isEmpty() && canonical.isEmpty() && attribute)
            pattern = methodPattern(method);
        if (pattern.isEmpty() && attribute && info.re && loop)
            pattern = QStringLiteral("string");
        // `numpy.sum(bitspersample)` with `bitspersample=(5, 6, 5)`: NumPy called on a few
        // Python numbers is no array work, whatever the function's pattern.
        if (info.numpy && !pattern.isEmpty() && numbersOnly(firstArgument(call), w))
            pattern.clear();
        if (!pattern.isEmpty())
            addEvidence(pattern, call, w,
                        canonical.isEmpty() ? QStringLiteral(".%1()").arg(QString::fromUtf8(
                                                  method.data(), qsizetype(method.size())))
                                            : canonical,
                        2);
        // Frontier loops of graph searches.
        if (method == "popleft" && w.inWhile && m_dequeImported)
            addEvidence(QStringLiteral("graph"), call, w,
                        QStringLiteral("BFS frontier: deque.popleft() in a while loop"), 6);
        if (info.heappop && w.inWhile)
            addEvidence(QStringLiteral("graph"), call, w,
                        QStringLiteral("priority-queue frontier: heapq.heappop() in a while loop"),
                        4);
    }
}

} // namespace cnready::evidence
