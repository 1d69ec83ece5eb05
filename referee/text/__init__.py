"""Records as text: the generic transcript (header, periods, plays with their
spans), the plain parse tree a game's reader sees, the notation reader (the
only module importing lark) and TOML data files with positioned errors."""
