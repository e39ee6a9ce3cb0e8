"""A small SVG canvas shared by the board pictures.

Every picture is a flat list of shapes with inline attributes, so a string builder is all
it takes; escaping lives in exactly two places (``_attrs`` and ``text``) so no view value
can break the markup. The canvas grows to fit what was drawn, which lets each board lay
out as many seats, cards or rounds as its view holds without computing the height first.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from xml.sax.saxutils import escape, quoteattr

WIDTH = 720
MARGIN = 8
FONT = "DejaVu Sans, Verdana, Arial, sans-serif"

# Colours shared by every board.
INK = "#263238"
MUTED = "#78909c"
PAPER = "#fafafa"
PANEL = "#eceff1"
HIGHLIGHT = "#ff9800"
BACK = "#37474f"
BACK_PATTERN = "#546e7a"

AttrValue = str | int | float | None


def _number(value: float) -> str:
    """Short coordinates: the pictures are drawn in whole or half pixels."""
    return f"{value:.1f}".rstrip("0").rstrip(".") if isinstance(value, float) else str(value)


def _attrs(attrs: dict[str, AttrValue]) -> str:
    parts = []
    for key, value in attrs.items():
        if value is None:
            continue
        name = key.rstrip("_").replace("_", "-")  # class_ -> class, font_size -> font-size
        shown = _number(value) if isinstance(value, (int, float)) else value
        parts.append(f" {name}={quoteattr(shown)}")
    return "".join(parts)


class Canvas:
    """Collects SVG elements; ``render`` wraps them in a self-contained ``<svg>``."""

    def __init__(self, kind: str, title: str, width: int = WIDTH) -> None:
        self.kind = kind
        self.title = title
        self.width = width
        self.bottom = 0.0
        self._parts: list[str] = []

    def _grow(self, y: float) -> None:
        self.bottom = max(self.bottom, y)

    def rect(self, x: float, y: float, w: float, h: float, **attrs: AttrValue) -> None:
        self._grow(y + h)
        self._parts.append(f"<rect{_attrs({'x': x, 'y': y, 'width': w, 'height': h, **attrs})}/>")

    def circle(self, cx: float, cy: float, r: float, **attrs: AttrValue) -> None:
        self._grow(cy + r)
        self._parts.append(f"<circle{_attrs({'cx': cx, 'cy': cy, 'r': r, **attrs})}/>")

    def line(self, x1: float, y1: float, x2: float, y2: float, **attrs: AttrValue) -> None:
        self._grow(max(y1, y2))
        self._parts.append(f"<line{_attrs({'x1': x1, 'y1': y1, 'x2': x2, 'y2': y2, **attrs})}/>")

    def polygon(self, points: Sequence[tuple[float, float]], **attrs: AttrValue) -> None:
        self._grow(max(y for _, y in points))
        shown = " ".join(f"{_number(x)},{_number(y)}" for x, y in points)
        self._parts.append(f"<polygon{_attrs({'points': shown, **attrs})}/>")

    def text(self, x: float, y: float, content: object, size: float = 12, **attrs: AttrValue) -> None:
        """Text with its baseline at ``y``; ``content`` is escaped."""
        self._grow(y + size * 0.3)
        defaults: dict[str, AttrValue] = {"font_size": size, "fill": INK}
        self._parts.append(f"<text{_attrs({'x': x, 'y': y, **defaults, **attrs})}>{escape(str(content))}</text>")

    @contextmanager
    def group(self, **attrs: AttrValue) -> Iterator[None]:
        """A ``<g>``: tests and stylesheets find a card or a seat by its class and data."""
        self._parts.append(f"<g{_attrs(attrs)}>")
        yield
        self._parts.append("</g>")

    def render(self) -> str:
        height = int(self.bottom + MARGIN)
        head = _attrs({
            "xmlns": "http://www.w3.org/2000/svg", "width": self.width, "height": height,
            "viewBox": f"0 0 {self.width} {height}", "class": f"board {self.kind}",
            "font-family": FONT, "role": "img",
        })
        return (f"<svg{head}><title>{escape(self.title)}</title>"
                f"<rect x=\"0\" y=\"0\" width=\"{self.width}\" height=\"{height}\" fill=\"{PAPER}\"/>"
                + "".join(self._parts) + "</svg>")


def card_back(canvas: Canvas, x: float, y: float, w: float, h: float, **data: AttrValue) -> None:
    """A face-down card: the same back for every game, so hidden reads as hidden."""
    with canvas.group(class_="card back", **data):
        canvas.rect(x, y, w, h, rx=4, fill=BACK, stroke=INK, stroke_width=1)
        canvas.rect(x + 3, y + 3, w - 6, h - 6, rx=3, fill="none", stroke=BACK_PATTERN, stroke_width=1.5)
        canvas.line(x + 3, y + 3, x + w - 3, y + h - 3, stroke=BACK_PATTERN, stroke_width=1)
        canvas.line(x + w - 3, y + 3, x + 3, y + h - 3, stroke=BACK_PATTERN, stroke_width=1)


def empty_slot(canvas: Canvas, x: float, y: float, w: float, h: float, **data: AttrValue) -> None:
    """A place that holds no card (a cleared Skyjo position, an empty display slot)."""
    with canvas.group(class_="slot empty", **data):
        canvas.rect(x, y, w, h, rx=4, fill="none", stroke=MUTED, stroke_width=1, stroke_dasharray="4 3")


def whose(seat: int | None, names: tuple[str, ...] = ()) -> str:
    """Whose view a picture shows, for its title: a seat (by its role where the game names
    roles) or the spectator."""
    if seat is None:
        return "spectator"
    return f"{names[seat]}'s view" if seat < len(names) else f"seat {seat}'s view"


def heading(canvas: Canvas, y: float, title: str, detail: str = "") -> float:
    """The picture's title line and one line of facts; returns the y below it."""
    canvas.text(MARGIN, y + 16, title, size=16, font_weight="bold")
    if detail:
        canvas.text(MARGIN, y + 34, detail, size=12, fill=MUTED)
        return y + 42
    return y + 24


def label(canvas: Canvas, x: float, y: float, content: object, size: float = 11, **attrs: AttrValue) -> None:
    """Secondary text (muted)."""
    canvas.text(x, y, content, size=size, fill=attrs.pop("fill", MUTED), **attrs)


def fit(content: object, limit: int) -> str:
    """Text cut to ``limit`` characters with an ellipsis, so long names stay inside their box."""
    text = str(content)
    return text if len(text) <= limit else text[: max(limit - 1, 1)] + "…"


def name_and_facts(canvas: Canvas, x: float, y: float, name: str, facts: str, width: float) -> None:
    """A bold name followed by muted facts, cut to fit ``width`` pixels (about 6.5 a character)."""
    canvas.text(x, y, name, size=12, font_weight="bold")
    start = x + 8 + 7.5 * len(name)
    label(canvas, start, y, fit(facts, max(int((x + width - start) / 6.2), 4)))
