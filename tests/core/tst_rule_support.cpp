// RuleSupport: the shortcuts the rules use for speed (statement and parent lookups that start
// below the root, the per-file statement memo, the loop-variable test, child and argument lists,
// callee leaves as views) give the same nodes and answers as the plain tree-sitter and
// SemanticModel calls they replace, on every node of the rule fixtures; and the string
// helpers give exact texts.
#include "parse/SyntaxTree.h"
#include "rules/RuleSupport.h"
#include "semantic/SemanticModel.h"

#include "../common/AllNodes.h"
#include <QDirIterator>

#include <QtTest>

#include <vector>

using namespace cnready;
using namespace cnready::rules;

namespace {

bool same(TSNode a, TSNode b) {
    return ts_node_eq(a, b) || (ts_node_is_null(a) && ts_node_is_null(b));
}

// enclosingStatement() the slow way: climb with ts_node_parent().
TSNode statementByParents(TSNode n) {
    TSNode cur = n;
    for (;;) {
        const TSNode p = ts_node_parent(cur);
        if (ts_node_is_null(p) || endsStatementClimb(cur, p))
            return cur;
        cur = p;
    }
}

QList<QByteArray> fixtureSources() {
    QList<QByteArray> out;
    QDirIterator it(QStringLiteral(CNREADY_FIXTURES_DIR "/rules"), {QStringLiteral("*.py")},
                    QDir::Files, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        QFile f(it.next());
        if (f.open(QIODevice::ReadOnly))
            out << f.readAll();
    }
    // A module with more top-level statements than namedChildren() indexes directly, and
    // constructs the fixtures may lack: comments and continuations inside brackets, a
    // parenthesized callee, a generator argument, a nested def bound from a loop variable.
    QByteArray extra = "import numpy as np\n";
    for (int i = 0; i < 40; ++i)
        extra += "v" + QByteArray::number(i) + " = np.zeros(" + QByteArray::number(i) + ")\n";
    extra += "def f(a, n):\n"
             "    for i in range(n):\n"
             "        k = i + 1\n"
             "        def g():\n"
             "            j = k\n"
             "            return j\n"
             "        b = a[  # c\n"
             "              a > k]\n"
             "        c = a[\\\n"
             "k]\n"
             "        d = (np.exp)(a) + np.sum(x for x in a)\n"
             "        e = ((a[1:] - a[:-1]))\n"
             "        out = np.add(a, a, out=a)\n"
             "        a, b = b, a\n"
             "    return a\n";
    out << extra;
    return out;
}

} // namespace

class TestRuleSupport : public QObject {
    Q_OBJECT
private slots:
    void navigationMatchesTreeSitter() {
        qint64 checked = 0;
        for (const QByteArray& src : fixtureSources()) {
            const SyntaxTree tree(src);
            const SemanticModel model(tree, QStringLiteral("fixture"));
            StatementFinder finder(model);
            const std::vector<TSNode> nodes = allNodes(tree.root());
            for (const TSNode n : nodes) {
                if (!ts_node_is_named(n))
                    continue;
                const TSNode expected = statementByParents(n);
                QVERIFY(same(enclosingStatement(model, n), expected));
                QVERIFY(same(finder(n), expected));
                const std::vector<TSNode> chain = chainTo(model, n);
                // Only a zero-width node (a MISSING token) may be out of reach of a descent.
                QVERIFY(!chain.empty() || ts_node_start_byte(n) == ts_node_end_byte(n));
                QVERIFY(chain.empty() || same(chain.back(), n));
                for (size_t i = 1; i < chain.size(); ++i)
                    QVERIFY(same(ts_node_parent(chain[i]), chain[i - 1]));
                QVERIFY(same(ancestorOf(model, n, 1), ts_node_parent(n)));
                const TSNode parent = ts_node_parent(n);
                QVERIFY(same(ancestorOf(model, n, 2),
                             ts_node_is_null(parent) ? parent : ts_node_parent(parent)));
                QVERIFY(same(assignmentOf(model, n), assignmentOf(n)));
                ++checked;
            }
        }
        QVERIFY(checked > 5000);
    }

