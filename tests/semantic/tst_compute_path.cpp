// Unit tests of the compute path (semantic/ComputePath.h): the role SemanticModel::pathRole()
// gives each kind of plumbing, and Compute for the computation around it.
#include "parse/SyntaxTree.h"
#include "semantic/ComputePath.h"
#include "semantic/SemanticModel.h"
#include "semantic/Walk.h"

#include <QtTest>

#include "../common/Snippet.h"

#include <memory>

using namespace cnready;

Q_DECLARE_METATYPE(cnready::PathRole)

namespace {

struct Snippet : test::Snippet {
    explicit Snippet(const QByteArray& src, const QString& module = QStringLiteral("pkg.mod"))
        : test::Snippet(src, module) {}
    PathRole role(std::string_view text, std::string_view after = {}) const {
        const TSNode n = find(text, after);
        return ts_node_is_null(n) ? PathRole::Compute : model->pathRole(n);
    }
};

const char* kSource = R"(import argparse
import json
import numpy as np
import matplotlib.pyplot as plt

LIMIT = np.zeros(8)


def step(u):
    v = u[::2]
    if u.ndim != 1:
        w = u[::3]
        raise ValueError(f"bad {u.shape}")
    try:
        z = u[::4]
    except ValueError:
        q = u[::5]
        raise
    with open("log.txt") as fh:
        r = u[::6]
    np.save("out.npy", u[::7])
    plt.plot(u[::8])
    assert u.size, f"{u[::9]}"
    return v


def plot_field(u):
    return u[::10]


def show(ax, u):
    return u[::11]


def read_frames(path):
    return np.load(path)[::12]


def make_demo_grid(n):
    return np.zeros(n)[::13]


def test_step():
    return np.ones(3)[::14]


class Field:
    def __init__(self, u):
        self.u = u[::15]

    def __repr__(self):
        return str(self.u[::16])

    def advance(self):
        def inner():
            return self.u[::17]
        return inner()


class TestField:
    def check(self):
        return np.ones(2)[::18]


def parse_args():
    p = argparse.ArgumentParser()
    return p.parse_args()


def loader(path):
    payload = json.load(open(path))
    return payload[::19]


for k in range(3):
    g = LIMIT[::20]

if __name__ == "__main__":
    h = LIMIT[::21]
    for k in range(3):
        m = LIMIT[::22]
)";

} // namespace

class TestComputePath : public QObject {
    Q_OBJECT
private slots:
    void roles_data() {
        QTest::addColumn<QString>("expr");
        QTest::addColumn<PathRole>("role");
        const auto row = [](const char* e, PathRole r) {
            QTest::newRow(e) << QString::fromLatin1(e) << r;
        };
        row("u[::2]", PathRole::Compute);
        row("u[::3]", PathRole::ErrorPath);                // the block of a guard that raises
        row("u[::4]", PathRole::Compute);                  // the try body
        row("u[::5]", PathRole::ErrorPath);                // an except handler that re-raises
        row("u[::6]", PathRole::InputOutput);              // inside `with open(...)`
        row("u[::7]", PathRole::InputOutput);              // an argument of np.save
        row("u[::8]", PathRole::Plotting);                 // an argument of plt.plot
        row("u[::9]", PathRole::ErrorPath);                // an assert message
        row("u[::10]", PathRole::Plotting);                // plot_* function
        row("u[::11]", PathRole::Plotting);                // takes an `ax`
        row("np.load(path)[::12]", PathRole::InputOutput); // read_* function
        row("np.zeros(n)[::13]", PathRole::Demo);
        row("np.ones(3)[::14]", PathRole::Test);
        row("u[::15]", PathRole::Setup); // __init__ not called per pass here
        row("self.u[::16]", PathRole::Presentation);
        row("self.u[::17]", PathRole::Compute);  // nested in a compute method
        row("np.ones(2)[::18]", PathRole::Test); // a method of a Test* class
        row("p.parse_args()", PathRole::Setup);
        row("payload[::19]", PathRole::Compute); // after the reader's own statement
        row("LIMIT[::20]", PathRole::Compute);   // a module-level loop of a script
        row("LIMIT[::21]", PathRole::Setup);     // __main__ outside loops
        row("LIMIT[::22]", PathRole::Compute);   // a loop in __main__
        row("np.zeros(8)", PathRole::Setup);     // module level
    }
    void roles() {
        QFETCH(QString, expr);
        QFETCH(PathRole, role);
        const Snippet s{QByteArray(kSource)};
        const QByteArray e = expr.toUtf8();
        const TSNode n = s.find(std::string_view(e.constData(), size_t(e.size())));
        QVERIFY2(!ts_node_is_null(n), e.constData());
        QCOMPARE(pathRoleName(s.model->pathRole(n)), pathRoleName(role));
        QCOMPARE(s.model->onComputePath(n), role == PathRole::Compute);
    }

