// Unit tests of the semantic model: import resolution, provenance, loops, invariance, hot paths.
#include "model/ProjectResult.h"
#include "parse/SyntaxTree.h"
#include "semantic/Docstrings.h"
#include "semantic/LoopWork.h"
#include "semantic/SemanticModel.h"
#include "semantic/Walk.h"

#include "../common/AllNodes.h"
#include <QDirIterator>

#include <QtTest>

#include <cstring>

using namespace cnready;

namespace {

// Whether two nodes are the same node seen the same way (alias context included).
bool sameNode(TSNode a, TSNode b) {
    if (ts_node_is_null(a) || ts_node_is_null(b))
        return ts_node_is_null(a) && ts_node_is_null(b);
    return ts_node_eq(a, b) && std::memcmp(a.context, b.context, sizeof a.context) == 0;
}

// The first node of `type` whose text is `text` (pre-order).
TSNode find(const SyntaxTree& t, std::string_view type, std::string_view text) {
    TSNode found{};
    bool done = false;
    walkSubtree(t.root(), [&](TSNode n) {
        if (done)
            return false;
        if (SyntaxTree::type(n) == type && t.text(n) == text) {
            found = n;
            done = true;
        }
        return true;
    });
    return found;
}

QString call(const SyntaxTree& t, const SemanticModel& m, std::string_view text) {
    const TSNode c = find(t, "call", text);
    return ts_node_is_null(c) ? QStringLiteral("<no call>") : m.callName(c);
}

ValueKind kind(const SyntaxTree& t, const SemanticModel& m, std::string_view text) {
    for (const char* ty : {"identifier", "call", "subscript", "attribute", "binary_operator"}) {
        const TSNode n = find(t, ty, text);
        if (!ts_node_is_null(n))
            return m.valueKind(n);
    }
    return ValueKind::Unknown;
}

} // namespace

class TestSemanticModel : public QObject {
    Q_OBJECT
private slots:
    void importForms() {
        const SyntaxTree t(QByteArrayLiteral("import numpy as np\n"
                                             "import cupynumeric as cnp\n"
                                             "from numpy import zeros as z\n"
                                             "import numpy.linalg as la\n"
                                             "from numpy.random import default_rng\n"
                                             "from numpy import linalg\n"
                                             "import scipy.sparse as sp\n"
                                             "from mpi4py import MPI\n"
                                             "comm = MPI.COMM_WORLD\n"
                                             "a = np.zeros(3)\n"
                                             "b = cnp.ones(3)\n"
                                             "c = z(4)\n"
                                             "n = la.norm(a)\n"
                                             "m = linalg.norm(b)\n"
                                             "rng = default_rng(0)\n"
                                             "x = rng.standard_normal(10)\n"
                                             "s = a.sum()\n"
                                             "comm.Allreduce(a, b)\n"
                                             "q = sp.csr_matrix(a)\n"));
        const SemanticModel m(t, QStringLiteral("mod"));
        QCOMPARE(call(t, m, "np.zeros(3)"), QStringLiteral("numpy.zeros"));
        QCOMPARE(call(t, m, "cnp.ones(3)"), QStringLiteral("numpy.ones"));
        QCOMPARE(call(t, m, "z(4)"), QStringLiteral("numpy.zeros"));
        QCOMPARE(call(t, m, "la.norm(a)"), QStringLiteral("numpy.linalg.norm"));
        QCOMPARE(call(t, m, "linalg.norm(b)"), QStringLiteral("numpy.linalg.norm"));
        QCOMPARE(call(t, m, "default_rng(0)"), QStringLiteral("numpy.random.default_rng"));
        QCOMPARE(call(t, m, "rng.standard_normal(10)"),
                 QStringLiteral("numpy.random.Generator.standard_normal"));
        QCOMPARE(call(t, m, "a.sum()"), QStringLiteral("numpy.ndarray.sum"));
        QCOMPARE(call(t, m, "comm.Allreduce(a, b)"),
                 QStringLiteral("mpi4py.MPI.COMM_WORLD.Allreduce"));
        QCOMPARE(call(t, m, "sp.csr_matrix(a)"), QStringLiteral("scipy.sparse.csr_matrix"));
        QVERIFY(m.importsModule(QStringLiteral("mpi4py")));
        QVERIFY(m.importsModule(QStringLiteral("scipy")));
        QVERIFY(m.importsModule(QStringLiteral("scipy.sparse")));
        QVERIFY(m.importsModule(QStringLiteral("numpy")));
        QVERIFY(!m.importsModule(QStringLiteral("torch")));
        QCOMPARE(kind(t, m, "x"), ValueKind::Array);
        QCOMPARE(kind(t, m, "s"), ValueKind::DeviceScalar);
        QCOMPARE(kind(t, m, "n"), ValueKind::DeviceScalar);
    }

    void starImportAndShadowing() {
        const SyntaxTree t(QByteArrayLiteral("from numpy import *\n"
                                             "a = zeros(5)\n"
                                             "def f():\n"
                                             "    zeros = lambda n: [0] * n\n"
                                             "    return zeros(3)\n"));
        const SemanticModel m(t, QStringLiteral("mod"));
        QCOMPARE(call(t, m, "zeros(5)"), QStringLiteral("numpy.zeros"));
        QCOMPARE(call(t, m, "zeros(3)"), QString());
    }

