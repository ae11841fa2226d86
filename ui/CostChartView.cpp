#include "CostChartView.h"

#include "assess/Assessment.h"
#include "model/ProjectResult.h"
#include "report/Report.h"

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QCategoryAxis>
#include <QChart>
#include <QChartView>
#include <QCursor>
#include <QEvent>
#include <QFileInfo>
#include <QFontMetrics>
#include <QFutureWatcher>
#include <QHorizontalBarSeries>
#include <QLabel>
#include <QToolTip>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>
#include <cmath>

namespace cnready::ui {

namespace {

/// "thermal/legacy_probe.py:34-38 R104  ≥ 10 µs conv. +?": `name` is the shortest end of the
/// site's path that tells it from the other bars' (distinctNames()); the bound in words, since
/// a log axis is hard to read off, abridged with its unit (cost::formatBoundShort(), which for
/// a bound per pass of an element loop over data adds the 65,536 passes it is ranked and drawn
/// as).
QString shortLabel(const cost::SiteCost& c, const QString& name) {
    SourceRange r = c.site;
    r.path = name;
    return QStringLiteral("%1 %2  %3").arg(r.toString(), c.code, cost::formatBoundShort(c));
}

} // namespace

QStringList CostChartView::distinctNames(const QStringList& paths) {
    QStringList names;
    for (const QString& p : paths) {
        const QStringList parts = p.split(QLatin1Char('/'), Qt::SkipEmptyParts);
        qsizetype keep = 1;
        auto tail = [&parts](qsizetype n) {
            return parts.mid(std::max<qsizetype>(0, parts.size() - n)).join(QLatin1Char('/'));
        };
        for (; keep < parts.size(); ++keep) {
            const QString end = tail(keep);
            const bool clash = std::any_of(paths.cbegin(), paths.cend(), [&](const QString& o) {
                return o != p && (o == end || o.endsWith(QLatin1Char('/') + end));
            });
            if (!clash)
                break;
        }
        names << tail(keep);
    }
    return names;
}

namespace {

/// "100 µs", "1 ms", "2.5 s": a tick label (cost::formatSeconds(), "0" at zero).
QString tickLabel(double seconds) {
    return seconds <= 0 ? QStringLiteral("0") : cost::formatSeconds(seconds);
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
    // The left margin follows the longest site label (rebuild()).
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
    return shortLabel(m_shown.at(i), m_names.value(i, m_shown.at(i).site.path));
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
    // Short, so that the bars keep the height for their two-line labels: the glossary of the
    // labels' marks is the caption's tooltip (glossary()).
    return tr("Estimated cost of the top sites on %1 GPU%2 of %3, %4: lower bounds from the cost "
              "model, not measurements, in the unit of each label. Hover a bar for its "
              "assumption, this line for the marks.")
        .arg(m_inputs.gpus)
        .arg(m_inputs.gpus == 1 ? QString() : QStringLiteral("s"), m_inputs.gpuName, sizes);
}

QString CostChartView::glossary() const {
    return tr("\"/step\": per step, one pass of the time / iteration loop around the site; "
              "\"/run\": once, outside any step loop (set-up, never added to a step); "
              "\"/call\": per call of a site run every k-th step, k not known; \"/pass\": per "
              "pass of a loop of unknown trip count; \"×65,536\": an element loop over data, "
              "ranked and drawn as 65,536 passes; \"conv.\": per step of a loop that ends by "
              "`break`, its number of steps unknown; \"tasks\": the tasks alone, the data size "
              "unknown; \"+?\": statements of unknown size left out.");
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
    m_caption->setToolTip(glossary());

    QStringList paths;
    for (const cost::SiteCost& c : m_shown)
        paths << c.site.path;
    m_names = distinctNames(paths);

    // The bars are drawn at what the sites are ranked by (SiteCost::rankSeconds: the bound, or
    // 65,536 passes of an element loop over data), so the longest bar is on top.
    double lo = 0, hi = 0;
    for (const cost::SiteCost& c : m_shown) {
        if (c.rankSeconds <= 0)
            continue;
        lo = lo > 0 ? std::min(lo, c.rankSeconds) : c.rankSeconds;
        hi = std::max(hi, c.rankSeconds);
    }
    m_log = lo > 0 && hi / lo > kLogSpread;
    // A log axis: whole powers of ten around the bars, one decade below the smallest so its
    // bar still shows; past six decades a tick every second decade keeps the labels apart.
    // Qt's value axes print bare numbers ("2e-05"): the bars are drawn in decades above
    // 10^low on a category axis whose tick labels carry the unit ("10 µs", "1 ms").
    int low = 0, high = 1, decadeStep = 1;
    if (m_log) {
        low = int(std::floor(std::log10(lo))) - 1;
        high = int(std::ceil(std::log10(hi)));
        decadeStep = high - low > 6 ? 2 : 1;
        if (decadeStep == 2) {
            low -= ((low % 2) + 2) % 2;
            high += ((high % 2) + 2) % 2;
        }
    }
    // A linear axis: a nice step (1, 2 or 5 times a power of ten), about five ticks.
    double tick = 1;
    if (!m_log) {
        const double raw = (hi > 0 ? hi * 1.1 : 1) / 5;
        const double p = std::pow(10.0, std::floor(std::log10(raw)));
        tick = raw <= p ? p : raw <= 2 * p ? 2 * p : raw <= 5 * p ? 5 * p : 10 * p;
    }
    auto drawn = [&](double seconds) {
        return m_log ? std::max(0.0, std::log10(seconds) - low) : seconds;
    };

    auto* set = new QBarSet(tr("Bound"));
    set->setColor(pal.color(QPalette::Highlight));
    set->setBorderColor(pal.color(QPalette::Highlight).darker(130));
    QStringList labels;
    // Categories run bottom-up: append the smallest first so the largest bar is on top.
    for (qsizetype i = m_shown.size() - 1; i >= 0; --i) {
        *set << (m_shown[i].rankSeconds > 0 ? drawn(m_shown[i].rankSeconds) : 0.0);
        // Qt Charts gives category labels at most a share of the chart's width and cuts
        // longer ones on the left: the axis names a site by its first line only (the bar's
        // tooltip and barLabel() keep the range).
        QString axisLabel = barLabel(int(i));
        const SourceRange& r = m_shown[i].site;
        if (r.endLine > r.line)
            axisLabel.replace(QStringLiteral(":%1-%2 ").arg(r.line).arg(r.endLine),
                              QStringLiteral(":%1 ").arg(r.line));
        // Two lines, the site over its bound: half the width, so that the labels stay within
        // the share of the chart's width Qt Charts gives them (it cut longer ones on the left).
        // The labels are rich text: escape them.
        const qsizetype split = axisLabel.indexOf(QStringLiteral("  "));
        axisLabel = split < 0 ? axisLabel.toHtmlEscaped()
                              : axisLabel.left(split).toHtmlEscaped() + QStringLiteral("<br>") +
                                    axisLabel.mid(split + 2).toHtmlEscaped();
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
    // Qt Charts lays untruncated category labels out short on the left, the more the longer
    // they are (their first letters were cut): the plot area is placed by hand instead, right
    // of the widest label (layOutPlot()).
    const QFontMetrics fm(sites->labelsFont());
    m_labelWidth = 0;
    for (const QString& l : std::as_const(labels))
        for (const QString& part : l.split(QStringLiteral("<br>")))
            m_labelWidth = std::max(m_labelWidth, fm.horizontalAdvance(part));
    m_lineHeight = fm.height();

    auto* axis = new QCategoryAxis;
    axis->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
    axis->setStartValue(m_log ? -1e-9 : -tick * 1e-9);
    if (m_log) {
        for (int d = low; d <= high; d += decadeStep)
            axis->append(tickLabel(std::pow(10.0, d)), d - low);
        axis->setRange(0, high - low);
        axis->setTitleText(tr("lower bound, unit as labelled (log scale)"));
    } else {
        const int ticks = int(std::ceil((hi > 0 ? hi * 1.1 : 1) / tick));
        for (int k = 0; k <= ticks; ++k)
            axis->append(tickLabel(k * tick), k * tick);
        axis->setRange(0, ticks * tick);
        axis->setTitleText(tr("lower bound, unit as labelled"));
    }
    QAbstractAxis* values = axis;
    m_chart->addAxis(values, Qt::AlignBottom);
    series->attachAxis(values);
    layOutPlot();
    connect(set, &QBarSet::hovered, this, &CostChartView::hoverBar);

    QStringList notes;
    if (m_shown.isEmpty())
        notes << tr("No hot site with a known size to chart.");
    if (m_more > 0)
        notes << tr("%1 more site(s) with smaller bounds.").arg(m_more);
    // A long list of sites of unknown size would take the bars' height: past three, their
    // count, the list in the tooltip.
    m_footer->setToolTip(QString());
    if (m_unknown.size() > 3) {
        notes << tr("Size unknown, no bar: %1 sites (hover here for the list).")
                     .arg(m_unknown.size());
        m_footer->setToolTip(m_unknown.join(QLatin1Char('\n')));
    } else if (!m_unknown.isEmpty()) {
        notes << tr("Size unknown, no bar: %1.").arg(m_unknown.join(QLatin1String("; ")));
    }
    m_footer->setText(notes.join(QLatin1Char(' ')));
    m_footer->setVisible(!notes.isEmpty());
}

void CostChartView::layOutPlot() {
    // Qt Charts reserves less than the widest untruncated label on the left; the margin makes
    // up the difference.
    m_chart->setMargins(QMargins(12 + m_labelWidth / 8, 8, 28, 8));
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