    void jsonLoadIsIo() {
        const Snippet s{QByteArray(kSource)};
        QCOMPARE(pathRoleName(s.role("json.load(open(path))")),
                 pathRoleName(PathRole::InputOutput));
    }

    void parseFunctionIsIo() {
        const Snippet s{QByteArray("import numpy as np\n"
                                   "def parse_block(lines):\n"
                                   "    return np.array(lines)[::2]\n"
                                   "def parsed_mean(u):\n"
                                   "    return u[::3]\n")};
        QCOMPARE(pathRoleName(s.role("np.array(lines)[::2]")), pathRoleName(PathRole::InputOutput));
        QCOMPARE(pathRoleName(s.role("u[::3]")), pathRoleName(PathRole::Compute));
    }

    void initCalledPerPassIsCompute() {
        const Snippet s{QByteArray("import numpy as np\n"
                                   "class Cell:\n"
                                   "    def __init__(self, u):\n"
                                   "        self.u = u[::2]\n"
                                   "def run(u, steps):\n"
                                   "    for t in range(steps):\n"
                                   "        c = Cell(u)\n")};
        QCOMPARE(pathRoleName(s.role("u[::2]")), pathRoleName(PathRole::Compute));
    }

    void moduleNames_data() {
        QTest::addColumn<QString>("module");
        QTest::addColumn<bool>("support"); // isTestSupportModuleName, else isTestModuleName
        QTest::addColumn<bool>("expected");
        QTest::newRow("tests package") << "tests.test_io" << false << true;
        QTest::newRow("helpers in tests") << "pkg.tests.helpers" << false << true;
        QTest::newRow("_test suffix") << "pkg.io_test" << false << true;
        QTest::newRow("conftest") << "conftest" << false << true;
        QTest::newRow("testing_ is a word") << "pkg.testing_tools" << false << false;
        QTest::newRow("contest") << "pkg.contest" << false << false;
        QTest::newRow("_testing support") << "pkg._testing" << true << true;
        QTest::newRow("testing_tools no support") << "pkg.testing_tools" << true << false;
    }
    void moduleNames() {
        QFETCH(QString, module);
        QFETCH(bool, support);
        QFETCH(bool, expected);
        QCOMPARE(support ? ComputePathEngine::isTestSupportModuleName(module)
                         : ComputePathEngine::isTestModuleName(module),
                 expected);
    }

    void testModules() {
        const Snippet support{QByteArray("import numpy as np\ndef make_series(n):\n"
                                         "    return np.ones(n)[::2]\n"),
                              QStringLiteral("pkg._testing")};
        QCOMPARE(pathRoleName(support.role("np.ones(n)[::2]")), pathRoleName(PathRole::Test));
        QVERIFY(!support.model->isTestModule());
        const Snippet s{QByteArray("import numpy as np\ndef f(u):\n    return u[::2]\n"),
                        QStringLiteral("pkg.tests.test_f")};
        QCOMPARE(pathRoleName(s.role("u[::2]")), pathRoleName(PathRole::Test));
    }

