#include "rules/R104_host_sync.h"

#include "parse/SyntaxTree.h"
#include "rules/BlocksSupport.h"
#include "rules/RuleSupport.h"
#include "semantic/SemanticModel.h"
#include "semantic/Walk.h"

#include <vector>

namespace cnready {

const RuleInfo& R104HostSync::info() const {
    static const RuleInfo i{
        QStringLiteral("R104"),
        Category::Blocks,
        QStringLiteral("host-sync-in-hot-path"),
        QStringLiteral("Host materialization in a hot path"),
        QStringLiteral("RR-sync"),
        QStringLiteral("Finds `.item()`, `.tolist()`, `float()` / `int()` / `bool()` / "
                       "`complex()` of an array value, and `print`, f-strings, `str`, `repr`, "
                       "`%`/`format` and logging calls that format an array value, when they "
                       "run in a hot path: inside a loop, or inside a function that a loop "
                       "calls (followed across the project's files). A NumPy reduction of a "
                       "value of unknown kind (`float(np.sum(u))` with `u` an unannotated "
                       "parameter) counts inside a loop of its own function: the array runtime "
                       "returns a device scalar whatever it is given. The same code once at the "
                       "boundary (module level, `__main__`, after the loop) is silent, and so "
                       "is formatting inside a `raise` or an `assert` message, which runs at "
                       "most once, diagnostics inside `if verbose:` / `if debug:` blocks, "
                       "which users switch off, and reads behind an every-N test "
                       "(`if it % 50 == 0 and float(res) < tol:`), which sync once per N "
                       "passes."),
        QStringLiteral("Turning a device value into a Python object makes the host wait for "
                       "every queued operation that feeds it, then copies it over the bus. "
                       "Once per run that is nothing; once per iteration it serialises the "
                       "whole loop and the GPUs sit idle between steps."),
        QStringLiteral("for step in range(steps):\n"
                       "    u = update(u)\n"
                       "    print(f\"residual {np.abs(u - u0).max()}\")"),
        QStringLiteral("for step in range(steps):\n"
                       "    u = update(u)\n"
                       "    if step % 100 == 0:       # report rarely\n"
                       "        log.append(np.abs(u - u0).max())   # stays on the device\n"
                       "print(f\"residual {float(log[-1])}\")"),
        true};
    return i;
}

namespace {

// Whether `n` is only evaluated on the way out: inside a `raise` statement, or in the message
// of an `assert` (built only when the assertion fails). Formatting an array there happens at
// most once, not on every pass of the hot path (`raise ValueError(f"bad code {codes[0]}")`).
bool onTheWayOut(const SemanticModel& m, TSNode n) {
    const TSNode stmt = rules::enclosingStatement(m, n);
    if (SyntaxTree::is(stmt, "raise_statement"))
        return true;
    if (SyntaxTree::is(stmt, "assert_statement") && ts_node_named_child_count(stmt) >= 2) {
        const TSNode message = ts_node_named_child(stmt, 1);
        return ts_node_start_byte(n) >= ts_node_start_byte(message) &&
               ts_node_end_byte(n) <= ts_node_end_byte(message);
    }
    return false;
}

// Whether `call` (`value.item()`) sits in the block of an `if` / `elif` that tests its receiver
// against a scalar type (`elif isinstance(value, np.generic):`, `np.number`, `numbers.Number`,
// `float`): there the receiver is a NumPy or Python scalar, a host value. A device scalar of
// the array runtime is a 0-d array and fails such a test. One descent from the function.
bool scalarTypeTested(const SemanticModel& m, TSNode call, TSNode recv) {
    const FunctionRegion* fn = m.enclosingFunctionRegion(call);
    if (!fn)
        return false;
    const std::string_view name = m.text(recv);
    const std::vector<TSNode> path = rules::pathTo(fn->node, call);
    for (size_t i = 0; i + 1 < path.size(); ++i) {
        const TSNode n = path[i];
        if (!SyntaxTree::is(n, "if_statement") && !SyntaxTree::is(n, "elif_clause"))
            continue;
        if (!ts_node_eq(path[i + 1], SyntaxTree::field(n, "consequence")))
            continue;
        const TSNode cond = SyntaxTree::field(n, "condition");
        if (!SyntaxTree::is(cond, "call") ||
            m.text(SyntaxTree::field(cond, "function")) != "isinstance" ||
            SemanticModel::positionalCount(cond) != 2 ||
            m.text(SemanticModel::argument(cond, 0)) != name)
            continue;
        const std::string_view t = m.text(SemanticModel::argument(cond, 1));
        if (t.find("ndarray") != std::string_view::npos)
            continue;
        if (t.find("generic") != std::string_view::npos ||
            t.find("number") != std::string_view::npos ||
            t.find("Number") != std::string_view::npos ||
            t.find("integer") != std::string_view::npos ||
            t.find("floating") != std::string_view::npos || t == "float" || t == "int" ||
            t == "complex" || t == "bool")
            return true;
    }
    return false;
}

bool isConversion(std::string_view name) {
    return name == "float" || name == "int" || name == "bool" || name == "complex";
}

bool isLogging(const SemanticModel& m, TSNode fn) {
    if (!SyntaxTree::is(fn, "attribute"))
        return false;
    const std::string_view meth = m.text(SyntaxTree::field(fn, "attribute"));
    if (meth != "debug" && meth != "info" && meth != "warning" && meth != "warn" &&
        meth != "error" && meth != "critical" && meth != "exception" && meth != "log")
        return false;
    const QString cn = m.canonicalName(fn);
    if (cn.startsWith(QLatin1String("logging.")))
        return true;
    const std::string_view obj = m.text(SyntaxTree::field(fn, "object"));
    return obj == "logger" || obj == "log" || obj == "LOG" || obj == "LOGGER" || obj == "_logger" ||
           obj == "_log" || obj.ends_with(".logger") || obj.ends_with(".log");
}

// isDeviceValue(e), except when every array name in `e` holds a host value at this point:
// provenance is flow-insensitive per scope, so `ours = getattr(self, p)` reads as an array
// when an `except` handler later rebinds `ours = np.asarray(ours)`; the assignment that
// reaches `bool(ours != theirs)` is the getattr. Calls keep `e` a device value (they may
// compute one from anything).
bool deviceValueHere(const SemanticModel& m, TSNode e) {
    if (!m.isDeviceValue(e))
        return false;
    std::vector<TSNode> stack{e};
    bool names = false;
    for (int budget = 200; !stack.empty(); --budget) {
        if (budget <= 0)
            return true;
        const TSNode n = stack.back();
        stack.pop_back();
        const std::string_view t = SyntaxTree::type(n);
        if (t == "call" || t == "await" || t == "lambda")
            return true;
        if (t == "identifier") {
            const ValueKind k = m.valueKind(n);
            if (k == ValueKind::Array || k == ValueKind::DeviceScalar) {
                if (!blocks::hostBindingReaches(m, n))
                    return true;
                names = true;
            }
            continue;
        }
        if (t == "attribute") {
            stack.push_back(SyntaxTree::field(n, "object")); // `.T`, `.real` of the name
            continue;
        }
        const uint32_t k = ts_node_named_child_count(n);
        for (uint32_t i = 0; i < k; ++i)
            stack.push_back(ts_node_named_child(n, i));
    }
    return !names;
}

// `float(np.sum(u))` in a loop of its own function, `u` of unknown kind (an unannotated
// parameter): whatever NumPy reduction is given, the array runtime returns a device scalar,
// as R105 counts it in conditions. Element reads of unknown values (`x[i]` of a list) do not
// count.
bool unknownReductionInLoop(const SemanticModel& m, TSNode site, TSNode arg) {
    if (!m.inLoop(site))
        return false;
    TSNode found{};
    if (!blocks::readsDeviceValue(m, arg, &found, true) || !SyntaxTree::is(found, "call"))
        return false;
    // The model leaves out reductions of container items and of shapes (`np.prod(shape)`).
    return !(m.isNumpyFullReduction(found) &&
             m.valueKind(SemanticModel::argument(found, 0)) == ValueKind::Unknown) ||
           m.valueKind(found) == ValueKind::DeviceScalar;
}

// What the formatting sites ask: a device value here, or a NumPy reduction of a value of
// unknown kind in a loop of its own function (`print(f"{np.linalg.norm(u):.3e}")`, `"%g" %
// np.max(u)`): formatting needs the number on the host as much as float() does.
bool formatsDeviceValue(const SemanticModel& m, TSNode site, TSNode e) {
    // A string argument (`print(f"{...}")`) is reported at its own interpolation or `%`.
    return deviceValueHere(m, e) ||
           (m.valueKind(e) != ValueKind::String && unknownReductionInLoop(m, site, e));
}

// Whether `c` is an argument (at any depth) of another `math.*` call of the same expression.
bool insideMathCall(const SemanticModel& m, TSNode c) {
    TSNode p = ts_node_parent(c);
    for (int up = 0; up < 12 && !ts_node_is_null(p); ++up, p = ts_node_parent(p)) {
        const std::string_view t = SyntaxTree::type(p);
        if (t == "expression_statement" || t == "assignment" || t == "block" ||
            t == "return_statement")
            return false;
        if (t == "call" &&
            m.canonicalName(SyntaxTree::field(p, "function")).startsWith(QLatin1String("math.")))
            return true;
    }
    return false;
}

// Whether `e` holds a `math.*` call of a device value (`np.sum(a) / math.sqrt(np.sum(b))`):
// the outer math call then converts that sync's neighbours too.
bool containsDeviceMath(const SemanticModel& m, TSNode e) {
    bool found = false;
    walkSubtree(e, [&](TSNode n) {
        if (found)
            return false;
        if (SyntaxTree::is(n, "call") &&
            m.canonicalName(SyntaxTree::field(n, "function")).startsWith(QLatin1String("math."))) {
            const TSNode a = SemanticModel::argument(n, 0);
            found =
                !ts_node_is_null(a) && (deviceValueHere(m, a) || unknownReductionInLoop(m, n, a));
            return false;
        }
        return true;
    });
    return found;
}

} // namespace

void R104HostSync::check(const RuleContext& ctx, FindingSink& out) const {
    const SemanticModel& m = ctx.model;
    if (!m.importsNumpy())
        return;
    // Diagnostics behind a verbosity switch (`if verbose: print(f"... {res}")`) only run
    // when the user asks for them; a default run never pays for the copy.
    const std::vector<std::pair<uint32_t, uint32_t>> quiet = blocks::verbositySpans(m);
    // A read behind an every-N test (`if it % 50 == 0 and float(res) < tol`) is the recipe's
    // own fix: one sync per N passes.
    const std::vector<std::pair<uint32_t, uint32_t>> amortized = blocks::everyNthPassSpans(m);
    auto report = [&](TSNode n, const QString& message) {
        if (!onTheWayOut(m, n) && !blocks::insideAny(quiet, n) && !blocks::insideAny(amortized, n))
            out.reportAbout(n, n, message);
    };
    for (const TSNode c : m.calls()) {
        const TSNode fn = SyntaxTree::field(c, "function");
        // `math.sqrt(np.sum(r * r))`: the math module works on Python floats only, so it
        // converts its argument on the host as float() does. Reported once, at the outermost
        // math call of the expression.
        if (const QString cn = m.canonicalName(fn); cn.startsWith(QLatin1String("math."))) {
            const TSNode a = SemanticModel::argument(c, 0);
            if (!ts_node_is_null(a) && !insideMathCall(m, c) &&
                (deviceValueHere(m, a) || unknownReductionInLoop(m, c, a) ||
                 containsDeviceMath(m, a)))
                report(c, QStringLiteral("%1() of an array value converts it to a Python float "
                                         "on the host on every pass of this hot path")
                              .arg(cn));
            continue;
        }
        if (SyntaxTree::is(fn, "attribute")) {
            const std::string_view meth = m.text(SyntaxTree::field(fn, "attribute"));
            if ((meth == "item" || meth == "tolist") &&
                SemanticModel::positionalCount(c) <= (meth == "item" ? 8 : 0)) {
                const TSNode recv = SyntaxTree::field(fn, "object");
                const ValueKind k = m.valueKind(recv);
                if (k == ValueKind::Array || k == ValueKind::DeviceScalar ||
                    (k == ValueKind::Unknown && m.typeName(recv).isEmpty() &&
                     !SyntaxTree::is(recv, "string") && !scalarTypeTested(m, c, recv))) {
                    report(c, QStringLiteral(".%1() on %2 copies it to the host on every "
                                             "pass of this hot path")
                                  .arg(QString::fromUtf8(meth.data(), qsizetype(meth.size())),
                                       blocks::quoted(m, recv)));
                }
                continue;
            }
            if (isLogging(m, fn)) {
                const int n = SemanticModel::positionalCount(c);
                for (int i = 0; i < n; ++i) {
                    const TSNode a = SemanticModel::argument(c, i);
                    if (formatsDeviceValue(m, c, a)) {
                        report(c, QStringLiteral("logging %1 formats an array value on the "
                                                 "host in a hot path")
                                      .arg(blocks::quoted(m, a)));
                        break;
                    }
                }
                continue;
            }
            // "...".format(x) / "%f" % x
            if (meth == "format" && SyntaxTree::is(SyntaxTree::field(fn, "object"), "string")) {
                const int n = SemanticModel::positionalCount(c);
                for (int i = 0; i < n; ++i) {
                    const TSNode a = SemanticModel::argument(c, i);
                    if (formatsDeviceValue(m, c, a)) {
                        report(c, QStringLiteral("str.format of %1 pulls an array value to "
                                                 "the host in a hot path")
                                      .arg(blocks::quoted(m, a)));
                        break;
                    }
                }
            }
            continue;
        }
        if (!SyntaxTree::is(fn, "identifier"))
            continue;
        const std::string_view name = m.text(fn);
        if (isConversion(name) && blocks::isBuiltin(m, fn, name)) {
            const TSNode a = SemanticModel::argument(c, 0);
            if (!ts_node_is_null(a) && SemanticModel::positionalCount(c) == 1 &&
                (deviceValueHere(m, a) || unknownReductionInLoop(m, c, a)))
                report(c, QStringLiteral("%1(%2) waits for the device and copies the value "
                                         "to the host on every pass of this hot path")
                              .arg(QString::fromUtf8(name.data(), qsizetype(name.size())),
                                   blocks::quoted(m, a).mid(1).chopped(1)));
        } else if ((name == "str" || name == "repr") && blocks::isBuiltin(m, fn, name)) {
            const TSNode a = SemanticModel::argument(c, 0);
            if (formatsDeviceValue(m, c, a))
                report(c, QStringLiteral("%1() of %2 formats an array value on the host in a "
                                         "hot path")
                              .arg(QString::fromUtf8(name.data(), qsizetype(name.size())),
                                   blocks::quoted(m, a)));
        } else if (name == "print" && blocks::isBuiltin(m, fn, name)) {
            const int n = SemanticModel::positionalCount(c);
            for (int i = 0; i < n; ++i) {
                const TSNode a = SemanticModel::argument(c, i);
                if (formatsDeviceValue(m, c, a)) {
                    report(c, QStringLiteral("print of %1 copies an array value to the host "
                                             "in a hot path")
                                  .arg(blocks::quoted(m, a)));
                    break;
                }
            }
        }
    }
    // f-string interpolations and "%" formatting of device values.
    for (const TSNode ip : m.interpolations()) {
        const TSNode e = ts_node_named_child(ip, 0);
        if (!ts_node_is_null(e) && formatsDeviceValue(m, ip, e))
            report(ip, QStringLiteral("f-string formats %1, an array value, on the host in a "
                                      "hot path")
                           .arg(blocks::quoted(m, e)));
    }
    for (const TSNode b : m.binaryOperators()) {
        if (m.text(SyntaxTree::field(b, "operator")) != "%" ||
            !SyntaxTree::is(SyntaxTree::field(b, "left"), "string"))
            continue;
        TSNode r = SyntaxTree::field(b, "right");
        bool dev = formatsDeviceValue(m, b, r);
        if (!dev && (SyntaxTree::is(r, "tuple") || SyntaxTree::is(r, "parenthesized_expression"))) {
            const uint32_t k = ts_node_named_child_count(r);
            for (uint32_t j = 0; j < k && !dev; ++j)
                dev = formatsDeviceValue(m, b, ts_node_named_child(r, j));
        }
        if (dev)
            report(b, QStringLiteral("%-formatting of an array value pulls it to the host in "
                                     "a hot path"));
    }
}

} // namespace cnready
