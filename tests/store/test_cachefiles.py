"""The store of derived files (referee/store/files.py): a file is read back
only when its first line (kind, version, key, checksum) matches its content; a
damaged, cut short, renamed or other version's file of every kind is rebuilt,
never trusted; files are written whole, by their owner only, and each kind is
bounded. The parsed TOML data files and the games' entry points, read back."""

import hashlib
import os
import tomllib

import pytest

from referee.base.errors import RefereeError
from referee.game.catalogue import load_catalogue
from referee.text.toml_source import TomlSource, parse_toml

TEXT = 'title = "Zeus"\ncount = 3\nratio = 0.5\n[gods.zeus]\nnames = ["Zeus", "宙斯"]\n'


@pytest.fixture
def folder(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    return tmp_path / "referee"


def test_a_parsed_file_is_read_back_from_the_cache(folder, monkeypatch):
    assert parse_toml(TEXT) == tomllib.loads(TEXT)
    [kept] = folder.glob("toml-*")
    monkeypatch.setattr(tomllib, "loads", lambda text: pytest.fail("parsed again"))
    assert parse_toml(TEXT) == {"title": "Zeus", "count": 3, "ratio": 0.5, "gods": {"zeus": {"names": ["Zeus", "宙斯"]}}}
    assert kept.exists()


@pytest.mark.parametrize("junk", ["", "not a checksum\n{}", "0" * 64 + '\n{"title": "Hades"}', "\xff\xfe",
                                  "referee toml 2 " + "0" * 32 + " " + "0" * 64 + '\n{"title": "Hades"}'])
def test_a_damaged_or_foreign_cache_file_is_parsed_again(folder, junk):
    parse_toml(TEXT)
    [kept] = folder.glob("toml-*")
    kept.write_text(junk, encoding="utf-8")
    assert parse_toml(TEXT) == tomllib.loads(TEXT)
    assert parse_toml(TEXT) == tomllib.loads(TEXT)  # and the file was written anew
    assert kept.read_text(encoding="utf-8") != junk


def test_a_checksummed_file_that_is_not_a_table_is_parsed_again(folder):
    from referee.store.files import key_of
    from referee.text.toml_source import PARSED

    parse_toml(TEXT)
    PARSED.write(key_of(TEXT), b"[1, 2]")  # a matching checksum, but not what a TOML text parses to
    assert parse_toml(TEXT) == tomllib.loads(TEXT)


def test_a_date_is_not_kept_and_still_parsed(folder):
    text = "when = 2026-12-01\n"
    assert parse_toml(text) == tomllib.loads(text)
    assert not list(folder.glob("toml-*"))


def test_a_syntax_error_keeps_its_line_and_column(folder):
    source = TomlSource("board.toml", 'a = 1\nb = "open\n', RefereeError)
    with pytest.raises(RefereeError) as error:
        source.parse()
    assert error.value.position.line == 2
    assert not list(folder.glob("toml-*"))


def test_the_catalogue_is_the_same_read_back(folder):
    load_catalogue.cache_clear()
    first = load_catalogue("cyclades")
    load_catalogue.cache_clear()
    second = load_catalogue("cyclades")  # from the cache folder this time
    load_catalogue.cache_clear()
    assert list(folder.glob("toml-*"))
    assert first == second


def test_the_folder_keeps_a_bounded_number_of_files_of_each_kind(folder, monkeypatch):
    """Each version of a data file (a board edited again and again, each test's
    data) adds a parsed file: the folder keeps the newest KEEP_PER_KIND of each
    kind, and leaves other kinds and other files alone."""
    from referee.store import files as cachefiles
    from referee.store.files import key_of
    from referee.text.toml_source import PARSED

    monkeypatch.setattr(cachefiles, "KEEP_PER_KIND", 5)
    folder.mkdir(parents=True)
    other = folder / "judgements-1.sqlite"
    other.write_text("not ours to delete")
    for n in range(8):
        text = f"n = {n}\n"
        parse_toml(text)
        written = PARSED.path(key_of(text))
        os.utime(written, (1000 + n, 1000 + n))  # written one after the other (mtimes a second apart)
    assert sorted(f.read_text(encoding="utf-8").split("\n", 1)[1] for f in folder.glob("toml-*")) == \
        ['{"n": %d}' % n for n in range(3, 8)]
    assert other.exists()


def test_the_games_entry_points_are_kept_until_a_folder_of_sys_path_changes(folder, tmp_path, monkeypatch):
    """Looking the games up (importlib.metadata) is kept in the cache folder under
    the folders of sys.path and their modification times: the next process reads
    them back; a distribution installed into (or removed from) one of those
    folders changes its time, and the games are looked up again."""
    from importlib import metadata

    from referee.game import registry as game

    site = tmp_path / "site"
    site.mkdir()
    os.utime(site, ns=(10**9, 10**9))  # long ago: the install below surely changes it
    monkeypatch.syspath_prepend(str(site))
    looked_up = []
    real = metadata.entry_points
    monkeypatch.setattr(metadata, "entry_points", lambda **kw: looked_up.append(1) or real(**kw))
    try:
        game.forget_games()
        first = game.known_games()
        assert looked_up == [1] and len(list(folder.glob("entrypoints-*"))) == 1
        game.forget_games()  # as a new process
        assert game.known_games() == first and looked_up == [1]
        (site / "another-0.1.dist-info").mkdir()  # installed: the folder's time changes
        game.forget_games()
        assert game.known_games() == first and looked_up == [1, 1]
    finally:
        game.forget_games()


# -- the store itself ---------------------------------------------------------------------

def test_a_file_is_read_back_only_as_it_was_written(folder):
    from referee.store.files import Kind, key_of

    kind, key = Kind("sample", 3), key_of("derived", "from this")
    kind.write(key, b"content\nover lines")
    assert kind.read(key) == b"content\nover lines"
    assert kind.path(key).name.startswith("sample-3-")
    assert oct(kind.path(key).stat().st_mode & 0o777) == "0o600"  # the owner's only
    assert [f.name for f in folder.iterdir()] == [kind.path(key).name]  # no temporary file left
    good = kind.path(key).read_bytes()
    for damaged in (good[:-1], good[:-1] + b"X", good.split(b"\n", 1)[1], b"", good.replace(b"sample 3", b"sample 4")):
        kind.path(key).write_bytes(damaged)
        assert kind.read(key) is None
    kind.path(key).write_bytes(good)
    assert Kind("sample", 4).read(key) is None  # another version's file is another file
    Kind("sample", 4).path(key).write_bytes(good)  # ... and a file renamed is refused by its first line
    assert Kind("sample", 4).read(key) is None
    other = key_of("derived", "from that")
    kind.path(other).write_bytes(good)
    assert kind.read(other) is None


def test_fetch_builds_once_and_rebuilds_what_it_refuses(folder):
    from referee.store.files import Kind, key_of

    kind, key, built = Kind("sample", 1), key_of("x"), []

    def build():
        built.append(1)
        return "value"

    def decode(content: bytes) -> str:
        if content != b"value":
            raise ValueError("not a value")
        return content.decode()

    assert kind.fetch(key, build, str.encode, decode) == "value" and built == [1]
    assert kind.fetch(key, build, str.encode, decode) == "value" and built == [1]
    kind.write(key, b"other")  # its checksum matches, but the decoder refuses it
    assert kind.fetch(key, build, str.encode, decode) == "value" and built == [1, 1]
    assert kind.read(key) == b"value"  # written anew

    def refuse(value):
        raise TypeError("cannot keep this")

    assert kind.fetch(key_of("y"), build, refuse, decode) == "value"
    assert not kind.path(key_of("y")).exists()


def test_a_folder_that_cannot_be_written_loses_only_time(tmp_path, monkeypatch):
    from referee.store.files import Kind, key_of

    (tmp_path / "referee").write_text("a file where the folder would be")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    kind = Kind("sample", 1)
    assert kind.fetch(key_of("x"), lambda: "value", str.encode, bytes.decode) == "value"
    assert kind.read(key_of("x")) is None


# -- every kind of derived file, damaged, cut short or another version's, is rebuilt ------

def _toml():
    return parse_toml(TEXT)


def _entry_points():
    from referee.game import registry

    registry.forget_games()
    return registry.known_games()


def _parser():
    from referee.game.notation import notation
    from referee.text import parser

    parser._parser.cache_clear()
    tree = parser._parser(notation("cyclades")).parse("game: cyclades\n", start="start")
    parser._parser.cache_clear()
    return str(tree)


PROGRAM = "p(X) :- q(X).\n#show p/1.\n% -- judged --\nq(1).\n"


def _indexed():
    from referee.judge import engine

    engine._INDEXED.clear()
    return engine.cached_indexed(PROGRAM)


def _outlines():
    from referee.judge import engine

    engine._RELEVANCE.clear()
    return engine._relevance(PROGRAM, engine._parsed(PROGRAM)).outlines


def _kept():
    from referee.judge import relevance_store

    file = relevance_store.KeptFile(("rules", "static facts"), 10, frozenset({0}))
    if file.get("input") is None:
        file.note("input", (0, 3, 7))
        relevance_store.write_all()
    return relevance_store.KeptFile(("rules", "static facts"), 10, frozenset({0})).get("input")


KINDS = {"toml": _toml, "entrypoints": _entry_points, "lark": _parser, "indexed": _indexed, "outlines": _outlines,
         "kept": _kept}


@pytest.mark.parametrize("damage", ["flipped", "cut short", "another version", "empty"])
@pytest.mark.parametrize("kind", KINDS)
def test_a_damaged_or_other_version_file_of_each_kind_is_rebuilt(folder, kind, damage):
    derive = KINDS[kind]
    first = derive()
    [path] = folder.glob(f"{kind}-*")
    good = path.read_bytes()
    header, content = good.split(b"\n", 1)
    name, version = header.split(b" ")[1:3]
    junk = {"flipped": header + b"\n" + content[:-1] + bytes([content[-1] ^ 1]),
            "cut short": good[: len(good) // 2],
            "another version": header.replace(b" " + version + b" ", b" %d " % (int(version) - 1)) + b"\n" + content,
            "empty": b""}[damage]
    assert name.decode() == kind
    path.write_bytes(junk)
    assert derive() == first
    again_header, again = path.read_bytes().split(b"\n", 1)  # rebuilt, and written anew
    assert again_header.split(b" ")[:4] == header.split(b" ")[:4]
    assert again_header.split(b" ")[4].decode() == hashlib.sha256(again).hexdigest()


def test_the_judgement_cache_of_another_version_is_left_alone(tmp_path, monkeypatch):
    """The judgement cache is a database (SQLite writes it), named by its
    format: an older version's file is another file, never opened; a file of
    that name which is not this version's is not used, and left alone."""
    import sqlite3

    from referee.base.terms import Fn
    from referee.store import judgements

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.delenv("REFEREE_CACHE")
    path = judgements.default_path()
    assert path == tmp_path / "referee" / f"judgements-{judgements.FORMAT}.sqlite"
    path.parent.mkdir(parents=True)
    with sqlite3.connect(path) as db:
        db.execute(f"PRAGMA application_id = {judgements.APPLICATION_ID}")
        db.execute(f"PRAGMA user_version = {judgements.FORMAT - 1}")
        db.execute("CREATE TABLE judgement (key BLOB PRIMARY KEY, value TEXT, checksum BLOB)")
    before = path.read_bytes()
    store = judgements.JudgementStore(path)
    assert store.initial_state("rules") is None
    store.keep_initial_state("rules", frozenset({Fn("a")}))
    assert store.initial_state("rules") is None and path.read_bytes() == before
    fresh = judgements.JudgementStore(tmp_path / "new.sqlite")
    fresh.keep_initial_state("rules", frozenset({Fn("a")}))
    assert fresh.initial_state("rules") == frozenset({Fn("a")})
    assert oct((tmp_path / "new.sqlite").stat().st_mode & 0o777) == "0o600"