    void listsMatchTreeSitterAndModel() {
        int calls = 0;
        int wide = 0;
        int visited = 0;
        int wrongParents = 0;
        for (const QByteArray& src : fixtureSources()) {
            const SyntaxTree tree(src);
            const SemanticModel model(tree, QStringLiteral("fixture"));
            for (const TSNode n : allNodes(tree.root())) {
                const auto kids = namedChildren(n);
                QCOMPARE(uint32_t(kids.size()), ts_node_named_child_count(n));
                for (qsizetype i = 0; i < kids.size(); ++i)
                    QVERIFY(same(kids[i], ts_node_named_child(n, uint32_t(i))));
                wide += kids.size() > 16;
            }
            for (const TSNode call : model.calls()) {
                const auto args = positionalArguments(call);
                QCOMPARE(int(args.size()), SemanticModel::positionalCount(call));
                for (qsizetype k = 0; k < args.size(); ++k)
                    QVERIFY(same(args[k], SemanticModel::argument(call, int(k))));
                const std::string_view leaf = calleeLeafText(model, call);
                QCOMPARE(QString::fromUtf8(leaf.data(), qsizetype(leaf.size())),
                         model.calleeLeaf(call));
                ++calls;
            }
            walkWithParents(tree.root(), [&](TSNode n, TSNode parent) {
                ++visited;
                if (!ts_node_is_null(parent) && !same(parent, ts_node_parent(n)))
                    ++wrongParents;
                return true;
            });
        }
        QCOMPARE(wrongParents, 0);
        QVERIFY(visited > 10000);
        QVERIFY(calls > 300);
        QVERIFY(wide > 0); // the cursor path of namedChildren() ran too
    }

    void usesLoopVarMatchesTheModel() {
        int inside = 0;
        for (const QByteArray& src : fixtureSources()) {
            const SyntaxTree tree(src);
            const SemanticModel model(tree, QStringLiteral("fixture"));
            for (const TSNode n : allNodes(tree.root())) {
                if (!ts_node_is_named(n))
                    continue;
                inside += inElementLoop(model, n);
                if (const LoopInfo* L = model.enclosingLoop(n)) {
                    // usesLoopVar()'s identifier shortcut must not change the model's answer.
                    const bool viaModel =
                        (SyntaxTree::is(n, "identifier") && L->variables.contains(tree.qtext(n))) ||
                        model.usesLoopVariable(n, *L);
                    QCOMPARE(usesLoopVar(model, n, *L), viaModel);
                }
            }
        }
        QVERIFY(inside > 20);
    }

    void stringHelpers() {
        QCOMPARE(leafName(QStringLiteral("numpy.linalg.norm")), QStringLiteral("norm"));
        QCOMPARE(leafName(QStringLiteral("len")), QStringLiteral("len"));
        QCOMPARE(leafName(QStringLiteral("a.")), QString());
        QCOMPARE(leafView(QStringLiteral("numpy.ndarray.sum")).toString(), QStringLiteral("sum"));

        QCOMPARE(quoteList({}), QString());
        QCOMPARE(quoteList({QStringLiteral("a")}), QStringLiteral("`a`"));
        QCOMPARE(quoteList({QStringLiteral("a"), QStringLiteral("b")}),
                 QStringLiteral("`a` and `b`"));
        QCOMPARE(quoteList({QStringLiteral("a"), QStringLiteral("b"), QStringLiteral("c")}),
                 QStringLiteral("`a`, `b` and `c`"));
        QCOMPARE(quoteList({QStringLiteral("a"), QStringLiteral("b"), QStringLiteral("c"),
                            QStringLiteral("d"), QStringLiteral("e")}),
                 QStringLiteral("`a`, `b`, `c` and 2 more"));
        QCOMPARE(quoteList({QStringLiteral("a"), QStringLiteral("b")}, 1),
                 QStringLiteral("`a` and 1 more"));

        const NameSet set{u"sum", u"max", u"argmax"};
        QVERIFY(set.contains(u"max"));
        QVERIFY(set.contains(QStringLiteral("argmax")));
        QVERIFY(!set.contains(u"ma"));
        QVERIFY(!set.contains(u"maxx"));
        QVERIFY(!set.contains(QStringView()));
    }

    void integerLiterals() {
        const QByteArray src = "a = 42\nb = 0x10\nc = 1_000\nd = 010\ne = 0\n"
                               "f = 9223372036854775807\ng = 123456789012345678\nh = 10 ** 3\n";
        const SyntaxTree tree(src);
        const SemanticModel model(tree, QStringLiteral("lits"));
        QList<qint64> values; // -1: no value
        for (const TSNode a : model.assignments())
            values << intValue(model, SyntaxTree::field(a, fields().right)).value_or(-1);
        const QList<qint64> expected = {42,
                                        16,
                                        1000,
                                        8 /* base 0: a leading zero is octal */,
                                        0,
                                        Q_INT64_C(9223372036854775807),
                                        Q_INT64_C(123456789012345678),
                                        1000};
        QCOMPARE(values, expected);
    }
};

QTEST_GUILESS_MAIN(TestRuleSupport)
#include "tst_rule_support.moc"