    void optionalImportFallback() {
        const SyntaxTree t(QByteArrayLiteral("try:\n"
                                             "    import cupynumeric as np\n"
                                             "except ImportError:\n"
                                             "    import numpy as np\n"
                                             "a = np.zeros(3)\n"));
        const SemanticModel m(t, QStringLiteral("mod"));
        QCOMPARE(call(t, m, "np.zeros(3)"), QStringLiteral("numpy.zeros"));
    }

    void provenance() {
        const SyntaxTree t(QByteArrayLiteral(
            "import numpy as np\n"
            "import numpy.typing as npt\n"
            "def make(n):\n"
            "    return np.zeros((n, n))\n"
            "def f(u: np.ndarray, v: npt.NDArray[np.float64], w, name: str):\n"
            "    g = make(4)\n"
            "    p, q = np.zeros(3), 'text'\n"
            "    r = u[1:-1] + v[:-2]\n"
            "    e = u[2]\n"
            "    k = len(u)\n"
            "    h = u.shape[0]\n"
            "    it = u.item()\n"
            "    lst = u.tolist()\n"
            "    tt = u.T\n"
            "    cc = u.copy()\n"
            "    s = name[::-1]\n"
            "    mask = u > 0\n"
            "    sel = u[mask]\n"
            "    nr, nc = u.shape\n"
            "    fl = float(np.max(u))\n"
            "    ax = np.sum(u, axis=0)\n"
            "    return g, p, q, r, e, k, h, it, lst, tt, cc, s, sel, nr, fl, ax, w\n"));
        const SemanticModel m(t, QStringLiteral("mod"));
        QCOMPARE(kind(t, m, "g"), ValueKind::Array);
        QCOMPARE(kind(t, m, "p"), ValueKind::Array);
        QCOMPARE(kind(t, m, "q"), ValueKind::String);
        QCOMPARE(kind(t, m, "r"), ValueKind::Array);
        QCOMPARE(kind(t, m, "e"), ValueKind::DeviceScalar);
        QCOMPARE(kind(t, m, "k"), ValueKind::HostScalar);
        QCOMPARE(kind(t, m, "h"), ValueKind::HostScalar);
        QCOMPARE(kind(t, m, "it"), ValueKind::HostScalar);
        QCOMPARE(kind(t, m, "lst"), ValueKind::Sequence);
        QCOMPARE(kind(t, m, "tt"), ValueKind::Array);
        QCOMPARE(kind(t, m, "cc"), ValueKind::Array);
        QCOMPARE(kind(t, m, "s"), ValueKind::String);
        QCOMPARE(kind(t, m, "sel"), ValueKind::Array);
        QCOMPARE(kind(t, m, "nr"), ValueKind::HostScalar);
        QCOMPARE(kind(t, m, "fl"), ValueKind::HostScalar);
        QCOMPARE(kind(t, m, "ax"), ValueKind::Array);
        QCOMPARE(kind(t, m, "w"), ValueKind::Unknown);
        QVERIFY(m.isArrayReduction(find(t, "call", "np.max(u)")));
        QVERIFY(!m.isArrayReduction(find(t, "call", "np.sum(u, axis=0)")));
        QVERIFY(m.isScalarElementRead(find(t, "subscript", "u[2]")));
        QVERIFY(!m.isScalarElementRead(find(t, "subscript", "u[mask]")));
        QCOMPARE(m.functions().size(), size_t(2));
        QVERIFY(m.functions()[0].returnsArray);
        QCOMPARE(m.functions()[0].qualifiedName, QStringLiteral("mod.make"));
    }

    void randomDrawsAndDots() {
        const SyntaxTree t(QByteArrayLiteral("import numpy as np\n"
                                             "def f(L: np.ndarray, x, k: int):\n"
                                             "    rng = np.random.default_rng(0)\n"
                                             "    one = rng.integers(1, 3)\n"
                                             "    many = rng.integers(0, 5, 10)\n"
                                             "    sized = rng.normal(size=4)\n"
                                             "    r = np.random.rand(3)\n"
                                             "    u = np.random.rand()\n"
                                             "    v = np.dot(L[k, :k], L[k, :k])\n"
                                             "    w = np.dot(L, L)\n"
                                             "    q = np.dot(x, L)\n"
                                             "    return one, many, sized, r, u, v, w, q\n"));
        const SemanticModel m(t, QStringLiteral("mod"));
        QCOMPARE(kind(t, m, "one"), ValueKind::HostScalar);
        QCOMPARE(kind(t, m, "many"), ValueKind::Array);
        QCOMPARE(kind(t, m, "sized"), ValueKind::Array);
        QCOMPARE(kind(t, m, "r"), ValueKind::Array);
        QCOMPARE(kind(t, m, "u"), ValueKind::HostScalar);
        QCOMPARE(kind(t, m, "v"), ValueKind::DeviceScalar);
        QCOMPARE(kind(t, m, "w"), ValueKind::Array);
        QCOMPARE(kind(t, m, "q"), ValueKind::Unknown);
    }

