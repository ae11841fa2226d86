#include "ContextForm.h"

#include "assess/GpuCatalog.h"

#include <QComboBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPushButton>
#include <QRegularExpression>
#include <QSpinBox>
#include <QVBoxLayout>

#include <cmath>

namespace cnready::ui {

namespace {
const char* const kPatterns[] = {"stencil",     "gemm",   "reduction",  "elementwise",
                                 "monte-carlo", "fft",    "sparse",     "graph",
                                 "ml",          "string", "sequential", "scipy-mixed"};
const char* const kOses[] = {"linux", "wsl2", "macos", "windows"};

const QString kInvalidStyle = QStringLiteral("QLineEdit { border: 1px solid #d32f2f; }");

QLabel* makeNote(QWidget* parent, const QString& name) {
    auto* l = new QLabel(parent);
    l->setObjectName(name);
    l->setWordWrap(true);
    QFont f = l->font();
    f.setPointSizeF(f.pointSizeF() * 0.9);
    l->setFont(f);
    l->setForegroundRole(QPalette::PlaceholderText);
    l->setTextInteractionFlags(Qt::TextSelectableByMouse);
    return l;
}

const ContextValue* findRow(const Context& c, std::initializer_list<const char*> keys) {
    for (const char* k : keys)
        for (const ContextValue& v : c.rows)
            if (v.key == QLatin1String(k))
                return &v;
    return nullptr;
}

// A field with its note under it, as one form row.
QVBoxLayout* fieldBox(QWidget* field, QLabel* note) {
    auto* box = new QVBoxLayout;
    box->setSpacing(1);
    if (field)
        box->addWidget(field);
    box->addWidget(note);
    return box;
}
} // namespace

std::optional<qint64> ContextForm::parseCount(const QString& text) {
    return parseElementCount(text);
}

std::optional<double> ContextForm::parseComputeCapability(const QString& text) {
    static const QRegularExpression form(QStringLiteral("^([0-9]{1,2})\\.([0-9])$"));
    const QRegularExpressionMatch m = form.match(text.trimmed());
    if (!m.hasMatch())
        return std::nullopt;
    const int major = m.captured(1).toInt();
    if (major < 1 || major > 12)
        return std::nullopt;
    return major + m.captured(2).toDouble() / 10;
}

bool ContextForm::isCudaVersion(const QString& text) {
    static const QRegularExpression version(QStringLiteral("^[1-9][0-9]?(\\.[0-9]{1,2}){0,2}$"));
    return version.match(text.trimmed()).hasMatch();
}

ContextForm::ContextForm(QWidget* parent) : QWidget(parent) {
    auto* outer = new QVBoxLayout(this);
    auto* form = new QFormLayout;
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    form->setRowWrapPolicy(QFormLayout::DontWrapRows);

    m_size = new QLineEdit(this);
    m_size->setObjectName(QStringLiteral("elements"));
    m_size->setClearButtonEnabled(true);
    m_size->setToolTip(tr("Elements of the largest array on the hot path, e.g. 16000000, "
                          "16_000_000 or 16M. Leave empty to infer it from the code."));
    m_sizeScope = new QComboBox(this);
    m_sizeScope->setObjectName(QStringLiteral("elementsScope"));
    m_sizeScope->addItem(tr("total"));
    m_sizeScope->addItem(tr("per GPU"));
    auto* sizeRow = new QHBoxLayout;
    sizeRow->addWidget(m_size, 1);
    sizeRow->addWidget(m_sizeScope);
    m_sizeNote = makeNote(this, QStringLiteral("elementsNote"));
    auto* sizeBox = fieldBox(nullptr, m_sizeNote);
    sizeBox->insertLayout(0, sizeRow);
    form->addRow(tr("Array size:"), sizeBox);

    m_gpus = new QSpinBox(this);
    m_gpus->setObjectName(QStringLiteral("gpus"));
    m_gpus->setRange(0, 65536);
    m_gpus->setSpecialValueText(tr("auto"));
    m_gpus->setToolTip(tr("Number of GPUs in total; \"auto\" uses the default."));
    m_gpusNote = makeNote(this, QStringLiteral("gpusNote"));
    form->addRow(tr("GPUs:"), fieldBox(m_gpus, m_gpusNote));

    m_nodes = new QSpinBox(this);
    m_nodes->setObjectName(QStringLiteral("nodes"));
    m_nodes->setRange(0, 4096);
    m_nodes->setSpecialValueText(tr("auto"));
    m_nodesNote = makeNote(this, QStringLiteral("nodesNote"));
    form->addRow(tr("Nodes:"), fieldBox(m_nodes, m_nodesNote));

    m_gpuModel = new QComboBox(this);
    m_gpuModel->setObjectName(QStringLiteral("gpuModel"));
    m_gpuModel->addItem(tr("unknown"), QString());
    for (const GpuModel& g : gpuCatalog())
        m_gpuModel->addItem(QStringLiteral("%1  (%2, CC %3)")
                                .arg(g.name, g.architecture)
                                .arg(g.computeCapability, 0, 'f', 1),
                            g.name);
    m_gpuNote = makeNote(this, QStringLiteral("gpuModelNote"));
    form->addRow(tr("GPU model:"), fieldBox(m_gpuModel, m_gpuNote));

    m_cc = new QLineEdit(this);
    m_cc->setObjectName(QStringLiteral("computeCapability"));
    m_cc->setClearButtonEnabled(true);
    m_cc->setToolTip(tr("CUDA compute capability as X.Y, e.g. 8.0. Leave empty to take it from "
                        "the GPU model; a value here wins over the model's."));
    m_ccNote = makeNote(this, QStringLiteral("computeCapabilityNote"));
    form->addRow(tr("Compute capability:"), fieldBox(m_cc, m_ccNote));

    m_cuda = new QLineEdit(this);
    m_cuda->setObjectName(QStringLiteral("cuda"));
    m_cuda->setClearButtonEnabled(true);
    m_cuda->setToolTip(tr("CUDA version of the target machine, e.g. 12.4."));
    m_cudaNote = makeNote(this, QStringLiteral("cudaNote"));
    form->addRow(tr("CUDA:"), fieldBox(m_cuda, m_cudaNote));

    m_os = new QComboBox(this);
    m_os->setObjectName(QStringLiteral("os"));
    m_os->addItem(tr("unknown"), QString());
    m_os->addItem(tr("Linux"), QStringLiteral("linux"));
    m_os->addItem(tr("Windows with WSL2"), QStringLiteral("wsl2"));
    m_os->addItem(tr("macOS"), QStringLiteral("macos"));
    m_os->addItem(tr("Windows"), QStringLiteral("windows"));
    m_osNote = makeNote(this, QStringLiteral("osNote"));
    form->addRow(tr("OS:"), fieldBox(m_os, m_osNote));

    m_pattern = new QComboBox(this);
    m_pattern->setObjectName(QStringLiteral("pattern"));
    m_pattern->addItem(tr("infer from the code"), QString());
    for (const char* p : kPatterns)
        m_pattern->addItem(QString::fromLatin1(p), QString::fromLatin1(p));
    m_patternNote = makeNote(this, QStringLiteral("patternNote"));
    form->addRow(tr("Pattern:"), fieldBox(m_pattern, m_patternNote));

    outer->addLayout(form);
    auto* reset = new QPushButton(tr("Reset to inferred / defaults"), this);
    reset->setObjectName(QStringLiteral("resetContext"));
    reset->setToolTip(tr("Clear every value you entered: the assessment infers them from the "
                         "code or uses the assessor's defaults."));
    auto* buttons = new QHBoxLayout;
    buttons->addStretch(1);
    buttons->addWidget(reset);
    outer->addLayout(buttons);
    outer->addStretch(1);

    connect(m_size, &QLineEdit::textChanged, this, [this](const QString& t) {
        edited(QStringLiteral("elements"));
        checkText(m_size, t.trimmed().isEmpty() || parseCount(t).has_value(), &m_sizeValid,
                  m_sizeNote, tr("an element count (e.g. 16M or 16_000_000)"));
        emitChanged();
    });
    connect(m_sizeScope, &QComboBox::currentIndexChanged, this, [this] {
        if (!m_size->text().trimmed().isEmpty()) {
            edited(QStringLiteral("elements"));
            emitChanged();
        }
    });
    connect(m_cc, &QLineEdit::textChanged, this, [this](const QString& t) {
        edited(QStringLiteral("cc"));
        checkText(m_cc, t.trimmed().isEmpty() || parseComputeCapability(t).has_value(), &m_ccValid,
                  m_ccNote, tr("a compute capability (X.Y, e.g. 8.0)"));
        emitChanged();
    });
    connect(m_cuda, &QLineEdit::textChanged, this, [this](const QString& t) {
        edited(QStringLiteral("cuda"));
        checkText(m_cuda, t.trimmed().isEmpty() || isCudaVersion(t), &m_cudaValid, m_cudaNote,
                  tr("a CUDA version (e.g. 12.4)"));
        emitChanged();
    });
    auto track = [this](const char* key) {
        return [this, key] {
            edited(QString::fromLatin1(key));
            emitChanged();
        };
    };
    connect(m_gpus, &QSpinBox::valueChanged, this, track("gpus"));
    connect(m_nodes, &QSpinBox::valueChanged, this, track("nodes"));
    connect(m_gpuModel, &QComboBox::currentIndexChanged, this, track("gpu"));
    connect(m_os, &QComboBox::currentIndexChanged, this, track("os"));
    connect(m_pattern, &QComboBox::currentIndexChanged, this, track("pattern"));
    connect(reset, &QPushButton::clicked, this, [this] {
        setInput(ContextInput{});
        emitChanged();
    });
}

void ContextForm::emitChanged() {
    emit inputChanged(input());
}

void ContextForm::edited(const QString& key) {
    m_carried.remove(key);
}

void ContextForm::checkText(QLineEdit* edit, bool valid, bool* flag, QLabel* note,
                            const QString& what) {
    *flag = valid;
    edit->setStyleSheet(valid ? QString() : kInvalidStyle);
    if (!valid) {
        // Said at once, before the assessment comes back: the value is not used.
        note->setText(tr("Not valid: “%1” is not %2. It is not used until you correct or "
                         "clear it.")
                          .arg(edit->text().trimmed(), what));
        note->setToolTip(QString());
    }
}

ContextInput ContextForm::input() const {
    ContextInput in;
    if (const auto n = parseCount(m_size->text()); n && !m_size->text().trimmed().isEmpty()) {
        if (m_sizeScope->currentIndex() == 1)
            in.elementsPerGpu = *n;
        else
            in.elements = *n;
    }
    if (m_gpus->value() > 0)
        in.gpus = m_gpus->value();
    if (m_nodes->value() > 0)
        in.nodes = m_nodes->value();
    if (const QString g = m_gpuModel->currentData().toString(); !g.isEmpty())
        in.gpuModel = g;
    if (const auto cc = parseComputeCapability(m_cc->text()))
        in.computeCapability = *cc;
    if (isCudaVersion(m_cuda->text()))
        in.cuda = m_cuda->text().trimmed();
    if (const QString os = m_os->currentData().toString(); !os.isEmpty())
        in.os = os;
    if (const QString p = m_pattern->currentData().toString(); !p.isEmpty())
        in.pattern = p;
    return in;
}

void ContextForm::setInput(const ContextInput& in, Origin origin) {
    const QSignalBlocker b1(m_size), b2(m_sizeScope), b3(m_gpus), b4(m_nodes), b5(m_gpuModel),
        b6(m_pattern), b7(m_cc), b8(m_cuda), b9(m_os);
    if (in.elementsPerGpu) {
        m_size->setText(QString::number(*in.elementsPerGpu));
        m_sizeScope->setCurrentIndex(1);
    } else {
        m_size->setText(in.elements ? QString::number(*in.elements) : QString());
        m_sizeScope->setCurrentIndex(0);
    }
    m_gpus->setValue(in.gpus.value_or(0));
    m_nodes->setValue(in.nodes.value_or(0));
    int gi = 0;
    if (in.gpuModel) {
        const GpuModel* g = findGpu(*in.gpuModel);
        gi = g ? m_gpuModel->findData(g->name) : m_gpuModel->findData(*in.gpuModel);
        if (gi < 0) {
            m_gpuModel->addItem(*in.gpuModel, *in.gpuModel);
            gi = m_gpuModel->count() - 1;
        }
    }
    m_gpuModel->setCurrentIndex(gi);
    m_cc->setText(in.computeCapability ? QString::number(*in.computeCapability, 'f', 1)
                                       : QString());
    m_cuda->setText(in.cuda.value_or(QString()));
    int oi = 0;
    if (in.os) {
        QString os = in.os->toLower();
        if (os == QLatin1String("wsl"))
            os = QStringLiteral("wsl2");
        else if (os == QLatin1String("darwin"))
            os = QStringLiteral("macos");
        oi = qMax(0, m_os->findData(os));
    }
    m_os->setCurrentIndex(oi);
    const int pi = in.pattern ? m_pattern->findData(*in.pattern) : 0;
    m_pattern->setCurrentIndex(qMax(0, pi));
    for (QLineEdit* e : {m_size, m_cc, m_cuda})
        e->setStyleSheet(QString());
    m_sizeValid = m_ccValid = m_cudaValid = true;

    m_carried.clear();
    if (origin == Origin::LastSession) {
        const ContextInput set = input();
        if (set.elements || set.elementsPerGpu)
            m_carried.insert(QStringLiteral("elements"));
        if (set.gpus)
            m_carried.insert(QStringLiteral("gpus"));
        if (set.nodes)
            m_carried.insert(QStringLiteral("nodes"));
        if (set.gpuModel)
            m_carried.insert(QStringLiteral("gpu"));
        if (set.computeCapability)
            m_carried.insert(QStringLiteral("cc"));
        if (set.cuda)
            m_carried.insert(QStringLiteral("cuda"));
        if (set.os)
            m_carried.insert(QStringLiteral("os"));
        if (set.pattern)
            m_carried.insert(QStringLiteral("pattern"));
    }
}

void ContextForm::setNote(QLabel* note, const ContextValue* row, bool given, const QString& key) {
    if (given && m_carried.contains(key)) {
        // Not "given" and not the command line's "--gpus 8": the user did not type it today.
        note->setText(tr("from your last session for this project"));
        note->setToolTip(tr("You entered this value the last time this project was open. "
                            "Change it, or clear it to let cnready infer or default it."));
        return;
    }
    if (given) {
        note->setText(tr("given"));
        note->setToolTip(QString());
        return;
    }
    if (!row) {
        note->setText(QString());
        note->setToolTip(QString());
        return;
    }
    // Short note under the field; the full evidence goes to the tooltip.
    QString text;
    if (row->provenance == Provenance::Inferred) {
        static const QRegularExpression location(QStringLiteral("`([^`\\s]+:\\d+(?:-\\d+)?)`"));
        QStringList where;
        for (auto it = location.globalMatch(row->evidence); it.hasNext() && where.size() < 3;) {
            const QString loc = it.next().captured(1);
            if (!where.contains(loc))
                where << loc;
        }
        text = where.isEmpty() ? (row->evidence.isEmpty() ? tr("inferred from the code")
                                                          : tr("inferred: %1").arg(row->evidence))
                               : tr("inferred from %1").arg(where.join(QStringLiteral(", ")));
    } else if (row->provenance == Provenance::Default) {
        text = tr("default: %1").arg(row->value);
    } else {
        text = tr("given");
    }
    note->setText(text);
    QString tip = QStringLiteral("%1: %2").arg(provenanceLabel(row->provenance), row->value);
    if (!row->evidence.isEmpty())
        tip += QStringLiteral("\n") + row->evidence;
    note->setToolTip(tip);
}

void ContextForm::setContext(const Context& c) {
    const ContextInput in = input();
    const QLocale loc(QLocale::English);
    const ContextValue* size = findRow(c, {"elements", "perGpu"});
    m_size->setPlaceholderText(
        c.totalElements > 0
            ? tr("%1 (%2)").arg(loc.toString(c.totalElements),
                                size ? provenanceLabel(size->provenance) : tr("resolved"))
            : tr("unknown: enter a size"));
    setNote(m_sizeNote, size, in.elements || in.elementsPerGpu, QStringLiteral("elements"));
    QString sizeNote = m_sizeNote->text();
    if (!m_sizeValid)
        sizeNote = tr("Not valid: “%1” is not an element count (e.g. 16M or 16_000_000). It is "
                      "not used: the size below is the one cnready works with until you "
                      "correct or clear it.\n%2")
                       .arg(m_size->text().trimmed(), sizeNote);
    if (c.totalElements > 0 && c.gpus > 0)
        sizeNote += (sizeNote.isEmpty() ? QString() : QStringLiteral("\n")) +
                    tr("= %1 elements in total, %2 per GPU")
                        .arg(loc.toString(c.totalElements), loc.toString(c.perGpuElements));
    m_sizeNote->setText(sizeNote);
    const ContextValue* gpus = findRow(c, {"gpus"});
    m_gpus->setSpecialValueText(tr("auto (%1)").arg(c.gpus));
    setNote(m_gpusNote, gpus, in.gpus.has_value(), QStringLiteral("gpus"));
    const ContextValue* nodes = findRow(c, {"nodes"});
    m_nodes->setSpecialValueText(tr("auto (%1)").arg(c.nodes));
    setNote(m_nodesNote, nodes, in.nodes.has_value(), QStringLiteral("nodes"));
    const ContextValue* gpu = findRow(c, {"gpu"});
    m_gpuModel->setItemText(0, tr("unknown"));
    setNote(m_gpuNote, gpu, in.gpuModel.has_value(), QStringLiteral("gpu"));

    const ContextValue* cc = findRow(c, {"cc"});
    m_cc->setPlaceholderText(
        c.computeCapability > 0
            ? tr("%1 (from the GPU model)").arg(QString::number(c.computeCapability, 'f', 1))
            : tr("unknown, e.g. 8.0"));
    setNote(m_ccNote, cc, in.computeCapability.has_value(), QStringLiteral("cc"));
    if (in.computeCapability && in.gpuModel)
        if (const GpuModel* g = findGpu(*in.gpuModel);
            g && std::abs(g->computeCapability - *in.computeCapability) > 0.01)
            m_ccNote->setText(m_ccNote->text() +
                              tr("\nThe %1 has %2 in the catalog: this value is used instead.")
                                  .arg(g->name, QString::number(g->computeCapability, 'f', 1)));
    if (!m_ccValid)
        checkText(m_cc, false, &m_ccValid, m_ccNote, tr("a compute capability (X.Y, e.g. 8.0)"));

    const ContextValue* cuda = findRow(c, {"cuda"});
    m_cuda->setPlaceholderText(tr("unknown, e.g. 12.4"));
    setNote(m_cudaNote, cuda, in.cuda.has_value(), QStringLiteral("cuda"));
    if (!m_cudaValid)
        checkText(m_cuda, false, &m_cudaValid, m_cudaNote, tr("a CUDA version (e.g. 12.4)"));
    setNote(m_osNote, findRow(c, {"os"}), in.os.has_value(), QStringLiteral("os"));

    const ContextValue* pattern = findRow(c, {"pattern"});
    m_pattern->setItemText(0, c.pattern.isEmpty() || in.pattern
                                  ? tr("infer from the code")
                                  : tr("infer (now: %1)").arg(c.pattern));
    setNote(m_patternNote, pattern, in.pattern.has_value(), QStringLiteral("pattern"));
}

void ContextForm::clearContext(const QString& note) {
    m_size->setPlaceholderText(QString());
    m_gpus->setSpecialValueText(tr("auto"));
    m_nodes->setSpecialValueText(tr("auto"));
    m_gpuModel->setItemText(0, tr("unknown"));
    m_cc->setPlaceholderText(QString());
    m_cuda->setPlaceholderText(QString());
    m_pattern->setItemText(0, tr("infer from the code"));
    for (QLabel* l :
         {m_gpusNote, m_nodesNote, m_gpuNote, m_ccNote, m_cudaNote, m_osNote, m_patternNote}) {
        l->setText(QString());
        l->setToolTip(QString());
    }
    m_sizeNote->setToolTip(QString());
    m_sizeNote->setText(m_sizeValid ? note : m_sizeNote->text());
    m_patternNote->setText(note);
}

} // namespace cnready::ui
