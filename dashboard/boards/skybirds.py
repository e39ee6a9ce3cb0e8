"""Skybirds: every seat's hand, the dogfight on the table and each Aerodrome.

The viewing seat's hand is face up; other hands are card backs, except the cards the
viewer knows a seat holds (handed over in a trade, Garros with the seat dealt him), which
are drawn face up in front of that seat's backs. The dogfight shows the squadron to beat
as cards and tokens and the plays so far. Each Aerodrome lists its eleven tokens: in
reserve face up (gold), flipped (pale, worth less) or still on the mat (outline).
"""

from __future__ import annotations

from typing import Any

from referee.games.skybirds.data import AERODROME, MEDALS, TOKEN_NAMES

from .svg import HIGHLIGHT, INK, MARGIN, MUTED, PANEL, WIDTH, Canvas, card_back, fit, heading, label, whose

CARD_W, CARD_H, GAP = 30, 42, 3
TOKEN_W, TOKEN_H = 30, 20
SEAT_ROW = 50
HAND_X = 170         # a hand's cards start right of the seat's name, score and counts (16 cards fit)

# Card fill by value (index 0 = Roland Garros): cool for low aces, warm for high ones.
CARD_FILLS: tuple[str, ...] = (
    "#c62828", "#e3f2fd", "#bbdefb", "#90caf9", "#c8e6c9", "#a5d6a7",
    "#fff59d", "#ffe082", "#ffcc80", "#ffab91", "#ef9a9a",
)
GARROS_INK = "#ffffff"
MEDAL = "#ffb300"
WILD = "#ce93d8"
TOKEN_FILLS = {"up": "#ffd54f", "flipped": "#fff8e1", "mat": "none"}
TOKEN_VP = {t.name: (t.vp_front, t.vp_back) for t in AERODROME}
# One colour per seat (up to four), on its hand, its plays, its Aerodrome and its score.
SEAT_COLOURS = ("#1e88e5", "#e53935", "#43a047", "#8e24aa")
DOGFIGHT_FILL = "#e8eaf6"


def seat_colour(seat: int) -> str:
    return SEAT_COLOURS[seat % len(SEAT_COLOURS)]


def _score(view: dict[str, Any], seat: int) -> str:
    aerodrome = view["aerodromes"][seat]
    return f"{aerodrome['vp']:g} VP"


def draw_card(canvas: Canvas, x: float, y: float, value: int, *, wild_as: int | None = None,
              known: bool = False, **data: Any) -> None:
    """A card face: ``G`` for Garros, a gold dot for a printed medallion, violet if wild."""
    fill = WILD if wild_as is not None else CARD_FILLS[value]
    kind = "card face known" if known else "card face"
    with canvas.group(class_=kind, data_value=value, **data):
        canvas.rect(x, y, CARD_W, CARD_H, rx=3, fill=fill, stroke=HIGHLIGHT if known else INK,
                    stroke_width=2 if known else 1)
        shown = "G" if value == 0 else str(value)
        ink = GARROS_INK if value == 0 and wild_as is None else INK
        canvas.text(x + CARD_W / 2, y + 18, shown, size=13, font_weight="bold", fill=ink, text_anchor="middle")
        if wild_as is not None:
            canvas.text(x + CARD_W / 2, y + 34, f"as {wild_as}", size=9, text_anchor="middle")
        elif MEDALS[value]:
            canvas.circle(x + CARD_W / 2, y + 31, 5, fill=MEDAL, stroke=INK, stroke_width=0.5, class_="medallion")


def draw_token(canvas: Canvas, x: float, y: float, name: str, state: str, **data: Any) -> None:
    with canvas.group(class_=f"token {state}", data_token=name, **data):
        canvas.rect(x, y, TOKEN_W, TOKEN_H, rx=9, fill=TOKEN_FILLS[state], stroke=MUTED if state == "mat" else INK,
                    stroke_width=1, stroke_dasharray="3 2" if state == "mat" else None)
        canvas.text(x + TOKEN_W / 2, y + 14, name + ("'" if state == "flipped" else ""), size=10,
                    fill=MUTED if state == "mat" else INK, text_anchor="middle")


