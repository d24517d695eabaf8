"""Drawing positions for people: boards as SVG, one renderer shared by the CLI (``--svg``) and the web page.

Rendering only reads the library's values (:class:`~oxo.position.Position`,
:class:`~oxo.mega.rules.MegaState`, :class:`~oxo.counting.CountTable`); it decides nothing about the game.
"""

from oxo.render.svg import classic_svg, count_chart_svg, mega_svg

__all__ = ["classic_svg", "count_chart_svg", "mega_svg"]