    void documentedParameterTypes() {
        // numpydoc and Google-style sections; what counts as an array type.
        const std::string_view numpydoc = "\"\"\"Solve.\n\n    Parameters\n    ----------\n"
                                          "    d, e : ndarray\n        diagonals\n"
                                          "    b : (N,) float ndarray, optional\n"
                                          "    parts : list of ndarray\n"
                                          "    n : int\n        not an array : ndarray\n"
                                          "    X : array-like of shape (n_samples, n_features)\n"
                                          "    y : array_like\n\n"
                                          "    Returns\n    -------\n    r : ndarray\n\"\"\"";
        const std::vector<std::string_view> got = documentedArrayParameters(numpydoc);
        const std::vector<std::string_view> want{"d", "e", "b", "X"};
        QCOMPARE(got, want);
        const std::string_view google = "'''Step.\n\n    Args:\n        u (np.ndarray): field\n"
                                        "        dt (float): step\n            more (ndarray): no\n"
                                        "        v (numpy.ndarray): velocity\n    Returns:\n"
                                        "        w (ndarray): out\n'''";
        const std::vector<std::string_view> want2{"u", "v"};
        QCOMPARE(documentedArrayParameters(google), want2);
        QVERIFY(documentedTypeIsArray(" 2-D array"));
        QVERIFY(!documentedTypeIsArray(" array of str"));
        QVERIFY(!documentedTypeIsArray(" int or ndarray"));
        QVERIFY(documentedArrayParameters("\"\"\"No sections: d : ndarray\"\"\"").empty());

        // The model takes the docstring as evidence for an unannotated parameter.
        const SyntaxTree t(QByteArrayLiteral("import numpy as np\n"
                                             "def solve(d, n, parts):\n"
                                             "    \"\"\"Parameters\n"
                                             "    ----------\n"
                                             "    d : ndarray\n"
                                             "    n : int\n"
                                             "    parts : list of ndarray\n"
                                             "    \"\"\"\n"
                                             "    return d, n, parts\n"
                                             "def undocumented(q):\n"
                                             "    return q\n"));
        const SemanticModel m(t, QStringLiteral("mod"));
        QCOMPARE(kind(t, m, "d"), ValueKind::Array);
        QCOMPARE(kind(t, m, "n"), ValueKind::Unknown);
        QCOMPARE(kind(t, m, "parts"), ValueKind::Unknown);
        QCOMPARE(kind(t, m, "q"), ValueKind::Unknown);
    }
    void parameterInference() {
        // Unannotated parameters become arrays on evidence from the same file only.
        const SyntaxTree t(QByteArrayLiteral("import numpy as np\n"
                                             "def by_idiom(p, q):\n"
                                             "    return p.reshape(-1), q\n"
                                             "def by_calls(a, b, c=None):\n"
                                             "    return a, b, c\n"
                                             "def vetoed(v):\n"
                                             "    if isinstance(v, list):\n"
                                             "        return v\n"
                                             "    return v.shape\n"
                                             "def sparse(s):\n"
                                             "    return s.tocsr().shape, s.T\n"
                                             "def typed(t: list, u: 'ArrayLike'):\n"
                                             "    return t.shape, u.shape\n"
                                             "def escapes(e):\n"
                                             "    return e\n"
                                             "def mixed(mx):\n"
                                             "    return mx\n"
                                             "def shaped(out_shape, axis):\n"
                                             "    return out_shape, axis\n"
                                             "class K:\n"
                                             "    def __init__(self, data):\n"
                                             "        self.data = data\n"
                                             "    def run(self, z):\n"
                                             "        return z\n"
                                             "    def go(self):\n"
                                             "        return self.run(np.ones(2))\n"
                                             "def main(lst):\n"
                                             "    x = np.zeros(3)\n"
                                             "    by_calls(x, b=x[1:])\n"
                                             "    by_calls(np.ones(2), x)\n"
                                             "    vetoed(x)\n"
                                             "    escapes(x)\n"
                                             "    np.apply_along_axis(escapes, 0, x)\n"
                                             "    mixed(x)\n"
                                             "    mixed(lst)\n"
                                             "    shaped(np.delete(x.shape, 0), np.arange(2))\n"
                                             "    K(x)\n"));
        const SemanticModel m(t, QStringLiteral("mod"));
        QCOMPARE(kind(t, m, "p"), ValueKind::Array);   // p.reshape(...)
        QCOMPARE(kind(t, m, "q"), ValueKind::Unknown); // no evidence
        QCOMPARE(kind(t, m, "a"), ValueKind::Array);   // every call passes an array
        QCOMPARE(kind(t, m, "b"), ValueKind::Array);   // by keyword and by position
        QCOMPARE(kind(t, m, "c"), ValueKind::Unknown); // always left to its default
        QCOMPARE(kind(t, m, "v"), ValueKind::Unknown); // isinstance(): more than arrays
        QCOMPARE(kind(t, m, "s"), ValueKind::Unknown); // .tocsr(): a sparse matrix
        QCOMPARE(kind(t, m, "t"), ValueKind::Unknown); // annotated: the annotation decides
        QCOMPARE(kind(t, m, "u"), ValueKind::Unknown);
        QCOMPARE(kind(t, m, "e"), ValueKind::Unknown);         // passed as a value: unseen callers
        QCOMPARE(kind(t, m, "mx"), ValueKind::Unknown);        // one call passes something else
        QCOMPARE(kind(t, m, "out_shape"), ValueKind::Unknown); // shapes stay tuples
        QCOMPARE(kind(t, m, "axis"), ValueKind::Unknown);
        QCOMPARE(kind(t, m, "data"), ValueKind::Array); // K(x) → __init__(self, data)
        QCOMPARE(kind(t, m, "z"), ValueKind::Array);    // self.run(...) skips self
    }

