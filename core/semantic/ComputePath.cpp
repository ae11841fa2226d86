// The compute path: roles of functions and statements (see ComputePath.h).

#include "semantic/ComputePath.h"
#include "model/PathRole.h"

#include "semantic/ModelInternals.h"

#include <algorithm>
#include <initializer_list>
#include <string_view>

namespace cnready {

namespace {

// A name, lower-cased, without leading single underscores (`_plot_grid` → "plot_grid";
// dunder names keep theirs: "__repr__").
QString plainName(QString name) {
    const qsizetype dot = name.lastIndexOf(QLatin1Char('.'));
    if (dot >= 0)
        name = name.mid(dot + 1);
    if (!name.startsWith(QLatin1String("__")))
        while (name.startsWith(QLatin1Char('_')))
            name.remove(0, 1);
    return name.toLower();
}

// `name` is the word `w` or starts with it as a word: "save", "save_state", "saves"; not
// "saved_mask" or "loadings".
bool wordPrefix(const QString& name, std::initializer_list<const char*> words) {
    for (const char* w : words) {
        const QLatin1String word(w);
        if (!name.startsWith(word))
            continue;
        if (name.size() == word.size())
            return true;
        const QChar next = name[word.size()];
        if (next == QLatin1Char('_') ||
            (next == QLatin1Char('s') &&
             (name.size() == word.size() + 1 || name[word.size() + 1] == QLatin1Char('_'))))
            return true;
    }
    return false;
}

// Whether a function definition is decorated `@<name>.setter` (a property's setter).
bool isPropertySetter(const SemanticModel& m, TSNode def) {
    const TSNode wrap = ts_node_parent(def);
    if (SyntaxTree::type(wrap) != "decorated_definition")
        return false;
    const uint32_t k = ts_node_named_child_count(wrap);
    for (uint32_t i = 0; i < k; ++i) {
        const TSNode d = ts_node_named_child(wrap, i);
        if (SyntaxTree::type(d) != "decorator" || ts_node_named_child_count(d) != 1)
            continue;
        const TSNode e = ts_node_named_child(d, 0);
        if (SyntaxTree::type(e) == "attribute" &&
            m.text(SyntaxTree::field(e, "attribute")) == "setter")
            return true;
    }
    return false;
}

// The role a function's own name gives it (RULES.md, the workload model item 5).
PathRole roleOfName(const QString& raw) {
    const QString n = plainName(raw);
    if (n.isEmpty())
        return PathRole::Compute;
    if (wordPrefix(n, {"test"}) || n == QLatin1String("setupclass") ||
        n == QLatin1String("teardown") || n == QLatin1String("setup_method"))
        return PathRole::Test;
    if (n == QLatin1String("__repr__") || n == QLatin1String("__str__") ||
        n == QLatin1String("__format__") || n == QLatin1String("__rich__") ||
        n.startsWith(QLatin1String("repr_")) || // `_repr_html_`, `_repr_latex_`
        wordPrefix(n, {"print", "pprint", "format", "summary", "summarize", "summarise", "describe",
                       "pretty", "to_string", "to_html", "to_latex"}))
        return PathRole::Presentation;
    // Printing as a later word of the name (`struct_print`, `table_pprint`, `_print_summary`).
    for (const QStringView w : QStringView(n).split(QLatin1Char('_'), Qt::SkipEmptyParts))
        if (w == QLatin1String("print") || w == QLatin1String("pprint"))
            return PathRole::Presentation;
    if (n.contains(QLatin1String("plot")) ||
        wordPrefix(n, {"show", "render", "display", "animate", "visualize", "visualise", "imshow",
                       "savefig", "figure"}) ||
        (wordPrefix(n, {"draw"}) && !n.contains(QLatin1String("sample")) &&
         !n.contains(QLatin1String("random"))))
        return PathRole::Plotting;
    if (wordPrefix(n,
                   {"demo", "example", "fake", "synthetic", "toy", "make_demo", "make_example",
                    "make_fake", "make_synthetic", "make_toy", "generate_demo", "generate_example",
                    "generate_fake", "generate_synthetic", "sample_data", "make_sample_data"}) ||
        n.endsWith(QLatin1String("_demo")) || n.endsWith(QLatin1String("_example")))
        return PathRole::Demo;
    if (wordPrefix(n, {"read",       "write",       "load",        "save",        "dump",
                       "export",     "fetch",       "download",    "serialize",   "deserialize",
                       "serialise",  "deserialise", "to_csv",      "to_file",     "from_file",
                       "to_json",    "from_json",   "to_hdf",      "from_hdf",    "from_fileobj",
                       "to_fileobj", "fromfile",    "tofile",      "from_stream", "to_stream",
                       "from_yaml",  "to_yaml",     "from_config", "to_config"}))
        return PathRole::InputOutput;
    // A writer or reader whose verb is glued to its format (`writeascube`, `writexyz`,
    // `readspec`, `readfits`); not `ready`, `readout`, `readjust`, `readable`, `reader_free`.
    if (n.startsWith(QLatin1String("write")) && !n.startsWith(QLatin1String("writeable")) &&
        !n.startsWith(QLatin1String("writable")))
        return PathRole::InputOutput;
    if (n.startsWith(QLatin1String("read")) && !n.startsWith(QLatin1String("ready")) &&
        !n.startsWith(QLatin1String("readout")) && !n.startsWith(QLatin1String("readjust")) &&
        !n.startsWith(QLatin1String("readable")) && !n.startsWith(QLatin1String("reader")))
        return PathRole::InputOutput;
    if (n == QLatin1String("__post_init__") || n == QLatin1String("setup") ||
        n == QLatin1String("set_up") ||
        wordPrefix(n, {"setup", "configure", "parse_args", "build_parser", "make_parser",
                       "get_parser", "validate", "initialize", "initialise", "init"}) ||
        // An initialiser named for what it starts (`lhs_init`, `cov_init`: a fit's initial
        // population), run once before the iterations unless a loop calls it per pass.
        (n.endsWith(QLatin1String("_init")) && !n.startsWith(QLatin1String("__"))))
        return PathRole::Setup;
    // Parsing text or records (`parse_header`, `_parse_file`): reading, not computing.
    if (wordPrefix(n, {"parse"}))
        return PathRole::InputOutput;
    // Conversions into tables and serialised records (`to_table`, `to_dict`), and any name
    // that names a file format as a word (`_make_hdu_sparse`, `get_yaml_lines`, `xml_tree`).
    if (wordPrefix(n, {"to_table", "from_table", "to_dict", "from_dict", "to_dataframe",
                       "to_pandas", "to_hdu", "to_hdulist", "from_hdulist", "to_records", "to_xml",
                       "from_xml", "to_fits", "from_fits", "to_netcdf", "to_text"}))
        return PathRole::InputOutput;
    for (const QStringView w : QStringView(n).split(QLatin1Char('_'), Qt::SkipEmptyParts))
        if (w == QLatin1String("yaml") || w == QLatin1String("json") || w == QLatin1String("csv") ||
            w == QLatin1String("hdu") || w == QLatin1String("hdulist") ||
            w == QLatin1String("xml") || w == QLatin1String("hdf5") || w == QLatin1String("netcdf"))
            return PathRole::InputOutput;
    return PathRole::Compute;
}

// A class name or base that makes every method plotting / GUI or test code.
PathRole roleOfClass(std::string_view name, std::string_view bases) {
    const auto has = [](std::string_view s, std::string_view w) {
        return s.find(w) != std::string_view::npos;
    };
    if (name.substr(0, 4) == "Test" ||
        (name.size() > 4 && name.substr(name.size() - 4) == "Test") ||
        (name.size() > 5 && name.substr(name.size() - 5) == "Tests") || has(bases, "TestCase"))
        return PathRole::Test;
    if (has(bases, "QWidget") || has(bases, "QMainWindow") || has(bases, "QDialog") ||
        has(bases, "QtWidgets.") || has(bases, "QGraphics") || has(bases, "tk.Frame") ||
        has(bases, "tkinter.") || has(bases, "wx.") || has(name, "Plotter") ||
        has(name, "Widget") || has(name, "Dialog") || has(name, "MainWindow"))
        return PathRole::Plotting;
    // A reader or writer class: its methods decode or encode a file format (`VasprunReader`,
    // `CifParser`, `FitsWriter`, `HDF5Loader`).
    const auto endsWith = [](std::string_view s, std::string_view w) {
        return s.size() > w.size() && s.substr(s.size() - w.size()) == w;
    };
    if (endsWith(name, "Reader") || endsWith(name, "Writer") || endsWith(name, "Parser") ||
        endsWith(name, "Loader") || endsWith(name, "Exporter") || endsWith(name, "Importer") ||
        // neo's `BlackrockRawIO`, `NestIO`: a class per file format, named for its I/O.
        endsWith(name, "IO") ||
        // A file header and the proxy that reads an image's bytes on demand (nibabel's
        // `EcatSubHeader`, `PARRECArrayProxy`): they decode a file's records.
        endsWith(name, "Header") || endsWith(name, "ArrayProxy"))
        return PathRole::InputOutput;
    return PathRole::Compute;
}

// Parameter names that say a function draws into a figure.
bool plottingParameter(const QString& p) {
    return p == QLatin1String("ax") || p == QLatin1String("axs") || p == QLatin1String("fig") ||
           p == QLatin1String("figure") || p == QLatin1String("canvas") ||
           p == QLatin1String("painter");
}

// Parameter names that say a function reads or writes an open file: a header parser taking
// `fileobj`, a writer taking `fh`. Its array work is decoding or encoding bytes.
bool streamParameter(const QString& p) {
    // Not `fp` (a derivative as often as a file pointer) nor `stream` (a CUDA stream).
    static const QStringList names = {QStringLiteral("fileobj"),   QStringLiteral("file_obj"),
                                      QStringLiteral("fobj"),      QStringLiteral("fileobject"),
                                      QStringLiteral("fh"),        QStringLiteral("fid"),
                                      QStringLiteral("file_like"), QStringLiteral("filelike"),
                                      QStringLiteral("infile"),    QStringLiteral("outfile")};
    return names.contains(p);
}

// Top-level modules whose calls are I/O / serialisation.
bool ioModule(std::string_view top) {
    static constexpr std::string_view names[] = {
        "bz2",     "cPickle", "codecs",   "csv",  "dill",    "gzip",    "h5py",
        "imageio", "joblib",  "json",     "lzma", "marshal", "netCDF4", "pickle",
        "shelve",  "tables",  "tifffile", "yaml", "zarr",    "zipfile", "tarfile",
    };
    return std::find(std::begin(names), std::end(names), top) != std::end(names);
}

// Top-level modules whose calls are plotting or GUI.
bool plottingModule(std::string_view top) {
    static constexpr std::string_view names[] = {
        "PyQt4",      "PyQt5",  "PyQt6",  "PySide", "PySide2",   "PySide6", "bokeh",
        "matplotlib", "mayavi", "plotly", "pylab",  "pyqtgraph", "seaborn", "tkinter",
        "vispy",      "wx",     "qtpy",   "napari", "pyvista",
    };
    return std::find(std::begin(names), std::end(names), top) != std::end(names);
}

// `def _check_uniform_draw(): import pylab; ...; pylab.show()`: a function that imports a
// plotting module as a statement of its own body (not under an `if plot:`) and calls it draws
// a figure, or is a visual check run by hand: whatever it computes on the way is for the
// figure, and its arrays and sizes give no evidence of the workload's.
bool drawsItsOwnFigure(const SemanticModel& m, TSNode fn) {
    const TSNode body = field(fn, F().body);
    if (ts_node_is_null(body))
        return false;
    QByteArray buf;
    QStringList aliases;
    for (const ImportBinding& b : m.importBindings()) {
        const uint32_t at = ts_node_start_byte(b.node);
        if (at < ts_node_start_byte(body) || at >= ts_node_end_byte(body) ||
            !ts_node_eq(ts_node_parent(b.node), body))
            continue;
        buf = b.canonical.section(QLatin1Char('.'), 0, 0).toUtf8();
        if (plottingModule(std::string_view(buf.constData(), size_t(buf.size()))))
            aliases << b.local;
    }
    if (aliases.isEmpty())
        return false;
    for (const TSNode c : SemanticModel::within(m.calls(), body)) {
        const TSNode f = field(c, F().function);
        if (sym(f) != Sym::attribute)
            continue;
        const TSNode recv = field(f, F().object);
        if (sym(recv) == Sym::identifier && aliases.contains(m.tree().qtext(recv)))
            return true;
    }
    return false;
}

// A condition that switches diagnostics on: `verbose`, `self.debug`, `verbosity > 1`,
// `self._verbose >= 2` (a name or attribute so named, alone or compared with a number).
bool diagnosticSwitch(const SemanticModel& m, TSNode cond) {
    if (sym(cond) == Sym::comparison_operator && ts_node_named_child_count(cond) == 2 &&
        sym(ts_node_named_child(cond, 1)) == Sym::integer)
        cond = ts_node_named_child(cond, 0);
    if (sym(cond) == Sym::attribute)
        cond = field(cond, F().attribute);
    if (sym(cond) != Sym::identifier)
        return false;
    std::string_view t = m.text(cond);
    while (!t.empty() && t.front() == '_')
        t.remove_prefix(1);
    return t == "verbose" || t == "verbosity" || t == "debug" || t == "VERBOSE" || t == "DEBUG" ||
           t == "show_progress";
}

// Whether every statement of `block` prints, logs or warns (`print(...)`, `log.info(...)`,
// `warnings.warn(...)`, `sys.stdout.write(...)`), directly or in nested `if`s.
bool onlyReports(const SemanticModel& m, TSNode block) {
    const uint32_t n = ts_node_named_child_count(block);
    if (n == 0)
        return false;
    for (uint32_t i = 0; i < n; ++i) {
        const TSNode st = ts_node_named_child(block, i);
        if (sym(st) == Sym::comment)
            continue;
        if (SyntaxTree::type(st) == "if_statement") {
            const TSNode body = SyntaxTree::field(st, "consequence");
            if (ts_node_is_null(body) || !onlyReports(m, body) ||
                !ts_node_is_null(SyntaxTree::field(st, "alternative")))
                return false;
            continue;
        }
        if (SyntaxTree::type(st) != "expression_statement")
            return false;
        const TSNode c = ts_node_named_child(st, 0);
        if (sym(c) != Sym::call)
            return false;
        const TSNode f = field(c, F().function);
        std::string_view leaf = m.text(f);
        if (sym(f) == Sym::attribute)
            leaf = m.text(field(f, F().attribute));
        if (leaf != "print" && leaf != "pprint" && leaf != "info" && leaf != "debug" &&
            leaf != "warning" && leaf != "warn" && leaf != "write" && leaf != "log" &&
            leaf != "flush")
            return false;
    }
    return true;
}

// Whether the module imports a GUI toolkit at its top level (`import wx`, `from PyQt5 import
// QtWidgets`, `from qtpy.QtCore import Qt`): its code is a user interface. Plotting libraries
// do not count: a numerical module often imports pyplot for an optional figure.
bool importsGuiToolkit(const SemanticModel& m) {
    static constexpr std::string_view toolkits[] = {
        "wx",      "PyQt4", "PyQt5",   "PyQt6",   "PySide",    "PySide2",
        "PySide6", "qtpy",  "tkinter", "Tkinter", "pyqtgraph",
    };
    QByteArray buf;
    for (const ImportBinding& b : m.importBindings()) {
        if (SyntaxTree::type(ts_node_parent(b.node)) != "module")
            continue; // a lazy import inside a function or a try block is optional
        buf = b.canonical.toUtf8();
        const std::string_view c(buf.constData(), size_t(buf.size()));
        for (const std::string_view t : toolkits)
            if (c.substr(0, t.size()) == t && (c.size() == t.size() || c[t.size()] == '.'))
                return true;
    }
    return false;
}

// NumPy's own readers and writers (canonical names).
bool numpyIo(std::string_view c) {
    static constexpr std::string_view names[] = {
        "numpy.save",
        "numpy.savez",
        "numpy.savez_compressed",
        "numpy.savetxt",
        "numpy.load",
        "numpy.loadtxt",
        "numpy.genfromtxt",
        "numpy.fromfile",
        "numpy.ndarray.tofile",
        "numpy.ndarray.dump",
        "numpy.lib.format.open_memmap",
        "numpy.memmap",
        "scipy.io.loadmat",
        "scipy.io.savemat",
        "scipy.io.wavfile.read",
        "scipy.io.wavfile.write",
    };
    return std::find(std::begin(names), std::end(names), c) != std::end(names);
}

// Method names that read or write a file whatever the receiver (`fh.write`, `w.writerow`,
// `df.to_csv`, `a.tofile`).
bool ioMethod(std::string_view leaf) {
    static constexpr std::string_view names[] = {
        "create_dataset", "readline",   "readlines", "read",    "to_csv",
        "to_hdf",         "to_parquet", "to_pickle", "tofile",  "write",
        "writelines",     "writerow",   "writerows", "savefig",
    };
    return std::find(std::begin(names), std::end(names), leaf) != std::end(names);
}

// Axes / figure methods, on a receiver named like one (`ax`, `axes[0]`, `fig`, `plt`).
bool plotMethod(std::string_view leaf) {
    static constexpr std::string_view names[] = {
        "add_subplot", "annotate",    "axhline",      "axvline",
        "bar",         "barh",        "colorbar",     "contour",
        "contourf",    "errorbar",    "fill",         "fill_between",
        "grid",        "hist",        "imshow",       "legend",
        "loglog",      "matshow",     "pcolor",       "pcolormesh",
        "pie",         "plot",        "plot_surface", "quiver",
        "scatter",     "semilogx",    "semilogy",     "set_title",
        "set_xlabel",  "set_xlim",    "set_xticks",   "set_xticklabels",
        "set_ylabel",  "set_ylim",    "set_yticks",   "set_yticklabels",
        "show",        "step",        "streamplot",   "text",
        "tricontour",  "tricontourf", "tripcolor",    "subplots",
        "suptitle",    "set_data",    "draw",
    };
    return std::find(std::begin(names), std::end(names), leaf) != std::end(names);
}

bool plotReceiver(std::string_view root) {
    return root == "plt" || root.substr(0, 2) == "ax" || root.substr(0, 3) == "fig";
}

std::string_view topModule(const QString& canonical, QByteArray& buf) {
    buf = canonical.section(QLatin1Char('.'), 0, 0).toUtf8();
    return std::string_view(buf.constData(), size_t(buf.size()));
}

// The root identifier of an attribute / subscript / call chain (`axes[0].plot` → "axes").
TSNode rootIdentifier(TSNode n) {
    for (int guard = 0; guard < 64; ++guard) {
        const Sym k = sym(n);
        if (k == Sym::identifier)
            return n;
        if (k == Sym::attribute)
            n = field(n, F().object);
        else if (k == Sym::subscript)
            n = field(n, F().value);
        else if (k == Sym::call)
            n = field(n, F().function);
        else if (k == Sym::parenthesized_expression && ts_node_named_child_count(n) > 0)
            n = ts_node_named_child(n, 0);
        else
            return {};
    }
    return {};
}

bool isStatementType(std::string_view t) {
    return t.size() > 10 && t.substr(t.size() - 10) == "_statement";
}

// The last statement of a block, comments aside.
TSNode lastStatement(TSNode block) {
    for (uint32_t i = ts_node_named_child_count(block); i-- > 0;) {
        const TSNode c = ts_node_named_child(block, i);
        if (!is(c, Sym::comment))
            return c;
    }
    return {};
}

// Whether an `except` clause handles a failure, so that its block runs at most once per run
// of the loop or function around it and is an error path: it catches an interruption
// (`except KeyboardInterrupt:`, `SystemExit`, `MemoryError`), or its block ends by leaving:
// `raise`, `break`, or `return` from inside a loop. A handler that carries on
// (`except ValueError: different = np.any(a != b)`, `except ImportError: slow(x)`) is another
// way to do the pass's work and stays on the path.
bool failureHandler(const SemanticModel& m, TSNode clause) {
    const uint32_t count = ts_node_named_child_count(clause);
    if (count == 0) // error recovery can leave an `except` without its block
        return false;
    const TSNode block = ts_node_named_child(clause, count - 1);
    if (SyntaxTree::type(block) != "block")
        return false;
    for (uint32_t i = 0; i + 1 < ts_node_named_child_count(clause); ++i) {
        const std::string_view caught = m.text(ts_node_named_child(clause, i));
        if (caught.starts_with("KeyboardInterrupt") || caught.starts_with("SystemExit") ||
            caught.starts_with("MemoryError"))
            return true;
        break; // the first child is what is caught; a second one is its `as` name
    }
    const std::string_view last = SyntaxTree::type(lastStatement(block));
    if (last == "raise_statement" || last == "break_statement")
        return true;
    return last == "return_statement" && m.inLoop(clause);
}

} // namespace

PathRole ComputePathEngine::moduleRoleOfName(const QString& moduleName) {
    const QStringList parts = moduleName.split(QLatin1Char('.'), Qt::SkipEmptyParts);
    for (qsizetype i = 0; i < parts.size(); ++i) {
        const QString p = plainName(parts[i]);
        // An `examples/` or `demo/` package shows the library off: its scripts make up their
        // inputs and run once (RULES.md, the workload model item 5: demo code).
        if (i + 1 < parts.size() && isDemoFolderName(p))
            return PathRole::Demo;
        if (p == QLatin1String("io") || p == QLatin1String("iolib") ||
            p == QLatin1String("fileio") || p == QLatin1String("readers") ||
            p == QLatin1String("writers") || p == QLatin1String("persistence") ||
            p == QLatin1String("fileformats") || p.startsWith(QLatin1String("io_")) ||
            p.endsWith(QLatin1String("_io")) || p.contains(QLatin1String("json")) ||
            p.contains(QLatin1String("pickl")) || p.startsWith(QLatin1String("serializ")) ||
            p.startsWith(QLatin1String("serialis")) || p.endsWith(QLatin1String("parser")) ||
            p.endsWith(QLatin1String("parsers")) || p.endsWith(QLatin1String("reader")) ||
            p.endsWith(QLatin1String("readers")) || p.endsWith(QLatin1String("writer")) ||
            p.endsWith(QLatin1String("writers")) || p == QLatin1String("converters") ||
            // Codecs of a file format (fabio's `compression`, xarray's CF `coding` and its
            // storage `backends`): they encode and decode bytes on the way to or from a file.
            p == QLatin1String("compression") || p == QLatin1String("codecs") ||
            p == QLatin1String("coding") || p == QLatin1String("backends") ||
            // Raw-file readers (neo's `rawio` package: one `*RawIO` class per file format).
            p.endsWith(QLatin1String("rawio")) ||
            // A module named like a file-format library (`tifffile/tifffile.py`): the whole
            // module reads and writes that format.
            ioModule(std::string_view(parts[i].toUtf8().constData())))
            return PathRole::InputOutput;
        // Configuration: definitions read from files or keywords once, before any data.
        if (p == QLatin1String("config") || p == QLatin1String("configuration") ||
            p.endsWith(QLatin1String("_config")) || p.startsWith(QLatin1String("config_")) ||
            p == QLatin1String("settings"))
            return PathRole::Setup;
        // Command-line front-ends: argument parsing, printing, one run per invocation.
        if (p == QLatin1String("cmdline") || p == QLatin1String("cli") ||
            p == QLatin1String("scripts") || p == QLatin1String("app") ||
            p == QLatin1String("apps"))
            return PathRole::Setup;
        // Benchmark drivers (`pkg.benchmarks.bench_squash`, asv suites): they run the library
        // on made-up inputs, often through a deliberately slow reference version.
        if (p == QLatin1String("benchmarks") || p == QLatin1String("benchmark") ||
            p == QLatin1String("bench") || p.startsWith(QLatin1String("bench_")))
            return PathRole::Demo;
        if (p == QLatin1String("graphics") || p == QLatin1String("viz") ||
            p == QLatin1String("visualization") || p == QLatin1String("visualisation") ||
            p.endsWith(QLatin1String("gui")) || p == QLatin1String("widgets") ||
            p == QLatin1String("drawing") || p.startsWith(QLatin1String("plot")) ||
            // `varplot`, `corrplot`, `diagnostic_plots`: a module named for its figures.
            p.endsWith(QLatin1String("plot")) || p.endsWith(QLatin1String("plots")) ||
            p.endsWith(QLatin1String("plotting")))
            return PathRole::Plotting;
    }
    return PathRole::Compute;
}

bool ComputePathEngine::isTestModuleName(const QString& moduleName) {
    const QStringList parts = moduleName.split(QLatin1Char('.'), Qt::SkipEmptyParts);
    for (qsizetype i = 0; i < parts.size(); ++i) {
        const QString& p = parts[i];
        if (p == QLatin1String("tests") || p == QLatin1String("test") ||
            p == QLatin1String("conftest"))
            return true;
        if (i + 1 == parts.size() &&
            (p.startsWith(QLatin1String("test_")) || p.endsWith(QLatin1String("_test"))))
            return true;
    }
    return false;
}

bool ComputePathEngine::isTestSupportModuleName(const QString& moduleName) {
    const QStringList parts = moduleName.split(QLatin1Char('.'), Qt::SkipEmptyParts);
    return parts.contains(QLatin1String("testing")) || parts.contains(QLatin1String("_testing"));
}

ComputePathEngine::ComputePathEngine(const SemanticModel& model)
    : m(model),
      m_test(isTestModuleName(model.moduleName()) || isTestSupportModuleName(model.moduleName())),
      m_moduleRole(moduleRoleOfName(model.moduleName())) {
    if (m_moduleRole == PathRole::Compute && importsGuiToolkit(model))
        m_moduleRole = PathRole::Plotting;
    buildFunctionRoles();
    buildSpans();
    inheritCallerRoles();
}

void ComputePathEngine::buildFunctionRoles() {
    const auto& fns = m.functions();
    m_functionRoles.assign(fns.size(), PathRole::Compute);
    m_setupUnlessHot.assign(fns.size(), false);
    // Class roles by name ("Outer.Inner"), from the name and the bases as written.
    std::vector<std::pair<QString, PathRole>> classRoles;
    for (const ClassRegion& c : m.classes()) {
        const TSNode nameNode = field(c.node, F().name);
        const TSNode bases = SyntaxTree::field(c.node, SyntaxTree::fieldId("superclasses"));
        const PathRole r = roleOfClass(m.text(nameNode),
                                       ts_node_is_null(bases) ? std::string_view() : m.text(bases));
        if (r != PathRole::Compute)
            classRoles.emplace_back(c.name, r);
    }
    for (size_t i = 0; i < fns.size(); ++i) {
        const FunctionRegion& f = fns[i];
        PathRole r = PathRole::Compute;
        if (m_test)
            r = PathRole::Test;
        if (r == PathRole::Compute && f.parent >= 0) // functions are in document order
            r = m_functionRoles[size_t(f.parent)];
        // A reader / writer class is the default of its methods, as a reader module is: a
        // method's own name says more (`_format_charges` of a writer is presentation).
        PathRole classDefault = PathRole::Compute;
        if (r == PathRole::Compute && !f.className.isEmpty())
            for (const auto& [name, role] : classRoles)
                if (f.className == name || f.className.startsWith(name + QLatin1Char('.'))) {
                    if (role == PathRole::InputOutput)
                        classDefault = role;
                    else
                        r = role;
                }
        if (r == PathRole::Compute) {
            const qsizetype dot = f.name.lastIndexOf(QLatin1Char('.'));
            const QString own = dot >= 0 ? f.name.mid(dot + 1) : f.name;
            if (own == QLatin1String("__init__"))
                // One-time set-up unless called once per pass of a loop of this file; a caller
                // elsewhere in the project decides later (FindingSink, Finding::promoteIfHot).
                r = f.locallyHot ? PathRole::Compute : PathRole::Setup;

            else
                r = roleOfName(own);
            if (r == PathRole::Compute && drawsItsOwnFigure(m, f.node))
                r = PathRole::Plotting;
            // `def _check():` with no parameters builds its own inputs: a module's self-check
            // run by hand (bumps' `dream/diffev.py`), whose sizes are the check's, not the
            // workload's. A validation `_check_bounds(Z)` takes the data and stays compute.
            const TSNode params = field(f.node, F().parameters);
            if (r == PathRole::Compute && !ts_node_is_null(params) &&
                ts_node_named_child_count(params) == 0 &&
                wordPrefix(plainName(own), {"check", "selfcheck", "self_check", "sanity_check"}))
                r = PathRole::Demo;
            // A property setter (`@fitshape.setter`) stores and checks a configuration value.
            if (r == PathRole::Compute && isPropertySetter(m, f.node))
                r = f.locallyHot ? PathRole::Compute : PathRole::Setup;
            // Set-up by name that this file calls once per pass is part of the pass.
            if (r == PathRole::Setup && f.locallyHot)
                r = PathRole::Compute;
        }
        if (r == PathRole::Compute) {
            for (const QString& p : f.parameters) {
                if (plottingParameter(p))
                    r = PathRole::Plotting;
                else if (streamParameter(p))
                    r = PathRole::InputOutput;
            }
        }
        // A function of a reader or graphics module is that module's plumbing unless its own
        // name says more (`format_*` in an I/O package is presentation).
        if (r == PathRole::Compute)
            r = classDefault;
        if (r == PathRole::Compute)
            r = m_moduleRole;
        m_functionRoles[i] = r;
        // Set-up by its own name (`__init__`, `_initialize_mesh`, `setup_grid`) runs once
        // unless a loop calls it per pass: a caller elsewhere in the project decides.
        m_setupUnlessHot[i] =
            r == PathRole::Setup &&
            (f.name == QLatin1String("__init__") || f.name.endsWith(QLatin1String(".__init__")) ||
             roleOfName(f.name) == PathRole::Setup);
    }
}

namespace {
// How often `name` occurs in `src` as a whole identifier.
int identifierCount(std::string_view src, std::string_view name) {
    const auto identChar = [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
               c == '_';
    };
    int n = 0;
    for (size_t at = src.find(name); at != std::string_view::npos;
         at = src.find(name, at + name.size()))
        if ((at == 0 || !identChar(src[at - 1])) &&
            (at + name.size() >= src.size() || !identChar(src[at + name.size()])))
            ++n;
    return n;
}
} // namespace

void ComputePathEngine::inheritCallerRoles() {
    // A private method (`self._build_lookup()`) or a nested function runs where it is called:
    // when every call of this file is in set-up, I/O, plotting or error-path code, so is the
    // helper (RULES.md, the workload model item 5). Only helpers the project cannot call
    // from elsewhere, and only when the calls found are every use of the name (one more for
    // its `def`): a helper passed on as a callback may run anywhere.
    if (m_test)
        return;
    const auto& fns = m.functions();
    const std::string_view src = m.text(m.tree().root());
    std::vector<int> candidates;
    for (size_t i = 0; i < fns.size(); ++i) {
        const FunctionRegion& f = fns[i];
        if (m_functionRoles[i] != PathRole::Compute || f.locallyHot)
            continue;
        const qsizetype dot = f.name.lastIndexOf(QLatin1Char('.'));
        const QString own = dot >= 0 ? f.name.mid(dot + 1) : f.name;
        const bool privateMethod = !f.className.isEmpty() && f.parent < 0 &&
                                   own.startsWith(QLatin1Char('_')) &&
                                   !own.startsWith(QLatin1String("__"));
        if (privateMethod || f.parent >= 0)
            candidates.push_back(int(i));
    }
    // Helpers calling helpers: settle in a few rounds (a chain deeper than four stays compute).
    for (int round = 0; round < 4 && !candidates.empty(); ++round) {
        bool changed = false;
        for (int& idx : candidates) {
            if (idx < 0)
                continue;
            const FunctionRegion& f = fns[size_t(idx)];
            const std::vector<int>& calls = m.callsTo(idx);
            if (calls.empty())
                continue;
            PathRole common = PathRole::Compute;
            bool all = true;
            for (const int c : calls) {
                const TSNode call = m.calls()[size_t(c)];
                const PathRole r = startOf(call) >= f.startByte && endOf(call) <= f.endByte
                                       ? PathRole::Compute // recursion decides nothing
                                       : roleOf(call);
                if (r == PathRole::Compute) {
                    all = false;
                    break;
                }
                common = common == PathRole::Compute || common == r ? r : PathRole::Setup;
            }
            if (!all)
                continue;
            const qsizetype dot = f.name.lastIndexOf(QLatin1Char('.'));
            const QByteArray own = (dot >= 0 ? f.name.mid(dot + 1) : f.name).toUtf8();
            if (identifierCount(src, std::string_view(own.constData(), size_t(own.size()))) !=
                int(calls.size()) + 1)
                continue;
            m_functionRoles[size_t(idx)] = common;
            m_setupUnlessHot[size_t(idx)] = common == PathRole::Setup;
            idx = -1;
            changed = true;
        }
        if (!changed)
            break;
    }
}

bool ComputePathEngine::checksInputItems(TSNode guard) const {
    const LoopInfo* L = m.enclosingLoop(guard);
    if (!L)
        return false;
    for (; L; L = L->parent >= 0 ? &m.loops()[size_t(L->parent)] : nullptr)
        if (L->kind != LoopKind::For ||
            (L->source != LoopSource::Collection && L->source != LoopSource::Files &&
             L->source != LoopSource::Unknown))
            return false;
    return true;
}

void ComputePathEngine::buildSpans() {
    if (m_test)
        return; // every line of a test module is test code
    addErrorSpans();
    addCallSpans();
    // `if __name__ == "__main__":` blocks: one-time set-up, loops inside aside (roleOf).
    for (TSNode n : m.tree().nodes(SyntaxTree::NodeList::ModuleIf)) {
        const TSNode cond = field(n, F().condition);
        const std::string_view t = m.text(cond);
        if (is(cond, Sym::comparison_operator) && t.find("__name__") != std::string_view::npos &&
            t.find("__main__") != std::string_view::npos)
            m_spans.push_back({startOf(n), endOf(n), PathRole::Setup});
    }
    // `if 0:` / `if False:` (parenthesised too): the block never runs, in loops or not.
    for (const TSNode n : m.ifs()) {
        TSNode cond = field(n, F().condition);
        while (SyntaxTree::type(cond) == "parenthesized_expression" &&
               ts_node_named_child_count(cond) == 1)
            cond = ts_node_named_child(cond, 0);
        const std::string_view t = m.text(cond);
        const TSNode body = SyntaxTree::field(n, "consequence");
        if (ts_node_is_null(body))
            continue;
        if (t == "0" || t == "False")
            m_spans.push_back({startOf(body), endOf(body), PathRole::Unreachable, true});
        // `if verbose: print(...)`, `if self.debug: log.info(...)`: diagnostics printed for
        // the user, presentation wherever they run (a sum of a selection printed per pass is
        // no work of the pass). A switched block that changes state stays compute.
        else if (diagnosticSwitch(m, cond) && onlyReports(m, body))
            m_spans.push_back({startOf(body), endOf(body), PathRole::Presentation, true});
    }
    std::stable_sort(m_spans.begin(), m_spans.end(),
                     [](const Span& a, const Span& b) { return a.start < b.start; });
}

void ComputePathEngine::addErrorSpans() {
    // Raise statements are not indexed: find the keyword in the source (a file has few), then
    // take the statement and the block it ends.
    const std::string_view src = m.text(m.tree().root());
    const TSNode root = m.tree().root();
    const auto identChar = [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
               c == '_';
    };
    for (size_t at = src.find("raise"); at != std::string_view::npos;
         at = src.find("raise", at + 5)) {
        if ((at > 0 && identChar(src[at - 1])) || (at + 5 < src.size() && identChar(src[at + 5])))
            continue;
        const TSNode kw = ts_node_descendant_for_byte_range(root, uint32_t(at), uint32_t(at + 5));
        if (ts_node_is_null(kw) || ts_node_is_named(kw))
            continue; // in a string or a comment
        const TSNode stmt = ts_node_parent(kw);
        if (SyntaxTree::type(stmt) != "raise_statement")
            continue;
        m_spans.push_back({startOf(stmt), endOf(stmt), PathRole::ErrorPath});
        const TSNode block = ts_node_parent(stmt);
        if (SyntaxTree::type(block) != "block" || !ts_node_eq(lastStatement(block), stmt))
            continue;
        const std::string_view owner = SyntaxTree::type(ts_node_parent(block));
        // A guard whose block ends in raise (`if a.ndim != 2: raise ValueError(...)`), an
        // `else:` that raises, an `except` handler that re-raises.
        if (owner == "if_statement" || owner == "elif_clause" || owner == "else_clause" ||
            owner == "except_clause" || owner == "except_group_clause")
            m_spans.push_back({startOf(block), endOf(block), PathRole::ErrorPath});
    }
    // The test of a validation guard outside a loop (`if any(np.isnan(center)): raise ...`,
    // `assert x.ndim == 2`, a check that only warns) is parameter validation, run once per
    // call: one-time set-up (SemanticModel::isValidationGuard). In a loop it runs every pass
    // and stays on the compute path, unless the loop walks input items one by one
    // (checksInputItems: each fragment checked against the molecule before computing).
    for (const std::vector<TSNode>* list : {&m.ifs(), &m.asserts()})
        for (const TSNode guard : *list) {
            const TSNode cond = SyntaxTree::is(guard, "assert_statement")
                                    ? ts_node_named_child(guard, 0)
                                    : field(guard, F().condition);
            if (ts_node_is_null(cond) || !m.isValidationGuard(guard))
                continue;
            if (!m.inLoop(guard))
                m_spans.push_back({startOf(cond), endOf(cond), PathRole::Setup});
            else if (checksInputItems(guard))
                m_spans.push_back({startOf(cond), endOf(cond), PathRole::Setup, true});
        }
    // A loop whose body only checks each item (`for i in ids: if i not in known: raise ...`)
    // validates its input as a whole: set-up, its header included.
    for (const LoopInfo& L : m.loops()) {
        if (L.kind != LoopKind::For || SyntaxTree::type(L.body) != "block")
            continue;
        bool checks = false, other = false;
        const uint32_t k = ts_node_named_child_count(L.body);
        for (uint32_t i = 0; i < k && !other; ++i) {
            const TSNode st = ts_node_named_child(L.body, i);
            const std::string_view t = SyntaxTree::type(st);
            if (t == "comment" || t == "pass_statement" || t == "continue_statement")
                continue;
            if (m.isValidationGuard(st))
                checks = true;
            else
                other = true;
        }
        if (checks && !other)
            m_spans.push_back({startOf(L.node), endOf(L.node), PathRole::Setup, true});
    }
    // A handler of a failure (`except KeyboardInterrupt:`, `except LinAlgError:`) runs at most
    // once per failure: its reshape or copy is no per-pass work.
    for (size_t at = src.find("except"); at != std::string_view::npos;
         at = src.find("except", at + 6)) {
        if ((at > 0 && identChar(src[at - 1])) || (at + 6 < src.size() && identChar(src[at + 6])))
            continue;
        const TSNode kw = ts_node_descendant_for_byte_range(root, uint32_t(at), uint32_t(at + 6));
        if (ts_node_is_null(kw) || ts_node_is_named(kw))
            continue;
        const TSNode clause = ts_node_parent(kw);
        if (SyntaxTree::type(clause) != "except_clause" || !failureHandler(m, clause))
            continue;
        const TSNode block = ts_node_named_child(clause, ts_node_named_child_count(clause) - 1);
        m_spans.push_back({startOf(block), endOf(block), PathRole::ErrorPath});
    }
    // The message of an `assert` is built only when it fails.
    for (TSNode a : m.asserts())
        if (ts_node_named_child_count(a) >= 2) {
            const TSNode msg = ts_node_named_child(a, ts_node_named_child_count(a) - 1);
            m_spans.push_back({startOf(msg), endOf(msg), PathRole::ErrorPath});
        }
}

void ComputePathEngine::addCallSpans() {
    // Local names bound to plotting / GUI and I/O modules (`plt`, `sns`, `h5py`, `json`).
    std::vector<std::pair<std::string_view, PathRole>> modules;
    QByteArray buf;
    for (const ImportBinding& b : m.importBindings()) {
        const std::string_view top = topModule(b.canonical, buf);
        const PathRole r = plottingModule(top) ? PathRole::Plotting
                           : ioModule(top)     ? PathRole::InputOutput
                           : top == "argparse" ? PathRole::Setup
                                               : PathRole::Compute;
        if (r == PathRole::Compute || b.star)
            continue;
        const TSNode stmt = b.node;
        // The local name as a view into the source (ImportBinding::local is a QString).
        const std::string_view st = m.text(stmt);
        const QByteArray local = b.local.toUtf8();
        const size_t at = st.rfind(std::string_view(local.constData(), size_t(local.size())));
        if (at == std::string_view::npos)
            continue;
        modules.emplace_back(st.substr(at, size_t(local.size())), r);
    }
    for (TSNode c : m.calls()) {
        const TSNode fn = unparen(field(c, F().function));
        const Sym k = sym(fn);
        std::string_view leaf;
        if (k == Sym::identifier)
            leaf = m.text(fn);
        else if (k == Sym::attribute)
            leaf = m.text(field(fn, F().attribute));
        else
            continue;
        PathRole role = PathRole::Compute;
        const TSNode root = rootIdentifier(fn);
        const std::string_view rootName = ts_node_is_null(root) ? std::string_view() : m.text(root);
        if (k == Sym::identifier && leaf == "open" && !m.isNameBound(QStringLiteral("open"), c)) {
            role = PathRole::InputOutput;
        } else if (k == Sym::attribute) {
            for (const auto& [name, r] : modules)
                if (name == rootName)
                    role = r;
            if (role == PathRole::Compute && ioMethod(leaf))
                role = leaf == "savefig" ? PathRole::Plotting : PathRole::InputOutput;
            if (role == PathRole::Compute && plotMethod(leaf) && plotReceiver(rootName))
                role = PathRole::Plotting;
        } else {
            for (const auto& [name, r] : modules)
                if (name == leaf) // `from h5py import File`: the imported name itself
                    role = r;
        }
        if (role == PathRole::Compute) {
            // NumPy's readers and writers resolve through the array module's name.
            static constexpr std::string_view ioLeaves[] = {
                "save",    "savez",      "savez_compressed", "savetxt",     "load",
                "loadtxt", "genfromtxt", "fromfile",         "tofile",      "dump",
                "loadmat", "savemat",    "memmap",           "open_memmap",
            };
            if (std::find(std::begin(ioLeaves), std::end(ioLeaves), leaf) != std::end(ioLeaves)) {
                const QString name = m.callName(c);
                QByteArray nb = name.toUtf8();
                if (numpyIo(std::string_view(nb.constData(), size_t(nb.size()))))
                    role = PathRole::InputOutput;
            }
        }
        if (role != PathRole::Compute)
            addStatementOf(c, role);
    }
}

void ComputePathEngine::addStatementOf(TSNode call, PathRole role) {
    TSNode cur = call;
    for (int guard = 0; guard < 256; ++guard) {
        const TSNode parent = ts_node_parent(cur);
        if (ts_node_is_null(parent))
            break;
        const std::string_view pt = SyntaxTree::type(parent);
        if (pt == "with_statement" || pt == "with_clause" || pt == "with_item") {
            // `with open(path) as fh:` — the whole block reads or writes.
            cur = parent;
            if (pt == "with_statement")
                break;
            continue;
        }
        if (pt == "for_statement" && ts_node_eq(field(parent, F().right), cur)) {
            cur = parent; // `for line in fh.readlines():`
            break;
        }
        if (pt == "if_statement" || pt == "elif_clause" || pt == "while_statement" ||
            pt == "for_statement" || pt == "function_definition" || pt == "class_definition")
            break; // a call in a header marks the call alone, not the block under it
        if (pt == "block" || pt == "module" || isStatementType(SyntaxTree::type(cur)))
            break;
        cur = parent;
    }
    m_spans.push_back({startOf(cur), endOf(cur), role});
}

PathRole ComputePathEngine::roleOf(TSNode n, bool byFunction) const {
    if (m_test)
        return PathRole::Test;
    const FunctionRegion* f = m.enclosingFunctionRegion(n);
    if (f && byFunction) {
        const PathRole r = m_functionRoles[size_t(f->index)];
        if (r != PathRole::Compute)
            return r;
    }
    const uint32_t start = startOf(n), end = endOf(n);
    const uint32_t floor = f ? f->startByte : 0;
    // The innermost span around `n` (spans nest: a raise inside an I/O `with` block).
    const Span* best = nullptr;
    auto it = std::upper_bound(m_spans.begin(), m_spans.end(), start,
                               [](uint32_t b, const Span& s) { return b < s.start; });
    while (it != m_spans.begin()) {
        --it;
        if (it->start < floor)
            break;
        if (it->start <= start && end <= it->end &&
            (!best || it->end - it->start < best->end - best->start))
            best = &*it;
    }
    if (best && (best->role != PathRole::Setup || best->inLoopsToo))
        return best->role;
    if (!f && m_moduleRole != PathRole::Compute)
        return m_moduleRole;
    if (!f || best) {
        // Module level, class bodies and `__main__` blocks run once: set-up, except a loop of
        // a script or notebook, whose passes are the computation (the loop's own header too).
        const bool loop = m.inLoop(n) || is(n, Sym::for_statement) || is(n, Sym::while_statement);
        return loop ? PathRole::Compute : PathRole::Setup;
    }
    return PathRole::Compute;
}

// ---- SemanticModel -------------------------------------------------------------------------

PathRole SemanticModel::pathRole(TSNode n) const {
    if (!m_paths)
        m_paths = std::make_unique<ComputePathEngine>(*this);
    return m_paths->roleOf(n);
}

bool SemanticModel::setupUnlessHot(const FunctionRegion& f) const {
    if (!m_paths)
        m_paths = std::make_unique<ComputePathEngine>(*this);
    return m_paths->setupUnlessHot(f.index);
}

PathRole SemanticModel::statementRole(TSNode n) const {
    if (!m_paths)
        m_paths = std::make_unique<ComputePathEngine>(*this);
    return m_paths->roleOf(n, false);
}

bool SemanticModel::onComputePath(TSNode n) const {
    return pathRole(n) == PathRole::Compute;
}

bool SemanticModel::isValidationGuard(TSNode stmt) const {
    const std::string_view kind = SyntaxTree::type(stmt);
    if (kind == "assert_statement")
        return true;
    if (kind != "if_statement" && kind != "elif_clause")
        return false;
    const TSNode body = SyntaxTree::field(stmt, "consequence");
    if (SyntaxTree::type(body) != "block")
        return false;
    // Code that leads only to `raise` is an error path, whatever comes before the raise.
    if (SyntaxTree::type(lastStatement(body)) == "raise_statement")
        return true;
    // A block that only warns or logs an error, perhaps then returns (`logger.error(msg);
    // return False`): it tells the user and carries on or leaves. A loop or a nested branch makes
    // the block real work, not a plain exit.
    bool warned = false;
    const uint32_t k = ts_node_named_child_count(body);
    for (uint32_t i = 0; i < k; ++i) {
        const TSNode s = ts_node_named_child(body, i);
        const std::string_view t = SyntaxTree::type(s);
        if (t == "comment")
            continue;
        if (t == "return_statement" && i + 1 == k)
            continue;
        const TSNode call = t == "expression_statement" && ts_node_named_child_count(s) == 1
                                ? ts_node_named_child(s, 0)
                                : TSNode{};
        if (!is(call, Sym::call))
            return false;
        TSNode fn = field(call, F().function);
        if (is(fn, Sym::attribute))
            fn = field(fn, F().attribute);
        const std::string_view name = text(fn);
        if (name != "warn" && name != "warning" && name != "warn_explicit" && name != "error" &&
            name != "critical")
            return false;
        warned = true;
    }
    return warned;
}

bool SemanticModel::isTestModule() const {
    return ComputePathEngine::isTestModuleName(m_module);
}

} // namespace cnready
