"""Background workers: projection runners and the healing worker."""
