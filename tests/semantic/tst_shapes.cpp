// Unit tests of symbolic shapes and size classes (semantic/Shapes.h): exact shapes and classes
// for each constructor and operation the model propagates.
#include "../common/Snippet.h"
#include "parse/SyntaxTree.h"
#include "semantic/SemanticModel.h"
#include "semantic/Walk.h"

#include <QtTest>

#include <memory>

using namespace cnready;

namespace {

// One parsed snippet and its model.
struct Snippet : test::Snippet {
    explicit Snippet(const char* src) : test::Snippet(QByteArray(src)) {}
    QString shape(std::string_view text, std::string_view after = {}) const {
        const TSNode n = find(text, after);
        return ts_node_is_null(n) ? QStringLiteral("<no node>") : model->shapeOf(n).toString();
    }
    SizeClass extentClass(std::string_view text, std::string_view after = {}) const {
        return model->extentClass(find(text, after));
    }
    SizeClass arrayClass(std::string_view text, std::string_view after = {}) const {
        return model->arraySizeClass(find(text, after));
    }
};

const char* kPrelude = "import numpy as np\n";

QByteArray withPrelude(const char* body) {
    return QByteArray(kPrelude) + body;
}

} // namespace

class TestShapes : public QObject {
    Q_OBJECT
private slots:
    void classes() {
        QCOMPARE(literalClass(3), SizeClass::Small);
        QCOMPARE(literalClass(kSmallLiteral), SizeClass::Small);
        QCOMPARE(literalClass(kSmallLiteral + 1), SizeClass::Data);
        QCOMPARE(joinClass(SizeClass::Small, SizeClass::Data), SizeClass::Data);
        QCOMPARE(joinClass(SizeClass::Small, SizeClass::Unknown), SizeClass::Unknown);
    }

    void constructors() {
        const QByteArray src = withPrelude("def f(n, m, x):\n"
                                           "    a = np.zeros((n, 3))\n"
                                           "    b = np.ones(n)\n"
                                           "    c = np.random.randn(n, 2)\n"
                                           "    rng = np.random.default_rng(0)\n"
                                           "    d = rng.random((m, 2))\n"
                                           "    e = np.arange(10)\n"
                                           "    g = np.linspace(0, 1, n)\n"
                                           "    h = np.eye(3)\n"
                                           "    k = np.array([0, 1, 0, -1])\n"
                                           "    l = np.zeros_like(a)\n"
                                           "    p = np.array([[1, 2], [3, 4], [5, 6]])\n"
                                           "    q = np.linspace(0, 1)\n"
                                           "    r = np.full((2, 2), 7.0)\n"
                                           "    s = np.identity(n)\n"
                                           "    t = np.arange(2, 8)\n"
                                           "    return a\n");
        const Snippet s(src.constData());
        QCOMPARE(s.shape("np.zeros((n, 3))"), QStringLiteral("(n, 3)"));
        QCOMPARE(s.shape("np.ones(n)"), QStringLiteral("(n,)"));
        QCOMPARE(s.shape("np.random.randn(n, 2)"), QStringLiteral("(n, 2)"));
        QCOMPARE(s.shape("rng.random((m, 2))"), QStringLiteral("(m, 2)"));
        QCOMPARE(s.shape("np.arange(10)"), QStringLiteral("(10,)"));
        QCOMPARE(s.shape("np.linspace(0, 1, n)"), QStringLiteral("(n,)"));
        QCOMPARE(s.shape("np.eye(3)"), QStringLiteral("(3, 3)"));
        QCOMPARE(s.shape("np.array([0, 1, 0, -1])"), QStringLiteral("(4,)"));
        QCOMPARE(s.shape("np.zeros_like(a)"), QStringLiteral("(n, 3)"));
        QCOMPARE(s.shape("np.array([[1, 2], [3, 4], [5, 6]])"), QStringLiteral("(3, 2)"));
        QCOMPARE(s.shape("np.linspace(0, 1)"), QStringLiteral("(50,)"));
        QCOMPARE(s.shape("np.full((2, 2), 7.0)"), QStringLiteral("(2, 2)"));
        QCOMPARE(s.shape("np.identity(n)"), QStringLiteral("(n, n)"));
        QCOMPARE(s.shape("np.arange(2, 8)"), QStringLiteral("(6,)"));
        QCOMPARE(s.arrayClass("np.zeros((n, 3))"), SizeClass::Data);
        QCOMPARE(s.arrayClass("np.eye(3)"), SizeClass::Small);
        QVERIFY(s.model->isBookkeepingArray(s.find("np.array([0, 1, 0, -1])")));
        QVERIFY(!s.model->isBookkeepingArray(s.find("np.ones(n)")));
    }

