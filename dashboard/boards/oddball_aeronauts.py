"""Oddball Äeronauts: both decks and the cards Played.

Each seat's panel shows its faction, its face-up run and its face-down (Discarded) pile.
In a seat's own view its face-up cards are drawn face up, the top three (the ones it may
Play) as full cards with their skill levels, bonuses and trick; its Discarded cards it has
seen are listed, the three it never saw are backs. Everyone else's cards are backs with
their counts. Below, the round being resolved (or the last one): each seat's skill, the
cards it Played, its trick, its Skill Total, and who won.
"""

from __future__ import annotations

from typing import Any

from referee.games.oddball_aeronauts.cards import CARDS, SKILL_TITLES, SKILLS, Card

from .svg import HIGHLIGHT, INK, MARGIN, MUTED, PANEL, WIDTH, Canvas, card_back, fit, heading, label, whose

FACTION_COLOURS = {"pendragon": "#1565c0", "pirates": "#b71c1c"}
OTHER_FACTION = "#546e7a"
SKILL_COLOURS = {"sailing": "#0288d1", "guns": "#d32f2f", "boarding": "#388e3c"}
EVENT_FILL = "#f3e5f5"
CARD_FILL = "#fffde7"
HALF = (WIDTH - 2 * MARGIN) // 2
CARD_W = 110
NAME_CHARS, TEXT_CHARS = 16, 22   # what fits a card's width in bold 9.5 px and plain 8 px DejaVu Sans
NAME_LINE, TEXT_LINE = 11, 10
SKILL_BAR = 18
CHIP_W, CHIP_H = 110, 15
CHIP_CHARS = 25                   # the longest card name, in 7.5 px
CHIPS_PER_ROW = 3
PLAYABLE = 3


def _wrap(text: str, width: int) -> list[str]:
    """Greedy word wrap into lines of about ``width`` characters: every word is kept."""
    out: list[str] = []
    current = ""
    for word in text.split():
        if current and len(current) + 1 + len(word) > width:
            out.append(current)
            current = word
        else:
            current = f"{current} {word}".strip()
    if current:
        out.append(current)
    return out


def _card_text(card: Card) -> tuple[list[str], list[str], list[str]]:
    """A card's name, its type line and its trick (or an Event's effect), wrapped whole: a card is read
    in full, never cut."""
    kind = f"{card.type} · level {card.level}" + (" · shadow" if card.shadow else "")
    return (_wrap(card.name, NAME_CHARS), _wrap(kind, TEXT_CHARS),
            _wrap(card.trick.text if card.trick else card.text, TEXT_CHARS))


def _card_height(card: Card) -> int:
    name, kind, body = _card_text(card)
    skills = 0 if card.is_event else SKILL_BAR
    return 6 + NAME_LINE * len(name) + TEXT_LINE * len(kind) + skills + TEXT_LINE * len(body) + 6


CARD_H = max(_card_height(card) for card in CARDS.values())  # one height for all: a row of cards lines up


def draw_card(canvas: Canvas, x: float, y: float, card_id: str, **data: Any) -> None:
    """A card face: name, skill levels with bonuses, trick (or the Event's effect), all of it."""
    card: Card | None = CARDS.get(card_id)
    with canvas.group(class_="card face", data_card=card_id, **data):
        canvas.rect(x, y, CARD_W, CARD_H, rx=4, fill=EVENT_FILL if card and card.is_event else CARD_FILL,
                    stroke=INK, stroke_width=1)
        if card is None:
            canvas.text(x + 4, y + 14, fit(card_id, 18), size=10)
            return
        name, kind, body = _card_text(card)
        line_y = y + 4
        for words in name:
            line_y += NAME_LINE
            canvas.text(x + 4, line_y, words, size=9.5, font_weight="bold")
        for words in kind:
            line_y += TEXT_LINE
            label(canvas, x + 4, line_y, words, size=8)
        if not card.is_event:
            for i, skill in enumerate(SKILLS):
                canvas.rect(x + 4 + i * 35, line_y + 4, 32, 14, rx=3, fill=SKILL_COLOURS[skill])
                bonus = f"+{card.bonuses[i]}" if card.bonuses[i] else ""
                canvas.text(x + 20 + i * 35, line_y + 15, f"{card.levels[i]}{bonus}", size=9, fill="#ffffff",
                            text_anchor="middle")
            line_y += SKILL_BAR
        for words in body:
            line_y += TEXT_LINE
            canvas.text(x + 4, line_y, words, size=8)


