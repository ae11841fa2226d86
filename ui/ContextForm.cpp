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

namespace cnready::ui {

namespace {
const char* const kPatterns[] = {"stencil",     "gemm",   "reduction",  "elementwise",
                                 "monte-carlo", "fft",    "sparse",     "graph",
                                 "ml",          "string", "sequential", "scipy-mixed"};

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
} // namespace

std::optional<qint64> ContextForm::parseCount(const QString& text) {
    return parseElementCount(text);
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
    auto* sizeBox = new QVBoxLayout;
    sizeBox->setSpacing(1);
    sizeBox->addLayout(sizeRow);
    sizeBox->addWidget(m_sizeNote);
    form->addRow(tr("Array size:"), sizeBox);

    m_gpus = new QSpinBox(this);
    m_gpus->setObjectName(QStringLiteral("gpus"));
    m_gpus->setRange(0, 65536);
    m_gpus->setSpecialValueText(tr("auto"));
    m_gpus->setToolTip(tr("Number of GPUs in total; \"auto\" uses the default."));
    m_gpusNote = makeNote(this, QStringLiteral("gpusNote"));
    auto* gpusBox = new QVBoxLayout;
    gpusBox->setSpacing(1);
    gpusBox->addWidget(m_gpus);
    gpusBox->addWidget(m_gpusNote);
    form->addRow(tr("GPUs:"), gpusBox);

    m_nodes = new QSpinBox(this);
    m_nodes->setObjectName(QStringLiteral("nodes"));
    m_nodes->setRange(0, 4096);
    m_nodes->setSpecialValueText(tr("auto"));
    m_nodesNote = makeNote(this, QStringLiteral("nodesNote"));
    auto* nodesBox = new QVBoxLayout;
    nodesBox->setSpacing(1);
    nodesBox->addWidget(m_nodes);
    nodesBox->addWidget(m_nodesNote);
    form->addRow(tr("Nodes:"), nodesBox);

    m_gpuModel = new QComboBox(this);
    m_gpuModel->setObjectName(QStringLiteral("gpuModel"));
    m_gpuModel->addItem(tr("unknown"), QString());
    for (const GpuModel& g : gpuCatalog())
        m_gpuModel->addItem(QStringLiteral("%1  (%2, CC %3)")
                                .arg(g.name, g.architecture)
                                .arg(g.computeCapability, 0, 'f', 1),
                            g.name);
    m_gpuNote = makeNote(this, QStringLiteral("gpuModelNote"));
    auto* gpuBox = new QVBoxLayout;
    gpuBox->setSpacing(1);
    gpuBox->addWidget(m_gpuModel);
    gpuBox->addWidget(m_gpuNote);
    form->addRow(tr("GPU model:"), gpuBox);

    m_pattern = new QComboBox(this);
    m_pattern->setObjectName(QStringLiteral("pattern"));
    m_pattern->addItem(tr("infer from the code"), QString());
    for (const char* p : kPatterns)
        m_pattern->addItem(QString::fromLatin1(p), QString::fromLatin1(p));
    m_patternNote = makeNote(this, QStringLiteral("patternNote"));
    auto* patternBox = new QVBoxLayout;
    patternBox->setSpacing(1);
    patternBox->addWidget(m_pattern);
    patternBox->addWidget(m_patternNote);
    form->addRow(tr("Pattern:"), patternBox);

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
        m_sizeValid = t.trimmed().isEmpty() || parseCount(t).has_value();
        m_size->setStyleSheet(
            m_sizeValid ? QString() : QStringLiteral("QLineEdit { border: 1px solid #d32f2f; }"));
        if (m_sizeValid)
            emitChanged();
    });
    connect(m_sizeScope, &QComboBox::currentIndexChanged, this, [this] {
        if (!m_size->text().trimmed().isEmpty())
            emitChanged();
    });
    connect(m_gpus, &QSpinBox::valueChanged, this, &ContextForm::emitChanged);
    connect(m_nodes, &QSpinBox::valueChanged, this, &ContextForm::emitChanged);
    connect(m_gpuModel, &QComboBox::currentIndexChanged, this, &ContextForm::emitChanged);
    connect(m_pattern, &QComboBox::currentIndexChanged, this, &ContextForm::emitChanged);
    connect(reset, &QPushButton::clicked, this, [this] {
        setInput(ContextInput{});
        emitChanged();
    });
}

void ContextForm::emitChanged() {
    emit inputChanged(input());
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
    if (const QString p = m_pattern->currentData().toString(); !p.isEmpty())
        in.pattern = p;
    return in;
}

void ContextForm::setInput(const ContextInput& in) {
    const QSignalBlocker b1(m_size), b2(m_sizeScope), b3(m_gpus), b4(m_nodes), b5(m_gpuModel),
        b6(m_pattern);
    if (in.elementsPerGpu) {
        m_size->setText(QString::number(*in.elementsPerGpu));
        m_sizeScope->setCurrentIndex(1);
    } else {
        m_size->setText(in.elements ? QString::number(*in.elements) : QString());
        m_sizeScope->setCurrentIndex(0);
    }
    m_size->setStyleSheet(QString());
    m_sizeValid = true;
    m_gpus->setValue(in.gpus.value_or(0));
    m_nodes->setValue(in.nodes.value_or(0));
    int gi = 0;
    if (in.gpuModel) {
        const GpuModel* g = findGpu(*in.gpuModel);
        gi = g ? m_gpuModel->findData(g->name) : -1;
        if (gi < 0) {
            m_gpuModel->addItem(*in.gpuModel, *in.gpuModel);
            gi = m_gpuModel->count() - 1;
        }
    }
    m_gpuModel->setCurrentIndex(gi);
    const int pi = in.pattern ? m_pattern->findData(*in.pattern) : 0;
    m_pattern->setCurrentIndex(qMax(0, pi));
}

void ContextForm::setNote(QLabel* note, const ContextValue* row, bool given) {
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
        text = where.isEmpty() ? tr("inferred from the code")
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
    setNote(m_sizeNote, size, in.elements || in.elementsPerGpu);
    if (c.totalElements > 0 && c.gpus > 0)
        m_sizeNote->setText(m_sizeNote->text() +
                            tr("\n= %1 elements per GPU").arg(loc.toString(c.perGpuElements)));
    const ContextValue* gpus = findRow(c, {"gpus"});
    m_gpus->setSpecialValueText(tr("auto (%1)").arg(c.gpus));
    setNote(m_gpusNote, gpus, in.gpus.has_value());
    const ContextValue* nodes = findRow(c, {"nodes"});
    m_nodes->setSpecialValueText(tr("auto (%1)").arg(c.nodes));
    setNote(m_nodesNote, nodes, in.nodes.has_value());
    const ContextValue* gpu = findRow(c, {"gpu", "cc"});
    m_gpuModel->setItemText(0,
                            gpu && !in.gpuModel ? tr("auto: %1").arg(gpu->value) : tr("unknown"));
    setNote(m_gpuNote, gpu, in.gpuModel.has_value());
    const ContextValue* pattern = findRow(c, {"pattern"});
    m_pattern->setItemText(0, c.pattern.isEmpty() || in.pattern
                                  ? tr("infer from the code")
                                  : tr("infer (now: %1)").arg(c.pattern));
    setNote(m_patternNote, pattern, in.pattern.has_value());
}

} // namespace cnready::ui
