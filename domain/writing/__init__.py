"""What a write says of itself beside its command (issue 40): the version of its subject it
was decided on (preconditions.py) and the client it was made through (attribution.py)."""