def _squadron(canvas: Canvas, x: float, y: float, action: str) -> None:
    """A squadron's notation (``5 5 *7 A3 =5``) drawn as its cards and tokens."""
    words = action.split()
    declared = next((int(w[1:]) for w in words if w.startswith("=")), None)
    for word in words:
        if word.startswith("="):
            continue
        if word in TOKEN_NAMES:
            draw_token(canvas, x, y + (CARD_H - TOKEN_H) / 2, word, "up")
            x += TOKEN_W + GAP
            continue
        if word == "*":
            card_back(canvas, x, y, CARD_W, CARD_H, data_wild="unchosen")
        elif word.startswith("*"):
            draw_card(canvas, x, y, int(word[1:]), wild_as=declared)
        else:
            draw_card(canvas, x, y, 0 if word == "G" else int(word))
        x += CARD_W + GAP


def _hands(canvas: Canvas, y: float, view: dict[str, Any], seat: int | None) -> float:
    known = view.get("known_cards") or [[] for _ in view["hand_sizes"]]
    finished = view.get("finished") or []
    for s, size in enumerate(view["hand_sizes"]):
        moving = s in view["to_move"]
        colour = seat_colour(s)
        canvas.rect(MARGIN, y, WIDTH - 2 * MARGIN, SEAT_ROW - 4, rx=5, fill=PANEL,
                    stroke=HIGHLIGHT if moving else "none", stroke_width=2.5, class_="seat", data_seat=s)
        canvas.rect(MARGIN, y, 6, SEAT_ROW - 4, rx=3, fill=colour)
        tags = [f"{size} card" if size == 1 else f"{size} cards"]
        if s == view.get("garros_dealt_to"):
            tags.append("dealt Garros")
        if s in finished:
            tags.append(f"out #{finished.index(s) + 1}")
        name = f"Seat {s}" + (" (you)" if s == seat else "")
        canvas.text(MARGIN + 12, y + 18, name, size=12, font_weight="bold", fill=colour)
        canvas.text(MARGIN + HAND_X - 8, y + 18, _score(view, s), size=12, font_weight="bold", fill=colour,
                    text_anchor="end", class_="score", data_seat=s)
        label(canvas, MARGIN + 12, y + 34, fit(" · ".join(tags), 27), size=10)
        x = MARGIN + HAND_X
        if s == seat and "hand" in view:
            for i, value in enumerate(view["hand"]):
                draw_card(canvas, x + i * (CARD_W + GAP), y + 2, value, data_seat=s, data_card=i)
        else:
            shown = list(known[s])[:size]
            for i, value in enumerate(shown):
                draw_card(canvas, x + i * (CARD_W + GAP), y + 2, value, known=True, data_seat=s, data_card=i)
            for i in range(len(shown), size):
                card_back(canvas, x + i * (CARD_W + GAP), y + 2, CARD_W, CARD_H, data_seat=s, data_card=i)
        y += SEAT_ROW
    return y


