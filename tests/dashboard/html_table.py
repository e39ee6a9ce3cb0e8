"""Read the dashboard's text tables (``widgets.text_table``) back as rows, as a page's reader would."""

from __future__ import annotations

from html.parser import HTMLParser
from typing import Any

HREF = "@href"  # a linked cell's address is under "<column>@href"


class _Tables(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tables: list[list[list[tuple[str, str | None]]]] = []
        self._cell: list[str] | None = None
        self._href: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "table":
            self.tables.append([])
        elif tag == "tr":
            self.tables[-1].append([])
        elif tag in ("td", "th"):
            self._cell, self._href = [], None
        elif tag == "a" and self._cell is not None:
            self._href = dict(attrs).get("href")

    def handle_endtag(self, tag: str) -> None:
        if tag in ("td", "th") and self._cell is not None:
            self.tables[-1][-1].append(("".join(self._cell).strip(), self._href))
            self._cell = None

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell.append(data)


def read_tables(html: str) -> list[list[dict[str, str]]]:
    """Every table in ``html`` as rows of {column: cell text} (and {column@href: address} for links);
    a drawn cell (a sparkline) reads as its title."""
    parser = _Tables()
    parser.feed(html)
    found = []
    for rows in parser.tables:
        head = [text for text, _ in rows[0]]
        body = []
        for row in rows[1:]:
            cells: dict[str, str] = {}
            for column, (text, href) in zip(head, row):
                cells[column] = text
                if href is not None:
                    cells[column + HREF] = href
            body.append(cells)
        found.append(body)
    return found


def page_tables(app: Any) -> list[list[dict[str, str]]]:
    """The text tables an AppTest page drew, in order."""
    return [table for m in app.markdown if "<table" in m.value for table in read_tables(m.value)]


def column(rows: list[dict[str, str]], name: str) -> list[str]:
    return [row[name] for row in rows]


def header(app: Any, index: int = 0) -> list[str]:
    """The column names of the page's ``index``-th text table."""
    tables = [m.value for m in app.markdown if "<table" in m.value]
    parser = _Tables()
    parser.feed(tables[index])
    return [text for text, _ in parser.tables[0][0]]
