#include "CorpusGenerator.h"

#include <QDir>
#include <QFile>
#include <QList>

#include <utility>

namespace cnready::bench {

quint64 Random::next() {
    // SplitMix64 (public-domain constants by Sebastiano Vigna).
    quint64 z = (m_state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

namespace {

// Placeholders in the block templates below:
//   @F function/class name   @A @B @C array names   @N a size constant name
//   @K a small integer        @S a step count         @M module index
using Subst = QList<std::pair<QByteArray, QByteArray>>;

QByteArray fill(QByteArray text, const Subst& subst) {
    for (const auto& [key, value] : subst)
        text.replace(key, value);
    return text;
}

const char* const kArrayNames[] = {"grid",   "field",    "u",       "v",       "rho",
                                   "temp",   "signal",   "weights", "coeffs",  "state",
                                   "flux",   "pressure", "density", "samples", "img",
                                   "kernel", "resid",    "x",       "y",       "z"};
const char* const kVerbs[] = {"update",     "compute",  "apply",  "relax",     "smooth",
                              "integrate",  "advance",  "filter", "project",   "normalize",
                              "accumulate", "evaluate", "refine", "transform", "estimate"};
const char* const kNouns[] = {"heat",     "pressure", "velocity",  "density",  "energy",   "signal",
                              "spectrum", "weights",  "particles", "mesh",     "boundary", "halo",
                              "residual", "kernel",   "image",     "histogram"};

template <std::size_t N> QByteArray pick(Random& rng, const char* const (&names)[N]) {
    return QByteArray(names[rng.range(0, int(N) - 1)]);
}

// Each block is a complete top-level definition (or group of statements) ending in "\n\n".
const char* const kBlocks[] = {
    // 0: Jacobi stencil with a convergence check in the loop.
    R"PY(def @F(@A, tol=1e-6, max_iter=@S):
    """Relax @A with a five-point Jacobi stencil until the update is below tol.

    The boundary rows and columns are kept fixed (Dirichlet conditions).
    """
    @B = @A.copy()
    for it in range(max_iter):
        @B[1:-1, 1:-1] = 0.25 * (@A[:-2, 1:-1] + @A[2:, 1:-1] + @A[1:-1, :-2] + @A[1:-1, 2:])
        err = np.max(np.abs(@B - @A))
        @A, @B = @B, @A
        if float(err) < tol:  # host sync every iteration
            break
    return @A

)PY",
    // 1: reductions and statistics.
    R"PY(def @F(@A, axis=0):
    # Summary statistics of @A along one axis.
    total = np.sum(@A, axis=axis)
    mean = @A.mean(axis=axis)
    spread = np.sqrt(np.var(@A, axis=axis))
    peak = np.max(np.abs(@A))
    scale = np.linalg.norm(@A) / max(@A.size, 1)
    return {"total": total, "mean": mean, "std": spread, "peak": peak, "scale": scale}

)PY",
    // 2: an element loop (R101).
    R"PY(def @F(@A, @B):
    """Combine @A and @B element by element (slow on any accelerator)."""
    n = @A.shape[0]
    @C = np.empty_like(@A)
    for i in range(n):
        if @A[i] > 0:
            @C[i] = @A[i] * @B[i] + @K
        else:
            @C[i] = @B[i] - @A[i]
    return @C

)PY",
    // 3: allocation and stacking inside a time loop (R201, R203).
    R"PY(def @F(@A, steps=@S):
    history = []
    out = np.zeros((0, @A.shape[-1]))
    for step in range(steps):
        scratch = np.zeros(@A.shape)  # allocated every step
        scratch[...] = @A * (step + 1)
        @A = @A + 0.5 * scratch
        out = np.concatenate([out, @A[None, -1]])
        history.append(step)
    return out, history

)PY",
    // 4: a class with methods, docstrings and vectorized work.
    R"PY(class @F:
    """Holds the state of a @K-component model and advances it in time."""

