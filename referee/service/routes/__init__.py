"""The service's endpoints, one router per concern: the questions about a
transcript, the tables, what the service knows and its state, the page."""
