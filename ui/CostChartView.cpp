#include "CostChartView.h"

#include "assess/Assessment.h"
#include "model/ProjectResult.h"
#include "report/Report.h"

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QCursor>
#include <QEvent>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QHorizontalBarSeries>
#include <QLabel>
#include <QLogValueAxis>
#include <QToolTip>
#include <QVBoxLayout>
#include <QValueAxis>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>
#include <cmath>

namespace cnready::ui {

namespace {

/// "legacy_probe.py:34-38 R104  ≥ 10 µs conv. +?": the file name keeps the label short
/// (the tooltip has the path and the whole bound); the bound in words, since a log axis is
/// hard to read off, with its unit and qualifiers abridged ("/step", "/pass", "/run", "conv.":
/// per step of a loop run until it converges, "tasks": only the tasks are counted, the data
/// size unknown, "+?": the bound covers only the known part) so that Qt Charts does not cut
/// long labels on the left.
QString shortLabel(const cost::SiteCost& c) {
    SourceRange r = c.site;
    r.path = QFileInfo(r.path).fileName();
    QString bound = c.gpuSecondsHigh
                        ? QStringLiteral("%1 – %2").arg(cost::formatSeconds(c.gpuSeconds),
                                                        cost::formatSeconds(*c.gpuSecondsHigh))
                        : QStringLiteral("≥ %1").arg(cost::formatSeconds(c.gpuSeconds));
    bound += c.perCall          ? QStringLiteral("/run")
             : c.perPass        ? QStringLiteral("/pass")
             : c.untilConverged ? QStringLiteral(" conv.")
             : c.perStep        ? QStringLiteral("/step")
                                : QStringLiteral("/run");
    if (c.dataUnknown)
        bound += QStringLiteral(" tasks");
    if (!c.unknownParts.isEmpty())
        bound += QStringLiteral(" +?");
    return QStringLiteral("%1 %2  %3").arg(r.toString(), c.code, bound);
}

} // namespace

CostChartView::CostChartView(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("costChart"));
    auto* lay = new QVBoxLayout(this);
    lay->setContentsMargins(6, 6, 6, 6);
    m_caption = new QLabel(this);
    m_caption->setObjectName(QStringLiteral("costChartCaption"));
    m_caption->setWordWrap(true);
    m_chart = new QChart;
    m_chart->legend()->hide();
    m_chart->setAnimationOptions(QChart::NoAnimation);
    // Qt Charts lays untruncated category labels out a few pixels short on the left (more so
    // the longer they are: labels are kept short, see shortLabel()).
    m_chart->setMargins(QMargins(28, 8, 20, 8));
    m_view = new QChartView(m_chart, this);
    m_view->setObjectName(QStringLiteral("costChartView"));
    m_view->setRenderHint(QPainter::Antialiasing);
    m_footer = new QLabel(this);
    m_footer->setObjectName(QStringLiteral("costChartFooter"));
    m_footer->setWordWrap(true);
    m_footer->setTextInteractionFlags(Qt::TextSelectableByMouse);
    lay->addWidget(m_caption);
    lay->addWidget(m_view, 1);
    lay->addWidget(m_footer);
    rebuild();
}

QList<cost::SiteCost> CostChartView::siteCostsOf(const ProjectResult& project,
                                                 const Assessment& assessment) {
    return cost::estimateSites(assessment.findings, cost::inputsFor(assessment.context),
                               testModulePaths(project));
}

void CostChartView::follow(const ProjectResult& project, const Assessment& assessment) {
    const int generation = ++m_generation;
    auto* watcher = new QFutureWatcher<QList<cost::SiteCost>>(this);
    const Context context = assessment.context;
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, generation, context] {
        watcher->deleteLater();
        if (generation == m_generation)
            setCosts(watcher->result(), context);
    });
    // Copies for the worker (implicitly shared lists: cheap, read-only on both sides).
    watcher->setFuture(QtConcurrent::run(
        [findings = assessment.findings, context, tests = testModulePaths(project)] {
            return cost::estimateSites(findings, cost::inputsFor(context), tests);
        }));
}

void CostChartView::setCosts(const QList<cost::SiteCost>& costs, const Context& context) {
    m_inputs = cost::inputsFor(context);
    m_shown.clear();
    m_unknown.clear();
    m_more = 0;
    for (const cost::SiteCost& c : costs) {
        if (!c.sizeKnown)
            m_unknown << QStringLiteral("%1 %2").arg(c.site.toString(), c.code);
        else if (m_shown.size() < kTopSites)
            m_shown << c;
        else
            ++m_more;
    }
    std::stable_sort(m_shown.begin(), m_shown.end(),
                     [](const cost::SiteCost& a, const cost::SiteCost& b) {
                         return a.rankSeconds > b.rankSeconds;
                     });
    rebuild();
    emit costsChanged(costs);
}

QString CostChartView::barLabel(int i) const {
    return shortLabel(m_shown.at(i));
}

QString CostChartView::barToolTip(int i) const {
    const cost::SiteCost& c = m_shown.at(i);
    return tr("<b>%1</b> %2, %3<br>%4: a bound, not a measurement<br>%5")
        .arg(c.site.toString().toHtmlEscaped(), c.code, c.kind.toHtmlEscaped(),
             cost::formatBound(c).toHtmlEscaped(), c.assumption.toHtmlEscaped());
}