    def __init__(self, shape=(@N, @N), dtype=np.float64):
        self.shape = tuple(shape)
        self.@A = np.zeros(self.shape, dtype=dtype)
        self.@B = np.ones(self.shape, dtype=dtype)
        self.steps = 0

    def step(self, dt=0.01):
        # Explicit Euler update; everything stays vectorized.
        rate = np.where(self.@A > 0.5, -self.@A, self.@B * dt)
        self.@A += dt * rate
        np.clip(self.@A, 0.0, 1.0, out=self.@A)
        self.steps += 1
        return self

    def energy(self):
        return float(np.sum(self.@A ** 2) + np.sum(self.@B ** 2))

    def __repr__(self):
        return f"@F(shape={self.shape}, steps={self.steps})"

)PY",
    // 5: matrix products and masks.
    R"PY(def @F(@A, @B, threshold=0.5):
    prod = @A @ @B.T
    gram = np.dot(@A.T, @A)
    mask = (prod > threshold) & (prod < 1.0 - threshold)
    prod[mask] = 0.0
    scores = np.einsum("ij,ij->i", @A, @A)
    return prod, gram, scores

)PY",
    // 6: plain Python (strings, dicts, lists) that must not look like array code.
    R"PY(def @F(names, prefix="run"):
    """Build file names and a lookup table; no arrays involved."""
    table = {}
    for idx, name in enumerate(sorted(names)):
        key = f"{prefix}_{idx:04d}_{name}"
        table[key] = name[::-1].upper()
    labels = [k.split("_")[0] for k in table]
    return table, max(len(labels), @K)

)PY",
    // 7: iterating an array and a vectorize call.
    R"PY(def @F(@A):
    clip = np.vectorize(lambda value: min(max(value, 0.0), 1.0))
    rows = []
    for row in @A:
        rows.append(row.sum())
    flat = @A.reshape(-1)
    evens = flat[::2]
    return clip(flat), rows, evens.tolist()

)PY",
    // 8: module-level driver code.
    R"PY(# ---------------------------------------------------------------------------
# Driver helpers for experiment @M.
# ---------------------------------------------------------------------------
@N = @K * 4096
_rng = np.random.default_rng(@M)


def @F(seed=@M):
    @A = _rng.standard_normal((@N, 8))
    @B = np.linspace(0.0, 1.0, @N)
    for epoch in range(@S):
        @A *= 0.99
        @A[:, 0] += @B
    return @A

)PY",
    // 9: FFT-based filter and random draws in a loop.
    R"PY(def @F(@A, cutoff=0.1, repeats=@S):
    spectrum = np.fft.rfft(@A)
    freqs = np.fft.rfftfreq(@A.shape[-1])
    spectrum[freqs > cutoff] = 0
    smooth = np.fft.irfft(spectrum, n=@A.shape[-1])
    noise_level = 0.0
    for _ in range(repeats):
        noise = np.random.randn(*@A.shape)
        noise_level += np.mean(noise * smooth)
    return smooth, noise_level / repeats

)PY",
};
constexpr int kBlockCount = int(sizeof(kBlocks) / sizeof(kBlocks[0]));

QByteArray header(Random& rng, int moduleIndex) {
    QByteArray h;
    h += "\"\"\"Numerical kernels for simulation module " + QByteArray::number(moduleIndex) +
         ".\n\nGenerated for the cnready benchmark: stencils, reductions and loops in the\n"
         "shapes research code tends to have.\n\"\"\"\n\n";
    h += "from __future__ import annotations\n\n";
    h += "import math\nimport os\n";
    if (rng.chance(30))
        h += "import logging\n";
    h += "\nimport numpy as np\n";
    if (rng.chance(40))
        h += "from numpy.linalg import norm, solve\n";
    if (rng.chance(25))
        h += "import scipy.sparse as sp\n";
    if (rng.chance(15))
        h += "import matplotlib.pyplot as plt\n";
    h += "\n";
    h += "GRID_SIZE = " + QByteArray::number(rng.range(64, 4096)) + "\n";
    h += "N_STEPS = " + QByteArray::number(rng.range(10, 1000)) + "\n";
    h += "DTYPE = np.float64\n\n\n";
    return h;
}