    void searchsortedAndVectorProducts() {
        const SyntaxTree t(
            QByteArrayLiteral("import numpy as np\n"
                              "def f(n, u):\n"
                              "    a = np.sort(np.random.rand(n))\n"
                              "    r = a - 1.0\n"
                              "    A = np.eye(n)\n"
                              "    i1 = np.searchsorted(a, 0.5)\n"
                              "    i2 = a.searchsorted(a[0] + 1.0)\n"
                              "    i3 = np.searchsorted(a, a[::2])\n"
                              "    i4 = np.searchsorted(a, u * a[0])\n"
                              "    d1 = np.dot(r, r)\n"
                              "    d2 = np.dot(A, A)\n"
                              "    d3 = np.inner(r.conj(), a[:3])\n"
                              "    d4 = np.dot(r, a)\n"
                              "    d5 = r @ r\n"
                              "    d6 = r @ a\n"
                              "    return i1, i2, i3, i4, d1, d2, d3, d4, d5, d6\n"));
        const SemanticModel m(t, QStringLiteral("mod"));
        QCOMPARE(kind(t, m, "i1"), ValueKind::DeviceScalar);
        QCOMPARE(kind(t, m, "i2"), ValueKind::DeviceScalar);
        QCOMPARE(kind(t, m, "i3"), ValueKind::Array);
        QCOMPARE(kind(t, m, "i4"), ValueKind::Array); // unknown factor: maybe an array
        QCOMPARE(kind(t, m, "d1"), ValueKind::DeviceScalar);
        QCOMPARE(kind(t, m, "d2"), ValueKind::Array); // `A @ A` by the naming convention
        QCOMPARE(kind(t, m, "d3"), ValueKind::DeviceScalar);
        QCOMPARE(kind(t, m, "d4"), ValueKind::Array);        // matrix-vector as likely as dot
        QCOMPARE(kind(t, m, "d5"), ValueKind::DeviceScalar); // `r @ r` as `np.dot(r, r)`
        QCOMPARE(kind(t, m, "d6"), ValueKind::Array);
    }

    void rebindFromUnknownStart() {
        // `corrected` starts as an unannotated parameter and is rebound to array arithmetic.
        const SyntaxTree t(QByteArrayLiteral(
            "import numpy as np\n"
            "def calibrate(traces, gains, passes):\n"
            "    corrected = traces\n"
            "    for _ in range(passes):\n"
            "        work = np.zeros((4, 8))\n"
            "        corrected = corrected + (work - corrected) * gains[:, None]\n"
            "    return corrected\n"));
        const SemanticModel m(t, QStringLiteral("mod"));
        QCOMPARE(kind(t, m, "work"), ValueKind::Array);
        QCOMPARE(kind(t, m, "corrected"), ValueKind::Array);
    }

    void loops() {
        const SyntaxTree t(QByteArrayLiteral("import numpy as np\n"
                                             "import itertools\n"
                                             "def f(a: np.ndarray, files):\n"
                                             "    n, m = a.shape\n"
                                             "    for i in range(len(a)):\n"
                                             "        for j in range(m):\n"
                                             "            a[i, j] = i\n"
                                             "    for ax in range(3):\n"
                                             "        a[ax] = 0\n"
                                             "    for row in a:\n"
                                             "        pass\n"
                                             "    for k, v in enumerate(a):\n"
                                             "        pass\n"
                                             "    for p in itertools.product(range(n), range(m)):\n"
                                             "        pass\n"
                                             "    for idx in np.ndindex(a.shape):\n"
                                             "        pass\n"
                                             "    for name in files:\n"
                                             "        pass\n"
                                             "    for name in ['a', 'b']:\n"
                                             "        pass\n"
                                             "    s = [x * 2 for x in a]\n"
                                             "    while np.max(a) > 1:\n"
                                             "        a = a / 2\n"
                                             "    for t in range(100):\n"
                                             "        b = np.zeros(n)\n"
                                             "        c = np.zeros(t)\n"));
        const SemanticModel m(t, QStringLiteral("mod"));
        const auto& L = m.loops();
        QCOMPARE(L.size(), size_t(12));
        QCOMPARE(L[0].source, LoopSource::RangeLen);
        QCOMPARE(L[0].iteratedArray, QStringLiteral("a"));
        QCOMPARE(L[1].source, LoopSource::RangeShape);
        QCOMPARE(L[1].depth, 2);
        QCOMPARE(L[1].parent, 0);
        QCOMPARE(L[2].source, LoopSource::SmallLiteralRange);
        QCOMPARE(L[2].literalCount, 3);
        QCOMPARE(L[3].source, LoopSource::Array);
        QCOMPARE(L[4].source, LoopSource::EnumerateArray);
        QCOMPARE(L[5].source, LoopSource::Product);
        QCOMPARE(L[6].source, LoopSource::NdIndex);
        QCOMPARE(L[7].source, LoopSource::Unknown);
        QCOMPARE(L[8].source, LoopSource::Collection);
        QCOMPARE(L[9].kind, LoopKind::Comprehension);
        QCOMPARE(L[9].source, LoopSource::Array);
        QCOMPARE(L[10].kind, LoopKind::While);
        const TSNode write = find(t, "subscript", "a[i, j]");
        QCOMPARE(m.enclosingLoop(write), &L[1]);
        QCOMPARE(m.loopDepth(write), 2);
        QVERIFY(m.usesLoopVariable(write, L[0]));
        QVERIFY(!m.inLoop(find(t, "call", "range(len(a))")));
        QVERIFY(m.inLoop(find(t, "call", "np.max(a)")));
        QVERIFY(m.isLoopInvariant(find(t, "call", "np.zeros(n)"), L[11]));
        QVERIFY(!m.isLoopInvariant(find(t, "call", "np.zeros(t)"), L[11]));
    }

