#pragma once
// The studio's cost chart (issue 20 item 3): the cost model's bound per step of the top sites
// as horizontal bars (Qt Charts), on a log axis when the bounds span more than two decades.
// Hovering a bar shows the assumption that dominates it. The numbers come from the core's cost
// model (cost/CostModel.h) through siteCostsOf(); this view only draws them.

#include "cost/CostModel.h"

#include <QList>
#include <QWidget>

class QBarSet;
class QChart;
class QChartView;
class QLabel;

namespace cnready {
struct Assessment;
struct Context;
struct ProjectResult;
} // namespace cnready

namespace cnready::ui {

class CostChartView : public QWidget {
    Q_OBJECT
public:
    /// Bars drawn at most (the largest bounds); the others are counted under the chart.
    static constexpr int kTopSites = 8; ///< as many as the report's table lists
    /// The spread (largest / smallest bound) above which the axis is logarithmic.
    static constexpr double kLogSpread = 100.0;

    explicit CostChartView(QWidget* parent = nullptr);

    /// The site costs the report's "Where the time would go" table lists for this project and
    /// assessment (report/Report.h siteCosts(): test modules left out), largest first.
    static QList<cost::SiteCost> siteCostsOf(const ProjectResult& project,
                                             const Assessment& assessment);

    /// Shows `costs` (as siteCostsOf() orders them) for the target of `context`, then emits
    /// costsChanged(costs).
    void setCosts(const QList<cost::SiteCost>& costs, const Context& context);
    /// Computes siteCostsOf(project, assessment) on a worker thread (a large project's tens of
    /// thousands of findings would hold the GUI thread up) and shows the result with
    /// setCosts(); a result for an older call is dropped.
    void follow(const ProjectResult& project, const Assessment& assessment);

    /// For each path, its shortest end (the file name, then its parent folders) that no other
    /// path of the list ends with: `analysis/spectral.py` and `algorithms/spectral.py` keep
    /// their folder, a lone `utils.py` stays `utils.py`. The bars' labels name their files so.
    static QStringList distinctNames(const QStringList& paths);

    /// For tests and tooltips: the bars, largest first.
    int barCount() const { return int(m_shown.size()); }
    /// What bar `i` is drawn at, seconds: what its site is ranked by (SiteCost::rankSeconds:
    /// the bound, or 65,536 passes of an element loop over data, said in its label).
    double barSeconds(int i) const { return m_shown.at(i).rankSeconds; }
    QString barLabel(int i) const;
    /// The tooltip of bar `i`: its site, code, bound and dominating assumption (HTML).
    QString barToolTip(int i) const;
    bool isLogScale() const { return m_log; }
    /// The sites without a bar because their size is unknown, "path:line code".
    QStringList unknownSites() const { return m_unknown; }
    /// The line above the chart: the target and that the bars are bounds.
    QString caption() const;
    /// What the labels' marks mean ("/step", "/pass", "×65,536", "conv.", ...): the caption's
    /// tooltip.
    QString glossary() const;
    QChart* chart() const { return m_chart; }

signals:
    /// The costs on display changed (for the findings table's Cost bound column).
    void costsChanged(const QList<cost::SiteCost>& costs);

protected:
    void changeEvent(QEvent* e) override;

private:
    void rebuild();
    /// Places the plot area right of the widest site label and above the value axis's labels
    /// and title (on every resize of the chart).
    void layOutPlot();
    void hoverBar(bool on, int index);

    QChart* m_chart = nullptr;
    QChartView* m_view = nullptr;
    QLabel* m_caption = nullptr;
    QLabel* m_footer = nullptr;
    QList<cost::SiteCost> m_shown; ///< largest first
    QStringList m_names;           ///< m_shown's paths, shortened to what tells them apart
    QStringList m_unknown;
    int m_more = 0; ///< known sites beyond kTopSites
    bool m_log = false;
    int m_labelWidth = 0;  ///< the widest site label, pixels
    int m_lineHeight = 12; ///< a label's line height, pixels
    bool m_laying = false; ///< layOutPlot() is running
    cost::Inputs m_inputs;
    int m_generation = 0; ///< follow() calls so far: a worker's result for an older one is stale
};

} // namespace cnready::ui
