"""The questions a user asks of a record (check, explain, moves, picture), the
one value of a check's options (options.py) and the report that answers them,
as text and as JSON (schema/)."""