    void loopWork() {
        // Trip class x pass work, one loop per line of interest.
        const SyntaxTree t(QByteArrayLiteral(
            "import numpy as np\n"
            "class Probe:\n"
            "    def nports(self):\n"
            "        return 5\n"
            "    def run(self, a: np.ndarray, u: np.ndarray, x: np.ndarray, n, n_steps):\n"
            "        for p in range(self.nports()):\n" // 0: small (method literal)
            "            a[p] = 0\n"
            "        for d in range(a.ndim):\n" // 1: small (axes)
            "            a[d] = 1\n"
            "        for i in range(len(a)):\n" // 2: data, scalar
            "            a[i] = 2 * x[i]\n"
            "        for c in range(n):\n" // 3: data (a parameter), slab
            "            u[..., c] = u[..., c] * 2\n"
            "        for s in range(n_steps):\n" // 4: steps, unknown work
            "            u[1:-1] = 0.5 * (u[2:] + u[:-2])\n"
            "        for r in range(n):\n" // 5: row handed to np.sort: slab
            "            u[r] = np.sort(u[r])\n"
            "        for j in range(n):\n" // 6: slab filled with one number
            "            u[j, :] = x[j] + 1.0\n"
            "        for q in range(300):\n" // 7: a literal beyond a handful
            "            a[q] = q\n"
            "        while n > 0:\n" // 8: steps
            "            n -= 1\n"
            "        for w in (1, 2, 3):\n" // 9: small (literal tuple)
            "            x[w] = f(a[w])\n"));
        const SemanticModel m(t, QStringLiteral("mod"));
        const auto& L = m.loops();
        QCOMPARE(L.size(), size_t(10));
        auto trip = [&](int i) { return tripClassName(m.loopWork(L[size_t(i)]).trip); };
        auto work = [&](int i) { return passWorkName(m.loopWork(L[size_t(i)]).work); };
        QCOMPARE(trip(0), QStringLiteral("small"));
        QCOMPARE(trip(1), QStringLiteral("small"));
        QCOMPARE(trip(2), QStringLiteral("data"));
        QCOMPARE(work(2), QStringLiteral("scalar"));
        QCOMPARE(m.loopWork(L[2]).elements.size(), size_t(2));
        QCOMPARE(trip(3), QStringLiteral("data"));
        QCOMPARE(work(3), QStringLiteral("slab"));
        QCOMPARE(trip(4), QStringLiteral("steps"));
        QCOMPARE(work(4), QStringLiteral("unknown"));
        QCOMPARE(work(5), QStringLiteral("slab"));
        QCOMPARE(QString::fromLatin1(m.loopWork(L[5]).workReason),
                 QStringLiteral("a row handed to a whole-array operation"));
        QCOMPARE(work(6), QStringLiteral("scalar"));
        QCOMPARE(trip(7), QStringLiteral("data"));
        QCOMPARE(trip(8), QStringLiteral("steps"));
        QCOMPARE(trip(9), QStringLiteral("small"));
        // `f(a[w])` hands an element to a function bound in the file? `f` is not: no call.
        QVERIFY(m.loopWork(L[9]).elementCalls.empty());
        QVERIFY(m.isElementAccess(find(t, "subscript", "x[i]"), L[2]));
        QVERIFY(!m.isElementAccess(find(t, "subscript", "u[..., c]"), L[3]));
    }

    void loopWorkSizeClasses() {
        // Trip classes from the shapes' size classes; slabs of bookkeeping size are small rows.
        const SyntaxTree t(QByteArrayLiteral(
            "import numpy as np\n"
            "def run(a: np.ndarray, n, sigmas):\n"
            "    moves = np.array([[0, 1], [1, 0], [0, -1], [-1, 0]])\n"
            "    p = np.zeros((n, 3))\n"
            "    w = np.zeros((3, n))\n"
            "    for k in range(len(moves)):\n" // 0: small (a bookkeeping array's length)
            "        a[k] = moves[k, 0]\n"
            "    for c in range(p.shape[1]):\n" // 1: small (a literal-sized axis)
            "        a[c] = p[0, c]\n"
            "    for i in range(p.shape[0]):\n" // 2: data; a (3,) row: scalar work
            "        p[i, :] = a[i]\n"
            "    for j in range(n):\n" // 3: data; w[:, j] is (3,): small row
            "        w[:, j] = p[j] * 2.0\n"
            "    for row in w:\n" // 4: small (the leading axis of a (3, n) array)
            "        row.sort()\n"
            "    for ij in np.ndindex(3, 3):\n" // 5: small (nine cells)
            "        a[ij] = 0\n"
            "    for s in range(len(sigmas)):\n" // 6: small (per-axis sigmas)
            "        a[s] = 1\n"
            "    for q in np.ndindex(a.shape):\n" // 7: data
            "        a[q] = 2\n"));
        const SemanticModel m(t, QStringLiteral("mod"));
        const auto& L = m.loops();
        QCOMPARE(L.size(), size_t(8));
        auto trip = [&](int i) { return tripClassName(m.loopWork(L[size_t(i)]).trip); };
        auto work = [&](int i) { return passWorkName(m.loopWork(L[size_t(i)]).work); };
        QCOMPARE(trip(0), QStringLiteral("small"));
        QCOMPARE(trip(1), QStringLiteral("small"));
        QCOMPARE(trip(2), QStringLiteral("data"));
        QCOMPARE(work(2), QStringLiteral("scalar"));
        QCOMPARE(trip(3), QStringLiteral("data"));
        QCOMPARE(work(3), QStringLiteral("scalar"));
        QCOMPARE(trip(4), QStringLiteral("small"));
        QCOMPARE(trip(5), QStringLiteral("small"));
        QCOMPARE(trip(6), QStringLiteral("small"));
        QCOMPARE(trip(7), QStringLiteral("data"));
        // An element of the bookkeeping `moves` is no element work.
        QCOMPARE(m.loopWork(L[0]).elements.size(), size_t(1));
    }