def _dogfight(canvas: Canvas, y: float, view: dict[str, Any]) -> float:
    fight = view["dogfight"]
    height = 132
    canvas.rect(MARGIN, y, WIDTH - 2 * MARGIN, height, rx=6, fill=DOGFIGHT_FILL, class_="dogfight")
    size = f"squadron size {fight['size']}" if fight["size"] else "no lead yet"
    canvas.text(MARGIN + 8, y + 16, f"Dogfight — led by seat {fight['leader']}, {size}", size=12,
                font_weight="bold", fill=seat_colour(fight["leader"]))
    beat = fight.get("to_beat")
    if beat:
        canvas.text(MARGIN + 8, y + 32, f"to beat: seat {beat['seat']}, value {beat['value']}", size=11,
                    font_weight="bold", fill=seat_colour(beat["seat"]))
        _squadron(canvas, MARGIN + 8, y + 38, beat["action"])
        label(canvas, MARGIN + 8, y + 94, f"{beat['medallions']} medallion(s) · {fight['passes']} pass(es) since")
    plays = fight.get("plays") or []
    x = MARGIN + 380
    label(canvas, x, y + 32, "plays")
    for i, (s, action) in enumerate(plays[-5:]):
        canvas.text(x, y + 48 + i * 13, fit(f"seat {s}: {action}", 44), size=11,
                    fill=MUTED if action == "pass" else seat_colour(s))
    if view.get("pending"):
        label(canvas, MARGIN + 200, y + 32, "announced (wild cards next)")
        _squadron(canvas, MARGIN + 200, y + 38, view["pending"])
    notes: list[tuple[str, str]] = []  # (text, colour): what is pending first, then the past
    trade = view.get("trade")
    if trade:
        notes.append((f"trade with {trade['token']}: seat {trade['user']} and seat {trade['target']}, "
                      f"{trade['cards']} card(s) each", HIGHLIGHT))
    if view.get("take_place") is not None:
        notes.append((f"token to take for finishing place {view['take_place']}", HIGHLIGHT))
    if view.get("armistice") is not None:
        notes.append((f"seat {view['armistice']} took the Armistice", HIGHLIGHT))
    previous = view.get("previous_dogfight") or []
    if previous:
        notes.append(("last dogfight: " + "; ".join(f"seat {s} {action}" for s, action in previous), MUTED))
    for i, (note, colour) in enumerate(notes[:2]):
        canvas.text(MARGIN + 8, y + 110 + i * 13, fit(note, 110), size=11, fill=colour)
    return y + height + 6


def _aerodromes(canvas: Canvas, y: float, view: dict[str, Any]) -> float:
    label(canvas, MARGIN, y + 12, "Aerodromes: tokens in reserve (gold face up, pale flipped), +1VP, fraction, VP")
    y += 18
    for s, aerodrome in enumerate(view["aerodromes"]):
        reserve = aerodrome.get("reserve") or {}
        canvas.text(MARGIN, y + 15, f"Seat {s}", size=11, font_weight="bold", fill=seat_colour(s))
        for i, name in enumerate(TOKEN_NAMES):
            draw_token(canvas, MARGIN + 52 + i * (TOKEN_W + 3), y + 2, name, reserve.get(name, "mat"), data_seat=s)
        x = MARGIN + 52 + len(TOKEN_NAMES) * (TOKEN_W + 3) + 8
        fraction = aerodrome.get("fraction") or 0
        canvas.text(x, y + 16, f"+1VP × {aerodrome['plus1']}" + (f" · {fraction:g}" if fraction else ""), size=11)
        canvas.text(WIDTH - MARGIN, y + 16, _score(view, s), size=12, font_weight="bold", fill=seat_colour(s),
                    text_anchor="end")
        y += TOKEN_H + 6
    return y


def _played(canvas: Canvas, y: float, view: dict[str, Any]) -> None:
    """How many of each card were played this campaign: each value in its card's colour, so a
    spectator counts what is still out at a glance."""
    counts = view.get("played") or []
    label(canvas, MARGIN, y + 16, "played this campaign")
    for value, count in enumerate(counts):
        x = MARGIN + 130 + value * 50
        with canvas.group(class_="played", data_value=value):
            canvas.rect(x, y + 3, 20, 18, rx=3, fill=CARD_FILLS[value], stroke=INK, stroke_width=0.5)
            canvas.text(x + 10, y + 16, "G" if value == 0 else value, size=10, font_weight="bold",
                        fill=GARROS_INK if value == 0 else INK, text_anchor="middle")
            canvas.text(x + 24, y + 16, f"× {count}", size=11, fill=MUTED if not count else INK)


def render(view: dict[str, Any], seat: int | None) -> str:
    title = f"Skybirds, campaign {view['campaign']}"
    canvas = Canvas("skybirds", title)
    movers = ", ".join(str(s) for s in view["to_move"]) or "nobody"
    facts = [f"phase {view['phase']}", f"to move: {movers}", f"at most {view['campaign_limit']} campaigns",
             f"{view['box_size']} cards in the box"]
    if view.get("short_war"):
        facts.append("short war")
    y = heading(canvas, 0, f"{title} — {whose(seat)}", " · ".join(facts))
    y = _hands(canvas, y, view, seat)
    y = _dogfight(canvas, y, view)
    y = _aerodromes(canvas, y, view)
    _played(canvas, y, view)
    return canvas.render()
