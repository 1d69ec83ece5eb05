"""The games shipped with the referee, a package each (``referee/games/<game>/``),
registered as entry points of the group ``referee.games`` (pyproject.toml). The
contract they implement is :mod:`referee.game.contract`; nothing outside this
folder names one of them."""
