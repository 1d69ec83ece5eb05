"""The questions a user asks of a record (check, explain, moves, picture) and
the report that answers them, as text and as JSON (schema/)."""