    void namesAndOperations() {
        const QByteArray src = withPrelude("def f(n, x):\n"
                                           "    a = np.zeros((n, 3))\n"
                                           "    b = a * 2.0 + 1\n"
                                           "    c = a[0]\n"
                                           "    d = a[:, 1]\n"
                                           "    e = a[1:-1]\n"
                                           "    g = a.T\n"
                                           "    h = a.sum(axis=0)\n"
                                           "    k = np.sum(a, axis=1)\n"
                                           "    l = a.sum()\n"
                                           "    m = a.reshape(3, n)\n"
                                           "    p = a @ np.ones((3, 5))\n"
                                           "    q = np.dot(a, np.ones(3))\n"
                                           "    r = np.stack([a, a])\n"
                                           "    t = np.concatenate([a, a], axis=1)\n"
                                           "    u = a[:2]\n"
                                           "    v = a[None, :, 0]\n"
                                           "    w = np.mean(a, axis=0, keepdims=True)\n"
                                           "    y = a.ravel()\n"
                                           "    z = np.ones(3) + a\n"
                                           "    return b, c, d, e, g, h, k, l, m, p, q, r, t\n");
        const Snippet s(src.constData());
        QCOMPARE(s.shape("b", "return"), QStringLiteral("(n, 3)"));
        QCOMPARE(s.shape("c", "return"), QStringLiteral("(3,)"));
        QCOMPARE(s.shape("d", "return"), QStringLiteral("(n,)"));
        QCOMPARE(s.shape("e", "return"), QStringLiteral("(?data, 3)"));
        QCOMPARE(s.shape("g", "return"), QStringLiteral("(3, n)"));
        QCOMPARE(s.shape("h", "return"), QStringLiteral("(3,)"));
        QCOMPARE(s.shape("k", "return"), QStringLiteral("(n,)"));
        QCOMPARE(s.shape("l", "return"), QStringLiteral("()"));
        QCOMPARE(s.shape("m", "return"), QStringLiteral("(3, n)"));
        QCOMPARE(s.shape("p", "return"), QStringLiteral("(n, 5)"));
        QCOMPARE(s.shape("q", "return"), QStringLiteral("(n,)"));
        QCOMPARE(s.shape("r", "return"), QStringLiteral("(2, n, 3)"));
        QCOMPARE(s.shape("t", "return"), QStringLiteral("(n, 6)"));
        QCOMPARE(s.shape("a[:2]"), QStringLiteral("(2, 3)"));
        QCOMPARE(s.shape("a[None, :, 0]"), QStringLiteral("(1, n)"));
        QCOMPARE(s.shape("np.mean(a, axis=0, keepdims=True)"), QStringLiteral("(1, 3)"));
        QCOMPARE(s.shape("a.ravel()"), QStringLiteral("(n·3·…,)"));
        QCOMPARE(s.shape("np.ones(3) + a"), QStringLiteral("(n, 3)"));
        QCOMPARE(s.arrayClass("a[:2]"), SizeClass::Small);
        QCOMPARE(s.arrayClass("a.ravel()"), SizeClass::Data);
    }

    void meshgridAndUnpacking() {
        const QByteArray src = withPrelude("NX = 64\n"
                                           "def f(ny):\n"
                                           "    x = np.linspace(0, 1, NX)\n"
                                           "    y = np.linspace(0, 1, ny)\n"
                                           "    X, Y = np.meshgrid(x, y)\n"
                                           "    I, J = np.meshgrid(x, y, indexing='ij')\n"
                                           "    return X, I\n");
        const Snippet s(src.constData());
        QCOMPARE(s.shape("X", "return"), QStringLiteral("(ny, NX)"));
        QCOMPARE(s.shape("I", "return"), QStringLiteral("(NX, ny)"));
        // NX is a size-named module constant: data, whatever its demo value.
        QCOMPARE(s.extentClass("NX", "linspace"), SizeClass::Data);
    }