def _chip(canvas: Canvas, x: float, y: float, card_id: str | None, **data: Any) -> None:
    """A card in a list: its name, or a back for a card its owner has not seen."""
    if card_id is None:
        card_back(canvas, x, y, CHIP_W, CHIP_H, **data)
        return
    card = CARDS.get(card_id)
    with canvas.group(class_="card chip", data_card=card_id, **data):
        canvas.rect(x, y, CHIP_W, CHIP_H, rx=3, fill=EVENT_FILL if card and card.is_event else CARD_FILL,
                    stroke=MUTED, stroke_width=1)
        canvas.text(x + 3, y + 11, fit(card.name if card else card_id, CHIP_CHARS), size=7.5)


def _chips(canvas: Canvas, x: float, y: float, cards: list[str | None], seat: int, pile: str) -> float:
    for i, card_id in enumerate(cards):
        _chip(canvas, x + (i % CHIPS_PER_ROW) * (CHIP_W + 3), y + (i // CHIPS_PER_ROW) * (CHIP_H + 3), card_id,
              data_seat=seat, data_pile=pile, data_index=i)
    return y + ((len(cards) + CHIPS_PER_ROW - 1) // CHIPS_PER_ROW) * (CHIP_H + 3)


def _stack(canvas: Canvas, x: float, y: float, count: int, what: str, seat: int) -> None:
    """A pile seen from outside: a back with its count."""
    label(canvas, x, y + 10, f"{what}: {count}")
    if count:
        for offset in range(min(count, 3)):
            card_back(canvas, x + offset * 4, y + 16 + offset * 2, 60, 40, data_seat=seat, data_pile=what)


def _seat_panel(canvas: Canvas, x: float, y: float, view: dict[str, Any], s: int, seat: int | None) -> float:
    faction = view["factions"][s]
    colour = FACTION_COLOURS.get(faction, OTHER_FACTION)
    deck = view["decks"][s]
    top = y
    lead = " · Lead" if view.get("lead") == s else ""
    you = " (you)" if seat == s else ""
    canvas.text(x + 6, y + 16, f"Seat {s}{you}: {faction.title()}{lead}", size=13, font_weight="bold", fill=colour)
    facts = [f"{deck['face_up']} face up", f"{deck['face_down']} face down"]
    skill = (view.get("skills") or [None, None])[s]
    if skill:
        facts.append(f"announced {skill}")
    limit = (view.get("limits") or [None, None])[s]
    if limit is not None:
        facts.append(f"may Play {limit}")
    count = (view.get("counts") or [None, None])[s]
    if count is not None:
        facts.append(f"shows {count}")
    for words in _wrap(" · ".join(facts), 54):
        label(canvas, x + 6, y + 30, words)
        y += 13
    y += 23
    hand = view.get("hand") if seat == s else None
    if hand is not None:
        up = list(hand["up"])
        for i, card_id in enumerate(up[:PLAYABLE]):
            draw_card(canvas, x + 6 + i * (CARD_W + 4), y, card_id, data_seat=s, data_pile="up", data_index=i)
        y += CARD_H + 6
        if len(up) > PLAYABLE:
            label(canvas, x + 6, y + 9, "the rest of the face-up run")
            y = _chips(canvas, x + 6, y + 13, up[PLAYABLE:], s, "up-rest") + 4
        label(canvas, x + 6, y + 9, f"Discarded (next to Recover first): {len(hand['down'])}")
        y = _chips(canvas, x + 6, y + 13, list(hand["down"]), s, "down") + 4
    else:
        _stack(canvas, x + 6, y, deck["face_up"], "face up", s)
        _stack(canvas, x + 120, y, deck["face_down"], "face down", s)
        y += 66
    announced = (view.get("announced") or [None, None])[s]
    extras = [f"announced trick: {announced}"] if announced else []
    extras += [f"holds {CARDS[e['event']].name if e['event'] in CARDS else e['event']}"
              for e in deck.get("held") or []]
    extras += [f"next round: {t.get('top_right') or t.get('card')}" for t in deck.get("next_round") or []]
    for words in (words for extra in extras for words in _wrap(extra, 54)):
        canvas.text(x + 6, y + 11, words, size=10, fill=HIGHLIGHT)
        y += 13
    canvas.rect(x, top, HALF - 6, y - top + 4, rx=6, fill="none", stroke=colour, stroke_width=1.5,
                class_="seat", data_seat=s)
    return y + 8


def _round(canvas: Canvas, y: float, view: dict[str, Any]) -> float:
    """The round being resolved (``reveal``) or, before that, the last round."""
    shown = view.get("reveal") or view.get("last_round")
    if not shown:
        return y
    title = "This round, revealed" if view.get("reveal") else f"Round {shown.get('round', '?')}, the last one"
    winner = shown.get("winner")
    outcome = "a draw" if winner is None else f"seat {winner} won"
    canvas.rect(MARGIN, y, WIDTH - 2 * MARGIN, 22, rx=4, fill=PANEL)
    canvas.text(MARGIN + 6, y + 15, f"{title}: {outcome}", size=12, font_weight="bold")
    y += 28
    bottom = y
    for s in range(len(shown.get("played") or [])):
        x = MARGIN + s * HALF
        skill = (shown.get("skills") or [None, None])[s]
        total = (shown.get("totals") or [None, None])[s]
        colour = SKILL_COLOURS.get(skill or "", MUTED)
        canvas.text(x + 6, y + 12, f"Seat {s}: {SKILL_TITLES[SKILLS.index(skill)] if skill in SKILLS else '—'}"
                    f", total {total}", size=12, font_weight="bold", fill=colour)
        played = shown["played"][s]
        for i, card_id in enumerate(played):
            draw_card(canvas, x + 6 + i * (CARD_W + 4), y + 18, card_id, data_seat=s, data_pile="played")
        cy = y + 18 + (CARD_H + 6 if played else 14)
        if not played:
            label(canvas, x + 6, y + 30, "played no card")
        trick = (shown.get("tricks") or [None, None])[s]
        if trick:
            blocked = " (blocked)" if trick.get("blocked") else ""
            lines = _wrap(f"trick: {trick['text']}{blocked}", 56)
            for line, words in enumerate(lines):
                canvas.text(x + 6, cy + 10 + line * 12, words, size=10)
            cy += 12 * len(lines) + 2
        bottom = max(bottom, cy)
    y = bottom + 4
    for event in shown.get("events") or []:
        name = CARDS[event["event"]].name if event["event"] in CARDS else event["event"]
        detail = event.get("why") or event.get("compare") or ""
        for words in _wrap(f"event {name} (seat {event['seat']}): {event['result']} {detail}", 110):
            label(canvas, MARGIN + 6, y + 11, words)
            y += 14
    return y


def render(view: dict[str, Any], seat: int | None) -> str:
    title = f"Oddball Äeronauts, round {view['round']}"
    canvas = Canvas("oddball-aeronauts", title)
    movers = ", ".join(str(s) for s in view.get("to_move") or []) or "nobody"
    facts = [f"phase {view['phase']}", f"to move: {movers}", f"events in the box: {view.get('box', 0)}",
             "skills: level+bonus, Sailing / Guns / Boarding"]
    result = view.get("result")
    if result:
        facts.append(f"over: {result.get('reason')}")
    y = heading(canvas, 0, f"{title} — {whose(seat)}", " · ".join(facts))
    bottom = y
    for s in range(len(view["factions"])):
        bottom = max(bottom, _seat_panel(canvas, MARGIN + s * HALF, y, view, s, seat))
    _round(canvas, bottom, view)
    return canvas.render()