    void ndindexGeneratorAndWhereItems() {
        const SyntaxTree t(QByteArrayLiteral("import numpy as np\n"
                                             "def cells(shape):\n"
                                             "    for ix in np.ndindex(*shape):\n"
                                             "        yield ix\n"
                                             "def fit(vol, model, c):\n"
                                             "    out = np.zeros(vol.shape)\n"
                                             "    for ix in cells(vol.shape):\n"
                                             "        out[ix] = model(vol[ix])\n"
                                             "    hits = np.where(c)[0]\n"
                                             "    cols = np.nonzero(c)[1]\n"
                                             "    first = np.unique(c)[0]\n"
                                             "    for h in hits:\n"
                                             "        out[h] = 0\n"
                                             "    for k in cols:\n"
                                             "        print(k)\n"
                                             "    return out, hits, cols, first\n"));
        const SemanticModel m(t, QStringLiteral("mod"));
        const auto& L = m.loops();
        QCOMPARE(L.size(), size_t(4));
        QCOMPARE(L[1].source, LoopSource::NdIndex);
        QCOMPARE(m.valueKind(find(t, "subscript", "out[ix]")), ValueKind::DeviceScalar);
        QCOMPARE(passWorkName(m.loopWork(L[1]).work), QStringLiteral("scalar"));
        QCOMPARE(m.loopWork(L[1]).elementCalls.size(), size_t(1));
        // The positions where c holds are no array of their own; a loop walks them as one
        // only when its passes do element work with them (`out[h] = 0`, not `print(k)`).
        QVERIFY(kind(t, m, "hits") != ValueKind::Array);
        QVERIFY(kind(t, m, "cols") != ValueKind::Array);
        QVERIFY(kind(t, m, "first") != ValueKind::Array);
        QCOMPARE(L[2].source, LoopSource::Array);
        QVERIFY(L[3].source != LoopSource::Array);
    }

    void hotPaths() {
        const SyntaxTree t(QByteArrayLiteral("import numpy as np\n"
                                             "class S:\n"
                                             "    def step(self, u):\n"
                                             "        return self.norm(u)\n"
                                             "    def norm(self, u):\n"
                                             "        return float(np.max(u))\n"
                                             "    def run(self, u):\n"
                                             "        for _ in range(10):\n"
                                             "            self.step(u)\n"
                                             "def cold(u):\n"
                                             "    return u\n"
                                             "if __name__ == '__main__':\n"
                                             "    cold(1)\n"));
        const SemanticModel m(t, QStringLiteral("pkg.mod"));
        QCOMPARE(m.functions().size(), size_t(4));
        QCOMPARE(m.functions()[0].qualifiedName, QStringLiteral("pkg.mod.S.step"));
        QVERIFY(m.functions()[0].locallyHot);
        QVERIFY(m.functions()[1].locallyHot);
        QVERIFY(!m.functions()[2].locallyHot);
        QVERIFY(!m.functions()[3].locallyHot);
        QVERIFY(m.isHot(find(t, "call", "float(np.max(u))")));
        QCOMPARE(m.hotCondition(find(t, "identifier", "u")), QString()); // hot (param of step)
        FileResult r;
        r.path = QStringLiteral("pkg/mod.py");
        m.exportTo(r);
        QCOMPARE(r.functions.size(), 4);
        bool found = false;
        for (const CallSite& c : r.calls)
            if (c.callee == QLatin1String("pkg.mod.S.step")) {
                found = true;
                QVERIFY(c.inLoop);
                QCOMPARE(c.caller, QStringLiteral("pkg.mod.S.run"));
            }
        QVERIFY(found);
        QStringList apis;
        for (const ApiUse& u : r.apiUses)
            apis << u.name;
        QCOMPARE(apis, QStringList{QStringLiteral("numpy.max")});
    }

