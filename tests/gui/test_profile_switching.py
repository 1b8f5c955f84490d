"""Switching the profile set in the window is fair: the article's values go with the seed set."""

from __future__ import annotations

from guihelpers import settle

from model import presets


def test_published_set_drops_the_presets_article_values_and_says_what_is_overridden(window):
    assert window.load_preset(presets.preset_path("case2"))
    settle(window)
    assert "(article)" in window.fabric_source.text()
    days_seed = [window.table.cell_text(r, "days") for r in range(window.table.rowCount())]
    window.profile_buttons["published"].click()  # the radio button a user clicks
    settle(window)
    s = window.controller.scenario
    assert s.fabric.profile_set == "published"
    # only the cluster's wiring is kept (NICs per node, link speed); every article figure is gone
    assert {k for _, spec in s.fabric.custom for k, v in vars(spec).items() if v is not None} <= {
        "link_gbps", "nics_per_node"}
    assert "(article)" not in window.fabric_source.text()
    assert [window.table.cell_text(r, "days") for r in range(window.table.rowCount())] != days_seed
    window.controller.set_value("fabric.custom.infiniband.latency_us", 3.0)
    settle(window)
    assert "Latency 3 µs" in window.fabric_source.text()  # the user's own override is named
    window.controller.set_profile_set("seed")
    settle(window)
    assert window.controller.scenario.get("fabric.custom.infiniband.latency_us") == 3.0
    assert window.controller.scenario.get("fabric.custom.infiniband.link_gbps") == 400.0