    void moduleRoles_data() {
        QTest::addColumn<QString>("module");
        QTest::addColumn<PathRole>("role");
        QTest::newRow("io package") << "spectral.io.envi" << PathRole::InputOutput;
        QTest::newRow("iolib") << "statsmodels.iolib.summary2" << PathRole::InputOutput;
        QTest::newRow("json helpers") << "lmfit.jsonutils" << PathRole::InputOutput;
        QTest::newRow("serializer") << "pkg.serialization" << PathRole::InputOutput;
        QTest::newRow("graphics") << "spectral.graphics.ndwindow" << PathRole::Plotting;
        QTest::newRow("viz") << "nitime.viz" << PathRole::Plotting;
        QTest::newRow("plotting") << "pandas.plotting._core" << PathRole::Plotting;
        QTest::newRow("command line") << "nibabel.cmdline.diff" << PathRole::Setup;
        QTest::newRow("benchmarks") << "dipy.reconst.benchmarks.bench_squash" << PathRole::Demo;
        QTest::newRow("bench module") << "pkg.bench_fit" << PathRole::Demo;
        QTest::newRow("benchmarking is a word") << "pkg.benchmarking_utils" << PathRole::Compute;
        QTest::newRow("compute") << "pkg.algorithms.spymath" << PathRole::Compute;
        QTest::newRow("not a word") << "pkg.iolite.ratio" << PathRole::Compute;
        QTest::newRow("bio is no io") << "pkg.bio" << PathRole::Compute;
        QTest::newRow("parser module") << "pkg.topology.GROParser" << PathRole::InputOutput;
        QTest::newRow("readers") << "pkg.coordinates.readers" << PathRole::InputOutput;
        QTest::newRow("converters") << "pkg.converters.openmm" << PathRole::InputOutput;
        QTest::newRow("config module") << "pkg.area_config" << PathRole::Setup;
        QTest::newRow("settings") << "pkg.settings" << PathRole::Setup;
        QTest::newRow("drawing") << "pkg.drawing.marker" << PathRole::Plotting;
        QTest::newRow("gui package") << "pkg.gui.peak_picker" << PathRole::Plotting;
        QTest::newRow("a package named for its GUI")
            << "PyMca5.PyMcaGui.pymca.McaWindow" << PathRole::Plotting;
        QTest::newRow("qtgui") << "sas.qtgui.Plotting.Plotter" << PathRole::Plotting;
        QTest::newRow("guide is no gui") << "pkg.guide.steps" << PathRole::Compute;
        QTest::newRow("configured is no config") << "pkg.configured_solver" << PathRole::Compute;
        QTest::newRow("parsing is no parser") << "pkg.sparse_parsing" << PathRole::Compute;
        QTest::newRow("app front-end") << "pkg.app.drawmask" << PathRole::Setup;
        QTest::newRow("application is no app") << "pkg.application_rate" << PathRole::Compute;
        QTest::newRow("examples package") << "pysph.examples.gas_dynamics.noh" << PathRole::Demo;
        QTest::newRow("demos package") << "pkg.demos.wave" << PathRole::Demo;
        QTest::newRow("tutorials package") << "pkg.tutorials.first_fit" << PathRole::Demo;
        QTest::newRow("an examples module is code") << "pkg.gallery.examples" << PathRole::Compute;
        QTest::newRow("exemplar is no example") << "pkg.exemplar.match" << PathRole::Compute;
    }
    void moduleRoles() {
        QFETCH(QString, module);
        QFETCH(PathRole, role);
        QCOMPARE(pathRoleName(ComputePathEngine::moduleRoleOfName(module)), pathRoleName(role));
    }

    void moduleRoleYieldsToOwnName() {
        // Every function of a reader module is I/O, unless its own name says more; module
        // level code takes the module's role too.
        const Snippet s{QByteArray("import numpy as np\n"
                                   "def header_offsets(u):\n    return u[::2]\n"
                                   "def format_table(u):\n    return u[::3]\n"
                                   "STEP = np.arange(9)[::4]\n"),
                        QStringLiteral("pkg.io.envi")};
        QCOMPARE(pathRoleName(s.role("u[::2]")), pathRoleName(PathRole::InputOutput));
        QCOMPARE(pathRoleName(s.role("u[::3]")), pathRoleName(PathRole::Presentation));
        QCOMPARE(pathRoleName(s.role("np.arange(9)[::4]")), pathRoleName(PathRole::InputOutput));
        const Snippet c{QByteArray("import numpy as np\ndef f(u):\n    return u[::2]\n"),
                        QStringLiteral("pkg.algorithms")};
        QCOMPARE(pathRoleName(c.role("u[::2]")), pathRoleName(PathRole::Compute));
    }

