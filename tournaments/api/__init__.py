"""The REST API for events: thin views over tournaments' services and selectors."""
