// SyntaxTree: the O(log n) parent index agrees with tree-sitter's own ts_node_parent, and
// field lookups by name agree with ts_node_child_by_field_name.
#include "parse/SyntaxTree.h"

#include <QDirIterator>
#include <QtTest>

using namespace cnready;

class TestSyntaxTree : public QObject {
    Q_OBJECT
private slots:
    void parentIndexMatchesTreeSitter() {
        QDirIterator it(QStringLiteral(CNREADY_FIXTURES_DIR "/rules"), {QStringLiteral("*.py")},
                        QDir::Files, QDirIterator::Subdirectories);
        int files = 0;
        qint64 nodes = 0;
        while (it.hasNext()) {
            QFile f(it.next());
            QVERIFY(f.open(QIODevice::ReadOnly));
            const SyntaxTree tree(f.readAll());
            std::vector<TSNode> stack{tree.root()};
            while (!stack.empty()) {
                const TSNode n = stack.back();
                stack.pop_back();
                ++nodes;
                const TSNode expected = ts_node_parent(n);
                const TSNode actual = tree.parent(n);
                QVERIFY(ts_node_eq(expected, actual) ||
                        (ts_node_is_null(expected) && ts_node_is_null(actual)));
                for (uint32_t i = 0; i < ts_node_child_count(n); ++i)
                    stack.push_back(ts_node_child(n, i));
            }
            ++files;
        }
        QVERIFY(files > 0);
        QVERIFY(nodes > 1000);
    }

    void fieldLookupMatchesTreeSitter() {
        const SyntaxTree tree("for i in range(n):\n    a[i] = f(x, y=2)\n");
        const TSNode loop = ts_node_named_child(tree.root(), 0);
        QCOMPARE(SyntaxTree::type(loop), std::string_view("for_statement"));
        QCOMPARE(tree.text(SyntaxTree::field(loop, "left")), std::string_view("i"));
        QCOMPARE(tree.text(SyntaxTree::field(loop, "right")), std::string_view("range(n)"));
        QVERIFY(ts_node_is_null(SyntaxTree::field(loop, "no_such_field")));
        QVERIFY(ts_node_eq(SyntaxTree::field(loop, "body"),
                           ts_node_child_by_field_name(loop, "body", 4)));
    }
};

QTEST_GUILESS_MAIN(TestSyntaxTree)
#include "tst_syntax_tree.moc"