    void helpersTakeTheirCallersRole() {
        // A private method called only from `__init__` is set-up, one called only from a
        // writer is I/O; a helper with one compute caller, or passed on as a callback, or
        // public, stays on the compute path.
        const Snippet s{QByteArray("import numpy as np\n"
                                   "class Geom:\n"
                                   "    def __init__(self, n):\n"
                                   "        self.t = self._lookup(n)\n"
                                   "    def _lookup(self, n):\n"
                                   "        return self._fill(n)[::2]\n"
                                   "    def _fill(self, n):\n"
                                   "        return np.zeros(n)[::3]\n"
                                   "    def write_table(self, fh):\n"
                                   "        fh.write(self._rows())\n"
                                   "    def _rows(self):\n"
                                   "        return self.t[::4]\n"
                                   "    def _shared(self, u):\n"
                                   "        return u[::5]\n"
                                   "    def save_state(self, u):\n"
                                   "        return self._shared(u)\n"
                                   "    def evaluate(self, u):\n"
                                   "        return self._shared(u) + self._scaled(u)\n"
                                   "    def _scaled(self, u):\n"
                                   "        return u[::6]\n"
                                   "    def _callback(self, u):\n"
                                   "        return u[::7]\n"
                                   "    def __repr__(self):\n"
                                   "        return str(list(map(self._callback, [1])))\n"
                                   "    def public(self, u):\n"
                                   "        return u[::8]\n"
                                   "    def __str__(self):\n"
                                   "        return str(self.public(1))\n")};
        QCOMPARE(pathRoleName(s.role("self._fill(n)[::2]")), pathRoleName(PathRole::Setup));
        QCOMPARE(pathRoleName(s.role("np.zeros(n)[::3]")), pathRoleName(PathRole::Setup));
        QCOMPARE(pathRoleName(s.role("self.t[::4]")), pathRoleName(PathRole::InputOutput));
        QCOMPARE(pathRoleName(s.role("u[::5]")), pathRoleName(PathRole::Compute));
        QCOMPARE(pathRoleName(s.role("u[::6]")), pathRoleName(PathRole::Compute));
        QCOMPARE(pathRoleName(s.role("u[::7]")), pathRoleName(PathRole::Compute));
        QCOMPARE(pathRoleName(s.role("u[::8]")), pathRoleName(PathRole::Compute));
        const auto& fns = s.model->functions();
        const auto byName = [&](const char* n) {
            for (const FunctionRegion& f : fns)
                if (f.name == QLatin1String(n))
                    return &f;
            return static_cast<const FunctionRegion*>(nullptr);
        };
        QVERIFY(s.model->setupUnlessHot(*byName("Geom.__init__")));
        QVERIFY(s.model->setupUnlessHot(*byName("Geom._fill")));
        QVERIFY(!s.model->setupUnlessHot(*byName("Geom._rows")));
        QVERIFY(!s.model->setupUnlessHot(*byName("Geom.evaluate")));
    }

    void guiToolkitModules() {
        // A module that imports a GUI toolkit at its top is a user interface; an optional
        // import (in a try block or a function) or a plotting library does not make it one.
        const Snippet gui{QByteArray("import numpy as np\nimport wx\n"
                                     "def on_pick(u):\n    return u[::2]\n")};
        QCOMPARE(pathRoleName(gui.role("u[::2]")), pathRoleName(PathRole::Plotting));
        const Snippet qt{QByteArray("import numpy as np\nfrom PyQt5 import QtWidgets\n"
                                    "def on_pick(u):\n    return u[::2]\n")};
        QCOMPARE(pathRoleName(qt.role("u[::2]")), pathRoleName(PathRole::Plotting));
        const Snippet optional{QByteArray("import numpy as np\ntry:\n    import wx\n"
                                          "except ImportError:\n    wx = None\n"
                                          "import matplotlib.pyplot as plt\n"
                                          "def smooth(u):\n    return u[::2]\n")};
        QCOMPARE(pathRoleName(optional.role("u[::2]")), pathRoleName(PathRole::Compute));
    }

