"""The current point, on the right: its title, the per-fabric table, the step time and the cost
(as tabs) and the recommendation. It scrolls rather than make the window taller than a 768-pixel
laptop screen."""

from __future__ import annotations

import html

from PySide6 import QtCore, QtWidgets

from gui.charts.breakdown import BreakdownChart
from gui.panels.controls import GroupBox
from gui.charts.cost import CostChart
from gui.present.series import fabric_styles
from gui.i18n import translate
from gui.i18n_data import tr_data
from gui.present.article import OPEN_AUDIT, banner_text
from gui.present.plausibility import point_stalls
from gui.panels.point_table import PointTable
from gui.panels.recommendation import RecommendationPanel, preset_name_for
from gui.panels.richtext import RichText
from gui.panels import control_texts
PANEL_MIN_WIDTH = 420
NO_BREAK = "\u2060"  # WORD JOINER: no line break here (zero width)  # the table's columns at the default font [px]


class PointPanel(QtWidgets.QScrollArea):
    """``table``, ``breakdown``, ``cost_chart``, ``recommendation``: the views of the current point;
    ``run_chart``, the same cluster's TCO along the x-axis, in a tab beside the cost (the cost per run, money for
    the same work, is the third chart of the window)."""

    def __init__(self, texts, run_chart, parent=None):
        super().__init__(parent)
        self.setObjectName("pointPanel")
        right = QtWidgets.QWidget()
        right.setMinimumWidth(PANEL_MIN_WIDTH)
        rl = QtWidgets.QVBoxLayout(right)
        rl.setContentsMargins(6, 6, 6, 6)
        self.point_title = RichText()  # new numbers on every slider move: cheaper than a rich-text QLabel
        rl.addWidget(self.point_title)
        # on an article preset: where the physics departs from the article's outcome, and a link to the audit
        self.article_banner = QtWidgets.QLabel()
        self.article_banner.setObjectName("articleBanner")
        self.article_banner.setWordWrap(True)
        self.article_banner.setStyleSheet("background:#fff4e0; color:#5a3a00; padding:3px; font-size:8pt")
        self.article_banner.linkActivated.connect(self.open_audit)
        self.article_banner.hide()
        rl.addWidget(self.article_banner)
        self.table = PointTable()
        rl.addWidget(self.table)
        self.breakdown = BreakdownChart()
        self.breakdown.setMinimumHeight(200)
        step_tab = QtWidgets.QWidget()  # the step time and the cost at this point share one place, as tabs
        sl = QtWidgets.QVBoxLayout(step_tab)
        sl.setContentsMargins(0, 0, 0, 0)
        sl.addWidget(self.breakdown, 1)
        self.breakdown_legend = QtWidgets.QLabel()
        texts.bind(self.breakdown_legend.setText, BreakdownChart.legend_html)
        self.breakdown_legend.setWordWrap(True)
        self.breakdown_legend.setStyleSheet("font-size:8pt")
        sl.addWidget(self.breakdown_legend)
        self.cost_chart = CostChart()
        self.cost_chart.setObjectName("costChart")
        self.point_tabs = QtWidgets.QTabWidget()
        self.point_tabs.setObjectName("pointTabs")
        self.point_tabs.addTab(step_tab, "")
        self.point_tabs.addTab(self.cost_chart, "")
        self.run_chart = run_chart
        self.point_tabs.addTab(run_chart, "")
        texts.bind(lambda t: self.point_tabs.setTabText(0, t), lambda: translate("MainWindow", "Step time"))
        texts.bind(lambda t: self.point_tabs.setTabText(1, t), lambda: translate("MainWindow", "Cost"))
        texts.bind(lambda t: self.point_tabs.setTabText(2, t), lambda: translate("MainWindow", "TCO, same cluster (sweep)"))
        rl.addWidget(self.point_tabs, 2)
        rec_box = GroupBox("")
        texts.bind(rec_box.setTitle, lambda: translate("MainWindow", "Recommendation"))
        self.recommendation = RecommendationPanel()
        rec_box.add(self.recommendation)
        rl.addWidget(rec_box, 3)
        self.setWidget(right)
        self.setWidgetResizable(True)
        self.setFrameShape(QtWidgets.QFrame.Shape.NoFrame)
        self.setHorizontalScrollBarPolicy(QtCore.Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        bar = self.verticalScrollBar().sizeHint().width()
        self.setMinimumWidth(right.minimumWidth())  # the window's minimum width stays what it was
        right.setMinimumWidth(right.minimumWidth() - bar)

    def show_view(self, view, source_path: str | None, live: bool) -> None:
        """Draw ``view`` (a :class:`gui.present.view.SnapshotView`): its point, against its TCO baseline."""
        snap, focus = view.snapshot, view.focus
        self.table.show_point(snap.point, focus, live)
        self.breakdown.show_point(snap.point, focus, live)
        self.cost_chart.show_point(snap.point, view.baseline)
        self.recommendation.show_snapshot(snap, preset_name_for(source_path), live=live)
        text = control_texts.point_title(snap.scenario)
        if self.point_title.text() != text:
            self.point_title.setText(text)
        self._show_banner(snap, preset_name_for(source_path))

    def _show_banner(self, snap, preset: str | None) -> None:
        point = snap.point
        labels = {f: st.get("short", f) for f, st in zip(point.fabrics, fabric_styles(point))}
        line = banner_text(preset, point, labels, point_stalls(point), article_tr=tr_data)
        # the link on one line: never "打开核 / 对表" broken inside its words (a word joiner between its letters)
        link = html.escape(NO_BREAK.join(translate("ArticleBanner", OPEN_AUDIT)))
        html_text = html.escape(line) + f" <a href='#audit'>{link}</a>" if line else ""
        if self.article_banner.text() != html_text:
            self.article_banner.setText(html_text)
        self.article_banner.setVisible(bool(line))

    def open_audit(self, *_):
        """The article audit (the claims table beside the engine's figures), shown and scrolled to."""
        self.recommendation.audit_check.setChecked(True)
        QtCore.QTimer.singleShot(0, self, lambda: self.ensureWidgetVisible(self.recommendation.claims_title, 0, 0))

    def retranslate(self) -> None:
        """The views' own fixed texts in the current language; the next :meth:`show_snapshot` redraws the rest."""
        for view in (self.table, self.breakdown, self.cost_chart, self.recommendation):
            view.retranslate()


__all__ = ["PointPanel"]
