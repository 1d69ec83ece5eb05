"""Checking archives: which files are records, one bounded worker process per
core (or on a Dask cluster), the resumable archive report and its summary."""