QString CostChartView::caption() const {
    // Sites are sized by the arrays they touch; only a given size stands for the others.
    const QString sizes = m_inputs.sizeSource == cost::SizeSource::Given
                              ? tr("each site sized by its own arrays, else the given %1 elements")
                                    .arg(formatCount(m_inputs.elements))
                              : tr("each site sized by its own arrays");
    return tr("Estimated cost of the top sites on %1 GPU%2 of %3, %4 (lower bounds from the "
              "cost model, not measurements; \"/step\": per step, one pass of the time / "
              "iteration loop around the site; \"/run\": once, outside any step loop (set-up, "
              "never added to a step); \"/pass\": per pass of a loop of unknown trip count, "
              "ranked as 65,536 passes for an element loop over data; \"conv.\": per step of a "
              "loop that ends by `break`, its number of steps unknown; \"tasks\": the tasks "
              "alone, the data size unknown; \"+?\": statements of unknown size left out). "
              "Hover a bar for the assumption that dominates it.")
        .arg(m_inputs.gpus)
        .arg(m_inputs.gpus == 1 ? QString() : QStringLiteral("s"), m_inputs.gpuName, sizes);
}

void CostChartView::rebuild() {
    m_chart->removeAllSeries();
    for (QAbstractAxis* a : m_chart->axes())
        m_chart->removeAxis(a);
    // Follow the palette (light or dark desktop).
    const QPalette pal = palette();
    const bool dark = pal.color(QPalette::Window).lightness() < 128;
    m_chart->setTheme(dark ? QChart::ChartThemeDark : QChart::ChartThemeLight);
    m_chart->setBackgroundBrush(pal.color(QPalette::Base));
    m_chart->setBackgroundRoundness(0);
    m_caption->setText(caption());

    double lo = 0, hi = 0;
    for (const cost::SiteCost& c : m_shown) {
        if (c.gpuSeconds <= 0)
            continue;
        lo = lo > 0 ? std::min(lo, c.gpuSeconds) : c.gpuSeconds;
        hi = std::max(hi, c.gpuSeconds);
    }
    m_log = lo > 0 && hi / lo > kLogSpread;

    auto* set = new QBarSet(tr("Bound"));
    set->setColor(pal.color(QPalette::Highlight));
    set->setBorderColor(pal.color(QPalette::Highlight).darker(130));
    QStringList labels;
    // Categories run bottom-up: append the smallest first so the largest bar is on top.
    for (qsizetype i = m_shown.size() - 1; i >= 0; --i) {
        *set << m_shown[i].gpuSeconds;
        // Qt Charts gives category labels at most a share of the chart's width and cuts
        // longer ones on the left: the axis names a site by its first line only (the bar's
        // tooltip and barLabel() keep the range).
        QString axisLabel = shortLabel(m_shown[i]);
        const SourceRange& r = m_shown[i].site;
        if (r.endLine > r.line)
            axisLabel.replace(QStringLiteral(":%1-%2 ").arg(r.line).arg(r.endLine),
                              QStringLiteral(":%1 ").arg(r.line));
        labels << axisLabel;
    }
    auto* series = new QHorizontalBarSeries;
    series->append(set);
    series->setBarWidth(0.7);
    m_chart->addSeries(series);

    auto* sites = new QBarCategoryAxis;
    sites->append(labels);
    sites->setTruncateLabels(false); // the plot narrows instead: a label is the bar's reading
    m_chart->addAxis(sites, Qt::AlignLeft);
    series->attachAxis(sites);
    QAbstractAxis* values = nullptr;
    if (m_log) {
        auto* axis = new QLogValueAxis;
        // Whole powers of the base around the bars, one decade below the smallest so its bar
        // still shows; past six decades a tick every second decade keeps the labels apart.
        int low = int(std::floor(std::log10(lo))) - 1;
        int high = int(std::ceil(std::log10(hi)));
        const int step = high - low > 6 ? 2 : 1;
        if (step == 2) {
            low -= ((low % 2) + 2) % 2;
            high += ((high % 2) + 2) % 2;
        }
        axis->setBase(step == 2 ? 100 : 10);
        axis->setRange(std::pow(10.0, low), std::pow(10.0, high));
        axis->setLabelFormat(QStringLiteral("%g"));
        axis->setMinorTickCount(0);
        axis->setTitleText(tr("seconds per step, pass or run, as labelled (log scale)"));
        values = axis;
    } else {
        auto* axis = new QValueAxis;
        axis->setRange(0, hi > 0 ? hi * 1.1 : 1);
        axis->setLabelFormat(QStringLiteral("%.3g"));
        axis->applyNiceNumbers();
        axis->setTitleText(tr("seconds per step, pass or run, as labelled"));
        values = axis;
    }
    m_chart->addAxis(values, Qt::AlignBottom);
    series->attachAxis(values);
    connect(set, &QBarSet::hovered, this, &CostChartView::hoverBar);

    QStringList notes;
    if (m_shown.isEmpty())
        notes << tr("No hot site with a known size to chart.");
    if (m_more > 0)
        notes << tr("%1 more site(s) with smaller bounds.").arg(m_more);
    if (!m_unknown.isEmpty())
        notes << tr("Size unknown, no bar: %1.").arg(m_unknown.join(QLatin1String("; ")));
    m_footer->setText(notes.join(QLatin1Char(' ')));
    m_footer->setVisible(!notes.isEmpty());
}

void CostChartView::changeEvent(QEvent* e) {
    QWidget::changeEvent(e);
    if (e->type() == QEvent::PaletteChange)
        rebuild();
}

void CostChartView::hoverBar(bool on, int index) {
    const int i = int(m_shown.size()) - 1 - index; // categories run bottom-up
    if (!on || i < 0 || i >= m_shown.size()) {
        QToolTip::hideText();
        return;
    }
    QToolTip::showText(QCursor::pos(), barToolTip(i), m_view);
}

} // namespace cnready::ui