    void extentClasses() {
        const QByteArray src = withPrelude("class Body:\n"
                                           "    def ncoords(self):\n"
                                           "        return 3\n"
                                           "    def run(self, data, n, ndim):\n"
                                           "        k = self.ncoords()\n"
                                           "        a = np.zeros((n, 3))\n"
                                           "        for i in range(k): pass\n"
                                           "        for i in range(len(data)): pass\n"
                                           "        for i in range(a.shape[0]): pass\n"
                                           "        for i in range(a.shape[1]): pass\n"
                                           "        for i in range(len((1, 2, 3))): pass\n"
                                           "        for i in range(ndim): pass\n"
                                           "        for i in range(n - 1): pass\n"
                                           "        for i in range(a.ndim): pass\n"
                                           "        for i in range(1000): pass\n"
                                           "        for i in range(3): pass\n"
                                           "        for i in range(n): pass\n");
        const Snippet s(src.constData());
        QCOMPARE(s.extentClass("self.ncoords()"), SizeClass::Small);
        QCOMPARE(s.model->extentOf(s.find("self.ncoords()")).toString(), QStringLiteral("3"));
        QCOMPARE(s.extentClass("k", "range(k)"), SizeClass::Small);
        QCOMPARE(s.extentClass("len(data)"), SizeClass::Data);
        QCOMPARE(s.extentClass("a.shape[0]"), SizeClass::Data);
        QCOMPARE(s.extentClass("a.shape[1]"), SizeClass::Small);
        QCOMPARE(s.extentClass("len((1, 2, 3))"), SizeClass::Small);
        QCOMPARE(s.extentClass("ndim", "range(ndim"), SizeClass::Small);
        QCOMPARE(s.extentClass("n - 1"), SizeClass::Data);
        QCOMPARE(s.extentClass("a.ndim"), SizeClass::Small);
        QCOMPARE(s.extentClass("1000"), SizeClass::Data);
        QCOMPARE(s.extentClass("3", "range(3"), SizeClass::Small);
        QCOMPARE(s.extentClass("n", "range(n)"), SizeClass::Data);
    }

    void throughProjectFunctions() {
        const QByteArray src = withPrelude("def make(n):\n"
                                           "    return np.zeros((n, 2))\n"
                                           "def step(u):\n"
                                           "    return u * 2\n"
                                           "def main(n):\n"
                                           "    a = make(n)\n"
                                           "    b = step(np.eye(4))\n"
                                           "    return a, b\n");
        const Snippet s(src.constData());
        QCOMPARE(s.shape("a", "return a, b"), QStringLiteral("(n, 2)"));
        // `u` is only ever passed an identity matrix in this file.
        QCOMPARE(s.shape("b", "return a, b"), QStringLiteral("(4, 4)"));
        QCOMPARE(s.shape("u", "return u"), QStringLiteral("(4, 4)"));
    }

    void widthsAndBroadcasts() {
        const QByteArray src = withPrelude("def f(X, P: np.ndarray, r, c, lo, hi, n):\n"
                                           "    block = X[3 * r : 3 * r + 3, c * 3 : c * 3 + 3]\n"
                                           "    pts = np.zeros((n, 3))\n"
                                           "    tail = pts[r : r + 2]\n"
                                           "    w = np.cross([0, 0, 1], pts)\n"
                                           "    v = np.array([1.0, 2.0, 3.0]) * pts\n"
                                           "    lo_x = min(lo, X.min())\n"
                                           "    hi_x = max(hi, X.max())\n"
                                           "    box = np.asarray((lo_x, hi_x, lo_x, hi_x))\n"
                                           "    total = np.zeros([3, 3])\n"
                                           "    for k in range(n):\n"
                                           "        total = total + X[k]\n"
                                           "    return total\n");
        const Snippet s(src.constData());
        QCOMPARE(s.shape("X[3 * r : 3 * r + 3, c * 3 : c * 3 + 3]"), QStringLiteral("(3, 3)"));
        QCOMPARE(s.shape("pts[r : r + 2]"), QStringLiteral("(2, 3)"));
        QCOMPARE(s.shape("np.cross([0, 0, 1], pts)"), QStringLiteral("(n, 3)"));
        QCOMPARE(s.shape("np.array([1.0, 2.0, 3.0]) * pts"), QStringLiteral("(n, 3)"));
        QCOMPARE(s.shape("np.asarray((lo_x, hi_x, lo_x, hi_x))"), QStringLiteral("(4,)"));
        QCOMPARE(s.shape("total", "return "), QStringLiteral("(3, 3)"));
    }

    void numberDefaults() {
        const QByteArray src =
            withPrelude("def box(lo, hi, stretch=0.05, pad=-1):\n"
                        "    bounds = np.asarray((lo, hi, lo, hi, lo, hi))\n"
                        "    lengths = stretch * np.repeat(bounds[1::2] - bounds[::2], 2)\n"
                        "    return pad * lengths\n");
        const Snippet s(src.constData());
        QCOMPARE(s.shape("stretch", "lengths = "), QStringLiteral("()"));
        QCOMPARE(s.arrayClass("lengths", "lengths = "), SizeClass::Small);
        QCOMPARE(s.arrayClass("pad * lengths"), SizeClass::Small);
    }

