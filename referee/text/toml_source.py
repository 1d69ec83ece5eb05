"""TOML data files with errors that point at a line and column.

Data files and rule catalogues are TOML; ``TomlSource`` parses one and builds
errors (of the caller's error class) located at the line where a key path is
written, with the source line and a caret.
"""

from __future__ import annotations

import json
import re
from typing import Any

from referee.base.errors import Position, RefereeError
from referee.store.files import Kind, key_of

_HEADER_RE = re.compile(r"^\s*\[\[?\s*([^\[\]]+?)\s*\]\]?\s*(?:#.*)?$")
_KEY_PART = r"(?:[A-Za-z0-9_-]+|\"[^\"]*\"|'[^']*')"
_KEYLINE_RE = re.compile(r"^\s*(" + _KEY_PART + r"(?:\s*\.\s*" + _KEY_PART + r")*)\s*=")
_KEY_PART_RE = re.compile(_KEY_PART)
_TOML_POS_RE = re.compile(r"\s*\(at line (\d+), column (\d+)\)\s*$")
_TOML_END_RE = re.compile(r"\s*\(at end of document\)\s*$")


#: The parsed TOML texts in the store of derived files (JSON); bump its version when that changes.
PARSED = Kind("toml", 2)


def parse_toml(text: str) -> dict[str, Any]:
    """``tomllib.loads(text)``, read back from the store of derived files when
    the same text was parsed before (the rule catalogue takes tomllib 30-45 ms;
    its JSON, 2): a file keyed by the text (referee/store/files.py). A text
    holding what JSON cannot keep (a TOML date) is parsed every time; text that
    is not TOML raises tomllib's error, as tomllib does."""
    return PARSED.fetch(key_of(text), lambda: _parse(text), _encode, _decode)


def _parse(text: str) -> dict[str, Any]:
    import tomllib  # here: a text parsed before needs only json

    return tomllib.loads(text)


def _encode(parsed: dict[str, Any]) -> bytes:
    return json.dumps(parsed, ensure_ascii=False).encode("utf-8")


def _decode(content: bytes) -> dict[str, Any]:
    parsed = json.loads(content)
    if not isinstance(parsed, dict):
        raise TypeError("not a table")
    return parsed


def _key_parts(text: str) -> tuple[str, ...]:
    return tuple(p[1:-1] if p[:1] in "\"'" else p for p in _KEY_PART_RE.findall(text))


class TomlSource:
    """A TOML file's text, to give errors a line, a column and the source line."""

    def __init__(self, name: str, text: str, error: type[RefereeError], duplicate_hint: str = ""):
        self.name = name
        self.text = text
        self.lines = text.splitlines()
        self.error_class = error
        self.duplicate_hint = duplicate_hint  # said after a key defined twice

    def parse(self) -> dict[str, Any]:
        try:
            return parse_toml(self.text)
        except ValueError as exc:
            import tomllib  # imported by parse_toml already, when it parsed

            if not isinstance(exc, tomllib.TOMLDecodeError):
                raise
            message = str(exc)
            line = col = None
            m = _TOML_POS_RE.search(message)
            if m:
                line, col = int(m.group(1)), int(m.group(2))
                message = message[: m.start()]
            elif (end := _TOML_END_RE.search(message)) is not None:
                message = message[: end.start()]
                line = max(len(self.lines), 1)
                col = len(self.lines[-1]) + 1 if self.lines else 1
            if "overwrite" in message or "twice" in message or "Duplicate" in message:
                dup = self._first_duplicate_key()
                if dup is not None:
                    line, col, key = dup
                    message = f"{key} is defined twice"
                message += self.duplicate_hint
            message = f"TOML syntax: {message[:1].lower()}{message[1:]}"
            if line is None:
                raise self.error_class(f"{self.name}: {message}") from None
            raise self.error_class(message, Position(self.name, line, col), self._context(line, col)) from None

    def _context(self, line: int, col: int) -> str:
        if not 1 <= line <= len(self.lines):
            return ""
        text = self.lines[line - 1].replace("\t", " ")
        return f"{text}\n{' ' * max(col - 1, 0)}^"

    def error(self, message: str, path: tuple[str, ...] = (), token: str | None = None) -> RefereeError:
        """An error at the place in the file where ``path`` (a key path such as
        ('places', 'P3')) is written — at ``token`` (a regex; 'LAST:' picks the
        last match) within it — else at the header of the nearest enclosing table."""
        found = self._locate(path, token) if path else None
        if found is None:
            return self.error_class(f"{self.name}: {message}")
        line, col = found
        return self.error_class(message, Position(self.name, line, col), self._context(line, col))

    def _line_paths(self):
        """Yield (line number, key path of the line or None, is_header) for each line
        outside multi-line strings."""
        header: tuple[str, ...] = ()
        in_string: str | None = None
        for number, line in enumerate(self.lines, 1):
            if in_string:
                if line.count(in_string) % 2 == 1:
                    in_string = None
                yield number, None, False
                continue
            path: tuple[str, ...] | None = None
            is_header = False
            m = _HEADER_RE.match(line)
            if m and not line.lstrip().startswith("#"):
                header = _key_parts(m.group(1))
                path, is_header = header, True
            else:
                k = _KEYLINE_RE.match(line)
                if k:
                    path = header + _key_parts(k.group(1))
            for quote in ('"""', "'''"):
                if line.count(quote) % 2 == 1:
                    in_string = quote
            yield number, path, is_header

    def _first_duplicate_key(self) -> tuple[int, int, str] | None:
        seen: set[tuple[str, ...]] = set()
        for number, path, is_header in self._line_paths():
            if path is None:
                continue
            if path in seen:
                line = self.lines[number - 1]
                col = len(line) - len(line.lstrip()) + 1
                what = f"[{'.'.join(path)}]" if is_header else ".".join(path)
                return number, col, what
            seen.add(path)
        return None

    def _locate(self, path: tuple[str, ...], token: str | None) -> tuple[int, int] | None:
        region: list[int] = []
        enclosing: tuple[int, int] | None = None  # (matched length, line) of the nearest table
        for number, line_path, is_header in self._line_paths():
            if line_path is None:
                if region:
                    region.append(number)
                continue
            related = line_path[: len(path)] == path or (not is_header and path[: len(line_path)] == line_path)
            if related:
                region.append(number)
                continue
            if region:
                break
            if is_header and path[: len(line_path)] == line_path and (enclosing is None or len(line_path) > enclosing[0]):
                enclosing = (len(line_path), number)
        if not region:
            if enclosing is None:
                return None
            region = [enclosing[1]]
        if token:
            last = token.startswith("LAST:")
            pattern = re.compile(token[5:] if last else token)
            hits = [(n, m.start() + 1) for n in region for m in pattern.finditer(self.lines[n - 1])]
            if hits:
                return hits[-1] if last else hits[0]
        first = self.lines[region[0] - 1]
        return region[0], len(first) - len(first.lstrip()) + 1
