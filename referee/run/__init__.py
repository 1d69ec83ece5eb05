"""Checking archives: which files are records, the one bounded worker process
(bounded.py, the service's workers too) and its jobs for a record, here or on a
Dask cluster, the resumable archive report and its summary."""
