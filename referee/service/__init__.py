"""The referee as an HTTP service (referee serve): the app, its worker pool,
the club's tables, the server around it and the page (web/)."""
