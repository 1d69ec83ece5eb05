"""Luna (Stefan Feld, 2010): rule programs, notation reading, data, words."""
