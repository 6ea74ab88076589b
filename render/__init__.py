"""Map images: an encounter (plus a threat overlay or a ruling) drawn as a PNG with Pillow.

Pure functions only (no I/O outside `render.cli`, no Discord): callers in the bot run `draw` in a
worker thread. Depends only on `rules`.
"""

from render.draw import Region, Rendered, draw, plan, render
from render.geometry import Layout, hex_centre, square_centre
from render.scene import Marker, ap_boundaries, initials, reaction_markers, threat_overlay

__all__ = [
    "Layout",
    "Marker",
    "Region",
    "Rendered",
    "ap_boundaries",
    "draw",
    "hex_centre",
    "initials",
    "plan",
    "reaction_markers",
    "render",
    "square_centre",
    "threat_overlay",
]