QByteArray mainBlock() {
    return "if __name__ == \"__main__\":\n"
           "    data = np.random.default_rng(0).random((GRID_SIZE, GRID_SIZE))\n"
           "    print(\"checksum\", float(np.sum(data)))\n";
}

} // namespace

QByteArray generateModule(quint64 seed, int moduleIndex, int targetLines) {
    Random rng(seed * 1000003ULL + quint64(moduleIndex));
    QByteArray out = header(rng, moduleIndex);
    int counter = 0;
    const QByteArray tail = mainBlock();
    const int tailLines = int(tail.count('\n'));
    // Lines so far, kept up to date as blocks are added: counting them in `out` on every
    // pass made a 100,000-line module take ~40 s to generate (quadratic in its length).
    qsizetype lines = out.count('\n');
    while (int(lines) + tailLines < targetLines) {
        const int kind = rng.range(0, kBlockCount - 1);
        const QByteArray a = pick(rng, kArrayNames);
        QByteArray b = pick(rng, kArrayNames);
        if (b == a)
            b += "_b";
        QByteArray c = pick(rng, kArrayNames);
        if (c == a || c == b)
            c += "_c";
        QByteArray name =
            pick(rng, kVerbs) + "_" + pick(rng, kNouns) + "_" + QByteArray::number(++counter);
        if (kind == 4) { // a class: CamelCase
            name = "Model" + QByteArray::number(moduleIndex) + "x" + QByteArray::number(counter);
        }
        const QByteArray sizeName =
            "N_" + QByteArray::number(moduleIndex) + "_" + QByteArray::number(counter);
        const Subst subst = {{"@F", name},
                             {"@A", a},
                             {"@B", b},
                             {"@C", c},
                             {"@N", kind == 4 ? QByteArray::number(rng.range(16, 2048)) : sizeName},
                             {"@K", QByteArray::number(rng.range(2, 9))},
                             {"@S", QByteArray::number(rng.range(5, 500))},
                             {"@M", QByteArray::number(moduleIndex)}};
        const QByteArray block = fill(kBlocks[kind], subst);
        out += block;
        lines += block.count('\n');
        if (rng.chance(20)) {
            out += "# TODO(perf): check whether this kernel dominates the profile.\n\n";
            lines += 2;
        }
    }
    out += tail;
    return out;
}

CorpusStats writeCorpus(const QString& dir, const CorpusOptions& options) {
    CorpusStats stats;
    if (!QDir().mkpath(dir))
        return stats;
    Random sizes(options.seed);
    const int perPackage = qMax(1, options.filesPerPackage);
    int index = 0;
    while (stats.lines < options.totalLines) {
        const int lo = qMax(20, options.linesPerFile / 2);
        const int hi = qMax(lo, options.linesPerFile * 3 / 2);
        const qint64 remaining = options.totalLines - stats.lines;
        const int target = int(qMin<qint64>(remaining, sizes.range(lo, hi)));
        const QByteArray module = generateModule(options.seed, index, qMax(target, 20));
        const QString pkg =
            QStringLiteral("%1/pkg%2").arg(dir).arg(index / perPackage, 3, 10, QLatin1Char('0'));
        if (index % perPackage == 0) {
            QDir().mkpath(pkg);
            QFile init(pkg + QStringLiteral("/__init__.py"));
            if (!init.open(QIODevice::WriteOnly) ||
                init.write("\"\"\"Generated package.\"\"\"\n") < 0)
                return {};
            stats.files += 1;
            stats.lines += 1;
            stats.bytes += init.size();
        }
        QFile f(QStringLiteral("%1/mod%2.py").arg(pkg).arg(index, 5, 10, QLatin1Char('0')));
        if (!f.open(QIODevice::WriteOnly) || f.write(module) != module.size())
            return {};
        stats.files += 1;
        stats.lines += module.count('\n');
        stats.bytes += module.size();
        ++index;
    }
    return stats;
}

} // namespace cnready::bench