    void bookkeeping() {
        const QByteArray src = withPrelude("def f(sigmas_mm, taps, order, values):\n"
                                           "    s = np.asarray(sigmas_mm) / 2\n"
                                           "    h = np.array(taps)[::-1]\n"
                                           "    p = np.arange(order + 2)[::-1]\n"
                                           "    v = np.asarray(values)\n"
                                           "    w = np.eye(3).ravel()\n"
                                           "    return s, h, p, v, w\n");
        const Snippet s(src.constData());
        QCOMPARE(s.arrayClass("s", "return"), SizeClass::Small);
        QCOMPARE(s.arrayClass("h", "return"), SizeClass::Small);
        QCOMPARE(s.arrayClass("p", "return"), SizeClass::Small);
        QCOMPARE(s.arrayClass("v", "return"), SizeClass::Data); // np.asarray of a caller's value
        QCOMPARE(s.arrayClass("w", "return"), SizeClass::Small);
    }

    void elementKinds() {
        const QByteArray src = withPrelude("def f(picks, paths, x):\n"
                                           "    picks = np.atleast_1d(np.asarray(picks))\n"
                                           "    for p in range(len(picks)):\n"
                                           "        if picks[p] in ('all', 'data'):\n"
                                           "            pass\n"
                                           "    names = np.array(['a', 'b'])\n"
                                           "    q = np.array(paths)\n"
                                           "    r = np.array(x)\n"
                                           "    o = np.array([1, 'a'], dtype=object)\n"
                                           "    return picks, names, q, r, o\n");
        const Snippet s(src.constData());
        QCOMPARE(s.model->elementKind(s.find("picks", "return")), ElementKind::String);
        QCOMPARE(s.model->elementKind(s.find("names", "return")), ElementKind::String);
        QCOMPARE(s.model->elementKind(s.find("q", "return")), ElementKind::String);
        QCOMPARE(s.model->elementKind(s.find("r", "return")), ElementKind::Unknown);
        QCOMPARE(s.model->elementKind(s.find("o", "return")), ElementKind::Object);
        QVERIFY(s.model->holdsNonNumeric(s.find("picks[p]")));
    }

    void pitfalls() {
        // Lists that grow, `is None` tests and reversed slices say nothing small.
        const QByteArray src =
            withPrelude("def f(x, start=None):\n"
                        "    parts = []\n"
                        "    for k in range(3):\n"
                        "        parts.append(x)\n"
                        "    acc = []\n"
                        "    acc += [x]\n"
                        "    if start is None:\n"
                        "        start = x\n"
                        "    dims = np.array(x.shape)\n"
                        "    return np.concatenate(parts), acc, start, dims[::-1]\n");
        const Snippet s(src.constData());
        QVERIFY(s.arrayClass("np.concatenate(parts)") != SizeClass::Small);
        QVERIFY(s.arrayClass("acc", "return") != SizeClass::Small);
        QVERIFY(s.arrayClass("start", "return") != SizeClass::Small);
        QCOMPARE(s.arrayClass("dims[::-1]"), SizeClass::Small); // a shape tuple reversed
    }

    void summaries() {
        Shape sh;
        sh.rank = 2;
        Extent a = Extent::symbolic("n", SizeClass::Data);
        a.parameter = 0;
        a.parameterAxis = 1;
        sh.setAxis(0, a);
        sh.setAxis(1, Extent::literal(3));
        QCOMPARE(sh.toSummary(), QStringLiteral("2:D@0.1:S=3"));
        const Shape back = Shape::fromSummary(sh.toSummary());
        QCOMPARE(back.rank, qint8(2));
        QCOMPARE(back.axis(0).parameter, qint8(0));
        QCOMPARE(back.axis(0).parameterAxis, qint8(1));
        QCOMPARE(back.axis(0).size, SizeClass::Data);
        QVERIFY(back.axis(1).isLiteral(3));
        QCOMPARE(Shape::unknown(SizeClass::Data).toSummary(), QStringLiteral("U:D"));
        QCOMPARE(Shape::fromSummary(u"U:S").sizeClass(), SizeClass::Small);
        QCOMPARE(Shape::fromSummary(u"garbage").known(), false);
    }
};

QTEST_GUILESS_MAIN(TestShapes)
#include "tst_shapes.moc"
