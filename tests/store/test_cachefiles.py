"""The cache folder's derived files (referee/store/files.py): the parsed TOML
data files are read back from it, and a damaged or foreign file is never
trusted."""

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
    [kept] = folder.glob("toml-*.json")
    monkeypatch.setattr(tomllib, "loads", lambda text: pytest.fail("parsed again"))
    assert parse_toml(TEXT) == {"title": "Zeus", "count": 3, "ratio": 0.5, "gods": {"zeus": {"names": ["Zeus", "宙斯"]}}}
    assert kept.exists()


@pytest.mark.parametrize("junk", ["", "not a checksum\n{}", "0" * 64 + '\n{"title": "Hades"}', "\xff\xfe"])
def test_a_damaged_or_foreign_cache_file_is_parsed_again(folder, junk):
    parse_toml(TEXT)
    [kept] = folder.glob("toml-*.json")
    kept.write_text(junk, encoding="utf-8")
    assert parse_toml(TEXT) == tomllib.loads(TEXT)
    assert parse_toml(TEXT) == tomllib.loads(TEXT)  # and the file was written anew
    assert kept.read_text(encoding="utf-8") != junk


def test_a_checksummed_file_that_is_not_a_table_is_parsed_again(folder):
    from referee.store.files import write_checked

    parse_toml(TEXT)
    [kept] = folder.glob("toml-*.json")
    write_checked(kept, "[1, 2]")  # a matching checksum, but not what a TOML text parses to
    assert parse_toml(TEXT) == tomllib.loads(TEXT)


def test_a_date_is_not_kept_and_still_parsed(folder):
    text = "when = 2026-12-01\n"
    assert parse_toml(text) == tomllib.loads(text)
    assert not list(folder.glob("toml-*.json"))


def test_a_syntax_error_keeps_its_line_and_column(folder):
    source = TomlSource("board.toml", 'a = 1\nb = "open\n', RefereeError)
    with pytest.raises(RefereeError) as error:
        source.parse()
    assert error.value.position.line == 2
    assert not list(folder.glob("toml-*.json"))


def test_the_catalogue_is_the_same_read_back(folder):
    load_catalogue.cache_clear()
    first = load_catalogue("cyclades")
    load_catalogue.cache_clear()
    second = load_catalogue("cyclades")  # from the cache folder this time
    load_catalogue.cache_clear()
    assert list(folder.glob("toml-*.json"))
    assert first == second


def test_the_folder_keeps_a_bounded_number_of_files_of_each_kind(folder, monkeypatch):
    """Each version of a data file (a board edited again and again, each test's
    data) adds a parsed file: the folder keeps the newest KEEP_PER_KIND of each
    kind, and leaves other kinds and other files alone."""
    import hashlib
    import os

    from referee.store import files as cachefiles
    from referee.text.toml_source import PARSED_FORMAT

    monkeypatch.setattr(cachefiles, "KEEP_PER_KIND", 5)
    folder.mkdir(parents=True)
    other = folder / "judgements-1.sqlite"
    other.write_text("not ours to delete")
    for n in range(8):
        text = f"n = {n}\n"
        parse_toml(text)
        written = folder / f"toml-{PARSED_FORMAT}-{hashlib.sha256(text.encode()).hexdigest()[:32]}.json"
        os.utime(written, (1000 + n, 1000 + n))  # written one after the other (mtimes a second apart)
    assert sorted(f.read_text(encoding="utf-8").split("\n", 1)[1] for f in folder.glob("toml-*.json")) == \
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
        assert looked_up == [1] and len(list(folder.glob("entrypoints-*.json"))) == 1
        game.forget_games()  # as a new process
        assert game.known_games() == first and looked_up == [1]
        (site / "another-0.1.dist-info").mkdir()  # installed: the folder's time changes
        game.forget_games()
        assert game.known_games() == first and looked_up == [1, 1]
    finally:
        game.forget_games()
