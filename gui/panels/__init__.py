"""The panels beside the charts: sliders bound from field metadata (:mod:`.controls`, :mod:`.controls_panel`)
and their texts, the point table, the step and cost panel (:mod:`.point_panel`) and the recommendation."""
