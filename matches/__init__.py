"""Players and matches: log submission, verification runs and verdicts, confirmation, disputes."""