    void crossFileResolution() {
        // b.py: `from .a import kernel` called in a loop; a.kernel becomes hot.
        const SyntaxTree ta(QByteArrayLiteral("def kernel(u):\n    return u.item()\n"));
        const SyntaxTree tb(QByteArrayLiteral("from .a import kernel\n"
                                              "import pkg.a as pa\n"
                                              "def run(u):\n"
                                              "    for _ in range(30):\n"
                                              "        kernel(u)\n"
                                              "        pa.other(u)\n"));
        const SemanticModel ma(ta, QStringLiteral("pkg.a"));
        const SemanticModel mb(tb, QStringLiteral("pkg.b"));
        FileResult ra, rb;
        ra.path = QStringLiteral("pkg/a.py");
        ra.moduleName = QStringLiteral("pkg.a");
        rb.path = QStringLiteral("pkg/b.py");
        rb.moduleName = QStringLiteral("pkg.b");
        ma.exportTo(ra);
        mb.exportTo(rb);
        QStringList callees;
        for (const CallSite& c : rb.calls)
            callees << c.callee;
        QVERIFY(callees.contains(QStringLiteral("pkg.a.kernel")));
        QVERIFY(callees.contains(QStringLiteral("pkg.a.other")));
        // A finding of an ordinary rule in a.kernel: not hot locally, hot project-wide.
        Finding fi;
        fi.code = QStringLiteral("R106");
        fi.function = QStringLiteral("kernel");
        fi.range = SourceRange{ra.path, 2, 1, 2, 1};
        ra.findings.append(fi);
        const ProjectResult p = mergeFileResults(QStringLiteral("/x"), {ra, rb});
        QVERIFY(p.hotFunctions.contains(QStringLiteral("pkg.a.kernel")));
        QCOMPARE(p.findings.size(), 1);
        QVERIFY(p.findings.first().hot);
        ra.findings.clear();
        QVERIFY(!p.hotFunctions.contains(QStringLiteral("pkg.b.run")));
        // The scanned root sits below the package: module "a" still matches "pkg.a.kernel".
        ra.moduleName = QStringLiteral("a");
        ra.functions[0].qualifiedName = QStringLiteral("a.kernel");
        const ProjectResult q = mergeFileResults(QStringLiteral("/x"), {ra, rb});
        QVERIFY(q.hotFunctions.contains(QStringLiteral("a.kernel")));
    }

    void manyAndDeepLoops() {
        // 3,000 sibling loops and a 30-deep loop nest: queries stay O(depth).
        QByteArray src = "import numpy as np\na = np.zeros(10)\n";
        for (int i = 0; i < 3000; ++i)
            src += "for i in range(10):\n    a[i] = i\n";
        QByteArray indent;
        for (int i = 0; i < 30; ++i) {
            src += indent + "for k" + QByteArray::number(i) + " in range(2):\n";
            indent += " ";
        }
        src += indent + "a[k0] = 1\n";
        const SyntaxTree t(src);
        const SemanticModel m(t, QStringLiteral("many"));
        QCOMPARE(m.loops().size(), size_t(3030));
        int inLoop = 0;
        for (const TSNode sub : m.subscripts())
            inLoop += m.inLoop(sub) ? 1 : 0;
        QCOMPARE(inLoop, 3001);
        QCOMPARE(m.loopDepth(m.subscripts().back()), 30);
    }

    // The walk behind survey() records field children; SyntaxTree::field must give exactly
    // what tree-sitter's own lookup gives, for every node and every field id, on valid and on
    // damaged sources, before and after the walk, and for a tree reusing a freed tree's memory.
    void recordedFieldsMatchTreeSitter() {
        QList<QByteArray> sources;
        QDirIterator it(QStringLiteral(CNREADY_FIXTURES_DIR "/rules"), {QStringLiteral("*.py")},
                        QDir::Files, QDirIterator::Subdirectories);
        while (it.hasNext()) {
            QFile f(it.next());
            QVERIFY(f.open(QIODevice::ReadOnly));
            sources.append(f.readAll());
        }
        QVERIFY(sources.size() > 10);
        // Damaged copies: unbalanced brackets, stray colons, cut lines.
        const qsizetype n = sources.size();
        for (qsizetype i = 0; i < n; ++i) {
            QByteArray b = sources[i];
            for (qsizetype k = 7; k < b.size(); k += 37)
                b[k] = "([:,=)\n"[k % 7];
            sources.append(b);
        }
        const TSLanguage* lang = pythonLanguage();
        const uint32_t fieldCount = ts_language_field_count(lang);
        qint64 checked = 0, found = 0, parentsChecked = 0;
        for (const QByteArray& src : sources) {
            for (const bool walked : {false, true}) {
                const SyntaxTree tree(src);
                if (walked) {
                    (void)tree.survey();
                    // Parent types of binary operators (deeply nested in damaged copies).
                    const auto& ops = tree.nodes(SyntaxTree::NodeList::BinaryOp);
                    for (size_t i = 0; i < ops.size(); ++i, ++parentsChecked)
                        QCOMPARE(tree.parentType(SyntaxTree::NodeList::BinaryOp, i),
                                 SyntaxTree::type(ts_node_parent(ops[i])));
                }
                for (const TSNode node : allNodes(tree.root())) {
                    for (uint32_t f = 0; f <= fieldCount + 1; ++f) {
                        const TSNode want = f == 0 || f > fieldCount
                                                ? TSNode{}
                                                : ts_node_child_by_field_id(node, TSFieldId(f));
                        const TSNode got = SyntaxTree::field(node, TSFieldId(f));
                        if (!sameNode(want, got))
                            QFAIL(qPrintable(QStringLiteral("field %1 of %2 at line %3")
                                                 .arg(f)
                                                 .arg(QLatin1String(ts_node_type(node)))
                                                 .arg(SyntaxTree::line(node))));
                        ++checked;
                        found += ts_node_is_null(got) ? 0 : 1;
                    }
                }
            }
        }
        QVERIFY(checked > 100000);
        QVERIFY(parentsChecked > 50);
        QVERIFY(found > 1000);
        // By name too, including a name the grammar does not have.
        const SyntaxTree t("x = f(a, k=1)\n");
        (void)t.survey();
        const TSNode asg = find(t, "assignment", "x = f(a, k=1)");
        QCOMPARE(t.text(SyntaxTree::field(asg, "left")), std::string_view("x"));
        QCOMPARE(t.text(SyntaxTree::field(asg, "right")), std::string_view("f(a, k=1)"));
        QVERIFY(ts_node_is_null(SyntaxTree::field(asg, "nonexistent")));
        QCOMPARE(SyntaxTree::fieldId("left"), ts_language_field_id_for_name(lang, "left", 4));
        QCOMPARE(SyntaxTree::fieldId("lef"), TSFieldId(0));
    }

