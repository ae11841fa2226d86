#include "rules/R001_elementwise.h"

#include "parse/SyntaxTree.h"
#include "rules/RuleSupport.h"
#include "semantic/SemanticModel.h"

namespace cnready {

using namespace rules;

namespace {

// NumPy ufuncs (and ufunc-like helpers) that work element by element. Leaf names.
bool isElementwiseFunction(QStringView leaf) {
    static const NameSet names = {
        QStringLiteral("add"),         QStringLiteral("subtract"),
        QStringLiteral("multiply"),    QStringLiteral("divide"),
        QStringLiteral("true_divide"), QStringLiteral("floor_divide"),
        QStringLiteral("power"),       QStringLiteral("float_power"),
        QStringLiteral("mod"),         QStringLiteral("remainder"),
        QStringLiteral("fmod"),        QStringLiteral("negative"),
        QStringLiteral("positive"),    QStringLiteral("reciprocal"),
        QStringLiteral("abs"),         QStringLiteral("absolute"),
        QStringLiteral("fabs"),        QStringLiteral("sign"),
        QStringLiteral("sqrt"),        QStringLiteral("cbrt"),
        QStringLiteral("square"),      QStringLiteral("exp"),
        QStringLiteral("exp2"),        QStringLiteral("expm1"),
        QStringLiteral("log"),         QStringLiteral("log2"),
        QStringLiteral("log10"),       QStringLiteral("log1p"),
        QStringLiteral("logaddexp"),   QStringLiteral("sin"),
        QStringLiteral("cos"),         QStringLiteral("tan"),
        QStringLiteral("arcsin"),      QStringLiteral("arccos"),
        QStringLiteral("arctan"),      QStringLiteral("arctan2"),
        QStringLiteral("sinh"),        QStringLiteral("cosh"),
        QStringLiteral("tanh"),        QStringLiteral("arcsinh"),
        QStringLiteral("arccosh"),     QStringLiteral("arctanh"),
        QStringLiteral("hypot"),       QStringLiteral("deg2rad"),
        QStringLiteral("rad2deg"),     QStringLiteral("degrees"),
        QStringLiteral("radians"),     QStringLiteral("floor"),
        QStringLiteral("ceil"),        QStringLiteral("trunc"),
        QStringLiteral("rint"),        QStringLiteral("round"),
        QStringLiteral("around"),      QStringLiteral("maximum"),
        QStringLiteral("minimum"),     QStringLiteral("fmax"),
        QStringLiteral("fmin"),        QStringLiteral("logical_and"),
        QStringLiteral("logical_or"),  QStringLiteral("logical_not"),
        QStringLiteral("logical_xor"), QStringLiteral("bitwise_and"),
        QStringLiteral("bitwise_or"),  QStringLiteral("bitwise_xor"),
        QStringLiteral("invert"),      QStringLiteral("isnan"),
        QStringLiteral("isinf"),       QStringLiteral("isfinite"),
        QStringLiteral("conj"),        QStringLiteral("conjugate"),
        QStringLiteral("real"),        QStringLiteral("imag"),
        QStringLiteral("angle"),       QStringLiteral("greater"),
        QStringLiteral("less"),        QStringLiteral("greater_equal"),
        QStringLiteral("less_equal"),  QStringLiteral("equal"),
        QStringLiteral("not_equal"),   QStringLiteral("heaviside"),
        QStringLiteral("copysign"),    QStringLiteral("sinc"),
        QStringLiteral("nan_to_num"),
    };
    return names.contains(leaf);
}

bool isElementwiseOperator(std::string_view op) {
    return op == "+" || op == "-" || op == "*" || op == "/" || op == "//" || op == "%" ||
           op == "**" || op == "&" || op == "|" || op == "^" || op == "<<" || op == ">>";
}

// Names of the array operands (identifiers / attributes) of a site, for the message.
void arrayOperands(const SemanticModel& model, std::initializer_list<TSNode> operands,
                   QStringList& names) {
    for (TSNode o : operands)
        if ((SyntaxTree::is(o, "identifier") || SyntaxTree::is(o, "attribute")) && model.isArray(o))
            names << model.tree().qtext(o);
}

} // namespace

const RuleInfo& R001Elementwise::info() const {
    static const RuleInfo i{
        QStringLiteral("R001"),
        Category::Scales,
        QStringLiteral("vectorized-elementwise"),
        QStringLiteral("Vectorized elementwise arithmetic"),
        QString(),
        QStringLiteral("Marks arithmetic, comparisons and NumPy ufuncs (`np.exp`, `np.maximum`, "
                       "...) applied to whole arrays, outside loops that walk single elements. "
                       "One finding per function covers all such lines."),
        QStringLiteral("Each whole-array operation becomes one task that every GPU runs on its "
                       "own block of the operands, with no communication between GPUs. This "
                       "is the shape of code that scales best; the only cost to watch is the "
                       "temporary each operator allocates (see R006)."),
        QStringLiteral("energy = 0.5 * mass * (vx**2 + vy**2)\n"
                       "hot = np.exp(-energy / kT) > threshold"),
        QStringLiteral("# nothing to change: keep the whole-array form"),
        false};
    return i;
}

void R001Elementwise::check(const RuleContext& ctx, FindingSink& out) const {
    const SemanticModel& m = ctx.model;
    if (!m.importsNumpy())
        return;
    RegionGroups groups;
    QStringList names;
    auto add = [&](TSNode site) {
        if (inElementLoop(m, site))
            return;
        if (names.isEmpty())
            groups.add(m, site, QString());
        for (const QString& n : names)
            groups.add(m, site, n);
    };
    // Document order puts an operator before the ones nested in it: once a site is taken,
    // operators inside its span belong to the same expression and are not looked at again
    // (no ts_node_parent() per operator: that is O(depth) each).
    const FieldIds& f = fields();
    uint32_t coveredUntil = 0;
    for (TSNode b : m.binaryOperators()) {
        if (ts_node_start_byte(b) < coveredUntil)
            continue;
        if (!isElementwiseOperator(m.text(SyntaxTree::field(b, f.operator_))))
            continue;
        if (!m.isArray(b))
            continue;
        coveredUntil = ts_node_end_byte(b);
        names.clear();
        arrayOperands(m, {SyntaxTree::field(b, f.left), SyntaxTree::field(b, f.right)}, names);
        add(b);
    }
    for (TSNode c : m.comparisons()) {
        const auto operands = namedChildren(c);
        bool array = false;
        for (qsizetype k = 0; k < operands.size() && !array; ++k)
            array = m.isArray(operands[k]);
        if (!array)
            continue;
        names.clear();
        for (TSNode o : operands)
            arrayOperands(m, {o}, names);
        add(c);
    }
    for (TSNode a : m.augmentedAssignments()) {
        const auto op = m.text(SyntaxTree::field(a, f.operator_));
        if (op == "@=")
            continue;
        const TSNode left = SyntaxTree::field(a, f.left);
        if (!m.isArray(left))
            continue;
        names.clear();
        arrayOperands(m, {left, SyntaxTree::field(a, f.right)}, names);
        add(a);
    }
    for (TSNode call : m.calls()) {
        const QString name = m.callName(call);
        if (!isNumpyFunction(name) || name.count(QLatin1Char('.')) != 1 ||
            !isElementwiseFunction(leafView(name)))
            continue;
        const auto args = positionalArguments(call);
        bool allHostScalars = !args.isEmpty();
        for (TSNode arg : args)
            if (m.valueKind(arg) != ValueKind::HostScalar)
                allHostScalars = false;
        if (allHostScalars || args.isEmpty())
            continue;
        names.clear();
        for (TSNode arg : args)
            arrayOperands(m, {arg}, names);
        add(call);
    }
    groups.reportAll(out, [](const QStringList& subjects, const QString& where) {
        if (subjects.isEmpty())
            return QStringLiteral("whole-array elementwise expressions %1").arg(where);
        return QStringLiteral("whole-array elementwise expressions on %1 %2")
            .arg(quoteList(subjects), where);
    });
}

} // namespace cnready