    void readerClassesAndFormatNames() {
        const Snippet s{QByteArray("import numpy as np\n"
                                   "class VasprunReader:\n"
                                   "    def stress(self, u):\n        return u[::2]\n"
                                   "class ReaderModel:\n"
                                   "    def stress(self, u):\n        return u[::3]\n"
                                   "def _make_hdu_sparse(u):\n    return u[::4]\n"
                                   "def tp_yaml_lines(u):\n    return u[::5]\n"
                                   "def to_table(u):\n    return u[::6]\n"
                                   "def hdual(u):\n    return u[::7]\n")};
        QCOMPARE(pathRoleName(s.role("u[::2]")), pathRoleName(PathRole::InputOutput));
        QCOMPARE(pathRoleName(s.role("u[::3]")), pathRoleName(PathRole::Compute));
        QCOMPARE(pathRoleName(s.role("u[::4]")), pathRoleName(PathRole::InputOutput));
        QCOMPARE(pathRoleName(s.role("u[::5]")), pathRoleName(PathRole::InputOutput));
        QCOMPARE(pathRoleName(s.role("u[::6]")), pathRoleName(PathRole::InputOutput));
        QCOMPARE(pathRoleName(s.role("u[::7]")), pathRoleName(PathRole::Compute));
    }

    void namesAreWords_data() {
        // Word prefixes, not substrings: these are computations.
        QTest::addColumn<QString>("expr");
        QTest::newRow("loadings") << "u[::2]";
        QTest::newRow("draw_samples") << "u[::3]";
        QTest::newRow("saved_mask") << "u[::4]";
        QTest::newRow("reader_free") << "u[::5]";
    }
    void namesAreWords() {
        QFETCH(QString, expr);
        const Snippet s{QByteArray("import numpy as np\n"
                                   "def loadings(u):\n    return u[::2]\n"
                                   "def draw_samples(u):\n    return u[::3]\n"
                                   "def saved_mask(u):\n    return u[::4]\n"
                                   "def reader_free(u):\n    return u[::5]\n")};
        const QByteArray e = expr.toUtf8();
        QCOMPARE(pathRoleName(s.role(std::string_view(e.constData(), size_t(e.size())))),
                 pathRoleName(PathRole::Compute));
    }

    void validationGuards_data() {
        // The test of a validation guard outside loops is set-up (SemanticModel::
        // isValidationGuard); in a loop it is the computation.
        QTest::addColumn<QString>("expr");
        QTest::addColumn<PathRole>("role");
        QTest::newRow("raise guard") << "np.any(a < 0)" << PathRole::Setup;
        QTest::newRow("warn-only guard") << "np.max(a) > 1e6" << PathRole::Setup;
        QTest::newRow("assert") << "np.all(np.isfinite(a))" << PathRole::Setup;
        QTest::newRow("guard that computes") << "np.min(a) > 0" << PathRole::Compute;
        QTest::newRow("raise guard in a loop") << "np.any(b < 0)" << PathRole::Compute;
    }
    void validationGuards() {
        QFETCH(QString, expr);
        QFETCH(PathRole, role);
        const Snippet s{QByteArray("import warnings\n"
                                   "import numpy as np\n"
                                   "def fit(a, steps):\n"
                                   "    if np.any(a < 0):\n"
                                   "        raise ValueError('negative')\n"
                                   "    if np.max(a) > 1e6:\n"
                                   "        warnings.warn('large')\n"
                                   "        return a\n"
                                   "    assert np.all(np.isfinite(a))\n"
                                   "    if np.min(a) > 0:\n"
                                   "        a = np.log(a)\n"
                                   "    for t in range(steps):\n"
                                   "        b = a * t\n"
                                   "        if np.any(b < 0):\n"
                                   "            raise ValueError('negative')\n"
                                   "    return a\n")};
        const QByteArray e = expr.toUtf8();
        const TSNode n = s.find(std::string_view(e.constData(), size_t(e.size())));
        QVERIFY2(!ts_node_is_null(n), e.constData());
        QCOMPARE(pathRoleName(s.model->pathRole(n)), pathRoleName(role));
    }
};

QTEST_GUILESS_MAIN(TestComputePath)
#include "tst_compute_path.moc"
