"""Signals the matches app sends for apps above it (notifications) to react to.

Verdicts are stored in bulk (``rows_update``), which sends no model signals; the verification
service sends these instead.
"""

from django.dispatch import Signal

# Sent with ``run_ids=`` (a list of ints) inside the transaction that stored those runs' verdict
# as illegal (the log was refused): receivers write in the same transaction.
logs_refused = Signal()