    // nodes() lists every named node of each kind in document order, the same nodes a
    // type-by-type scan finds.
    void nodeListsMatchTypes() {
        const SyntaxTree t("import numpy as np\nif __name__ == '__main__':\n    pass\n"
                           "def f(a, b=2):\n    for i in range(3):\n        a[i] += b\n"
                           "    while a:\n        a = [x for x in a if x]\n"
                           "    return lambda y: y.z(k=1)[1:2]\nclass C:\n    @d\n"
                           "    def g(self):\n        assert (w := 1) if 1 < 2 else 0\n"
                           "with open(p) as fh:\n    s = f'{fh}' * 2\n"
                           "if a:\n    pass\nelif b:\n    pass\n");
        using L = SyntaxTree::NodeList;
        const std::pair<L, std::vector<std::string_view>> kinds[] = {
            {L::Call, {"call"}},
            {L::Subscript, {"subscript"}},
            {L::Attribute, {"attribute"}},
            {L::Assignment, {"assignment", "augmented_assignment"}},
            {L::Augmented, {"augmented_assignment"}},
            {L::Comprehension,
             {"list_comprehension", "set_comprehension", "dictionary_comprehension",
              "generator_expression"}},
            {L::For, {"for_statement"}},
            {L::While, {"while_statement"}},
            {L::If, {"if_statement", "elif_clause"}},
            {L::Assert, {"assert_statement"}},
            {L::Ternary, {"conditional_expression"}},
            {L::FunctionDef, {"function_definition"}},
            {L::ClassDef, {"class_definition"}},
            {L::Import, {"import_statement", "import_from_statement"}},
            {L::Decorator, {"decorator"}},
            {L::BinaryOp, {"binary_operator"}},
            {L::Comparison, {"comparison_operator"}},
            {L::Keyword, {"keyword_argument"}},
            {L::Slice, {"slice"}},
            {L::Interpolation, {"interpolation"}},
            {L::Return, {"return_statement"}},
            {L::Lambda, {"lambda"}},
            {L::NamedExpr, {"named_expression"}},
            {L::WithItem, {"with_item"}},
        };
        const std::vector<TSNode> all = allNodes(t.root());
        for (const auto& [list, types] : kinds) {
            std::vector<TSNode> want;
            for (const TSNode n : all)
                if (ts_node_is_named(n) &&
                    std::find(types.begin(), types.end(), SyntaxTree::type(n)) != types.end())
                    want.push_back(n);
            const std::vector<TSNode>& got = t.nodes(list);
            QCOMPARE(got.size(), want.size());
            QVERIFY2(!got.empty(), qPrintable(QString::number(int(list))));
            for (size_t i = 0; i < got.size(); ++i)
                QVERIFY(sameNode(got[i], want[i]));
        }
        // Recorded parent types agree with tree-sitter's ts_node_parent().
        for (const auto& [list, types] : kinds) {
            const std::vector<TSNode>& got = t.nodes(list);
            for (size_t i = 0; i < got.size(); ++i)
                QCOMPARE(t.parentType(list, i), SyntaxTree::type(ts_node_parent(got[i])));
            QCOMPARE(t.parentType(list, got.size()), std::string_view());
        }
        // A long operator chain nests binary operators 2,000 deep.
        QByteArray chain = "y = (1";
        for (int i = 0; i < 2000; ++i)
            chain += " + a[1:2]";
        chain += ")\n";
        const SyntaxTree deep(chain);
        const std::vector<TSNode>& ops = deep.nodes(L::BinaryOp);
        QCOMPARE(ops.size(), size_t(2000));
        for (size_t i = 0; i < ops.size(); ++i)
            QCOMPARE(deep.parentType(L::BinaryOp, i), SyntaxTree::type(ts_node_parent(ops[i])));
        QCOMPARE(deep.parentType(L::BinaryOp, 0), std::string_view("parenthesized_expression"));
        // Only the module-level `if`, not the elif nor the nested ones.
        const std::vector<TSNode>& top = t.nodes(L::ModuleIf);
        QCOMPARE(top.size(), size_t(2));
        QCOMPARE(SyntaxTree::line(top[0]), 2);
        QCOMPARE(SyntaxTree::line(top[1]), 16);
    }

    void deepNestingDoesNotOverflow() {
        QByteArray src = "import numpy as np\nx = ";
        for (int i = 0; i < 5000; ++i)
            src += "(";
        src += "np.zeros(3)";
        for (int i = 0; i < 5000; ++i)
            src += ")";
        src += "\ny = x";
        for (int i = 0; i < 5000; ++i)
            src += " + x";
        src += "\n";
        const SyntaxTree t(src);
        const SemanticModel m(t, QStringLiteral("deep"));
        QVERIFY(m.calls().size() >= 1);
    }
};

QTEST_GUILESS_MAIN(TestSemanticModel)
#include "tst_semantic_model.moc"
